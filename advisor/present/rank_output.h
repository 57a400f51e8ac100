/*
 * rank_output.h - a built ranking (ranking.h) as people and programs read it. It fronts two
 * files:
 *   rank_output.c  the aligned text table with its notes, and the Markdown table
 *   rank_record.c  sizeup.ranking/1 JSON Lines (docs/ranking-record.md) and CSV
 * Text and Markdown show the first set.text_rows rows and say how many more there are; JSON and
 * CSV hold every row. Names are printed as given (text), escaped (Markdown: textsafe.h) or
 * quoted against formula injection (CSV: csvfield.h).
 *
 * Thread-safety: functions touch only their arguments and f.
 */
#ifndef SIZEUP_ADVISOR_RANK_OUTPUT_H
#define SIZEUP_ADVISOR_RANK_OUTPUT_H

#include "ranking.h"

#include <stdio.h>

/* ---- rank_output.c ---------------------------------------------------------------------- */

/** Aligned text table, at most 100 columns, with a header, notes, how sure (confidence.h) and
 *  the TCO block (tco.h). @return 0 or -1 (I/O). */
int ranking_write_text(FILE *f, const struct ranking *rk);

/** A Markdown table with a line stating the target, and the decision section
 *  (decision_output.h). @return 0 or -1 (I/O, out of memory). */
int ranking_write_markdown(FILE *f, const struct ranking *rk);

/* ---- rank_record.c ---------------------------------------------------------------------- */

/** One sizeup.ranking/1 JSON object per row, one per line. @return 0 or -1 (I/O, out of
 *  memory). */
int ranking_write_json(FILE *f, const struct ranking *rk);

/** CSV with a header row. @return 0 or -1 (I/O). */
int ranking_write_csv(FILE *f, const struct ranking *rk);

#endif
