/* units.c - strict parsers of numbers, durations, sizes, lists and fractions (units.h). */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int units_parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end = NULL;
    long long v;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int units_parse_double(const char *s, double min, double max, double *out)
{
    char *end = NULL;
    double v;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Split "12.5ms" into the number and a unit suffix; the number must be finite and >= 0. */
static int number_and_unit(const char *s, double *num, const char **unit)
{
    char *end = NULL;
    if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    *num = strtod(s, &end);
    if (errno != 0 || end == s || !isfinite(*num) || *num < 0)
        return -1;
    /* strtod accepts hex, inf and nan; reject anything that is not plain decimal */
    for (const char *c = s; c < end; c++)
        if (!isdigit((unsigned char)*c) && *c != '.' && *c != 'e' && *c != 'E' && *c != '-' &&
            *c != '+')
            return -1;
    *unit = end;
    return 0;
}

int units_parse_duration(const char *s, double *out_s)
{
    double v;
    const char *u;
    if (number_and_unit(s, &v, &u) != 0)
        return -1;
    if (*u == '\0' || strcmp(u, "s") == 0)
        *out_s = v;
    else if (strcmp(u, "ms") == 0)
        *out_s = v / 1000.0;
    else if (strcmp(u, "m") == 0 || strcmp(u, "min") == 0)
        *out_s = v * 60.0;
    else if (strcmp(u, "h") == 0)
        *out_s = v * 3600.0;
    else
        return -1;
    return 0;
}

int units_parse_size(const char *s, long long *out_bytes)
{
    double v, mult = 1;
    const char *u;
    if (number_and_unit(s, &v, &u) != 0)
        return -1;
    if (*u) {
        switch (toupper((unsigned char)*u)) {
        case 'B':
            mult = 1;
            break;
        case 'K':
            mult = 1024.0;
            break;
        case 'M':
            mult = 1024.0 * 1024;
            break;
        case 'G':
            mult = 1024.0 * 1024 * 1024;
            break;
        case 'T':
            mult = 1024.0 * 1024 * 1024 * 1024;
            break;
        default:
            return -1;
        }
        if (toupper((unsigned char)*u) != 'B') {
            u++;
            if (strcasecmp(u, "") != 0 && strcasecmp(u, "B") != 0 && strcasecmp(u, "iB") != 0)
                return -1;
        } else if (u[1] != '\0') {
            return -1;
        }
    }
    v *= mult;
    if (v >= 9.2e18 || v != floor(v))
        return -1;
    *out_bytes = (long long)v;
    return 0;
}

int units_parse_int_list(const char *s, long long max, long long *out, size_t cap, size_t *n_out)
{
    size_t n = 0;
    const char *p = s;
    if (!s || !*s)
        return -1;
    for (;;) {
        char item[32];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        long long v;
        if (len == 0 || len >= sizeof item || n >= cap)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (units_parse_int(item, 1, max, &v) != 0)
            return -1;
        out[n++] = v;
        if (!comma)
            break;
        p = comma + 1;
    }
    *n_out = n;
    return 0;
}

int units_parse_fraction(const char *s, double *out)
{
    size_t len;
    double v;
    char buf[64];
    if (!s || !*s)
        return -1;
    len = strlen(s);
    if (len >= sizeof buf)
        return -1;
    if (s[len - 1] == '%') {
        memcpy(buf, s, len - 1);
        buf[len - 1] = '\0';
        if (units_parse_double(buf, 0, 100, &v) != 0 || v <= 0)
            return -1;
        *out = v / 100.0;
        return 0;
    }
    if (units_parse_double(s, 0, 1, &v) != 0 || v <= 0)
        return -1;
    *out = v;
    return 0;
}
