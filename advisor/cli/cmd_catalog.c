/*
 * cmd_catalog.c - `sizeup catalog`: dispatch to its actions, and `check`, `cost`, `list`
 * (validate and price sizeup.catalog/1 catalogs; catalogs/ does the work). `fetch` and
 * `convert` are in cmd_catalog_get.c.
 */
#include "cmd_catalog.h"
#include "catalog.h"
#include "cli.h"
#include "commands.h"
#include "cost.h"
#include "fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef SIZEUP_DEFAULT_CATALOG
#define SIZEUP_DEFAULT_CATALOG "data/catalogs/published.json"
#endif

#define MAX_FILES 64

int cmd_catalog_parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
                      int (*on_opt)(void *, int, const char *), void *ctx, const char *usage,
                      const char *desc)
{
    struct option longs[32];
    char shorts[64];
    int c;
    if (cli_build_getopt(opts, longs, 32, shorts, sizeof shorts) != 0)
        return SIZEUP_EXIT_FAIL;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        int rc;
        if (c == 'h') {
            cli_print_help(usage, desc, opts);
            return -1;
        }
        if (c == '?' || c == ':')
            return cli_getopt_error(cmd, c, argv);
        if ((rc = on_opt(ctx, c, optarg)) != 0)
            return rc;
    }
    return 0;
}

/* ---- shared: catalogs from --catalog ------------------------------------------------------- */

struct catalogs_arg {
    const char *files[MAX_FILES];
    int n;
};

static int add_catalog_arg(struct catalogs_arg *a, const char *cmd, const char *file)
{
    if (a->n >= MAX_FILES)
        return cli_usage_error(cmd, "at most %d --catalog files", MAX_FILES);
    a->files[a->n++] = file;
    return 0;
}

int cmd_catalog_is_url(const char *s)
{
    return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0;
}

/* Add a file or URL to cat; prints the error. Returns an exit code. */
int cmd_catalog_load_one(struct cat_catalog *cat, const char *src)
{
    struct cat_error err;
    int rc;
    if (cmd_catalog_is_url(src)) {
        char *buf;
        size_t len;
        struct cat_fetch_options o;
        cat_fetch_options_default(&o);
        o.follow_pages = 0;
        rc = cat_fetch(src, &o, &buf, &len, NULL, &err);
        if (rc != CAT_OK) {
            fprintf(stderr, "sizeup: %s\n", err.msg);
            return rc == CAT_EPARSE ? SIZEUP_EXIT_INPUT : SIZEUP_EXIT_UNREACHABLE;
        }
        rc = cat_catalog_add_buffer(cat, buf, len, src, &err);
        free(buf);
    } else {
        rc = cat_catalog_add_file(cat, src, &err);
    }
    if (rc != CAT_OK) {
        fprintf(stderr, "sizeup: %s\n", err.msg);
        return rc == CAT_EIO ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
    }
    return SIZEUP_EXIT_OK;
}

static int load_catalogs(const struct catalogs_arg *a, struct cat_catalog **out)
{
    struct cat_catalog *cat = cat_catalog_new();
    const char *dflt = getenv("SIZEUP_CATALOG");
    int rc = SIZEUP_EXIT_OK;
    *out = NULL;
    if (!cat) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    if (a->n == 0)
        rc = cmd_catalog_load_one(cat, dflt && *dflt ? dflt : SIZEUP_DEFAULT_CATALOG);
    for (int i = 0; rc == SIZEUP_EXIT_OK && i < a->n; i++)
        rc = cmd_catalog_load_one(cat, a->files[i]);
    if (rc != SIZEUP_EXIT_OK) {
        cat_catalog_free(cat);
        return rc;
    }
    *out = cat;
    return SIZEUP_EXIT_OK;
}

/* ---- check --------------------------------------------------------------------------------- */

static const struct cli_option check_opts[] = {
    {"together", no_argument, 't', NULL,
     "load all files into one catalog (references may cross files); default: each alone"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL},
};

struct check_ctx {
    int together;
};

static int check_opt(void *p, int c, const char *arg)
{
    struct check_ctx *x = p;
    (void)arg;
    if (c == 't')
        x->together = 1;
    return 0;
}

