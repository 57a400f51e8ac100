/* load.c - read and validate one sizeup.catalog/1 document (docs/catalog-format.md). */
#include "load.h"
#include "jsonpos.h"
#include "load_field.h"
#include "load_server.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)JR_EINVAL == (int)CAT_EINVAL && (int)JR_ENOMEM == (int)CAT_ENOMEM,
               "the reader's errors are returned as catalog errors");
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
    if (!(in->prices = cat_ld_grow(in->prices, in->n_prices, sizeof *in->prices)))
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
    if ((rc = cat_ld_provenance(ld, v, &ip->price, 1)) != CAT_OK)
        return rc;
    return cat_ld_range(ld, v, &ip->price, 0, 1e12);
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
    if (!(c->instances = cat_ld_grow(c->instances, c->n_instances, sizeof *c->instances)))
        return jr_nomem(&ld->jr);
    in = &c->instances[c->n_instances];
    if ((rc = cat_ld_id(ld, v, CAT_SEC_INSTANCE, &in->id)) != CAT_OK)
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
        (rc = cat_ld_int(ld, v, "vcpu", 0, 1, 100000, 0, &in->vcpu)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "memory_gib", 0, 0.001, 1e9, 0, &in->memory_gib)) != CAT_OK ||
        (rc = cat_ld_local_disk(ld, v, &in->local_disk, &in->local_disk_count,
                                &in->local_disk_gib)) != CAT_OK ||
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

/* The optional provisioned_iops and provisioned_throughput_mb_s limits of a disk (absent:
 * unlimited, INFINITY). */
static int get_provisioned(struct cat_jr *ld, json_t *v, struct cat_disk *d)
{
    static const char *const piops_keys[] = {"max",
                                             "total_min",
                                             "total_max",
                                             "total_max_per_gib",
                                             "throughput_mb_s_per_iops",
                                             "throughput_mb_s_max",
                                             NULL};
    static const char *const ptp_keys[] = {"total_max", "total_max_per_iops", NULL};
    json_t *o;
    size_t n;
    int rc = CAT_OK;
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
    return CAT_OK;
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
    if (!(c->disks = cat_ld_grow(c->disks, c->n_disks, sizeof *c->disks)))
        return jr_nomem(&ld->jr);
    d = &c->disks[c->n_disks];
    if ((rc = cat_ld_id(ld, v, CAT_SEC_DISK, &d->id)) != CAT_OK)
        return rc;
    c->n_disks++;
    cat_index_add(c, CAT_SEC_DISK);
    if ((rc = jr_get_str(&ld->jr, v, "provider", 0, &d->provider)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "name", 0, &d->name)) != CAT_OK ||
        (rc = jr_get_bool(&ld->jr, v, "local", 0, 0, &d->local)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "source", 1, &d->source)) != CAT_OK ||
        (rc = cat_ld_figure(ld, v, "latency_ms", 0.001, 1000, 0, 0, &d->latency_ms)) != CAT_OK)
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
    if ((rc = get_provisioned(ld, v, d)) != CAT_OK)
        return rc;
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
             (rc = cat_ld_price(ld, o, "per_gib_month", 1, &d->per_gib_month)) == CAT_OK &&
             (rc = cat_ld_price(ld, o, "per_provisioned_iops_month", d->has_prov_iops,
                                &d->per_prov_iops_month)) == CAT_OK)
        rc = cat_ld_price(ld, o, "per_provisioned_mb_s_month", d->has_prov_throughput,
                          &d->per_prov_mb_s_month);
    jr_pop(&ld->jr, n);
    return rc;
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
        if (!cat_ld_currency_ok(code))
            rc = jr_fail(&ld->jr, "expected a currency code such as \"CNY\" as the key");
        else if (strcmp(code, c->currency) == 0)
            rc = jr_fail(&ld->jr, "a rate for the catalog's own currency");
        else if (!json_is_object(v))
            rc = jr_fail(&ld->jr, "expected a rate object {rate, source, as_of}, got %s",
                         jr_type_name(v));
        else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK) {
            if (!(c->rates = cat_ld_grow(c->rates, c->n_rates, sizeof *c->rates))) {
                rc = jr_nomem(&ld->jr);
            } else {
                r = &c->rates[c->n_rates++];
                snprintf(r->code, sizeof r->code, "%s", code);
                snprintf(r->rate.currency, sizeof r->rate.currency, "%s", c->currency);
                if ((rc = jr_get_num(&ld->jr, v, "rate", 1, 1e-9, 1e9, 0, &r->rate.amount)) ==
                    CAT_OK)
                    rc = cat_ld_provenance(ld, v, &r->rate, 0);
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
    if (!cat_ld_currency_ok(s)) {
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
    if (c->licence && (!*c->licence || strpbrk(c->licence, "\r\n")))
        /* one line, printed after "licence of FILE: " */
        return jr_fail_key(&ld->jr, "licence",
                           "a licence is one line of text, e.g. \"CC BY-SA "
                           "4.0\"");
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
                if (!(c->rates = cat_ld_grow(c->rates, c->n_rates, sizeof *c->rates)))
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
        (rc = parse_section(ld, root, "servers", cat_ld_server)) != CAT_OK ||
        (rc = parse_section(ld, root, "configs", cat_ld_config)) != CAT_OK)
        return rc;
    return CAT_OK;
}
