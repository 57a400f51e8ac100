/*
 * limit.h - the one table of the probe's limits, read by every place that takes the value:
 * `sizeup probe` options and the study file (sizeup.study/1) alike, so a value one accepts the
 * other accepts too, and a study is refused at load (with the file position) rather than after
 * it has prepared tables.
 *
 *   name          what                                      range
 *   threads       client threads of one level               1 .. 4096
 *   tables        tables sbtest1..N                         1 .. 1000
 *   table_size    rows per table                            0 .. 2147483647 (INT's range)
 *   levels        thread counts in one list                 1 .. 64
 *   max_points    levels of an auto ladder                  2 .. 64
 *   max_time      a calibrated level's limit, s             1 .. 86400
 *   min_time      a calibrated level's minimum, s           0 .. 86400
 *   time          a fixed level's length, s (0 = none)      0 .. 31536000
 *   precision     relative 95 % half-width of tps           0.001 .. 1
 *   port          server TCP port                           1 .. 65535
 *   timeout       read/write timeout of a statement, s      1 .. 3600
 *   give_up       wait for a server to answer again, s      0 .. 86400
 *
 * Thread-safety: constant data and pure functions.
 */
#ifndef SIZEUP_UTIL_LIMITS_H
#define SIZEUP_UTIL_LIMITS_H

#include <stddef.h>

/* The ranges as constants, for tables built at compile time (the option tables of
 * advisor/cli, cli.h); limit.c's table is made of them. */
#define LIMIT_THREADS_MIN 1
#define LIMIT_THREADS_MAX 4096
#define LIMIT_TABLES_MIN 1
#define LIMIT_TABLES_MAX 1000
#define LIMIT_TABLE_SIZE_MIN 0
#define LIMIT_TABLE_SIZE_MAX 2147483647
#define LIMIT_LEVELS_MIN 1
#define LIMIT_LEVELS_MAX 64
#define LIMIT_MAX_POINTS_MIN 2
#define LIMIT_MAX_POINTS_MAX 64
#define LIMIT_MAX_TIME_MIN 1
#define LIMIT_MAX_TIME_MAX 86400
#define LIMIT_MIN_TIME_MIN 0
#define LIMIT_MIN_TIME_MAX 86400
#define LIMIT_TIME_MIN 0
#define LIMIT_TIME_MAX 31536000
#define LIMIT_PRECISION_MIN 0.001
#define LIMIT_PRECISION_MAX 1
#define LIMIT_PORT_MIN 1
#define LIMIT_PORT_MAX 65535
#define LIMIT_TIMEOUT_MIN 1
#define LIMIT_TIMEOUT_MAX 3600
#define LIMIT_GIVE_UP_MIN 0
#define LIMIT_GIVE_UP_MAX 86400

enum limit_id {
    LIMIT_THREADS,
    LIMIT_TABLES,
    LIMIT_TABLE_SIZE,
    LIMIT_LEVELS,
    LIMIT_MAX_POINTS,
    LIMIT_MAX_TIME,
    LIMIT_MIN_TIME,
    LIMIT_TIME,
    LIMIT_PRECISION,
    LIMIT_PORT,
    LIMIT_TIMEOUT,
    LIMIT_GIVE_UP,
    LIMIT_N
};

struct limit {
    const char *name; /* as above; the study key and (with "-" for "_") the option name */
    const char *what; /* for messages, e.g. "client threads of one level" */
    double min, max;  /* inclusive */
    const char *unit; /* "" or "s" */
};

/** The limit of id (id < LIMIT_N). */
const struct limit *limit_get(enum limit_id id);

/** 1 when min <= v <= max of limit id (NaN is outside), else 0. */
int limit_ok(enum limit_id id, double v);

/**
 * "threads must be in 1..4096 (client threads of one level)" for messages.
 * @return buf
 */
const char *limit_text(enum limit_id id, char *buf, size_t len);

#endif
