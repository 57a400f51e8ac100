/*
 * passes.h - a curve measured in passes: after the first pass (the levels of the auto ladder,
 * advisor/ladder.h, or of a list), further passes measure the levels that decide the answer
 * again, each pass in a shuffled order, until their intervals - pooled over the passes with the
 * run-to-run noise of the server (models/noise.h) - reach the asked precision, or the noise
 * makes that precision unreachable, or the time budget is spent.
 *
 * Why passes: one run cannot see how much throughput moves between runs; replicates separated in
 * time can (Kalibera & Jones, "Rigorous Benchmarking in Reasonable Time", ISMM 2013, who also
 * randomise the order of the executions so that a slow drift of the machine is not confounded
 * with what is measured: here each pass's order is a fresh shuffle).
 *
 * Which levels decide (re-chosen after every pass from the pooled levels, advisor/curve.h): the
 * best level and its neighbours (the peak or the knee), the start of a plateau, and where a
 * latency target binds (the highest level that meets it and the next one up); with all_decide,
 * or 3 levels or fewer, every level. Every deciding level gets at least 2 replicates (the
 * between-run part needs them); the others keep one, and their intervals still carry the noise
 * pooled from the replicated ones.
 *
 * How long a replicate runs: the within-run rule (probes/calib.h: MSER-5 cut, batch means) stops
 * it at the asked precision, and at the latest after `rep_s`: in the first pass, first_max_s;
 * then two-stage sampling's optimum T* = sqrt(k o) / sigma_b (noise.h) clamped to
 * [min_time_s, max_time_s], with k and o the medians of the replicates so far (within-run
 * variance-time product, cost beyond the kept time), sigma_b the server's floor's when it has
 * more df than the curve's own pool. While no level has 2 replicates (the second pass, when
 * nothing earlier is known), sigma_b is taken at a replicate's median within-run CV - the least
 * between-run part 2 replicates could tell from none - so T* = sqrt(k o / w^2), about
 * sqrt(kept x o) when the replicates are alike, clamped to [min_time_s, first_max_s] (min_time_s
 * winning); the pool after that pass corrects it. First_max_s again when sigma_b is estimated at
 * 0 (T* infinite: not shown worth one long run with so few df, and a level's budget may not hold
 * one), and when a T* of 0 (no cost beyond the kept time) meets a min_time_s of 0 (a limit of 0
 * would be none). Past the noise floor a longer run buys nothing; another replicate does.
 *
 * The server's noise floor (opts.history: replicated levels measured on the same server before
 * this curve, e.g. the other workloads of a study or earlier runs in the same --out file): every
 * level's interval is no narrower than the one the floor gives (noise_level_floor()), so that
 * a level whose few replicates agree by chance does not state less than the server's noise.
 *
 * The noise floor: once some level has 2 replicates (or earlier replicates were given), noise_msg
 * says the run-to-run CV between replicates and its between-run part. When even max_reps replicates
 * of the deciding levels cannot reach the asked precision (noise_attainable at max_reps, with the
 * degrees of freedom those replicates would give), limit_msg says so plainly - "asked 2 %;
 * run-to-run noise on this server is about 4.6 %: the best attainable is about 4.1 % (5 replicates
 * per level)" - and the passes aim for that best instead (within PASSES_IMPOSSIBLE_SLACK of it),
 * with short replicates, instead of running every point to --max-time.
 *
 * Use (the probe driver):
 *     passes_init(&p, &o);
 *     pass 1: for each level the ladder or the list gives: measure it with
 *             max_time_s = passes_first_max_s(&p); passes_add(&p, &rep);
 *     while ((t = passes_next(&p, ws, &max_s)) != 0) { measure t; passes_add(&p, &rep); }
 *     passes_level(&p, t, &lv) for every level: its record (mean, interval, replicates)
 *     passes_destroy(&p);
 *
 * Thread-safety: a passes object belongs to one thread.
 */
#ifndef SIZEUP_ADVISOR_PASSES_H
#define SIZEUP_ADVISOR_PASSES_H

