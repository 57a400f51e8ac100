/* fit_record.c - the sizeup.fit/1 JSON writer. */
#include "fit_record.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Set key to a real when finite (absent values are omitted). */
static void set_real(json_t *o, const char *key, double v)
{
    if (isfinite(v))
        json_object_set_new(o, key, json_real(v));
}

static json_t *value_json(const struct derived_value *v)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    set_real(o, "value", v->value);
    if (isfinite(v->lo) && isfinite(v->hi))
        json_object_set_new(o, "ci95", json_pack("[ff]", v->lo, v->hi));
    else if (isfinite(v->lo) && isinf(v->hi))
        json_object_set_new(o, "ci95", json_pack("[fn]", v->lo)); /* unbounded above */
    return o;
}

static json_t *param_json(const struct model_param *p)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    set_real(o, "value", p->value);
    if (!p->fixed) {
        set_real(o, "se", p->se);
        if (isfinite(p->lo) && isfinite(p->hi))
            json_object_set_new(o, "ci95", json_pack("[ff]", p->lo, p->hi));
    }
    json_object_set_new(o, "at_bound", json_boolean(p->fixed));
    return o;
}

static json_t *params_json(const struct model_fit *f)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "lambda", param_json(&f->par[MODEL_LAMBDA]));
    if (f->kind == MODEL_PIECEWISE) {
        json_object_set_new(o, "x_max", param_json(&f->par[MODEL_XM]));
    } else {
        json_object_set_new(o, "sigma", param_json(&f->par[MODEL_SIGMA]));
        if (f->kind == MODEL_USL)
            json_object_set_new(o, "kappa", param_json(&f->par[MODEL_KAPPA]));
    }
    return o;
}

static json_t *derived_json(const struct model_derived *d)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    if (d->has_peak) {
        json_t *pk = json_object();
        json_object_set_new(pk, "x", value_json(&d->n_peak));
        json_object_set_new(pk, "y", value_json(&d->x_peak));
        json_object_set_new(pk, "beyond_data", json_boolean(d->peak_beyond));
        json_object_set_new(o, "peak", pk);
    }
    json_object_set_new(o, "plateau", json_boolean(d->plateau));
    json_object_set_new(o, "falling", json_boolean(d->falling));
    if (isfinite(d->ceiling.value))
        json_object_set_new(o, "ceiling", value_json(&d->ceiling));
    if (isfinite(d->knee.value))
        json_object_set_new(o, "knee", value_json(&d->knee));
    json_object_set_new(o, "regime", json_string(derived_regime_name(d->regime)));
    return o;
}

static json_t *curve_json(const struct curve *c)
{
    json_t *o = json_object(), *pk;
    char buf[512];
    if (!o)
        return NULL;
    json_object_set_new(o, "points", json_integer((json_int_t)c->n_obs));
    json_object_set_new(o, "levels", json_integer((json_int_t)c->m));
    json_object_set_new(o, "x_range", json_pack("[ff]", c->lv[0].n, c->lv[c->m - 1].n));
    json_object_set_new(o, "shape", json_string(shape_class_name(c->shape.cls)));
    json_object_set_new(o, "shape_text", json_string(curve_shape_text(c, buf, sizeof buf)));
    json_object_set_new(o, "superlinear_start", json_boolean(c->shape.superlinear_start));
    if (c->shape.superlinear_start)
        json_object_set_new(o, "start_text", json_string(curve_start_text(c, buf, sizeof buf)));
    if (c->shape.cls == SHAPE_COLLAPSE) {
        const struct curve_level *a = &c->lv[c->shape.collapse_at], *b = a + 1;
        json_object_set_new(
            o, "collapse",
            json_pack("{sfsfsfsf}", "from", a->n, "to", b->n, "tps_from", a->x, "tps_to", b->x));
    }
    json_object_set_new(
        o, "best", json_pack("{sfsf}", "x", c->lv[c->shape.best].n, "y", c->lv[c->shape.best].x));
    json_object_set_new(o, "fitted_range",
                        c->fitted ? json_pack("[ff]", c->lv[c->fit_lo].n, c->lv[c->fit_hi].n)
                                  : json_null());
    json_object_set_new(o, "model_used", json_boolean(c->use_model));
    json_object_set_new(o, "model_text", json_string(curve_model_text(c, buf, sizeof buf)));
    if (c->fitted) {
        json_object_set_new(o, "worst_residual",
                            json_pack("{sfsfsf}", "x", c->lv[c->check.worst].n, "rel",
                                      c->check.worst_rel, "bound_rel", c->check.worst_bound_rel));
        json_object_set_new(o, "pattern", json_boolean(c->check.pattern));
    }
    if (c->peak.has) {
        pk = json_object();
        set_real(pk, "x", c->peak.n.value);
        json_object_set_new(pk, "y", value_json(&c->peak.x));
        json_object_set_new(pk, "basis", json_string(c->peak.from_model ? "model" : "measured"));
        json_object_set_new(pk, "below_range", json_boolean(c->peak.below_range));
        json_object_set_new(o, "peak", pk);
    } else {
        json_object_set_new(o, "peak", json_null());
    }
    return o;
}

