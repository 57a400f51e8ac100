/*
 * probe_curve.h - `sizeup probe run`'s curve: a probe session opened (probes/session.h: --out
 * opened for appending), its levels driven (probe_drive.h), the session closed.
 *
 * Thread-safety: one call per thread; the stop flag (util/stopflag.h) is read, not installed.
 */
#ifndef SIZEUP_DRIVE_PROBE_CURVE_H
#define SIZEUP_DRIVE_PROBE_CURVE_H

#include "drive_status.h"
#include "probe_drive.h"
#include "session.h"

#include <stdio.h>

/**
 * Open a session of so, run d's levels over it (probe_drive), free it.
 * @param res     what the levels came to (may be NULL)
 * @param opened  set to 1 when the session was made and the levels driven, else 0 (may be NULL)
 * @param err     where a session that cannot be opened is said ("sizeup: cannot open --out FILE:
 *                REASON" or "sizeup: out of memory"); the levels' own messages go to
 *                d->progress
 * @return probe_drive's status; DRIVE_FAIL when the session could not be made.
 */
enum drive_status probe_curve_run(const struct probe_session_opts *so,
                                  const struct probe_drive_opts *d, struct probe_drive_result *res,
                                  int *opened, FILE *err);

#endif
