/* noise.c - run-to-run noise pooled over replicates of a curve's levels (see noise.h). */
#include "noise.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

static double t975(double df)
{
    double lo = 0, hi = 1e15;
    if (!(df > 0) || df >= NOISE_DF_LARGE)
        return gsl_cdf_ugaussian_Pinv(0.975);
    if (df >= 1)
        return gsl_cdf_tdist_Pinv(0.975, df);
    /* below 1 df (Satterthwaite's df can be) GSL's inverse does not converge (it aborts):
     * bisection on the upper tail, Q(t) = 0.025, in log space (t grows fast as df -> 0) */
    lo = 1;
    for (int i = 0; i < 200 && hi / lo > 1 + 1e-12; i++) {
        double mid = sqrt(lo * hi);
        if (gsl_cdf_tdist_Q(mid, df) > 0.025)
            lo = mid;
        else
            hi = mid;
    }
    return sqrt(lo * hi);
}

static double obs_df(const struct noise_obs *o)
{
    return isfinite(o->se_df) && o->se_df > 0 ? o->se_df : NOISE_DF_LARGE;
}

static int same_level(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(a);
}

struct ix {
    double n;
    size_t i;
};

static int cmp_ix(const void *a, const void *b)
{
    const struct ix *p = a, *q = b;
    if (p->n != q->n)
        return (p->n > q->n) - (p->n < q->n);
    return (p->i > q->i) - (p->i < q->i);
}

static int obs_ok(const struct noise_obs *o)
{
    return isfinite(o->n) && o->n > 0 && isfinite(o->x) && o->x > 0 && !(o->se < 0);
}

/* A replicated level's sums for the pool: its replicates' squared relative deviations from
 * their mean, their within-run relative variances and degrees of freedom. */
struct lvsum {
    double ss, df, w2, wdf;
    size_t reps, known;
    int out; /* 1: left out of the pool (noise_outlier_f) */
};

double noise_outlier_f(double df_level, double df_rest, size_t levels)
{
    if (!(df_level > 0) || !(df_rest > 0) || levels < 1)
        return NAN;
    return gsl_cdf_fdist_Qinv(NOISE_OUTLIER_ALPHA / (double)levels, df_level, df_rest);
}

/* Leave out, one at a time, the level whose replicates disagree most when its relative variance
 * exceeds the rest's beyond noise_outlier_f (noise.h); at least two levels stay. */
static size_t leave_out_outliers(struct lvsum *L, size_t k)
{
    size_t left = 0;
    for (;;) {
        double ss = 0, df = 0, best = -1;
        size_t in = 0, w = 0;
        for (size_t i = 0; i < k; i++)
            if (!L[i].out) {
                ss += L[i].ss;
                df += L[i].df;
                in++;
                if (L[i].ss / L[i].df > best) {
                    best = L[i].ss / L[i].df;
                    w = i;
                }
            }
        if (in < 3)
            return left;
        {
            double rest_df = df - L[w].df, rest = (ss - L[w].ss) / rest_df;
            /* the rest must show some spread of its own: against a spread of 0 (copies, or
             * rounded figures) every level would look like an outlier */
            if (!(rest > 0) || rest_df < 2 ||
                !(best / rest > noise_outlier_f(L[w].df, rest_df, in)))
                return left;
        }
        L[w].out = 1;
        left++;
    }
}

