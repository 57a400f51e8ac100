/* hwscale.c - a family's curve at an unmeasured vCPU count (model in hwscale.h). */
#include "hwscale.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    if (msg && cap) {
        va_start(ap, fmt);
        vsnprintf(msg, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

const char *hwscale_basis_name(enum hwscale_basis b)
{
    switch (b) {
    case HWSCALE_MEASURED:
        return "measured";
    case HWSCALE_INSIDE:
        return "between measured sizes";
    case HWSCALE_BELOW:
        return "below the measured sizes";
    case HWSCALE_ABOVE:
        return "above the measured sizes";
    case HWSCALE_ONE:
        return "one measured size";
    case HWSCALE_BEYOND:
        return "beyond the measured threads per vCPU";
    }
    return "?";
}

int hwscale_check(const struct hwscale_size *sizes, size_t n, char *errmsg, size_t errcap)
{
    if (!sizes || n == 0)
        return fail(errmsg, errcap, "no measured size");
    for (size_t s = 0; s < n; s++) {
        const struct hwscale_size *z = &sizes[s];
        if (!(z->vcpu > 0) || !isfinite(z->vcpu))
            return fail(errmsg, errcap, "size %zu: vCPU %g is not > 0", s + 1, z->vcpu);
        if (z->m == 0 || !z->threads || !z->tps)
            return fail(errmsg, errcap, "size %zu (%g vCPU): no levels", s + 1, z->vcpu);
        if (z->n_lat > HWSCALE_MAX_LAT)
            return fail(errmsg, errcap, "size %zu: %zu latency statistics (at most %d)", s + 1,
                        z->n_lat, HWSCALE_MAX_LAT);
        for (size_t j = 0; j < s; j++)
            if (sizes[j].vcpu == z->vcpu)
                return fail(errmsg, errcap, "sizes %zu and %zu both have %g vCPU", j + 1, s + 1,
                            z->vcpu);
        for (size_t i = 0; i < z->m; i++) {
            if (!(z->threads[i] > 0) || !isfinite(z->threads[i]))
                return fail(errmsg, errcap, "size %zu (%g vCPU): level %zu: threads %g not > 0",
                            s + 1, z->vcpu, i + 1, z->threads[i]);
            if (i > 0 && !(z->threads[i] > z->threads[i - 1]))
                return fail(errmsg, errcap,
                            "size %zu (%g vCPU): level %zu: threads %g not above %g", s + 1,
                            z->vcpu, i + 1, z->threads[i], z->threads[i - 1]);
            if (!(z->tps[i] > 0) || !isfinite(z->tps[i]))
                return fail(errmsg, errcap, "size %zu (%g vCPU): level %zu: tps %g not > 0", s + 1,
                            z->vcpu, i + 1, z->tps[i]);
        }
    }
    return 0;
}

static double peak_of(const struct hwscale_size *z)
{
    double p = 0;
    for (size_t i = 0; i < z->m; i++)
        p = fmax(p, z->tps[i]);
    return p;
}

/*
 * 1 when size z covers n threads: n at most its largest level and, when strict, at least its
 * smallest (below it throughput is taken as proportional to N, an approximation).
 */
static int covers(const struct hwscale_size *z, double n, int strict)
{
    return n <= z->threads[z->m - 1] * (1 + 1e-12) && (!strict || n >= z->threads[0] * (1 - 1e-12));
}

/*
 * Throughput of size z at n threads: on log-log axes linear between levels; below the first
 * level proportional to n; beyond the last along the last segment when it falls, else held.
 */
static double tps_at(const struct hwscale_size *z, double n)
{
    size_t m = z->m;
    if (n < z->threads[0] * (1 + 1e-12))
        return z->tps[0] * n / z->threads[0];
    if (n > z->threads[m - 1] * (1 + 1e-12)) {
        double slope = 0;
        if (m >= 2)
            slope = log(z->tps[m - 1] / z->tps[m - 2]) / log(z->threads[m - 1] / z->threads[m - 2]);
        return z->tps[m - 1] * pow(n / z->threads[m - 1], fmin(slope, 0.0));
    }
    for (size_t i = 0; i + 1 < m; i++)
        if (n <= z->threads[i + 1] * (1 + 1e-12)) {
            double t = log(n / z->threads[i]) / log(z->threads[i + 1] / z->threads[i]);
            t = fmin(fmax(t, 0.0), 1.0);
            return exp(log(z->tps[i]) + t * (log(z->tps[i + 1]) - log(z->tps[i])));
        }
    return z->tps[m - 1];
}

/*
 * A per-level statistic (relative CI, latency ratio) of size z at n threads: linear in log n
 * between the levels that have it, held outside; NAN when the size has none.
 */
static double stat_at(const struct hwscale_size *z, const double *y, double n)
{
    double ln = log(n), a, b;
    size_t lo = z->m, hi = z->m;
    if (!y)
        return NAN;
    for (size_t i = 0; i < z->m; i++) {
        if (!isfinite(y[i]))
            continue;
        if (log(z->threads[i]) <= ln)
            lo = i;
        else if (hi == z->m)
            hi = i;
    }
    if (lo == z->m)
        return hi == z->m ? NAN : y[hi];
    if (hi == z->m)
        return y[lo];
    a = log(z->threads[lo]);
    b = log(z->threads[hi]);
    return y[lo] + (ln - a) / (b - a) * (y[hi] - y[lo]);
}

/* Blend statistic y of sizes lo, hi at u with weight w_hi; one side absent: the other. */
static double blend(const struct hwscale_size *sizes, const struct hwscale_level *L, double u,
                    const double *y_lo, const double *y_hi)
{
    double a = stat_at(&sizes[L->lo], y_lo, u * sizes[L->lo].vcpu);
    double b = L->hi == L->lo ? a : stat_at(&sizes[L->hi], y_hi, u * sizes[L->hi].vcpu);
    if (isfinite(a) && isfinite(b))
        return (1 - L->w_hi) * a + L->w_hi * b;
    return isfinite(a) ? a : b;
}

/*
 * One level: steps 1-3 of hwscale.h, with the sizes that cover the level (strict: inside their
 * measured range). Returns the number of covering sizes and whether v lies between two.
 */
static int predict_level(const struct hwscale_size *sizes, size_t n, double vcpu, double threads,
                         int strict, struct hwscale_level *L)
{
    double u = threads / vcpu;
    size_t lo = n, hi = n, far = 0;
    int n_cov = 0;

    L->threads = threads;
    L->w_hi = 0;
    for (size_t s = 0; s < n; s++) {
        double v = sizes[s].vcpu;
        if (sizes[s].threads[sizes[s].m - 1] / v >
            sizes[far].threads[sizes[far].m - 1] / sizes[far].vcpu)
            far = s;
        if (!covers(&sizes[s], u * v, strict))
            continue;
        n_cov++;
        if (v <= vcpu && (lo == n || v > sizes[lo].vcpu))
            lo = s;
        if (v >= vcpu && (hi == n || v < sizes[hi].vcpu))
            hi = s;
    }
    if (n_cov == 0) { /* step 3 */
        const struct hwscale_size *z = &sizes[far];
        L->basis = HWSCALE_BEYOND;
        L->lo = L->hi = far;
        L->slope = 1;
        L->tps = tps_at(z, u * z->vcpu) * vcpu / z->vcpu;
        return 0;
    }
    if (lo < n && hi < n) { /* step 2, inside (or measured) */
        double xl = tps_at(&sizes[lo], u * sizes[lo].vcpu);
        L->lo = lo;
        L->hi = hi;
        if (lo == hi) {
            L->basis = HWSCALE_MEASURED;
            L->slope = NAN;
            L->tps = xl;
        } else {
            double span = log(sizes[hi].vcpu / sizes[lo].vcpu);
            double xh = tps_at(&sizes[hi], u * sizes[hi].vcpu);
            L->basis = HWSCALE_INSIDE;
            L->slope = log(xh / xl) / span;
            L->w_hi = log(vcpu / sizes[lo].vcpu) / span;
            L->tps = xl * pow(vcpu / sizes[lo].vcpu, L->slope);
        }
        return 2;
    }
    if (n_cov == 1) { /* one covering size: per-vCPU scaling */
        size_t s = lo < n ? lo : hi;
        L->basis = HWSCALE_ONE;
        L->lo = L->hi = s;
        L->slope = 1;
        L->tps = tps_at(&sizes[s], u * sizes[s].vcpu) * vcpu / sizes[s].vcpu;
        return 1;
    }
    { /* beyond the covering sizes: the two nearest (in log v) */
        size_t a = n, b = n;
        double xa, xb;
        for (size_t s = 0; s < n; s++) {
            double d;
            if (!covers(&sizes[s], u * sizes[s].vcpu, strict))
                continue;
            d = fabs(log(sizes[s].vcpu / vcpu));
            if (a == n || d < fabs(log(sizes[a].vcpu / vcpu))) {
                b = a;
                a = s;
            } else if (b == n || d < fabs(log(sizes[b].vcpu / vcpu))) {
                b = s;
            }
        }
        xa = tps_at(&sizes[a], u * sizes[a].vcpu);
        xb = tps_at(&sizes[b], u * sizes[b].vcpu);
        L->basis = lo < n ? HWSCALE_ABOVE : HWSCALE_BELOW;
        L->lo = a; /* the shape and the latencies: the nearest; b gives the slope (w_hi 0) */
        L->hi = b;
        L->slope = fmax(log(xb / xa) / log(sizes[b].vcpu / sizes[a].vcpu), 0.0);
        if (L->basis == HWSCALE_ABOVE)
            L->slope = fmin(L->slope, 1.0);
        L->tps = xa * pow(vcpu / sizes[a].vcpu, L->slope);
    }
    return n_cov;
}

int hwscale_predict(const struct hwscale_size *sizes, size_t n, double vcpu, const double *threads,
                    size_t m, double rel95, struct hwscale_level *out, struct hwscale_info *info,
                    char *errmsg, size_t errcap)
{
    struct hwscale_info inf;
    size_t n_lat = HWSCALE_MAX_LAT;

    if (hwscale_check(sizes, n, errmsg, errcap) != 0)
        return -1;
    if (!(vcpu > 0) || !isfinite(vcpu))
        return fail(errmsg, errcap, "vCPU %g is not > 0", vcpu);
    for (size_t i = 0; i < m; i++)
        if (!(threads[i] > 0) || !isfinite(threads[i]))
            return fail(errmsg, errcap, "level %zu: threads %g not > 0", i + 1, threads[i]);
    memset(&inf, 0, sizeof inf);
    inf.vcpu = vcpu;
    inf.rel95 = rel95 >= 0 ? rel95 : (n == 1 ? HWSCALE_ONE_SIZE_REL95 : 0);
    inf.worst = HWSCALE_MEASURED;
    for (size_t s = 0; s < n; s++)
        if (sizes[s].n_lat < n_lat)
            n_lat = sizes[s].n_lat;
    for (size_t i = 0; i < m; i++) {
        struct hwscale_level *L = &out[i];
        double u = threads[i] / vcpu, c;
        const struct hwscale_size *zl, *zh;
        /* sizes measured at this many threads per vCPU first; when fewer than two of them (and
           none on each side), sizes measured only at more threads per vCPU as well */
        if (predict_level(sizes, n, vcpu, threads[i], 1, L) < 2)
            predict_level(sizes, n, vcpu, threads[i], 0, L);
        zl = &sizes[L->lo];
        zh = &sizes[L->hi];
        c = blend(sizes, L, u, zl->rel_ci, zh->rel_ci);
        if (!isfinite(c))
            c = 0;
        L->ci95_tps = L->tps * sqrt(inf.rel95 * inf.rel95 + c * c);
        for (size_t k = 0; k < HWSCALE_MAX_LAT; k++)
            L->lat_ratio[k] =
                k < n_lat ? blend(sizes, L, u, zl->lat_ratio[k], zh->lat_ratio[k]) : NAN;
        inf.peak_tps = fmax(inf.peak_tps, L->tps);
        if (L->lo < 32)
            inf.used |= 1u << L->lo;
        if (L->hi < 32)
            inf.used |= 1u << L->hi;
        if (L->basis > inf.worst)
            inf.worst = L->basis;
    }
    inf.extrapolated = inf.worst >= HWSCALE_BELOW;
    if (info)
        *info = inf;
    return 0;
}

double hwscale_tps_at_latency(const double *threads, const double *tps, const double *lat, size_t m,
                              double target)
{
    double best = NAN;
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(lat[i]))
            continue;
        if (lat[i] <= target && !(best >= tps[i]))
            best = tps[i];
        /* the next level with a latency: the crossing inside the segment */
        size_t j = i + 1;
        while (j < m && !isfinite(lat[j]))
            j++;
        if (j < m && lat[i] <= target && lat[j] > target) {
            double t = (target - lat[i]) / (lat[j] - lat[i]);
            double x = tps[i] + t * (tps[j] - tps[i]);
            if (!(best >= x))
                best = x;
        }
    }
    (void)threads; /* linear in N between levels: the crossing's tps needs only t */
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Quantile p of sorted v[0..n-1], linear between order statistics (Hyndman-Fan type 7). */
static double quantile(const double *v, size_t n, double p)
{
    double k;
    size_t i;
    if (n == 0)
        return NAN;
    k = p * (double)(n - 1);
    i = (size_t)k;
    if (i + 1 >= n)
        return v[n - 1];
    return v[i] + (k - (double)i) * (v[i + 1] - v[i]);
}

