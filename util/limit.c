/* limit.c - the one table of the probe's limits (see limit.h). */
#include "limit.h"

#include <stdio.h>

static const struct limit table[LIMIT_N] = {
    [LIMIT_THREADS] = {"threads", "client threads of one level", 1, 4096, ""},
    [LIMIT_TABLES] = {"tables", "tables sbtest1..N", 1, 1000, ""},
    [LIMIT_TABLE_SIZE] = {"table_size", "rows per table", 0, 2147483647.0, ""},
    [LIMIT_LEVELS] = {"levels", "thread counts in one list", 1, 64, ""},
    [LIMIT_MAX_POINTS] = {"max_points", "levels of an auto ladder", 2, 64, ""},
    [LIMIT_MAX_TIME] = {"max_time", "a calibrated level's limit", 1, 86400, "s"},
    [LIMIT_MIN_TIME] = {"min_time", "a calibrated level's minimum", 0, 86400, "s"},
    [LIMIT_TIME] = {"time", "a fixed level's length, 0 = no limit", 0, 31536000, "s"},
    [LIMIT_PRECISION] = {"precision", "relative 95 % half-width of tps", 0.001, 1, ""},
    [LIMIT_PORT] = {"port", "server TCP port", 1, 65535, ""},
    [LIMIT_TIMEOUT] = {"timeout", "read/write timeout of a statement", 1, 3600, "s"},
    [LIMIT_GIVE_UP] = {"give_up", "wait for a server to answer again", 0, 86400, "s"},
};

const struct limit *limit_get(enum limit_id id)
{
    return &table[(unsigned)id < LIMIT_N ? id : 0];
}

int limit_ok(enum limit_id id, double v)
{
    const struct limit *l = limit_get(id);
    return v >= l->min && v <= l->max;
}

const char *limit_text(enum limit_id id, char *buf, size_t len)
{
    const struct limit *l = limit_get(id);
    snprintf(buf, len, "%s must be in %g..%g%s%s (%s)", l->name, l->min, l->max,
             l->unit[0] ? " " : "", l->unit, l->what);
    return buf;
}
