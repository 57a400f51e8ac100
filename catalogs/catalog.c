/* catalog.c - load and validate sizeup.catalog/1 documents (docs/catalog-format.md). */
#include "catalog.h"
#include "disk.h"
#include "jsonpos.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pricing_names[CAT_PRICING_COUNT] = {
    "on-demand", "reserved-1y", "reserved-3y", "spot", "subscription-1m", "subscription-1y"};

const char *cat_pricing_name(enum cat_pricing p)
{
    return (unsigned)p < CAT_PRICING_COUNT ? pricing_names[p] : "?";
}

int cat_pricing_parse(const char *s, enum cat_pricing *out)
{
    for (int i = 0; i < CAT_PRICING_COUNT; i++)
        if (s && strcmp(s, pricing_names[i]) == 0) {
            *out = (enum cat_pricing)i;
            return 0;
        }
    return -1;
}

const char *cat_unit_name(enum cat_unit u)
{
    switch (u) {
    case CAT_UNIT_HOUR:
        return "hour";
    case CAT_UNIT_MONTH:
        return "month";
    case CAT_UNIT_YEAR:
        return "year";
    }
    return "?";
}

/* ---- freeing ---------------------------------------------------------------------------- */

static void price_destroy(struct cat_price *p)
{
    free(p->source);
    free(p->as_of);
    free(p->note);
    memset(p, 0, sizeof *p);
}

static void instance_destroy(struct cat_instance *in)
{
    free(in->id);
    free(in->provider);
    free(in->region);
    free(in->name);
    free(in->description);
    free(in->local_disk);
    for (size_t i = 0; i < in->n_prices; i++)
        price_destroy(&in->prices[i].price);
    free(in->prices);
}

static void disk_destroy(struct cat_disk *d)
{
    free(d->id);
    free(d->provider);
    free(d->name);
    free(d->source);
    price_destroy(&d->per_gib_month);
    price_destroy(&d->per_prov_iops_month);
    price_destroy(&d->per_prov_mb_s_month);
}

static void server_destroy(struct cat_server *s)
{
    free(s->id);
    free(s->description);
    free(s->local_disk);
    price_destroy(&s->capital);
    price_destroy(&s->energy_per_kwh);
    price_destroy(&s->rack_per_month);
    price_destroy(&s->staff_per_month);
}

static void config_destroy(struct cat_config *c)
{
    free(c->id);
    free(c->description);
    free(c->instance);
    free(c->server);
    free(c->disk);
}

static void catalog_clear(struct cat_catalog *cat)
{
    for (size_t i = 0; i < cat->n_rates; i++)
        price_destroy(&cat->rates[i].rate);
    free(cat->rates);
    for (size_t i = 0; i < cat->n_instances; i++)
        instance_destroy(&cat->instances[i]);
    free(cat->instances);
    for (size_t i = 0; i < cat->n_disks; i++)
        disk_destroy(&cat->disks[i]);
    free(cat->disks);
    for (size_t i = 0; i < cat->n_servers; i++)
        server_destroy(&cat->servers[i]);
    free(cat->servers);
    for (size_t i = 0; i < cat->n_configs; i++)
        config_destroy(&cat->configs[i]);
    free(cat->configs);
    for (size_t i = 0; i < cat->n_files; i++)
        free(cat->files[i]);
    free(cat->files);
    free(cat->as_of);
    free(cat->name);
    memset(cat, 0, sizeof *cat);
}

struct cat_catalog *cat_catalog_new(void)
{
    return calloc(1, sizeof(struct cat_catalog));
}

void cat_catalog_free(struct cat_catalog *cat)
{
    if (!cat)
        return;
    catalog_clear(cat);
    free(cat);
}

/* ---- look-ups ----------------------------------------------------------------------------- */

#define FIND_BY_ID(arr, n, id)                                                                     \
    do {                                                                                           \
        if (!id)                                                                                   \
            return NULL;                                                                           \
        for (size_t i_ = 0; i_ < (n); i_++)                                                        \
            if (strcmp((arr)[i_].id, (id)) == 0)                                                     \
                return &(arr)[i_];                                                                 \
        return NULL;                                                                               \
    } while (0)

const struct cat_instance *cat_find_instance(const struct cat_catalog *cat, const char *id)
{
    FIND_BY_ID(cat->instances, cat->n_instances, id);
}

const struct cat_disk *cat_find_disk(const struct cat_catalog *cat, const char *id)
{
    FIND_BY_ID(cat->disks, cat->n_disks, id);
}

const struct cat_server *cat_find_server(const struct cat_catalog *cat, const char *id)
{
    FIND_BY_ID(cat->servers, cat->n_servers, id);
}

const struct cat_config *cat_find_config(const struct cat_catalog *cat, const char *id)
{
    FIND_BY_ID(cat->configs, cat->n_configs, id);
}

int cat_catalog_convert(const struct cat_catalog *cat, double amount, const char *code,
                        double *out, const struct cat_rate **rate)
{
    if (rate)
        *rate = NULL;
    if (strcmp(code, cat->currency) == 0) {
        *out = amount;
        return CAT_OK;
    }
    for (size_t i = 0; i < cat->n_rates; i++)
        if (strcmp(cat->rates[i].code, code) == 0) {
            *out = amount * cat->rates[i].rate.amount;
            if (rate)
                *rate = &cat->rates[i];
            return CAT_OK;
        }
    return CAT_ENOTFOUND;
}

/* ---- loading ------------------------------------------------------------------------------ */

struct ld {
    const char *text;
    size_t len;
    const char *name;
    struct cat_error *err;
    char path[160];
    const struct cat_catalog *base; /* files already loaded */
    struct cat_catalog *cat;        /* this file */
};

