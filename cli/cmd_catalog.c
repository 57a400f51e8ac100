/*
 * cmd_catalog.c - `sizeup catalog`: dispatch to its actions, and `check`, `cost`, `list`
 * (validate and price sizeup.catalog/1 catalogs; catalogs/ does the work). `fetch` and
 * `convert` are in cmd_catalog_get.c.
 */
#include "cmd_catalog.h"
#include "catalog.h"
#include "choices.h"
#include "cli.h"
#include "commands.h"
#include "cost.h"
#include "fetch.h"
#include "setcli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_FILES 64

/* ---- shared: catalogs from --catalog ------------------------------------------------------- */

/* The files of --catalog (repeatable). */
struct catalogs_arg {
    const char *files[MAX_FILES];
    size_t n;
};

int cmd_catalog_load_one(struct cat_catalog *cat, const char *src)
{
    struct cat_error err;
    int rc = cat_catalog_add_source(cat, src, &err);
    if (rc == CAT_OK)
        return SIZEUP_EXIT_OK;
    fprintf(stderr, "sizeup: %s\n", err.msg);
    switch (rc) {
    case CAT_ENET:
    case CAT_ETOOBIG:
        return SIZEUP_EXIT_UNREACHABLE;
    case CAT_EIO:
    case CAT_ENOMEM:
        return SIZEUP_EXIT_FAIL;
    default:
        return SIZEUP_EXIT_INPUT;
    }
}

int cmd_catalog_load(const char *const *files, size_t n, struct cat_catalog **out)
{
    struct cat_catalog *cat = cat_catalog_new();
    const char *dflt = cat_default_source();
    int rc = SIZEUP_EXIT_OK;
    *out = NULL;
    if (!cat) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    if (n == 0)
        rc = cmd_catalog_load_one(cat, dflt);
    for (size_t i = 0; rc == SIZEUP_EXIT_OK && i < n; i++)
        rc = cmd_catalog_load_one(cat, files[i]);
    if (rc != SIZEUP_EXIT_OK) {
        cat_catalog_free(cat);
        return rc;
    }
    *out = cat;
    return SIZEUP_EXIT_OK;
}

/* ---- check --------------------------------------------------------------------------------- */

struct check_opts {
    int together;
};

static const struct cli_opt check_options[] = {
    {"together", 't', CLI_FLAG, CLI_AT(struct check_opts, together),
     .help = "load all files into one catalog (references may cross files); without it each "
             "file is checked alone"},
    {0}};

const struct cli_cmd cmd_catalog_check_cli = {
    .name = "catalog check",
    .usage = "Usage: sizeup catalog check [--together] FILE|URL...",
    .description = "Validate sizeup.catalog/1 files: types, ranges, currencies and rates, unique\n"
                   "ids, references between sections, disk capacity and provisioning limits.\n"
                   "Errors name the file, line, column and JSON path. Exit 3 when any is rejected.",
    .options = check_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "name at least one catalog FILE or URL"};

static int catalog_check(int argc, char **argv)
{
    struct check_opts x = {0};
    struct cli_args args;
    struct cat_catalog *cat = NULL;
    int status = SIZEUP_EXIT_OK;
    int rc = cli_parse(&cmd_catalog_check_cli, argc, argv, &x, &args);
    if (rc != CLI_RUN)
        return rc;
    for (int i = 0; i < args.argc; i++) {
        const char *src = args.argv[i];
        int one;
        if (!cat || !x.together) {
            cat_catalog_free(cat);
            if (!(cat = cat_catalog_new())) {
                fprintf(stderr, "sizeup: out of memory\n");
                return SIZEUP_EXIT_FAIL;
            }
        }
        size_t ni = cat->n_instances, nd = cat->n_disks, ns = cat->n_servers, nc = cat->n_configs;
        one = cmd_catalog_load_one(cat, src);
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
                            fprintf(stderr, "sizeup: %s: %s\n", src, err.msg);
                            one = SIZEUP_EXIT_INPUT;
                        }
                        break;
                    }
            }
        }
        if (one == SIZEUP_EXIT_OK)
            printf("%s: ok: %zu instances, %zu disks, %zu servers, %zu configs\n", src,
                   cat->n_instances - ni, cat->n_disks - nd, cat->n_servers - ns,
                   cat->n_configs - nc);
        else if (status == SIZEUP_EXIT_OK || one == SIZEUP_EXIT_UNREACHABLE)
            status = one;
    }
    cat_catalog_free(cat);
    return status;
}

