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
 * Exit status (cli.h): 0 every level ran (flagged ones said on progress); 1 a fatal server
 * error, a refused connection, a record that could not be written; 4 the server did not answer
 * again within the session's give_up_s; 130 the stop flag.
 */
#ifndef SIZEUP_ADVISOR_CLI_PROBE_DRIVE_H
#define SIZEUP_ADVISOR_CLI_PROBE_DRIVE_H

#include "ladder.h"
#include "point.h"
#include "session.h"

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
    const char *done_name;         /* where they are, for messages */
    double latency_pct;            /* the percentile the ladder bounds (max_latency_ms) */
    FILE *progress;                /* progress lines; NULL = none */
};

/* What the levels came to, for the caller's messages. */
struct probe_drive_result {
    unsigned measured; /* levels measured now (attempts counted once per level) */
    unsigned taken;    /* levels taken from done */
    unsigned flagged;  /* levels still flagged after their re-measures */
    unsigned attempts; /* levels run, re-measures included */
    int ladder_done;   /* the auto ladder reached its end (not stopped by a fault) */
};

/**
 * Open the session (connect, max_connections), check the tables, then measure the levels.
 * @param res  filled (may be NULL)
 * @return an exit status as described above; the reason is on o->progress as "sizeup: ...".
 */
int probe_drive(struct probe_session *s, const struct probe_drive_opts *o,
                struct probe_drive_result *res);

#endif