static int catalog_check(int argc, char **argv)
{
    struct check_ctx x = {0};
    struct cat_catalog *cat = NULL;
    int rc = cmd_catalog_parse(
        "catalog check", argc, argv, check_opts, check_opt, &x,
        "Usage: sizeup catalog check [--together] FILE|URL...",
        "Validate sizeup.catalog/1 files: types, ranges, currencies and rates, unique\n"
        "ids, references between sections, disk capacity and provisioning limits.\n"
        "Errors name the file, line, column and JSON path. Exit 3 when any is rejected.");
    int status = SIZEUP_EXIT_OK;
    if (rc < 0)
        return SIZEUP_EXIT_OK;
    if (rc > 0)
        return rc;
    if (optind >= argc)
        return cli_usage_error("catalog check", "name at least one catalog FILE or URL");
    for (int i = optind; i < argc; i++) {
        int one;
        if (!cat || !x.together) {
            cat_catalog_free(cat);
            if (!(cat = cat_catalog_new())) {
                fprintf(stderr, "sizeup: out of memory\n");
                return SIZEUP_EXIT_FAIL;
            }
        }
        size_t ni = cat->n_instances, nd = cat->n_disks, ns = cat->n_servers, nc = cat->n_configs;
        one = cmd_catalog_load_one(cat, argv[i]);
        if (one == SIZEUP_EXIT_OK) {
            /* every configuration must be costable under some pricing model */
            for (size_t k = nc; k < cat->n_configs; k++) {
                unsigned mask = cat_config_pricings(cat, &cat->configs[k]);
                struct cat_cost cost;
                struct cat_error err;
                for (int p = 0; p < CAT_PRICING_COUNT; p++)
                    if (mask & (1u << p)) {
                        if (cat_config_cost(cat, cat->configs[k].id, (enum cat_pricing)p, 0, &cost,
                                            &err) != CAT_OK) {
                            fprintf(stderr, "sizeup: %s: %s\n", argv[i], err.msg);
                            one = SIZEUP_EXIT_INPUT;
                        }
                        break;
                    }
            }
        }
        if (one == SIZEUP_EXIT_OK)
            printf("%s: ok: %zu instances, %zu disks, %zu servers, %zu configs\n", argv[i],
                   cat->n_instances - ni, cat->n_disks - nd, cat->n_servers - ns,
                   cat->n_configs - nc);
        else if (status == SIZEUP_EXIT_OK || one == SIZEUP_EXIT_UNREACHABLE)
            status = one;
    }
    cat_catalog_free(cat);
    return status;
}

/* ---- cost and list ------------------------------------------------------------------------- */

struct cost_ctx {
    struct catalogs_arg cats;
    const char *pricing; /* NULL: on-demand; "all" */
    int json;
    long long nodes;
    const char *cmd;
};

static const struct cli_option cost_opts[] = {
    {"catalog", required_argument, 'c', "FILE",
     "catalog file or URL (repeatable); default $SIZEUP_CATALOG or the bundled "
     "data/catalogs/published.json"},
    {"pricing", required_argument, 'p', "MODEL",
     "on-demand (default), reserved-1y, reserved-3y, spot, subscription-1m, subscription-1y, "
     "or all"},
    {"nodes", required_argument, 'n', "N", "node count instead of the configuration's own"},
    {"json", no_argument, 'j', NULL, "write JSON instead of text"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL},
};

static int cost_opt(void *p, int c, const char *arg)
{
    struct cost_ctx *x = p;
    enum cat_pricing pr;
    switch (c) {
    case 'c':
        return add_catalog_arg(&x->cats, x->cmd, arg);
    case 'p':
        if (strcmp(arg, "all") != 0 && cat_pricing_parse(arg, &pr) != 0)
            return cli_usage_error(x->cmd,
                                   "--pricing takes on-demand, reserved-1y, reserved-3y, spot, "
                                   "subscription-1m, subscription-1y or all, not '%s'",
                                   arg);
        x->pricing = arg;
        return 0;
    case 'n':
        if (units_parse_int(arg, 1, 100000, &x->nodes) != 0)
            return cli_usage_error(x->cmd, "--nodes takes an integer from 1 to 100000, not '%s'",
                                   arg);
        return 0;
    case 'j':
        x->json = 1;
        return 0;
    }
    return 0;
}

