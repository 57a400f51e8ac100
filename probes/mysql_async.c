/* mysql_async.c - non-blocking operations over Connector/C (see mysql_async.h). */
#include "mysql_async.h"

#include <mysql.h>

#include <string.h>
#include <sys/socket.h>

_Static_assert(MYASYNC_READ == MYSQL_WAIT_READ && MYASYNC_WRITE == MYSQL_WAIT_WRITE &&
                   MYASYNC_EXCEPT == MYSQL_WAIT_EXCEPT && MYASYNC_TIMEOUT == MYSQL_WAIT_TIMEOUT,
               "MYASYNC_* are Connector/C's MYSQL_WAIT_* values");

enum { OP_NONE, OP_CONNECT, OP_PREPARE, OP_EXECUTE, OP_QUERY };
/* phases of OP_EXECUTE */
enum { X_EXEC, X_STORE, X_FREE };
/* phases of OP_QUERY */
enum { Q_QUERY, Q_STORE, Q_FREE, Q_NEXT };

static int conn_fail(struct myconn *c, const char *func)
{
    return myconn_fail(c, func, mysql_errno(c->mysql), mysql_sqlstate(c->mysql),
                       mysql_error(c->mysql));
}

static int stmt_fail(struct myconn *c, MYSQL_STMT *st, const char *func)
{
    return myconn_fail(c, func, mysql_stmt_errno(st), mysql_stmt_sqlstate(st),
                       mysql_stmt_error(st));
}

/* A call returned `status`: 0 = it completed, else what it waits for. */
static int pending(struct myasync *a, int status)
{
    a->wait = status;
    a->timeout_ms = (status & MYSQL_WAIT_TIMEOUT) ? mysql_get_timeout_value_ms(a->c->mysql) : 0;
    return MYASYNC_PENDING;
}

static int done(struct myasync *a, int rc)
{
    a->op = OP_NONE;
    a->wait = 0;
    return rc;
}

static void begin(struct myasync *a, int op, struct myconn *c, struct myconn_stmt *s)
{
    memset(a, 0, sizeof *a);
    a->op = op;
    a->c = c;
    a->s = s;
}

/* ---- connect ------------------------------------------------------------------------------- */

static int connect_done(struct myasync *a, MYSQL *ret)
{
    struct myconn *c = a->c;
    if (!ret) {
        conn_fail(c, "mysql_real_connect");
        mysql_close(c->mysql);
        c->mysql = NULL;
        if (c->err.cls == MYCONN_IGNORABLE) /* a refused connection is never ignorable */
            c->err.cls = MYCONN_FATAL;
        return done(a, (int)c->err.cls);
    }
    return done(a, MYCONN_OK);
}

int myasync_connect(struct myasync *a, struct myconn *c, const struct myconn_opts *o)
{
    const char *host = o->socket ? "localhost" : (o->host ? o->host : "localhost");
    MYSQL *ret = NULL;
    int rc, status;
    begin(a, OP_CONNECT, c, NULL);
    if ((rc = myconn_handle_new(c, o, 1)) != 0)
        return done(a, rc);
    status = mysql_real_connect_start(&ret, c->mysql, host, o->user, o->password, o->db,
                                      o->socket ? 0 : o->port, o->socket, CLIENT_MULTI_STATEMENTS);
    return status ? pending(a, status) : connect_done(a, ret);
}

/* ---- prepare ------------------------------------------------------------------------------- */

static int prepare_done(struct myasync *a, int ret)
{
    struct myconn *c = a->c;
    MYSQL_STMT *st = a->st;
    a->st = NULL;
    if (ret != 0) {
        int rc;
        if (mysql_stmt_errno(st) == 1295) { /* ER_UNSUPPORTED_PS: text, as sysbench */
            mysql_stmt_close(st);
            return done(a, myconn_stmt_emulate(c, a->s));
        }
        rc = stmt_fail(c, st, "mysql_stmt_prepare");
        mysql_stmt_close(st);
        return done(a, rc);
    }
    if (a->s->n_params && mysql_stmt_bind_param(st, a->s->binds)) {
        int rc = stmt_fail(c, st, "mysql_stmt_bind_param");
        mysql_stmt_close(st);
        return done(a, rc);
    }
    a->s->stmt = st;
    return done(a, MYCONN_OK);
}

