/*
 * test_fit.c - model selection, piecewise, derived figures and degenerate input.
 *
 * Expected values: the cross-check fits of the three vendor curves in
 * docs/reference/models.md §5 (recomputed there with scipy least_squares and an independent
 * GSL program, printed to 4-5 significant digits; tolerances are half a unit of the last
 * printed digit unless noted), and closed forms.
 */
#include "check.h"
#include "datasets.h"
#include "derived.h"
#include "fit.h"
#include "latency.h"
#include "piecewise.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

static char err[256];
static struct fit_result fr;

static int fit_file(const char *name, int model)
{
    struct dataset d;
    if (dataset_load(name, &d) != 0)
        return -1;
    return fit_curve(d.N, d.X, d.n, model, NULL, &fr, err, sizeof err);
}

#define P(f, i) ((f).par[i].value)

/* a) MySQL 5.7 4c16g NVMe, QPS, 1-512 threads: genuine retrograde curve */
static void vendor_a(void)
{
    const struct model_fit *u = &fr.fits[MODEL_USL], *a = &fr.fits[MODEL_AMDAHL],
                           *p = &fr.fits[MODEL_PIECEWISE];
    struct model_derived dv;
    struct latency_target t;
    CHECK(fit_file("vendor_a_mysql57_4c16g_nvme", FIT_AUTO) == MODEL_OK);
    CHECK(fr.fitted[0] && fr.fitted[1] && fr.fitted[2]);
    CHECK_INT_EQ(fr.chosen, MODEL_USL);
    CHECK(fr.kappa_significant);
    CHECK_NEAR(P(*u, MODEL_SIGMA), 0.17437, 0.000005);
    CHECK_NEAR(u->par[MODEL_SIGMA].se, 0.0217, 0.00005);
    CHECK_NEAR(P(*u, MODEL_KAPPA), 4.6127e-4, 0.00005e-4);
    CHECK_NEAR(u->par[MODEL_KAPPA].se, 6.31e-5, 0.005e-5);
    CHECK_NEAR(P(*u, MODEL_LAMBDA), 6348.3, 0.05);
    CHECK_NEAR(u->par[MODEL_LAMBDA].se, 581, 0.5);
    CHECK_NEAR(u->r2, 0.9821, 0.00005);
    CHECK_NEAR(u->aicc, 137.2, 0.05);
    CHECK_NEAR(P(*a, MODEL_SIGMA), 0.31469, 0.000005);
    CHECK_NEAR(P(*a, MODEL_LAMBDA), 8058.9, 0.05);
    CHECK_NEAR(a->r2, 0.6640, 0.00005);
    CHECK_NEAR(a->aicc, 158.8, 0.05);
    CHECK_NEAR(P(*p, MODEL_LAMBDA), 4570.5, 0.05);
    CHECK_NEAR(P(*p, MODEL_XM), 24968, 0.5);
    CHECK_NEAR(piecewise_knee(p), 5.46, 0.005);
    CHECK_NEAR(p->r2, 0.7641, 0.00005);
    CHECK_NEAR(p->aicc, 155.6, 0.05);
    CHECK(derived_compute(u, &dv) == MODEL_OK);
    CHECK(dv.has_peak && !dv.plateau);
    CHECK_NEAR(dv.n_peak.value, 42.31, 0.005);
    CHECK_NEAR(dv.x_peak.value, 29812, 0.5);
    CHECK(dv.n_peak.lo < 42.31 && dv.n_peak.hi > 42.31);
    CHECK_INT_EQ(dv.regime, DERIVED_COHERENCY);
    /* per-query mean latency N/X: 0.59 ms @16, 2.18 ms @64, 11.9 ms @256 */
    CHECK_NEAR(latency_mean(u, 16, 0) * 1e3, 0.59, 0.005);
    CHECK_NEAR(latency_mean(u, 64, 0) * 1e3, 2.18, 0.005);
    CHECK_NEAR(latency_mean(u, 256, 0) * 1e3, 11.9, 0.05);
    /* 2 ms target: N_R = 59 lies past N* = 42.3, so the answer is capped at the peak */
    CHECK(latency_at_target(u, 0.002, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_OK);
    CHECK(t.capped);
    CHECK_NEAR(t.n.value, 42.31, 0.005);
    CHECK_NEAR(t.x.value, 29812, 0.5);
}

/* b) 4c16g cloud-disk SSD: plateau, kappa not significant, superlinear 1 -> 2 threads */
static void vendor_b(void)
{
    const struct model_fit *u = &fr.fits[MODEL_USL], *a = &fr.fits[MODEL_AMDAHL],
                           *p = &fr.fits[MODEL_PIECEWISE];
    struct model_derived dv;
    const double target_ms[3] = {2, 5, 10}, want_n[3] = {38, 108, 219};
    const double want_x[3] = {19.2e3, 21.5e3, 21.9e3};
    CHECK(fit_file("vendor_b_4c16g_cloudssd", FIT_AUTO) == MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_AMDAHL);
    CHECK(!fr.kappa_significant);
    CHECK_NEAR(P(*u, MODEL_SIGMA), 0.10307, 0.000005);
    CHECK_NEAR(u->par[MODEL_SIGMA].se, 0.0181, 0.00005);
    CHECK_NEAR(P(*u, MODEL_KAPPA), 1.7832e-5, 0.00005e-5);
    CHECK_NEAR(u->par[MODEL_KAPPA].se, 1.72e-5, 0.005e-5);
    CHECK_NEAR(P(*u, MODEL_LAMBDA), 2435.7, 0.05);
    CHECK_NEAR(u->r2, 0.9857, 0.00005);
    CHECK_NEAR(u->aicc, 134.1, 0.05);
    CHECK_NEAR(P(*a, MODEL_SIGMA), 0.11294, 0.000005);
    CHECK_NEAR(P(*a, MODEL_LAMBDA), 2556.3, 0.1); /* "agree to >= 5 significant digits" */
    CHECK_NEAR(a->aicc, 130.7, 0.05);
    CHECK_NEAR(P(*p, MODEL_LAMBDA), 1121.2, 0.05);
    CHECK_NEAR(P(*p, MODEL_XM), 20673, 0.5);
    CHECK_NEAR(piecewise_knee(p), 18.4, 0.05);
    CHECK_NEAR(p->aicc, 132.4, 0.05);
    CHECK(a->warnings & MODEL_WARN_SUPERLINEAR);
    /* the superlinear N = 1 point shows as a large residual: -62 % */
    CHECK_NEAR(a->resid[0] / 1500.0, -0.70, 0.05);
    CHECK_NEAR(u->resid[0] / 1500.0, -0.62, 0.005);
    CHECK(derived_compute(a, &dv) == MODEL_OK);
    CHECK(dv.plateau && !dv.has_peak);
    CHECK_NEAR(dv.ceiling.value, 22634, 0.5);
    /* USL asked for explicitly: kappa not significant -> plateau, no peak reported */
    CHECK(derived_compute(u, &dv) == MODEL_OK);
    CHECK(dv.plateau && !dv.has_peak);
    /* latency targets 2/5/10 ms on the USL fit -> N_R 38/108/219, X 19.2k/21.5k/21.9k
     * (printed rounded; tolerance 0.6 thread, 50 tps) */
    for (int i = 0; i < 3; i++) {
        struct latency_target t;
        CHECK(latency_at_target(u, target_ms[i] * 1e-3, 0, &t) == MODEL_OK);
        CHECK_NEAR(t.n.value, want_n[i], 0.6);
        CHECK_NEAR(t.x.value, want_x[i], 50);
        CHECK(!t.capped);
    }
}

/* c) 4C8G point_select TPS, 10-400 threads, 5 points, no N = 1 */
static void vendor_c(void)
{
    const struct model_fit *u = &fr.fits[MODEL_USL], *a = &fr.fits[MODEL_AMDAHL],
                           *p = &fr.fits[MODEL_PIECEWISE];
    struct model_derived dv;
    struct latency_target t;
    CHECK(fit_file("vendor_c_4c8g_point_select", FIT_AUTO) == MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_AMDAHL);
    CHECK(u->par[MODEL_KAPPA].fixed); /* kappa on its bound */
    CHECK(P(*u, MODEL_KAPPA) == 0.0);
    CHECK_NEAR(P(*u, MODEL_SIGMA), 0.19597, 0.000005);
    CHECK_NEAR(u->par[MODEL_SIGMA].se, 0.0035, 0.00005);
    CHECK_NEAR(P(*u, MODEL_LAMBDA), 21352, 0.5);
    CHECK_NEAR(u->aicc, 88.0, 0.05);
    CHECK_NEAR(a->aicc, 68.0, 0.05);
    CHECK_NEAR(a->r2, 0.99915, 0.000005);
    CHECK_NEAR(P(*p, MODEL_LAMBDA), 7732.9, 0.05);
    CHECK_NEAR(P(*p, MODEL_XM), 104980, 5);
    CHECK_NEAR(piecewise_knee(p), 13.6, 0.05);
    CHECK_NEAR(p->r2, 0.9483, 0.00005);
    CHECK_NEAR(p->aicc, 88.6, 0.05);
    CHECK(derived_compute(a, &dv) == MODEL_OK);
    CHECK(dv.plateau);
    CHECK_NEAR(dv.ceiling.value, 108960, 5);
    CHECK_NEAR(latency_mean(a, 10, 0) * 1e3, 0.13, 0.005);
    CHECK_NEAR(latency_mean(a, 100, 0) * 1e3, 0.96, 0.005);
    CHECK_NEAR(latency_mean(a, 400, 0) * 1e3, 3.7, 0.05);
    /* N at 2 ms = 213.8 by the stable formula, X = 106.9k */
    CHECK(latency_at_target(a, 0.002, 0, &t) == MODEL_OK);
    CHECK_NEAR(t.n.value, 213.8, 0.05);
    CHECK_NEAR(t.x.value, 106.9e3, 50);
    /* the same on the USL fit (kappa = 0 on the bound): no cancellation */
    CHECK(latency_at_target(u, 0.002, 0, &t) == MODEL_OK);
    CHECK_NEAR(t.n.value, 213.8, 0.05);
}

static void explicit_models(void)
{
    CHECK(fit_file("vendor_b_4c16g_cloudssd", MODEL_USL) == MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_USL);
    CHECK(fr.fitted[MODEL_USL] && !fr.fitted[MODEL_AMDAHL] && !fr.fitted[MODEL_PIECEWISE]);
    CHECK(fit_file("vendor_a_mysql57_4c16g_nvme", MODEL_PIECEWISE) == MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_PIECEWISE);
    CHECK(fit_file("vendor_a_mysql57_4c16g_nvme", 7) == MODEL_EINVAL);
}

static void degenerate(void)
{
    const double n1[1] = {4}, x1[1] = {100};
    const double n2[4] = {1, 1, 8, 8}, x2[4] = {100, 104, 500, 520};
    const double n3[3] = {1, 2, -4}, x3[3] = {100, 190, 300};
    const double n4[3] = {1, 2, 4}, x4[3] = {100, 0, 300};
    const double n5[4] = {10, 20, 40, 80}, x5[4] = {1000, 2000, 4000, 8000};
    const double n6[4] = {10, 20, 40, 80}, x6[4] = {5000, 4000, 3000, 2000};
    struct model_derived dv;
    struct latency_target t;

    /* one point: an error naming why */
    CHECK(fit_curve(n1, x1, 1, FIT_AUTO, NULL, &fr, err, sizeof err) == MODEL_EINVAL);
    CHECK(strstr(err, "at least 2") != NULL);
    /* two distinct x: only the piecewise model, with a warning, even when the USL is asked */
    CHECK(fit_curve(n2, x2, 4, FIT_AUTO, NULL, &fr, err, sizeof err) == MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_PIECEWISE);
    CHECK(!fr.fitted[MODEL_USL] && !fr.fitted[MODEL_AMDAHL]);
    CHECK(fr.fits[MODEL_PIECEWISE].warnings & MODEL_WARN_FEW_DISTINCT);
    CHECK(strstr(fr.fit_err[MODEL_USL], "distinct") != NULL);
    CHECK(fit_curve(n2, x2, 4, MODEL_USL, NULL, &fr, err, sizeof err) == MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_PIECEWISE);
    /* with two distinct x no knee can be placed (the ceiling would rest on one x): the
     * linear branch through the origin, lambda = sum X N / sum N^2 = 8364/130 */
    CHECK_NEAR(P(fr.fits[MODEL_PIECEWISE], MODEL_LAMBDA), 8364.0 / 130.0, 1e-9);
    CHECK(fr.fits[MODEL_PIECEWISE].warnings & MODEL_WARN_KNEE_BEYOND);
    /* non-positive x or throughput: an error naming the point */
    CHECK(fit_curve(n3, x3, 3, FIT_AUTO, NULL, &fr, err, sizeof err) == MODEL_EINVAL);
    CHECK(strstr(err, "point 3") != NULL);
    CHECK(fit_curve(n4, x4, 3, FIT_AUTO, NULL, &fr, err, sizeof err) == MODEL_EINVAL);
    CHECK(strstr(err, "point 2") != NULL);
    /* exactly linear data: Amdahl with sigma = 0 (on the bound), no ceiling, latency
     * constant 1/lambda, so every concurrency meets a target above it */
    CHECK(fit_curve(n5, x5, 4, MODEL_AMDAHL, NULL, &fr, err, sizeof err) == MODEL_OK);
    CHECK(fr.fits[MODEL_AMDAHL].par[MODEL_SIGMA].fixed);
    CHECK_NEAR(P(fr.fits[MODEL_AMDAHL], MODEL_LAMBDA), 100, 1e-9);
    CHECK(derived_compute(&fr.fits[MODEL_AMDAHL], &dv) == MODEL_OK);
    CHECK(isnan(dv.ceiling.value));
    CHECK_INT_EQ(dv.regime, DERIVED_LINEAR);
    CHECK(latency_at_target(&fr.fits[MODEL_AMDAHL], 0.02, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_UNBOUNDED);
    CHECK(latency_at_target(&fr.fits[MODEL_AMDAHL], 0.005, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_UNREACHABLE);
    /* piecewise on linear data: no knee inside the data */
    CHECK(fit_curve(n5, x5, 4, MODEL_PIECEWISE, NULL, &fr, err, sizeof err) == MODEL_OK);
    CHECK(fr.fits[MODEL_PIECEWISE].warnings & MODEL_WARN_KNEE_BEYOND);
    CHECK(isnan(P(fr.fits[MODEL_PIECEWISE], MODEL_XM)));
    /* a curve that falls from its first point: the USL ends on sigma = 1 (closure of the
     * bound), X = lambda / (1 + kappa (N-1)); no peak inside the data */
    CHECK(fit_curve(n6, x6, 4, MODEL_USL, NULL, &fr, err, sizeof err) == MODEL_OK);
    CHECK(fr.fits[MODEL_USL].par[MODEL_SIGMA].fixed);
    CHECK(P(fr.fits[MODEL_USL], MODEL_SIGMA) == 1.0);
    CHECK(fr.fits[MODEL_USL].warnings & MODEL_WARN_SIGMA_ONE);
    CHECK(derived_compute(&fr.fits[MODEL_USL], &dv) == MODEL_OK);
    CHECK(dv.falling && !dv.has_peak);
    /* the piecewise fit of the same falls back to the ceiling only (knee before the data) */
    CHECK(fit_curve(n6, x6, 4, MODEL_PIECEWISE, NULL, &fr, err, sizeof err) == MODEL_OK);
    CHECK(fr.fits[MODEL_PIECEWISE].warnings & MODEL_WARN_KNEE_BEFORE);
    CHECK_NEAR(P(fr.fits[MODEL_PIECEWISE], MODEL_XM), 3500, 1e-9);
}

int main(void)
{
    gsl_set_error_handler_off();
    vendor_a();
    vendor_b();
    vendor_c();
    explicit_models();
    degenerate();
    return check_report();
}
