/* probe.c - the OLTP probe runner's aggregator (see probe.h for the model; the workers are
 * probe_engine.c). */
#include "probe.h"

#include "calib.h"
#include "clock.h"
#include "probe_engine.h"
#include "probe_ticks.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

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

static void add_totals(struct probe_totals *a, const struct probe_totals *d)
{
    a->events += d->events;
    a->reads += d->reads;
    a->writes += d->writes;
    a->other += d->other;
    a->errors += d->errors;
    a->reconnects += d->reconnects;
}

/* Drain every worker's slot into the interval totals/histogram; the open loop's lag and the
 * client's delay into *lag and *cd. */
static void drain(struct engine *e, struct probe_totals *d, struct hist *ih, struct engine_sum *lag,
                  struct engine_sum *cd)
{
    for (unsigned i = 0; i < e->workers; i++) {
        struct engine_worker *w = &e->wk[i];
        pthread_mutex_lock(&w->lock);
        add_totals(d, &w->cnt);
        memset(&w->cnt, 0, sizeof w->cnt);
        hist_merge(ih, &w->hist);
        hist_reset(&w->hist);
        engine_sum_take(lag, &w->lag);
        engine_sum_take(cd, &w->cd);
        pthread_mutex_unlock(&w->lock);
    }
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static int64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void rfc3339(int64_t unix_ns, char *buf, size_t len)
{
    time_t t = (time_t)(unix_ns / 1000000000);
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

/* Arrivals due by now and not yet taken: replay the schedule on a copy of its RNG. */
static unsigned long queue_length(struct engine_arrivals *a, uint64_t now)
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

/* How long the server has answered none of the connections while one waited for it, ns (0
 * when none waits). */
static uint64_t silence_ns(struct engine *e, uint64_t now)
{
    uint64_t last = 0;
    int waiting = 0;
    for (unsigned i = 0; i < e->workers; i++) {
        uint64_t t = atomic_load_explicit(&e->wk[i].last_answer_ns, memory_order_relaxed);
        waiting |= atomic_load_explicit(&e->wk[i].busy, memory_order_relaxed) > 0;
        if (t > last)
            last = t;
    }
    return waiting && now > last ? now - last : 0;
}

/* Ignorable errors the server answered so far, over the workers. */
static uint64_t lock_answers(struct engine *e)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < e->workers; i++)
        n += atomic_load_explicit(&e->wk[i].lock_answers, memory_order_relaxed);
    return n;
}

/* The silences of a level, sampled: the longest, and the longest that a lock wait did not
 * explain (one that ended with an ignorable error's answer, e.g. 1205 after
 * innodb_lock_wait_timeout, was the server waiting for a lock, not an outage). */
struct silences {
    uint64_t longest, unexplained;
    uint64_t open;  /* the silence growing at the last sample, ns (0: none) */
    uint64_t locks; /* lock_answers() at the last sample */
};

static void sample_silence(struct engine *e, uint64_t now, struct silences *s)
{
    uint64_t quiet = silence_ns(e, now), locks = lock_answers(e);
    if (quiet > s->longest)
        s->longest = quiet;
    if (s->open && quiet < s->open && locks == s->locks && s->open > s->unexplained)
        s->unexplained = s->open; /* it ended, and not with a lock wait's timeout */
    s->open = quiet;
    s->locks = locks;
}

/* The length of interval i of a series, s (its end minus the previous one's). */
static double interval_s(const struct point_interval *s, size_t i)
{
    return s[i].t_s - (i ? s[i - 1].t_s : 0.0);
}

int probe_client_delay_material(const struct probe_result *r, double mean_latency_ms)
{
    return isfinite(r->client_delay_avg_ms) && isfinite(mean_latency_ms) && mean_latency_ms > 0 &&
           r->client_delay_avg_ms >= PROBE_CLIENT_DELAY_MIN_MS &&
           r->client_delay_avg_ms >= PROBE_CLIENT_DELAY_SHARE * mean_latency_ms;
}

