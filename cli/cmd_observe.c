/*
 * cmd_observe.c - `sizeup observe`: sample a running server read-only every --interval for
 * --duration and write the sizeup.workload/1 record (workload.h, docs/workload-record.md):
 * throughput per interval and its percentiles, the statement mix and its sysbench
 * equivalent, running sessions, I/O per transaction, the data size and the probe table for the
 * working set. Progress on stderr; the record rewritten whole after every interval, so a
 * killed observation keeps what it sampled; a summary on stdout at the end.
 */
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "conn_cli.h"
#include "observe.h"
#include "outfile.h"
#include "stopflag.h"
#include "units.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef SIZEUP_VERSION
#define SIZEUP_VERSION "0.0.0"
#endif

/* Threads_running samples per interval (at least OBS_SAMPLE_MIN_S apart). */
#define OBS_SESSION_SAMPLES 10
#define OBS_SAMPLE_MIN_S 0.1
/* Most intervals of one record (about 450 bytes each written: under 100 MB, which rank
 * --require reads whole); --duration / --interval beyond it is refused, --until-interrupted
 * stops there. */
#define OBS_MAX_INTERVALS 200000
/* Intervals up to which the record is rewritten after every one (then once a minute). */
#define OBS_REWRITE_EVERY 100

struct observe_cli {
    struct conn_cli cc;
    struct myconn_opts conn;
    struct myconn_where where; /* the files' values, from the first connection */
    int tls_status;            /* CLI_RUN, or the exit status of a TLS conflict */
    char target[300];          /* "host:port" as asked, for messages before a connection */
    double interval_s, duration_s, give_up_s, mysql_timeout_s;
    int until_interrupted;
    const char *out;
};

#define A(field) CLI_AT(struct observe_cli, field)
static const struct cli_opt observe_options[] = {
    CONN_CLI_OPTIONS(struct observe_cli, cc, conn),
    {"interval", 0, CLI_SECONDS, A(interval_s), .min = 1, .max = 3600, .dflt = "10s",
     .help = "length of one interval: the server's counters are read at its ends, running "
             "sessions "
             "10 times in it"},
    {"duration", 0, CLI_SECONDS, A(duration_s), .min = 1, .max = 31 * 86400.0, .dflt = "10m",
     .help = "how long to observe"},
    {"until-interrupted", 0, CLI_FLAG, A(until_interrupted),
     .help = "observe until SIGINT or SIGTERM (a busy-hour window), not --duration; the "
             "signal is then the normal end (exit 0)"},
    {"out", 'o', CLI_PATH, A(out), .dflt_doc = "the record to stdout at the end, no summary",
     .help = "the sizeup.workload/1 record, rewritten whole after every interval"},
    {"mysql-timeout", 0, CLI_SECONDS, A(mysql_timeout_s), .min = 1, .max = 3600, .dflt = "10s",
     .help = "read/write timeout of every statement"},
    {"give-up", 0, CLI_SECONDS, A(give_up_s), .min = 1, .max = 86400, .dflt = "60s",
     .help = "how long a lost server may take to answer again before the observation ends "
             "(exit 4, what was sampled kept)"},
    {0}};
#undef A

const struct cli_cmd cmd_observe_cli = {
    .name = "observe",
    .usage = "Usage: sizeup observe [OPTIONS] [-o WORKLOAD.json]",
    .description =
        "Sample a running MySQL-protocol server (MariaDB, MySQL) read-only and write what it\n"
        "carries as a sizeup.workload/1 record (docs/workload-record.md): transactions and\n"
        "queries per second per interval with mean, p50, p95, p99 and max, statements per\n"
        "second by class, running sessions, I/O per transaction, the buffer-pool hit ratio,\n"
        "the data size per schema, the mix of sysbench workloads that issues the same\n"
        "statements (with its residual) and a probe table size for the working set. Size for\n"
        "it with `sizeup rank --require WORKLOAD.json`.\n"
        "\n"
        "Only SHOW GLOBAL STATUS, SHOW GLOBAL VARIABLES and SELECTs of information_schema\n"
        "(TABLES; INNODB_METRICS when readable) are sent: nothing is written, created, locked\n"
        "or set, and no privilege beyond USAGE is needed (PROCESS for InnoDB's transaction\n"
        "counters). Transactions per second: InnoDB's own commit and rollback counters when\n"
        "they are on (innodb_monitor_enable = 'trx_%'), else COMMITs and ROLLBACKs plus the\n"
        "statements that ran in autocommit (the record names the rule).\n"
        "\n" CONN_CLI_DOC,
    .options = observe_options,
    .min_operands = 0,
    .max_operands = 0,
    .epilog = "Exit status: 0 done; 1 the server refused a statement or the record could not\n"
              "be written; 2 bad command line; 4 the server could not be reached, or went away\n"
              "and did not answer within --give-up (what was sampled is kept); 130 interrupted\n"
              "(SIGINT or SIGTERM without --until-interrupted; what was sampled is kept)."};

