/* probe_worker.c - the loop of one worker of a level's engine: its connections' events over
 * epoll (probe_worker.h, probe_engine.h). */
#include "probe_worker.h"

#include "clock.h"
#include "mysql_async.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* An operation was not started: the connection waits for a timer, the gate, or is done. */
#define NO_OP (-2)
/* Most connections of one worker connecting at once during setup (the server's listen
 * backlog and its thread creation are spared a burst of thousands). */
#define MAX_CONNECTING 32
/* Longest sleep of a worker's loop: its flags and statement timeouts are looked at this
 * often at least. */
#define CHECK_NS (100 * CLOCK_NS_PER_MS)
/* Events a turn of the loop collects before they go to the slot. */
#define FLUSH_MAX 256

/* A timer: connection index within the worker, when. */
struct timer {
    uint64_t t;
    unsigned i;
};

/* A worker's loop state (on its stack). */
struct loop {
    struct engine_worker *wk;
    struct engine *e;
    struct engine_conn *conns; /* the worker's */
    int epfd;
    struct timer *heap;
    size_t n_heap;
    unsigned busy, live, connecting, n_ready;
    int failed;   /* setup failed */
    int answered; /* the server answered someone in this turn */
    uint64_t now;
    int have_pwait2;
    /* events of this turn, added to the slot at once */
    struct probe_totals fl;
    uint64_t fl_lat[FLUSH_MAX];
    double fl_lag[FLUSH_MAX];
    double fl_cd[FLUSH_MAX]; /* client delay: completion handled - its turn's epoll return */
    unsigned fl_n;
};

/* ---- shared state -------------------------------------------------------------------------- */

static int stopping(const struct engine *e)
{
    return (e->cfg->stop && atomic_load_explicit(e->cfg->stop, memory_order_relaxed)) ||
           atomic_load_explicit(&e->abort_run, memory_order_relaxed) ||
           atomic_load_explicit(&e->finish, memory_order_relaxed);
}

static void keep_error(struct engine *e, const struct myconn_error *err, const char *sql)
{
    pthread_mutex_lock(&e->lock);
    if (!e->have_err) {
        e->have_err = 1;
        e->err = *err;
        snprintf(e->err_sql, sizeof e->err_sql, "%s", sql ? sql : "");
    }
    pthread_mutex_unlock(&e->lock);
}

static uint64_t next_arrival(struct engine_arrivals *a)
{
    uint64_t t;
    pthread_mutex_lock(&a->lock);
    t = a->next_ns;
    a->next_ns += (uint64_t)(-a->mean_gap_ns * log(1.0 - sbrand_double(&a->rng)));
    pthread_mutex_unlock(&a->lock);
    return t;
}