/* Cost of one configuration under the asked model(s); prints; returns an exit code. */
static int cost_one(const struct cat_catalog *cat, const struct cost_ctx *x, const char *id,
                    json_t *json_out)
{
    const struct cat_config *cf = cat_find_config(cat, id);
    unsigned mask;
    int printed = 0;
    if (!cf) {
        fprintf(stderr,
                "sizeup: no configuration \"%s\" in the catalog (try 'sizeup catalog "
                "list')\n",
                id);
        return SIZEUP_EXIT_INPUT;
    }
    mask = cat_config_pricings(cat, cf);
    for (int p = 0; p < CAT_PRICING_COUNT; p++) {
        struct cat_cost cost;
        struct cat_error err;
        int all = x->pricing && strcmp(x->pricing, "all") == 0;
        enum cat_pricing want = CAT_PRICING_ON_DEMAND;
        if (x->pricing && !all)
            cat_pricing_parse(x->pricing, &want);
        if (all ? !(mask & (1u << p)) : p != (int)want)
            continue;
        if (cf->server && all && p != CAT_PRICING_ON_DEMAND)
            continue; /* an owned server costs the same under every model */
        if (cat_config_cost(cat, id, (enum cat_pricing)p, (int)x->nodes, &cost, &err) != CAT_OK) {
            fprintf(stderr, "sizeup: %s\n", err.msg);
            return SIZEUP_EXIT_INPUT;
        }
        if (json_out) {
            json_t *j = cat_cost_to_json(&cost);
            if (!j || json_array_append_new(json_out, j) != 0) {
                fprintf(stderr, "sizeup: out of memory\n");
                return SIZEUP_EXIT_FAIL;
            }
        } else {
            if (printed)
                putchar('\n');
            cat_cost_print(stdout, &cost);
        }
        printed = 1;
    }
    return SIZEUP_EXIT_OK;
}

static int catalog_cost(int argc, char **argv)
{
    struct cost_ctx x = {{{0}, 0}, NULL, 0, 0, "catalog cost"};
    struct cat_catalog *cat;
    json_t *arr = NULL;
    int rc = cmd_catalog_parse(
        x.cmd, argc, argv, cost_opts, cost_opt, &x,
        "Usage: sizeup catalog cost CONFIG... [--catalog FILE]... [--pricing MODEL] "
        "[--nodes N] [--json]",
        "Print the cost per hour and per month (730 h) of configurations, term by\n"
        "term: instance, disk capacity, provisioned IOPS and MB/s, or the on-premises\n"
        "terms capital, maintenance, power, rack and staff; with every price's source.");
    int status = SIZEUP_EXIT_OK;
    if (rc < 0)
        return SIZEUP_EXIT_OK;
    if (rc > 0)
        return rc;
    if (optind >= argc)
        return cli_usage_error(x.cmd, "name a configuration id (see 'sizeup catalog list')");
    if ((rc = load_catalogs(&x.cats, &cat)) != SIZEUP_EXIT_OK)
        return rc;
    if (x.json && !(arr = json_array())) {
        cat_catalog_free(cat);
        return SIZEUP_EXIT_FAIL;
    }
    for (int i = optind; i < argc; i++) {
        if (!x.json && i > optind)
            putchar('\n');
        rc = cost_one(cat, &x, argv[i], arr);
        if (rc != SIZEUP_EXIT_OK)
            status = rc;
    }
    if (arr) {
        if (status == SIZEUP_EXIT_OK) {
            json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            putchar('\n');
        }
        json_decref(arr);
    }
    cat_catalog_free(cat);
    return status;
}

