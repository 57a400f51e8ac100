/* sblex.c - the small lexer under the sysbench output parser (sblex.h). */
#include "sblex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Copy text for a message: non-printable and non-ASCII bytes become '?'. */
void sblex_sanitize(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; *src && i + 1 < cap; src++)
        dst[i++] = (*src >= 32 && *src < 127) ? *src : '?';
    dst[i] = '\0';
}

const char *sblex_skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* After prefix (which may contain spaces matched exactly), or NULL. */
const char *sblex_after(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* Strict number at *s (leading blanks skipped); advances *s. Returns 0 or -1. */
int sblex_num(const char **s, double *out)
{
    char *end;
    const char *p = sblex_skip_ws(*s);
    if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))))
        return -1; /* sysbench prints no negative figure: a '-' is not a number here */
    errno = 0;
    *out = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(*out))
        return -1;
    *s = end;
    return 0;
}

int sblex_count(const char **s, int64_t *out)
{
    char *end;
    const char *p = sblex_skip_ws(*s);
    long long v;
    if (!isdigit((unsigned char)*p))
        return -1;
    errno = 0;
    v = strtoll(p, &end, 10);
    if (errno == ERANGE || v < 0)
        return -1;
    *out = v;
    *s = end;
    return 0;
}

/* The text *s must continue with lit (after optional blanks); advances. */
int sblex_lit(const char **s, const char *text)
{
    const char *p = sblex_skip_ws(*s);
    size_t n = strlen(text);
    if (strncmp(p, text, n) != 0)
        return -1;
    *s = p + n;
    return 0;
}

int sblex_at_end(const char *s)
{
    return *sblex_skip_ws(s) == '\0';
}

/* "N (X per sec.)" or "N (X per second)" */
int sblex_count_rate(const char *s, int64_t *n, double *rate)
{
    if (sblex_count(&s, n) || sblex_lit(&s, "(") || sblex_num(&s, rate))
        return -1;
    if (sblex_lit(&s, "per sec.)") && sblex_lit(&s, "per second)"))
        return -1;
    return sblex_at_end(s) ? 0 : -1;
}

/* A size as 0.4/0.5 fileio prints it ("93.875Mb", "8Gb", "0b", "512Kb") in MiB. */
int sblex_size_mib(const char **s, double *mib)
{
    double v;
    if (sblex_num(s, &v))
        return -1;
    if (!sblex_lit(s, "Gb"))
        *mib = v * 1024;
    else if (!sblex_lit(s, "Mb"))
        *mib = v;
    else if (!sblex_lit(s, "Kb"))
        *mib = v / 1024;
    else if (!sblex_lit(s, "b"))
        *mib = v / (1024.0 * 1024);
    else
        return -1;
    return 0;
}
