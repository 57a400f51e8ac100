/*
 * disk_report.h - what `sizeup disk` shows and records for one test at one queue depth:
 * a row of the text table and a sizeup.point/1 record.
 *
 * Table columns: test, qd (queue depth = threads), IOPS, MiB/s (= IOPS x block / 2^20),
 * latency min/avg/p50/p95/p99/max in ms from the merged histogram (histogram.h; a percentile
 * whose rank falls above the histogram's 100 s range prints as ">100000"), the batch-means
 * 95 % half-width of IOPS in percent ("ci%"; "steady" is ci% <= --precision), the measured
 * seconds, and the client's CPU use in percent of one core ("cpu%"), so a run where the
 * probe itself is the bottleneck shows.
 *
 * Record (point.h): workload disk_<test>, threads = queue depth, duration_s/warmup_s,
 * transactions = I/Os (commits for fsync), tps = IOPS, reads/writes/other (= syncs) and their
 * rates, latency_ms {min,avg,max,p50,p95,p99} (a percentile in the overflow region is left
 * out, latency_overflows counts those values), ci95_tps, steady, io {reads_ps, writes_ps,
 * fsyncs_ps, read_mib_s, written_mib_s}, series (per kept batch: t, threads, tps), tool,
 * client_cpu_s, started_at, options (the caller's object plus "block_size" of this test),
 * flags "buffered" (no O_DIRECT) and "o_direct_refused", source kind probe; for fsync,
 * extra {"sync_latency_ms": {min, avg, max, p50, p95, p99}}: the sync call alone, the figure
 * fio reports as "sync" latency (fio's write latency excludes it).
 *
 * Thread-safety: functions touch only the objects passed to them.
 */
#ifndef SIZEUP_PROBES_DISK_REPORT_H
#define SIZEUP_PROBES_DISK_REPORT_H

#include "disk.h"
#include "point.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/* What every record of one `sizeup disk` run shares. */
struct disk_report_info {
    const char *target;    /* required */
    const char *tool;      /* e.g. "sizeup 0.1.0" */
    const json_t *options; /* borrowed; deep-copied into each point; may be NULL */
    int direct;            /* 1 when the file was opened with O_DIRECT */
    int direct_refused;    /* 1 when O_DIRECT was asked for and refused */
};

/** Print the table's header line to f. */
void disk_report_header(FILE *f);

/** Print one row for test t at queue depth qd to f (format above). */
void disk_report_row(FILE *f, enum disk_test t, unsigned qd, uint32_t block_size,
                     const struct disk_result *r);

/**
 * Fill p (initialised; old contents destroyed) with the record of one test at one depth.
 * @param started_at  RFC 3339 UTC time the test started, copied; may be NULL
 * @return POINT_OK, or POINT_ENOMEM (p is then left initialised).
 */
int disk_report_point(struct point *p, const struct disk_report_info *info, enum disk_test t,
                      unsigned qd, uint32_t block_size, const char *started_at,
                      const struct disk_result *r);

#endif
