/* disk_stop.c - batch-means confidence interval and stopping rule (see disk_stop.h). */
#include "disk_stop.h"

#include <math.h>

/* t(0.975, df) for df = 1..30 (Abramowitz & Stegun table 26.10). */
static const double t975_table[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                      2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                      2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                      2.060,  2.056, 2.052, 2.048, 2.045, 2.042};

double disk_stop_t975(size_t df)
{
    const double z = 1.959964;
    double d = (double)df, z3 = z * z * z, z5 = z3 * z * z;
    if (df == 0)
        return NAN;
    if (df <= 30)
        return t975_table[df - 1];
    return z + (z3 + z) / (4.0 * d) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * d * d);
}

int disk_stop_ci95(const double *x, size_t n, double *mean, double *half)
{
    double sum = 0.0, ss = 0.0, m;
    *mean = NAN;
    *half = NAN;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    m = sum / (double)n;
    *mean = m;
    if (n < 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *half = disk_stop_t975(n - 1) * sqrt(ss / (double)(n - 1)) / sqrt((double)n);
    return 0;
}

int disk_stop_precise(const double *x, size_t n, double precision)
{
    double mean, half;
    if (n < DISK_STOP_MIN_BATCHES || disk_stop_ci95(x, n, &mean, &half) != 0)
        return 0;
    return mean > 0.0 && half / mean <= precision;
}