double probe_near_silence_s(const struct point_interval *s, size_t n)
{
    double best = 0, longest = 0, run = 0; /* best: the reference, tps */
    double w_ev = 0, w_len = 0;            /* the window [w, i]: transactions, s */
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        double dt = interval_s(s, i);
        int lock = s[i].errors_ps > 0; /* an ignorable error's answer: a lock wait ended */
        if (!(dt > 0))
            continue;
        if (best > 0 && s[i].tps < PROBE_NEAR_ZERO * best && !lock) {
            run += dt;
        } else {
            if (!lock && run > longest)
                longest = run;
            run = 0;
        }
        /* the reference: the best mean over PROBE_NEAR_REF_S so far (windows ending here) */
        w_ev += s[i].tps * dt;
        w_len += dt;
        while (w < i && w_len - interval_s(s, w) >= PROBE_NEAR_REF_S - 1e-9) {
            w_ev -= s[w].tps * interval_s(s, w);
            w_len -= interval_s(s, w);
            w++;
        }
        if (w_len >= PROBE_NEAR_REF_S - 1e-9 && w_ev >= PROBE_NEAR_MIN_EVENTS &&
            w_ev / w_len > best)
            best = w_ev / w_len;
    }
    return run > longest ? run : longest; /* a stretch still open at the end counts */
}

static unsigned long busy_connections(struct engine *e)
{
    unsigned long busy = 0;
    for (unsigned i = 0; i < e->workers; i++)
        busy += atomic_load_explicit(&e->wk[i].busy, memory_order_relaxed);
    return busy;
}

/* End every wait for the server at once: the workers shut their connections' sockets down
 * (their statements fail at once and they leave without reconnecting). */
static void cut_workers(struct engine *e)
{
    atomic_store(&e->cut, 1);
    engine_wake(e);
}

/* Wait until every worker is done or until deadline_ns (0: no deadline). @return 1 when all
 * are done. */
static int wait_done(struct engine *e, unsigned workers, uint64_t deadline_ns)
{
    struct timespec ts;
    int all;
    ts.tv_sec = (time_t)(deadline_ns / CLOCK_NS_PER_S);
    ts.tv_nsec = (long)(deadline_ns % CLOCK_NS_PER_S);
    pthread_mutex_lock(&e->lock);
    while (e->n_done < workers && (!deadline_ns || clock_now_ns() < deadline_ns)) {
        if (!deadline_ns)
            pthread_cond_wait(&e->cond, &e->lock);
        else if (pthread_cond_timedwait(&e->cond, &e->lock, &ts) == ETIMEDOUT)
            break;
    }
    all = e->n_done >= workers;
    pthread_mutex_unlock(&e->lock);
    return all;
}

/* With --start-at: sleep until the wall clock reaches it (or the stop flag). */
static void wait_start_at(const struct probe_config *cfg)
{
    for (;;) {
        int64_t now = wall_ns(), left = cfg->start_at_unix_ns - now;
        struct timespec ts;
        if (left <= 0 || (cfg->stop && atomic_load(cfg->stop)))
            return;
        if (left > 50 * 1000000)
            left = 50 * 1000000;
        ts.tv_sec = 0;
        ts.tv_nsec = (long)left;
        nanosleep(&ts, NULL);
    }
}

/* Connections of client I of K for a level of n: floor((I+1) n / K) - floor(I n / K). */
static unsigned client_share(unsigned n, unsigned i, unsigned k)
{
    return (unsigned)(((uint64_t)(i + 1) * n) / k - ((uint64_t)i * n) / k);
}

