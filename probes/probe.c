/* probe.c - the multi-threaded OLTP probe runner (see probe.h for the model). */
#include "probe.h"

#include "calib.h"
#include "clock.h"
#include "probe_ticks.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
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
    struct myconn_opts copts; /* cfg->conn with this connection attempt's connect timeout */
    atomic_int busy;
    atomic_ullong last_answer_ns; /* when the server last answered this worker (clock_now_ns) */
    /* the socket of the open connection, -1 when none, under sock_lock: the aggregator shuts it
     * down to end a statement that still waits for the server after the level's grace */
    pthread_mutex_t sock_lock;
    int sock;
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
    atomic_int finish;         /* the level is over: stopping rule, or a stall ended it */
    atomic_int cut;            /* the aggregator shut the sockets of waiting workers */
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

static void publish_socket(struct slot *s, int sock)
{
    pthread_mutex_lock(&s->sock_lock);
    s->sock = sock;
    pthread_mutex_unlock(&s->sock_lock);
}

/* Close the worker's statements and connection (its socket unpublished first). */
static void slot_close(struct slot *s)
{
    publish_socket(s, -1);
    oltp_worker_release(&s->w);
    myconn_close(&s->w.conn);
}

/* Connect and prepare the statements; a connect attempt during the level waits at most until
 * the level's end and its grace (so a frozen server cannot hold the level past them). */
static int slot_connect(struct slot *s)
{
    struct shared *sh = s->sh;
    int rc;
    s->copts = sh->cfg->conn;
    if (sh->end_ns) {
        uint64_t now = clock_now_ns(), until = sh->end_ns + (uint64_t)(PROBE_STALL_S * 1e9);
        unsigned left = now < until ? (unsigned)((until - now) / CLOCK_NS_PER_S) + 1 : 1;
        if (s->copts.connect_timeout_s == 0 || s->copts.connect_timeout_s > left)
            s->copts.connect_timeout_s = left;
    }
    rc = myconn_connect(&s->w.conn, &s->copts);
    if (rc == 0)
        rc = oltp_worker_prepare(&s->w);
    if (rc == 0) {
        atomic_store_explicit(&s->last_answer_ns, clock_now_ns(), memory_order_relaxed);
        publish_socket(s, myconn_socket(&s->w.conn));
    }
    return rc;
}

/* Fresh handle, exponential backoff 1 ms .. 1 s, until connected, stopped, the level's end,
 * or give_up_s. Returns 0 when connected and prepared again. */
