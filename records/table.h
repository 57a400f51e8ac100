/*
 * table.h - tables of benchmark results -> point records, one row at a time.
 *
 * Four dialects, one model (a header row naming the columns, one row per point):
 *   - CSV (the files in data/published): '#' comment lines and blank lines are skipped; the
 *     first other line is the header; fields follow RFC 4180 (commas, optional double quotes,
 *     "" for a quote inside quotes, a quoted cell may span lines); CRLF is accepted;
 *   - TSV: the same with tab-separated cells, no quoting;
 *   - Markdown: "| threads | tps | ... |" with its "|---|---|" separator row under the header;
 *     the text around the table is passed over; a document may hold several tables, each
 *     with its own header; `**bold**` and `code` marks around a cell are taken off;
 *   - gnuplot .dat: whitespace-separated columns, the header is the '#' comment line right
 *     before the data that has as many names as the rows have cells ("# threads tps p95_ms");
 *     a blank line and a new such comment start a new block with its own header.
 *
 * Columns read into the record (names matched case-insensitively; blanks and " (ms)" in a
 * name are read as "_" and "_ms": "p95 (ms)" is p95_ms):
 *   target, config, workload          text
 *   threads, nodes                    integers > 0 (threads also as thds, clients, connections,
 *                                     concurrency, users, vus; a non-integer nodes cell, such
 *                                     as the "18-19-20" node list of klustron-tpcc, is kept as
 *                                     text in extra.nodes); a row needs threads or nodes
 *   tps, qps, duration_s              numbers >= 0
 *   avg_latency_ms, min_latency_ms, max_latency_ms, p50_ms, p95_ms, p99_ms, p99.9_ms, ...
 *                                     latency in ms (pNN_ms for any percentile NN)
 *   tpmc, tpm_total                   TPC-C per minute: kept in extra; when the table has no
 *                                     tps column, tps = tpm_total / 60 (flag tps_from_tpm_total)
 *   flag                              a flag string added to the record's flags when not empty
 * Any other column is kept in extra (as a number when the cell is one, else as text).
 *
 * One column per configuration: a table with a threads (or nodes) column and no tps, qps,
 * latency, target or workload column (the way gnuplot files keep a sweep of several servers:
 * "# threads mysql57 mysql80") gives one point per row and column, target = the column's name,
 * tps = the cell (flag wide_table; a note says so). An empty or "-" cell there is no point.
 *
 * Numbers: in TSV, Markdown and gnuplot cells a thousands separator ("1,234.5") is accepted.
 * Every numeric cell must be a number: an empty or non-numeric cell, or a row with a different
 * number of cells than the header, is an error naming file, line, column and what was expected.
 *
 * This header fronts table.c (the table reader: open, next, close) and table_split.c (recognising
 * each layout: table_csv_detect, table_tsv_detect, table_markdown_detect, table_gnuplot_detect).
 */
#ifndef SIZEUP_RECORDS_TABLE_H
#define SIZEUP_RECORDS_TABLE_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/** 1 when buf's first line that is not a comment or blank has at least two comma-separated
 *  names made of letters, digits, '_', '.', '%', '(', ')' and spaces, one of them a known
 *  column (threads, nodes, tps, qps, workload or an alias). */
int table_csv_detect(const char *buf, size_t len, const char *path);
/** 1 when buf's first non-comment line is tab-separated names, one of them a known column. */
int table_tsv_detect(const char *buf, size_t len, const char *path);
/** 1 when buf holds a Markdown table (a "|"-row followed by a "|---|" separator row) whose
 *  header names a known column. */
int table_markdown_detect(const char *buf, size_t len, const char *path);
/** 1 when buf holds a '#' comment naming a known column followed by a row of as many
 *  whitespace-separated numbers. */
int table_gnuplot_detect(const char *buf, size_t len, const char *path);

/** A reader of the dialect over src. @return its state, or NULL when out of memory. */
void *table_csv_open(struct import_src *src);
void *table_tsv_open(struct import_src *src);
void *table_markdown_open(struct import_src *src);
void *table_gnuplot_open(struct import_src *src);

/**
 * The next row's point (or the next column's, for one column per configuration).
 * @return 1, 0 at the end, IMPORT_EPARSE ("file:line: column \"x\": expected ..."),
 *         IMPORT_EFORMAT (no header row, or a header but no data rows), IMPORT_EIO,
 *         IMPORT_ENOMEM; reported through import_diag.
 */
int table_next(void *state, struct point *out);

/** Free a table reader's state. NULL-safe. */
void table_close(void *state);

#endif
