/* cmd_catalog_get.c - `sizeup catalog fetch` and `sizeup catalog convert`: public price lists
 * over HTTP(S) and into sizeup.catalog/1 (catalogs/fetch.h, catalogs/convert.h). */
#include "catalog.h"
#include "cli.h"
#include "cmd_catalog.h"
#include "convert.h"
#include "fetch.h"
#include "outfile.h"
#include "readfile.h"
#include "sparecores.h"

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
    double timeout_s, connect_timeout_s, backoff_s, backoff_max_s; /* into o's milliseconds */
    int no_cache, no_paging, quiet;
};

#define F(field) CLI_AT(struct fetch_ctx, field)
static const struct cli_opt fetch_options[] = {
    {"output", 'o', CLI_PATH, F(output), .help = "write the document here (required)"},
    {"timeout", 0, CLI_SECONDS, F(timeout_s), .min = 0.001, .max = 86400, .dflt = "10m",
     .help = "total time of one attempt"},
    {"connect-timeout", 0, CLI_SECONDS, F(connect_timeout_s), .min = 0.001, .max = 86400,
     .dflt = "10s", .help = "connection time of one attempt"},
    {"retries", 0, CLI_INT, F(o.max_retries), .min = 0, .max = 20, .dflt = "4",
     .help = "retries on HTTP 429, 5xx and transient errors"},
    {"backoff", 0, CLI_SECONDS, F(backoff_s), .min = 0.001, .max = 86400, .dflt = "1s",
     .help = "first wait between retries, doubled each time"},
    {"backoff-max", 0, CLI_SECONDS, F(backoff_max_s), .min = 0.001, .max = 86400, .dflt = "30s",
     .help = "cap on the wait between retries"},
    {"max-size", 0, CLI_SIZE, F(o.max_bytes), .min = 1, .max = 1e15, .dflt = "1G",
     .help = "largest response body accepted"},
    {"cache-dir", 0, CLI_PATH, F(o.cache_dir), .arg_name = "DIR",
     .dflt_doc = "$XDG_CACHE_HOME/sizeup", .help = "conditional-request cache"},
    {"no-cache", 0, CLI_FLAG, F(no_cache), .help = "neither use nor fill the cache"},
    {"no-paging", 0, CLI_FLAG, F(no_paging), .help = "do not follow Azure NextPageLink / $skip"},
    {"retry-404", 0, CLI_FLAG, F(o.retry_not_found),
     .help = "retry HTTP 404 too (files still being published)"},
    {"quiet", 0, CLI_FLAG, F(quiet), .help = "no progress or summary on stderr"},
    {0}};
#undef F

const struct cli_cmd cmd_catalog_fetch_cli = {
    .name = "catalog fetch",
    .usage = "Usage: sizeup catalog fetch URL -o FILE [OPTIONS]",
    .description =
        "Download a catalog or a public price list (ec2instances.info instances.json,\n"
        "Azure Retail Prices pages, ...) over HTTP(S): retries with capped exponential\n"
        "backoff on 429 and 5xx honouring Retry-After, gzip, a size cap, Azure paging\n"
        "(NextPageLink, else $skip) joined into one document, and an ETag/Last-Modified\n"
        "cache so a repeated fetch is one conditional request. The body must be JSON.\n"
        "FILE is written whole or not at all.",
    .options = fetch_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "name the URL to fetch"};

/* Seconds to whole milliseconds, at least 1. */
static long to_ms(double s)
{
    long ms = (long)(s * 1000 + 0.5);
    return ms < 1 ? 1 : ms;
}

/* Parse fetch's command line into x (library defaults, then the table's). */
static int fetch_parse(int argc, char **argv, struct fetch_ctx *x, struct cli_args *args)
{
    int rc;
    memset(x, 0, sizeof *x);
    cat_fetch_options_default(&x->o);
    if ((rc = cli_parse(&cmd_catalog_fetch_cli, argc, argv, x, args)) != CLI_RUN)
        return rc;
    x->o.timeout_ms = to_ms(x->timeout_s);
    x->o.connect_timeout_ms = to_ms(x->connect_timeout_s);
    x->o.backoff_initial_ms = to_ms(x->backoff_s);
    x->o.backoff_max_ms = to_ms(x->backoff_max_s);
    if (x->no_cache)
        x->o.cache_dir = "";
    if (x->no_paging)
        x->o.follow_pages = 0;
    return CLI_RUN;
}

