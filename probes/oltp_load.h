/*
 * oltp_load.h - inside probes/: one sbtest table of an OLTP workload (oltp.h) created and loaded
 * as sysbench 1.0.20's prepare does, for the probe's prepare (sbtables.h).
 */
#ifndef SIZEUP_PROBES_OLTP_LOAD_H
#define SIZEUP_PROBES_OLTP_LOAD_H

#include "mysql_conn.h"
#include "oltp.h"
#include "sbrand.h"

#include <stdio.h>

/**
 * Create and load table number n (1-based) as sysbench's prepare: CREATE TABLE (with the
 * comment OLTP_TABLE_MARK_LOADING, sysbench's definition otherwise), multi-row INSERTs of up to
 * 512 KiB, CREATE INDEX k_n, then ALTER TABLE ... COMMENT=OLTP_TABLE_MARK. Progress lines
 * (sysbench's wording) go to out when not NULL.
 * @return 0, or a myconn class with conn->err filled.
 */
int oltp_prepare_table(struct myconn *conn, const struct oltp_opts *o,
                       const struct sbrand_params *rp, struct sbrand *rng, unsigned n, FILE *out);

#endif