/* CLOCK_MONOTONIC, s: the clock the snapshots carry (obs_status.t_mono_s) */
static double now_s(void)
{
    return clock_ns_to_s(clock_now_ns());
}

/* Sleep until t (monotonic) or a stop, in steps of at most 0.1 s. @return 1 when stopped. */
static int sleep_until(double t)
{
    for (;;) {
        double left = t - now_s();
        struct timespec ts;
        if (stopflag_signal())
            return 1;
        if (left <= 0)
            return 0;
        if (left > 0.1)
            left = 0.1;
        ts.tv_sec = 0;
        ts.tv_nsec = (long)(left * 1e9);
        nanosleep(&ts, NULL);
    }
}

/* A counter's delta, b - a; -1 in *back when it went back (a restart or FLUSH STATUS). */
struct deltas {
    const struct obs_status *a, *b;
    const char *back; /* the first counter that went back, or NULL */
    uint64_t back_a, back_b;
};

static double delta(struct deltas *ds, const char *name, int *have)
{
    uint64_t x, y;
    if (!obs_status_get(ds->a, name, &x) || !obs_status_get(ds->b, name, &y)) {
        if (have)
            *have = 0;
        return 0;
    }
    if (have)
        *have = 1;
    if (y < x) {
        if (!ds->back) {
            ds->back = name;
            ds->back_a = x;
            ds->back_b = y;
        }
        return 0;
    }
    return (double)(y - x);
}

static double delta_sum(struct deltas *ds, const char *const *names)
{
    double s = 0;
    for (; *names; names++)
        s += delta(ds, *names, NULL);
    return s;
}

/* The interval's deltas from two snapshots of one connection; why it is left out into why
 * ("" when counted). */
static void interval_delta(const struct obs_status *a, const struct obs_status *b,
                           struct workload_delta *d, char *why, size_t cap)
{
    static const char *const ins[] = {"Com_insert", "Com_insert_select", "Com_replace",
                                      "Com_replace_select", NULL};
    static const char *const upd[] = {"Com_update", "Com_update_multi", NULL};
    static const char *const del[] = {"Com_delete", "Com_delete_multi", NULL};
    static const char *const ends[] = {"Com_commit", "Com_rollback", "Com_xa_commit",
                                       "Com_xa_rollback", NULL};
    struct deltas ds = {a, b, NULL, 0, 0};
    uint64_t up_a = 0, up_b = 0;
    int have;
    memset(d, 0, sizeof *d);
    why[0] = '\0';
    d->seconds = b->t_mono_s - a->t_mono_s;
    d->questions = delta(&ds, "Questions", NULL) - (double)(b->own_queries - a->own_queries);
    d->selects = delta(&ds, "Com_select", NULL) - (double)(b->own_selects - a->own_selects);
    d->select_range = delta(&ds, "Select_range", NULL);
    /* each statement of the observer's is one Select_scan (a SHOW, an information_schema read) */
    d->scans = delta(&ds, "Select_scan", NULL) + delta(&ds, "Select_full_join", NULL) -
               (double)(b->own_queries - a->own_queries);
    d->inserts = delta_sum(&ds, ins);
    d->updates = delta_sum(&ds, upd);
    d->deletes = delta_sum(&ds, del);
    d->ends = delta_sum(&ds, ends);
    d->aborted = delta(&ds, "Innodb_deadlocks", &have);
    if (!have)
        d->aborted = NAN;
    d->data_reads = delta(&ds, "Innodb_data_reads", NULL);
    d->data_writes = delta(&ds, "Innodb_data_writes", NULL);
    d->log_writes = delta(&ds, "Innodb_log_writes", NULL);
    d->data_fsyncs = delta(&ds, "Innodb_data_fsyncs", NULL);
    d->log_fsyncs = delta(&ds, "Innodb_os_log_fsyncs", &have);
    if (!have)
        d->log_fsyncs = NAN;
    d->bytes_read = delta(&ds, "Innodb_data_read", NULL);
    d->bytes_written = delta(&ds, "Innodb_data_written", NULL);
    d->log_bytes_written = delta(&ds, "Innodb_os_log_written", NULL);
    d->bp_requests = delta(&ds, "Innodb_buffer_pool_read_requests", NULL);
    d->bp_reads = delta(&ds, "Innodb_buffer_pool_reads", NULL);
    d->engine_tx = NAN;
    if (a->have_trx && b->have_trx) {
        double e = 0;
        for (int i = 0; i < OBS_N_TRX; i++) {
            if (b->trx[i] < a->trx[i]) {
                snprintf(why, cap, "InnoDB's transaction counters went back (reset)");
                return;
            }
            e += (double)(b->trx[i] - a->trx[i]);
        }
        d->engine_tx = e;
    }
    if (obs_status_get(a, "Uptime", &up_a) && obs_status_get(b, "Uptime", &up_b) && up_b < up_a)
        snprintf(why, cap, "the server restarted (Uptime %llu s, was %llu s)",
                 (unsigned long long)up_b, (unsigned long long)up_a);
    else if (ds.back)
        snprintf(why, cap, "%s went back (%llu -> %llu): FLUSH STATUS or a restart", ds.back,
                 (unsigned long long)ds.back_a, (unsigned long long)ds.back_b);
    else if (d->questions < 0 || d->selects < 0)
        snprintf(why, cap, "fewer statements than the observer's own: a counter was reset");
}

