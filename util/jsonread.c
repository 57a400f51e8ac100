/* jsonread.c - strict JSON getters with positions (jsonread.h). */
#include "jsonread.h"

#include "textsafe.h"

#include "errtext.h"
#include "jsonpos.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jr_init(struct jr *r, const char *name, const char *text, size_t len, long first_line,
             char *msg, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->name = name ? name : "<input>";
    r->text = text;
    r->len = len;
    r->first_line = first_line;
    r->msg = msg;
    r->cap = cap;
    r->path[0] = '$';
    r->path_len = 1;
    if (msg && cap)
        msg[0] = '\0';
}

/* Append text to the path, cutting it (with "...") when it is too long. */
static size_t push(struct jr *r, const char *text, size_t n)
{
    size_t old = r->path_len;
    if (old + n + 1 > sizeof r->path) {
        if (old + 4 <= sizeof r->path) {
            memcpy(r->path + old, "...", 4);
            r->path_len = old + 3;
        }
        return old;
    }
    memcpy(r->path + old, text, n);
    r->path_len = old + n;
    r->path[r->path_len] = '\0';
    return old;
}

size_t jr_push_key(struct jr *r, const char *key)
{
    size_t n = strlen(key), old = r->path_len;
    if (old + n + 2 > sizeof r->path)
        return push(r, key, sizeof r->path); /* cut */
    r->path[old] = '.';
    memcpy(r->path + old + 1, key, n + 1);
    r->path_len = old + n + 1;
    return old;
}

size_t jr_push_index(struct jr *r, size_t i)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "[%zu]", i);
    return push(r, buf, (size_t)n);
}

void jr_pop(struct jr *r, size_t n)
{
    if (n < sizeof r->path) {
        r->path_len = n;
        r->path[n] = '\0';
    }
}

size_t jr_set_path(struct jr *r, const char *path)
{
    size_t old = r->path_len, n = path ? strlen(path) : 0;
    if (!path || path[0] != '$' || n + 1 > sizeof r->path) {
        memcpy(r->path, "$...", 5);
        r->path_len = 4;
        return old;
    }
    memcpy(r->path, path, n + 1);
    r->path_len = n;
    return old;
}

static int vfail(struct jr *r, const char *fmt, va_list ap)
{
    char what[512];
    long line = 0, column = 0;
    vsnprintf(what, sizeof what, fmt, ap);
    snprintf(r->fail_path, sizeof r->fail_path, "%s", r->path);
    if (r->text) {
        jsonpos_find(r->text, r->len, r->path, &line, &column);
        if (r->first_line > 1)
            line += r->first_line - 1;
    } else {
        line = r->first_line;
    }
    r->line = line;
    r->column = column;
    if (!r->msg || !r->cap)
        return JR_EINVAL;
    if (line > 0 && column > 0)
        snprintf(r->msg, r->cap, "%s:%ld:%ld: %s: %s", r->name, line, column, r->path, what);
    else if (line > 0)
        snprintf(r->msg, r->cap, "%s:%ld: %s: %s", r->name, line, r->path, what);
    else
        snprintf(r->msg, r->cap, "%s: %s: %s", r->name, r->path, what);
    return JR_EINVAL;
}

int jr_fail(struct jr *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    return JR_EINVAL;
}

int jr_fail_at(struct jr *r, const char *path, const char *fmt, ...)
{
    char saved[JR_PATH_MAX];
    size_t n = r->path_len;
    va_list ap;
    memcpy(saved, r->path, n + 1);
    jr_set_path(r, path);
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    memcpy(r->path, saved, n + 1);
    r->path_len = n;
    return JR_EINVAL;
}

int jr_fail_key(struct jr *r, const char *key, const char *fmt, ...)
{
    size_t n = jr_push_key(r, key);
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    jr_pop(r, n);
    return JR_EINVAL;
}

char *jr_syntax_error(char *buf, size_t cap, const char *name, long first_line,
                      const json_error_t *e)
{
    long line = e->line > 0 ? e->line : 1;
    if (first_line > 1)
        line += first_line - 1;
    return errtext_set(buf, cap, name ? name : "<input>", line, e->column, "not valid JSON: %s",
                       e->text);
}

int jr_nomem(struct jr *r)
{
    if (r->msg && r->cap)
        snprintf(r->msg, r->cap, "%s: out of memory", r->name);
    return JR_ENOMEM;
}

const char *jr_type_name(const json_t *v)
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

int jr_check_keys(struct jr *r, const json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, key) == 0;
        if (!ok) {
            char list[JR_KEYS_LISTED_MAX + 64] = "";
            size_t l = 0;
            for (const char *const *a = allowed; *a && l < sizeof list; a++)
                l += (size_t)snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", *a);
            if (l > JR_KEYS_LISTED_MAX)
                return jr_fail_key(r, key, "unknown key '%s' (misspelt?)", key);
            return jr_fail_key(r, key, "unknown key '%s' (expected one of: %s)", key, list);
        }
    }
    return JR_OK;
}

