/* cmd_report.c - `sizeup report`: the ranking as one self-contained HTML page or Markdown. */
#include "cli.h"
#include "commands.h"
#include "outfile.h"
#include "rank_cli.h"
#include "report_html.h"

#include <stdio.h>
#include <string.h>

#ifndef SIZEUP_VERSION
#define SIZEUP_VERSION "0.0.0"
#endif

static const struct cli_option report_options[] = {
    RANK_CLI_OPTIONS,
    {"markdown", no_argument, RANK_OPT_MARKDOWN, NULL, "a Markdown summary instead of HTML"},
    {"output", required_argument, 'o', "FILE", "write to FILE (replaced whole) instead of stdout"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL}};

static const char report_usage[] =
    "Usage: sizeup report --points FILE [--catalog FILE|URL] [OPTIONS] [-o FILE]";
static const char report_description[] =
    "Rank as `sizeup rank` does and write one self-contained HTML page (inline SVG, no\n"
    "external assets): the ranking, a bar chart of throughput per cost, per configuration\n"
    "the throughput curve (measured points, fitted model, its 95 % band, the point where the\n"
    "latency target binds) and the latency curve with the target line, and the inputs\n"
    "(target, workloads, points files, catalogs with dates, every cost term with its source).\n"
    "--markdown writes a text summary instead. Exit status as for `sizeup rank`.";

/* What write_report writes: the page or the Markdown summary. */
struct report_out {
    const struct rank_set *s;
    const struct report_inputs *in;
    int markdown;
};

static int write_report(FILE *f, const void *ctx)
{
    const struct report_out *r = ctx;
    return r->markdown ? report_write_markdown(f, r->s, r->in) : report_write_html(f, r->s, r->in);
}

int cmd_report(int argc, char **argv)
{
    struct option longs[32];
    char shorts[32];
    struct rank_cli o;
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct rank_set s;
    struct report_inputs in;
    struct report_out ro;
    const char *out_path = NULL;
    int c, md = 0, status = SIZEUP_EXIT_OK, rc;

    rank_cli_init(&o);
    cli_build_getopt(report_options, longs, 32, shorts, sizeof shorts);
    optind = 0; /* full re-initialisation: the dispatcher before stopped at the first operand */
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == 'h') {
            cli_print_help(report_usage, report_description, report_options);
            rank_cli_destroy(&o);
            return SIZEUP_EXIT_OK;
        }
        if (c == RANK_OPT_MARKDOWN) {
            md = 1;
            continue;
        }
        if (c == 'o') {
            out_path = optarg;
            continue;
        }
        rc = rank_cli_getopt_other(&o, "report", c, optarg, argv);
        if (rc != 0) {
            rank_cli_destroy(&o);
            return rc;
        }
    }
    rc = rank_cli_finish(&o, "report", argc, argv, &pts, &cat, &s, &status);
    if (rc != 0) {
        rank_cli_destroy(&o);
        return rc;
    }
    in.points_files = o.points;
    in.n_points_files = o.n_points;
    in.generated_by = "sizeup " SIZEUP_VERSION;
    ro.s = &s;
    ro.in = &in;
    ro.markdown = md;
    if (outfile_emit(out_path, "the report", write_report, &ro) != 0)
        status = SIZEUP_EXIT_FAIL;
    rank_set_destroy(&s);
    cat_catalog_free(cat);
    point_list_destroy(&pts);
    rank_cli_destroy(&o);
    return status;
}
