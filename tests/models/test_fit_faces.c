/* test_fit_faces.c - the USL fit's fast path (models/usl.h: the bound faces fitted only when the
 * free fit is not strictly inside the bounds) gives the fit of all faces, on
 *   - every curve of tests/models/data (the published USL datasets and the three vendor curves),
 *   - 20,000 synthetic 8-point curves (N = 1..128 doubling; sigma in [0, 0.3), kappa in
 *     [0, 2e-3), some with kappa 0 or sigma 0 exactly, noise 2 % and 10 %, gsl mt19937 seed 7),
 *     USL and Amdahl;
 * "the same fit": the same face (which parameters are held) and a sum of squared errors within
 * 1e-9 of the reference's, relative. The reference (all_faces = 1) is the fit as it was before
 * the fast path. */
#include "check.h"
#include "models/datasets.h"
#include "usl.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

static long differ;

static void same(const double *n, const double *x, size_t m, int amdahl, struct usl_workspace *ws,
                 const char *what)
{
    struct usl_options fast = usl_options_default(), ref = usl_options_default();
    struct model_fit a, b;
    char err[160];
    int ra, rb;
    fast.amdahl = ref.amdahl = amdahl;
    ref.all_faces = 1;
    ra = usl_fit(n, x, m, &fast, ws, &a, err, sizeof err);
    rb = usl_fit(n, x, m, &ref, ws, &b, err, sizeof err);
    if (ra != rb) {
        differ++;
        fprintf(stderr, "%s: fast %d, all faces %d\n", what, ra, rb);
        return;
    }
    if (ra != MODEL_OK)
        return;
    if (a.par[MODEL_SIGMA].fixed != b.par[MODEL_SIGMA].fixed ||
        a.par[MODEL_KAPPA].fixed != b.par[MODEL_KAPPA].fixed ||
        fabs(a.sse - b.sse) > 1e-9 * fmax(b.sse, 1e-300)) {
        differ++;
        if (differ <= 5)
            fprintf(stderr,
                    "%s: fast sse %.10g sigma %g kappa %g; all faces sse %.10g sigma %g "
                    "kappa %g\n",
                    what, a.sse, a.par[MODEL_SIGMA].value, a.par[MODEL_KAPPA].value, b.sse,
                    b.par[MODEL_SIGMA].value, b.par[MODEL_KAPPA].value);
    }
}

int main(void)
{
    static const double N[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    static const char *const names[] = {"cisco",
                                        "handlersocket",
                                        "isilon",
                                        "oracledb",
                                        "paypal_nodejs",
                                        "raytracer",
                                        "specsdm91",
                                        "specsdm91_rounded",
                                        "synthetic_r_coef",
                                        "vendor_a_mysql57_4c16g_nvme",
                                        "vendor_b_4c16g_cloudssd",
                                        "vendor_c_4c8g_point_select"};
    struct usl_workspace *ws = usl_workspace_new();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    long curves = 0;
    CHECK(ws != NULL && rng != NULL);
    if (!ws || !rng)
        return check_report();
    for (size_t d = 0; d < sizeof names / sizeof names[0]; d++) {
        static struct dataset ds;
        if (dataset_load(names[d], &ds) != 0) {
            CHECK(0);
            continue;
        }
        same(ds.N, ds.X, ds.n, 0, ws, names[d]);
        same(ds.N, ds.X, ds.n, 1, ws, names[d]);
        curves++;
    }
    gsl_rng_set(rng, 7);
    for (long c = 0; c < 20000; c++) {
        double x[8], sigma = gsl_rng_uniform(rng) * 0.3, kappa = gsl_rng_uniform(rng) * 2e-3;
        double lambda = 100 + gsl_rng_uniform(rng) * 5000, noise = c % 2 ? 0.10 : 0.02;
        char what[64];
        if (c % 7 == 0)
            kappa = 0;
        if (c % 11 == 0)
            sigma = 0;
        for (int i = 0; i < 8; i++) {
            double v = lambda * N[i] / (1 + sigma * (N[i] - 1) + kappa * N[i] * (N[i] - 1));
            x[i] = fmax(1e-3, v * (1 + noise * gsl_ran_gaussian(rng, 1.0)));
        }
        snprintf(what, sizeof what, "synthetic curve %ld", c);
        same(N, x, 8, c % 3 == 0, ws, what);
        curves++;
    }
    printf("%ld curves, %ld fits that differ\n", curves, differ);
    CHECK_INT_EQ(differ, 0);
    gsl_rng_free(rng);
    usl_workspace_free(ws);
    return check_report();
}
