/*
 * table_csv.h - CSV tables of benchmark results -> point records.
 *
 * The format of the CSV files in data/published: '#' comment lines and blank lines are skipped; the
 * first other line is the header; each further line is one point. Fields follow RFC 4180
 * (commas, optional double quotes, "" for a quote inside quotes); CRLF is accepted.
 *
 * Columns read into the record (names as in data/published/):
 *   target, config, workload          text
 *   threads, nodes                    integers > 0 (a non-integer nodes cell, such as the
 *                                     "18-19-20" node list of klustron-tpcc, is kept as text
 *                                     in extra.nodes); a row needs threads or nodes
 *   tps, qps, duration_s              numbers >= 0
 *   avg_latency_ms, min_latency_ms, max_latency_ms, p50_ms, p95_ms, p99_ms, p99.9_ms, ...
 *                                     latency in ms (pNN_ms for any percentile NN)
 *   tpmc, tpm_total                   TPC-C per minute: kept in extra; when the table has no
 *                                     tps column, tps = tpm_total / 60 (flag tps_from_tpm_total)
 *   flag                              a flag string added to the record's flags when not empty
 * Any other column is kept in extra (as a number when the cell is one, else as text).
 * Missing columns fall back to the import options (target: --target or the file's base name;
 * workload: --workload, the file name, or "unknown").
 *
 * Every numeric cell must be a number: an empty or non-numeric cell, or a row with a different
 * number of cells than the header, is an error naming file, line, column and what was expected.
 */
#ifndef SIZEUP_RECORDS_TABLE_CSV_H
#define SIZEUP_RECORDS_TABLE_CSV_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/**
 * Parse a whole CSV table held in buf (len bytes, need not be NUL-terminated).
 * @param name    file name for messages and source.file
 * @param opt     target/workload defaults (may be NULL)
 * @param out     points appended only when the whole table parsed (all or nothing)
 * @param report  message and counts; always written
 * @return IMPORT_OK, IMPORT_EPARSE (report->msg: "file:line: column \"x\": expected ..."),
 *         IMPORT_EFORMAT (no header row or no data rows), IMPORT_ENOMEM.
 */
int table_csv_parse(const char *buf, size_t len, const char *name, const struct import_options *opt,
                    struct point_list *out, struct import_report *report);

/**
 * 1 when buf looks like a CSV table: its first line that is not a comment or blank has at
 * least two comma-separated names made of letters, digits, '_', '.', '%' and spaces, and one
 * of them is threads, nodes, tps, qps or workload.
 */
int table_csv_detect(const char *buf, size_t len);

#endif
