/* cmd_predict.c - `sizeup predict`: curves of unprobed catalog configurations from their family. */
#include "cli.h"
#include "cmd_catalog.h"
#include "commands.h"
#include "diskpred.h"
#include "import.h"
#include "outfile.h"
#include "predict.h"
#include "predict_output.h"
#include "scores.h"
#include "transfercal.h"

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
    const char *disks[DISKPRED_MAX_DISKS];
    size_t n_disks;
    const char *from, *probed_disk;
    long long vcpus;
    const char *scores;
    const char *calibrate[PREDICT_MAX_TRANSFER];
    size_t n_calibrate;
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
             "throughput ('clock': the ratio of clock_ghz; 'score[:BENCH.KIND]': of the "
             "--scores CPU scores, the interval widened by their calibrated error), labelled "
             "transfer (repeatable)"},
    {"scores", 0, CLI_PATH, A(scores), .arg_name = "FILE",
     .example = "data/scores/aws-sparecores.json",
     .help = "per-server CPU benchmark scores (sizeup.scores/1) for --transfer F=FROM:score and "
             "--calibrate-transfer"},
    {"calibrate-transfer", 0, CLI_STRING, CLI_LIST(struct predict_args, calibrate, n_calibrate),
     .arg_name = "BENCH.KIND", .example = "geekbench6.all",
     .help = "predict each measured family from each other through the --scores ratio and print "
             "the error distribution and its 95 % bound (repeatable)"},
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
    {"disk", 0, CLI_STRING, CLI_LIST(struct predict_args, disks, n_disks), .arg_name = "SPEC",
     .example = "essd=22653@0.5ms",
     .help = "predict the --from curve on this disk instead of other sizes: ID=IOPS@LATENCY, "
             "ID=DISK:SIZE@LATENCY (a catalog disk type at SIZE GiB) or ID=@FILE[@LATENCY] (a "
             "sizeup disk --out file); LATENCY of one I/O with its unit, e.g. 0.2ms "
             "(repeatable)"},
    {"from", 0, CLI_STRING, A(from), .arg_name = "TARGET",
     .help = "with --disk: the measured target whose curve and demands are used"},
    {"probed-disk", 0, CLI_STRING, A(probed_disk), .arg_name = "SPEC",
     .help = "with --disk: the disk --from was measured on, as --disk takes it"},
    {"vcpus", 0, CLI_INT, A(vcpus), .arg_name = "N", .min = 1, .max = 4096,
     .dflt_doc = "the catalog configuration's vCPUs",
     .help = "with --disk: vCPUs of the --from server"},
    {"output", 'o', CLI_PATH, A(out), .help = "write to FILE (replaced whole) instead of stdout"},
    {0}};
#undef A

