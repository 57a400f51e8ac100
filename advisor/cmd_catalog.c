/*
 * cmd_catalog.c - `sizeup catalog check | cost | list | fetch | convert`: validate, price,
 * download and convert sizeup.catalog/1 catalogs (catalogs/ does the work).
 */
#include "catalog.h"
#include "cli.h"
#include "commands.h"
#include "convert.h"
#include "cost.h"
#include "fetch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SIZEUP_DEFAULT_CATALOG
#define SIZEUP_DEFAULT_CATALOG "data/catalogs/published.json"
#endif

#define MAX_FILES 64

enum {
    OPT_CATALOG = 'c',
    OPT_PRICING = 'p',
    OPT_JSON = 'j',
    OPT_NODES = 'n',
    OPT_OUTPUT = 'o',
    OPT_HELP = 'h',
    OPT_FROM = 'f',
    OPT_TIMEOUT = 256,
    OPT_CONNECT_TIMEOUT,
    OPT_RETRIES,
    OPT_BACKOFF,
    OPT_BACKOFF_MAX,
    OPT_MAX_SIZE,
    OPT_CACHE_DIR,
    OPT_NO_CACHE,
    OPT_NO_PAGING,
    OPT_QUIET,
    OPT_RETRY_404,
    OPT_REGION,
    OPT_OS,
    OPT_OFFERING,
    OPT_PURCHASE,
    OPT_AS_OF,
    OPT_NAME,
};

static int parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
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

static int is_url(const char *s)
{
    return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0;
}

