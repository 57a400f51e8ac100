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
 * Run model (sysbench 1.0.20's, docs/reference/sysbench.md 2.4, 4, 5), per connection:
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
 *     cut (the workers shut those sockets down). A calibrated level's limit (max_time_s) is
 *     wall-clock time from its start, not a count of ticks: a tick the aggregator missed (a
 *     loaded machine) is skipped, not caught up, and the limit may fall inside a tick, which is
 *     then cut short and left out of the series. A level therefore ends by its limit
 *     + PROBE_STALL_S (+ at most one connect timeout). A level is `stalled` when the server
 *     answered no connection for PROBE_STALL_S while one waited (a freeze, a restart), or when
 *     its waits had to be cut; a stall ends the level at once, since its point cannot count.
 *     A silence of PROBE_SILENCE_FLAG_S (sampled every PROBE_SILENCE_SAMPLE_S, through the
 *     wind-down too) flags it `stalled` too, without ending it, unless it ended with an
 *     ignorable error's answer (a lock wait's timeout); so does a near-silence of as long
 *     (probe_near_silence_s: the server answered a trickle, under PROBE_NEAR_ZERO of what the
 *     level ran at before);
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
 * Aggregation: each worker owns a 64-byte aligned slot with its
 * counters and latency histogram, updated under the slot's own mutex once per turn of its loop;
 * the calling thread is the single aggregator: every report interval it drains every slot into
 * an interval histogram (for the interval line's percentile) and a cumulative one (for the
 * summary).  No shared atomic is touched per event except with --events (one fetch-add, as
 * sysbench) or --rate (the arrival schedule's mutex).
 *
 * The load generator's own cost: the result has the process's CPU time and, per worker, the
 * share of one CPU it used and of the time it was not waiting for the server; a level whose
 * busiest worker used PROBE_CLIENT_BOUND of a CPU or more is flagged `client_bound` (the client
 * may have limited the throughput, docs/load-generator.md). The client's own delay, at least:
 * an answer is ready when the epoll turn that reports it returns, and waits while the worker
 * handles the turn's other events; a transaction's latency ends at that return (the delay is
 * the client's, not the server's), and the mean of (completion - that return) over the events
 * answered in a turn is client_delay_avg_ms; a level where it is PROBE_CLIENT_DELAY_SHARE of
 * the mean latency or more (and PROBE_CLIENT_DELAY_MIN_MS) is flagged `client_delay`.
 *
 * Thread-safety: call from one thread; the runner creates and joins its own workers.
 *
 * This header fronts probe.c (the level: probe_run, its threads and its result) and probe_point.c
 * (probe_fill_point: a level's result as a sizeup.point/1 record).
 */
#ifndef SIZEUP_PROBES_PROBE_H
#define SIZEUP_PROBES_PROBE_H

#include "probe_types.h"

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
 * The longest near-silence of a level's series, s: consecutive intervals whose throughput (tps)
 * is below PROBE_NEAR_ZERO of the best mean the level sustained over PROBE_NEAR_REF_S before
 * the stretch began (a window of at least PROBE_NEAR_MIN_EVENTS transactions). An interval's
 * length is the gap between its end (t_s, s since the start) and the previous one's (0 for the
 * first); a stretch that an ignorable error's answer (errors_ps > 0) ends or falls in was a lock
 * wait and does not count. series may be NULL when n is 0; it is only read.
 * @return seconds (0 when there is none); probe_run flags the level `stalled` from
 *         PROBE_SILENCE_FLAG_S.
 */
double probe_near_silence_s(const struct point_interval *series, size_t n);

/**
 * Whether the client's own delay is a material part of a level's latency: r's
 * client_delay_avg_ms (finite) is PROBE_CLIENT_DELAY_SHARE of mean_latency_ms (> 0) or more,
 * and PROBE_CLIENT_DELAY_MIN_MS or more.
 * @return 1 or 0 (0 when either figure is unknown).
 */
int probe_client_delay_material(const struct probe_result *r, double mean_latency_ms);

/**
 * Fill a point record (initialised) from a level's result: counts, rates, latency min/avg/max/
 * sum and p50/p95/p99 (+ the --percentile one), overflows, the series, client CPU, server
 * version, start time, flags (partial, interrupted, fatal; `stalled` when the level spanned a
 * stall, `reconnects` when it needed any reconnect: curve.h's rule excludes both), and
 * extra.faults {longest_silence_s, near_silence_s, cut, reconnects} when there was one.
 * target/config/options/tool are the caller's. For a calibrated result the counts, rates and
 * latencies are those of the kept ticks, duration_s is the kept time, warmup_s the cut, ci95_tps
 * and steady are set, and extra.calibration holds the rule's inputs and outcome (tick_s, mser_m,
 * cut_ticks, ticks, precision, rel95, lag1, min/max time, whole-run transactions and elapsed_s) so
 * the decision can be replayed from the series. extra.load_generator holds the load generator's
 * figures (workers, connections, cpus_online, worker_cpu_max, worker_busy_max); `client_bound` is
 * flagged as above. A part (cfg->client_count > 0) has threads = the level, the flag `partial`, the
 * `client` object (index, count, threads, start_at, start/end wall-clock times) and
 * latency_histogram.
 * @return POINT_OK or POINT_ENOMEM.
 */
int probe_fill_point(const struct probe_config *cfg, const struct probe_result *r, struct point *p);

#endif
