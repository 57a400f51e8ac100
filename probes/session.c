/* session.c - a probe session: one server, levels written as points (see session.h). */
#include "session.h"

#include "oltp.h"
#include "report.h"
#include "sbtables.h"
#include "srvstat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct probe_session {
    struct probe_session_opts o;
    FILE *out;
    char msg[4096];
    struct myconn_error err;
    unsigned max_connections;
    char flags[96];
    struct point last; /* the last attempt's record */
    int said_srv;      /* SRV_SAID_*: what about the server's counters was said already */
};

/* Said once per session about the server block (srvstat.h). */
enum { SRV_SAID_UNREAD = 1, SRV_SAID_MISSING = 2, SRV_SAID_CPU = 4, SRV_SAID_PART = 8 };

struct probe_session *probe_session_new(const struct probe_session_opts *o, char *err, size_t cap)
{
    struct probe_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    s->o = *o;
    point_init(&s->last);
    if (o->out_path && !(s->out = fopen(o->out_path, "a"))) {
        snprintf(err, cap, "cannot open --out %s: %s", o->out_path, strerror(errno));
        free(s);
        return NULL;
    }
    return s;
}

void probe_session_free(struct probe_session *s)
{
    if (!s)
        return;
    if (s->out)
        fclose(s->out);
    point_destroy(&s->last);
    free(s);
}

const char *probe_session_msg(const struct probe_session *s)
{
    return s->msg;
}

const struct myconn_error *probe_session_error(const struct probe_session *s)
{
    return &s->err;
}

unsigned probe_session_max_connections(const struct probe_session *s)
{
    return s->max_connections;
}

static int on_max_connections(void *ctx, unsigned n, const char *const *row)
{
    unsigned long v;
    char *end;
    if (n < 2 || !row[1]) /* SHOW VARIABLES: Variable_name, Value */
        return 1;
    v = strtoul(row[1], &end, 10);
    if (*end == '\0' && v > 0 && v <= 1000000)
        *(unsigned *)ctx = (unsigned)v;
    return 1;
}

/* The server cannot be reached (as opposed to refusing us). */
static int unreachable(const struct myconn_error *e)
{
    return e->cls == MYCONN_RECONNECT || e->errnum == 2005 /* CR_UNKNOWN_HOST */;
}

/* sysbench's FATAL lines on the report stream, sizeup's message on progress. */
static void connect_failure(struct probe_session *s, const struct myconn_error *e)
{
    const struct probe_config *cfg = s->o.cfg;
    if (cfg->out) {
        if (strcmp(e->func, "mysql_real_connect") == 0)
            fprintf(cfg->out,
                    "FATAL: unable to connect to MySQL server on host '%s', port %u, "
                    "aborting...\nFATAL: error %u: %s\n",
                    cfg->conn.socket ? "localhost"
                    : cfg->conn.host ? cfg->conn.host
                                     : "localhost",
                    cfg->conn.port, e->errnum, e->msg);
        else
            fprintf(cfg->out,
                    "FATAL: %s() returned error %u (%s)\nFATAL: Thread initialization failed!\n",
                    e->func, e->errnum, e->msg);
        fflush(cfg->out);
    }
    snprintf(s->msg, sizeof s->msg,
             "cannot connect or prepare statements: error %u (SQLSTATE %s): %s", e->errnum,
             e->sqlstate, e->msg);
}

int probe_session_open(struct probe_session *s)
{
    struct myconn c;
    int rc;
    memset(&c, 0, sizeof c);
    memset(&s->err, 0, sizeof s->err);
    rc = myconn_connect(&c, &s->o.cfg->conn);
    if (rc == 0)
        /* a SHOW statement: Com_select stays the workload's */
        rc = myconn_query_rows(&c, "SHOW VARIABLES LIKE 'max_connections'", on_max_connections,
                               &s->max_connections);
    if (rc) {
        s->err = c.err;
        connect_failure(s, &c.err);
        if (unreachable(&c.err))
            rc = MYCONN_RECONNECT;
    }
    myconn_close(&c);
    return -rc;
}

int probe_session_check(struct probe_session *s)
{
    memset(&s->err, 0, sizeof s->err);
    return sbtables_check(s->o.cfg, s->msg, sizeof s->msg, &s->err);
}

int probe_session_prepare(struct probe_session *s, unsigned threads)
{
    return sbtables_prepare(s->o.cfg, threads ? threads : 1, s->msg, sizeof s->msg);
}

