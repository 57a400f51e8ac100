/*
 * sbtables.h - the probe's tables sbtest1..N: which of them are sizeup's, and prepare, check and
 * cleanup that never touch any other table.
 *
 * The mark: every table sizeup creates carries a table COMMENT naming sizeup and the version
 * of its schema: OLTP_TABLE_MARK ("sizeup.sbtest/1"), or OLTP_TABLE_MARK_LOADING ("sizeup.sbtest/1
 * loading") from its CREATE TABLE until its rows and index are loaded (oltp.h).
 *
 * The shape: columns id, k, c, pad in that order, all NOT NULL, id and k INT (or both INT
 * UNSIGNED: oltp_legacy), c CHAR(120), pad CHAR(60); exactly one index on (id) alone, PRIMARY
 * or the non-unique xid (--secondary); at most one index on (k) alone, k_<n>; nothing else.
 *
 * A table is sizeup's when it has the mark and the shape. Nothing is sent that changes or reads a
 * table (a workload's statements, DROP TABLE) before every table it could touch has passed this
 * check; a table that fails it is never touched, and the message names the table and what
 * differs. There is no --force: the user renames or drops their own table, or chooses another
 * database. Read-only metadata queries (information_schema) are the only statements sent
 * before the check passes.
 *
 * Thread-safety: each function opens and closes its own connections; call from one thread.
 */
#ifndef SIZEUP_PROBES_SBTABLES_H
#define SIZEUP_PROBES_SBTABLES_H

#include "probe.h"

#include <stddef.h>

/* What sbtables_inspect() found. */
enum sbtables_state {
    SBTABLES_ABSENT = 0,  /* no such table */
    SBTABLES_OURS = 1,    /* sizeup's mark and shape */
    SBTABLES_LOADING = 2, /* sizeup's shape and its "loading" mark: a prepare did not finish */
    SBTABLES_FOREIGN = 3  /* anything else: not sizeup's table */
};

/* Return values of prepare, check and cleanup besides 0 and -(myconn class). */
enum {
    SBTABLES_REFUSED = 1 /* a table is in the way or is not sizeup's; msg says which and why */
};

/**
 * Inspect table sbtest<n> of the connection's database (three information_schema queries).
 * @param c    an open connection
 * @param why  for SBTABLES_FOREIGN (and LOADING): what differs from sizeup's mark and shape
 * @return an enum sbtables_state, or -(myconn class) on a query error (c->err filled).
 */
int sbtables_inspect(struct myconn *c, unsigned n, char *why, size_t why_len);

/**
 * Before a run: every table the workload touches (sbtest1..cfg->oltp.tables) exists and is
 * sizeup's, finished loading.
 * @param msg  on refusal: each table at fault and why, with what to do (one line each)
 * @param err  filled with the server's error when the server could not be asked; may be NULL
 * @return 0, SBTABLES_REFUSED, or -(myconn class) when the server could not be asked
 *         (-MYCONN_RECONNECT: unreachable).
 */
int sbtables_check(const struct probe_config *cfg, char *msg, size_t msg_len,
                   struct myconn_error *err);

/**
 * sysbench's prepare, all or nothing: refuse when any of sbtest1..N exists (nothing is created;
 * the message says whether the table is sizeup's, so cleanup would drop it, or not), otherwise
 * create and load the tables over min(threads, tables) connections in parallel. When a table
 * cannot be created or loaded, or cfg->stop is raised, the tables this call created are dropped
 * again (they carry sizeup's mark and did not exist before), so a failed prepare leaves nothing.
 * @param threads  most connections (>= 1)
 * @return 0, SBTABLES_REFUSED (a table exists), or -(myconn class) on a server error
 *         (-MYCONN_RECONNECT when the server could not be reached); msg says why.
 */
int sbtables_prepare(const struct probe_config *cfg, unsigned threads, char *msg, size_t msg_len);

/**
 * sysbench's cleanup, made safe: inspect sbtest1..N first; when any of them exists and is not
 * sizeup's, drop nothing and refuse (each such table named on cfg->progress and in msg);
 * otherwise drop those that exist (sizeup's, finished or not). "Dropping table" lines go to
 * cfg->out as sysbench prints them.
 * @return 0, SBTABLES_REFUSED, or -(myconn class) on a server error.
 */
int sbtables_cleanup(const struct probe_config *cfg, char *msg, size_t msg_len);

#endif
