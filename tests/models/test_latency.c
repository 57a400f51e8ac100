/*
 * test_latency.c - closed-form checks of R(N), N*, the peak, the concurrency and throughput at
 * a latency target, and the percentile latency curve.
 *
 * Noiseless curves from known parameters are fitted first (the fit recovers them to ~1e-9),
 * then every figure is compared with its closed form evaluated on the true parameters:
 *   R(N) = (1 + sigma(N-1) + kappa N(N-1))/lambda - Z        (Schwartz, eq. r_n)
 *   N*   = sqrt((1-sigma)/kappa), X(N*) = lambda N* / (2(1-sigma) + (sigma-kappa)N*) (GCaP 4.33)
 *   N_R  = textbook root (kappa - sigma + sqrt((sigma-kappa)^2 + 4 kappa c))/(2 kappa),
 *          c = lambda (R+Z) - 1 + sigma (well conditioned for these parameters)
 *   Amdahl N_R = (lambda R - 1 + sigma)/sigma; piecewise N_R = R X_m (docs/reference/models.md
 * §1.3, §1.4).
 */
#include "check.h"
#include "derived.h"
#include "fit.h"
#include "latency.h"
#include "piecewise.h"
#include "usl.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#define L0 1000.0
#define S0 0.05
#define K0 5e-4

static const double N8[8] = {1, 2, 4, 8, 16, 32, 64, 128};
static char err[200];

static double usl_x(double l, double s, double k, double n)
{
    return l * n / (1 + s * (n - 1) + k * n * (n - 1));
}