int probe_session_cleanup(struct probe_session *s)
{
    return sbtables_cleanup(s->o.cfg, s->msg, sizeof s->msg);
}

/* ---- one level ----------------------------------------------------------------------------- */

static const char *level_kind(const struct probe_config *c)
{
    return c->precision > 0 ? "calibrated" : c->time_s > 0 ? "time-limited" : "event-limited";
}

/* Throughput of a level: of the kept ticks when calibrated, else of the whole run. */
static double level_tps(const struct probe_result *r)
{
    if (r->calibrated)
        return r->kept_s > 0 ? (double)r->kept.events / r->kept_s : 0.0;
    return r->elapsed_s > 0 ? (double)r->tot.events / r->elapsed_s : 0.0;
}

static double level_pct_ms(const struct probe_result *r, double pct)
{
    const struct hist *h = r->calibrated ? r->kept_hist : r->hist;
    uint64_t v = 0;
    if (!h || h->count == 0 || !(pct > 0))
        return NAN;
    hist_percentile(h, pct, &v);
    return (double)v / 1e6;
}

static double level_avg_ms(const struct probe_result *r)
{
    const struct hist *h = r->calibrated ? r->kept_hist : r->hist;
    if (!h || h->count == 0)
        return NAN;
    return hist_mean_ns(h) / 1e6;
}

/* Fill in the session's target, config, tool and options. POINT_OK or POINT_ENOMEM. */
static int session_fields(const struct probe_session *s, struct point *p)
{
    int rc = POINT_OK;
    if (!p->target)
        rc = point_set_str(&p->target, s->o.target);
    if (!rc && s->o.config && !p->config)
        rc = point_set_str(&p->config, s->o.config);
    if (!rc && s->o.tool && !p->tool)
        rc = point_set_str(&p->tool, s->o.tool);
    if (!rc && s->o.options && !p->options && !(p->options = json_deep_copy(s->o.options)))
        rc = POINT_ENOMEM;
    return rc;
}

/* Append p to --out and fsync it. 0, or -1 with msg. */
static int append_record(struct probe_session *s, const struct point *p)
{
    struct point_error err;
    int rc;
    if (!s->out)
        return 0;
    rc = point_write(s->out, p, &err);
    if (rc == POINT_OK && fsync(fileno(s->out)) != 0 && errno != EINVAL) {
        snprintf(err.msg, sizeof err.msg, "fsync: %s", strerror(errno));
        rc = POINT_EIO;
    }
    if (rc != POINT_OK)
        snprintf(s->msg, sizeof s->msg, "cannot write the record to %s: %s", s->o.out_path,
                 err.msg);
    return rc == POINT_OK ? 0 : -1;
}

int probe_session_write(struct probe_session *s, const struct point *p)
{
    struct point q;
    int rc;
    if (!s->out)
        return 0;
    point_init(&q);
    rc = point_copy(&q, p);
    if (!rc)
        rc = session_fields(s, &q);
    if (rc) {
        snprintf(s->msg, sizeof s->msg, "out of memory");
        point_destroy(&q);
        return -1;
    }
    rc = append_record(s, &q);
    point_destroy(&q);
    return rc;
}

/* The level's record (kept as s->last), appended to --out and fsync'ed. 0, or -1 with msg. */
static int write_point(struct probe_session *s, const struct probe_config *cfg,
                       const struct probe_result *r, const json_t *interval,
                       const struct srvstat_snap *before, const struct srvstat_snap *after,
                       const char *flag)
{
    struct point *p = &s->last;
    int rc;
    point_destroy(p);
    point_init(p);
    rc = probe_fill_point(cfg, r, p);
    if (!rc && flag)
        rc = point_add_flag(p, flag);
    if (!rc && srvstat_demand(before, after, r->tot.events, level_tps(r), p) == POINT_ENOMEM)
        rc = POINT_ENOMEM;
    if (!rc)
        rc = session_fields(s, p);
    if (!rc && interval) {
        json_t *c = json_deep_copy(interval);
        if (!p->extra)
            p->extra = json_object();
        if (!c || !p->extra || json_object_set_new(p->extra, "interval", c))
            rc = POINT_ENOMEM;
    }
    if (rc) {
        snprintf(s->msg, sizeof s->msg, "cannot write the record to %s: out of memory",
                 s->o.out_path ? s->o.out_path : "memory");
        return -1;
    }
    return append_record(s, p);
}

