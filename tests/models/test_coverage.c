/*
 * test_coverage.c - the 95 % intervals are honest: 200 seeded synthetic curves from known USL
 * parameters with Gaussian noise; each true parameter (and the true peak N*) must lie inside
 * its fitted 95 % interval in at least 90 % of the trials. The nominal rate is 95 %; the
 * intervals are the asymptotic t intervals of docs/reference/models.md §4.4, so a few points less
 * is expected for a nonlinear model with 10 points.
 */
#include "check.h"
#include "derived.h"
#include "usl.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#define TRIALS 200
#define NPTS 10

int main(void)
{
    static const double N[NPTS] = {1, 2, 4, 8, 16, 32, 48, 64, 96, 128};
    const double truth[3] = {1000.0, 0.05, 5e-4}; /* lambda, sigma, kappa */
    const double npeak = sqrt((1 - truth[1]) / truth[2]);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    struct usl_workspace *ws = usl_workspace_new();
    int inside[4] = {0, 0, 0, 0}, fitted = 0;
    double xpeak, noise_sd;
    char err[200];

    gsl_set_error_handler_off();
    if (!rng || !ws)
        return 1;
    gsl_rng_set(rng, 20261201);
    xpeak = truth[0] * npeak / (1 + truth[1] * (npeak - 1) + truth[2] * npeak * (npeak - 1));
    noise_sd = 0.02 * xpeak; /* constant variance: what unweighted least squares assumes */
    for (int t = 0; t < TRIALS; t++) {
        double X[NPTS];
        struct model_fit f;
        struct model_derived dv;
        for (int i = 0; i < NPTS; i++) {
            double x = truth[0] * N[i] / (1 + truth[1] * (N[i] - 1) + truth[2] * N[i] * (N[i] - 1));
            X[i] = x + gsl_ran_gaussian(rng, noise_sd);
        }
        if (usl_fit(N, X, NPTS, NULL, ws, &f, err, sizeof err) != MODEL_OK) {
            fprintf(stderr, "trial %d: %s\n", t, err);
            continue;
        }
        fitted++;
        for (int k = 0; k < 3; k++)
            if (!f.par[k].fixed && f.par[k].lo <= truth[k] && truth[k] <= f.par[k].hi)
                inside[k]++;
        if (derived_compute(&f, &dv) == MODEL_OK && dv.has_peak && dv.n_peak.lo <= npeak &&
            npeak <= dv.n_peak.hi)
            inside[3]++;
    }
    printf("coverage of 95 %% intervals over %d trials: lambda %d, sigma %d, kappa %d, N* %d\n",
           TRIALS, inside[0], inside[1], inside[2], inside[3]);
    CHECK_INT_EQ(fitted, TRIALS);
    for (int k = 0; k < 4; k++)
        CHECK(inside[k] >= (TRIALS * 9) / 10);
    usl_workspace_free(ws);
    gsl_rng_free(rng);
    return check_report();
}