#include "ladder.h"
#include "noise.h"
#include "point.h"
#include "slo.h"
#include "usl.h"

#include <stddef.h>
#include <stdint.h>

/* Below the noise floor the passes stop a deciding level once its interval is within this
 * factor of the best attainable (max_reps replicates): the last replicates narrow it by less
 * than a quarter (the interval shrinks as about 1 / sqrt(r): 3 replicates instead of 5 are
 * sqrt(5/3) = 1.29 wider) at the full cost of a replicate each, for a precision that was not
 * reachable anyway. */
#define PASSES_IMPOSSIBLE_SLACK 1.25

/* Most replicates of one level. */
#define PASSES_MAX_REPS 12

struct passes_opts {
    double precision;   /* relative 95 % half-width asked of a deciding level, 0 < p < 1 */
    unsigned max_reps;  /* most replicates of one level, 1..PASSES_MAX_REPS (1: one pass) */
    double budget_s;    /* most time of all the curve's replicates, s (0 = no limit) */
    double min_time_s;  /* a replicate's least length, s (>= 0) */
    double max_time_s;  /* a replicate's most length, s (> min_time_s) */
    double first_max_s; /* a first-pass replicate's most length (no noise known), s */
    struct slo slo;     /* latency target (pct 0 = mean); target_s 0: none */
    int all_decide;     /* 1: every level decides (a list the caller chose) */
    unsigned seed;      /* the shuffle of each pass */
    /* The server's earlier replicates (the noise floor, noise_level_floor()): replicates of
     * levels measured on the same server before this curve (other workloads, other runs), each
     * level's replicates sharing one n - a key, any positive number; only the grouping counts
     * (passes keeps the keys apart from this curve's thread counts). Copied by passes_init().
     * NULL / 0: none (the floor is then this curve's replicates, as the curve's own pool). */
    const struct noise_obs *history;
    size_t n_history;
};

/** precision 0.02, max_reps 5, no budget, min 5 s, max 60 s, first 10 s, no target, seed 1. */
struct passes_opts passes_opts_default(void);

/* One measured replicate. */
struct passes_rep {
    unsigned threads;
    unsigned pass;     /* 0: the pass being measured */
    int counts;        /* 0: recorded but not pooled (curve.h's rule: stalled, partial, ...) */
    double tps;        /* its throughput (kept ticks), > 0 when it counts */
    double ci95_tps;   /* its within-run 95 % half-width (batch means), NAN when unknown */
    double se_df;      /* degrees of freedom of that interval (batches - 1); 0: 19 */
    double kept_s;     /* kept (measured) time, s */
    double cost_s;     /* wall time it took, connecting to the end, s */
    double latency_ms; /* the target's statistic, ms; NAN when unknown */
};

struct passes {
    struct passes_opts o;
    struct passes_rep *rep; /* every replicate added, in order (owned) */
    size_t n, cap;
    unsigned pass;                     /* the pass being measured (1 during the first) */
    unsigned queue[LADDER_MAX_LEVELS]; /* this pass's levels, shuffled */
    size_t nq, iq;
    double spent_s;         /* sum of the replicates' cost_s */
    struct noise_pool pool; /* the noise over the counting replicates */
    struct noise_obs *hist; /* o.history's copy, keys moved above any thread count (owned) */
    size_t n_hist;
    size_t hist_levels;      /* levels of hist with >= 2 replicates */
    struct noise_pool floor; /* the server's noise: hist and the counting replicates */
    unsigned decide[LADDER_MAX_LEVELS];
    size_t n_decide;
    double rep_s;      /* replicate length limit in use, s */
    double attainable; /* relative half-width max_reps replicates reach (NAN: unknown) */
    double target;     /* what the passes aim for: precision, or PASSES_IMPOSSIBLE_SLACK x
                        * attainable when that is below reach */
    int impossible;    /* 1: the asked precision is below what max_reps replicates reach */
    int done;
    char why[400];       /* the last decision, for progress */
    char noise_msg[320]; /* the noise floor ("" until some level has 2 replicates) */
    char limit_msg[320]; /* "asked ...: the best attainable is about ..." ("" when reachable) */
    int msg_new;         /* 1: noise_msg or limit_msg changed since passes_msg_seen() */
    uint64_t rng;
};