/* Read the server's counters for a level (srvstat.h); what cannot be had is said once. A part
 * of a multi-client level does not read them: the server's counters hold every client's
 * transactions, which this process does not know. */
static void server_snapshot(struct probe_session *s, int first, struct srvstat_snap *snap)
{
    const struct probe_config *cfg = s->o.cfg;
    char err[300], missing[300];
    srvstat_init(snap);
    if (cfg->client_count > 0) {
        if (first && !(s->said_srv & SRV_SAID_PART) && cfg->progress)
            fprintf(cfg->progress, "sizeup probe: a part of a multi-client level: the server's "
                                   "counters per transaction are left out of its record (they "
                                   "count every client's transactions)\n");
        s->said_srv |= SRV_SAID_PART;
        return;
    }
    if (srvstat_read(&cfg->conn, first, snap, err, sizeof err) != 0) {
        if (!(s->said_srv & SRV_SAID_UNREAD) && cfg->progress)
            fprintf(cfg->progress,
                    "sizeup probe: the server's counters could not be read (%s): this level's "
                    "record has no server block\n",
                    err);
        s->said_srv |= SRV_SAID_UNREAD;
        return;
    }
    if (!first)
        return;
    if (srvstat_missing(snap, missing, sizeof missing)[0] && !(s->said_srv & SRV_SAID_MISSING) &&
        cfg->progress)
        fprintf(cfg->progress,
                "sizeup probe: the server has no %s: the server block leaves out what needs "
                "them\n",
                missing);
    if (isnan(snap->cpu_s) && !(s->said_srv & SRV_SAID_CPU) && cfg->progress)
        fprintf(cfg->progress,
                "sizeup probe: the server's CPU time per transaction is left out: "
                "%s\n",
                snap->cpu_why);
    s->said_srv |= SRV_SAID_MISSING | SRV_SAID_CPU;
}

/* The fault flags of a result, as its record carries them ("" when none). */
static const char *fault_flags(struct probe_session *s, const struct probe_result *r)
{
    s->flags[0] = '\0';
    if (r->end == PROBE_END_PARTIAL)
        strcat(s->flags, "partial,");
    if (r->stalled)
        strcat(s->flags, "stalled,");
    if (r->tot.reconnects > 0)
        strcat(s->flags, "reconnects,");
    if (s->flags[0])
        s->flags[strlen(s->flags) - 1] = '\0';
    return s->flags;
}

