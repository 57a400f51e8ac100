/* load.c - read and validate one sizeup.catalog/1 document (docs/catalog-format.md). */
#include "load.h"
#include "disk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        if ((rc = cat_jr_get_str(ld, obj, "currency", 1, &cur)) != CAT_OK)
            return rc;
        size_t n = cat_jr_push_key(ld, "currency");
        if (!cat_jr_valid_currency(cur))
            rc = cat_jr_fail(ld, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"",
                             cur);
        else if (!known_currency(ld, cur))
            rc = cat_jr_fail(
                ld, "currency %s is neither the catalog currency (%s) nor declared in $.rates", cur,
                ld->cat->currency);
        else
            snprintf(p->currency, sizeof p->currency, "%s", cur);
        cat_jr_pop(ld, n);
        free(cur);
        if (rc != CAT_OK)
            return rc;
    }
    if ((rc = cat_jr_get_str(ld, obj, "source", 1, &p->source)) != CAT_OK)
        return rc;
    if ((rc = cat_jr_get_date(ld, obj, "as_of", 1, &p->as_of)) != CAT_OK)
        return rc;
    if ((rc = cat_jr_get_bool(ld, obj, "estimate", 0, &p->estimate)) != CAT_OK)
        return rc;
    if ((rc = cat_jr_get_str(ld, obj, "note", 0, &p->note)) != CAT_OK)
        return rc;
    if (p->estimate && !p->note)
        return cat_jr_fail(ld, "an estimate needs a 'note' saying how it was made");
    p->present = 1;
    return CAT_OK;
}

static const char *const price_keys[] = {"amount",   "currency", "source", "as_of",
                                         "estimate", "note",     NULL};

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
            return cat_jr_fail(ld, "missing required key '%s' (a price object)", key);
        return CAT_OK;
    }
    n = cat_jr_push_key(ld, key);
    if (!json_is_object(v)) {
        rc = cat_jr_fail(ld, "expected a price object {amount, currency, source, as_of}, got %s",
                         cat_jr_type_name(v));
    } else if ((rc = cat_jr_check_keys(ld, v, price_keys)) == CAT_OK &&
               (rc = cat_jr_get_num(ld, v, "amount", 1, 0, 1e12, 0, &p->amount)) == CAT_OK) {
        rc = get_provenance(ld, v, p, 1);
    }
    cat_jr_pop(ld, n);
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

static int get_id(struct cat_jr *ld, json_t *obj, enum section sec, char **out)
{
    static const char *const names[] = {"instance", "disk", "server", "config"};
    int rc = cat_jr_get_str(ld, obj, "id", 1, out);
    if (rc != CAT_OK)
        return rc;
    if (id_taken(ld->cat, sec, *out) || (ld->base && id_taken(ld->base, sec, *out))) {
        size_t n = cat_jr_push_key(ld, "id");
        rc = cat_jr_fail(ld,
                         "duplicate %s id \"%s\" (ids are unique within a section, across files)",
                         names[sec], *out);
        cat_jr_pop(ld, n);
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
    n = cat_jr_push_key(ld, "local_disk");
    if (!json_is_object(v))
        rc = cat_jr_fail(ld, "expected an object {disk, count, size_gib}, got %s",
                         cat_jr_type_name(v));
    else if ((rc = cat_jr_check_keys(ld, v, keys)) == CAT_OK &&
             (rc = cat_jr_get_str(ld, v, "disk", 1, disk)) == CAT_OK &&
             (rc = cat_jr_get_int(ld, v, "count", 0, 1, 64, 1, count)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, v, "size_gib", 1, 1, 1e7, 0, gib)) == CAT_OK) {
        const struct cat_disk *d = lookup_disk(ld, *disk);
        size_t m = cat_jr_push_key(ld, "disk");
        if (!d)
            rc = cat_jr_fail(ld, "unknown disk type \"%s\" (not among $.disks)", *disk);
        else if (!d->local)
            rc = cat_jr_fail(ld, "disk type \"%s\" is not a local disk (\"local\": true)", *disk);
        cat_jr_pop(ld, m);
    }
    cat_jr_pop(ld, n);
    return rc;
}

