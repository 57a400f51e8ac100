/*
 * sparecores.h - the Spare Cores database (sc-data-all.db, an SQLite file the Spare Cores
 * project publishes under CC BY-SA 4.0) into a sizeup.catalog/1 document: one vendor and region.
 *
 * The schema read is that of the SpareCores/sc-crawler repository, src/sc_crawler/table_bases.py
 * and table_fields.py at commit 021afb03bb35 (after the v2.0.0 migration reset): tables
 *   server        vendor_id, server_id, name, api_reference, display_name, description, family,
 *                 vcpus, cpu_speed (GHz), cpu_manufacturer, cpu_family, cpu_model,
 *                 memory_amount (MiB), status
 *   server_price  vendor_id, region_id, zone_id, server_id, operating_system, allocation
 *                 (ONDEMAND, RESERVED, SPOT: SQLAlchemy stores an enum's name; its value,
 *                 "ondemand", is read too), unit (HOUR, MONTH, YEAR, ...), price, currency,
 *                 status, observed_at
 *   storage       vendor_id, storage_id, name, storage_type, max_iops, max_throughput,
 *                 min_size, max_size, status
 *   storage_price vendor_id, region_id, storage_id, unit (GB_MONTH, ...), price, currency,
 *                 status, observed_at
 *   region        vendor_id, region_id, name
 * Before anything is read every table and column named here is looked up (PRAGMA table_info);
 * a database without one is refused, naming what is missing.
 *
 * What is written, for the region's active rows:
 *   - an instance per server with a price there: id "VENDOR:REGION:API_REFERENCE", provider
 *     (alicloud is "alibaba", as the bundled catalogs name it), name, family, vcpu, memory_gib
 *     (memory_amount / 1024), clock_ghz (cpu_speed), processor (manufacturer, family, model);
 *     prices: on-demand and spot for the operating system asked (the lowest over the region's
 *     zones, the zones' count in the note), each with its currency, the unit of the row, as_of
 *     the date of its observed_at, and the source "Spare Cores sc-data-all.db (CC BY-SA 4.0):
 *     server_price"; reserved rows have no term in the schema and are left out (counted);
 *   - a configuration per instance, its id the instance's (`catalog cost ID` prices it);
 *   - a disk per storage with a price per GB-month there, when sizeup knows its performance rule
 *     (Alibaba ESSD PL0-PL3 and AutoPL by the storage id or name, the rules of the bundled
 *     catalogs: Alibaba Cloud's "ESSDs" page); a priced storage without a known rule is listed in
 *     the catalog's notes with its price, never given an invented rule;
 *   - the catalog's source, its licence (the top-level "licence" key, and a note) and its
 *     as_of (the newest observed_at written).
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_CATALOGS_SPARECORES_H
#define SIZEUP_CATALOGS_SPARECORES_H

#include "catalog.h"
#include "convert.h"

#include <jansson.h>

/* The licence of the Spare Cores data, carried into the catalog and every price's source. */
#define SPARECORES_LICENCE "CC BY-SA 4.0"

/**
 * Read db_path and build a catalog of vendor's servers and storages priced in o->region.
 * @param vendor  Spare Cores vendor_id, e.g. "alicloud", "aws", "azure", "gcp", "hcloud"
 * @param o       region (required), os ("linux" default: operating_system, case-insensitive;
 *                Spare Cores names it e.g. "Linux"), pricings (on-demand and spot are read)
 * @param out     on CAT_OK a new catalog object (caller's reference)
 * @return CAT_OK; CAT_EIO (the file cannot be opened as an SQLite database); CAT_ESCHEMA (a table
 *         or column is missing: err names it); CAT_ENOTFOUND (no such vendor or region: err
 *         lists what there is, or no server priced there); CAT_ENOMEM.
 */
int cat_convert_sparecores(const char *db_path, const char *vendor,
                           const struct cat_convert_options *o, json_t **out,
                           struct cat_convert_stats *st, struct cat_error *err);

#endif
