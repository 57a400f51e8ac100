/* sparecores.c - the Spare Cores SQLite database into a sizeup.catalog/1 (sparecores.h). */
#include "sparecores.h"

#include "convert.h"
#include "today.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Every table and column read, as the schema check looks them up. */
static const char *const need_server[] = {"vendor_id",     "server_id",   "name",
                                          "api_reference", "description", "family",
                                          "vcpus",         "cpu_speed",   "cpu_manufacturer",
                                          "cpu_family",    "cpu_model",   "memory_amount",
                                          "status",        NULL};
static const char *const need_server_price[] = {
    "vendor_id", "region_id", "zone_id",  "server_id", "operating_system", "allocation",
    "unit",      "price",     "currency", "status",    "observed_at",      NULL};
static const char *const need_storage[] = {"vendor_id",    "storage_id", "name",
                                           "storage_type", "max_iops",   "min_size",
                                           "max_size",     "status",     NULL};
static const char *const need_storage_price[] = {"vendor_id", "region_id",   "storage_id",
                                                 "unit",      "price",       "currency",
                                                 "status",    "observed_at", NULL};
static const char *const need_region[] = {"vendor_id", "region_id", "name", NULL};

static const struct {
    const char *table;
    const char *const *cols;
} schema[] = {{"server", need_server},
              {"server_price", need_server_price},
              {"storage", need_storage},
              {"storage_price", need_storage_price},
              {"region", need_region}};

#define SOURCE "Spare Cores sc-data-all.db (" SPARECORES_LICENCE ")"

/* A row is current: status ACTIVE (the enum's name) or active (its value). */
#define ACTIVE "(status IS NULL OR status IN ('ACTIVE', 'active'))"

/* 1 when table t of db has column c. */
static int has_column(sqlite3 *db, const char *t, const char *c)
{
    char q[128];
    sqlite3_stmt *st;
    int found = 0;
    snprintf(q, sizeof q, "PRAGMA table_info(\"%s\")", t);
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
        return 0;
    while (!found && sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(st, 1);
        found = name && strcmp((const char *)name, c) == 0;
    }
    sqlite3_finalize(st);
    return found;
}

/* Every table and column of schema[]: CAT_OK or CAT_ESCHEMA naming the first missing. */
static int check_schema(sqlite3 *db, const char *path, struct cat_error *err)
{
    for (size_t t = 0; t < sizeof schema / sizeof schema[0]; t++)
        for (const char *const *c = schema[t].cols; *c; c++)
            if (!has_column(db, schema[t].table, *c))
                return cat_error_set(
                    err, CAT_ESCHEMA,
                    "%s: %s %s has no column '%s': not the Spare Cores schema this sizeup reads "
                    "(SpareCores/sc-crawler table_bases.py at 021afb03bb35; sc-data-all.db of "
                    "the sparecores-data package)",
                    path,
                    has_column(db, schema[t].table, "vendor_id") ? "table" : "the database: table",
                    schema[t].table, *c);
    return CAT_OK;
}

/* An enum cell read as its name or its value: "ONDEMAND" or "ondemand", "GB_MONTH" or
 * "GB/month". 1 when cell is one of them. */
static int is_enum(const unsigned char *cell, const char *name, const char *value)
{
    return cell && (strcasecmp((const char *)cell, name) == 0 ||
                    strcasecmp((const char *)cell, value) == 0);
}

static const char *text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : NULL;
}

/* The provider sizeup's catalogs name a vendor by. */
static const char *provider_of(const char *vendor)
{
    return strcmp(vendor, "alicloud") == 0 ? "alibaba" : vendor;
}

/* The date part of an observed_at timestamp ("2025-01-31 12:00:00" or ISO 8601) into d[11];
 * "" when it has none. */
static void date_of(const char *ts, char d[11])
{
    d[0] = '\0';
    if (ts && strlen(ts) >= 10 && ts[4] == '-' && ts[7] == '-') {
        memcpy(d, ts, 10);
        d[10] = '\0';
    }
}

