/* probe.c - the multi-threaded OLTP probe runner (see probe.h for the model). */
#include "probe.h"

#include "calib.h"
#include "clock.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Worker states. */
enum { W_INIT, W_READY, W_FAILED, W_DONE };

/* Open-loop arrival schedule shared by the workers (only with --rate). */
struct arrivals {
    pthread_mutex_t lock;
    struct sbrand rng;
    uint64_t next_ns;
    double mean_gap_ns;
};

struct shared;

/* One worker's slot: the part under `lock` is what the aggregator drains. 64-byte aligned. */
struct slot {
    _Alignas(64) pthread_mutex_t lock;
    struct probe_totals cnt; /* since the last drain */
    double lag_sum_ns, lag_max_ns;
    uint64_t lag_n;
    struct hist hist; /* since the last drain */
    /* owned by the worker thread until joined */
    _Alignas(64) struct shared *sh;
    unsigned id;
    pthread_t thread;
    int started;
    struct sbrand rng;
    struct oltp_worker w;
    uint64_t my_events;
    uint64_t my_time_ns;
    atomic_int busy;
};

struct shared {
    const struct probe_config *cfg;
    unsigned threads;
    pthread_mutex_t lock; /* state changes, start gate, completion */
    pthread_cond_t cond;
    unsigned n_ready, n_failed, n_done;
    int go;                    /* start gate open */
    int cancelled;             /* setup failed: workers leave without running */
    uint64_t start_ns, end_ns; /* end_ns 0 = no time limit */
    atomic_int abort_run;      /* fatal error in some worker */
    atomic_int any_down;       /* some worker could not reconnect */
    atomic_int finish;         /* calibrated point: the stopping rule ended the level */
    atomic_ullong issued;      /* --events */
    struct arrivals arr;
    struct sbrand_unique uniq;
    struct slot *slots;
    /* first error (under lock) */
    int have_err;
    struct myconn_error err;
    char err_sql[256];
    char server_version[96];
};

static int stop_requested(const struct shared *sh)
{
    return (sh->cfg->stop && atomic_load(sh->cfg->stop)) || atomic_load(&sh->abort_run) ||
           atomic_load(&sh->finish);
}

static void keep_error(struct shared *sh, const struct myconn_error *e, const char *sql)
{
    pthread_mutex_lock(&sh->lock);
    if (!sh->have_err) {
        sh->have_err = 1;
        sh->err = *e;
        snprintf(sh->err_sql, sizeof sh->err_sql, "%s", sql ? sql : "");
    }
    pthread_mutex_unlock(&sh->lock);
}

static uint64_t next_arrival(struct arrivals *a)
{
    uint64_t t;
    pthread_mutex_lock(&a->lock);
    t = a->next_ns;
    a->next_ns += (uint64_t)(-a->mean_gap_ns * log(1.0 - sbrand_double(&a->rng)));
    pthread_mutex_unlock(&a->lock);
    return t;
}

/* Arrivals due by now and not yet taken: replay the schedule on a copy of its RNG. */
static unsigned long queue_length(struct arrivals *a, uint64_t now)
{
    unsigned long n = 0;
    struct sbrand r;
    uint64_t t;
    pthread_mutex_lock(&a->lock);
    r = a->rng;
    t = a->next_ns;
    while (t <= now && n < 10000000ul) {
        n++;
        t += (uint64_t)(-a->mean_gap_ns * log(1.0 - sbrand_double(&r)));
    }
    pthread_mutex_unlock(&a->lock);
    return n;
}

/* Fresh handle, exponential backoff 1 ms .. 1 s, until connected, stopped, the level's end,
 * or give_up_s. Returns 0 when connected and prepared again. */
static int reconnect(struct slot *s)
{
    struct shared *sh = s->sh;
    uint64_t first = clock_now_ns(), delay = CLOCK_NS_PER_MS;
    uint64_t give_up = first + (uint64_t)(sh->cfg->give_up_s * 1e9);
    oltp_worker_release(&s->w);
    myconn_close(&s->w.conn);
    for (;;) {
        uint64_t now;
        if (myconn_connect(&s->w.conn, &sh->cfg->conn) == 0) {
            if (oltp_worker_prepare(&s->w) == 0)
                return 0;
            oltp_worker_release(&s->w);
            myconn_close(&s->w.conn);
        }
        if (s->w.conn.err.cls == MYCONN_FATAL && s->w.conn.err.errnum != 0 &&
            s->w.conn.err.errnum != 1040 /* too many connections: retry */) {
            /* the server answers but refuses us (e.g. access denied): no use retrying */
            return -1;
        }
        now = clock_now_ns();
        if (stop_requested(sh) || (sh->end_ns && now + delay >= sh->end_ns) ||
            now + delay >= give_up)
            return -1;
        clock_sleep_until_ns(now + delay);
        delay = delay * 2 > CLOCK_NS_PER_S ? CLOCK_NS_PER_S : delay * 2;
    }
}

