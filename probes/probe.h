/*
 * probe.h - the OLTP probe runner: run one concurrency level (the tables are prepared, checked
 * and dropped by sbtables.h).
 *
 * Engine (probe_engine.h): `threads` concurrent connections (sysbench's --threads) driven by
 * `workers` OS threads, each running many connections over Connector/C's non-blocking API from
 * one epoll loop; workers = 0 means one per online CPU, at most one per connection. With
 * workers = threads each thread drives one connection, as sysbench does; nothing else about the
 * run changes with the number of workers.
 *
 * Run model (sysbench 1.0.20's, sysbench.md 2.4, 4, 5), per connection:
 *   - statements prepared once per connection (again after a reconnect);
 *   - closed loop by default: each connection runs the next event as soon as the previous ends;
 *   - with rate > 0 an open loop: arrivals are a Poisson process of that rate (exponential
 *     gaps -(1e9/rate) ln(1-u) ns), taken in arrival order by whichever connection is free; an
 *     event's latency is measured from its *intended* start (its arrival), so a stalled server
 *     shows as the queueing delay of every event that should have been sent (no coordinated
 *     omission); the lag (actual start - intended start) is reported;
 *   - an event that fails with an ignorable error is re-run from its start (new random values,
 *     no ROLLBACK, as sysbench); its latency includes the failed attempts; it counts once in
 *     events and once per failure in errors;
 *   - a lost connection gets a fresh handle and reconnects with exponential backoff (1 ms
 *     doubling to 1 s), counted in reconnects; the event is then re-run.  When a connection
 *     cannot reconnect before the level ends (or within give_up_s) the level is marked partial;
 *   - a frozen server: every statement has conn.timeout_s to be answered (then it fails as a
 *     lost connection), a connection attempt during the level never waits past the level's end
 *     plus PROBE_STALL_S, and the level has a deadline: its end (time limit, the stopping rule,
 *     a stall, SIGINT) plus PROBE_STALL_S for the events in flight; waits still open then are
 *     cut (the workers shut those sockets down). A level therefore ends by its limit
 *     + PROBE_STALL_S (+ at most one connect timeout). A level is `stalled` when the server
 *     answered no connection for PROBE_STALL_S while one waited (a freeze, a restart), or when
 *     its waits had to be cut; a stall ends the level at once, since its point cannot count;
 *   - a fatal error stops every connection after its current event; the level is marked fatal;
 *   - *stop becoming non-zero (SIGINT) stops every connection after its current event; the level
 *     is marked interrupted.
 *
 * Several clients, one point: with client_count K > 0 this process runs share client_index of
 * the level (connections split evenly: client I gets floor((I + 1) N / K) - floor(I N / K), and
 * the same share of --rate, and its own random stream: seed + client_index x 2654435769), waits
 * with its connections open until start_at_unix_ns (wall clock) when set, and its point is a
 * part: flag `partial`, a `client` object and the lossless latency histogram (records/merge.h
 * combines the parts).
 *
 * Aggregation (CONVENTIONS.md "Threads"): each worker owns a 64-byte aligned slot with its
 * counters and latency histogram, updated under the slot's own mutex once per turn of its loop;
 * the calling thread is the single aggregator: every report interval it drains every slot into
 * an interval histogram (for the interval line's percentile) and a cumulative one (for the
 * summary).  No shared atomic is touched per event except with --events (one fetch-add, as
 * sysbench) or --rate (the arrival schedule's mutex).
 *
 * The load generator's own cost: the result has the process's CPU time and, per worker, the
 * share of one CPU it used and of the time it was not waiting for the server; a level whose
 * busiest worker used PROBE_CLIENT_BOUND of a CPU or more is flagged `client_bound` (the client
 * may have limited the throughput, docs/load-generator.md).
 *
 * Thread-safety: call from one thread; the runner creates and joins its own workers.
 */
#ifndef SIZEUP_PROBES_PROBE_H
#define SIZEUP_PROBES_PROBE_H

#include "histogram.h"
#include "mysql_conn.h"
#include "oltp.h"
#include "point.h"
#include "sbrand.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

