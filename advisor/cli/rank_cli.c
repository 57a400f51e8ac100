/* rank_cli.c - the input options of sizeup rank and sizeup report (rank_cli.h). */
#include "rank_cli.h"

#include "cmd_catalog.h"
#include "import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SIZEUP_DEFAULT_CATALOG
#define SIZEUP_DEFAULT_CATALOG "data/catalogs/published.json"
#endif

void rank_cli_init(struct rank_cli *o)
{
    memset(o, 0, sizeof *o);
    o->opt.slo.pct = 95;
    o->opt.slo.target_s = 0.050;
    o->opt.pricing = CAT_PRICING_ON_DEMAND;
}

void rank_cli_destroy(struct rank_cli *o)
{
    for (size_t i = 0; i < o->n_map_text; i++)
        free(o->map_text[i]);
    o->n_map_text = 0;
}

static int add_map(struct rank_cli *o, const char *cmd, const char *text, const char *where)
{
    char *copy;
    if (o->n_maps == RANK_CLI_MAX_MAPS)
        return cli_usage_error(cmd, "more than %d --map entries", RANK_CLI_MAX_MAPS);
    copy = strdup(text);
    if (!copy)
        return cli_usage_error(cmd, "out of memory");
    o->map_text[o->n_map_text++] = copy;
    if (rank_map_parse(copy, &o->maps[o->n_maps]) != 0)
        return cli_usage_error(cmd, "%s'%s' is not a mapping: expected TARGET=CONFIG-ID", where,
                               text);
    o->n_maps++;
    return 0;
}

static int read_map_file(struct rank_cli *o, const char *cmd, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[1100];
    long no = 0;
    if (!f)
        return cli_usage_error(cmd, "--map-file: cannot read %s: %s", path, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        char *s = line, *e;
        int rc;
        no++;
        while (*s == ' ' || *s == '\t')
            s++;
        e = s + strlen(s);
        while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (!*s || *s == '#')
            continue;
        snprintf(where, sizeof where, "%s:%ld: ", path, no);
        rc = add_map(o, cmd, s, where);
        if (rc) {
            fclose(f);
            return rc;
        }
    }
    fclose(f);
    return 0;
}

int rank_cli_option(struct rank_cli *o, const char *cmd, int c, const char *arg)
{
    char err[320];
    switch (c) {
    case RANK_OPT_POINTS:
        if (o->n_points == RANK_CLI_MAX_FILES)
            return cli_usage_error(cmd, "more than %d --points files", RANK_CLI_MAX_FILES);
        o->points[o->n_points++] = arg;
        return 0;
    case RANK_OPT_CATALOG:
        if (o->n_catalogs == RANK_CLI_MAX_FILES)
            return cli_usage_error(cmd, "more than %d --catalog files", RANK_CLI_MAX_FILES);
        o->catalogs[o->n_catalogs++] = arg;
        return 0;
    case RANK_OPT_SLO:
        if (slo_parse(arg, &o->opt.slo, err, sizeof err) != 0)
            return cli_usage_error(cmd, "--slo: %s", err);
        return 0;
    case RANK_OPT_WORKLOAD:
        if (o->opt.n_mix)
            return cli_usage_error(cmd, "give one --workload or one --mix");
        if (!*arg || strlen(arg) >= sizeof o->opt.mix[0].workload)
            return cli_usage_error(cmd, "--workload takes a workload name, e.g. oltp_read_write");
        snprintf(o->opt.mix[0].workload, sizeof o->opt.mix[0].workload, "%s", arg);
        o->opt.mix[0].weight = 1;
        o->opt.n_mix = 1;
        return 0;
    case RANK_OPT_MIX:
        if (o->opt.n_mix)
            return cli_usage_error(cmd, "give one --workload or one --mix");
        if (rank_mix_parse(arg, o->opt.mix, &o->opt.n_mix, err, sizeof err) != 0)
            return cli_usage_error(cmd, "%s", err);
        return 0;
    case RANK_OPT_REQUIRED:
        if (units_parse_double(arg, 1e-9, 1e15, &o->opt.required_tps) != 0)
            return cli_usage_error(cmd,
                                   "--required-tps takes a throughput > 0, e.g. 5000, not "
                                   "'%s'",
                                   arg);
        return 0;
    case RANK_OPT_PRICING:
        if (cat_pricing_parse(arg, &o->opt.pricing) != 0)
            return cli_usage_error(cmd,
                                   "--pricing takes on-demand, reserved-1y, reserved-3y, spot, "
                                   "subscription-1m or subscription-1y, not '%s'",
                                   arg);
        return 0;
    case RANK_OPT_MAP:
        return add_map(o, cmd, arg, "--map: ");
    case RANK_OPT_MAP_FILE:
        return read_map_file(o, cmd, arg);
    default:
        return 1;
    }
}

int rank_cli_load(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                  struct cat_catalog **cat, int *status)
{
    struct import_options io = {NULL, NULL, IMPORT_AUTO};
    int rc;
    *cat = NULL;
    if (o->n_points == 0)
        return cli_usage_error(cmd, "no points: give --points FILE");
    *cat = cat_catalog_new();
    if (!*cat) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    if (o->n_catalogs == 0) {
        const char *dflt = getenv("SIZEUP_CATALOG");
        rc = cmd_catalog_load_one(*cat, dflt && *dflt ? dflt : SIZEUP_DEFAULT_CATALOG);
    } else {
        rc = SIZEUP_EXIT_OK;
        for (size_t i = 0; rc == SIZEUP_EXIT_OK && i < o->n_catalogs; i++)
            rc = cmd_catalog_load_one(*cat, o->catalogs[i]);
    }
    if (rc != SIZEUP_EXIT_OK) {
        cat_catalog_free(*cat);
        *cat = NULL;
        return rc;
    }
    for (size_t i = 0; i < o->n_points; i++) {
        struct import_report rep;
        int irc = import_file(o->points[i], &io, pts, &rep);
        if (irc < 0 || irc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            *status = SIZEUP_EXIT_INPUT;
        }
    }
    return 0;
}

int rank_cli_run(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                 struct cat_catalog **cat, struct rank_set *s, int *status)
{
    int rc = rank_cli_load(o, cmd, pts, cat, status);
    if (rc != 0)
        return rc;
    rc = rank_set_build(s, pts, *cat, &o->opt, o->maps, o->n_maps, stderr);
    if (rc < 0) {
        cat_catalog_free(*cat);
        *cat = NULL;
        return SIZEUP_EXIT_FAIL;
    }
    if (rc > 0)
        *status = SIZEUP_EXIT_INPUT;
    return 0;
}

int rank_cli_getopt_other(struct rank_cli *o, const char *cmd, int c, const char *arg, char **argv)
{
    int rc;
    if (c == '?' || c == ':')
        return cli_getopt_error(cmd, c, argv);
    rc = rank_cli_option(o, cmd, c, arg);
    return rc == 1 ? cli_getopt_error(cmd, c, argv) : rc;
}

int rank_cli_finish(const struct rank_cli *o, const char *cmd, int argc, char **argv,
                    struct point_list *pts, struct cat_catalog **cat, struct rank_set *s,
                    int *status)
{
    int rc;
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s' (points go after --points)",
                               argv[optind]);
    point_list_init(pts);
    rank_set_init(s);
    rc = rank_cli_run(o, cmd, pts, cat, s, status);
    if (rc != 0)
        point_list_destroy(pts);
    return rc;
}
