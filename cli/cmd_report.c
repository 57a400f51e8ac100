/* cmd_report.c - `sizeup report`: the ranking as one self-contained HTML page or Markdown. */
#include "cli.h"
#include "commands.h"
#include "outfile.h"
#include "rank_cli.h"
#include "rank_output.h"
#include "report_html.h"

#include <stdio.h>
#include <string.h>

struct report_cmd {
    struct rank_cli in;
    int markdown;
    const char *output;
};

static const struct cli_opt report_options[] = {
    RANK_CLI_OPTIONS(struct report_cmd, in),
    {"markdown", 0, CLI_FLAG, CLI_AT(struct report_cmd, markdown),
     .help = "a Markdown summary instead of HTML"},
    {"output", 'o', CLI_PATH, CLI_AT(struct report_cmd, output),
     .help = "write to FILE (replaced whole) instead of stdout"},
    {0}};

const struct cli_cmd cmd_report_cli = {
    .name = "report",
    .usage = "Usage: sizeup report --points FILE [--catalog FILE|URL] [OPTIONS] [-o FILE]",
    .description =
        "Rank as `sizeup rank` does and write one self-contained HTML page (inline SVG, no\n"
        "external assets): the ranking, a bar chart of throughput per cost, per configuration\n"
        "the throughput curve (measured points, the model where it describes them or else the\n"
        "measured curve, its 95 % band, the point where the latency target binds) and the\n"
        "latency curve with the target line, and the inputs\n"
        "(target, workloads, points files, catalogs with dates, every cost term with its source).\n"
        "--markdown writes a text summary instead. Exit status as for `sizeup rank`.",
    .options = report_options,
    .max_operands = CLI_ANY};

/* What write_report writes: the page or the Markdown summary. */
struct report_out {
    const struct ranking *rk;
    const struct report_inputs *in;
    int markdown;
};

static int write_report(FILE *f, const void *ctx)
{
    const struct report_out *r = ctx;
    return r->markdown ? report_write_markdown(f, r->rk, r->in)
                       : report_write_html(f, r->rk, r->in);
}

int cmd_report(int argc, char **argv)
{
    struct report_cmd o;
    struct cli_args args;
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct ranking s;
    struct report_inputs in;
    struct report_out ro;
    int status = SIZEUP_EXIT_OK, rc;

    memset(&o, 0, sizeof o);
    rank_cli_init(&o.in);
    rc = cli_parse(&cmd_report_cli, argc, argv, &o, &args);
    if (rc == CLI_RUN &&
        (rc = rank_cli_finish(&o.in, "report", &args, &pts, &cat, &s, &status)) == 0)
        rc = CLI_RUN; /* loaded and ranked */
    if (rc != CLI_RUN) {
        rank_cli_destroy(&o.in);
        return rc;
    }
    if (status == 0)
        status = rank_cli_nothing(&s.set, &pts, "report"); /* the report is written all the same */
    in.points_files = o.in.points;
    in.n_points_files = o.in.n_points;
    in.generated_by = "sizeup " SIZEUP_VERSION;
    ro.rk = &s;
    ro.in = &in;
    ro.markdown = o.markdown;
    if (outfile_emit(o.output, "the report", write_report, &ro) != 0)
        status = SIZEUP_EXIT_FAIL;
    ranking_destroy(&s);
    cat_catalog_free(cat);
    point_list_destroy(&pts);
    rank_cli_destroy(&o.in);
    return status;
}
