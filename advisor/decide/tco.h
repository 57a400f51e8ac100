/*
 * tco.h - what a ranking costs over a horizon, whether its comparison is like for like, and
 * where its decision flips: the IDC-versus-cloud questions of a finance reviewer.
 *
 * Like for like: a ranking that holds highly available configurations (catalog `ha`) and
 * others compares a machine with a standby against one without; unless rank_options.ha_standby
 * priced standby copies for the others, the comparison is flagged (tco.like_for_like = 0).
 *
 * Horizon: the NPV of each ranked configuration's cost over H months at an annual discount
 * rate under every pricing model its catalog prices (catalogs/cost.h cat_cost_npv: purchases
 * and refreshes of owned servers with the residual book value credited; cloud commitments
 * paid upfront or monthly), and the levelised cost per million transactions at the target,
 * NPV / (X x 3600 x discounted hours / 1e6). H defaults to the longest amortisation period of
 * the owned servers ranked (none ranked: no horizon unless asked).
 *
 * Where the decision flips (winner W, rank 1, against runner-up R, rank 2): the advantage
 * A = S_W / S_R (S the ranking's score, advisor/confidence.h: tps per hourly cost, or minus
 * the monthly cost with a required throughput), and for every estimated input of W's and R's
 * costs (catalogs/cost.h cat_cost_input: a price or a server-model figure with estimate, or one
 * the user set, catalogs/setinput.h, whatever the catalog called it) the
 * break-even value: the value at which A = 1, all else held. The score is proportional to
 * 1 / cost (and the monthly cost to the hourly cost at a fixed node count), so that is the
 * value where W's hourly cost reaches the break-even price of confidence.h
 * (break_even_best_cost_per_hour), or R's falls to break_even_runner_cost_per_hour; found by
 * bisection (200 halvings) within the values the catalog accepts for the input, as cost is
 * monotone in each input; none there: the input cannot flip the decision alone. Sensitivity:
 * A with each input that has a range at its low and at its high (the tornado chart of the
 * report).
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_TCO_H
#define SIZEUP_ADVISOR_TCO_H

#include "confidence.h"
#include "cost.h"
#include "rankset.h"

#include <jansson.h>
#include <stdio.h>

#define TCO_DEFAULT_RATE 0.05
#define TCO_MAX_INPUTS (2 * CAT_MAX_INPUTS)

/* The cost of one row under one pricing model over the horizon. */
struct tco_pricing {
    enum cat_pricing pricing;
    struct cat_npv npv;
    double per_mtx; /* levelised currency per million transactions at the target */
};

/**
 * The NPV of pricing p per 1,000 tps of row r's throughput at the target: p->npv.total x 1000 /
 * r->x.value (currency), a pro-rata figure for comparing rows of unequal capacity (issue 28.16:
 * a 468-tps row's NPV next to a 1,437-tps row's read as comparable). NAN when the row has no
 * throughput at the target.
 */
double tco_npv_per_ktps(const struct rank_row *r, const struct tco_pricing *p);

/* One ranked row over the horizon. */
struct tco_row {
    size_t n;                                 /* pricing models priced */
    struct tco_pricing pr[CAT_PRICING_COUNT]; /* owned: one (the server has one cost) */
    long cheapest;                            /* index into pr of the lowest NPV, or -1 */
};

/* One estimated (or user-set) input of the winner's or the runner-up's cost. */
struct tco_input {
    int side;                 /* 0: the winner's, 1: the runner-up's */
    const char *config;       /* borrowed row id */
    struct cat_cost_input in; /* name, figure (provenance, range), value, unit, domain */
    double break_even;        /* the value at which the two tie; NAN when none in the domain */
    int rises;                /* 1: the winner's lead shrinks as the input rises */
    double adv_low, adv_high; /* the advantage with the input at its low / high; NAN without a
                                 range */
};

struct rank_tco {
    int months;         /* the horizon, 0: none */
    int months_default; /* 1: the amortisation period (no --horizon) */
    double rate;        /* annual discount rate */
    int like_for_like;  /* 0: HA and single configurations ranked together, no standby added */
    size_t n_ha, n_single, n_standby_added; /* ranked rows of each kind */
    size_t n;                               /* rows */
    struct tco_row *rows; /* owned, n, in the order of rank_set.rows; NULL when months is 0 */
    long best, runner_up; /* row indices, -1 when absent */
    double advantage;     /* A at the catalog's figures; NAN without both */
    size_t n_inputs;
    struct tco_input inputs[TCO_MAX_INPUTS]; /* winner's first, then the runner-up's */
};

/**
 * Parse a horizon "3y", "36m" or "36mo" (whole months from 1 to 1200) into *months.
 * @return 0, or -1 with the reason in err (cap bytes).
 */
int tco_parse_horizon(const char *arg, int *months, char *err, size_t cap);

/**
 * Compute the above for a built ranking whose confidence c is computed (break-even prices).
 * @return 0, or -1 (out of memory: t left empty).
 */
int tco_compute(struct rank_tco *t, const struct rank_set *s, const struct rank_confidence *c);

/** Free what t owns; leaves it empty. NULL-safe. */
void tco_destroy(struct rank_tco *t);

/**
 * The text block printed under a ranking's how-sure lines: like for like, the horizon table,
 * the break-even line and the sensitivity table. @return 0 or -1 (I/O).
 */
int tco_write_text(FILE *f, const struct rank_set *s, const struct rank_tco *t);

/**
 * The inputs of t in v (TCO_MAX_INPUTS pointers into t): by_swing 1, the widest sensitivity
 * first (ranged inputs, |log A_high - log A_low|; the others last); 0, the nearest break-even
 * first (|log(break-even / value)|; none last). @return the count.
 */
size_t tco_sorted_inputs(const struct rank_tco *t, const struct tco_input **v, int by_swing);

/** An input's swing |log A_high - log A_low|, or -1 without a range. */
double tco_swing(const struct tco_input *k);

/**
 * Add row i's figures to its sizeup.ranking/1 object o: ha, standby_added, horizon (months,
 * rate, pricing: [{pricing, npv, capital, running, residual, per_million_tx}]) and, on the
 * rank-1 row, decision {like_for_like, against, advantage, inputs: [{config, name, value,
 * unit, estimate, low, high, break_even, advantage_low, advantage_high}]}. @return 0 or -1.
 */
int tco_row_json(const struct rank_tco *t, const struct rank_set *s, size_t i, json_t *o);

/**
 * A figure as the text outputs print it: whole numbers from 10,000 up (below 1e15), else 4
 * significant digits ("%.4g").
 * @param buf  cap bytes, written (NUL-terminated, cut at cap)
 * @return buf.
 */
const char *tco_fnum(char *buf, size_t cap, double v);

#endif
