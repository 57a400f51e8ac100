/*
 * study_clients.h - one level of a study candidate that says "clients": K (advisor/study.h),
 * measured by K load generators in this process and merged into one point (issue 18).
 *
 * The K clients are K probe runs (probes/probe.h) on K threads of this process, each with
 * cfg->client_index I of client_count K, so each opens its share of the level's connections
 * (floor((I + 1) N / K) - floor(I N / K)) and its own random stream; all have one start_at
 * (the same wall-clock gate, STUDY_CLIENTS_GATE_S after the call) and one fixed length (the
 * study's max_time: parts need a fixed --time so that their windows agree, probe run's rule).
 * Their parts are merged by records/merge.h: counts summed, histograms merged bucket by bucket,
 * percentiles read from the merged histogram, never averaged. Each part is appended to the
 * parts file, the merged point to the results file.
 *
 * Client CPU: the parts share one process, so each part's own figure (the process's CPU over
 * its window) would count the other parts' CPU too; the parts are written and merged without
 * it, and the merged point carries the process's CPU over the whole level once.
 *
 * A merged point flagged by a fault (stalled, reconnects, partial) is recorded as it is and
 * not measured again (curve.h does not count it).
 *
 * Thread-safety: call from one thread; it starts and joins its K threads.
 */
#ifndef SIZEUP_DRIVE_STUDY_CLIENTS_H
#define SIZEUP_DRIVE_STUDY_CLIENTS_H

#include "probe.h"
#include "session.h"
#include "slo.h"

#include <stdio.h>

/* The clients' common start: this long after the level is asked for, s (time to connect). */
#define STUDY_CLIENTS_GATE_S 2.0

/* Where one merged level goes. */
struct study_clients_out {
    const char *target, *config, *tool; /* the records' fields (borrowed) */
    const json_t *options;              /* the records' options (borrowed, copied into each) */
    struct probe_session *results;      /* the merged point is appended with its --out */
    struct probe_session *parts;        /* each part is appended with its --out */
    FILE *log;                          /* one summary line per level (may be NULL) */
};

/**
 * Measure level `threads` (clients..4096 connections) with `clients` (2..STUDY_MAX_CLIENTS)
 * in-process load generators and record the merged point.
 * @param cfg  the candidate's configuration (time_s > 0 fixed, precision 0: the caller's);
 *             copied per client with client_index, client_count and start_at set
 * @param lv   filled as probe_session_level() fills it (threads, status, counts, tps, latency
 *             of stat's statistic: the mean when stat->pct is 0, else that percentile;
 *             flags); lv->record is NULL
 * @return lv->status: PROBE_LEVEL_OK, _FLAGGED, _INTERRUPTED, _UNREACHABLE, _FATAL, _REFUSED
 *         (no connection could be made or prepared: nothing recorded), _FAILED (set-up, the
 *         merge or a write failed; said on stderr).
 */
enum probe_level_status study_clients_level(const struct probe_config *cfg, unsigned clients,
                                            unsigned threads, const struct slo *stat,
                                            const struct study_clients_out *o,
                                            struct probe_level *lv);

#endif