static int parse_instance_price(struct cat_jr *ld, json_t *v, struct cat_instance *in)
{
    static const char *const keys[] = {"pricing", "unit",     "amount", "currency", "source",
                                       "as_of",   "estimate", "note",   NULL};
    struct cat_instance_price *ip;
    char *s = NULL;
    int rc;
    if (!json_is_object(v))
        return cat_jr_fail(ld,
                           "expected a price object {pricing, unit, amount, currency, source, "
                           "as_of}, got %s",
                           cat_jr_type_name(v));
    if ((rc = cat_jr_check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(in->prices = grow(in->prices, in->n_prices, sizeof *in->prices)))
        return cat_jr_nomem(ld);
    ip = &in->prices[in->n_prices++];
    if ((rc = cat_jr_get_str(ld, v, "pricing", 1, &s)) != CAT_OK)
        return rc;
    size_t n = cat_jr_push_key(ld, "pricing");
    if (cat_pricing_parse(s, &ip->pricing) != 0)
        rc = cat_jr_fail(
            ld,
            "unknown pricing model \"%s\" (expected on-demand, reserved-1y, reserved-3y, "
            "spot, subscription-1m or subscription-1y)",
            s);
    for (size_t i = 0; rc == CAT_OK && i + 1 < in->n_prices; i++)
        if (in->prices[i].pricing == ip->pricing)
            rc = cat_jr_fail(ld, "a second \"%s\" price for the same instance", s);
    cat_jr_pop(ld, n);
    free(s);
    s = NULL;
    if (rc != CAT_OK)
        return rc;
    if ((rc = cat_jr_get_str(ld, v, "unit", 1, &s)) != CAT_OK)
        return rc;
    if (strcmp(s, "hour") == 0)
        ip->unit = CAT_UNIT_HOUR;
    else if (strcmp(s, "month") == 0)
        ip->unit = CAT_UNIT_MONTH;
    else if (strcmp(s, "year") == 0)
        ip->unit = CAT_UNIT_YEAR;
    else {
        n = cat_jr_push_key(ld, "unit");
        rc = cat_jr_fail(ld, "expected \"hour\", \"month\" or \"year\", got \"%s\"", s);
        cat_jr_pop(ld, n);
    }
    free(s);
    if (rc != CAT_OK)
        return rc;
    if ((rc = cat_jr_get_num(ld, v, "amount", 1, 0, 1e12, 0, &ip->price.amount)) != CAT_OK)
        return rc;
    return get_provenance(ld, v, &ip->price, 1);
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
        return cat_jr_fail(ld, "expected an instance object, got %s", cat_jr_type_name(v));
    if ((rc = cat_jr_check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->instances = grow(c->instances, c->n_instances, sizeof *c->instances)))
        return cat_jr_nomem(ld);
    in = &c->instances[c->n_instances];
    if ((rc = get_id(ld, v, SEC_INSTANCE, &in->id)) != CAT_OK)
        return rc;
    c->n_instances++; /* from here on the entry owns what it holds */
    if ((rc = cat_jr_get_str(ld, v, "provider", 1, &in->provider)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "region", 0, &in->region)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "name", 0, &in->name)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "description", 0, &in->description)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "family", 0, &in->family)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "processor", 0, &in->processor)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "clock_ghz", 0, 0.01, 100, 0, &in->clock_ghz)) != CAT_OK ||
        (rc = cat_jr_get_int(ld, v, "vcpu", 0, 1, 100000, 0, &in->vcpu)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "memory_gib", 0, 0.001, 1e9, 0, &in->memory_gib)) != CAT_OK ||
        (rc = get_local_disk(ld, v, &in->local_disk, &in->local_disk_count, &in->local_disk_gib)) !=
            CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "block_max_iops", 0, 0, 1e9, 0, &in->block_max_iops)) !=
            CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "block_max_throughput_mb_s", 0, 0, 1e9, 0,
                             &in->block_max_throughput_mb_s)) != CAT_OK)
        return rc;
    if (in->family && !*in->family) {
        size_t m = cat_jr_push_key(ld, "family");
        rc = cat_jr_fail(ld, "expected a non-empty family name such as \"c5\"");
        cat_jr_pop(ld, m);
        return rc;
    }
    prices = json_object_get(v, "prices");
    if (!prices)
        return cat_jr_fail(ld, "missing required key 'prices' (an array of price objects)");
    size_t n = cat_jr_push_key(ld, "prices");
    if (!json_is_array(prices) || json_array_size(prices) == 0)
        rc = cat_jr_fail(ld, "expected a non-empty array of price objects, got %s",
                         cat_jr_type_name(prices));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(prices); i++) {
        size_t m = cat_jr_push_index(ld, i);
        rc = parse_instance_price(ld, json_array_get(prices, i), in);
        cat_jr_pop(ld, m);
    }
    cat_jr_pop(ld, n);
    return rc;
}