static void set_state(struct engine *e, unsigned *counter)
{
    pthread_mutex_lock(&e->lock);
    (*counter)++;
    pthread_cond_broadcast(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

/* ---- the slot ------------------------------------------------------------------------------ */

static void add_totals(struct probe_totals *a, const struct probe_totals *d)
{
    a->events += d->events;
    a->reads += d->reads;
    a->writes += d->writes;
    a->other += d->other;
    a->errors += d->errors;
    a->reconnects += d->reconnects;
}

/* Hand this turn's events to the slot. */
static void flush(struct loop *L)
{
    struct engine_worker *wk = L->wk;
    static const struct probe_totals zero = {0, 0, 0, 0, 0, 0};
    if (L->fl_n == 0 && memcmp(&L->fl, &zero, sizeof zero) == 0)
        return;
    pthread_mutex_lock(&wk->lock);
    add_totals(&wk->cnt, &L->fl);
    for (unsigned i = 0; i < L->fl_n; i++) {
        hist_record(&wk->hist, L->fl_lat[i]);
        if (L->fl_lag[i] >= 0)
            engine_sum_add(&wk->lag, L->fl_lag[i]);
        if (L->fl_cd[i] >= 0)
            engine_sum_add(&wk->cd, L->fl_cd[i]);
    }
    pthread_mutex_unlock(&wk->lock);
    memset(&L->fl, 0, sizeof L->fl);
    L->fl_n = 0;
}

/* ---- epoll and timers ---------------------------------------------------------------------- */

/* Stop watching c's socket. Only while the library still holds that socket: once it closed it
 * (a failed operation ends its connection), the kernel dropped the registration with the file,
 * and the number may already be another worker's new socket, which is no business of this
 * loop's epoll (ThreadSanitizer saw that reuse in the frozen-server test). */
static void unwatch(struct loop *L, struct engine_conn *c)
{
    if (c->fd >= 0 && c->fd == myconn_socket(&c->w.conn))
        epoll_ctl(L->epfd, EPOLL_CTL_DEL, c->fd, NULL);
    c->fd = -1;
    c->mask = 0;
}

/* Register what a pending operation waits for; its library timeout starts now. */
static void watch(struct loop *L, struct engine_conn *c)
{
    int fd = myconn_socket(&c->w.conn), w = c->a.wait;
    uint32_t mask = (w & MYASYNC_READ ? EPOLLIN : 0) | (w & MYASYNC_WRITE ? EPOLLOUT : 0) |
                    (w & MYASYNC_EXCEPT ? EPOLLPRI : 0);
    struct epoll_event ev;
    c->io_deadline_ns = (w & MYASYNC_TIMEOUT) ? L->now + c->a.timeout_ms * CLOCK_NS_PER_MS : 0;
    if (fd == c->fd && mask == c->mask)
        return;
    memset(&ev, 0, sizeof ev);
    ev.events = mask;
    ev.data.u64 = (uint64_t)(c - L->conns);
    if (fd != c->fd) {
        unwatch(L, c);
        if (fd >= 0 && epoll_ctl(L->epfd, EPOLL_CTL_ADD, fd, &ev) == 0)
            c->fd = fd;
    } else {
        epoll_ctl(L->epfd, EPOLL_CTL_MOD, fd, &ev);
    }
    c->mask = mask;
}

static void heap_push(struct loop *L, uint64_t t, unsigned i)
{
    size_t k = L->n_heap++;
    while (k > 0) {
        size_t p = (k - 1) / 2;
        if (L->heap[p].t <= t)
            break;
        L->heap[k] = L->heap[p];
        k = p;
    }
    L->heap[k].t = t;
    L->heap[k].i = i;
}

static struct timer heap_pop(struct loop *L)
{
    struct timer top = L->heap[0], last = L->heap[--L->n_heap];
    size_t k = 0, n = L->n_heap;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && L->heap[c + 1].t < L->heap[c].t)
            c++;
        if (last.t <= L->heap[c].t)
            break;
        L->heap[k] = L->heap[c];
        k = c;
    }
    if (n > 0)
        L->heap[k] = last;
    return top;
}

/* A connection waits until t (its only timer; the heap holds one entry per connection at most,
 * since a connection sets a timer only when none of its own is pending). */
static void set_timer(struct loop *L, struct engine_conn *c, int state, uint64_t t)
{
    c->state = state;
    c->wake_ns = t;
    heap_push(L, t, (unsigned)(c - L->conns));
}

/* ---- connections --------------------------------------------------------------------------- */

static void set_busy(struct loop *L, struct engine_conn *c, int on)
{
    if (c->in_event == on)
        return;
    c->in_event = on;
    if (on)
        L->busy++;
    else
        L->busy--;
}

/* Close the statements' server side and the connection. */
static void close_conn(struct loop *L, struct engine_conn *c)
{
    unwatch(L, c); /* first: the abort may close the socket, freeing its number */
    myasync_abort(&c->a);
    oltp_worker_unprepare(&c->w);
    myconn_close(&c->w.conn);
}

/* The connection is done: the counts of an unfinished event go to the slot (not as an event). */
static int finish_conn(struct loop *L, struct engine_conn *c)
{
    if (c->state == C_DONE)
        return NO_OP;
    add_totals(&L->fl, &c->d);
    memset(&c->d, 0, sizeof c->d);
    set_busy(L, c, 0);
    close_conn(L, c);
    c->state = C_DONE;
    L->live--;
    return NO_OP;
}

static int fatal(struct loop *L, struct engine_conn *c, const char *sql)
{
    keep_error(L->e, &c->w.conn.err, sql);
    atomic_store(&L->e->abort_run, 1);
    return finish_conn(L, c);
}

static int send_step(struct loop *L, struct engine_conn *c)
{
    const struct oltp_step *st = &c->w.plan.steps[c->step];
    (void)L;
    oltp_step_load(&c->w, c->step);
    if (st->stmt)
        return myasync_execute(&c->a, &c->w.conn, st->stmt);
    return myasync_query(&c->a, &c->w.conn, c->w.plan.data + st->off, st->len);
}