int myasync_prepare(struct myasync *a, struct myconn *c, struct myconn_stmt *s)
{
    int ret = 0, status;
    begin(a, OP_PREPARE, c, s);
    if (!c->mysql)
        return done(a, myconn_fail(c, "mysql_stmt_prepare", 2006, "HY000", "not connected"));
    if (!myconn_stmt_needs_prepare(s))
        return done(a, MYCONN_OK);
    a->st = mysql_stmt_init(c->mysql);
    if (!a->st)
        return done(a, conn_fail(c, "mysql_stmt_init"));
    status = mysql_stmt_prepare_start(&ret, a->st, s->sql, (unsigned long)strlen(s->sql));
    return status ? pending(a, status) : prepare_done(a, ret);
}

/* ---- execute a prepared statement ---------------------------------------------------------- */

static int exec_step(struct myasync *a, int status, int ret);

/* Start the next phase of an execution after phase a->phase completed with ret. */
static int exec_next(struct myasync *a, int ret)
{
    MYSQL_STMT *st = a->s->stmt;
    int status;
    my_bool bret = 0;
    switch (a->phase) {
    case X_EXEC:
        if (ret != 0)
            return done(a, stmt_fail(a->c, st, "mysql_stmt_execute"));
        if (mysql_stmt_field_count(st) == 0) {
            a->res.is_read = 0;
            a->res.rows = mysql_stmt_affected_rows(st);
            return done(a, MYCONN_OK);
        }
        a->phase = X_STORE;
        status = mysql_stmt_store_result_start(&ret, st);
        return exec_step(a, status, ret);
    case X_STORE:
        if (ret != 0)
            return done(a, stmt_fail(a->c, st, "mysql_stmt_store_result"));
        a->res.is_read = 1;
        a->res.rows = mysql_stmt_num_rows(st);
        a->phase = X_FREE;
        status = mysql_stmt_free_result_start(&bret, st);
        return exec_step(a, status, bret);
    default: /* X_FREE: the rows were transferred; a failure to free them is not the statement's */
        return done(a, MYCONN_OK);
    }
}

static int exec_step(struct myasync *a, int status, int ret)
{
    return status ? pending(a, status) : exec_next(a, ret);
}

/* ---- a text query -------------------------------------------------------------------------- */

static int query_step(struct myasync *a, int status, int ret);

static int query_next(struct myasync *a, int ret)
{
    struct myconn *c = a->c;
    MYSQL *m = c->mysql;
    int status;
    MYSQL_RES *rs = NULL;
    for (;;) {
        switch (a->phase) {
        case Q_QUERY:
            if (ret != 0)
                return done(a, conn_fail(c, "mysql_real_query"));
            a->phase = Q_STORE;
            status = mysql_store_result_start(&rs, m);
            if (status)
                return pending(a, status);
            a->rs = rs;
            continue;
        case Q_STORE:
            rs = a->rs;
            a->rs = NULL;
            if (!rs && mysql_field_count(m) > 0)
                return done(a, conn_fail(c, "mysql_store_result"));
            if (a->first) {
                a->first = 0;
                a->res.is_read = rs != NULL;
                a->res.rows = rs ? mysql_num_rows(rs) : mysql_affected_rows(m);
            }
            if (rs) {
                a->phase = Q_FREE;
                a->rs = rs;
                status = mysql_free_result_start(rs);
                if (status)
                    return pending(a, status);
                a->rs = NULL;
            }
            a->phase = Q_FREE;
            continue;
        case Q_FREE:
            /* any further results of a multi-statement (none in the probes' SQL) are drained;
             * an error there ends the draining, as in the blocking myconn_query() */
            if (!mysql_more_results(m))
                return done(a, MYCONN_OK);
            a->phase = Q_NEXT;
            status = mysql_next_result_start(&ret, m);
            if (status)
                return pending(a, status);
            continue;
        default: /* Q_NEXT */
            if (ret != 0)
                return done(a, MYCONN_OK);
            a->phase = Q_STORE;
            status = mysql_store_result_start(&rs, m);
            if (status)
                return pending(a, status);
            a->rs = rs;
            continue;
        }
    }
}

