/* probe.c - the multi-threaded OLTP probe runner (see probe.h for the model). */
#include "probe.h"

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
    return (sh->cfg->stop && atomic_load(sh->cfg->stop)) || atomic_load(&sh->abort_run);
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
    atomic_init(&sh.issued, 0);
    sh.slots = aligned_alloc(64, sizeof(struct slot) * threads);
    r->hist = hist_new();
    ih = hist_new();
    r->thread_events = calloc(threads, sizeof(double));
    r->thread_time_s = calloc(threads, sizeof(double));
    if (!sh.slots || !r->hist || !ih || !r->thread_events || !r->thread_time_s) {
        free(sh.slots);
        sh.slots = NULL;
        hist_free(ih);
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

    interval_ns = (uint64_t)(cfg->report_interval_s ? cfg->report_interval_s : 1) * CLOCK_NS_PER_S;
    last_tick = sh.start_ns;
    next_tick = sh.start_ns + interval_ns;
    while (sh.go) {
        struct timespec ts;
        int all_done;
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
            if (cfg->out && cfg->report_interval_s) {
                report_interval(cfg->out, iv.t_s, threads, &d, dt, cfg->percentile, iv.lat_ms);
                if (cfg->rate > 0) {
                    unsigned long busy = 0;
                    for (unsigned i = 0; i < threads; i++)
                        busy += (unsigned long)atomic_load_explicit(&sh.slots[i].busy,
                                                                    memory_order_relaxed);
                    report_queue(cfg->out, iv.t_s, queue_length(&sh.arr, now), busy);
                }
            }
            if (cfg->progress && cfg->report_interval_s == 0 && cfg->time_s >= 10 &&
                ((next_tick - sh.start_ns) / CLOCK_NS_PER_S) % 10 == 0)
                fprintf(cfg->progress, "sizeup probe: %u threads, %.0f s, %.2f tps\n", threads,
                        iv.t_s, iv.tps);
            last_tick = now;
            next_tick += interval_ns;
            while (next_tick <= clock_now_ns()) /* missed ticks are skipped, as sysbench */
                next_tick += interval_ns;
        }
        if (all_done)
            break;
    }

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

/* ---- prepare / cleanup ------------------------------------------------------------------ */

struct prep_job {
    const struct probe_config *cfg;
    unsigned first, step;
    struct sbrand rng;
    struct myconn_error err;
    int rc;
    int started; /* written by the creating thread only */
    pthread_t thread;
};

static void *prep_main(void *arg)
{
    struct prep_job *j = arg;
    struct myconn c;
    memset(&c, 0, sizeof c);
    myconn_thread_init();
    j->rc = myconn_connect(&c, &j->cfg->conn);
    for (unsigned n = j->first; !j->rc && n <= j->cfg->oltp.tables; n += j->step) {
        if (j->cfg->stop && atomic_load(j->cfg->stop)) {
            j->rc = MYCONN_FATAL;
            snprintf(c.err.msg, sizeof c.err.msg, "interrupted");
            break;
        }
        j->rc = oltp_prepare_table(&c, &j->cfg->oltp, &j->cfg->rand, &j->rng, n, j->cfg->out);
    }
    if (j->rc)
        j->err = c.err;
    myconn_close(&c);
    myconn_thread_end();
    return NULL;
}

static int connect_one(const struct probe_config *cfg, struct myconn *c, char *msg, size_t len)
{
    int rc;
    memset(c, 0, sizeof *c);
    rc = myconn_connect(c, &cfg->conn);
    if (rc) {
        snprintf(msg, len, "cannot connect to the server: error %u (%s): %s", c->err.errnum,
                 c->err.sqlstate, c->err.msg);
        return -rc;
    }
    return 0;
}