/* ---- cost and list ------------------------------------------------------------------------- */

/* --pricing of cost: a pricing model, or all of them. */
#define PRICING_ALL (-1)

struct cost_ctx {
    struct catalogs_arg cats;
    int pricing; /* enum cat_pricing, or PRICING_ALL */
    int json;
    long long nodes;              /* 0: the configuration's own */
    const char *sets[SETCLI_MAX]; /* --set (cost only) */
    size_t n_sets;
};

static const struct cli_choice cost_pricings[] = {
    CLI_PRICING_CHOICES, {"all", PRICING_ALL}, {NULL, 0}};

#define CATALOG_OPTION                                                                             \
    {                                                                                              \
        "catalog", 'c', CLI_PATH, CLI_LIST(struct cost_ctx, cats.files, cats.n),                   \
            .arg_name = "FILE",                                                                    \
            .dflt_doc = "$SIZEUP_CATALOG, else the bundled data/catalogs/published.json",          \
            .help = "catalog file or URL, repeatable"                                              \
    }
#define NODES_OPTION                                                                               \
    {                                                                                              \
        "nodes", 'n', CLI_INT, CLI_AT(struct cost_ctx, nodes),                                     \
            .min = 1, .max = 100000, .dflt_doc = "the configuration's own", .help = "node count"   \
    }
#define JSON_OPTION                                                                                \
    {                                                                                              \
        "json", 'j', CLI_FLAG, CLI_AT(struct cost_ctx, json), .help = "write JSON instead of text" \
    }

static const struct cli_opt cost_options[] = {
    CATALOG_OPTION,
    {"pricing", 'p', CLI_CHOICE, CLI_AT(struct cost_ctx, pricing), .arg_name = "MODEL",
     .choices = cost_pricings, .dflt = "on-demand", .help = "the pricing model, or all of them"},
    NODES_OPTION,
    JSON_OPTION,
    {"set", 0, CLI_STRING, CLI_LIST(struct cost_ctx, sets, n_sets), .arg_name = SETCLI_ARG,
     .example = SETCLI_EXAMPLE,
     .help = SETCLI_HELP " (with --pricing all, instance is the on-demand price)"},
    {0}};

static const struct cli_opt list_options[] = {
    CATALOG_OPTION,
    {"pricing", 'p', CLI_CHOICE, CLI_AT(struct cost_ctx, pricing), .arg_name = "MODEL",
     .choices = cli_pricings, .dflt = "on-demand", .help = "the pricing model"},
    NODES_OPTION,
    JSON_OPTION,
    {0}};

const struct cli_cmd cmd_catalog_cost_cli = {
    .name = "catalog cost",
    .usage = "Usage: sizeup catalog cost CONFIG... [--catalog FILE]... [--pricing MODEL] "
             "[--nodes N] [--json]\n"
             "                           [--set CONFIG.INPUT=VALUE[:LOW..HIGH]]...",
    .description =
        "Print the cost per hour and per month (730 h) of configurations, term by\n"
        "term: instance, disk capacity, provisioned IOPS and MB/s, or the on-premises\n"
        "terms (capital with its refresh, maintenance, licences, power on its curve x PUE,\n"
        "space, network, staff, storage redundancy, packing of a slice); with every\n"
        "price's source, date and whether it is an estimate. --set prices with your own\n"
        "figure for an input instead of the catalog's (its source then says so).",
    .options = cost_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "name a configuration id (see 'sizeup catalog list')"};

