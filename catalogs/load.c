/* load.c - read and validate one sizeup.catalog/1 document (docs/catalog-format.md). */
#include "load.h"
#include "disk_perf.h"
#include "jsonpos.h"

#include "textsafe.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)JR_EINVAL == (int)CAT_EINVAL && (int)JR_ENOMEM == (int)CAT_ENOMEM,
               "the reader's errors are returned as catalog errors");

/* 1 when s is three upper-case letters (an ISO 4217 code's shape), else 0. */
static int valid_currency(const char *s)
{
    if (!s || strlen(s) != 3)
        return 0;
    for (int i = 0; i < 3; i++)
        if (!isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

/* An integer member into an int field (jr_get_int's range, in int). */
static int get_int(struct cat_jr *ld, json_t *obj, const char *key, int flags, int min, int max,
                   int dflt, int *out)
{
    long long v;
    int rc = jr_get_int(&ld->jr, obj, key, flags, min, max, dflt, &v);
    *out = (int)v;
    return rc;
}

static int known_currency(const struct cat_jr *ld, const char *code)
{
    double x;
    if (strcmp(code, ld->cat->currency) == 0)
        return 1;
    return cat_catalog_convert(ld->cat, 1.0, code, &x, NULL) == CAT_OK;
}

/* Provenance and currency of a price object (amount read by the caller's key). */
static int get_provenance(struct cat_jr *ld, json_t *obj, struct cat_price *p, int need_currency)
{
    int rc;
    if (need_currency) {
        char *cur = NULL;
        if ((rc = jr_get_str(&ld->jr, obj, "currency", 1, &cur)) != CAT_OK)
            return rc;
        size_t n = jr_push_key(&ld->jr, "currency");
        if (!valid_currency(cur))
            rc = jr_fail(&ld->jr, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"",
                         cur);
        else if (!known_currency(ld, cur))
            rc = jr_fail(&ld->jr,
                         "currency %s is neither the catalog currency (%s) nor declared in $.rates",
                         cur, ld->cat->currency);
        else
            snprintf(p->currency, sizeof p->currency, "%s", cur);
        jr_pop(&ld->jr, n);
        free(cur);
        if (rc != CAT_OK)
            return rc;
    }
    if ((rc = jr_get_str(&ld->jr, obj, "source", 1, &p->source)) != CAT_OK)
        return rc;
    if ((rc = jr_get_date(&ld->jr, obj, "as_of", 1, &p->as_of)) != CAT_OK)
        return rc;
    if ((rc = jr_get_bool(&ld->jr, obj, "estimate", 0, 0, &p->estimate)) != CAT_OK)
        return rc;
    if ((rc = jr_get_str(&ld->jr, obj, "note", 0, &p->note)) != CAT_OK)
        return rc;
    if (p->estimate && !p->note)
        return jr_fail(&ld->jr, "an estimate needs a 'note' saying how it was made");
    p->present = 1;
    return CAT_OK;
}

static const char *const price_keys[] = {"amount", "currency", "source", "as_of", "estimate",
                                         "note",   "low",      "high",   NULL};

static int get_range(struct cat_jr *ld, json_t *v, struct cat_price *p, double min, double max);

/* A price object under key (optional unless required). */
static int get_price(struct cat_jr *ld, json_t *obj, const char *key, int required,
                     struct cat_price *p)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    memset(p, 0, sizeof *p);
    if (!v || json_is_null(v)) {
        if (required)
            return jr_fail(&ld->jr, "missing required key '%s' (a price object)", key);
        return CAT_OK;
    }
    n = jr_push_key(&ld->jr, key);
    if (!json_is_object(v)) {
        rc = jr_fail(&ld->jr, "expected a price object {amount, currency, source, as_of}, got %s",
                     jr_type_name(v));
    } else if ((rc = jr_check_keys(&ld->jr, v, price_keys)) == CAT_OK &&
               (rc = jr_get_num(&ld->jr, v, "amount", 1, 0, 1e12, 0, &p->amount)) == CAT_OK &&
               (rc = get_provenance(ld, v, p, 1)) == CAT_OK) {
        rc = get_range(ld, v, p, 0, 1e12);
    }
    jr_pop(&ld->jr, n);
    return rc;
}

/*
 * The optional range {low, high} of a price or figure object v whose amount is p->amount:
 * both or neither, low <= amount <= high, within [min, max].
 */
static int get_range(struct cat_jr *ld, json_t *v, struct cat_price *p, double min, double max)
{
    json_t *lo = json_object_get(v, "low"), *hi = json_object_get(v, "high");
    int rc;
    if (!lo && !hi)
        return CAT_OK;
    if (!lo || !hi)
        return jr_fail_key(&ld->jr, lo ? "low" : "high", "a range needs both 'low' and 'high'");
    if ((rc = jr_get_num(&ld->jr, v, "low", 1, min, max, 0, &p->low)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "high", 1, min, max, 0, &p->high)) != CAT_OK)
        return rc;
    if (p->low > p->amount)
        return jr_fail_key(&ld->jr, "low", "low %g is above the value %g", p->low, p->amount);
    if (p->high < p->amount)
        return jr_fail_key(&ld->jr, "high", "high %g is below the value %g", p->high, p->amount);
    p->has_range = 1;
    return CAT_OK;
}

/*
 * A figure under key: a number in [min, max], or an object {value, source, as_of, estimate,
 * note, low, high}; absent: dflt (or an error when required). present is 1 when given.
 */
static int get_figure(struct cat_jr *ld, json_t *obj, const char *key, double min, double max,
                      int required, double dflt, cat_figure *f)
{
    static const char *const keys[] = {"value", "source", "as_of", "estimate",
                                       "note",  "low",    "high",  NULL};
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    memset(f, 0, sizeof *f);
    f->amount = dflt;
    if (!v || json_is_null(v)) {
        if (required)
            return jr_fail(&ld->jr, "missing required key '%s'", key);
        return CAT_OK;
    }
    if (json_is_number(v)) {
        rc = jr_get_num(&ld->jr, obj, key, 1, min, max, dflt, &f->amount);
        f->present = rc == CAT_OK;
        return rc;
    }
    n = jr_push_key(&ld->jr, key);
    if (!json_is_object(v))
        rc = jr_fail(&ld->jr,
                     "expected a number or an object {value, source, as_of, estimate, note, low, "
                     "high}, got %s",
                     jr_type_name(v));
    else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "value", 1, min, max, 0, &f->amount)) == CAT_OK &&
             (rc = get_provenance(ld, v, f, 0)) == CAT_OK)
        rc = get_range(ld, v, f, min, max);
    jr_pop(&ld->jr, n);
    return rc;
}

