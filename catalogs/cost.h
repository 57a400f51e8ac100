/*
 * cost.h - what a configuration costs per hour, term by term.
 *
 * Cloud configuration (per pricing model), in the catalog's currency:
 *   instance  = nodes x hourly price            (monthly prices / 730, yearly / 8760)
 *   disk      = nodes x (C x price per GiB-month + P x price per provisioned IOPS-month
 *                        + T x price per provisioned MB/s-month) / 730
 * On-premises server (the terms of Koomey et al., Uptime Institute "A Simple Model for
 * Determining True Total Cost of Ownership for Data Centers", 2008, and of the cloud vendors'
 * TCO calculators: server hardware with a refresh period, software, power with PUE, space,
 * network, IT labour, storage with its redundancy, a utilisation/consolidation factor;
 * docs/reference/catalogs.md section 5; docs/catalog-format.md "Servers"). For the share e of the
 * server a configuration pays: a slice's s = max(slice vCPU / vCPU, slice GiB / GiB) divided by the
 * server's utilisation u (the packing factor: idle capacity is paid by the slices that run),
 * e = min(1, s / u); a whole server e = 1. Per copy (nodes x (1 + standby copies)):
 *   capital      = capex x e / (life years x 8760)
 *   maintenance  = maintenance rate x capex x e / 8760
 *   licence      = units x licence per unit-year x e / 8760   (units: 1, or physical cores)
 *   power        = P(load) kW x e x PUE x price per kWh       (P: power_kw, or the power curve
 *                  interpolated linearly at the load: cpu_load, or a measured utilisation
 *                  rho of the configuration, cat_cost_opts.measured_load: load = rho for a
 *                  whole server, u x rho for a slice: the slices fill u of the server, each
 *                  as busy as the measured one)
 *   rack         = rack per month x (U / U per rack) x e / 730, or
 *   colocation   = P(1) kW x price per kW-month x e / 730      (space is sold per kW of peak)
 *   network      = ports x price per port-month x e / 730
 *   staff        = staff per month x e / 730, or admin cost per year / servers per admin x e / 8760
 *   storage      = G GiB x redundancy x price per raw GiB x (1 / life + maintenance rate) / 8760
 *                  (G = the configuration's size on the server's local disk; absent: the
 *                  disks are in capex)
 * Local disks (instance store, server NVMe) are otherwise priced in the instance or server.
 * An on-premises server costs the same under every pricing model. A highly available server
 * configuration pays its standby copies; cat_cost_opts.add_standby adds copies to any
 * configuration that is not highly available (a like-for-like comparison with an HA one).
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

#define CAT_MAX_TERMS 16
#define CAT_MAX_INPUTS 24

/*
 * One input of a cost: a catalog figure the cost rests on (a price or a figure of the server
 * model), with the value used. Break-even and sensitivity analyses (advisor/tco.h) change one
 * input at a time through a cat_override.
 */
struct cat_cost_input {
    char name[40];               /* the catalog key: "capital", "servers_per_admin", "instance" */
    const struct cat_price *fig; /* borrowed from the catalog: provenance, estimate, range */
    double value;                /* the value used, in the figure's own unit and currency */
    char unit[24];               /* "USD", "USD/kWh", "y", "" ... */
    double min, max;             /* the values the catalog would accept */
};

/* Use value instead of the catalog's figure fig (compared by address). */
struct cat_override {
    const struct cat_price *fig;
    double value;
};

/* How to cost: overrides of inputs and standby copies added to a configuration that is not
 * highly available. A zeroed struct is the catalog as written. */
struct cat_cost_opts {
    const struct cat_override *ov;
    size_t n_ov;
    int add_standby;      /* >= 0: copies added when the configuration is not HA */
    double measured_load; /* (0, 1]: the configuration's measured utilisation at its operating
                             point (advisor/rank.h rank_row.load), read on the power curve
                             instead of cpu_load (above); 0: the catalog's cpu_load */
    int values_only;      /* 1: figures only, every term's formula left "" (a ranking of a
                             million configurations prices each several times) */
};

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
    int standby;           /* standby copies priced (an HA server's own, or added), >= 0 */
    int ha;                /* 1: highly available as priced (the configuration's own or a standby
                              added) */
    int owned;             /* 1: an on-premises server */
    double capex;          /* owned: catalog currency paid at each purchase, all copies (capital
                              share and storage capital) */
    double capex_per_hour; /* owned: its straight-line share per hour (capex / life) */
    double life_years;     /* owned: years between purchases */
    double power_load;     /* owned with a power curve: the load the curve was read at, else NAN */
    int power_load_measured; /* 1: power_load from cat_cost_opts.measured_load, 0: cpu_load */
    double commit_per_hour;  /* cloud: the part of per_hour bought under the pricing model's
                                commitment (the instance); disks are paid monthly */
    double per_hour;         /* sum of the terms, catalog currency per hour */
    double per_month;        /* per_hour x 730 */
    int estimate;            /* 1 when any term rests on an estimate */
    size_t n_terms;
    struct cat_cost_term terms[CAT_MAX_TERMS];
    int has_disk;
    struct cat_disk_perf disk; /* per node, before the instance cap */
    double iops;               /* per node, after the instance's block-storage cap */
    double throughput_mb_s;    /* per node, after the instance's cap */
    size_t n_inputs;
    struct cat_cost_input inputs[CAT_MAX_INPUTS]; /* every figure used, in term order */
};

