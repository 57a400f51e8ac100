/*
 * rank.h - rank configurations by throughput per cost at a latency target (sizeup.ranking/1).
 *
 * A curve is the points of one configuration and one workload: x = client threads (or server
 * nodes for a scale-out curve), y = throughput (tps), and the latency statistic the target
 * names (mean or a percentile) where measured. rank_curve_init fits it (models/fit.h: USL,
 * Amdahl or piecewise, chosen by AICc) and builds the latency curve:
 *
 *   - measured latency (avg or pNN on every point, or on some): models/latency.h's
 *     latency_pctl: Steffen's monotone interpolation inside the measured range, outside it
 *     the measured end value scaled by the model's mean R(N)/R(N_end); flagged extrapolated.
 *   - mean target and no measured mean: Little's law R(N) = N / X(N) from the fitted model
 *     (closed loop, zero think time; Schwartz eq. r_n; models.md 1.3).
 *   - percentile target and no measured percentile: no answer (RANK_NOLATENCY).
 *
 * At the target (rank_curve_at_target) the answer is the largest concurrency N_t in [1, U]
 * whose latency meets the target, where U is the peak N* of a USL with a peak (never past
 * it: beyond N* throughput falls and latency rises), the knee of a piecewise fit (flat
 * beyond), 1 for a curve falling from its first point, else 2 x the largest N measured
 * (extrapolated). Between consecutive measured N (and between the ends and 1 or U) the
 * latency curve is monotone (Steffen's interpolant keeps the data's monotonicity; the USL's
 * R(N) = (1 + sigma (N-1) + kappa N (N-1)) / lambda rises for N >= 1), so the largest
 * feasible breakpoint is found by scanning and the crossing inside the next segment by
 * bisection (60 halvings). The throughput there is X(N_t) of the fitted model with the
 * delta-method 95 % interval of the mean curve at N_t (models/derived.h derived_predict);
 * "measured" when N_t is a measured N (the measured mean tps is reported), "interpolated"
 * inside [min N, max N] and "extrapolated" outside. For a scale-out curve on nodes the
 * answer is at the configuration's node count.
 *
 * Combination of a workload mix with weights w_i (sum 1): the time-weighted throughput is the
 * weighted harmonic mean X = 1 / sum(w_i / X_i) (one transaction of the mix, a share w_i of
 * it of workload i, takes sum w_i / X_i seconds of the configuration's time); its interval
 * combines the interval ends the same way (X is monotone in each X_i).
 *
 * Figures per configuration (rank_row): cost per hour (catalogs/cost.h), throughput per cost
 * X / (cost per hour) in tps per currency-unit per hour, cost per million transactions
 * 1e6 x cost per hour / (3600 X), headroom to the peak X_peak / X - 1 (the ceiling
 * lambda/sigma or X_max when there is no peak).
 *
 * Required throughput R (rank_options.required_tps): nodes from the scale-out curve where one
 * is measured (the smallest node count whose X meets R and whose latency meets the target),
 * otherwise linear scale-out, flagged: units = ceil(R / X_t) copies of the configuration.
 * Monthly cost = cost per hour at that node count x 730 (catalog.h CAT_HOURS_PER_MONTH).
 *
 * Order (rank_sort): configurations that meet the target first, by throughput per cost
 * descending (with a required throughput: by monthly cost ascending), then the others;
 * ties broken by configuration id (strcmp), so the order is deterministic.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_RANK_H
#define SIZEUP_ADVISOR_RANK_H

#include "catalog.h"
#include "derived.h"
#include "fit.h"
#include "latency.h"
#include "model.h"
#include "point.h"
#include "slo.h"
#include "usl.h"

#include <stddef.h>

#define RANK_SCHEMA "sizeup.ranking/1"
/* Most workloads in a mix. */
#define RANK_MAX_MIX 8

/* Error returns. */
enum { RANK_OK = 0, RANK_EINVAL = -1, RANK_ENOMEM = -2, RANK_EFIT = -3 };

/* One workload of a mix. */
struct rank_mix_item {
    char workload[64];
    double weight; /* > 0; normalised to sum 1 by rank_mix_parse */
};

