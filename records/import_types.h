/*
 * import_types.h - what the importers share: formats, return codes, options and the report of
 * one file, and the workload named by a file name. A leaf: the readers (sysbench_log.c,
 * table_csv.c, ...) include this, not import.h, so import.c can call them without a circle.
 *
 * Thread-safety: import_workload_from_name is a pure function.
 */
#ifndef SIZEUP_RECORDS_IMPORT_TYPES_H
#define SIZEUP_RECORDS_IMPORT_TYPES_H

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
    const char *workload;      /* workload when the file does not name it; NULL: guess */
    const char *target;        /* target when the file does not name it; NULL: file base name */
    enum import_format format; /* IMPORT_AUTO detects */
};

struct import_report {
    char msg[512]; /* "file:line: what was wrong, what was expected" (error or warning) */
    size_t n_points;
    size_t n_incomplete;
};

/**
 * The sysbench workload name contained in a file name ("run-oltp_read_write-16.log" ->
 * "oltp_read_write"), or NULL. Longest match wins (oltp_read_write over oltp_read_only...).
 * Returns a static string.
 */
const char *import_workload_from_name(const char *path);

#endif