/* The aggregator's state over one level. */
struct agg {
    const struct probe_config *cfg;
    struct engine *e;
    struct probe_result *r;
    struct hist *ih;       /* one interval's latencies */
    struct engine_sum lag; /* the open loop's lag, over the drains */
    struct engine_sum cd;  /* the client's own delay (probe_types.h client_delay_avg_ms) */
    int cal;
    struct ticks cr;
    struct hist *rh; /* calibrated: latencies of the current report interval */
    struct probe_totals rep;
    double rep_dt;
    size_t per_report; /* ticks per report line; 0 = no lines */
};

/* One tick of the aggregator: drain, the series, the report line, the stopping rule.
 * @return 1 when the calibrated level is to end. */
static int tick(struct agg *A, uint64_t tick_ns, uint64_t last_tick, unsigned threads)
{
    const struct probe_config *cfg = A->cfg;
    struct engine *e = A->e;
    struct probe_result *r = A->r;
    struct probe_totals d = {0, 0, 0, 0, 0, 0};
    struct point_interval iv = point_interval_none();
    uint64_t now = clock_now_ns();
    double dt = (double)(now - last_tick) / 1e9;
    int finished = 0;
    hist_reset(A->ih);
    drain(e, &d, A->ih, &A->lag, &A->cd);
    hist_merge(r->hist, A->ih);
    add_totals(&r->tot, &d);
    iv.t_s = (double)(tick_ns - e->start_ns) / 1e9;
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
        iv.lat_ms = pct_ms(A->ih, cfg->percentile);
    }
    append_series(r, &iv);
    if (A->cal) {
        /* report lines sum the ticks of one report interval */
        struct calib_decision dec;
        add_totals(&A->rep, &d);
        hist_merge(A->rh, A->ih);
        A->rep_dt += dt;
        if (ticks_add(&A->cr, (double)(now - e->start_ns) / 1e9, dt, &d, A->ih) != 0 ||
            ticks_decide(&A->cr, cfg, &dec) != CALIB_OK) {
            finished = 1; /* out of ticks (cannot happen before max_time) */
        } else {
            finished = dec.stop;
            if (cfg->progress && cfg->progress_live)
                ticks_progress(cfg->progress, threads, &A->cr, &dec);
        }
        if (A->per_report && A->cr.n % A->per_report == 0) {
            if (cfg->out)
                report_interval(cfg->out, iv.t_s, threads, &A->rep, A->rep_dt, cfg->percentile,
                                pct_ms(A->rh, cfg->percentile));
            memset(&A->rep, 0, sizeof A->rep);
            hist_reset(A->rh);
            A->rep_dt = 0;
        }
    } else if (cfg->out && cfg->report_interval_s) {
        report_interval(cfg->out, iv.t_s, threads, &d, dt, cfg->percentile, iv.lat_ms);
    }
    if (cfg->out && cfg->report_interval_s && cfg->rate > 0 &&
        (!A->cal || (A->per_report && A->rep_dt == 0)))
        report_queue(cfg->out, iv.t_s, queue_length(&e->arr, now), busy_connections(e));
    if (!A->cal && cfg->progress && cfg->report_interval_s == 0 && cfg->time_s >= 10 &&
        ((tick_ns - e->start_ns) / CLOCK_NS_PER_S) % 10 == 0)
        fprintf(cfg->progress, "sizeup probe: %u threads, %.0f s, %.2f tps\n", threads, iv.t_s,
                iv.tps);
    return finished;
}

/* The load generator's own figures, after the workers were joined. */
static void client_figures(struct engine *e, struct probe_result *r)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    r->workers = e->workers;
    r->cpus_online = n > 0 ? (unsigned)n : 1;
    for (unsigned i = 0; i < e->workers; i++) {
        const struct engine_worker *w = &e->wk[i];
        if (w->run_s > 0) {
            double cpu = w->cpu_s / w->run_s, busy = 1.0 - w->idle_s / w->run_s;
            if (cpu > r->worker_cpu_max)
                r->worker_cpu_max = cpu;
            if (busy > r->worker_busy_max)
                r->worker_busy_max = busy;
        }
    }
    r->client_bound = r->worker_cpu_max >= PROBE_CLIENT_BOUND;
}