/* The regions of vendor, for a message: "cn-hangzhou, eu-central-1, ...". */
static void list_regions(sqlite3 *db, const char *vendor, char *buf, size_t cap)
{
    sqlite3_stmt *st;
    size_t len = 0;
    buf[0] = '\0';
    if (sqlite3_prepare_v2(db, "SELECT region_id FROM region WHERE vendor_id = ? ORDER BY 1", -1,
                           &st, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(st, 1, vendor, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW && len + 80 < cap)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", text(st, 0));
    sqlite3_finalize(st);
}

/* Known performance rules of priced storages (the bundled catalogs' rules, their sources). */
struct rule {
    const char *vendor, *key, *id, *name;
    double min_gib, max_gib, base, per_gib, cap, floor, mb_base, mb_per_gib, mb_cap, latency_ms;
};
static const struct rule rules[] = {
    {"alicloud", "pl0", "alibaba-essd-pl0", "ESSD PL0", 40, 32768, 1800, 12, 10000, 0, 100, 0.25,
     180, 0},
    {"alicloud", "pl1", "alibaba-essd-pl1", "ESSD PL1", 20, 32768, 1800, 50, 50000, 0, 120, 0.5,
     350, 0.2},
    {"alicloud", "pl2", "alibaba-essd-pl2", "ESSD PL2", 461, 32768, 1800, 50, 100000, 0, 120, 0.5,
     750, 0.2},
    {"alicloud", "pl3", "alibaba-essd-pl3", "ESSD PL3", 1261, 32768, 1800, 50, 1000000, 0, 120, 0.5,
     4000, 0.2},
    {"alicloud", "autopl", "alibaba-essd-autopl", "ESSD AutoPL", 1, 65536, 1800, 50, 50000, 3000,
     120, 0.5, 350, 0},
};

/* The rule of a storage of vendor by its id or name (case-insensitive "pl1", "autopl"); the
 * most specific key wins (autopl before pl0-pl3). NULL when none. */
static const struct rule *rule_of(const char *vendor, const char *id, const char *name)
{
    char hay[256];
    snprintf(hay, sizeof hay, "%s %s", id ? id : "", name ? name : "");
    for (char *p = hay; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    if (strstr(hay, "autopl") || strstr(hay, "auto_pl") || strstr(hay, "auto pl")) {
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
            if (strcmp(rules[i].vendor, vendor) == 0 && strcmp(rules[i].key, "autopl") == 0)
                return &rules[i];
        return NULL;
    }
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].vendor, vendor) == 0 && strcmp(rules[i].key, "autopl") != 0 &&
            strstr(hay, rules[i].key) && strstr(hay, "essd"))
            return &rules[i];
    return NULL;
}

/* A price object, its source the Spare Cores table it came from. */
static json_t *price_obj(enum cat_pricing pricing, const char *unit, double amount,
                         const char *currency, const char *table, const char *as_of,
                         const char *note)
{
    char src[200];
    snprintf(src, sizeof src, SOURCE ": %s", table);
    return cat_convert_price(pricing, unit, amount, currency, src, as_of, note);
}

/* One current price row of the region, as read once for every server (one query: a query per
 * server was quadratic without the right index, 35 s at 8,000 servers). */
struct prow {
    char *sid;
    int k;           /* 0 on-demand, 1 spot */
    double per_hour; /* amount in its unit, per hour (month: / 730, year: / 8760), to compare */
    double amount;
    char currency[4], unit[8], as_of[11];
};

static int cmp_prow(const void *a, const void *b)
{
    return strcmp(((const struct prow *)a)->sid, ((const struct prow *)b)->sid);
}

