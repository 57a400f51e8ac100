/*
 * curve.h - one throughput curve: which points count, how they group into curves, replicates
 * pooled into levels, the fitted model and its figures, latency at a concurrency and the search
 * for a latency target. `sizeup fit`, `rank`, `report`, the auto ladder, the study and the
 * benches all go through this module; nothing else groups or filters points.
 *
 * Which points count (curve_point_excluded_why), the one rule: a point counts unless
 *   - it is `incomplete` (the run ended before its summary), or
 *   - it carries one of the flags `interrupted` (stopped by SIGINT/SIGTERM), `partial` (the
 *     level was cut short by an unreachable server or a fatal error), `stalled` (the level
 *     spanned a server stall) or `reconnects` (the level needed reconnects).
 * Any other flag (e.g. `qps_below_tps`, `tps_from_tpm_total`) describes the point but does not
 * exclude it. A point that counts still needs a positive throughput and x value to be fitted
 * (curve_init_points says which one lacks it).
 *
 * Grouping (curve_groups_build): a curve is all points with the same key and workload, the key
 * being the point's target or a caller's label (e.g. the catalog configuration it joins);
 * groups come in the order of their first point. Its x axis (curve_spec.x): client threads,
 * server nodes (a scale-out curve), or CURVE_X_AUTO: nodes when every point has a node count
 * and there are at least 2 distinct counts, else threads.
 *
 * Levels: the points at one x are replicates, pooled into one level: mean throughput, and a 95 %
 * half-width for that mean, the larger of
 *   between replicates   t(0.975, r-1) s / sqrt(r)   (r >= 2 points, s their standard deviation)
 *   from the points      sqrt(sum ci95_i^2) / r     (every point carries ci95_tps)
 * (NAN when neither is known). The measured latency of a level is the mean of its points'.
 *
 * The fit (models/fit.h: USL, Amdahl, piecewise, chosen by AICc) sees every counting point.
 * Latency of the curve's statistic at N: the measured values through models/latency.h's
 * latency_pctl (Steffen's monotone interpolation inside the range; the end value scaled by the
 * model's R(N)/R(N_end) outside), or for a mean target without measured means Little's law
 * R = N / X(N) on the model (closed loop, zero think time).
 *
 * Thread-safety: functions touch only their arguments; a built curve may be read by several
 * threads at once.
 */
#ifndef SIZEUP_ADVISOR_CURVE_H
#define SIZEUP_ADVISOR_CURVE_H

#include "derived.h"
#include "fit.h"
#include "latency.h"
#include "model.h"
#include "point.h"
#include "slo.h"
#include "usl.h"

#include <stddef.h>

/* Return codes. */
enum { CURVE_OK = 0, CURVE_EINVAL = -1, CURVE_ENOMEM = -2, CURVE_EFIT = -3 };

/**
 * Why a point does not count (the rule at the top of this file): "incomplete", "interrupted",
 * "partial", "stalled" or "reconnects"; NULL when it counts.
 */
const char *curve_point_excluded_why(const struct point *p);

/** 1 when a point counts (curve_point_excluded_why gives NULL), else 0. */
int curve_point_counts(const struct point *p);

/**
 * The first point of pts that counts with this target, workload and thread count, or NULL.
 * (What `probe run --resume` and a study take as "already measured".)
 */
const struct point *curve_find_point(const struct point_list *pts, const char *target,
                                     const char *workload, long threads);

/** Number of points of pts that count with this target and workload. */
size_t curve_count_points(const struct point_list *pts, const char *target, const char *workload);

/* One curve's points within a list. */
struct curve_group {
    const char *key;      /* target, or the caller's key of its points (borrowed) */
    const char *workload; /* borrowed from its first point */
    size_t n;             /* points that count */
    size_t *idx;          /* their indices into the list, input order */
    size_t n_excluded;    /* points of this key and workload that do not count */
    size_t *excluded;     /* their indices */
};

struct curve_groups {
    size_t n;
    struct curve_group *g; /* in order of first appearance */
    size_t *buf;           /* storage of every idx and excluded (owned) */
};

/**
 * Group the points of a list into curves.
 * @param keys  NULL: key = the point's target; else keys[i] is point i's key, NULL to leave
 *              point i out of every group (e.g. it joins no configuration)
 * @return CURVE_OK, or CURVE_ENOMEM (out left empty). Free with curve_groups_destroy.
 */
