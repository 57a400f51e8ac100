/* catalog.c - load and validate sizeup.catalog/1 documents (docs/catalog-format.md). */
#include "catalog.h"

#include "errtext.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pricing_names[CAT_PRICING_COUNT] = {"on-demand",
                                                             "reserved-1y",
                                                             "reserved-3y",
                                                             "spot",
                                                             "subscription-1m",
                                                             "subscription-1y",
                                                             "reserved-1y-all-upfront",
                                                             "reserved-3y-all-upfront",
                                                             "savings-plan-1y",
                                                             "savings-plan-3y"};

void cat_pricing_term(enum cat_pricing p, int *months, int *upfront)
{
    static const int m[CAT_PRICING_COUNT] = {0, 12, 36, 0, 1, 12, 12, 36, 12, 36};
    static const int u[CAT_PRICING_COUNT] = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0};
    *months = (unsigned)p < CAT_PRICING_COUNT ? m[p] : 0;
    *upfront = (unsigned)p < CAT_PRICING_COUNT ? u[p] : 0;
}

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
    free(in->family);
    free(in->processor);
    free(in->where);
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
    price_destroy(&d->latency_ms);
}

static void server_destroy(struct cat_server *s)
{
    free(s->id);
    free(s->description);
    free(s->local_disk);
    struct cat_price *all[] = {&s->capital,
                               &s->amortisation_years,
                               &s->maintenance_rate,
                               &s->licence,
                               &s->power_kw,
                               &s->power_curve_src,
                               &s->cpu_load,
                               &s->pue,
                               &s->energy_per_kwh,
                               &s->rack_per_month,
                               &s->colocation_per_kw_month,
                               &s->network_per_port_month,
                               &s->staff_per_month,
                               &s->admin_cost_per_year,
                               &s->servers_per_admin,
                               &s->storage_per_gib,
                               &s->storage_redundancy,
                               &s->utilisation};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        price_destroy(all[i]);
}

static void config_destroy(struct cat_config *c)
{
    free(c->id);
    free(c->description);
    free(c->instance);
    free(c->server);
    free(c->disk);
}

void cat_catalog_clear(struct cat_catalog *cat)
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
    for (size_t i = 0; i < cat->n_files; i++) {
        free(cat->files[i]);
        free(cat->licences ? cat->licences[i] : NULL);
    }
    free(cat->files);
    free(cat->licences);
    free(cat->licence);
    free(cat->as_of);
    free(cat->name);
    for (int k = 0; k < CAT_SEC_COUNT; k++)
        free(cat->index[k].slot);
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
    cat_catalog_clear(cat);
    free(cat);
}

/* ---- look-ups ----------------------------------------------------------------------------- */

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static const char *entry_id(const struct cat_catalog *c, enum cat_section sec, size_t i)
{
    switch (sec) {
    case CAT_SEC_INSTANCE:
        return c->instances[i].id;
    case CAT_SEC_DISK:
        return c->disks[i].id;
    case CAT_SEC_SERVER:
        return c->servers[i].id;
    default:
        return c->configs[i].id;
    }
}

static size_t entry_count(const struct cat_catalog *c, enum cat_section sec)
{
    return sec == CAT_SEC_INSTANCE ? c->n_instances
           : sec == CAT_SEC_DISK   ? c->n_disks
           : sec == CAT_SEC_SERVER ? c->n_servers
                                   : c->n_configs;
}

static void index_put(struct cat_index *x, uint64_t h, size_t i)
{
    size_t k = (size_t)h & (x->cap - 1);
    while (x->slot[k])
        k = (k + 1) & (x->cap - 1);
    x->slot[k] = i + 1;
}

void cat_index_add(struct cat_catalog *cat, enum cat_section sec)
{
    struct cat_index *x = &cat->index[sec];
    size_t n = entry_count(cat, sec);
    if (x->n > n) { /* entries went away (cleared): start again */
        free(x->slot);
        memset(x, 0, sizeof *x);
    }
    if (2 * n > x->cap) {
        size_t cap = x->cap ? x->cap : 16;
        size_t *slot;
        while (2 * n > cap)
            cap *= 2;
        if (!(slot = calloc(cap, sizeof *slot)))
            return;
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
        x->n = 0; /* re-insert everything */
    }
    for (size_t i = x->n; i < n; i++)
        index_put(x, fnv1a(entry_id(cat, sec, i)), i);
    x->n = n;
}

/* Index of the entry with this id in section sec, or -1. */
static long find_id(const struct cat_catalog *c, enum cat_section sec, const char *id)
{
    const struct cat_index *x = &c->index[sec];
    size_t n = entry_count(c, sec), from = 0;
    if (!id)
        return -1;
    if (x->cap && x->n <= n) {
        size_t k = (size_t)fnv1a(id) & (x->cap - 1);
        while (x->slot[k]) {
            size_t i = x->slot[k] - 1;
            if (strcmp(entry_id(c, sec, i), id) == 0)
                return (long)i;
            k = (k + 1) & (x->cap - 1);
        }
        from = x->n;
    }
    for (size_t i = from; i < n; i++)
        if (strcmp(entry_id(c, sec, i), id) == 0)
            return (long)i;
    return -1;
}

