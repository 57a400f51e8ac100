/*
 * test_bootstrap.c - residual bootstrap intervals (seed 42, 2000 replicates) against the
 * bootstrap figures of docs/reference/models.md §4.4 (B ~ 2000, another seed: a Monte
 * Carlo difference of a few units is expected, so bounds are checked to +/- 3 threads and
 * +/- 300 qps): specsdm91 N* [82.9, 125.9]; vendor curve a N* [37.0, 49.1], X_max [28.3k,
 * 31.4k]; vendor curve b N* [139, unbounded).
 */
#include "bootstrap.h"
#include "check.h"
#include "datasets.h"

#include <gsl/gsl_errno.h>
#include <math.h>

static int run(const char *name, int amdahl, struct bootstrap_result *r, struct model_fit *f)
{
    struct dataset d;
    struct usl_options o = usl_options_default();
    char err[200];
    o.amdahl = amdahl;
    if (dataset_load(name, &d) != 0 || usl_fit(d.N, d.X, d.n, &o, NULL, f, err, sizeof err))
        return -1;
    return bootstrap_derived(d.N, d.X, d.n, f, NULL, NULL, r, err, sizeof err);
}

int main(void)
{
    struct bootstrap_result r, r2;
    struct model_fit f;
    struct dataset d;
    struct bootstrap_options o = bootstrap_options_default();
    char err[200];

    gsl_set_error_handler_off();
    CHECK(run("specsdm91", 0, &r, &f) == MODEL_OK);
    CHECK_INT_EQ(r.refitted, 2000);
    CHECK_NEAR(r.n_peak.value, 96.51956, 0.0001);
    CHECK_NEAR(r.n_peak.lo, 82.9, 3);
    CHECK_NEAR(r.n_peak.hi, 125.9, 3);
    CHECK(r.x_max.lo < r.x_max.value && r.x_max.value < r.x_max.hi);

    CHECK(run("vendor_a_mysql57_4c16g_nvme", 0, &r, &f) == MODEL_OK);
    CHECK_NEAR(r.n_peak.lo, 37.0, 3);
    CHECK_NEAR(r.n_peak.hi, 49.1, 3);
    CHECK_NEAR(r.x_max.lo, 28.3e3, 300);
    CHECK_NEAR(r.x_max.hi, 31.4e3, 300);
    CHECK_INT_EQ(r.no_peak, 0);

    /* fixed seed: the same answer twice */
    CHECK(run("vendor_a_mysql57_4c16g_nvme", 0, &r2, &f) == MODEL_OK);
    CHECK(r2.n_peak.lo == r.n_peak.lo && r2.n_peak.hi == r.n_peak.hi);

    CHECK(run("vendor_b_4c16g_cloudssd", 0, &r, &f) == MODEL_OK);
    CHECK_NEAR(r.n_peak.lo, 139, 3);
    CHECK(isinf(r.n_peak.hi)); /* peak not identified */
    CHECK(r.no_peak > 50);

    /* Amdahl: no replicate has a peak; the ceiling has a finite interval around lambda/sigma */
    CHECK(run("vendor_c_4c8g_point_select", 1, &r, &f) == MODEL_OK);
    CHECK(isnan(r.n_peak.value));
    CHECK_INT_EQ(r.no_peak, r.refitted);
    CHECK(r.ceiling.lo < r.ceiling.value && r.ceiling.value < r.ceiling.hi);
    CHECK(isfinite(r.ceiling.hi));

    /* bad input: too few replicates, points not the fit's */
    CHECK(dataset_load("vendor_c_4c8g_point_select", &d) == 0);
    o.replicates = 10;
    CHECK(bootstrap_derived(d.N, d.X, d.n, &f, &o, NULL, &r, err, sizeof err) == MODEL_EINVAL);
    CHECK(bootstrap_derived(d.N, d.X, d.n - 1, &f, NULL, NULL, &r, err, sizeof err) ==
          MODEL_EINVAL);
    return check_report();
}
