/*
 * setinput.h - the user's own cost inputs without editing a catalog: `--set
 * CONFIG.INPUT=VALUE[:LOW..HIGH]` (sizeup rank, report, study, catalog cost).
 *
 * INPUT is the name of one input of CONFIG's cost as `sizeup catalog cost CONFIG` lists it under
 * "inputs" (catalogs/cost.h cat_cost_input.name): the catalog's own keys, capital,
 * amortisation_years, maintenance_rate, licence, power_kw, cpu_load, pue, energy_per_kwh,
 * rack_per_month, colocation_per_kw_month, network_per_port_month, staff_per_month,
 * admin_cost_per_year, servers_per_admin, storage_per_gib, storage_redundancy, utilisation of a
 * server; instance (the instance's price under the pricing model costed); a disk's
 * per_gib_month, per_provisioned_iops_month, per_provisioned_mb_s_month (also with the "disk "
 * the list puts before them). VALUE is in the figure's own unit and currency, as the catalog
 * writes it (a CNY price in CNY, a monthly price per month). LOW..HIGH gives the input a new
 * range (the sensitivity table's and the tornado chart's low and high); without it the
 * catalog's range is kept, so VALUE must lie in it.
 *
 * Applying a setting changes the loaded catalog: the figure a configuration's cost reads (a
 * server's, an instance's or a disk type's, shared by every configuration on it) takes the value
 * and range, is no longer an estimate, is marked user_set, and its source says where it was set
 * ("set on the command line: idc-nvme.capital=18000"), its as_of is today (util/today.h), and
 * its note what the catalog had. Break-even and sensitivity (advisor/tco.h) keep a set input
 * among their inputs whether or not the catalog called it an estimate.
 *
 * Thread-safety: cat_set_parse is pure; cat_set_apply changes the catalog (before any reader).
 */
#ifndef SIZEUP_CATALOGS_SETINPUT_H
#define SIZEUP_CATALOGS_SETINPUT_H

#include "catalog.h"
#include "cost.h"

#include <stddef.h>

/* One parsed --set. */
struct cat_set {
    char config[128]; /* configuration id: the text before the last '.' before '=' */
    char input[48];   /* input name: the text after it */
    double value;     /* VALUE, finite */
    int has_range;    /* 1 when :LOW..HIGH was given */
    double low, high; /* the new range, low <= value <= high */
    char text[256];   /* the setting as given (for sources and messages) */
};

/**
 * Parse CONFIG.INPUT=VALUE or CONFIG.INPUT=VALUE:LOW..HIGH (numbers as strtod reads them,
 * finite; no unit). Only the syntax is checked: the names and the domain by cat_set_apply.
 * @param arg  the text; at most 255 bytes, the id 127, the input name 47
 * @param err  the reason when refused, without the option's name (cap bytes)
 * @return 0, or -1 (err set: no '=', no '.' before it, an empty id or name, a value that is not
 *         a number, a range not LOW..HIGH or not holding the value, too long).
 */
int cat_set_parse(const char *arg, struct cat_set *out, char *err, size_t cap);

/**
 * Apply one setting to a loaded catalog.
 * @param cat      the catalog, loaded (every file added); changed in place
 * @param pricing  the pricing model the command costs under (names which price `instance` is)
 * @param origin   where the setting was made, for the figure's source: "set on the command line"
 * @param err      why it was refused (cap bytes); names the setting
 * @param shared   if not NULL, receives the other configurations whose cost reads the same
 *                 figure (comma-separated, "" when none; cut at scap bytes with "...")
 * @return CAT_OK; CAT_ENOTFOUND (no such configuration, it cannot be priced under pricing, or no
 *         such input of its cost: err lists the inputs it has); CAT_EINVAL (the value or the new
 *         range outside the values the catalog accepts for the input, the value outside the
 *         catalog's range with no new range given, the figure already set by an earlier
 *         setting); CAT_ENOMEM (the catalog unchanged).
 */
int cat_set_apply(struct cat_catalog *cat, const struct cat_set *set, enum cat_pricing pricing,
                  const char *origin, char *err, size_t cap, char *shared, size_t scap);

/**
 * A set input of a cost as one line, for the notes of the outputs: "capital 18000 USD, range
 * 15000 to 22000: set on the command line: idc-nvme.capital=18000:15000..22000; the catalog's
 * figure was 10000 USD, range 5000 to 15000, an estimate".
 * @param in   an input whose figure has user_set
 * @param buf  receives the line (cap bytes, cut at cap)
 * @return buf.
 */
const char *cat_set_describe(const struct cat_cost_input *in, char *buf, size_t cap);

#endif
