/* cmd_predict.c - `sizeup predict`: curves of unprobed catalog configurations from their family. */
#include "cli.h"
#include "cmd_catalog.h"
#include "commands.h"
#include "import.h"
#include "outfile.h"
#include "predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREDICT_MAX_FILES 256
#define PREDICT_MAX_LEVELS 64

struct predict_args {
    const char *points[PREDICT_MAX_FILES];
    size_t n_points;
    const char *catalogs[PREDICT_MAX_FILES];
    size_t n_catalogs;
    long long threads[PREDICT_MAX_LEVELS];
    size_t n_threads;
    const char *transfer_text[PREDICT_MAX_TRANSFER];
    size_t n_transfer;
    const char *maps[PREDICT_MAX_FILES];
    size_t n_maps;
    const char *workload, *out;
    struct slo slo;
    int json, validate;
};

#define A(field) CLI_AT(struct predict_args, field)
static const struct cli_opt predict_options[] = {
    {"points", 0, CLI_PATH, CLI_LIST(struct predict_args, points, n_points), .arg_name = "FILE",
     .help = "measured points or anything `sizeup import` reads (repeatable)"},
    {"catalog", 0, CLI_PATH, CLI_LIST(struct predict_args, catalogs, n_catalogs),
     .arg_name = "FILE|URL", .dflt_doc = "$SIZEUP_CATALOG, else data/catalogs/published.json",
     .help = "catalog whose configurations are predicted (repeatable)"},
    {"threads", 0, CLI_INT_LIST, CLI_LIST(struct predict_args, threads, n_threads),
     .arg_name = "LIST", .min = 1, .max = 1e6, .example = "1,2,4,8,16,32,64,128",
     .dflt_doc = "the levels measured in the family", .help = "thread levels to predict"},
    {"transfer", 0, CLI_STRING, CLI_LIST(struct predict_args, transfer_text, n_transfer),
     .arg_name = "F=FROM:R", .example = "m5=c5:0.9",
     .help = "predict family F from family FROM's measured sizes at R x their per-core "
             "throughput ('clock': the ratio of clock_ghz), labelled transfer (repeatable)"},
    {"workload", 0, CLI_STRING, A(workload), .arg_name = "NAME",
     .dflt_doc = "every workload of the points", .help = "predict this workload only"},
    {"map", 0, CLI_STRING, CLI_LIST(struct predict_args, maps, n_maps), .arg_name = "T=ID",
     .help = "points of target T belong to configuration ID (repeatable)"},
    {"slo", 0, CLI_SLO, A(slo), .arg_name = "STAT:T", .dflt = "p95:50ms",
     .help = "latency target of the leave-one-out comparison (--validate)"},
    {"validate", 0, CLI_FLAG, A(validate),
     .help = "print the leave-one-out table: each measured size predicted from the others"},
    {"json", 0, CLI_FLAG, A(json),
     .help = "write the predicted sizeup.point/1 records (with --validate: sizeup.validation/1)"},
    {"output", 'o', CLI_PATH, A(out), .help = "write to FILE (replaced whole) instead of stdout"},
    {0}};
#undef A

const struct cli_cmd cmd_predict_cli = {
    .name = "predict",
    .usage = "Usage: sizeup predict --points FILE... --catalog FILE|URL... [OPTIONS]",
    .description =
        "Predict the threads-versus-throughput curve of every configuration of the catalogs that\n"
        "has no measured points, from the measured configurations of the same instance family\n"
        "(the catalog's `family`, else the instance name up to its first '.'): at each number\n"
        "of threads per vCPU, throughput is a power law in vCPUs between the neighbouring\n"
        "measured sizes (docs/predict.md). The predicted points are sizeup.point/1 records with\n"
        "\"basis\": \"predicted\", predicted_from and a 95 % interval that includes the family's\n"
        "leave-one-out error. A configuration whose family has no measured size is listed as\n"
        "\"not predicted: probe one size of family F\"; with one measured size the interval is\n"
        "+/-35 % (stated). Points join configurations as in sizeup rank (config, --map, or a\n"
        "target named like a configuration).",
    .options = predict_options,
    .max_operands = 0,
    .epilog = "Exit status: 0; 1 nothing to predict from; 2 bad command line; 3 some input "
              "rejected (a\nfile, a point joining no configuration); 4 a catalog URL failed."};

