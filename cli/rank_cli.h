/*
 * rank_cli.h - the input options `sizeup rank` and `sizeup report` share (--points,
 * --catalog, --slo, --workload, --mix, --required-tps, --pricing, --extrapolate, --map,
 * --map-file), as rows
 * of a cli_opt table, and the loading of points and catalogs they name. Internal to the
 * command line.
 *
 * Exit codes (cli.h): a catalog that cannot be fetched: SIZEUP_EXIT_UNREACHABLE (4); a catalog
 * that is not valid: SIZEUP_EXIT_INPUT (3); a catalog file that cannot be read:
 * SIZEUP_EXIT_FAIL (1); a points file that cannot be imported or a point that joins no
 * configuration: SIZEUP_EXIT_INPUT (3) after the rest is ranked; nothing to rank:
 * SIZEUP_EXIT_FAIL (1).
 */
#ifndef SIZEUP_CLI_RANK_CLI_H
#define SIZEUP_CLI_RANK_CLI_H

#include "catalog.h"
#include "choices.h"
#include "cli.h"
#include "diskrank.h"
#include "point.h"
#include "rank.h"
#include "ranking.h"
#include "rankset.h"
#include "setcli.h"

#define RANK_CLI_MAX_FILES 256
#define RANK_CLI_MAX_MAPS 1024

/*
 * Custom parsers of the shared options (cli_opt.parse; cli.h says how they are called). Each
 * returns 0, or -1 with the reason in err (cap bytes, without the option's name).
 */

/** --workload NAME into a struct rank_options (one workload of weight 1); refused after a
 *  --workload or --mix ("give one --workload or one --mix") or for a name of 64 bytes or more. */
int rank_cli_parse_workload(const char *arg, void *opt, char *err, size_t cap);

/** --mix W:F,... into a struct rank_options (rank_mix_parse: weights > 0, normalised to sum 1);
 *  refused after a --workload or --mix. */
int rank_cli_parse_mix(const char *arg, void *opt, char *err, size_t cap);

/** --map TARGET=CONFIG-ID, appended to a struct rank_cli (a copy of arg is kept in map_text,
 *  freed by rank_cli_destroy); at most RANK_CLI_MAX_MAPS. */
int rank_cli_parse_map(const char *arg, void *rank_cli, char *err, size_t cap);

/** --map-file FILE: each line TARGET=CONFIG-ID as --map ('#' comments, blank lines skipped); an
 *  error names "FILE:LINE: "; a file that cannot be read: "cannot read FILE: reason". */
int rank_cli_parse_map_file(const char *arg, void *rank_cli, char *err, size_t cap);

/** --horizon 3y or 36m into an int of months (whole months, 1 to 1200). */
int rank_cli_parse_horizon(const char *arg, void *months, char *err, size_t cap);

/* Rows of the shared options for the cli_opt table of a command whose option struct T holds a
 * struct rank_cli as member m (the same rows, text and defaults in rank and report). */
