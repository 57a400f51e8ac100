/*
 * import.h - turn benchmark results people already have into point records.
 *
 * Formats, detected from the content (see import_detect):
 *   - sizeup.point/1 JSON Lines (read strictly, passed through)
 *   - sysbench 1.0.x / 1.1 run output, legacy 0.4 / 0.5 OLTP output, fileio / cpu / memory
 *     test output; several runs in one file give several points (sysbench_log.h)
 *   - CSV tables with a header row, '#' comment lines skipped (table_csv.h)
 *
 * A file either imports whole or contributes nothing: on any error no point from it is
 * appended. A run that ended before its summary (killed) is imported with incomplete = 1 and
 * reported as a warning (IMPORT_WARN).
 */
#ifndef SIZEUP_RECORDS_IMPORT_H
#define SIZEUP_RECORDS_IMPORT_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/**
 * Guess a buffer's format from its content: IMPORT_POINTS, IMPORT_SYSBENCH, IMPORT_CSV, or
 * IMPORT_AUTO when it is none of them.
 */
enum import_format import_detect(const char *buf, size_t len);

/**
 * Import one file (path "-" reads stdin) and append its points to out.
 * @param opt     options (may be NULL: all defaults)
 * @param out     list the points are appended to; untouched on error
 * @param report  filled with a message and counts; always written
 * @return IMPORT_OK, IMPORT_WARN (points appended, some incomplete), or a negative IMPORT_E*
 *         code (nothing appended).
 */
int import_file(const char *path, const struct import_options *opt, struct point_list *out,
                struct import_report *report);

/**
 * Import from a buffer that holds a whole file's content; name is used in messages and as
 * source.file. Same returns as import_file.
 */
int import_buffer(const char *buf, size_t len, const char *name, const struct import_options *opt,
                  struct point_list *out, struct import_report *report);

#endif
