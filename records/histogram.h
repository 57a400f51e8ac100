/*
 * histogram.h - the latency histogram of every probe (OLTP, disk).
 *
 * A log-linear histogram in the spirit of HdrHistogram: values are integer nanoseconds; each
 * power of two [2^e, 2^(e+1)) is cut into HIST_SUB_BUCKETS (128) equal linear buckets, so a
 * bucket's width is at most 1/128 of its lower bound.  A value is reported as its bucket's
 * midpoint, which is within 1/256 = 0.39 % of any value the bucket holds (the brief asks for
 * <= 1 %).  The tracked range is [HIST_LOWEST_NS, HIST_HIGHEST_NS) = [1 us, 100 s), covered by
 * the octaves e = 9 .. 36 (2^9 = 512 ns < 1 us, 2^37 ns = 137 s > 100 s): 28 x 128 = 3584 buckets.
 *
 * Outside the range nothing is clamped: a value below 1 us is counted in `underflow`, a value
 * at or above 100 s in `overflow`; both still enter count, sum, min and max, which are kept
 * exactly beside the buckets.  A percentile whose rank falls in the underflow or overflow
 * region says so with its return code (HIST_BELOW_RANGE / HIST_ABOVE_RANGE), so a report can
 * print "> 100 s" instead of a cap that looks like a measurement (sysbench issue #242).
 *
 * Use by a multi-threaded probe:
 *   - each worker thread owns one struct hist (64-byte aligned, so two threads' histograms
 *     never share a cache line) and calls hist_record() for each event, without atomics;
 *   - once per interval one aggregator takes each thread's histogram (under that thread's own
 *     lock, or after the thread has stopped), hist_merge()s it into an interval histogram and
 *     a cumulative one, and hist_reset()s the thread's;
 *   - percentiles are read from the merged histogram only (averaging per-thread or
 *     per-interval percentiles is wrong).
 *
 * Example:
 *   struct hist *h = hist_new();            // or an embedded struct hist + hist_reset()
 *   uint64_t t0 = clock_now_ns();  ...  hist_record(h, clock_now_ns() - t0);
 *   uint64_t p95;
 *   int rc = hist_percentile(h, 95.0, &p95); // rc: HIST_OK, HIST_BELOW/ABOVE_RANGE, HIST_EMPTY
 *   hist_free(h);
 *
 * Thread-safety: a struct hist is not locked internally; one writer at a time.  Functions that
 * take a const histogram may run concurrently with each other but not with a writer.
 */
#ifndef SIZEUP_RECORDS_HISTOGRAM_H
#define SIZEUP_RECORDS_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

/* Lowest value tracked by the buckets: 1 microsecond. Smaller values count as underflow. */
#define HIST_LOWEST_NS UINT64_C(1000)
/* First value not tracked by the buckets: 100 seconds. Values >= this count as overflow. */
#define HIST_HIGHEST_NS UINT64_C(100000000000)
/* log2 of the number of linear sub-buckets per power of two. */
#define HIST_SUB_BITS 7
#define HIST_SUB_BUCKETS (1u << HIST_SUB_BITS)
/* floor(log2(HIST_LOWEST_NS)) and floor(log2(HIST_HIGHEST_NS - 1)). */
#define HIST_MIN_EXP 9
#define HIST_MAX_EXP 36
/* Number of buckets: (36 - 9 + 1) * 128 = 3584. */
#define HIST_N_BUCKETS ((HIST_MAX_EXP - HIST_MIN_EXP + 1) * (int)HIST_SUB_BUCKETS)
/* Worst-case relative error of a reported value against the true one: 1 / (2 * 128). */
#define HIST_MAX_REL_ERROR (1.0 / (2.0 * HIST_SUB_BUCKETS))

/* Return codes of hist_record() and hist_percentile(). */
enum {
    HIST_OK = 0,          /* value in range / percentile read from a bucket */
    HIST_BELOW_RANGE = 1, /* value < 1 us / percentile rank in the underflow region */
    HIST_ABOVE_RANGE = 2, /* value >= 100 s / percentile rank in the overflow region */
    HIST_EMPTY = -1,      /* percentile of an empty histogram */
    HIST_EINVAL = -2      /* percentile outside [0, 100] or NaN */
};

