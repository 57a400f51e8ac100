/*
 * confirm.h - the open-loop confirmation of a closed-loop answer (issue 28.4): the throughput a
 * curve claims at a latency target, offered again as Poisson arrivals (probe_config.rate) over
 * DRIVE_CONFIRM_CONNS connections, and whether the target held at that rate. A study confirms
 * each probed curve (study_probe.h); `sizeup rank --confirm` the first-ranked configuration's.
 *
 * Why the two differ: a closed loop offers the next transaction only when one ends, so its
 * queue never grows past its N connections; open-loop arrivals do not wait, and near the
 * server's capacity their queue (and the latency) grows without bound (docs/study.md).
 *
 * Thread-safety: one thread; the run takes the database's lock (probes/dblock.h) for itself.
 */
#ifndef SIZEUP_DRIVE_CONFIRM_H
#define SIZEUP_DRIVE_CONFIRM_H

#include "drive_status.h"
#include "point.h"
#include "probe.h"
#include "slo.h"

#include <stddef.h>
#include <stdio.h>

/* Connections of the open-loop run for an answer at n threads: room for the arrivals that
 * overlap (twice the closed loop's concurrency), at least 4. */
#define DRIVE_CONFIRM_CONNS(n) ((unsigned)fmax(4, 2 * ceil(n)))

/* A closed-loop answer to confirm: its throughput at the target and where it was found. */
struct confirm_answer {
    double tps;        /* the answer's throughput: the open-loop rate, tps (> 0) */
    double threads;    /* the closed loop's concurrency at the answer */
    double latency_ms; /* the closed loop's latency (the target's statistic) there, ms */
};

/**
 * The "confirm:" line of a confirmation record p (its options.confirm holds the closed loop's
 * figures) at target: the open loop's rate, connections and length, its latency (the target's
 * statistic) and throughput, whether the target held, and the closed loop's figures.
 * @param earlier  put before the line ("(an earlier run) " or "")
 * @param line     cap bytes
 */
void drive_confirm_line(const struct slo *target, const struct point *p, const char *earlier,
                        char *line, size_t cap);

/** 1 when a confirmation record p held the target (its statistic at or below target_s). */
int drive_confirm_held(const struct slo *target, const struct point *p);

/**
 * Run the confirmation on a server: cfg0 (connection, workload and tables as the curve was
 * measured) at a->tps open loop for time_s, under the database's lock, one record appended to
 * out_path when given (target and config name it; options.confirm the closed loop's figures).
 * @param progress  progress and reasons ("sizeup: ..."), not NULL
 * @param line      the "confirm:" line (drive_confirm_line), or why it was not run; cap bytes
 * @return DRIVE_OK (line filled, held or not), DRIVE_FAIL (not run or the run failed: line says
 *         why), DRIVE_UNREACHABLE, DRIVE_INTERRUPTED.
 */
enum drive_status drive_confirm_run(const struct probe_config *cfg0, const char *target,
                                    const char *config, const struct slo *slo,
                                    const struct confirm_answer *a, double time_s,
                                    const char *out_path, FILE *progress, char *line, size_t cap);

#endif
