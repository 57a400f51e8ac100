/*
 * observe_drive.c - the sampling loop of `sizeup observe` (observe_drive.h): connect, read the
 * server once, then every interval its counters at the ends and its running sessions in between,
 * the deltas into the workload record.
 */
#include "observe_drive.h"

#include "clock.h"
#include "observe.h"
#include "outfile.h"
#include "stopflag.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Threads_running samples per interval (at least OBS_SAMPLE_MIN_S apart). */
#define OBS_SESSION_SAMPLES 10
#define OBS_SAMPLE_MIN_S 0.1
/* Intervals up to which the record is rewritten after every one (then once a minute). */
#define OBS_REWRITE_EVERY 100

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

/* The counter's b - a (0 when it went back: noted in ds); *have 0 when either lacks it. */
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

/* The sum of the deltas of a NULL-ended list of counters. */
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

int observe_drive_write(const struct observe_drive_opts *o, struct workload *w)
{
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;
    workload_settle(w);
    if (!f) {
        fprintf(o->progress, "sizeup: out of memory\n");
        return -1;
    }
    rc = workload_write(f, w, o->version);
    if (fclose(f) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(o->progress, "sizeup: out of memory writing the record\n");
    } else if (o->out && strcmp(o->out, "-") != 0) {
        if ((rc = outfile_write(o->out, buf, len, err, sizeof err)) != 0)
            fprintf(o->progress, "sizeup: %s\n", err); /* err names the file */
    } else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(o->progress, "sizeup: cannot write the record to stdout: %s\n", strerror(errno));
        rc = -1;
    }
    free(buf);
    return rc;
}

