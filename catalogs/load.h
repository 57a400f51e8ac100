/*
 * load.h - the sizeup.catalog/1 document reader behind cat_catalog_add_buffer(): checks every
 * section of one parsed document (keys, types, ranges, currencies and rates, unique ids,
 * references to the document itself and to the catalogs loaded before, disk limits) and fills
 * jr->cat. Not part of the public API.
 */
#ifndef SIZEUP_CATALOGS_LOAD_H
#define SIZEUP_CATALOGS_LOAD_H

#include "load_state.h"

#include <jansson.h>

/**
 * Read root into jr->cat (an empty catalog the caller owns and clears), checking references
 * against jr->cat and jr->base (may be NULL).
 * @return CAT_OK; CAT_ESCHEMA (schema missing or another version); CAT_EINVAL; CAT_ENOMEM;
 *         jr->jr says where and why (msg, line, column, fail_path).
 */
int cat_load_document(struct cat_jr *jr, json_t *root);

#endif
