/* calib.c - MSER-m warm-up cut and batch-means stopping rule for calibrated probe points. */
#include "calib.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

int calib_mser(const double *x, size_t n, size_t m, size_t *cut, int *steady)
{
    size_t k, best_d = 0;
    double *z, best = INFINITY;
    if (!x || !cut || !steady || m == 0 || !all_finite(x, n))
        return CALIB_EINVAL;
    if (n < 2 * m)
        return CALIB_ESHORT;
    k = n / m;
    z = malloc(k * sizeof *z);
    if (!z)
        return CALIB_EINVAL;
    for (size_t j = 0; j < k; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++)
            s += x[j * m + i];
        z[j] = s / (double)m;
    }
    /* suffix sums let every MSER(d) be computed in O(1): sum of squared deviations of the
     * kept batch means = sum z^2 - (sum z)^2 / (k - d) */
    {
        double sum = 0, sumsq = 0;
        for (size_t j = k; j-- > 0;) {
            size_t d = j, kept = k - d;
            double ssd;
            sum += z[j];
            sumsq += z[j] * z[j];
            if (kept < 2 || d > k / 2)
                continue;
            ssd = sumsq - sum * sum / (double)kept;
            if (ssd < 0)
                ssd = 0;
            /* ties go to the smaller cut: scanning down, <= moves the choice earlier */
            if (ssd / ((double)kept * (double)kept) <= best) {
                best = ssd / ((double)kept * (double)kept);
                best_d = d;
            }
        }
    }
    free(z);
    *cut = best_d * m;
    *steady = best_d < k / 2;
    return CALIB_OK;
}

int calib_batch_means(const double *x, size_t n, struct calib_estimate *out)
{
    size_t b, len, used, skip;
    double mean = 0, var = 0, lag = 0;
    double zb[CALIB_BATCHES];
    if (!x || !out || !all_finite(x, n))
        return CALIB_EINVAL;
    if (n < CALIB_MIN_BATCHES)
        return CALIB_ESHORT;
    b = n >= CALIB_BATCHES ? CALIB_BATCHES : n;
    len = n / b;
    used = b * len;
    skip = n - used; /* drop the oldest extras: they are nearest the warm-up */
    for (size_t j = 0; j < b; j++) {
        double s = 0;
        for (size_t i = 0; i < len; i++)
            s += x[skip + j * len + i];
        zb[j] = s / (double)len;
        mean += zb[j];
    }
    mean /= (double)b;
    for (size_t j = 0; j < b; j++)
        var += (zb[j] - mean) * (zb[j] - mean);
    for (size_t j = 1; j < b; j++)
        lag += (zb[j] - mean) * (zb[j - 1] - mean);
    out->lag1 = var > 0 ? lag / var : 0;
    var /= (double)(b - 1);
    out->mean = mean;
    out->half95 = gsl_cdf_tdist_Pinv(0.975, (double)(b - 1)) * sqrt(var / (double)b);
    out->rel95 = mean != 0 ? out->half95 / fabs(mean) : INFINITY;
    out->batches = b;
    out->batch_len = len;
    out->used = used;
    return CALIB_OK;
}

int calib_decide(const double *x, size_t n, double interval_s, size_t m, double precision,
                 double min_time_s, double max_time_s, struct calib_decision *out)
{
    double elapsed = (double)n * interval_s;
    size_t cut = 0;
    int warm_over = 0;
    if (!out || !(interval_s > 0) || m == 0 || !(precision > 0) || (n > 0 && !x))
        return CALIB_EINVAL;
    out->stop = out->steady = out->have_est = out->indep = 0;
    out->cut = 0;
    if (n >= 2 * m) {
        int rc = calib_mser(x, n, m, &cut, &warm_over);
        if (rc == CALIB_EINVAL)
            return rc;
    }
    /* the cut MSER chose, also at the boundary (still trending: not steady, but its second
     * half is nearer what the level settles to than the whole series with its warm-up) */
    out->cut = cut;
    if (n - out->cut >= CALIB_MIN_BATCHES &&
        calib_batch_means(x + out->cut, n - out->cut, &out->est) == CALIB_OK)
        out->have_est = 1;
    /* batch means must look independent: lag-1 autocorrelation within Bartlett's 95 % bound
     * for white noise, 1.96 / sqrt(b) (Box & Jenkins, Time Series Analysis, §6.2) */
    out->indep = out->have_est && out->est.lag1 <= 1.96 / sqrt((double)out->est.batches);
    if (elapsed >= min_time_s && warm_over && out->indep && out->est.rel95 <= precision) {
        out->stop = 1;
        out->steady = 1;
    } else if (elapsed >= max_time_s) {
        out->stop = 1;
    }
    return CALIB_OK;
}
