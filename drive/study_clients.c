/* study_clients.c - a level measured by K in-process load generators, merged (see
 * study_clients.h). */
#include "study_clients.h"

#include "curve.h"
#include "merge.h"
#include "point.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* One client: its configuration, its run's result. */
struct client_job {
    struct probe_config cfg;
    unsigned threads; /* the level */
    struct probe_result r;
    int rc; /* probe_run's */
};

static void *client_main(void *arg)
{
    struct client_job *j = arg;
    j->rc = probe_run(&j->cfg, j->threads, &j->r);
    return NULL;
}

/* User + system CPU of this process, s. */
static double process_cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return NAN;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static int64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The record's fields a part and the merged point carry. POINT_OK or POINT_ENOMEM. */
static int set_fields(struct point *p, const struct study_clients_out *o)
{
    int rc = point_set_str(&p->target, o->target);
    if (!rc && o->config)
        rc = point_set_str(&p->config, o->config);
    if (!rc && o->tool)
        rc = point_set_str(&p->tool, o->tool);
    if (!rc && o->options) {
        json_decref(p->options);
        if (!(p->options = json_deep_copy(o->options)))
            rc = POINT_ENOMEM;
    }
    return rc;
}

/* The fault flags of a merged point, "a,b" ("" when none), into buf. */
static const char *fault_flags(const struct point *p, char *buf, size_t cap)
{
    static const char *const faults[] = {"stalled",     "reconnects",  "partial",
                                         "interrupted", "fatal_error", "server_unreachable"};
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        if (point_has_flag(p, faults[i]) && len + strlen(faults[i]) + 2 < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? "," : "", faults[i]);
    return buf;
}

/* Run the level's K clients, one thread each, from one gate (every client waits with its
 * connections open until then), and join them; the process's CPU before and after into *cpu0
 * and *cpu1. PROBE_LEVEL_OK, or PROBE_LEVEL_FAILED when a thread could not start (said; those
 * started, *started of them, are joined). */
static enum probe_level_status run_clients(const struct probe_config *cfg, unsigned clients,
                                           unsigned threads, struct client_job *jobs,
                                           pthread_t *tid, size_t *started, double *cpu0,
                                           double *cpu1)
{
    enum probe_level_status st = PROBE_LEVEL_OK;
    unsigned seed = cfg->rand_seed ? cfg->rand_seed : (unsigned)time(NULL);
    /* one gate for all: every client waits with its connections open until then */
    int64_t gate = wall_ns() + (int64_t)(STUDY_CLIENTS_GATE_S * 1e9);
    *cpu0 = process_cpu_s();
    for (unsigned k = 0; k < clients; k++) {
        struct client_job *j = &jobs[k];
        j->cfg = *cfg;
        j->cfg.client_index = k;
        j->cfg.client_count = clients;
        j->cfg.start_at_unix_ns = gate;
        j->cfg.rand_seed = seed; /* each client's stream: seed + index x 2654435769 (probe.h) */
        j->cfg.out = NULL;       /* K reports would interleave: one line per level instead */
        j->cfg.progress = NULL;
        j->threads = threads;
        probe_result_init(&j->r);
        if (pthread_create(&tid[k], NULL, client_main, j) != 0) {
            fprintf(stderr, "sizeup: cannot start load generator %u of %u\n", k + 1, clients);
            st = PROBE_LEVEL_FAILED;
            break;
        }
        (*started)++;
    }
    for (size_t k = 0; k < *started; k++)
        pthread_join(tid[k], NULL);
    *cpu1 = process_cpu_s();
    return st;
}

/* How the level ended: the worst of its clients (a failed run, then a connection refused or
 * unreachable; each said). PROBE_LEVEL_OK when every client measured. */
static enum probe_level_status clients_end(const struct client_job *jobs, unsigned clients)
{
    enum probe_level_status st = PROBE_LEVEL_OK;
    for (unsigned k = 0; k < clients; k++) {
        const struct client_job *j = &jobs[k];
        if (j->rc != 0) {
            fprintf(stderr, "sizeup: client %u of %u: %s\n", k + 1, clients, j->r.err.msg);
            st = PROBE_LEVEL_FAILED;
        } else if (j->r.end == PROBE_END_CONNECT && st == PROBE_LEVEL_OK) {
            int unreachable = j->r.err.cls == MYCONN_RECONNECT || j->r.err.errnum == 2005;
            fprintf(stderr, "sizeup: client %u of %u: %s\n", k + 1, clients, j->r.err.msg);
            st = unreachable ? PROBE_LEVEL_UNREACHABLE : PROBE_LEVEL_REFUSED;
        }
    }
    return st;
}

/* The clients' parts into parts[] (*filled of them to destroy), each named "client K of N" in
 * where[]/wherep[] and written to the parts file, without its share of the process's CPU.
 * PROBE_LEVEL_OK or PROBE_LEVEL_FAILED (said). */
