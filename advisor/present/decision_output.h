/*
 * decision_output.h - the decision section of a report (decision.h's items) as people read it:
 * Markdown list items (`sizeup rank --markdown`, `sizeup report --markdown`, a study's
 * report.md) or HTML list items (the HTML report), one item per line of thought.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_DECISION_OUTPUT_H
#define SIZEUP_ADVISOR_DECISION_OUTPUT_H

#include "ranking.h"

#include <stdio.h>

/**
 * "## Decision" and its items as a Markdown list (nothing when there are no items).
 * @return 0, or -1 (I/O, or out of memory for the items: nothing written).
 */
int decision_write_markdown(FILE *f, const struct ranking *rk);

/**
 * "<h2>Decision</h2>" and its items as an HTML list, the text escaped (nothing when there are
 * no items). @return 0, or -1 (I/O, or out of memory: nothing written).
 */
int decision_write_html(FILE *f, const struct ranking *rk);

#endif