/*
 * Net present value of a cost over a horizon (cat_cost_npv). Months t = 1..H, a monthly
 * discount factor d(t) = (1 + rate)^(-t/12). Owned: capex at t = 0 and again at every end of
 * life (t = k x 12 x life < H), running costs (per_hour - capex_per_hour) x 730 at the end of
 * each month, and the last purchase's straight-line book value capex x (1 - age / life) at
 * t = H as a credit (residual). Cloud: pay-as-you-go months at their end; a commitment of T
 * months (reserved, savings plan, subscription) is bought at t = 0, T, 2T ... < H and paid
 * whole at its start (upfront) or monthly to its end (no upfront, also past H: a commitment
 * is owed); disks are paid monthly.
 */
struct cat_npv {
    int months;              /* H */
    double rate;             /* annual discount rate */
    double total;            /* capital + running - residual, catalog currency */
    double capital;          /* owned: present value of the purchases; cloud: of the upfront part */
    double running;          /* the rest, paid monthly */
    double residual;         /* owned: present value of the book value at H (a credit), else 0 */
    int purchases;           /* owned: purchases in the horizon; cloud: commitments bought */
    double discounted_hours; /* 730 x sum of d(t) over t = 1..H: hours weighted as money is,
                                for a levelised cost per unit of work */
};

/**
 * NPV of cost c (from cat_config_cost*) over months >= 1 at annual rate (0 <= rate < 10).
 * @return CAT_OK, or CAT_EINVAL (months < 1, rate out of range, an owned cost without a life).
 */
int cat_cost_npv(const struct cat_cost *c, int months, double rate, struct cat_npv *out);

/**
 * cat_config_cost with overrides and added standby copies (o may be NULL: none).
 * @return as cat_config_cost; CAT_EINVAL also for an override outside its input's domain.
 */
int cat_config_cost_x(const struct cat_catalog *cat, const char *config_id,
                      enum cat_pricing pricing, int nodes, const struct cat_cost_opts *o,
                      struct cat_cost *out, struct cat_error *err);

/**
 * Power in kW of server s at CPU load (0..1): power_kw, or the curve interpolated linearly
 * between its points (SPECpower_ssj2008 publishes watts at idle and at 10 % steps of load).
 */
double cat_server_power_kw(const struct cat_server *s, double load);

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
 * Hourly cost of a share of one on-premises server (the terms above; no storage term: that
 * belongs to a configuration's size), into out (out->config is NULL, nodes 1).
 * @param share  fraction of the server, (0, 1], already the share e paid (no packing applied)
 * @return CAT_OK, CAT_EINVAL (share out of range, a currency without a rate).
 */
int cat_server_cost(const struct cat_catalog *cat, const struct cat_server *s, double share,
                    struct cat_cost *out, struct cat_error *err);

/** Pricing models the configuration can be costed under, as a bit mask (1 << pricing). */
unsigned cat_config_pricings(const struct cat_catalog *cat, const struct cat_config *cf);

/**
 * Print a breakdown: one line per term with its formula, then the total per hour and per
 * month, the disk performance, the inputs (an estimate or one set by the user, setinput.h,
 * marked, with its range) and the sources of every price used.
 */
void cat_cost_print(FILE *f, const struct cat_cost *c);

/**
 * The breakdown as a JSON object {config, pricing, currency, nodes, per_hour, per_month,
 * estimate, inputs: [{name, value, unit, estimate, set, note, low, high, source, as_of}] (set
 * and note for an input set by the user), terms: [{name, formula, per_hour, source, as_of,
 * estimate, note}], disk: {...}}.
 * @return a new reference, or NULL when out of memory.
 */
json_t *cat_cost_to_json(const struct cat_cost *c);

#endif
