/*
 * sysbench_log_int.h - the parser state shared by sysbench_log.c and sysbench_tests.c.
 * Internal to the sysbench output parser: not for other modules.
 */
#ifndef SIZEUP_RECORDS_SYSBENCH_LOG_INT_H
#define SIZEUP_RECORDS_SYSBENCH_LOG_INT_H

#include "import_types.h"
#include "point.h"

#include <jansson.h>
#include <stddef.h>

#define LINE_MAX_LEN 1024

/* Which block of the output the parser is in. */
enum block {
    B_NONE,
    B_SQL,       /* "SQL statistics:" / "OLTP test statistics:" */
    B_GENERAL,   /* "General statistics:" / "Test execution summary:" / 1.1 "Throughput:" */
    B_LATENCY,   /* "Latency (ms):" / "per-request statistics:" / "response time:" */
    B_FAIRNESS,  /* "Threads fairness:" */
    B_FILEOPS,   /* fileio "File operations:" */
    B_FILETHRU,  /* fileio "Throughput:" */
    B_HISTOGRAM, /* "Latency histogram (values are in milliseconds)" */
    B_CPU        /* "CPU speed:" */
};

struct run {
    struct point p;
    long first_line;
    int has_summary;         /* a statistics block was read */
    int has_latency;         /* the latency block's avg was read */
    int has_max;             /* ... and its max */
    int truncated;           /* the file ends inside this run, in the middle of a line */
    double elapsed_before_s; /* --report-checkpoints: "total time" of the previous report */
    long fatal_line;         /* first FATAL line, 0 when none */
    char fatal[200];
    int version_major;         /* -1 unknown */
    const char *workload_hint; /* from the content: fileio_*, cpu, memory, oltp_legacy */
    double fileio_latency_pct;
};

struct parser {
    const char *name;
    const struct import_options *opt;
    struct import_report *report;
    struct point_list runs_out; /* finished points */
    struct run run;
    int in_run;
    enum block block;
    long line_no;
    size_t n_incomplete;
    size_t n_skipped; /* runs with no results and no error (prepare, cleanup output) */
};

/* Write "file:line: message" (line <= 0: "file: message") into ps->report->msg. */
void sblog_report(struct parser *ps, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set extra[key] of p to v (stolen). 0, or -1 when out of memory (v is freed). */
int sblog_set_extra(struct point *p, const char *key, json_t *v);

/* Report "file:line: expected <expected>, found "<line>"" and return IMPORT_EPARSE. */
int sblog_bad_line(struct parser *ps, const char *expected, const char *line);

/* Lines of the fileio "File operations:" and "Throughput:" blocks (1.0, 1.1). */
int sblog_fileops_line(struct parser *ps, const char *t, const char *raw);
int sblog_filethru_line(struct parser *ps, const char *t, const char *raw);

/* Legacy fileio counts and the memory test's totals: 1 when the line was one of them (*rc
 * then says how it went), else 0. */
int sblog_legacy_fileio_line(struct parser *ps, const char *t, int *rc);
int sblog_memory_line(struct parser *ps, const char *t, int *rc);

#endif
