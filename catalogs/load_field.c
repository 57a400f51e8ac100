/* load_field.c - the field readers every section of a catalog document shares (load_field.h). */
#include "load_field.h"

#include "textsafe.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* 1 when s is three upper-case letters (an ISO 4217 code's shape), else 0. */
int cat_ld_currency_ok(const char *s)
{
    if (!s || strlen(s) != 3)
        return 0;
    for (int i = 0; i < 3; i++)
        if (!isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

/* An integer member into an int field (jr_get_int's range, in int). */
int cat_ld_int(struct cat_jr *ld, json_t *obj, const char *key, int flags, int min, int max,
               int dflt, int *out)
{
    long long v;
    int rc = jr_get_int(&ld->jr, obj, key, flags, min, max, dflt, &v);
    *out = (int)v;
    return rc;
}

static int known_currency(const struct cat_jr *ld, const char *code)
{
    double x;
    if (strcmp(code, ld->cat->currency) == 0)
        return 1;
    return cat_catalog_convert(ld->cat, 1.0, code, &x, NULL) == CAT_OK;
}

/* Provenance and currency of a price object (amount read by the caller's key). */
int cat_ld_provenance(struct cat_jr *ld, json_t *obj, struct cat_price *p, int need_currency)
{
    int rc;
    if (need_currency) {
        char *cur = NULL;
        if ((rc = jr_get_str(&ld->jr, obj, "currency", 1, &cur)) != CAT_OK)
            return rc;
        size_t n = jr_push_key(&ld->jr, "currency");
        if (!cat_ld_currency_ok(cur))
            rc = jr_fail(&ld->jr, "expected an ISO 4217 currency code such as \"USD\", got \"%s\"",
                         cur);
        else if (!known_currency(ld, cur))
            rc = jr_fail(&ld->jr,
                         "currency %s is neither the catalog currency (%s) nor declared in $.rates",
                         cur, ld->cat->currency);
        else
            snprintf(p->currency, sizeof p->currency, "%s", cur);
        jr_pop(&ld->jr, n);
        free(cur);
        if (rc != CAT_OK)
            return rc;
    }
    if ((rc = jr_get_str(&ld->jr, obj, "source", 1, &p->source)) != CAT_OK)
        return rc;
    if ((rc = jr_get_date(&ld->jr, obj, "as_of", 1, &p->as_of)) != CAT_OK)
        return rc;
    if ((rc = jr_get_bool(&ld->jr, obj, "estimate", 0, 0, &p->estimate)) != CAT_OK)
        return rc;
    if ((rc = jr_get_str(&ld->jr, obj, "note", 0, &p->note)) != CAT_OK)
        return rc;
    if (p->estimate && !p->note)
        return jr_fail(&ld->jr, "an estimate needs a 'note' saying how it was made");
    p->present = 1;
    return CAT_OK;
}

static const char *const price_keys[] = {"amount", "currency", "source", "as_of", "estimate",
                                         "note",   "low",      "high",   NULL};

/* A price object under key (optional unless required). */
int cat_ld_price(struct cat_jr *ld, json_t *obj, const char *key, int required, struct cat_price *p)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    memset(p, 0, sizeof *p);
    if (!v || json_is_null(v)) {
        if (required)
            return jr_fail(&ld->jr, "missing required key '%s' (a price object)", key);
        return CAT_OK;
    }
    n = jr_push_key(&ld->jr, key);
    if (!json_is_object(v)) {
        rc = jr_fail(&ld->jr, "expected a price object {amount, currency, source, as_of}, got %s",
                     jr_type_name(v));
    } else if ((rc = jr_check_keys(&ld->jr, v, price_keys)) == CAT_OK &&
               (rc = jr_get_num(&ld->jr, v, "amount", 1, 0, 1e12, 0, &p->amount)) == CAT_OK &&
               (rc = cat_ld_provenance(ld, v, p, 1)) == CAT_OK) {
        rc = cat_ld_range(ld, v, p, 0, 1e12);
    }
    jr_pop(&ld->jr, n);
    return rc;
}

/*
 * The optional range {low, high} of a price or figure object v whose amount is p->amount:
 * both or neither, low <= amount <= high, within [min, max].
 */
int cat_ld_range(struct cat_jr *ld, json_t *v, struct cat_price *p, double min, double max)
{
    json_t *lo = json_object_get(v, "low"), *hi = json_object_get(v, "high");
    int rc;
    if (!lo && !hi)
        return CAT_OK;
    if (!lo || !hi)
        return jr_fail_key(&ld->jr, lo ? "low" : "high", "a range needs both 'low' and 'high'");
    if ((rc = jr_get_num(&ld->jr, v, "low", 1, min, max, 0, &p->low)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "high", 1, min, max, 0, &p->high)) != CAT_OK)
        return rc;
    if (p->low > p->amount)
        return jr_fail_key(&ld->jr, "low", "low %g is above the value %g", p->low, p->amount);
    if (p->high < p->amount)
        return jr_fail_key(&ld->jr, "high", "high %g is below the value %g", p->high, p->amount);
    p->has_range = 1;
    return CAT_OK;
}

/*
 * A figure under key: a number in [min, max], or an object {value, source, as_of, estimate,
 * note, low, high}; absent: dflt (or an error when required). present is 1 when given.
 */
