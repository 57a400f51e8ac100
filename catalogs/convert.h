/*
 * convert.h - turn public price lists into sizeup.catalog/1 documents:
 *
 *  - ec2instances.info instances.json (a JSON array of instance objects; prices are strings
 *    in USD per hour under pricing[region][os]: "ondemand", "spot_avg" and
 *    reserved["yrTerm{1,3}{Standard,Convertible}.{noUpfront,partialUpfront,allUpfront}"],
 *    reserved values being effective hourly rates; docs/reference/catalogs.md section 2a);
 *  - Azure Retail Prices API pages ({"Items": [...], "NextPageLink": ...}; items with
 *    armSkuName, armRegionName, retailPrice, unitOfMeasure "1 Hour", currencyCode, productName
 *    ending in " Windows" for Windows, skuName ending in " Spot" / " Low Priority", type
 *    Consumption | Reservation | DevTestConsumption, reservationTerm "1 Year" | "3 Years",
 *    effectiveStartDate; docs/reference/catalogs.md section 2c). A Reservation retailPrice is the
 * price of the whole term and becomes an hourly rate: retailPrice / (years x 8760).
 *
 * Prices are parsed from strings or numbers with strtod; a value that is not a finite number
 * >= 0 (e.g. "N/A") is skipped and counted. An instance with none of the asked prices is left
 * out and counted.
 *
 * The result is a JSON object (jansson "new" reference owned by the caller) that
 * cat_catalog_add_buffer() accepts.
 */
#ifndef SIZEUP_CATALOGS_CONVERT_H
#define SIZEUP_CATALOGS_CONVERT_H

#include "catalog.h"

#include <jansson.h>

struct cat_convert_options {
    const char *region;   /* ec2instances: "us-east-1" (default); azure: "eastus" (default) */
    const char *os;       /* ec2instances OS key ("linux" default, "mswin", "rhel", ...);
                             azure: "linux" (default) or "windows" */
    unsigned pricings;    /* bit mask of 1 << enum cat_pricing; 0 = on-demand, reserved-1y,
                             reserved-3y */
    const char *offering; /* ec2instances reserved offering class: "Standard" (default) or
                             "Convertible" */
    const char *purchase; /* ec2instances purchase option: "noUpfront" (default),
                             "partialUpfront", "allUpfront" */
    const char *as_of;    /* as-of date YYYY-MM-DD of the catalog (and of ec2instances prices) */
    const char *name;     /* catalog name; may be NULL */
};

struct cat_convert_stats {
    size_t records;       /* instance objects or price items read */
    size_t instances;     /* instances written */
    size_t prices;        /* prices written */
    size_t skipped_price; /* price values that were not numbers */
    size_t skipped_none;  /* instances or items left out (no asked price, other region/OS) */
};

/** The element of JSON array arr whose "id" is id (borrowed), or NULL. */
json_t *cat_convert_find_id(json_t *arr, const char *id);

/**
 * A catalog price object (docs/catalog-format.md "Prices"): pricing (left out when
 * CAT_PRICING_COUNT), unit ("hour", "month"; left out when NULL), amount, currency, source,
 * as_of and note (left out when NULL). The converters' one way to write a price.
 * @return a new object (the caller's reference), or NULL (memory).
 */
json_t *cat_convert_price(enum cat_pricing pricing, const char *unit, double amount,
                          const char *currency, const char *source, const char *as_of,
                          const char *note);

/** Defaults listed in struct cat_convert_options; as_of must still be set by the caller. */
void cat_convert_options_default(struct cat_convert_options *o);

/**
 * A new, empty catalog object: schema, name, currency, as_of, instances [].
 * @return a new reference, or NULL when out of memory.
 */
json_t *cat_convert_new_catalog(const char *currency, const struct cat_convert_options *o);

/**
 * Add the instances of one ec2instances.info instances.json document to catalog.
 * @param doc     parsed instances.json (borrowed)
 * @param source  file name or URL, recorded as each price's source
 * @return CAT_OK, CAT_EINVAL (doc is not an array of objects with instance_type; err names
 *         the element), CAT_ENOMEM.
 */
int cat_convert_ec2instances(json_t *catalog, json_t *doc, const char *source,
                             const struct cat_convert_options *o, struct cat_convert_stats *st,
                             struct cat_error *err);

/**
 * Add the virtual-machine prices of one Azure Retail Prices document (one page, or the
 * joined pages cat_fetch() writes) to catalog.
 * @return CAT_OK, CAT_EINVAL (not an object with an Items array; an item of another currency
 *         than the catalog's), CAT_ENOMEM.
 */
int cat_convert_azure_retail(json_t *catalog, json_t *doc, const char *source,
                             const struct cat_convert_options *o, struct cat_convert_stats *st,
                             struct cat_error *err);

#endif
