/*
 * engine_state.h - inside probes/: the data of the engine's workers (probe_engine.h) that the
 * setup (probe_engine.c) and the workers' loop (probe_worker.c) both read: the engine, its
 * workers and their slots, the arrival schedule, one connection's state. Declares no function
 * but two inline sums, so the engine's parts include no circle. Sharing rules: probe_engine.h.
 */
#ifndef SIZEUP_PROBES_ENGINE_STATE_H
#define SIZEUP_PROBES_ENGINE_STATE_H

#include "mysql_async.h"
#include "probe_types.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct engine;

/* Connection states. */
enum {
    C_NEW,     /* not connected yet (setup) */
    C_CONNECT, /* connecting */
    C_PREPARE, /* preparing statement prep_i */
    C_READY,   /* connected and prepared, waiting for the gate */
    C_ARRIVAL, /* --rate: waiting for its arrival time t0 */
    C_RUN,     /* sending step `step` of its event */
    C_BACKOFF, /* waiting to try a reconnect */
    C_DONE     /* closed */
};

/* One connection of a level: its worker's, driven by the worker's loop (probe_worker.c). */
struct engine_conn {
    struct oltp_worker w;
    struct myasync a;
    struct sbrand rng;
    struct myconn_opts copts; /* cfg->conn with this attempt's connect timeout */
    struct engine_worker *wk;
    unsigned id;
    int state;
    int in_event;            /* an event started and not ended (counted in busy) */
    int setup;               /* the setup phase's connect (else a reconnect during the run) */
    size_t prep_i;           /* statement being prepared */
    size_t step;             /* step being sent */
    uint64_t t0;             /* the event's start (open loop: its intended start) */
    double lag_ns;           /* open loop: actual - intended start; -1 closed loop */
    uint64_t io_deadline_ns; /* a wait with MYASYNC_TIMEOUT ends here; 0 none */
    uint64_t wake_ns;        /* timer of C_ARRIVAL / C_BACKOFF */
    uint64_t give_up_ns, backoff_ns;
    int fd;                /* socket registered with epoll, -1 none */
    uint32_t mask;         /* its epoll events */
    struct probe_totals d; /* counts of the event in flight */
    uint64_t my_events, my_time_ns;
};

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

#endif