/* The chosen model's candidates: each one fitted (aicc, sse, r2) or its error; a new array. */
static json_t *candidates_json(const struct fit_result *fr)
{
    json_t *a = json_array();
    for (int k = 0; k < 3; k++) {
        json_t *c = json_object();
        json_object_set_new(c, "model", json_string(model_kind_name((enum model_kind)k)));
        if (fr->fitted[k]) {
            set_real(c, "aicc", fr->fits[k].aicc);
            set_real(c, "sse", fr->fits[k].sse);
            set_real(c, "r2", fr->fits[k].r2);
            if (k == MODEL_USL)
                json_object_set_new(c, "kappa_significant", json_boolean(fr->kappa_significant));
        } else if (fr->fit_err[k][0]) {
            json_object_set_new(c, "error", json_string(fr->fit_err[k]));
        } else {
            json_decref(c);
            continue;
        }
        json_array_append_new(a, c);
    }
    return a;
}

/* The fitted model's keys of a record, "model" to "warnings", added to o in the record's order. */
static void model_keys(json_t *o, const struct fit_record *r, const struct fit_result *fr,
                       const struct model_fit *f)
{
    json_t *a;
    json_object_set_new(o, "model", json_string(model_kind_name(fr->chosen)));
    json_object_set_new(o, "selection",
                        json_pack("{ssss}", "asked", r->asked, "reason", fr->reason));
    json_object_set_new(o, "n_points", json_integer((json_int_t)f->n));
    json_object_set_new(o, "n_distinct", json_integer((json_int_t)f->n_distinct));
    json_object_set_new(o, "x_range", json_pack("[ff]", f->n_min, f->n_max));
    json_object_set_new(o, "dof", json_integer(f->dof));
    json_object_set_new(o, "params", params_json(f));
    set_real(o, "sse", f->sse);
    set_real(o, "rse", f->rse);
    set_real(o, "rmse", sqrt(f->sse / (double)f->n));
    set_real(o, "r2", f->r2);
    set_real(o, "aicc", f->aicc);
    {
        json_t *s = json_object();
        json_object_set_new(s, "status", json_string(gsl_strerror(f->status)));
        json_object_set_new(s, "iterations", json_integer((json_int_t)f->iterations));
        json_object_set_new(s, "faces_tried", json_integer((json_int_t)f->faces_tried));
        set_real(s, "rcond", f->rcond);
        json_object_set_new(o, "solver", s);
    }
    json_object_set_new(o, "derived", derived_json(&r->derived));
    if (r->bootstrapped)
        json_object_set_new(o, "intervals",
                            json_pack("{sssIsIsIsI}", "method", "bootstrap", "replicates",
                                      (json_int_t)r->boot.replicates, "refitted",
                                      (json_int_t)r->boot.refitted, "seed", (json_int_t)r->seed,
                                      "no_peak", (json_int_t)r->boot.no_peak));
    else
        json_object_set_new(o, "intervals", json_pack("{ss}", "method", "delta"));
    json_object_set_new(o, "candidates", candidates_json(fr));
    a = json_array();
    for (size_t i = 0; i < f->n_resid; i++) {
        double fitted = model_eval(f, f->resid_n[i]);
        json_array_append_new(a,
                              json_pack("{sfsfsfsf}", "x", f->resid_n[i], "y", fitted + f->resid[i],
                                        "fitted", fitted, "resid", f->resid[i]));
    }
    json_object_set_new(o, "residuals", a);
    a = json_array();
    for (unsigned b = 1; b <= MODEL_WARN_SIGMA_ONE; b <<= 1)
        if (f->warnings & b)
            json_array_append_new(a, json_string(model_warning_text(b)));
    if (r->derived.peak_beyond)
        json_array_append_new(a, json_string(model_warning_text(MODEL_WARN_PEAK_BEYOND)));
    json_object_set_new(o, "warnings", a);
}