int probe_prepare(const struct probe_config *cfg, unsigned threads, char *msg, size_t msg_len)
{
    struct myconn c;
    struct prep_job *jobs;
    struct sbrand_seeder sd;
    struct sbrand skip;
    unsigned n_jobs = threads < cfg->oltp.tables ? threads : cfg->oltp.tables;
    int rc = connect_one(cfg, &c, msg, msg_len);
    if (rc)
        return rc;
    for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
        int e = oltp_table_exists(&c, n);
        if (e != 0) {
            if (e > 0)
                snprintf(msg, msg_len,
                         "table sbtest%u already exists in database '%s'; prepare never "
                         "overwrites tables (run 'sizeup probe cleanup' first)",
                         n, cfg->conn.db ? cfg->conn.db : "");
            else
                snprintf(msg, msg_len, "cannot list tables: error %u: %s", c.err.errnum, c.err.msg);
            myconn_close(&c);
            return e > 0 ? 1 : e;
        }
    }
    myconn_close(&c);
    if (n_jobs < 1)
        n_jobs = 1;
    jobs = calloc(n_jobs, sizeof *jobs);
    if (!jobs) {
        snprintf(msg, msg_len, "out of memory");
        return -MYCONN_FATAL;
    }
    sbrand_seeder_init(&sd, cfg->rand_seed ? cfg->rand_seed : (unsigned)time(NULL));
    sbrand_seed(&skip, &sd); /* the main thread's generator, as sysbench */
    sbrand_seeder_next(&sd);
    sbrand_seeder_next(&sd);
    for (unsigned i = 0; i < n_jobs; i++) {
        jobs[i].cfg = cfg;
        jobs[i].first = i + 1;
        jobs[i].step = n_jobs;
        sbrand_seed(&jobs[i].rng, &sd);
    }
    if (cfg->out && n_jobs > 1)
        fprintf(cfg->out, "Initializing worker threads...\n\n");
    for (unsigned i = 0; i < n_jobs; i++)
        jobs[i].started = pthread_create(&jobs[i].thread, NULL, prep_main, &jobs[i]) == 0;
    rc = 0;
    for (unsigned i = 0; i < n_jobs; i++) {
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
        if (!jobs[i].started && !rc) {
            rc = MYCONN_FATAL;
            snprintf(msg, msg_len, "could not start a thread");
        } else if (jobs[i].rc && !rc) {
            rc = jobs[i].rc;
            snprintf(msg, msg_len, "prepare failed: %s: error %u (%s): %s", jobs[i].err.func,
                     jobs[i].err.errnum, jobs[i].err.sqlstate, jobs[i].err.msg);
        }
    }
    free(jobs);
    return rc ? -rc : 0;
}

int probe_cleanup(const struct probe_config *cfg, char *msg, size_t msg_len)
{
    struct myconn c;
    int refused = 0, rc = connect_one(cfg, &c, msg, msg_len);
    if (rc)
        return rc;
    for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
        char why[200], sql[64];
        int e = oltp_table_exists(&c, n), ok;
        if (e < 0) {
            snprintf(msg, msg_len, "cannot list tables: error %u: %s", c.err.errnum, c.err.msg);
            myconn_close(&c);
            return e;
        }
        if (cfg->out)
            fprintf(cfg->out, "Dropping table 'sbtest%u'...\n", n);
        if (e == 0)
            continue;
        ok = oltp_table_is_sbtest(&c, n, why, sizeof why);
        if (ok < 0) {
            snprintf(msg, msg_len, "cannot read columns of sbtest%u: error %u: %s", n, c.err.errnum,
                     c.err.msg);
            myconn_close(&c);
            return ok;
        }
        if (!ok) {
            if (cfg->progress)
                fprintf(cfg->progress,
                        "sizeup: refusing to drop sbtest%u: %s; it is not a sysbench table\n", n,
                        why);
            refused = 1;
            continue;
        }
        snprintf(sql, sizeof sql, "DROP TABLE sbtest%u", n);
        if ((rc = myconn_query(&c, sql, strlen(sql), NULL))) {
            snprintf(msg, msg_len, "DROP TABLE sbtest%u failed: error %u: %s", n, c.err.errnum,
                     c.err.msg);
            myconn_close(&c);
            return -rc;
        }
    }
    myconn_close(&c);
    if (refused)
        snprintf(msg, msg_len, "some tables were not dropped (see above)");
    return refused;
}

/* ---- point -------------------------------------------------------------------------------- */

int probe_fill_point(const struct probe_config *cfg, const struct probe_result *r, struct point *p)
{
    const struct hist *h = r->hist;
    double el = r->elapsed_s > 0 ? r->elapsed_s : 0;
    static const double std_pct[3] = {50, 95, 99};
    if (point_set_str(&p->workload, oltp_workload_name(cfg->oltp.workload)))
        return POINT_ENOMEM;
    p->threads = r->threads;
    if (cfg->rate > 0)
        p->rate = cfg->rate;
    p->duration_s = el;
    p->warmup_s = 0;
    p->transactions = (int64_t)r->tot.events;
    p->queries = (int64_t)(r->tot.reads + r->tot.writes + r->tot.other);
    p->reads = (int64_t)r->tot.reads;
    p->writes = (int64_t)r->tot.writes;
    p->other = (int64_t)r->tot.other;
    p->errors = (int64_t)r->tot.errors;
    p->reconnects = (int64_t)r->tot.reconnects;
    if (el > 0) {
        p->tps = (double)r->tot.events / el;
        p->qps = (double)p->queries / el;
        p->reads_ps = (double)r->tot.reads / el;
        p->writes_ps = (double)r->tot.writes / el;
        p->other_ps = (double)r->tot.other / el;
        p->errors_ps = (double)r->tot.errors / el;
        p->reconnects_ps = (double)r->tot.reconnects / el;
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
