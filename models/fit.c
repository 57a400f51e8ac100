/* fit.c - fit the USL, Amdahl and piecewise models to a curve and choose by AICc. */
#include "fit.h"

#include "piecewise.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int fit_kappa_significant(const struct model_fit *f)
{
    const struct model_param *k = &f->par[MODEL_KAPPA];
    return f->kind == MODEL_USL && !k->fixed && isfinite(k->lo) && k->lo > 0;
}

/* The USL fit can describe a peak: kappa > 0 with sigma < 1, or sigma at its bound 1. */
static int usl_has_peak(const struct model_fit *u)
{
    double s = u->par[MODEL_SIGMA].value, k = u->par[MODEL_KAPPA].value;
    return (k > 0 && s < 1) || (u->par[MODEL_SIGMA].fixed && s >= 1);
}

int fit_curve(const double *n, const double *x, size_t npts, int model, struct usl_workspace *ws,
              struct fit_result *out, char *errmsg, size_t errcap)
{
    struct fit_options o = {model, 0};
    return fit_curve_opt(n, x, npts, &o, ws, out, errmsg, errcap);
}

/* The asked model is known and the points can be fitted (at least 2, each valid): MODEL_OK,
 * else MODEL_EINVAL with the reason in errmsg. */
static int check_request(int model, const double *n, const double *x, size_t npts, char *errmsg,
                         size_t errcap)
{
    if (model != FIT_AUTO && model != MODEL_USL && model != MODEL_AMDAHL &&
        model != MODEL_PIECEWISE) {
        if (errmsg)
            snprintf(errmsg, errcap, "unknown model %d", model);
        return MODEL_EINVAL;
    }
    if (npts < 2) {
        if (errmsg)
            snprintf(errmsg, errcap, "%zu point%s: a curve needs at least 2 points", npts,
                     npts == 1 ? "" : "s");
        return MODEL_EINVAL;
    }
    if (model_check_points(n, x, npts, errmsg, errcap) != MODEL_OK)
        return MODEL_EINVAL;
    return MODEL_OK;
}

/* Fit every model want[] names into out->fits (fitted[] set, or fit_err[] saying why not; fewer
 * than 3 distinct x mark a fit MODEL_WARN_FEW_DISTINCT). MODEL_OK, or MODEL_ENOMEM. */
static int fit_wanted(const double *n, const double *x, size_t npts, const int want[3],
                      size_t distinct, struct usl_workspace *ws, struct fit_result *out,
                      char *errmsg, size_t errcap)
{
    int rc;
    for (int k = 0; k < 3; k++) {
        char msg[160] = "";
        if (!want[k])
            continue;
        if (k == MODEL_PIECEWISE) {
            rc = piecewise_fit(n, x, npts, &out->fits[k], msg, sizeof msg);
        } else {
            struct usl_options o = usl_options_default();
            o.amdahl = k == MODEL_AMDAHL;
            rc = usl_fit(n, x, npts, &o, ws, &out->fits[k], msg, sizeof msg);
        }
        if (rc == MODEL_ENOMEM) {
            if (errmsg)
                snprintf(errmsg, errcap, "out of memory");
            return rc;
        }
        if (rc == MODEL_OK) {
            out->fitted[k] = 1;
            if (distinct < 3)
                out->fits[k].warnings |= MODEL_WARN_FEW_DISTINCT;
        } else {
            snprintf(out->fit_err[k], sizeof out->fit_err[k], "%s", msg);
        }
    }
    return MODEL_OK;
}

/* The automatic choice over the fitted models when the points show no peak: the saturating
 * model (the USL only when kappa is significant and AICc prefers it, else Amdahl), or the
 * piecewise model when its AICc is lower. Sets out->chosen and out->reason; MODEL_OK, or
 * MODEL_ENOCONV when nothing was fitted. */
static int choose_by_aicc(struct fit_result *out, char *errmsg, size_t errcap)
{
    int sat = -1;
    const char *why_sat = "";
    if (out->fitted[MODEL_AMDAHL])
        sat = MODEL_AMDAHL;
    if (out->fitted[MODEL_USL]) {
        const struct model_fit *u = &out->fits[MODEL_USL];
        if (sat < 0 && out->kappa_significant) {
            sat = MODEL_USL;
        } else if (sat >= 0 && out->kappa_significant && u->aicc < out->fits[sat].aicc) {
            sat = MODEL_USL;
            why_sat = "kappa significant and lower AICc than Amdahl";
        } else if (sat >= 0) {
            why_sat = out->kappa_significant ? "USL has higher AICc than Amdahl"
                                             : "kappa not significant";
        }
    }
    if (sat < 0 && !out->fitted[MODEL_PIECEWISE]) {
        if (errmsg)
            snprintf(errmsg, errcap, "no model could be fitted: %s", out->fit_err[MODEL_USL]);
        return MODEL_ENOCONV;
    }
    if (sat < 0) {
        out->chosen = MODEL_PIECEWISE;
        snprintf(out->reason, sizeof out->reason, "the only model fitted");
    } else if (out->fitted[MODEL_PIECEWISE] &&
               out->fits[MODEL_PIECEWISE].aicc < out->fits[sat].aicc) {
        out->chosen = MODEL_PIECEWISE;
        snprintf(out->reason, sizeof out->reason, "lowest AICc (%s %.1f > piecewise %.1f)",
                 model_kind_name((enum model_kind)sat), out->fits[sat].aicc,
                 out->fits[MODEL_PIECEWISE].aicc);
    } else {
        out->chosen = (enum model_kind)sat;
        snprintf(out->reason, sizeof out->reason, "lowest AICc%s%s", *why_sat ? "; " : "", why_sat);
    }
    return MODEL_OK;
}

