/*
 * import_types.h - what the importers share: formats, return codes, options, the report of one
 * file, the source a reader reads from and how it reports, and the workload named by a file
 * name. A leaf: the readers (sysbench_log.c, table_csv.c, pgbench.c, ...) include this, not
 * import.h, so import.c can call them without a circle.
 *
 * Every reader is pulled one point at a time (open, next, close) from a struct import_src, so
 * an input of any size is read with flat memory; import.c drives them (import.h).
 *
 * Thread-safety: import_workload_from_name is a pure function; a struct import_src belongs to
 * one thread.
 *
 * This header fronts import_src.c (reading lines and saying what is wrong: import_read_line,
 * import_diag, import_bad_line, import_set_extra) and workload_name.c (import_workload_from_name).
 */
#ifndef SIZEUP_RECORDS_IMPORT_TYPES_H
#define SIZEUP_RECORDS_IMPORT_TYPES_H

#include "lines.h"
#include "point.h"

#include <stddef.h>
#include <stdint.h>

enum import_format {
    IMPORT_AUTO = 0,
    IMPORT_POINTS,    /* sizeup.point/1 JSON Lines */
    IMPORT_SYSBENCH,  /* sysbench text output */
    IMPORT_CSV,       /* CSV table */
    IMPORT_TSV,       /* tab-separated table */
    IMPORT_MARKDOWN,  /* Markdown (pipe) table */
    IMPORT_GNUPLOT,   /* gnuplot .dat: whitespace columns, '#' header */
    IMPORT_PGBENCH,   /* pgbench output (summary, --progress, -r) or a -l per-transaction log */
    IMPORT_BENCHBASE, /* BenchBase summary.json */
    IMPORT_HAMMERDB,  /* HammerDB TPROC-C output */
    IMPORT_GOTPC,     /* go-tpc tpcc output */
    IMPORT_SUITE,     /* query-suite timings (suite.h): not points; import_open refuses them */
    IMPORT_N_FORMATS
};

/* Return codes. */
enum {
    IMPORT_OK = 0,
    IMPORT_WARN = 1,     /* imported, but something was incomplete or rejected; msg says what */
    IMPORT_EIO = -1,     /* the file cannot be read (errno text in report->msg) */
    IMPORT_EFORMAT = -2, /* empty, or not a format sizeup reads */
    IMPORT_EPARSE = -3,  /* malformed content: report->msg names file, line and what was expected */
    IMPORT_ENOMEM = -4,
    IMPORT_ETOOMANY = -5 /* more points than opt->max_points: report->msg names the cap */
};

/* How serious a diagnostic is. */
enum import_severity {
    IMPORT_NOTE = 0,    /* said for the record (a thread count inferred); exit status unchanged */
    IMPORT_WARNING = 1, /* a run rejected or incomplete, the rest imported: exit 3 */
    IMPORT_ERROR = 2    /* the file is rejected whole */
};

struct import_options {
    const char *workload;      /* workload when the file does not name it; NULL: guess */
    const char *target;        /* target when the file does not name it; NULL: file base name */
    enum import_format format; /* IMPORT_AUTO detects */
    /* Optional: called with every diagnostic as it happens ("file:line: ..." text, no
     * "sizeup: " prefix); NULL keeps only the report's first message and note. */
    void (*diag)(void *ctx, enum import_severity severity, const char *msg);
    void *diag_ctx;
    int64_t threads;   /* concurrency when the file does not say it (go-tpc); <= 0: none */
    size_t max_points; /* import_file/import_buffer: refuse to hold more points in the list
                          (counting those already in it); 0: no limit */
};

struct import_report {
    char msg[512];  /* the error, else the first warning: "file:line: what, what was expected" */
    char note[512]; /* the first note */
    size_t n_points;
    size_t n_incomplete; /* points marked incomplete */
    size_t n_rejected;   /* runs left out (a FATAL run among good ones) */
    size_t n_warnings, n_notes;
};

/* What a reader reads from and reports to (set up by import.c). */
struct import_src {
    struct lines *lines;              /* the input, positioned at its first line */
    const char *name;                 /* for messages and source.file ("<stdin>" for "-") */
    const char *path;                 /* as given (NULL for a buffer): for sibling files */
    const struct import_options *opt; /* never NULL */
    struct import_report *report;     /* never NULL */
    int empty_ok; /* set by a reader: ending without a point is no error (it said why) */
};

/**
 * The next line of the source into src->lines->line, a read error reported as IMPORT_ERROR.
 * @return 1 (a line), 0 (end of input), IMPORT_EIO, IMPORT_EPARSE (a line longer than
 *         LINES_MAX_LINE), IMPORT_ENOMEM.
 */
int import_read_line(struct import_src *src);

/**
 * Report a diagnostic of a reader: formats "NAME:LINE: text" (line 0: "NAME: text"; line < 0:
 * the text as it is, for a message that already names its place) into
 * report->msg (an error always; a warning when msg is still empty) or report->note (the first
 * note), counts it, and passes it to opt->diag when set.
 */
void import_diag(struct import_src *src, enum import_severity sev, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/**
 * Report the error of a line that is not what was expected: "NAME:LINE: expected <expected>,
 * found "<line, printable ASCII, cut at 100 bytes>"" as IMPORT_ERROR.
 * @return IMPORT_EPARSE (for `return import_bad_line(...)`).
 */
int import_bad_line(struct import_src *src, long line, const char *expected, const char *text);

/**
 * Set extra[key] of p to v (a new reference, stolen; NULL counts as out of memory).
 * @return 0, or -1 when out of memory (v is released).
 */
int import_set_extra(struct point *p, const char *key, json_t *v);

/**
 * The sysbench workload name contained in a file name ("run-oltp_read_write-16.log" ->
 * "oltp_read_write"), or NULL. Longest match wins (oltp_read_write over oltp_read_only...).
 * The non-OLTP tests cpu, memory, mutex and threads count only as a whole word of the base name
 * (separated by '-', '_' or '.': "sysbench-cpu-4t.log", not "oltp-8threads.log").
 * Returns a static string.
 */
const char *import_workload_from_name(const char *path);

#endif