int cmd_catalog_fetch_defaults(struct cat_fetch_options *o)
{
    char name[] = "fetch", url[] = "http://127.0.0.1/", *argv[] = {name, url, NULL};
    struct fetch_ctx x;
    struct cli_args args;
    int rc = fetch_parse(2, argv, &x, &args);
    *o = x.o;
    return rc == CLI_RUN ? 0 : rc;
}

int cmd_catalog_fetch(int argc, char **argv)
{
    struct fetch_ctx x;
    struct cli_args args;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc = fetch_parse(argc, argv, &x, &args);
    const char *url;
    if (rc != CLI_RUN)
        return rc;
    url = args.argv[0];
    if (args.argc > 1)
        return cli_usage_error("catalog fetch", "fetch takes one URL, got %d", args.argc);
    if (!x.output)
        return cli_usage_error("catalog fetch", "name the output file with -o FILE");
    if (!cat_is_url(url))
        return cli_usage_error("catalog fetch", "'%s' is not an http:// or https:// URL", url);
    x.o.progress = !x.quiet;
    rc = cat_fetch_to_file(url, x.output, &x.o, &res, &err);
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
                url, res.bytes, res.pages, res.pages == 1 ? "" : "s", res.requests,
                res.requests == 1 ? "" : "s", res.retries, res.retries == 1 ? "y" : "ies",
                res.cached, x.output);
    return SIZEUP_EXIT_OK;
}

/* ---- convert ------------------------------------------------------------------------------- */

/* Largest price list read (ec2instances.info's instances.json is about 100 MiB). */
#define CONVERT_MAX_FILE_BYTES ((size_t)1 << 30)

struct convert_ctx {
    struct cat_convert_options o;
    const char *vendor;     /* --vendor (sparecores) */
    int from;               /* FROM_*, or -1 before --from */
    int offering, purchase; /* indices into offerings[], purchases[] */
    const char *output;
    int quiet;
};

enum { FROM_EC2INSTANCES, FROM_AZURE_RETAIL, FROM_SPARECORES };
static const struct cli_choice formats[] = {{"ec2instances", FROM_EC2INSTANCES},
                                            {"azure-retail", FROM_AZURE_RETAIL},
                                            {"sparecores", FROM_SPARECORES},
                                            {NULL, 0}};
static const char *const offerings[] = {"Standard", "Convertible"};
static const struct cli_choice offering_choices[] = {
    {"Standard", 0}, {"Convertible", 1}, {NULL, 0}};
static const char *const purchases[] = {"noUpfront", "partialUpfront", "allUpfront"};
static const struct cli_choice purchase_choices[] = {
    {"noUpfront", 0}, {"partialUpfront", 1}, {"allUpfront", 2}, {NULL, 0}};

/* --pricing: a comma-separated list of the pricing models a price list has. */
static int parse_pricings(const char *arg, void *dest, char *err, size_t cap)
{
    char buf[200];
    unsigned mask = 0;
    (void)err;
    (void)cap;
    if (strlen(arg) >= sizeof buf || !*arg || arg[strlen(arg) - 1] == ',' || arg[0] == ',' ||
        strstr(arg, ",,"))
        return -1;
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        enum cat_pricing pr;
        if (cat_pricing_parse(tok, &pr) != 0 || pr == CAT_PRICING_SUBSCRIPTION_1M ||
            pr == CAT_PRICING_SUBSCRIPTION_1Y)
            return -1;
        mask |= 1u << pr;
    }
    *(unsigned *)dest = mask;
    return 0;
}