#define RANK_CLI_OPTIONS(T, m)                                                                     \
    {"points", 0, CLI_PATH, CLI_LIST(T, m.points, m.n_points),                                     \
     .help = "points or anything `sizeup import` reads (repeatable; held in memory: at most "      \
             "250000 points in all)"},                                                             \
        {"catalog",                                                                                \
         0,                                                                                        \
         CLI_PATH,                                                                                 \
         CLI_LIST(T, m.catalogs, m.n_catalogs),                                                    \
         .arg_name = "FILE|URL",                                                                   \
         .dflt_doc = "$SIZEUP_CATALOG, else data/catalogs/published.json",                         \
         .help = "catalog (repeatable)"},                                                          \
        {"slo",                                                                                    \
         0,                                                                                        \
         CLI_SLO,                                                                                  \
         CLI_AT(T, m.opt.slo),                                                                     \
         .dflt = "p95:50ms",                                                                       \
         .help = "latency target: avg or pNN, and a latency with its unit"},                       \
        {"workload",                                                                               \
         0,                                                                                        \
         CLI_CUSTOM,                                                                               \
         CLI_AT(T, m.opt),                                                                         \
         .arg_name = "NAME",                                                                       \
         .parse = rank_cli_parse_workload,                                                         \
         .dflt_doc = "the points' only workload",                                                  \
         .help = "the workload to rank"},                                                          \
        {"mix",                                                                                    \
         0,                                                                                        \
         CLI_CUSTOM,                                                                               \
         CLI_AT(T, m.opt),                                                                         \
         .arg_name = "W:F,...",                                                                    \
         .parse = rank_cli_parse_mix,                                                              \
         .help = "workload mix, harmonic mean of throughput, e.g. oltp_read_write:0.7,..."},       \
        {"required-tps",    0,                                                                     \
         CLI_REAL,          CLI_AT(T, m.opt.required_tps),                                         \
         .arg_name = "N",   .min = 1e-9,                                                           \
         .max = 1e15,       .takes = "a throughput > 0",                                           \
         .example = "5000", .help = "size for N tps: nodes and monthly cost, ranked by cost"},     \
        {"target",                                                                                 \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_AT(T, m.import_target),                                                               \
         .dflt_doc = "the file's base name, less a trailing thread count",                         \
         .help = "target of the points of files that do not name one (as sizeup import "           \
                 "--target)"},                                                                     \
        {"require",                                                                                \
         0,                                                                                        \
         CLI_PATH,                                                                                 \
         CLI_AT(T, m.require),                                                                     \
         .arg_name = "FILE",                                                                       \
         .help = "size for the load of a sizeup.workload/1 record (sizeup observe): its mix, and " \
                 "its --require-at tps x --growth x (1 + --headroom) as --required-tps"},          \
        {"require-at",                                                                             \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_AT(T, m.require_at),                                                                  \
         .arg_name = "STAT",                                                                       \
         .dflt = "p95",                                                                            \
         .help = "with --require: the statistic of the observed intervals sized for (mean, p50, "  \
                 "p95, p99 or max)"},                                                              \
        {"growth",                                                                                 \
         0,                                                                                        \
         CLI_REAL,                                                                                 \
         CLI_AT(T, m.growth),                                                                      \
         .arg_name = "F",                                                                          \
         .min = 1e-3,                                                                              \
         .max = 1e6,                                                                               \
         .dflt = "1",                                                                              \
         .example = "2",                                                                           \
         .help = "with --require: the load grows by F (2 = twice the observed load)"},             \
        {"headroom",                                                                               \
         0,                                                                                        \
         CLI_REAL,                                                                                 \
         CLI_AT(T, m.headroom),                                                                    \
         .arg_name = "F",                                                                          \
         .min = 0,                                                                                 \
         .max = 100,                                                                               \
         .dflt = "0.3",                                                                            \
         .example = "0.5",                                                                         \
         .help = "with --require: spare capacity on top, as a fraction (0.3 = 30 %)"},             \
        {"pricing",           0,                                                                   \
         CLI_CHOICE,          CLI_AT(T, m.opt.pricing),                                            \
         .arg_name = "P",     .choices = cli_pricings,                                             \
         .dflt = "on-demand", .help = "the pricing model"},                                        \
        {"extrapolate",                                                                            \
         0,                                                                                        \
         CLI_REAL,                                                                                 \
         CLI_AT(T, m.opt.extrapolate),                                                             \
         .arg_name = "F",                                                                          \
         .min = 1,                                                                                 \
         .max = 1000,                                                                              \
         .takes = "a factor from 1 to 1000 of the largest measured level",                         \
         .example = "2",                                                                           \
         .dflt = "1",                                                                              \
         .help = "search up to F x the largest measured level (labelled extrap)"},                 \
        {"map",                                                                                    \
         0,                                                                                        \
         CLI_CUSTOM,                                                                               \
         CLI_AT(T, m),                                                                             \
         .arg_name = "T=ID",                                                                       \
         .parse = rank_cli_parse_map,                                                              \
         .help = "points of target T belong to configuration ID (repeatable)"},                    \
        {"map-file",                                                                               \
         0,                                                                                        \
         CLI_CUSTOM,                                                                               \
         CLI_AT(T, m),                                                                             \
         .arg_name = "FILE",                                                                       \
         .parse = rank_cli_parse_map_file,                                                         \
         .help = "lines TARGET=ID ('#' comments) as --map"},                                       \
        {"horizon",                                                                                \
         0,                                                                                        \
         CLI_CUSTOM,                                                                               \
         CLI_AT(T, m.opt.horizon_months),                                                          \
         .arg_name = "H",                                                                          \
         .parse = rank_cli_parse_horizon,                                                          \
         .dflt_doc = "the owned servers' amortisation period",                                     \
         .help = "net present value of each configuration over H (3y, 36m) under every pricing "   \
                 "model"},                                                                         \
        {"discount-rate",                                                                          \
         0,                                                                                        \
         CLI_REAL,                                                                                 \
         CLI_AT(T, m.opt.discount_rate),                                                           \
         .arg_name = "R",                                                                          \
         .min = 0,                                                                                 \
         .max = 1,                                                                                 \
         .takes = "an annual rate from 0 to 1",                                                    \
         .example = "0.07",                                                                        \
         .dflt = "0.05",                                                                           \
         .help = "annual discount rate of the net present value (your cost of capital)"},          \
        {"ha-standby",                                                                             \
         0,                                                                                        \
         CLI_INT,                                                                                  \
         CLI_AT(T, m.opt.ha_standby),                                                              \
         .arg_name = "N",                                                                          \
         .min = 0,                                                                                 \
         .max = 100,                                                                               \
         .help = "price N standby copies of every configuration that is not highly available "     \
                 "(like for like with HA ones)"},                                                  \
        {"predict", 0, CLI_FLAG, CLI_AT(T, m.predict),                                             \
         .help = "also rank every configuration of the catalogs predicted from its family's "      \
                 "measured sizes (sizeup predict), labelled pred"},                                \
        {"max-price-age",                                                                          \
         0,                                                                                        \
         CLI_INT,                                                                                  \
         CLI_AT(T, m.opt.max_price_age_months),                                                    \
         .arg_name = "MONTHS",                                                                     \
         .min = 1,                                                                                 \
         .max = 1200,                                                                              \
         .dflt = "12",                                                                             \
         .help = "say which prices are older than this (their catalog needs a refresh)"},          \
        {"disks",                                                                                  \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_LIST(T, m.disks, m.n_disks),                                                          \
         .arg_name = "TYPE[:GIB,...][@LAT]",                                                       \
         .example = "huawei-evs-ssd:100,500",                                                      \
         .help = "also rank each measured configuration on this catalog disk type at these "       \
                 "sizes (none given: 20, 50, 100 GiB, ... up to where the disk stops binding), "   \
                 "predicted by a queueing model of its CPU and disk (repeatable)"},                \
        {"disks-from",                                                                             \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_LIST(T, m.disks_from, m.n_disks_from),                                                \
         .arg_name = "ID",                                                                         \
         .dflt_doc = "every measured configuration",                                               \
         .help =                                                                                   \
             "with --disks: model only this measured configuration on the disks (repeatable)"},    \
        {"set",                                                                                    \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_LIST(T, m.sets, m.n_sets),                                                            \
         .arg_name = SETCLI_ARG,                                                                   \
         .example = SETCLI_EXAMPLE,                                                                \
         .help = SETCLI_HELP},                                                                     \
        {"transfer",                                                                               \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_LIST(T, m.transfer, m.n_transfer),                                                    \
         .arg_name = "F=FROM:R",                                                                   \
         .example = "m5=c5:0.9",                                                                   \
         .help = "with --predict: predict family F from FROM's sizes at R x their per-core "       \
                 "throughput, or R = score[:BENCH.KIND] for the ratio of their --scores "          \
                 "(as sizeup predict --transfer; repeatable)"},                                    \
    {                                                                                              \
        "scores", 0, CLI_PATH, CLI_AT(T, m.scores),                                                \
            .arg_name = "FILE", .example = "data/scores/aws-sparecores.json",                      \
            .help = "with --transfer F=FROM:score: per-server CPU benchmark scores "               \
                    "(sizeup.scores/1); the transferred rows' intervals carry the file's "         \
                    "calibrated error"                                                             \
    }

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
    int predict;                              /* --predict */
    const char *transfer[RANK_CLI_MAX_FILES]; /* --transfer rules */
    size_t n_transfer;
    const char *scores;                    /* --scores: CPU scores for score transfers, or NULL */
    const char *disks[DISKRANK_MAX_SPECS]; /* --disks choices */
    size_t n_disks;
    const char *disks_from[RANK_CLI_MAX_FILES]; /* --disks-from: the measured configurations */
    size_t n_disks_from;
    const char *import_target;    /* --target: as import's, for files that name none */
    const char *require;          /* --require: a sizeup.workload/1 record, or NULL */
    const char *require_at;       /* --require-at: mean, p50, p95, p99, max */
    double growth;                /* --growth */
    double headroom;              /* --headroom */
    const char *sets[SETCLI_MAX]; /* --set: the user's own cost inputs */
    size_t n_sets;
};