/* The aggregator's tick, ns: a calibrated level's (A->cr.tick_s; its report lines then every
 * A->per_report ticks), else the report interval or 1 s. */
static uint64_t tick_interval_ns(struct agg *A)
{
    const struct probe_config *cfg = A->cfg;
    if (A->cal) {
        if (cfg->report_interval_s)
            A->per_report = (size_t)llround(cfg->report_interval_s / A->cr.tick_s);
        return (uint64_t)llround(A->cr.tick_s * 1e9);
    }
    return (uint64_t)(cfg->report_interval_s ? cfg->report_interval_s : 1) * CLOCK_NS_PER_S;
}

/* After the aggregation loop: the connections' current events get grace_ns from the level's
 * end (over_ns, 0: now), then their waits are cut (*cut_done); the silence is sampled on every
 * sample_ns (a freeze that began inside the level goes on in its waits here). Returns when
 * every worker is done. */
static void finish_workers(struct engine *e, uint64_t over_ns, uint64_t sample_ns,
                           uint64_t grace_ns, int *cut_done, struct silences *sil)
{
    uint64_t now = clock_now_ns();
    if (!over_ns || over_ns > now)
        over_ns = now;
    while (!*cut_done) {
        uint64_t until = now + sample_ns;
        if (until > over_ns + grace_ns)
            until = over_ns + grace_ns;
        if (wait_done(e, e->workers, until))
            break;
        now = clock_now_ns();
        sample_silence(e, now, sil);
        if (now >= over_ns + grace_ns) {
            cut_workers(e);
            *cut_done = 1;
        }
    }
    wait_done(e, e->workers, 0);
}

/* A finished level's fault figures into r: stalled when its waits were cut, the server was
 * silent or near silent for PROBE_SILENCE_FLAG_S; cut; the longest silence. */
static void level_faults(struct probe_result *r, int cut_done, struct silences *sil)
{
    /* a silence still open at the end is not explained either */
    if (sil->open > sil->unexplained)
        sil->unexplained = sil->open;
    /* and a trickle as long: the server answered, but a few transactions a second */
    r->near_silence_s = probe_near_silence_s(r->series, r->n_series);
    if (cut_done || sil->unexplained >= (uint64_t)(PROBE_SILENCE_FLAG_S * 1e9) ||
        r->near_silence_s >= PROBE_SILENCE_FLAG_S)
        r->stalled = 1;
    r->cut = cut_done;
    r->longest_silence_s = (double)sil->longest / 1e9;
}