static void progress_lines(struct probe_session *s, const struct probe_result *r)
{
    const struct probe_config *cfg = s->o.cfg;
    FILE *f = cfg->progress;
    double pct, lat;
    char stat[16];
    if (!f)
        return;
    if (r->calibrated) {
        char hw[64];
        if (isfinite(r->rel95))
            snprintf(hw, sizeof hw, "+/- %.2f %%", 100 * r->rel95);
        else /* a run too short for its batch means: never "nan" */
            snprintf(hw, sizeof hw, "+/- unknown (too few ticks for an interval)");
        fprintf(f,
                "sizeup probe: %u threads: %.2f tps %s (95 %%, asked %.2f %%), %s; "
                "warm-up %.2f s cut, %.2f s kept of %.2f s\n",
                r->threads, level_tps(r), hw, 100 * cfg->precision,
                r->steady    ? "steady"
                : r->stalled ? "NOT steady (stalled)"
                             : "NOT steady (stopped at --max-time or earlier)",
                r->warmup_s, r->kept_s, r->elapsed_s);
    }
    /* the statistic asked (--slo, else --percentile), not a fixed p95 (issue 28.15) */
    pct = s->o.latency.pct;
    lat = pct == 0 ? level_avg_ms(r) : level_pct_ms(r, pct);
    if (pct == 0)
        snprintf(stat, sizeof stat, "avg");
    else
        snprintf(stat, sizeof stat, "p%g", pct);
    fprintf(f,
            "sizeup probe: %u threads: %.2f tps, %s %.2f ms, %lu errors, %lu reconnects, "
            "client CPU %.2f s%s%s\n",
            r->threads, level_tps(r), stat, isnan(lat) ? 0.0 : lat,
            (unsigned long)(r->calibrated ? r->kept.errors : r->tot.errors),
            (unsigned long)r->tot.reconnects, r->client_cpu_s, s->out ? " -> " : "",
            s->out ? s->o.out_path : "");
    if (r->workers > 0) {
        double tx = (double)r->tot.events;
        fprintf(f,
                "sizeup probe: %u threads: load generator: %u worker thread%s, the busiest used "
                "%.0f %% of a CPU and waited for the server %.0f %% of the time; %.2f us of "
                "client CPU per transaction\n",
                r->threads, r->workers, r->workers == 1 ? "" : "s", 100 * r->worker_cpu_max,
                100 * (1 - r->worker_busy_max), tx > 0 ? 1e6 * r->client_cpu_s / tx : 0.0);
        if (r->client_bound)
            fprintf(f,
                    "sizeup probe: %u threads: warning: the load generator may be the "
                    "bottleneck (a worker thread used %.0f %% of a CPU): give it more "
                    "--workers (this host has %u CPUs) or more clients (--client, "
                    "docs/load-generator.md)\n",
                    r->threads, 100 * r->worker_cpu_max, r->cpus_online);
        if (probe_client_delay_material(r, level_avg_ms(r)))
            fprintf(f,
                    "sizeup probe: %u threads: warning: the client's own delay is %.3f ms of "
                    "the %.3f ms mean latency (%.0f %%, at least): answers waited while a "
                    "worker handled others; give it more --workers or fewer connections per "
                    "worker (flagged client_delay)\n",
                    r->threads, r->client_delay_avg_ms, level_avg_ms(r),
                    100 * r->client_delay_avg_ms / level_avg_ms(r));
        if (!r->client_bound && r->worker_busy_max >= 0.9 &&
            r->worker_cpu_max < 0.6 * r->worker_busy_max)
            fprintf(f,
                    "sizeup probe: %u threads: warning: a worker thread was ready to send %.0f "
                    "%% of the time but ran only %.0f %%: this host's CPUs are busy with "
                    "something else, so the client may have limited the throughput\n",
                    r->threads, 100 * r->worker_busy_max, 100 * r->worker_cpu_max);
    }
    if (cfg->client_count > 0)
        fprintf(f, "sizeup probe: client %u of %u: %u of the level's %u connections\n",
                cfg->client_index + 1, cfg->client_count, r->threads, r->level_threads);
    if (cfg->client_count > 0 && r->start_late_s > 0.05)
        fprintf(f,
                "sizeup probe: warning: the level started %.3f s after --start-at (connecting "
                "took longer): sizeup merge will say how far the clients' windows differ\n",
                r->start_late_s);
    if (cfg->rate > 0)
        fprintf(f,
                "sizeup probe: open loop at %.0f/s: start lag behind the intended start avg "
                "%.3f ms, max %.3f ms (included in the latencies)\n",
                cfg->rate, r->lag_avg_ms, r->lag_max_ms);
}

/* After a fault: wait for the server. 0 it answers, else the level status to return. */
static enum probe_level_status wait_server(struct probe_session *s, unsigned threads,
                                           const char *why)
{
    const struct probe_config *cfg = s->o.cfg;
    struct myconn_error e;
    int rc;
    if (cfg->progress)
        fprintf(cfg->progress,
                "sizeup probe: %u threads: %s; waiting up to %.0f s for the server to answer\n",
                threads, why, s->o.give_up_s);
    memset(&e, 0, sizeof e);
    rc = myconn_wait_answer(&cfg->conn, s->o.give_up_s, cfg->stop, &e);
    if (rc == 0)
        return PROBE_LEVEL_OK;
    if (rc == 1)
        return PROBE_LEVEL_INTERRUPTED;
    s->err = e;
    snprintf(s->msg, sizeof s->msg, "the server did not answer within %.0f s (last error %u: %s)%s",
             s->o.give_up_s, e.errnum, e.msg,
             rc == -MYCONN_FATAL ? "; it refuses the connection" : "");
    return rc == -MYCONN_FATAL ? PROBE_LEVEL_REFUSED : PROBE_LEVEL_UNREACHABLE;
}

enum probe_level_status probe_session_level(struct probe_session *s, unsigned threads,
                                            struct probe_level *lv)
{
    return probe_session_level_with(s, threads, NULL, lv);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 1 when a table the workload touches is no longer sizeup's (sbtables_check: its mark and
 * shape), said in s->msg with when ("before" or "after" the level of threads). A check that
 * cannot reach the server says nothing here: the level's own connections tell. */
