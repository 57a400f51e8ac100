/* probe_drive.c - the levels of one curve over a probe session (see probe_drive.h). */
#include "probe_drive.h"
#include "drive_status.h"

#include "dblock.h"

#include "calib.h"
#include "curve.h"
#include "sbtables.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void say(const struct probe_drive_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(const struct probe_drive_opts *o, const char *fmt, ...)
{
    va_list ap;
    if (!o->progress)
        return;
    va_start(ap, fmt);
    vfprintf(o->progress, fmt, ap);
    va_end(ap);
    fflush(o->progress);
}

/* Open, check and take the database's lock; DRIVE_OK or how it failed. */
static enum drive_status start(struct probe_session *s, const struct probe_drive_opts *o,
                               struct ladder_opts *lo, struct dblock *lock)
{
    int rc = probe_session_open(s);
    if (rc) {
        say(o, "sizeup: %s\n", probe_session_msg(s));
        return rc == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
    }
    rc = probe_session_check(s);
    if (rc) {
        say(o, "sizeup: %s\n", probe_session_msg(s));
        return rc == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
    }
    if (o->lock_conn) {
        char msg[1024];
        rc = dblock_acquire(lock, o->lock_conn, msg, sizeof msg);
        if (rc) {
            say(o, "sizeup: %s\n", msg);
            return rc == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
        }
        if (msg[0])
            say(o, "sizeup probe: note: %s\n", msg);
    }
    if (o->auto_threads) {
        unsigned mc = probe_session_max_connections(s);
        /* one connection left for the operator */
        if (mc >= 2 && mc - 1 < lo->max_threads) {
            say(o, "sizeup probe: --max-threads %u capped at %u (max_connections %u - 1)\n",
                lo->max_threads, mc - 1, mc);
            lo->max_threads = mc - 1;
        }
    }
    return 0;
}

void probe_drive_passes(struct probe_drive_opts *o, const struct probe_config *cfg, size_t levels,
                        unsigned replicates, double budget_s)
{
    o->passes = cfg->precision > 0;
    o->popts = passes_opts_default();
    if (!o->passes)
        return;
    o->popts.precision = cfg->precision;
    o->popts.max_reps = replicates;
    o->popts.min_time_s = cfg->min_time_s;
    o->popts.max_time_s = cfg->max_time_s;
    {
        /* no replicate of a later pass shorter than the least run that has a within-run
         * interval (probes/calib.h: CALIB_MIN_BATCHES ticks): a shorter one has none, and its
         * throughput is mostly the ramp-up (--min-time 0 let T* go to 0.25 s) */
        double least = CALIB_MIN_BATCHES * (cfg->tick_s > 0 ? cfg->tick_s : PROBE_TICK_S);
        if (o->popts.min_time_s < least && least < cfg->max_time_s)
            o->popts.min_time_s = least;
    }
    o->popts.first_max_s = fmin(o->popts.first_max_s, cfg->max_time_s);
    if (o->popts.first_max_s <= cfg->min_time_s || replicates <= 1)
        o->popts.first_max_s = cfg->max_time_s; /* one pass: each level as long as before */
    o->popts.budget_s = budget_s > 0 ? budget_s : (double)levels * cfg->max_time_s;
    o->popts.all_decide = !o->auto_threads;
    o->popts.seed = cfg->rand_seed ? cfg->rand_seed : (unsigned)time(NULL);
    if (o->slo.target_s > 0) {
        o->popts.slo = o->slo;
    }
}

/* The replicates' records of a curve measured in passes, in the order they were added. */
struct reps {
    struct point_list recs;
};

/* extra.interval of one replicate's record. NULL when out of memory. */
static json_t *within_interval(unsigned pass)
{
    return json_pack("{s:s,s:s,s:i,s:i}", "method", "within_run", "rule",
                     "MSER-5 warm-up cut, 20 batch means, t 95 % (this run only: run-to-run "
                     "variation not included)",
                     "replicates", 1, "pass", (int)pass);
}

