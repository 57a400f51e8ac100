/* dblock.c - one sizeup run at a time on a database's probe tables (dblock.h). */
#include "dblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lock's name as an SQL expression of the connection's database. */
#define LOCK_NAME "LEFT(CONCAT('sizeup.sbtest/', COALESCE(DATABASE(), '')), 64)"

struct take {
    int got;           /* GET_LOCK's 1, 0, or -1 for NULL (an error) */
    unsigned long who; /* IS_USED_LOCK: the holder's connection id, 0 none */
    char db[96];
};

static int on_take(void *ctx, unsigned n, const char *const *row)
{
    struct take *t = ctx;
    if (n < 3)
        return 1;
    t->got = row[0] ? atoi(row[0]) : -1;
    t->who = row[1] ? strtoul(row[1], NULL, 10) : 0;
    snprintf(t->db, sizeof t->db, "%s", row[2] ? row[2] : "");
    return 1;
}

struct holder {
    char text[200];
};

static int on_holder(void *ctx, unsigned n, const char *const *row)
{
    struct holder *h = ctx;
    if (n >= 3)
        snprintf(h->text, sizeof h->text, " (user %.40s from %.60s, running: %.60s)",
                 row[0] ? row[0] : "?", row[1] ? row[1] : "?",
                 row[2] && row[2][0] ? row[2] : "nothing now");
    return 1;
}

int dblock_acquire(struct dblock *l, const struct myconn_opts *opts, char *msg, size_t cap)
{
    struct take t = {-1, 0, ""};
    int rc;
    msg[0] = '\0';
    memset(l, 0, sizeof *l);
    if ((rc = myconn_connect(&l->c, opts)) != 0) {
        snprintf(msg, cap, "cannot connect: error %u (SQLSTATE %s): %s", l->c.err.errnum,
                 l->c.err.sqlstate, l->c.err.msg);
        myconn_close(&l->c);
        return -rc;
    }
    rc = myconn_query_rows(
        &l->c, "SELECT GET_LOCK(" LOCK_NAME ", 0), IS_USED_LOCK(" LOCK_NAME "), DATABASE()",
        on_take, &t);
    if (rc != 0) {
        /* 1305: FUNCTION GET_LOCK does not exist (an engine without named locks) */
        if (l->c.err.errnum == 1305 || l->c.err.errnum == 1064) {
            snprintf(msg, cap,
                     "the server has no named locks (GET_LOCK: %s): two runs on this database "
                     "are not kept apart",
                     l->c.err.msg);
            myconn_close(&l->c);
            return 0;
        }
        {
            int cls = (int)l->c.err.cls;
            snprintf(msg, cap, "%s", l->c.err.msg);
            myconn_close(&l->c);
            return cls > 0 ? -cls : -MYCONN_FATAL;
        }
    }
    snprintf(l->db, sizeof l->db, "%s", t.db);
    if (t.got == 1) {
        l->held = 1;
        return 0;
    }
    if (t.got != 0) {
        snprintf(msg, cap, "GET_LOCK on database '%s' answered NULL (an error)", t.db);
        myconn_close(&l->c);
        return -MYCONN_FATAL;
    }
    {
        struct holder h = {""};
        char q[160];
        if (t.who) {
            snprintf(q, sizeof q,
                     "SELECT USER, HOST, LEFT(COALESCE(INFO, ''), 60) FROM "
                     "information_schema.PROCESSLIST WHERE ID = %lu",
                     t.who);
            (void)myconn_query_rows(&l->c, q, on_holder, &h);
        }
        snprintf(msg, cap,
                 "another sizeup run holds the probe tables of database '%s' (the server's "
                 "lock 'sizeup.sbtest/%s', connection %lu%s): wait for it to end, or give this "
                 "run another database (--mysql-db); a run that died holds nothing",
                 t.db, t.db, t.who, h.text);
    }
    myconn_close(&l->c);
    return DBLOCK_HELD;
}

void dblock_release(struct dblock *l)
{
    if (!l || !l->held)
        return;
    myconn_close(&l->c); /* the server releases a connection's locks when it ends */
    l->held = 0;
}
