/*
 * rank_confirm.h - `sizeup rank --confirm` (issue 28.4): the first-ranked configuration's answer,
 * measured by `sizeup probe`, run again open loop at the throughput it claims on the server
 * its record names (drive/confirm.h), and whether the latency target held. Internal to the
 * command line.
 */
#ifndef SIZEUP_CLI_RANK_CONFIRM_H
#define SIZEUP_CLI_RANK_CONFIRM_H

#include "point.h"
#include "ranking.h"

#include <stdio.h>

/**
 * Confirm rk's first-ranked row: it must be one workload's (a mix has no single rate), meet the
 * target, and rest on points `sizeup probe` recorded (their options object rebuilds the probe's
 * configuration and names the server; the password as `probe` finds one). One "confirm: CONFIG
 * / WORKLOAD: ..." line on out; when there is nothing to confirm it says why.
 * @param pts       the ranked points (the winner's record is looked for among them)
 * @param maps      rank's --map entries (the join of a point to a configuration)
 * @param out_path  append the open-loop record here (--confirm-out), or NULL
 * @return SIZEUP_EXIT_OK (confirmed, held or not; or nothing to confirm, said), or the exit
 *         status of a run that failed (SIZEUP_EXIT_FAIL, _UNREACHABLE, _INTERRUPTED).
 */
int rank_confirm(const struct ranking *rk, const struct point_list *pts,
                 const struct rank_map *maps, size_t n_maps, const char *out_path, FILE *out);

#endif