/* The member key of obj, or NULL when it is absent or null. */
static const json_t *member(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    return v && !json_is_null(v) ? v : NULL;
}

int jr_get_str(struct jr *r, const json_t *obj, const char *key, int flags, char **out)
{
    const json_t *v = member(obj, key);
    *out = NULL;
    if (!v)
        return flags & JR_REQUIRED ? jr_fail(r, "missing required key '%s' (a string)", key)
                                   : JR_OK;
    if (!json_is_string(v))
        return jr_fail_key(r, key, "expected a string, got %s", jr_type_name(v));
    if ((flags & JR_REQUIRED) && json_string_length(v) == 0)
        return jr_fail_key(r, key, "expected a non-empty string");
    if (textsafe_text_control_at(json_string_value(v)) >= 0) {
        /* every string a record gives may reach a terminal or a report (issue 27.5) */
        char vis[160];
        return jr_fail_key(r, key, "a control character in \"%s\": remove it",
                           textsafe_visible(json_string_value(v), vis, sizeof vis));
    }
    if (!(*out = strdup(json_string_value(v))))
        return jr_nomem(r);
    return JR_OK;
}

/* "in [0, 100]", ">= 0", "<= 5" for messages. */
static void range_text(double min, double max, char *buf, size_t cap)
{
    if (isinf(max) && isinf(min))
        snprintf(buf, cap, "(finite)");
    else if (isinf(max))
        snprintf(buf, cap, ">= %g", min);
    else if (isinf(min))
        snprintf(buf, cap, "<= %g", max);
    else
        snprintf(buf, cap, "in [%g, %g]", min, max);
}

int jr_get_num(struct jr *r, const json_t *obj, const char *key, int flags, double min, double max,
               double dflt, double *out)
{
    const json_t *v = member(obj, key);
    char range[64];
    double x;
    *out = dflt;
    if (!v)
        return flags & JR_REQUIRED ? jr_fail(r, "missing required key '%s' (a number)", key)
                                   : JR_OK;
    if (json_is_number(v)) {
        x = json_number_value(v);
        if (isfinite(x) && x >= min && x <= max) {
            *out = x;
            return JR_OK;
        }
    }
    range_text(min, max, range, sizeof range);
    if (!json_is_number(v))
        return jr_fail_key(r, key, "expected a number %s, got %s", range, jr_type_name(v));
    return jr_fail_key(r, key, "expected a number %s, got %g", range, json_number_value(v));
}

int jr_get_int(struct jr *r, const json_t *obj, const char *key, int flags, long long min,
               long long max, long long dflt, long long *out)
{
    const json_t *v = member(obj, key);
    *out = dflt;
    if (!v)
        return flags & JR_REQUIRED ? jr_fail(r, "missing required key '%s' (an integer)", key)
                                   : JR_OK;
    if (json_is_integer(v) && json_integer_value(v) >= min && json_integer_value(v) <= max) {
        *out = json_integer_value(v);
        return JR_OK;
    }
    if (json_is_integer(v))
        return jr_fail_key(r, key, "expected an integer in [%lld, %lld], got %lld", min, max,
                           (long long)json_integer_value(v));
    if (json_is_real(v))
        return jr_fail_key(r, key, "expected an integer in [%lld, %lld], got %g", min, max,
                           json_real_value(v));
    return jr_fail_key(r, key, "expected an integer in [%lld, %lld], got %s", min, max,
                       jr_type_name(v));
}

int jr_get_bool(struct jr *r, const json_t *obj, const char *key, int flags, int dflt, int *out)
{
    const json_t *v = member(obj, key);
    *out = dflt;
    if (!v)
        return flags & JR_REQUIRED ? jr_fail(r, "missing required key '%s' (true or false)", key)
                                   : JR_OK;
    if (!json_is_boolean(v))
        return jr_fail_key(r, key, "expected true or false, got %s", jr_type_name(v));
    *out = json_is_true(v);
    return JR_OK;
}

int jr_valid_date(const char *s)
{
    int mon, day;
    if (!s || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return 0;
    mon = (s[5] - '0') * 10 + (s[6] - '0');
    day = (s[8] - '0') * 10 + (s[9] - '0');
    return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

int jr_get_date(struct jr *r, const json_t *obj, const char *key, int flags, char **out)
{
    int rc = jr_get_str(r, obj, key, flags, out);
    if (rc == JR_OK && *out && !jr_valid_date(*out)) {
        rc = jr_fail_key(r, key, "expected a date YYYY-MM-DD, got \"%s\"", *out);
        free(*out);
        *out = NULL;
    }
    return rc;
}
