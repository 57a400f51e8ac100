/* today.c - today (SOURCE_DATE_EPOCH or the clock) and ages in months (today.h). */
#include "today.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *today_ymd(char out[11])
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    time_t t = time(NULL);
    struct tm tm;
    if (e && *e) {
        long long v = strtoll(e, &end, 10);
        /* up to 9999-12-31: a date of ten characters */
        if (end && *end == '\0' && v >= 0 && v < 253402300800LL)
            t = (time_t)v;
    }
    if (!gmtime_r(&t, &tm) || strftime(out, 11, "%Y-%m-%d", &tm) != 10)
        snprintf(out, 11, "1970-01-01");
    return out;
}

/* y, m, d of a YYYY-MM-DD date: 0, or -1. */
static int ymd(const char *s, int *y, int *m, int *d)
{
    char tail;
    if (!s || strlen(s) < 10 || sscanf(s, "%4d-%2d-%2d%c", y, m, d, &tail) < 3 || *m < 1 ||
        *m > 12 || *d < 1 || *d > 31)
        return -1;
    return 0;
}

int months_between(const char *a, const char *b)
{
    int ya, ma, da, yb, mb, db, n;
    if (ymd(a, &ya, &ma, &da) != 0 || ymd(b, &yb, &mb, &db) != 0)
        return -1000000;
    n = (yb - ya) * 12 + (mb - ma);
    if (n > 0 && db < da)
        n--;
    else if (n < 0 && db > da)
        n++;
    return n;
}
