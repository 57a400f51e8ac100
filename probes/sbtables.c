/* sbtables.c - which sbtest tables are sizeup's; prepare, check, cleanup (see sbtables.h). */
#include "sbtables.h"

#include "oltp_load.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- inspection ---------------------------------------------------------------------------- */

struct why {
    char *buf;
    size_t cap;
    int bad;
};

static void add_why(struct why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append one reason ("; " between reasons). */
static void add_why(struct why *w, const char *fmt, ...)
{
    size_t len = strlen(w->buf);
    va_list ap;
    if (len + 3 >= w->cap)
        return;
    if (w->bad) {
        strcpy(w->buf + len, "; ");
        len += 2;
    }
    va_start(ap, fmt);
    vsnprintf(w->buf + len, w->cap - len, fmt, ap);
    va_end(ap);
    w->bad = 1;
}

struct table_row {
    int found;
    char comment[256];
    char engine[64];
};

/* SHOW TABLE STATUS: Name, Engine, ..., Comment (18th) */
static int on_table(void *ctx, unsigned n, const char *const *row)
{
    struct table_row *t = ctx;
    t->found = 1;
    snprintf(t->engine, sizeof t->engine, "%s", n > 1 && row[1] ? row[1] : "");
    snprintf(t->comment, sizeof t->comment, "%s", n > 17 && row[17] ? row[17] : "");
    return 1;
}

struct columns {
    struct why *w;
    unsigned i;
    int id_unsigned, k_unsigned;
    int stop; /* a difference was named */
};

/* "int", "int(11)", "int(10) unsigned", "int unsigned": 0 signed, 1 unsigned, -1 not an INT */
static int int_kind(const char *type)
{
    const char *p = type;
    if (strncmp(p, "int", 3) != 0)
        return -1;
    p += 3;
    if (*p == '(') {
        p += strspn(p + 1, "0123456789") + 1;
        if (*p != ')')
            return -1;
        p++;
    }
    if (*p == '\0')
        return 0;
    return strcmp(p, " unsigned") == 0 ? 1 : -1;
}

/* SHOW COLUMNS: Field, Type, Null, Key, Default, Extra */
static int on_column(void *ctx, unsigned n, const char *const *row)
{
    static const char *const names[4] = {"id", "k", "c", "pad"};
    static const char *const types[4] = {"int", "int", "char(120)", "char(60)"};
    struct columns *c = ctx;
    const char *name = n > 0 && row[0] ? row[0] : "", *type = n > 1 && row[1] ? row[1] : "";
    const char *nullable = n > 2 && row[2] ? row[2] : "";
    int ok;
    c->stop = 1; /* until this column is found to be right */
    if (c->i >= 4) {
        add_why(c->w, "it has a column %u `%s` %s that sizeup's tables have not", c->i + 1, name,
                type);
        return 1;
    }
    if (c->i < 2) {
        int k = int_kind(type);
        ok = k >= 0;
        if (c->i == 0)
            c->id_unsigned = k;
        else
            c->k_unsigned = k;
    } else {
        ok = strcmp(type, types[c->i]) == 0;
    }
    if (strcmp(name, names[c->i]) != 0 || !ok) {
        add_why(c->w, "column %u is `%s` %s, sizeup's is `%s` %s", c->i + 1, name, type,
                names[c->i], types[c->i]);
        return 1;
    }
    if (strcmp(nullable, "NO") != 0) {
        add_why(c->w, "column `%s` allows NULL, sizeup's is NOT NULL", name);
        return 1;
    }
    c->stop = 0;
    c->i++;
    return 0;
}

struct indexes {
    struct why *w;
    unsigned n_table;
    int id_index, k_index;
    int stop; /* a difference was named */
};

/* SHOW INDEX: Table, Non_unique, Key_name, Seq_in_index, Column_name, ... */
static int on_index(void *ctx, unsigned n, const char *const *row)
{
    struct indexes *x = ctx;
    const char *non_unique = n > 1 && row[1] ? row[1] : "", *name = n > 2 && row[2] ? row[2] : "";
    const char *seq = n > 3 && row[3] ? row[3] : "", *col = n > 4 && row[4] ? row[4] : "";
    char k_name[32];
    snprintf(k_name, sizeof k_name, "k_%u", x->n_table);
    x->stop = 1;
    if (strcmp(seq, "1") != 0) {
        add_why(x->w, "index `%s` has a second column `%s`; sizeup's indexes have one", name, col);
        return 1;
    }
    if ((strcmp(name, "PRIMARY") == 0 || (strcmp(name, "xid") == 0 && !strcmp(non_unique, "1"))) &&
        strcmp(col, "id") == 0) {
        if (x->id_index++) {
            add_why(x->w, "it has two indexes on `id`");
            return 1;
        }
        x->stop = 0;
        return 0;
    }
    if (strcmp(name, k_name) == 0 && strcmp(col, "k") == 0 && !strcmp(non_unique, "1")) {
        x->k_index++;
        x->stop = 0;
        return 0;
    }
    add_why(x->w, "it has an index `%s` on `%s` that sizeup does not create", name, col);
    return 1;
}

/* SHOW TRIGGERS LIKE: Trigger, Event, Table, ... */
static int on_trigger(void *ctx, unsigned n, const char *const *row)
{
    add_why(ctx,
            "it has a trigger `%s` that sizeup does not create (the workloads' writes would "
            "reach further)",
            n > 0 && row[0] ? row[0] : "");
    return 1;
}

/* One table's state; fk: the name of a foreign key from or to it, or NULL. */
static int inspect(struct myconn *c, unsigned n, const char *fk, char *why_buf, size_t why_len)
{
    char sql[128];
    struct table_row t;
    struct why w = {why_buf, why_len, 0};
    struct columns cols;
    struct indexes idx;
    int rc, marked, loading;
    why_buf[0] = '\0';
    memset(&t, 0, sizeof t);
    /* SHOW statements: they count in Com_show_*, so a run's Com_select stays sysbench's */
    snprintf(sql, sizeof sql, "SHOW TABLE STATUS LIKE 'sbtest%u'", n);
    if ((rc = myconn_query_rows(c, sql, on_table, &t)))
        return -rc;
    if (!t.found)
        return SBTABLES_ABSENT;
    marked = strcmp(t.comment, OLTP_TABLE_MARK) == 0;
    loading = strcmp(t.comment, OLTP_TABLE_MARK_LOADING) == 0;
    if (!t.engine[0]) { /* a view */
        add_why(&w, "it is a view, not a table");
        return SBTABLES_FOREIGN;
    }
    if (!marked && !loading)
        add_why(&w,
                "its comment is '%s' where sizeup's tables carry '%s' (sizeup did not create it)",
                t.comment, OLTP_TABLE_MARK);

    memset(&cols, 0, sizeof cols);
    cols.w = &w;
    snprintf(sql, sizeof sql, "SHOW COLUMNS FROM sbtest%u", n);
    if ((rc = myconn_query_rows(c, sql, on_column, &cols)))
        return -rc;
    if (!cols.stop && cols.i < 4)
        add_why(&w, "it has %u of sizeup's 4 columns (id, k, c, pad)", cols.i);
    else if (!cols.stop && cols.id_unsigned != cols.k_unsigned)
        add_why(&w,
                "`id` and `k` differ in signedness; sizeup makes both INT or both INT UNSIGNED");

    memset(&idx, 0, sizeof idx);
    idx.w = &w;
    idx.n_table = n;
    snprintf(sql, sizeof sql, "SHOW INDEX FROM sbtest%u", n);
    if ((rc = myconn_query_rows(c, sql, on_index, &idx)))
        return -rc;
    if (idx.id_index == 0 && !idx.stop)
        add_why(&w, "it has no index on `id` alone (PRIMARY KEY or xid)");

    snprintf(sql, sizeof sql, "SHOW TRIGGERS LIKE 'sbtest%u'", n);
    if ((rc = myconn_query_rows(c, sql, on_trigger, &w)))
        return -rc;
    if (fk)
        add_why(&w,
                "it has a foreign key `%s` from or to another table that sizeup does not create "
                "(a DELETE could cascade into that table)",
                fk);
    if (w.bad)
        return SBTABLES_FOREIGN;
    if (loading) {
        snprintf(why_buf, why_len, "it was left by a prepare that did not finish (comment '%s')",
                 OLTP_TABLE_MARK_LOADING);
        return SBTABLES_LOADING;
    }
    return SBTABLES_OURS;
}

/* Foreign keys from or to sbtest1..N, in one query: fk[n] holds a constraint's name or "". */
struct fks {
    unsigned tables;
    char (*name)[72];
};

static int on_fk(void *ctx, unsigned n, const char *const *row)
{
    struct fks *f = ctx;
    char *end;
    unsigned long t;
    if (n < 2 || !row[0] || !row[1] || strncmp(row[0], "sbtest", 6) != 0)
        return 0;
    t = strtoul(row[0] + 6, &end, 10);
    if (*end == '\0' && t >= 1 && t <= f->tables && !f->name[t][0])
        snprintf(f->name[t], sizeof f->name[t], "%s", row[1]);
    return 0;
}

/* The second half looks for foreign keys in every database, so it names the two that cannot
 * hold one: without that, MariaDB opens each information_schema table as a temporary table to
 * look in it (10.11: 80 temporary tables, 13 of them Aria files on disk, per call), and a
 * failure there crashed a fixture server (signal 11 in ha_maria::drop_table under
 * create_tmp_table_for_schema, MDEV-30118's path). The condition on CONSTRAINT_SCHEMA is
 * evaluated before a database's tables are opened. */
static int find_fks(struct myconn *c, struct fks *f)
{
    static const char sql[] =
        "SELECT TABLE_NAME, CONSTRAINT_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS "
        "WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'sbtest%' UNION ALL "
        "SELECT REFERENCED_TABLE_NAME, CONSTRAINT_NAME FROM "
        "information_schema.REFERENTIAL_CONSTRAINTS WHERE UNIQUE_CONSTRAINT_SCHEMA = DATABASE() "
        "AND REFERENCED_TABLE_NAME LIKE 'sbtest%' "
        "AND CONSTRAINT_SCHEMA NOT IN ('information_schema', 'performance_schema')";
    int rc;
    f->name = calloc(f->tables + 1, sizeof *f->name);
    if (!f->name) {
        snprintf(c->err.msg, sizeof c->err.msg, "out of memory");
        c->err.cls = MYCONN_FATAL;
        return -MYCONN_FATAL;
    }
    rc = myconn_query_rows(c, sql, on_fk, f);
    return rc ? -rc : 0;
}

int sbtables_inspect(struct myconn *c, unsigned n, char *why, size_t why_len)
{
    struct fks f = {n, NULL};
    int rc = find_fks(c, &f);
    if (rc == 0)
        rc = inspect(c, n, f.name[n][0] ? f.name[n] : NULL, why, why_len);
    free(f.name);
    return rc;
}

/* ---- connections and messages ---------------------------------------------------------------- */

/* A connection that inspects sbtest1..N: the foreign keys are read once, up front. */
struct scan {
    struct myconn c;
    struct fks f;
};

/* Connect and read the foreign keys. 0, or -(class) with msg (and c.err) set. */
static int scan_open(struct scan *s, const struct probe_config *cfg, char *msg, size_t len)
{
    int rc;
    memset(s, 0, sizeof *s);
    s->f.tables = cfg->oltp.tables;
    rc = myconn_connect(&s->c, &cfg->conn);
    if (rc) {
        snprintf(msg, len, "cannot connect to the server: error %u (%s): %s", s->c.err.errnum,
                 s->c.err.sqlstate, s->c.err.msg);
        return -rc;
    }
    rc = find_fks(&s->c, &s->f);
    if (rc) {
        snprintf(msg, len, "cannot read the foreign keys: error %u (%s): %s", s->c.err.errnum,
                 s->c.err.sqlstate, s->c.err.msg);
        myconn_close(&s->c);
    }
    return rc;
}

static int scan_table(struct scan *s, unsigned n, char *why, size_t len)
{
    return inspect(&s->c, n, s->f.name[n][0] ? s->f.name[n] : NULL, why, len);
}

static void scan_close(struct scan *s)
{
    myconn_close(&s->c);
    free(s->f.name);
    s->f.name = NULL;
}

/* A query failed with class cls: msg says what, the scan is closed; returns -cls. */
static int scan_failed(struct scan *s, int cls, const char *what, char *msg, size_t len)
{
    snprintf(msg, len, "%s: error %u (%s): %s", what, s->c.err.errnum, s->c.err.sqlstate,
             s->c.err.msg);
    scan_close(s);
    return -cls;
}

static const char *db_name(const struct probe_config *cfg)
{
    return cfg->conn.db ? cfg->conn.db : "";
}

/* Add a table that is in the way to msg: one line each ("\nsizeup: " between them); those that
 * do not fit are counted. */
struct refusals {
    char *msg;
    size_t len;
    int n, omitted;
};

static void refuse(struct refusals *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void refuse(struct refusals *r, const char *fmt, ...)
{
    char line[900];
    size_t used = r->n ? strlen(r->msg) : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (r->n == 0)
        snprintf(r->msg, r->len, "%s", line);
    else if (used + strlen(line) + 64 < r->len)
        snprintf(r->msg + used, r->len - used, "\nsizeup: %s", line);
    else
        r->omitted++;
    r->n++;
}

static int refused(struct refusals *r)
{
    size_t used = strlen(r->msg);
    if (r->omitted && used + 40 < r->len)
        snprintf(r->msg + used, r->len - used, "\nsizeup: (and %d more tables)", r->omitted);
    return r->n ? SBTABLES_REFUSED : 0;
}

#define NOT_OURS_HINT                                                                              \
    "sizeup touches only the tables it created: rename or drop that table, or give another "       \
    "--mysql-db"

/* ---- check --------------------------------------------------------------------------------- */

int sbtables_check(const struct probe_config *cfg, char *msg, size_t msg_len,
                   struct myconn_error *err)
{
    struct scan sc;
    struct refusals r = {msg, msg_len, 0, 0};
    int rc = scan_open(&sc, cfg, msg, msg_len);
    if (rc) {
        if (err)
            *err = sc.c.err;
        return rc;
    }
    for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
        char why[700];
        int st = scan_table(&sc, n, why, sizeof why);
        if (st < 0) {
            if (err)
                *err = sc.c.err;
            return scan_failed(&sc, -st, "cannot inspect the tables", msg, msg_len);
        }
        if (st == SBTABLES_ABSENT)
            refuse(&r,
                   "table sbtest%u does not exist in database '%s': run 'sizeup probe prepare' "
                   "with the same --tables and --table-size first",
                   n, db_name(cfg));
        else if (st == SBTABLES_LOADING)
            refuse(&r,
                   "table sbtest%u is not ready: %s; run 'sizeup probe cleanup' and prepare again",
                   n, why);
        else if (st == SBTABLES_FOREIGN)
            refuse(&r, "refusing to run on sbtest%u in database '%s': %s. " NOT_OURS_HINT, n,
                   db_name(cfg), why);
    }
    scan_close(&sc);
    return refused(&r);
}

/* ---- prepare ------------------------------------------------------------------------------- */

struct prep_job {
    const struct probe_config *cfg;
    unsigned first, step;
    struct sbrand rng;
    struct myconn_error err;
    int rc;
    int started; /* written by the creating thread only */
    pthread_t thread;
};

static void *prep_main(void *arg)
{
    struct prep_job *j = arg;
    struct myconn c;
    memset(&c, 0, sizeof c);
    myconn_thread_init();
    j->rc = myconn_connect(&c, &j->cfg->conn);
    for (unsigned n = j->first; !j->rc && n <= j->cfg->oltp.tables; n += j->step) {
        if (j->cfg->stop && atomic_load(j->cfg->stop)) {
            j->rc = MYCONN_FATAL;
            snprintf(c.err.msg, sizeof c.err.msg, "interrupted");
            snprintf(c.err.func, sizeof c.err.func, "prepare");
            break;
        }
        j->rc = oltp_prepare_table(&c, &j->cfg->oltp, &j->cfg->rand, &j->rng, n, j->cfg->out);
    }
    if (j->rc)
        j->err = c.err;
    myconn_close(&c);
    myconn_thread_end();
    return NULL;
}

/* Drop the tables of 1..N that carry sizeup's mark: after a failed prepare these are the ones it
 * created (none existed before it). Best effort: the reason it could not is added to msg. */
static void undo_prepare(const struct probe_config *cfg, char *msg, size_t msg_len)
{
    struct scan sc;
    char err[600];
    unsigned dropped = 0;
    size_t used = strlen(msg);
    if (scan_open(&sc, cfg, err, sizeof err) == 0) {
        for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
            char why[700], sql[64];
            int st = scan_table(&sc, n, why, sizeof why);
            if (st < 0)
                break;
            if (st != SBTABLES_OURS && st != SBTABLES_LOADING)
                continue;
            snprintf(sql, sizeof sql, "DROP TABLE sbtest%u", n);
            if (myconn_query(&sc.c, sql, strlen(sql), NULL) != 0)
                break;
            dropped++;
        }
        scan_close(&sc);
        snprintf(err, sizeof err, "; the %u table(s) it had created were dropped", dropped);
        if (sc.c.err.errnum)
            snprintf(err, sizeof err,
                     "; dropping the tables it had created failed (error %u: %s): run 'sizeup "
                     "probe cleanup'",
                     sc.c.err.errnum, sc.c.err.msg);
    } else {
        snprintf(err, sizeof err,
                 "; the tables it created could not be dropped (the server did not answer): "
                 "run 'sizeup probe cleanup' when it is back");
    }
    if (used + 1 < msg_len)
        snprintf(msg + used, msg_len - used, "%s", err);
}