static int tables_changed(struct probe_session *s, unsigned threads, const char *when)
{
    char why[2048];
    struct myconn_error err;
    if (!s->o.recheck_tables)
        return 0;
    memset(&err, 0, sizeof err);
    if (sbtables_check(s->o.cfg, why, sizeof why, &err) != SBTABLES_REFUSED)
        return 0;
    if (strcmp(when, "before") == 0)
        snprintf(s->msg, sizeof s->msg,
                 "the tables changed before the level of %u thread%s: %s; nothing was run on "
                 "them, and the run stops",
                 threads, threads == 1 ? "" : "s", why);
    else
        snprintf(s->msg, sizeof s->msg,
                 "the tables changed after the level of %u thread%s: a table was swapped in "
                 "during it, and the level's statements (writes too) went to it: %s; the "
                 "level's record is flagged tables_changed, and the run stops",
                 threads, threads == 1 ? "" : "s", why);
    return 1;
}

/* A level's report on cfg->out (when set): its FATAL line, else sysbench's summary. */
static void report_level(const struct probe_config *cfg, const struct probe_result *r)
{
    if (!cfg->out)
        return;
    if (r->end == PROBE_END_FATAL)
        fprintf(cfg->out, "FATAL: %s() returned error %u (%s) for query '%s'\n",
                r->err.func[0] ? r->err.func : "mysql_stmt_execute", r->err.errnum, r->err.msg,
                r->err_sql);
    else
        report_summary(cfg->out, r, cfg->percentile);
    fflush(cfg->out);
}

/* A recorded level's figures into lv (its record s->last; cost_s since t0, s); whether it
 * counts (not changed, not flagged, ended well, some transaction). @return its fault flags
 * (fault_flags: "" when none). */
static const char *level_figures(struct probe_session *s, const struct probe_result *r, double t0,
                                 int changed, struct probe_level *lv)
{
    const char *flags;
    lv->record = &s->last;
    progress_lines(s, r);
    lv->tps = level_tps(r);
    lv->ci95_tps = r->calibrated ? r->ci95_tps : NAN;
    lv->kept_s = r->calibrated ? r->kept_s : r->elapsed_s;
    lv->cost_s = now_s() - t0;
    lv->steady = r->calibrated && r->steady;
    lv->latency_ms = s->o.latency.pct == 0 ? level_avg_ms(r) : level_pct_ms(r, s->o.latency.pct);
    flags = fault_flags(s, r);
    lv->counts = !changed && !flags[0] && r->end == PROBE_END_OK &&
                 (r->calibrated ? r->kept.events : r->tot.events) > 0;
    return flags;
}

/* A recorded level that does not count (flagged, or no transaction; flags its fault flags):
 * wait for the server (wait_server), the level's error kept when it ended partial. r is
 * destroyed. @return wait_server's status. */
static enum probe_level_status wait_after(struct probe_session *s, unsigned threads,
                                          struct probe_result *r, const char *flags)
{
    char why[200];
    snprintf(why, sizeof why, "the level %s (%s)",
             flags[0] ? "is flagged" : "completed no transaction",
             flags[0] ? flags : "it cannot count");
    if (r->end == PROBE_END_PARTIAL)
        s->err = r->err;
    probe_result_destroy(r);
    return wait_server(s, threads, why);
}

