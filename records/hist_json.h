/*
 * hist_json.h - a latency histogram (histogram.h) as JSON, losslessly: the `latency_histogram`
 * member of a sizeup.point/1 record (docs/point-record.md), which is what lets the parts of a
 * point measured by several load generators be merged bucket by bucket (merge.h).
 *
 *   {"unit": "ns", "sub_buckets": 128, "lowest_ns": 1000, "highest_ns": 100000000000,
 *    "count": N, "underflow": U, "overflow": O, "min_ns": .., "max_ns": .., "sum_ns": ..,
 *    "buckets": [[lower_ns, count], ...]}
 *
 * `buckets` lists the non-empty buckets in increasing order, each by its exact lower bound in
 * nanoseconds (histogram.h: bucket i holds [lower, lower + width)); the layout keys say which
 * log-linear layout that is, and a reader refuses another. count = U + O + the buckets' counts;
 * min, max and sum are the exact values, absent when count is 0.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_RECORDS_HIST_JSON_H
#define SIZEUP_RECORDS_HIST_JSON_H

#include "histogram.h"
#include "jsonread.h"

#include <jansson.h>

/**
 * The JSON object of h.
 * @return a new reference, or NULL when out of memory.
 */
json_t *hist_json_new(const struct hist *h);

/**
 * Read the JSON object o (as hist_json_new writes it) into out (reset first). Errors are the
 * reader's, at its current path: a key missing or of the wrong type, another layout, a lower
 * bound that is not a bucket's, buckets out of order or repeated, counts that do not add up,
 * min > max.
 * @return JR_OK or JR_EINVAL (out left reset).
 */
int hist_json_read(struct jr *r, const json_t *o, struct hist *out);

#endif
