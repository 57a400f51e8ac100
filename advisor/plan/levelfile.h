/*
 * levelfile.h - one level record per level in a results file.
 *
 * A curve measured in passes (passes.h) appends a level record (extra.interval.method
 * "replicates", docs/point-record.md) per level when its passes end. A resumed run (probe run
 * --resume, study --resume) takes the file's replicates again, measures more, and appends a new
 * level record pooling all of them: the older record of that level is then superseded (it pools
 * a subset of the same replicates) and two level records of one level would count it twice.
 * levelfile_keep_newest() removes the superseded ones after such a run, so the file holds
 * exactly one level record per level, the newest. Replicates and every other record are kept
 * as they are, in their order: nothing measured is lost (a level record is derived from them).
 *
 * Thread-safety: one thread per file; no other writer may append to the file meanwhile.
 */
#ifndef SIZEUP_ADVISOR_LEVELFILE_H
#define SIZEUP_ADVISOR_LEVELFILE_H

#include <stddef.h>

/**
 * In the JSON Lines file path, keep only the last level record of each thread count of the
 * curve (target, workload); lines that are not level records of that curve (or not JSON) are
 * kept byte for byte.
 * @param path      the results file (read whole, at most 1 GiB); it is replaced whole
 *                  (util/outfile.h) when a record is removed, else left untouched
 * @param target    the curve's target
 * @param workload  its workload
 * @param err       "cannot read/write PATH: reason" on failure, cap bytes
 * @return how many level records were removed (0: file untouched), or -1 (err set; the file is
 *         as it was).
 */
long levelfile_keep_newest(const char *path, const char *target, const char *workload, char *err,
                           size_t cap);

#endif
