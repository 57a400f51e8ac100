/* jsonread.c - typed getters with JSON paths and positions for the catalog loader. */
#include "jsonread.h"
#include "jsonpos.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cat_jr_fail(struct cat_jr *ld, const char *fmt, ...)
{
    char what[400];
    long line = 0, column = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    jsonpos_find(ld->text, ld->len, ld->path, &line, &column);
    if (ld->err) {
        snprintf(ld->err->path, sizeof ld->err->path, "%s", ld->path);
        ld->err->line = line;
        ld->err->column = column;
        snprintf(ld->err->msg, sizeof ld->err->msg, "%s:%ld:%ld: %s: %s", ld->name, line, column,
                 ld->path, what);
    }
    return CAT_EINVAL;
}

int cat_jr_nomem(struct cat_jr *ld)
{
    if (ld->err)
        snprintf(ld->err->msg, sizeof ld->err->msg, "%s: out of memory", ld->name);
    return CAT_ENOMEM;
}

/* Path stack: push returns the old length to pop back to. */
size_t cat_jr_push_key(struct cat_jr *ld, const char *key)
{
    size_t n = strlen(ld->path);
    snprintf(ld->path + n, sizeof ld->path - n, ".%s", key);
    return n;
}

size_t cat_jr_push_index(struct cat_jr *ld, size_t i)
{
    size_t n = strlen(ld->path);
    snprintf(ld->path + n, sizeof ld->path - n, "[%zu]", i);
    return n;
}

void cat_jr_pop(struct cat_jr *ld, size_t n)
{
    ld->path[n] = '\0';
}

const char *cat_jr_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "?";
}

/* Reject keys not in the NULL-terminated list allowed. */
int cat_jr_check_keys(struct cat_jr *ld, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, key) == 0)
                ok = 1;
        if (!ok) {
            char list[300] = "";
            size_t n = cat_jr_push_key(ld, key);
            for (const char *const *a = allowed; *a; a++) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", *a);
            }
            cat_jr_fail(ld, "unknown key '%s' (expected one of: %s)", key, list);
            cat_jr_pop(ld, n);
            return CAT_EINVAL;
        }
    }
    return CAT_OK;
}

/* A string member; *out gets a copy (NULL when absent and not required). */
int cat_jr_get_str(struct cat_jr *ld, json_t *obj, const char *key, int required, char **out)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc = CAT_OK;
    *out = NULL;
    if (!v || json_is_null(v)) {
        if (required)
            return cat_jr_fail(ld, "missing required key '%s' (a string)", key);
        return CAT_OK;
    }
    n = cat_jr_push_key(ld, key);
    if (!json_is_string(v))
        rc = cat_jr_fail(ld, "expected a string, got %s", cat_jr_type_name(v));
    else if (json_string_length(v) == 0 && required)
        rc = cat_jr_fail(ld, "expected a non-empty string");
    else if (!(*out = strdup(json_string_value(v))))
        rc = cat_jr_nomem(ld);
    cat_jr_pop(ld, n);
    return rc;
}

/* A number member in [min, max]; *out = dflt when absent and not required. */
int cat_jr_get_num(struct cat_jr *ld, json_t *obj, const char *key, int required, double min,
                   double max, double dflt, double *out)
{
    json_t *v = json_object_get(obj, key);
    size_t n;
    int rc = CAT_OK;
    *out = dflt;
    if (!v || json_is_null(v)) {
        if (required)
            return cat_jr_fail(ld, "missing required key '%s' (a number)", key);
        return CAT_OK;
    }
    n = cat_jr_push_key(ld, key);
    if (!json_is_number(v)) {
        rc =
            cat_jr_fail(ld, "expected a number in [%g, %g], got %s", min, max, cat_jr_type_name(v));
    } else {
        double x = json_number_value(v);
        if (!isfinite(x) || x < min || x > max)
            rc = cat_jr_fail(ld, "expected a number in [%g, %g], got %g", min, max, x);
        else
            *out = x;
    }
    cat_jr_pop(ld, n);
    return rc;
}

int cat_jr_get_int(struct cat_jr *ld, json_t *obj, const char *key, int required, int min, int max,
                   int dflt, int *out)
{
    double x;
    json_t *v = json_object_get(obj, key);
    int rc;
    if (v && json_is_real(v)) {
        size_t n = cat_jr_push_key(ld, key);
        rc = cat_jr_fail(ld, "expected an integer in [%d, %d], got %g", min, max,
                         json_real_value(v));
        cat_jr_pop(ld, n);
        return rc;
    }
    rc = cat_jr_get_num(ld, obj, key, required, min, max, dflt, &x);
    *out = (int)x;
    return rc;
}

int cat_jr_get_bool(struct cat_jr *ld, json_t *obj, const char *key, int dflt, int *out)
{
    json_t *v = json_object_get(obj, key);
    *out = dflt;
    if (!v)
        return CAT_OK;
    if (!json_is_boolean(v)) {
        size_t n = cat_jr_push_key(ld, key);
        int rc = cat_jr_fail(ld, "expected true or false, got %s", cat_jr_type_name(v));
        cat_jr_pop(ld, n);
        return rc;
    }
    *out = json_is_true(v);
    return CAT_OK;
}

static int cat_jr_valid_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return 0;
    int mon = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
    return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

int cat_jr_valid_currency(const char *s)
{
    if (!s || strlen(s) != 3)
        return 0;
    for (int i = 0; i < 3; i++)
        if (!isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

int cat_jr_get_date(struct cat_jr *ld, json_t *obj, const char *key, int required, char **out)
{
    int rc = cat_jr_get_str(ld, obj, key, required, out);
    if (rc == CAT_OK && *out && !cat_jr_valid_date(*out)) {
        size_t n = cat_jr_push_key(ld, key);
        rc = cat_jr_fail(ld, "expected a date YYYY-MM-DD, got \"%s\"", *out);
        cat_jr_pop(ld, n);
        free(*out);
        *out = NULL;
    }
    return rc;
}
