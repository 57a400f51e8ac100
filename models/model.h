/*
 * model.h - what every saturation model of models/ shares: the fitted-model record, evaluation
 * of X(N), goodness-of-fit statistics and the delta method for derived figures.
 *
 * A curve is n points (N_i, X_i): N is concurrency (client threads) or, for scale-out curves,
 * a node count; X is throughput (transactions or queries per second). The models:
 *
 *   USL        X(N) = lambda*N / (1 + sigma*(N-1) + kappa*N*(N-1))
 *              (N. Gunther, "Guerrilla Capacity Planning", Springer 2007, eq. 4.31)
 *   Amdahl     the USL with kappa = 0: X(N) = lambda*N / (1 + sigma*(N-1))
 *   piecewise  X(N) = min(lambda*N, X_m): the asymptotic bounds of a closed system with zero
 *              think time (exact for M/M/c; docs/reference/models.md §1.4)
 *
 * Parameters live in par[] in a fixed order (MODEL_LAMBDA, MODEL_SIGMA, MODEL_KAPPA for the USL
 * and Amdahl; MODEL_LAMBDA, MODEL_XM for piecewise). A parameter held at a bound (sigma or
 * kappa = 0) or fixed by the caller is reported with fixed = 1 and no standard error.
 *
 * Thread-safety: every function touches only the objects passed to it (model_finish also reads
 * a table of t quantiles that it fills once per process under pthread_once).
 */
#ifndef SIZEUP_MODELS_MODEL_H
#define SIZEUP_MODELS_MODEL_H

#include <stddef.h>

/* Return codes of models/ functions. */
enum {
    MODEL_OK = 0,
    MODEL_EINVAL = -1,    /* input out of range (fewer points than needed, N or X <= 0, NaN) */
    MODEL_ENOCONV = -2,   /* the solver did not converge on any admissible face */
    MODEL_ENOMEM = -3,    /* allocation failed */
    MODEL_EUNDEFINED = -4 /* the asked figure does not exist for this fit (e.g. no peak) */
};

enum model_kind { MODEL_USL = 0, MODEL_AMDAHL = 1, MODEL_PIECEWISE = 2 };

/* Indices into model_fit.par. */
enum { MODEL_LAMBDA = 0, MODEL_SIGMA = 1, MODEL_KAPPA = 2, MODEL_XM = 1 };

/* Most parameters of any model. */
#define MODEL_MAX_PAR 3
/* Most points one fit keeps residuals for (more points are fitted, residuals not kept). */
#define MODEL_MAX_RESID 64

/* Warnings a fit may carry (bit set in model_fit.warnings; model_warning_text names them). */
enum model_warning {
    MODEL_WARN_FEW_DISTINCT = 1 << 0, /* fewer than 3 distinct N: only the piecewise model */
    MODEL_WARN_FEW_POINTS = 1 << 1,   /* fewer than 6 points: intervals are wide */
    MODEL_WARN_SUPERLINEAR = 1 << 2,  /* X/N rises somewhere (X(2) > 2 X(1)): large residuals */
    MODEL_WARN_PEAK_BEYOND = 1 << 3,  /* text only: derived_compute reports it as peak_beyond */
    MODEL_WARN_ILL_COND = 1 << 4,     /* Jacobian nearly singular (reciprocal condition < 1e-12) */
    MODEL_WARN_KNEE_BEYOND = 1 << 5,  /* piecewise: no knee inside the data (linear throughout) */
    MODEL_WARN_NO_DOF = 1 << 6,       /* as many parameters as points: no standard errors */
    MODEL_WARN_KNEE_BEFORE = 1 << 7,  /* piecewise: knee at or below the smallest x (flat or
                                         falling throughout); lambda only bounded below */
    MODEL_WARN_SIGMA_ONE = 1 << 8     /* USL/Amdahl: sigma at its bound 1, throughput falls
                                         from the first point */
};

/* One parameter of a fitted model. */
struct model_param {
    double value; /* estimate */
    double se;    /* standard error; NAN when fixed or when there are no degrees of freedom */
    double lo;    /* 95 % interval: value -/+ t(0.975, n-p) * se; NAN like se */
    double hi;
    int fixed; /* 1: held at a bound or fixed by the caller, not estimated */
};