int noise_pool(const struct noise_obs *o, size_t m, struct noise_pool *out)
{
    struct ix *ix;
    struct lvsum *L;
    double ss = 0, w2 = 0, wdf = 0;
    size_t known = 0, k = 0;
    if (!out || (m > 0 && !o))
        return NOISE_EINVAL;
    out->levels = out->reps = out->excluded = 0;
    out->nu = 0;
    out->cv = out->within_cv = out->between_cv = NAN;
    out->within_df = 0;
    out->within_known = 0;
    for (size_t i = 0; i < m; i++)
        if (!obs_ok(&o[i]))
            return NOISE_EINVAL;
    if (m < 2)
        return NOISE_OK;
    ix = malloc(m * sizeof *ix);
    L = calloc(m, sizeof *L);
    if (!ix || !L) {
        free(ix);
        free(L);
        return NOISE_ENOMEM;
    }
    for (size_t i = 0; i < m; i++) {
        ix[i].n = o[i].n;
        ix[i].i = i;
    }
    qsort(ix, m, sizeof *ix, cmp_ix);
    for (size_t a = 0; a < m;) {
        size_t b = a + 1;
        double mean = o[ix[a].i].x;
        while (b < m && same_level(ix[a].n, ix[b].n))
            mean += o[ix[b++].i].x;
        if (b - a >= 2) {
            struct lvsum *v = &L[k++];
            mean /= (double)(b - a);
            v->reps = b - a;
            v->df = (double)(b - a - 1);
            for (size_t q = a; q < b; q++) {
                const struct noise_obs *r = &o[ix[q].i];
                double d = r->x / mean - 1;
                v->ss += d * d;
                if (isfinite(r->se)) {
                    v->w2 += (r->se / mean) * (r->se / mean);
                    v->wdf += obs_df(r);
                    v->known++;
                }
            }
        }
        a = b;
    }
    free(ix);
    out->excluded = leave_out_outliers(L, k);
    for (size_t i = 0; i < k; i++) {
        if (L[i].out)
            continue;
        out->levels++;
        out->reps += L[i].reps;
        out->nu += L[i].df;
        ss += L[i].ss;
        w2 += L[i].w2;
        wdf += L[i].wdf;
        known += L[i].known;
    }
    free(L);
    if (out->nu > 0 && ss == 0) {
        /* replicates that agree exactly (copies of one run, or figures rounded alike) show no
         * noise, not a noise of 0: nothing is pooled, and the levels fall back to what their
         * own runs say (noise.h) */
        out->levels = out->reps = 0;
        out->nu = 0;
    }
    if (out->nu == 0)
        return NOISE_OK;
    out->cv = sqrt(ss / out->nu);
    out->within_known = known == out->reps;
    out->within_cv = out->within_known ? sqrt(w2 / (double)known) : 0;
    out->within_df = out->within_known ? wdf : 0;
    out->between_cv = sqrt(fmax(0, out->cv * out->cv - out->within_cv * out->within_cv));
    return NOISE_OK;
}

/* Relative standard error and df of the mean of r replicates with mean within-run relative
 * variance wbar2 (nu_w within degrees of freedom in all), at the pool's noise (noise.h). */
static void combine(const struct noise_pool *p, double wbar2, double nu_w, size_t r, double *rel_sd,
                    double *df)
{
    int pooled = p && p->nu > 0;
    double sb2 = pooled ? p->between_cv * p->between_cv : 0;
    double total = sb2 + wbar2, num = total, den = 0;
    if (pooled) { /* the between part is s^2 - w^2: it varies as both do; s^2 is judged at
                   * no less than w^2 (noise.h: a between part estimated near 0 is as unsure as
                   * the within part it must be told apart from) */
        double s2 = p->cv * p->cv, w2 = p->within_cv * p->within_cv, s2e = fmax(s2, w2);
        den += s2e * s2e / p->nu;
        /* no within part below the pool's while the pool cannot tell how much of its spread
         * is between runs (noise.h: v_i); continuous in sigma_b */
        total = fmax(total, s2e);
        num = total;
        if (w2 > 0 && p->within_df > 0)
            den += w2 * w2 / p->within_df;
    }
    if (wbar2 > 0)
        den += wbar2 * wbar2 / nu_w;
    *rel_sd = sqrt(total / (double)r);
    if (den > 0)
        *df = num * num / den;
    else /* no variance at all: the pool's df (or the within-run one) */
        *df = pooled ? p->nu : nu_w;
    if (*df > NOISE_DF_LARGE)
        *df = NOISE_DF_LARGE;
}