/* A date YYYY-MM-DD that exists (2025-02-30 does not), from the start of an observed_at. */
static int good_date(const char *ts, char d[11])
{
    int y, m, dd;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    date_of(ts, d);
    if (!d[0] || sscanf(d, "%4d-%2d-%2d", &y, &m, &dd) != 3 || y < 1990 || m < 1 || m > 12 ||
        dd < 1 || dd > mdays[m - 1] || (m == 2 && dd == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
        return 0;
    return 1;
}

/* The region's current prices for the OS asked, valid ones only (a number > 0 and finite, a
 * three-letter currency, an hour/month/year unit, a real date; others counted as left out),
 * sorted by server. 0, or -1 (err set). */
static int read_prices(sqlite3 *db, const char *vendor, const struct cat_convert_options *o,
                       struct prow **out, size_t *n, struct cat_convert_stats *st,
                       struct cat_error *err)
{
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT server_id, allocation, unit, price, currency, observed_at FROM "
                           "server_price WHERE vendor_id = ? AND region_id = ? AND "
                           "lower(operating_system) = lower(?) AND " ACTIVE,
                           -1, &q, NULL) != SQLITE_OK)
        return cat_error_set(err, CAT_EIO, "SQLite: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, vendor, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, o->region, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, o->os ? o->os : "linux", -1, SQLITE_STATIC);
    while (sqlite3_step(q) == SQLITE_ROW) {
        const unsigned char *alloc = sqlite3_column_text(q, 1), *unit = sqlite3_column_text(q, 2);
        const char *sid = text(q, 0), *cur = text(q, 4);
        int t = sqlite3_column_type(q, 3);
        double amount = sqlite3_column_double(q, 3), hours;
        struct prow r;
        int k = is_enum(alloc, "ONDEMAND", "ondemand") ? 0
                : is_enum(alloc, "SPOT", "spot")       ? 1
                                                       : -1;
        hours = is_enum(unit, "HOUR", "hour")     ? 1
                : is_enum(unit, "MONTH", "month") ? CAT_HOURS_PER_MONTH
                : is_enum(unit, "YEAR", "year")   ? CAT_HOURS_PER_YEAR
                                                  : 0;
        memset(&r, 0, sizeof r);
        if (k < 0 || !sid || !hours || (t != SQLITE_INTEGER && t != SQLITE_FLOAT) ||
            !(amount > 0) || !isfinite(amount) || amount > 1e9 || !cur || strlen(cur) != 3 ||
            !good_date(text(q, 5), r.as_of)) {
            st->skipped_price++; /* reserved (no term in the schema), or a figure not to trust */
            continue;
        }
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 256;
            struct prow *g = realloc(*out, nc * sizeof *g);
            if (!g)
                goto nomem;
            *out = g;
            cap = nc;
        }
        r.k = k;
        r.amount = amount;
        r.per_hour = amount / hours;
        snprintf(r.currency, sizeof r.currency, "%s", cur);
        snprintf(r.unit, sizeof r.unit, "%s",
                 hours == 1     ? "hour"
                 : hours < 1000 ? "month"
                                : "year");
        if (!(r.sid = strdup(sid)))
            goto nomem;
        (*out)[(*n)++] = r;
    }
    sqlite3_finalize(q);
    if (*n)
        qsort(*out, *n, sizeof **out, cmp_prow);
    return 0;
nomem:
    sqlite3_finalize(q);
    return cat_error_set(err, CAT_ENOMEM, "out of memory");
}

/* 1 when s is UTF-8 text json_string takes, of at most max bytes, with no control character. */
static int usable_name(const char *s, size_t max)
{
    json_t *j;
    if (!s || !*s || strlen(s) > max)
        return 0;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return 0;
    if (!(j = json_string(s)))
        return 0; /* not UTF-8 */
    json_decref(j);
    return 1;
}

/* The lowest price per hour of server sid for each pricing (lo[0] on-demand, lo[1] spot; NULL
 * when none) among the rows pr (np of them, sorted by server), and how many zones gave one
 * (zones). The catalog's currency is the first price's (currency, set when empty); a row in
 * another is counted in st->skipped_price. */
static void lowest_prices(struct prow *pr, size_t np, const char *sid, char currency[4],
                          struct prow *lo[2], int zones[2], struct cat_convert_stats *st)
{
    struct prow key;
    size_t first;
    /* the first price row of this server (binary search), then its rows */
    key.sid = (char *)sid;
    {
        size_t l = 0, h = np;
        while (l < h) {
            size_t m = (l + h) / 2;
            if (cmp_prow(&pr[m], &key) < 0)
                l = m + 1;
            else
                h = m;
        }
        first = l;
    }
    for (size_t i = first; i < np && strcmp(pr[i].sid, sid) == 0; i++) {
        struct prow *r = &pr[i];
        if (!currency[0])
            memcpy(currency, r->currency, 4);
        if (strcmp(r->currency, currency) != 0) {
            st->skipped_price++; /* one currency per catalog */
            continue;
        }
        zones[r->k]++;
        if (!lo[r->k] || r->per_hour < lo[r->k]->per_hour)
            lo[r->k] = r;
    }
}

