/* convert.c - ec2instances.info and Azure Retail Prices -> sizeup.catalog/1 (see convert.h). */
#include "convert.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PRICINGS                                                                           \
    ((1u << CAT_PRICING_ON_DEMAND) | (1u << CAT_PRICING_RESERVED_1Y) |                             \
     (1u << CAT_PRICING_RESERVED_3Y))

void cat_convert_options_default(struct cat_convert_options *o)
{
    memset(o, 0, sizeof *o);
    o->pricings = DEFAULT_PRICINGS;
    o->offering = "Standard";
    o->purchase = "noUpfront";
}

json_t *cat_convert_new_catalog(const char *currency, const struct cat_convert_options *o)
{
    json_t *c = json_object();
    if (!c)
        return NULL;
    json_object_set_new(c, "schema", json_string(CAT_SCHEMA));
    if (o->name)
        json_object_set_new(c, "name", json_string(o->name));
    json_object_set_new(c, "currency", json_string(currency));
    json_object_set_new(c, "as_of", json_string(o->as_of ? o->as_of : "1970-01-01"));
    json_object_set_new(c, "disks", json_array());
    json_object_set_new(c, "instances", json_array());
    return c;
}

/* A price from a string or a number; -1 when it is not a finite number >= 0. */
static double parse_price(json_t *v)
{
    if (json_is_number(v)) {
        double x = json_number_value(v);
        return isfinite(x) && x >= 0 ? x : -1;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end = NULL;
        double x;
        errno = 0;
        x = strtod(s, &end);
        if (end == s || *end != '\0' || errno != 0 || !isfinite(x) || x < 0)
            return -1;
        return x;
    }
    return -1;
}

json_t *cat_convert_find_id(json_t *arr, const char *id)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v)
    {
        const char *s = json_string_value(json_object_get(v, "id"));
        if (s && strcmp(s, id) == 0)
            return v;
    }
    return NULL;
}

static int has_pricing(json_t *inst, const char *pricing)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(inst, "prices"), i, p)
    {
        const char *s = json_string_value(json_object_get(p, "pricing"));
        if (s && strcmp(s, pricing) == 0)
            return 1;
    }
    return 0;
}

json_t *cat_convert_price(enum cat_pricing pricing, const char *unit, double amount,
                          const char *currency, const char *source, const char *as_of,
                          const char *note)
{
    json_t *p = json_object();
    if (!p)
        return NULL;
    if (pricing != CAT_PRICING_COUNT)
        json_object_set_new(p, "pricing", json_string(cat_pricing_name(pricing)));
    if (unit)
        json_object_set_new(p, "unit", json_string(unit));
    json_object_set_new(p, "amount", json_real(amount));
    json_object_set_new(p, "currency", json_string(currency));
    json_object_set_new(p, "source", json_string(source));
    json_object_set_new(p, "as_of", json_string(as_of));
    if (note)
        json_object_set_new(p, "note", json_string(note));
    return p;
}

static int add_price(json_t *prices, enum cat_pricing pricing, double amount, const char *currency,
                     const char *source, const char *as_of, const char *note)
{
    json_t *p = cat_convert_price(pricing, "hour", amount, currency, source, as_of, note);
    return p ? json_array_append_new(prices, p) : -1;
}

/* Local instance-store disk of converted AWS instances (rule: docs/reference/catalogs.md section
 * 3). */
static int ensure_instance_store(json_t *catalog)
{
    json_t *disks = json_object_get(catalog, "disks");
    json_t *d;
    if (cat_convert_find_id(disks, "aws-instance-store"))
        return 0;
    d = json_pack(
        "{s:s, s:s, s:s, s:b, s:{s:i, s:i}, s:{s:i, s:i}, s:{s:i, s:i}, s:s}", "id",
        "aws-instance-store", "provider", "aws", "name", "EC2 instance store (SSD)", "local", 1,
        "size_gib", "min", 1, "max", 65536, "iops", "per_gib", 165, "cap", 240000,
        "throughput_mb_s", "base", 200, "cap", 200, "source",
        "typical local NVMe: IOPS min{165 x C, 240,000} per disk (Alibaba 'Local "
        "disks'), 200 MB/s measured on i3.large (blog.marcomontagna.com); "
        "docs/reference/catalogs.md section 3. Per-type figures are not in instances.json.");
    if (!d)
        return -1;
    return json_array_append_new(disks, d);
}

/* The prices of one instance's by_os block (instances.json pricing.REGION.OS) for the pricing
 * models in want, into a new array *out (the caller's; empty when none is given); a price that
 * is not a number >= 0 is counted in st->skipped_price. CAT_OK or CAT_ENOMEM. */