int noise_level(const struct noise_pool *p, const struct noise_obs *o, size_t r,
                struct noise_level *out)
{
    double sum = 0, w2 = 0, nu_w = 0;
    size_t known = 0;
    if (!o || !out || r == 0)
        return NOISE_EINVAL;
    for (size_t j = 0; j < r; j++) {
        if (!(isfinite(o[j].x) && o[j].x > 0) || o[j].se < 0)
            return NOISE_EINVAL;
        sum += o[j].x;
    }
    out->n = o[0].n;
    out->reps = r;
    out->own = 0;
    out->mean = sum / (double)r;
    for (size_t j = 0; j < r; j++)
        if (isfinite(o[j].se)) {
            w2 += (o[j].se / out->mean) * (o[j].se / out->mean);
            nu_w += obs_df(&o[j]);
            known++;
        }
    out->wbar2 = w2 / (double)r; /* unknown ones count as 0 */
    if (nu_w <= 0)
        nu_w = NOISE_DF_LARGE;
    if (p && p->nu > 0)
        out->method = NOISE_POOLED;
    else if (known > 0)
        out->method = NOISE_WITHIN;
    else
        out->method = NOISE_NONE;
    if (out->method == NOISE_NONE) {
        out->rel_sd = out->df = out->half95 = NAN;
        return NOISE_OK;
    }
    combine(out->method == NOISE_POOLED ? p : NULL, out->wbar2, nu_w, r, &out->rel_sd, &out->df);
    if (out->method == NOISE_POOLED && r >= 2) {
        /* a level whose replicates disagree beyond the pool's noise (noise.h: outlier levels)
         * has its own: its relative variance from its r - 1 degrees of freedom */
        double own = 0;
        for (size_t j = 0; j < r; j++)
            own += (o[j].x / out->mean - 1) * (o[j].x / out->mean - 1);
        own /= (double)(r - 1);
        if (own / (p->cv * p->cv) >
                noise_outlier_f((double)(r - 1), p->nu, p->levels + p->excluded) &&
            own / (double)r > out->rel_sd * out->rel_sd) {
            out->rel_sd = sqrt(own / (double)r);
            out->df = (double)(r - 1);
            out->own = 1;
        }
    }
    out->half95 = t975(out->df) * out->mean * out->rel_sd;
    return NOISE_OK;
}

int noise_level_floor(const struct noise_pool *own, const struct noise_pool *floor,
                      const struct noise_obs *o, size_t r, struct noise_level *out)
{
    struct noise_level f;
    int rc = noise_level(own, o, r, out);
    if (rc != NOISE_OK || !floor || floor->nu <= 0)
        return rc;
    rc = noise_level(floor, o, r, &f);
    if (rc != NOISE_OK)
        return rc;
    if (out->method != NOISE_POOLED || !(out->half95 >= f.half95)) {
        *out = f;
        out->method = NOISE_FLOOR;
    }
    return NOISE_OK;
}

double noise_attainable(const struct noise_pool *p, double omega2, double se_df, size_t reps)
{
    double rel_sd, df,
        nu_w = (isfinite(se_df) && se_df > 0 ? se_df : NOISE_DF_LARGE) * (double)reps;
    if (reps == 0 || !(omega2 >= 0) || ((!p || p->nu == 0) && omega2 == 0))
        return NAN;
    combine(p, omega2, nu_w, reps, &rel_sd, &df);
    return t975(df) * rel_sd;
}

size_t noise_reps_needed(const struct noise_pool *p, double omega2, double se_df, double precision,
                         size_t max_reps)
{
    for (size_t r = 1; r <= max_reps; r++) {
        double a = noise_attainable(p, omega2, se_df, r);
        if (isfinite(a) && a <= precision)
            return r;
    }
    return max_reps + 1;
}

double noise_replicate_s(double k_s, double overhead_s, double between_cv)
{
    if (!(k_s > 0) || !(overhead_s >= 0) || !(between_cv >= 0) || !isfinite(k_s) ||
        !isfinite(overhead_s))
        return NAN;
    if (between_cv == 0)
        return INFINITY;
    return sqrt(k_s * overhead_s) / between_cv;
}

const char *noise_method_name(enum noise_method m)
{
    switch (m) {
    case NOISE_POOLED:
        return "pooled between runs";
    case NOISE_FLOOR:
        return "the server's noise floor";
    case NOISE_WITHIN:
        return "within-run only";
    case NOISE_NONE:
        break;
    }
    return "none";
}
