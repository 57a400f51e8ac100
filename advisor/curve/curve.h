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
 *     spanned a server stall) or `reconnects` (the level needed reconnects), or one of the
 *     import's `impossible_latency` (latencies that cannot all be true of one run) and
 *     `histogram_mismatch` (a histogram that does not add up to the run's transactions).
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
 * Levels: the points at one x are replicates (runs), pooled into one level by models/noise.h:
 * mean throughput, and a 95 % half-width for that mean that includes the variation between runs.
 * The run-to-run relative variance is pooled over every level of the curve with 2 or more
 * points (nu = sum (r_i - 1) degrees of freedom), split into its within-run part (the points'
 * own ci95_tps, as standard errors) and the part between runs; each level's interval is
 *   t(0.975, df_i) X_i sqrt((sigma_b^2 + wbar_i^2) / r_i)    (Satterthwaite's df_i)
 * so a level measured once still carries the run-to-run noise its curve's replicates show.
 * With one replicate per level it is the point's own ci95_tps (within-run only); NAN when
 * neither is known. For a single replicated level without ci95 this is the classic
 * t(0.975, r-1) s / sqrt(r). A point that is itself a pooled level (a level record of the
 * probe's passes, extra.interval.method "replicates": its ci95_tps already includes the
 * run-to-run variation) is taken as it is, never pooled again; the replicates it pools are left
 * out of the curve (curve_groups_build: reason "pooled"). The measured latency of a level is
 * the mean of its points'.
 *
 * Latency's noise: a level's latency carries a 95 % half-width relative to it (lat_rel95): with
 * 2 or more replicates with a latency, t(0.975, k - 1) s / sqrt(k) / mean of theirs, at least
 * the throughput's; with one, the throughput's relative half-width (half95 / x: at a fixed
 * concurrency Little's law R = N / X moves the mean latency as much as the throughput, and a
 * percentile at least as much), else 5 % as for throughput. Where the target is crossed the
 * answer moves with it: curve_at_target widens the throughput's interval to cover the answers
 * of the latency curve at its own 95 % bounds (issue 28.3).
 *
 * Shape (models/shape.h) is read from the levels first: rising, plateau, peaked, falling,
 * collapse, and a superlinear start; every level's noise e_i = max(h_i, 5 % of X_i).
 *
 * The fit (models/fit.h: USL, Amdahl, piecewise) sees the counting points of the levels it can
 * describe: from the second level on after a superlinear start (the first level is low for a
 * reason no saturation model has: one client thread and one server thread ping-pong across
 * idle CPUs and pay a wake-up on every round trip; fitting it drags sigma, the knee and the
 * peak to the first point), and up to the last level before a collapse (no smooth model is
 * drawn across a cliff). Its choice follows the data first: when those levels fall beyond their
 * noise after their best one, a peak exists and the USL is chosen (fit_options.peak_seen). The
 * model is used (use_model) only when it describes those levels (fit_check_levels: every
 * residual within the level's noise, no run of one-signed residuals) and has a peak where the
 * points fall; otherwise the measured curve is the answer.
 *
 * Throughput at x = N (curve_throughput): at a level, its mean, with the level's interval (the
 * replicates' or the points' ci95; +/- 5 % when neither is known); between levels the model
 * where it is used and stays at or below the highest level mean (never above what was
 * measured), else the measured curve: linear in log N between the neighbouring levels, the
 * interval likewise; outside the measured range only the model, and only where it is used and
 * fitted up to that end (extrapolated). For a curve of predicted points (curve_spec.source
 * CURVE_SOURCE_PREDICTED, e.g. a configuration predicted from its family) the figures inside it
 * are labelled predicted instead of measured or interpolated.
 *
 * The peak (curve.peak): for a peaked, falling or collapsing curve, the model's N* when the
 * model is used and N* lies between the levels next to the best level (below the second level
 * for a falling curve); else the best level itself (measured). A plateau reports the model's
 * N* only when it lies there and inside the measured range, else none; a rising curve has
 * none (not seen yet).
 *
 * Latency of the curve's statistic at N: the measured values through models/latency.h's
 * latency_pctl (Steffen's monotone interpolation inside the range; outside it the end value
 * scaled by the model's R(N)/R(N_end), only where the model is used), or for a mean target
 * without measured means Little's law R = N / X(N) - Z on the curve's throughput (closed loop,
 * think time Z of the spec).
 *
 * Implemented in four files, one section of this header each (marked "---- FILE.c"):
 * curve_groups.c (which points count, grouping), curve.c (levels, shape, fit), curve_eval.c
 * (figures at one x) and curve_target.c (the answer at a latency target).
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
#include "shape.h"
#include "slo.h"
#include "usl.h"

#include <stddef.h>

/* Return codes. */
enum { CURVE_OK = 0, CURVE_EINVAL = -1, CURVE_ENOMEM = -2, CURVE_EFIT = -3 };

/* ---- curve_groups.c: which points count, grouping into curves ---- */

/**
 * Why a point does not count (the rule at the top of this file): "incomplete", "interrupted",
 * "partial", "stalled" or "reconnects"; NULL when it counts.
 */
const char *curve_point_excluded_why(const struct point *p);

/** What an exclusion reason of curve_point_excluded_why means, for messages: "not a steady
 *  measurement" (incomplete, interrupted, partial, stalled, reconnects) or "figures that
 *  contradict each other" (impossible_latency, histogram_mismatch). */
const char *curve_excluded_meaning(const char *why);

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
    size_t n_pooled;      /* replicates a level record of the group pools (curve.h "Levels"):
                             measured and counted there, so not in idx on their own */
    size_t *pooled;       /* their indices */
    size_t n_dup;         /* counting points that repeat an earlier point of the group exactly
                             (curve_same_measurement: one run given twice, e.g. a file read
                             under two names or imported twice): left out, the first kept */
    size_t *dup;          /* their indices */
    size_t *dup_of;       /* dup_of[i]: the index of the point dup[i] repeats (owned; NULL when
                             n_dup is 0; curve_groups_destroy frees it) */
};

struct curve_groups {
    size_t n;
    struct curve_group *g; /* in order of first appearance */
    size_t *buf;           /* storage of every idx and excluded (owned) */
};

/**
 * 1 when a and b are the same measurement: equal target, threads, nodes, transactions, tps, qps,
 * duration_s and mean latency (exactly; NAN equal to NAN) and equal started_at (or neither has
 * one), and not two different lines of one source file (two rows of one table are two
 * measurements, even when rounding made them equal), and not a level record
 * (extra.interval.pooled) and a single run (a level of one replicate has its figures). Two
 * separate runs do not agree to the last bit in all of these; one run given twice (a copy of a
 * file, a file imported twice) does, and pooling it as two replicates would state an interval
 * of zero width.
 */
int curve_same_measurement(const struct point *a, const struct point *b);

/**
 * Group the points of a list into curves. A counting point that a level record of the same
 * group pools (its extra.interval.pooled lists the point's threads or nodes, started_at and tps)
 * goes to the group's pooled list instead of idx; one that repeats an earlier counting point of
 * the group exactly (curve_same_measurement) goes to its dup list.
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

/* ---- curve.c: a curve's levels, shape, fit and peak ---- */

/* The x axis of a curve. */
enum curve_x { CURVE_X_THREADS = 0, CURVE_X_NODES = 1, CURVE_X_AUTO = 2 };

/* The latency statistic a curve carries: the mean (0), a percentile (> 0), none, or auto. */
#define CURVE_LAT_NONE (-1.0)
#define CURVE_LAT_AUTO (-2.0) /* p95 when every point has it, else p99 when every one has it */

/* Where a curve's points come from. */
enum curve_source { CURVE_SOURCE_MEASURED = 0, CURVE_SOURCE_PREDICTED = 1 };

/* A predicted curve whose last level is more than this above the one before still rises there:
 * its peak is a lower bound (curve_at.peak_is_lower_bound), whatever its shape (the 5 % floor of
 * a level's noise, "Shape" above). */
#define CURVE_PRED_STILL_RISING 0.05

/* What to build. */
struct curve_spec {
    enum curve_x x;           /* axis; resolved by curve_init_points (CURVE_X_AUTO) */
    int qps;                  /* 1: y is qps, 0: tps */
    double lat_pct;           /* statistic: 0 mean, > 0 percentile, CURVE_LAT_NONE/AUTO */
    int model;                /* FIT_AUTO or an enum model_kind */
    enum curve_source source; /* measured points, or points predicted for the configuration */
    double think_s;           /* closed-loop think time Z in Little's law R = N/X - Z, >= 0 */
    int levels_only;          /* 1: a model is fitted and reported but its figures are not
                                 used: the levels are interpolated as they are (points that a
                                 model of their own computed, rank --disks: a saturation model
                                 fitted over them within their wide intervals would reorder
                                 curves the model keeps ordered) */
};

/** Threads, tps, the mean latency, every model, measured points. */
struct curve_spec curve_spec_default(void);

/* One observation: a point reduced to what a curve needs. */
struct curve_obs {
    double n;       /* x: threads or nodes, > 0 */
    double x;       /* throughput, > 0 */
    double ci95_x;  /* 95 % half-width of x from the point itself (probe calibration), or NAN */
    double lat_s;   /* the statistic's measured latency, seconds, or NAN */
    double ci95_df; /* degrees of freedom of ci95_x (19 for 20 batch means); 0: unknown (normal) */
    int pooled;     /* 1: x is a level already pooled over replicates (its ci95_x includes the
                       run-to-run variation): not pooled again */
    int lat_hist;   /* 1: lat_s is a percentile derived from the point's latency histogram
                       (point_latency_pct), not one the tool reported */
};

/* One level: the replicates at one x, pooled. */
struct curve_level {
    double n;         /* x value */
    double x;         /* mean throughput */
    double half95;    /* 95 % half-width of the mean (top of file); NAN when unknown */
    size_t reps;      /* points pooled */
    int between_runs; /* 1: half95 includes the run-to-run noise (replicates pooled over the
                         curve, or level records that pooled them); the shape then takes it
                         without the 5 % floor (models/shape.h) */
    double lat_s;     /* mean measured latency of the statistic, seconds; NAN when none */
    double lat_rel95; /* 95 % half-width of lat_s relative to it (top of file, "Latency's
                         noise"); NAN when lat_s is */
};

/* The peak a curve reports (top of file). */
struct curve_peak {
    int has;                /* 1: a peak is reported */
    int from_model;         /* 1: the model's N*; 0: the best measured level */
    int below_range;        /* 1: at or below the smallest x measured (falling curve) */
    struct derived_value n; /* where; the model's 95 % interval, or the level's x */
    struct derived_value x; /* throughput there, with its 95 % interval */
    double model_n;         /* the model's N* when it has one, else NAN (even when not used) */
};

/* A built curve. */
struct curve {
    struct curve_spec spec; /* as built; x resolved (never CURVE_X_AUTO), lat_pct resolved */
    int by_nodes;           /* 1: x is a node count */
    size_t n_obs;           /* observations (points that count) */
    size_t n_lat_hist;      /* of them, those whose latency percentile was derived from their
                               histogram (curve_obs.lat_hist) */
    double *obs_n, *obs_x;  /* sorted by n (owned) */
    size_t m;               /* levels */
    struct curve_level *lv; /* sorted by n (owned) */
    size_t m_lat;           /* levels with a measured latency */
    struct shape shape;     /* what the levels show */
    double x_max;           /* the highest level mean (level shape.best) */
    int fitted;             /* 1: a model was fitted to levels fit_lo..fit_hi (fr, fit valid) */
    size_t fit_lo, fit_hi;  /* the levels the model saw (inclusive) */
    char no_fit[200];       /* why no model was fitted ("" when fitted) */
    struct fit_result *fr;  /* every model fitted and the choice (owned) */
    struct model_fit fit;   /* the chosen model */
    struct model_derived derived;
    struct fit_check check; /* how the model describes levels fit_lo..fit_hi */
    double point_rel;       /* the largest |residual| / X of a single fitted point */
    double point_rel_n;     /* its x */
    int use_model;          /* 1: the model describes them and is used (top of file) */
    char no_model[200];     /* why the model is not used ("" when it is) */
    struct curve_peak peak;
    struct latency_pctl *lat; /* the measured statistic's curve, NULL when none measured */
};

/**
 * Build a curve from observations.
 * @param obs   m >= 2 observations (any order; repeated n are replicates)
 * @param spec  spec->x must be CURVE_X_THREADS or CURVE_X_NODES; spec->lat_pct 0, > 0 or
 *              CURVE_LAT_NONE (obs[].lat_s then ignored)
 * @param ws    USL workspace to reuse, or NULL
 * @return CURVE_OK (also when no model could be fitted: fitted 0, no_fit says why, the
 *         measured curve is used); CURVE_EINVAL (fewer than 2 observations, a value not > 0;
 *         err says which); CURVE_ENOMEM. On error c is left empty (curve_destroy is still
 *         safe).
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

/**
 * Only the levels of points idx[0..m-1] (a curve_group's counting points): pooled exactly as
 * curve_init_points pools them ("Levels" at the top of this file), without shape, fit or
 * latency curve. For a caller that models the levels itself (advisor/predict.c: a family's
 * sizes) and for a single point (m = 1), which curve_init refuses.
 * @param spec   as curve_init_points (CURVE_X_AUTO and CURVE_LAT_AUTO are resolved); its
 *               lat_pct chooses the statistic of out[].lat_s (seconds, NAN where no point of
 *               the level has it)
 * @param out    room for m levels (caller's); filled in ascending x
 * @param n_out  levels written
 * @return CURVE_OK, CURVE_EINVAL (m = 0; a point without a positive x or throughput: err names
 *         it as curve_init_points does), CURVE_ENOMEM. *n_out is 0 on error.
 */
int curve_levels_points(const struct point_list *pts, const size_t *idx, size_t m,
                        const struct curve_spec *spec, struct curve_level *out, size_t *n_out,
                        char *err, size_t cap);

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

/** A level's 95 % half-width for its figure: half95 when known, else 5 % of its mean. */
double curve_level_half(const struct curve_level *l);

/* ---- curve_eval.c: throughput and latency at one x, the shape in words ---- */

/* Throughput at one x (curve_throughput). */
struct curve_value {
    struct derived_value x; /* throughput and its 95 % interval; NAN when there is no answer */
    enum curve_basis basis; /* measured, interpolated, extrapolated; none without an answer */
    int from_model;         /* 1: the model's value (and delta-method interval) */
    double beyond;          /* n / largest x measured when above it, n / smallest when below,
                               else 1 */
};

/**
 * Throughput at x = n > 0 (top of file: levels, model between them, measured curve).
 * @return CURVE_OK, or CURVE_EINVAL (n not > 0). Without an answer (outside the measured range
 *         and no model used there) out->x is NAN and the basis none.
 */
int curve_throughput(const struct curve *c, double n, struct curve_value *out);

/**
 * The curve's shape in words, for people: "falling: past its peak over the whole measured
 * range (113,007 tps at 100 threads -> 66,162 at 900)", "throughput collapses between 90 and
 * 100 threads (3,097 -> 1,722 tps)". Returns buf.
 */
const char *curve_shape_text(const struct curve *c, char *buf, size_t cap);

/**
 * The superlinear start in words ("" without one): "superlinear start: 2 threads give 5.52 x
 * the throughput of 1 (more than 2 x): the 1-thread level is left out of the fit". Returns buf.
 */
const char *curve_start_text(const struct curve *c, char *buf, size_t cap);

/**
 * Whether the model is used, in words: "the usl model describes the levels it saw (largest
 * residual 3.5 % at 600 threads, within the noise bound 5 %)" or "no model describes the
 * points (largest residual 28 % at 2 threads, beyond the noise bound 5 %): the measured curve
 * is used (interpolation between levels)". Returns buf.
 */
const char *curve_model_text(const struct curve *c, char *buf, size_t cap);

/** A throughput for people: integers with thousands separators above 1000 ("3,097"). */
const char *curve_fmt_tps(double v, char *buf, size_t cap);

/**
 * Latency of the curve's statistic at x = n, seconds: the measured curve where there is one,
 * else Little's law n / X(n) on the model (threads and the mean only). *basis: measured (at a
 * level with a measured latency), interpolated or extrapolated. NAN (basis none) when it cannot
 * be computed.
 */
double curve_latency(const struct curve *c, double n, enum curve_basis *basis);

/* ---- curve_target.c: the answer at a latency target ---- */

/* Status of a curve at a latency target. */
enum curve_status {
    CURVE_MET = 0,       /* the target is met: throughput at the target is known */
    CURVE_NEVER = 1,     /* the latency at the smallest concurrency already exceeds the target */
    CURVE_NOLATENCY = 2, /* a percentile target but no percentile measured (or another one) */
    CURVE_OUTSIDE = 3    /* scale-out: the configuration's node count lies outside the measured
                            range and extrapolation was not asked (or no model carries it) */
};

/* What limits the answer at a target. */
enum curve_binds {
    CURVE_BINDS_LATENCY = 0, /* the target: the next concurrency up misses it */
    CURVE_BINDS_PEAK,        /* throughput: more concurrency meets the target but gives less */
    CURVE_BINDS_RANGE,       /* the search range: met at its top (the largest measured level, or
                                F x it with extrapolation) */
    CURVE_BINDS_COLLAPSE     /* the collapse: met at the last level before the cliff */
};

/** "latency", "peak", "range", "collapse". */
const char *curve_binds_name(enum curve_binds b);

/* A curve at a latency target. */
struct curve_at {
    enum curve_status status;
    double n;                 /* concurrency (or nodes) at the target; NAN when not met */
    struct derived_value x;   /* throughput there, with its 95 % interval */
    double latency_s;         /* the statistic's latency at n (at the smallest level: NEVER) */
    double latency_n;         /* NEVER: the x latency_s was read at (the smallest level, or the
                                 nodes asked); else NAN */
    enum curve_basis x_basis; /* where x comes from */
    enum curve_basis lat_basis;
    int x_from_model;        /* 1: x is the model's (the curve's model is used there) */
    int latency_model;       /* 1: latency from Little's law on the curve, not measured */
    enum curve_binds binds;  /* what limits the answer */
    int met_everywhere;      /* 1: every measured level meets the target (no collapse) */
    double limit_n;          /* the top of the search range (x) */
    double beyond;           /* n / largest level when extrapolated, else 1 */
    double peak_x;           /* the curve's peak throughput; a plateau's best level; a rising
                                curve's best measured level (a lower bound of its peak: the
                                model's ceiling lies beyond the data and is not believed); else
                                NAN */
    int peak_is_best_level;  /* 1: peak_x is the best measured level (no peak reported) */
    int peak_is_lower_bound; /* 1: the curve still rises at its largest level: its peak is at
                                least peak_x, and the headroom at least what it says */
    double n_peak;           /* the reported peak's x, NAN when none */
    double best_measured_x;  /* highest level mean meeting the target within the range; NAN */
    double best_measured_n;
    double latency_lo_s, latency_hi_s; /* MET with a measured latency: latency_s's 95 % interval
                                          (curve.h "Latency's noise"); else NAN */
    double p_meets;                    /* MET: the probability that the statistic at n is
                                          within the target, Phi((target - latency) / sd), sd
                                          from that interval (a crossing of the target: 0.5);
                                          NAN without a latency interval */
};

/**
 * The highest throughput of a curve that meets a latency target, and the concurrency that gives
 * it. The search range is [smallest level, U]: U the largest measured level, the last level
 * before a collapse (never beyond it), or with extrapolate = F > 1 up to F x the largest level
 * (only where the model is used and fitted to that end; the answer is then labelled
 * extrapolated). Candidates: every level in range whose latency meets the target; the crossing
 * of the target inside each segment between consecutive breakpoints (levels, and U) where one
 * end meets it and the other does not (bisection, 60 halvings, on the latency curve, monotone
 * between levels); the model's peak N* where it is used and meets the target; U. Each
 * candidate's throughput is curve_throughput's (a level's mean and interval, the model between
 * levels but never above the highest level, the measured curve otherwise). The answer is the
 * candidate with the most throughput (the smaller x of equals). So the figure lies inside its
 * interval, is never below a level that meets the target, and never above the highest level
 * unless it is extrapolated. With a measured latency, the answer is sought again with the
 * latency curve at its 95 % lower and upper bounds (top of file, "Latency's noise"): the
 * interval is widened to cover those answers' intervals (where a rerun could cross the
 * target), and latency_lo_s / latency_hi_s / p_meets say how sure the latency at the answer is.
 * For a scale-out curve (by_nodes) the answer is at nodes_at (> 0) if its latency meets the
 * target; outside the measured node counts only with extrapolate, between the smallest / F and
 * F x the largest (CURVE_OUTSIDE otherwise).
 * @param slo          the target (util/slo.h): a curve built for another statistic than slo->pct
 *                     gives CURVE_NOLATENCY
 * @param extrapolate  F >= 1: how far past the largest level the search may go (1: not at all)
 * @return CURVE_OK (out->status says whether the target is met), CURVE_EINVAL (bad target,
 *         nodes_at or extrapolate), CURVE_ENOMEM.
 */
int curve_at_target(const struct curve *c, const struct slo *slo, double nodes_at,
                    double extrapolate, struct curve_at *out);

/**
 * Smallest node count (from the smallest measured up to max_nodes and the search range of
 * curve_at_target) of a scale-out curve whose throughput (curve_throughput) meets required_tps
 * and whose latency meets the target. @return the count, or 0 when none does. *basis:
 * measured, interpolated or extrapolated.
 */
long curve_nodes_for(const struct curve *c, const struct slo *slo, double required_tps,
                     long max_nodes, double extrapolate, enum curve_basis *basis);

#endif
