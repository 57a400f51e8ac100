/*
 * bench_rank.c - time the ranking of many configurations (advisor/rank/rank.h).
 *
 * usage: bench_rank [CONFIGS [DISTINCT [FITTED]]]  (defaults 100000, 1000, CONFIGS)
 *
 * Synthetic curves: USL X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) at N = 1, 2, 4, ...,
 * 256 with measured mean latency N / X(N) x 1.05 (a little above Little's law) and lambda,
 * sigma, kappa varied over a grid. DISTINCT curves are fitted once; then CONFIGS configurations,
 * each on one of those curves with its own hourly price, are evaluated at avg <= 50 ms, priced
 * and sorted (rank_row_eval, rank_row_price, rank_sort): the time printed is that ranking step.
 * Then FITTED configurations are timed end to end, each fitting its own curve first (the cost a
 * study pays once per curve).
 */
#include "rank.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double price_fn(void *ctx, long nodes)
{
    return *(const double *)ctx * (double)nodes;
}

static void make_curve(size_t k, struct curve_obs *o)
{
    double lambda = 50 + (double)(k % 17) * 30, sigma = 0.01 + (double)(k % 7) * 0.02;
    double kappa = 1e-5 * (double)(1 + k % 11);
    for (int i = 0; i < 9; i++) {
        o[i].n = pow(2, i);
        o[i].x = lambda * o[i].n / (1 + sigma * (o[i].n - 1) + kappa * o[i].n * (o[i].n - 1));
        o[i].lat_s = o[i].n / o[i].x * 1.05;
        o[i].ci95_df = 0;
        o[i].pooled = 0;
        o[i].ci95_x = NAN;
    }
}

int main(int argc, char **argv)
{
    size_t configs = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
    size_t distinct = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
    size_t fitted = argc > 3 ? strtoul(argv[3], NULL, 10) : configs;
    struct curve *curves = calloc(distinct, sizeof *curves);
    struct rank_row *rows = malloc(configs * sizeof *rows);
    struct rank_at *at = malloc(configs * sizeof *at);
    char(*ids)[24] = malloc(configs * sizeof *ids);
    double *prices = malloc(configs * sizeof *prices);
    struct usl_workspace *ws = usl_workspace_new();
    struct rank_options opt = {
        {0, 0.050}, CAT_PRICING_ON_DEMAND, 0, 1, {{"oltp_read_write", 1}}, 1, 0, 0, 0, 0};
    struct curve_obs obs[9];
    struct curve_spec spec = curve_spec_default();
    double t0, t1, t2;
    char err[256];
    size_t met = 0;

    gsl_set_error_handler_off();
    if (!curves || !rows || !at || !ids || !prices || !ws || !distinct || !configs) {
        fprintf(stderr, "bench_rank: out of memory or bad arguments\n");
        return 1;
    }
    t0 = now_s();
    for (size_t k = 0; k < distinct; k++) {
        make_curve(k, obs);
        if (curve_init(&curves[k], obs, 9, &spec, ws, err, sizeof err) != CURVE_OK) {
            fprintf(stderr, "bench_rank: curve %zu: %s\n", k, err);
            return 1;
        }
    }
    t1 = now_s();
    printf("fitted %zu distinct curves in %.3f s (%.0f curves/s)\n", distinct, t1 - t0,
           (double)distinct / (t1 - t0));
    for (size_t i = 0; i < configs; i++) {
        snprintf(ids[i], sizeof ids[i], "cfg-%06zu", i);
        prices[i] = 0.05 + (double)((i * 7919) % 1000) * 0.001;
    }
    t0 = now_s();
    for (size_t i = 0; i < configs; i++) {
        const struct curve *cv[1] = {&curves[i % distinct]};
        rank_row_eval(&rows[i], &at[i], ids[i], 1, cv, &opt);
        rank_row_price(&rows[i], cv, &opt, price_fn, &prices[i]);
    }
    t1 = now_s();
    rank_sort(rows, configs, &opt);
    t2 = now_s();
    for (size_t i = 0; i < configs; i++)
        met += rows[i].status == RANK_MET;
    printf("ranked %zu configurations x 1 workload (avg <= 50 ms) in %.3f s: evaluate and price "
           "%.3f s, sort %.3f s; %zu meet the target; first %s\n",
           configs, t2 - t0, t1 - t0, t2 - t1, met, rows[0].config);
    /* end to end: each configuration fits its own curve */
    t0 = now_s();
    for (size_t i = 0; i < fitted && i < configs; i++) {
        struct curve c;
        const struct curve *cv[1] = {&c};
        make_curve(i, obs);
        if (curve_init(&c, obs, 9, &spec, ws, err, sizeof err) != CURVE_OK)
            return 1;
        rank_row_eval(&rows[i], &at[i], ids[i], 1, cv, &opt);
        rank_row_price(&rows[i], cv, &opt, price_fn, &prices[i]);
        curve_destroy(&c);
    }
    rank_sort(rows, fitted < configs ? fitted : configs, &opt);
    t1 = now_s();
    printf("fit + rank of %zu configurations, each its own curve: %.3f s\n",
           fitted < configs ? fitted : configs, t1 - t0);
    for (size_t k = 0; k < distinct; k++)
        curve_destroy(&curves[k]);
    free(curves);
    free(rows);
    free(at);
    free(ids);
    free(prices);
    usl_workspace_free(ws);
    return 0;
}
