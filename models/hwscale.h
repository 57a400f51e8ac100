/*
 * hwscale.h - predict the threads-versus-throughput curve of an instance size that was not
 * measured from the measured sizes of its family, by scaling over vCPUs.
 *
 * The model: hardware scaling at a fixed load per vCPU. A family's sizes share a processor;
 * size s has v_s vCPUs and a measured curve X_s(N) at thread levels N. At a fixed number of
 * threads per vCPU, u = N / v (the "scaled-size" measurement of N. Gunther, "Guerrilla Capacity
 * Planning", Springer 2007, ch. 4: hardware scalability is the throughput of p processors with
 * the load per processor held fixed), throughput is taken as a power law in v between
 * neighbouring measured sizes. For the predicted size v and each level N, with u = N / v:
 *
 *   1. the sizes that cover u are those whose measured levels include u v_s; when fewer than
 *      two do, sizes whose smallest level lies above u v_s count as well, taking throughput as
 *      proportional to N below their smallest level (throughput is linear in N at low
 *      concurrency); each gives X_s(u v_s), interpolated on log-log axes between its levels
 *      (exact for a power law, the linear rise X ~ N included);
 *   2. between two covering sizes v_lo <= v <= v_hi: X = X_lo(u v_lo) (v / v_lo)^b, the power law
 *      through both, b = log(X_hi / X_lo) / log(v_hi / v_lo) (a measured size: its own curve);
 *      beyond them: the same law through the two nearest covering sizes, b >= 0, and b <= 1 above
 *      the largest (never faster than linear in vCPUs: Gunther's linear bound; below the
 *      smallest a slope above 1, per-vCPU efficiency falling with fewer vCPUs, is what small
 *      sizes show); one covering size: per-vCPU scaling, X = X_s(u v_s) v / v_s;
 *   3. no size covers u (more threads per vCPU than any size was measured at): per-vCPU
 *      scaling from the size measured furthest in u, continued beyond its last level along its
 *      last segment on log-log axes when that segment falls, held when it rises; flagged
 *      extrapolated.
 *
 * Why this model and not the USL over vCPUs: on the published sysbench table of three AWS
 * families (data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv, 2-64 vCPU, threads 1-128) the USL
 * does not describe the curves themselves (relative residuals of 13-43 % on 16 of 17 sizes:
 * the curves rise linearly to N ~ v and then stay flat), its fitted lambda, sigma v and kappa
 * v^2 are not constant across sizes, and predicting a size from its neighbours' interpolated USL
 * parameters errs by a median 9.6 % (worst 105 %) of the peak in leave-one-out; the peak per
 * vCPU is not even monotone in v (c6g: 575, 614, 682, 665, 627, 577 tps per vCPU from 2 to 64
 * vCPU: small sizes lose a share of their vCPUs to the client on the same instance), which no
 * USL efficiency 1 / (1 + sigma (v-1) + kappa v (v-1)) follows. The power law between
 * neighbours at fixed u gives a median |error| of the peak of 3.3 % (docs/predict.md).
 *
 * Latency: the mean follows from Little's law for a closed loop with zero think time,
 * R = N / X (docs/reference/models.md 1.3); every measured statistic k (mean, p95, ...) is carried
 * as its ratio to that, r_k = L_k / (N / X), and the prediction blends the sizes' r_k at the same u
 * with the throughput's log-v weights (linear in log u between levels, held outside a size's
 * range): L_k = r_k N / X.
 *
 * Interval: the 95 % half-width of a predicted throughput is X sqrt(q^2 + c^2), where q is the
 * family's leave-one-out error (hwscale_validate: the 95th percentile of |predicted/measured - 1|
 * over every level of every size predicted from the others), or HWSCALE_ONE_SIZE_REL95 for a
 * family with one measured size (no leave-one-out is possible), and c the blended relative 95 %
 * half-width of the sizes' measurements at that u (0 when not known).
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_MODELS_HWSCALE_H
#define SIZEUP_MODELS_HWSCALE_H

#include <stddef.h>

/* Most latency statistics carried per level. */
#define HWSCALE_MAX_LAT 8

/*
 * Relative 95 % half-width of a prediction from a family's only measured size, a wide one: the
 * largest |error| of the peak of per-vCPU scaling from one size to another, over every ordered
 * pair of sizes of the three families of data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv (34.6 %,
 * c5a.4xlarge from c5a.2xlarge; the 95th percentile over every level is 24 %), rounded up to a
 * whole 5 %. tests/models/test_hwscale.c recomputes both.
 */
#define HWSCALE_ONE_SIZE_REL95 0.35

/* One measured size of a family: its curve on distinct thread levels (replicates averaged). */
struct hwscale_size {
    double vcpu;           /* > 0; distinct within a family */
    size_t m;              /* levels, >= 1 */
    const double *threads; /* ascending, distinct, > 0 */
    const double *tps;     /* mean throughput at each level, > 0 */
    const double *rel_ci;  /* relative 95 % half-width of tps at each level (>= 0, NAN when
                              unknown), or NULL */
    size_t n_lat;          /* latency statistics carried (<= HWSCALE_MAX_LAT) */
    const double *lat_ratio[HWSCALE_MAX_LAT]; /* statistic k at each level divided by Little's
                                                 N / X (same time unit), > 0, NAN when not
                                                 measured at that level; a NULL array: none */
};