const struct cli_cmd cmd_predict_cli = {
    .name = "predict",
    .usage = "Usage: sizeup predict --points FILE... --catalog FILE|URL... [OPTIONS]\n"
             "       sizeup predict --points FILE... --from TARGET --probed-disk SPEC --disk "
             "SPEC... [OPTIONS]",
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
    .epilog =
        "Other disks (--disk): the --from target's curve on disks it was not measured on, by\n"
        "mean-value analysis of a CPU (its vCPUs), a disk (IOPS limit, one I/O's latency) and a\n"
        "delay, with the CPU time and I/Os per transaction its points measured (the server\n"
        "block of a probe, or a table's cpu_peak_pct and iops_avg); each level says which\n"
        "resource binds; the interval is +/-33 %, the largest error of the published\n"
        "validation (docs/predict.md \"Other disks\").\n\n"
        "Exit status: 0; 1 nothing to predict from; 2 bad command line; 3 some input "
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

/* vCPUs of a catalog configuration (a server slice, the server, or the instance); 0: unknown. */
static unsigned config_vcpus(const struct cat_catalog *cat, const char *id)
{
    const struct cat_config *c = cat_find_config(cat, id);
    const struct cat_server *sv;
    const struct cat_instance *in;
    if (!c)
        return 0;
    if (c->slice_vcpu > 0)
        return (unsigned)c->slice_vcpu;
    if (c->server && (sv = cat_find_server(cat, c->server)))
        return (unsigned)sv->vcpu;
    if (c->instance && (in = cat_find_instance(cat, c->instance)) && in->vcpu > 0)
        return (unsigned)in->vcpu;
    return 0;
}

struct disk_emit {
    const struct diskpred_base *b;
    const struct diskpred_profile *d;
    size_t n_d;
    const double *levels;
    size_t n_levels;
    int json;
};

static int emit_disks(FILE *f, const void *vctx)
{
    const struct disk_emit *e = vctx;
    const struct diskpred_base *b = e->b;
    struct diskpred_level lv[PREDICT_MAX_LEVELS];
    char err[256], ceil[200];
    if (!e->json)
        fprintf(f,
                "disks for %s / %s on %u vCPUs, from its best level (%g threads, %.0f tps):\n"
                "  a transaction takes %.3f ms of CPU (%s) and %.3g I/Os;\n"
                "  delay %.3f ms (fitted at %g thread%s); measured on %s (%s)\n",
                b->target, b->workload, b->vcpus, b->at_threads, b->at_tps, 1e3 * b->cpu_s,
                b->cpu_from, b->ios, 1e3 * b->z_s, b->levels[b->cal],
                b->levels[b->cal] == 1 ? "" : "s", b->probed.id, b->probed.source);
    if (!e->json && b->cpu_s > 1.02 * b->cpu_s_measured)
        fprintf(
            f,
            "  note: the CPU time is raised from the measured %.4g ms to %.4g ms a transaction, "
            "so that\n  the model on %s gives the measured %.0f tps at %g threads: the CPUs "
            "did other work too\n  (a load generator on the same host, the server's "
            "background threads)\n",
            1e3 * b->cpu_s_measured, 1e3 * b->cpu_s, b->probed.id, b->at_tps, b->at_threads);
    for (size_t k = 0; k < e->n_d; k++) {
        const struct diskpred_profile *d = &e->d[k];
        if (diskpred_curve(b, d, e->levels, e->n_levels, lv, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: predict: %s\n", err);
            return -1;
        }
        if (e->json) {
            for (size_t i = 0; i < e->n_levels; i++) {
                struct point p;
                struct point_error pe;
                int rc;
                point_init(&p);
                rc = diskpred_fill_point(b, d, &lv[i], &p);
                if (rc == POINT_OK)
                    rc = point_write(f, &p, &pe);
                point_destroy(&p);
                if (rc != POINT_OK)
                    return -1;
            }
            continue;
        }
        fprintf(f, "\n%s: %s\n  %s\n", d->id, d->source,
                diskpred_ceiling_text(b, d, ceil, sizeof ceil));
        fprintf(f, "  threads      tps  95%% interval      latency ms  binds\n");
        for (size_t i = 0; i < e->n_levels; i++) {
            char why[96];
            if (lv[i].binds == DISKPRED_NONE)
                snprintf(why, sizeof why, "none (%.0f %% busy); time: disk %.0f %%, CPU %.0f %%",
                         100 * lv[i].util, 100 * lv[i].disk_share, 100 * lv[i].cpu_share);
            else
                snprintf(why, sizeof why, "%s (%.0f %% busy)", diskpred_binds_name(lv[i].binds),
                         100 * lv[i].util);
            fprintf(f, "  %7g %8.0f  [%.0f, %.0f]%*s %10.2f  %s\n", lv[i].threads, lv[i].tps,
                    lv[i].lo, lv[i].hi,
                    (int)(14 - fmin(14, snprintf(NULL, 0, "[%.0f, %.0f]", lv[i].lo, lv[i].hi))), "",
                    lv[i].latency_ms, why);
        }
    }
    if (!e->json)
        fprintf(f,
                "\nbasis: predicted (not measured): mean-value analysis of the CPU, the disk and "
                "the delay\n  with the demands above; 95%% interval +/-%.0f %%, the largest "
                "error of the published\n  IDC-versus-cloud validation (docs/predict.md)\n",
                100 * DISKPRED_REL95);
    return ferror(f) ? -1 : 0;
}

/* A profile that did not parse: a disk file's content is rejected input (3), a spec misuse (2). */
static int profile_error(const char *opt, int rc, const char *err)
{
    if (rc == DISKPRED_BAD_FILE) {
        fprintf(stderr, "sizeup: predict: %s: %s\n", opt, err);
        return SIZEUP_EXIT_INPUT;
    }
    return cli_usage_error("predict", "%s: %s", opt, err);
}

/* predict --disk: the --from curve on other disks. Exit status. */
static int predict_disks(const struct predict_args *a, const struct point_list *pts,
                         const struct cat_catalog *cat, int status)
{
    struct diskpred_profile probed, d[DISKPRED_MAX_DISKS];
    struct diskpred_base b;
    struct disk_emit e;
    double levels[PREDICT_MAX_LEVELS];
    char err[320];
    unsigned vcpus;
    int rc;
    if (!a->from)
        return cli_usage_error("predict", "--disk needs --from TARGET: the measured curve to use");
    if (!a->probed_disk)
        return cli_usage_error("predict",
                               "--disk needs --probed-disk SPEC: the disk %s was measured on, "
                               "with its IOPS and the latency of one I/O",
                               a->from);
    if (a->validate || a->n_transfer || a->n_maps)
        return cli_usage_error("predict", "--validate, --transfer and --map are not for --disk");
    for (size_t i = 0; i < a->n_threads; i++)
        if (a->threads[i] > DISKPRED_MAX_THREADS)
            return cli_usage_error("predict", "--threads: %lld is more than --disk models (%d)",
                                   a->threads[i], DISKPRED_MAX_THREADS);
    if ((rc = diskpred_profile_parse(a->probed_disk, cat, &probed, err, sizeof err)) != 0)
        return profile_error("--probed-disk", rc, err);
    for (size_t i = 0; i < a->n_disks; i++) {
        if ((rc = diskpred_profile_parse(a->disks[i], cat, &d[i], err, sizeof err)) != 0)
            return profile_error("--disk", rc, err);
        if (strcmp(d[i].id, a->from) == 0)
            return cli_usage_error("predict",
                                   "--disk %s: a prediction named like the measured target would "
                                   "read as its measurement; name it otherwise",
                                   d[i].id);
        for (size_t k = 0; k < i; k++)
            if (strcmp(d[k].id, d[i].id) == 0)
                return cli_usage_error("predict", "--disk %s given twice", d[i].id);
    }
    vcpus = a->vcpus > 0 ? (unsigned)a->vcpus : config_vcpus(cat, a->from);
    if (vcpus == 0)
        return cli_usage_error("predict",
                               "no vCPU count for %s: it is no configuration of the catalogs "
                               "with one; give --vcpus N",
                               a->from);
    rc = diskpred_base_build(pts, a->from, a->workload, vcpus, &probed, &b, err, sizeof err);
    if (rc == DISKPRED_CONTRADICTS)
        return cli_usage_error("predict", "%s", err);
    if (rc != 0) {
        fprintf(stderr, "sizeup: predict: %s\n", err);
        return SIZEUP_EXIT_FAIL;
    }
    for (size_t i = 0; i < a->n_threads; i++)
        levels[i] = (double)a->threads[i];
    e.b = &b;
    e.d = d;
    e.n_d = a->n_disks;
    e.levels = a->n_threads ? levels : b.levels;
    e.n_levels = a->n_threads ? a->n_threads : b.n_levels;
    e.json = a->json;
    return outfile_emit(a->out, "the predictions", emit_disks, &e) == 0 ? status : SIZEUP_EXIT_FAIL;
}

struct cal_ctx {
    const struct tcal_result *r;
    size_t n;
    int json;
};

static int emit_cal(FILE *f, const void *vctx)
{
    const struct cal_ctx *c = vctx;
    for (size_t i = 0; i < c->n; i++) {
        if (!c->json && i)
            fputc('\n', f);
        if ((c->json ? tcal_write_json(f, &c->r[i]) : tcal_write_text(f, &c->r[i])) != 0)
            return -1;
    }
    return 0;
}

/* --calibrate-transfer: each spec on the points. */
static int calibrate(const struct predict_args *a, const struct point_list *pts,
                     const struct cat_catalog *cat, const struct score_table *sc, int status)
{
    struct tcal_result r[PREDICT_MAX_TRANSFER];
    struct cal_ctx c = {r, 0, a->json};
    int rc = status;
    for (size_t i = 0; i < a->n_calibrate; i++, c.n++)
        if (tcal_run(pts, cat, sc, a->calibrate[i], a->workload, 0.95, &r[i], stderr) < 0) {
            rc = SIZEUP_EXIT_FAIL;
            c.n++;
            goto out;
        }
    if (outfile_emit(a->out, "the calibration", emit_cal, &c) != 0)
        rc = SIZEUP_EXIT_FAIL;
out:
    for (size_t i = 0; i < c.n; i++)
        tcal_result_destroy(&r[i]);
    return rc;
}

/* --map and --transfer parsed into maps (map_text holds their strings: the caller frees them)
 * and transfer. @return CLI_RUN, or SIZEUP_EXIT_USAGE said on stderr. */
static int parse_specs(const struct predict_args *a, struct rank_map *maps, char **map_text,
                       struct predict_transfer *transfer)
{
    for (size_t i = 0; i < a->n_maps; i++) {
        map_text[i] = strdup(a->maps[i]);
        if (!map_text[i] || rank_map_parse(map_text[i], &maps[i]) != 0)
            return cli_usage_error("predict", "--map takes TARGET=CONFIG-ID, not '%s'", a->maps[i]);
    }
    for (size_t i = 0; i < a->n_transfer; i++) {
        char err[256];
        if (predict_transfer_parse(a->transfer_text[i], &transfer[i], err, sizeof err) != 0)
            return cli_usage_error("predict", "--transfer: %s", err);
    }
    return CLI_RUN;
}

/* --scores read into sc, and every --transfer by score checked to have its calibrated error
 * there. @return CLI_RUN, or the exit status said on stderr. */
static int load_scores(const struct predict_args *a, const struct predict_transfer *transfer,
                       struct score_table *sc)
{
    if (a->scores) {
        char err[512];
        if (score_table_load(a->scores, sc, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: %s\n", err);
            return SIZEUP_EXIT_INPUT;
        }
    }
    {
        char err[512];
        size_t k = 0;
        if (predict_score_check(transfer, a->transfer_text, a->n_transfer, a->scores ? sc : NULL,
                                a->scores, err, sizeof err) != 0)
            return cli_usage_error("predict", "%s", err);
        while (k < a->n_transfer && !transfer[k].score)
            k++;
        if (a->scores && !a->n_calibrate && k == a->n_transfer)
            return cli_usage_error("predict", "--scores is for --transfer F=FROM:score rules and "
                                              "--calibrate-transfer, and none is given: the "
                                              "scores would change nothing");
    }
    for (size_t i = 0; i < a->n_calibrate; i++) {
        /* a BENCH.KIND the file has rows of: an unknown one calibrated nothing (exit 0, inf) */
        char bench[64];
        int all, found = 0;
        if (score_spec_split(a->calibrate[i], bench, sizeof bench, &all) != 0)
            return cli_usage_error("predict",
                                   "--calibrate-transfer takes BENCH.single or BENCH.all (e.g. "
                                   "geekbench6.single), not '%s'",
                                   a->calibrate[i]);
        for (size_t r = 0; r < sc->n && !found; r++)
            found = strcmp(sc->rows[r].benchmark, bench) == 0 &&
                    !isnan(all ? sc->rows[r].all : sc->rows[r].single);
        if (!found)
            return cli_usage_error("predict",
                                   "--calibrate-transfer %s: %s has no %s scores of "
                                   "benchmark '%s'",
                                   a->calibrate[i], a->scores, all ? "all-core" : "single-core",
                                   bench);
    }
    return CLI_RUN;
}

/* The catalogs (--catalog, else the default) into *cat (allocated here; the caller frees it)
 * and the --points files into pts; a file that could not be read whole sets *status to
 * SIZEUP_EXIT_INPUT. @return SIZEUP_EXIT_OK, or the exit status said on stderr. */
static int load_inputs(const struct predict_args *a, struct cat_catalog **cat,
                       struct point_list *pts, int *status)
{
    struct import_options io = {.max_points = IMPORT_HELD_POINTS_MAX};
    int rc;
    if (!(*cat = cat_catalog_new())) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    if (a->n_catalogs == 0) {
        rc = cmd_catalog_load_one(*cat, cat_default_source());
    } else {
        rc = SIZEUP_EXIT_OK;
        for (size_t i = 0; rc == SIZEUP_EXIT_OK && i < a->n_catalogs; i++)
            rc = cmd_catalog_load_one(*cat, a->catalogs[i]);
    }
    if (rc != SIZEUP_EXIT_OK)
        return rc;
    for (size_t i = 0; i < a->n_points; i++) {
        struct import_report rep;
        long twice = cli_same_file_before(a->points, i);
        int irc;
        if (twice >= 0) {
            fprintf(stderr,
                    "sizeup: %s: the same file as %s, given before: read once (its points "
                    "twice would be replicates that agree exactly, a run-to-run noise of 0)\n",
                    a->points[i], a->points[twice]);
            continue;
        }
        irc = import_file(a->points[i], &io, pts, &rep);
        if (irc < 0 || irc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            *status = SIZEUP_EXIT_INPUT;
        }
    }
    return SIZEUP_EXIT_OK;
}

/* Predict the unmeasured sizes of the catalogs' families (or --validate) and write them.
 * @return the exit status (status when all went well). */
static int predict_sizes(const struct predict_args *a, const struct point_list *pts,
                         const struct cat_catalog *cat, const struct score_table *sc,
                         const struct predict_transfer *transfer, const struct rank_map *maps,
                         int status)
{
    struct predict_options po;
    struct predict_set s;
    struct emit_ctx ec;
    double levels[PREDICT_MAX_LEVELS];
    int rc;
    for (size_t i = 0; i < a->n_threads; i++)
        levels[i] = (double)a->threads[i];
    memset(&po, 0, sizeof po);
    po.threads = a->n_threads ? levels : NULL;
    po.n_threads = a->n_threads;
    po.transfer = transfer;
    po.n_transfer = a->n_transfer;
    po.maps = maps;
    po.n_maps = a->n_maps;
    po.workload = a->workload;
    po.slo = a->slo;
    po.scores = a->scores ? sc : NULL;
    rc = predict_set_build(&s, pts, cat, &po, stderr);
    if (rc < 0)
        return SIZEUP_EXIT_FAIL;
    if (rc > 0)
        status = SIZEUP_EXIT_INPUT;
    ec.s = &s;
    ec.a = a;
    rc = outfile_emit(a->out, a->validate ? "the validation" : "the predictions", emit, &ec) == 0
             ? status
             : SIZEUP_EXIT_FAIL;
    predict_set_destroy(&s);
    return rc;
}

int cmd_predict(int argc, char **argv)
{
    struct predict_args a;
    struct cli_args ca;
    struct rank_map maps[PREDICT_MAX_FILES];
    char *map_text[PREDICT_MAX_FILES] = {0};
    struct point_list pts;
    struct cat_catalog *cat = NULL;
    struct predict_transfer transfer[PREDICT_MAX_TRANSFER];
    struct score_table sc;
    char check_err[600];
    int rc, status = SIZEUP_EXIT_OK;

    memset(&a, 0, sizeof a);
    memset(&sc, 0, sizeof sc);
    rc = cli_parse(&cmd_predict_cli, argc, argv, &a, &ca);
    if (rc != CLI_RUN)
        return rc;
    if (a.n_points == 0)
        return cli_usage_error("predict", "no points: give --points FILE");
    if ((rc = parse_specs(&a, maps, map_text, transfer)) != CLI_RUN)
        goto out;
    if ((a.n_calibrate || a.scores) && a.n_disks)
        rc = cli_usage_error("predict", "--scores and --calibrate-transfer are not for --disk");
    else if (a.n_calibrate && !a.scores)
        rc = cli_usage_error("predict", "--calibrate-transfer needs --scores FILE");
    else
        rc = load_scores(&a, transfer, &sc);
    if (rc != CLI_RUN)
        goto out;
    point_list_init(&pts);
    if ((rc = load_inputs(&a, &cat, &pts, &status)) != SIZEUP_EXIT_OK)
        ; /* said on stderr */
    else if (predict_transfer_check(transfer, a.transfer_text, a.n_transfer, cat, check_err,
                                    sizeof check_err) != 0)
        rc = cli_usage_error("predict", "%s", check_err);
    else if (a.n_disks > 0)
        rc = predict_disks(&a, &pts, cat, status);
    else if (a.n_calibrate)
        rc = calibrate(&a, &pts, cat, &sc, status);
    else if (a.from || a.probed_disk || a.vcpus)
        rc = cli_usage_error("predict", "--from, --probed-disk and --vcpus go with --disk");
    else
        rc = predict_sizes(&a, &pts, cat, &sc, transfer, maps, status);
    cat_catalog_free(cat);
    point_list_destroy(&pts);
out:
    for (size_t i = 0; i < a.n_maps; i++)
        free(map_text[i]);
    score_table_destroy(&sc);
    return rc;
}
