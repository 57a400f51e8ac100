/*
 * study_probe.h - the probed candidates of a study (advisor/study.h), measured in this process
 * through the probe session API (probes/session.h) and the one level driver `sizeup probe run`
 * uses (probe_drive.h): no child process, no command line built for one.
 *
 *   study_probes_new()   everything a study's probes need, checked at load, before any
 *                        connection: the workloads are ones the probe runs, every password
 *                        file can be read (the password is held, never printed); errors name
 *                        the study file's line and column (study_fail_at)
 *   study_probes_run()   one candidate: drop the tables an earlier run left (sizeup's only),
 *                        prepare, one curve per workload still needed (the ladder or the list,
 *                        levels already in the results taken, not measured again), drop the
 *                        tables - on every path once they exist: a failed level, a refused
 *                        one, an interruption, a server that stopped answering (waited for up
 *                        to the session's give-up time, then dropped); before the drop,
 *                        with the study's "confirm" (default), each workload once open loop
 *                        at the throughput its curve claims at the target (issue 28.4:
 *                        Poisson arrivals over max(4, 2 ceil(n)) connections for max_time,
 *                        n the answer's threads; the record to confirm.jsonl, never a point
 *                        of the curve)
 *                        A candidate with "clients": K > 1 measures each level of its list
 *                        with K in-process load generators for max_time, merged into one
 *                        point (study_clients.h), not calibrated and not measured in passes
 *   study_probes_write_noise()  the curves' noise floor and precision limit, and the
 *                        open-loop confirmations, for the output
 *   study_probes_free()  wipe the passwords
 *
 * Signals: the levels stop on the stop flag of util/stopflag.h (the caller installs it); the
 * level in flight ends after its events in flight and its record is marked interrupted.
 *
 * Thread-safety: one thread.
 */
#ifndef SIZEUP_DRIVE_STUDY_PROBE_H
#define SIZEUP_DRIVE_STUDY_PROBE_H

#include "drive_status.h"
#include "point.h"
#include "study.h"

#include <stddef.h>
#include <stdio.h>

struct study_probes;

/**
 * Check a loaded study's probe settings and read its password files.
 * @param s    the study (borrowed for the object's life)
 * @param err  "FILE:LINE:COL: $.path: what is wrong" (cap bytes)
 * @return the object (free with study_probes_free), or NULL (err set).
 */
struct study_probes *study_probes_new(const struct study *s, char *err, size_t cap);

/** Wipe the passwords and free. NULL-safe. */
void study_probes_free(struct study_probes *sp);

/* Where a candidate's probes write. */
struct study_probe_files {
    const char *results;   /* results.jsonl: one record per level, appended */
    const char *done_path; /* finished-curves.txt: "target<TAB>workload" per finished ladder */
    const char *parts;     /* parts.jsonl: each client's part of a level (candidates with
                            * "clients": K > 1; their merged points go to results) */
    FILE *log;             /* probe.log: the sysbench-layout reports */
    const char *confirm;   /* confirm.jsonl: the open-loop confirmation runs (issue 28.4), no
                            * curve's points; NULL: none run */
};

/**
 * Probe candidate i (s->cand[i].probe set). Progress and errors go to stderr.
 * @param done  points already measured (a level found there is not measured again)
 * @return DRIVE_OK; DRIVE_UNREACHABLE (said; the study goes on); DRIVE_INTERRUPTED (the
 *         stop flag); DRIVE_FAIL (a step failed or was refused; said).
 */
enum drive_status study_probes_run(struct study_probes *sp, size_t i, const struct point_list *done,
                                   const struct study_probe_files *f);

/**
 * The run-to-run noise of every curve probed in passes so far (this process), for the study's
 * own output after the ranking: per curve "noise: TARGET / WORKLOAD: run-to-run noise on this
 * server: ..." (passes.h's noise floor) or, when no level was measured twice, that the noise is
 * unknown and what the intervals therefore leave out; and when the asked precision is below
 * what the noise allows, the limit ("asked 0.1 %; run-to-run noise on this server is about
 * 4.6 %: the best attainable is about N % ..."); then per confirmed curve "confirm: TARGET /
 * WORKLOAD: open loop at X tps ...: p99 L ms at Y tps, the target held | was NOT held; closed
 * loop: p99 M ms at N threads". Lines wrapped at 100 columns. Nothing when no curve was
 * probed. NULL-safe.
 */
void study_probes_write_noise(const struct study_probes *sp, FILE *out);

#endif