/** Empty: no files, no maps (the table's defaults set the target and the pricing). */
void rank_cli_init(struct rank_cli *o);

/** Free the map copies. */
void rank_cli_destroy(struct rank_cli *o);

/**
 * After option parsing: refuse operands (points go after --points), turn --require into the mix
 * and the required throughput (rank_cli_require), then load and rank as rank_cli_run (pts and
 * s are initialised here).
 * @param args  what cli_parse found (its operands are refused)
 * @return 0, or an exit code (nothing to free but o).
 */
int rank_cli_finish(struct rank_cli *o, const char *cmd, const struct cli_args *args,
                    struct point_list *pts, struct cat_catalog **cat, struct ranking *rk,
                    int *status);

/**
 * --require FILE: read the workload record (workload_read) and set o->opt's mix to its weights
 * and o->opt.required_tps to its --require-at statistic of the mix's tps x --growth x
 * (1 + --headroom); says so on stderr. Nothing when --require is absent.
 * @return 0; SIZEUP_EXIT_USAGE (--require with --mix, --workload or --required-tps, or an unknown
 *         --require-at); SIZEUP_EXIT_INPUT (the record cannot be read, is not a workload record,
 *         or observed no load), with the reason on stderr.
 */
int rank_cli_require(struct rank_cli *o, const char *cmd);