static int fail(struct ld *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ld *ld, const char *fmt, ...)
{
    char what[400];
    long line = 0, column = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cat_jsonpos_find(ld->text, ld->len, ld->path, &line, &column);
    if (ld->err) {
        snprintf(ld->err->path, sizeof ld->err->path, "%s", ld->path);
        ld->err->line = line;
        ld->err->column = column;
        snprintf(ld->err->msg, sizeof ld->err->msg, "%s:%ld:%ld: %s: %s", ld->name, line, column,
                 ld->path, what);
    }
    return CAT_EINVAL;
}

static int nomem(struct ld *ld)
{
    if (ld->err)
        snprintf(ld->err->msg, sizeof ld->err->msg, "%s: out of memory", ld->name);
    return CAT_ENOMEM;
}

/* Path stack: push returns the old length to pop back to. */
static size_t push_key(struct ld *ld, const char *key)
{
    size_t n = strlen(ld->path);
    snprintf(ld->path + n, sizeof ld->path - n, ".%s", key);
    return n;
}

static size_t push_index(struct ld *ld, size_t i)
{
    size_t n = strlen(ld->path);
    snprintf(ld->path + n, sizeof ld->path - n, "[%zu]", i);
    return n;
}

static void pop(struct ld *ld, size_t n)
{
    ld->path[n] = '\0';
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "?";
}

/* Reject keys not in the NULL-terminated list allowed. */
static int check_keys(struct ld *ld, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, key) == 0)
                ok = 1;
        if (!ok) {
            char list[300] = "";
            size_t n = push_key(ld, key);
            for (const char *const *a = allowed; *a; a++) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", *a);
            }
            fail(ld, "unknown key '%s' (expected one of: %s)", key, list);
            pop(ld, n);
            return CAT_EINVAL;
        }
    }
    return CAT_OK;
}

/* A string member; *out gets a copy (NULL when absent and not required). */
static int get_str(struct ld *ld, json_t *obj, const char *key, int required, char **out)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc = CAT_OK;
    *out = NULL;
    if (!v || json_is_null(v)) {
        if (required)
            return fail(ld, "missing required key '%s' (a string)", key);
        return CAT_OK;
    }
    n = push_key(ld, key);
    if (!json_is_string(v))
        rc = fail(ld, "expected a string, got %s", type_name(v));
    else if (json_string_length(v) == 0 && required)
        rc = fail(ld, "expected a non-empty string");
    else if (!(*out = strdup(json_string_value(v))))
        rc = nomem(ld);
    pop(ld, n);
    return rc;
}

/* A number member in [min, max]; *out = dflt when absent and not required. */
static int get_num(struct ld *ld, json_t *obj, const char *key, int required, double min,
                   double max, double dflt, double *out)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc = CAT_OK;
    *out = dflt;
    if (!v || json_is_null(v)) {
        if (required)
            return fail(ld, "missing required key '%s' (a number)", key);
        return CAT_OK;
    }
    n = push_key(ld, key);
    if (!json_is_number(v)) {
        rc = fail(ld, "expected a number in [%g, %g], got %s", min, max, type_name(v));
    } else {
        double x = json_number_value(v);
        if (!isfinite(x) || x < min || x > max)
            rc = fail(ld, "expected a number in [%g, %g], got %g", min, max, x);
        else
            *out = x;
    }
    pop(ld, n);
    return rc;
}

static int get_int(struct ld *ld, json_t *obj, const char *key, int required, int min, int max,
                   int dflt, int *out)
{
    double x;
    json_t *v = json_object_get(obj, key);
    int rc;
    if (v && json_is_real(v)) {
        size_t n = push_key(ld, key);
        rc = fail(ld, "expected an integer in [%d, %d], got %g", min, max, json_real_value(v));
        pop(ld, n);
        return rc;
    }
    rc = get_num(ld, obj, key, required, min, max, dflt, &x);
    *out = (int)x;
    return rc;
}

static int get_bool(struct ld *ld, json_t *obj, const char *key, int dflt, int *out)
{
    json_t *v = json_object_get(obj, key);
    *out = dflt;
    if (!v)
        return CAT_OK;
    if (!json_is_boolean(v)) {
        size_t n = push_key(ld, key);
        int rc = fail(ld, "expected true or false, got %s", type_name(v));
        pop(ld, n);
        return rc;
    }
    *out = json_is_true(v);
    return CAT_OK;
}

static int valid_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return 0;
    int mon = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
    return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