static void flush_local(struct slot *s, const struct probe_totals *d, uint64_t lat_ns, int record,
                        double lag_ns)
{
    pthread_mutex_lock(&s->lock);
    s->cnt.events += d->events;
    s->cnt.reads += d->reads;
    s->cnt.writes += d->writes;
    s->cnt.other += d->other;
    s->cnt.errors += d->errors;
    s->cnt.reconnects += d->reconnects;
    if (record) {
        hist_record(&s->hist, lat_ns);
        if (lag_ns >= 0) {
            s->lag_sum_ns += lag_ns;
            s->lag_n++;
            if (lag_ns > s->lag_max_ns)
                s->lag_max_ns = lag_ns;
        }
    }
    pthread_mutex_unlock(&s->lock);
}

static void set_state(struct shared *sh, int state)
{
    pthread_mutex_lock(&sh->lock);
    if (state == W_READY)
        sh->n_ready++;
    else if (state == W_FAILED)
        sh->n_failed++;
    else if (state == W_DONE)
        sh->n_done++;
    pthread_cond_broadcast(&sh->cond);
    pthread_mutex_unlock(&sh->lock);
}

static void *worker_main(void *arg)
{
    struct slot *s = arg;
    struct shared *sh = s->sh;
    const struct probe_config *cfg = sh->cfg;
    int go;

    myconn_thread_init();
    if (myconn_connect(&s->w.conn, &cfg->conn) != 0 || oltp_worker_prepare(&s->w) != 0) {
        keep_error(sh, &s->w.conn.err, NULL);
        oltp_worker_destroy(&s->w);
        myconn_thread_end();
        set_state(sh, W_FAILED);
        set_state(sh, W_DONE);
        return NULL;
    }
    if (s->id == 0) {
        pthread_mutex_lock(&sh->lock);
        snprintf(sh->server_version, sizeof sh->server_version, "%s",
                 myconn_server_version(&s->w.conn));
        pthread_mutex_unlock(&sh->lock);
    }
    set_state(sh, W_READY);
    pthread_mutex_lock(&sh->lock);
    while (!sh->go && !sh->cancelled)
        pthread_cond_wait(&sh->cond, &sh->lock);
    go = sh->go && !sh->cancelled;
    pthread_mutex_unlock(&sh->lock);

    while (go) {
        struct probe_totals d = {0, 0, 0, 0, 0, 0};
        struct oltp_counts c;
        uint64_t t0, now = clock_now_ns();
        double lag = -1;
        int rc;
        const char *failed_sql = NULL;

        if (stop_requested(sh) || (sh->end_ns && now >= sh->end_ns))
            break;
        if (cfg->events && atomic_fetch_add(&sh->issued, 1) >= cfg->events)
            break;
        if (cfg->rate > 0) {
            t0 = next_arrival(&sh->arr);
            if (sh->end_ns && t0 >= sh->end_ns)
                break;
            while (clock_now_ns() < t0 && !stop_requested(sh))
                clock_sleep_until_ns(t0);
            if (stop_requested(sh))
                break;
            now = clock_now_ns();
            lag = (double)(now - t0);
        } else {
            t0 = now;
        }
        atomic_store_explicit(&s->busy, 1, memory_order_relaxed);
        for (;;) {
            c.reads = c.writes = c.other = 0;
            rc = oltp_event(&s->w, &c, &failed_sql);
            d.reads += c.reads;
            d.writes += c.writes;
            d.other += c.other;
            if (rc == 0)
                break;
            if (rc == MYCONN_IGNORABLE) {
                d.errors++;
                continue;
            }
            if (rc == MYCONN_RECONNECT) {
                keep_error(sh, &s->w.conn.err, NULL);
                if (reconnect(s) == 0) {
                    d.reconnects++;
                    continue;
                }
                if (s->w.conn.err.cls == MYCONN_FATAL && s->w.conn.err.errnum) {
                    keep_error(sh, &s->w.conn.err, NULL);
                    atomic_store(&sh->abort_run, 1);
                } else {
                    atomic_store(&sh->any_down, 1);
                }
                break;
            }
            /* fatal */
            keep_error(sh, &s->w.conn.err, failed_sql);
            atomic_store(&sh->abort_run, 1);
            break;
        }
        atomic_store_explicit(&s->busy, 0, memory_order_relaxed);
        if (rc != 0) {
            flush_local(s, &d, 0, 0, -1);
            break;
        }
        d.events = 1;
        {
            uint64_t lat = clock_now_ns() - t0;
            s->my_events++;
            s->my_time_ns += lat;
            flush_local(s, &d, lat, 1, lag);
        }
    }
    oltp_worker_destroy(&s->w);
    myconn_thread_end();
    set_state(sh, W_DONE);
    return NULL;
}