static int ec2_prices(json_t *by_os, unsigned want, const char *offering, const char *purchase,
                      const char *src, const char *as_of, struct cat_convert_stats *st,
                      json_t **out, struct cat_error *err)
{
    json_t *prices = json_array();
    char key[64];
    double amount;
    *out = NULL;
    if (!prices)
        return cat_error_set(err, CAT_ENOMEM, "out of memory");
    for (int p = 0; p < CAT_PRICING_COUNT; p++) {
        json_t *pv = NULL;
        if (!(want & (1u << p)))
            continue;
        if (p == CAT_PRICING_ON_DEMAND)
            pv = json_object_get(by_os, "ondemand");
        else if (p == CAT_PRICING_SPOT)
            pv = json_object_get(by_os, "spot_avg");
        else if (p == CAT_PRICING_RESERVED_1Y || p == CAT_PRICING_RESERVED_3Y) {
            snprintf(key, sizeof key, "yrTerm%d%s.%s", p == CAT_PRICING_RESERVED_1Y ? 1 : 3,
                     offering, purchase);
            pv = json_object_get(json_object_get(by_os, "reserved"), key);
        }
        if (!pv)
            continue;
        amount = parse_price(pv);
        if (amount < 0) {
            st->skipped_price++;
            continue;
        }
        if (p == CAT_PRICING_RESERVED_1Y || p == CAT_PRICING_RESERVED_3Y)
            snprintf(key, sizeof key, "effective hourly rate of yrTerm%d%s.%s",
                     p == CAT_PRICING_RESERVED_1Y ? 1 : 3, offering, purchase);
        /* reserved-1y/3y are paid monthly; an all-upfront purchase is its own model */
        if (add_price(prices,
                      strcmp(purchase, "allUpfront") != 0 ? (enum cat_pricing)p
                      : p == CAT_PRICING_RESERVED_1Y      ? CAT_PRICING_RESERVED_1Y_ALL
                      : p == CAT_PRICING_RESERVED_3Y      ? CAT_PRICING_RESERVED_3Y_ALL
                                                          : (enum cat_pricing)p,
                      amount, "USD", src, as_of,
                      p == CAT_PRICING_RESERVED_1Y || p == CAT_PRICING_RESERVED_3Y ? key : NULL) !=
            0) {
            json_decref(prices);
            return cat_error_set(err, CAT_ENOMEM, "out of memory");
        }
    }
    *out = prices;
    return CAT_OK;
}

/* The description of instance v (type: its instance_type) onto inst: description, family,
 * processor, clock, vCPUs, memory and EBS limits, each when instances.json gives a usable one. */
static void ec2_describe(json_t *inst, json_t *v, const char *type)
{
    json_t *x;
    if ((x = json_object_get(v, "family")) && json_is_string(x))
        json_object_set(inst, "description", x);
    {
        /* the instance family is the type name's prefix (instances.json's "family" is the
           category, e.g. "Compute optimized") */
        const char *dot = strchr(type, '.');
        if (dot && dot > type)
            json_object_set_new(inst, "family", json_stringn(type, (size_t)(dot - type)));
    }
    if ((x = json_object_get(v, "physical_processor")) && json_is_string(x) &&
        json_string_length(x) > 0)
        json_object_set(inst, "processor", x);
    if ((x = json_object_get(v, "clock_speed_ghz"))) {
        /* a number, or a string such as "3.5 GHz" or "up to 3.1 GHz" */
        double ghz = json_is_number(x) ? json_number_value(x) : 0;
        const char *cs = json_string_value(x);
        if (cs) {
            char *end;
            while (*cs && !(*cs >= '0' && *cs <= '9'))
                cs++;
            ghz = strtod(cs, &end);
            if (end == cs)
                ghz = 0;
        }
        if (isfinite(ghz) && ghz >= 0.01 && ghz <= 100)
            json_object_set_new(inst, "clock_ghz", json_real(ghz));
    }
    if ((x = json_object_get(v, "vCPU")) && json_is_integer(x) && json_integer_value(x) > 0)
        json_object_set(inst, "vcpu", x);
    if ((x = json_object_get(v, "memory")) && json_is_number(x) && json_number_value(x) > 0)
        json_object_set_new(inst, "memory_gib", json_real(json_number_value(x)));
    if ((x = json_object_get(v, "ebs_iops")) && json_is_number(x) && json_number_value(x) > 0)
        json_object_set_new(inst, "block_max_iops", json_real(json_number_value(x)));
    if ((x = json_object_get(v, "ebs_throughput")) && json_is_number(x) && json_number_value(x) > 0)
        json_object_set_new(inst, "block_max_throughput_mb_s", json_real(json_number_value(x)));
}

/* The local SSDs of instance v (its "storage" block) onto inst as local_disk, the catalog's
 * instance-store disk added when first needed. 0, or -1 when out of memory. */