/* --as-of: a date YYYY-MM-DD (kept as the text). */
static int parse_date(const char *arg, void *dest, char *err, size_t cap)
{
    int y, m, d;
    char tail;
    (void)err;
    (void)cap;
    if (strlen(arg) != 10 || sscanf(arg, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3 || m < 1 ||
        m > 12 || d < 1 || d > 31)
        return -1;
    *(const char **)dest = arg;
    return 0;
}

#define C(field) CLI_AT(struct convert_ctx, field)
static const struct cli_opt convert_options[] = {
    {"from", 'f', CLI_CHOICE, C(from), .arg_name = "FORMAT", .choices = formats,
     .help = "the input format (required)"},
    {"output", 'o', CLI_PATH, C(output), .help = "write the catalog here (required)"},
    {"region", 0, CLI_STRING, C(o.region), .arg_name = "REGION",
     .dflt_doc = "us-east-1 for ec2instances, eastus for azure-retail; required for sparecores",
     .help = "region"},
    {"vendor", 0, CLI_STRING, C(vendor), .arg_name = "VENDOR",
     .help = "sparecores: the vendor_id (alicloud, aws, azure, gcp, hcloud, ovh, upcloud, vultr)"},
    {"os", 0, CLI_STRING, C(o.os), .arg_name = "OS", .dflt_doc = "linux",
     .help = "operating system: linux, mswin, rhel, ... (ec2instances); linux or windows "
             "(azure-retail)"},
    {"pricing", 'p', CLI_CUSTOM, C(o.pricings), .arg_name = "LIST", .parse = parse_pricings,
     .dflt = "on-demand,reserved-1y,reserved-3y",
     .takes = "a list of on-demand, reserved-1y, reserved-3y, spot",
     .help = "comma-separated pricing models"},
    {"offering", 0, CLI_CHOICE, C(offering), .arg_name = "CLASS", .choices = offering_choices,
     .dflt = "Standard", .help = "ec2instances reserved offering class"},
    {"purchase", 0, CLI_CHOICE, C(purchase), .arg_name = "OPTION", .choices = purchase_choices,
     .dflt = "noUpfront", .help = "ec2instances reserved purchase option"},
    {"as-of", 0, CLI_CUSTOM, C(o.as_of), .arg_name = "DATE", .parse = parse_date,
     .takes = "a date YYYY-MM-DD", .dflt_doc = "the newest input file's date",
     .help = "as-of date of the prices"},
    {"name", 0, CLI_STRING, C(o.name), .help = "catalog name"},
    {"quiet", 0, CLI_FLAG, C(quiet), .help = "no summary on stderr"},
    {0}};
#undef C

const struct cli_cmd cmd_catalog_convert_cli = {
    .name = "catalog convert",
    .usage = "Usage: sizeup catalog convert --from ec2instances|azure-retail FILE... -o FILE "
             "[OPTIONS]\n"
             "       sizeup catalog convert --from sparecores sc-data-all.db --vendor V --region R "
             "-o FILE",
    .description = "Convert ec2instances.info instances.json files or Azure Retail Prices pages\n"
                   "(as 'sizeup catalog fetch' writes them) into one sizeup.catalog/1 file of\n"
                   "instances, for one region and operating system. Prices are read from strings;\n"
                   "Azure reservation prices (whole term) become hourly rates. The result is\n"
                   "validated before it is written, and FILE is replaced whole.\n\n"
                   "--from sparecores reads the Spare Cores database (sc-data-all.db, SQLite,\n"
                   "CC BY-SA 4.0): every server of --vendor with an on-demand or spot price in\n"
                   "--region (the lowest over its zones, dated by its observed_at), and the\n"
                   "priced storages whose performance rule sizeup knows (docs/catalog-format.md\n"
                   "\"From the Spare Cores database\").",
    .options = convert_options,
    .max_operands = CLI_ANY};

/* Parse convert's command line into x (library defaults, then the table's). */
static int convert_parse(int argc, char **argv, struct convert_ctx *x, struct cli_args *args)
{
    int rc;
    memset(x, 0, sizeof *x);
    cat_convert_options_default(&x->o);
    x->from = -1;
    if ((rc = cli_parse(&cmd_catalog_convert_cli, argc, argv, x, args)) != CLI_RUN)
        return rc;
    x->o.offering = offerings[x->offering];
    x->o.purchase = purchases[x->purchase];
    return CLI_RUN;
}

int cmd_catalog_convert_defaults(struct cat_convert_options *o)
{
    char name[] = "convert", *argv[] = {name, NULL};
    struct convert_ctx x;
    struct cli_args args;
    int rc = convert_parse(1, argv, &x, &args);
    *o = x.o;
    return rc == CLI_RUN ? 0 : rc;
}

/* The catalog as JSON, for outfile_emit. */
static int write_catalog(FILE *f, const void *doc)
{
    return json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) ||
                   fputc('\n', f) == EOF
               ? -1
               : 0;
}

/* A converted catalog passes the same validation as any catalog, then is written whole to
 * output. 0, or -1 (said on stderr). */