/* Grow an array by one zeroed element. */
/*
 * Make room for element n of an array of n elements (zeroed). The capacity doubles at every
 * power of two, so appending n elements copies O(n) in all (a realloc by one each time is
 * quadratic wherever realloc copies). Only for arrays grown by this function from NULL.
 */
static void *grow(void *arr, size_t n, size_t size)
{
    char *p = arr;
    if (n == 0 || (n & (n - 1)) == 0) {
        p = realloc(arr, (n ? 2 * n : 1) * size);
        if (!p)
            return NULL;
    }
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

static int get_id(struct cat_jr *ld, json_t *obj, enum section sec, char **out)
{
    static const char *const names[] = {"instance", "disk", "server", "config"};
    int rc = jr_get_str(&ld->jr, obj, "id", 1, out);
    char vis[160];
    if (rc != CAT_OK)
        return rc;
    if (textsafe_control_at(*out) >= 0) {
        size_t n = jr_push_key(&ld->jr, "id");
        rc = jr_fail(&ld->jr,
                     "an id with a control character, \"%s\": ids are printed to terminals and "
                     "reports; remove it",
                     textsafe_visible(*out, vis, sizeof vis));
        jr_pop(&ld->jr, n);
        free(*out);
        *out = NULL;
        return rc;
    }
    if (id_taken(ld->cat, sec, *out) || (ld->base && id_taken(ld->base, sec, *out))) {
        size_t n = jr_push_key(&ld->jr, "id");
        rc = jr_fail(&ld->jr,
                     "duplicate %s id \"%s\" (ids are unique within a section, across files)",
                     names[sec], *out);
        jr_pop(&ld->jr, n);
        free(*out);
        *out = NULL;
    }
    return rc;
}

static const struct cat_disk *lookup_disk(const struct cat_jr *ld, const char *id)
{
    const struct cat_disk *d = cat_find_disk(ld->cat, id);
    return d ? d : (ld->base ? cat_find_disk(ld->base, id) : NULL);
}

static int get_local_disk(struct cat_jr *ld, json_t *obj, char **disk, int *count, double *gib)
{
    static const char *const keys[] = {"disk", "count", "size_gib", NULL};
    json_t *v = json_object_get(obj, "local_disk");
    size_t n;
    int rc;
    if (!v || json_is_null(v))
        return CAT_OK;
    n = jr_push_key(&ld->jr, "local_disk");
    if (!json_is_object(v))
        rc =
            jr_fail(&ld->jr, "expected an object {disk, count, size_gib}, got %s", jr_type_name(v));
    else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK &&
             (rc = jr_get_str(&ld->jr, v, "disk", 1, disk)) == CAT_OK &&
             (rc = get_int(ld, v, "count", 0, 1, 64, 1, count)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "size_gib", 1, 1, 1e7, 0, gib)) == CAT_OK) {
        const struct cat_disk *d = lookup_disk(ld, *disk);
        size_t m = jr_push_key(&ld->jr, "disk");
        if (!d)
            rc = jr_fail(&ld->jr, "unknown disk type \"%s\" (not among $.disks)", *disk);
        else if (!d->local)
            rc = jr_fail(&ld->jr, "disk type \"%s\" is not a local disk (\"local\": true)", *disk);
        jr_pop(&ld->jr, m);
    }
    jr_pop(&ld->jr, n);
    return rc;
}

static int parse_instance_price(struct cat_jr *ld, json_t *v, struct cat_instance *in)
{
    static const char *const keys[] = {"pricing",  "unit", "amount", "currency", "source", "as_of",
                                       "estimate", "note", "low",    "high",     NULL};
    struct cat_instance_price *ip;
    char *s = NULL;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr,
                       "expected a price object {pricing, unit, amount, currency, source, "
                       "as_of}, got %s",
                       jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(in->prices = grow(in->prices, in->n_prices, sizeof *in->prices)))
        return jr_nomem(&ld->jr);
    ip = &in->prices[in->n_prices++];
    if ((rc = jr_get_str(&ld->jr, v, "pricing", 1, &s)) != CAT_OK)
        return rc;
    size_t n = jr_push_key(&ld->jr, "pricing");
    if (cat_pricing_parse(s, &ip->pricing) != 0)
        rc = jr_fail(&ld->jr,
                     "unknown pricing model \"%s\" (expected on-demand, reserved-1y, reserved-3y, "
                     "reserved-1y-all-upfront, reserved-3y-all-upfront, savings-plan-1y, "
                     "savings-plan-3y, spot, subscription-1m or subscription-1y)",
                     s);
    for (size_t i = 0; rc == CAT_OK && i + 1 < in->n_prices; i++)
        if (in->prices[i].pricing == ip->pricing)
            rc = jr_fail(&ld->jr, "a second \"%s\" price for the same instance", s);
    jr_pop(&ld->jr, n);
    free(s);
    s = NULL;
    if (rc != CAT_OK)
        return rc;
    if ((rc = jr_get_str(&ld->jr, v, "unit", 1, &s)) != CAT_OK)
        return rc;
    if (strcmp(s, "hour") == 0)
        ip->unit = CAT_UNIT_HOUR;
    else if (strcmp(s, "month") == 0)
        ip->unit = CAT_UNIT_MONTH;
    else if (strcmp(s, "year") == 0)
        ip->unit = CAT_UNIT_YEAR;
    else {
        n = jr_push_key(&ld->jr, "unit");
        rc = jr_fail(&ld->jr, "expected \"hour\", \"month\" or \"year\", got \"%s\"", s);
        jr_pop(&ld->jr, n);
    }
    free(s);
    if (rc != CAT_OK)
        return rc;
    if ((rc = jr_get_num(&ld->jr, v, "amount", 1, 0, 1e12, 0, &ip->price.amount)) != CAT_OK)
        return rc;
    if (ip->price.amount == 0) { /* throughput per cost of a free instance is infinite */
        n = jr_push_key(&ld->jr, "amount");
        rc = jr_fail(&ld->jr, "expected a price above 0 (a free instance cannot be ranked by "
                              "throughput per cost; leave the pricing model out instead)");
        jr_pop(&ld->jr, n);
        return rc;
    }
    if ((rc = get_provenance(ld, v, &ip->price, 1)) != CAT_OK)
        return rc;
    return get_range(ld, v, &ip->price, 0, 1e12);
}

