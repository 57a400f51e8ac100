/* limit.c - the one table of the probe's limits (see limit.h). */
#include "limit.h"

#include <stdio.h>

static const struct limit table[LIMIT_N] = {
    [LIMIT_THREADS] = {"threads", "client threads of one level", LIMIT_THREADS_MIN,
                       LIMIT_THREADS_MAX, ""},
    [LIMIT_TABLES] = {"tables", "tables sbtest1..N", LIMIT_TABLES_MIN, LIMIT_TABLES_MAX, ""},
    [LIMIT_TABLE_SIZE] = {"table_size", "rows per table", LIMIT_TABLE_SIZE_MIN,
                          LIMIT_TABLE_SIZE_MAX, ""},
    [LIMIT_LEVELS] = {"levels", "thread counts in one list", LIMIT_LEVELS_MIN, LIMIT_LEVELS_MAX,
                      ""},
    [LIMIT_MAX_POINTS] = {"max_points", "levels of an auto ladder", LIMIT_MAX_POINTS_MIN,
                          LIMIT_MAX_POINTS_MAX, ""},
    [LIMIT_MAX_TIME] = {"max_time", "a calibrated level's limit", LIMIT_MAX_TIME_MIN,
                        LIMIT_MAX_TIME_MAX, "s"},
    [LIMIT_MIN_TIME] = {"min_time", "a calibrated level's minimum", LIMIT_MIN_TIME_MIN,
                        LIMIT_MIN_TIME_MAX, "s"},
    [LIMIT_TIME] = {"time", "a fixed level's length, 0 = no limit", LIMIT_TIME_MIN, LIMIT_TIME_MAX,
                    "s"},
    [LIMIT_PRECISION] = {"precision", "relative 95 % half-width of tps", LIMIT_PRECISION_MIN,
                         LIMIT_PRECISION_MAX, ""},
    [LIMIT_PORT] = {"port", "server TCP port", LIMIT_PORT_MIN, LIMIT_PORT_MAX, ""},
    [LIMIT_TIMEOUT] = {"timeout", "read/write timeout of a statement", LIMIT_TIMEOUT_MIN,
                       LIMIT_TIMEOUT_MAX, "s"},
    [LIMIT_GIVE_UP] = {"give_up", "wait for a server to answer again", LIMIT_GIVE_UP_MIN,
                       LIMIT_GIVE_UP_MAX, "s"},
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
