/*
 * shape.h - what the measured points of a throughput curve show, before any model: rising,
 * plateau, peaked, falling, collapse, and a superlinear start. Model choice (fit.h) and the
 * words sizeup prints follow from it, so a falling curve is never called a plateau.
 *
 * Input: m levels (x_i, X_i) sorted by x, each with a 95 % half-width h_i of its mean (from
 * replicates or the points' own intervals; NAN when unknown). The noise of a level is
 *     e_i = h_i                           when h_i includes the run-to-run noise (replicates
 *                                         pooled over the curve: noise.h)
 *     e_i = max(h_i, SHAPE_NOISE_REL * X_i) otherwise
 * (SHAPE_NOISE_REL = 5 %: the run-to-run spread of a single benchmark point of unknown
 * precision, whose own interval, if any, is the run's alone. The published AWS table's 136
 * levels with 2-3 runs have a median relative standard deviation of 1.4 % and a 90th percentile
 * of 5.6 %, i.e. a 95 % half-width of 3-11 % for one run; 5 % is also the gain below which the
 * auto ladder calls a doubling flat. Where replicates measured the noise, the floor would hide
 * what they show: c5a.4xlarge's 128-thread level, 5 % below its best with replicates within
 * 1 %, read as a plateau.) A difference of two levels is beyond the noise when
 * |X_a - X_b| > sqrt(e_a^2 + e_b^2).
 *
 * The rule, applied in this order (b = the level with the highest X, the first of equals):
 *   collapse  some neighbours i, i+1 with log-log slope ln(X_{i+1}/X_i) / ln(x_{i+1}/x_i) < -2
 *             and a drop X_i - X_{i+1} > 3 sqrt(e_i^2 + e_{i+1}^2): throughput falls faster than
 *             the square of the concurrency rises, twice as fast as any USL curve can fall (past
 *             its peak the USL falls at most like 1/N), and far beyond the noise. The first such
 *             pair is reported.
 *   falling   X_b - X_last beyond the noise and b = 0: past its peak over the whole range
 *   peaked    X_b - X_last beyond the noise and b > 0: the peak lies inside the data
 *   rising    X_last - X_{last-1} beyond the noise: still gaining at the largest level
 *   plateau   otherwise: the last levels are within the noise of each other and of the best
 * With one level the class is SHAPE_SINGLE. Independently, a superlinear start is
 * X_1 - (x_1/x_0) X_0 > sqrt(e_1^2 + (x_1/x_0)^2 e_0^2): the second level gives more than its
 * share of the first level's per-unit rate (X(2) > 2 X(1) on 1, 2, ... threads), which no
 * saturation model can follow (it needs sigma < 0).
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_MODELS_SHAPE_H
#define SIZEUP_MODELS_SHAPE_H

#include <stddef.h>

/* Relative noise of a level of unknown precision, and the floor of every level's noise. */
#define SHAPE_NOISE_REL 0.05
/* Collapse: log-log slope below this between neighbours ... */
#define SHAPE_COLLAPSE_SLOPE (-2.0)
/* ... and a drop of more than this many times the noise of the difference. */
#define SHAPE_COLLAPSE_NOISES 3.0

enum shape_class {
    SHAPE_SINGLE = 0, /* one level: no shape */
    SHAPE_RISING,     /* still gaining at the largest level */
    SHAPE_PLATEAU,    /* saturated: no fall and no gain beyond the noise at the end */
    SHAPE_PEAKED,     /* a peak inside the data, lower throughput beyond it */
    SHAPE_FALLING,    /* past its peak over the whole measured range */
    SHAPE_COLLAPSE    /* a drop between neighbours far beyond the noise (a cliff) */
};

struct shape {
    enum shape_class cls;
    size_t m;              /* levels */
    size_t best;           /* level with the highest throughput (the first of equals) */
    size_t collapse_at;    /* SHAPE_COLLAPSE: the drop is from level collapse_at to the next */
    int superlinear_start; /* 1: the superlinear first step above */
    double start_ratio;    /* X_1 / X_0 (NAN with one level) */
    size_t top_lo, top_hi; /* the run of levels around best within the noise of the best */
};

/** Name: "single level", "rising", "plateau", "peaked", "falling", "collapse". */
const char *shape_class_name(enum shape_class c);

/**
 * The noise of a level: max(half95, SHAPE_NOISE_REL * x) (half95 NAN or < 0: unknown).
 */
double shape_noise(double x, double half95);

/**
 * Classify a curve by the rule above.
 * @param n       x of each level, > 0, strictly increasing
 * @param x       mean throughput of each level, > 0
 * @param half95  95 % half-width of each level's mean, NAN when unknown; may be NULL (all
 *                unknown)
 * @param between 1 for a level whose half95 includes the run-to-run noise (no 5 % floor);
 *                may be NULL (none does)
 * @param m       levels, >= 1
 * @return 0, or -1 when m is 0, a value is not finite and > 0, or n is not increasing (out is
 *         then zeroed).
 */
int shape_classify(const double *n, const double *x, const double *half95, const int *between,
                   size_t m, struct shape *out);

#endif