int curve_groups_build(struct curve_groups *out, const struct point_list *pts,
                       const char *const *keys);

/** Free what a grouping owns. NULL-safe; leaves it empty. */
void curve_groups_destroy(struct curve_groups *g);

/** The group of (key, workload), or NULL. */
const struct curve_group *curve_groups_find(const struct curve_groups *g, const char *key,
                                            const char *workload);

/* The x axis of a curve. */
enum curve_x { CURVE_X_THREADS = 0, CURVE_X_NODES = 1, CURVE_X_AUTO = 2 };

/* The latency statistic a curve carries: the mean (0), a percentile (> 0), none, or auto. */
#define CURVE_LAT_NONE (-1.0)
#define CURVE_LAT_AUTO (-2.0) /* p95 when every point has it, else p99 when every one has it */

/* Where a curve's points come from. */
enum curve_source { CURVE_SOURCE_MEASURED = 0, CURVE_SOURCE_PREDICTED = 1 };

/* What to build. */
struct curve_spec {
    enum curve_x x;           /* axis; resolved by curve_init_points (CURVE_X_AUTO) */
    int qps;                  /* 1: y is qps, 0: tps */
    double lat_pct;           /* statistic: 0 mean, > 0 percentile, CURVE_LAT_NONE/AUTO */
    int model;                /* FIT_AUTO or an enum model_kind */
    enum curve_source source; /* measured points, or points predicted for the configuration */
};

/** Threads, tps, the mean latency, every model, measured points. */
struct curve_spec curve_spec_default(void);

/* One observation: a point reduced to what a curve needs. */
struct curve_obs {
    double n;      /* x: threads or nodes, > 0 */
    double x;      /* throughput, > 0 */
    double ci95_x; /* 95 % half-width of x from the point itself (probe calibration), or NAN */
    double lat_s;  /* the statistic's measured latency, seconds, or NAN */
};

/* One level: the replicates at one x, pooled. */
struct curve_level {
    double n;      /* x value */
    double x;      /* mean throughput */
    double half95; /* 95 % half-width of the mean (top of file); NAN when unknown */
    size_t reps;   /* points pooled */
    double lat_s;  /* mean measured latency of the statistic, seconds; NAN when none */
};

/* A built curve. */
struct curve {
    struct curve_spec spec; /* as built; x resolved (never CURVE_X_AUTO), lat_pct resolved */
    int by_nodes;           /* 1: x is a node count */
    size_t n_obs;           /* observations (points that count) */
    double *obs_n, *obs_x;  /* sorted by n (owned) */
    size_t m;               /* levels */
    struct curve_level *lv; /* sorted by n (owned) */
    size_t m_lat;           /* levels with a measured latency */
    struct fit_result *fr;  /* every model fitted and the choice (owned) */
    struct model_fit fit;   /* the chosen model */
    struct model_derived derived;
    struct latency_pctl *lat; /* the measured statistic's curve, NULL when none measured */
};

/**
 * Build a curve from observations.
 * @param obs   m >= 2 observations (any order; repeated n are replicates)
 * @param spec  spec->x must be CURVE_X_THREADS or CURVE_X_NODES; spec->lat_pct 0, > 0 or
 *              CURVE_LAT_NONE (obs[].lat_s then ignored)
 * @param ws    USL workspace to reuse, or NULL
 * @return CURVE_OK; CURVE_EINVAL (fewer than 2 observations, a value not > 0; err says which);
 *         CURVE_EFIT (no model could be fitted; err says why); CURVE_ENOMEM. On error c is
 *         left empty (curve_destroy is still safe).
 */
int curve_init(struct curve *c, const struct curve_obs *obs, size_t m,
               const struct curve_spec *spec, struct usl_workspace *ws, char *err, size_t cap);

/**
 * Build a curve from points idx[0..m-1] of a list (a curve_group's counting points).
 * Resolves CURVE_X_AUTO and CURVE_LAT_AUTO as described above; y is tps or qps (the points'
 * ci95_tps scaled by qps/tps for qps).
 * @return as curve_init; CURVE_EINVAL names the point ("FILE:LINE: TARGET / WORKLOAD: point at
 *         threads 16 has no positive tps", "... point has no nodes count").
 */
