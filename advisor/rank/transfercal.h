/*
 * transfercal.h - how far a CPU-score transfer misses (`sizeup predict --calibrate-transfer
 * BENCH.KIND --scores FILE`; docs/predict.md "Calibrating the score transfer").
 *
 * On points measuring several families (the published AWS table: c5, c5a, c6g), every measured
 * size of every family F is predicted from every other family G alone, exactly as
 * `--transfer F=G:score:BENCH.KIND` predicts it (predict.h, without the widening this
 * calibrates): G's sizes scaled to F's vCPU count by models/hwscale.h and multiplied by the
 * ratio of per-core scores (scores.h). Each prediction is one pair: the predicted peak (the
 * highest predicted tps over F's measured thread levels) against F's measured peak (the
 * highest mean tps over its levels, advisor/curve.h's pooling). Its error is
 * |measured / predicted - 1|.
 *
 * The bound: the k-th smallest error, k = ceil(coverage x (n + 1)), of the n pairs: a split
 * conformal prediction bound (Lei, G'Sell, Rinaldo, Tibshirani & Wasserman 2018,
 * "Distribution-Free Predictive Inference for Regression", JASA 113:1094-1111, sec. 2.2): for
 * one more pair exchangeable with these, P(error <= bound) >= coverage. INFINITY when
 * k > n (too few pairs for that coverage). The pairs of one family pair share their score
 * ratio's error, so they are not independent: the held-out check says how the bound does on a
 * family it did not see (each family's pairs against the bound of the pairs without it).
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_TRANSFERCAL_H
#define SIZEUP_ADVISOR_TRANSFERCAL_H

#include "catalog.h"
#include "point.h"
#include "scores.h"

#include <stdio.h>

#define TCAL_MAX_FAMILIES 32

struct tcal_pair {
    char family[64], from[64]; /* predicted family and the family it came from */
    char workload[64];
    const char *config; /* borrowed from the catalog */
    int vcpu;
    double ratio;     /* per-core score ratio applied */
    double predicted; /* peak tps */
    double measured;  /* peak tps */
    double error;     /* |measured / predicted - 1| */
};

struct tcal_result {
    char spec[64];
    double coverage;
    size_t n;
    struct tcal_pair *pairs; /* owned */
    size_t n_families;
    char families[TCAL_MAX_FAMILIES][64]; /* measured families, in group order */
    int scored[TCAL_MAX_FAMILIES];        /* 1: the score file has a score for it */
    double bound;                         /* the conformal bound over every pair */
    size_t held_n, held_in; /* held out: pairs checked, and inside their family's bound */
    double held_bound[TCAL_MAX_FAMILIES]; /* the bound without family i (INFINITY: too few) */
};

/**
 * Calibrate spec on pts.
 * @param pts       measured points of two or more families (borrowed)
 * @param cat       the catalogs their configurations are in (borrowed)
 * @param sc        the score file (borrowed)
 * @param spec      "BENCH.single" or "BENCH.all"
 * @param workload  only this workload, or NULL for every one
 * @param coverage  in (0, 1), e.g. 0.95
 * @param out       filled; free with tcal_result_destroy (also after a failure)
 * @param errf      problems (a family without a score: its pairs left out), or NULL
 * @return the number of pairs (>= 0), or -1 (bad spec, fewer than two families measured,
 *         out of memory; said on errf).
 */
long tcal_run(const struct point_list *pts, const struct cat_catalog *cat,
              const struct score_table *sc, const char *spec, const char *workload, double coverage,
              struct tcal_result *out, FILE *errf);

/** Free what r owns. NULL-safe. */
void tcal_result_destroy(struct tcal_result *r);

/**
 * The conformal bound: the k-th smallest of err[0..n), k = ceil(coverage x (n + 1)), or
 * INFINITY when k > n (or n = 0). err is not changed.
 */
double tcal_conformal(const double *err, size_t n, double coverage);

/** Text: the pairs, the distribution of predicted / measured, the bound, the held-out check
 * and the calibration entry for the score file. @return 0 or -1 (I/O). */
int tcal_write_text(FILE *f, const struct tcal_result *r);

/** The same as one sizeup.transfer-calibration/1 JSON object and a newline. @return 0 or -1. */
int tcal_write_json(FILE *f, const struct tcal_result *r);

#endif