int fit_curve_opt(const double *n, const double *x, size_t npts, const struct fit_options *opt,
                  struct usl_workspace *ws, struct fit_result *out, char *errmsg, size_t errcap)
{
    int model = opt ? opt->model : FIT_AUTO, peak_seen = opt ? opt->peak_seen : 0;
    size_t distinct;
    int want[3] = {0, 0, 0}, rc;

    memset(out, 0, sizeof *out);
    if ((rc = check_request(model, n, x, npts, errmsg, errcap)) != MODEL_OK)
        return rc;
    distinct = model_count_distinct(n, npts);
    if (model == FIT_AUTO)
        want[MODEL_USL] = want[MODEL_AMDAHL] = want[MODEL_PIECEWISE] = 1;
    else
        want[model] = 1;
    if (distinct < 3) {
        for (int k = 0; k < 2; k++)
            if (want[k])
                snprintf(out->fit_err[k], sizeof out->fit_err[k],
                         "%zu distinct x values: needs at least 3", distinct);
        want[MODEL_USL] = want[MODEL_AMDAHL] = 0;
        want[MODEL_PIECEWISE] = 1;
    }
    if ((rc = fit_wanted(n, x, npts, want, distinct, ws, out, errmsg, errcap)) != MODEL_OK)
        return rc;
    out->kappa_significant = out->fitted[MODEL_USL] && fit_kappa_significant(&out->fits[MODEL_USL]);

    if (model != FIT_AUTO && distinct >= 3) {
        if (!out->fitted[model]) {
            if (errmsg)
                snprintf(errmsg, errcap, "%s: %s", model_kind_name((enum model_kind)model),
                         out->fit_err[model]);
            return MODEL_ENOCONV;
        }
        out->chosen = (enum model_kind)model;
        snprintf(out->reason, sizeof out->reason, "asked for");
        if (peak_seen && model == MODEL_USL && usl_has_peak(&out->fits[MODEL_USL]))
            out->fits[MODEL_USL].peak_in_data = 1;
        return MODEL_OK;
    }
    if (distinct < 3) {
        if (!out->fitted[MODEL_PIECEWISE]) {
            if (errmsg)
                snprintf(errmsg, errcap, "piecewise: %s", out->fit_err[MODEL_PIECEWISE]);
            return MODEL_ENOCONV;
        }
        out->chosen = MODEL_PIECEWISE;
        snprintf(out->reason, sizeof out->reason,
                 "only %zu distinct x values: the USL and Amdahl need at least 3", distinct);
        return MODEL_OK;
    }
    if (peak_seen && out->fitted[MODEL_USL] && usl_has_peak(&out->fits[MODEL_USL])) {
        out->chosen = MODEL_USL;
        out->by_shape = 1;
        out->fits[MODEL_USL].peak_in_data = 1;
        snprintf(out->reason, sizeof out->reason,
                 "the points fall beyond their noise after the best level: a peak exists, and "
                 "only the USL has one");
        return MODEL_OK;
    }
    return choose_by_aicc(out, errmsg, errcap);
}

int fit_check_levels(const struct model_fit *f, const double *n, const double *x,
                     const double *half95, size_t m, struct fit_check *out)
{
    double worst_q = -1;
    size_t run = 0;
    int sign = 0;
    memset(out, 0, sizeof *out);
    if (m == 0)
        return -1;
    for (size_t i = 0; i < m; i++) {
        double e = shape_noise(x[i], half95 ? half95[i] : NAN), fx = model_eval(f, n[i]);
        double r = x[i] - fx, q;
        int sg;
        if (!isfinite(fx))
            return -1;
        q = fabs(r) / e;
        if (q > worst_q) {
            worst_q = q;
            out->worst = i;
            out->worst_resid = r;
            out->worst_rel = r / x[i];
            out->worst_bound_rel = e / x[i];
        }
        if (fabs(r) / x[i] > out->max_rel)
            out->max_rel = fabs(r) / x[i];
        /* runs of one sign beyond half the bound */
        sg = fabs(r) > e / 2 ? (r > 0 ? 1 : -1) : 0;
        if (sg != 0 && sg == sign) {
            run++;
        } else {
            run = sg != 0;
            sign = sg;
        }
        if (run >= FIT_RUN_LEVELS && run > out->run_len) {
            out->pattern = 1;
            out->run_len = run;
            out->run_from = i + 1 - run;
        }
    }
    out->describes = worst_q <= 1 && !out->pattern;
    return 0;
}