/* The description of the server of row s (columns as add_servers selects them) onto inst: id,
 * provider, region, name (ref), description (name when it differs), family, processor, clock,
 * vCPUs and memory, each when the row gives a usable one. */
static void describe_server(sqlite3_stmt *s, json_t *inst, const char *id, const char *vendor,
                            const char *region, const char *ref, const char *name)
{
    char proc[200] = "";
    if (text(s, 7) || text(s, 8) || text(s, 9))
        snprintf(proc, sizeof proc, "%s%s%s%s%s", text(s, 7) ? text(s, 7) : "",
                 text(s, 8) ? " " : "", text(s, 8) ? text(s, 8) : "", text(s, 9) ? " " : "",
                 text(s, 9) ? text(s, 9) : "");
    json_object_set_new(inst, "id", json_string(id));
    json_object_set_new(inst, "provider", json_string(provider_of(vendor)));
    json_object_set_new(inst, "region", json_string(region));
    json_object_set_new(inst, "name", json_string(ref));
    if (name && strcmp(name, ref) != 0)
        json_object_set_new(inst, "description", json_string(name));
    if (text(s, 4) && usable_name(text(s, 4), 60))
        json_object_set_new(inst, "family", json_string(text(s, 4)));
    if (proc[0] && proc[0] != ' ' && usable_name(proc, 190))
        json_object_set_new(inst, "processor", json_string(proc));
    if (sqlite3_column_type(s, 6) == SQLITE_FLOAT || sqlite3_column_type(s, 6) == SQLITE_INTEGER) {
        double ghz = sqlite3_column_double(s, 6);
        if (ghz >= 0.01 && ghz <= 100)
            json_object_set_new(inst, "clock_ghz", json_real(ghz));
    }
    if (sqlite3_column_type(s, 5) == SQLITE_INTEGER && sqlite3_column_int64(s, 5) > 0 &&
        sqlite3_column_int64(s, 5) <= 100000)
        json_object_set_new(inst, "vcpu", json_integer(sqlite3_column_int64(s, 5)));
    if (sqlite3_column_type(s, 10) == SQLITE_INTEGER && sqlite3_column_int64(s, 10) > 0)
        json_object_set_new(inst, "memory_gib",
                            json_real((double)sqlite3_column_int64(s, 10) / 1024));
}

/* The on-demand and spot prices lo (of zones zones) appended to prices, each saying how many
 * zones it is the lowest of; newest keeps the newest as_of. 0, or -1 when out of memory. */
static int add_prices(json_t *prices, struct prow *const lo[2], const int zones[2],
                      const char *region, char newest[11], struct cat_convert_stats *st)
{
    char zn[96];
    for (int k = 0; k < 2; k++) {
        json_t *p;
        if (!lo[k])
            continue;
        if (zones[k] == 1)
            snprintf(zn, sizeof zn, "the price of its one zone in %s", region);
        else
            snprintf(zn, sizeof zn, "the lowest of %d zones' prices in %s (per hour)", zones[k],
                     region);
        p = price_obj(k ? CAT_PRICING_SPOT : CAT_PRICING_ON_DEMAND, lo[k]->unit, lo[k]->amount,
                      lo[k]->currency, "server_price", lo[k]->as_of, zn);
        if (!p || json_array_append_new(prices, p))
            return -1;
        st->prices++;
        if (strcmp(lo[k]->as_of, newest) > 0)
            memcpy(newest, lo[k]->as_of, 11);
    }
    return 0;
}

/* Every active server of vendor with an on-demand or spot price in o->region (the lowest over
 * its zones) into catalog's instances, with one configuration each; newest keeps the newest
 * price's date. CAT_OK or an error (err set). */