static int get_rule(struct cat_jr *ld, json_t *obj, const char *key, struct cat_perf_rule *r)
{
    static const char *const keys[] = {"base", "per_gib", "floor", "cap", "cap_per_gib", NULL};
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    if (!v)
        return cat_jr_fail(ld, "missing required key '%s' (a rule {base, per_gib, floor, cap})",
                           key);
    n = cat_jr_push_key(ld, key);
    if (!json_is_object(v))
        rc = cat_jr_fail(ld,
                         "expected a rule object {base, per_gib, floor, cap, cap_per_gib}, got %s",
                         cat_jr_type_name(v));
    else if ((rc = cat_jr_check_keys(ld, v, keys)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, v, "base", 0, 0, 1e9, 0, &r->base)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, v, "per_gib", 0, 0, 1e6, 0, &r->per_gib)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, v, "floor", 0, 0, 1e9, 0, &r->floor)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, v, "cap", 0, 0, 1e9, INFINITY, &r->cap)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, v, "cap_per_gib", 0, 0, 1e6, INFINITY, &r->cap_per_gib)) ==
                 CAT_OK) {
        if (r->floor > r->cap)
            rc = cat_jr_fail(ld, "floor %g is above cap %g", r->floor, r->cap);
    }
    cat_jr_pop(ld, n);
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
        return cat_jr_fail(ld, "expected a disk object, got %s", cat_jr_type_name(v));
    if ((rc = cat_jr_check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->disks = grow(c->disks, c->n_disks, sizeof *c->disks)))
        return cat_jr_nomem(ld);
    d = &c->disks[c->n_disks];
    if ((rc = get_id(ld, v, SEC_DISK, &d->id)) != CAT_OK)
        return rc;
    c->n_disks++;
    if ((rc = cat_jr_get_str(ld, v, "provider", 0, &d->provider)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "name", 0, &d->name)) != CAT_OK ||
        (rc = cat_jr_get_bool(ld, v, "local", 0, &d->local)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "source", 1, &d->source)) != CAT_OK)
        return rc;
    o = json_object_get(v, "size_gib");
    if (!o)
        return cat_jr_fail(ld, "missing required key 'size_gib' (an object {min, max})");
    n = cat_jr_push_key(ld, "size_gib");
    if (!json_is_object(o))
        rc = cat_jr_fail(ld, "expected an object {min, max}, got %s", cat_jr_type_name(o));
    else if ((rc = cat_jr_check_keys(ld, o, size_keys)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, o, "min", 1, 0, 1e9, 0, &d->min_gib)) == CAT_OK &&
             (rc = cat_jr_get_num(ld, o, "max", 1, 0, 1e9, 0, &d->max_gib)) == CAT_OK &&
             d->max_gib < d->min_gib)
        rc = cat_jr_fail(ld, "max %g is below min %g", d->max_gib, d->min_gib);
    cat_jr_pop(ld, n);
    if (rc != CAT_OK || (rc = get_rule(ld, v, "iops", &d->iops)) != CAT_OK ||
        (rc = get_rule(ld, v, "throughput_mb_s", &d->throughput_mb_s)) != CAT_OK)
        return rc;
    d->prov_iops_max = d->prov_iops_total_max = d->prov_iops_total_per_gib = INFINITY;
    d->prov_iops_throughput_max = INFINITY;
    d->prov_tp_total_max = d->prov_tp_total_per_iops = INFINITY;
    if ((o = json_object_get(v, "provisioned_iops")) != NULL) {
        n = cat_jr_push_key(ld, "provisioned_iops");
        d->has_prov_iops = 1;
        if (!json_is_object(o))
            rc = cat_jr_fail(ld, "expected an object, got %s", cat_jr_type_name(o));
        else if ((rc = cat_jr_check_keys(ld, o, piops_keys)) == CAT_OK &&
                 (rc = cat_jr_get_num(ld, o, "max", 0, 0, 1e9, INFINITY, &d->prov_iops_max)) ==
                     CAT_OK &&
                 (rc = cat_jr_get_num(ld, o, "total_min", 0, 0, 1e9, 0, &d->prov_iops_total_min)) ==
                     CAT_OK &&
                 (rc = cat_jr_get_num(ld, o, "total_max", 0, 0, 1e9, INFINITY,
                                      &d->prov_iops_total_max)) == CAT_OK &&
                 (rc = cat_jr_get_num(ld, o, "total_max_per_gib", 0, 0, 1e6, INFINITY,
                                      &d->prov_iops_total_per_gib)) == CAT_OK &&
                 (rc = cat_jr_get_num(ld, o, "throughput_mb_s_per_iops", 0, 0, 1e3, 0,
                                      &d->throughput_per_prov_iops)) == CAT_OK)
            rc = cat_jr_get_num(ld, o, "throughput_mb_s_max", 0, 0, 1e9, INFINITY,
                                &d->prov_iops_throughput_max);
        cat_jr_pop(ld, n);
        if (rc != CAT_OK)
            return rc;
    }
    if ((o = json_object_get(v, "provisioned_throughput_mb_s")) != NULL) {
        n = cat_jr_push_key(ld, "provisioned_throughput_mb_s");
        d->has_prov_throughput = 1;
        if (!json_is_object(o))
            rc = cat_jr_fail(ld, "expected an object, got %s", cat_jr_type_name(o));
        else if ((rc = cat_jr_check_keys(ld, o, ptp_keys)) == CAT_OK &&
                 (rc = cat_jr_get_num(ld, o, "total_max", 0, 0, 1e9, INFINITY,
                                      &d->prov_tp_total_max)) == CAT_OK)
            rc = cat_jr_get_num(ld, o, "total_max_per_iops", 0, 0, 1e3, INFINITY,
                                &d->prov_tp_total_per_iops);
        cat_jr_pop(ld, n);
        if (rc != CAT_OK)
            return rc;
    }
    o = json_object_get(v, "prices");
    if (d->local) {
        if (o)
            return cat_jr_fail(ld,
                               "a local disk is priced in its instance or server: remove 'prices'");
        return CAT_OK;
    }
    if (!o)
        return CAT_OK; /* performance only: configurations cannot use it */
    n = cat_jr_push_key(ld, "prices");
    if (!json_is_object(o))
        rc = cat_jr_fail(ld, "expected an object of price objects, got %s", cat_jr_type_name(o));
    else if ((rc = cat_jr_check_keys(ld, o, dprice_keys)) == CAT_OK &&
             (rc = get_price(ld, o, "per_gib_month", 1, &d->per_gib_month)) == CAT_OK &&
             (rc = get_price(ld, o, "per_provisioned_iops_month", d->has_prov_iops,
                             &d->per_prov_iops_month)) == CAT_OK)
        rc = get_price(ld, o, "per_provisioned_mb_s_month", d->has_prov_throughput,
                       &d->per_prov_mb_s_month);
    cat_jr_pop(ld, n);
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
        return cat_jr_fail(ld, "expected a server object, got %s", cat_jr_type_name(v));
    if ((rc = cat_jr_check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->servers = grow(c->servers, c->n_servers, sizeof *c->servers)))
        return cat_jr_nomem(ld);
    s = &c->servers[c->n_servers];
    if ((rc = get_id(ld, v, SEC_SERVER, &s->id)) != CAT_OK)
        return rc;
    c->n_servers++;
    if ((rc = cat_jr_get_str(ld, v, "description", 0, &s->description)) != CAT_OK ||
        (rc = cat_jr_get_int(ld, v, "vcpu", 1, 1, 100000, 0, &s->vcpu)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "memory_gib", 1, 0.001, 1e9, 0, &s->memory_gib)) != CAT_OK ||
        (rc = get_local_disk(ld, v, &s->local_disk, &s->local_disk_count, &s->local_disk_gib)) !=
            CAT_OK ||
        (rc = get_price(ld, v, "capital", 1, &s->capital)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "amortisation_years", 0, 0.1, 50, 5, &s->amortisation_years)) !=
            CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "maintenance_rate", 0, 0, 10, 0.15, &s->maintenance_rate)) !=
            CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "power_kw", 1, 0, 1000, 0, &s->power_kw)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "pue", 0, 1, 5, 1.5, &s->pue)) != CAT_OK ||
        (rc = get_price(ld, v, "energy_per_kwh", 1, &s->energy_per_kwh)) != CAT_OK ||
        (rc = get_price(ld, v, "rack_per_month", 1, &s->rack_per_month)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "rack_units", 1, 0.1, 100, 0, &s->rack_units)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "rack_units_per_rack", 0, 1, 100, 42,
                             &s->rack_units_per_rack)) != CAT_OK ||
        (rc = get_price(ld, v, "staff_per_month", 0, &s->staff_per_month)) != CAT_OK)
        return rc;
    if (s->rack_units > s->rack_units_per_rack)
        return cat_jr_fail(ld, "rack_units %g exceed rack_units_per_rack %g", s->rack_units,
                           s->rack_units_per_rack);
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
                                       NULL};
    static const char *const slice_keys[] = {"vcpu", "memory_gib", NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_config *cf;
    json_t *o;
    size_t n;
    int rc;
    if (!json_is_object(v))
        return cat_jr_fail(ld, "expected a config object, got %s", cat_jr_type_name(v));
    if ((rc = cat_jr_check_keys(ld, v, keys)) != CAT_OK)
        return rc;
    if (!(c->configs = grow(c->configs, c->n_configs, sizeof *c->configs)))
        return cat_jr_nomem(ld);
    cf = &c->configs[c->n_configs];
    if ((rc = get_id(ld, v, SEC_CONFIG, &cf->id)) != CAT_OK)
        return rc;
    c->n_configs++;
    if ((rc = cat_jr_get_str(ld, v, "description", 0, &cf->description)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "instance", 0, &cf->instance)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "server", 0, &cf->server)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, v, "disk", 0, &cf->disk)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "size_gib", 0, 0, 1e9, 0, &cf->size_gib)) != CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "provisioned_iops", 0, 0, 1e9, 0, &cf->provisioned_iops)) !=
            CAT_OK ||
        (rc = cat_jr_get_num(ld, v, "provisioned_throughput_mb_s", 0, 0, 1e9, 0,
                             &cf->provisioned_throughput_mb_s)) != CAT_OK ||
        (rc = cat_jr_get_int(ld, v, "nodes", 0, 1, 100000, 1, &cf->nodes)) != CAT_OK)
        return rc;
    if (!cf->instance == !cf->server)
        return cat_jr_fail(ld, "a config names exactly one of 'instance' and 'server'");
    if (cf->instance) {
        const struct cat_instance *in = cat_find_instance(c, cf->instance);
        if (!in && ld->base)
            in = cat_find_instance(ld->base, cf->instance);
        if (!in) {
            n = cat_jr_push_key(ld, "instance");
            rc = cat_jr_fail(ld, "unknown instance \"%s\" (not among $.instances)", cf->instance);
            cat_jr_pop(ld, n);
            return rc;
        }
    } else {
        const struct cat_server *s = cat_find_server(c, cf->server);
        if (!s && ld->base)
            s = cat_find_server(ld->base, cf->server);
        if (!s) {
            n = cat_jr_push_key(ld, "server");
            rc = cat_jr_fail(ld, "unknown server \"%s\" (not among $.servers)", cf->server);
            cat_jr_pop(ld, n);
            return rc;
        }
        if ((o = json_object_get(v, "slice")) != NULL) {
            n = cat_jr_push_key(ld, "slice");
            if (!json_is_object(o))
                rc = cat_jr_fail(ld, "expected an object {vcpu, memory_gib}, got %s",
                                 cat_jr_type_name(o));
            else if ((rc = cat_jr_check_keys(ld, o, slice_keys)) == CAT_OK &&
                     (rc = cat_jr_get_int(ld, o, "vcpu", 1, 1, s->vcpu, 0, &cf->slice_vcpu)) ==
                         CAT_OK)
                rc = cat_jr_get_num(ld, o, "memory_gib", 1, 0.001, s->memory_gib, 0,
                                    &cf->slice_memory_gib);
            cat_jr_pop(ld, n);
            if (rc != CAT_OK)
                return rc;
        }
    }
    if (cf->instance && json_object_get(v, "slice"))
        return cat_jr_fail(ld, "'slice' applies to a server, not to an instance");
    if (cf->disk) {
        const struct cat_disk *d = lookup_disk(ld, cf->disk);
        n = cat_jr_push_key(ld, "disk");
        if (!d) {
            rc = cat_jr_fail(ld, "unknown disk type \"%s\" (not among $.disks)", cf->disk);
            cat_jr_pop(ld, n);
            return rc;
        }
        if (!d->local && !d->per_gib_month.present)
            rc = cat_jr_fail(ld, "disk type \"%s\" has no prices, so a configuration cannot use it",
                             cf->disk);
        cat_jr_pop(ld, n);
        if (rc != CAT_OK)
            return rc;
        if (!json_object_get(v, "size_gib"))
            return cat_jr_fail(ld, "missing required key 'size_gib' (disk capacity per node, GiB)");
        n = cat_jr_push_key(ld, "size_gib");
        if (cf->size_gib < d->min_gib || cf->size_gib > d->max_gib)
            rc = cat_jr_fail(ld, "%g GiB is outside %s's capacity range [%g, %g] GiB", cf->size_gib,
                             d->id, d->min_gib, d->max_gib);
        cat_jr_pop(ld, n);
        if (rc != CAT_OK)
            return rc;
        {
            struct cat_disk_perf perf;
            char msg[300];
            if (cat_disk_performance(d, cf->size_gib, cf->provisioned_iops,
                                     cf->provisioned_throughput_mb_s, &perf, msg,
                                     sizeof msg) != CAT_OK)
                return cat_jr_fail(ld, "%s", msg);
        }
        if (d->local) {
            /* a local disk must be the machine's own, and fit in it */
            const char *host_disk = NULL, *host = cf->instance ? cf->instance : cf->server;
            double host_gib = 0;
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
            }
            n = cat_jr_push_key(ld, "disk");
            if (!host_disk || strcmp(host_disk, d->id) != 0)
                rc = cat_jr_fail(ld, "local disk \"%s\" is not the local disk of %s (%s)", d->id,
                                 host, host_disk ? host_disk : "it has none");
            cat_jr_pop(ld, n);
            if (rc != CAT_OK)
                return rc;
            if (cf->size_gib > host_gib) {
                n = cat_jr_push_key(ld, "size_gib");
                rc = cat_jr_fail(ld, "%g GiB exceed the %g GiB of local disk %s has", cf->size_gib,
                                 host_gib, host);
                cat_jr_pop(ld, n);
                return rc;
            }
        }
    } else if (cf->size_gib > 0 || cf->provisioned_iops > 0) {
        return cat_jr_fail(ld, "size_gib and provisioned_iops need a 'disk'");
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
        return cat_jr_fail(ld, "expected an object of rates keyed by currency code, got %s",
                           cat_jr_type_name(rates));
    json_object_foreach(rates, code, v)
    {
        struct cat_catalog *c = ld->cat;
        size_t n = cat_jr_push_key(ld, code);
        struct cat_rate *r;
        if (!cat_jr_valid_currency(code))
            rc = cat_jr_fail(ld, "expected a currency code such as \"CNY\" as the key");
        else if (strcmp(code, c->currency) == 0)
            rc = cat_jr_fail(ld, "a rate for the catalog's own currency");
        else if (!json_is_object(v))
            rc = cat_jr_fail(ld, "expected a rate object {rate, source, as_of}, got %s",
                             cat_jr_type_name(v));
        else if ((rc = cat_jr_check_keys(ld, v, keys)) == CAT_OK) {
            if (!(c->rates = grow(c->rates, c->n_rates, sizeof *c->rates))) {
                rc = cat_jr_nomem(ld);
            } else {
                r = &c->rates[c->n_rates++];
                snprintf(r->code, sizeof r->code, "%s", code);
                snprintf(r->rate.currency, sizeof r->rate.currency, "%s", c->currency);
                if ((rc = cat_jr_get_num(ld, v, "rate", 1, 1e-9, 1e9, 0, &r->rate.amount)) ==
                    CAT_OK)
                    rc = get_provenance(ld, v, &r->rate, 0);
            }
        }
        cat_jr_pop(ld, n);
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
    n = cat_jr_push_key(ld, key);
    if (!json_is_array(arr))
        rc = cat_jr_fail(ld, "expected an array, got %s", cat_jr_type_name(arr));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(arr); i++) {
        size_t m = cat_jr_push_index(ld, i);
        rc = one(ld, json_array_get(arr, i));
        cat_jr_pop(ld, m);
    }
    cat_jr_pop(ld, n);
    return rc;
}