static int parse_instance(struct cat_jr *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "provider",
                                       "region",
                                       "name",
                                       "description",
                                       "family",
                                       "processor",
                                       "clock_ghz",
                                       "vcpu",
                                       "memory_gib",
                                       "local_disk",
                                       "block_max_iops",
                                       "block_max_throughput_mb_s",
                                       "prices",
                                       NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_instance *in;
    json_t *prices;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr, "expected an instance object, got %s", jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(c->instances = grow(c->instances, c->n_instances, sizeof *c->instances)))
        return jr_nomem(&ld->jr);
    in = &c->instances[c->n_instances];
    if ((rc = get_id(ld, v, SEC_INSTANCE, &in->id)) != CAT_OK)
        return rc;
    c->n_instances++; /* from here on the entry owns what it holds */
    cat_index_add(c, CAT_SEC_INSTANCE);
    if ((rc = jr_get_str(&ld->jr, v, "provider", 1, &in->provider)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "region", 0, &in->region)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "name", 0, &in->name)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "description", 0, &in->description)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "family", 0, &in->family)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "processor", 0, &in->processor)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "clock_ghz", 0, 0.01, 100, 0, &in->clock_ghz)) != CAT_OK ||
        (rc = get_int(ld, v, "vcpu", 0, 1, 100000, 0, &in->vcpu)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "memory_gib", 0, 0.001, 1e9, 0, &in->memory_gib)) != CAT_OK ||
        (rc = get_local_disk(ld, v, &in->local_disk, &in->local_disk_count, &in->local_disk_gib)) !=
            CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "block_max_iops", 0, 0, 1e9, 0, &in->block_max_iops)) !=
            CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "block_max_throughput_mb_s", 0, 0, 1e9, 0,
                         &in->block_max_throughput_mb_s)) != CAT_OK)
        return rc;
    if (in->vcpu == 0 && ld->n_where < CAT_WHERE_MAX && ld->jr.text) {
        long line = 0, col = 0;
        char buf[600];
        jsonpos_find(ld->jr.text, ld->jr.len, ld->jr.path, &line, &col);
        snprintf(buf, sizeof buf, "%s:%ld:%ld", ld->jr.name,
                 line + (ld->jr.first_line > 0 ? ld->jr.first_line - 1 : 0), col);
        if (!(in->where = strdup(buf)))
            return jr_nomem(&ld->jr);
        ld->n_where++;
    }
    if (in->family && !*in->family) {
        size_t m = jr_push_key(&ld->jr, "family");
        rc = jr_fail(&ld->jr, "expected a non-empty family name such as \"c5\"");
        jr_pop(&ld->jr, m);
        return rc;
    }
    prices = json_object_get(v, "prices");
    if (!prices)
        return jr_fail(&ld->jr, "missing required key 'prices' (an array of price objects)");
    size_t n = jr_push_key(&ld->jr, "prices");
    if (!json_is_array(prices) || json_array_size(prices) == 0)
        rc = jr_fail(&ld->jr, "expected a non-empty array of price objects, got %s",
                     jr_type_name(prices));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(prices); i++) {
        size_t m = jr_push_index(&ld->jr, i);
        rc = parse_instance_price(ld, json_array_get(prices, i), in);
        jr_pop(&ld->jr, m);
    }
    jr_pop(&ld->jr, n);
    return rc;
}

static int get_rule(struct cat_jr *ld, json_t *obj, const char *key, struct cat_perf_rule *r)
{
    static const char *const keys[] = {"base", "per_gib", "floor", "cap", "cap_per_gib", NULL};
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    if (!v)
        return jr_fail(&ld->jr, "missing required key '%s' (a rule {base, per_gib, floor, cap})",
                       key);
    n = jr_push_key(&ld->jr, key);
    if (!json_is_object(v))
        rc = jr_fail(&ld->jr,
                     "expected a rule object {base, per_gib, floor, cap, cap_per_gib}, got %s",
                     jr_type_name(v));
    else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "base", 0, 0, 1e9, 0, &r->base)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "per_gib", 0, 0, 1e6, 0, &r->per_gib)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "floor", 0, 0, 1e9, 0, &r->floor)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "cap", 0, 0, 1e9, INFINITY, &r->cap)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "cap_per_gib", 0, 0, 1e6, INFINITY, &r->cap_per_gib)) ==
                 CAT_OK) {
        if (r->floor > r->cap)
            rc = jr_fail(&ld->jr, "floor %g is above cap %g", r->floor, r->cap);
    }
    jr_pop(&ld->jr, n);
    return rc;
}

