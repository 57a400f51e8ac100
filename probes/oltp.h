/*
 * oltp.h - the sysbench 1.0.20 OLTP workloads: options, schema and data of `prepare`, the
 * statements of each workload and the shape of one event ("transaction"), and `cleanup`.
 *
 * Sources (read, not copied): the Lua scripts of sysbench 1.0.20 (oltp_common.lua and one
 * script per workload; tests/include/oltp_legacy/{common,oltp}.lua for oltp_legacy) in
 * akopytov/sysbench at tag 1.0.20.  SQL text, statement order, the random draw
 * behind every value and the order of the draws follow the scripts, so that for the same RNG
 * state the same statements are sent.
 *
 * Events per workload (defaults; r/w/o = statements returning rows / affecting rows / neither):
 *   oltp_read_write        BEGIN, 10 point, 4 ranges, idx upd, non-idx upd, delete, insert,
 *                          COMMIT                                                  14/4/2
 *   oltp_read_only         BEGIN, 10 point, 4 ranges, COMMIT                        14/0/2
 *   oltp_write_only        BEGIN, idx upd, non-idx upd, delete, insert, COMMIT       0/4/2
 *   oltp_point_select      1 point select (point_selects forced to 1)                1/0/0
 *   oltp_update_index      1 UPDATE ... SET k=k+1                                    0/1/0
 *   oltp_update_non_index  1 UPDATE ... SET c=?                                      0/1/0
 *   oltp_delete            1 DELETE (0 rows once deleted -> "other")                 0/1/0
 *   oltp_insert            1 text INSERT                                             0/1/0
 *   select_random_points   1 SELECT ... WHERE k IN (10 values), --tables=1 only      1/0/0
 *   select_random_ranges   1 SELECT count(k) ... 10 BETWEEN ranges, --tables=1 only  1/0/0
 *   oltp_legacy            as oltp_read_write but text queries and one table per event
 * BEGIN/COMMIT are left out with --skip-trx; ranges with --range-selects=off.
 *
 * Thread-safety: a struct oltp_worker belongs to one thread at a time; prepare/cleanup functions
 * use only their arguments.
 */
#ifndef SIZEUP_PROBES_OLTP_H
#define SIZEUP_PROBES_OLTP_H

#include "mysql_conn.h"
#include "sbrand.h"

#include <stdint.h>
#include <stdio.h>

enum oltp_workload {
    OLTP_POINT_SELECT,
    OLTP_READ_ONLY,
    OLTP_READ_WRITE,
    OLTP_WRITE_ONLY,
    OLTP_INSERT,
    OLTP_UPDATE_INDEX,
    OLTP_UPDATE_NON_INDEX,
    OLTP_DELETE,
    OLTP_SELECT_RANDOM_POINTS,
    OLTP_SELECT_RANDOM_RANGES,
    OLTP_LEGACY,
    OLTP_N_WORKLOADS
};

/* Workload options with sysbench's defaults (oltp_opts_default). */
struct oltp_opts {
    enum oltp_workload workload;
    unsigned tables;            /* 1 */
    unsigned table_size;        /* 10000 */
    unsigned range_size;        /* 100 */
    unsigned point_selects;     /* 10 */
    unsigned simple_ranges;     /* 1 */
    unsigned sum_ranges;        /* 1 */
    unsigned order_ranges;      /* 1 */
    unsigned distinct_ranges;   /* 1 */
    unsigned index_updates;     /* 1 */
    unsigned non_index_updates; /* 1 */
    unsigned delete_inserts;    /* 1 */
    unsigned random_points;     /* 10 (select_random_points) */
    unsigned number_of_ranges;  /* 10 (select_random_ranges) */
    unsigned delta;             /* 5 (select_random_ranges) */
    int range_selects;          /* 1 */
    int skip_trx;               /* 0 */
    int auto_inc;               /* 1 */
    int secondary;              /* 0: PRIMARY KEY (id); 1: KEY xid (id) */
    int create_secondary;       /* 1: CREATE INDEX k_N after the load */
    const char *storage_engine; /* "innodb" (borrowed) */
};

/* Statement kinds of the OLTP scripts (index into a worker's per-table statements). */
enum oltp_kind {
    OLTP_K_POINT,
    OLTP_K_SIMPLE,
    OLTP_K_SUM,
    OLTP_K_ORDER,
    OLTP_K_DISTINCT,
    OLTP_K_IDX_UPD,
    OLTP_K_NONIDX_UPD,
    OLTP_K_DELETE,
    OLTP_K_INSERT,
    OLTP_N_KINDS
};

/* The c and pad templates: 10 and 5 groups of 11 '#' joined by '-' (119 and 59 chars). */
#define OLTP_C_LEN 119
#define OLTP_PAD_LEN 59

/** Fill o with sysbench 1.0.20's defaults (workload oltp_read_write). */
void oltp_opts_default(struct oltp_opts *o);

/** Parse a workload name (sysbench's script names, e.g. "oltp_read_write"). @return 0 or -1. */
int oltp_workload_parse(const char *name, enum oltp_workload *out);

/** Name of a workload. */
const char *oltp_workload_name(enum oltp_workload w);