static int reconnect(struct slot *s)
{
    struct shared *sh = s->sh;
    uint64_t first = clock_now_ns(), delay = CLOCK_NS_PER_MS;
    uint64_t give_up = first + (uint64_t)(sh->cfg->give_up_s * 1e9);
    slot_close(s);
    for (;;) {
        uint64_t now;
        if (atomic_load(&sh->cut))
            return -1;
        if (slot_connect(s) == 0)
            return 0;
        slot_close(s);
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
    if (slot_connect(s) != 0) {
        keep_error(sh, &s->w.conn.err, NULL);
        slot_close(s);
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
            if (rc != MYCONN_RECONNECT) /* an answer, an error included */
                atomic_store_explicit(&s->last_answer_ns, clock_now_ns(), memory_order_relaxed);
            if (rc == 0)
                break;
            if (rc == MYCONN_IGNORABLE) {
                d.errors++;
                continue;
            }
            if (rc == MYCONN_RECONNECT && atomic_load(&sh->cut))
                break; /* the aggregator cut this wait at the level's end: nothing to report */
            if (rc == MYCONN_RECONNECT) {
                keep_error(sh, &s->w.conn.err, NULL);
                if (reconnect(s) == 0) {
                    d.reconnects++;
                    continue;
                }
                if (atomic_load(&sh->cut))
                    break;
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
    slot_close(s);
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

/* How long the server has answered none of the workers while one waited for it, ns (0 when
 * no worker waits). */
static uint64_t silence_ns(struct shared *sh, uint64_t now)
{
    uint64_t last = 0;
    int waiting = 0;
    for (unsigned i = 0; i < sh->threads; i++) {
        uint64_t t = atomic_load_explicit(&sh->slots[i].last_answer_ns, memory_order_relaxed);
        waiting |= atomic_load_explicit(&sh->slots[i].busy, memory_order_relaxed);
        if (t > last)
            last = t;
    }
    return waiting && now > last ? now - last : 0;
}

/* End every wait for the server at once: the workers' sockets are shut down (their statements
 * fail at once and they leave without reconnecting). */
static void cut_workers(struct shared *sh)
{
    atomic_store(&sh->cut, 1);
    for (unsigned i = 0; i < sh->threads; i++) {
        struct slot *s = &sh->slots[i];
        pthread_mutex_lock(&s->sock_lock);
        if (s->sock >= 0)
            shutdown(s->sock, SHUT_RDWR);
        pthread_mutex_unlock(&s->sock_lock);
    }
}

/* Wait (under no lock) until every worker is done or until deadline_ns (0: no deadline).
 * @return 1 when all are done. */
static int wait_done(struct shared *sh, unsigned threads, uint64_t deadline_ns)
{
    struct timespec ts;
    int all;
    ts.tv_sec = (time_t)(deadline_ns / CLOCK_NS_PER_S);
    ts.tv_nsec = (long)(deadline_ns % CLOCK_NS_PER_S);
    pthread_mutex_lock(&sh->lock);
    while (sh->n_done < threads && (!deadline_ns || clock_now_ns() < deadline_ns)) {
        if (!deadline_ns)
            pthread_cond_wait(&sh->cond, &sh->lock);
        else if (pthread_cond_timedwait(&sh->cond, &sh->lock, &ts) == ETIMEDOUT)
            break;
    }
    all = sh->n_done >= threads;
    pthread_mutex_unlock(&sh->lock);
    return all;
}

static void shared_destroy(struct shared *sh)
{
    if (sh->slots) {
        for (unsigned i = 0; i < sh->threads; i++) {
            pthread_mutex_destroy(&sh->slots[i].lock);
            pthread_mutex_destroy(&sh->slots[i].sock_lock);
        }
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
    struct ticks cr;
    struct hist *rh = NULL; /* calibrated: latencies of the current report interval */
    struct probe_totals rep = {0, 0, 0, 0, 0, 0};
    double rep_dt = 0;
    size_t per_report = 0; /* ticks per report line; 0 = no lines */
    uint64_t over_ns = 0;  /* when the level's end was due (0: not yet) */
    uint64_t grace_ns = (uint64_t)(PROBE_STALL_S * 1e9), longest_silence = 0;
    int cut_done = 0;

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
    atomic_init(&sh.cut, 0);
    memset(&cr, 0, sizeof cr);
    atomic_init(&sh.issued, 0);
    sh.slots = aligned_alloc(64, sizeof(struct slot) * threads);
    r->hist = hist_new();
    ih = hist_new();
    r->thread_events = calloc(threads, sizeof(double));
    r->thread_time_s = calloc(threads, sizeof(double));
    if (cal && (ticks_init(&cr, cfg) != 0 || !(rh = hist_new())))
        cal = -1;
    if (!sh.slots || !r->hist || !ih || !r->thread_events || !r->thread_time_s || cal < 0) {
        free(sh.slots);
        sh.slots = NULL;
        hist_free(ih);
        hist_free(rh);
        ticks_destroy(&cr);
        shared_destroy(&sh);
        snprintf(r->err.msg, sizeof r->err.msg, "out of memory for %u threads", threads);
        return -1;
    }
    memset(sh.slots, 0, sizeof(struct slot) * threads);
    for (unsigned i = 0; i < threads; i++) {
        struct slot *s = &sh.slots[i];
        pthread_mutex_init(&s->lock, NULL);
        pthread_mutex_init(&s->sock_lock, NULL);
        s->sock = -1;
        atomic_init(&s->last_answer_ns, 0);
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
        for (unsigned i = 0; i < threads; i++)
            atomic_store(&sh.slots[i].last_answer_ns, sh.start_ns);
        if (!cal)
            over_ns = sh.end_ns;
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
        int all_done, finished = 0;
        uint64_t wake = next_tick, now;
        if (over_ns && !cut_done && over_ns + grace_ns < wake)
            wake = over_ns + grace_ns;
        all_done = wait_done(&sh, threads, wake);
        now = clock_now_ns();
        if (!over_ns && cfg->stop && atomic_load(cfg->stop))
            over_ns = now; /* SIGINT: the workers leave after their current event */
        if (!all_done && over_ns && !cut_done && now >= over_ns + grace_ns) {
            /* the level is over, and some worker has waited PROBE_STALL_S more for the server */
            cut_workers(&sh);
            cut_done = 1;
        }
        if (now < next_tick) {
            if (all_done) /* a full interval is reported even when the workers just finished */
                break;
            continue;
        }
        {
            uint64_t quiet = silence_ns(&sh, now);
            if (quiet > longest_silence)
                longest_silence = quiet;
            if (quiet >= grace_ns && !r->stalled) {
                /* the server answered nobody for PROBE_STALL_S: the level cannot count; end it
                 * now (its figures cover the time until here) */
                r->stalled = 1;
                if (!over_ns || over_ns > now)
                    over_ns = now;
                atomic_store(&sh.finish, 1);
                finished = cal;
            }
        }
        {
            struct probe_totals d = {0, 0, 0, 0, 0, 0};
            struct point_interval iv = point_interval_none();
            double dt;
            now = clock_now_ns();
            dt = (double)(now - last_tick) / 1e9;
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
                if (ticks_add(&cr, (double)(now - sh.start_ns) / 1e9, dt, &d, ih) != 0 ||
                    ticks_decide(&cr, cfg, &dec) != CALIB_OK) {
                    finished = 1; /* out of ticks (cannot happen before max_time) */
                } else {
                    finished |= dec.stop;
                    if (cfg->progress && cfg->progress_live)
                        ticks_progress(cfg->progress, threads, &cr, &dec);
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
    if (sh.go) { /* the workers' current events get PROBE_STALL_S, then their waits are cut */
        uint64_t now = clock_now_ns();
        if (!over_ns || over_ns > now)
            over_ns = now;
        if (!cut_done && !wait_done(&sh, threads, over_ns + grace_ns)) {
            cut_workers(&sh);
            cut_done = 1;
        }
        wait_done(&sh, threads, 0);
    }
    if (cut_done)
        r->stalled = 1;
    r->cut = cut_done;
    r->longest_silence_s = (double)longest_silence / 1e9;

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
    if (cal && sh.go && ticks_finish(&cr, cfg, r) != 0) {
        ticks_destroy(&cr);
        shared_destroy(&sh);
        snprintf(r->err.msg, sizeof r->err.msg, "out of memory");
        return -1;
    }
    ticks_destroy(&cr);
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