const struct cli_cmd cmd_catalog_list_cli = {
    .name = "catalog list",
    .usage = "Usage: sizeup catalog list [--catalog FILE]... [--pricing MODEL] [--json]",
    .description = "List the configurations of the catalogs with their cost per hour and per\n"
                   "month under one pricing model ('-' where the instance has no such price;\n"
                   "'~' marks costs resting on estimates).",
    .options = list_options,
    .max_operands = 0};

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
        int all = x->pricing == PRICING_ALL;
        if (all ? !(mask & (1u << p)) : p != x->pricing)
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
    struct cost_ctx x;
    struct cli_args args;
    struct cat_catalog *cat;
    json_t *arr = NULL;
    int status = SIZEUP_EXIT_OK, rc;
    memset(&x, 0, sizeof x);
    if ((rc = cli_parse(&cmd_catalog_cost_cli, argc, argv, &x, &args)) != CLI_RUN)
        return rc;
    if ((rc = cmd_catalog_load(x.cats.files, x.cats.n, &cat)) != SIZEUP_EXIT_OK)
        return rc;
    if ((rc = setcli_apply(cat, x.sets, x.n_sets,
                           x.pricing == PRICING_ALL ? CAT_PRICING_ON_DEMAND
                                                    : (enum cat_pricing)x.pricing,
                           "catalog cost", "set on the command line")) != 0) {
        cat_catalog_free(cat);
        return rc;
    }
    if (x.json && !(arr = json_array())) {
        cat_catalog_free(cat);
        return SIZEUP_EXIT_FAIL;
    }
    for (int i = 0; i < args.argc; i++) {
        if (!x.json && i > 0)
            putchar('\n');
        rc = cost_one(cat, &x, args.argv[i], arr);
        if (rc != SIZEUP_EXIT_OK)
            status = rc;
    }
    if (arr) {
        if (status == SIZEUP_EXIT_OK) {
            json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            putchar('\n');
        }
        json_decref(arr);
    } else {
        /* the terms the prices are under, of the catalogs that state them (issue 26.2) */
        for (size_t i = 0; i < cat->n_files; i++)
            if (cat->licences[i])
                printf("\nlicence of %s: %s\n", cat->files[i], cat->licences[i]);
    }
    cat_catalog_free(cat);
    return status;
}

static int catalog_list(int argc, char **argv)
{
    struct cost_ctx x;
    struct cli_args args;
    struct cat_catalog *cat;
    enum cat_pricing want;
    json_t *arr = NULL;
    int rc;
    memset(&x, 0, sizeof x);
    if ((rc = cli_parse(&cmd_catalog_list_cli, argc, argv, &x, &args)) != CLI_RUN)
        return rc;
    want = (enum cat_pricing)x.pricing;
    if ((rc = cmd_catalog_load(x.cats.files, x.cats.n, &cat)) != SIZEUP_EXIT_OK)
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

static const struct cli_sub actions[] = {
    {"check", catalog_check, "validate catalog files or URLs", &cmd_catalog_check_cli},
    {"cost", catalog_cost, "cost breakdown of configurations", &cmd_catalog_cost_cli},
    {"list", catalog_list, "configurations with their cost per hour", &cmd_catalog_list_cli},
    {"fetch", cmd_catalog_fetch, "download a catalog or price list over HTTP(S)",
     &cmd_catalog_fetch_cli},
    {"convert", cmd_catalog_convert, "ec2instances.info or Azure Retail Prices -> sizeup.catalog/1",
     &cmd_catalog_convert_cli},
    {NULL, NULL, NULL, NULL},
};

const struct cli_cmd cmd_catalog_cli = {
    .name = "catalog",
    .usage = "Usage: sizeup catalog ACTION [OPTIONS] [ARGS]",
    .description = "Catalogs (sizeup.catalog/1, docs/catalog-format.md) of instances, disks and\n"
                   "on-premises servers, and the cost per hour of configurations.",
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .subs = actions,
    .epilog = "'sizeup catalog ACTION --help' gives the options of one action.",
    .sub_word = "action"};

int cmd_catalog(int argc, char **argv)
{
    struct cli_args args;
    int rc = cli_parse(&cmd_catalog_cli, argc, argv, NULL, &args);
    if (rc != CLI_RUN)
        return rc;
    return cli_run_sub(&cmd_catalog_cli, args.argc, args.argv);
}
