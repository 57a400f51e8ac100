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
#ifndef SIZEUP_PROBES_IMPORT_H
#define SIZEUP_PROBES_IMPORT_H

#include "point.h"

#include <stddef.h>

enum import_format {
    IMPORT_AUTO = 0,
    IMPORT_POINTS,   /* sizeup.point/1 JSON Lines */
    IMPORT_SYSBENCH, /* sysbench text output */
    IMPORT_CSV       /* CSV table */
};

/* Return codes. */
enum {
    IMPORT_OK = 0,
    IMPORT_WARN = 1,     /* imported, but something is incomplete; report->msg says what */
    IMPORT_EIO = -1,     /* the file cannot be read (errno text in report->msg) */
    IMPORT_EFORMAT = -2, /* empty, or not a format sizeup reads */
    IMPORT_EPARSE = -3,  /* malformed content: report->msg names file, line and what was expected */
    IMPORT_ENOMEM = -4
};

struct import_options {
    const char *workload;        /* workload when the file does not name it; NULL: guess */
    const char *target;          /* target when the file does not name it; NULL: file base name */
    enum import_format format;   /* IMPORT_AUTO detects */
};

struct import_report {
    char msg[512]; /* "file:line: what was wrong, what was expected" (error or warning) */
    size_t n_points;
    size_t n_incomplete;
};

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

/**
 * The sysbench workload name contained in a file name ("run-oltp_read_write-16.log" ->
 * "oltp_read_write"), or NULL. Longest match wins (oltp_read_write over oltp_read_only...).
 * Returns a static string.
 */
const char *import_workload_from_name(const char *path);

#endif