/* The record to FILE (replaced whole) or stdout. */
static int write_record(const struct observe_cli *oc, struct workload *w)
{
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;
    workload_settle(w);
    if (!f) {
        fprintf(stderr, "sizeup: out of memory\n");
        return -1;
    }
    rc = workload_write(f, w, SIZEUP_VERSION);
    if (fclose(f) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "sizeup: out of memory writing the record\n");
    } else if (oc->out && strcmp(oc->out, "-") != 0) {
        if ((rc = outfile_write(oc->out, buf, len, err, sizeof err)) != 0)
            fprintf(stderr, "sizeup: %s\n", err); /* err names the file */
    } else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "sizeup: cannot write the record to stdout: %s\n", strerror(errno));
        rc = -1;
    }
    free(buf);
    return rc;
}

static void progress(const struct workload *w, const struct workload_interval *iv)
{
    double end = iv->start_s + iv->seconds;
    char sess[48];
    if (iv->excluded[0]) {
        fprintf(stderr, "[ %.0fs ] left out: %s\n", end, iv->excluded);
        return;
    }
    if (iv->n_sessions)
        snprintf(sess, sizeof sess, "%.1f (p95 %.1f)", iv->sessions_mean, iv->sessions_p95);
    else
        snprintf(sess, sizeof sess, "- (no sample)");
    fprintf(stderr,
            "[ %.0fs ] tps: %.2f qps: %.2f (point/range/scan/write/end: %.0f/%.0f/%.0f/%.0f/%.0f) "
            "mix tps: %.2f sessions: %s\n",
            end, iv->tps, iv->qps, iv->rate[WM_POINT], iv->rate[WM_RANGE], iv->rate[WM_SCAN],
            iv->rate[WM_INSERT] + iv->rate[WM_UPDATE] + iv->rate[WM_DELETE], iv->rate[WM_END],
            iv->mix_tps, sess);
    (void)w;
}

static void human_bytes(double b, char *buf, size_t cap)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    while (b >= 1024 && i < 5) {
        b /= 1024;
        i++;
    }
    snprintf(buf, cap, i ? "%.1f %s" : "%.0f %s", b, u[i]);
}