int curve_init_points(struct curve *c, const struct point_list *pts, const size_t *idx, size_t m,
                      const struct curve_spec *spec, struct usl_workspace *ws, char *err,
                      size_t cap);

/** Free what a curve owns. NULL-safe; leaves it empty. */
void curve_destroy(struct curve *c);

/** "threads" or "nodes". */
const char *curve_x_name(const struct curve *c);

/* Where a figure comes from. */
enum curve_basis {
    CURVE_BASIS_NONE = 0,
    CURVE_BASIS_MEASURED,     /* at a measured level */
    CURVE_BASIS_INTERPOLATED, /* between measured levels */
    CURVE_BASIS_EXTRAPOLATED, /* outside the measured range */
    CURVE_BASIS_LINEAR,       /* a node count by linear scale-out (assumed; rank.h) */
    CURVE_BASIS_PREDICTED     /* from points predicted for the configuration */
};

/** "measured", "interpolated", "extrapolated", "linear scale-out", "predicted", "-". */
const char *curve_basis_name(enum curve_basis b);

/** The level at x = n (within 1e-9 relative), or NULL. */
const struct curve_level *curve_level_at(const struct curve *c, double n);

/**
 * Latency of the curve's statistic at x = n, seconds: the measured curve where there is one,
 * else Little's law n / X(n) on the model (threads and the mean only). *basis: measured (at a
 * level with a measured latency), interpolated or extrapolated. NAN (basis none) when it cannot
 * be computed.
 */
double curve_latency(const struct curve *c, double n, enum curve_basis *basis);

/* Status of a curve at a latency target. */
enum curve_status {
    CURVE_MET = 0,      /* the target is met: throughput at the target is known */
    CURVE_NEVER = 1,    /* the latency at the smallest concurrency already exceeds the target */
    CURVE_NOLATENCY = 2 /* a percentile target but no percentile measured (or another one) */
};

/* A curve at a latency target. */
struct curve_at {
    enum curve_status status;
    double n;                 /* concurrency (or nodes) at the target; NAN when not met */
    struct derived_value x;   /* throughput there, with its 95 % interval */
    double latency_s;         /* the statistic's latency at n */
    enum curve_basis x_basis; /* where x comes from */
    enum curve_basis lat_basis;
    int latency_model;      /* 1: latency from Little's law on the model, not measured */
    int capped;             /* 1: limited by the peak N* (or the knee), not by latency */
    int bound_by_search;    /* 1: met up to the search limit 2 x max N (no saturation) */
    double peak_x;          /* X at the peak, or the ceiling; NAN when none */
    int peak_is_ceiling;    /* 1: peak_x is the asymptote lambda/sigma or X_max */
    double n_peak;          /* N* when there is a peak, else NAN */
    double best_measured_x; /* highest measured tps meeting the target at N <= the limit; NAN */
    double best_measured_n;
};

/**
 * The highest throughput of a curve that meets a latency target and the concurrency that
 * gives it: the largest N in [1, U] whose latency meets the target, U the peak N* of a USL with
 * a peak, the knee of a piecewise fit, 1 for a curve falling from its first point, else 2 x the
 * largest N measured. The latency curve is monotone between consecutive levels, so the largest
 * feasible breakpoint is found by scanning and the crossing inside the next segment by bisection
 * (60 halvings). The throughput is X(N) of the model with the delta-method 95 % interval of the
 * mean curve (models/derived.h); at a measured level the measured mean. For a scale-out curve
 * (by_nodes) the throughput at nodes_at (> 0) if its latency meets the target.
 * @param slo  the target (util/slo.h): a curve built for another statistic than slo->pct
 *             gives CURVE_NOLATENCY
 * @return CURVE_OK (out->status says whether the target is met), CURVE_EINVAL (bad target or
 *         nodes_at), CURVE_ENOMEM.
 */
int curve_at_target(const struct curve *c, const struct slo *slo, double nodes_at,
                    struct curve_at *out);

/**
 * Smallest node count (1..max_nodes) of a scale-out curve whose X meets required_tps and whose
 * latency meets the target slo. @return the count, or 0 when
 * none does. *basis: measured, interpolated or extrapolated.
 */
long curve_nodes_for(const struct curve *c, const struct slo *slo, double required_tps,
                     long max_nodes, enum curve_basis *basis);

#endif