static int plan_and_send(struct loop *L, struct engine_conn *c)
{
    if (oltp_plan_event(&c->w) != 0) {
        myconn_fail(&c->w.conn, "malloc", 2008, "HY000", "out of memory");
        return fatal(L, c, NULL);
    }
    c->state = C_RUN;
    c->step = 0;
    if (c->w.plan.n == 0) { /* cannot happen: every workload sends a statement */
        myconn_fail(&c->w.conn, "oltp_plan_event", 2008, "HY000", "an event without statements");
        return fatal(L, c, NULL);
    }
    return send_step(L, c);
}

/* Start the next event, or end the connection when the level is over. */
static int start_event(struct loop *L, struct engine_conn *c)
{
    struct engine *e = L->e;
    const struct probe_config *cfg = e->cfg;
    uint64_t now = clock_now_ns(), t0 = now;
    set_busy(L, c, 0);
    if (stopping(e) || (e->end_ns && now >= e->end_ns))
        return finish_conn(L, c);
    if (cfg->events && atomic_fetch_add(&e->issued, 1) >= cfg->events)
        return finish_conn(L, c);
    c->lag_ns = -1;
    if (cfg->rate > 0) {
        t0 = next_arrival(&e->arr);
        if (e->end_ns && t0 >= e->end_ns)
            return finish_conn(L, c);
        c->t0 = t0;
        if (t0 > now) {
            set_timer(L, c, C_ARRIVAL, t0);
            return NO_OP;
        }
        c->lag_ns = (double)(now - t0);
    }
    c->t0 = t0;
    memset(&c->d, 0, sizeof c->d);
    set_busy(L, c, 1);
    return plan_and_send(L, c);
}

static void complete_event(struct loop *L, struct engine_conn *c)
{
    uint64_t now = clock_now_ns(), lat = now - c->t0;
    /* the client's own delay, at least: the answer was ready when this turn's epoll returned
     * (L->now), and waited since while the worker handled the turn's other events; -1 when the
     * event began in this turn (no wait of the turn's to count) */
    double cd = c->t0 <= L->now && L->now <= now ? (double)(now - L->now) : -1;
    /* the transaction ended for the server when the turn reported its last answer: the time
     * the worker then spent on the turn's other events is the client's, not in the latency
     * (issue 28.6; docs/load-generator.md) */
    if (cd >= 0)
        lat = L->now - c->t0;
    c->d.events = 1;
    add_totals(&L->fl, &c->d);
    memset(&c->d, 0, sizeof c->d);
    c->my_events++;
    c->my_time_ns += lat;
    if (L->fl_n == FLUSH_MAX)
        flush(L);
    L->fl_lat[L->fl_n] = lat;
    L->fl_lag[L->fl_n] = c->lag_ns;
    L->fl_cd[L->fl_n] = cd;
    L->fl_n++;
}

static int connect_attempt(struct loop *L, struct engine_conn *c)
{
    struct engine *e = L->e;
    c->copts = e->cfg->conn;
    if (!c->setup && e->end_ns) {
        /* a connect attempt during the level waits at most until its end and its grace */
        uint64_t now = clock_now_ns(), until = e->end_ns + (uint64_t)(PROBE_STALL_S * 1e9);
        unsigned left = now < until ? (unsigned)((until - now) / CLOCK_NS_PER_S) + 1 : 1;
        if (c->copts.connect_timeout_s == 0 || c->copts.connect_timeout_s > left)
            c->copts.connect_timeout_s = left;
    }
    c->state = C_CONNECT;
    if (c->setup)
        L->connecting++;
    return myasync_connect(&c->a, &c->w.conn, &c->copts);
}

/* After a lost connection: a fresh handle, tried at once, then with a backoff of 1 ms doubling
 * to 1 s, until connected, stopped, the level's end or give_up_s. */
static int reconnect_begin(struct loop *L, struct engine_conn *c)
{
    close_conn(L, c);
    c->give_up_ns = clock_now_ns() + (uint64_t)(L->e->cfg->give_up_s * 1e9);
    c->backoff_ns = CLOCK_NS_PER_MS;
    return connect_attempt(L, c);
}