/* Everything a level needs. Strings and pointers are borrowed. */
struct probe_config {
    struct oltp_opts oltp;
    struct myconn_opts conn;
    struct sbrand_params rand;
    unsigned rand_seed;         /* --rand-seed; 0 = time(NULL) at each level's start */
    double time_s;              /* --time, seconds; 0 = no limit */
    uint64_t events;            /* --events; 0 = no limit */
    double rate;                /* --rate, events/s; 0 = closed loop */
    unsigned report_interval_s; /* --report-interval; 0 = no interval lines */
    double percentile;          /* --percentile, 0 < p <= 100; 0 = disabled */
    double give_up_s;           /* reconnect give-up time when no --time limit applies */
    const atomic_int *stop;     /* non-zero: stop (SIGINT); may be NULL */
    /* Calibrated point (calib.h), on when precision > 0: time_s is then ignored; the
     * aggregator collects throughput every tick_s, asks calib_decide() after each tick and
     * stops the level when it says so (at the latest after max_time_s). */
    double precision;  /* relative half-width asked of the 95 % interval of tps */
    double min_time_s; /* never stop before, s */
    double max_time_s; /* always stop at, s (> min_time_s) */
    double tick_s;     /* fine tick, s; 0 = PROBE_TICK_S; must divide 1 s evenly */
    int progress_live; /* 1: progress is a terminal: a live line rewritten per tick */
    unsigned workers;  /* --workers: OS threads driving the connections; 0 = online CPUs, at
                        * most one per connection */
    /* --client I/K: this process runs share client_index (0-based) of client_count; 0 = one
     * client (not a part) */
    unsigned client_index, client_count;
    int64_t
        start_at_unix_ns; /* --start-at: open the gate at this wall-clock time; 0 = once ready */
    FILE *out;            /* sysbench-layout report (stdout); NULL = none */
    FILE *progress;       /* progress lines (stderr); NULL = none */
};

/* A stall: no answer from the server to any worker for this long while one waits, s. It is
 * also the grace the events in flight get at a level's end before their waits are cut. Twice
 * the 1 s a LOCK TABLES or a lock wait timeout commonly takes, far above an OLTP statement. */
#define PROBE_STALL_S 2.0

/* A worker that used this share of one CPU or more over a level marks it `client_bound`. */
#define PROBE_CLIENT_BOUND 0.85

/* Default fine tick of a calibrated point: 250 ms, so an MSER-5 batch is 1.25 s. */
#define PROBE_TICK_S 0.25
/* MSER batch size in ticks (MSER-5, White, Cobb & Spratt 2000). */
#define PROBE_MSER_M 5

/* Counters of a level (or of one interval). */
struct probe_totals {
    uint64_t events, reads, writes, other, errors, reconnects;
};

/* How a level ended. */
enum probe_end {
    PROBE_END_OK = 0,          /* time or event limit reached */
    PROBE_END_INTERRUPTED = 1, /* stop flag (SIGINT) */
    PROBE_END_PARTIAL = 2,     /* a worker lost the server and could not reconnect */
    PROBE_END_FATAL = 3,       /* a non-ignorable error */
    PROBE_END_CONNECT = 4      /* workers could not connect or prepare: nothing measured */
};