enum probe_level_status probe_session_level_with(struct probe_session *s, unsigned threads,
                                                 const struct probe_level_opts *lo,
                                                 struct probe_level *lv)
{
    struct probe_config level_cfg = *s->o.cfg;
    const struct probe_config *cfg = &level_cfg;
    const json_t *interval = lo ? lo->interval : NULL;
    if (lo && lo->max_time_s > 0 && level_cfg.precision > 0)
        level_cfg.max_time_s = fmax(lo->max_time_s, level_cfg.min_time_s + PROBE_TICK_S);
    memset(lv, 0, sizeof *lv);
    lv->threads = threads;
    lv->tps = lv->latency_ms = lv->ci95_tps = NAN;
    lv->record = NULL;
    lv->flags = s->flags;
    s->flags[0] = '\0';
    s->msg[0] = '\0';
    for (unsigned attempt = 0;; attempt++) {
        struct probe_result r;
        struct srvstat_snap before, after;
        enum probe_level_status st;
        const char *flags;
        double t0 = now_s();
        int wrc, changed;
        lv->attempts = attempt + 1;
        if (attempt > 0 && cfg->progress)
            fprintf(cfg->progress, "sizeup probe: %u threads, %s: measuring again (%u of %u)\n",
                    threads, level_kind(cfg), attempt, s->o.remeasure);
        /* the tables are still sizeup's (issue 27.9: a user's sysbench-shaped table renamed
         * into place between levels was written to): nothing runs on a table that is not */
        if (tables_changed(s, threads, "before")) {
            srvstat_init(&before);
            return lv->status = PROBE_LEVEL_REFUSED;
        }
        server_snapshot(s, 1, &before);
        if (probe_run(cfg, threads, &r) != 0) {
            snprintf(s->msg, sizeof s->msg, "%s", r.err.msg);
            probe_result_destroy(&r);
            srvstat_destroy(&before);
            return lv->status = PROBE_LEVEL_FAILED;
        }
        /* a level that stalled, reconnected or did not end well does not count: no block, and
         * no wait on a server that may still be frozen */
        if (before.ok && r.end == PROBE_END_OK && !r.stalled && r.tot.reconnects == 0)
            server_snapshot(s, 0, &after);
        else
            srvstat_init(&after);
        if (r.end == PROBE_END_CONNECT) {
            srvstat_destroy(&before);
            s->err = r.err;
            connect_failure(s, &r.err);
            probe_result_destroy(&r);
            if (!unreachable(&s->err) || attempt >= s->o.remeasure)
                return lv->status =
                           unreachable(&s->err) ? PROBE_LEVEL_UNREACHABLE : PROBE_LEVEL_REFUSED;
            st = wait_server(s, threads, "the server could not be reached");
            if (st != PROBE_LEVEL_OK)
                return lv->status = st;
            continue;
        }
        report_level(cfg, &r);
        /* and after it: a table swapped in during the level was run on; its record is flagged
         * and the run stops (the level's own statements could not be held back). A level that
         * did not end well does not count and is measured again after the check before it; no
         * wait on a server that may still be frozen */
        changed = r.end == PROBE_END_OK && !r.stalled && r.tot.reconnects == 0 &&
                  tables_changed(s, threads, "after");
        wrc = write_point(s, cfg, &r, interval, &before, &after, changed ? "tables_changed" : NULL);
        srvstat_destroy(&before);
        srvstat_destroy(&after);
        if (wrc != 0) {
            probe_result_destroy(&r);
            return lv->status = PROBE_LEVEL_FAILED;
        }
        flags = level_figures(s, &r, t0, changed, lv);
        if (changed) {
            probe_result_destroy(&r);
            return lv->status = PROBE_LEVEL_FATAL;
        }
        if (r.end == PROBE_END_INTERRUPTED) {
            probe_result_destroy(&r);
            return lv->status = PROBE_LEVEL_INTERRUPTED;
        }
        if (r.end == PROBE_END_FATAL) {
            snprintf(s->msg, sizeof s->msg,
                     "fatal error %u (SQLSTATE %s): %s; the level's point is marked partial",
                     r.err.errnum, r.err.sqlstate, r.err.msg);
            s->err = r.err;
            probe_result_destroy(&r);
            return lv->status = PROBE_LEVEL_FATAL;
        }
        if (lv->counts) {
            probe_result_destroy(&r);
            return lv->status = PROBE_LEVEL_OK;
        }
        st = wait_after(s, threads, &r, flags);
        if (st != PROBE_LEVEL_OK)
            return lv->status = st;
        if (attempt >= s->o.remeasure) {
            snprintf(s->msg, sizeof s->msg,
                     "%u threads: the level is still flagged (%s) after %u measurement%s; its "
                     "records are kept and do not count",
                     threads, flags[0] ? flags : "no transaction", attempt + 1, attempt ? "s" : "");
            return lv->status = PROBE_LEVEL_FLAGGED;
        }
    }
}

/* ---- the defaults and the options object ----------------------------------------------------- */

void probe_config_defaults(struct probe_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    oltp_opts_default(&cfg->oltp);
    cfg->conn.ps_mode = MYCONN_PS_AUTO;
    if (myconn_ignore_parse("1213,1020,1205", &cfg->conn.ignore) != 0)
        abort(); /* a constant list */
    cfg->conn.connect_timeout_s = 5;
    cfg->conn.timeout_s = 10;
    if (sbrand_params_init(&cfg->rand, SBRAND_SPECIAL, 12, 1, 75, 0.2) != 0)
        abort();     /* constant parameters in their ranges */
    cfg->time_s = 0; /* calibrated: the precision decides the length */
    cfg->precision = 0.02;
    cfg->min_time_s = 5;
    cfg->max_time_s = 60;
    cfg->percentile = 95;
    cfg->give_up_s = 30;
}

