/* derived.c - N*, peak, ceiling, knee, regime and predictions with delta-method intervals. */
#include "derived.h"

#include "fit.h"

#include <math.h>
#include <string.h>

const char *derived_regime_name(enum derived_regime r)
{
    switch (r) {
    case DERIVED_LINEAR:
        return "linear";
    case DERIVED_CONTENTION:
        return "contention";
    case DERIVED_COHERENCY:
        return "coherency";
    case DERIVED_CEILING:
        return "ceiling";
    }
    return "?";
}

struct gctx {
    enum model_kind kind;
    double n, think_s;
};

static double g_npeak(const double *par, void *ctx)
{
    (void)ctx;
    return sqrt((1 - par[MODEL_SIGMA]) / par[MODEL_KAPPA]);
}

static double g_xpeak(const double *par, void *ctx)
{
    const struct gctx *c = ctx;
    return model_eval_par(c->kind, par, g_npeak(par, ctx));
}

static double g_ceiling(const double *par, void *ctx)
{
    const struct gctx *c = ctx;
    return c->kind == MODEL_PIECEWISE ? par[MODEL_XM] : par[MODEL_LAMBDA] / par[MODEL_SIGMA];
}

static double g_knee(const double *par, void *ctx)
{
    const struct gctx *c = ctx;
    return c->kind == MODEL_PIECEWISE ? par[MODEL_XM] / par[MODEL_LAMBDA] : 1.0 / par[MODEL_SIGMA];
}

static double g_x(const double *par, void *ctx)
{
    const struct gctx *c = ctx;
    return model_eval_par(c->kind, par, c->n);
}

static double g_r(const double *par, void *ctx)
{
    const struct gctx *c = ctx;
    return c->n / model_eval_par(c->kind, par, c->n) - c->think_s;
}

/* value -/+ t SE by the delta method; clip: lower bound not below 0 */
static struct derived_value with_interval(const struct model_fit *f,
                                          double (*g)(const double *, void *), void *ctx,
                                          double value, int clip)
{
    struct derived_value v;
    double se = model_delta_se(f, g, ctx);
    v.value = value;
    if (isfinite(se) && isfinite(f->t95)) {
        v.lo = value - f->t95 * se;
        v.hi = value + f->t95 * se;
        if (clip && v.lo < 0)
            v.lo = 0;
    } else {
        v.lo = v.hi = NAN;
    }
    return v;
}

static struct derived_value undefined(void)
{
    struct derived_value v = {NAN, NAN, NAN};
    return v;
}

int derived_compute(const struct model_fit *f, struct model_derived *out)
{
    struct gctx c;
    double par[MODEL_MAX_PAR];
    memset(out, 0, sizeof *out);
    out->n_peak = out->x_peak = out->ceiling = out->knee = undefined();
    out->crossover_n = NAN;
    if (!f || !isfinite(f->par[MODEL_LAMBDA].value))
        return MODEL_EINVAL;
    for (int i = 0; i < MODEL_MAX_PAR; i++)
        par[i] = f->par[i].value;
    c.kind = f->kind;
    c.n = 0;
    c.think_s = 0;
    if (f->kind == MODEL_PIECEWISE) {
        out->plateau = 1;
        out->regime = DERIVED_CEILING;
        if (isfinite(par[MODEL_XM])) {
            out->ceiling = with_interval(f, g_ceiling, &c, par[MODEL_XM], 1);
            out->knee = with_interval(f, g_knee, &c, par[MODEL_XM] / par[MODEL_LAMBDA], 1);
        } else {
            out->regime = DERIVED_LINEAR;
        }
        return MODEL_OK;
    }
    {
        double s = par[MODEL_SIGMA], k = f->kind == MODEL_USL ? par[MODEL_KAPPA] : 0.0;
        if (s > 0 && !(f->par[MODEL_SIGMA].fixed && s >= 1)) {
            /* (with sigma at its bound 1 both would only restate lambda and N = 1) */
            out->ceiling = with_interval(f, g_ceiling, &c, par[MODEL_LAMBDA] / s, 1);
            out->knee = with_interval(f, g_knee, &c, 1.0 / s, 1);
        }
        if (k > 0)
            out->crossover_n = s / k;
        if (s == 0 && k == 0)
            out->regime = DERIVED_LINEAR;
        else if (s >= k * f->n_max)
            out->regime = DERIVED_CONTENTION;
        else
            out->regime = DERIVED_COHERENCY;
        if (f->par[MODEL_SIGMA].fixed && s >= 1) {
            out->falling = 1;
            return MODEL_OK;
        }
        if (f->kind == MODEL_USL && (fit_kappa_significant(f) || (f->peak_in_data && k > 0)) &&
            s < 1) {
            double np = sqrt((1 - s) / k);
            out->has_peak = 1;
            out->n_peak = with_interval(f, g_npeak, &c, np, 1);
            out->x_peak = with_interval(f, g_xpeak, &c, model_eval(f, np), 1);
            out->peak_beyond = np > f->n_max;
        } else {
            out->plateau = 1;
        }
    }
    return MODEL_OK;
}

int derived_predict(const struct model_fit *f, double n, double think_s, int latency,
                    struct derived_prediction *out)
{
    struct gctx c;
    double x;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->x = out->r_s = undefined();
    if (!(n > 0) || !(think_s >= 0))
        return MODEL_EINVAL;
    c.kind = f->kind;
    c.n = n;
    c.think_s = think_s;
    x = model_eval(f, n);
    out->x = with_interval(f, g_x, &c, x, 1);
    if (latency)
        out->r_s = with_interval(f, g_r, &c, n / x - think_s, 1);
    out->extrapolated = n < f->n_min || n > f->n_max;
    return MODEL_OK;
}
