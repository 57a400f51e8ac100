/*
 * cmd_catalog.h - what the actions of `sizeup catalog` share (cmd_catalog.c: check, cost, list
 * and dispatch; cmd_catalog_get.c: fetch and convert). Internal to the advisor.
 */
#ifndef SIZEUP_ADVISOR_CMD_CATALOG_H
#define SIZEUP_ADVISOR_CMD_CATALOG_H

#include "cli.h"

/* getopt_long codes of the catalog actions' long-only options. */
enum {
    OPT_CATALOG = 'c',
    OPT_PRICING = 'p',
    OPT_JSON = 'j',
    OPT_NODES = 'n',
    OPT_OUTPUT = 'o',
    OPT_HELP = 'h',
    OPT_FROM = 'f',
    OPT_TIMEOUT = 256,
    OPT_CONNECT_TIMEOUT,
    OPT_RETRIES,
    OPT_BACKOFF,
    OPT_BACKOFF_MAX,
    OPT_MAX_SIZE,
    OPT_CACHE_DIR,
    OPT_NO_CACHE,
    OPT_NO_PAGING,
    OPT_QUIET,
    OPT_RETRY_404,
    OPT_REGION,
    OPT_OS,
    OPT_OFFERING,
    OPT_PURCHASE,
    OPT_AS_OF,
    OPT_NAME,
};

/**
 * Parse the options of one action with getopt_long, calling on_opt(ctx, code, optarg) for
 * each; on return optind is the first operand.
 * @return 0 to go on, -1 when --help was printed (exit 0), or an exit code (misuse: 2, or
 *         what on_opt returned).
 */
int cmd_catalog_parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
                      int (*on_opt)(void *, int, const char *), void *ctx, const char *usage,
                      const char *desc);

/** 1 when s starts with http:// or https:// (case-insensitive), else 0. */
int cmd_catalog_is_url(const char *s);

/**
 * Add a catalog file or http(s) URL to cat (a URL is fetched with the defaults of
 * catalogs/fetch.h, without paging); prints the error on stderr.
 * @return SIZEUP_EXIT_OK; SIZEUP_EXIT_UNREACHABLE (URL not fetched); SIZEUP_EXIT_INPUT (not a
 *         valid catalog); SIZEUP_EXIT_FAIL (file not readable, out of memory).
 */
struct cat_catalog;
int cmd_catalog_load_one(struct cat_catalog *cat, const char *src);

/** sizeup catalog fetch URL -o FILE: returns an exit code. */
int cmd_catalog_fetch(int argc, char **argv);

/** sizeup catalog convert --from FORMAT FILE... -o FILE: returns an exit code. */
int cmd_catalog_convert(int argc, char **argv);

#endif