static int connect_failed(struct loop *L, struct engine_conn *c)
{
    struct engine *e = L->e;
    struct myconn_error err = c->w.conn.err;
    uint64_t now;
    if (c->setup) {
        L->connecting--;
        L->failed = 1;
        keep_error(e, &err, NULL);
        return finish_conn(L, c);
    }
    close_conn(L, c);
    if (atomic_load(&e->cut))
        return finish_conn(L, c);
    if (err.cls == MYCONN_FATAL && err.errnum != 0 && err.errnum != 1040 /* too many: retry */) {
        /* the server answers but refuses us (e.g. access denied): no use retrying */
        c->w.conn.err = err;
        return fatal(L, c, NULL);
    }
    now = clock_now_ns();
    if (stopping(e) || (e->end_ns && now + c->backoff_ns >= e->end_ns) ||
        now + c->backoff_ns >= c->give_up_ns) {
        atomic_store(&e->any_down, 1);
        return finish_conn(L, c);
    }
    set_timer(L, c, C_BACKOFF, now + c->backoff_ns);
    c->backoff_ns = c->backoff_ns * 2 > CLOCK_NS_PER_S ? CLOCK_NS_PER_S : c->backoff_ns * 2;
    return NO_OP;
}

/* Prepare the next statement that needs it; all done: ready (setup) or back to the event. */
static int prepare_next(struct loop *L, struct engine_conn *c)
{
    c->state = C_PREPARE;
    while (c->prep_i < c->w.n_prep) {
        struct myconn_stmt *s = c->w.prep[c->prep_i];
        if (myconn_stmt_needs_prepare(s))
            return myasync_prepare(&c->a, &c->w.conn, s);
        c->prep_i++;
    }
    if (c->setup) {
        c->setup = 0;
        L->connecting--;
        L->n_ready++;
        c->state = C_READY;
        return NO_OP;
    }
    c->d.reconnects++;
    return plan_and_send(L, c); /* the event again, from the start */
}

static int after_connect(struct loop *L, struct engine_conn *c, int rc)
{
    if (rc != MYCONN_OK)
        return connect_failed(L, c);
    L->answered = 1;
    if (c->id == 0) {
        pthread_mutex_lock(&L->e->lock);
        snprintf(L->e->server_version, sizeof L->e->server_version, "%s",
                 myconn_server_version(&c->w.conn));
        pthread_mutex_unlock(&L->e->lock);
    }
    c->prep_i = 0;
    return prepare_next(L, c);
}

static int after_prepare(struct loop *L, struct engine_conn *c, int rc)
{
    if (rc != MYCONN_OK) {
        if (rc == MYCONN_RECONNECT || c->setup)
            return connect_failed(L, c);
        /* a statement the server refuses to prepare (e.g. its table dropped): fatal */
        return fatal(L, c, c->w.prep[c->prep_i]->sql);
    }
    L->answered = 1;
    c->prep_i++;
    return prepare_next(L, c);
}

static void count(struct probe_totals *d, const struct myconn_result *r)
{
    if (r->is_read)
        d->reads++;
    else if (r->rows > 0)
        d->writes++;
    else
        d->other++;
}

static int after_step(struct loop *L, struct engine_conn *c, int rc)
{
    struct engine *e = L->e;
    if (rc != MYCONN_RECONNECT) /* an answer, an error included */
        L->answered = 1;
    switch (rc) {
    case MYCONN_OK:
        count(&c->d, &c->a.res);
        if (++c->step < c->w.plan.n)
            return send_step(L, c);
        complete_event(L, c);
        return start_event(L, c);
    case MYCONN_IGNORABLE: /* the event again from its start, its latency kept (sysbench) */
        c->d.errors++;
        atomic_fetch_add_explicit(&L->wk->lock_answers, 1, memory_order_relaxed);
        if (oltp_plan_cut(&c->w, c->step) != 0)
            return fatal(L, c, NULL);
        return plan_and_send(L, c);
    case MYCONN_RECONNECT:
        if (atomic_load(&e->cut)) /* the aggregator cut this wait at the level's end */
            return finish_conn(L, c);
        keep_error(e, &c->w.conn.err, NULL);
        if (oltp_plan_cut(&c->w, c->step) != 0)
            return fatal(L, c, NULL);
        return reconnect_begin(L, c);
    default:
        return fatal(L, c, oltp_step_sql(&c->w, c->step));
    }
}

