/*
 * probe_types.h - the data of one OLTP level: its configuration (struct probe_config) and its
 * result (struct probe_result), with the constants of the run model that probe.h describes.
 * A leaf of the probe runner: the engine (probe_engine.h), the tick record (probe_ticks.h) and
 * the report (report.h) read these types without including the runner's probe.h, so the
 * runner's parts do not include each other in a circle.
 *
 * Thread-safety: plain data; see probe.h for who touches what during a run.
 */
#ifndef SIZEUP_PROBES_PROBE_TYPES_H
#define SIZEUP_PROBES_PROBE_TYPES_H

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
    double max_time_s; /* always stop at, s of wall clock from the start (> min_time_s) */
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

/* A silence of this long (the server answered no connection while one waited, sampled every
 * PROBE_SILENCE_SAMPLE_S) flags the level `stalled` too, without ending it: longer than the 1 s
 * lock wait above (with room for its answer to be read on a loaded machine), it is an outage or
 * a machine that stalled, not a measurement (a 2 s freeze, just under PROBE_STALL_S, zeroed two
 * thirds of a 3 s level, and a 1.4 s stall of the loaded host kept a level from ever being
 * steady; both went unflagged, so neither was measured again). A silence that ends with an
 * ignorable error's answer (1205 after innodb_lock_wait_timeout) was a lock wait: it does not
 * flag the level. */
#define PROBE_SILENCE_FLAG_S 1.2
#define PROBE_SILENCE_SAMPLE_S 0.05

/* A near-silence: the server answered, but only a trickle. Intervals of the series (ticks or
 * report intervals) whose throughput is below PROBE_NEAR_ZERO of the best the level sustained
 * over PROBE_NEAR_REF_S earlier (a window of at least PROBE_NEAR_MIN_EVENTS transactions, so a
 * slow open loop's random gaps are no trickle), for PROBE_SILENCE_FLAG_S in a row, flag the
 * level `stalled` as a silence does (a server thawed from SIGSTOP on a loaded host answered
 * 0-46 tps for a stretch of a level that ran at 3,832 tps: a few answers a second reset the
 * silence, so it went unflagged). A stretch in which, or right after which, an ignorable error
 * was answered was a lock wait and flags nothing; a slow start (warm-up, which the MSER cut is
 * for) has no higher second before it. */
#define PROBE_NEAR_ZERO 0.05
#define PROBE_NEAR_REF_S 1.0
#define PROBE_NEAR_MIN_EVENTS 20

/* A worker that used this share of one CPU or more over a level marks it `client_bound`. */
#define PROBE_CLIENT_BOUND 0.85

/* A level whose client's own delay (client_delay_avg_ms, a lower bound) is this share of its mean
 * latency or more is flagged `client_delay` (issue 28.6: at 2,000 connections on 2 workers the
 * tail was 1.6x sysbench's at more throughput). */
#define PROBE_CLIENT_DELAY_SHARE 0.10
/* ... and at least this long, ms (7 us of a 69 us point select is no material delay). */
#define PROBE_CLIENT_DELAY_MIN_MS 0.1

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
    double client_delay_avg_ms;         /* the client's own delay, at least, taken out of the
                                           latencies: from the epoll return that saw an answer
                                           to the event's completion, over the events answered
                                           in an epoll turn (issue 28.6); NAN when none */
    double client_delay_max_ms;
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
    double near_silence_s;    /* longest near-silence of the series, s (probe_near_silence_s) */
    struct myconn_error err;  /* the fatal / connect / lost-connection error, when any */
    char err_sql[256];        /* statement that failed fatally (template or text) */
};

#endif
