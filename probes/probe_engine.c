/* probe_engine.c - the event-driven workers of a level: their setup, start and totals (see
 * probe_engine.h and probe.h); each worker's loop is probe_worker.c's. */
#include "probe_engine.h"
#include "probe_worker.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- setup --------------------------------------------------------------------------------- */

/* Seeds in sysbench's order: main generator 4 values, unique sequence 2, connections 4 each,
 * then the arrival generator 4. */
static void seed_all(struct engine *e, unsigned seed)
{
    struct sbrand_seeder sd;
    struct sbrand main_rng;
    uint32_t ui, uo;
    sbrand_seeder_init(&sd, seed);
    sbrand_seed(&main_rng, &sd);
    ui = sbrand_seeder_next(&sd);
    uo = sbrand_seeder_next(&sd);
    sbrand_unique_seed(&e->uniq, ui, uo);
    for (unsigned i = 0; i < e->threads; i++)
        sbrand_seed(&e->conns[i].rng, &sd);
    sbrand_seed(&e->arr.rng, &sd);
}

/* Raise the soft limit of open files to what `threads` connections need, if the hard limit
 * allows. @return 0, or -1 with msg. */
static int enough_fds(unsigned threads, unsigned workers, char *msg, size_t cap)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)threads + 3 * (rlim_t)workers + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
        return 0;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
        snprintf(msg, cap,
                 "%u connections need %lu open files; the limit is %lu (raise it with ulimit -n)",
                 threads, (unsigned long)need, (unsigned long)rl.rlim_max);
        return -1;
    }
    rl.rlim_cur = need;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        snprintf(msg, cap, "%u connections need %lu open files: setrlimit: %s", threads,
                 (unsigned long)need, strerror(errno));
        return -1;
    }
    return 0;
}

int engine_init(struct engine *e, const struct probe_config *cfg, unsigned threads,
                unsigned workers, unsigned seed, char *msg, size_t cap)
{
    pthread_condattr_t ca;
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->threads = threads;
    e->workers = workers;
    pthread_mutex_init(&e->lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&e->cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&e->arr.lock, NULL);
    atomic_init(&e->abort_run, 0);
    atomic_init(&e->any_down, 0);
    atomic_init(&e->finish, 0);
    atomic_init(&e->cut, 0);
    atomic_init(&e->issued, 0);
    if (enough_fds(threads, workers, msg, cap) != 0)
        return -1;
    e->wk = aligned_alloc(64, sizeof *e->wk * workers);
    e->conns = calloc(threads, sizeof *e->conns);
    if (!e->wk || !e->conns) {
        free(e->wk);
        e->wk = NULL;
        snprintf(msg, cap, "out of memory for %u connections", threads);
        return -1;
    }
    memset(e->wk, 0, sizeof *e->wk * workers);
    for (unsigned i = 0; i < workers; i++)
        e->wk[i].evfd = -1;
    for (unsigned i = 0; i < workers; i++) {
        struct engine_worker *wk = &e->wk[i];
        pthread_mutex_init(&wk->lock, NULL);
        hist_reset(&wk->hist);
        atomic_init(&wk->last_answer_ns, 0);
        atomic_init(&wk->busy, 0);
        atomic_init(&wk->lock_answers, 0);
        wk->e = e;
        wk->id = i;
        wk->first = (unsigned)((uint64_t)i * threads / workers);
        wk->n = (unsigned)((uint64_t)(i + 1) * threads / workers) - wk->first;
        wk->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (wk->evfd < 0) {
            snprintf(msg, cap, "eventfd: %s", strerror(errno));
            return -1;
        }
        for (unsigned k = 0; k < wk->n; k++)
            e->conns[wk->first + k].wk = wk;
    }
    seed_all(e, seed);
    for (unsigned i = 0; i < threads; i++) {
        struct engine_conn *c = &e->conns[i];
        c->id = i;
        c->fd = -1;
        c->state = C_NEW;
        c->w.o = &cfg->oltp;
        c->w.rp = &cfg->rand;
        c->w.rng = &c->rng;
        c->w.uniq = &e->uniq;
        c->w.thread_id = i;
        c->w.threads = threads;
        c->w.conn.opts = &cfg->conn;
        if (oltp_worker_setup(&c->w) != 0) {
            snprintf(msg, cap, "out of memory for %u connections", threads);
            return -1;
        }
    }
    if (cfg->rate > 0)
        e->arr.mean_gap_ns = 1e9 / cfg->rate;
    return 0;
}

void engine_destroy(struct engine *e)
{
    if (e->conns)
        for (unsigned i = 0; i < e->threads; i++)
            oltp_worker_destroy(&e->conns[i].w);
    if (e->wk) {
        for (unsigned i = 0; i < e->workers; i++) {
            pthread_mutex_destroy(&e->wk[i].lock);
            if (e->wk[i].evfd >= 0)
                close(e->wk[i].evfd);
        }
    }
    free(e->wk);
    free(e->conns);
    pthread_mutex_destroy(&e->arr.lock);
    pthread_cond_destroy(&e->cond);
    pthread_mutex_destroy(&e->lock);
    memset(e, 0, sizeof *e);
}

unsigned engine_start(struct engine *e)
{
    sigset_t block, old;
    unsigned n = 0;
    /* workers do not take SIGINT: the handler runs in the calling thread */
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    for (unsigned i = 0; i < e->workers; i++) {
        if (pthread_create(&e->wk[i].thread, NULL, engine_worker_main, &e->wk[i]) != 0)
            break;
        e->wk[i].started = 1;
        n++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return n;
}

void engine_wake(struct engine *e)
{
    for (unsigned i = 0; i < e->workers; i++) {
        uint64_t one = 1;
        if (write(e->wk[i].evfd, &one, sizeof one) < 0 && errno != EAGAIN)
            continue;
    }
}

void engine_conn_totals(const struct engine *e, unsigned i, uint64_t *events, uint64_t *time_ns)
{
    *events = e->conns[i].my_events;
    *time_ns = e->conns[i].my_time_ns;
}