static int parse_disk(struct cat_jr *ld, json_t *v)
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
                                       "latency_ms",
                                       NULL};
    static const char *const size_keys[] = {"min", "max", NULL};
    static const char *const piops_keys[] = {"max",
                                             "total_min",
                                             "total_max",
                                             "total_max_per_gib",
                                             "throughput_mb_s_per_iops",
                                             "throughput_mb_s_max",
                                             NULL};
    static const char *const ptp_keys[] = {"total_max", "total_max_per_iops", NULL};
    static const char *const dprice_keys[] = {"per_gib_month", "per_provisioned_iops_month",
                                              "per_provisioned_mb_s_month", NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_disk *d;
    json_t *o;
    size_t n;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr, "expected a disk object, got %s", jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(c->disks = grow(c->disks, c->n_disks, sizeof *c->disks)))
        return jr_nomem(&ld->jr);
    d = &c->disks[c->n_disks];
    if ((rc = get_id(ld, v, SEC_DISK, &d->id)) != CAT_OK)
        return rc;
    c->n_disks++;
    cat_index_add(c, CAT_SEC_DISK);
    if ((rc = jr_get_str(&ld->jr, v, "provider", 0, &d->provider)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "name", 0, &d->name)) != CAT_OK ||
        (rc = jr_get_bool(&ld->jr, v, "local", 0, 0, &d->local)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "source", 1, &d->source)) != CAT_OK ||
        (rc = get_figure(ld, v, "latency_ms", 0.001, 1000, 0, 0, &d->latency_ms)) != CAT_OK)
        return rc;
    o = json_object_get(v, "size_gib");
    if (!o)
        return jr_fail(&ld->jr, "missing required key 'size_gib' (an object {min, max})");
    n = jr_push_key(&ld->jr, "size_gib");
    if (!json_is_object(o))
        rc = jr_fail(&ld->jr, "expected an object {min, max}, got %s", jr_type_name(o));
    else if ((rc = jr_check_keys(&ld->jr, o, size_keys)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, o, "min", 1, 0, 1e9, 0, &d->min_gib)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, o, "max", 1, 0, 1e9, 0, &d->max_gib)) == CAT_OK &&
             d->max_gib < d->min_gib)
        rc = jr_fail(&ld->jr, "max %g is below min %g", d->max_gib, d->min_gib);
    jr_pop(&ld->jr, n);
    if (rc != CAT_OK || (rc = get_rule(ld, v, "iops", &d->iops)) != CAT_OK ||
        (rc = get_rule(ld, v, "throughput_mb_s", &d->throughput_mb_s)) != CAT_OK)
        return rc;
    d->prov_iops_max = d->prov_iops_total_max = d->prov_iops_total_per_gib = INFINITY;
    d->prov_iops_throughput_max = INFINITY;
    d->prov_tp_total_max = d->prov_tp_total_per_iops = INFINITY;
    if ((o = json_object_get(v, "provisioned_iops")) != NULL) {
        n = jr_push_key(&ld->jr, "provisioned_iops");
        d->has_prov_iops = 1;
        if (!json_is_object(o))
            rc = jr_fail(&ld->jr, "expected an object, got %s", jr_type_name(o));
        else if ((rc = jr_check_keys(&ld->jr, o, piops_keys)) == CAT_OK &&
                 (rc = jr_get_num(&ld->jr, o, "max", 0, 0, 1e9, INFINITY, &d->prov_iops_max)) ==
                     CAT_OK &&
                 (rc = jr_get_num(&ld->jr, o, "total_min", 0, 0, 1e9, 0,
                                  &d->prov_iops_total_min)) == CAT_OK &&
                 (rc = jr_get_num(&ld->jr, o, "total_max", 0, 0, 1e9, INFINITY,
                                  &d->prov_iops_total_max)) == CAT_OK &&
                 (rc = jr_get_num(&ld->jr, o, "total_max_per_gib", 0, 0, 1e6, INFINITY,
                                  &d->prov_iops_total_per_gib)) == CAT_OK &&
                 (rc = jr_get_num(&ld->jr, o, "throughput_mb_s_per_iops", 0, 0, 1e3, 0,
                                  &d->throughput_per_prov_iops)) == CAT_OK)
            rc = jr_get_num(&ld->jr, o, "throughput_mb_s_max", 0, 0, 1e9, INFINITY,
                            &d->prov_iops_throughput_max);
        jr_pop(&ld->jr, n);
        if (rc != CAT_OK)
            return rc;
    }
    if ((o = json_object_get(v, "provisioned_throughput_mb_s")) != NULL) {
        n = jr_push_key(&ld->jr, "provisioned_throughput_mb_s");
        d->has_prov_throughput = 1;
        if (!json_is_object(o))
            rc = jr_fail(&ld->jr, "expected an object, got %s", jr_type_name(o));
        else if ((rc = jr_check_keys(&ld->jr, o, ptp_keys)) == CAT_OK &&
                 (rc = jr_get_num(&ld->jr, o, "total_max", 0, 0, 1e9, INFINITY,
                                  &d->prov_tp_total_max)) == CAT_OK)
            rc = jr_get_num(&ld->jr, o, "total_max_per_iops", 0, 0, 1e3, INFINITY,
                            &d->prov_tp_total_per_iops);
        jr_pop(&ld->jr, n);
        if (rc != CAT_OK)
            return rc;
    }
    o = json_object_get(v, "prices");
    if (d->local) {
        if (o)
            return jr_fail(&ld->jr,
                           "a local disk is priced in its instance or server: remove 'prices'");
        return CAT_OK;
    }
    if (!o)
        return CAT_OK; /* performance only: configurations cannot use it */
    n = jr_push_key(&ld->jr, "prices");
    if (!json_is_object(o))
        rc = jr_fail(&ld->jr, "expected an object of price objects, got %s", jr_type_name(o));
    else if ((rc = jr_check_keys(&ld->jr, o, dprice_keys)) == CAT_OK &&
             (rc = get_price(ld, o, "per_gib_month", 1, &d->per_gib_month)) == CAT_OK &&
             (rc = get_price(ld, o, "per_provisioned_iops_month", d->has_prov_iops,
                             &d->per_prov_iops_month)) == CAT_OK)
        rc = get_price(ld, o, "per_provisioned_mb_s_month", d->has_prov_throughput,
                       &d->per_prov_mb_s_month);
    jr_pop(&ld->jr, n);
    return rc;
}