/* Go on from an operation's return until the connection waits for something. */
static void advance(struct loop *L, struct engine_conn *c, int rc)
{
    while (rc != NO_OP) {
        if (rc == MYASYNC_PENDING) {
            watch(L, c);
            return;
        }
        c->io_deadline_ns = 0;
        switch (c->state) {
        case C_CONNECT:
            rc = after_connect(L, c, rc);
            break;
        case C_PREPARE:
            rc = after_prepare(L, c, rc);
            break;
        case C_RUN:
            rc = after_step(L, c, rc);
            break;
        default:
            rc = NO_OP;
            break;
        }
    }
    c->io_deadline_ns = 0;
}

static void on_timer(struct loop *L, struct engine_conn *c)
{
    if (c->state == C_ARRIVAL) {
        uint64_t now = clock_now_ns();
        if (stopping(L->e)) {
            finish_conn(L, c);
            return;
        }
        c->lag_ns = (double)(now - c->t0);
        memset(&c->d, 0, sizeof c->d);
        set_busy(L, c, 1);
        advance(L, c, plan_and_send(L, c));
    } else if (c->state == C_BACKOFF) {
        if (atomic_load(&L->e->cut)) {
            finish_conn(L, c);
            return;
        }
        advance(L, c, connect_attempt(L, c));
    }
}

/* ---- the loop ------------------------------------------------------------------------------ */

static int map_events(uint32_t ev)
{
    int r = 0;
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR))
        r |= MYASYNC_READ;
    if (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR))
        r |= MYASYNC_WRITE;
    if (ev & EPOLLPRI)
        r |= MYASYNC_EXCEPT;
    return r;
}

/* Wait for sockets, the eventfd or the next timer, at most CHECK_NS. Returns the events. */
static int wait_events(struct loop *L, struct epoll_event *evs, int max, double *idle_s)
{
    uint64_t until, t0, t1;
    int n;
    if (L->fl_n)
        flush(L); /* before sleeping, the slot gets what was measured */
    /* the time now, not the end of the last wait: the turn's work since was not idle, and the
     * timeout counts from here */
    t0 = L->now = clock_now_ns();
    until = L->now + CHECK_NS;
    if (L->n_heap && L->heap[0].t < until)
        until = L->heap[0].t;
    if (until <= L->now) {
        n = epoll_wait(L->epfd, evs, max, 0);
    } else if (L->have_pwait2) {
        struct timespec ts;
        uint64_t d = until - L->now;
        ts.tv_sec = (time_t)(d / CLOCK_NS_PER_S);
        ts.tv_nsec = (long)(d % CLOCK_NS_PER_S);
        n = epoll_pwait2(L->epfd, evs, max, &ts, NULL);
        if (n < 0 && errno == ENOSYS) {
            L->have_pwait2 = 0;
            n = 0;
        }
    } else {
        n = epoll_wait(L->epfd, evs, max,
                       (int)((until - L->now + CLOCK_NS_PER_MS - 1) / CLOCK_NS_PER_MS));
    }
    t1 = clock_now_ns();
    if (idle_s)
        *idle_s += (double)(t1 - t0) / 1e9;
    L->now = t1;
    return n < 0 ? 0 : n;
}

/* End every wait for the server at once (the level's deadline passed). */
static void cut_all(struct loop *L)
{
    for (unsigned i = 0; i < L->wk->n; i++)
        finish_conn(L, &L->conns[i]);
}

/* Statement timeouts, and the connections that wait for a timer when the level stops. */
static void check(struct loop *L)
{
    int stop = stopping(L->e);
    for (unsigned i = 0; i < L->wk->n; i++) {
        struct engine_conn *c = &L->conns[i];
        if (c->io_deadline_ns && c->io_deadline_ns <= L->now && c->a.wait)
            advance(L, c, myasync_cont(&c->a, MYASYNC_TIMEOUT));
        else if (stop && !L->failed && (c->state == C_ARRIVAL || c->state == C_BACKOFF)) {
            /* a connection that lost the server and is not back by the level's end: the level
             * is partial (a calibrated level's end comes from the aggregator, before the
             * connections' own end_ns that connect_failed checks) */
            if (c->state == C_BACKOFF)
                atomic_store(&L->e->any_down, 1);
            finish_conn(L, c);
        }
    }
}

