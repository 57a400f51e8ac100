/* slo.c - latency targets "avg|pNN:VALUE(us|ms|s)" (slo.h). */
#include "slo.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(char *err, size_t cap, const char *fmt, const char *s)
{
    if (err && cap)
        snprintf(err, cap, fmt, s);
}

/* A plain decimal number > 0 at s, its end in *end; -1 when there is none. */
static int positive_number(const char *s, double *v, const char **end)
{
    char *e = NULL;
    const char *c = s;
    if (!isdigit((unsigned char)*c) && *c != '.')
        return -1;
    /* digits, one point, an exponent: no hex, inf or nan that strtod would also take */
    while (isdigit((unsigned char)*c) || *c == '.')
        c++;
    if ((*c == 'e' || *c == 'E') &&
        (isdigit((unsigned char)c[1]) ||
         ((c[1] == '-' || c[1] == '+') && isdigit((unsigned char)c[2])))) {
        c += 2;
        while (isdigit((unsigned char)*c))
            c++;
    }
    errno = 0;
    *v = strtod(s, &e);
    if (errno != 0 || e != c || !isfinite(*v) || !(*v > 0))
        return -1;
    *end = c;
    return 0;
}

/* The unit at u: seconds per unit, or 0 when u is not a unit (NAN when u is empty). */
static double unit_scale(const char *u)
{
    if (*u == '\0')
        return NAN;
    if (strcmp(u, "s") == 0)
        return 1;
    if (strcmp(u, "ms") == 0)
        return 1e-3;
    if (strcmp(u, "us") == 0)
        return 1e-6;
    return 0;
}

int slo_parse_latency(const char *s, double *out_s, char *err, size_t cap)
{
    const char *u;
    double v, scale;
    if (!s || positive_number(s, &v, &u) != 0) {
        say(err, cap,
            "'%s' is not a latency: expected a positive number with its unit (us, ms or s), "
            "e.g. 50ms",
            s ? s : "");
        return -1;
    }
    scale = unit_scale(u);
    if (isnan(scale)) {
        if (err && cap)
            snprintf(err, cap, "'%s' is not a latency: give a unit, e.g. %sms", s, s);
        return -1;
    }
    if (scale == 0 || !isfinite(v * scale) || !(v * scale > 0)) {
        say(err, cap, "'%s' is not a latency: the unit is us, ms or s, e.g. 50ms", s);
        return -1;
    }
    *out_s = v * scale;
    return 0;
}

int slo_parse(const char *s, struct slo *out, char *err, size_t cap)
{
    const char *colon = s ? strchr(s, ':') : NULL, *u;
    double pct = 0, v, scale;
    size_t len;

    if (!colon) {
        double lat;
        if (s && slo_parse_latency(s, &lat, NULL, 0) == 0) {
            if (err && cap)
                snprintf(err, cap,
                         "'%s' is not a latency target: give the statistic, e.g. avg:%s or "
                         "p95:%s",
                         s, s, s);
            return -1;
        }
        goto bad;
    }
    len = (size_t)(colon - s);
    if ((len == 3 && strncmp(s, "avg", 3) == 0) || (len == 4 && strncmp(s, "mean", 4) == 0)) {
        pct = 0;
    } else if (len >= 2 && (s[0] == 'p' || s[0] == 'P')) {
        const char *e;
        if (positive_number(s + 1, &pct, &e) != 0 || e != colon || !(pct < 100))
            goto bad;
    } else {
        goto bad;
    }
    if (positive_number(colon + 1, &v, &u) != 0)
        goto bad;
    scale = unit_scale(u);
    if (isnan(scale)) {
        if (err && cap)
            snprintf(err, cap, "'%s' is not a latency target: give a unit, e.g. %sms", s, s);
        return -1;
    }
    if (scale == 0 || !(v * scale > 0) || !isfinite(v * scale))
        goto bad;
    out->pct = pct;
    out->target_s = v * scale;
    return 0;
bad:
    say(err, cap,
        "'%s' is not a latency target: expected avg or pNN (0 < NN < 100), a colon and a "
        "latency with its unit (us, ms or s), e.g. p95:50ms",
        s ? s : "");
    return -1;
}

const char *slo_format(const struct slo *slo, char *buf, size_t cap)
{
    char stat[24];
    double t = slo->target_s;
    if (slo->pct > 0)
        snprintf(stat, sizeof stat, "p%g", slo->pct);
    else
        snprintf(stat, sizeof stat, "avg");
    if (t >= 10)
        snprintf(buf, cap, "%s:%gs", stat, t);
    else if (t >= 1e-3)
        snprintf(buf, cap, "%s:%gms", stat, t * 1e3);
    else
        snprintf(buf, cap, "%s:%gus", stat, t * 1e6);
    return buf;
}

const char *slo_text(const struct slo *slo, char *buf, size_t cap)
{
    if (slo->pct > 0)
        snprintf(buf, cap, "p%g <= %g ms", slo->pct, slo->target_s * 1e3);
    else
        snprintf(buf, cap, "avg <= %g ms", slo->target_s * 1e3);
    return buf;
}
