/* cmd_rank.c - `sizeup rank`: rank configurations by throughput per cost at a latency target. */
#include "cli.h"
#include "commands.h"
#include "outfile.h"
#include "rank_cli.h"

#include <stdio.h>
#include <string.h>

static const struct cli_option rank_options[] = {
    RANK_CLI_OPTIONS,
    {"json", no_argument, RANK_OPT_JSON, NULL, "sizeup.ranking/1 records (JSON Lines)"},
    {"csv", no_argument, RANK_OPT_CSV, NULL, "CSV with a header row"},
    {"markdown", no_argument, RANK_OPT_MARKDOWN, NULL, "a Markdown table"},
    {"output", required_argument, 'o', "FILE", "write to FILE (replaced whole) instead of stdout"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL}};

static const char rank_usage[] = "Usage: sizeup rank --points FILE [--catalog FILE|URL] [OPTIONS]";
static const char rank_description[] =
    "Join measured curves to catalog configurations (by the points' config id, --map, or a\n"
    "target named like a configuration), fit each curve, and rank the configurations by\n"
    "throughput per cost at the latency target: the highest throughput whose latency meets\n"
    "it (never past the peak N*), with a 95 % interval, cost per hour, per million\n"
    "transactions and headroom to the peak. Each figure says whether it is measured,\n"
    "interpolated or extrapolated; configurations that never meet the target rank last.\n"
    "Percentile targets use the measured percentiles; avg uses the measured mean, else\n"
    "Little's law R = N/X. Exit status: 0; 1 nothing to rank; 2 bad command line; 3 some\n"
    "input rejected (a file, a point joining no configuration); 4 a catalog URL failed.";

/* What write_ranking writes: a ranking in one of the formats. */
struct rank_out {
    const struct rank_set *s;
    int fmt; /* RANK_OPT_JSON, _CSV, _MARKDOWN, or 0 for the text table */
};

static int write_ranking(FILE *f, const void *ctx)
{
    const struct rank_set *s = ((const struct rank_out *)ctx)->s;
    switch (((const struct rank_out *)ctx)->fmt) {
    case RANK_OPT_JSON:
        return rank_set_write_json(f, s);
    case RANK_OPT_CSV:
        return rank_set_write_csv(f, s);
    case RANK_OPT_MARKDOWN:
        return rank_set_write_markdown(f, s);
    default:
        return rank_set_write_text(f, s);
    }
}

int cmd_rank(int argc, char **argv)
{
    struct option longs[32];
    char shorts[32];
    struct rank_cli o;
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct rank_set s;
    struct rank_out ro;
    const char *out_path = NULL;
    int c, fmt = 0, status = SIZEUP_EXIT_OK, rc;

    rank_cli_init(&o);
    cli_build_getopt(rank_options, longs, 32, shorts, sizeof shorts);
    optind = 0; /* full re-initialisation: the dispatcher before stopped at the first operand */
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == 'h') {
            cli_print_help(rank_usage, rank_description, rank_options);
            rank_cli_destroy(&o);
            return SIZEUP_EXIT_OK;
        }
        if (c == RANK_OPT_JSON || c == RANK_OPT_CSV || c == RANK_OPT_MARKDOWN) {
            if (fmt && fmt != c) {
                rank_cli_destroy(&o);
                return cli_usage_error("rank", "give one of --json, --csv, --markdown");
            }
            fmt = c;
            continue;
        }
        if (c == 'o') {
            out_path = optarg;
            continue;
        }
        rc = rank_cli_getopt_other(&o, "rank", c, optarg, argv);
        if (rc != 0) {
            rank_cli_destroy(&o);
            return rc;
        }
    }
    rc = rank_cli_finish(&o, "rank", argc, argv, &pts, &cat, &s, &status);
    if (rc != 0) {
        rank_cli_destroy(&o);
        return rc;
    }
    ro.s = &s;
    ro.fmt = fmt;
    if (outfile_emit(out_path, "the ranking", write_ranking, &ro) != 0)
        status = SIZEUP_EXIT_FAIL;
    rank_set_destroy(&s);
    cat_catalog_free(cat);
    point_list_destroy(&pts);
    rank_cli_destroy(&o);
    return status;
}
