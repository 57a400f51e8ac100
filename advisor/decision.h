/*
 * decision.h - the decision section of a report: the winner, the runner-up and by how much it
 * leads, where the decision flips ("idc-nvme stays cheaper per tps than cloud-local-ssd unless
 * ..."), what the sensitivity table spans, whether the comparison is like for like, the
 * horizon NPV of the two, and the load the owned servers' power was read at. It restates the
 * figures of confidence.h (P(best), the break-even price) and tco.h (advantage, break-even
 * inputs, sensitivity, horizon); it computes nothing new.
 *
 * Written as Markdown list items (`sizeup rank --markdown`, `sizeup report --markdown`, a
 * study's report.md) or HTML list items (the HTML report), one item per line of thought.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_DECISION_H
#define SIZEUP_ADVISOR_DECISION_H

#include "rankset.h"

#include <stdio.h>

/* Longest item, bytes (a break-even item names every estimated input of the two). */
#define DECISION_ITEM_MAX 4096
/* Most items. */
#define DECISION_MAX_ITEMS 10

/**
 * The items of the decision of a built ranking s (s->conf and s->tco may be NULL: their items
 * are left out), as plain text (configuration ids and figures as the text output prints them).
 * @param items  DECISION_MAX_ITEMS buffers of DECISION_ITEM_MAX bytes, filled in order
 * @return the number of items (0 when nothing meets the target).
 */
size_t decision_items(const struct rank_set *s, char (*items)[DECISION_ITEM_MAX]);

/**
 * "## Decision" and its items as a Markdown list (nothing when there are no items).
 * @return 0, or -1 (I/O, or out of memory for the items: nothing written).
 */
int decision_write_markdown(FILE *f, const struct rank_set *s);

/**
 * "<h2>Decision</h2>" and its items as an HTML list, the text escaped (nothing when there are
 * no items). @return 0, or -1 (I/O, or out of memory: nothing written).
 */
int decision_write_html(FILE *f, const struct rank_set *s);

#endif