/* The aggregation loop of a level that started: until the workers are done, or its end. */
static void aggregate(struct agg *A, unsigned threads)
{
    const struct probe_config *cfg = A->cfg;
    struct engine *e = A->e;
    struct probe_result *r = A->r;
    uint64_t interval_ns, next_tick, last_tick;
    uint64_t over_ns = A->cal ? 0 : e->end_ns; /* when the level's end was due (0: not yet) */
    uint64_t grace_ns = (uint64_t)(PROBE_STALL_S * 1e9);
    struct silences sil = {0, 0, 0, 0};
    /* a calibrated level's wall-clock limit: max_time_s after its start, whatever the ticks
     * (a tick the loaded machine delayed is skipped, so counting ticks would overrun it) */
    uint64_t deadline_ns = A->cal ? e->start_ns + (uint64_t)llround(cfg->max_time_s * 1e9) : 0;
    /* the silence is sampled between the ticks too */
    uint64_t sample_ns = (uint64_t)(PROBE_SILENCE_SAMPLE_S * 1e9), next_sample;
    int cut_done = 0;

    interval_ns = tick_interval_ns(A);
    last_tick = e->start_ns;
    next_tick = e->start_ns + interval_ns;
    next_sample = e->start_ns + sample_ns;
    for (;;) {
        int all_done, finished = 0;
        uint64_t wake = next_tick, now;
        if (!r->stalled && next_sample < wake)
            wake = next_sample;
        if (deadline_ns && deadline_ns < wake)
            wake = deadline_ns;
        if (over_ns && !cut_done && over_ns + grace_ns < wake)
            wake = over_ns + grace_ns;
        all_done = wait_done(e, e->workers, wake);
        now = clock_now_ns();
        if (!over_ns && cfg->stop && atomic_load(cfg->stop)) {
            over_ns = now; /* SIGINT: the connections leave after their current event */
            engine_wake(e);
        }
        if (!all_done && over_ns && !cut_done && now >= over_ns + grace_ns) {
            /* the level is over, and some connection waited PROBE_STALL_S more for the server */
            cut_workers(e);
            cut_done = 1;
        }
        if (!r->stalled && (now >= next_sample || now >= next_tick)) {
            next_sample = now + sample_ns;
            sample_silence(e, now, &sil);
            if (sil.open >= grace_ns) {
                /* the server answered nobody for PROBE_STALL_S: the level cannot count; end it
                 * now (its figures cover the time until here) */
                r->stalled = 1;
                if (!over_ns || over_ns > now)
                    over_ns = now;
                atomic_store(&e->finish, 1);
                engine_wake(e);
                finished = A->cal;
            }
        }
        if (now < next_tick) {
            if (all_done) /* a full interval is reported even when the workers just finished */
                break;
            if (finished)
                break; /* calibrated, stalled between ticks: that tick is left out */
            if (deadline_ns && now >= deadline_ns) {
                /* the limit fell inside a tick: that tick is cut short and left out of the
                 * series and the kept figures (its events count in the run's totals) */
                atomic_store(&e->finish, 1);
                engine_wake(e);
                break;
            }
            continue;
        }
        finished |= tick(A, next_tick, last_tick, threads);
        if (deadline_ns && now >= deadline_ns)
            finished = 1; /* the wall-clock limit: this was the last tick */
        last_tick = clock_now_ns();
        next_tick += interval_ns;
        while (next_tick <= clock_now_ns()) /* missed ticks are skipped, as sysbench */
            next_tick += interval_ns;
        if (finished) {
            /* the connections leave after their current event */
            atomic_store(&e->finish, 1);
            engine_wake(e);
            break;
        }
        if (all_done)
            break;
    }
    if (A->cal && cfg->progress && cfg->progress_live)
        fputc('\n', cfg->progress);
    /* the connections' current events get PROBE_STALL_S, then their waits are cut */
    finish_workers(e, over_ns, sample_ns, grace_ns, &cut_done, &sil);
    level_faults(r, cut_done, &sil);
}

/* Client cfg->client_index of cfg->client_count's share of a level of threads connections:
 * *conns, its rate (lc->rate) and its own random stream (*seed). 0, or -1 with r->err.msg said
 * when the client can have no share. */
static int client_part(const struct probe_config *cfg, unsigned threads, struct probe_config *lc,
                       unsigned *seed, unsigned *conns, struct probe_result *r)
{
    if (cfg->client_index >= cfg->client_count || threads < cfg->client_count) {
        snprintf(r->err.msg, sizeof r->err.msg,
                 "client %u of %u cannot run a share of %u connections", cfg->client_index,
                 cfg->client_count, threads);
        return -1;
    }
    *conns = client_share(threads, cfg->client_index, cfg->client_count);
    lc->rate = cfg->rate * *conns / threads;
    /* Clients started together (the same --rand-seed, or the same second of time(NULL))
     * would otherwise draw the same rows in the same order: each gets its own stream,
     * seed + I x 2^32 / phi (Knuth's multiplicative constant, TAOCP 6.4). */
    *seed += cfg->client_index * 2654435769u;
    return 0;
}