/* The power curve {points: [[load, watts], ...], source, as_of, estimate, note}. */
static int get_power_curve(struct cat_jr *ld, json_t *obj, struct cat_server *s)
{
    static const char *const keys[] = {"points", "source", "as_of", "estimate", "note", NULL};
    json_t *v = json_object_get(obj, "power_curve"), *pts;
    size_t n, m;
    int rc;
    if (!v || json_is_null(v))
        return CAT_OK;
    n = jr_push_key(&ld->jr, "power_curve");
    if (!json_is_object(v)) {
        rc = jr_fail(&ld->jr,
                     "expected an object {points: [[load, watts], ...], source, as_of}, "
                     "got %s",
                     jr_type_name(v));
        goto out;
    }
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK ||
        (rc = get_provenance(ld, v, &s->power_curve_src, 0)) != CAT_OK)
        goto out;
    pts = json_object_get(v, "points");
    if (!pts) {
        rc = jr_fail(&ld->jr, "missing required key 'points' (an array of [load, watts])");
        goto out;
    }
    m = jr_push_key(&ld->jr, "points");
    if (!json_is_array(pts) || json_array_size(pts) < 2 || json_array_size(pts) > CAT_POWER_POINTS)
        rc = jr_fail(&ld->jr, "expected 2 to %d points [load, watts], got %s", CAT_POWER_POINTS,
                     json_is_array(pts) ? "fewer or more" : jr_type_name(pts));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(pts); i++) {
        json_t *pt = json_array_get(pts, i);
        size_t k = jr_push_index(&ld->jr, i);
        json_t *a = json_array_get(pt, 0), *b = json_array_get(pt, 1);
        if (!json_is_array(pt) || json_array_size(pt) != 2 || !json_is_number(a) ||
            !json_is_number(b))
            rc = jr_fail(&ld->jr, "expected [load, watts] (two numbers)");
        else {
            double load = json_number_value(a), w = json_number_value(b);
            if (!(load >= 0 && load <= 1))
                rc = jr_fail(&ld->jr, "load %g is outside [0, 1]", load);
            else if (!(w >= 0 && w <= 1e6))
                rc = jr_fail(&ld->jr, "watts %g are outside [0, 1e6]", w);
            else if (i > 0 && !(load > s->power_load[i - 1]))
                rc = jr_fail(&ld->jr, "loads must rise from point to point (%g after %g)", load,
                             s->power_load[i - 1]);
            else {
                s->power_load[i] = load;
                s->power_w[i] = w;
                s->n_power = i + 1;
            }
        }
        jr_pop(&ld->jr, k);
    }
    if (rc == CAT_OK && (s->power_load[0] != 0 || s->power_load[s->n_power - 1] != 1))
        rc = jr_fail(&ld->jr, "the curve must run from load 0 (idle) to load 1 (full)");
    jr_pop(&ld->jr, m);
    s->has_power_curve = rc == CAT_OK;
out:
    jr_pop(&ld->jr, n);
    return rc;
}