struct emit_ctx {
    const struct predict_set *s;
    const struct predict_args *a;
};

static int emit(FILE *f, const void *vctx)
{
    const struct emit_ctx *c = vctx;
    if (c->a->validate)
        return c->a->json ? predict_write_validation_json(f, c->s)
                          : predict_write_validation_text(f, c->s);
    return c->a->json ? predict_write_points(f, c->s) : predict_write_text(f, c->s);
}

int cmd_predict(int argc, char **argv)
{
    struct predict_args a;
    struct cli_args ca;
    struct predict_options po;
    struct predict_set s;
    struct rank_map maps[PREDICT_MAX_FILES];
    char *map_text[PREDICT_MAX_FILES] = {0};
    double levels[PREDICT_MAX_LEVELS];
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct import_options io = {.max_points = IMPORT_HELD_POINTS_MAX};
    struct emit_ctx ec;
    struct predict_transfer transfer[PREDICT_MAX_TRANSFER];
    int rc, status = SIZEUP_EXIT_OK;

    memset(&a, 0, sizeof a);
    rc = cli_parse(&cmd_predict_cli, argc, argv, &a, &ca);
    if (rc != CLI_RUN)
        return rc;
    if (a.n_points == 0)
        return cli_usage_error("predict", "no points: give --points FILE");
    for (size_t i = 0; i < a.n_maps; i++) {
        map_text[i] = strdup(a.maps[i]);
        if (!map_text[i] || rank_map_parse(map_text[i], &maps[i]) != 0) {
            rc = cli_usage_error("predict", "--map takes TARGET=CONFIG-ID, not '%s'", a.maps[i]);
            goto out;
        }
    }
    for (size_t i = 0; i < a.n_transfer; i++) {
        char err[256];
        if (predict_transfer_parse(a.transfer_text[i], &transfer[i], err, sizeof err) != 0) {
            rc = cli_usage_error("predict", "--transfer: %s", err);
            goto out;
        }
    }
    for (size_t i = 0; i < a.n_threads; i++)
        levels[i] = (double)a.threads[i];
    point_list_init(&pts);
    if (!(cat = cat_catalog_new())) {
        fprintf(stderr, "sizeup: out of memory\n");
        rc = SIZEUP_EXIT_FAIL;
        goto out_pts;
    }
    if (a.n_catalogs == 0) {
        rc = cmd_catalog_load_one(cat, cat_default_source());
    } else {
        rc = SIZEUP_EXIT_OK;
        for (size_t i = 0; rc == SIZEUP_EXIT_OK && i < a.n_catalogs; i++)
            rc = cmd_catalog_load_one(cat, a.catalogs[i]);
    }
    if (rc != SIZEUP_EXIT_OK)
        goto out_pts;
    for (size_t i = 0; i < a.n_points; i++) {
        struct import_report rep;
        long twice = cli_same_file_before(a.points, i);
        int irc;
        if (twice >= 0) {
            fprintf(stderr,
                    "sizeup: %s: the same file as %s, given before: read once (its points "
                    "twice would be replicates that agree exactly, a run-to-run noise of 0)\n",
                    a.points[i], a.points[twice]);
            continue;
        }
        irc = import_file(a.points[i], &io, &pts, &rep);
        if (irc < 0 || irc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            status = SIZEUP_EXIT_INPUT;
        }
    }
    memset(&po, 0, sizeof po);
    po.threads = a.n_threads ? levels : NULL;
    po.n_threads = a.n_threads;
    po.transfer = transfer;
    po.n_transfer = a.n_transfer;
    po.maps = maps;
    po.n_maps = a.n_maps;
    po.workload = a.workload;
    po.slo = a.slo;
    rc = predict_set_build(&s, &pts, cat, &po, stderr);
    if (rc < 0) {
        rc = SIZEUP_EXIT_FAIL;
        goto out_pts;
    }
    if (rc > 0)
        status = SIZEUP_EXIT_INPUT;
    ec.s = &s;
    ec.a = &a;
    rc = outfile_emit(a.out, a.validate ? "the validation" : "the predictions", emit, &ec) == 0
             ? status
             : SIZEUP_EXIT_FAIL;
    predict_set_destroy(&s);
out_pts:
    cat_catalog_free(cat);
    point_list_destroy(&pts);
out:
    for (size_t i = 0; i < a.n_maps; i++)
        free(map_text[i]);
    return rc;
}
