/*
 * probe_engine.h - inside probes/: the event-driven workers of a level (used by probe.c only).
 *
 * A level's N connections are split evenly over W worker threads (connections
 * [id * N / W, (id + 1) * N / W) to worker id). Each worker drives its connections with
 * Connector/C's non-blocking API (mysql_async.h) from one epoll(7) loop: a connection waits for
 * its socket, an arrival time (--rate) or a reconnect backoff, never for a thread. Per
 * connection the run model is probe.h's, as with one thread per connection: closed or open
 * loop, the same statements, draws, retries, reconnects and error classes.
 *
 * Sharing with the aggregator: each worker owns a 64-byte aligned
 * slot with its counters and latency histogram; a worker adds the events it completed in one
 * turn of its loop under the slot's own mutex (one lock per turn, not per event); the
 * aggregator drains every slot each tick. Beside the slot, two relaxed atomics the aggregator
 * reads for the stall rule: when the server last answered one of the worker's connections and
 * how many of them are in an event. Flags set by the aggregator (finish, cut) are atomics in
 * struct engine; it wakes the workers through their eventfds.
 *
 * Thread-safety: as above; the rest of a worker belongs to its thread until joined.
 */
#ifndef SIZEUP_PROBES_PROBE_ENGINE_H
#define SIZEUP_PROBES_PROBE_ENGINE_H

#include "probe_types.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct engine;
struct engine_conn;

/* Open-loop arrival schedule shared by the connections (only with --rate): a Poisson process,
 * gaps -(1e9/rate) ln(1-u) ns, taken in order by whichever connection is free. */
struct engine_arrivals {
    pthread_mutex_t lock;
    struct sbrand rng;
    uint64_t next_ns;
    double mean_gap_ns;
};

/* A sum, maximum and count of durations in ns (a worker's slot, the aggregator's totals). */
struct engine_sum {
    double sum_ns, max_ns;
    uint64_t n;
};

/** Add one duration (ns, >= 0) to a sum. */
static inline void engine_sum_add(struct engine_sum *a, double ns)
{
    a->sum_ns += ns;
    a->n++;
    if (ns > a->max_ns)
        a->max_ns = ns;
}

/** Move *from into *into (from left empty). */
static inline void engine_sum_take(struct engine_sum *into, struct engine_sum *from)
{
    into->sum_ns += from->sum_ns;
    into->n += from->n;
    if (from->max_ns > into->max_ns)
        into->max_ns = from->max_ns;
    from->sum_ns = from->max_ns = 0;
    from->n = 0;
}

struct engine_worker {
    /* the slot, under lock: what the aggregator drains */
    _Alignas(64) pthread_mutex_t lock;
    struct probe_totals cnt; /* since the last drain */
    struct engine_sum lag;   /* open loop: actual - intended start */
    struct engine_sum cd;    /* the client's own delay (probe_types.h client_delay_avg_ms) */
    struct hist hist;        /* since the last drain */
    /* read by the aggregator without a lock */
    _Alignas(64) atomic_ullong last_answer_ns; /* when the server last answered (clock_now_ns) */
    atomic_uint busy;                          /* connections in an event */
    atomic_ullong lock_answers; /* ignorable errors answered (a lock wait timeout ends a silence) */
    /* the worker thread's own until joined */
    _Alignas(64) struct engine *e;
    unsigned id, first, n; /* its connections: e->conns[first .. first + n) */
    pthread_t thread;
    int started;
    int evfd;                    /* eventfd: the aggregator's wake-up */
    double run_s, idle_s, cpu_s; /* the run: wall time, time waiting in epoll, thread CPU */
};

struct engine {
    const struct probe_config *cfg;
    unsigned threads; /* connections */
    unsigned workers;
    pthread_mutex_t lock; /* state changes, start gate, completion */
    pthread_cond_t cond;
    unsigned n_ready, n_failed, n_done; /* workers */
    int go;                             /* start gate open */
    int cancelled;                      /* setup failed: workers leave without running */
    uint64_t start_ns, end_ns;          /* end_ns 0 = no time limit */
    atomic_int abort_run;               /* a fatal error in some connection */
    atomic_int any_down;                /* some connection could not reconnect */
    atomic_int finish;                  /* the level is over: stopping rule, or a stall ended it */
    atomic_int cut;                     /* every wait for the server is to end now */
    atomic_ullong issued;               /* --events */
    struct engine_arrivals arr;
    struct sbrand_unique uniq;
    struct engine_worker *wk;  /* [workers], 64-byte aligned */
    struct engine_conn *conns; /* [threads] */
    /* the first error (under lock) */
    int have_err;
    struct myconn_error err;
    char err_sql[256];
    char server_version[96];
};

/**
 * Allocate and initialise a level's engine: `threads` connections over `workers` threads
 * (1 <= workers <= threads), each connection with its generator seeded in sysbench's order from
 * `seed` (main generator 4 values, unique sequence 2, connections 4 each, the arrival generator
 * 4). Nothing is connected yet.
 * @return 0, or -1 out of memory or file descriptors (msg says which).
 */
int engine_init(struct engine *e, const struct probe_config *cfg, unsigned threads,
                unsigned workers, unsigned seed, char *msg, size_t cap);

/** Free what engine_init made (after the workers were joined). */
void engine_destroy(struct engine *e);

/**
 * Start the worker threads (SIGINT and SIGTERM blocked in them). Each connects and prepares its
 * connections, then counts itself ready or failed and waits for the gate (e->go / cancelled).
 * @return the number of threads started (< e->workers when pthread_create failed).
 */
unsigned engine_start(struct engine *e);

/** Wake every worker (after setting finish or cut). */
void engine_wake(struct engine *e);

/** Events and summed event latency of connection i after the workers were joined. */
void engine_conn_totals(const struct engine *e, unsigned i, uint64_t *events, uint64_t *time_ns);

#endif
