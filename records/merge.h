/*
 * merge.h - several load generators' parts of one point, merged into the point (issue 18).
 *
 * A level measured by K clients (`sizeup probe run --client I/K`) gives K parts: points with
 * the flag `partial`, a `client` object (index, count, its connections, the agreed start
 * `start_at`, its wall-clock window) and the exact latency histogram (hist_json.h). Parts are
 * grouped by (client count, start_at) when they have an agreed start, else by (client count,
 * level); every group must be complete and consistent, and gives one point:
 *
 *   - counts (transactions, queries, reads, writes, other, errors, reconnects, latency
 *     overflows) and client CPU are summed; flags are united, less the parts' `partial`
 *     (kept when a part lost its server: `server_unreachable`, `fatal_error`);
 *   - the latency histograms are merged bucket by bucket, and min, avg, max, sum and every
 *     percentile the parts carried (at least p50, p95, p99) are read from the merged histogram,
 *     never averaged;
 *   - the window is the common one, from the latest start to the earliest end: duration_s is
 *     its length; tps, qps and the other rates are the sums of each part's count over its own
 *     window (the parts' windows agree within the skew, or a warning says by how much);
 *   - the series, aligned by interval, sums the parts' rates (the intervals' percentiles are
 *     left out: they cannot be merged);
 *   - threads is the level (the parts' connections add up to it), `client` is gone and
 *     extra.merge says what was merged: parts, their files, start skew, end skew, the common
 *     window, and each client's index, connections, tps and load-generator figures.
 *
 * Refused, with a message naming the parts (FILE:LINE) and what differs: a point that is not a
 * part, parts of one group that differ in target, config, workload, level, rate, client count
 * or options (but for the per-client `client`, `start_at`, `workers`, `out`), a part missing or
 * given twice, connections that do not add up, a part without its histogram or window.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_RECORDS_MERGE_H
#define SIZEUP_RECORDS_MERGE_H

#include "point.h"

#include <stddef.h>
#include <stdio.h>

/* Default skew, s: parts whose starts or ends differ by more get a warning. */
#define MERGE_SKEW_S 0.1

/* Return codes. */
enum { MERGE_OK = 0, MERGE_EINVAL = -1, MERGE_ENOMEM = -2 };

/**
 * Merge parts into points.
 * @param parts   the parts read, in any order (borrowed)
 * @param where   "FILE:LINE" of each part for messages (n entries, borrowed)
 * @param skew_s  >= 0: the starts and ends (wall clock) of a group's parts may differ this
 *                much before a warning
 * @param out     one merged point appended per group, in the order of each group's first part
 * @param warn    warnings ("sizeup merge: ...: starts differ by 0.42 s (> 0.10 s)"); may be NULL
 * @param msg     the reason of a refusal (cap bytes)
 * @return MERGE_OK, MERGE_EINVAL (refused: nothing appended to out), MERGE_ENOMEM
 */
int merge_parts(const struct point *parts, const char *const *where, size_t n, double skew_s,
                struct point_list *out, FILE *warn, char *msg, size_t cap);

#endif