static int parse_server(struct cat_jr *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "description",
                                       "vcpu",
                                       "memory_gib",
                                       "local_disk",
                                       "capital",
                                       "amortisation_years",
                                       "maintenance_rate",
                                       "licence",
                                       "licence_per",
                                       "cores",
                                       "power_kw",
                                       "power_curve",
                                       "cpu_load",
                                       "pue",
                                       "energy_per_kwh",
                                       "rack_per_month",
                                       "rack_units",
                                       "rack_units_per_rack",
                                       "colocation_per_kw_month",
                                       "network_per_port_month",
                                       "network_ports",
                                       "staff_per_month",
                                       "admin_cost_per_year",
                                       "servers_per_admin",
                                       "storage_per_gib",
                                       "storage_redundancy",
                                       "utilisation",
                                       NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_server *s;
    char *per = NULL;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr, "expected a server object, got %s", jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(c->servers = grow(c->servers, c->n_servers, sizeof *c->servers)))
        return jr_nomem(&ld->jr);
    s = &c->servers[c->n_servers];
    if ((rc = get_id(ld, v, SEC_SERVER, &s->id)) != CAT_OK)
        return rc;
    c->n_servers++;
    cat_index_add(c, CAT_SEC_SERVER);
    if ((rc = jr_get_str(&ld->jr, v, "description", 0, &s->description)) != CAT_OK ||
        (rc = get_int(ld, v, "vcpu", 1, 1, 100000, 0, &s->vcpu)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "memory_gib", 1, 0.001, 1e9, 0, &s->memory_gib)) != CAT_OK ||
        (rc = get_local_disk(ld, v, &s->local_disk, &s->local_disk_count, &s->local_disk_gib)) !=
            CAT_OK ||
        (rc = get_price(ld, v, "capital", 1, &s->capital)) != CAT_OK ||
        (rc = get_figure(ld, v, "amortisation_years", 0.1, 50, 0, 5, &s->amortisation_years)) !=
            CAT_OK ||
        (rc = get_figure(ld, v, "maintenance_rate", 0, 10, 0, 0.15, &s->maintenance_rate)) !=
            CAT_OK ||
        (rc = get_price(ld, v, "licence", 0, &s->licence)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "licence_per", 0, &per)) != CAT_OK)
        return rc;
    s->licence_per = CAT_LICENCE_SERVER;
    if (per) {
        size_t n = jr_push_key(&ld->jr, "licence_per");
        if (strcmp(per, "core") == 0)
            s->licence_per = CAT_LICENCE_CORE;
        else if (strcmp(per, "server") != 0)
            rc = jr_fail(&ld->jr, "expected \"server\" or \"core\", got \"%s\"", per);
        jr_pop(&ld->jr, n);
        free(per);
        if (rc != CAT_OK)
            return rc;
        if (!s->licence.present)
            return jr_fail_key(&ld->jr, "licence_per", "'licence_per' needs a 'licence' price");
    }
    if ((rc = get_int(ld, v, "cores", 0, 1, 100000, s->vcpu > 1 ? s->vcpu / 2 : 1, &s->cores)) !=
            CAT_OK ||
        (rc = get_power_curve(ld, v, s)) != CAT_OK)
        return rc;
    if (s->has_power_curve && json_object_get(v, "power_kw"))
        return jr_fail_key(&ld->jr, "power_kw", "give 'power_kw' or 'power_curve', not both");
    if (!s->has_power_curve &&
        (rc = get_figure(ld, v, "power_kw", 0, 1000, 1, 0, &s->power_kw)) != CAT_OK) {
        if (!json_object_get(v, "power_kw"))
            return jr_fail(&ld->jr, "missing required key 'power_kw' or 'power_curve' (the "
                                    "server's electrical draw)");
        return rc;
    }
    if (!s->has_power_curve && json_object_get(v, "cpu_load"))
        return jr_fail_key(&ld->jr, "cpu_load", "'cpu_load' reads a 'power_curve'");
    if ((rc = get_figure(ld, v, "cpu_load", 0, 1, 0, 0.5, &s->cpu_load)) != CAT_OK ||
        (rc = get_figure(ld, v, "pue", 1, 5, 0, 1.5, &s->pue)) != CAT_OK ||
        (rc = get_price(ld, v, "energy_per_kwh", 1, &s->energy_per_kwh)) != CAT_OK ||
        (rc = get_price(ld, v, "rack_per_month", 0, &s->rack_per_month)) != CAT_OK ||
        (rc = get_price(ld, v, "colocation_per_kw_month", 0, &s->colocation_per_kw_month)) !=
            CAT_OK)
        return rc;
    if (s->rack_per_month.present == s->colocation_per_kw_month.present)
        return jr_fail(&ld->jr, s->rack_per_month.present
                                    ? "give 'rack_per_month' or 'colocation_per_kw_month', not "
                                      "both"
                                    : "missing required key 'rack_per_month' or "
                                      "'colocation_per_kw_month' (the space the server takes)");
    if (s->rack_per_month.present) {
        if ((rc = jr_get_num(&ld->jr, v, "rack_units", 1, 0.1, 100, 0, &s->rack_units)) != CAT_OK ||
            (rc = jr_get_num(&ld->jr, v, "rack_units_per_rack", 0, 1, 100, 42,
                             &s->rack_units_per_rack)) != CAT_OK)
            return rc;
        if (s->rack_units > s->rack_units_per_rack)
            return jr_fail(&ld->jr, "rack_units %g exceed rack_units_per_rack %g", s->rack_units,
                           s->rack_units_per_rack);
    } else if (json_object_get(v, "rack_units") || json_object_get(v, "rack_units_per_rack")) {
        return jr_fail_key(&ld->jr,
                           json_object_get(v, "rack_units") ? "rack_units" : "rack_units_per_rack",
                           "rack units price space by 'rack_per_month'; colocation per kW "
                           "needs none");
    }
    if ((rc = get_price(ld, v, "network_per_port_month", 0, &s->network_per_port_month)) !=
            CAT_OK ||
        (rc = get_int(ld, v, "network_ports", 0, 1, 1000, 1, &s->network_ports)) != CAT_OK ||
        (rc = get_price(ld, v, "staff_per_month", 0, &s->staff_per_month)) != CAT_OK ||
        (rc = get_price(ld, v, "admin_cost_per_year", 0, &s->admin_cost_per_year)) != CAT_OK ||
        (rc = get_figure(ld, v, "servers_per_admin", 0, 1e6, 0, 0, &s->servers_per_admin)) !=
            CAT_OK ||
        (rc = get_price(ld, v, "storage_per_gib", 0, &s->storage_per_gib)) != CAT_OK ||
        (rc = get_figure(ld, v, "storage_redundancy", 1, 100, 0, 1, &s->storage_redundancy)) !=
            CAT_OK ||
        (rc = get_figure(ld, v, "utilisation", -1e12, 1e12, 0, 1, &s->utilisation)) != CAT_OK)
        return rc;
    if (json_object_get(v, "network_ports") && !s->network_per_port_month.present)
        return jr_fail_key(&ld->jr, "network_ports",
                           "'network_ports' needs a 'network_per_port_month' price");
    if (s->admin_cost_per_year.present != (json_object_get(v, "servers_per_admin") != NULL))
        return jr_fail(&ld->jr, "'admin_cost_per_year' and 'servers_per_admin' go together (staff "
                                "cost = admin cost / servers per admin)");
    if (s->admin_cost_per_year.present && s->staff_per_month.present)
        return jr_fail_key(&ld->jr, "staff_per_month",
                           "give 'staff_per_month' or 'admin_cost_per_year' with "
                           "'servers_per_admin', not both");
    if (s->servers_per_admin.present && !(s->servers_per_admin.amount > 0))
        return jr_fail_key(&ld->jr, "servers_per_admin",
                           "servers per administrator must be above 0, got %g",
                           s->servers_per_admin.amount);
    if (!(s->utilisation.amount > 0 && s->utilisation.amount <= 1))
        return jr_fail_key(&ld->jr, "utilisation",
                           "a utilisation (packing factor: the share of the server its slices "
                           "use) must be in (0, 1], got %g",
                           s->utilisation.amount);
    if (s->utilisation.has_range && !(s->utilisation.low > 0 && s->utilisation.high <= 1))
        return jr_fail_key(&ld->jr, "utilisation",
                           "the range of a utilisation must lie in (0, 1], got %g to %g",
                           s->utilisation.low, s->utilisation.high);
    if (json_object_get(v, "storage_redundancy") && !s->local_disk)
        return jr_fail_key(&ld->jr, "storage_redundancy",
                           "'storage_redundancy' needs a 'local_disk'");
    if (s->storage_per_gib.present && !s->local_disk)
        return jr_fail_key(&ld->jr, "storage_per_gib", "'storage_per_gib' needs a 'local_disk'");
    return CAT_OK;
}