/*
 * One histogram.  Fields are public for reading (e.g. to export non-empty buckets); change
 * them only through the functions below.  sizeof is a multiple of 64 and the struct is
 * 64-byte aligned (C11 _Alignas), so an array of per-thread histograms has no false sharing.
 */
struct hist {
    _Alignas(64) uint64_t count; /* values recorded, including underflow and overflow */
    uint64_t underflow;          /* values < HIST_LOWEST_NS */
    uint64_t overflow;           /* values >= HIST_HIGHEST_NS */
    uint64_t min_ns;             /* exact smallest value; UINT64_MAX while empty */
    uint64_t max_ns;             /* exact largest value; 0 while empty */
    uint64_t sum_ns;             /* exact sum (wraps only after 584 years of summed latency) */
    uint64_t buckets[HIST_N_BUCKETS];
};

/**
 * Allocate an empty histogram, 64-byte aligned (aligned_alloc).
 * @return the histogram, or NULL when out of memory. Free with hist_free().
 */
struct hist *hist_new(void);

/** Free a histogram from hist_new(). NULL-safe. */
void hist_free(struct hist *h);

/** Empty a histogram (embedded or heap): every count 0, min UINT64_MAX, max 0. Never fails. */
void hist_reset(struct hist *h);

/**
 * Record one value.
 * @param value_ns  latency in nanoseconds (any value; see the range above)
 * @return HIST_OK, HIST_BELOW_RANGE (counted in underflow) or HIST_ABOVE_RANGE (counted in
 *         overflow). The value is recorded in every case.
 */
int hist_record(struct hist *h, uint64_t value_ns);

/**
 * Add every count of src to dst (dst += src): buckets, count, underflow, overflow, sum; min
 * and max combined. src is unchanged; dst may not be src.
 */
void hist_merge(struct hist *dst, const struct hist *src);

/**
 * Bucket index of an in-range value (HIST_LOWEST_NS <= value_ns < HIST_HIGHEST_NS).
 * @return the index in [0, HIST_N_BUCKETS), or -1 when value_ns is outside the range.
 */
int hist_bucket_index(uint64_t value_ns);

/** Smallest value of bucket i (0 <= i < HIST_N_BUCKETS), ns. */
uint64_t hist_bucket_lower_ns(int i);

/** Width of bucket i, ns: values lower .. lower + width - 1 fall in it. */
uint64_t hist_bucket_width_ns(int i);

/** Representative value of bucket i: its midpoint lower + width / 2, ns. */
uint64_t hist_bucket_value_ns(int i);

/**
 * Percentile p of the recorded values, by the nearest-rank method (Hyndman & Fan 1996,
 * definition 1): rank r = ceil(p/100 * count), at least 1; the result is the r-th smallest
 * value, reported as its bucket's midpoint clamped to the exact [min, max].  p = 0 gives the
 * exact min, p = 100 the exact max.
 *
 * @param p         percentile in [0, 100], e.g. 95 or 99.9
 * @param value_ns  out: the value, ns. When the rank falls in the underflow region it is set
 *                  to the exact min (the true value lies in [min, 1 us)); in the overflow
 *                  region to the exact max (the true value lies in [100 s, max]).
 * @return HIST_OK (within HIST_MAX_REL_ERROR of the true value), HIST_BELOW_RANGE,
 *         HIST_ABOVE_RANGE, HIST_EMPTY (*value_ns set to 0), HIST_EINVAL (p out of range;
 *         *value_ns untouched).
 */
int hist_percentile(const struct hist *h, double p, uint64_t *value_ns);

/** Mean of the recorded values in ns (sum / count), or 0 when empty. */
double hist_mean_ns(const struct hist *h);

/** Exact min in ns, or 0 when empty. */
uint64_t hist_min_ns(const struct hist *h);

#endif
