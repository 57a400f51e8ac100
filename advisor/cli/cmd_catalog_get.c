/* cmd_catalog_get.c - `sizeup catalog fetch` and `sizeup catalog convert`: public price lists
 * over HTTP(S) and into sizeup.catalog/1 (catalogs/fetch.h, catalogs/convert.h). */
#include "catalog.h"
#include "cli.h"
#include "cmd_catalog.h"
#include "convert.h"
#include "fetch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
    if (units_parse_duration(arg, &s) != 0 || s <= 0 || s > 86400)
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
        if (units_parse_int(arg, 0, 20, &v) != 0)
            return cli_usage_error(cmd, "--retries takes an integer from 0 to 20, not '%s'", arg);
        x->o.max_retries = (int)v;
        return 0;
    case OPT_MAX_SIZE:
        if (units_parse_size(arg, &v) != 0 || v < 1)
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

int cmd_catalog_fetch(int argc, char **argv)
{
    struct fetch_ctx x;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc;
    memset(&x, 0, sizeof x);
    cat_fetch_options_default(&x.o);
    rc = cmd_catalog_parse(
        "catalog fetch", argc, argv, fetch_opts, fetch_opt, &x,
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
    if (!cmd_catalog_is_url(argv[optind]))
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

int cmd_catalog_convert(int argc, char **argv)
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
    rc = cmd_catalog_parse(
        "catalog convert", argc, argv, convert_opts, convert_opt, &x,
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
