/*
 * decision.h - the decision section of a report: the winner, the runner-up and by how much it
 * leads, where the decision flips ("idc-nvme stays cheaper per tps than cloud-local-ssd unless
 * ..."), what the sensitivity table spans, whether the comparison is like for like, the
 * horizon NPV of the two, and the load the owned servers' power was read at. It restates the
 * figures of confidence.h (P(best), the break-even price) and tco.h (advantage, break-even
 * inputs, sensitivity, horizon); it computes nothing new.
 *
 * Written as Markdown or HTML list items by decision_output.h, one item per line of thought.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_DECISION_H
#define SIZEUP_ADVISOR_DECISION_H

#include "ranking.h"

#include <stdio.h>

/* Longest item, bytes (a break-even item names every estimated input of the two). */
#define DECISION_ITEM_MAX 4096
/* Most items. */
#define DECISION_MAX_ITEMS 10

/**
 * The items of the decision of a built ranking rk (without its confidence or TCO their items
 * are left out), as plain text (configuration ids and figures as the text output prints them).
 * @param items  DECISION_MAX_ITEMS buffers of DECISION_ITEM_MAX bytes, filled in order
 * @return the number of items (0 when nothing meets the target).
 */
size_t decision_items(const struct ranking *rk, char (*items)[DECISION_ITEM_MAX]);

/* Before each alternative of a "where it flips" item in decision_items_parts: the ASCII unit
 * separator (an id that holds one is only split there). */
#define DECISION_ALT '\x1f'

/**
 * As decision_items, but a "where it flips" item keeps its alternatives apart: each follows a
 * DECISION_ALT, for a writer that lists them one a line (decision_output.h).
 * @return the number of items.
 */
size_t decision_items_parts(const struct ranking *rk, char (*items)[DECISION_ITEM_MAX]);

#endif
