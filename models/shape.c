/* shape.c - the shape class of a measured throughput curve (shape.h). */
#include "shape.h"

#include <math.h>
#include <string.h>

const char *shape_class_name(enum shape_class c)
{
    switch (c) {
    case SHAPE_SINGLE:
        return "single level";
    case SHAPE_RISING:
        return "rising";
    case SHAPE_PLATEAU:
        return "plateau";
    case SHAPE_PEAKED:
        return "peaked";
    case SHAPE_FALLING:
        return "falling";
    case SHAPE_COLLAPSE:
        return "collapse";
    }
    return "?";
}

double shape_noise(double x, double half95)
{
    double floor = SHAPE_NOISE_REL * fabs(x);
    return isfinite(half95) && half95 > floor ? half95 : floor;
}

int shape_classify(const double *n, const double *x, const double *half95, const int *between,
                   size_t m, struct shape *out)
{
    double e[2] = {0, 0};
    memset(out, 0, sizeof *out);
    out->start_ratio = NAN;
    if (m == 0)
        return -1;
    for (size_t i = 0; i < m; i++)
        if (!(n[i] > 0) || !isfinite(n[i]) || !(x[i] > 0) || !isfinite(x[i]) ||
            (i > 0 && !(n[i] > n[i - 1]))) {
            memset(out, 0, sizeof *out);
            return -1;
        }
#define NOISE(i)                                                                                   \
    (between && between[i] && half95 && isfinite(half95[i]) && half95[i] >= 0                      \
         ? half95[i]                                                                               \
         : shape_noise(x[i], half95 ? half95[i] : NAN))
    out->m = m;
    for (size_t i = 1; i < m; i++)
        if (x[i] > x[out->best])
            out->best = i;
    out->top_lo = out->top_hi = out->best;
    while (out->top_lo > 0 &&
           x[out->best] - x[out->top_lo - 1] <= hypot(NOISE(out->best), NOISE(out->top_lo - 1)))
        out->top_lo--;
    while (out->top_hi + 1 < m &&
           x[out->best] - x[out->top_hi + 1] <= hypot(NOISE(out->best), NOISE(out->top_hi + 1)))
        out->top_hi++;
    if (m == 1) {
        out->cls = SHAPE_SINGLE;
        return 0;
    }
    {
        double r = n[1] / n[0];
        out->start_ratio = x[1] / x[0];
        e[0] = NOISE(0);
        e[1] = NOISE(1);
        out->superlinear_start = x[1] - r * x[0] > hypot(e[1], r * e[0]);
    }
    for (size_t i = 0; i + 1 < m; i++) {
        double slope = log(x[i + 1] / x[i]) / log(n[i + 1] / n[i]);
        if (slope < SHAPE_COLLAPSE_SLOPE &&
            x[i] - x[i + 1] > SHAPE_COLLAPSE_NOISES * hypot(NOISE(i), NOISE(i + 1))) {
            out->cls = SHAPE_COLLAPSE;
            out->collapse_at = i;
            return 0;
        }
    }
    if (x[out->best] - x[m - 1] > hypot(NOISE(out->best), NOISE(m - 1)))
        out->cls = out->best == 0 ? SHAPE_FALLING : SHAPE_PEAKED;
    else if (x[m - 1] - x[m - 2] > hypot(NOISE(m - 1), NOISE(m - 2)))
        out->cls = SHAPE_RISING;
    else
        out->cls = SHAPE_PLATEAU;
#undef NOISE
    return 0;
}