/* After engine_init: the level's histograms, its conns connections' arrays and, calibrated,
 * its ticks. 0, or -1 out of memory (said in r->err.msg; the aggregator's parts and the
 * engine destroyed, r's parts left to probe_result_destroy). */
static int level_alloc(struct agg *A, unsigned conns)
{
    struct probe_result *r = A->r;
    r->hist = hist_new();
    A->ih = hist_new();
    r->thread_events = calloc(conns, sizeof(double));
    r->thread_time_s = calloc(conns, sizeof(double));
    if (A->cal && (ticks_init(&A->cr, A->cfg) != 0 || !(A->rh = hist_new())))
        A->cal = -1;
    if (!r->hist || !A->ih || !r->thread_events || !r->thread_time_s || A->cal < 0) {
        hist_free(A->ih);
        hist_free(A->rh);
        ticks_destroy(&A->cr);
        engine_destroy(A->e);
        snprintf(r->err.msg, sizeof r->err.msg, "out of memory for the level's histograms");
        return -1;
    }
    return 0;
}

/* Start the engine's worker threads, wait until each connected or failed, then (at
 * --start-at, when given) set the level's clock and end and let them go (e->go). When a
 * thread did not start or a worker failed, the level is cancelled instead (e->cancelled).
 * @return how many of the workers threads started. */
static unsigned level_start(struct agg *A, unsigned workers)
{
    const struct probe_config *lc = A->cfg;
    struct engine *e = A->e;
    struct probe_result *r = A->r;
    unsigned started = engine_start(e);
    pthread_mutex_lock(&e->lock);
    while (e->n_ready + e->n_failed < started)
        pthread_cond_wait(&e->cond, &e->lock);
    if (started < workers || e->n_failed > 0) {
        e->cancelled = 1;
        pthread_cond_broadcast(&e->cond);
    }
    pthread_mutex_unlock(&e->lock);
    if (!e->cancelled && lc->start_at_unix_ns) {
        wait_start_at(lc);
        r->start_late_s = (double)(wall_ns() - lc->start_at_unix_ns) / 1e9;
    }
    pthread_mutex_lock(&e->lock);
    if (!e->cancelled) {
        e->start_ns = clock_now_ns();
        r->start_unix_ns = wall_ns();
        if (A->cal) /* the aggregator ends the level; the connections' own limit is a backstop */
            e->end_ns = e->start_ns + (uint64_t)((lc->max_time_s + 4 * A->cr.tick_s) * 1e9);
        else
            e->end_ns = lc->time_s > 0 ? e->start_ns + (uint64_t)(lc->time_s * 1e9) : 0;
        e->arr.next_ns = e->start_ns;
        for (unsigned i = 0; i < workers; i++)
            atomic_store(&e->wk[i].last_answer_ns, e->start_ns);
        e->go = 1;
    }
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
    return started;
}

/* A level that ran, after its workers were joined: its length and end, the last drain into
 * its totals, each of its conns connections' events and time, the load generator's figures. */
static void level_collect(struct agg *A, unsigned conns)
{
    struct engine *e = A->e;
    struct probe_result *r = A->r;
    struct probe_totals d = {0, 0, 0, 0, 0, 0};
    uint64_t el = clock_now_ns() - e->start_ns;
    r->elapsed_s = (double)el / 1e9;
    r->end_unix_ns = r->start_unix_ns + (int64_t)el;
    hist_reset(A->ih);
    drain(e, &d, A->ih, &A->lag, &A->cd);
    hist_merge(r->hist, A->ih);
    add_totals(&r->tot, &d);
    for (unsigned i = 0; i < conns; i++) {
        uint64_t ev, t;
        engine_conn_totals(e, i, &ev, &t);
        r->thread_events[i] = (double)ev;
        r->thread_time_s[i] = (double)t / 1e9;
    }
    client_figures(e, r);
}

/* The open loop's start lag and the client's own delay over the level's drains, ms, into r
 * (the delays NAN when none was seen). */
