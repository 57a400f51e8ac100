/*
 * test_histogram.c - probes/histogram and probes/clock against closed forms.
 *
 * Expected values: order statistics of explicit value sets (nearest-rank percentile of
 * 1..N ms is ceil(p N / 100) ms), quantiles of the exponential distribution
 * (-mean * ln(1 - p)), and the bucket geometry's bound 1/256 on the relative error.
 */
#include "check.h"
#include "clock.h"
#include "histogram.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define MS UINT64_C(1000000)

static double pct_ms(const struct hist *h, double p, int *rc)
{
    uint64_t v = 0;
    *rc = hist_percentile(h, p, &v);
    return (double)v / 1e6;
}

/* 1, 2, ..., 100 ms: the nearest-rank p-th percentile is ceil(p) ms, min/avg/max/sum exact. */
static void test_linear_ms(void)
{
    struct hist *h = hist_new();
    int rc;
    CHECK(h != NULL);
    for (uint64_t i = 1; i <= 100; i++)
        CHECK_INT_EQ(hist_record(h, i * MS), HIST_OK);
    CHECK_INT_EQ(h->count, 100);
    CHECK_INT_EQ(h->min_ns, 1 * MS);
    CHECK_INT_EQ(h->max_ns, 100 * MS);
    CHECK_INT_EQ(h->sum_ns, 5050 * MS);
    CHECK_NEAR(hist_mean_ns(h), 50.5e6, 1e-6);
    CHECK_NEAR_REL(pct_ms(h, 50, &rc), 50.0, HIST_MAX_REL_ERROR);
    CHECK_INT_EQ(rc, HIST_OK);
    CHECK_NEAR_REL(pct_ms(h, 95, &rc), 95.0, HIST_MAX_REL_ERROR);
    CHECK_NEAR_REL(pct_ms(h, 99, &rc), 99.0, HIST_MAX_REL_ERROR);
    CHECK_NEAR_REL(pct_ms(h, 94.5, &rc), 95.0, HIST_MAX_REL_ERROR);
    /* p = 0 and p = 100 are the exact extremes (midpoints clamped to [min, max]) */
    CHECK_NEAR(pct_ms(h, 0, &rc), 1.0, 1e-9);
    CHECK_NEAR(pct_ms(h, 100, &rc), 100.0, 1e-9);
    {
        uint64_t v = 7;
        CHECK_INT_EQ(hist_percentile(h, 100.5, &v), HIST_EINVAL);
        CHECK_INT_EQ(hist_percentile(h, -1, &v), HIST_EINVAL);
        CHECK_INT_EQ(hist_percentile(h, NAN, &v), HIST_EINVAL);
        CHECK_INT_EQ(v, 7);
    }
    hist_free(h);
}

/* Every single value from 1 us to 100 s (geometric steps of 0.1 %) comes back within 1/256. */
static void test_relative_error(void)
{
    struct hist h;
    double worst = 0.0;
    int all_ok = 1;
    for (double v = 1000.0; v < 1e11; v *= 1.001) {
        uint64_t x = (uint64_t)v, got = 0;
        double rel;
        hist_reset(&h);
        hist_record(&h, x);
        /* a second value far away keeps min/max clamping from hiding the bucket error */
        hist_record(&h, x < 50000 ? 99000000000ull : 1000);
        if (hist_percentile(&h, x < 50000 ? 50 : 100, &got) != HIST_OK)
            all_ok = 0;
        rel = fabs((double)got - (double)x) / (double)x;
        if (rel > worst)
            worst = rel;
    }
    CHECK(all_ok);
    CHECK(worst <= HIST_MAX_REL_ERROR);
    CHECK(HIST_MAX_REL_ERROR <= 0.01);
    /* bucket geometry: contiguous, widths = lower / 128 .. lower / 255 */
    CHECK_INT_EQ(hist_bucket_index(HIST_LOWEST_NS - 1), -1);
    CHECK_INT_EQ(hist_bucket_index(HIST_HIGHEST_NS), -1);
    CHECK(hist_bucket_index(HIST_HIGHEST_NS - 1) < HIST_N_BUCKETS);
    for (int i = 0; i + 1 < HIST_N_BUCKETS; i++) {
        if (hist_bucket_lower_ns(i) + hist_bucket_width_ns(i) != hist_bucket_lower_ns(i + 1)) {
            CHECK(!"buckets are contiguous");
            break;
        }
    }
    CHECK_INT_EQ(hist_bucket_index(hist_bucket_lower_ns(1000)), 1000);
    CHECK_INT_EQ(hist_bucket_index(hist_bucket_lower_ns(1000) - 1), 999);
}

/* Quantiles of an exponential sample drawn by inversion at (i - 0.5) / N: -m ln(1 - p). */
static void test_exponential(void)
{
    struct hist *h = hist_new();
    const int n = 100000;
    const double mean_ns = 2e6; /* 2 ms */
    const double ps[] = {50, 90, 95, 99, 99.9};
    int rc;
    for (int i = 1; i <= n; i++)
        hist_record(h, (uint64_t)(-mean_ns * log(1.0 - (i - 0.5) / n)));
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        double expect_ms = -mean_ns * log(1.0 - ps[k] / 100.0) / 1e6;
        /* bucket error 0.39 % plus the sample's own discreteness (< 0.1 % at these ranks) */
        CHECK_NEAR_REL(pct_ms(h, ps[k], &rc), expect_ms, 0.005);
        CHECK_INT_EQ(rc, HIST_OK);
    }
    CHECK_NEAR_REL(hist_mean_ns(h), mean_ns, 0.001);
    hist_free(h);
}