static int valid_currency(const char *s)
{
    if (!s || strlen(s) != 3)
        return 0;
    for (int i = 0; i < 3; i++)
        if (!isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

static int known_currency(const struct ld *ld, const char *code)
{
    double x;
    if (strcmp(code, ld->cat->currency) == 0)
        return 1;
    return cat_catalog_convert(ld->cat, 1.0, code, &x, NULL) == CAT_OK;
}

static int get_date(struct ld *ld, json_t *obj, const char *key, int required, char **out)
{
    int rc = get_str(ld, obj, key, required, out);
    if (rc == CAT_OK && *out && !valid_date(*out)) {
        size_t n = push_key(ld, key);
        rc = fail(ld, "expected a date YYYY-MM-DD, got \"%s\"", *out);
        pop(ld, n);
        free(*out);
        *out = NULL;
    }
    return rc;
}

/* Provenance and currency of a price object (amount read by the caller's key). */
static int get_provenance(struct ld *ld, json_t *obj, struct cat_price *p, int need_currency)
{
    int rc;
    if (need_currency) {
        char *cur = NULL;
        if ((rc = get_str(ld, obj, "currency", 1, &cur)) != CAT_OK)
            return rc;
        size_t n = push_key(ld, "currency");
        if (!valid_currency(cur))
            rc = fail(ld, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"", cur);
        else if (!known_currency(ld, cur))
            rc = fail(ld,
                      "currency %s is neither the catalog currency (%s) nor declared in $.rates",
                      cur, ld->cat->currency);
        else
            snprintf(p->currency, sizeof p->currency, "%s", cur);
        pop(ld, n);
        free(cur);
        if (rc != CAT_OK)
            return rc;
    }
    if ((rc = get_str(ld, obj, "source", 1, &p->source)) != CAT_OK)
        return rc;
    if ((rc = get_date(ld, obj, "as_of", 1, &p->as_of)) != CAT_OK)
        return rc;
    if ((rc = get_bool(ld, obj, "estimate", 0, &p->estimate)) != CAT_OK)
        return rc;
    if ((rc = get_str(ld, obj, "note", 0, &p->note)) != CAT_OK)
        return rc;
    if (p->estimate && !p->note)
        return fail(ld, "an estimate needs a 'note' saying how it was made");
    p->present = 1;
    return CAT_OK;
}

static const char *const price_keys[] = {"amount", "currency", "source", "as_of",
                                         "estimate", "note", NULL};

/* A price object under key (optional unless required). */
static int get_price(struct ld *ld, json_t *obj, const char *key, int required,
                     struct cat_price *p)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    memset(p, 0, sizeof *p);
    if (!v || json_is_null(v)) {
        if (required)
            return fail(ld, "missing required key '%s' (a price object)", key);
        return CAT_OK;
    }
    n = push_key(ld, key);
    if (!json_is_object(v)) {
        rc = fail(ld, "expected a price object {amount, currency, source, as_of}, got %s",
                  type_name(v));
    } else if ((rc = check_keys(ld, v, price_keys)) == CAT_OK &&
               (rc = get_num(ld, v, "amount", 1, 0, 1e12, 0, &p->amount)) == CAT_OK) {
        rc = get_provenance(ld, v, p, 1);
    }
    pop(ld, n);
    return rc;
}

/* Grow an array by one zeroed element. */
static void *grow(void *arr, size_t n, size_t size)
{
    char *p = realloc(arr, (n + 1) * size);
    if (p)
        memset(p + n * size, 0, size);
    return p;
}

/* Ids are unique within each section over every file loaded. */
enum section { SEC_INSTANCE, SEC_DISK, SEC_SERVER, SEC_CONFIG };

static int id_taken(const struct cat_catalog *c, enum section sec, const char *id)
{
    switch (sec) {
    case SEC_INSTANCE:
        return cat_find_instance(c, id) != NULL;
    case SEC_DISK:
        return cat_find_disk(c, id) != NULL;
    case SEC_SERVER:
        return cat_find_server(c, id) != NULL;
    case SEC_CONFIG:
        return cat_find_config(c, id) != NULL;
    }
    return 0;
}

static int get_id(struct ld *ld, json_t *obj, enum section sec, char **out)
{
    static const char *const names[] = {"instance", "disk", "server", "config"};
    int rc = get_str(ld, obj, "id", 1, out);
    if (rc != CAT_OK)
        return rc;
    if (id_taken(ld->cat, sec, *out) || (ld->base && id_taken(ld->base, sec, *out))) {
        size_t n = push_key(ld, "id");
        rc = fail(ld, "duplicate %s id \"%s\" (ids are unique within a section, across files)",
                  names[sec], *out);
        pop(ld, n);
        free(*out);
        *out = NULL;
    }
    return rc;
}

static const struct cat_disk *lookup_disk(const struct ld *ld, const char *id)
{
    const struct cat_disk *d = cat_find_disk(ld->cat, id);
    return d ? d : (ld->base ? cat_find_disk(ld->base, id) : NULL);
}

static int get_local_disk(struct ld *ld, json_t *obj, char **disk, int *count, double *gib)
{
    static const char *const keys[] = {"disk", "count", "size_gib", NULL};
    json_t *v = json_object_get(obj, "local_disk");
    size_t n;
    int rc;
    if (!v || json_is_null(v))
        return CAT_OK;
    n = push_key(ld, "local_disk");
    if (!json_is_object(v))
        rc = fail(ld, "expected an object {disk, count, size_gib}, got %s", type_name(v));
    else if ((rc = check_keys(ld, v, keys)) == CAT_OK &&
             (rc = get_str(ld, v, "disk", 1, disk)) == CAT_OK &&
             (rc = get_int(ld, v, "count", 0, 1, 64, 1, count)) == CAT_OK &&
             (rc = get_num(ld, v, "size_gib", 1, 1, 1e7, 0, gib)) == CAT_OK) {
        const struct cat_disk *d = lookup_disk(ld, *disk);
        size_t m = push_key(ld, "disk");
        if (!d)
            rc = fail(ld, "unknown disk type \"%s\" (not among $.disks)", *disk);
        else if (!d->local)
            rc = fail(ld, "disk type \"%s\" is not a local disk (\"local\": true)", *disk);
        pop(ld, m);
    }
    pop(ld, n);
    return rc;
}

static int parse_instance_price(struct ld *ld, json_t *v, struct cat_instance *in)
{
    static const char *const keys[] = {"pricing", "unit", "amount", "currency", "source",
                                       "as_of", "estimate", "note", NULL};
    struct cat_instance_price *ip;
    char *s = NULL;
    int rc;
    if (!json_is_object(v))
        return fail(ld, "expected a price object {pricing, unit, amount, currency, source, "
                        "as_of}, got %s",
                    type_name(v));
    if ((rc = check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(in->prices = grow(in->prices, in->n_prices, sizeof *in->prices)))
        return nomem(ld);
    ip = &in->prices[in->n_prices++];
    if ((rc = get_str(ld, v, "pricing", 1, &s)) != CAT_OK)
        return rc;
    size_t n = push_key(ld, "pricing");
    if (cat_pricing_parse(s, &ip->pricing) != 0)
        rc = fail(ld,
                  "unknown pricing model \"%s\" (expected on-demand, reserved-1y, reserved-3y, "
                  "spot, subscription-1m or subscription-1y)",
                  s);
    for (size_t i = 0; rc == CAT_OK && i + 1 < in->n_prices; i++)
        if (in->prices[i].pricing == ip->pricing)
            rc = fail(ld, "a second \"%s\" price for the same instance", s);
    pop(ld, n);
    free(s);
    s = NULL;
    if (rc != CAT_OK)
        return rc;
    if ((rc = get_str(ld, v, "unit", 1, &s)) != CAT_OK)
        return rc;
    if (strcmp(s, "hour") == 0)
        ip->unit = CAT_UNIT_HOUR;
    else if (strcmp(s, "month") == 0)
        ip->unit = CAT_UNIT_MONTH;
    else if (strcmp(s, "year") == 0)
        ip->unit = CAT_UNIT_YEAR;
    else {
        n = push_key(ld, "unit");
        rc = fail(ld, "expected \"hour\", \"month\" or \"year\", got \"%s\"", s);
        pop(ld, n);
    }
    free(s);
    if (rc != CAT_OK)
        return rc;
    if ((rc = get_num(ld, v, "amount", 1, 0, 1e12, 0, &ip->price.amount)) != CAT_OK)
        return rc;
    return get_provenance(ld, v, &ip->price, 1);
}

static int parse_instance(struct ld *ld, json_t *v)
{
    static const char *const keys[] = {"id",         "provider",    "region",
                                       "name",       "description", "vcpu",
                                       "memory_gib", "local_disk",  "block_max_iops",
                                       "block_max_throughput_mb_s", "prices", NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_instance *in;
    json_t *prices;
    int rc;
    if (!json_is_object(v))
        return fail(ld, "expected an instance object, got %s", type_name(v));
    if ((rc = check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->instances = grow(c->instances, c->n_instances, sizeof *c->instances)))
        return nomem(ld);
    in = &c->instances[c->n_instances];
    if ((rc = get_id(ld, v, SEC_INSTANCE, &in->id)) != CAT_OK)
        return rc;
    c->n_instances++; /* from here on the entry owns what it holds */
    if ((rc = get_str(ld, v, "provider", 1, &in->provider)) != CAT_OK ||
        (rc = get_str(ld, v, "region", 0, &in->region)) != CAT_OK ||
        (rc = get_str(ld, v, "name", 0, &in->name)) != CAT_OK ||
        (rc = get_str(ld, v, "description", 0, &in->description)) != CAT_OK ||
        (rc = get_int(ld, v, "vcpu", 0, 1, 100000, 0, &in->vcpu)) != CAT_OK ||
        (rc = get_num(ld, v, "memory_gib", 0, 0.001, 1e9, 0, &in->memory_gib)) != CAT_OK ||
        (rc = get_local_disk(ld, v, &in->local_disk, &in->local_disk_count,
                             &in->local_disk_gib)) != CAT_OK ||
        (rc = get_num(ld, v, "block_max_iops", 0, 0, 1e9, 0, &in->block_max_iops)) != CAT_OK ||
        (rc = get_num(ld, v, "block_max_throughput_mb_s", 0, 0, 1e9, 0,
                      &in->block_max_throughput_mb_s)) != CAT_OK)
        return rc;
    prices = json_object_get(v, "prices");
    if (!prices)
        return fail(ld, "missing required key 'prices' (an array of price objects)");
    size_t n = push_key(ld, "prices");
    if (!json_is_array(prices) || json_array_size(prices) == 0)
        rc = fail(ld, "expected a non-empty array of price objects, got %s", type_name(prices));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(prices); i++) {
        size_t m = push_index(ld, i);
        rc = parse_instance_price(ld, json_array_get(prices, i), in);
        pop(ld, m);
    }
    pop(ld, n);
    return rc;
}

static int get_rule(struct ld *ld, json_t *obj, const char *key, struct cat_perf_rule *r)
{
    static const char *const keys[] = {"base", "per_gib", "floor", "cap", "cap_per_gib", NULL};
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    if (!v)
        return fail(ld, "missing required key '%s' (a rule {base, per_gib, floor, cap})", key);
    n = push_key(ld, key);
    if (!json_is_object(v))
        rc = fail(ld, "expected a rule object {base, per_gib, floor, cap, cap_per_gib}, got %s",
                  type_name(v));
    else if ((rc = check_keys(ld, v, keys)) == CAT_OK &&
             (rc = get_num(ld, v, "base", 0, 0, 1e9, 0, &r->base)) == CAT_OK &&
             (rc = get_num(ld, v, "per_gib", 0, 0, 1e6, 0, &r->per_gib)) == CAT_OK &&
             (rc = get_num(ld, v, "floor", 0, 0, 1e9, 0, &r->floor)) == CAT_OK &&
             (rc = get_num(ld, v, "cap", 0, 0, 1e9, INFINITY, &r->cap)) == CAT_OK &&
             (rc = get_num(ld, v, "cap_per_gib", 0, 0, 1e6, INFINITY, &r->cap_per_gib)) ==
                 CAT_OK) {
        if (r->floor > r->cap)
            rc = fail(ld, "floor %g is above cap %g", r->floor, r->cap);
    }
    pop(ld, n);
    return rc;
}

static int parse_disk(struct ld *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "provider",
                                       "name",
                                       "local",
                                       "size_gib",
                                       "iops",
                                       "throughput_mb_s",
                                       "provisioned_iops",
                                       "provisioned_throughput_mb_s",
                                       "prices",
                                       "source",
                                       "note",
                                       NULL};
    static const char *const size_keys[] = {"min", "max", NULL};
    static const char *const piops_keys[] = {"max",         "total_min",
                                             "total_max",   "total_max_per_gib",
                                             "throughput_mb_s_per_iops", NULL};
    static const char *const ptp_keys[] = {"total_max", "total_max_per_iops", NULL};
    static const char *const dprice_keys[] = {"per_gib_month", "per_provisioned_iops_month",
                                              "per_provisioned_mb_s_month", NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_disk *d;
    json_t *o;
    size_t n;
    int rc;
    if (!json_is_object(v))
        return fail(ld, "expected a disk object, got %s", type_name(v));
    if ((rc = check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->disks = grow(c->disks, c->n_disks, sizeof *c->disks)))
        return nomem(ld);
    d = &c->disks[c->n_disks];
    if ((rc = get_id(ld, v, SEC_DISK, &d->id)) != CAT_OK)
        return rc;
    c->n_disks++;
    if ((rc = get_str(ld, v, "provider", 0, &d->provider)) != CAT_OK ||
        (rc = get_str(ld, v, "name", 0, &d->name)) != CAT_OK ||
        (rc = get_bool(ld, v, "local", 0, &d->local)) != CAT_OK ||
        (rc = get_str(ld, v, "source", 1, &d->source)) != CAT_OK)
        return rc;
    o = json_object_get(v, "size_gib");
    if (!o)
        return fail(ld, "missing required key 'size_gib' (an object {min, max})");
    n = push_key(ld, "size_gib");
    if (!json_is_object(o))
        rc = fail(ld, "expected an object {min, max}, got %s", type_name(o));
    else if ((rc = check_keys(ld, o, size_keys)) == CAT_OK &&
             (rc = get_num(ld, o, "min", 1, 0, 1e9, 0, &d->min_gib)) == CAT_OK &&
             (rc = get_num(ld, o, "max", 1, 0, 1e9, 0, &d->max_gib)) == CAT_OK &&
             d->max_gib < d->min_gib)
        rc = fail(ld, "max %g is below min %g", d->max_gib, d->min_gib);
    pop(ld, n);
    if (rc != CAT_OK || (rc = get_rule(ld, v, "iops", &d->iops)) != CAT_OK ||
        (rc = get_rule(ld, v, "throughput_mb_s", &d->throughput_mb_s)) != CAT_OK)
        return rc;
    d->prov_iops_max = d->prov_iops_total_max = d->prov_iops_total_per_gib = INFINITY;
    d->prov_tp_total_max = d->prov_tp_total_per_iops = INFINITY;
    if ((o = json_object_get(v, "provisioned_iops")) != NULL) {
        n = push_key(ld, "provisioned_iops");
        d->has_prov_iops = 1;
        if (!json_is_object(o))
            rc = fail(ld, "expected an object, got %s", type_name(o));
        else if ((rc = check_keys(ld, o, piops_keys)) == CAT_OK &&
                 (rc = get_num(ld, o, "max", 0, 0, 1e9, INFINITY, &d->prov_iops_max)) == CAT_OK &&
                 (rc = get_num(ld, o, "total_min", 0, 0, 1e9, 0, &d->prov_iops_total_min)) ==
                     CAT_OK &&
                 (rc = get_num(ld, o, "total_max", 0, 0, 1e9, INFINITY,
                               &d->prov_iops_total_max)) == CAT_OK &&
                 (rc = get_num(ld, o, "total_max_per_gib", 0, 0, 1e6, INFINITY,
                               &d->prov_iops_total_per_gib)) == CAT_OK)
            rc = get_num(ld, o, "throughput_mb_s_per_iops", 0, 0, 1e3, 0,
                         &d->throughput_per_prov_iops);
        pop(ld, n);
        if (rc != CAT_OK)
            return rc;
    }
    if ((o = json_object_get(v, "provisioned_throughput_mb_s")) != NULL) {
        n = push_key(ld, "provisioned_throughput_mb_s");
        d->has_prov_throughput = 1;
        if (!json_is_object(o))
            rc = fail(ld, "expected an object, got %s", type_name(o));
        else if ((rc = check_keys(ld, o, ptp_keys)) == CAT_OK &&
                 (rc = get_num(ld, o, "total_max", 0, 0, 1e9, INFINITY, &d->prov_tp_total_max)) ==
                     CAT_OK)
            rc = get_num(ld, o, "total_max_per_iops", 0, 0, 1e3, INFINITY,
                         &d->prov_tp_total_per_iops);
        pop(ld, n);
        if (rc != CAT_OK)
            return rc;
    }
    o = json_object_get(v, "prices");
    if (d->local) {
        if (o)
            return fail(ld, "a local disk is priced in its instance or server: remove 'prices'");
        return CAT_OK;
    }
    if (!o)
        return CAT_OK; /* performance only: configurations cannot use it */
    n = push_key(ld, "prices");
    if (!json_is_object(o))
        rc = fail(ld, "expected an object of price objects, got %s", type_name(o));
    else if ((rc = check_keys(ld, o, dprice_keys)) == CAT_OK &&
             (rc = get_price(ld, o, "per_gib_month", 1, &d->per_gib_month)) == CAT_OK &&
             (rc = get_price(ld, o, "per_provisioned_iops_month", d->has_prov_iops,
                             &d->per_prov_iops_month)) == CAT_OK)
        rc = get_price(ld, o, "per_provisioned_mb_s_month", d->has_prov_throughput,
                       &d->per_prov_mb_s_month);
    pop(ld, n);
    return rc;
}

static int parse_server(struct ld *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "description",
                                       "vcpu",
                                       "memory_gib",
                                       "local_disk",
                                       "capital",
                                       "amortisation_years",
                                       "maintenance_rate",
                                       "power_kw",
                                       "pue",
                                       "energy_per_kwh",
                                       "rack_per_month",
                                       "rack_units",
                                       "rack_units_per_rack",
                                       "staff_per_month",
                                       NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_server *s;
    int rc;
    if (!json_is_object(v))
        return fail(ld, "expected a server object, got %s", type_name(v));
    if ((rc = check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->servers = grow(c->servers, c->n_servers, sizeof *c->servers)))
        return nomem(ld);
    s = &c->servers[c->n_servers];
    if ((rc = get_id(ld, v, SEC_SERVER, &s->id)) != CAT_OK)
        return rc;
    c->n_servers++;
    if ((rc = get_str(ld, v, "description", 0, &s->description)) != CAT_OK ||
        (rc = get_int(ld, v, "vcpu", 1, 1, 100000, 0, &s->vcpu)) != CAT_OK ||
        (rc = get_num(ld, v, "memory_gib", 1, 0.001, 1e9, 0, &s->memory_gib)) != CAT_OK ||
        (rc = get_local_disk(ld, v, &s->local_disk, &s->local_disk_count,
                             &s->local_disk_gib)) != CAT_OK ||
        (rc = get_price(ld, v, "capital", 1, &s->capital)) != CAT_OK ||
        (rc = get_num(ld, v, "amortisation_years", 0, 0.1, 50, 5, &s->amortisation_years)) !=
            CAT_OK ||
        (rc = get_num(ld, v, "maintenance_rate", 0, 0, 10, 0.15, &s->maintenance_rate)) !=
            CAT_OK ||
        (rc = get_num(ld, v, "power_kw", 1, 0, 1000, 0, &s->power_kw)) != CAT_OK ||
        (rc = get_num(ld, v, "pue", 0, 1, 5, 1.5, &s->pue)) != CAT_OK ||
        (rc = get_price(ld, v, "energy_per_kwh", 1, &s->energy_per_kwh)) != CAT_OK ||
        (rc = get_price(ld, v, "rack_per_month", 1, &s->rack_per_month)) != CAT_OK ||
        (rc = get_num(ld, v, "rack_units", 1, 0.1, 100, 0, &s->rack_units)) != CAT_OK ||
        (rc = get_num(ld, v, "rack_units_per_rack", 0, 1, 100, 42, &s->rack_units_per_rack)) !=
            CAT_OK ||
        (rc = get_price(ld, v, "staff_per_month", 0, &s->staff_per_month)) != CAT_OK)
        return rc;
    if (s->rack_units > s->rack_units_per_rack)
        return fail(ld, "rack_units %g exceed rack_units_per_rack %g", s->rack_units,
                    s->rack_units_per_rack);
    return CAT_OK;
}

static int parse_config(struct ld *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "description",
                                       "instance",
                                       "server",
                                       "slice",
                                       "disk",
                                       "size_gib",
                                       "provisioned_iops",
                                       "provisioned_throughput_mb_s",
                                       "nodes",
                                       NULL};
    static const char *const slice_keys[] = {"vcpu", "memory_gib", NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_config *cf;
    json_t *o;
    size_t n;
    int rc;
    if (!json_is_object(v))
        return fail(ld, "expected a config object, got %s", type_name(v));
    if ((rc = check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->configs = grow(c->configs, c->n_configs, sizeof *c->configs)))
        return nomem(ld);
    cf = &c->configs[c->n_configs];
    if ((rc = get_id(ld, v, SEC_CONFIG, &cf->id)) != CAT_OK)
        return rc;
    c->n_configs++;
    if ((rc = get_str(ld, v, "description", 0, &cf->description)) != CAT_OK ||
        (rc = get_str(ld, v, "instance", 0, &cf->instance)) != CAT_OK ||
        (rc = get_str(ld, v, "server", 0, &cf->server)) != CAT_OK ||
        (rc = get_str(ld, v, "disk", 0, &cf->disk)) != CAT_OK ||
        (rc = get_num(ld, v, "size_gib", 0, 0, 1e9, 0, &cf->size_gib)) != CAT_OK ||
        (rc = get_num(ld, v, "provisioned_iops", 0, 0, 1e9, 0, &cf->provisioned_iops)) !=
            CAT_OK ||
        (rc = get_num(ld, v, "provisioned_throughput_mb_s", 0, 0, 1e9, 0,
                      &cf->provisioned_throughput_mb_s)) != CAT_OK ||
        (rc = get_int(ld, v, "nodes", 0, 1, 100000, 1, &cf->nodes)) != CAT_OK)
        return rc;
    if (!cf->instance == !cf->server)
        return fail(ld, "a config names exactly one of 'instance' and 'server'");
    if (cf->instance) {
        const struct cat_instance *in = cat_find_instance(c, cf->instance);
        if (!in && ld->base)
            in = cat_find_instance(ld->base, cf->instance);
        if (!in) {
            n = push_key(ld, "instance");
            rc = fail(ld, "unknown instance \"%s\" (not among $.instances)", cf->instance);
            pop(ld, n);
            return rc;
        }
    } else {
        const struct cat_server *s = cat_find_server(c, cf->server);
        if (!s && ld->base)
            s = cat_find_server(ld->base, cf->server);
        if (!s) {
            n = push_key(ld, "server");
            rc = fail(ld, "unknown server \"%s\" (not among $.servers)", cf->server);
            pop(ld, n);
            return rc;
        }
        if ((o = json_object_get(v, "slice")) != NULL) {
            n = push_key(ld, "slice");
            if (!json_is_object(o))
                rc = fail(ld, "expected an object {vcpu, memory_gib}, got %s", type_name(o));
            else if ((rc = check_keys(ld, o, slice_keys)) == CAT_OK &&
                     (rc = get_int(ld, o, "vcpu", 1, 1, s->vcpu, 0, &cf->slice_vcpu)) == CAT_OK)
                rc = get_num(ld, o, "memory_gib", 1, 0.001, s->memory_gib, 0,
                             &cf->slice_memory_gib);
            pop(ld, n);
            if (rc != CAT_OK)
                return rc;
        }
    }
    if (cf->instance && json_object_get(v, "slice"))
        return fail(ld, "'slice' applies to a server, not to an instance");
    if (cf->disk) {
        const struct cat_disk *d = lookup_disk(ld, cf->disk);
        n = push_key(ld, "disk");
        if (!d) {
            rc = fail(ld, "unknown disk type \"%s\" (not among $.disks)", cf->disk);
            pop(ld, n);
            return rc;
        }
        if (!d->local && !d->per_gib_month.present)
            rc = fail(ld, "disk type \"%s\" has no prices, so a configuration cannot use it",
                      cf->disk);
        pop(ld, n);
        if (rc != CAT_OK)
            return rc;
        if (!json_object_get(v, "size_gib"))
            return fail(ld, "missing required key 'size_gib' (disk capacity per node, GiB)");
        n = push_key(ld, "size_gib");
        if (cf->size_gib < d->min_gib || cf->size_gib > d->max_gib)
            rc = fail(ld, "%g GiB is outside %s's capacity range [%g, %g] GiB", cf->size_gib,
                      d->id, d->min_gib, d->max_gib);
        pop(ld, n);
        if (rc != CAT_OK)
            return rc;
        {
            struct cat_disk_perf perf;
            char msg[300];
            if (cat_disk_performance(d, cf->size_gib, cf->provisioned_iops,
                                     cf->provisioned_throughput_mb_s, &perf, msg,
                                     sizeof msg) != CAT_OK)
                return fail(ld, "%s", msg);
        }
    } else if (cf->size_gib > 0 || cf->provisioned_iops > 0) {
        return fail(ld, "size_gib and provisioned_iops need a 'disk'");
    }
    return CAT_OK;
}

static int parse_rates(struct ld *ld, json_t *rates)
{
    static const char *const keys[] = {"rate", "source", "as_of", "estimate", "note", NULL};
    const char *code;
    json_t *v;
    int rc = CAT_OK;
    if (!json_is_object(rates))
        return fail(ld, "expected an object of rates keyed by currency code, got %s",
                    type_name(rates));
    json_object_foreach(rates, code, v)
    {
        struct cat_catalog *c = ld->cat;
        size_t n = push_key(ld, code);
        struct cat_rate *r;
        if (!valid_currency(code))
            rc = fail(ld, "expected a currency code such as \"CNY\" as the key");
        else if (strcmp(code, c->currency) == 0)
            rc = fail(ld, "a rate for the catalog's own currency");
        else if (!json_is_object(v))
            rc = fail(ld, "expected a rate object {rate, source, as_of}, got %s", type_name(v));
        else if ((rc = check_keys(ld, v, keys)) == CAT_OK) {
            if (!(c->rates = grow(c->rates, c->n_rates, sizeof *c->rates))) {
                rc = nomem(ld);
            } else {
                r = &c->rates[c->n_rates++];
                snprintf(r->code, sizeof r->code, "%s", code);
                snprintf(r->rate.currency, sizeof r->rate.currency, "%s", c->currency);
                if ((rc = get_num(ld, v, "rate", 1, 1e-9, 1e9, 0, &r->rate.amount)) == CAT_OK)
                    rc = get_provenance(ld, v, &r->rate, 0);
            }
        }
        pop(ld, n);
        if (rc != CAT_OK)
            return rc;
    }
    return CAT_OK;
}

static int parse_section(struct ld *ld, json_t *root, const char *key,
                         int (*one)(struct ld *, json_t *))
{
    json_t *arr = json_object_get(root, key);
    size_t n;
    int rc = CAT_OK;
    if (!arr)
        return CAT_OK;
    n = push_key(ld, key);
    if (!json_is_array(arr))
        rc = fail(ld, "expected an array, got %s", type_name(arr));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(arr); i++) {
        size_t m = push_index(ld, i);
        rc = one(ld, json_array_get(arr, i));
        pop(ld, m);
    }
    pop(ld, n);
    return rc;
}

static int parse_root(struct ld *ld, json_t *root)
{
    static const char *const keys[] = {"schema",  "name",      "description", "currency",
                                       "as_of",   "rates",     "instances",   "disks",
                                       "servers", "configs",   "notes",       NULL};
    struct cat_catalog *c = ld->cat;
    char *s = NULL;
    json_t *v;
    int rc;
    if (!json_is_object(root))
        return fail(ld, "expected a sizeup.catalog/1 object, got %s", type_name(root));
    v = json_object_get(root, "schema");
    if (!v || !json_is_string(v) || strcmp(json_string_value(v), CAT_SCHEMA) != 0) {
        size_t n = v ? push_key(ld, "schema") : strlen(ld->path);
        fail(ld, "expected \"schema\": \"%s\"", CAT_SCHEMA);
        pop(ld, n);
        return CAT_ESCHEMA;
    }
    if ((rc = check_keys(ld, root, keys)) != CAT_OK)
        return rc;
    if ((rc = get_str(ld, root, "currency", 1, &s)) != CAT_OK)
        return rc;
    if (!valid_currency(s)) {
        size_t n = push_key(ld, "currency");
        rc = fail(ld, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"", s);
        pop(ld, n);
        free(s);
        return rc;
    }
    snprintf(c->currency, sizeof c->currency, "%s", s);
    free(s);
    if (ld->base && ld->base->n_files > 0 && strcmp(ld->base->currency, c->currency) != 0) {
        size_t n = push_key(ld, "currency");
        rc = fail(ld, "currency %s differs from %s of the catalogs loaded before", c->currency,
                  ld->base->currency);
        pop(ld, n);
        return rc;
    }
    if ((rc = get_date(ld, root, "as_of", 1, &c->as_of)) != CAT_OK ||
        (rc = get_str(ld, root, "name", 0, &c->name)) != CAT_OK)
        return rc;
    if ((v = json_object_get(root, "description")) && !json_is_string(v)) {
        size_t n = push_key(ld, "description");
        rc = fail(ld, "expected a string, got %s", type_name(v));
        pop(ld, n);
        return rc;
    }
    if ((v = json_object_get(root, "rates")) != NULL) {
        size_t n = push_key(ld, "rates");
        rc = parse_rates(ld, v);
        pop(ld, n);
        if (rc != CAT_OK)
            return rc;
    }
    /* rates of earlier files count too */
    if (ld->base)
        for (size_t i = 0; i < ld->base->n_rates; i++) {
            double x;
            if (cat_catalog_convert(c, 1.0, ld->base->rates[i].code, &x, NULL) != CAT_OK) {
                struct cat_rate *r;
                if (!(c->rates = grow(c->rates, c->n_rates, sizeof *c->rates)))
                    return nomem(ld);
                r = &c->rates[c->n_rates++];
                memcpy(r->code, ld->base->rates[i].code, sizeof r->code);
                r->rate = ld->base->rates[i].rate;
                r->rate.source = strdup(r->rate.source);
                r->rate.as_of = strdup(r->rate.as_of);
                r->rate.note = r->rate.note ? strdup(r->rate.note) : NULL;
                if (!r->rate.source || !r->rate.as_of)
                    return nomem(ld);
            } else if (x != ld->base->rates[i].rate.amount) {
                return fail(ld, "rate of %s differs from the one of the catalogs loaded before",
                            ld->base->rates[i].code);
            }
        }
    if ((rc = parse_section(ld, root, "disks", parse_disk)) != CAT_OK ||
        (rc = parse_section(ld, root, "instances", parse_instance)) != CAT_OK ||
        (rc = parse_section(ld, root, "servers", parse_server)) != CAT_OK ||
        (rc = parse_section(ld, root, "configs", parse_config)) != CAT_OK)
        return rc;
    return CAT_OK;
}

/* Move the arrays of src onto the end of dst. */
#define APPEND(field, count)                                                                       \
    do {                                                                                           \
        if (src->count) {                                                                          \
            void *p_ = realloc(dst->field, (dst->count + src->count) * sizeof *dst->field);        \
            if (!p_)                                                                               \
                return CAT_ENOMEM;                                                                 \
            dst->field = p_;                                                                       \
            memcpy(dst->field + dst->count, src->field, src->count * sizeof *dst->field);          \
            dst->count += src->count;                                                              \
            free(src->field);                                                                      \
            src->field = NULL;                                                                     \
            src->count = 0;                                                                        \
        }                                                                                          \
    } while (0)

static int merge(struct cat_catalog *dst, struct cat_catalog *src, const char *name)
{
    char **files = realloc(dst->files, (dst->n_files + 1) * sizeof *files);
    if (!files)
        return CAT_ENOMEM;
    dst->files = files;
    if (!(dst->files[dst->n_files] = strdup(name)))
        return CAT_ENOMEM;
    dst->n_files++;
    if (dst->n_files == 1) {
        memcpy(dst->currency, src->currency, sizeof dst->currency);
        dst->as_of = src->as_of;
        dst->name = src->name;
        src->as_of = src->name = NULL;
        /* rates: src holds all of them (its own plus copies of earlier ones) */
    }
    for (size_t i = 0; i < dst->n_rates; i++)
        price_destroy(&dst->rates[i].rate);
    free(dst->rates);
    dst->rates = src->rates;
    dst->n_rates = src->n_rates;
    src->rates = NULL;
    src->n_rates = 0;
    APPEND(disks, n_disks);
    APPEND(instances, n_instances);
    APPEND(servers, n_servers);
    APPEND(configs, n_configs);
    return CAT_OK;
}

int cat_catalog_add_buffer(struct cat_catalog *cat, const char *text, size_t len,
                           const char *name, struct cat_error *err)
{
    struct cat_catalog tmp;
    struct ld ld;
    json_error_t jerr;
    json_t *root;
    int rc;

    if (err) {
        memset(err, 0, sizeof *err);
    }
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) {
        if (err) {
            err->line = jerr.line;
            err->column = jerr.column;
            snprintf(err->msg, sizeof err->msg, "%s:%d:%d: not valid JSON: %s", name, jerr.line,
                     jerr.column, jerr.text);
        }
        return CAT_EPARSE;
    }
    memset(&tmp, 0, sizeof tmp);
    memset(&ld, 0, sizeof ld);
    ld.text = text;
    ld.len = len;
    ld.name = name;
    ld.err = err;
    ld.base = cat;
    ld.cat = &tmp;
    snprintf(ld.path, sizeof ld.path, "$");
    rc = parse_root(&ld, root);
    json_decref(root);
    if (rc == CAT_OK && merge(cat, &tmp, name) != CAT_OK)
        rc = nomem(&ld);
    catalog_clear(&tmp);
    return rc;
}

int cat_catalog_add_file(struct cat_catalog *cat, const char *path, struct cat_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc;
    if (err)
        memset(err, 0, sizeof *err);
    if (!f) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
        return CAT_EIO;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            char *p = realloc(buf, cap ? cap * 2 : 65536);
            if (!p) {
                free(buf);
                fclose(f);
                if (err)
                    snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
                return CAT_ENOMEM;
            }
            buf = p;
            cap = cap ? cap * 2 : 65536;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: read error: %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return CAT_EIO;
    }
    fclose(f);
    rc = cat_catalog_add_buffer(cat, buf, len, path, err);
    free(buf);
    return rc;
}
