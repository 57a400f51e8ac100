/*
 * sysbench_log.h - parse sysbench's text output into point records.
 *
 * Reads what sysbench prints for `run` (sysbench.md §6, §7):
 *   - 1.0.x and 1.1 (master) OLTP scripts: header (threads, target rate, report interval,
 *     warm-up, seed), intermediate "[ Ns ] thds: ..." lines (kept as the point's series),
 *     the --histogram table, the "SQL statistics:" / "General statistics:" / "Throughput:" /
 *     "Latency (ms):" / "Threads fairness:" blocks;
 *   - legacy 0.4 ("OLTP test statistics:", "Test execution summary:", "per-request
 *     statistics:") and 0.5 ("[  10s] threads: ..." lines, "response time:" block) outputs;
 *   - fileio (workload fileio_<mode>, IOPS and MiB/s in the point's io block), cpu and memory.
 * Several runs in one buffer (a sweep logged into one file) give several points: a run starts
 * at a "sysbench X.Y" banner, or at "Number of threads:" after a finished run.
 *
 * A run with FATAL lines is an error (sysbench prints no summary then). A run with
 * intermediate lines but no summary (killed) becomes a point with incomplete = 1, tps/qps
 * the mean of its intervals and duration_s its last interval's end; it is counted in
 * report->n_incomplete and the return is IMPORT_WARN.
 *
 * Line endings may be LF or CRLF; bytes that are not ASCII are ignored where they are not
 * part of a number, and replaced by '?' in messages.
 */
#ifndef SIZEUP_RECORDS_SYSBENCH_LOG_H
#define SIZEUP_RECORDS_SYSBENCH_LOG_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/**
 * Parse every run in buf (len bytes, need not be NUL-terminated).
 * @param name    file name for messages and source.file
 * @param opt     workload/target defaults (may be NULL)
 * @param out     points are appended here only when the whole buffer parsed (all or nothing)
 * @param report  message (file:line: what was expected) and counts; always written
 * @return IMPORT_OK, IMPORT_WARN (an incomplete run), IMPORT_EPARSE (FATAL run, malformed
 *         summary line, no results at all), IMPORT_ENOMEM.
 */
int sysbench_log_parse(const char *buf, size_t len, const char *name,
                       const struct import_options *opt, struct point_list *out,
                       struct import_report *report);

/** 1 when buf looks like sysbench output (a banner, "Threads started!", a summary block). */
int sysbench_log_detect(const char *buf, size_t len);

#endif
