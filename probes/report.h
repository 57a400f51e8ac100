/*
 * report.h - the probe's text report in sysbench 1.0.20's layout (src/sysbench.c,
 * src/db_driver.c of akopytov/sysbench 1.0.20), so that people and sysbench parsers
 * read it as they read sysbench: header, "[ Ns ]" intermediate lines, SQL statistics, general
 * statistics, latency, threads fairness.
 *
 * Differences from sysbench, each visible in the text:
 *   - the first line names sizeup ("sizeup X (sysbench 1.0.20-compatible report)");
 *   - latency values beyond the histogram (>= 100 s) are never shown as a cap: the percentile
 *     line then shows the exact max, and a line "latency overflows (>= 100000 ms): N" follows
 *     the latency block (only when N > 0);
 *   - percentiles may be fractional (--percentile 99.9 prints "99.9th percentile").
 *
 * Thread-safety: functions write only to the given stream.
 */
#ifndef SIZEUP_PROBES_REPORT_H
#define SIZEUP_PROBES_REPORT_H

#include "probe_types.h"

#include <stdio.h>

/**
 * The header up to "Initializing worker threads...".
 * @param version  sizeup's version string
 * @param seed     the --rand-seed given (0 = from the current time)
 */
void report_header(FILE *f, const char *version, const struct probe_config *cfg, unsigned threads,
                   unsigned seed);

/** "\nThreads started!\n\n" once every worker is connected and ready. */
void report_started(FILE *f);

/**
 * One intermediate line "[ %.0fs ] thds: %u tps: %4.2f qps: %4.2f (r/w/o: ...) lat (ms,P%):
 * %4.2f err/s: %4.2f reconn/s: %4.2f" from the counters of an interval of dt_s seconds.
 * @param lat_ms  the interval's percentile in ms (0 when it had no events)
 */
void report_interval(FILE *f, double t_s, unsigned threads, const struct probe_totals *d,
                     double dt_s, double percentile, double lat_ms);

/** With --rate: "[ %.0fs ] queue length: %lu, concurrency: %lu". */
void report_queue(FILE *f, double t_s, unsigned long queue, unsigned long concurrency);

/**
 * The final blocks: SQL statistics, General statistics, Latency (ms), Threads fairness.
 * @param percentile  --percentile, 0 prints "percentile stats: disabled"
 */
void report_summary(FILE *f, const struct probe_result *r, double percentile);

/** Format a percentile as sysbench does ("95") or with its fraction ("99.9") into buf. */
void report_pct_label(char *buf, size_t len, double percentile);

#endif