const struct cat_instance *cat_find_instance(const struct cat_catalog *cat, const char *id)
{
    long i = find_id(cat, CAT_SEC_INSTANCE, id);
    return i < 0 ? NULL : &cat->instances[i];
}

const struct cat_disk *cat_find_disk(const struct cat_catalog *cat, const char *id)
{
    long i = find_id(cat, CAT_SEC_DISK, id);
    return i < 0 ? NULL : &cat->disks[i];
}

const struct cat_server *cat_find_server(const struct cat_catalog *cat, const char *id)
{
    long i = find_id(cat, CAT_SEC_SERVER, id);
    return i < 0 ? NULL : &cat->servers[i];
}

const struct cat_config *cat_find_config(const struct cat_catalog *cat, const char *id)
{
    long i = find_id(cat, CAT_SEC_CONFIG, id);
    return i < 0 ? NULL : &cat->configs[i];
}

const char *cat_instance_family(const struct cat_instance *in, char *buf, size_t cap)
{
    const char *dot;
    if (in->family)
        return in->family;
    if (!in->name || !(dot = strchr(in->name, '.')) || dot == in->name || cap == 0)
        return NULL;
    snprintf(buf, cap, "%.*s", (int)(dot - in->name), in->name);
    return buf;
}

int cat_catalog_convert(const struct cat_catalog *cat, double amount, const char *code, double *out,
                        const struct cat_rate **rate)
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

int cat_config_derive(struct cat_catalog *cat, const char *base, const char *id,
                      const char *disk_id, double size_gib, const char *descr,
                      struct cat_error *err)
{
    const struct cat_config *b = cat_find_config(cat, base);
    const struct cat_disk *d = cat_find_disk(cat, disk_id);
    const struct cat_instance *in = b && b->instance ? cat_find_instance(cat, b->instance) : NULL;
    const struct cat_server *sv = b && b->server ? cat_find_server(cat, b->server) : NULL;
    const char *own = in ? in->local_disk : sv ? sv->local_disk : NULL;
    double own_gib = in   ? in->local_disk_count * in->local_disk_gib
                     : sv ? sv->local_disk_count * sv->local_disk_gib
                          : 0;
    struct cat_config c, *arr;
    if (!b || !d || cat_find_config(cat, id))
        return cat_error_set(err, CAT_EINVAL, "%s",
                             !b   ? "no such configuration"
                             : !d ? "no such disk type"
                                  : "the id is taken");
    if (!(size_gib >= d->min_gib && size_gib <= d->max_gib))
        return cat_error_set(err, CAT_EINVAL, "%g GiB is outside %s's %g-%g GiB", size_gib, d->id,
                             d->min_gib, d->max_gib);
    if (d->local && !(own && strcmp(own, d->id) == 0))
        return cat_error_set(err, CAT_EINVAL, "%s is a local disk %s does not have", d->id, base);
    if (d->local && size_gib > own_gib)
        return cat_error_set(err, CAT_EINVAL, "%g GiB is more than %s's local disks (%g GiB)",
                             size_gib, base, own_gib);
    if (!d->local && !d->per_gib_month.present)
        return cat_error_set(err, CAT_EINVAL, "%s has no price (performance only)", d->id);
    c = *b;
    c.id = strdup(id);
    c.description = descr ? strdup(descr) : NULL;
    c.instance = b->instance ? strdup(b->instance) : NULL;
    c.server = b->server ? strdup(b->server) : NULL;
    c.disk = strdup(d->id);
    c.size_gib = size_gib;
    c.provisioned_iops = c.provisioned_throughput_mb_s = 0;
    arr = (c.id && (c.description || !descr) && (c.instance || !b->instance) &&
           (c.server || !b->server) && c.disk)
              ? realloc(cat->configs, (cat->n_configs + 1) * sizeof *arr)
              : NULL;
    if (!arr) {
        config_destroy(&c);
        return cat_error_set(err, CAT_ENOMEM, "out of memory");
    }
    cat->configs = arr;
    cat->configs[cat->n_configs++] = c;
    cat_index_add(cat, CAT_SEC_CONFIG);
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

int cat_catalog_merge(struct cat_catalog *dst, struct cat_catalog *src, const char *name)
{
    char **files = realloc(dst->files, (dst->n_files + 1) * sizeof *files), **lic;
    if (!files)
        return CAT_ENOMEM;
    dst->files = files;
    if (!(lic = realloc(dst->licences, (dst->n_files + 1) * sizeof *lic)))
        return CAT_ENOMEM;
    dst->licences = lic;
    if (!(dst->files[dst->n_files] = strdup(name)))
        return CAT_ENOMEM;
    dst->licences[dst->n_files] = src->licence;
    src->licence = NULL;
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
    for (int k = 0; k < CAT_SEC_COUNT; k++)
        cat_index_add(dst, (enum cat_section)k);
    return CAT_OK;
}

int cat_error_set(struct cat_error *err, int rc, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return rc;
    memset(err, 0, sizeof *err);
    va_start(ap, fmt);
    errtext_vset(err->msg, sizeof err->msg, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return rc;
}
