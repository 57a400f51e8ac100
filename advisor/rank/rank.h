/*
 * rank.h - rank configurations by throughput per cost at a latency target (sizeup.ranking/1).
 *
 * A curve (advisor/curve.h) is the points of one configuration and one workload; curve.h says
 * which points count, how replicates pool, how the curve is fitted and how the throughput at a
 * latency target is found (curve_at_target). For a scale-out curve on nodes the answer is at
 * the configuration's node count.
 *
 * Combination of a workload mix with weights w_i (sum 1): the time-weighted throughput is the
 * weighted harmonic mean X = 1 / sum(w_i / X_i) (one transaction of the mix, a share w_i of
 * it of workload i, takes sum w_i / X_i seconds of the configuration's time); its interval
 * combines the interval ends the same way (X is monotone in each X_i).
 *
 * Figures per configuration (rank_row): cost per hour (catalogs/cost.h), throughput per cost
 * X / (cost per hour) in tps per currency-unit per hour, cost per million transactions
 * 1e6 x cost per hour / (3600 X), headroom to the peak X_peak / X - 1 (a plateau's best
 * level when there is no peak; a curve still rising at its largest level: its best measured
 * level, and the headroom is a lower bound, rank_row.headroom_lower_bound).
 *
 * Utilisation at the operating point (rank_row.load): rho = X / X_peak = 1 / (1 + headroom).
 * By the utilisation law U = X x D (Denning and Buzen, "The operational analysis of queueing
 * network models", ACM Computing Surveys 10(3), 1978) the bottleneck's demand D_max bounds the
 * throughput, X <= 1 / D_max (the asymptotic bound; Lazowska et al., "Quantitative System
 * Performance", 1984, ch. 5), so the bottleneck's utilisation at throughput X is X / X_max,
 * with the curve's peak as X_max. For a CPU-bound database that is its CPU utilisation; the
 * owned servers' power curve is read at it (catalogs/cost.h cat_cost_opts.measured_load)
 * instead of the catalog's cpu_load. Unknown (NAN) when the curve gives no peak.
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
#include "curve.h"
#include "derived.h"
#include "slo.h"

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

/* Status of a configuration or of one curve at the target. */
enum rank_status {
    RANK_MET = 0,         /* the target is met: throughput at the target is known */
    RANK_NEVER,           /* the latency at the smallest concurrency already exceeds the target */
    RANK_NOLATENCY,       /* a percentile target but no percentile measured */
    RANK_NOCURVE,         /* no points for a workload of the mix */
    RANK_NOFIT,           /* the curve could not be fitted */
    RANK_NOPRICE,         /* the catalog gives no cost for the pricing model */
    RANK_UNREACHABLE_TPS, /* the required throughput cannot be served within the search */
    RANK_OUTSIDE,         /* scale-out: the configuration's node count lies outside the
                             measured range (curve.h CURVE_OUTSIDE) */
    RANK_NO_SCALE_OUT     /* the required throughput needs more than one copy of a configuration
                             the catalog does not say scales out (cat_config.scale_out) */
};

/** How a row's node count was found (with a required throughput): "one copy" (a configuration
 *  that does not scale out, carrying the load alone), "linear scale-out" (copies of one that
 *  does), else the scale-out curve's basis ("measured", ...); short_form: "one", "linear",
 *  "curve" for the text table. (Defined in rank_output.c.) */
struct rank_row;
const char *nodes_by(const struct rank_row *r, int short_form);

/* A row whose 95 % interval reaches further than this share of its throughput either way cannot
 * decide a ranking (the data cannot tell a 2x difference): the outputs say so first. */
#define RANK_TOO_NOISY 0.5

/** The half-width of a met row's 95 % interval relative to its throughput (the wider side),
 *  or NAN when the row has no throughput or no interval. Above RANK_TOO_NOISY: too noisy. */
double rank_row_noise(const struct rank_row *r);

/** "meets the target", "never meets the target", ... */
const char *rank_status_text(enum rank_status s);

/** Short name: "met", "never", "no-latency", "no-curve", "no-fit", "no-price", "short",
 * "outside", "no-scale-out". */
const char *rank_status_name(enum rank_status s);

/* One workload of a row at the target. */
struct rank_at {
    enum rank_status status; /* from c.status (RANK_MET, _NEVER, _NOLATENCY, _OUTSIDE), or
                                RANK_NOCURVE */
    struct curve_at c;       /* the curve at the target (curve.h); empty with RANK_NOCURVE */
};

