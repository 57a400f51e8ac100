/*
 * probe_drive.h - drive the levels of one curve over a probe session (probes/session.h): a list
 * of thread counts, or the auto ladder (advisor/ladder.h); levels already measured (--resume, a
 * study's results) are taken instead of measured again. Used by `sizeup probe run` and by
 * `sizeup study`, in-process.
 *
 * A level that does not count (curve.h's rule: stalled, reconnects, partial, or no transaction)
 * is left out of the ladder's decisions: the session measures it again once the server answers
 * (up to its `remeasure`); when it still does not count it enters the ladder without a
 * throughput (recorded, never fitted) and the ladder goes on.
 *
 * Passes (advisor/passes.h; calibrated levels, o->passes): the first pass is the list or the
 * ladder, each level at most passes_first_max_s() long; then the levels that decide the answer
 * are measured again in shuffled passes until their intervals - pooled over the replicates with
 * the server's run-to-run noise - reach the precision, the noise floor makes it unreachable
 * (said plainly: "asked 2 %; run-to-run noise on this server is about 4.6 %: the best
 * attainable is about N %"; the passes then aim for that best with short replicates), or the
 * budget is spent. Every replicate's record says extra.interval {"method": "within_run",
 * "replicates": 1, "pass": N}; once the noise is known (some level has 2 replicates) every
 * level gets a level record pooling its replicates (passes_level_record(), method
 * "replicates"), which advisor/curve.h takes as the level.
 *
 * Exit status (cli.h): 0 every level ran (flagged ones said on progress); 1 a fatal server
 * error, a refused connection, a record that could not be written; 4 the server did not answer
 * again within the session's give_up_s; 130 the stop flag.
 */
#ifndef SIZEUP_DRIVE_PROBE_DRIVE_H
#define SIZEUP_DRIVE_PROBE_DRIVE_H

#include "dblock.h"
#include "drive_status.h"
#include "ladder.h"
#include "passes.h"
#include "point.h"
#include "session.h"
#include "slo.h"

#include <stddef.h>
#include <stdio.h>

struct probe_drive_opts {
    const char *target;       /* the curve's target */
    const char *workload;     /* its workload name */
    int auto_threads;         /* 1: the auto ladder; 0: threads[] */
    const long long *threads; /* the list, n_threads of them */
    size_t n_threads;
    struct ladder_opts ladder;     /* the auto ladder's options (max_threads capped by the
                                    * server's max_connections - 1) */
    const struct point_list *done; /* points already measured (may be NULL) */
    /* records measured earlier (may be NULL): the level records of o->target in it (measured in
     * passes, extra.interval.pooled) give the server's noise floor (passes.h, opts.history);
     * those of this curve (o->target and o->workload) are left out when done is set, since
     * their replicates are taken again */
    const struct point_list *history;
    const char *done_name; /* where they are, for messages */
    struct slo slo; /* the latency target: its statistic (pct 0: the mean) is the one the auto
                     * ladder bounds at ladder.max_latency_ms and the passes aim at; target_s 0:
                     * no target (the statistic then is the probe's --percentile) */
    FILE *progress; /* progress lines; NULL = none */
    int passes;     /* 1: measure in passes (calibrated levels only) */
    struct passes_opts popts; /* their options (precision, replicates, budget, lengths) */
    /* take this database's lock (probes/dblock.h) once the server answered and the tables
     * passed their check, held until the levels end; NULL: the caller holds it (a study) or
     * needs none (a part of a multi-client level) */
    const struct myconn_opts *lock_conn;
    struct dblock *held_lock; /* the caller's lock of the database (a study's), checked before
                                 every level (dblock_keep); NULL: lock_conn's, when taken */
};

/* What the levels came to, for the caller's messages. */
struct probe_drive_result {
    unsigned measured;   /* levels measured now (attempts counted once per level) */
    unsigned taken;      /* levels taken from done */
    unsigned flagged;    /* levels still flagged after their re-measures */
    unsigned attempts;   /* levels run, re-measures included */
    int ladder_done;     /* the auto ladder reached its end (not stopped by a fault) */
    unsigned replicates; /* passes: replicates measured in the further passes */
    double noise_cv;     /* passes: run-to-run CV between replicates; NAN when unknown */
    double between_cv;   /* passes: its between-run part; NAN when unknown */
    double attainable;   /* passes: best attainable relative half-width; NAN when unknown */
    int impossible;      /* passes: the asked precision is below what the noise allows */
    double spent_s;      /* passes: wall time of every replicate, s */
    char noise_msg[320]; /* passes: the noise floor ("" when unknown) */
    char limit_msg[320]; /* passes: "asked ...: the best attainable is about ..." or "" */
};

/**
 * Set o->passes and o->popts for calibrated levels (cfg->precision > 0; else o->passes = 0):
 * precision, min and max time from cfg, first-pass replicates at most 10 s (or --max-time when
 * that is not above --min-time, or with one pass), replicates most per level (1..PASSES_MAX_REPS),
 * budget_s (0: levels x max time, today's longest), every level deciding for a list, the latency
 * target (o->slo; target_s 0: none), the shuffle seeded from cfg->rand_seed or the time.
 */
void probe_drive_passes(struct probe_drive_opts *o, const struct probe_config *cfg, size_t levels,
                        unsigned replicates, double budget_s);

/**
 * Open the session (connect, max_connections), check the tables, then measure the levels
 * (in passes, with o->history's replicates as the server's noise floor).
 * @param res  filled (may be NULL)
 * @return DRIVE_OK; DRIVE_FAIL (a level or the tables failed), DRIVE_UNREACHABLE (the server
 *         did not answer within the give-up time), DRIVE_INTERRUPTED (the stop flag); the
 *         reason is on o->progress as "sizeup: ...". Every finished level is recorded.
 */
enum drive_status probe_drive(struct probe_session *s, const struct probe_drive_opts *o,
                              struct probe_drive_result *res);

#endif