/* The summary on stdout (with -o FILE). */
static void print_summary(const struct observe_cli *oc, const struct workload *w)
{
    struct workload_summary s;
    char b1[32], b2[32];
    if (workload_summarise(w, &s) != 0)
        return;
    printf("sizeup observe: %s:%u (%s), %.0f s in %zu interval%s of %g s, %zu left out%s\n",
           w->host, w->port, w->version, s.seconds, s.counted, s.counted == 1 ? "" : "s",
           w->interval_s, s.excluded, w->complete ? "" : " (incomplete)");
    if (!s.counted) {
        printf("  no interval was counted: nothing to size for\n");
        return;
    }
    printf("  %-20s mean %.1f  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f  (%s rule)\n", "tps",
           s.tps.mean, s.tps.p50, s.tps.p95, s.tps.p99, s.tps.max, w->tps_rule);
    if (s.aborted > 0 && s.transactions > 0)
        printf("  %-20s %.0f of %.0f transactions (%.1f %%): rolled back by InnoDB, counted "
               "as ended; their partial statements may read as other workloads in the mix\n",
               "deadlock victims", s.aborted, s.transactions, 100 * s.aborted / s.transactions);
    printf("  %-20s mean %.1f  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f\n", "qps", s.qps.mean,
           s.qps.p50, s.qps.p95, s.qps.p99, s.qps.max);
    if (w->n_sessions)
        printf("  %-20s mean %.1f  p95 %.1f  max %.0f\n", "sessions running", s.sessions_mean,
               s.sessions_p95, s.sessions_max);
    else
        printf("  %-20s - (no sample: the observation ended before the first)\n",
               "sessions running");
    printf("  %-20s", "mix");
    for (int k = 0; k < WM_N_WORKLOAD; k++)
        if (s.weight[k] > 0)
            printf(" %s %.1f %%", workmix_workload_name((enum workmix_workload)k),
                   100 * s.weight[k]);
    printf("  (residual %.1f %% of statements)\n", 100 * s.mix.residual);
    printf("  %-20s mean %.1f  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f\n", "mix tps", s.mix_tps.mean,
           s.mix_tps.p50, s.mix_tps.p95, s.mix_tps.p99, s.mix_tps.max);
    if (isfinite(s.ios_per_tx))
        printf("  %-20s %.2f I/Os (%.2f reads, %.2f writes), %.2f fsyncs, hit ratio %.2f %%\n",
               "per transaction", s.ios_per_tx, s.reads_per_tx, s.writes_per_tx, s.fsyncs_per_tx,
               100 * s.bp_hit_ratio);
    if (isfinite(s.data_bytes)) {
        human_bytes(s.data_bytes, b1, sizeof b1);
        printf("  %-20s %s in %zu schema%s\n", "data", b1, w->n_schemas,
               w->n_schemas == 1 ? "" : "s");
    }
    human_bytes(isfinite(s.working_set_bytes) ? s.working_set_bytes : 0, b2, sizeof b2);
    printf("  %-20s --tables=%ld --table-size=%ld (working set %s)\n", "probe with", s.probe_tables,
           s.probe_table_size, b2);
    printf("  %-20s sizeup rank --require %s --points POINTS\n", "size for it", oc->out);
}

/* The schemas' sizes into w (sch freed). @return 0 or -1 (memory). */
static int set_schemas(struct workload *w, struct obs_schema *sch, size_t n)
{
    struct workload_schema *v = n ? calloc(n, sizeof *v) : NULL;
    if (n && !v) {
        free(sch);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(v[i].name, sizeof v[i].name, "%s", sch[i].name);
        v[i].bytes = sch[i].bytes;
        v[i].tables = sch[i].tables;
    }
    free(sch);
    free(w->schemas);
    w->schemas = v;
    w->n_schemas = n;
    return 0;
}

/* Connect, reading what a record holds once. @return 0 or the error class. */
static int start(struct observe_cli *oc, struct obs_conn *c, struct workload *w)
{
    struct obs_server srv;
    struct obs_schema *sch = NULL;
    size_t n = 0;
    int rc = obs_connect(c, &oc->conn);
    if (rc == 0) {
        /* the option files as this connection read them: one login in all (conn_cli.h) */
        if ((oc->tls_status = conn_cli_connected(&c->c, &oc->conn, &oc->cc, &oc->where)) != CLI_RUN)
            return MYCONN_FATAL;
        snprintf(w->host, sizeof w->host, "%s",
                 oc->where.has_socket ? "localhost" : oc->where.host);
        w->port = oc->where.has_socket ? 0 : oc->where.port;
        rc = obs_read_server(c, &srv);
    }
    if (rc != 0)
        return rc;
    snprintf(w->version, sizeof w->version, "%s", srv.version);
    snprintf(w->hostname, sizeof w->hostname, "%s", srv.hostname);
    w->buffer_pool_bytes = srv.buffer_pool_bytes;
    w->page_bytes = srv.page_bytes;
    if (srv.performance_schema != 1)
        workload_note(w, "performance_schema is off: not needed, Select_range tells point from "
                         "range SELECTs");
    rc = obs_read_sizes(c, &sch, &n);
    if (rc == MYCONN_RECONNECT)
        return rc;
    if (rc != 0)
        workload_note(w, "the data size is unknown: information_schema.TABLES: %s", c->c.err.msg);
    else if (n == 0)
        workload_note(w, "no table is visible to this account (information_schema.TABLES shows "
                         "only tables it has a privilege on): the data size and the probe table "
                         "are unknown");
    return set_schemas(w, sch, n) ? MYCONN_FATAL : 0;
}