/**
 * Check options against a workload's rules (select_random_* need tables = 1; counts and sizes
 * in range). @return 0, or -1 with a message ("--tables must be 1 for ...") in msg.
 */
int oltp_opts_check(const struct oltp_opts *o, char *msg, size_t msg_len);

/**
 * The expected statement counts of one event without errors, for checks and reports:
 * selects, updates, deletes, inserts, begins, commits (text or prepared alike).
 */
struct oltp_shape {
    unsigned selects, updates, deletes, inserts, begins, commits;
};
void oltp_event_shape(const struct oltp_opts *o, struct oltp_shape *out);

/* One statement of a planned event: a statement of the worker (prepared or emulated) with the
 * values at data[off, off + len), or a text query (stmt NULL) of len bytes at data + off. */
struct oltp_step {
    struct myconn_stmt *stmt;
    size_t off, len;
};

/* The statements of one event, in order, with their values (oltp_plan_event). */
struct oltp_plan {
    struct oltp_step *steps;
    size_t n, cap;
    char *data;
    size_t used, cap_data;
    size_t limit;       /* planning stops after this many steps; 0 = none */
    struct sbrand rng0; /* the generator before the event's draws */
};

/*
 * One connection's state while running a workload. Fill the first block (conn.opts too), then
 * oltp_worker_setup() once; prepare the statements of w->prep[0 .. n_prep) on the server
 * (mysql_async.h) after every (re)connect, oltp_worker_unprepare() before a reconnect, and
 * oltp_worker_destroy() at the end.
 *
 * An event is planned before it is sent (oltp_plan_event): every random value is drawn in the
 * scripts' order and kept with its statement, then the engine sends the steps one by one
 * (oltp_step_load + mysql_async.h). With no error the draws and statements are those of the
 * scripts; when step i fails, oltp_plan_cut() puts the generator where the scripts' lazy draws
 * would have left it (nothing drawn for the steps after i), so a restarted event draws what
 * sysbench's restarted event() would.
 */
struct oltp_worker {
    const struct oltp_opts *o;      /* borrowed */
    const struct sbrand_params *rp; /* borrowed */
    struct sbrand *rng;             /* borrowed, this connection's */
    struct sbrand_unique *uniq;     /* borrowed, shared (oltp_insert without auto_inc) */
    unsigned thread_id, threads;    /* 0-based id, number of connections of the run */
    struct myconn conn;
    /* owned */
    struct myconn_stmt *stmts; /* [tables * OLTP_N_KINDS], empty where unused */
    struct myconn_stmt begin, commit, single;
    struct myconn_stmt **prep; /* the statements the workload uses, in the scripts' prepare
                                * order (thread_init of oltp_common.lua) */
    size_t n_prep;
    char *qbuf;            /* text queries (oltp_insert, oltp_legacy) */
    struct oltp_plan plan; /* the event being run */
};

/**
 * Set up (client side, nothing sent) every statement the workload uses, for every table, in
 * the scripts' order, into w->prep. Call once; w->conn.opts must be set (its ps_mode).
 * @return 0, or MYCONN_FATAL when out of memory (w->conn.err filled).
 */
int oltp_worker_setup(struct oltp_worker *w);

/** Close the server side of the statements (before a reconnect); their setup is kept. */
void oltp_worker_unprepare(struct oltp_worker *w);

/** Free the statements, the plan and the buffers, close the connection. Safe on a zeroed
 * worker and twice. */
void oltp_worker_destroy(struct oltp_worker *w);

/**
 * Plan one event: its statements and values into w->plan (the generator advances by the
 * event's draws; its state before them is kept in plan.rng0).
 * @return 0, or -1 when out of memory.
 */
int oltp_plan_event(struct oltp_worker *w);

/**
 * Step `failed` of the plan failed: replay the draws from plan.rng0 up to that step only, so
 * the generator is where the scripts' lazy draws would have left it; the plan keeps steps
 * 0 .. failed. @return 0, or -1 when out of memory.
 */
int oltp_plan_cut(struct oltp_worker *w, size_t failed);

/** Put step i's values into its statement's parameters (nothing for a text query). */
void oltp_step_load(struct oltp_worker *w, size_t i);

/** The SQL of step i for messages: a prepared statement's template, an emulated statement's
 * text (after it was sent), or the text query. */
const char *oltp_step_sql(const struct oltp_worker *w, size_t i);

/* The mark of the tables sizeup creates: their table COMMENT, naming sizeup and the version of
 * the schema. A table carries OLTP_TABLE_MARK_LOADING from its CREATE until its load and index
 * are done, then OLTP_TABLE_MARK (sbtables.h says how the marks are checked). */
/* sysbench's templates of a row's c and pad columns (sbrand_str: '#' becomes a digit, '-' is
 * kept); OLTP_C_LEN and OLTP_PAD_LEN characters. */
extern const char oltp_c_template[];
extern const char oltp_pad_template[];

#define OLTP_TABLE_MARK "sizeup.sbtest/1"
#define OLTP_TABLE_MARK_LOADING "sizeup.sbtest/1 loading"

#endif
