/* workmix.c - observed statement rates as a mix of sysbench workloads (workmix.h). */
#include "workmix.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <string.h>

/* Statements per transaction, sysbench 1.0.20's defaults (workmix.h's table). */
static const double per_tx[WM_N_WORKLOAD][WM_N_CLASS] = {
    /*                     point range scan insert update delete end */
    [WM_POINT_SELECT] = {1, 0, 0, 0, 0, 0, 0}, [WM_READ_ONLY] = {10, 4, 0, 0, 0, 0, 1},
    [WM_READ_WRITE] = {10, 4, 0, 1, 2, 1, 1},  [WM_WRITE_ONLY] = {0, 0, 0, 1, 2, 1, 1},
    [WM_INSERT_ONLY] = {0, 0, 0, 1, 0, 0, 0},  [WM_UPDATE_NON_INDEX] = {0, 0, 0, 0, 1, 0, 0},
    [WM_DELETE_ONLY] = {0, 0, 0, 0, 0, 1, 0},  [WM_RANDOM_RANGES] = {0, 1, 0, 0, 0, 0, 0},
};

const char *workmix_class_name(enum workmix_class c)
{
    static const char *const n[WM_N_CLASS] = {
        "point_select", "range_select", "scan_select", "insert", "update", "delete", "end"};
    return (unsigned)c < WM_N_CLASS ? n[c] : "?";
}

const char *workmix_workload_name(enum workmix_workload w)
{
    static const char *const n[WM_N_WORKLOAD] = {
        "oltp_point_select", "oltp_read_only",        "oltp_read_write", "oltp_write_only",
        "oltp_insert",       "oltp_update_non_index", "oltp_delete",     "select_random_ranges"};
    return (unsigned)w < WM_N_WORKLOAD ? n[w] : "?";
}

double workmix_per_tx(enum workmix_workload w, enum workmix_class c)
{
    return (unsigned)w < WM_N_WORKLOAD && (unsigned)c < WM_N_CLASS ? per_tx[w][c] : NAN;
}

double workmix_statements_per_tx(enum workmix_workload w)
{
    double s = 0;
    for (int c = 0; c < WM_END; c++)
        s += workmix_per_tx(w, (enum workmix_class)c);
    return s;
}

static int rates_ok(const double rate[WM_N_CLASS])
{
    for (int c = 0; c < WM_N_CLASS; c++)
        if (!isfinite(rate[c]) || rate[c] < 0)
            return 0;
    return 1;
}

/* Unconstrained least squares over the workloads in mask; x[w] = 0 outside it.
 * @return the sum of squared residuals, or INFINITY when GSL fails. */
static double solve_subset(const double rate[WM_N_CLASS], unsigned mask, double x[WM_N_WORKLOAD])
{
    size_t k = 0;
    int cols[WM_N_WORKLOAD];
    double chisq = 0;
    for (int w = 0; w < WM_N_WORKLOAD; w++) {
        x[w] = 0;
        if (mask & (1u << w))
            cols[k++] = w;
    }
    if (!k) {
        for (int c = 0; c < WM_N_CLASS; c++)
            chisq += rate[c] * rate[c];
        return chisq;
    }
    gsl_matrix *a = gsl_matrix_alloc(WM_N_CLASS, k);
    gsl_vector *y = gsl_vector_alloc(WM_N_CLASS), *b = gsl_vector_alloc(k);
    gsl_matrix *cov = gsl_matrix_alloc(k, k);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(WM_N_CLASS, k);
    int rc = -1;
    if (a && y && b && cov && ws) {
        for (int c = 0; c < WM_N_CLASS; c++) {
            gsl_vector_set(y, (size_t)c, rate[c]);
            for (size_t j = 0; j < k; j++)
                gsl_matrix_set(a, (size_t)c, j, per_tx[cols[j]][c]);
        }
        rc = gsl_multifit_linear(a, y, b, cov, &chisq, ws);
        for (size_t j = 0; rc == GSL_SUCCESS && j < k; j++)
            x[cols[j]] = gsl_vector_get(b, j);
    }
    gsl_multifit_linear_free(ws);
    gsl_matrix_free(cov);
    gsl_vector_free(b);
    gsl_vector_free(y);
    gsl_matrix_free(a);
    return rc == GSL_SUCCESS ? chisq : INFINITY;
}