static int catalog_list(int argc, char **argv)
{
    struct cost_ctx x = {{{0}, 0}, NULL, 0, 0, "catalog list"};
    struct cat_catalog *cat;
    enum cat_pricing want = CAT_PRICING_ON_DEMAND;
    json_t *arr = NULL;
    int rc = cmd_catalog_parse(
        x.cmd, argc, argv, cost_opts, cost_opt, &x,
        "Usage: sizeup catalog list [--catalog FILE]... [--pricing MODEL] [--json]",
        "List the configurations of the catalogs with their cost per hour and per\n"
        "month under one pricing model ('-' where the instance has no such price;\n"
        "'~' marks costs resting on estimates).");
    if (rc < 0)
        return SIZEUP_EXIT_OK;
    if (rc > 0)
        return rc;
    if (optind < argc)
        return cli_usage_error(x.cmd, "unexpected argument '%s'", argv[optind]);
    if (x.pricing && strcmp(x.pricing, "all") == 0)
        return cli_usage_error(x.cmd, "list takes one pricing model, not 'all'");
    if (x.pricing)
        cat_pricing_parse(x.pricing, &want);
    if ((rc = load_catalogs(&x.cats, &cat)) != SIZEUP_EXIT_OK)
        return rc;
    int w_id = 6, w_on = 7;
    for (size_t i = 0; i < cat->n_configs; i++) {
        const struct cat_config *cf = &cat->configs[i];
        int l = (int)strlen(cf->id);
        int m = (int)strlen(cf->instance ? cf->instance : cf->server) +
                (cf->disk ? (int)strlen(cf->disk) + 20 : 0);
        w_id = l > w_id ? l : w_id;
        w_on = m > w_on ? m : w_on;
    }
    if (x.json)
        arr = json_array();
    else
        printf("%-*s  %-*s %5s %12s %12s\n", w_id, "config", w_on, "runs on", "nodes", "per hour",
               "per month");
    for (size_t i = 0; i < cat->n_configs; i++) {
        const struct cat_config *cf = &cat->configs[i];
        struct cat_cost cost;
        struct cat_error err;
        char on[160];
        int ok = cat_config_cost(cat, cf->id, want, (int)x.nodes, &cost, &err) == CAT_OK;
        if (arr) {
            if (ok)
                json_array_append_new(arr, cat_cost_to_json(&cost));
            continue;
        }
        if (cf->disk)
            snprintf(on, sizeof on, "%s + %g GiB %s", cf->instance ? cf->instance : cf->server,
                     cf->size_gib, cf->disk);
        else
            snprintf(on, sizeof on, "%s", cf->instance ? cf->instance : cf->server);
        if (ok)
            printf("%-*s  %-*s %5d %11.4f%s %12.2f %s\n", w_id, cf->id, w_on, on, cost.nodes,
                   cost.per_hour, cost.estimate ? "~" : " ", cost.per_month, cat->currency);
        else
            printf("%-*s  %-*s %5d %12s %12s\n", w_id, cf->id, w_on, on,
                   x.nodes ? (int)x.nodes : cf->nodes, "-", "-");
    }
    if (arr) {
        json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        putchar('\n');
        json_decref(arr);
    }
    cat_catalog_free(cat);
    return SIZEUP_EXIT_OK;
}

/* ---- dispatch ------------------------------------------------------------------------------ */

struct action {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
};

static const struct action actions[] = {
    {"check", catalog_check, "validate catalog files or URLs"},
    {"cost", catalog_cost, "cost breakdown of configurations"},
    {"list", catalog_list, "configurations with their cost per hour"},
    {"fetch", cmd_catalog_fetch, "download a catalog or price list over HTTP(S)"},
    {"convert", cmd_catalog_convert,
     "ec2instances.info or Azure Retail Prices -> sizeup.catalog/1"},
    {NULL, NULL, NULL},
};

int cmd_catalog(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("Usage: sizeup catalog ACTION [OPTIONS] [ARGS]\n"
               "\n"
               "Catalogs (sizeup.catalog/1, docs/catalog-format.md) of instances, disks and\n"
               "on-premises servers, and the cost per hour of configurations.\n"
               "\n"
               "Actions:\n");
        for (const struct action *a = actions; a->name; a++)
            printf("  %-8s %s\n", a->name, a->summary);
        printf("\n'sizeup catalog ACTION --help' gives the options of one action.\n");
        return argc < 2 ? SIZEUP_EXIT_USAGE : SIZEUP_EXIT_OK;
    }
    for (const struct action *a = actions; a->name; a++)
        if (strcmp(a->name, argv[1]) == 0)
            return a->run(argc - 1, argv + 1);
    return cli_usage_error("catalog", "unknown action '%s' (check, cost, list, fetch, convert)",
                           argv[1]);
}