/**
 * Parse "oltp_read_write:0.7,oltp_point_select:0.3" (weights > 0, normalised to sum 1;
 * at most RANK_MAX_MIX items, no workload twice).
 * @return 0 with items[0..*n-1] set, or -1 with err.
 */
int rank_mix_parse(const char *s, struct rank_mix_item *items, size_t *n, char *err, size_t cap);

/* Where a figure comes from. */
enum rank_basis {
    RANK_BASIS_NONE = 0,
    RANK_BASIS_MEASURED,     /* at a measured point */
    RANK_BASIS_INTERPOLATED, /* between measured points, from the fitted model */
    RANK_BASIS_EXTRAPOLATED, /* outside the measured range */
    RANK_BASIS_LINEAR        /* node count by linear scale-out (assumed, not measured) */
};

/** "measured", "interpolated", "extrapolated", "linear scale-out", "-" */
const char *rank_basis_name(enum rank_basis b);

/* One fitted curve: one configuration, one workload. */
struct rank_curve {
    int by_nodes;          /* 1: x is a node count (scale-out curve), 0: client threads */
    size_t m;              /* points */
    double *n, *x;         /* points sorted by n (x = tps); owned */
    size_t m_lat;          /* distinct n with a measured latency of the target's statistic */
    double *lat_n, *lat_s; /* those n and the mean measured latency there, seconds; owned */
    double lat_pct;        /* statistic of lat_s: 0 mean, else percentile */
    struct model_fit fit;  /* the chosen model */
    struct model_derived derived;
    struct latency_pctl *lat; /* NULL when no latency was measured */
};

/**
 * Fit a curve and build its latency curve for the statistic slo->pct.
 * @param n, x    points (N > 0, X > 0), m >= 2, any order; repeated N allowed
 * @param lat_s   measured latency of the statistic at each point, seconds, NAN when absent;
 *                may be NULL (none measured)
 * @param by_nodes 1 when n are node counts
 * @param ws      USL workspace to reuse, or NULL
 * @return RANK_OK; RANK_EINVAL (bad points, err says which); RANK_EFIT (no model could be
 *         fitted); RANK_ENOMEM. On error c is left empty (rank_curve_destroy is still safe).
 */
int rank_curve_init(struct rank_curve *c, const double *n, const double *x, const double *lat_s,
                    size_t m, int by_nodes, double lat_pct, struct usl_workspace *ws, char *err,
                    size_t cap);

/** Free what a curve owns. NULL-safe; leaves it empty. */
void rank_curve_destroy(struct rank_curve *c);

/**
 * Latency of the curve's statistic at x value n (seconds): the measured curve where there
 * is one, else Little's law n / X(n) (threads curves only). *basis gets interpolated,
 * measured or extrapolated. NAN when it cannot be computed.
 */
double rank_curve_latency(const struct rank_curve *c, double n, enum rank_basis *basis);

/* Status of a configuration or of one curve at the target. */
enum rank_status {
    RANK_MET = 0,        /* the target is met: throughput at the target is known */
    RANK_NEVER,          /* the latency at the smallest concurrency already exceeds the target */
    RANK_NOLATENCY,      /* a percentile target but no percentile measured */
    RANK_NOCURVE,        /* no points for a workload of the mix */
    RANK_NOFIT,          /* the curve could not be fitted */
    RANK_NOPRICE,        /* the catalog gives no cost for the pricing model */
    RANK_UNREACHABLE_TPS /* the required throughput cannot be served within the search */
};

/** "meets the target", "never meets the target", ... */
const char *rank_status_text(enum rank_status s);

/** Short name: "met", "never", "no-latency", "no-curve", "no-fit", "no-price", "short". */
const char *rank_status_name(enum rank_status s);