static int add_servers(sqlite3 *db, json_t *catalog, const char *vendor,
                       const struct cat_convert_options *o, char newest[11],
                       struct cat_convert_stats *st, struct cat_error *err)
{
    sqlite3_stmt *s = NULL;
    json_t *insts = json_object_get(catalog, "instances");
    struct prow *pr = NULL;
    size_t np = 0;
    char currency[4] = "";        /* the catalog's: the first price written */
    json_t *seen = json_object(); /* the ids written, as a hash set */
    int rc = CAT_OK;
    if (!seen)
        return cat_error_set(err, CAT_ENOMEM, "out of memory");
    if ((rc = read_prices(db, vendor, o, &pr, &np, st, err)) != 0) {
        json_decref(seen);
        return rc;
    }
    if (sqlite3_prepare_v2(db,
                           "SELECT server_id, name, api_reference, description, family, vcpus, "
                           "cpu_speed, cpu_manufacturer, cpu_family, cpu_model, memory_amount "
                           "FROM server WHERE vendor_id = ? AND " ACTIVE " ORDER BY vcpus, "
                           "memory_amount, api_reference",
                           -1, &s, NULL) != SQLITE_OK) {
        rc = cat_error_set(err, CAT_EIO, "SQLite: %s", sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_bind_text(s, 1, vendor, -1, SQLITE_STATIC);
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *sid = text(s, 0), *name = text(s, 1), *api = text(s, 2);
        const char *ref = api ? api : sid;
        struct prow *lo[2] = {NULL, NULL};
        int zones[2] = {0, 0};
        json_t *inst, *prices;
        char id[300];
        st->records++;
        if (!sid)
            continue;
        lowest_prices(pr, np, sid, currency, lo, zones, st);
        if (!lo[0] && !lo[1]) {
            st->skipped_none++;
            continue;
        }
        if (!usable_name(ref, 200) || (name && !usable_name(name, 400))) {
            st->skipped_none++; /* a name no catalog can hold (said in the summary) */
            continue;
        }
        snprintf(id, sizeof id, "%s:%s:%s", provider_of(vendor), o->region, ref);
        if (json_object_get(seen, id)) {
            st->skipped_none++; /* a second server of the same api_reference */
            continue;
        }
        if (json_object_set_new(seen, id, json_true())) {
            rc = cat_error_set(err, CAT_ENOMEM, "out of memory");
            goto out;
        }
        inst = json_object();
        prices = json_array();
        if (!inst || !prices) {
            json_decref(inst);
            json_decref(prices);
            rc = cat_error_set(err, CAT_ENOMEM, "out of memory");
            goto out;
        }
        describe_server(s, inst, id, vendor, o->region, ref, name);
        if (add_prices(prices, lo, zones, o->region, newest, st) != 0) {
            json_decref(inst);
            json_decref(prices);
            rc = cat_error_set(err, CAT_ENOMEM, "out of memory");
            goto out;
        }
        json_object_set_new(inst, "prices", prices);
        json_array_append_new(insts, inst);
        /* one configuration per instance, named as the instance: `catalog cost ID` and a point
         * whose target is that id price it at once (a catalog of instances alone left cost a
         * dead end) */
        json_array_append_new(json_object_get(catalog, "configs"),
                              json_pack("{s:s, s:s}", "id", id, "instance", id));
        st->instances++;
    }
out:
    json_decref(seen);
    sqlite3_finalize(s);
    for (size_t i = 0; i < np; i++)
        free(pr[i].sid);
    free(pr);
    return rc;
}

static int add_storages(sqlite3 *db, json_t *catalog, const char *vendor,
                        const struct cat_convert_options *o, char newest[11], struct cat_error *err)
{
    sqlite3_stmt *s = NULL;
    json_t *disks = json_object_get(catalog, "disks"), *notes = json_object_get(catalog, "notes");
    int rc = CAT_OK;
    if (sqlite3_prepare_v2(db,
                           "SELECT s.storage_id, s.name, p.unit, MIN(CASE WHEN typeof(p.price) "
                           "IN ('real', 'integer') AND p.price > 0 THEN p.price END), p.currency, "
                           "p.observed_at FROM storage s JOIN storage_price p ON p.vendor_id = "
                           "s.vendor_id AND p.storage_id = s.storage_id WHERE s.vendor_id = ? AND "
                           "p.region_id = ? AND (s.status IS NULL OR s.status IN ('ACTIVE', "
                           "'active')) AND (p.status IS NULL OR p.status IN ('ACTIVE', 'active')) "
                           "GROUP BY s.storage_id, p.unit, p.currency ORDER BY s.storage_id",
                           -1, &s, NULL) != SQLITE_OK)
        return cat_error_set(err, CAT_EIO, "SQLite: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(s, 1, vendor, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, o->region, -1, SQLITE_STATIC);
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *sid = text(s, 0), *name = text(s, 1), *unit = text(s, 2), *cur = text(s, 4);
        double amount = sqlite3_column_double(s, 3);
        const struct rule *r = rule_of(vendor, sid, name);
        char as_of[11], line[400], did[160];
        int priced = sqlite3_column_type(s, 3) != SQLITE_NULL && amount > 0 && amount < 1e9 &&
                     good_date(text(s, 5), as_of);
        if (!usable_name(sid, 120) || (name && !usable_name(name, 120))) {
            json_array_append_new(notes, json_string("a storage whose id or name holds a control "
                                                     "character or is not UTF-8: left out"));
            continue;
        }
        if (!priced) {
            snprintf(line, sizeof line,
                     "storage %s (%s) in %s: no price > 0 with a real date (" SOURCE "): left out",
                     sid, name ? name : "", o->region);
            json_array_append_new(notes, json_string(line));
            continue;
        }
        if (r)
            snprintf(did, sizeof did, "%s:%s:%s", provider_of(vendor), o->region,
                     r->id + strlen("alibaba-"));
        if (r && cat_convert_find_id(disks, did)) {
            snprintf(line, sizeof line,
                     "storage %s (%s): %s is already given by another storage of the region: "
                     "left out",
                     sid, name ? name : "", r->name);
            json_array_append_new(notes, json_string(line));
            continue;
        }
        if (!is_enum((const unsigned char *)unit, "GB_MONTH", "GB/month") || !cur ||
            strlen(cur) != 3 || !(amount >= 0) || !r) {
            snprintf(line, sizeof line,
                     "storage %s (%s) priced %g %s per %s in %s (" SOURCE "): %s", sid,
                     name ? name : "", amount, cur ? cur : "?", unit ? unit : "?", o->region,
                     r ? "not per GB-month: left out"
                       : "no performance rule known to sizeup: not a disk of this catalog");
            json_array_append_new(notes, json_string(line));
            continue;
        }
        {
            json_t *d = json_pack(
                "{s:s, s:s, s:s, s:{s:f, s:f}, s:{s:f, s:f, s:f, s:f}, s:{s:f, s:f, s:f}, s:s}",
                "id", did, "provider", provider_of(vendor), "name", r->name, "size_gib", "min",
                r->min_gib, "max", r->max_gib, "iops", "base", r->base, "per_gib", r->per_gib,
                "cap", r->cap, "floor", r->floor, "throughput_mb_s", "base", r->mb_base, "per_gib",
                r->mb_per_gib, "cap", r->mb_cap, "source",
                "Alibaba Cloud 'ESSDs' user guide (the rule of sizeup's bundled catalogs); "
                "storage "
                "from " SOURCE);
            json_t *pp = json_object(), *p;
            /* per GB-month (10^9 bytes) in the source: per GiB-month is 2^30 / 10^9 times it */
            p = price_obj(CAT_PRICING_COUNT, NULL, amount * 1.073741824, cur, "storage_price",
                          as_of, "per GB-month in the source, x 1.073741824 per GiB-month");
            if (!d || !pp || !p || json_object_set_new(pp, "per_gib_month", p) ||
                json_object_set_new(d, "prices", pp)) {
                json_decref(d);
                rc = cat_error_set(err, CAT_ENOMEM, "out of memory");
                break;
            }
            if (r->latency_ms > 0)
                json_object_set_new(
                    d, "latency_ms",
                    json_pack("{s:f, s:s, s:s}", "value", r->latency_ms, "source",
                              "Alibaba Cloud 'Block storage performance' (4 KiB random write, one "
                              "channel)",
                              "as_of", "2026-12-05"));
            json_array_append_new(disks, d);
            if (strcmp(as_of, newest) > 0)
                memcpy(newest, as_of, 11);
        }
    }
    sqlite3_finalize(s);
    return rc;
}

int cat_convert_sparecores(const char *db_path, const char *vendor,
                           const struct cat_convert_options *opts, json_t **out,
                           struct cat_convert_stats *st, struct cat_error *err)
{
    /* a row without observed_at is dated today, and so is the catalog without any */
    struct cat_convert_options oo = *opts, *o = &oo;
    int given_as_of = opts->as_of != NULL;
    char today[11];
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    json_t *catalog = NULL;
    char newest[11] = "", regions[600];
    int rc, found = 0;
    *out = NULL;
    today_ymd(today); /* SOURCE_DATE_EPOCH or the clock (util/today.h) */
    if (!o->as_of)
        o->as_of = today;
    if (!o->region || !*o->region)
        return cat_error_set(err, CAT_EINVAL, "--region is required for sparecores");
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        rc = cat_error_set(err, CAT_EIO, "%s: cannot open as an SQLite database: %s", db_path,
                           db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return rc;
    }
    /* a file that is not a database fails its first statement */
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &q, NULL) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_ROW) {
        rc = cat_error_set(err, CAT_EIO, "%s: not an SQLite database: %s", db_path,
                           sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_finalize(q);
    q = NULL;
    if ((rc = check_schema(db, db_path, err)) != CAT_OK)
        goto out;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM region WHERE vendor_id = ? AND region_id = ?", -1, &q,
                           NULL) != SQLITE_OK) {
        rc = cat_error_set(err, CAT_EIO, "SQLite: %s", sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_bind_text(q, 1, vendor, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, o->region, -1, SQLITE_STATIC);
    found = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    q = NULL;
    if (!found) {
        list_regions(db, vendor, regions, sizeof regions);
        rc = cat_error_set(
            err, CAT_ENOTFOUND, "%s: vendor '%s' has no region '%s' (%s%s)", db_path, vendor,
            o->region, regions[0] ? "its regions: " : "no region of that vendor at all", regions);
        goto out;
    }
    if (!(catalog = cat_convert_new_catalog("USD", o)) ||
        json_object_set_new(catalog, "configs", json_array()) ||
        json_object_set_new(catalog, "notes", json_array()) ||
        json_object_set_new(catalog, "licence", json_string(SPARECORES_LICENCE)) ||
        json_object_set_new(catalog, "description",
                            json_pack("s", "from " SOURCE ": one vendor and region"))) {
        rc = cat_error_set(err, CAT_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = add_servers(db, catalog, vendor, o, newest, st, err)) != CAT_OK ||
        (rc = add_storages(db, catalog, vendor, o, newest, err)) != CAT_OK)
        goto out;
    if (st->instances == 0) {
        rc = cat_error_set(err, CAT_ENOTFOUND,
                           "%s: no server of vendor '%s' has an on-demand or spot price for OS "
                           "'%s' in region '%s' (%zu servers read)",
                           db_path, vendor, o->os ? o->os : "linux", o->region, st->records);
        goto out;
    }
    {
        /* one currency per catalog: the first price's; another one is refused */
        json_t *i0 = json_array_get(json_object_get(catalog, "instances"), 0);
        json_t *p0 = json_array_get(json_object_get(i0, "prices"), 0);
        const char *cur = json_string_value(json_object_get(p0, "currency"));
        json_object_set_new(catalog, "currency", json_string(cur ? cur : "USD"));
    }
    if (newest[0] && !given_as_of)
        json_object_set_new(catalog, "as_of", json_string(newest));
    json_array_append_new(json_object_get(catalog, "notes"),
                          json_string("prices from " SOURCE ", vendor and region as named in "
                                      "the ids; the data is licensed " SPARECORES_LICENCE
                                      " (share alike: a catalog made from it carries the "
                                      "licence)"));
    *out = catalog;
    catalog = NULL;
    rc = CAT_OK;
out:
    json_decref(catalog);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return rc;
}
