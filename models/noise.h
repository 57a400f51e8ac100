/*
 * noise.h - run-to-run noise of one server, from replicates of the levels of its curves: the
 * replicates of a level pooled into its mean with a 95 % interval that includes the variation
 * between runs, the server's noise floor, the precision R replicates can reach, and how long a
 * replicate should run.
 *
 * Why: one run's batch-means interval (probes/calib.h) sees only the variation inside that run.
 * Throughput also moves between runs (neighbours on the host, CPU steal, the server's background
 * work, the state a run starts from), so two runs differ by more than either run's interval.
 * Only replicates separated in time see that part.
 *
 * Model: a two-level random-effects model (Kalibera & Jones, "Rigorous Benchmarking in Reasonable
 * Time", ISMM 2013: the variance at each level of repetition - iterations within an execution,
 * executions - estimated from the data, and how many repetitions each level needs; Searle, Casella
 * & McCulloch, "Variance Components", 1992, ch. 3 for the one-way estimators). Replicate j of
 * level i (one run) measures
 *     x_ij = mu_i (1 + b_ij + e_ij)
 * b_ij: the run's own offset, relative variance sigma_b^2, the same at every level of one server
 * (an assumption: the levels then pool it, which gives sigma_b degrees of freedom that two
 * replicates of one level cannot); e_ij: the error of the run's mean from inside the run,
 * relative variance omega_ij^2 = (se_ij / xbar_i)^2 with se_ij its batch-means standard error.
 *
 * Pooled over the levels with r_i >= 2 replicates (nu = sum (r_i - 1) degrees of freedom):
 *     s^2       = sum_i sum_j (x_ij / xbar_i - 1)^2 / nu   relative variance of one replicate
 *                                                         about its level's mean (the run-to-run
 *                                                         CV between replicates is s)
 *     w^2       = mean of omega_ij^2 over those replicates  its within-run part
 *     sigma_b^2 = max(0, s^2 - w^2)                         the part no longer run removes
 *                 (the method-of-moments estimator of the upper variance component, as K&J's
 *                 S_2^2 - S_1^2 / n_1; 0 when negative)
 * When some pooled replicate has no se, w^2 is taken as 0 (sigma_b = s, the larger estimate).
 *
 * A level i with r_i >= 1 replicates (pooled or not), mean xbar_i:
 *     v_i   = max(sigma_b^2 + wbar_i^2, s^2, w^2) / r_i   relative variance of the mean;
 *             wbar_i^2 the mean of its replicates' omega^2 (0 where unknown). With the pool
 *             (s^2 = sigma_b^2 + w^2 when sigma_b^2 > 0) this is sigma_b^2 + max(wbar_i^2, w^2):
 *             a level is not credited with a within part below the pool's (longer replicates)
 *             while the pool cannot tell how much of its spread is between runs; without the
 *             max, a level of long replicates next to a between part estimated near 0 got
 *             Satterthwaite df far below 1 and t quantiles of 1e8 to 1e15 (a floor of one
 *             earlier level of 2 agreeing replicates stated +/- 1e15 %)
 *     df_i  = (v_i r_i)^2 / (max(s^2, w^2)^2 / nu + w^4 / nu_w + wbar_i^4 / nu_w,i)
 *             (Satterthwaite 1946, "An approximate distribution of estimates of variance
 *             components", Biometrics Bulletin 2(6), for the sum of the two estimated parts;
 *             sigma_b^2 = s^2 - w^2 varies as s^2 and w^2 do, so its term is
 *             max(s^2, w^2)^2 / nu + w^4 / nu_w:
 *             when the within part explains the replicates' spread, df_i is about nu, not the
 *             within-run df, since nothing yet shows that the runs do not differ; s^2 is judged
 *             at no less than w^2 there: a between part estimated near 0 from nu df is as unsure
 *             as the within part it must be told apart from, and Satterthwaite's df of a
 *             truncated estimate would otherwise grow to the within-run df as s^2 falls to 0 by
 *             chance - measured on a loaded build host, two replicates that happened to agree
 *             then stated +/- 10 % with 12 df around a level 19 % off);
 *             noise_attainable()'s projection uses the same v_i and df_i (its omega^2 the
 *             projected replicate's);
 *             nu_w,i = sum of the level's replicates' within-run degrees of freedom (batches - 1;
 *             unknown counts as NOISE_DF_LARGE), nu_w that of the pooled replicates
 *     half  = t(0.975, df_i) xbar_i sqrt(v_i)
 * With nothing pooled (nu = 0) the interval is the within-run one alone (method NOISE_WITHIN):
 * it does not include run-to-run variation, and says so. Without either part it is unknown.
 *
 * Outlier levels. The model takes the run-to-run variance to be one for all levels; a level
 * whose replicates disagree far more than the others' (one run of it went wrong: on the
 * published AWS table c5.2xlarge's 8-thread runs were 4,278, 5,479 and 5,437 tps while every
 * other level agreed within 2 %) would, pooled, widen every level's interval and hide what the
 * levels show (its curve, falling 8 % from 16 to 128 threads, read as a plateau). So before
 * pooling, while three or more levels are in, the level with the largest relative variance
 * s_max^2 (d_max degrees of freedom) is left out when
 *     s_max^2 / s_rest^2 > F(1 - NOISE_OUTLIER_ALPHA / k; d_max, d_rest)
 * (s_rest^2 the others' pooled variance with d_rest >= 2 degrees of freedom and above 0; k the
 * levels in): the F-test of the largest of k variances against the rest, at a Bonferroni level
 * over the k it was chosen from (Cochran's C test for the largest variance, Cochran 1941, Ann.
 * Eugenics 11:47-52, is its equal-replicates form). It repeats on the rest. A level (left out
 * or not) whose own relative variance passes the same test against the pool takes its own:
 * v_i = s_i^2 / r_i with r_i - 1 degrees of freedom, when that is wider than the pool's.
 *
 * Replicates that all agree exactly (a spread of 0: copies of one run, or figures rounded
 * alike) say nothing about the noise: nothing is pooled (nu 0), so a level's interval is its
 * runs' own or unknown, never a width of 0.
 *
 * How long a replicate should run: two-stage sampling's optimum (Cochran, "Sampling
 * Techniques", 3rd ed. 1977, ch. 10, the optimum number of second-stage units per first-stage
 * unit; K&J's optimal repetition counts are the same rule). A run of kept length T has within
 * relative variance k / T (k = omega^2 T, the variance-time product of its batch means) and costs
 * o + T (o: its fixed cost: connecting, the warm-up cut, the wind-down); r replicates give
 * v = (sigma_b^2 + k / T) / r at a cost r (o + T), least for a given v at
 *     T* = sqrt(k o) / sigma_b
 * (infinite when sigma_b = 0: then one long run is best, and the within-run rule decides).
 *
 * Thread-safety: pure functions of their arguments.
 */