static double median_abs(const double *v, size_t n, size_t *worst_at, double *worst)
{
    double *a = malloc((n ? n : 1) * sizeof *a), med;
    size_t k = 0;
    *worst = NAN;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i])) {
            if (!(*worst >= fabs(v[i]))) {
                *worst = fabs(v[i]);
                *worst_at = i;
            }
            if (a)
                a[k++] = fabs(v[i]);
        }
    if (!a || k == 0) {
        free(a);
        return NAN;
    }
    qsort(a, k, sizeof *a, cmp_double);
    med = quantile(a, k, 0.5);
    free(a);
    return med;
}

int hwscale_validate(const struct hwscale_size *sizes, size_t n, int lat_index, double target,
                     struct hwscale_loo *loo, struct hwscale_validation *out, char *errmsg,
                     size_t errcap)
{
    struct hwscale_size *others = NULL;
    struct hwscale_level *lv = NULL;
    double *errs = NULL, *pe = NULL, *te = NULL, *xm = NULL, *lm = NULL, *lp = NULL, *xp = NULL;
    size_t maxm = 0, total = 0, ne = 0;
    int rc = -1;

    memset(out, 0, sizeof *out);
    out->loo = loo;
    out->rel95 = out->peak_median = out->peak_worst = NAN;
    out->target_median = out->target_worst = NAN;
    if (hwscale_check(sizes, n, errmsg, errcap) != 0)
        return -1;
    if (lat_index >= HWSCALE_MAX_LAT)
        return fail(errmsg, errcap, "latency statistic %d out of range", lat_index);
    if (n < 2)
        return 0;
    for (size_t s = 0; s < n; s++) {
        maxm = sizes[s].m > maxm ? sizes[s].m : maxm;
        total += sizes[s].m;
    }
    others = malloc((n - 1) * sizeof *others);
    lv = malloc(maxm * sizeof *lv);
    errs = malloc(total * sizeof *errs);
    pe = malloc(n * sizeof *pe);
    te = malloc(n * sizeof *te);
    xm = malloc(maxm * sizeof *xm);
    xp = malloc(maxm * sizeof *xp);
    lm = malloc(maxm * sizeof *lm);
    lp = malloc(maxm * sizeof *lp);
    if (!others || !lv || !errs || !pe || !te || !xm || !xp || !lm || !lp) {
        fail(errmsg, errcap, "out of memory");
        goto done;
    }
    for (size_t s = 0; s < n; s++) {
        const struct hwscale_size *z = &sizes[s];
        struct hwscale_info inf;
        struct hwscale_loo *L = &loo[s];
        size_t k = 0;
        double pmax = 0;
        for (size_t j = 0; j < n; j++)
            if (j != s)
                others[k++] = sizes[j];
        if (hwscale_predict(others, n - 1, z->vcpu, z->threads, z->m, -1, lv, &inf, errmsg,
                            errcap) != 0)
            goto done;
        memset(L, 0, sizeof *L);
        L->vcpu = z->vcpu;
        for (size_t i = 0; i < z->m; i++) {
            double e = lv[i].tps / z->tps[i] - 1;
            if (lv[i].tps > pmax) {
                pmax = lv[i].tps;
                L->basis = lv[i].basis;
            }
            L->n_extrapolated += lv[i].basis >= HWSCALE_BELOW;
            errs[ne++] = fabs(e);
            L->max_abs_level_error = fmax(L->max_abs_level_error, fabs(e));
            xm[i] = z->tps[i];
            xp[i] = lv[i].tps;
            if (lat_index >= 0) {
                const double *r = (size_t)lat_index < z->n_lat ? z->lat_ratio[lat_index] : NULL;
                lm[i] = r && isfinite(r[i]) ? r[i] * z->threads[i] / z->tps[i] : NAN;
                lp[i] = isfinite(lv[i].lat_ratio[lat_index])
                            ? lv[i].lat_ratio[lat_index] * z->threads[i] / lv[i].tps
                            : NAN;
            }
        }
        L->peak_measured = peak_of(z);
        L->peak_predicted = pmax;
        L->peak_error = pmax / L->peak_measured - 1;
        pe[s] = L->peak_error;
        L->target_measured = L->target_predicted = L->target_error = NAN;
        if (lat_index >= 0) {
            L->target_measured = hwscale_tps_at_latency(z->threads, xm, lm, z->m, target);
            L->target_predicted = hwscale_tps_at_latency(z->threads, xp, lp, z->m, target);
            if (isfinite(L->target_measured) && isfinite(L->target_predicted))
                L->target_error = L->target_predicted / L->target_measured - 1;
        }
        te[s] = L->target_error;
    }
    qsort(errs, ne, sizeof *errs, cmp_double);
    out->n = n;
    out->n_level_errors = ne;
    out->rel95 = quantile(errs, ne, 0.95);
    out->peak_median = median_abs(pe, n, &out->peak_worst_index, &out->peak_worst);
    out->target_median = median_abs(te, n, &out->target_worst_index, &out->target_worst);
    rc = 0;
done:
    free(others);
    free(lv);
    free(errs);
    free(pe);
    free(te);
    free(xm);
    free(xp);
    free(lm);
    free(lp);
    return rc;
}
