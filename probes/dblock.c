/* dblock.c - one sizeup run at a time on a database's probe tables (dblock.h). */
#include "dblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lock's name as an SQL expression of the connection's database: "sizeup.sbtest/" and its
 * name, or for a name longer than 50 characters (the server's limit is 64) its first 17, '#' and
 * its MD5, so that no two databases share a lock. */
#define LOCK_DB "COALESCE(DATABASE(), '')"
#define LOCK_NAME                                                                                  \
    "CONCAT('sizeup.sbtest/', IF(CHAR_LENGTH(" LOCK_DB ") <= 50, " LOCK_DB                         \
    ", CONCAT(LEFT(" LOCK_DB ", 17), '#', MD5(" LOCK_DB "))))"

struct take {
    int got;           /* GET_LOCK's 1, 0, or -1 for NULL (an error) */
    unsigned long who; /* IS_USED_LOCK: the holder's connection id, 0 none */
    char db[96];
    char name[96]; /* the lock's name */
};

static int on_take(void *ctx, unsigned n, const char *const *row)
{
    struct take *t = ctx;
    if (n < 4)
        return 1;
    t->got = row[0] ? atoi(row[0]) : -1;
    t->who = row[1] ? strtoul(row[1], NULL, 10) : 0;
    snprintf(t->db, sizeof t->db, "%s", row[2] ? row[2] : "");
    snprintf(t->name, sizeof t->name, "%s", row[3] ? row[3] : "");
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
    struct take t = {-1, 0, "", ""};
    int rc;
    msg[0] = '\0';
    memset(l, 0, sizeof *l);
    if ((rc = myconn_connect(&l->c, opts)) != 0) {
        snprintf(msg, cap, "cannot connect: error %u (SQLSTATE %s): %s", l->c.err.errnum,
                 l->c.err.sqlstate, l->c.err.msg);
        myconn_close(&l->c);
        return -rc;
    }
    /* the lock lives as long as this connection: no idle timeout may end it (a long study
     * idles it for hours; the server's default wait_timeout is 8 h); dblock_keep checks it */
    (void)myconn_query(&l->c, "SET SESSION wait_timeout = 31536000", 36, NULL);
    rc = myconn_query_rows(&l->c,
                           "SELECT GET_LOCK(" LOCK_NAME ", 0), IS_USED_LOCK(" LOCK_NAME
                           "), DATABASE(), " LOCK_NAME,
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
    snprintf(l->name, sizeof l->name, "%s", t.name);
    l->opts = opts;
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
                 "lock '%s', connection %lu%s): wait for it to end, or give this run another "
                 "database (--mysql-db); a run that died holds nothing",
                 t.db, t.name, t.who,
                 h.text[0] ? h.text
                           : " (its user and host are not visible to this account: it needs the "
                             "PROCESS privilege to see them)");
    }
    myconn_close(&l->c);
    return DBLOCK_HELD;
}

static int on_mine(void *ctx, unsigned n, const char *const *row)
{
    *(int *)ctx = n >= 1 && row[0] && strcmp(row[0], "1") == 0;
    return 1;
}

int dblock_keep(struct dblock *l, char *msg, size_t cap)
{
    struct dblock again;
    char q[256], why[1024];
    int mine = 0, rc;
    msg[0] = '\0';
    if (!l || !l->held)
        return 0;
    snprintf(q, sizeof q, "SELECT IS_USED_LOCK('%s') = CONNECTION_ID()", l->name);
    if (!strchr(l->name, '\'') && !strchr(l->name, '\\') &&
        myconn_query_rows(&l->c, q, on_mine, &mine) == 0 && mine)
        return 0;
    /* the connection is gone (a server restart, a killed connection) and the lock with it: take
     * it again, unless another run has it now */
    myconn_close(&l->c);
    l->held = 0;
    rc = dblock_acquire(&again, l->opts, why, sizeof why);
    if (rc == 0 && again.held) {
        *l = again;
        snprintf(msg, cap,
                 "the database's lock was lost (its connection ended: a server restart "
                 "or a killed connection) and is taken again");
        return 0;
    }
    snprintf(msg, cap,
             "the database's lock was lost (its connection ended: a server restart or a killed "
             "connection) and could not be taken again: %s",
             why);
    return rc == 0 ? -MYCONN_FATAL : rc;
}

void dblock_release(struct dblock *l)
{
    if (!l || !l->held)
        return;
    myconn_close(&l->c); /* the server releases a connection's locks when it ends */
    l->held = 0;
}