/* Where a predicted level comes from. */
enum hwscale_basis {
    HWSCALE_MEASURED = 0, /* v is a measured size: its own curve */
    HWSCALE_INSIDE,       /* between two measured sizes */
    HWSCALE_BELOW,        /* below the smallest covering size (extrapolated over vCPUs) */
    HWSCALE_ABOVE,        /* above the largest covering size (extrapolated over vCPUs) */
    HWSCALE_ONE,          /* one covering size, per-vCPU scaling */
    HWSCALE_BEYOND        /* no size measured this many threads per vCPU (step 3) */
};

/** "measured", "between measured sizes", "below the measured sizes", ... */
const char *hwscale_basis_name(enum hwscale_basis b);

/* One predicted level. */
struct hwscale_level {
    double threads;
    double tps;                        /* predicted throughput */
    double ci95_tps;                   /* 95 % half-width, same unit */
    double lat_ratio[HWSCALE_MAX_LAT]; /* predicted L_k / (N / X); NAN where no size used
                                          measured statistic k */
    enum hwscale_basis basis;
    size_t lo, hi; /* sizes used (indices into the sizes given; lo == hi when one); beyond the
                      covering sizes lo is the nearest and hi the second nearest (the slope) */
    double w_hi;   /* weight of size hi in the latency ratios and intervals, [0, 1] (log-v
                      position between lo and hi; 0 beyond them) */
    double slope;  /* b of the power law used (1 for per-vCPU scaling, NAN when measured) */
};

/* A whole prediction. */
struct hwscale_info {
    double vcpu;              /* the predicted size */
    double peak_tps;          /* the largest predicted throughput over the levels */
    double rel95;             /* the q used */
    unsigned used;            /* bit s set when size s was used at some level (first 32 sizes) */
    enum hwscale_basis worst; /* the weakest basis over the levels (enum order) */
    int extrapolated;         /* 1: some level is BELOW, ABOVE, ONE or BEYOND */
};

/**
 * Check one size: vcpu > 0, m >= 1, levels ascending, distinct and > 0, tps > 0, finite.
 * @return 0, or -1 with errmsg ("size 2 (8 vCPU): level 3: threads 4 not above 4").
 */
int hwscale_check(const struct hwscale_size *sizes, size_t n, char *errmsg, size_t errcap);

/**
 * Predict the curve of a size of vcpu vCPUs at m thread levels.
 * @param sizes    the family's measured sizes (n >= 1, any order, distinct vcpu; checked)
 * @param vcpu     the size to predict, > 0 (a measured vcpu gives that size's own curve)
 * @param threads  levels to predict, each > 0
 * @param rel95    q, the family's relative error (>= 0), or a negative value for the default:
 *                 HWSCALE_ONE_SIZE_REL95 with one size, else 0 (the caller passes
 *                 hwscale_validate's figure)
 * @param out      m levels, filled on success
 * @param info     summary (may be NULL)
 * @return 0, or -1 with errmsg (bad sizes, vcpu or a level not > 0).
 */
int hwscale_predict(const struct hwscale_size *sizes, size_t n, double vcpu, const double *threads,
                    size_t m, double rel95, struct hwscale_level *out, struct hwscale_info *info,
                    char *errmsg, size_t errcap);

/**
 * The highest throughput of a curve whose latency statistic meets a target, model-free: the
 * curve is piecewise linear in N between levels (throughput and latency alike); the answer is
 * the largest throughput over the levels that meet the target and over the crossing points where
 * a segment's latency reaches the target. Used by hwscale_validate on measured and predicted
 * curves alike, so both are judged by the same rule.
 * @param lat_s   latency of each level (any time unit, the target's), NAN when absent
 * @return the throughput, or NAN when no level meets the target (or none has a latency).
 */
double hwscale_tps_at_latency(const double *threads, const double *tps, const double *lat, size_t m,
                              double target);

/* Leave-one-out result for one size. */
struct hwscale_loo {
    double vcpu;
    enum hwscale_basis basis; /* basis of the level of its predicted peak */
    size_t n_extrapolated;    /* levels predicted BELOW, ABOVE, ONE or BEYOND */
    double peak_measured, peak_predicted, peak_error;       /* error = predicted / measured - 1 */
    double target_measured, target_predicted, target_error; /* at the latency target; NAN when
                                                               either side does not meet it */
    double max_abs_level_error;                             /* largest |error| over its levels */
};

/* Leave-one-out validation of a family. */
struct hwscale_validation {
    size_t n;                /* sizes validated (= sizes given when n >= 2, else 0) */
    struct hwscale_loo *loo; /* n entries, caller-provided */
    double rel95;            /* 95th percentile of |level error| over every level of every size,
                                linear between order statistics; NAN when n < 2 */
    double peak_median, peak_worst;     /* of |peak_error|; NAN when n < 2 */
    size_t peak_worst_index;            /* which size */
    double target_median, target_worst; /* of |target_error| over sizes where defined; NAN */
    size_t target_worst_index;
    size_t n_level_errors; /* levels pooled into rel95 */
};

/**
 * Predict every size from the others at its own levels and compare. With a latency target,
 * lat_index names the statistic (index into lat_ratio) and target its value in the unit of
 * threads / tps (seconds for tps); lat_index < 0 skips the target comparison.
 * @param loo  caller-provided array of n entries
 * @return 0 (out->n = 0 when n < 2: nothing to leave out), or -1 with errmsg (bad sizes, out of
 *         memory).
 */
int hwscale_validate(const struct hwscale_size *sizes, size_t n, int lat_index, double target,
                     struct hwscale_loo *loo, struct hwscale_validation *out, char *errmsg,
                     size_t errcap);

#endif