/**
 * Load the catalogs --catalog names (default $SIZEUP_CATALOG, else the bundled published.json)
 * and apply the --set settings under --pricing (setcli.h); errors on stderr.
 * @param cmd  the command's name for messages ("rank", "report")
 * @param cat  out: the catalogs (free with cat_catalog_free), NULL on error
 * @return 0, or an exit code (the catalog's: 1, 3 or 4; a --set refused: 2).
 */
int rank_cli_load_catalogs(const struct rank_cli *o, const char *cmd, struct cat_catalog **cat);

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
 * Load and rank: rank_cli_load, the mix, --disks and --transfer checked, then ranking_build (the
 * one pipeline rank, report and study share, ranking.h).
 * @param rk  initialised (ranking_init); built on success
 * @return 0 (rk built; *status raised to SIZEUP_EXIT_INPUT when some input was rejected), or an
 *         exit code (nothing ranked; rk left empty and cat freed).
 */
int rank_cli_run(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                 struct cat_catalog **cat, struct ranking *rk, int *status);

/**
 * After a ranking is built: when no configuration could be judged at the target (every one
 * lacks its latency statistic), or none carries --required-tps, say so on stderr ("nothing to
 * rank: ..."), naming the statistics the points do have (pts). The output is still written:
 * it lists each configuration's reason.
 * @return 0, or SIZEUP_EXIT_FAIL (1) when there is nothing to rank.
 */
int rank_cli_nothing(const struct rank_set *s, const struct point_list *pts, const char *cmd);

#endif
