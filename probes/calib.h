/*
 * calib.h - calibration of a short probe point: where warm-up ends, and when the mean
 * throughput is known to the asked precision.
 *
 * Input is the per-interval throughput series of one point (equal-length intervals, e.g. tps of
 * each 250 ms tick), oldest first.
 *
 * Warm-up: MSER-m truncation (White 1997, "An effective truncation heuristic for bias reduction
 * in simulation output", Simulation 69(6); White, Cobb & Spratt 2000, "A comparison of five
 * steady-state truncation heuristics for simulation", Proc. Winter Simulation Conference).
 * The series is cut into batches of m intervals (m = 5 gives MSER-5); for each candidate cut d
 * (in batches) MSER(d) = sum_{j>d} (Z_j - mean_{j>d} Z)^2 / (k - d)^2 over the k batch means Z;
 * the cut is the d that minimises it, searched over d <= k/2 (searching further picks spurious
 * minima among the last few batches). A minimum at the boundary d = k/2 means MSER was still
 * falling: the series is still trending, so warm-up is not over (not steady yet).
 *
 * Precision: non-overlapping batch means (Schmeiser 1982, "Batch size effects in the analysis
 * of simulation output", Operations Research 30(3); Law, "Simulation Modeling and Analysis",
 * 5th ed., §9.5.3). The kept series is cut into CALIB_BATCHES (20) batches of equal size (the
 * first few intervals are dropped so the count divides); the batch means are close to
 * independent even when intervals are autocorrelated, so the 95 % half-width is
 * t(0.975, b-1) * s_batch / sqrt(b). With fewer than CALIB_MIN_BATCHES x 1 intervals the
 * interval is not computed.
 *
 * What this interval is not: it sees only the variation inside one run. Throughput also moves
 * between runs (drift of the host on the scale of tens of seconds to minutes, the state a run
 * starts from), which no single run, short or long, can see: two runs differ by more than either
 * interval says. A point's interval that covers what a rerun would measure needs replicates
 * separated in time: the probe measures a curve in passes (advisor/passes.h), pools each level's
 * replicates with the server's run-to-run noise, estimated over the replicated levels
 * (models/noise.h: a two-level random-effects model after Kalibera & Jones, "Rigorous
 * Benchmarking in Reasonable Time", ISMM 2013, who estimate the variance at each level of
 * repetition - iterations within an execution, executions - and how many repetitions each level
 * needs), and sets each replicate's length from those variance parts. This rule still decides
 * the warm-up cut and when one replicate stops; its interval is that replicate's within-run part.
 *
 * Pure functions of their input; thread-safe.
 */
#ifndef SIZEUP_PROBES_CALIB_H
#define SIZEUP_PROBES_CALIB_H

#include <stddef.h>

/* Batch count of the batch-means interval (Schmeiser 1982: 10 to 30 batches). */
#define CALIB_BATCHES 20
/* Fewest batches (each at least one interval) for an interval to be computed. */
#define CALIB_MIN_BATCHES 10

enum {
    CALIB_OK = 0,
    CALIB_EINVAL = -1, /* NULL or non-finite input, m == 0 */
    CALIB_ESHORT = -2  /* too few intervals for the rule */
};

/**
 * MSER-m warm-up cut.
 * @param x       per-interval throughput, n values (any unit), finite
 * @param n       number of intervals; at least 2*m
 * @param m       batch size in intervals (5 for MSER-5), >= 1
 * @param cut     out: number of leading intervals to drop (a multiple of m)
 * @param steady  out: 1 when the minimum lies before k/2 batches (warm-up is over), else 0
 * @return CALIB_OK, CALIB_EINVAL, CALIB_ESHORT (n < 2*m).
 */
int calib_mser(const double *x, size_t n, size_t m, size_t *cut, int *steady);

/* The estimate of a series' mean with its 95 % batch-means interval. */
struct calib_estimate {
    double mean;      /* mean of the intervals used */
    double half95;    /* half-width of the 95 % confidence interval of the mean */
    double rel95;     /* half95 / mean (infinite when the mean is 0) */
    size_t batches;   /* batches used */
    size_t batch_len; /* intervals per batch */
    size_t used;      /* intervals used (a multiple of batch_len; the oldest extras dropped) */
    double lag1;      /* lag-1 autocorrelation of the batch means (a check: near 0 is good) */
};

/**
 * Mean and 95 % batch-means interval of x[0..n).
 * @param x    per-interval throughput after the warm-up cut
 * @param n    intervals; at least CALIB_MIN_BATCHES
 * @param out  filled on success
 * @return CALIB_OK, CALIB_EINVAL, CALIB_ESHORT.
 */
int calib_batch_means(const double *x, size_t n, struct calib_estimate *out);

/* What the stopping rule decided after the newest interval. */
struct calib_decision {
    int stop;                  /* 1: stop now */
    int steady;                /* 1: warm-up over and the precision reached */
    size_t cut;                /* warm-up intervals dropped: MSER's cut, also when it lies at
                                  the boundary k/2 (then not steady: the series still trends, and
                                  its second half is nearer where it settles than the whole) */
    struct calib_estimate est; /* valid when have_est */
    int have_est;
    int indep; /* 1: the batch means pass the independence check (see calib_decide) */
};

/**
 * The stopping rule of a calibrated point, applied after each interval: stop when the elapsed
 * time is >= min_time_s, the warm-up is over (MSER-m), and the 95 % interval of the mean of the
 * kept intervals is within precision (relative) of the mean, and the batch means look
 * independent: their lag-1 autocorrelation is at most 1.96/sqrt(b), Bartlett's 95 % bound for
 * white noise (Box & Jenkins, "Time Series Analysis", §6.2; Law, "Simulation Modeling and
 * Analysis", 5th ed., §9.5.3 asks for batch means that are close to uncorrelated). Early in a
 * point the batches are one interval long; when intervals are autocorrelated the check holds the
 * decision back until the batches are long enough, instead of stopping on an interval that is
 * too narrow. Or stop when elapsed >= max_time_s (then steady = 0).
 * @param x            per-interval throughput so far, n values
 * @param interval_s   length of one interval, seconds (> 0)
 * @param m            MSER batch size in intervals (>= 1)
 * @param precision    relative half-width asked for, e.g. 0.02
 * @param min_time_s   never stop before this elapsed time
 * @param max_time_s   always stop at this elapsed time
 * @param out          decision
 * @return CALIB_OK or CALIB_EINVAL.
 */
int calib_decide(const double *x, size_t n, double interval_s, size_t m, double precision,
                 double min_time_s, double max_time_s, struct calib_decision *out);

#endif