/* A fitted model of one curve. */
struct model_fit {
    enum model_kind kind;
    size_t n;          /* points used */
    size_t n_distinct; /* distinct N values */
    size_t k;          /* parameters of the model for AICc, counting those that ended at a
                          bound (USL 3, Amdahl 2, piecewise 2 or 1 without a knee; M2 one less) */
    size_t p;          /* parameters estimated on the accepted face (free, not at a bound) */
    int dof;           /* n - p */
    struct model_param par[MODEL_MAX_PAR];
    double cov[MODEL_MAX_PAR][MODEL_MAX_PAR]; /* covariance of par (rows/columns of fixed = 0) */
    double sse;                               /* sum of squared residuals, (throughput unit)^2 */
    double rse;          /* residual standard error sqrt(sse/(n-p)); NAN when dof = 0 */
    double r2;           /* 1 - SSE/TSS, descriptive only for a nonlinear model */
    double aicc;         /* n ln(SSE/n) + 2k + 2k(k+1)/(n-k-1) (Hurvich & Tsai 1989);
                            +INFINITY when n <= k+1 */
    double t95;          /* t quantile (0.975, dof) used for intervals; NAN when dof = 0 */
    double n_min, n_max; /* range of N in the data */
    int status;          /* GSL status of the accepted solver run (0 = GSL_SUCCESS) */
    int info;            /* GSL driver convergence reason (1 small step, 2 small gradient) */
    size_t iterations;   /* solver iterations of the accepted run (0 for closed forms) */
    size_t faces_tried;  /* active-set faces fitted (USL/Amdahl) */
    double rcond;        /* reciprocal condition number of the Jacobian at the solution */
    unsigned warnings;   /* enum model_warning bits */
    int peak_in_data;    /* 1: the points themselves fall beyond their noise after the best
                            level (fit_options.peak_seen): a USL's peak is real whatever
                            kappa's interval says (derived.h) */
    size_t n_resid;      /* min(n, MODEL_MAX_RESID) */
    double resid_n[MODEL_MAX_RESID]; /* N of each kept residual, input order */
    double resid[MODEL_MAX_RESID];   /* X_i - X(N_i) */
};

/** Name of a model kind: "usl", "amdahl", "piecewise". */
const char *model_kind_name(enum model_kind k);

/**
 * Parse a model kind name ("usl", "amdahl", "piecewise").
 * @return 0 and *out set, or -1 for any other text.
 */
int model_kind_parse(const char *s, enum model_kind *out);

/** Text of one warning bit ("fewer than 3 distinct x values: only the piecewise model"), or "". */
const char *model_warning_text(unsigned bit);

/**
 * The model's throughput at N (> 0): the formulas at the top of this file.
 * @return X(N) in the unit of the fitted X, or NAN when N <= 0.
 */
double model_eval(const struct model_fit *f, double n);

/**
 * Throughput at N for explicit parameters (par in model_fit.par order).
 */
double model_eval_par(enum model_kind k, const double *par, double n);

/**
 * Delta-method standard error of a function g of the parameters
 * (var g = grad' C grad, Casella & Berger, "Statistical Inference", 2nd ed., §5.5.4), with the
 * gradient taken by central differences of step 1e-4 * SE (1e-7 * |value| when SE is 0) on the
 * free parameters.
 * @param g    function of the parameter vector (model_fit.par order) and ctx
 * @return the standard error (>= 0), NAN when the fit has no covariance (dof = 0) or g is not
 *         finite near the estimate.
 */
double model_delta_se(const struct model_fit *f, double (*g)(const double *par, void *ctx),
                      void *ctx);

/**
 * Check a curve's points: n >= 1, every N and X finite and > 0.
 * @param errmsg  receives "point 3: N = -1 is not > 0" on error (may be NULL)
 * @return MODEL_OK or MODEL_EINVAL.
 */
int model_check_points(const double *n, const double *x, size_t npts, char *errmsg, size_t errcap);

/** Number of distinct values among n[0..npts-1]. */
size_t model_count_distinct(const double *n, size_t npts);

/**
 * 1 when some pair of points shows superlinear scaling, X_j/N_j > X_i/N_i * (1 + 1e-9) with
 * N_j > N_i (per-unit throughput rising: needs sigma < 0, which the bounded USL forbids).
 */
int model_has_superlinear(const double *n, const double *x, size_t npts);

/**
 * Fill the statistics of a fit whose kind, par[] (values, fixed flags), cov (unscaled
 * (J'J)^-1 of the free parameters, i.e. without s^2), k and p are set: residuals, SSE, RSE, R^2,
 * AICc, t95, standard errors (sqrt of s^2 (J'J)^-1), intervals, range, warnings that follow
 * from the data. Multiplies cov by s^2 = SSE/(n-p) in place.
 * @return MODEL_OK, or MODEL_EINVAL when npts < p.
 */
int model_finish(struct model_fit *f, const double *n, const double *x, size_t npts);

#endif
