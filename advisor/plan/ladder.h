/*
 * ladder.h - the adaptive thread ladder of `sizeup probe run --threads auto`: which
 * concurrency to measure next, given the levels measured so far.
 *
 * Two phases:
 *   1. doubling: 1, 2, 4, ... until the throughput gain over the previous level is below
 *      min_gain (5 %) for two steps in a row (a plateau or a fall), or the level's latency
 *      passes max_latency_ms, or max_threads is reached (the last step is clipped to it);
 *   2. refining near the knee: build the curve (advisor/curve.h: shape, fit, whether the model
 *      describes the levels) and take its peak: the model's N* with its 95 % interval, or the
 *      best measured level with its neighbours as the interval (the estimate the geometric
 *      midpoint between it and its higher neighbour, where the peak leans); without a peak the knee
 * of the model when it is used (1/sigma for Amdahl's law and a plateau-bound USL, X_m/lambda for
 *      the piecewise bound), else for a plateau the first level within the noise of the best
 *      (the interval reaching back to the level before it). When that interval is narrow
 *      ((hi - lo) <= narrow * value) the ladder ends; otherwise the next level is the
 *      geometric midpoint round(sqrt(a*b)) of the measured levels a < b that bracket the
 *      estimate (the gap at the end of the range when it lies outside), or of the nearest
 *      neighbouring gap that can still be split; when no gap near the knee can be split
 *      (adjacent thread counts), or max_points levels are measured, the ladder ends.
 * Geometric midpoints because throughput curves are read on a log-concurrency axis and the
 * doubling phase spaces levels evenly there.
 *
 * Thread-safety: a ladder belongs to one thread; it touches only its arguments.
 */
#ifndef SIZEUP_ADVISOR_LADDER_H
#define SIZEUP_ADVISOR_LADDER_H

#include "slo.h"
#include "usl.h"

#include <stddef.h>

/* Most levels one ladder measures. */
#define LADDER_MAX_LEVELS 64

struct ladder_opts {
    unsigned max_threads;  /* largest level, >= 1 */
    size_t max_points;     /* most levels, 2..LADDER_MAX_LEVELS */
    double min_gain;       /* doubling stops after two gains below this, e.g. 0.05 */
    double max_latency_ms; /* doubling stops once a level's latency passes it; 0 = no bound */
    double narrow;         /* refining stops when (hi - lo) <= narrow * value, e.g. 0.5 */
};

/** Defaults: max_threads 64, max_points 10, min_gain 0.05, no latency bound, narrow 0.5. */
struct ladder_opts ladder_opts_default(void);

/* The auto ladder stops doubling once a level's latency is this many times the target: past it
 * the curve only shows where the target was left behind. */
#define LADDER_LATENCY_FACTOR 4

/**
 * The ladder's latency bound for a latency target: LADDER_LATENCY_FACTOR x slo->target_s, in
 * ms (the max_latency_ms `probe run --slo` and a study use unless given one); 0 (no bound) when
 * slo is NULL or has no target (target_s 0).
 */
double ladder_latency_bound_ms(const struct slo *slo);

enum ladder_phase { LADDER_DOUBLING = 0, LADDER_REFINING = 1, LADDER_DONE = 2 };

struct ladder_level {
    unsigned threads;
    double tps;        /* > 0 for the level to enter the fit */
    double latency_ms; /* the bounded latency percentile; NAN when unknown */
};

struct ladder {
    struct ladder_opts o;
    struct ladder_level lv[LADDER_MAX_LEVELS]; /* in measurement order */
    size_t n;
    enum ladder_phase phase;
    char why[240];          /* why the last decision was taken (end, doubling, midpoint) */
    char doubling_why[240]; /* why doubling ended ("" while doubling) */
    int have_est;           /* 1: est, est_lo, est_hi hold the last refining estimate */
    int est_is_peak;        /* 1: the estimate is the USL peak N*; 0: a knee */
    double est, est_lo, est_hi;
};

/**
 * Start a ladder.
 * @return 0, or -1 when opts are out of range (max_threads 0, max_points < 2 or above
 *         LADDER_MAX_LEVELS, min_gain or narrow not > 0, max_latency_ms < 0).
 */
int ladder_init(struct ladder *l, const struct ladder_opts *opts);

/**
 * Record a measured level.
 * @return 0, or -1 when the ladder is full or threads is 0.
 */
int ladder_add(struct ladder *l, unsigned threads, double tps, double latency_ms);

/**
 * The next level to measure.
 * @param ws  USL workspace to reuse for the fits, or NULL
 * @return threads (>= 1), or 0 when the ladder is done; l->why says why in either case.
 */
unsigned ladder_next(struct ladder *l, struct usl_workspace *ws);

#endif