int sbtables_prepare(const struct probe_config *cfg, unsigned threads, char *msg, size_t msg_len)
{
    struct scan sc;
    struct prep_job *jobs;
    struct sbrand_seeder sd;
    struct sbrand skip;
    unsigned n_jobs = threads < cfg->oltp.tables ? threads : cfg->oltp.tables;
    struct refusals r = {msg, msg_len, 0, 0};
    int rc = scan_open(&sc, cfg, msg, msg_len);
    if (rc)
        return rc;
    for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
        char why[700];
        int st = scan_table(&sc, n, why, sizeof why);
        if (st < 0)
            return scan_failed(&sc, -st, "cannot inspect the tables", msg, msg_len);
        if (st == SBTABLES_OURS || st == SBTABLES_LOADING)
            refuse(&r,
                   "table sbtest%u already exists in database '%s'%s; prepare never overwrites "
                   "tables (run 'sizeup probe cleanup' first)",
                   n, db_name(cfg),
                   st == SBTABLES_LOADING ? " (from a prepare that did not finish)" : "");
        else if (st == SBTABLES_FOREIGN)
            refuse(&r,
                   "table sbtest%u already exists in database '%s' and is not sizeup's: "
                   "%s. " NOT_OURS_HINT,
                   n, db_name(cfg), why);
    }
    scan_close(&sc);
    if (r.n)
        return refused(&r);
    if (n_jobs < 1)
        n_jobs = 1;
    jobs = calloc(n_jobs, sizeof *jobs);
    if (!jobs) {
        snprintf(msg, msg_len, "out of memory");
        return -MYCONN_FATAL;
    }
    sbrand_seeder_init(&sd, cfg->rand_seed ? cfg->rand_seed : (unsigned)time(NULL));
    sbrand_seed(&skip, &sd); /* the main thread's generator, as sysbench */
    sbrand_seeder_next(&sd);
    sbrand_seeder_next(&sd);
    for (unsigned i = 0; i < n_jobs; i++) {
        jobs[i].cfg = cfg;
        jobs[i].first = i + 1;
        jobs[i].step = n_jobs;
        sbrand_seed(&jobs[i].rng, &sd);
    }
    if (cfg->out && n_jobs > 1)
        fprintf(cfg->out, "Initializing worker threads...\n\n");
    for (unsigned i = 0; i < n_jobs; i++)
        jobs[i].started = pthread_create(&jobs[i].thread, NULL, prep_main, &jobs[i]) == 0;
    rc = 0;
    for (unsigned i = 0; i < n_jobs; i++) {
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
        if (!jobs[i].started && !rc) {
            rc = MYCONN_FATAL;
            snprintf(msg, msg_len, "prepare failed: could not start a thread");
        } else if (jobs[i].rc && !rc) {
            rc = jobs[i].rc;
            snprintf(msg, msg_len, "prepare failed: %s: error %u (%s): %s", jobs[i].err.func,
                     jobs[i].err.errnum, jobs[i].err.sqlstate, jobs[i].err.msg);
        }
    }
    free(jobs);
    if (rc)
        undo_prepare(cfg, msg, msg_len);
    return rc ? -rc : 0;
}

