/*
 * fit_record.h - the sizeup.fit/1 record: one fitted model of one curve, as JSON Lines.
 *
 * JSON layout (keys in this order; absent figures are omitted, never written as 0):
 *   schema      "sizeup.fit/1"
 *   target, workload, config (string or null)
 *   x           "threads" or "nodes"; y: "tps" or "qps"
 *   curve       what the points show and how they are used (advisor/curve.h):
 *               {"points", "levels", "x_range", "shape": "rising"|"plateau"|"peaked"|"falling"|
 *                "collapse"|"single level", "shape_text", "superlinear_start": bool,
 *                "start_text" (with a superlinear start), "collapse": {"from", "to", "tps_from",
 *                "tps_to"} (a collapse), "best": {"x", "y"}, "fitted_range": [x, x] | null,
 *                "model_used": bool, "model_text", "worst_residual": {"x", "rel", "bound_rel"},
 *                "pattern": bool, "peak": {"x", "y": {"value", "ci95"}, "basis": "model" |
 *                "measured", "below_range": bool} | null, "excluded": n}
 *               The model fields below describe the fit to the levels of fitted_range.
 *   model       "usl" | "amdahl" | "piecewise"; selection {"asked": "auto"|model, "reason"}
 *   n_points, n_distinct, x_range [min, max], dof
 *   params      {"lambda"|"sigma"|"kappa"|"x_max": {"value", "se", "ci95": [lo, hi],
 *               "at_bound": bool}}  (se and ci95 omitted for a parameter at a bound)
 *   sse, rse, rmse (sqrt(SSE/n)), r2, aicc
 *   solver      {"status": GSL status text, "iterations", "faces_tried", "rcond"}
 *   derived     {"peak": {"x": {"value","ci95"}, "y": {...}, "beyond_data": bool} | absent,
 *                "plateau": bool, "falling": bool, "ceiling": {...}, "knee": {...},
 *                "regime": "linear"|"contention"|"coherency"|"ceiling"}
 *   candidates  [{"model", "aicc", "sse", "r2", "kappa_significant" (usl)} | {"model","error"}]
 *   residuals   [{"x", "y", "fitted", "resid"}] in input order
 *   warnings    [text, ...]
 *   think_time_s
 *   predictions [{"x", "y": {"value","ci95"}, "basis": "measured"|"interpolated"|
 *                 "extrapolated"|"none", "source": "model"|"measured curve",
 *                 "beyond_largest" (x / largest level, when above it), "note" (text),
 *                 "latency_ms": {"value","ci95"}, "p<N>_ms": value, "p<N>_extrapolated": bool,
 *                 "extrapolated": bool}]
 *   latency_target {"mean_ms", "status": "met"|"never"|..., "x", "y": {"value","ci95"},
 *                   "basis", "binds": "latency"|"peak"|"range"|"collapse", "extrapolated"}
 *   intervals   {"method": "delta"} or {"method": "bootstrap", "replicates", "refitted",
 *               "seed", "no_peak"}: how the intervals of "derived" were made
 * Intervals are 95 %: t quantile with the fit's degrees of freedom (models/derived.h), or
 * bootstrap percentiles (models/bootstrap.h); an unbounded end is written as null.
 *
 * Thread-safety: touches only its arguments.
 */
#ifndef SIZEUP_ADVISOR_FIT_RECORD_H
#define SIZEUP_ADVISOR_FIT_RECORD_H

#include "bootstrap.h"
#include "curve.h"
#include "derived.h"
#include "fit.h"
#include "latency.h"

#include <jansson.h>
#include <stdio.h>

#define FIT_RECORD_SCHEMA "sizeup.fit/1"

/* One prediction with its percentile latency (pctl_ms NAN when not available). */
struct fit_record_prediction {
    double n;                 /* x asked */
    struct curve_value v;     /* throughput there (curve_throughput) */
    struct derived_value r_s; /* mean latency N / X - Z, seconds, from v (NAN for nodes) */
    double pctl_ms;
    int pctl_extrapolated;
    int unsaturated; /* 1: past 2 x the largest level of a curve that has not saturated */
};

/* Everything one record says; the pointers are borrowed. */
struct fit_record {
    const char *target, *workload, *config; /* config may be NULL */
    const char *x_name;                     /* "threads" or "nodes" */
    const char *y_name;                     /* "tps" or "qps" */
    const char *asked;                      /* "auto" or a model name */
    const struct curve *curve;              /* the curve (its levels, shape, peak, model use) */
    const struct fit_result *result;        /* NULL when no model could be fitted */
    struct model_derived derived;
    double think_time_s;
    size_t n_pred;
    const struct fit_record_prediction *pred;
    double pctl;    /* percentile of pred[].pctl_ms (e.g. 95); 0 when none */
    int has_target; /* 1: at_target holds the answer for target_s (mean latency) */
    double target_s;
    struct curve_at at_target;
    int bootstrapped;   /* 1: derived peak and ceiling intervals are bootstrap's */
    unsigned long seed; /* its gsl_rng seed */
    struct bootstrap_result boot;
};

/**
 * Build the JSON object of a record.
 * @return a new reference, or NULL when out of memory.
 */
json_t *fit_record_to_json(const struct fit_record *r);

/**
 * Write one record as one JSON line to f and flush. The line is built in memory first and
 * written with one fwrite, so a failure writes nothing.
 * @return 0, or -1 with errmsg set (out of memory, write error with strerror).
 */
int fit_record_write(FILE *f, const struct fit_record *r, char *errmsg, size_t errcap);

/**
 * A prediction's caveat in words ("" without one): how far beyond the measured range it lies,
 * that a model without saturation assumes growth past 2 x the largest level, that there is no
 * answer there, or that the measured curve gives it. Returns buf.
 */
const char *fit_record_prediction_note(const struct fit_record *r,
                                       const struct fit_record_prediction *p, char *buf,
                                       size_t cap);

#endif