static int parse_config(struct cat_jr *ld, json_t *v)
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
                                       "ha",
                                       "standby",
                                       "scale_out",
                                       NULL};
    static const char *const slice_keys[] = {"vcpu", "memory_gib", NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_config *cf;
    json_t *o;
    size_t n;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr, "expected a config object, got %s", jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(c->configs = grow(c->configs, c->n_configs, sizeof *c->configs)))
        return jr_nomem(&ld->jr);
    cf = &c->configs[c->n_configs];
    if ((rc = get_id(ld, v, SEC_CONFIG, &cf->id)) != CAT_OK)
        return rc;
    c->n_configs++;
    cat_index_add(c, CAT_SEC_CONFIG);
    if ((rc = jr_get_str(&ld->jr, v, "description", 0, &cf->description)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "instance", 0, &cf->instance)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "server", 0, &cf->server)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "disk", 0, &cf->disk)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "size_gib", 0, 0, 1e9, 0, &cf->size_gib)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "provisioned_iops", 0, 0, 1e9, 0, &cf->provisioned_iops)) !=
            CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "provisioned_throughput_mb_s", 0, 0, 1e9, 0,
                         &cf->provisioned_throughput_mb_s)) != CAT_OK ||
        (rc = get_int(ld, v, "nodes", 0, 1, 100000, 1, &cf->nodes)) != CAT_OK ||
        (rc = jr_get_bool(&ld->jr, v, "ha", 0, 0, &cf->ha)) != CAT_OK ||
        (rc = get_int(ld, v, "standby", 0, 1, 100, 1, &cf->standby)) != CAT_OK ||
        (rc = jr_get_bool(&ld->jr, v, "scale_out", 0, 0, &cf->scale_out)) != CAT_OK)
        return rc;
    if (!cf->instance == !cf->server)
        return jr_fail(&ld->jr, "a config names exactly one of 'instance' and 'server'");
    if (cf->instance) {
        const struct cat_instance *in = cat_find_instance(c, cf->instance);
        if (!in && ld->base)
            in = cat_find_instance(ld->base, cf->instance);
        if (!in) {
            n = jr_push_key(&ld->jr, "instance");
            rc = jr_fail(&ld->jr, "unknown instance \"%s\" (not among $.instances)", cf->instance);
            jr_pop(&ld->jr, n);
            return rc;
        }
    } else {
        const struct cat_server *s = cat_find_server(c, cf->server);
        if (!s && ld->base)
            s = cat_find_server(ld->base, cf->server);
        if (!s) {
            n = jr_push_key(&ld->jr, "server");
            rc = jr_fail(&ld->jr, "unknown server \"%s\" (not among $.servers)", cf->server);
            jr_pop(&ld->jr, n);
            return rc;
        }
        if ((o = json_object_get(v, "slice")) != NULL) {
            n = jr_push_key(&ld->jr, "slice");
            if (!json_is_object(o))
                rc = jr_fail(&ld->jr, "expected an object {vcpu, memory_gib}, got %s",
                             jr_type_name(o));
            else if ((rc = jr_check_keys(&ld->jr, o, slice_keys)) == CAT_OK &&
                     (rc = get_int(ld, o, "vcpu", 1, 1, s->vcpu, 0, &cf->slice_vcpu)) == CAT_OK)
                rc = jr_get_num(&ld->jr, o, "memory_gib", 1, 0.001, s->memory_gib, 0,
                                &cf->slice_memory_gib);
            jr_pop(&ld->jr, n);
            if (rc != CAT_OK)
                return rc;
        }
    }
    if (cf->instance && json_object_get(v, "slice"))
        return jr_fail(&ld->jr, "'slice' applies to a server, not to an instance");
    if (json_object_get(v, "standby") && !(cf->server && cf->ha))
        return jr_fail_key(&ld->jr, "standby",
                           "'standby' counts the standby servers of an HA server configuration "
                           "(\"ha\": true with \"server\"); an HA instance's price includes its "
                           "standby");
    if (!cf->ha)
        cf->standby = 0;
    else if (cf->instance)
        cf->standby = 0; /* in the price */
    if (cf->disk) {
        const struct cat_disk *d = lookup_disk(ld, cf->disk);
        n = jr_push_key(&ld->jr, "disk");
        if (!d) {
            rc = jr_fail(&ld->jr, "unknown disk type \"%s\" (not among $.disks)", cf->disk);
            jr_pop(&ld->jr, n);
            return rc;
        }
        if (!d->local && !d->per_gib_month.present)
            rc =
                jr_fail(&ld->jr, "disk type \"%s\" has no prices, so a configuration cannot use it",
                        cf->disk);
        jr_pop(&ld->jr, n);
        if (rc != CAT_OK)
            return rc;
        if (!json_object_get(v, "size_gib"))
            return jr_fail(&ld->jr,
                           "missing required key 'size_gib' (disk capacity per node, GiB)");
        n = jr_push_key(&ld->jr, "size_gib");
        if (cf->size_gib < d->min_gib || cf->size_gib > d->max_gib)
            rc = jr_fail(&ld->jr, "%g GiB is outside %s's capacity range [%g, %g] GiB",
                         cf->size_gib, d->id, d->min_gib, d->max_gib);
        jr_pop(&ld->jr, n);
        if (rc != CAT_OK)
            return rc;
        {
            struct cat_disk_perf perf;
            char msg[300];
            if (cat_disk_performance(d, cf->size_gib, cf->provisioned_iops,
                                     cf->provisioned_throughput_mb_s, &perf, msg,
                                     sizeof msg) != CAT_OK)
                return jr_fail(&ld->jr, "%s", msg);
        }
        if (d->local) {
            /* a local disk must be the machine's own, and fit in it */
            const char *host_disk = NULL, *host = cf->instance ? cf->instance : cf->server;
            double host_gib = 0, raw = 1;
            if (cf->instance) {
                const struct cat_instance *in = cat_find_instance(c, cf->instance);
                if (!in && ld->base)
                    in = cat_find_instance(ld->base, cf->instance);
                host_disk = in->local_disk;
                host_gib = in->local_disk_count * in->local_disk_gib;
            } else {
                const struct cat_server *sv = cat_find_server(c, cf->server);
                if (!sv && ld->base)
                    sv = cat_find_server(ld->base, cf->server);
                host_disk = sv->local_disk;
                host_gib = sv->local_disk_count * sv->local_disk_gib;
                raw = sv->storage_redundancy.amount;
            }
            n = jr_push_key(&ld->jr, "disk");
            if (!host_disk || strcmp(host_disk, d->id) != 0)
                rc = jr_fail(&ld->jr, "local disk \"%s\" is not the local disk of %s (%s)", d->id,
                             host, host_disk ? host_disk : "it has none");
            jr_pop(&ld->jr, n);
            if (rc != CAT_OK)
                return rc;
            if (cf->size_gib * raw > host_gib) {
                n = jr_push_key(&ld->jr, "size_gib");
                if (raw > 1)
                    rc = jr_fail(&ld->jr,
                                 "%g GiB x storage redundancy %g = %g raw GiB exceed the %g GiB "
                                 "of local disk %s has",
                                 cf->size_gib, raw, cf->size_gib * raw, host_gib, host);
                else
                    rc = jr_fail(&ld->jr, "%g GiB exceed the %g GiB of local disk %s has",
                                 cf->size_gib, host_gib, host);
                jr_pop(&ld->jr, n);
                return rc;
            }
        }
    } else if (cf->size_gib > 0 || cf->provisioned_iops > 0) {
        return jr_fail(&ld->jr, "size_gib and provisioned_iops need a 'disk'");
    }
    return CAT_OK;
}

