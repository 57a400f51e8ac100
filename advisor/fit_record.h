/*
 * fit_record.h - the sizeup.fit/1 record: one fitted model of one curve, as JSON Lines.
 *
 * JSON layout (keys in this order; absent figures are omitted, never written as 0):
 *   schema      "sizeup.fit/1"
 *   target, workload, config (string or null)
 *   x           "threads" or "nodes"; y: "tps" or "qps"
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
 *   predictions [{"x", "y": {"value","ci95"}, "latency_ms": {"value","ci95"},
 *                 "p<N>_ms": value, "p<N>_extrapolated": bool, "extrapolated": bool}]
 *   latency_target {"mean_ms", "status": "ok"|"unreachable"|"unbounded",
 *                   "x": {"value","ci95"}, "y": {...}, "capped_at_peak", "extrapolated"}
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
#include "derived.h"
#include "fit.h"
#include "latency.h"

#include <jansson.h>
#include <stdio.h>

#define FIT_RECORD_SCHEMA "sizeup.fit/1"

/* One prediction with its percentile latency (pctl_ms NAN when not available). */
struct fit_record_prediction {
    struct derived_prediction p;
    double pctl_ms;
    int pctl_extrapolated;
};

/* Everything one record says; the pointers are borrowed. */
struct fit_record {
    const char *target, *workload, *config; /* config may be NULL */
    const char *x_name;                     /* "threads" or "nodes" */
    const char *y_name;                     /* "tps" or "qps" */
    const char *asked;                      /* "auto" or a model name */
    const struct fit_result *result;
    struct model_derived derived;
    double think_time_s;
    size_t n_pred;
    const struct fit_record_prediction *pred;
    double pctl;    /* percentile of pred[].pctl_ms (e.g. 95); 0 when none */
    int has_target; /* 1: target holds the answer for target_s */
    double target_s;
    struct latency_target at_target;
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

#endif