static enum probe_level_status make_parts(const struct client_job *jobs, unsigned clients,
                                          const struct study_clients_out *o, struct point *parts,
                                          char (*where)[32], const char **wherep, size_t *filled)
{
    for (unsigned k = 0; k < clients; k++) {
        struct point *p = &parts[k];
        point_init(p);
        (*filled)++;
        if (probe_fill_point(&jobs[k].cfg, &jobs[k].r, p) != POINT_OK ||
            set_fields(p, o) != POINT_OK) {
            fprintf(stderr, "sizeup: out of memory\n");
            return PROBE_LEVEL_FAILED;
        }
        p->client_cpu_s = NAN;
        snprintf(where[k], sizeof where[k], "client %u of %u", k + 1, clients);
        wherep[k] = where[k];
        if (o->parts && probe_session_write(o->parts, p) != 0) {
            fprintf(stderr, "sizeup: %s\n", probe_session_msg(o->parts));
            return PROBE_LEVEL_FAILED;
        }
    }
    return PROBE_LEVEL_OK;
}

/* The merged point m's figures into lv (its fault flags into flags, cap bytes), its line to
 * o->log. @return the level's status: interrupted or fatal when a client's run was, flagged
 * when the point does not count, else PROBE_LEVEL_OK. */
static enum probe_level_status merged_figures(const struct point *m, const struct client_job *jobs,
                                              unsigned clients, unsigned threads,
                                              const struct slo *stat,
                                              const struct study_clients_out *o, char *flags,
                                              size_t cap, struct probe_level *lv)
{
    enum probe_level_status st = PROBE_LEVEL_OK;
    lv->tps = m->tps;
    lv->latency_ms = stat->pct == 0 ? m->latency_ms.avg : point_percentile(m, stat->pct);
    fault_flags(m, flags, cap);
    lv->counts = curve_point_counts(m) && m->transactions > 0;
    lv->kept_s = m->duration_s;
    if (o->log) {
        fprintf(o->log,
                "%u threads over %u clients (merged): %.2f tps, latency %s %.2f ms, "
                "%.0f transactions%s%s\n",
                threads, clients, m->tps, stat->pct == 0 ? "avg" : "percentile", lv->latency_ms,
                (double)m->transactions, flags[0] ? ", flagged " : "", flags);
        fflush(o->log);
    }
    for (unsigned k = 0; k < clients; k++)
        if (jobs[k].r.end == PROBE_END_INTERRUPTED)
            st = PROBE_LEVEL_INTERRUPTED;
    for (unsigned k = 0; st == PROBE_LEVEL_OK && k < clients; k++)
        if (jobs[k].r.end == PROBE_END_FATAL)
            st = PROBE_LEVEL_FATAL;
    if (st == PROBE_LEVEL_OK && !lv->counts)
        st = PROBE_LEVEL_FLAGGED;
    return st;
}

enum probe_level_status study_clients_level(const struct probe_config *cfg, unsigned clients,
                                            unsigned threads, const struct slo *stat,
                                            const struct study_clients_out *o,
                                            struct probe_level *lv)
{
    static char flags[160];
    struct client_job *jobs = calloc(clients, sizeof *jobs);
    pthread_t *tid = calloc(clients, sizeof *tid);
    struct point *parts = calloc(clients, sizeof *parts);
    char(*where)[32] = calloc(clients, sizeof *where);
    const char **wherep = calloc(clients, sizeof *wherep);
    struct point_list merged;
    enum probe_level_status st = PROBE_LEVEL_OK;
    size_t started = 0, filled = 0;
    double cpu0, cpu1;
    char msg[600];

    memset(lv, 0, sizeof *lv);
    lv->threads = threads;
    lv->attempts = 1;
    lv->tps = lv->latency_ms = lv->ci95_tps = NAN;
    lv->flags = flags;
    flags[0] = '\0';
    point_list_init(&merged);
    if (!jobs || !tid || !parts || !where || !wherep) {
        fprintf(stderr, "sizeup: out of memory\n");
        st = PROBE_LEVEL_FAILED;
        goto out;
    }
    st = run_clients(cfg, clients, threads, jobs, tid, &started, &cpu0, &cpu1);
    if (st != PROBE_LEVEL_OK)
        goto out;
    st = clients_end(jobs, clients);
    if (st != PROBE_LEVEL_OK)
        goto out; /* a client measured nothing: no part, no point */

    /* the parts: each written to the parts file, without its share of the process's CPU */
    st = make_parts(jobs, clients, o, parts, where, wherep, &filled);
    if (st != PROBE_LEVEL_OK)
        goto out;
    if (merge_parts(parts, wherep, clients, MERGE_SKEW_S, &merged, stderr, msg, sizeof msg) !=
            MERGE_OK ||
        merged.n != 1) {
        fprintf(stderr, "sizeup: merging the %u clients' parts: %s\n", clients, msg);
        st = PROBE_LEVEL_FAILED;
        goto out;
    }
    merged.items[0].client_cpu_s = cpu1 - cpu0; /* the process's, once */
    if (probe_session_write(o->results, &merged.items[0]) != 0) {
        fprintf(stderr, "sizeup: %s\n", probe_session_msg(o->results));
        st = PROBE_LEVEL_FAILED;
        goto out;
    }
    st = merged_figures(&merged.items[0], jobs, clients, threads, stat, o, flags, sizeof flags, lv);
out:
    lv->status = st;
    for (size_t k = 0; jobs && k < started; k++)
        probe_result_destroy(&jobs[k].r);
    for (size_t k = 0; k < filled; k++)
        point_destroy(&parts[k]);
    point_list_destroy(&merged);
    free(jobs);
    free(tid);
    free(parts);
    free(where);
    free(wherep);
    return st;
}