int cat_load_document(struct cat_jr *ld, json_t *root)
{
    static const char *const keys[] = {"schema",  "name",    "description", "currency",
                                       "as_of",   "rates",   "instances",   "disks",
                                       "servers", "configs", "notes",       NULL};
    struct cat_catalog *c = ld->cat;
    char *s = NULL;
    json_t *v;
    int rc;
    if (!json_is_object(root))
        return cat_jr_fail(ld, "expected a sizeup.catalog/1 object, got %s",
                           cat_jr_type_name(root));
    v = json_object_get(root, "schema");
    if (!v || !json_is_string(v) || strcmp(json_string_value(v), CAT_SCHEMA) != 0) {
        size_t n = v ? cat_jr_push_key(ld, "schema") : strlen(ld->path);
        cat_jr_fail(ld, "expected \"schema\": \"%s\"", CAT_SCHEMA);
        cat_jr_pop(ld, n);
        return CAT_ESCHEMA;
    }
    if ((rc = cat_jr_check_keys(ld, root, keys)) != CAT_OK)
        return rc;
    if ((rc = cat_jr_get_str(ld, root, "currency", 1, &s)) != CAT_OK)
        return rc;
    if (!cat_jr_valid_currency(s)) {
        size_t n = cat_jr_push_key(ld, "currency");
        rc = cat_jr_fail(ld, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"", s);
        cat_jr_pop(ld, n);
        free(s);
        return rc;
    }
    snprintf(c->currency, sizeof c->currency, "%s", s);
    free(s);
    if (ld->base && ld->base->n_files > 0 && strcmp(ld->base->currency, c->currency) != 0) {
        size_t n = cat_jr_push_key(ld, "currency");
        rc = cat_jr_fail(ld, "currency %s differs from %s of the catalogs loaded before",
                         c->currency, ld->base->currency);
        cat_jr_pop(ld, n);
        return rc;
    }
    if ((rc = cat_jr_get_date(ld, root, "as_of", 1, &c->as_of)) != CAT_OK ||
        (rc = cat_jr_get_str(ld, root, "name", 0, &c->name)) != CAT_OK)
        return rc;
    if ((v = json_object_get(root, "description")) && !json_is_string(v)) {
        size_t n = cat_jr_push_key(ld, "description");
        rc = cat_jr_fail(ld, "expected a string, got %s", cat_jr_type_name(v));
        cat_jr_pop(ld, n);
        return rc;
    }
    if ((v = json_object_get(root, "rates")) != NULL) {
        size_t n = cat_jr_push_key(ld, "rates");
        rc = parse_rates(ld, v);
        cat_jr_pop(ld, n);
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
                    return cat_jr_nomem(ld);
                r = &c->rates[c->n_rates++];
                memcpy(r->code, ld->base->rates[i].code, sizeof r->code);
                r->rate = ld->base->rates[i].rate;
                r->rate.source = strdup(r->rate.source);
                r->rate.as_of = strdup(r->rate.as_of);
                r->rate.note = r->rate.note ? strdup(r->rate.note) : NULL;
                if (!r->rate.source || !r->rate.as_of)
                    return cat_jr_nomem(ld);
            } else if (x != ld->base->rates[i].rate.amount) {
                return cat_jr_fail(ld,
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