/* Below 1 us and at/above 100 s: counted, exact in min/max/sum, flagged in percentiles. */
static void test_out_of_range(void)
{
    struct hist *h = hist_new();
    uint64_t v;
    int rc;
    CHECK_INT_EQ(hist_record(h, 500), HIST_BELOW_RANGE);
    CHECK_INT_EQ(hist_record(h, 0), HIST_BELOW_RANGE);
    CHECK_INT_EQ(hist_record(h, 5 * MS), HIST_OK);
    CHECK_INT_EQ(hist_record(h, HIST_HIGHEST_NS), HIST_ABOVE_RANGE);
    CHECK_INT_EQ(hist_record(h, 200000 * MS), HIST_ABOVE_RANGE);
    CHECK_INT_EQ(h->underflow, 2);
    CHECK_INT_EQ(h->overflow, 2);
    CHECK_INT_EQ(h->count, 5);
    CHECK_INT_EQ(h->min_ns, 0);
    CHECK_INT_EQ(h->max_ns, 200000 * MS);
    CHECK_INT_EQ(h->sum_ns, 500 + 5 * MS + HIST_HIGHEST_NS + 200000 * MS);
    rc = hist_percentile(h, 40, &v); /* rank 2: underflow */
    CHECK_INT_EQ(rc, HIST_BELOW_RANGE);
    CHECK_INT_EQ(v, 0);
    rc = hist_percentile(h, 60, &v); /* rank 3: 5 ms */
    CHECK_INT_EQ(rc, HIST_OK);
    CHECK_NEAR_REL((double)v, 5e6, HIST_MAX_REL_ERROR);
    rc = hist_percentile(h, 80, &v); /* rank 4: overflow, never the cap */
    CHECK_INT_EQ(rc, HIST_ABOVE_RANGE);
    CHECK_INT_EQ(v, 200000 * MS);
    hist_reset(h);
    v = 9;
    CHECK_INT_EQ(hist_percentile(h, 50, &v), HIST_EMPTY);
    CHECK_INT_EQ(v, 0);
    CHECK_INT_EQ(hist_min_ns(h), 0);
    CHECK_NEAR(hist_mean_ns(h), 0.0, 0.0);
    hist_free(h);
}

/* Merging per-thread histograms equals recording everything in one. */
static void test_merge(void)
{
    struct hist *a = hist_new(), *b = hist_new(), *all = hist_new(), *m = hist_new();
    int rc, same = 1;
    for (uint64_t i = 1; i <= 50; i++) {
        hist_record(a, i * MS);
        hist_record(all, i * MS);
    }
    for (uint64_t i = 51; i <= 100; i++) {
        hist_record(b, i * MS);
        hist_record(all, i * MS);
    }
    hist_record(b, 10);
    hist_record(all, 10);
    hist_merge(m, a);
    hist_merge(m, b);
    CHECK_INT_EQ(m->count, 101);
    CHECK_INT_EQ(m->underflow, 1);
    CHECK_INT_EQ(m->min_ns, 10);
    CHECK_INT_EQ(m->max_ns, 100 * MS);
    CHECK_INT_EQ(m->sum_ns, 5050 * MS + 10);
    for (int i = 0; i < HIST_N_BUCKETS; i++)
        if (m->buckets[i] != all->buckets[i])
            same = 0;
    CHECK(same);
    /* rank ceil(0.5 * 101) = 51: the underflow value plus 1..50 ms -> 50 ms */
    CHECK_NEAR_REL(pct_ms(m, 50, &rc), 50.0, HIST_MAX_REL_ERROR);
    /* merging an empty histogram changes nothing */
    hist_reset(a);
    hist_merge(m, a);
    CHECK_INT_EQ(m->min_ns, 10);
    CHECK_INT_EQ(m->count, 101);
    hist_free(a);
    hist_free(b);
    hist_free(all);
    hist_free(m);
    hist_free(NULL);
}

static void test_alignment(void)
{
    struct hist *h = hist_new();
    struct hist arr[2];
    CHECK_INT_EQ(_Alignof(struct hist), 64);
    CHECK_INT_EQ(sizeof(struct hist) % 64, 0);
    CHECK_INT_EQ((uintptr_t)h % 64, 0);
    CHECK_INT_EQ((uintptr_t)&arr[1] % 64, 0);
    hist_free(h);
}

static void test_clock(void)
{
    uint64_t t0 = clock_now_ns(), t1, prev = t0;
    int monotonic = 1;
    for (int i = 0; i < 10000; i++) {
        uint64_t t = clock_now_ns();
        if (t < prev)
            monotonic = 0;
        prev = t;
    }
    CHECK(monotonic);
    t0 = clock_now_ns();
    CHECK_INT_EQ(clock_sleep_until_ns(t0 + 20 * MS), 0);
    t1 = clock_now_ns();
    CHECK(t1 - t0 >= 20 * MS);
    CHECK(t1 - t0 < 2000 * MS);                /* generous: the machine is shared */
    CHECK_INT_EQ(clock_sleep_until_ns(t0), 0); /* past deadline returns at once */
    CHECK_NEAR(clock_ns_to_ms(1500000), 1.5, 1e-12);
    CHECK_NEAR(clock_ns_to_s(2500000000u), 2.5, 1e-12);
}

int main(void)
{
    test_linear_ms();
    test_relative_error();
    test_exponential();
    test_out_of_range();
    test_merge();
    test_alignment();
    test_clock();
    return check_report();
}
