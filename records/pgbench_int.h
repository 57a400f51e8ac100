/*
 * pgbench_int.h - what pgbench.c (the printed output) and pgbench_log.c (the -l logs) share.
 * Internal to the pgbench reader (pgbench.h).
 */
#ifndef SIZEUP_RECORDS_PGBENCH_INT_H
#define SIZEUP_RECORDS_PGBENCH_INT_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

struct pglog;

/* 1 when buf's first lines are a per-transaction or an aggregated -l log. */
int pglog_detect(const char *buf, size_t len, const char *path);

/* A log reader over src (and the thread files beside it). NULL when out of memory. */
struct pglog *pglog_new(struct import_src *src);

/* The run's one point: 1, 0 after it, or a negative IMPORT_E* code (reported). */
int pglog_next(struct pglog *g, struct point *out);

void pglog_free(struct pglog *g);

#endif