static int validate_and_write(json_t *catalog, const char *output)
{
    struct cat_error err;
    char *text = json_dumps(catalog, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    struct cat_catalog *check = cat_catalog_new();
    int rc = text && check ? cat_catalog_add_buffer(check, text, strlen(text), output, &err)
                           : CAT_ENOMEM;
    free(text);
    cat_catalog_free(check);
    if (rc != CAT_OK) {
        fprintf(stderr, "sizeup: converted catalog is not valid: %s\n",
                rc == CAT_ENOMEM ? "out of memory" : err.msg);
        return -1;
    }
    return outfile_emit(output, "the catalog", write_catalog, catalog) != 0 ? -1 : 0;
}

/* --from sparecores: one database file, one vendor and region (catalogs/sparecores.h). */
static int convert_sparecores(struct convert_ctx *x, const struct cli_args *args)
{
    struct cat_convert_stats st;
    struct cat_error err;
    json_t *catalog = NULL;
    int rc;
    memset(&st, 0, sizeof st);
    if (args->argc != 1)
        return cli_usage_error("catalog convert",
                               "--from sparecores reads one database file (sc-data-all.db)");
    if (!x->vendor)
        return cli_usage_error("catalog convert",
                               "--from sparecores needs --vendor (e.g. alicloud, aws, azure, gcp)");
    if (!x->o.region)
        return cli_usage_error("catalog convert",
                               "--from sparecores needs --region (e.g. cn-hangzhou, us-east-1)");
    rc = cat_convert_sparecores(args->argv[0], x->vendor, &x->o, &catalog, &st, &err);
    if (rc != CAT_OK) {
        fprintf(stderr, "sizeup: %s\n", err.msg);
        return rc == CAT_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
    }
    if (validate_and_write(catalog, x->output) != 0) {
        json_decref(catalog);
        return SIZEUP_EXIT_FAIL;
    }
    if (!x->quiet)
        fprintf(stderr,
                "sizeup: %zu instances, %zu prices, %zu disks of %s in %s (%zu servers read, "
                "%zu prices left out: reserved or not per hour/month/year; %zu servers without a "
                "price there) -> %s\n",
                st.instances, st.prices, json_array_size(json_object_get(catalog, "disks")),
                x->vendor, x->o.region, st.records, st.skipped_price, st.skipped_none, x->output);
    json_decref(catalog);
    return SIZEUP_EXIT_OK;
}

int cmd_catalog_convert(int argc, char **argv)
{
    struct convert_ctx x;
    struct cli_args args;
    struct cat_convert_stats st;
    struct cat_error err;
    json_t *catalog = NULL;
    char as_of[11] = "";
    time_t newest = 0;
    int rc, azure;
    memset(&st, 0, sizeof st);
    if ((rc = convert_parse(argc, argv, &x, &args)) != CLI_RUN)
        return rc;
    if (x.from < 0)
        return cli_usage_error("catalog convert", "name the input format with --from");
    if (!x.output)
        return cli_usage_error("catalog convert", "name the output file with -o FILE");
    if (args.argc == 0)
        return cli_usage_error("catalog convert", "name at least one input FILE");
    argc = args.argc;
    argv = args.argv;
    if (x.from == FROM_SPARECORES)
        return convert_sparecores(&x, &args);
    if (x.vendor)
        return cli_usage_error("catalog convert", "--vendor is for --from sparecores");
    azure = x.from == FROM_AZURE_RETAIL;
    if (azure && x.o.os && strcmp(x.o.os, "linux") != 0 && strcmp(x.o.os, "windows") != 0)
        return cli_usage_error("catalog convert", "--os takes linux or windows for azure-retail");
    for (int i = 0; i < argc; i++) {
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
    for (int i = 0; i < argc; i++) {
        json_error_t jerr;
        json_t *doc;
        char *text, msg[512];
        size_t len;
        rc = readfile(argv[i], CONVERT_MAX_FILE_BYTES, &text, &len, msg, sizeof msg);
        if (rc != READFILE_OK) {
            fprintf(stderr, "sizeup: %s\n", msg);
            json_decref(catalog);
            return rc == READFILE_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
        }
        doc = json_loadb(text, len, 0, &jerr);
        free(text);
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
                x.o.os ? x.o.os : "linux", argc, argc == 1 ? "" : "s", st.records);
        json_decref(catalog);
        return SIZEUP_EXIT_INPUT;
    }
    if (json_array_size(json_object_get(catalog, "disks")) == 0)
        json_object_del(catalog, "disks");
    if (validate_and_write(catalog, x.output) != 0) {
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
