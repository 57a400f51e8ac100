/* cmd_rank.c - `sizeup rank`: rank configurations by throughput per cost at a latency target. */
#include "cli.h"
#include "commands.h"
#include "outfile.h"
#include "rank_cli.h"
#include "rank_confirm.h"
#include "rank_output.h"
#include "suite_rank.h"

#include <stdio.h>
#include <string.h>

/* Output formats of the ranking. */
enum { RANK_FMT_TEXT, RANK_FMT_JSON, RANK_FMT_CSV, RANK_FMT_MARKDOWN };

struct rank_cmd {
    struct rank_cli in;
    int json, csv, markdown;
    long top;
    const char *output;
    const char *suites[RANK_CLI_MAX_FILES];
    size_t n_suites;
    int confirm;             /* --confirm */
    const char *confirm_out; /* --confirm-out */
};

static const struct cli_opt rank_options[] = {
    RANK_CLI_OPTIONS(struct rank_cmd, in),
    {"json", 0, CLI_FLAG, CLI_AT(struct rank_cmd, json),
     .help = "sizeup.ranking/1 records (JSON Lines)"},
    {"csv", 0, CLI_FLAG, CLI_AT(struct rank_cmd, csv), .help = "CSV with a header row"},
    {"markdown", 0, CLI_FLAG, CLI_AT(struct rank_cmd, markdown), .help = "a Markdown table"},
    {"top", 0, CLI_INT, CLI_AT(struct rank_cmd, top), .arg_name = "N", .min = 0, .max = 1e15,
     .dflt = "1000",
     .help = "the text and Markdown tables show the first N rows (default 1000; 0: every row) "
             "and say how many more there are; --json and --csv hold every row"},
    {"output", 'o', CLI_PATH, CLI_AT(struct rank_cmd, output),
     .help = "write to FILE (replaced whole) instead of stdout"},
    {"confirm", 0, CLI_FLAG, CLI_AT(struct rank_cmd, confirm),
     .help = "run the first-ranked configuration again open loop (Poisson arrivals) at the "
             "throughput it claims, on the server its sizeup probe records name, and say "
             "whether the latency target held (the password as probe finds one)"},
    {"confirm-out", 0, CLI_PATH, CLI_AT(struct rank_cmd, confirm_out), .arg_name = "FILE",
     .help = "with --confirm: append the open-loop run's sizeup.point/1 record to FILE"},
    {"suite", 0, CLI_PATH, CLI_LIST(struct rank_cmd, suites, n_suites), .arg_name = "FILE",
     .help = "rank by the cost of one run of the query suites in FILE instead of points "
             "(repeatable; --workload picks one suite)"},
    {0}};

const struct cli_cmd cmd_rank_cli = {
    .name = "rank",
    .usage = "Usage: sizeup rank --points FILE [--catalog FILE|URL] [OPTIONS]",
    .description =
        "Join measured curves to catalog configurations (by the points' config id, --map, or a\n"
        "target named like a configuration), read each curve (points that count, levels, shape,\n"
        "the model where it describes them) and rank the configurations by throughput per cost\n"
        "at the latency target: the most throughput among the measured levels that meet it and\n"
        "the crossings between them, never beyond a collapse and never past the largest measured\n"
        "level unless --extrapolate=F allows, with a 95 % interval, cost per hour, per million\n"
        "transactions and headroom to the peak. Each figure says whether it is measured,\n"
        "interpolated or extrapolated; configurations that never meet the target rank last.\n"
        "Percentile targets use the measured percentiles; avg uses the measured mean, else\n"
        "Little's law R = N/X. With --suite, query-suite timings (sizeup.suite/1 or a table of\n"
        "query and seconds) are ranked by cost per run = price per hour x total s / 3600, with\n"
        "the rank by suite time and a per-query comparison (docs/suite-record.md). Exit status:\n"
        "0; 1 nothing to rank; 2 bad command line; 3 some input rejected (a file, a point\n"
        "joining no configuration); 4 a catalog URL failed.",
    .options = rank_options,
    .max_operands = CLI_ANY};

/* What write_ranking writes: a ranking in one of the formats. */
struct rank_out {
    const struct ranking *rk;
    int fmt; /* RANK_FMT_* */
};

static int write_ranking(FILE *f, const void *ctx)
{
    const struct ranking *s = ((const struct rank_out *)ctx)->rk;
    switch (((const struct rank_out *)ctx)->fmt) {
    case RANK_FMT_JSON:
        return ranking_write_json(f, s);
    case RANK_FMT_CSV:
        return ranking_write_csv(f, s);
    case RANK_FMT_MARKDOWN:
        return ranking_write_markdown(f, s);
    default:
        return ranking_write_text(f, s);
    }
}

/* What write_suites writes. */
struct suite_out {
    const struct suite_ranking_set *s;
    int json;
};

static int write_suites(FILE *f, const void *ctx)
{
    const struct suite_out *o = ctx;
    return o->json ? suite_ranking_write_json(f, o->s) : suite_ranking_write_text(f, o->s);
}