struct probe_result {
    unsigned threads;       /* connections this process ran */
    unsigned level_threads; /* the level: threads, or all clients' connections for a part */
    enum probe_end end;
    struct probe_totals tot;
    struct hist *hist;             /* cumulative latency histogram (owned) */
    double elapsed_s;              /* start (all workers ready) to end */
    double *thread_events;         /* per connection: events (owned, threads entries) */
    double *thread_time_s;         /* per connection: sum of its event latencies, s */
    struct point_interval *series; /* per full report interval (owned) */
    size_t n_series, cap_series;
    double client_cpu_s;                /* user + system CPU of this process over the level */
    unsigned workers;                   /* OS threads that drove the connections */
    unsigned cpus_online;               /* of this host */
    double worker_cpu_max;              /* the busiest worker's CPU time / the run's time */
    double worker_busy_max;             /* the largest share of the run a worker was not waiting */
    int client_bound;                   /* worker_cpu_max >= PROBE_CLIENT_BOUND */
    int64_t start_unix_ns, end_unix_ns; /* the run's start and end, wall clock (for parts) */
    double start_late_s;                /* start_at_unix_ns given: how late the gate opened, s */
    double lag_avg_ms, lag_max_ms;      /* with rate: actual - intended start */
    char server_version[96];
    char started_at[32]; /* RFC 3339 UTC */
    /* Calibrated point (cfg->precision > 0). The series holds the fine ticks; the figures
     * below cover only the ticks kept after the warm-up cut. Latency: one histogram per MSER
     * batch of PROBE_MSER_M ticks is kept during the run (the cut is a whole number of
     * batches), and the batches after the cut are merged into kept_hist, so percentiles
     * exclude warm-up exactly. Events finishing after the last full tick (between the
     * decision and the workers' exit) count in tot/hist but not in the kept figures. */
    int calibrated;
    size_t ticks;             /* full ticks measured */
    size_t cut_ticks;         /* ticks cut as warm-up (a multiple of PROBE_MSER_M) */
    double warmup_s;          /* time of the cut ticks, s */
    double kept_s;            /* time of the kept ticks, s */
    struct probe_totals kept; /* counters of the kept ticks */
    struct hist *kept_hist;   /* latencies of the kept ticks (owned) */
    double ci95_tps;          /* batch-means 95 % half-width of the kept mean tps; NAN if none */
    double rel95;             /* ci95_tps / mean; NAN if none */
    double lag1;              /* lag-1 autocorrelation of the batch means */
    int steady;               /* 1: warm-up over and precision reached before max_time_s */
    /* Faults. A stalled calibrated level keeps every tick (no warm-up cut: MSER would cut the
     * productive ticks and keep the stalled ones) and is never steady. */
    int stalled;              /* the level spanned a stall (see the top of this file) */
    int cut;                  /* waits for the server were cut at the level's deadline */
    double longest_silence_s; /* longest time the server answered no worker while one waited */
    struct myconn_error err;  /* the fatal / connect / lost-connection error, when any */
    char err_sql[256];        /* statement that failed fatally (template or text) */
};

/**
 * The configuration `sizeup probe` starts from before its options: oltp_opts_default(), host,
 * port, user and database unset (the option files', else MYCONN_DEFAULT_*), TLS DISABLED, connect
 * timeout 5 s, statement timeout 10 s, ignored errors 1213,1020,1205, --time 10 s, --min-time 5 s,
 * --max-time 60 s,
 * --percentile 95, give_up_s 30, the special distribution (12, 1, 75, pareto 0.2). No stream,
 * no stop flag, no password. A study's probes start from it too.
 */
void probe_config_default(struct probe_config *cfg);

/** Zero a result (no allocation). */
void probe_result_init(struct probe_result *r);

/** Free what a result owns; leaves it zeroed. NULL-safe. */
void probe_result_destroy(struct probe_result *r);

/**
 * Run one level of `threads` connections (1..4096; with client_count, all clients'
 * connections, >= client_count), over cfg->workers threads.
 * @return 0 when the level ran (r->end says how it ended, OK or otherwise), or -1 when it
 *         could not be set up (out of memory or file descriptors, threads could not start;
 * r->err.msg says why).
 */
int probe_run(const struct probe_config *cfg, unsigned threads, struct probe_result *r);

/**
 * Fill a point record (initialised) from a level's result: counts, rates, latency min/avg/max/
 * sum and p50/p95/p99 (+ the --percentile one), overflows, the series, client CPU, server
 * version, start time, flags (partial, interrupted, fatal; `stalled` when the level spanned a
 * stall, `reconnects` when it needed any reconnect: curve.h's rule excludes both), and
 * extra.faults {longest_silence_s, cut, reconnects} when there was one. target/config/options/tool
 * are the caller's. For a calibrated result the counts, rates and latencies are those of the kept
 * ticks, duration_s is the kept time, warmup_s the cut, ci95_tps and steady are set, and
 * extra.calibration holds the rule's inputs and outcome (tick_s, mser_m, cut_ticks, ticks,
 * precision, rel95, lag1, min/max time, whole-run transactions and elapsed_s) so the decision
 * can be replayed from the series. extra.load_generator holds the load generator's figures
 * (workers, connections, cpus_online, worker_cpu_max, worker_busy_max); `client_bound` is flagged
 * as above. A part (cfg->client_count > 0) has threads = the level, the flag `partial`, the
 * `client` object (index, count, threads, start_at, start/end wall-clock times) and
 * latency_histogram.
 * @return POINT_OK or POINT_ENOMEM.
 */
int probe_fill_point(const struct probe_config *cfg, const struct probe_result *r, struct point *p);

#endif
