/*
 * cmd_catalog.h - what the actions of `sizeup catalog` share (cmd_catalog.c: check, cost, list
 * and dispatch; cmd_catalog_get.c: fetch and convert). Internal to the advisor.
 */
#ifndef SIZEUP_CLI_CMD_CATALOG_H
#define SIZEUP_CLI_CMD_CATALOG_H

#include "cli.h"

/* The option tables of the actions fetch and convert (cmd_catalog_get.c), for dispatch. */
extern const struct cli_cmd cmd_catalog_fetch_cli, cmd_catalog_convert_cli;

/**
 * Add a catalog file or http(s) URL to cat (cat_catalog_add_source); prints the error on
 * stderr.
 * @return SIZEUP_EXIT_OK; SIZEUP_EXIT_UNREACHABLE (URL not fetched); SIZEUP_EXIT_INPUT (not a
 *         valid catalog); SIZEUP_EXIT_FAIL (file not readable, out of memory).
 */
struct cat_catalog;
int cmd_catalog_load_one(struct cat_catalog *cat, const char *src);

/**
 * Load the named catalogs, or cat_default_source() when n is 0, into a new catalog.
 * @param out  the catalog (free with cat_catalog_free), NULL on error
 * @return an exit code as cmd_catalog_load_one's (errors on stderr).
 */
int cmd_catalog_load(const char *const *files, size_t n, struct cat_catalog **out);

/** sizeup catalog fetch URL -o FILE: returns an exit code. */
int cmd_catalog_fetch(int argc, char **argv);

/**
 * The options `catalog fetch` runs with when none is given: its table's defaults applied to
 * cat_fetch_options_default (for the test that both say the same).
 * @return 0, or an exit code when the table's defaults do not parse.
 */
struct cat_fetch_options;
int cmd_catalog_fetch_defaults(struct cat_fetch_options *o);

/** sizeup catalog convert --from FORMAT FILE... -o FILE: returns an exit code. */
int cmd_catalog_convert(int argc, char **argv);

/**
 * The options `catalog convert` runs with when none is given: its table's defaults applied
 * to cat_convert_options_default (for the test that both say the same).
 * @return 0, or an exit code when the table's defaults do not parse.
 */
struct cat_convert_options;
int cmd_catalog_convert_defaults(struct cat_convert_options *o);

#endif