/* The buffer pool's data now (Innodb_buffer_pool_bytes_data, else pages_data x page size). */
static double bp_data(const struct obs_status *s, double page)
{
    uint64_t v;
    if (obs_status_get(s, "Innodb_buffer_pool_bytes_data", &v))
        return (double)v;
    if (obs_status_get(s, "Innodb_buffer_pool_pages_data", &v) && isfinite(page))
        return (double)v * page;
    return NAN;
}

/* The observation loop. @return the exit status. */
static int observe(struct observe_cli *oc, struct workload *w)
{
    struct obs_conn c;
    struct obs_status a, b;
    double t0, end_t, written_at = 0;
    char span[64];
    int rc, status = SIZEUP_EXIT_OK, no_deadlocks_said = 0;
    memset(&c, 0, sizeof c);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    rc = start(oc, &c, w);
    if (rc != 0 && oc->tls_status != CLI_RUN) {
        obs_close(&c);
        return oc->tls_status; /* said on stderr */
    }
    if (rc == 0)
        rc = obs_read_status(&c, &a);
    if (rc != 0) {
        fprintf(stderr, "sizeup observe: %s: %s\n", oc->target, c.c.err.msg);
        obs_close(&c);
        return rc == MYCONN_RECONNECT ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
    }
    snprintf(w->tps_rule, sizeof w->tps_rule, "%s", a.have_trx ? "innodb_metrics" : "status");
    if (!a.have_trx)
        workload_note(w, "tps by the status rule: %s", c.trx_why);
    t0 = a.t_mono_s;
    end_t = t0 + oc->duration_s;
    if (oc->until_interrupted)
        snprintf(span, sizeof span, "until interrupted (SIGINT)");
    else
        snprintf(span, sizeof span, "for %g s", oc->duration_s);
    fprintf(stderr,
            "sizeup observe: %s:%u (%s), every %g s %s; read-only: SHOW GLOBAL STATUS, SHOW "
            "GLOBAL VARIABLES, information_schema\n",
            w->host, w->port, w->version, oc->interval_s, span);
    for (;;) {
        double next = a.t_mono_s + oc->interval_s, step;
        size_t k = 0, first = w->n_sessions;
        int stopped = 0, added = 1;
        char why[200];
        struct workload_delta d;
        if (!oc->until_interrupted && next > end_t)
            next = end_t;
        step = fmax(OBS_SAMPLE_MIN_S, (next - a.t_mono_s) / OBS_SESSION_SAMPLES);
        /* sessions: samples spread over the interval, the first half a step in */
        for (double t = a.t_mono_s + step / 2; t < next && k < OBS_SESSION_SAMPLES * 2; t += step) {
            double running;
            if ((stopped = sleep_until(t)) != 0)
                break;
            rc = obs_threads_running(&c, &running);
            if (rc != 0)
                break;
            k++;
            if (workload_add_session(w, running)) {
                status = SIZEUP_EXIT_FAIL;
                goto done;
            }
        }
        if (!stopped && rc == 0)
            stopped = sleep_until(next);
        if (rc == 0)
            rc = obs_read_status(&c, &b);
        if (rc == MYCONN_RECONNECT) {
            /* the server went away: wait for it, then leave the gap out */
            struct myconn_error err;
            double lost_at = now_s();
            int back;
            fprintf(stderr, "sizeup observe: the server went away (%s); waiting up to %g s\n",
                    c.c.err.msg, oc->give_up_s);
            obs_close(&c);
            back = myconn_wait_answer(&oc->conn, oc->give_up_s, stopflag_get(), &err);
            if (back != 0 || obs_connect(&c, &oc->conn) != 0 || obs_read_status(&c, &b) != 0) {
                if (back == 1) { /* a signal while waiting: the end asked for */
                    snprintf(w->ended, sizeof w->ended, "interrupted");
                    w->complete = oc->until_interrupted;
                    status = oc->until_interrupted ? SIZEUP_EXIT_OK : SIZEUP_EXIT_INTERRUPTED;
                } else {
                    snprintf(w->ended, sizeof w->ended, "server gone");
                    status = SIZEUP_EXIT_UNREACHABLE;
                    fprintf(stderr, "sizeup observe: the server did not answer within %g s: %s\n",
                            oc->give_up_s, err.msg);
                }
                goto done;
            }
            /* the two snapshots come from two connections: only the server's own counters
             * compare (the observer's statement counts start again with each connection) */
            memset(&d, 0, sizeof d);
            d.seconds = b.t_mono_s - a.t_mono_s;
            {
                uint64_t up_a = 0, up_b = 0;
                if (obs_status_get(&a, "Uptime", &up_a) && obs_status_get(&b, "Uptime", &up_b) &&
                    up_b < up_a)
                    snprintf(why, sizeof why, "the server restarted (Uptime %llu s, was %llu s)",
                             (unsigned long long)up_b, (unsigned long long)up_a);
                else
                    snprintf(why, sizeof why, "the connection was lost for %.0f s",
                             b.t_mono_s - lost_at);
            }
            if (workload_add(w, a.t_mono_s - t0, &d, NULL, 0, why)) {
                status = SIZEUP_EXIT_FAIL;
                goto done;
            }
        } else if (rc != 0) {
            fprintf(stderr, "sizeup observe: %s\n", c.c.err.msg);
            snprintf(w->ended, sizeof w->ended, "refused");
            status = SIZEUP_EXIT_FAIL;
            goto done;
        } else if (stopped && b.t_mono_s - a.t_mono_s < 1) {
            added = 0; /* a stop less than a second in: no interval */
        } else {
            interval_delta(&a, &b, &d, why, sizeof why);
            if (workload_add(w, a.t_mono_s - t0, &d, w->sessions + first, k, why[0] ? why : NULL)) {
                status = SIZEUP_EXIT_FAIL;
                goto done;
            }
            if (isnan(d.aborted) && !no_deadlocks_said) {
                no_deadlocks_said = 1;
                workload_note(w, "the server has no Innodb_deadlocks: a transaction rolled back "
                                 "on a deadlock is not counted, and a retried one's statements "
                                 "may read as autocommit transactions");
            }
        }
        if (b.n) {
            if (!strcmp(w->tps_rule, "innodb_metrics") && !b.have_trx)
                workload_note(w,
                              "InnoDB's transaction counters went off after %.0f s: the status "
                              "rule from then on (%s)",
                              b.t_mono_s - t0, c.trx_why[0] ? c.trx_why : "disabled");
            w->buffer_pool_data_bytes = bp_data(&b, w->page_bytes);
            obs_status_free(&a);
            a = b;
            memset(&b, 0, sizeof b);
        }
        if (added && w->n)
            progress(w, &w->iv[w->n - 1]);
        if (w->n >= OBS_MAX_INTERVALS) {
            snprintf(w->ended, sizeof w->ended, "interval limit");
            w->complete = 1;
            workload_note(w, "stopped at %d intervals, the most one record holds",
                          OBS_MAX_INTERVALS);
            break;
        }
        if (stopped) {
            snprintf(w->ended, sizeof w->ended, "interrupted");
            w->complete = oc->until_interrupted;
            status = oc->until_interrupted ? SIZEUP_EXIT_OK : SIZEUP_EXIT_INTERRUPTED;
            break;
        }
        if (!oc->until_interrupted && a.t_mono_s >= end_t - 1e-3) {
            snprintf(w->ended, sizeof w->ended, "duration");
            w->complete = 1;
            break;
        }
        /* the record rewritten whole: every interval while it is small, then once a minute */
        if (oc->out && strcmp(oc->out, "-") != 0 &&
            (w->n <= OBS_REWRITE_EVERY || now_s() - written_at >= 60)) {
            if (write_record(oc, w) != 0) {
                status = SIZEUP_EXIT_FAIL;
                goto done;
            }
            written_at = now_s();
        }
    }
    /* the data size at the end: what the working set is sized from */
    {
        struct obs_schema *sch = NULL;
        size_t n = 0;
        if (obs_read_sizes(&c, &sch, &n) == 0 && n)
            set_schemas(w, sch, n);
        else
            free(sch);
    }
done:
    obs_status_free(&a);
    obs_status_free(&b);
    obs_close(&c);
    return status;
}

