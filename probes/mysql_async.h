/*
 * mysql_async.h - one non-blocking operation at a time on a connection of mysql_conn.h, over
 * MariaDB Connector/C's non-blocking API (mysql_real_connect_start/_cont, mysql_stmt_prepare_,
 * mysql_stmt_execute_, mysql_stmt_store_result_, mysql_real_query_, mysql_store_result_, ...;
 * "Using the Non-blocking Library" and "Non-blocking API Reference" in MariaDB's documentation).
 *
 * Each operation is the whole of what the blocking code does for it: a statement is executed,
 * its result set (if any) fully transferred and freed, and it is classified read / write /
 * other as sysbench does (docs/reference/sysbench.md 2.3); a text query likewise, any further
 * result sets drained; a prepare falls back to text emulation on 1295 ER_UNSUPPORTED_PS.
 *
 * Use (an event loop, probes/probe_engine.c):
 *   rc = myasync_execute(&a, &conn, stmt);        // or _connect, _prepare, _query
 *   while (rc == MYASYNC_PENDING) {
 *       wait until myconn_socket(&conn) is ready for a.wait (READ / WRITE / EXCEPT), or
 *       a.timeout_ms have passed when a.wait has MYASYNC_TIMEOUT;
 *       rc = myasync_cont(&a, what happened);      // MYASYNC_READ | ..., or MYASYNC_TIMEOUT
 *   }
 *   rc: MYCONN_OK with a.res filled, or the error class with conn.err filled (mysql_conn.h)
 *
 * The connection must come from myasync_connect() (MYSQL_OPT_NONBLOCK); blocking calls of
 * mysql_conn.h (myconn_close, myconn_stmt_destroy) stay allowed between operations. Connector/C
 * runs each operation on a small co-routine stack of its own, so nothing here blocks.
 *
 * Thread-safety: an operation and its connection belong to one thread at a time.
 */
#ifndef SIZEUP_PROBES_MYSQL_ASYNC_H
#define SIZEUP_PROBES_MYSQL_ASYNC_H

#include "mysql_conn.h"

#include <stddef.h>

/* What a pending operation waits for, and what happened (Connector/C's MYSQL_WAIT_* values). */
#define MYASYNC_READ 1
#define MYASYNC_WRITE 2
#define MYASYNC_EXCEPT 4
#define MYASYNC_TIMEOUT 8

/* Return value of an operation that waits (every other value is a myconn class). */
#define MYASYNC_PENDING (-1)

struct st_mysql_res;

/* One operation. Fields below `wait` are the operation's own. */
struct myasync {
    int wait;                 /* pending: MYASYNC_* it waits for */
    unsigned timeout_ms;      /* with MYASYNC_TIMEOUT in wait: the library's timeout, ms */
    struct myconn_result res; /* done, MYCONN_OK: what the statement did */
    /* private */
    int op, phase;
    struct myconn *c;
    struct myconn_stmt *s;
    struct st_mysql_stmt *st; /* a statement being prepared */
    struct st_mysql_res *rs;  /* a result set being freed */
    int first;                /* the first result of a text query is still to be classified */
};

/**
 * Connect with a fresh non-blocking handle (myconn_handle_new with nonblock) and the options o
 * (borrowed for the connection's life), CLIENT_MULTI_STATEMENTS, as myconn_connect().
 * @return MYASYNC_PENDING, MYCONN_OK (c->mysql set), or the class of the failure (c->err
 *         filled, c->mysql NULL; a refusal is never IGNORABLE).
 */
int myasync_connect(struct myasync *a, struct myconn *c, const struct myconn_opts *o);

/**
 * Prepare a statement set up with myconn_stmt_setup() on the server and bind its parameters;
 * on 1295 ER_UNSUPPORTED_PS it is emulated as text instead (MYCONN_OK).
 * @return MYASYNC_PENDING, MYCONN_OK, or the error class (c->err filled; s stays set up).
 */
int myasync_prepare(struct myasync *a, struct myconn *c, struct myconn_stmt *s);

/**
 * Execute a statement with its current parameters (prepared: mysql_stmt_execute; emulated:
 * its text, myconn_stmt_text()), its result transferred and freed.
 * @return MYASYNC_PENDING, MYCONN_OK (a->res filled), or the error class (c->err filled).
 */
int myasync_execute(struct myasync *a, struct myconn *c, struct myconn_stmt *s);

/**
 * Run a text query of len bytes (sql borrowed until the operation ends), its result discarded.
 * @return MYASYNC_PENDING, MYCONN_OK (a->res filled), or the error class (c->err filled).
 */
int myasync_query(struct myasync *a, struct myconn *c, const char *sql, size_t len);

/**
 * Continue a pending operation.
 * @param events  MYASYNC_READ / WRITE / EXCEPT that the socket is ready for, or
 *                MYASYNC_TIMEOUT when a->timeout_ms passed (the operation then fails as
 *                Connector/C fails a timed-out wait: a lost connection, 2013)
 * @return as the call that started it.
 */
int myasync_cont(struct myasync *a, int events);

/**
 * End a pending operation at once: the socket is shut down (shutdown(2), both ways) and the
 * operation driven to its failure. Nothing is waited for. The connection is dead afterwards
 * (close it). No-op when nothing is pending.
 */
void myasync_abort(struct myasync *a);

#endif
