/*
 * suite.h - the suite record sizeup.suite/1: one run of a query suite (TPC-H, TPC-DS, a set of
 * report queries) on one target, query by query, and its readers.
 *
 * JSON (one object per line, JSON Lines; docs/suite-record.md):
 *   schema    "sizeup.suite/1"
 *   target    string, what ran the suite (required)
 *   config    string or null: catalog configuration id
 *   suite     string: tpch, tpcds, ... (required)
 *   queries   array of {"query": name, "seconds": s (absent for a failed query without a time),
 *             "failed": true (only when it failed), "result": the source's word ("succ")}
 *   total_s   seconds of the queries that completed (their sum)
 *   n_queries, n_failed   counts
 *   tool, source {"kind": "table"|"tool-output"|..., "file", "line"}
 * A suite's total is the time of one run of every query in turn (a power run); its cost per run
 * is the configuration's price per hour x total_s / 3600 (advisor/suite_rank.h).
 *
 * Readers (suite_read_file):
 *   - tables (CSV as data/published/klustron-tpch-tpcds-queries.csv, TSV, Markdown) with a
 *     header naming `query` and `seconds` (also time_s, sec, duration_s), and optionally
 *     `target` (or `config`), `suite` and `result`; '#' comment lines skipped. Rows are grouped
 *     into one run per (target, suite) in the order they first appear. A result of fail,
 *     failed, error, timeout, killed or cancel (any case; also "-" or empty seconds) marks the
 *     query failed; any other result (succ, ok, pass, ...) or none means it completed;
 *   - sizeup.suite/1 JSON Lines (strict: unknown keys are errors);
 *   - go-tpc tpch output: "[Summary] Q1: 1.23s" lines (tpch/workload.go outputRtMeasurement,
 *     the mean seconds of each query over the run's iterations), suite tpch;
 *   - HammerDB TPROC-H output: "query N completed in X seconds" lines of one virtual user's
 *     query set (modules of TPC-Council/HammerDB's TPROC-H driver), suite tproch.
 * Missing target: opt->target, else the file's base name; missing suite: opt->suite, else
 * "suite".
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_RECORDS_SUITE_H
#define SIZEUP_RECORDS_SUITE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#define SUITE_SCHEMA "sizeup.suite/1"
/* Largest suite file read (read whole: a suite is a few hundred queries). */
#define SUITE_MAX_BYTES ((size_t)16 * 1024 * 1024)

enum { SUITE_OK = 0, SUITE_EIO = -1, SUITE_EFORMAT = -2, SUITE_EPARSE = -3, SUITE_ENOMEM = -4 };

struct suite_query {
    char *name;
    double seconds; /* NAN when the query failed without a time */
    int failed;
    char *result; /* the source's word, or NULL */
};

struct suite_run {
    char *target, *config, *suite, *tool;
    struct suite_query *q;
    size_t n_q, cap_q;
    char *source_kind; /* "table", "tool-output" */
    char *source_file;
    long source_line;
};

struct suite_list {
    struct suite_run *items;
    size_t n, cap;
};

struct suite_options {
    const char *target; /* when the file does not name one; NULL: the file's base name */
    const char *suite;  /* when the file does not name one; NULL: "suite" */
};

/** Seconds of the completed queries of s (their sum), 0 when none. */
double suite_total_s(const struct suite_run *s);

/** Number of failed queries of s. */
size_t suite_failed(const struct suite_run *s);

/** The query named name in s, or NULL. */
const struct suite_query *suite_find_query(const struct suite_run *s, const char *name);

/** Set an embedded list empty. */
void suite_list_init(struct suite_list *l);

/** Free every run and the array; the list is left empty. NULL-safe. */
void suite_list_destroy(struct suite_list *l);

/**
 * 1 when buf (a file's first bytes) holds suite timings: a table header naming query and
 * seconds, sizeup.suite/1 records, go-tpc tpch "[Summary] Qn: Xs" or HammerDB "query N
 * completed in X seconds" lines.
 */
int suite_detect(const char *buf, size_t len);

/**
 * Read every suite run of path ("-": stdin) and append them to out (all or nothing).
 * @param opt  defaults (may be NULL)
 * @param err  on error "FILE:LINE: what, expected what" (cap bytes)
 * @return SUITE_OK, SUITE_EIO (cannot read), SUITE_EFORMAT (empty, no suite timings, larger
 *         than SUITE_MAX_BYTES), SUITE_EPARSE (a bad row or record), SUITE_ENOMEM.
 */
int suite_read_file(const char *path, const struct suite_options *opt, struct suite_list *out,
                    char *err, size_t cap);

/** The same from a buffer holding a whole file (name for messages and source.file). */
int suite_read_buffer(const char *buf, size_t len, const char *name,
                      const struct suite_options *opt, struct suite_list *out, char *err,
                      size_t cap);

/** The JSON object of s (a new reference), or NULL when out of memory. */
json_t *suite_to_json(const struct suite_run *s);

/**
 * Write s as one JSON line, with one write (append_whole_stream: never half a record).
 * @return 0, or -1 with err set (out of memory, a failed write).
 */
int suite_write(FILE *f, const struct suite_run *s, char *err, size_t cap);

#endif