/* Add a file or URL to cat; prints the error. Returns an exit code. */
static int load_one(struct cat_catalog *cat, const char *src)
{
    struct cat_error err;
    int rc;
    if (is_url(src)) {
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
        rc = load_one(cat, dflt && *dflt ? dflt : SIZEUP_DEFAULT_CATALOG);
    for (int i = 0; rc == SIZEUP_EXIT_OK && i < a->n; i++)
        rc = load_one(cat, a->files[i]);
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
    int rc =
        parse("catalog check", argc, argv, check_opts, check_opt, &x,
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
        one = load_one(cat, argv[i]);
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
        if (cli_parse_int(arg, 1, 100000, &x->nodes) != 0)
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
    int rc = parse(x.cmd, argc, argv, cost_opts, cost_opt, &x,
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
    int rc = parse(x.cmd, argc, argv, cost_opts, cost_opt, &x,
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

/* ---- fetch --------------------------------------------------------------------------------- */

struct fetch_ctx {
    struct cat_fetch_options o;
    const char *output;
    int quiet;
};

static const struct cli_option fetch_opts[] = {
    {"output", required_argument, 'o', "FILE", "write the document here (required)"},
    {"timeout", required_argument, OPT_TIMEOUT, "DURATION",
     "total time of one attempt (default 10m)"},
    {"connect-timeout", required_argument, OPT_CONNECT_TIMEOUT, "DURATION",
     "connection time of one attempt (default 10s)"},
    {"retries", required_argument, OPT_RETRIES, "N",
     "retries on HTTP 429, 5xx and transient errors (default 4)"},
    {"backoff", required_argument, OPT_BACKOFF, "DURATION",
     "first wait between retries, doubled each time (default 1s)"},
    {"backoff-max", required_argument, OPT_BACKOFF_MAX, "DURATION",
     "cap on the wait between retries (default 30s)"},
    {"max-size", required_argument, OPT_MAX_SIZE, "SIZE",
     "largest response body accepted (default 1G)"},
    {"cache-dir", required_argument, OPT_CACHE_DIR, "DIR",
     "conditional-request cache (default $XDG_CACHE_HOME/sizeup)"},
    {"no-cache", no_argument, OPT_NO_CACHE, NULL, "neither use nor fill the cache"},
    {"no-paging", no_argument, OPT_NO_PAGING, NULL, "do not follow Azure NextPageLink / $skip"},
    {"retry-404", no_argument, OPT_RETRY_404, NULL,
     "retry HTTP 404 too (files still being published)"},
    {"quiet", no_argument, OPT_QUIET, NULL, "no progress or summary on stderr"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL},
};

static int duration_ms(const char *cmd, const char *opt, const char *arg, long *out)
{
    double s;
    if (cli_parse_duration(arg, &s) != 0 || s <= 0 || s > 86400)
        return cli_usage_error(cmd, "--%s takes a duration such as 500ms, 10s or 2m, not '%s'", opt,
                               arg);
    *out = (long)(s * 1000 + 0.5);
    if (*out < 1)
        *out = 1;
    return 0;
}

static int fetch_opt(void *p, int c, const char *arg)
{
    struct fetch_ctx *x = p;
    const char *cmd = "catalog fetch";
    long long v;
    switch (c) {
    case 'o':
        x->output = arg;
        return 0;
    case OPT_TIMEOUT:
        return duration_ms(cmd, "timeout", arg, &x->o.timeout_ms);
    case OPT_CONNECT_TIMEOUT:
        return duration_ms(cmd, "connect-timeout", arg, &x->o.connect_timeout_ms);
    case OPT_BACKOFF:
        return duration_ms(cmd, "backoff", arg, &x->o.backoff_initial_ms);
    case OPT_BACKOFF_MAX:
        return duration_ms(cmd, "backoff-max", arg, &x->o.backoff_max_ms);
    case OPT_RETRIES:
        if (cli_parse_int(arg, 0, 20, &v) != 0)
            return cli_usage_error(cmd, "--retries takes an integer from 0 to 20, not '%s'", arg);
        x->o.max_retries = (int)v;
        return 0;
    case OPT_MAX_SIZE:
        if (cli_parse_size(arg, &v) != 0 || v < 1)
            return cli_usage_error(cmd, "--max-size takes a size such as 64M or 1G, not '%s'", arg);
        x->o.max_bytes = v;
        return 0;
    case OPT_CACHE_DIR:
        x->o.cache_dir = arg;
        return 0;
    case OPT_NO_CACHE:
        x->o.cache_dir = "";
        return 0;
    case OPT_NO_PAGING:
        x->o.follow_pages = 0;
        return 0;
    case OPT_QUIET:
        x->quiet = 1;
        return 0;
    case OPT_RETRY_404:
        x->o.retry_not_found = 1;
        return 0;
    }
    return 0;
}

static int catalog_fetch(int argc, char **argv)
{
    struct fetch_ctx x;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc;
    memset(&x, 0, sizeof x);
    cat_fetch_options_default(&x.o);
    rc = parse("catalog fetch", argc, argv, fetch_opts, fetch_opt, &x,
               "Usage: sizeup catalog fetch URL -o FILE [OPTIONS]",
               "Download a catalog or a public price list (ec2instances.info instances.json,\n"
               "Azure Retail Prices pages, ...) over HTTP(S): retries with capped exponential\n"
               "backoff on 429 and 5xx honouring Retry-After, gzip, a size cap, Azure paging\n"
               "(NextPageLink, else $skip) joined into one document, and an ETag/Last-Modified\n"
               "cache so a repeated fetch is one conditional request. The body must be JSON.\n"
               "FILE is written whole or not at all.");
    if (rc < 0)
        return SIZEUP_EXIT_OK;
    if (rc > 0)
        return rc;
    if (optind >= argc)
        return cli_usage_error("catalog fetch", "name the URL to fetch");
    if (argc - optind > 1)
        return cli_usage_error("catalog fetch", "fetch takes one URL, got %d", argc - optind);
    if (!x.output)
        return cli_usage_error("catalog fetch", "name the output file with -o FILE");
    if (!is_url(argv[optind]))
        return cli_usage_error("catalog fetch", "'%s' is not an http:// or https:// URL",
                               argv[optind]);
    x.o.progress = !x.quiet;
    rc = cat_fetch_to_file(argv[optind], x.output, &x.o, &res, &err);
    if (rc != CAT_OK) {
        fprintf(stderr, "sizeup: %s\n", err.msg);
        return rc == CAT_EPARSE || rc == CAT_ETOOBIG ? SIZEUP_EXIT_INPUT
               : rc == CAT_EIO                       ? SIZEUP_EXIT_FAIL
                                                     : SIZEUP_EXIT_UNREACHABLE;
    }
    if (!x.quiet)
        fprintf(stderr,
                "sizeup: %s: %lld bytes in %d page%s, %d request%s (%d retr%s, %d from cache) "
                "-> %s\n",
                argv[optind], res.bytes, res.pages, res.pages == 1 ? "" : "s", res.requests,
                res.requests == 1 ? "" : "s", res.retries, res.retries == 1 ? "y" : "ies",
                res.cached, x.output);
    return SIZEUP_EXIT_OK;
}

/* ---- convert ------------------------------------------------------------------------------- */

struct convert_ctx {
    struct cat_convert_options o;
    const char *from;
    const char *output;
    int quiet;
};

static const struct cli_option convert_opts[] = {
    {"from", required_argument, 'f', "FORMAT", "ec2instances or azure-retail (required)"},
    {"output", required_argument, 'o', "FILE", "write the catalog here (required)"},
    {"region", required_argument, OPT_REGION, "REGION",
     "region (default us-east-1 for ec2instances, eastus for azure-retail)"},
    {"os", required_argument, OPT_OS, "OS",
     "operating system: linux (default), mswin, rhel, ... (ec2instances); linux or windows "
     "(azure-retail)"},
    {"pricing", required_argument, 'p', "LIST",
     "comma-separated pricing models (default on-demand,reserved-1y,reserved-3y; spot too)"},
    {"offering", required_argument, OPT_OFFERING, "CLASS",
     "ec2instances reserved offering class: Standard (default) or Convertible"},
    {"purchase", required_argument, OPT_PURCHASE, "OPTION",
     "ec2instances reserved purchase option: noUpfront (default), partialUpfront, allUpfront"},
    {"as-of", required_argument, OPT_AS_OF, "DATE",
     "as-of date YYYY-MM-DD of the prices (default: the newest input file's date)"},
    {"name", required_argument, OPT_NAME, "NAME", "catalog name"},
    {"quiet", no_argument, OPT_QUIET, NULL, "no summary on stderr"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL},
};

static int convert_opt(void *p, int c, const char *arg)
{
    struct convert_ctx *x = p;
    const char *cmd = "catalog convert";
    switch (c) {
    case 'f':
        if (strcmp(arg, "ec2instances") != 0 && strcmp(arg, "azure-retail") != 0)
            return cli_usage_error(cmd, "--from takes ec2instances or azure-retail, not '%s'", arg);
        x->from = arg;
        return 0;
    case 'o':
        x->output = arg;
        return 0;
    case OPT_REGION:
        x->o.region = arg;
        return 0;
    case OPT_OS:
        x->o.os = arg;
        return 0;
    case OPT_OFFERING:
        if (strcmp(arg, "Standard") != 0 && strcmp(arg, "Convertible") != 0)
            return cli_usage_error(cmd, "--offering takes Standard or Convertible, not '%s'", arg);
        x->o.offering = arg;
        return 0;
    case OPT_PURCHASE:
        if (strcmp(arg, "noUpfront") != 0 && strcmp(arg, "partialUpfront") != 0 &&
            strcmp(arg, "allUpfront") != 0)
            return cli_usage_error(
                cmd, "--purchase takes noUpfront, partialUpfront or allUpfront, not '%s'", arg);
        x->o.purchase = arg;
        return 0;
    case OPT_AS_OF: {
        int y, m, d;
        char tail;
        if (strlen(arg) != 10 || sscanf(arg, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3 || m < 1 ||
            m > 12 || d < 1 || d > 31)
            return cli_usage_error(cmd, "--as-of takes a date YYYY-MM-DD, not '%s'", arg);
        x->o.as_of = arg;
        return 0;
    }
    case OPT_NAME:
        x->o.name = arg;
        return 0;
    case OPT_QUIET:
        x->quiet = 1;
        return 0;
    case 'p': {
        char buf[200];
        unsigned mask = 0;
        snprintf(buf, sizeof buf, "%s", arg);
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            enum cat_pricing pr;
            if (cat_pricing_parse(tok, &pr) != 0 || pr == CAT_PRICING_SUBSCRIPTION_1M ||
                pr == CAT_PRICING_SUBSCRIPTION_1Y)
                return cli_usage_error(cmd,
                                       "--pricing takes a list of on-demand, reserved-1y, "
                                       "reserved-3y, spot; not '%s'",
                                       tok);
            mask |= 1u << pr;
        }
        if (!mask)
            return cli_usage_error(cmd, "--pricing takes a non-empty list");
        x->o.pricings = mask;
        return 0;
    }
    }
    return 0;
}

static int write_json_atomic(const char *path, json_t *doc)
{
    char tmp[4200];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    if (!(f = fopen(tmp, "w")))
        return -1;
    if (json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) != 0 ||
        fputc('\n', f) == EOF || fflush(f) != 0) {
        fclose(f);
        remove(tmp);
        return -1;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

static int catalog_convert(int argc, char **argv)
{
    struct convert_ctx x;
    struct cat_convert_stats st;
    struct cat_error err;
    json_t *catalog = NULL;
    char as_of[11] = "";
    time_t newest = 0;
    int rc, azure;
    memset(&x, 0, sizeof x);
    memset(&st, 0, sizeof st);
    cat_convert_options_default(&x.o);
    rc = parse("catalog convert", argc, argv, convert_opts, convert_opt, &x,
               "Usage: sizeup catalog convert --from ec2instances|azure-retail FILE... -o FILE "
               "[OPTIONS]",
               "Convert ec2instances.info instances.json files or Azure Retail Prices pages\n"
               "(as 'sizeup catalog fetch' writes them) into one sizeup.catalog/1 file of\n"
               "instances, for one region and operating system. Prices are read from strings;\n"
               "Azure reservation prices (whole term) become hourly rates. The result is\n"
               "validated before it is written.");
    if (rc < 0)
        return SIZEUP_EXIT_OK;
    if (rc > 0)
        return rc;
    if (!x.from)
        return cli_usage_error("catalog convert", "name the input format with --from");
    if (!x.output)
        return cli_usage_error("catalog convert", "name the output file with -o FILE");
    if (optind >= argc)
        return cli_usage_error("catalog convert", "name at least one input FILE");
    azure = strcmp(x.from, "azure-retail") == 0;
    if (azure && x.o.os && strcmp(x.o.os, "linux") != 0 && strcmp(x.o.os, "windows") != 0)
        return cli_usage_error("catalog convert", "--os takes linux or windows for azure-retail");
    for (int i = optind; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) == 0 && sb.st_mtime > newest)
            newest = sb.st_mtime;
    }
    if (!x.o.as_of) {
        struct tm tm;
        time_t t = newest ? newest : time(NULL);
        gmtime_r(&t, &tm);
        strftime(as_of, sizeof as_of, "%Y-%m-%d", &tm);
        x.o.as_of = as_of;
    }
    for (int i = optind; i < argc; i++) {
        json_error_t jerr;
        json_t *doc = json_load_file(argv[i], 0, &jerr);
        if (!doc) {
            fprintf(stderr, "sizeup: %s:%d:%d: %s\n", argv[i], jerr.line, jerr.column, jerr.text);
            json_decref(catalog);
            return SIZEUP_EXIT_INPUT;
        }
        if (!catalog) {
            const char *cur = "USD";
            if (azure) {
                const char *bc = json_string_value(json_object_get(doc, "BillingCurrency"));
                json_t *first = json_array_get(json_object_get(doc, "Items"), 0);
                const char *ic = json_string_value(json_object_get(first, "currencyCode"));
                cur = bc ? bc : ic ? ic : "USD";
            }
            if (!(catalog = cat_convert_new_catalog(cur, &x.o))) {
                json_decref(doc);
                fprintf(stderr, "sizeup: out of memory\n");
                return SIZEUP_EXIT_FAIL;
            }
        }
        rc = azure ? cat_convert_azure_retail(catalog, doc, argv[i], &x.o, &st, &err)
                   : cat_convert_ec2instances(catalog, doc, argv[i], &x.o, &st, &err);
        json_decref(doc);
        if (rc != CAT_OK) {
            fprintf(stderr, "sizeup: %s\n", err.msg);
            json_decref(catalog);
            return rc == CAT_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
        }
    }
    if (st.instances == 0) {
        fprintf(stderr,
                "sizeup: no instance with a %s price for region %s and OS %s in %d file%s "
                "(%zu records read); nothing written\n",
                "selected", x.o.region ? x.o.region : (azure ? "eastus" : "us-east-1"),
                x.o.os ? x.o.os : "linux", argc - optind, argc - optind == 1 ? "" : "s",
                st.records);
        json_decref(catalog);
        return SIZEUP_EXIT_INPUT;
    }
    if (json_array_size(json_object_get(catalog, "disks")) == 0)
        json_object_del(catalog, "disks");
    {
        /* the result must pass the same validation as any catalog */
        char *text = json_dumps(catalog, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        struct cat_catalog *check = cat_catalog_new();
        rc = text && check ? cat_catalog_add_buffer(check, text, strlen(text), x.output, &err)
                           : CAT_ENOMEM;
        free(text);
        cat_catalog_free(check);
        if (rc != CAT_OK) {
            fprintf(stderr, "sizeup: converted catalog is not valid: %s\n",
                    rc == CAT_ENOMEM ? "out of memory" : err.msg);
            json_decref(catalog);
            return SIZEUP_EXIT_FAIL;
        }
    }
    if (write_json_atomic(x.output, catalog) != 0) {
        fprintf(stderr, "sizeup: %s: cannot write: %s\n", x.output, strerror(errno));
        json_decref(catalog);
        return SIZEUP_EXIT_FAIL;
    }
    json_decref(catalog);
    if (!x.quiet)
        fprintf(stderr,
                "sizeup: %zu instances, %zu prices from %zu records -> %s (%zu records of "
                "other regions, OS or models; %zu prices that were not numbers)\n",
                st.instances, st.prices, st.records, x.output, st.skipped_none, st.skipped_price);
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
    {"fetch", catalog_fetch, "download a catalog or price list over HTTP(S)"},
    {"convert", catalog_convert, "ec2instances.info or Azure Retail Prices -> sizeup.catalog/1"},
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