/* What a ranking asks. */
struct rank_options {
    struct slo slo;
    enum cat_pricing pricing;
    double required_tps; /* 0: none */
    size_t n_mix;        /* >= 1 */
    struct rank_mix_item mix[RANK_MAX_MIX];
    double extrapolate;       /* F >= 1: search up to F x the largest measured level (curve.h);
                                 0 or 1: not past it */
    int ha_standby;           /* >= 0: standby copies priced for every configuration that is not
                                 highly available (cat_cost_opts.add_standby; like for like) */
    int horizon_months;       /* > 0: the horizon of the NPV (advisor/tco.h); 0: the amortisation
                                 period of the owned servers ranked, and none without one */
    double discount_rate;     /* annual, [0, 1]: of the NPV */
    int max_price_age_months; /* a price older than this many months is said to need a refresh
                                 (issue 26.3); 0: RANK_MAX_PRICE_AGE */
};

/* The default age, in months, past which a ranking says a price needs refreshing. */
#define RANK_MAX_PRICE_AGE 12

/* One configuration in a ranking. */
struct rank_row {
    const char *config; /* borrowed id */
    int config_nodes;   /* the configuration's node count */
    enum rank_status status;
    size_t n_at;
    struct rank_at *at;           /* n_at of them, per workload of the mix: rank_row_eval's storage,
                                     owned by its caller, shared by the rows copied from one evaluation */
    struct derived_value x;       /* throughput at the target (mix: harmonic), tps */
    double n;                     /* concurrency at the target (single workload), else NAN */
    enum curve_basis basis;       /* the weakest basis among the workloads with weight */
    size_t basis_from;            /* the workload (index into the mix) that gives it */
    double cost_per_hour;         /* currency per hour at config_nodes; NAN without price */
    int cost_estimate;            /* 1: a price term rests on an estimate */
    double tps_per_cost;          /* tps per (currency per hour) */
    double cost_per_mtx;          /* currency per million transactions */
    double headroom;              /* fraction: X_peak / X - 1; NAN when unknown */
    int headroom_lower_bound;     /* 1: a curve still rises at its largest level: X_peak is
                                     its best measured level, the headroom at least this */
    long units;                   /* required: copies of the configuration (linear) */
    long nodes_needed;            /* required: nodes */
    enum curve_basis nodes_basis; /* required: scale-out curve or linear */
    double cost_per_month;        /* required: currency per month at nodes_needed */
    long rank;                    /* 1-based position after rank_sort; 0 when not met */
    int ha;                       /* 1: priced highly available (its own, or a standby added) */
    int scale_out;     /* 1: the catalog says copies serve a load together (cat_config.scale_out) */
    int standby_added; /* standby copies added by rank_options.ha_standby */
    int owned;         /* 1: an on-premises server */
    double load;       /* rho = X / X_peak at the target, (0, 1]; NAN unknown */
    double power_load; /* owned with a power curve: the load its power was read
                          at (catalogs/cost.h cat_cost.power_load), else NAN */
    int power_load_measured;              /* 1: power_load from load (x the packing), 0: cpu_load */
    const struct cat_price *oldest_price; /* the oldest dated price its cost rests on, kept
                                             when priced (rankset.h rank_set_row_price_date);
                                             borrowed from the catalog */
    int oldest_known;                     /* 1: oldest_price was set by the pricing (NULL: no
                                             dated price) */
};

/**
 * Evaluate one configuration: curves[i] is the curve of opt->mix[i].workload (NULL when there
 * are no points for it). Sets status, at (pointed at the storage given), x, n, basis,
 * headroom; leaves costs NAN and nodes 0 (rank_row_price fills them).
 * @param at  storage for opt->n_mix results, the caller's, kept as long as the row (and its
 *            copies) is read: a million predicted rows share the evaluation of their curves
 *            instead of holding RANK_MAX_MIX results each
 */
void rank_row_eval(struct rank_row *row, struct rank_at *at, const char *config, int config_nodes,
                   const struct curve *const *curves, const struct rank_options *opt);

/**
 * Fill a row's costs from cost per hour at its own node count (per_hour, > 0) and, with a
 * required throughput, the node count and the cost per hour at that count: the caller passes
 * cost_at(nodes) through a function so a catalog is asked only for the counts needed.
 * @param cost_at  returns the cost per hour at a node count, or NAN when not priced
 * @return RANK_OK, or RANK_EINVAL.
 */
int rank_row_price(struct rank_row *row, const struct curve *const *curves,
                   const struct rank_options *opt, double (*cost_at)(void *ctx, long nodes),
                   void *ctx);

/**
 * Label an evaluated row predicted (basis CURVE_BASIS_PREDICTED) and widen its throughput's 95 %
 * interval, per workload of the mix, to at least the relative interval of its predicted points
 * at the concurrency of the answer (curves[w]'s levels, linear in log N between them), then
 * combine the mix again (harmonic mean). A row that does not meet the target is left as it is.
 */
void rank_row_widen_predicted(struct rank_row *row, const struct curve *const *curves,
                              const struct rank_options *opt);

/** Sort rows in ranking order (top of file) and set rank. Deterministic. */
void rank_sort(struct rank_row *rows, size_t n, const struct rank_options *opt);

#endif
