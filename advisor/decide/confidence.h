/*
 * confidence.h - how sure a ranking is: the probability that each configuration is the best at
 * the target, which configurations are tied with the best within noise, the break-even price
 * at which the runner-up overtakes the winner, and which unprobed configuration to probe next.
 *
 * Resampling (a parametric bootstrap of the rows' figures): each draw gives every ranked row a
 * throughput drawn from its 95 % interval, read as a normal distribution of the estimate whose
 * 1.96 sigma is the interval's half-width on each side (the lower half-width below the
 * figure, the upper above it, so an asymmetric interval keeps its shape), truncated at
 * +/-3.29 sigma (99.9 %) and at a throughput > 0; rows are drawn independently (the
 * predicted rows of one family share the measured sizes they come from, which this ignores);
 * the seed is fixed (gsl_rng mt19937), so a run is reproducible. A row's score is its
 * throughput per cost, x / (cost per hour) (with a required throughput: minus the monthly
 * cost, ceil(required / x) copies; a scale-out curve's node count is held). P(best) is the
 * share of draws in which a row has the highest score. A row whose best possible score (at
 * +3.29 sigma) is below some row's worst (at -3.29 sigma) can never be best: P = 0 exactly,
 * and it is not drawn.
 *
 * Ties: a row is tied with the best (rank 1) within noise when it scores above it in at least
 * tie_p (5 %) of the draws: the order of the two is not resolved at 95 %.
 *
 * Break-even (at the point figures): the runner-up (rank 2) overtakes the winner when its
 * hourly price falls below p2 x S2 / S1 (S the scores; for throughput per cost this is
 * x2 p1 / x1), or the winner's rises above p1 x S1 / S2 — both linear in the hourly price.
 *
 * Probe next: the predicted row (basis CURVE_BASIS_PREDICTED) with the largest P(best): the
 * unprobed configuration whose measurement would most change the decision; among predicted rows
 * that cannot be best, none.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_CONFIDENCE_H
#define SIZEUP_ADVISOR_CONFIDENCE_H

#include "rankset.h"

#include <jansson.h>
#include <stdio.h>

#define CONF_DEFAULT_DRAWS 10000
#define CONF_DEFAULT_SEED 42UL
#define CONF_DEFAULT_TIE_P 0.05
#define CONF_TRUNCATE_Z 3.29

struct conf_options {
    size_t draws;       /* >= 100 */
    unsigned long seed; /* gsl_rng seed */
    double tie_p;       /* (0, 0.5] */
};

/** The defaults above. */
struct conf_options conf_options_default(void);

/* One row, in the order of rank_set.rows. */
struct conf_row {
    double p_best;       /* share of draws where it scores highest, [0, 1]; 0 when not met */
    double p_above_best; /* share of draws where it scores above the rank-1 row (0 for it) */
    int candidate;       /* 1: it can be best (drawn) */
    int tied;            /* 1: tied with the best within noise (p_above_best >= tie_p) */
};

struct rank_confidence {
    struct conf_options opt;
    size_t n;                               /* rows */
    struct conf_row *rows;                  /* owned, n */
    size_t candidates;                      /* rows that can be best */
    long best, runner_up;                   /* row indices (rank 1 and 2), -1 when absent */
    double break_even_runner_cost_per_hour; /* the runner-up's hourly price at which it ties the
                                               winner; NAN without a runner-up */
    double break_even_best_cost_per_hour;   /* the winner's hourly price at which the runner-up
                                               ties it; NAN likewise */
    long probe_next;                        /* predicted row with the largest P(best), -1 */
    int by_month;                           /* 1: scores are monthly costs (required tps) */
};

/**
 * Compute everything above for a built ranking (rows in ranking order).
 * @return 0, -1 (out of memory, or opt out of range: c left empty).
 */
int conf_compute(struct rank_confidence *c, const struct rank_set *s, const struct conf_options *o);

/** Free what c owns; leaves it empty. NULL-safe. */
void conf_destroy(struct rank_confidence *c);

/**
 * The text block printed under a ranking: P(best) of the rows that can be best, the ties, the
 * break-even line and what to probe next. @return 0 or -1 (I/O).
 */
int conf_write_text(FILE *f, const struct rank_set *s, const struct rank_confidence *c);

/**
 * Add row i's figures to its sizeup.ranking/1 object o: p_best, tied_with_best, probe_next and,
 * for rank 1 and 2, break_even_cost_per_hour. @return 0, or -1 (memory).
 */
int conf_row_json(const struct rank_confidence *c, size_t i, json_t *o);

#endif
