/*
 * sysbench_log_int.h - the parser state shared by the files of the sysbench output reader
 * (sysbench_log.c: the entry, lines to their readers; sysbench_blocks.c: the summary blocks;
 * sysbench_interval.c: intermediate reports; sysbench_tests.c: fileio, memory;
 * sysbench_run.c: messages, a run's start and finish and its point, called by the others and
 * calling none of them). Internal to that reader: not for other modules.
 */
#ifndef SIZEUP_RECORDS_SYSBENCH_LOG_INT_H
#define SIZEUP_RECORDS_SYSBENCH_LOG_INT_H

#include "import_types.h"
#include "point.h"

#include <jansson.h>
#include <stddef.h>

/* Longest line the parser looks at: sysbench's lines are under 300 bytes. */
#define LINE_MAX_LEN 1024
/* Longest indentation (blanks, tabs, '>' of quoted mail) taken as a run's prefix. */
#define PREFIX_MAX 64
/* Failed runs whose message is kept until it is known whether the file has good runs. */
#define MAX_PENDING_FAILED 8

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
    int has_max;             /* ... and its max: the summary is whole */
    int truncated;           /* the file ends inside this run, in the middle of a line */
    int threads_from_header; /* "Number of threads:" was read */
    int checkpoints;         /* the run printed "[ Ns ] Checkpoint report:" */
    double elapsed_before_s; /* --report-checkpoints: "total time" of the previous report */
    double fair_events_avg;  /* "events (avg/stddev):" avg, NAN when absent */
    int64_t total_events;    /* "total number of events:", -1 when absent */
    long fatal_line;         /* first FATAL line, 0 when none */
    char fatal[200];
    int version_major;         /* -1 unknown */
    const char *workload_hint; /* from the content: fileio_*, cpu, memory, oltp_legacy, ... */
    const char *cmd_hint;      /* from a command line echoed before the run */
    double fileio_latency_pct;
};

/* A failed run whose report waits until the file is known to have good runs. */
struct failed_run {
    long line;
    char text[200];
};

struct parser {
    struct import_src *src;
    const char *name;
    struct run run;
    int in_run;
    enum block block;
    long line_no;
    struct point_list queue; /* finished points not yet handed out */
    size_t q_head;
    size_t n_yielded;
    size_t n_failed;
    struct failed_run failed[MAX_PENDING_FAILED];
    size_t n_failed_pending;
    char prefix[PREFIX_MAX]; /* indentation of the run being read */
    size_t prefix_len;
    int pending_checkpoint;    /* "[ Ns ] Checkpoint report:" seen, its summary not yet */
    char cmd_hint_buf[64];     /* workload named by an echoed command line */
    const char *next_cmd_hint; /* for the next run; NULL when none */
    int eof;
};

/* Diagnostics at the current line (or line). */
void sblog_report(struct parser *ps, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set extra[key] of p to v (stolen). 0, or -1 when out of memory (v is freed). */
int sblog_set_extra(struct point *p, const char *key, json_t *v);

/* Report "file:line: expected <expected>, found "<line>"" and return IMPORT_EPARSE. */
int sblog_bad_line(struct parser *ps, const char *expected, const char *line);

/* Start a run at the current line (the previous one must be finished) (sysbench_run.c). */
void sblog_run_start(struct parser *ps);

/* Finish the current run: its point (or points) go to the queue, a failed run is noted.
 * IMPORT_OK, IMPORT_EPARSE (reported), IMPORT_ENOMEM. */
int sblog_run_finish(struct parser *ps);

/* The current run's summary is whole and a checkpoint continues it: finish its point and start
 * the next segment of the same run (threads, rate, tool and hints carried over). */
int sblog_next_segment(struct parser *ps);

/* Summary block lines (sysbench_blocks.c). Each returns IMPORT_OK or an IMPORT_E* code. */
int sblog_sql_line(struct parser *ps, const char *t, const char *raw);
int sblog_general_line(struct parser *ps, const char *t, const char *raw);
int sblog_latency_line(struct parser *ps, const char *t, const char *raw);
int sblog_fairness_line(struct parser *ps, const char *t, const char *raw);
int sblog_histogram_line(struct parser *ps, const char *t, const char *raw);

/* Header and section lines: 1 when the line was consumed (*rc says how it went), else 0. */
int sblog_header_line(struct parser *ps, const char *t, int *rc);

/* An intermediate report "[ Ns ] ..." (sysbench_interval.c). */
int sblog_interval_line(struct parser *ps, const char *s);

/* A run without summary: tps, qps, ... from the steady part of its intervals, the thread
 * count that ran, the duration; flags no_summary (and wind_down when a tail was cut)
 * (sysbench_run.c). */
int sblog_from_intervals(struct parser *ps);

/* Lines of the fileio "File operations:" and "Throughput:" blocks (1.0, 1.1). */
int sblog_fileops_line(struct parser *ps, const char *t, const char *raw);
int sblog_filethru_line(struct parser *ps, const char *t, const char *raw);

/* Legacy fileio counts and the memory test's totals: 1 when the line was one of them (*rc
 * then says how it went), else 0. */
int sblog_legacy_fileio_line(struct parser *ps, const char *t, int *rc);
int sblog_memory_line(struct parser *ps, const char *t, int *rc);

#endif
