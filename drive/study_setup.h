/*
 * study_setup.h - one probed candidate of a study (advisor/study.h) set up for its probes: its
 * probe configuration, the ladder of its auto curves, its records' options, its probe sessions,
 * and the drop of its tables at the end. study_probe.c runs the candidate with these; nothing
 * here calls back into it.
 *
 * Thread-safety: none needed (no state); the sessions made are one thread's.
 */
#ifndef SIZEUP_DRIVE_STUDY_SETUP_H
#define SIZEUP_DRIVE_STUDY_SETUP_H

#include "drive_status.h"
#include "ladder.h"
#include "probe.h"
#include "session.h"
#include "study.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* What a study's probe does besides its levels: the probe's own defaults (cmd_probe.c). */
#define STUDY_GIVE_UP_S 30.0        /* wait for a server that stopped answering, s */
#define STUDY_REMEASURE 1           /* a flagged level is measured again once */
#define STUDY_PREPARE_CONNECTIONS 2 /* connections that load the tables */

/**
 * The configuration of candidate i's probes: `sizeup probe`'s defaults, the candidate's
 * connection, tables and rows, calibrated levels (the study's precision and max_time, s; never
 * stopping before 5 s, or half of a shorter limit), the reports to log and progress to stderr
 * (live on a terminal), the stop flag of util/stopflag.h. The workload is set per curve.
 * @param password  the candidate's password or NULL (borrowed, as are the study's strings:
 *                  cfg points into them)
 */
void study_setup_config(const struct study *s, size_t i, const char *password, FILE *log,
                        struct probe_config *cfg);

/** The ladder a study's auto curves run with: its max_threads and max_points; doubling stops at
 *  4x the latency target (max_latency_ms). */
struct ladder_opts study_setup_ladder(const struct study *s);

/**
 * The records' options of a curve: cfg's (probe_config_json), then "threads" (the study's list,
 * or "auto" with the ladder lo's max_threads, max_points, max_latency_ms and the study's slo).
 * @return a new object (the caller's: json_decref), or NULL out of memory.
 */
json_t *study_setup_options(const struct study *s, const struct probe_config *cfg,
                            const struct ladder_opts *lo);

/**
 * A probe session of candidate c (probes/session.h): its target and config, tool "sizeup
 * VERSION", a server that stops answering waited for up to STUDY_GIVE_UP_S, a flagged level
 * measured again STUDY_REMEASURE times, the latency at the study's target statistic (its
 * percentile, else the mean), the tables checked around every level.
 * @param cfg       the configuration (borrowed for the session's life)
 * @param out_path  the records' file to append to, or NULL (a session for the tables only)
 * @param options   the records' options (borrowed for the session's life), or NULL
 * @return the session (free with probe_session_free), or NULL (said on stderr).
 */
struct probe_session *study_setup_session(const struct study_candidate *c,
                                          const struct probe_config *cfg, const struct study *s,
                                          const char *out_path, const json_t *options);

/** A tables step's result (0, -MYCONN_RECONNECT or another failure of probes/session.h) as a
 *  run's status: DRIVE_OK, DRIVE_UNREACHABLE or DRIVE_FAIL. */
enum drive_status study_setup_tables_status(int rc);

/**
 * Drop the tables an earlier interrupted run left on candidate c's server (sizeup's only), then
 * create and load c's tables over STUDY_PREPARE_CONNECTIONS connections; said on stderr, the
 * sysbench-layout report's header written to log first.
 * @param tables  a session for the tables (study_setup_session with no out_path)
 * @return DRIVE_OK; DRIVE_INTERRUPTED (the stop flag during the prepare); DRIVE_UNREACHABLE or
 *         DRIVE_FAIL (said). A failed or interrupted prepare drops what it created; after a
 *         failed first drop nothing of the run's exists to drop.
 */
enum drive_status study_setup_prepare_tables(const struct study_candidate *c,
                                             struct probe_session *tables, FILE *log);

/**
 * Drop the candidate's tables after they were prepared, whatever happened since: a server that
 * does not answer is waited for (up to STUDY_GIVE_UP_S, even after a stop was asked: tables
 * must not be left behind).
 * @param target  the candidate's name, for the messages
 * @return 0, or -1 (said on stderr, with how to drop them by hand).
 */
int study_setup_drop_tables(struct probe_session *ps, const struct probe_config *cfg,
                            const char *target);

#endif
