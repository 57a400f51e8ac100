/*
 * test_disk_stop.c - probes/disk_stop against closed forms and GSL.
 *
 * Expected values: Student's t quantiles from GSL's gsl_cdf_tdist_Pinv (an independent
 * implementation), the sample mean and the batch-means half-width t * s / sqrt(n) computed by
 * hand for small exact data sets.
 */
#include "check.h"
#include "disk_stop.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

static void test_t975(void)
{
    double worst = 0.0;
    for (size_t df = 1; df <= 1000; df++) {
        double err = fabs(disk_stop_t975(df) - gsl_cdf_tdist_Pinv(0.975, (double)df));
        if (err > worst)
            worst = err;
    }
    /* the table has 3 decimals (error <= 0.0005); the expansion is within 0.001 above 30 */
    CHECK(worst <= 0.001);
    CHECK_NEAR(disk_stop_t975(1), 12.706, 1e-9);
    CHECK_NEAR(disk_stop_t975(4), 2.776, 1e-9);
    CHECK(isnan(disk_stop_t975(0)));
}

static void test_ci95(void)
{
    /* 1..5: mean 3, s^2 = 10/4 = 2.5, half = t(0.975,4) * sqrt(2.5) / sqrt(5) */
    const double x[5] = {1, 2, 3, 4, 5};
    const double same[6] = {7, 7, 7, 7, 7, 7};
    double mean, half;
    CHECK_INT_EQ(disk_stop_ci95(x, 5, &mean, &half), 0);
    CHECK_NEAR(mean, 3.0, 1e-12);
    CHECK_NEAR(half, 2.776 * sqrt(2.5) / sqrt(5.0), 1e-12);
    /* one value: mean known, no interval */
    CHECK_INT_EQ(disk_stop_ci95(x, 1, &mean, &half), 0);
    CHECK_NEAR(mean, 1.0, 1e-12);
    CHECK(isnan(half));
    CHECK_INT_EQ(disk_stop_ci95(x, 0, &mean, &half), -1);
    CHECK(isnan(mean));
    /* constant batches: zero width */
    CHECK_INT_EQ(disk_stop_ci95(same, 6, &mean, &half), 0);
    CHECK_NEAR(half, 0.0, 1e-12);
}

static void test_precise(void)
{
    /* 1000 +- 10: s = sqrt(sum d^2 / 4) with d = 0, 10, -10, 10, -10 -> s^2 = 100, s = 10;
     * half = 2.776 * 10 / sqrt(5) = 12.41 -> 1.24 % of 1000 */
    const double x[5] = {1000, 1010, 990, 1010, 990};
    const double same[6] = {7, 7, 7, 7, 7, 7};
    const double zero[5] = {0, 0, 0, 0, 0};
    CHECK_INT_EQ(disk_stop_precise(x, 5, 0.02), 1);
    CHECK_INT_EQ(disk_stop_precise(x, 5, 0.012), 0);
    CHECK_INT_EQ(disk_stop_precise(x, 5, 0.0125), 1);
    /* fewer than DISK_STOP_MIN_BATCHES batches never stop, however steady */
    CHECK_INT_EQ(disk_stop_precise(same, DISK_STOP_MIN_BATCHES - 1, 0.02), 0);
    CHECK_INT_EQ(disk_stop_precise(same, DISK_STOP_MIN_BATCHES, 0.02), 1);
    /* no throughput is never "precise" */
    CHECK_INT_EQ(disk_stop_precise(zero, 5, 1.0), 0);
}

int main(void)
{
    test_t975();
    test_ci95();
    test_precise();
    return check_report();
}
