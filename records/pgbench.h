/*
 * pgbench.h - PostgreSQL's pgbench as point records: its printed output and its -l logs.
 *
 * The output (pgbench 10 to 17; the layout of printResults, printProgressReport and the -r
 * report in src/bin/pgbench/pgbench.c), one point per run; several runs in one file (a sweep of
 * client counts) give several points:
 *   - "pgbench (15.18 ...)" -> tool; "transaction type: <builtin: TPC-B (sort of)>" -> workload
 *     pgbench_tpcb (select only -> pgbench_select_only, simple update -> pgbench_simple_update,
 *     multiple scripts -> pgbench_mixed, a script file /x/my.sql -> pgbench_my);
 *   - "number of clients: N" -> threads (the concurrency; "number of threads" is pgbench's own
 *     worker threads: extra.pgbench_threads), "scaling factor" -> extra.scale;
 *   - "number of transactions actually processed: N[/M]" -> transactions; "number of failed
 *     transactions: N (X%)" -> errors; skipped and late (-L) counts -> extra;
 *   - "latency average = X ms" -> latency_ms.avg, "latency stddev = X ms" -> extra.latency_
 *     stddev_ms, "rate limit schedule lag: avg X (max Y) ms" -> extra.lag_avg_ms / lag_max_ms,
 *     "initial connection time" / "average connection time" -> extra;
 *   - "tps = X (without initial connection time)" (14 and later) or "(excluding connections
 *     establishing)" (13 and before, preferred to "including"), "(including reconnection
 *     times)" (-C) -> tps; duration_s = transactions / tps (pgbench prints no measured time);
 *   - -r: "statement latencies in milliseconds[ and failures | , failures and retries]:" ->
 *     extra.statements [{latency_ms, failures, retries, command, script}]; the "SQL script N:"
 *     blocks of several scripts -> extra.scripts [{script, weight, transactions, tps,
 *     latency_avg_ms, latency_stddev_ms, failed}];
 *   - --progress lines "progress: T s, X tps, lat Y ms stddev Z[, N failed][, lag L ms][, N
 *     skipped][, N retried, N retries]" -> series (lat_ms is the interval's mean: no pct). A run
 *     with progress lines but no summary (killed) is a point marked incomplete (flag no_summary,
 *     a warning); "Run was aborted" marks it incomplete too (flag aborted). A run that printed
 *     only "pgbench: error:" lines is left out with a warning when other runs are good; alone it
 *     is the file's error.
 *
 * A -l log (pgbench 10 to 17: "client_id transaction_no time script_no time_epoch time_us
 * [schedule_lag] [retries]", time in microseconds or failed / skipped / serialization /
 * deadlock / other), one point for the run: with -j N pgbench writes one file per thread,
 * PREFIX.PID and PREFIX.PID.1 .. PREFIX.PID.(N-1); given PREFIX.PID, the thread files beside it
 * are read with it (given a thread file whose main file exists, it is passed over with a note,
 * so `pgbench_log.*` counts each transaction once). threads = the distinct client ids,
 * transactions = the logged successes, errors = the failures, latency min/avg/max exact and
 * p50/p95/p99 from the log-linear histogram of every latency (histogram.h, within 0.4 %; the
 * buckets go into the point's histogram), duration_s = from the first transaction's start to
 * the last one's end, tps = transactions / duration_s. An aggregated log (--aggregate-interval)
 * does not say how many clients ran: it is refused with a message saying so.
 */
#ifndef SIZEUP_RECORDS_PGBENCH_H
#define SIZEUP_RECORDS_PGBENCH_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/** 1 when buf looks like pgbench output (its banner, "transaction type:", a progress line) or
 *  a per-transaction or aggregated -l log. */
int pgbench_detect(const char *buf, size_t len, const char *path);

/** A reader over src (import_types.h). @return its state, or NULL when out of memory. */
void *pgbench_open(struct import_src *src);

/** The next run's point. @return 1, 0 at the end, or a negative IMPORT_E* code (reported). */
int pgbench_next(void *state, struct point *out);

/** Free the reader's state. NULL-safe. */
void pgbench_close(void *state);

#endif