/**
 * Start (copies opts->history). @return 0, or -1 when opts are out of range (precision not in (0,
 * 1), max_reps 0 or above PASSES_MAX_REPS, max_time_s <= min_time_s, first_max_s not > 0, budget_s
 * < 0).
 */
int passes_init(struct passes *p, const struct passes_opts *o);

/** Free what p owns. NULL-safe. */
void passes_destroy(struct passes *p);

/**
 * Record a replicate (any pass; a level already measured before, e.g. on --resume, too).
 * @return 0, or -1 (out of memory, threads 0).
 */
int passes_add(struct passes *p, const struct passes_rep *r);

/** The length limit of the next replicate of the first pass (a level the ladder adds), s: rep_s,
 * which is first_max_s until a pass after the first is planned (passes.h: how long). */
double passes_first_max_s(const struct passes *p);

/** 1 when the budget is spent (the ladder's first pass should stop too), else 0. */
int passes_out_of_time(const struct passes *p);

/**
 * The next level of a further pass.
 * @param ws          USL workspace for the curve, or NULL
 * @param max_time_s  out: that replicate's length limit, s
 * @return threads, or 0 when the passes are done; p->why says why either way, p->noise_msg and
 *         p->limit_msg what the noise allows (p->msg_new when they changed).
 */
unsigned passes_next(struct passes *p, struct usl_workspace *ws, double *max_time_s);

/** Mark noise_msg and limit_msg as seen (clears msg_new). */
void passes_msg_seen(struct passes *p);

/**
 * The pooled level at `threads` (noise.h) over its counting replicates.
 * @return 0, or -1 when no counting replicate of that level exists.
 */
int passes_level(const struct passes *p, unsigned threads, struct noise_level *out);

/**
 * The levels with a counting replicate, ascending.
 * @return how many (at most cap written to threads).
 */
size_t passes_levels(const struct passes *p, unsigned *threads, size_t cap);

/**
 * The record of a level pooled over its replicates (docs/point-record.md, "Levels measured in
 * replicates"): a copy of the last replicate's record with tps = the pooled mean and ci95_tps =
 * its 95 % half-width with the run-to-run noise (passes_level()), qps and the other rates, the
 * latency statistics (avg and each percentile: the mean over the replicates; min, max: theirs)
 * averaged, counts and duration_s summed, no series, warm-up or calibration; steady = the
 * interval is within the asked precision; extra.interval says how it was made:
 *     {"method": "replicates", "rule": "...", "replicates": r, "df": df_i, "rel95": ...,
 *      "asked": precision, "attainable": ... (when known), "run_to_run_cv": s,
 *      "between_cv": sigma_b, "within_cv": w, "pooled_levels": ..., "pooled_df": nu,
 *      "floor": {"run_to_run_cv", "between_cv", "levels", "df", "earlier_levels"} (when earlier
 *      replicates were given), "noise": "pooled between runs" | "the server's noise floor",
 *      "pooled": [{"started_at", "tps", "ci95_tps", "pass"}, ...]}
 * (advisor/curve.h takes such a record as the level and leaves the replicates it lists out).
 * @param reps  the records of the level's counting replicates, in the order they were added
 *              (n = passes_reps_at(p, threads)); each needs started_at
 * @param out   an initialised point, overwritten (the caller destroys it)
 * @return 0; -1 when the level has no counting replicate, n does not match, a record lacks
 *         started_at, or out of memory.
 */
int passes_level_record(const struct passes *p, unsigned threads, const struct point *const *reps,
                        size_t n, struct point *out);

/** Counting replicates of a level. */
size_t passes_reps_at(const struct passes *p, unsigned threads);

#endif
