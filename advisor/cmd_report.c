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

int cmd_report(int argc, char **argv)
{
    struct option longs[32];
    char shorts[32];
    struct rank_cli o;
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct rank_set s;
    struct outfile of;
    struct report_inputs in;
    const char *out_path = NULL;
    int c, md = 0, status = SIZEUP_EXIT_OK, rc;
    char err[512];
    FILE *f = stdout;

    rank_cli_init(&o);
    cli_build_getopt(report_options, longs, 32, shorts, sizeof shorts);
    optind = 1;
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
        if (c == '?' || c == ':') {
            rank_cli_destroy(&o);
            return cli_getopt_error("report", c, argv);
        }
        rc = rank_cli_option(&o, "report", c, optarg);
        if (rc != 0) {
            rank_cli_destroy(&o);
            return rc == 1 ? cli_getopt_error("report", c, argv) : rc;
        }
    }
    if (optind < argc) {
        rank_cli_destroy(&o);
        return cli_usage_error("report", "unexpected argument '%s' (points go after --points)",
                               argv[optind]);
    }
    point_list_init(&pts);
    rank_set_init(&s);
    rc = rank_cli_run(&o, "report", &pts, &cat, &s, &status);
    if (rc != 0) {
        point_list_destroy(&pts);
        rank_cli_destroy(&o);
        return rc;
    }
    in.points_files = o.points;
    in.n_points_files = o.n_points;
    in.generated_by = "sizeup " SIZEUP_VERSION;
    if (out_path) {
        if (outfile_open(&of, out_path, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: %s\n", err);
            status = SIZEUP_EXIT_FAIL;
            goto out;
        }
        f = of.f;
    }
    rc = md ? report_write_markdown(f, &s, &in) : report_write_html(f, &s, &in);
    if (out_path) {
        if (rc != 0) {
            outfile_abort(&of);
            fprintf(stderr, "sizeup: cannot write %s\n", out_path);
            status = SIZEUP_EXIT_FAIL;
        } else if (outfile_commit(&of, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: %s\n", err);
            status = SIZEUP_EXIT_FAIL;
        }
    } else if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "sizeup: cannot write the report to stdout\n");
        status = SIZEUP_EXIT_FAIL;
    }
out:
    rank_set_destroy(&s);
    cat_catalog_free(cat);
    point_list_destroy(&pts);
    rank_cli_destroy(&o);
    return status;
}
