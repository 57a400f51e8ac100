/*
 * import.h - turn benchmark results people already have into point records.
 *
 * Formats, detected from the content (see import_detect; opt->format forces one):
 *   - sizeup.point/1 JSON Lines (read strictly, passed through)
 *   - sysbench 1.0.x / 1.1 run output, legacy 0.4 / 0.5 output, fileio / cpu / memory / mutex /
 *     threads test output, indented or pasted into documents; several runs in one file give
 *     several points (sysbench_log.h)
 *   - tables with a header row: CSV ('#' comment lines skipped), TSV, Markdown, gnuplot .dat
 *     (table_csv.h)
 *   - pgbench output and -l per-transaction logs (pgbench.h), BenchBase summary.json,
 *     HammerDB TPROC-C and go-tpc tpcc output (tools.h)
 *
 * Reading streams: a reader yields one point at a time (import_open / import_next), holding
 * only the current line and the run it is in, so a file of any size is read with flat memory.
 *
 * A file imports whole or contributes nothing, with one exception: a sysbench run that failed
 * (FATAL) among good runs is left out with a warning and the good runs are kept. When
 * import_next fails, the points it yielded before from the same file must be dropped by the
 * caller (import_file does that). A run that ended before its summary (killed) is imported with
 * incomplete = 1 and reported as a warning (IMPORT_WARN).
 */
#ifndef SIZEUP_RECORDS_IMPORT_H
#define SIZEUP_RECORDS_IMPORT_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/*
 * The most points a command that holds them all in memory (fit, rank, report) takes: about
 * 0.7 KB each, so 250,000 points are about 180 MB. import itself streams and has no limit.
 */
#define IMPORT_HELD_POINTS_MAX ((size_t)250000)

/**
 * Guess a buffer's format from its content (the first LINES_PEEK_BYTES of a file) and, for
 * gnuplot files, its name (path may be NULL): an IMPORT_* format, or IMPORT_AUTO when it is
 * none of them.
 */
enum import_format import_detect(const char *buf, size_t len, const char *path);

/** The name of a format for --format and messages ("sysbench", "csv", ...); "auto" for AUTO. */
const char *import_format_name(enum import_format f);

/** The format named name (as import_format_name gives), or -1 when none is. */
int import_format_from_name(const char *name);

/* One input being read. */
struct import_reader;

/**
 * Open path ("-" reads stdin) and detect its format.
 * @param opt     options (may be NULL: all defaults); kept by pointer until import_close
 * @param report  filled with counts and the first message; kept by pointer until import_close
 * @param out     the reader on success (free with import_close)
 * @return IMPORT_OK, or IMPORT_EIO / IMPORT_EFORMAT (empty, unknown format) / IMPORT_ENOMEM with
 *         report->msg set (*out is then NULL).
 */
int import_open(const char *path, const struct import_options *opt, struct import_report *report,
                struct import_reader **out);

/**
 * A reader over a buffer holding a whole file's content (not copied: it must outlive the
 * reader); name is used in messages and as source.file. Same returns as import_open.
 */
int import_open_buffer(const char *buf, size_t len, const char *name,
                       const struct import_options *opt, struct import_report *report,
                       struct import_reader **out);

/**
 * The next point of the input into out (initialised; its old contents are destroyed), with
 * target, workload and source filled (from the content, else the options, the file name).
 * @return 1 (a point), 0 (end: report->n_points counts them; report->msg holds a warning when
 *         something was rejected or incomplete), or a negative IMPORT_E* code with report->msg
 *         naming file, line and what was expected (drop this file's points read so far).
 */
int import_next(struct import_reader *r, struct point *out);

/** The format being read. */
enum import_format import_reader_format(const struct import_reader *r);

/** Close a reader (and its file). NULL-safe. */
void import_close(struct import_reader *r);

/**
 * Import one file (path "-" reads stdin) and append its points to out: import_open, then
 * import_next until the end.
 * @param opt     options (may be NULL: all defaults)
 * @param out     list the points are appended to; untouched on error
 * @param report  filled with a message and counts; always written
 * @return IMPORT_OK, IMPORT_WARN (points appended; some incomplete or a run rejected), or a
 *         negative IMPORT_E* code (nothing appended); IMPORT_ETOOMANY when the list would hold
 *         more than opt->max_points.
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