void probe_result_init(struct probe_result *r)
{
    memset(r, 0, sizeof *r);
}

void probe_result_destroy(struct probe_result *r)
{
    if (!r)
        return;
    hist_free(r->hist);
    hist_free(r->kept_hist);
    free(r->thread_events);
    free(r->thread_time_s);
    free(r->series);
    memset(r, 0, sizeof *r);
}

/* Drain every slot into the interval totals/histogram; lag into the result. */
static void drain(struct shared *sh, struct probe_totals *d, struct hist *ih, double *lag_sum,
                  uint64_t *lag_n, double *lag_max)
{
    for (unsigned i = 0; i < sh->threads; i++) {
        struct slot *s = &sh->slots[i];
        pthread_mutex_lock(&s->lock);
        d->events += s->cnt.events;
        d->reads += s->cnt.reads;
        d->writes += s->cnt.writes;
        d->other += s->cnt.other;
        d->errors += s->cnt.errors;
        d->reconnects += s->cnt.reconnects;
        memset(&s->cnt, 0, sizeof s->cnt);
        hist_merge(ih, &s->hist);
        hist_reset(&s->hist);
        *lag_sum += s->lag_sum_ns;
        *lag_n += s->lag_n;
        if (s->lag_max_ns > *lag_max)
            *lag_max = s->lag_max_ns;
        s->lag_sum_ns = s->lag_max_ns = 0;
        s->lag_n = 0;
        pthread_mutex_unlock(&s->lock);
    }
}

