/*
 * jsonread.h - reading a parsed catalog document with positions: typed, range-checked getters
 * that keep the JSON path of the value being read and, on error, fill struct cat_error with
 * "FILE:LINE:COLUMN: $.path: what was expected" (line and column from jsonpos_find()).
 *
 * Every getter returns CAT_OK or the error it reported (CAT_EINVAL, CAT_ENOMEM); strings it
 * returns are new heap copies the caller frees. Used by load.c; not part of the public API.
 *
 * Thread-safety: a reader belongs to one thread.
 */
#ifndef SIZEUP_CATALOGS_JSONREAD_H
#define SIZEUP_CATALOGS_JSONREAD_H

#include "catalog.h"

#include <jansson.h>
#include <stddef.h>

/* State of one document being read. */
struct cat_jr {
    const char *text;
    size_t len;
    const char *name;
    struct cat_error *err;
    char path[160];
    const struct cat_catalog *base; /* files already loaded */
    struct cat_catalog *cat;        /* this file */
};

/** Report an error at the current path (printf-style); returns CAT_EINVAL. */
int cat_jr_fail(struct cat_jr *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Report that memory ran out; returns CAT_ENOMEM. */
int cat_jr_nomem(struct cat_jr *ld);

/** Append ".key" / "[i]" to the path; return the old length for cat_jr_pop(). */
size_t cat_jr_push_key(struct cat_jr *ld, const char *key);
size_t cat_jr_push_index(struct cat_jr *ld, size_t i);

/** Cut the path back to length n. */
void cat_jr_pop(struct cat_jr *ld, size_t n);

/** "an object", "a number", ... for messages. */
const char *cat_jr_type_name(const json_t *v);

/** Reject a key of obj that is not in the NULL-terminated list allowed (names the key). */
int cat_jr_check_keys(struct cat_jr *ld, json_t *obj, const char *const *allowed);

/** String member key; *out is a new copy, NULL when absent and not required. */
int cat_jr_get_str(struct cat_jr *ld, json_t *obj, const char *key, int required, char **out);

/** Number member in [min, max]; *out = dflt when absent and not required. */
int cat_jr_get_num(struct cat_jr *ld, json_t *obj, const char *key, int required, double min,
                   double max, double dflt, double *out);

/** Integer member in [min, max] (a real such as 4.5 is refused); dflt when absent. */
int cat_jr_get_int(struct cat_jr *ld, json_t *obj, const char *key, int required, int min, int max,
                   int dflt, int *out);

/** Boolean member; dflt when absent. */
int cat_jr_get_bool(struct cat_jr *ld, json_t *obj, const char *key, int dflt, int *out);

/** Date member YYYY-MM-DD; *out is a new copy, NULL when absent and not required. */
int cat_jr_get_date(struct cat_jr *ld, json_t *obj, const char *key, int required, char **out);

/** 1 when s is three upper-case letters (an ISO 4217 code's shape), else 0. */
int cat_jr_valid_currency(const char *s);

#endif