/* A curve at the target. */
struct rank_at {
    enum rank_status status;
    double n;                /* concurrency (or nodes) at the target; NAN when not met */
    struct derived_value x;  /* throughput there, tps, with its 95 % interval */
    double latency_s;        /* the statistic's latency at n */
    enum rank_basis x_basis; /* where X comes from */
    enum rank_basis lat_basis;
    int latency_model;      /* 1: latency from Little's law on the model, not measured */
    int capped;             /* 1: limited by the peak N* (or the knee), not by latency */
    int bound_by_search;    /* 1: met up to the search limit 2 x max N (no saturation) */
    double peak_x;          /* X at the peak, or the ceiling; NAN when none */
    int peak_is_ceiling;    /* 1: peak_x is the asymptote lambda/sigma or X_max */
    double n_peak;          /* N* when there is a peak, else NAN */
    double best_measured_x; /* highest measured tps meeting the target at N <= U; NAN */
    double best_measured_n;
};

/**
 * The highest throughput of a curve that meets the target, and the concurrency that gives
 * it (method at the top of this file). For a scale-out curve (by_nodes) the throughput at
 * nodes_at (> 0), if its latency meets the target. A curve built for another statistic than
 * slo->pct (rank_curve_init's lat_pct) gives RANK_NOLATENCY.
 * @return RANK_OK (out->status says whether the target is met), RANK_EINVAL (bad target or
 *         nodes_at), RANK_ENOMEM.
 */
int rank_curve_at_target(const struct rank_curve *c, const struct slo *slo, double nodes_at,
                         struct rank_at *out);

/**
 * Smallest node count (1..max_nodes) of a scale-out curve whose X meets required_tps and
 * whose latency meets the target. @return the count, or 0 when none does.
 * *basis: measured, interpolated or extrapolated.
 */
long rank_curve_nodes_for(const struct rank_curve *c, const struct slo *slo, double required_tps,
                          long max_nodes, enum rank_basis *basis);

/* What a ranking asks. */
struct rank_options {
    struct slo slo;
    enum cat_pricing pricing;
    double required_tps; /* 0: none */
    size_t n_mix;        /* >= 1 */
    struct rank_mix_item mix[RANK_MAX_MIX];
};

/* One configuration in a ranking. */
struct rank_row {
    const char *config; /* borrowed id */
    int config_nodes;   /* the configuration's node count */
    enum rank_status status;
    size_t n_at;
    struct rank_at at[RANK_MAX_MIX]; /* per workload of the mix */
    struct derived_value x;          /* throughput at the target (mix: harmonic), tps */
    double n;                        /* concurrency at the target (single workload), else NAN */
    enum rank_basis basis;           /* worst basis of the throughput figures */
    double cost_per_hour;            /* currency per hour at config_nodes; NAN without price */
    int cost_estimate;               /* 1: a price term rests on an estimate */
    double tps_per_cost;             /* tps per (currency per hour) */
    double cost_per_mtx;             /* currency per million transactions */
    double headroom;                 /* fraction: X_peak / X - 1; NAN when unknown */
    long units;                      /* required: copies of the configuration (linear) */
    long nodes_needed;               /* required: nodes */
    enum rank_basis nodes_basis;     /* required: scale-out curve or linear */
    double cost_per_month;           /* required: currency per month at nodes_needed */
    long rank;                       /* 1-based position after rank_sort; 0 when not met */
};

/**
 * Evaluate one configuration: curves[i] is the curve of opt->mix[i].workload (NULL when there
 * are no points for it). Sets status, at[], x, n, basis, headroom; leaves costs NAN and
 * nodes 0 (rank_row_price fills them).
 */
void rank_row_eval(struct rank_row *row, const char *config, int config_nodes,
                   const struct rank_curve *const *curves, const struct rank_options *opt);

/**
 * Fill a row's costs from cost per hour at its own node count (per_hour, > 0) and, with a
 * required throughput, the node count and the cost per hour at that count: the caller passes
 * cost_at(nodes) through a function so a catalog is asked only for the counts needed.
 * @param cost_at  returns the cost per hour at a node count, or NAN when not priced
 * @return RANK_OK, or RANK_EINVAL.
 */
int rank_row_price(struct rank_row *row, const struct rank_curve *const *curves,
                   const struct rank_options *opt, double (*cost_at)(void *ctx, long nodes),
                   void *ctx);

/** Sort rows in ranking order (top of file) and set rank. Deterministic. */
void rank_sort(struct rank_row *rows, size_t n, const struct rank_options *opt);

#endif
