/*
 * load_field.h - the field readers every section of a sizeup.catalog/1 document shares: price
 * and figure objects with their provenance and range, ids unique across the files loaded, a
 * machine's local disk, and the array growth of the sections. Each reads from a jansson object
 * of the document and, on a bad field, sets ld->jr's message and position (util/jsonread.h) and
 * returns its error. Not part of the public API; the readers of load.c and load_server.c.
 *
 * Errors of every int-returning reader: CAT_OK; CAT_EINVAL (the field is wrong: ld->jr says
 * where and why); CAT_ENOMEM. Strings they store are malloc'd and owned by the catalog entry
 * (cat_catalog_free frees them), also when an error is returned after they were stored.
 */
#ifndef SIZEUP_CATALOGS_LOAD_FIELD_H
#define SIZEUP_CATALOGS_LOAD_FIELD_H

#include "catalog.h"
#include "load_state.h"

#include <jansson.h>
#include <stddef.h>

/* 1 when s is three upper-case letters (an ISO 4217 code's shape); 0 otherwise or when NULL. */
int cat_ld_currency_ok(const char *s);

/* The integer member key of obj into *out, in [min, max]; absent: dflt, or an error when
 * flags says required (jr_get_int's flags and range, narrowed to int). */
int cat_ld_int(struct cat_jr *ld, json_t *obj, const char *key, int flags, int min, int max,
               int dflt, int *out);

/* The provenance of a price or figure object obj into p: source, as_of (a date), estimate,
 * note (an estimate needs one); with need_currency, also its currency, which must be the
 * catalog's or one of its rates. Sets p->present. The amount is read by the caller. */
int cat_ld_provenance(struct cat_jr *ld, json_t *obj, struct cat_price *p, int need_currency);

/* The price object {amount, currency, source, as_of, estimate, note, low, high} under key of
 * obj into *p (zeroed first); absent or null: p stays zero (present 0), an error when
 * required. amount in [0, 1e12] in its currency. */
int cat_ld_price(struct cat_jr *ld, json_t *obj, const char *key, int required,
                 struct cat_price *p);

/* The optional range {low, high} of a price or figure object v whose amount is p->amount:
 * both or neither, low <= amount <= high, each in [min, max]. Sets p->has_range. */
int cat_ld_range(struct cat_jr *ld, json_t *v, struct cat_price *p, double min, double max);

/* A figure under key of obj into *f: a number in [min, max], or an object {value, source,
 * as_of, estimate, note, low, high}; absent: dflt (an error when required). f->present is 1
 * when given. */
int cat_ld_figure(struct cat_jr *ld, json_t *obj, const char *key, double min, double max,
                  int required, double dflt, cat_figure *f);

/* Room for element n of an array arr of n elements of size bytes, the new element zeroed;
 * the capacity doubles at each power of two, so only for arrays grown by this function from
 * NULL. Returns the array (perhaps moved), or NULL out of memory (arr is then still valid). */
void *cat_ld_grow(void *arr, size_t n, size_t size);

/* The "id" of obj into *out (malloc'd; the caller's entry owns it): no control character,
 * unique in section sec of ld->cat and ld->base. On an error *out is NULL. */
int cat_ld_id(struct cat_jr *ld, json_t *obj, enum cat_section sec, char **out);

/* The disk type id among ld->cat's disks, else ld->base's; NULL when neither has it. */
const struct cat_disk *cat_ld_disk(const struct cat_jr *ld, const char *id);

/* The optional local_disk {disk, count, size_gib} of obj: *disk (malloc'd, the entry owns it)
 * a known local disk type, *count in [1, 64] (default 1), *gib each in [1, 1e7] GiB. Absent:
 * nothing is stored. */
int cat_ld_local_disk(struct cat_jr *ld, json_t *obj, char **disk, int *count, double *gib);

#endif