static int parse_rates(struct cat_jr *ld, json_t *rates)
{
    static const char *const keys[] = {"rate", "source", "as_of", "estimate", "note", NULL};
    const char *code;
    json_t *v;
    int rc = CAT_OK;
    if (!json_is_object(rates))
        return jr_fail(&ld->jr, "expected an object of rates keyed by currency code, got %s",
                       jr_type_name(rates));
    json_object_foreach(rates, code, v)
    {
        struct cat_catalog *c = ld->cat;
        size_t n = jr_push_key(&ld->jr, code);
        struct cat_rate *r;
        if (!valid_currency(code))
            rc = jr_fail(&ld->jr, "expected a currency code such as \"CNY\" as the key");
        else if (strcmp(code, c->currency) == 0)
            rc = jr_fail(&ld->jr, "a rate for the catalog's own currency");
        else if (!json_is_object(v))
            rc = jr_fail(&ld->jr, "expected a rate object {rate, source, as_of}, got %s",
                         jr_type_name(v));
        else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK) {
            if (!(c->rates = grow(c->rates, c->n_rates, sizeof *c->rates))) {
                rc = jr_nomem(&ld->jr);
            } else {
                r = &c->rates[c->n_rates++];
                snprintf(r->code, sizeof r->code, "%s", code);
                snprintf(r->rate.currency, sizeof r->rate.currency, "%s", c->currency);
                if ((rc = jr_get_num(&ld->jr, v, "rate", 1, 1e-9, 1e9, 0, &r->rate.amount)) ==
                    CAT_OK)
                    rc = get_provenance(ld, v, &r->rate, 0);
            }
        }
        jr_pop(&ld->jr, n);
        if (rc != CAT_OK)
            return rc;
    }
    return CAT_OK;
}

static int parse_section(struct cat_jr *ld, json_t *root, const char *key,
                         int (*one)(struct cat_jr *, json_t *))
{
    json_t *arr = json_object_get(root, key);
    size_t n;
    int rc = CAT_OK;
    if (!arr)
        return CAT_OK;
    n = jr_push_key(&ld->jr, key);
    if (!json_is_array(arr))
        rc = jr_fail(&ld->jr, "expected an array, got %s", jr_type_name(arr));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(arr); i++) {
        size_t m = jr_push_index(&ld->jr, i);
        rc = one(ld, json_array_get(arr, i));
        jr_pop(&ld->jr, m);
    }
    jr_pop(&ld->jr, n);
    return rc;
}

int cat_load_document(struct cat_jr *ld, json_t *root)
{
    static const char *const keys[] = {"schema", "name",      "description", "currency", "as_of",
                                       "rates",  "instances", "disks",       "servers",  "configs",
                                       "notes",  "licence",   NULL};
    struct cat_catalog *c = ld->cat;
    char *s = NULL;
    json_t *v;
    int rc;
    if (!json_is_object(root))
        return jr_fail(&ld->jr, "expected a sizeup.catalog/1 object, got %s", jr_type_name(root));
    v = json_object_get(root, "schema");
    if (!v || !json_is_string(v) || strcmp(json_string_value(v), CAT_SCHEMA) != 0) {
        size_t n = v ? jr_push_key(&ld->jr, "schema") : ld->jr.path_len;
        jr_fail(&ld->jr, "expected \"schema\": \"%s\"", CAT_SCHEMA);
        jr_pop(&ld->jr, n);
        return CAT_ESCHEMA;
    }
    if ((rc = jr_check_keys(&ld->jr, root, keys)) != CAT_OK)
        return rc;
    if ((rc = jr_get_str(&ld->jr, root, "currency", 1, &s)) != CAT_OK)
        return rc;
    if (!valid_currency(s)) {
        size_t n = jr_push_key(&ld->jr, "currency");
        rc = jr_fail(&ld->jr, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"", s);
        jr_pop(&ld->jr, n);
        free(s);
        return rc;
    }
    snprintf(c->currency, sizeof c->currency, "%s", s);
    free(s);
    if (ld->base && ld->base->n_files > 0 && strcmp(ld->base->currency, c->currency) != 0) {
        size_t n = jr_push_key(&ld->jr, "currency");
        rc = jr_fail(&ld->jr, "currency %s differs from %s of the catalogs loaded before",
                     c->currency, ld->base->currency);
        jr_pop(&ld->jr, n);
        return rc;
    }
    if ((rc = jr_get_date(&ld->jr, root, "as_of", 1, &c->as_of)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, root, "name", 0, &c->name)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, root, "licence", 0, &c->licence)) != CAT_OK)
        return rc;
    if ((v = json_object_get(root, "description")) && !json_is_string(v)) {
        size_t n = jr_push_key(&ld->jr, "description");
        rc = jr_fail(&ld->jr, "expected a string, got %s", jr_type_name(v));
        jr_pop(&ld->jr, n);
        return rc;
    }
    if ((v = json_object_get(root, "rates")) != NULL) {
        size_t n = jr_push_key(&ld->jr, "rates");
        rc = parse_rates(ld, v);
        jr_pop(&ld->jr, n);
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
                    return jr_nomem(&ld->jr);
                r = &c->rates[c->n_rates++];
                memcpy(r->code, ld->base->rates[i].code, sizeof r->code);
                r->rate = ld->base->rates[i].rate;
                r->rate.source = strdup(r->rate.source);
                r->rate.as_of = strdup(r->rate.as_of);
                r->rate.note = r->rate.note ? strdup(r->rate.note) : NULL;
                if (!r->rate.source || !r->rate.as_of)
                    return jr_nomem(&ld->jr);
            } else if (x != ld->base->rates[i].rate.amount) {
                return jr_fail(&ld->jr,
                               "rate of %s differs from the one of the catalogs loaded before",
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