static void usl_closed_forms(void)
{
    double X[8], nstar = sqrt((1 - S0) / K0), c, textbook;
    struct model_fit f;
    struct model_derived dv;
    struct latency_target t;
    struct derived_prediction p;

    for (int i = 0; i < 8; i++)
        X[i] = usl_x(L0, S0, K0, N8[i]);
    CHECK(usl_fit(N8, X, 8, NULL, NULL, &f, err, sizeof err) == MODEL_OK);
    CHECK_NEAR_REL(f.par[MODEL_LAMBDA].value, L0, 1e-8);
    CHECK_NEAR_REL(f.par[MODEL_SIGMA].value, S0, 1e-8);
    CHECK_NEAR_REL(f.par[MODEL_KAPPA].value, K0, 1e-8);

    /* R(N) and R(N) with think time */
    CHECK_NEAR_REL(latency_mean(&f, 10, 0), (1 + S0 * 9 + K0 * 90) / L0, 1e-8);
    CHECK_NEAR_REL(latency_mean(&f, 10, 0.0005), (1 + S0 * 9 + K0 * 90) / L0 - 0.0005, 1e-8);
    CHECK(derived_predict(&f, 10, 0, 1, &p) == MODEL_OK);
    CHECK_NEAR_REL(p.r_s.value, (1 + S0 * 9 + K0 * 90) / L0, 1e-8);
    CHECK_NEAR_REL(p.x.value, usl_x(L0, S0, K0, 10), 1e-8);
    CHECK(!p.extrapolated);
    CHECK(derived_predict(&f, 256, 0, 1, &p) == MODEL_OK);
    CHECK(p.extrapolated);
    CHECK(derived_predict(&f, 256, 0, 0, &p) == MODEL_OK);
    CHECK(isnan(p.r_s.value)); /* x as nodes: no latency */

    /* N* and the peak */
    CHECK(derived_compute(&f, &dv) == MODEL_OK);
    CHECK(dv.has_peak);
    CHECK_NEAR_REL(dv.n_peak.value, nstar, 1e-7);
    CHECK_NEAR_REL(dv.x_peak.value, L0 * nstar / (2 * (1 - S0) + (S0 - K0) * nstar), 1e-8);
    CHECK(usl_x(L0, S0, K0, nstar) > usl_x(L0, S0, K0, nstar - 0.01));
    CHECK(usl_x(L0, S0, K0, nstar) > usl_x(L0, S0, K0, nstar + 0.01));
    CHECK_NEAR_REL(dv.ceiling.value, L0 / S0, 1e-7);
    CHECK_NEAR_REL(dv.knee.value, 1 / S0, 1e-7);
    CHECK_NEAR_REL(dv.crossover_n, S0 / K0, 1e-7);
    CHECK_INT_EQ(dv.regime, DERIVED_COHERENCY); /* 128 > sigma/kappa = 100 */

    /* concurrency at a 3 ms mean latency: below N*, R(N_R) = 3 ms */
    c = L0 * 0.003 - 1 + S0;
    textbook = (K0 - S0 + sqrt((S0 - K0) * (S0 - K0) + 4 * K0 * c)) / (2 * K0);
    CHECK(latency_at_target(&f, 0.003, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_OK);
    CHECK(!t.capped);
    CHECK_NEAR_REL(t.n.value, textbook, 1e-7);
    CHECK_NEAR_REL(latency_mean(&f, t.n.value, 0), 0.003, 1e-7);
    CHECK_NEAR_REL(t.x.value, usl_x(L0, S0, K0, textbook), 1e-7);
    CHECK(isfinite(t.n.lo) && t.n.lo <= t.n.value && t.n.hi >= t.n.value);
    /* the same with 1 ms think time and a 2 ms target: N/X = 3 ms again */
    CHECK(latency_at_target(&f, 0.002, 0.001, &t) == MODEL_OK);
    CHECK_NEAR_REL(t.n.value, textbook, 1e-7);
    /* 10 ms: the root lies past N*; the answer is the peak, never beyond */
    CHECK(latency_at_target(&f, 0.010, 0, &t) == MODEL_OK);
    CHECK(t.capped);
    CHECK_NEAR_REL(t.n.value, nstar, 1e-7);
    CHECK_NEAR_REL(t.x.value, dv.x_peak.value, 1e-8);
    /* below (1-sigma)/lambda = 0.95 ms no concurrency meets the target */
    CHECK(latency_at_target(&f, 0.0005, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_UNREACHABLE);
    CHECK(latency_at_target(&f, -1, 0, &t) == MODEL_EINVAL);
}

static void amdahl_closed_forms(void)
{
    double X[8];
    struct model_fit f;
    struct model_derived dv;
    struct latency_target t;
    struct usl_options o = usl_options_default();
    for (int i = 0; i < 8; i++)
        X[i] = usl_x(L0, S0, 0, N8[i]);
    o.amdahl = 1;
    CHECK(usl_fit(N8, X, 8, &o, NULL, &f, err, sizeof err) == MODEL_OK);
    CHECK_INT_EQ(f.kind, MODEL_AMDAHL);
    CHECK(latency_at_target(&f, 0.005, 0, &t) == MODEL_OK);
    CHECK_NEAR_REL(t.n.value, (L0 * 0.005 - 1 + S0) / S0, 1e-7);
    CHECK(!t.capped);
    CHECK(derived_compute(&f, &dv) == MODEL_OK);
    CHECK(dv.plateau && !dv.has_peak);
    CHECK_NEAR_REL(dv.ceiling.value, L0 / S0, 1e-7);
    CHECK_INT_EQ(dv.regime, DERIVED_CONTENTION);
}

/* docs/reference/models.md §1.3: kappa = 1e-30 makes the textbook root cancel to 0 (vendor curve
 * c); the stable form gives 213.8 threads at 2 ms with sigma 0.19597, lambda 21352 */
static void stable_root(void)
{
    struct model_fit f;
    struct latency_target t;
    memset(&f, 0, sizeof f);
    f.kind = MODEL_USL;
    f.par[MODEL_LAMBDA].value = 21352;
    f.par[MODEL_SIGMA].value = 0.19597;
    f.par[MODEL_KAPPA].value = 1e-30;
    f.dof = 0;
    f.t95 = NAN;
    f.n_min = 10;
    f.n_max = 400;
    CHECK(latency_at_target(&f, 0.002, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_OK);
    CHECK_NEAR(t.n.value, 213.8, 0.05);
    CHECK(isnan(t.n.lo)); /* no degrees of freedom: no interval */
}

static void piecewise_closed_forms(void)
{
    const double n[6] = {1, 2, 5, 10, 20, 40}, x[6] = {100, 200, 500, 1000, 1000, 1000};
    struct model_fit f;
    struct model_derived dv;
    struct latency_target t;
    CHECK(piecewise_fit(n, x, 6, &f, err, sizeof err) == MODEL_OK);
    CHECK_NEAR(f.par[MODEL_LAMBDA].value, 100, 1e-9);
    CHECK_NEAR(f.par[MODEL_XM].value, 1000, 1e-9);
    CHECK_NEAR(piecewise_knee(&f), 10, 1e-9);
    CHECK(derived_compute(&f, &dv) == MODEL_OK);
    CHECK_NEAR(dv.ceiling.value, 1000, 1e-9);
    /* R = N/X_m beyond the knee: 50 ms -> 50 threads, X = X_m */
    CHECK(latency_at_target(&f, 0.05, 0, &t) == MODEL_OK);
    CHECK_NEAR(t.n.value, 50, 1e-9);
    CHECK_NEAR(t.x.value, 1000, 1e-9);
    CHECK(t.extrapolated);
    /* below 1/lambda = 10 ms: unreachable */
    CHECK(latency_at_target(&f, 0.005, 0, &t) == MODEL_OK);
    CHECK_INT_EQ(t.status, LATENCY_UNREACHABLE);
}

static void percentiles(void)
{
    const double n[6] = {32, 1, 2, 4, 8, 16}; /* any order */
    const double p95[6] = {0.011, 0.0010, 0.0012, 0.0015, 0.0025, 0.0050};
    const double dup_n[2] = {4, 4};
    double X[8], v;
    int ext;
    struct model_fit f;
    struct latency_pctl *c;

    for (int i = 0; i < 8; i++)
        X[i] = usl_x(L0, S0, K0, N8[i]);
    CHECK(usl_fit(N8, X, 8, NULL, NULL, &f, err, sizeof err) == MODEL_OK);
    c = latency_pctl_new(n, p95, 6, err, sizeof err);
    CHECK(c != NULL);
    if (!c)
        return;
    /* through the measured points */
    for (int i = 0; i < 6; i++) {
        CHECK_NEAR_REL(latency_pctl_eval(c, &f, n[i], 0, &ext), p95[i], 1e-12);
        CHECK(!ext);
    }
    /* monotone between them (Steffen: no overshoot) */
    for (double q = 1; q <= 32; q += 0.25) {
        double a = latency_pctl_eval(c, &f, q, 0, &ext),
               b = latency_pctl_eval(c, &f, q + 0.25, 0, &ext);
        CHECK(b >= a);
    }
    v = latency_pctl_eval(c, &f, 12, 0, &ext);
    CHECK(v > 0.0025 && v < 0.0050 && !ext);
    /* beyond the range: the measured end value scaled by the model's mean, R(N)/R(N_end) */
    v = latency_pctl_eval(c, &f, 64, 0, &ext);
    CHECK(ext);
    CHECK_NEAR_REL(v, 0.011 * ((1 + S0 * 63 + K0 * 64 * 63) / (1 + S0 * 31 + K0 * 32 * 31)), 1e-8);
    v = latency_pctl_eval(c, &f, 0.5, 0, &ext);
    CHECK(ext);
    CHECK_NEAR_REL(v, 0.0010 * (1 + S0 * -0.5 + K0 * 0.5 * -0.5), 1e-8);
    latency_pctl_free(c);
    /* two points: linear between them */
    c = latency_pctl_new(n + 1, p95 + 1, 2, err, sizeof err);
    CHECK(c != NULL);
    if (c) {
        CHECK_NEAR_REL(latency_pctl_eval(c, &f, 1.5, 0, &ext), 0.0011, 1e-12);
        latency_pctl_free(c);
    }
    /* bad input */
    CHECK(latency_pctl_new(dup_n, p95, 2, err, sizeof err) == NULL);
    CHECK(strstr(err, "two percentiles") != NULL);
    CHECK(latency_pctl_new(n, p95, 0, err, sizeof err) == NULL);
}

int main(void)
{
    gsl_set_error_handler_off();
    usl_closed_forms();
    amdahl_closed_forms();
    stable_root();
    piecewise_closed_forms();
    percentiles();
    return check_report();
}