static int query_step(struct myasync *a, int status, int ret)
{
    return status ? pending(a, status) : query_next(a, ret);
}

static int query_start(struct myasync *a, const char *sql, size_t len)
{
    int ret = 0, status;
    a->first = 1;
    a->phase = Q_QUERY;
    status = mysql_real_query_start(&ret, a->c->mysql, sql, (unsigned long)len);
    return query_step(a, status, ret);
}

int myasync_query(struct myasync *a, struct myconn *c, const char *sql, size_t len)
{
    begin(a, OP_QUERY, c, NULL);
    if (!c->mysql)
        return done(a, myconn_fail(c, "mysql_real_query", 2006, "HY000", "not connected"));
    return query_start(a, sql, len);
}

int myasync_execute(struct myasync *a, struct myconn *c, struct myconn_stmt *s)
{
    int ret = 0, status;
    if (!s->stmt) { /* emulated: its text */
        begin(a, OP_QUERY, c, s);
        if (!c->mysql)
            return done(a, myconn_fail(c, "mysql_real_query", 2006, "HY000", "not connected"));
        return query_start(a, s->text, myconn_stmt_text(s));
    }
    begin(a, OP_EXECUTE, c, s);
    a->phase = X_EXEC;
    status = mysql_stmt_execute_start(&ret, s->stmt);
    return exec_step(a, status, ret);
}

/* ---- continue ------------------------------------------------------------------------------ */

int myasync_cont(struct myasync *a, int events)
{
    int status, ret = 0;
    my_bool bret = 0;
    switch (a->op) {
    case OP_CONNECT: {
        MYSQL *m = NULL;
        status = mysql_real_connect_cont(&m, a->c->mysql, events);
        return status ? pending(a, status) : connect_done(a, m);
    }
    case OP_PREPARE:
        status = mysql_stmt_prepare_cont(&ret, a->st, events);
        return status ? pending(a, status) : prepare_done(a, ret);
    case OP_EXECUTE:
        if (a->phase == X_EXEC)
            status = mysql_stmt_execute_cont(&ret, a->s->stmt, events);
        else if (a->phase == X_STORE)
            status = mysql_stmt_store_result_cont(&ret, a->s->stmt, events);
        else
            status = mysql_stmt_free_result_cont(&bret, a->s->stmt, events), ret = bret;
        return exec_step(a, status, ret);
    case OP_QUERY:
        switch (a->phase) {
        case Q_QUERY:
            status = mysql_real_query_cont(&ret, a->c->mysql, events);
            break;
        case Q_STORE: {
            MYSQL_RES *rs = NULL;
            status = mysql_store_result_cont(&rs, a->c->mysql, events);
            if (!status)
                a->rs = rs;
            break;
        }
        case Q_FREE:
            status = mysql_free_result_cont(a->rs, events);
            if (!status)
                a->rs = NULL;
            break;
        default:
            status = mysql_next_result_cont(&ret, a->c->mysql, events);
            break;
        }
        return query_step(a, status, ret);
    default:
        return MYCONN_OK;
    }
}

void myasync_abort(struct myasync *a)
{
    int fd;
    if (a->op == OP_NONE || !a->wait)
        return;
    fd = myconn_socket(a->c);
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
    /* a timed-out wait fails the operation's I/O; a few rounds reach the end of any phase */
    for (int i = 0; i < 64 && a->op != OP_NONE; i++)
        if (myasync_cont(a, MYASYNC_TIMEOUT | MYASYNC_READ | MYASYNC_WRITE) != MYASYNC_PENDING)
            break;
}