static int ec2_local_disk(json_t *catalog, json_t *inst, json_t *v)
{
    json_t *storage = json_object_get(v, "storage");
    if (json_is_object(storage) && (json_is_true(json_object_get(storage, "ssd")) ||
                                    json_is_true(json_object_get(storage, "nvme_ssd")))) {
        json_t *dev = json_object_get(storage, "devices");
        json_t *size = json_object_get(storage, "size");
        const char *unit = json_string_value(json_object_get(storage, "size_unit"));
        if (json_is_integer(dev) && json_integer_value(dev) > 0 && json_is_number(size) &&
            json_number_value(size) > 0) {
            /* instances.json gives decimal GB (size_unit "GB") or TB; catalogs use GiB */
            double gb = json_number_value(size) * (unit && strcmp(unit, "TB") == 0 ? 1000 : 1);
            double gib = gb * 1e9 / 1073741824.0;
            if (ensure_instance_store(catalog) != 0)
                return -1;
            json_object_set_new(inst, "local_disk",
                                json_pack("{s:s, s:I, s:f}", "disk", "aws-instance-store", "count",
                                          json_integer_value(dev), "size_gib",
                                          floor(gib * 100) / 100));
        }
    }
    return 0;
}

int cat_convert_ec2instances(json_t *catalog, json_t *doc, const char *source,
                             const struct cat_convert_options *o, struct cat_convert_stats *st,
                             struct cat_error *err)
{
    const char *region = o->region ? o->region : "us-east-1";
    const char *os = o->os ? o->os : "linux";
    const char *offering = o->offering ? o->offering : "Standard";
    const char *purchase = o->purchase ? o->purchase : "noUpfront";
    unsigned want = o->pricings ? o->pricings : DEFAULT_PRICINGS;
    const char *as_of = o->as_of ? o->as_of : "1970-01-01";
    json_t *instances = json_object_get(catalog, "instances");
    char src[600];
    size_t i;
    json_t *v;

    if (!json_is_array(doc))
        return cat_error_set(err, CAT_EINVAL,
                             "%s: expected a JSON array of instance objects (ec2instances.info "
                             "instances.json)",
                             source);
    snprintf(src, sizeof src, "ec2instances.info instances.json (%s), %s, %s", source, region, os);
    json_array_foreach(doc, i, v)
    {
        const char *type = json_string_value(json_object_get(v, "instance_type"));
        json_t *by_os, *inst, *prices;
        char id[200];
        size_t n_before;
        int rc;
        if (!json_is_object(v) || !type || !*type)
            return cat_error_set(err, CAT_EINVAL,
                                 "%s: $[%zu]: expected an instance object with "
                                 "\"instance_type\"",
                                 source, i);
        st->records++;
        by_os = json_object_get(json_object_get(json_object_get(v, "pricing"), region), os);
        if (!json_is_object(by_os)) {
            st->skipped_none++;
            continue;
        }
        snprintf(id, sizeof id, "aws-%s", type);
        if (cat_convert_find_id(instances, id)) {
            st->skipped_none++;
            continue;
        }
        if ((rc = ec2_prices(by_os, want, offering, purchase, src, as_of, st, &prices, err)) !=
            CAT_OK)
            return rc;
        if (json_array_size(prices) == 0) {
            json_decref(prices);
            st->skipped_none++;
            continue;
        }
        inst = json_object();
        if (!inst) {
            json_decref(prices);
            return cat_error_set(err, CAT_ENOMEM, "out of memory");
        }
        json_object_set_new(inst, "id", json_string(id));
        json_object_set_new(inst, "provider", json_string("aws"));
        json_object_set_new(inst, "region", json_string(region));
        json_object_set_new(inst, "name", json_string(type));
        ec2_describe(inst, v, type);
        if (ec2_local_disk(catalog, inst, v) != 0) {
            json_decref(inst);
            json_decref(prices);
            return cat_error_set(err, CAT_ENOMEM, "out of memory");
        }
        n_before = json_array_size(prices);
        json_object_set_new(inst, "prices", prices);
        if (json_array_append_new(instances, inst) != 0)
            return cat_error_set(err, CAT_ENOMEM, "out of memory");
        st->instances++;
        st->prices += n_before;
    }
    return CAT_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int cat_convert_azure_retail(json_t *catalog, json_t *doc, const char *source,
                             const struct cat_convert_options *o, struct cat_convert_stats *st,
                             struct cat_error *err)
{
    const char *region = o->region ? o->region : "eastus";
    const char *os = o->os ? o->os : "linux";
    unsigned want = o->pricings ? o->pricings : DEFAULT_PRICINGS;
    const char *currency = json_string_value(json_object_get(catalog, "currency"));
    json_t *instances = json_object_get(catalog, "instances");
    json_t *items = json_object_get(doc, "Items");
    char src[600];
    size_t i;
    json_t *it;
    int windows = strcmp(os, "windows") == 0;