/* The interval's progress line (or why it was left out). */
static void progress(FILE *f, const struct workload_interval *iv)
{
    double end = iv->start_s + iv->seconds;
    char sess[48];
    if (iv->excluded[0]) {
        fprintf(f, "[ %.0fs ] left out: %s\n", end, iv->excluded);
        return;
    }
    if (iv->n_sessions)
        snprintf(sess, sizeof sess, "%.1f (p95 %.1f)", iv->sessions_mean, iv->sessions_p95);
    else
        snprintf(sess, sizeof sess, "- (no sample)");
    fprintf(f,
            "[ %.0fs ] tps: %.2f qps: %.2f (point/range/scan/write/end: %.0f/%.0f/%.0f/%.0f/%.0f) "
            "mix tps: %.2f sessions: %s\n",
            end, iv->tps, iv->qps, iv->rate[WM_POINT], iv->rate[WM_RANGE], iv->rate[WM_SCAN],
            iv->rate[WM_INSERT] + iv->rate[WM_UPDATE] + iv->rate[WM_DELETE], iv->rate[WM_END],
            iv->mix_tps, sess);
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

/* One observation's state: the connection, the snapshots at the interval's ends. */
struct run {
    const struct observe_drive_opts *o;
    struct workload *w;
    struct obs_conn c;
    struct obs_status a, b; /* the counters at the interval's start and end */
    double t0, end_t;       /* the first snapshot's time, the end of the duration (monotonic s) */
    double written_at;      /* when the record was last rewritten (monotonic s) */
    int rc;                 /* the last server call's class (0 ok), kept across intervals */
    int refused;            /* o->connected refused the first connection */
    int no_deadlocks_said;  /* the note on Innodb_deadlocks is in the record */
};

/* Connect, reading what a record holds once. @return 0 or the error class. */
static int start(struct run *r)
{
    const struct observe_drive_opts *o = r->o;
    struct workload *w = r->w;
    struct myconn_where where;
    struct obs_server srv;
    struct obs_schema *sch = NULL;
    size_t n = 0;
    int rc = obs_connect(&r->c, o->conn);
    if (rc == 0) {
        /* the option files as this connection read them: one login in all (conn_cli.h) */
        memset(&where, 0, sizeof where);
        if (o->connected && o->connected(o->arg, &r->c.c, &where) != 0) {
            r->refused = 1;
            return MYCONN_FATAL;
        }
        snprintf(w->host, sizeof w->host, "%s", where.has_socket ? "localhost" : where.host);
        w->port = where.has_socket ? 0 : where.port;
        rc = obs_read_server(&r->c, &srv);
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
    rc = obs_read_sizes(&r->c, &sch, &n);
    if (rc == MYCONN_RECONNECT)
        return rc;
    if (rc != 0)
        workload_note(w, "the data size is unknown: information_schema.TABLES: %s", r->c.c.err.msg);
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

/* The end by a signal: interrupted, the normal end with until_interrupted. */
static enum drive_status interrupted(struct run *r)
{
    snprintf(r->w->ended, sizeof r->w->ended, "interrupted");
    r->w->complete = r->o->until_interrupted;
    return r->o->until_interrupted ? DRIVE_OK : DRIVE_INTERRUPTED;
}

/* Running sessions sampled over the interval up to next, the first half a step in: *k samples
 * added to the workload, *stopped 1 on a signal, r->rc the server's class. @return 0, or -1
 * when memory ran out. */
static int sample_sessions(struct run *r, double next, size_t *k, int *stopped)
{
    double step = fmax(OBS_SAMPLE_MIN_S, (next - r->a.t_mono_s) / OBS_SESSION_SAMPLES);
    for (double t = r->a.t_mono_s + step / 2; t < next && *k < OBS_SESSION_SAMPLES * 2; t += step) {
        double running;
        if ((*stopped = sleep_until(t)) != 0)
            break;
        r->rc = obs_threads_running(&r->c, &running);
        if (r->rc != 0)
            break;
        (*k)++;
        if (workload_add_session(r->w, running))
            return -1;
    }
    return 0;
}

/* What an interval says of the observation. */
enum step {
    STEP_NEXT, /* go on with the next interval */
    STEP_END,  /* it ended as asked (duration, interval limit, signal): the data size is read
                * again */
    STEP_STOP  /* it ended on a failure or while the server was away: nothing more is read */
};

/* The server went away: wait for it, then leave the gap out as an interval. @return STEP_NEXT
 * (r->b the new snapshot), or STEP_STOP with *st how the observation ended. */
static enum step reconnect(struct run *r, enum drive_status *st)
{
    const struct observe_drive_opts *o = r->o;
    struct workload_delta d;
    struct myconn_error err;
    uint64_t up_a = 0, up_b = 0;
    double lost_at = now_s();
    char why[200];
    int back;
    fprintf(o->progress, "sizeup observe: the server went away (%s); waiting up to %g s\n",
            r->c.c.err.msg, o->give_up_s);
    obs_close(&r->c);
    back = myconn_wait_answer(o->conn, o->give_up_s, stopflag_get(), &err);
    if (back != 0 || obs_connect(&r->c, o->conn) != 0 || obs_read_status(&r->c, &r->b) != 0) {
        if (back == 1) { /* a signal while waiting: the end asked for */
            *st = interrupted(r);
        } else {
            snprintf(r->w->ended, sizeof r->w->ended, "server gone");
            *st = DRIVE_UNREACHABLE;
            fprintf(o->progress, "sizeup observe: the server did not answer within %g s: %s\n",
                    o->give_up_s, err.msg);
        }
        return STEP_STOP;
    }
    /* the two snapshots come from two connections: only the server's own counters compare
     * (the observer's statement counts start again with each connection) */
    memset(&d, 0, sizeof d);
    d.seconds = r->b.t_mono_s - r->a.t_mono_s;
    if (obs_status_get(&r->a, "Uptime", &up_a) && obs_status_get(&r->b, "Uptime", &up_b) &&
        up_b < up_a)
        snprintf(why, sizeof why, "the server restarted (Uptime %llu s, was %llu s)",
                 (unsigned long long)up_b, (unsigned long long)up_a);
    else
        snprintf(why, sizeof why, "the connection was lost for %.0f s", r->b.t_mono_s - lost_at);
    if (workload_add(r->w, r->a.t_mono_s - r->t0, &d, NULL, 0, why)) {
        *st = DRIVE_FAIL;
        return STEP_STOP;
    }
    return STEP_NEXT;
}

/* The interval from r->a to r->b counted (or left out, why said), with its k session samples
 * from index first. @return 0, or -1 when memory ran out. */
static int count_interval(struct run *r, size_t first, size_t k)
{
    struct workload_delta d;
    char why[200];
    interval_delta(&r->a, &r->b, &d, why, sizeof why);
    if (workload_add(r->w, r->a.t_mono_s - r->t0, &d, r->w->sessions + first, k,
                     why[0] ? why : NULL))
        return -1;
    if (isnan(d.aborted) && !r->no_deadlocks_said) {
        r->no_deadlocks_said = 1;
        workload_note(r->w, "the server has no Innodb_deadlocks: a transaction rolled back "
                            "on a deadlock is not counted, and a retried one's statements "
                            "may read as autocommit transactions");
    }
    return 0;
}

/* The interval's end snapshot becomes the next one's start. */
static void advance(struct run *r)
{
    struct workload *w = r->w;
    if (!r->b.n)
        return;
    if (!strcmp(w->tps_rule, "innodb_metrics") && !r->b.have_trx)
        workload_note(w,
                      "InnoDB's transaction counters went off after %.0f s: the status "
                      "rule from then on (%s)",
                      r->b.t_mono_s - r->t0, r->c.trx_why[0] ? r->c.trx_why : "disabled");
    w->buffer_pool_data_bytes = bp_data(&r->b, w->page_bytes);
    obs_status_free(&r->a);
    r->a = r->b;
    memset(&r->b, 0, sizeof r->b);
}

/* The end of an interval: the interval limit, a signal, the duration. @return STEP_NEXT, or
 * STEP_END with *st how the observation ended. */
static enum step ended(struct run *r, int stopped, enum drive_status *st)
{
    const struct observe_drive_opts *o = r->o;
    struct workload *w = r->w;
    if (w->n >= OBSERVE_MAX_INTERVALS) {
        snprintf(w->ended, sizeof w->ended, "interval limit");
        w->complete = 1;
        workload_note(w, "stopped at %d intervals, the most one record holds",
                      OBSERVE_MAX_INTERVALS);
        return STEP_END;
    }
    if (stopped) {
        *st = interrupted(r);
        return STEP_END;
    }
    if (!o->until_interrupted && r->a.t_mono_s >= r->end_t - 1e-3) {
        snprintf(w->ended, sizeof w->ended, "duration");
        w->complete = 1;
        return STEP_END;
    }
    return STEP_NEXT;
}

/* One interval: sessions, the end snapshot, its deltas, progress, the record rewritten.
 * @return STEP_NEXT, or STEP_END / STEP_STOP with *st how the observation ended. */
static enum step interval(struct run *r, enum drive_status *st)
{
    const struct observe_drive_opts *o = r->o;
    struct workload *w = r->w;
    double next = r->a.t_mono_s + o->interval_s;
    size_t k = 0, first = w->n_sessions;
    int stopped = 0, added = 1;
    enum step e;
    if (!o->until_interrupted && next > r->end_t)
        next = r->end_t;
    *st = DRIVE_FAIL;
    if (sample_sessions(r, next, &k, &stopped) != 0)
        return STEP_STOP;
    if (!stopped && r->rc == 0)
        stopped = sleep_until(next);
    if (r->rc == 0)
        r->rc = obs_read_status(&r->c, &r->b);
    if (r->rc == MYCONN_RECONNECT) {
        if (reconnect(r, st) != STEP_NEXT)
            return STEP_STOP;
    } else if (r->rc != 0) {
        fprintf(o->progress, "sizeup observe: %s\n", r->c.c.err.msg);
        snprintf(w->ended, sizeof w->ended, "refused");
        return STEP_STOP;
    } else if (stopped && r->b.t_mono_s - r->a.t_mono_s < 1) {
        added = 0; /* a stop less than a second in: no interval */
    } else if (count_interval(r, first, k) != 0) {
        return STEP_STOP;
    }
    advance(r);
    if (added && w->n)
        progress(o->progress, &w->iv[w->n - 1]);
    *st = DRIVE_OK;
    if ((e = ended(r, stopped, st)) != STEP_NEXT)
        return e;
    /* the record rewritten whole: every interval while it is small, then once a minute */
    if (o->out && strcmp(o->out, "-") != 0 &&
        (w->n <= OBS_REWRITE_EVERY || now_s() - r->written_at >= 60)) {
        if (observe_drive_write(o, w) != 0) {
            *st = DRIVE_FAIL;
            return STEP_STOP;
        }
        r->written_at = now_s();
    }
    return STEP_NEXT;
}

/* The first snapshot and the opening line. @return DRIVE_OK, or how it failed (said). */
static enum drive_status begin(struct run *r)
{
    const struct observe_drive_opts *o = r->o;
    struct workload *w = r->w;
    char span[64];
    r->rc = start(r);
    if (r->rc != 0 && r->refused)
        return DRIVE_FAIL; /* said by o->connected */
    if (r->rc == 0)
        r->rc = obs_read_status(&r->c, &r->a);
    if (r->rc != 0) {
        fprintf(o->progress, "sizeup observe: %s: %s\n", o->target, r->c.c.err.msg);
        return r->rc == MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
    }
    snprintf(w->tps_rule, sizeof w->tps_rule, "%s", r->a.have_trx ? "innodb_metrics" : "status");
    if (!r->a.have_trx)
        workload_note(w, "tps by the status rule: %s", r->c.trx_why);
    r->t0 = r->a.t_mono_s;
    r->end_t = r->t0 + o->duration_s;
    if (o->until_interrupted)
        snprintf(span, sizeof span, "until interrupted (SIGINT)");
    else
        snprintf(span, sizeof span, "for %g s", o->duration_s);
    fprintf(o->progress,
            "sizeup observe: %s:%u (%s), every %g s %s; read-only: SHOW GLOBAL STATUS, SHOW "
            "GLOBAL VARIABLES, information_schema\n",
            w->host, w->port, w->version, o->interval_s, span);
    return DRIVE_OK;
}

enum drive_status observe_drive(const struct observe_drive_opts *o, struct workload *w)
{
    struct run r;
    enum drive_status st;
    enum step e = STEP_STOP;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.w = w;
    st = begin(&r);
    if (st == DRIVE_OK)
        while ((e = interval(&r, &st)) == STEP_NEXT)
            ;
    if (e == STEP_END) {
        /* the data size at the end: what the working set is sized from */
        struct obs_schema *sch = NULL;
        size_t n = 0;
        if (obs_read_sizes(&r.c, &sch, &n) == 0 && n)
            set_schemas(w, sch, n);
        else
            free(sch);
    }
    obs_status_free(&r.a);
    obs_status_free(&r.b);
    obs_close(&r.c);
    return st;
}