static int popcount(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The share of the statements a mix x does not issue: sum |fitted - observed| / observed. */
static double off_share(const double rate[WM_N_CLASS], const double x[WM_N_WORKLOAD])
{
    double off = 0, observed = 0;
    for (int c = 0; c < WM_N_CLASS; c++) {
        double f = 0;
        for (int w = 0; w < WM_N_WORKLOAD; w++)
            f += x[w] * per_tx[w][c];
        off += fabs(f - rate[c]);
        observed += rate[c];
    }
    return observed > 0 ? off / observed : 0;
}

int workmix_fit(const double rate[WM_N_CLASS], struct workmix *m)
{
    enum { N_SUB = 1u << WM_N_WORKLOAD };
    double share[N_SUB], chisq[N_SUB], best = INFINITY;
    gsl_error_handler_t *old;
    unsigned pick = 0;
    int pick_n = WM_N_WORKLOAD + 1;
    memset(m, 0, sizeof *m);
    if (!rates_ok(rate))
        return -1;
    old = gsl_set_error_handler_off();
    for (unsigned mask = 0; mask < N_SUB; mask++) {
        double x[WM_N_WORKLOAD], sum = 0;
        chisq[mask] = solve_subset(rate, mask, x);
        share[mask] = INFINITY;
        for (int w = 0; w < WM_N_WORKLOAD; w++)
            sum += x[w];
        for (int w = 0; w < WM_N_WORKLOAD; w++)
            if ((mask & (1u << w)) &&
                (!(x[w] > 0) || !isfinite(x[w]) || x[w] < WORKMIX_MIN_SHARE * sum))
                chisq[mask] = INFINITY; /* infeasible under the rule */
        if (isfinite(chisq[mask])) {
            share[mask] = off_share(rate, x);
            best = fmin(best, share[mask]);
        }
    }
    /* of the mixes within WORKMIX_NOISE of the best (in the share of statements left out), the
     * one of fewest workloads, then the nearest: with as many workloads as classes any rates
     * fit exactly, and the statements of transactions open across an interval's end make
     * every observation a little off, so a fit that is better by less than that is noise */
    for (unsigned mask = 0; mask < N_SUB; mask++) {
        int n = popcount(mask);
        if (!(share[mask] <= best + WORKMIX_NOISE))
            continue;
        if (n < pick_n || (n == pick_n && chisq[mask] < chisq[pick])) {
            pick = mask;
            pick_n = n;
        }
    }
    solve_subset(rate, pick, m->tps);
    gsl_set_error_handler(old);
    double observed = 0, off = 0;
    for (int w = 0; w < WM_N_WORKLOAD; w++)
        m->total_tps += m->tps[w];
    for (int c = 0; c < WM_N_CLASS; c++) {
        for (int w = 0; w < WM_N_WORKLOAD; w++)
            m->fitted[c] += m->tps[w] * per_tx[w][c];
        observed += rate[c];
        off += fabs(m->fitted[c] - rate[c]);
    }
    /* below 1e-9 is rounding of an exact fit */
    m->residual = observed > 0 && off / observed > 1e-9 ? off / observed : 0;
    return 0;
}

double workmix_tps_status(const double rate[WM_N_CLASS], double aborted, const struct workmix *m)
{
    double s = 0, e, tx = 0, tx_stmts = 0, n_max = 0, inside;
    if (!rates_ok(rate) || !(aborted >= 0) || aborted > rate[WM_END])
        return NAN;
    for (int c = 0; c < WM_END; c++)
        s += rate[c];
    e = rate[WM_END];
    if (e <= 0)
        return s;
    for (int w = 0; w < WM_N_WORKLOAD; w++)
        if (per_tx[w][WM_END] > 0 && m->tps[w] > 0) {
            double n = workmix_statements_per_tx((enum workmix_workload)w);
            tx += m->tps[w];
            tx_stmts += m->tps[w] * n;
            n_max = fmax(n_max, n);
        }
    inside = tx > 0 ? e * tx_stmts / tx + aborted * (n_max - tx_stmts / tx) : s;
    return e + s - fmin(s, inside);
}
