/*
 * rank_cli.h - the input options `sizeup rank` and `sizeup report` share (--points,
 * --catalog, --slo, --workload, --mix, --required-tps, --pricing, --map, --map-file) and the
 * loading of points and catalogs they name. Internal to the advisor.
 *
 * Exit codes (cli.h): a catalog that cannot be fetched: SIZEUP_EXIT_UNREACHABLE (4); a catalog
 * that is not valid: SIZEUP_EXIT_INPUT (3); a catalog file that cannot be read:
 * SIZEUP_EXIT_FAIL (1); a points file that cannot be imported or a point that joins no
 * configuration: SIZEUP_EXIT_INPUT (3) after the rest is ranked; nothing to rank:
 * SIZEUP_EXIT_FAIL (1).
 */
#ifndef SIZEUP_ADVISOR_RANK_CLI_H
#define SIZEUP_ADVISOR_RANK_CLI_H

#include "catalog.h"
#include "cli.h"
#include "point.h"
#include "rank.h"
#include "rankset.h"

/* getopt_long codes of the shared options. */
enum {
    RANK_OPT_POINTS = 256,
    RANK_OPT_CATALOG,
    RANK_OPT_SLO,
    RANK_OPT_WORKLOAD,
    RANK_OPT_MIX,
    RANK_OPT_REQUIRED,
    RANK_OPT_PRICING,
    RANK_OPT_MAP,
    RANK_OPT_MAP_FILE,
    RANK_OPT_JSON,
    RANK_OPT_CSV,
    RANK_OPT_MARKDOWN
};

/* Rows of the shared options, for a subcommand's option table (same text in both). */
#define RANK_CLI_OPTIONS                                                                           \
    {"points", required_argument, RANK_OPT_POINTS, "FILE",                                         \
     "points or anything `sizeup import` reads (repeatable)"},                                     \
        {"catalog", required_argument, RANK_OPT_CATALOG, "FILE|URL",                               \
         "catalog (repeatable; default data/catalogs/published.json)"},                            \
        {"slo", required_argument, RANK_OPT_SLO, "STAT:T",                                         \
         "latency target: avg, p50, p95, p99 with ms or s (default p95:50ms)"},                    \
        {"workload", required_argument, RANK_OPT_WORKLOAD, "NAME",                                 \
         "the workload to rank (default: the points' only workload)"},                             \
        {"mix", required_argument, RANK_OPT_MIX, "W:F,...",                                        \
         "workload mix, harmonic mean of throughput, e.g. oltp_read_write:0.7,..."},               \
        {"required-tps", required_argument, RANK_OPT_REQUIRED, "N",                                \
         "size for N tps: nodes and monthly cost, ranked by cost"},                                \
        {"pricing", required_argument, RANK_OPT_PRICING, "P",                                      \
         "on-demand (default), reserved-1y, reserved-3y, spot, subscription-1m/1y"},               \
        {"map", required_argument, RANK_OPT_MAP, "T=ID",                                           \
         "points of target T belong to configuration ID (repeatable)"},                            \
    {                                                                                              \
        "map-file", required_argument, RANK_OPT_MAP_FILE, "FILE",                                  \
            "lines TARGET=ID ('#' comments) as --map"                                              \
    }

#define RANK_CLI_MAX_FILES 256
#define RANK_CLI_MAX_MAPS 1024

struct rank_cli {
    struct rank_options opt;
    const char *points[RANK_CLI_MAX_FILES];
    size_t n_points;
    const char *catalogs[RANK_CLI_MAX_FILES];
    size_t n_catalogs;
    struct rank_map maps[RANK_CLI_MAX_MAPS];
    size_t n_maps;
    char *map_text[RANK_CLI_MAX_MAPS]; /* owned copies the maps point into */
    size_t n_map_text;
};

/** Defaults: p95 <= 50 ms, on-demand, no mix (the points' workload), no required throughput. */
void rank_cli_init(struct rank_cli *o);

/** Free the map copies. */
void rank_cli_destroy(struct rank_cli *o);

/**
 * Handle one shared option.
 * @return 0 when handled, 1 when c is not a shared option, or SIZEUP_EXIT_USAGE after a
 *         message (cmd names the subcommand in it).
 */
int rank_cli_option(struct rank_cli *o, const char *cmd, int c, const char *arg);

/**
 * Handle an option getopt_long returned that the subcommand itself does not handle: a shared
 * option, or an unknown one / a missing value.
 * @return 0 when handled, else the exit code to return (SIZEUP_EXIT_USAGE after a message).
 */
int rank_cli_getopt_other(struct rank_cli *o, const char *cmd, int c, const char *arg, char **argv);

/**
 * After option parsing: refuse operands (points go after --points), then load and rank as
 * rank_cli_run (pts and s are initialised here).
 * @return 0, or an exit code (nothing to free but o).
 */
int rank_cli_finish(const struct rank_cli *o, const char *cmd, int argc, char **argv,
                    struct point_list *pts, struct cat_catalog **cat, struct rank_set *s,
                    int *status);

/**
 * Import the points files and load the catalogs (errors on stderr).
 * @param pts     filled with the points (initialised by the caller)
 * @param cat     out: the catalogs (free with cat_catalog_free), NULL on a fatal error
 * @param status  raised to SIZEUP_EXIT_INPUT when a points file was rejected
 * @return 0, or an exit code when nothing can be ranked (no --points, a catalog failed).
 */
int rank_cli_load(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                  struct cat_catalog **cat, int *status);

/**
 * Load and rank: rank_cli_load and rank_set_build.
 * @return 0 (s built; *status raised to SIZEUP_EXIT_INPUT when some input was rejected), or an
 *         exit code (nothing ranked; s and cat are freed).
 */
int rank_cli_run(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                 struct cat_catalog **cat, struct rank_set *s, int *status);

#endif