int cmd_observe(int argc, char **argv)
{
    struct observe_cli oc;
    struct cli_args a;
    struct myconn_where where;
    struct workload w;
    time_t now;
    struct tm tm;
    int rc, status;
    memset(&oc, 0, sizeof oc);
    oc.conn.connect_timeout_s = 5;
    oc.cc.connect_first = 1; /* one login: the first connection reads the option files */
    oc.tls_status = CLI_RUN;
    if ((rc = cli_parse(&cmd_observe_cli, argc, argv, &oc, &a)) != CLI_RUN)
        return rc;
    if ((rc = conn_cli_check("observe", &cmd_observe_cli, &a, &oc.conn, &oc.cc)) != CLI_RUN)
        return rc;
    if (oc.until_interrupted && cli_given(&cmd_observe_cli, &a, "duration"))
        return cli_usage_error("observe", "--until-interrupted observes until a signal: it "
                                          "excludes --duration");
    if (oc.interval_s > oc.duration_s && !oc.until_interrupted)
        return cli_usage_error("observe", "--interval %g s is longer than --duration %g s",
                               oc.interval_s, oc.duration_s);
    if (!oc.until_interrupted && oc.duration_s / oc.interval_s > OBS_MAX_INTERVALS)
        return cli_usage_error("observe",
                               "--duration %g s in intervals of %g s is %.0f intervals; one record "
                               "holds at most %d: a longer --interval",
                               oc.duration_s, oc.interval_s, oc.duration_s / oc.interval_s,
                               OBS_MAX_INTERVALS);
    oc.conn.timeout_s = (unsigned)ceil(oc.mysql_timeout_s);
    if (!oc.conn.db)
        oc.conn.db = ""; /* no default database: observing needs none */
    workload_init(&w);
    w.interval_s = oc.interval_s;
    now = time(NULL);
    gmtime_r(&now, &tm);
    strftime(w.started, sizeof w.started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    /* the record's file must be writable before anything is observed: an hour of sampling
     * must not end in "cannot write" */
    if (oc.out && strcmp(oc.out, "-") != 0) {
        struct outfile probe_out;
        char err[512];
        if (outfile_open(&probe_out, oc.out, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: %s\n", err);
            return SIZEUP_EXIT_USAGE;
        }
        outfile_abort(&probe_out);
    }
    if ((rc = conn_cli_open(&oc.conn, &oc.cc, &where)) != CLI_RUN) {
        conn_cli_close(&oc.cc);
        return rc;
    }
    /* where the connection goes, as far as the command line says (the files may say more) */
    if (oc.conn.socket)
        snprintf(oc.target, sizeof oc.target, "localhost (%s)", oc.conn.socket);
    else
        snprintf(oc.target, sizeof oc.target, "%s:%u",
                 oc.conn.host ? oc.conn.host : "the option files' host",
                 oc.conn.port ? oc.conn.port : MYCONN_DEFAULT_PORT);
    snprintf(w.host, sizeof w.host, "%s", oc.conn.host ? oc.conn.host : "localhost");
    w.port = oc.conn.port;
    if (stopflag_install() != 0) {
        fprintf(stderr, "sizeup: cannot handle SIGINT/SIGTERM: %s\n", strerror(errno));
        conn_cli_close(&oc.cc);
        return SIZEUP_EXIT_FAIL;
    }
    status = observe(&oc, &w);
    stopflag_restore();
    if (w.n || status == SIZEUP_EXIT_OK || status == SIZEUP_EXIT_INTERRUPTED) {
        if (write_record(&oc, &w) != 0) {
            if (status == SIZEUP_EXIT_OK)
                status = SIZEUP_EXIT_FAIL;
        } else if (oc.out && strcmp(oc.out, "-") != 0) {
            print_summary(&oc, &w);
        }
    }
    workload_destroy(&w);
    conn_cli_close(&oc.cc);
    return status;
}
