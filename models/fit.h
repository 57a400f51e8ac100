/*
 * fit.h - fit every model to one curve and choose one.
 *
 * Selection (models.md §0 item 3 and §4.5): the USL, Amdahl's law and the piecewise bound are
 * fitted; the model with the smallest AICc (Hurvich & Tsai, Biometrika 76, 1989) is chosen,
 * except that the USL is chosen over Amdahl's law only when its extra parameter kappa is
 * significant (its 95 % interval excludes 0, i.e. kappa/SE(kappa) > t(0.975, n-3)) and it
 * has the smaller AICc: the nested model wins when the extra parameter is not significant.
 *
 * Degenerate input: one point, or any N or X not > 0, is an error; fewer than 3 distinct N
 * fits only the piecewise model (with MODEL_WARN_FEW_DISTINCT), whatever model was asked.
 *
 * Thread-safety: touches only its arguments (the workspace belongs to one thread).
 */
#ifndef SIZEUP_MODELS_FIT_H
#define SIZEUP_MODELS_FIT_H

#include "model.h"
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

#endif