/* rank --suite: the suite files, the catalogs, the ranking (suite_rank.h). */
static int rank_suites(struct rank_cmd *o, const struct cli_args *args)
{
    struct suite_list runs;
    struct suite_ranking_set s;
    struct suite_out so;
    struct cat_catalog *cat = NULL;
    int status = SIZEUP_EXIT_OK, rc;
    const char *only = o->in.opt.n_mix == 1 ? o->in.opt.mix[0].workload : NULL;
    if (args->argc > 0)
        return cli_usage_error("rank", "unexpected argument '%s' (suite files go after --suite)",
                               args->argv[0]);
    if (o->in.n_points > 0)
        return cli_usage_error("rank", "give --points or --suite, not both");
    if (o->in.opt.n_mix > 1 || o->csv || o->markdown)
        return cli_usage_error("rank", "--suite takes --workload SUITE and --json, not --mix, "
                                       "--csv or --markdown");
    suite_list_init(&runs);
    for (size_t i = 0; i < o->n_suites; i++) {
        char err[512];
        int src = suite_read_file(o->suites[i], NULL, &runs, err, sizeof err);
        if (src != SUITE_OK) {
            fprintf(stderr, "sizeup: %s\n", err);
            status = src == SUITE_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
            if (src == SUITE_ENOMEM)
                goto out;
        }
    }
    if ((rc = rank_cli_load_catalogs(&o->in, "rank", &cat)) != 0) {
        status = rc;
        goto out;
    }
    suite_ranking_init(&s);
    rc = suite_ranking_build(&s, &runs, cat, o->in.opt.pricing, o->in.maps, o->in.n_maps, only,
                             stderr);
    if (rc < 0) {
        status = SIZEUP_EXIT_FAIL;
    } else {
        if (rc > 0 && status == SIZEUP_EXIT_OK)
            status = SIZEUP_EXIT_INPUT;
        so.s = &s;
        so.json = o->json;
        if (outfile_emit(o->output, "the ranking", write_suites, &so) != 0)
            status = SIZEUP_EXIT_FAIL;
    }
    suite_ranking_destroy(&s);
out:
    cat_catalog_free(cat);
    suite_list_destroy(&runs);
    return status;
}

int cmd_rank(int argc, char **argv)
{
    struct rank_cmd o;
    struct cli_args args;
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct ranking s;
    struct rank_out ro;
    int status = SIZEUP_EXIT_OK, rc;

    memset(&o, 0, sizeof o);
    o.top = RANK_TEXT_ROWS_DEFAULT;
    rank_cli_init(&o.in);
    rc = cli_parse(&cmd_rank_cli, argc, argv, &o, &args);
    if (rc == CLI_RUN && o.json + o.csv + o.markdown > 1)
        rc = cli_usage_error("rank", "give one of --json, --csv, --markdown");
    if (rc == CLI_RUN && o.confirm_out && !o.confirm)
        rc = cli_usage_error("rank", "--confirm-out is the record of --confirm's run: give both");
    if (rc == CLI_RUN && o.confirm && (o.n_suites > 0 || o.in.opt.n_mix > 1 || o.in.require))
        rc = cli_usage_error("rank", "--confirm runs one workload's answer: rank one --workload "
                                     "of measured points (not a mix, --require or --suite)");
    if (rc == CLI_RUN && o.n_suites > 0) {
        rc = rank_suites(&o, &args);
        rank_cli_destroy(&o.in);
        return rc;
    }
    if (rc == CLI_RUN && (rc = rank_cli_finish(&o.in, "rank", &args, &pts, &cat, &s, &status)) == 0)
        rc = CLI_RUN; /* loaded and ranked */
    if (rc != CLI_RUN) {
        rank_cli_destroy(&o.in);
        return rc;
    }
    if (status == 0)
        status = rank_cli_nothing(&s.set, &pts, "rank");
    s.set.text_rows = (size_t)o.top;
    ro.rk = &s;
    ro.fmt = o.json       ? RANK_FMT_JSON
             : o.csv      ? RANK_FMT_CSV
             : o.markdown ? RANK_FMT_MARKDOWN
                          : RANK_FMT_TEXT;
    if (outfile_emit(o.output, "the ranking", write_ranking, &ro) != 0)
        status = SIZEUP_EXIT_FAIL;
    if (o.confirm) {
        /* after the ranking; on stderr when stdout holds records (JSON Lines, CSV) */
        int crc = rank_confirm(&s, &pts, o.in.maps, o.in.n_maps, o.confirm_out,
                               ro.fmt == RANK_FMT_TEXT || ro.fmt == RANK_FMT_MARKDOWN
                                   ? (o.output ? stderr : stdout)
                                   : stderr);
        if (crc != SIZEUP_EXIT_OK && status == SIZEUP_EXIT_OK)
            status = crc;
    }
    ranking_destroy(&s);
    cat_catalog_free(cat);
    point_list_destroy(&pts);
    rank_cli_destroy(&o.in);
    return status;
}