    if (!json_is_object(doc) || !json_is_array(items))
        return cat_error_set(
            err, CAT_EINVAL,
            "%s: expected an Azure Retail Prices page: an object with an \"Items\" array", source);
    snprintf(src, sizeof src, "Azure Retail Prices API (%s), %s, %s", source, region, os);
    json_array_foreach(items, i, it)
    {
        const char *sku = json_string_value(json_object_get(it, "armSkuName"));
        const char *reg = json_string_value(json_object_get(it, "armRegionName"));
        const char *service = json_string_value(json_object_get(it, "serviceName"));
        const char *product = json_string_value(json_object_get(it, "productName"));
        const char *sku_name = json_string_value(json_object_get(it, "skuName"));
        const char *type = json_string_value(json_object_get(it, "type"));
        const char *uom = json_string_value(json_object_get(it, "unitOfMeasure"));
        const char *cur = json_string_value(json_object_get(it, "currencyCode"));
        const char *term = json_string_value(json_object_get(it, "reservationTerm"));
        const char *start = json_string_value(json_object_get(it, "effectiveStartDate"));
        double amount = parse_price(json_object_get(it, "retailPrice"));
        enum cat_pricing pricing;
        json_t *inst;
        char id[200], as_of[11], note[160];
        int spot;

        if (!json_is_object(it))
            return cat_error_set(err, CAT_EINVAL, "%s: $.Items[%zu]: expected an object", source,
                                 i);
        st->records++;
        if (!sku || !reg || !service || !product || !sku_name || !type || !uom || !cur) {
            st->skipped_none++;
            continue;
        }
        if (strcmp(service, "Virtual Machines") != 0 || strcmp(reg, region) != 0 ||
            ends_with(product, " Windows") != windows || ends_with(sku_name, " Low Priority") ||
            strcmp(uom, "1 Hour") != 0) {
            st->skipped_none++;
            continue;
        }
        spot = ends_with(sku_name, " Spot");
        if (strcmp(type, "Consumption") == 0)
            pricing = spot ? CAT_PRICING_SPOT : CAT_PRICING_ON_DEMAND;
        else if (strcmp(type, "Reservation") == 0 && term && !spot &&
                 (strcmp(term, "1 Year") == 0 || strcmp(term, "3 Years") == 0))
            pricing = term[0] == '1' ? CAT_PRICING_RESERVED_1Y : CAT_PRICING_RESERVED_3Y;
        else {
            st->skipped_none++;
            continue;
        }
        if (!(want & (1u << pricing))) {
            st->skipped_none++;
            continue;
        }
        if (amount < 0) {
            st->skipped_price++;
            continue;
        }
        if (currency && strcmp(cur, currency) != 0)
            return cat_error_set(
                err, CAT_EINVAL,
                "%s: $.Items[%zu]: currency %s differs from the catalog's %s (convert "
                "one currency per catalog)",
                source, i, cur, currency);
        note[0] = '\0';
        if (pricing == CAT_PRICING_RESERVED_1Y || pricing == CAT_PRICING_RESERVED_3Y) {
            int years = pricing == CAT_PRICING_RESERVED_1Y ? 1 : 3;
            snprintf(note, sizeof note, "reservation price %g %s for %d year%s / %d h", amount, cur,
                     years, years > 1 ? "s" : "", years * 8760);
            amount /= years * 8760.0;
        }
        if (start && strlen(start) >= 10) {
            memcpy(as_of, start, 10);
            as_of[10] = '\0';
        } else {
            snprintf(as_of, sizeof as_of, "%s", o->as_of ? o->as_of : "1970-01-01");
        }
        snprintf(id, sizeof id, "azure-%s", sku);
        inst = cat_convert_find_id(instances, id);
        if (!inst) {
            inst = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[]}", "id", id, "provider", "azure",
                             "region", region, "name", sku, "description", product, "prices");
            if (!inst || json_array_append_new(instances, inst) != 0)
                return cat_error_set(err, CAT_ENOMEM, "out of memory");
            st->instances++;
        }
        if (has_pricing(inst, cat_pricing_name(pricing))) {
            /* another meter of the same price (non-primary region meter): keep the first */
            st->skipped_none++;
            continue;
        }
        if (add_price(json_object_get(inst, "prices"), pricing, amount, cur, src, as_of,
                      note[0] ? note : NULL) != 0)
            return cat_error_set(err, CAT_ENOMEM, "out of memory");
        st->prices++;
    }
    return CAT_OK;
}
