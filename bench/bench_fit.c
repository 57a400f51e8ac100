/*
 * bench_fit.c - how fast models/ fits curves.
 *
 *   bench_fit [CURVES [FILE...]]
 *
 * 1. Fits CURVES (default 100000) synthetic 8-point curves (N = 1,2,4,8,16,32,64,128; USL
 *    parameters drawn per curve, 2 % Gaussian noise, gsl_rng mt19937 seed 42) with the bounded
 *    3-parameter USL on one thread, reusing one workspace, and prints USL fits per second.
 * 2. With FILEs (anything `sizeup import` reads), imports them, groups the points into curves
 *    and builds every curve as `sizeup fit` does (advisor/curve/curve.h: points that count, levels,
 *    auto selection among USL, Amdahl, piecewise), printing the curve count and the total time.
 */
#include "curve.h"
#include "fit.h"
#include "import.h"
#include "usl.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NPTS 8

static long long clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* wall time */
static long long now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

/* CPU time of this process: the figure that other work on a shared machine does not inflate */
static long long cpu_ns(void)
{
    return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

static int bench_synthetic(long curves)
{
    static const double N[NPTS] = {1, 2, 4, 8, 16, 32, 64, 128};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double *X = malloc((size_t)curves * NPTS * sizeof *X);
    struct usl_workspace *ws = usl_workspace_new();
    struct model_fit f;
    long ok = 0, at_bound = 0;
    size_t iters = 0;
    long long t0, t1, c0, c1;
    char err[160];

    if (!rng || !X || !ws) {
        fprintf(stderr, "bench_fit: out of memory\n");
        return 1;
    }
    gsl_rng_set(rng, 42);
    for (long c = 0; c < curves; c++) {
        double sigma = gsl_rng_uniform(rng) * 0.2;
        double kappa = gsl_rng_uniform(rng) * 1e-3;
        double lambda = 500 + gsl_rng_uniform(rng) * 2000;
        for (int i = 0; i < NPTS; i++) {
            double x = lambda * N[i] / (1 + sigma * (N[i] - 1) + kappa * N[i] * (N[i] - 1));
            X[c * NPTS + i] = x * (1 + 0.02 * gsl_ran_gaussian(rng, 1.0));
        }
    }
    t0 = now_ns();
    c0 = cpu_ns();
    for (long c = 0; c < curves; c++) {
        if (usl_fit(N, X + c * NPTS, NPTS, NULL, ws, &f, err, sizeof err) == MODEL_OK) {
            ok++;
            iters += f.iterations;
            at_bound += f.par[MODEL_SIGMA].fixed || f.par[MODEL_KAPPA].fixed;
        }
    }
    c1 = cpu_ns();
    t1 = now_ns();
    printf("synthetic: %ld curves of %d points, %ld fitted (%ld with a bound active), "
           "%.1f iterations per fit\n",
           curves, NPTS, ok, at_bound, ok ? (double)iters / (double)ok : 0.0);
    printf("USL fits per second (one core): %.0f by CPU time (%.2f us per fit), %.0f by wall "
           "time\n",
           (double)curves / ((double)(c1 - c0) * 1e-9), (double)(c1 - c0) * 1e-3 / (double)curves,
           (double)curves / ((double)(t1 - t0) * 1e-9));
    usl_workspace_free(ws);
    free(X);
    gsl_rng_free(rng);
    return ok == curves ? 0 : 1;
}

static int bench_files(int nfiles, char **files)
{
    struct point_list pts;
    struct import_report rep;
    struct usl_workspace *ws = usl_workspace_new();
    size_t curves = 0, fitted = 0;
    long long t0, t1, c0, c1;
    int rc = 0;

    point_list_init(&pts);
    for (int i = 0; i < nfiles; i++)
        if (import_file(files[i], NULL, &pts, &rep) < 0) {
            fprintf(stderr, "bench_fit: %s\n", rep.msg);
            rc = 1;
        }
    {
        struct curve_groups g;
        struct curve_spec spec = curve_spec_default();
        char err[320];
        if (!ws || curve_groups_build(&g, &pts, NULL) != CURVE_OK) {
            fprintf(stderr, "bench_fit: out of memory\n");
            return 1;
        }
        spec.lat_pct = CURVE_LAT_NONE;
        t0 = now_ns();
        c0 = cpu_ns();
        for (size_t i = 0; i < g.n; i++) {
            struct curve c;
            curves++;
            if (curve_init_points(&c, &pts, g.g[i].idx, g.g[i].n, &spec, ws, err, sizeof err) ==
                CURVE_OK)
                fitted++;
            curve_destroy(&c);
        }
        c1 = cpu_ns();
        t1 = now_ns();
        printf("published tables: %zu points, %zu curves, %zu fitted (the curve module: points "
               "that count, levels, USL + Amdahl + piecewise each) in %.3f ms CPU, %.3f ms wall\n",
               pts.n, curves, fitted, (double)(c1 - c0) * 1e-6, (double)(t1 - t0) * 1e-6);
        curve_groups_destroy(&g);
    }
    usl_workspace_free(ws);
    point_list_destroy(&pts);
    return rc;
}

int main(int argc, char **argv)
{
    long curves = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    int rc;
    gsl_set_error_handler_off();
    if (curves <= 0) {
        fprintf(stderr, "usage: bench_fit [CURVES [FILE...]]\n");
        return 2;
    }
    rc = bench_synthetic(curves);
    if (argc > 2)
        rc |= bench_files(argc - 2, argv + 2);
    return rc;
}