#ifndef SIZEUP_MODELS_NOISE_H
#define SIZEUP_MODELS_NOISE_H

#include <stddef.h>

/* Degrees of freedom taken for an se of unknown degrees of freedom (a normal quantile). */
#define NOISE_DF_LARGE 1e6

enum { NOISE_OK = 0, NOISE_EINVAL = -1, NOISE_ENOMEM = -2 };

/* One replicate: one run of one level. */
struct noise_obs {
    double n;     /* the level: threads or nodes, > 0 (replicates have equal n) */
    double x;     /* its throughput (its run's mean), > 0 */
    double se;    /* standard error of x from inside its run (batch means); NAN: unknown */
    double se_df; /* degrees of freedom of se (batches - 1); <= 0 or NAN: NOISE_DF_LARGE */
};

/* The server's run-to-run noise, pooled over the replicated levels. */
struct noise_pool {
    size_t levels;     /* levels with >= 2 replicates */
    size_t reps;       /* replicates in those levels */
    double nu;         /* sum (r_i - 1); 0: nothing pooled (the fields below are NAN) */
    double cv;         /* s: relative standard deviation of one replicate (run-to-run CV) */
    double within_cv;  /* w: its within-run part (0 when some se is unknown) */
    double between_cv; /* sigma_b: the part between runs, >= 0 */
    double within_df;  /* nu_w: the pooled replicates' within-run degrees of freedom in all */
    int within_known;  /* 1: every pooled replicate had an se */
    size_t excluded;   /* replicated levels left out of the pool: their replicates disagree
                        * beyond the others' (outlier levels, top of file) */
};

/* How a level's interval was made. */
enum noise_method {
    NOISE_NONE = 0,   /* no interval: one replicate without an se, and nothing pooled */
    NOISE_WITHIN = 1, /* within-run batch means only (nothing pooled): run-to-run not included */
    NOISE_POOLED = 2, /* within-run and between-run parts, the latter pooled over the levels */
    NOISE_FLOOR = 3   /* as NOISE_POOLED, the between-run part the server's noise floor
                       * (noise_level_floor(): earlier runs' replicates too) */
};

