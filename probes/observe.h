/*
 * observe.h - read-only samples of a running MySQL-protocol server for `sizeup observe`: its
 * global status counters, the engine's transaction counters when readable, running sessions,
 * its version and buffer pool, and the size of every schema the account can see.
 *
 * The statements, all of them (docs/workload-record.md lists them for a DBA to allow):
 *   SHOW GLOBAL STATUS                                         every snapshot
 *   SHOW GLOBAL STATUS LIKE 'Threads_running'                  the session samples
 *   SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version', 'version_comment', 'hostname',
 *       'innodb_buffer_pool_size', 'innodb_page_size', 'performance_schema', 'read_only')
 *                                                              once
 *   SELECT NAME, COUNT FROM information_schema.INNODB_METRICS WHERE NAME IN ('trx_rw_commits',
 *       'trx_ro_commits', 'trx_nl_ro_commits', 'trx_rollbacks') AND ENABLED = 1
 *                                                              each snapshot (MySQL 8 names
 *       the column STATUS: `... AND STATUS = 'enabled'` when ENABLED is unknown)
 *   SELECT TABLE_SCHEMA, SUM(DATA_LENGTH + INDEX_LENGTH), COUNT(*) FROM
 *       information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA NOT IN
 *       ('mysql', 'information_schema', 'performance_schema', 'sys') GROUP BY TABLE_SCHEMA
 *                                                              at the start and at the end
 * None needs a privilege beyond USAGE but INNODB_METRICS (PROCESS; without it the transaction
 * counters are said to be unreadable and the status rule is used), and information_schema.TABLES
 * shows only the tables the account has some privilege on. Nothing is written, created, locked
 * or set, not even a session variable; the connection names no default database.
 *
 * The observer's own statements count in the server's counters: every statement sent is
 * counted here (obs_conn.own_queries; the SELECTs among them in own_selects) so that the
 * caller can take them out of Questions and Com_select.
 *
 * Thread-safety: one thread per struct obs_conn; the rest is plain data owned by the caller.
 */
#ifndef SIZEUP_PROBES_OBSERVE_H
#define SIZEUP_PROBES_OBSERVE_H

#include "mysql_conn.h"
#include "srvstat.h"

#include <stddef.h>
#include <stdint.h>

/* The engine's transaction counters (INNODB_METRICS), in this order. */
enum obs_trx { OBS_TRX_RW, OBS_TRX_RO, OBS_TRX_NL_RO, OBS_TRX_ROLLBACKS, OBS_N_TRX };

struct obs_conn {
    struct myconn c;
    uint64_t own_queries; /* statements this connection sent */
    uint64_t own_selects; /* of which SELECTs (they count in Com_select) */
    int trx_state;        /* 0 not tried yet, 1 readable, -1 not (trx_why says why) */
    char trx_why[200];
    int status_column; /* INNODB_METRICS: 0 ENABLED (MariaDB), 1 STATUS (MySQL) */
};

/* A snapshot: every numeric SHOW GLOBAL STATUS value, sorted by name. */
struct obs_status {
    struct srvstat_named *v; /* owned */
    size_t n;
    double t_mono_s;      /* CLOCK_MONOTONIC when read, s */
    uint64_t own_queries; /* the observer's statements up to and including this one */
    uint64_t own_selects; /* the SELECTs among them */
    int have_trx;         /* trx[] was read (the counters are enabled and readable) */
    uint64_t trx[OBS_N_TRX];
};

struct obs_server {
    char version[128];                    /* "10.11.6-MariaDB-0+deb12u1" */
    char comment[128];                    /* version_comment */
    char hostname[256];                   /* the server's own hostname */
    double buffer_pool_bytes, page_bytes; /* NAN when unknown */
    int performance_schema;               /* 1 on, 0 off, -1 unknown */
    int read_only;                        /* 1 on, 0 off, -1 unknown */
};

struct obs_schema {
    char name[65];
    double bytes; /* data + index length */
    long tables;
};

/** Connect with o (a fresh handle; counters zeroed). @return 0 or the error class (oc->c.err). */
int obs_connect(struct obs_conn *oc, const struct myconn_opts *o);

/** Close the connection (safe when closed). */
void obs_close(struct obs_conn *oc);

/**
 * A snapshot into s (its old contents freed): SHOW GLOBAL STATUS, then the transaction
 * counters when readable (once refused, never asked again).
 * @return 0, MYCONN_RECONNECT (the server is gone; s emptied), or MYCONN_FATAL (a refusal or
 *         out of memory; oc->c.err says which).
 */
int obs_read_status(struct obs_conn *oc, struct obs_status *s);

/** Free what s owns; leaves it empty. NULL-safe. */
void obs_status_free(struct obs_status *s);

/** The value of status variable name (case as the server prints it) into *out.
 * @return 1 found, 0 not. */
int obs_status_get(const struct obs_status *s, const char *name, uint64_t *out);

/**
 * Sessions running a statement now: Threads_running less this one (whose SHOW is running).
 * @return 0 with *n set, or the error class.
 */
int obs_threads_running(struct obs_conn *oc, double *n);

/** Version, hostname, buffer pool, page size, performance_schema, read_only (best-effort:
 * what is refused stays unknown). @return 0, or the error class when the connection failed. */
int obs_read_server(struct obs_conn *oc, struct obs_server *srv);

/**
 * The size of every schema the account can see (system schemas left out), sorted by name.
 * @param out  *out (owned by the caller, free()) and *n; NULL and 0 on failure
 * @return 0, or the error class (a refusal: MYCONN_FATAL, oc->c.err says why).
 */
int obs_read_sizes(struct obs_conn *oc, struct obs_schema **out, size_t *n);

#endif
