/*
 * cost.h - what a configuration costs per hour, term by term.
 *
 * Cloud configuration (per pricing model), in the catalog's currency:
 *   instance  = nodes x hourly price            (monthly prices / 730, yearly / 8760)
 *   disk      = nodes x (C x price per GiB-month + P x price per provisioned IOPS-month
 *                        + T x price per provisioned MB/s-month) / 730
 * On-premises server (Koomey et al., Uptime Institute "A Simple Model for Determining True
 * Total Cost of Ownership for Data Centers", 2008; method in catalogs.md section 5), for the
 * share s of the server a slice uses, s = max(slice vCPU / vCPU, slice GiB / GiB) (1 without
 * a slice), per node:
 *   capital      = capex x s / (amortisation years x 8760)
 *   maintenance  = maintenance rate x capex x s / 8760
 *   power        = average kW x s x PUE x price per kWh
 *   rack         = rack cost per month x (U / U per rack) x s / 730
 *   staff        = staff cost per month x s / 730                         (when given)
 * Local disks (instance store, server NVMe) are priced in the instance or server.
 * An on-premises server costs the same under every pricing model.
 * Prices in another currency are converted only through the catalog's declared rates.
 *
 * Use (the advisor joins points to configurations by id = the points' target):
 *
 *     struct cat_catalog *cat = cat_catalog_new();
 *     struct cat_error err;
 *     struct cat_cost cost;
 *     if (cat_catalog_add_file(cat, "data/catalogs/published.json", &err) != CAT_OK) ...
 *     if (cat_config_cost(cat, "monosql-c5.2xlarge", CAT_PRICING_ON_DEMAND, nodes, &cost,
 *                         &err) == CAT_OK)
 *         price_per_hour = cost.per_hour;   (in cat->currency, "USD" for the bundled files;
 *                                            cost.terms[] is the breakdown)
 *     cat_catalog_free(cat);
 *
 * Thread-safety: functions touch only their arguments; the catalog is read-only.
 */
#ifndef SIZEUP_CATALOGS_COST_H
#define SIZEUP_CATALOGS_COST_H

#include "catalog.h"
#include "disk_perf.h"

#include <jansson.h>
#include <stdio.h>

#define CAT_MAX_TERMS 12

/* One term of a cost breakdown. */
struct cat_cost_term {
    char name[32];                 /* "instance", "disk capacity", "capital", "power", ... */
    char formula[240];             /* the arithmetic with its figures and units */
    double per_hour;               /* catalog currency per hour, all nodes */
    const struct cat_price *price; /* borrowed from the catalog: provenance; may be NULL */
    const struct cat_rate *rate;   /* conversion rate used, or NULL */
};

/* Cost of one configuration under one pricing model. */
struct cat_cost {
    const struct cat_config *config; /* borrowed */
    enum cat_pricing pricing;
    char currency[8];
    int nodes;
    double per_hour;  /* sum of the terms, catalog currency per hour */
    double per_month; /* per_hour x 730 */
    int estimate;     /* 1 when any term rests on an estimate */
    size_t n_terms;
    struct cat_cost_term terms[CAT_MAX_TERMS];
    int has_disk;
    struct cat_disk_perf disk; /* per node, before the instance cap */
    double iops;               /* per node, after the instance's block-storage cap */
    double throughput_mb_s;    /* per node, after the instance's cap */
};

/**
 * Cost of the configuration config_id under pricing.
 *
 * @param cat      loaded catalog
 * @param config_id id of a configuration in cat
 * @param pricing  pricing model; an on-premises server ignores it
 * @param nodes    node count, >= 1, or 0 to use the configuration's own (scale-out points
 *                 carry their node count and pass it here)
 * @param out      filled on success
 * @param err      detail on error; may be NULL
 * @return CAT_OK; CAT_ENOTFOUND (no such configuration, or its instance has no price for
 *         pricing: err names the models it has); CAT_EINVAL (disk provisioning out of limits,
 *         currency without a rate, nodes < 0).
 */
int cat_config_cost(const struct cat_catalog *cat, const char *config_id, enum cat_pricing pricing,
                    int nodes, struct cat_cost *out, struct cat_error *err);

/**
 * Hourly cost of a share of one on-premises server (the five terms above), into out
 * (out->config is NULL, nodes 1).
 * @param share  fraction of the server, (0, 1]
 * @return CAT_OK, CAT_EINVAL (share out of range, a currency without a rate).
 */
int cat_server_cost(const struct cat_catalog *cat, const struct cat_server *s, double share,
                    struct cat_cost *out, struct cat_error *err);

/** Pricing models the configuration can be costed under, as a bit mask (1 << pricing). */
unsigned cat_config_pricings(const struct cat_catalog *cat, const struct cat_config *cf);

/**
 * Print a breakdown: one line per term with its formula, then the total per hour and per
 * month, the disk performance, and the sources of every price used.
 */
void cat_cost_print(FILE *f, const struct cat_cost *c);

/**
 * The breakdown as a JSON object {config, pricing, currency, nodes, per_hour, per_month,
 * estimate, terms: [{name, formula, per_hour, source, as_of, estimate, note}], disk: {...}}.
 * @return a new reference, or NULL when out of memory.
 */
json_t *cat_cost_to_json(const struct cat_cost *c);

#endif