/* One level: its replicates pooled. */
struct noise_level {
    double n;      /* the level */
    size_t reps;   /* replicates pooled */
    double mean;   /* mean of their x (each run one sample of the run-to-run distribution) */
    double rel_sd; /* sqrt(v): relative standard error of the mean; NAN with NOISE_NONE */
    double df;     /* Satterthwaite degrees of freedom of rel_sd */
    double half95; /* t(0.975, df) mean rel_sd; NAN with NOISE_NONE */
    double wbar2;  /* mean omega^2 of its replicates (0 when unknown) */
    enum noise_method method;
    int own; /* 1: an outlier level: rel_sd and df are its own replicates' (top of file) */
};

/* The false-alarm rate of the outlier-level test over a curve's levels (top of file). */
#define NOISE_OUTLIER_ALPHA 0.01

/**
 * The critical ratio of the outlier-level test: the upper NOISE_OUTLIER_ALPHA / levels quantile
 * of the F distribution with (df_level, df_rest) degrees of freedom (top of file).
 * @return the ratio, or NAN when a df is not > 0 or levels is 0.
 */
double noise_outlier_f(double df_level, double df_rest, size_t levels);

/**
 * Pool the run-to-run noise over replicates of several levels (top of file), outlier levels
 * left out.
 * @param o  m replicates in any order, each with n > 0 and x > 0 finite; equal n = one level
 *           (equal within 1e-9 relative)
 * @param out filled; out->nu == 0 when no level has 2 replicates
 * @return NOISE_OK, NOISE_EINVAL (NULL, n or x not finite and > 0, se negative), NOISE_ENOMEM.
 */
int noise_pool(const struct noise_obs *o, size_t m, struct noise_pool *out);

/**
 * Pool the r replicates of one level with the server's noise (top of file).
 * @param p  from noise_pool() (over these and the other levels' replicates), or NULL: nothing
 *           pooled (the within-run interval alone)
 * @param o  the level's r >= 1 replicates (their n are not checked)
 * @param out filled
 * @return NOISE_OK or NOISE_EINVAL (NULL, r == 0, an x not > 0).
 */
int noise_level(const struct noise_pool *p, const struct noise_obs *o, size_t r,
                struct noise_level *out);

/**
 * A level's interval no narrower than the server's noise floor: noise_level() with the curve's
 * own pool and with `floor` (noise_pool() over the replicates of every level measured on the same
 * server, earlier runs' and this curve's), and the wider of the two (method NOISE_FLOOR when the
 * floor's is wider, or when the curve's own pool is empty).
 *
 * Why: the curve's own pool may have 1 or 2 degrees of freedom, and replicates taken within a
 * minute of each other can agree by chance, or because they share a slow drift of the host that
 * a rerun at another time does not (issue 14: 6 of 10 missed intervals had 3-5 replicates whose
 * spread happened to be small). The floor's s^2 has the degrees of freedom of every replicated
 * level of the server; the wider interval keeps a level that is noisier than the server's
 * average honest too. On this host's recorded coverage run (36 calibrated points), the curve's
 * own interval contained the reference in 27 of 36, the wider of the two in 33 of 36
 * (bench/run-calib.sh --only coverage, docs/point-record.md).
 * @param own    the curve's pool (NULL or nu 0: none)
 * @param floor  the server's pool (NULL or nu 0: none; then this is noise_level(own, ...))
 * @return as noise_level().
 */
int noise_level_floor(const struct noise_pool *own, const struct noise_pool *floor,
                      const struct noise_obs *o, size_t r, struct noise_level *out);

/**
 * The relative 95 % half-width a level would have with `reps` replicates, each with within-run
 * relative variance omega2 (se_df degrees of freedom each), at the pool's noise: the same formula
 * as noise_level() with wbar_i^2 = omega2.
 * @return the relative half-width (e.g. 0.031), NAN when reps == 0 or nothing is known.
 */
double noise_attainable(const struct noise_pool *p, double omega2, double se_df, size_t reps);

/**
 * The fewest replicates (1..max_reps) for which noise_attainable() <= precision.
 * @return that count, or max_reps + 1 when even max_reps do not reach it (or it is unknown).
 */
size_t noise_reps_needed(const struct noise_pool *p, double omega2, double se_df, double precision,
                         size_t max_reps);

/**
 * The replicate length that reaches a given precision of a level's mean in the least time
 * (top of file): T* = sqrt(k o) / sigma_b.
 * @param k_s        variance-time product of the within-run error, omega^2 * kept time, s (> 0)
 * @param overhead_s fixed cost of one replicate beyond its kept time, s (>= 0)
 * @param between_cv sigma_b (>= 0)
 * @return T* in seconds; INFINITY when between_cv is 0; NAN for invalid input.
 */
double noise_replicate_s(double k_s, double overhead_s, double between_cv);

/** "pooled between runs" / "the server's noise floor" / "within-run only" / "none". */
const char *noise_method_name(enum noise_method m);

#endif