static void level_delays(const struct agg *A, struct probe_result *r)
{
    if (A->lag.n) {
        r->lag_avg_ms = A->lag.sum_ns / (double)A->lag.n / 1e6;
        r->lag_max_ms = A->lag.max_ns / 1e6;
    }
    r->client_delay_avg_ms = r->client_delay_max_ms = NAN;
    if (A->cd.n) {
        r->client_delay_avg_ms = A->cd.sum_ns / (double)A->cd.n / 1e6;
        r->client_delay_max_ms = A->cd.max_ns / 1e6;
    }
}

/* How a level ended: never started, a fatal error, a connection lost for good, the stop flag,
 * or well. */
static enum probe_end level_end(struct engine *e, const struct probe_config *lc)
{
    if (!e->go)
        return PROBE_END_CONNECT;
    if (atomic_load(&e->abort_run))
        return PROBE_END_FATAL;
    if (atomic_load(&e->any_down))
        return PROBE_END_PARTIAL;
    if (lc->stop && atomic_load(lc->stop))
        return PROBE_END_INTERRUPTED;
    return PROBE_END_OK;
}

int probe_run(const struct probe_config *cfg, unsigned threads, struct probe_result *r)
{
    struct probe_config lc = *cfg; /* this process's share of the level */
    struct engine e;
    struct agg A;
    unsigned seed = cfg->rand_seed ? cfg->rand_seed : (unsigned)time(NULL);
    unsigned conns = threads, workers, started;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    double cpu0;
    char msg[200];

    probe_result_init(r);
    r->level_threads = threads;
    if (cfg->client_count > 0 && client_part(cfg, threads, &lc, &seed, &conns, r) != 0)
        return -1;
    r->threads = conns;
    workers = cfg->workers ? cfg->workers : (ncpu > 0 ? (unsigned)ncpu : 1);
    if (workers > conns)
        workers = conns;
    memset(&A, 0, sizeof A);
    A.cfg = &lc;
    A.e = &e;
    A.r = r;
    A.cal = lc.precision > 0;
    msg[0] = '\0';
    if (engine_init(&e, &lc, conns, workers, seed, msg, sizeof msg) != 0) {
        engine_destroy(&e);
        snprintf(r->err.msg, sizeof r->err.msg, "%s", msg);
        return -1;
    }
    if (level_alloc(&A, conns) != 0)
        return -1;
    if (lc.out)
        report_header(lc.out, SIZEUP_PROBE_VERSION, &lc, conns, lc.rand_seed);

    started = level_start(&A, workers);
    rfc3339(r->start_unix_ns ? r->start_unix_ns : wall_ns(), r->started_at, sizeof r->started_at);
    cpu0 = cpu_s();
    if (e.go && lc.out)
        report_started(lc.out);
    if (e.go)
        aggregate(&A, conns);
    for (unsigned i = 0; i < workers; i++)
        if (e.wk[i].started)
            pthread_join(e.wk[i].thread, NULL);
    r->client_cpu_s = cpu_s() - cpu0;
    if (e.go)
        level_collect(&A, conns);
    hist_free(A.ih);
    hist_free(A.rh);
    if (A.cal && e.go && ticks_finish(&A.cr, &lc, r) != 0) {
        ticks_destroy(&A.cr);
        engine_destroy(&e);
        snprintf(r->err.msg, sizeof r->err.msg, "out of memory");
        return -1;
    }
    ticks_destroy(&A.cr);
    level_delays(&A, r);
    snprintf(r->server_version, sizeof r->server_version, "%s", e.server_version);
    if (e.have_err) {
        r->err = e.err;
        snprintf(r->err_sql, sizeof r->err_sql, "%s", e.err_sql);
    }
    r->end = level_end(&e, &lc);
    engine_destroy(&e);
    if (started < workers) {
        snprintf(r->err.msg, sizeof r->err.msg, "could not start %u worker threads", workers);
        return -1;
    }
    return 0;
}