static void add_totals(struct probe_totals *a, const struct probe_totals *d)
{
    a->events += d->events;
    a->reads += d->reads;
    a->writes += d->writes;
    a->other += d->other;
    a->errors += d->errors;
    a->reconnects += d->reconnects;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static void rfc3339_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int append_series(struct probe_result *r, const struct point_interval *iv)
{
    if (r->n_series == r->cap_series) {
        size_t cap = r->cap_series ? r->cap_series * 2 : 64;
        struct point_interval *n = realloc(r->series, cap * sizeof *n);
        if (!n)
            return -1;
        r->series = n;
        r->cap_series = cap;
    }
    r->series[r->n_series++] = *iv;
    return 0;
}

static double pct_ms(const struct hist *h, double p)
{
    uint64_t v = 0;
    if (p <= 0 || h->count == 0)
        return 0.0;
    hist_percentile(h, p, &v);
    return (double)v / 1e6;
}

/* Seeds in sysbench's order: main thread 4 values, unique sequence 2, workers 4 each, then
 * the arrival generator 4. */
static void seed_all(struct shared *sh, unsigned seed)
{
    struct sbrand_seeder sd;
    struct sbrand main_rng;
    uint32_t ui, uo;
    sbrand_seeder_init(&sd, seed);
    sbrand_seed(&main_rng, &sd);
    ui = sbrand_seeder_next(&sd);
    uo = sbrand_seeder_next(&sd);
    sbrand_unique_seed(&sh->uniq, ui, uo);
    for (unsigned i = 0; i < sh->threads; i++)
        sbrand_seed(&sh->slots[i].rng, &sd);
    sbrand_seed(&sh->arr.rng, &sd);
}

/* ---- calibrated point: the aggregator's per-tick state ------------------------------------ */

struct calib_run {
    double tick_s;
    size_t cap, n;            /* ticks: capacity, measured */
    double *tps;              /* throughput of each tick */
    double *end_s;            /* end of each tick, s since the start (measured, not nominal) */
    struct probe_totals *tot; /* counters of each tick */
    struct hist **batch;      /* latencies of each MSER batch of PROBE_MSER_M ticks */
};

static void calib_run_destroy(struct calib_run *c)
{
    if (c->batch)
        for (size_t b = 0; b < c->cap / PROBE_MSER_M + 1; b++)
            hist_free(c->batch[b]);
    free(c->batch);
    free(c->tps);
    free(c->end_s);
    free(c->tot);
    memset(c, 0, sizeof *c);
}

static int calib_run_init(struct calib_run *c, const struct probe_config *cfg)
{
    memset(c, 0, sizeof *c);
    c->tick_s = cfg->tick_s > 0 ? cfg->tick_s : PROBE_TICK_S;
    /* ticks are never more than max_time / tick (+ the slack the workers run on), since
     * missed ticks are skipped rather than caught up */
    c->cap = (size_t)ceil(cfg->max_time_s / c->tick_s) + 8;
    c->tps = malloc(c->cap * sizeof *c->tps);
    c->end_s = malloc(c->cap * sizeof *c->end_s);
    c->tot = malloc(c->cap * sizeof *c->tot);
    c->batch = calloc(c->cap / PROBE_MSER_M + 1, sizeof *c->batch);
    if (!c->tps || !c->end_s || !c->tot || !c->batch) {
        calib_run_destroy(c);
        return -1;
    }
    return 0;
}

/* Record one tick: its end (s since start), length dt (s), counters and latencies. */
static int calib_run_add(struct calib_run *c, double end_s, double dt, const struct probe_totals *d,
                         const struct hist *ih)
{
    size_t b;
    if (c->n >= c->cap)
        return -1;
    b = c->n / PROBE_MSER_M;
    if (!c->batch[b] && !(c->batch[b] = hist_new()))
        return -1;
    hist_merge(c->batch[b], ih);
    c->tps[c->n] = dt > 0 ? (double)d->events / dt : 0;
    c->end_s[c->n] = end_s;
    c->tot[c->n] = *d;
    c->n++;
    return 0;
}

static int calib_run_decide(const struct calib_run *c, const struct probe_config *cfg,
                            struct calib_decision *dec)
{
    return calib_decide(c->tps, c->n, c->tick_s, PROBE_MSER_M, cfg->precision, cfg->min_time_s,
                        cfg->max_time_s, dec);
}

/* The kept figures of a calibrated result, from the final decision over every full tick. */
static int calib_run_finish(const struct calib_run *c, const struct probe_config *cfg,
                            struct probe_result *r)
{
    struct calib_decision dec;
    r->calibrated = 1;
    r->ticks = c->n;
    r->ci95_tps = r->rel95 = r->lag1 = NAN;
    if (!(r->kept_hist = hist_new()))
        return -1;
    if (c->n == 0 || calib_run_decide(c, cfg, &dec) != CALIB_OK)
        return 0;
    r->cut_ticks = dec.cut;
    r->steady = dec.steady;
    r->warmup_s = dec.cut ? c->end_s[dec.cut - 1] : 0;
    r->kept_s = c->end_s[c->n - 1] - r->warmup_s;
    for (size_t i = dec.cut; i < c->n; i++)
        add_totals(&r->kept, &c->tot[i]);
    for (size_t b = dec.cut / PROBE_MSER_M; b <= (c->n - 1) / PROBE_MSER_M; b++)
        if (c->batch[b])
            hist_merge(r->kept_hist, c->batch[b]);
    if (dec.have_est) {
        r->ci95_tps = dec.est.half95;
        r->rel95 = dec.est.rel95;
        r->lag1 = dec.est.lag1;
    }
    return 0;
}

/* The progress of a calibrated level after a tick: a live line on a terminal. */
static void calib_progress(FILE *f, unsigned threads, const struct calib_run *c,
                           const struct calib_decision *dec)
{
    double t = c->end_s[c->n - 1];
    if (dec->have_est)
        fprintf(f, "\rsizeup probe: %u threads, %5.1f s: %.1f tps +/- %.1f %% (warm-up %.2f s)  ",
                threads, t, dec->est.mean, 100 * dec->est.rel95,
                dec->cut ? c->end_s[dec->cut - 1] : 0.0);
    else
        fprintf(f, "\rsizeup probe: %u threads, %5.1f s: %.1f tps (too few ticks for an interval)",
                threads, t, c->tps[c->n - 1]);
    fflush(f);
}

static void shared_destroy(struct shared *sh)
{
    if (sh->slots) {
        for (unsigned i = 0; i < sh->threads; i++)
            pthread_mutex_destroy(&sh->slots[i].lock);
        free(sh->slots);
    }
    pthread_mutex_destroy(&sh->arr.lock);
    pthread_cond_destroy(&sh->cond);
    pthread_mutex_destroy(&sh->lock);
}

int probe_run(const struct probe_config *cfg, unsigned threads, struct probe_result *r)
{
    struct shared sh;
    pthread_condattr_t ca;
    sigset_t block, old;
    struct hist *ih;
    unsigned seed = cfg->rand_seed ? cfg->rand_seed : (unsigned)time(NULL);
    uint64_t interval_ns, next_tick, last_tick;
    double cpu0, lag_sum = 0, lag_max = 0;
    uint64_t lag_n = 0;
    int setup_failed = 0;
    int cal = cfg->precision > 0;
    struct calib_run cr;
    struct hist *rh = NULL; /* calibrated: latencies of the current report interval */
    struct probe_totals rep = {0, 0, 0, 0, 0, 0};
    double rep_dt = 0;
    size_t per_report = 0; /* ticks per report line; 0 = no lines */

    probe_result_init(r);
    r->threads = threads;
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    sh.threads = threads;
    pthread_mutex_init(&sh.lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&sh.cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&sh.arr.lock, NULL);
    atomic_init(&sh.abort_run, 0);
    atomic_init(&sh.any_down, 0);
    atomic_init(&sh.finish, 0);
    memset(&cr, 0, sizeof cr);
    atomic_init(&sh.issued, 0);
    sh.slots = aligned_alloc(64, sizeof(struct slot) * threads);
    r->hist = hist_new();
    ih = hist_new();
    r->thread_events = calloc(threads, sizeof(double));
    r->thread_time_s = calloc(threads, sizeof(double));
    if (cal && (calib_run_init(&cr, cfg) != 0 || !(rh = hist_new())))
        cal = -1;
    if (!sh.slots || !r->hist || !ih || !r->thread_events || !r->thread_time_s || cal < 0) {
        free(sh.slots);
        sh.slots = NULL;
        hist_free(ih);
        hist_free(rh);
        calib_run_destroy(&cr);
        shared_destroy(&sh);
        snprintf(r->err.msg, sizeof r->err.msg, "out of memory for %u threads", threads);
        return -1;
    }
    memset(sh.slots, 0, sizeof(struct slot) * threads);
    for (unsigned i = 0; i < threads; i++) {
        struct slot *s = &sh.slots[i];
        pthread_mutex_init(&s->lock, NULL);
        hist_reset(&s->hist);
        s->sh = &sh;
        s->id = i;
        atomic_init(&s->busy, 0);
        s->w.o = &cfg->oltp;
        s->w.rp = &cfg->rand;
        s->w.rng = &s->rng;
        s->w.uniq = &sh.uniq;
        s->w.thread_id = i;
        s->w.threads = threads;
    }
    seed_all(&sh, seed);
    if (cfg->rate > 0)
        sh.arr.mean_gap_ns = 1e9 / cfg->rate;
    if (cfg->out)
        report_header(cfg->out, SIZEUP_PROBE_VERSION, cfg, threads, cfg->rand_seed);

    /* workers do not take SIGINT: the handler runs in this thread, and libmariadb's reads
     * in the workers are never interrupted by it */
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    for (unsigned i = 0; i < threads; i++) {
        if (pthread_create(&sh.slots[i].thread, NULL, worker_main, &sh.slots[i]) != 0) {
            setup_failed = 1;
            break;
        }
        sh.slots[i].started = 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    pthread_mutex_lock(&sh.lock);
    {
        unsigned n_started = 0;
        for (unsigned i = 0; i < threads; i++)
            n_started += (unsigned)sh.slots[i].started;
        while (sh.n_ready + sh.n_failed < n_started)
            pthread_cond_wait(&sh.cond, &sh.lock);
    }
    if (setup_failed || sh.n_failed > 0) {
        sh.cancelled = 1;
    } else {
        sh.start_ns = clock_now_ns();
        if (cal) /* the aggregator ends the level; the workers' own limit is a backstop */
            sh.end_ns = sh.start_ns + (uint64_t)((cfg->max_time_s + 4 * cr.tick_s) * 1e9);
        else
            sh.end_ns = cfg->time_s > 0 ? sh.start_ns + (uint64_t)(cfg->time_s * 1e9) : 0;
        sh.arr.next_ns = sh.start_ns;
        sh.go = 1;
    }
    pthread_cond_broadcast(&sh.cond);
    pthread_mutex_unlock(&sh.lock);

    rfc3339_now(r->started_at, sizeof r->started_at);
    cpu0 = cpu_s();
    if (sh.go && cfg->out)
        report_started(cfg->out);

    if (cal) {
        interval_ns = (uint64_t)llround(cr.tick_s * 1e9);
        if (cfg->report_interval_s)
            per_report = (size_t)llround(cfg->report_interval_s / cr.tick_s);
    } else {
        interval_ns =
            (uint64_t)(cfg->report_interval_s ? cfg->report_interval_s : 1) * CLOCK_NS_PER_S;
    }
    last_tick = sh.start_ns;
    next_tick = sh.start_ns + interval_ns;
    while (sh.go) {
        struct timespec ts;
        int all_done, finished = 0;
        pthread_mutex_lock(&sh.lock);
        ts.tv_sec = (time_t)(next_tick / CLOCK_NS_PER_S);
        ts.tv_nsec = (long)(next_tick % CLOCK_NS_PER_S);
        while (sh.n_done < threads && clock_now_ns() < next_tick)
            if (pthread_cond_timedwait(&sh.cond, &sh.lock, &ts) == ETIMEDOUT)
                break;
        all_done = sh.n_done >= threads;
        pthread_mutex_unlock(&sh.lock);
        /* a full interval is reported even when the workers have just finished */
        if (all_done && clock_now_ns() < next_tick)
            break;
        {
            struct probe_totals d = {0, 0, 0, 0, 0, 0};
            struct point_interval iv = point_interval_none();
            uint64_t now = clock_now_ns();
            double dt = (double)(now - last_tick) / 1e9;
            hist_reset(ih);
            drain(&sh, &d, ih, &lag_sum, &lag_n, &lag_max);
            hist_merge(r->hist, ih);
            add_totals(&r->tot, &d);
            iv.t_s = (double)(next_tick - sh.start_ns) / 1e9;
            iv.threads = (int)threads;
            iv.tps = (double)d.events / dt;
            iv.qps = (double)(d.reads + d.writes + d.other) / dt;
            iv.reads_ps = (double)d.reads / dt;
            iv.writes_ps = (double)d.writes / dt;
            iv.other_ps = (double)d.other / dt;
            iv.errors_ps = (double)d.errors / dt;
            iv.reconnects_ps = (double)d.reconnects / dt;
            if (cfg->percentile > 0) {
                iv.pct = cfg->percentile;
                iv.lat_ms = pct_ms(ih, cfg->percentile);
            }
            append_series(r, &iv);
            if (cal) {
                /* report lines sum the ticks of one report interval */
                struct calib_decision dec;
                add_totals(&rep, &d);
                hist_merge(rh, ih);
                rep_dt += dt;
                if (calib_run_add(&cr, (double)(now - sh.start_ns) / 1e9, dt, &d, ih) != 0 ||
                    calib_run_decide(&cr, cfg, &dec) != CALIB_OK) {
                    finished = 1; /* out of ticks (cannot happen before max_time) */
                } else {
                    finished = dec.stop;
                    if (cfg->progress && cfg->progress_live)
                        calib_progress(cfg->progress, threads, &cr, &dec);
                }
                if (per_report && cr.n % per_report == 0) {
                    if (cfg->out)
                        report_interval(cfg->out, iv.t_s, threads, &rep, rep_dt, cfg->percentile,
                                        pct_ms(rh, cfg->percentile));
                    memset(&rep, 0, sizeof rep);
                    hist_reset(rh);
                    rep_dt = 0;
                }
            } else if (cfg->out && cfg->report_interval_s) {
                report_interval(cfg->out, iv.t_s, threads, &d, dt, cfg->percentile, iv.lat_ms);
            }
            if (cfg->out && cfg->report_interval_s && cfg->rate > 0 &&
                (!cal || (per_report && rep_dt == 0))) {
                unsigned long busy = 0;
                for (unsigned i = 0; i < threads; i++)
                    busy += (unsigned long)atomic_load_explicit(&sh.slots[i].busy,
                                                                memory_order_relaxed);
                report_queue(cfg->out, iv.t_s, queue_length(&sh.arr, now), busy);
            }
            if (!cal && cfg->progress && cfg->report_interval_s == 0 && cfg->time_s >= 10 &&
                ((next_tick - sh.start_ns) / CLOCK_NS_PER_S) % 10 == 0)
                fprintf(cfg->progress, "sizeup probe: %u threads, %.0f s, %.2f tps\n", threads,
                        iv.t_s, iv.tps);
            last_tick = now;
            next_tick += interval_ns;
            while (next_tick <= clock_now_ns()) /* missed ticks are skipped, as sysbench */
                next_tick += interval_ns;
        }
        if (finished) {
            /* the workers leave after their current event */
            atomic_store(&sh.finish, 1);
            break;
        }
        if (all_done)
            break;
    }
    if (cal && cfg->progress && cfg->progress_live)
        fputc('\n', cfg->progress);

    for (unsigned i = 0; i < threads; i++)
        if (sh.slots[i].started)
            pthread_join(sh.slots[i].thread, NULL);
    r->client_cpu_s = cpu_s() - cpu0;
    if (sh.go) {
        struct probe_totals d = {0, 0, 0, 0, 0, 0};
        r->elapsed_s = (double)(clock_now_ns() - sh.start_ns) / 1e9;
        hist_reset(ih);
        drain(&sh, &d, ih, &lag_sum, &lag_n, &lag_max);
        hist_merge(r->hist, ih);
        add_totals(&r->tot, &d);
        for (unsigned i = 0; i < threads; i++) {
            r->thread_events[i] = (double)sh.slots[i].my_events;
            r->thread_time_s[i] = (double)sh.slots[i].my_time_ns / 1e9;
        }
    }
    hist_free(ih);
    hist_free(rh);
    if (cal && sh.go && calib_run_finish(&cr, cfg, r) != 0) {
        calib_run_destroy(&cr);
        shared_destroy(&sh);
        snprintf(r->err.msg, sizeof r->err.msg, "out of memory");
        return -1;
    }
    calib_run_destroy(&cr);
    if (lag_n) {
        r->lag_avg_ms = lag_sum / (double)lag_n / 1e6;
        r->lag_max_ms = lag_max / 1e6;
    }
    snprintf(r->server_version, sizeof r->server_version, "%s", sh.server_version);
    if (sh.have_err) {
        r->err = sh.err;
        snprintf(r->err_sql, sizeof r->err_sql, "%s", sh.err_sql);
    }
    if (!sh.go)
        r->end = PROBE_END_CONNECT;
    else if (atomic_load(&sh.abort_run))
        r->end = PROBE_END_FATAL;
    else if (atomic_load(&sh.any_down))
        r->end = PROBE_END_PARTIAL;
    else if (cfg->stop && atomic_load(cfg->stop))
        r->end = PROBE_END_INTERRUPTED;
    else
        r->end = PROBE_END_OK;
    shared_destroy(&sh);
    if (setup_failed) {
        snprintf(r->err.msg, sizeof r->err.msg, "could not start %u threads", threads);
        return -1;
    }
    return 0;
}

/* ---- point -------------------------------------------------------------------------------- */

int probe_fill_point(const struct probe_config *cfg, const struct probe_result *r, struct point *p)
{
    const struct hist *h = r->calibrated ? r->kept_hist : r->hist;
    const struct probe_totals *t = r->calibrated ? &r->kept : &r->tot;
    double el = r->calibrated ? r->kept_s : r->elapsed_s;
    static const double std_pct[3] = {50, 95, 99};
    if (!(el > 0))
        el = 0;
    if (point_set_str(&p->workload, oltp_workload_name(cfg->oltp.workload)))
        return POINT_ENOMEM;
    p->threads = r->threads;
    if (cfg->rate > 0)
        p->rate = cfg->rate;
    p->duration_s = el;
    p->warmup_s = r->calibrated ? r->warmup_s : 0;
    p->transactions = (int64_t)t->events;
    p->queries = (int64_t)(t->reads + t->writes + t->other);
    p->reads = (int64_t)t->reads;
    p->writes = (int64_t)t->writes;
    p->other = (int64_t)t->other;
    p->errors = (int64_t)t->errors;
    p->reconnects = (int64_t)t->reconnects;
    if (el > 0) {
        p->tps = (double)t->events / el;
        p->qps = (double)p->queries / el;
        p->reads_ps = (double)t->reads / el;
        p->writes_ps = (double)t->writes / el;
        p->other_ps = (double)t->other / el;
        p->errors_ps = (double)t->errors / el;
        p->reconnects_ps = (double)t->reconnects / el;
    }
    if (h && h->count > 0) {
        p->latency_ms.min = (double)h->min_ns / 1e6;
        p->latency_ms.avg = hist_mean_ns(h) / 1e6;
        p->latency_ms.max = (double)h->max_ns / 1e6;
        p->latency_ms.sum = (double)h->sum_ns / 1e6;
        for (int i = 0; i < 3; i++)
            point_set_percentile(p, std_pct[i], pct_ms(h, std_pct[i]));
        if (cfg->percentile > 0)
            point_set_percentile(p, cfg->percentile, pct_ms(h, cfg->percentile));
    }
    if (r->calibrated) {
        json_t *x = p->extra ? p->extra : json_object();
        json_t *c;
        if (!x)
            return POINT_ENOMEM;
        p->extra = x;
        if (!isnan(r->ci95_tps))
            p->ci95_tps = r->ci95_tps;
        p->steady = r->steady;
        c = json_pack("{s:s,s:f,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:I,s:f}", "rule",
                      "MSER-5 warm-up cut, 20 batch means, t 95 %", "tick_s",
                      cfg->tick_s > 0 ? cfg->tick_s : PROBE_TICK_S, "mser_m", PROBE_MSER_M, "ticks",
                      (int)r->ticks, "cut_ticks", (int)r->cut_ticks, "precision", cfg->precision,
                      "min_time_s", cfg->min_time_s, "max_time_s", cfg->max_time_s, "elapsed_s",
                      r->elapsed_s, "run_transactions", (json_int_t)r->tot.events, "warmup_s",
                      r->warmup_s);
        if (!c)
            return POINT_ENOMEM;
        json_object_set_new(c, "rel95", isnan(r->rel95) ? json_null() : json_real(r->rel95));
        json_object_set_new(c, "lag1", isnan(r->lag1) ? json_null() : json_real(r->lag1));
        json_object_set_new(x, "calibration", c);
    }
    p->latency_overflows = h ? (int64_t)h->overflow : 0;
    for (size_t i = 0; i < r->n_series; i++)
        if (point_series_append(p, &r->series[i]))
            return POINT_ENOMEM;
    p->client_cpu_s = r->client_cpu_s;
    if (r->server_version[0] && point_set_str(&p->server_version, r->server_version))
        return POINT_ENOMEM;
    if (r->started_at[0] && point_set_str(&p->started_at, r->started_at))
        return POINT_ENOMEM;
    p->source_kind = POINT_SRC_PROBE;
    if (r->end == PROBE_END_INTERRUPTED) {
        p->incomplete = 1;
        if (point_add_flag(p, "interrupted"))
            return POINT_ENOMEM;
    } else if (r->end == PROBE_END_PARTIAL) {
        p->incomplete = 1;
        if (point_add_flag(p, "partial") || point_add_flag(p, "server_unreachable"))
            return POINT_ENOMEM;
    } else if (r->end == PROBE_END_FATAL) {
        p->incomplete = 1;
        if (point_add_flag(p, "partial") || point_add_flag(p, "fatal_error"))
            return POINT_ENOMEM;
    }
    if (h && h->overflow > 0 && point_add_flag(p, "latency_overflow"))
        return POINT_ENOMEM;
    if (cfg->rate > 0) {
        json_t *x = p->extra ? p->extra : json_object();
        if (!x)
            return POINT_ENOMEM;
        json_object_set_new(x, "rate_lag_ms",
                            json_pack("{s:f,s:f}", "avg", r->lag_avg_ms, "max", r->lag_max_ms));
        p->extra = x;
    }
    return POINT_OK;
}