/* A replicate measured now (lv) or taken (a record in done) into the passes and reps. */
static int add_rep(struct passes *ps, struct reps *rp, unsigned threads, unsigned pass,
                   const struct point *rec, int counts, double tps, double ci95, double kept_s,
                   double cost_s, double latency_ms)
{
    struct passes_rep r;
    memset(&r, 0, sizeof r);
    r.threads = threads;
    r.pass = pass;
    r.counts = counts && rec && rec->started_at && tps > 0;
    r.tps = tps;
    r.ci95_tps = ci95;
    r.kept_s = kept_s;
    r.cost_s = cost_s;
    r.latency_ms = latency_ms;
    if (passes_add(ps, &r) != 0)
        return -1;
    if (r.counts) {
        struct point *q = point_list_push(&rp->recs);
        if (!q || point_copy(q, rec) != POINT_OK)
            return -1;
    }
    return 0;
}

/* The wall time a record took: extra.calibration.elapsed_s, else its duration. */
static double record_cost(const struct point *p)
{
    json_t *c = p->extra ? json_object_get(p->extra, "calibration") : NULL;
    json_t *e = c ? json_object_get(c, "elapsed_s") : NULL;
    return json_is_number(e) ? json_number_value(e) : p->duration_s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A level of the passes, its cost_s the wall time of the whole call: a flagged attempt
 * measured again and the wait for the server count against the budget too (the session's
 * cost_s is its last attempt's). */
static void level_timed(struct probe_session *s, unsigned threads,
                        const struct probe_level_opts *plo, struct probe_level *lv)
{
    double t0 = now_s();
    probe_session_level_with(s, threads, plo, lv);
    if (lv->attempts > 1)
        lv->cost_s = now_s() - t0;
}

/* The latency of a point that the ladder bounds: o->slo's statistic (the mean or a
 * percentile), ms. */
static double point_latency(const struct point *p, const struct probe_drive_opts *o)
{
    return o->slo.pct == 0 ? p->latency_ms.avg : point_percentile(p, o->slo.pct);
}

/* The pass a replicate's record says it was measured in (extra.interval.pass), else 1. */
static unsigned record_pass(const struct point *p)
{
    json_t *iv = p->extra ? json_object_get(p->extra, "interval") : NULL;
    json_t *n = iv ? json_object_get(iv, "pass") : NULL;
    return json_is_integer(n) && json_integer_value(n) > 0 ? (unsigned)json_integer_value(n) : 1;
}

/* A level taken from done: every replicate of it there (not the level records of earlier
 * passes, which these replicates make again), so a resumed run pools all of them. 0, or -1
 * out of memory. */
static int take_level(const struct probe_drive_opts *o, struct passes *ps, struct reps *rp,
                      unsigned threads)
{
    for (size_t i = 0; i < o->done->n; i++) {
        const struct point *p = &o->done->items[i];
        if (p->threads != (int64_t)threads || strcmp(p->target, o->target) != 0 ||
            strcmp(p->workload, o->workload) != 0 || point_is_level_record(p) ||
            !curve_point_counts(p) || isnan(p->tps))
            continue;
        if (add_rep(ps, rp, threads, record_pass(p), p, 1, p->tps, p->ci95_tps, p->duration_s,
                    record_cost(p), point_latency(p, o)) != 0)
            return -1;
    }
    return 0;
}

/* The started_at of a level record's first pooled replicate, or NULL. */
static const char *first_pooled_at(const struct point *p)
{
    json_t *iv = p->extra ? json_object_get(p->extra, "interval") : NULL;
    json_t *e = json_array_get(json_object_get(iv, "pooled"), 0);
    json_t *at = e ? json_object_get(e, "started_at") : NULL;
    return json_is_string(at) ? json_string_value(at) : NULL;
}

/* 1 when a level record before h->items[i] pools the same first replicate (an older record of
 * the same level that the newer one superseded, or the file given twice): its replicates are in
 * the floor once. */
static int same_level_record_before(const struct point_list *h, size_t i)
{
    const struct point *p = &h->items[i];
    const char *at = first_pooled_at(p);
    if (!at)
        return 0;
    for (size_t j = 0; j < i; j++) {
        const struct point *q = &h->items[j];
        const char *qa;
        if (q->threads != p->threads || !point_is_level_record(q) || !q->target || !q->workload ||
            !p->workload || strcmp(q->target, p->target) != 0 ||
            strcmp(q->workload, p->workload) != 0)
            continue;
        qa = first_pooled_at(q);
        if (qa && strcmp(qa, at) == 0)
            return 1;
    }
    return 0;
}

/* The replicates of the level records of o->target in o->history (probe_drive.h), each
 * record's replicates one group (key: 1 + its index). *out owned by the caller (free); NULL when
 * none. @return how many, or (size_t)-1 out of memory. */
static size_t history_obs(const struct probe_drive_opts *o, struct noise_obs **out)
{
    const struct point_list *h = o->history;
    struct noise_obs *v = NULL;
    size_t n = 0, cap = 0;
    double t19 = gsl_cdf_tdist_Pinv(0.975, 19);
    *out = NULL;
    for (size_t i = 0; h && i < h->n; i++) {
        const struct point *p = &h->items[i];
        json_t *iv, *list, *e;
        size_t k;
        if (!point_is_level_record(p) || !p->target || strcmp(p->target, o->target) != 0 ||
            !curve_point_counts(p))
            continue;
        if (o->done && p->workload && strcmp(p->workload, o->workload) == 0)
            continue; /* this curve's own: its replicates are taken again */
        iv = json_object_get(p->extra, "interval");
        list = json_object_get(iv, "pooled");
        if (json_array_size(list) < 2 || same_level_record_before(h, i))
            continue;
        json_array_foreach(list, k, e)
        {
            json_t *x = json_object_get(e, "tps"), *ci = json_object_get(e, "ci95_tps");
            if (!json_is_number(x) || !(json_number_value(x) > 0))
                continue;
            if (n == cap) {
                size_t nc = cap ? 2 * cap : 64;
                struct noise_obs *nv = realloc(v, nc * sizeof *nv);
                if (!nv) {
                    free(v);
                    return (size_t)-1;
                }
                v = nv;
                cap = nc;
            }
            v[n].n = 1 + (double)i;
            v[n].x = json_number_value(x);
            v[n].se_df = 19; /* probes/calib.h: 20 batch means */
            v[n].se = json_is_number(ci) && json_number_value(ci) >= 0 ? json_number_value(ci) / t19
                                                                       : NAN;
            n++;
        }
    }
    *out = v;
    return n;
}

/* Progress of the passes: their decision, and the noise when it changed. */
static void say_passes(const struct probe_drive_opts *o, struct passes *ps, int done)
{
    say(o, "sizeup probe: passes: %s%s\n", done ? "done: " : "", ps->why);
    if (ps->msg_new || done) {
        if (ps->noise_msg[0])
            say(o, "sizeup probe: %s\n", ps->noise_msg);
        if (ps->limit_msg[0])
            say(o, "sizeup probe: %s\n", ps->limit_msg);
        passes_msg_seen(ps);
    }
}

/* After the passes: one level record per level, and its line. DRIVE_OK or DRIVE_FAIL. */
static enum drive_status write_levels(struct probe_session *s, const struct probe_drive_opts *o,
                                      struct passes *ps, struct reps *rp)
{
    unsigned lv[LADDER_MAX_LEVELS * 4];
    size_t m = passes_levels(ps, lv, sizeof lv / sizeof lv[0]);
    if (m > sizeof lv / sizeof lv[0])
        m = sizeof lv / sizeof lv[0];
    for (size_t i = 0; i < m; i++) {
        const struct point *mine[PASSES_MAX_REPS * 4];
        struct noise_level nl;
        struct point rec;
        size_t k = 0;
        for (size_t j = 0; j < rp->recs.n && k < sizeof mine / sizeof mine[0]; j++)
            if (rp->recs.items[j].threads == (int64_t)lv[i])
                mine[k++] = &rp->recs.items[j];
        if (passes_level(ps, lv[i], &nl) != 0)
            continue;
        {
            char hw[48];
            if (isfinite(nl.half95) && nl.mean > 0)
                snprintf(hw, sizeof hw, "+/- %.2f %%", 100 * nl.half95 / nl.mean);
            else
                snprintf(hw, sizeof hw, "+/- unknown");
            say(o, "sizeup probe: %u threads: %.2f tps %s (95 %%, %zu replicate%s, %s)\n", lv[i],
                nl.mean, hw, nl.reps, nl.reps == 1 ? "" : "s",
                nl.method == NOISE_POOLED ? "run-to-run noise included"
                : nl.method == NOISE_FLOOR
                    ? "run-to-run noise included, no less than the "
                      "server's noise floor"
                    : "within-run only: the variation between runs is not included, no level "
                      "was measured twice");
        }
        if (nl.method != NOISE_POOLED && nl.method != NOISE_FLOOR)
            continue;
        point_init(&rec);
        if (passes_level_record(ps, lv[i], mine, k, &rec) != 0) {
            point_destroy(&rec);
            say(o, "sizeup: the level record of %u threads could not be made\n", lv[i]);
            return DRIVE_FAIL;
        }
        if (probe_session_write(s, &rec) != 0) {
            point_destroy(&rec);
            say(o, "sizeup: %s\n", probe_session_msg(s));
            return DRIVE_FAIL;
        }
        point_destroy(&rec);
    }
    return 0;
}

static enum drive_status drive(struct probe_session *s, const struct probe_drive_opts *o,
                               struct probe_drive_result *res, struct dblock *lock);

enum drive_status probe_drive(struct probe_session *s, const struct probe_drive_opts *o,
                              struct probe_drive_result *res)
{
    struct dblock lock = {0};
    int rc = drive(s, o, res, &lock);
    dblock_release(&lock);
    return rc;
}

/* The database's lock is still this run's before a level (dblock_keep): DRIVE_OK (said
 * when it was taken again), or how it failed with the reason said. */
static enum drive_status keep_lock(const struct probe_drive_opts *o, struct dblock *l)
{
    char msg[1400];
    int rc = dblock_keep(l, msg, sizeof msg);
    if (rc == 0) {
        if (msg[0])
            say(o, "sizeup probe: note: %s\n", msg);
        return DRIVE_OK;
    }
    say(o, "sizeup: %s; the run stops\n", msg);
    return rc == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
}

/* One curve's run: what drive() and its steps share. */
struct drv {
    struct probe_session *s;
    const struct probe_drive_opts *o;
    struct probe_drive_result *res;
    struct dblock *keep; /* the lock kept before each level */
    struct ladder lad;   /* o->auto_threads: the ladder */
    struct ladder_opts lo;
    struct usl_workspace *ws;
    struct passes ps; /* in_passes: the passes and their replicates' records */
    struct reps rp;
    int in_passes;
    int told_doubling; /* the end of the ladder's doubling was said */
};

/* The passes' start, with the noise floor of o->history (said when there is one). DRIVE_OK,
 * or DRIVE_FAIL (said). */
static enum drive_status passes_start(struct drv *d)
{
    const struct probe_drive_opts *o = d->o;
    struct passes_opts po = o->popts;
    struct noise_obs *hist = NULL;
    size_t nh = history_obs(o, &hist);
    int rc;
    if (nh == (size_t)-1) {
        say(o, "sizeup: out of memory\n");
        return DRIVE_FAIL;
    }
    po.history = hist;
    po.n_history = nh;
    rc = passes_init(&d->ps, &po);
    free(hist);
    if (rc != 0) {
        say(o, "sizeup: invalid options of the passes (or out of memory)\n");
        return DRIVE_FAIL;
    }
    if (d->ps.hist_levels > 0)
        say(o,
            "sizeup probe: noise floor: %zu level%s measured in replicates on %s before, "
            "in %s\n",
            d->ps.hist_levels, d->ps.hist_levels == 1 ? "" : "s", o->target,
            o->done_name ? o->done_name : "the results");
    return DRIVE_OK;
}

/* Level i of the first pass into *threads: the ladder's next (its decision said; when it is
 * done, res->ladder_done) or the list's i-th. @return 1 when there is none (the pass is over),
 * else 0. */
static int first_threads(struct drv *d, size_t i, unsigned *threads)
{
    const struct probe_drive_opts *o = d->o;
    if (!o->auto_threads) {
        if (i >= o->n_threads)
            return 1;
        *threads = (unsigned)o->threads[i];
        return 0;
    }
    *threads = ladder_next(&d->lad, d->ws);
    if (d->lad.phase != LADDER_DOUBLING && !d->told_doubling) {
        say(o, "sizeup probe: ladder: doubling ends: %s\n", d->lad.doubling_why);
        d->told_doubling = 1;
    }
    say(o, "sizeup probe: ladder: %s%s\n", *threads ? "" : "done: ", d->lad.why);
    if (!*threads) {
        d->res->ladder_done = 1;
        return 1;
    }
    return 0;
}

/* A level already in o->done (before, with a throughput) taken, not measured again (said):
 * into the ladder, and its replicates into the passes. DRIVE_OK, or DRIVE_FAIL (out of
 * memory, said). */
static enum drive_status take_done(struct drv *d, unsigned threads, const struct point *before)
{
    const struct probe_drive_opts *o = d->o;
    say(o, "sizeup probe: %u threads: already in %s (%.2f tps), not measured again\n", threads,
        o->done_name ? o->done_name : "the results", before->tps);
    d->res->taken++;
    if (o->auto_threads)
        ladder_add(&d->lad, threads, before->tps, point_latency(before, o));
    if (d->in_passes && take_level(o, &d->ps, &d->rp, threads) != 0) {
        say(o, "sizeup: out of memory\n");
        return DRIVE_FAIL;
    }
    return DRIVE_OK;
}

/* Say level i (threads) of the first pass: of the ladder (at most its max_points) or the list. */
static void say_level(const struct drv *d, size_t i, unsigned threads)
{
    const struct probe_drive_opts *o = d->o;
    if (o->auto_threads)
        say(o, "sizeup probe: level %zu (auto, at most %zu): %s, %u thread%s\n", i + 1,
            d->lo.max_points, o->workload, threads, threads == 1 ? "" : "s");
    else
        say(o, "sizeup probe: level %zu/%zu: %s, %u thread%s\n", i + 1, o->n_threads, o->workload,
            threads, threads == 1 ? "" : "s");
}

/* Measure a first-pass level into lv: in passes for at most the first pass's time, its record
 * with pass 1's within-run interval and its cost the whole call's; else as the session's. */
static void measure_first(struct drv *d, unsigned threads, struct probe_level *lv)
{
    if (d->in_passes) {
        struct probe_level_opts plo;
        json_t *iv = within_interval(1);
        plo.max_time_s = passes_first_max_s(&d->ps);
        plo.interval = iv;
        level_timed(d->s, threads, &plo, lv);
        json_decref(iv);
    } else {
        probe_session_level(d->s, threads, lv);
    }
}

/* How a first-pass level that ended neither OK nor FLAGGED stops the run (said). */
static enum drive_status first_stop(const struct drv *d, const struct probe_level *lv)
{
    const struct probe_drive_opts *o = d->o;
    switch (lv->status) {
    case PROBE_LEVEL_INTERRUPTED:
        say(o, "sizeup: interrupted; the level so far was written, marked interrupted\n");
        return DRIVE_INTERRUPTED;
    case PROBE_LEVEL_UNREACHABLE:
        say(o, "sizeup: %s; later levels were not run\n", probe_session_msg(d->s));
        return DRIVE_UNREACHABLE;
    default:
        say(o, "sizeup: %s\n", probe_session_msg(d->s));
        return DRIVE_FAIL;
    }
}

/* The first pass: each level of the ladder or the list, one already in o->done taken, until
 * the ladder is done, the list ends or the passes' budget is spent. DRIVE_OK, or how it
 * stopped (said). */
static enum drive_status first_pass(struct drv *d)
{
    const struct probe_drive_opts *o = d->o;
    struct probe_drive_result *res = d->res;
    for (size_t i = 0;; i++) {
        struct probe_level lv;
        const struct point *before;
        unsigned threads;
        enum drive_status rc;
        if (first_threads(d, i, &threads))
            break;
        before = o->done ? curve_find_point(o->done, o->target, o->workload, threads) : NULL;
        if (before && !isnan(before->tps)) {
            if ((rc = take_done(d, threads, before)) != DRIVE_OK)
                return rc;
            continue;
        }
        if (d->in_passes && passes_out_of_time(&d->ps)) {
            say(o,
                "sizeup probe: the time budget (%.0f s) is spent: %.0f s measured; later "
                "levels are not run\n",
                d->ps.o.budget_s, d->ps.spent_s);
            break;
        }
        say_level(d, i, threads);
        if ((rc = keep_lock(o, d->keep)) != DRIVE_OK)
            return rc;
        measure_first(d, threads, &lv);
        res->measured++;
        res->attempts += lv.attempts;
        if (d->in_passes && lv.record &&
            (lv.status == PROBE_LEVEL_OK || lv.status == PROBE_LEVEL_FLAGGED) &&
            add_rep(&d->ps, &d->rp, threads, 1, lv.record, lv.counts, lv.tps, lv.ci95_tps,
                    lv.kept_s, lv.cost_s, lv.latency_ms) != 0) {
            say(o, "sizeup: out of memory\n");
            return DRIVE_FAIL;
        }
        if (lv.status != PROBE_LEVEL_OK && lv.status != PROBE_LEVEL_FLAGGED)
            return first_stop(d, &lv);
        if (lv.status == PROBE_LEVEL_FLAGGED) {
            res->flagged++;
            say(o, "sizeup probe: %s\n", probe_session_msg(d->s));
        }
        /* a level that does not count enters the ladder without a throughput */
        if (o->auto_threads)
            ladder_add(&d->lad, threads, lv.counts ? lv.tps : NAN, lv.latency_ms);
    }
    return DRIVE_OK;
}

/* The passes after the first: each replicate passes_next asks for (a new pass said), until
 * they are done (said, with the noise floor's reason when none was known before). DRIVE_OK,
 * or how a level stopped them (said). */
static enum drive_status later_passes(struct drv *d)
{
    const struct probe_drive_opts *o = d->o;
    struct probe_drive_result *res = d->res;
    struct passes *ps = &d->ps;
    enum drive_status rc = DRIVE_OK;
    double max_s;
    unsigned threads, told_pass = 1;
    while ((threads = passes_next(ps, d->ws, &max_s)) != 0) {
        struct probe_level lv;
        struct probe_level_opts plo;
        json_t *iv = within_interval(ps->pass);
        if (ps->pass != told_pass) { /* a new pass: what it measures and why */
            say_passes(o, ps, 0);
            told_pass = ps->pass;
        }
        say(o, "sizeup probe: pass %u: %s, %u thread%s (at most %.0f s)\n", ps->pass, o->workload,
            threads, threads == 1 ? "" : "s", max_s);
        plo.max_time_s = max_s;
        plo.interval = iv;
        if ((rc = keep_lock(o, d->keep)) != DRIVE_OK) {
            json_decref(iv);
            break;
        }
        level_timed(d->s, threads, &plo, &lv);
        json_decref(iv);
        res->attempts += lv.attempts;
        res->replicates++;
        if (lv.status == PROBE_LEVEL_FLAGGED) {
            res->flagged++;
            say(o, "sizeup probe: %s\n", probe_session_msg(d->s));
        }
        if (lv.status == PROBE_LEVEL_OK || lv.status == PROBE_LEVEL_FLAGGED) {
            if (lv.record && add_rep(ps, &d->rp, threads, ps->pass, lv.record, lv.counts, lv.tps,
                                     lv.ci95_tps, lv.kept_s, lv.cost_s, lv.latency_ms) != 0) {
                say(o, "sizeup: out of memory\n");
                rc = DRIVE_FAIL;
                break;
            }
            continue;
        }
        if (lv.status == PROBE_LEVEL_INTERRUPTED) {
            say(o, "sizeup: interrupted; the level so far was written, marked interrupted\n");
            rc = DRIVE_INTERRUPTED;
        } else {
            say(o, "sizeup: %s%s\n", probe_session_msg(d->s),
                lv.status == PROBE_LEVEL_UNREACHABLE ? "; the passes stop here" : "");
            rc = lv.status == PROBE_LEVEL_UNREACHABLE ? DRIVE_UNREACHABLE : DRIVE_FAIL;
        }
        break;
    }
    if (rc == DRIVE_OK) {
        say_passes(o, ps, 1);
        if (d->in_passes && ps->hist_levels == 0 && ps->pool.nu > 0)
            /* the floor's reason (passes.h): replicates back to back within one curve do
             * not see drift on the scale of minutes; a later run can */
            say(o,
                "sizeup probe: noise floor: none known before on %s: the intervals carry the "
                "noise seen within this curve's %.0f s of replicates, not slower drift; a "
                "later run on %s with the same --out takes this one as its floor\n",
                o->target, ps->spent_s, o->target);
    }
    return rc;
}

/* After the passes, also after a fault or the stop flag: the level records as far as they
 * were measured, and the noise figures into res. rc, or DRIVE_FAIL when rc was DRIVE_OK and a
 * level record failed (said). */
static enum drive_status passes_finish(struct drv *d, enum drive_status rc)
{
    struct probe_drive_result *res = d->res;
    struct passes *ps = &d->ps;
    int wrc = write_levels(d->s, d->o, ps, &d->rp);
    const struct noise_pool *q;
    if (wrc && rc == DRIVE_OK)
        rc = wrc;
    q = ps->floor.nu > ps->pool.nu ? &ps->floor : &ps->pool;
    res->noise_cv = q->nu > 0 ? q->cv : NAN;
    res->between_cv = q->nu > 0 ? q->between_cv : NAN;
    res->attainable = ps->attainable;
    res->impossible = ps->impossible;
    res->spent_s = ps->spent_s;
    snprintf(res->noise_msg, sizeof res->noise_msg, "%s", ps->noise_msg);
    snprintf(res->limit_msg, sizeof res->limit_msg, "%s", ps->limit_msg);
    return rc;
}

static enum drive_status drive(struct probe_session *s, const struct probe_drive_opts *o,
                               struct probe_drive_result *res, struct dblock *lock)
{
    struct probe_drive_result tmp;
    struct drv d;
    int rc;
    if (!res)
        res = &tmp;
    memset(res, 0, sizeof *res);
    res->noise_cv = res->between_cv = res->attainable = NAN;
    memset(&d, 0, sizeof d);
    d.s = s;
    d.o = o;
    d.res = res;
    /* the lock to keep: the caller's (a study holds one for all its curves), else this run's */
    d.keep = o->held_lock ? o->held_lock : lock;
    d.lo = o->ladder;
    d.in_passes = o->passes;
    point_list_init(&d.rp.recs);
    if ((rc = start(s, o, &d.lo, lock)) != 0)
        return rc;
    if (d.in_passes && (rc = passes_start(&d)) != DRIVE_OK)
        return rc;
    if (o->auto_threads || d.in_passes) {
        if ((o->auto_threads && ladder_init(&d.lad, &d.lo) != 0) || !(d.ws = usl_workspace_new())) {
            say(o, "sizeup: %s\n", d.ws ? "invalid ladder options" : "out of memory");
            usl_workspace_free(d.ws);
            passes_destroy(&d.ps);
            return DRIVE_FAIL;
        }
    }
    rc = first_pass(&d);
    if (d.in_passes && rc == DRIVE_OK)
        rc = later_passes(&d);
    if (d.in_passes)
        rc = passes_finish(&d, rc);
    passes_destroy(&d.ps);
    point_list_destroy(&d.rp.recs);
    usl_workspace_free(d.ws);
    return rc;
}