/* Run the loop until every connection is ready (setup) or done (run). */
static void run_loop(struct loop *L, int setup, double *idle_s)
{
    struct epoll_event evs[64];
    uint64_t next_check = L->now + CHECK_NS;
    for (;;) {
        int n;
        if (setup) {
            /* start connecting, MAX_CONNECTING at a time */
            for (unsigned i = 0; i < L->wk->n && L->connecting < MAX_CONNECTING && !L->failed;
                 i++) {
                struct engine_conn *c = &L->conns[i];
                if (c->state == C_NEW) {
                    c->setup = 1;
                    advance(L, c, connect_attempt(L, c));
                }
            }
            if (L->failed || L->n_ready == L->wk->n)
                return;
        } else if (L->live == 0) {
            return;
        }
        n = wait_events(L, evs, 64, idle_s);
        L->answered = 0;
        for (int k = 0; k < n; k++) {
            struct engine_conn *c;
            if (evs[k].data.u64 == UINT64_MAX) { /* the aggregator's wake-up */
                uint64_t v;
                if (read(L->wk->evfd, &v, sizeof v) < 0 && errno != EAGAIN)
                    continue;
                next_check = 0;
                continue;
            }
            c = &L->conns[evs[k].data.u64];
            if (!c->a.wait) { /* nothing pending: the idle socket closed or sent; not watched */
                unwatch(L, c);
                continue;
            }
            advance(L, c, myasync_cont(&c->a, map_events(evs[k].events)));
        }
        while (L->n_heap && L->heap[0].t <= L->now) {
            struct timer t = heap_pop(L);
            struct engine_conn *c = &L->conns[t.i];
            if (c->wake_ns == t.t && (c->state == C_ARRIVAL || c->state == C_BACKOFF))
                on_timer(L, c);
        }
        if (L->answered)
            atomic_store_explicit(&L->wk->last_answer_ns, L->now, memory_order_relaxed);
        atomic_store_explicit(&L->wk->busy, L->busy, memory_order_relaxed);
        if (!setup && atomic_load(&L->e->cut)) {
            cut_all(L);
            continue;
        }
        if (L->now >= next_check) {
            check(L);
            next_check = L->now + CHECK_NS;
        }
    }
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void *engine_worker_main(void *arg)
{
    struct engine_worker *wk = arg;
    struct engine *e = wk->e;
    struct loop *L = calloc(1, sizeof *L);
    struct epoll_event ev;
    int go = 0;

    myconn_thread_init();
    if (L) {
        L->wk = wk;
        L->e = e;
        L->conns = e->conns + wk->first;
        L->live = wk->n;
        L->have_pwait2 = 1;
        L->heap = malloc((wk->n + 1) * sizeof *L->heap);
        L->epfd = epoll_create1(EPOLL_CLOEXEC);
    }
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN;
    ev.data.u64 = UINT64_MAX;
    if (!L || !L->heap || L->epfd < 0 || epoll_ctl(L->epfd, EPOLL_CTL_ADD, wk->evfd, &ev) != 0) {
        struct myconn_error err;
        memset(&err, 0, sizeof err);
        err.cls = MYCONN_FATAL;
        snprintf(err.msg, sizeof err.msg, "worker %u: out of memory or file descriptors", wk->id);
        keep_error(e, &err, NULL);
        if (L && L->epfd >= 0)
            close(L->epfd);
        if (L)
            free(L->heap);
        free(L);
        myconn_thread_end();
        set_state(e, &e->n_failed);
        set_state(e, &e->n_done);
        return NULL;
    }
    L->now = clock_now_ns();
    run_loop(L, 1, NULL);
    if (L->failed) {
        cut_all(L);
        set_state(e, &e->n_failed);
    } else {
        set_state(e, &e->n_ready);
        pthread_mutex_lock(&e->lock);
        while (!e->go && !e->cancelled)
            pthread_cond_wait(&e->cond, &e->lock);
        go = e->go && !e->cancelled;
        pthread_mutex_unlock(&e->lock);
    }
    if (go) {
        double cpu0 = thread_cpu_s();
        uint64_t t0 = clock_now_ns();
        L->now = t0;
        for (unsigned i = 0; i < wk->n; i++)
            advance(L, &L->conns[i], start_event(L, &L->conns[i]));
        run_loop(L, 0, &wk->idle_s);
        wk->run_s = (double)(clock_now_ns() - t0) / 1e9;
        wk->cpu_s = thread_cpu_s() - cpu0;
    }
    cut_all(L);
    flush(L);
    atomic_store(&wk->busy, 0);
    close(L->epfd);
    free(L->heap);
    free(L);
    myconn_thread_end();
    set_state(e, &e->n_done);
    return NULL;
}