int cat_ld_figure(struct cat_jr *ld, json_t *obj, const char *key, double min, double max,
                  int required, double dflt, cat_figure *f)
{
    static const char *const keys[] = {"value", "source", "as_of", "estimate",
                                       "note",  "low",    "high",  NULL};
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc;
    memset(f, 0, sizeof *f);
    f->amount = dflt;
    if (!v || json_is_null(v)) {
        if (required)
            return jr_fail(&ld->jr, "missing required key '%s'", key);
        return CAT_OK;
    }
    if (json_is_number(v)) {
        rc = jr_get_num(&ld->jr, obj, key, 1, min, max, dflt, &f->amount);
        f->present = rc == CAT_OK;
        return rc;
    }
    n = jr_push_key(&ld->jr, key);
    if (!json_is_object(v))
        rc = jr_fail(&ld->jr,
                     "expected a number or an object {value, source, as_of, estimate, note, low, "
                     "high}, got %s",
                     jr_type_name(v));
    else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "value", 1, min, max, 0, &f->amount)) == CAT_OK &&
             (rc = cat_ld_provenance(ld, v, f, 0)) == CAT_OK)
        rc = cat_ld_range(ld, v, f, min, max);
    jr_pop(&ld->jr, n);
    return rc;
}

/*
 * Make room for element n of an array of n elements (zeroed). The capacity doubles at every
 * power of two, so appending n elements copies O(n) in all (a realloc by one each time is
 * quadratic wherever realloc copies). Only for arrays grown by this function from NULL.
 */
void *cat_ld_grow(void *arr, size_t n, size_t size)
{
    char *p = arr;
    if (n == 0 || (n & (n - 1)) == 0) {
        p = realloc(arr, (n ? 2 * n : 1) * size);
        if (!p)
            return NULL;
    }
    memset(p + n * size, 0, size);
    return p;
}

static int id_taken(const struct cat_catalog *c, enum cat_section sec, const char *id)
{
    switch (sec) {
    case CAT_SEC_INSTANCE:
        return cat_find_instance(c, id) != NULL;
    case CAT_SEC_DISK:
        return cat_find_disk(c, id) != NULL;
    case CAT_SEC_SERVER:
        return cat_find_server(c, id) != NULL;
    case CAT_SEC_CONFIG:
        return cat_find_config(c, id) != NULL;
    case CAT_SEC_COUNT:
        break;
    }
    return 0;
}

int cat_ld_id(struct cat_jr *ld, json_t *obj, enum cat_section sec, char **out)
{
    static const char *const names[] = {"instance", "disk", "server", "config"};
    int rc = jr_get_str(&ld->jr, obj, "id", 1, out);
    char vis[160];
    if (rc != CAT_OK)
        return rc;
    if (textsafe_control_at(*out) >= 0) {
        size_t n = jr_push_key(&ld->jr, "id");
        rc = jr_fail(&ld->jr,
                     "an id with a control character, \"%s\": ids are printed to terminals and "
                     "reports; remove it",
                     textsafe_visible(*out, vis, sizeof vis));
        jr_pop(&ld->jr, n);
        free(*out);
        *out = NULL;
        return rc;
    }
    if (id_taken(ld->cat, sec, *out) || (ld->base && id_taken(ld->base, sec, *out))) {
        size_t n = jr_push_key(&ld->jr, "id");
        rc = jr_fail(&ld->jr,
                     "duplicate %s id \"%s\" (ids are unique within a section, across files)",
                     names[sec], *out);
        jr_pop(&ld->jr, n);
        free(*out);
        *out = NULL;
    }
    return rc;
}

const struct cat_disk *cat_ld_disk(const struct cat_jr *ld, const char *id)
{
    const struct cat_disk *d = cat_find_disk(ld->cat, id);
    return d ? d : (ld->base ? cat_find_disk(ld->base, id) : NULL);
}

int cat_ld_local_disk(struct cat_jr *ld, json_t *obj, char **disk, int *count, double *gib)
{
    static const char *const keys[] = {"disk", "count", "size_gib", NULL};
    json_t *v = json_object_get(obj, "local_disk");
    size_t n;
    int rc;
    if (!v || json_is_null(v))
        return CAT_OK;
    n = jr_push_key(&ld->jr, "local_disk");
    if (!json_is_object(v))
        rc =
            jr_fail(&ld->jr, "expected an object {disk, count, size_gib}, got %s", jr_type_name(v));
    else if ((rc = jr_check_keys(&ld->jr, v, keys)) == CAT_OK &&
             (rc = jr_get_str(&ld->jr, v, "disk", 1, disk)) == CAT_OK &&
             (rc = cat_ld_int(ld, v, "count", 0, 1, 64, 1, count)) == CAT_OK &&
             (rc = jr_get_num(&ld->jr, v, "size_gib", 1, 1, 1e7, 0, gib)) == CAT_OK) {
        const struct cat_disk *d = cat_ld_disk(ld, *disk);
        size_t m = jr_push_key(&ld->jr, "disk");
        if (!d)
            rc = jr_fail(&ld->jr, "unknown disk type \"%s\" (not among $.disks)", *disk);
        else if (!d->local)
            rc = jr_fail(&ld->jr, "disk type \"%s\" is not a local disk (\"local\": true)", *disk);
        jr_pop(&ld->jr, m);
    }
    jr_pop(&ld->jr, n);
    return rc;
}
