/* histogram.c - log-linear latency histogram (see histogram.h for the layout and its error). */
#include "histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct hist *hist_new(void)
{
    struct hist *h = aligned_alloc(_Alignof(struct hist), sizeof(struct hist));
    if (h)
        hist_reset(h);
    return h;
}

void hist_free(struct hist *h)
{
    free(h);
}

void hist_reset(struct hist *h)
{
    memset(h, 0, sizeof *h);
    h->min_ns = UINT64_MAX;
}

static int floor_log2(uint64_t v)
{
    return 63 - __builtin_clzll(v);
}

int hist_bucket_index(uint64_t value_ns)
{
    int e;
    if (value_ns < HIST_LOWEST_NS || value_ns >= HIST_HIGHEST_NS)
        return -1;
    e = floor_log2(value_ns);
    /* the top HIST_SUB_BITS + 1 bits of the value: 1 (implicit) + sub-bucket number */
    return (e - HIST_MIN_EXP) * (int)HIST_SUB_BUCKETS +
           (int)((value_ns >> (e - HIST_SUB_BITS)) & (HIST_SUB_BUCKETS - 1));
}

uint64_t hist_bucket_lower_ns(int i)
{
    int e = HIST_MIN_EXP + i / (int)HIST_SUB_BUCKETS;
    uint64_t sub = (uint64_t)(i % (int)HIST_SUB_BUCKETS);
    return (HIST_SUB_BUCKETS + sub) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_width_ns(int i)
{
    int e = HIST_MIN_EXP + i / (int)HIST_SUB_BUCKETS;
    return UINT64_C(1) << (e - HIST_SUB_BITS);
}

uint64_t hist_bucket_value_ns(int i)
{
    return hist_bucket_lower_ns(i) + hist_bucket_width_ns(i) / 2;
}

int hist_record(struct hist *h, uint64_t value_ns)
{
    int rc = HIST_OK;
    h->count++;
    h->sum_ns += value_ns;
    if (value_ns < h->min_ns)
        h->min_ns = value_ns;
    if (value_ns > h->max_ns)
        h->max_ns = value_ns;
    if (value_ns < HIST_LOWEST_NS) {
        h->underflow++;
        rc = HIST_BELOW_RANGE;
    } else if (value_ns >= HIST_HIGHEST_NS) {
        h->overflow++;
        rc = HIST_ABOVE_RANGE;
    } else {
        h->buckets[hist_bucket_index(value_ns)]++;
    }
    return rc;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
    if (src->count == 0)
        return;
    dst->count += src->count;
    dst->underflow += src->underflow;
    dst->overflow += src->overflow;
    dst->sum_ns += src->sum_ns;
    if (src->min_ns < dst->min_ns)
        dst->min_ns = src->min_ns;
    if (src->max_ns > dst->max_ns)
        dst->max_ns = src->max_ns;
    for (int i = 0; i < HIST_N_BUCKETS; i++)
        dst->buckets[i] += src->buckets[i];
}

int hist_percentile(const struct hist *h, double p, uint64_t *value_ns)
{
    double x;
    uint64_t rank, cum;
    if (isnan(p) || p < 0.0 || p > 100.0)
        return HIST_EINVAL;
    if (h->count == 0) {
        *value_ns = 0;
        return HIST_EMPTY;
    }
    if (p == 0.0 || p == 100.0) {
        *value_ns = p == 0.0 ? h->min_ns : h->max_ns;
        return *value_ns < HIST_LOWEST_NS     ? HIST_BELOW_RANGE
               : *value_ns >= HIST_HIGHEST_NS ? HIST_ABOVE_RANGE
                                              : HIST_OK;
    }
    /* ceil(p/100 * N); the tiny subtraction keeps 99.9% of 1000 at rank 999, not 1000 */
    x = p / 100.0 * (double)h->count;
    x = ceil(x - 1e-9 * (x > 1.0 ? x : 1.0));
    rank = x < 1.0 ? 1 : (uint64_t)x;
    if (rank > h->count)
        rank = h->count;
    cum = h->underflow;
    if (cum >= rank) {
        *value_ns = h->min_ns;
        return HIST_BELOW_RANGE;
    }
    for (int i = 0; i < HIST_N_BUCKETS; i++) {
        cum += h->buckets[i];
        if (cum >= rank) {
            uint64_t v = hist_bucket_value_ns(i);
            if (v < h->min_ns)
                v = h->min_ns;
            if (v > h->max_ns)
                v = h->max_ns;
            *value_ns = v;
            return HIST_OK;
        }
    }
    *value_ns = h->max_ns;
    return HIST_ABOVE_RANGE;
}

double hist_mean_ns(const struct hist *h)
{
    return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}

uint64_t hist_min_ns(const struct hist *h)
{
    return h->count ? h->min_ns : 0;
}