/* The record's "predictions": X(N) and the latency at each --predict N; a new array. */
static json_t *predictions_json(const struct fit_record *r)
{
    char key[32], key2[48];
    json_t *a = json_array();
    snprintf(key, sizeof key, "p%g_ms", r->pctl);
    snprintf(key2, sizeof key2, "p%g_extrapolated", r->pctl);
    for (size_t i = 0; i < r->n_pred; i++) {
        const struct fit_record_prediction *p = &r->pred[i];
        json_t *e = json_object();
        char note[200];
        set_real(e, "x", p->n);
        json_object_set_new(e, "y", value_json(&p->v.x));
        json_object_set_new(
            e, "basis",
            json_string(p->v.basis == CURVE_BASIS_NONE ? "none" : curve_basis_name(p->v.basis)));
        json_object_set_new(e, "source", json_string(p->v.from_model ? "model" : "measured curve"));
        if (p->v.beyond > 1)
            json_object_set_new(e, "beyond_largest", json_real(p->v.beyond));
        if (fit_record_prediction_note(r, p, note, sizeof note)[0])
            json_object_set_new(e, "note", json_string(note));
        if (isfinite(p->r_s.value)) {
            struct derived_value ms = {p->r_s.value * 1e3, p->r_s.lo * 1e3, p->r_s.hi * 1e3};
            json_object_set_new(e, "latency_ms", value_json(&ms));
        }
        if (r->pctl > 0 && isfinite(p->pctl_ms)) {
            set_real(e, key, p->pctl_ms);
            json_object_set_new(e, key2, json_boolean(p->pctl_extrapolated));
        }
        json_object_set_new(e, "extrapolated",
                            json_boolean(p->v.basis == CURVE_BASIS_EXTRAPOLATED));
        json_array_append_new(a, e);
    }
    return a;
}

/* The record's "latency_target": the mean latency target and the curve's answer there. */
static json_t *latency_target_json(const struct fit_record *r)
{
    static const char *const st[] = {"met", "never", "no-latency", "outside"};
    const struct curve_at *at = &r->at_target;
    json_t *t = json_object();
    set_real(t, "mean_ms", r->target_s * 1e3);
    json_object_set_new(t, "status", json_string(st[at->status]));
    if (at->status == CURVE_MET) {
        set_real(t, "x", at->n);
        json_object_set_new(t, "y", value_json(&at->x));
        json_object_set_new(t, "basis", json_string(curve_basis_name(at->x_basis)));
        json_object_set_new(t, "binds", json_string(curve_binds_name(at->binds)));
        json_object_set_new(t, "extrapolated",
                            json_boolean(at->x_basis == CURVE_BASIS_EXTRAPOLATED));
    }
    return t;
}

json_t *fit_record_to_json(const struct fit_record *r)
{
    const struct fit_result *fr = r->result;
    const struct model_fit *f = fr ? &fr->fits[fr->chosen] : NULL;
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "schema", json_string(FIT_RECORD_SCHEMA));
    json_object_set_new(o, "target", json_string(r->target));
    json_object_set_new(o, "workload", json_string(r->workload));
    json_object_set_new(o, "config", r->config ? json_string(r->config) : json_null());
    json_object_set_new(o, "x", json_string(r->x_name));
    json_object_set_new(o, "y", json_string(r->y_name));
    if (r->curve)
        json_object_set_new(o, "curve", curve_json(r->curve));
    if (!f)
        json_object_set_new(o, "model", json_null());
    else
        model_keys(o, r, fr, f);
    json_object_set_new(o, "think_time_s", json_real(r->think_time_s));
    if (r->n_pred)
        json_object_set_new(o, "predictions", predictions_json(r));
    if (r->has_target)
        json_object_set_new(o, "latency_target", latency_target_json(r));
    return o;
}

int fit_record_write(FILE *f, const struct fit_record *r, char *errmsg, size_t errcap)
{
    json_t *o = fit_record_to_json(r);
    char *line;
    size_t len;
    int rc = 0;
    if (!o) {
        snprintf(errmsg, errcap, "out of memory");
        return -1;
    }
    line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(o);
    if (!line) {
        snprintf(errmsg, errcap, "out of memory");
        return -1;
    }
    len = strlen(line);
    line[len] = '\n'; /* json_dumps leaves room for the terminator only: rewrite it */
    if (fwrite(line, 1, len + 1, f) != len + 1 || fflush(f) != 0) {
        snprintf(errmsg, errcap, "write failed: %s", strerror(errno));
        rc = -1;
    }
    free(line);
    return rc;
}

const char *fit_record_prediction_note(const struct fit_record *r,
                                       const struct fit_record_prediction *p, char *buf, size_t cap)
{
    const struct curve *c = r->curve;
    buf[0] = '\0';
    if (!c)
        return buf;
    if (p->v.basis == CURVE_BASIS_NONE)
        snprintf(buf, cap, "no answer: %s beyond the measured range",
                 c->fitted ? "no model describes the points" : "no model could be fitted");
    else if (p->v.beyond > 1 && p->unsaturated)
        snprintf(buf, cap,
                 "%.3g x the largest measured %s (%g): the model has not seen saturation, so the "
                 "growth past 2 x is an assumption",
                 p->v.beyond, r->x_name, c->lv[c->m - 1].n);
    else if (p->v.beyond > 1)
        snprintf(buf, cap, "%.3g x the largest measured %s (%g)", p->v.beyond, r->x_name,
                 c->lv[c->m - 1].n);
    else if (p->v.beyond < 1)
        snprintf(buf, cap, "%.3g x the smallest measured %s (%g)", p->v.beyond, r->x_name,
                 c->lv[0].n);
    else if (p->v.basis == CURVE_BASIS_INTERPOLATED && !p->v.from_model)
        snprintf(buf, cap, "the measured curve (no model used)");
    return buf;
}
