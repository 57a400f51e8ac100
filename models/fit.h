/*
 * fit.h - fit every model to one curve and choose one.
 *
 * Selection (docs/reference/models.md §0 item 3 and §4.5): the USL, Amdahl's law and the piecewise
 * bound are fitted; the model with the smallest AICc (Hurvich & Tsai, Biometrika 76, 1989) is
 * chosen, except that the USL is chosen over Amdahl's law only when its extra parameter kappa is
 * significant (its 95 % interval excludes 0, i.e. kappa/SE(kappa) > t(0.975, n-3)) and it
 * has the smaller AICc: the nested model wins when the extra parameter is not significant.
 * The data come first (fit_options.peak_seen): when the points fall beyond their noise after
 * their best level (models/shape.h: peaked, falling) a peak exists, and only the USL has one:
 * it is chosen when its fit has kappa > 0 with sigma < 1, or sigma at its bound 1 (falling
 * from the first point), whatever kappa's interval and AICc say (with 4 points the USL's AICc
 * is not even finite).
 *
 * Whether the chosen model describes the points (fit_check_levels): at every level the
 * residual (mean minus model) lies within the level's noise e_i = max(h_i, 5 % of X_i)
 * (models/shape.h), and no 4 or more consecutive levels have residuals of one sign each beyond
 * half their bound (a pattern: the model misses the curve's trend there). R^2 is not used: on
 * a flat curve it says nothing.
 *
 * Degenerate input: one point, or any N or X not > 0, is an error; fewer than 3 distinct N
 * fits only the piecewise model (with MODEL_WARN_FEW_DISTINCT), whatever model was asked.
 *
 * Thread-safety: touches only its arguments (the workspace belongs to one thread).
 */
#ifndef SIZEUP_MODELS_FIT_H
#define SIZEUP_MODELS_FIT_H

#include "model.h"
#include "shape.h"
#include "usl.h"

#include <stddef.h>

/* Model choice: a model kind, or FIT_AUTO. */
#define FIT_AUTO (-1)

struct fit_result {
    int fitted[3];            /* 1 when fits[kind] holds a fit */
    struct model_fit fits[3]; /* indexed by enum model_kind */
    char fit_err[3][160];     /* why a model could not be fitted ("" when fitted) */
    enum model_kind chosen;   /* the selected model */
    char reason[200];         /* why it was chosen, one sentence */
    int kappa_significant;    /* USL fitted and kappa's 95 % interval excludes 0 */
    int by_shape;             /* 1: chosen because the points show a peak (peak_seen) */
};

/* What to fit and what the data already say. */
struct fit_options {
    int model;     /* FIT_AUTO or an enum model_kind */
    int peak_seen; /* 1: the points fall beyond their noise after their best level */
};

/**
 * 1 when the fit is a USL whose kappa is estimated (not at a bound) and its 95 % interval lies
 * above 0; else 0.
 */
int fit_kappa_significant(const struct model_fit *f);

/**
 * Fit a curve.
 * @param n, x    points: N (threads or nodes) and throughput, finite and > 0; npts >= 2
 * @param model   FIT_AUTO or an enum model_kind to fit (and choose) only that model
 * @param ws      USL workspace to reuse, or NULL
 * @param out     filled on success; out->fits[out->chosen] is the model to use
 * @param errmsg  the reason on error (may be NULL)
 * @return MODEL_OK, MODEL_EINVAL (fewer than 2 points, a point not > 0, an unknown model),
 *         MODEL_ENOCONV (the asked model could not be fitted), MODEL_ENOMEM.
 */
int fit_curve(const double *n, const double *x, size_t npts, int model, struct usl_workspace *ws,
              struct fit_result *out, char *errmsg, size_t errcap);

/**
 * fit_curve with what the data show (fit_options, top of file): with peak_seen and FIT_AUTO the
 * USL is chosen when it can describe a peak (out->by_shape set), and the chosen fit's
 * peak_in_data is set.
 * @param opt  NULL: FIT_AUTO, no peak seen (fit_curve)
 * @return as fit_curve.
 */
int fit_curve_opt(const double *n, const double *x, size_t npts, const struct fit_options *opt,
                  struct usl_workspace *ws, struct fit_result *out, char *errmsg, size_t errcap);

/* How well a model describes a curve's levels (fit_check_levels). */
struct fit_check {
    int describes;          /* 1: every residual within its bound and no pattern */
    size_t worst;           /* level with the largest |residual| / bound */
    double worst_resid;     /* X_i - model(x_i) there, throughput unit */
    double worst_rel;       /* worst_resid / X_i */
    double worst_bound_rel; /* the bound there, e_i / X_i */
    double max_rel;         /* the largest |residual| / X_i over the levels */
    int pattern;            /* 1: a run of >= FIT_RUN_LEVELS one-signed residuals > bound/2 */
    size_t run_from, run_len;
};

/* Consecutive one-signed residuals beyond half their bound that make a pattern. */
#define FIT_RUN_LEVELS 4

/**
 * Check a fit against levels (top of file).
 * @param n, x    level x values and mean throughputs (> 0), m >= 1
 * @param half95  each level's 95 % half-width, NAN unknown; may be NULL
 * @return 0, or -1 when m is 0 or the model is not finite at a level.
 */
int fit_check_levels(const struct model_fit *f, const double *n, const double *x,
                     const double *half95, size_t m, struct fit_check *out);

#endif