/* ---- cleanup ------------------------------------------------------------------------------- */

int sbtables_cleanup(const struct probe_config *cfg, char *msg, size_t msg_len)
{
    struct scan sc;
    unsigned char *present;
    struct refusals r = {msg, msg_len, 0, 0};
    int rc = scan_open(&sc, cfg, msg, msg_len);
    if (rc)
        return rc;
    present = calloc(cfg->oltp.tables + 1, 1);
    if (!present) {
        scan_close(&sc);
        snprintf(msg, msg_len, "out of memory");
        return -MYCONN_FATAL;
    }
    for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
        char why[700];
        int st = scan_table(&sc, n, why, sizeof why);
        if (st < 0) {
            free(present);
            return scan_failed(&sc, -st, "cannot inspect the tables", msg, msg_len);
        }
        present[n] = st == SBTABLES_OURS || st == SBTABLES_LOADING;
        if (st == SBTABLES_FOREIGN)
            refuse(&r,
                   "refusing to drop sbtest%u in database '%s': %s. Nothing was "
                   "dropped; " NOT_OURS_HINT,
                   n, db_name(cfg), why);
    }
    if (r.n) {
        free(present);
        scan_close(&sc);
        return refused(&r);
    }
    for (unsigned n = 1; n <= cfg->oltp.tables; n++) {
        char sql[64];
        if (cfg->out)
            fprintf(cfg->out, "Dropping table 'sbtest%u'...\n", n);
        if (!present[n])
            continue;
        snprintf(sql, sizeof sql, "DROP TABLE sbtest%u", n);
        if ((rc = myconn_query(&sc.c, sql, strlen(sql), NULL))) {
            free(present);
            return scan_failed(&sc, rc, sql, msg, msg_len);
        }
    }
    free(present);
    scan_close(&sc);
    return 0;
}
