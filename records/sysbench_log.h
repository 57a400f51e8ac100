/*
 * sysbench_log.h - read sysbench's text output as point records, one run at a time.
 *
 * Reads what sysbench prints for `run` (docs/reference/sysbench.md §6, §7):
 *   - 1.0.x and 1.1 (master) OLTP scripts: header (threads, target rate, report interval,
 *     warm-up, seed), intermediate "[ Ns ] thds: ..." lines (kept as the point's series; the
 *     Lua report_default's "err/s X" without a colon too, as tpcc.lua prints it), the
 *     --histogram table, the "SQL statistics:" / "General statistics:" / "Throughput:" /
 *     "Latency (ms):" / "Threads fairness:" blocks;
 *   - legacy 0.4 ("OLTP test statistics:", "Test execution summary:", "per-request
 *     statistics:") and 0.5 ("[  10s] threads: ..." lines, "response time:" block) outputs;
 *     their qps is total queries / total time (flag qps_from_queries);
 *   - fileio (workload fileio_<mode>, IOPS and MiB/s in the point's io block), cpu, memory
 *     (1.0 "Total operations:", 0.4 "Operations performed: N (X ops/sec)"), mutex and threads
 *     (no tps: their events are lock loops, not work a database does).
 *
 * Shapes of real files:
 *   - several runs in one file give several points: a run starts at a "sysbench X.Y" banner, at
 *     "Number of threads:", at intermediate reports or a summary block after a finished run, or
 *     when intermediate reports start again at an earlier time; a summary after a whole one is
 *     a --report-checkpoints checkpoint (flag checkpoint) only when "[ Ns ] Checkpoint report:"
 *     came before it in the run;
 *   - output pasted into a document: any consistent indentation (blanks, tabs, '>' of quoted
 *     mail) before the run's lines is taken off; lines around the runs (headings, fences,
 *     text) are passed over;
 *   - a summary without the header: the thread count is total number of events / events
 *     (avg/stddev) avg (exact: sysbench prints avg = events / threads), flag threads_inferred
 *     and a note;
 *   - a command line echoed before a run ("$ sysbench mutex run") names its workload;
 *   - a run with FATAL lines has no results: among good runs it is left out with a warning
 *     naming its line (report->n_rejected); a file with no good run is an error;
 *   - a run with intermediate lines but no summary (killed, or only the interval lines kept)
 *     becomes a point with incomplete = 1 (flag no_summary, a warning): tps, qps, ... the mean
 *     of its intervals, duration_s the last interval's end, threads the most that ran. When
 *     the last intervals show the run winding down (the final interval at 0 tps or with fewer
 *     threads), that tail (intervals with fewer threads or below half the median tps) is left
 *     out of the means (flag wind_down, extra.wind_down_intervals).
 *
 * Line endings may be LF or CRLF; bytes that are not ASCII are ignored where they are not
 * part of a number, and replaced by '?' in messages.
 */
#ifndef SIZEUP_RECORDS_SYSBENCH_LOG_H
#define SIZEUP_RECORDS_SYSBENCH_LOG_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/** 1 when buf looks like sysbench output: a banner, "Threads started!", a summary block or an
 *  intermediate report at the start of a line (after indentation). path is not used. */
int sysbench_log_detect(const char *buf, size_t len, const char *path);

/** A reader over src (import_types.h). @return its state, or NULL when out of memory. */
void *sysbench_log_open(struct import_src *src);

/**
 * The next run's point into out (initialised).
 * @return 1, 0 at the end, or IMPORT_EPARSE (malformed summary line, no run with results),
 *         IMPORT_EIO, IMPORT_ENOMEM, reported through import_diag.
 */
int sysbench_log_next(void *state, struct point *out);

/** Free the reader's state. NULL-safe. */
void sysbench_log_close(void *state);

#endif