json_t *probe_config_json(const struct probe_config *c)
{
    static const char *const ssl[] = {"DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA",
                                      "VERIFY_IDENTITY"};
    const struct oltp_opts *o = &c->oltp;
    char ignore[MYCONN_MAX_IGNORE * 6 + 8] = "";
    json_t *j = json_pack(
        "{s:s,s:I,s:I,s:f,s:I,s:f,s:I,s:f,s:s,s:I,s:I,s:I,s:I,s:f}", "workload",
        oltp_workload_name(o->workload), "tables", (json_int_t)o->tables, "table_size",
        (json_int_t)o->table_size, "time", c->time_s, "events", (json_int_t)c->events, "rate",
        c->rate, "report_interval", (json_int_t)c->report_interval_s, "percentile", c->percentile,
        "rand_type", sbrand_dist_name(c->rand.dist), "rand_seed", (json_int_t)c->rand_seed,
        "rand_spec_iter", (json_int_t)c->rand.iter, "rand_spec_pct", (json_int_t)c->rand.pct,
        "rand_spec_res", (json_int_t)c->rand.res, "rand_pareto_h", c->rand.pareto_h);
    if (!j)
        return NULL;
    json_object_update_new(
        j, json_pack(
               "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:b,s:b,s:b,s:b,s:b,s:s}", "range_size",
               (json_int_t)o->range_size, "point_selects", (json_int_t)o->point_selects,
               "simple_ranges", (json_int_t)o->simple_ranges, "sum_ranges",
               (json_int_t)o->sum_ranges, "order_ranges", (json_int_t)o->order_ranges,
               "distinct_ranges", (json_int_t)o->distinct_ranges, "index_updates",
               (json_int_t)o->index_updates, "non_index_updates", (json_int_t)o->non_index_updates,
               "delete_inserts", (json_int_t)o->delete_inserts, "range_selects", o->range_selects,
               "skip_trx", o->skip_trx, "auto_inc", o->auto_inc, "secondary", o->secondary,
               "create_secondary", o->create_secondary, "mysql_storage_engine", o->storage_engine));
    if (o->workload == OLTP_SELECT_RANDOM_POINTS)
        json_object_set_new(j, "random_points", json_integer(o->random_points));
    if (o->workload == OLTP_SELECT_RANDOM_RANGES) {
        json_object_set_new(j, "number_of_ranges", json_integer(o->number_of_ranges));
        json_object_set_new(j, "delta", json_integer(o->delta));
    }
    if (c->conn.ignore.all)
        snprintf(ignore, sizeof ignore, "all");
    for (size_t i = 0; i < c->conn.ignore.n && !c->conn.ignore.all; i++)
        snprintf(ignore + strlen(ignore), sizeof ignore - strlen(ignore), "%s%u", i ? "," : "",
                 c->conn.ignore.codes[i]);
    json_object_set_new(j, "mysql_ignore_errors", json_string(ignore));
    json_object_set_new(j, "db_ps_mode",
                        json_string(c->conn.ps_mode == MYCONN_PS_AUTO ? "auto" : "disable"));
    if (c->conn.socket || c->conn.host)
        json_object_set_new(j, "mysql_host",
                            json_string(c->conn.socket ? "localhost" : c->conn.host));
    if (c->conn.socket)
        json_object_set_new(j, "mysql_socket", json_string(c->conn.socket));
    else if (c->conn.port)
        json_object_set_new(j, "mysql_port", json_integer(c->conn.port));
    if (c->conn.user)
        json_object_set_new(j, "mysql_user", json_string(c->conn.user));
    if (c->conn.db)
        json_object_set_new(j, "mysql_db", json_string(c->conn.db));
    json_object_set_new(j, "mysql_ssl_mode", json_string(ssl[c->conn.ssl_mode]));
    if (c->conn.timeout_s)
        json_object_set_new(j, "mysql_timeout", json_integer(c->conn.timeout_s));
    if (c->precision > 0) {
        json_object_del(j, "time");
        json_object_set_new(j, "precision", json_real(c->precision));
        json_object_set_new(j, "min_time", json_real(c->min_time_s));
        json_object_set_new(j, "max_time", json_real(c->max_time_s));
    }
    return j;
}
