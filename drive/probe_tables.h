/*
 * probe_tables.h - `sizeup probe prepare` and `sizeup probe cleanup`: sysbench's tables of one
 * database created or dropped (probes/sbtables.h) while this run holds the database's lock
 * (probes/dblock.h), so no other probe run measures or prepares them meanwhile.
 *
 * Thread-safety: one call per thread; the stop flag (util/stopflag.h) is read, not installed.
 */
#ifndef SIZEUP_DRIVE_PROBE_TABLES_H
#define SIZEUP_DRIVE_PROBE_TABLES_H

#include "drive_status.h"
#include "probe.h"

#include <stdio.h>

enum probe_tables_op { PROBE_TABLES_PREPARE, PROBE_TABLES_CLEANUP };

/**
 * Take the lock of cfg->conn's database ("sizeup probe: note: ..." on err when it says
 * something), print sysbench's report header ("sizeup VERSION (sysbench 1.0.20-compatible
 * report)" and a blank line) on cfg->out, prepare the tables over up to `threads` connections
 * or clean them up (sbtables_prepare / sbtables_cleanup: their lines on cfg->out and
 * cfg->progress), then release the lock.
 * @param version  sizeup's version for the header
 * @param err      where a failure is said: "sizeup: REASON" (the lock), "sizeup: prepare:
 *                 REASON" or "sizeup: cleanup: REASON" (the tables)
 * @return DRIVE_OK; DRIVE_UNREACHABLE (the server could not be reached); DRIVE_FAIL (the lock is
 *         held by another run, a table is not sizeup's or exists, a server error);
 *         DRIVE_INTERRUPTED (the stop flag was raised while the tables were worked on).
 */
enum drive_status probe_tables_run(const struct probe_config *cfg, enum probe_tables_op op,
                                   unsigned threads, const char *version, FILE *err);

#endif
