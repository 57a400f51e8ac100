/*
 * setnotes.h - which of a ranked row's cost inputs the user set (catalogs/setinput.h, `--set`),
 * for the outputs: the ranking's notes, its JSON records and the report say that a figure was
 * set on the command line rather than read from the catalog, and what the catalog had.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_SETNOTES_H
#define SIZEUP_ADVISOR_SETNOTES_H

#include "rankset.h"

#include <jansson.h>

/**
 * The set inputs row i's cost reads (rank_set_row_figures at the row's own pricing and nodes),
 * one line each (cat_set_describe: "capital 18000 USD, range 15000 to 22000: set on the command
 * line: idc-nvme.capital=...; the catalog's figure was 10000 USD, ..."), handed to fn with the
 * row's configuration id (fn NULL: only counted). Nothing when the row cannot be priced or
 * reads none.
 * @return the number of set inputs.
 */
size_t setnotes_row(const struct rank_set *s, size_t i,
                    void (*fn)(void *ctx, const char *config, const char *line), void *ctx);

/**
 * The set inputs of row i as a JSON array [{name, value, unit, low, high, source, as_of, note}]
 * (low and high when the input has a range), or NULL when it reads none (or out of memory).
 * @return a new reference, or NULL.
 */
json_t *setnotes_row_json(const struct rank_set *s, size_t i);

#endif
