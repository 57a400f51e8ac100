/* observe.c - read-only samples of a running server (observe.h). */
#include "observe.h"

#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const trx_names[OBS_N_TRX] = {"trx_rw_commits", "trx_ro_commits",
                                                 "trx_nl_ro_commits", "trx_rollbacks"};

static double now_s(void)
{
    return clock_ns_to_s(clock_now_ns());
}

int obs_connect(struct obs_conn *oc, const struct myconn_opts *o)
{
    int trx_state = oc->trx_state, column = oc->status_column;
    char why[sizeof oc->trx_why];
    memcpy(why, oc->trx_why, sizeof why);
    myconn_close(&oc->c);
    memset(oc, 0, sizeof *oc);
    /* what was learnt of INNODB_METRICS holds for the same server */
    oc->trx_state = trx_state;
    oc->status_column = column;
    memcpy(oc->trx_why, why, sizeof why);
    return myconn_connect(&oc->c, o);
}

void obs_close(struct obs_conn *oc)
{
    myconn_close(&oc->c);
}

/* Every statement goes through here, so that the observer's own count is exact. */
static int query_rows(struct obs_conn *oc, const char *sql, int is_select, myconn_row_fn fn,
                      void *ctx)
{
    oc->own_queries++;
    oc->own_selects += is_select ? 1 : 0;
    return myconn_query_rows(&oc->c, sql, fn, ctx);
}

struct status_ctx {
    struct obs_status *s;
    size_t cap;
    int nomem;
};

/* SHOW GLOBAL STATUS: Variable_name, Value (numeric ones kept) */
static int on_status(void *ctx, unsigned n, const char *const *row)
{
    struct status_ctx *c = ctx;
    struct obs_status *s = c->s;
    uint64_t v;
    if (n < 2 || !row[0] || srvstat_parse_u64(row[1], &v) != 0 ||
        strlen(row[0]) >= sizeof s->v[0].name)
        return 0;
    if (s->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 512;
        struct srvstat_named *g = realloc(s->v, cap * sizeof *g);
        if (!g) {
            c->nomem = 1;
            return 1;
        }
        s->v = g;
        c->cap = cap;
    }
    snprintf(s->v[s->n].name, sizeof s->v[0].name, "%s", row[0]);
    s->v[s->n++].value = v;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct srvstat_named *)a)->name, ((const struct srvstat_named *)b)->name);
}

struct trx_ctx {
    uint64_t v[OBS_N_TRX];
    unsigned seen; /* bit per counter */
};

/* INNODB_METRICS: NAME, COUNT */
static int on_trx(void *ctx, unsigned n, const char *const *row)
{
    struct trx_ctx *t = ctx;
    uint64_t v;
    if (n < 2 || !row[0])
        return 0;
    for (int i = 0; i < OBS_N_TRX; i++)
        if (strcmp(row[0], trx_names[i]) == 0 && srvstat_parse_u64(row[1], &v) == 0) {
            t->v[i] = v;
            t->seen |= 1u << i;
        }
    return 0;
}

/* The engine's transaction counters into s when readable; the first refusal is remembered. */
static int read_trx(struct obs_conn *oc, struct obs_status *s)
{
    static const char *const sql[2] = {
        "SELECT NAME, COUNT FROM information_schema.INNODB_METRICS WHERE NAME IN "
        "('trx_rw_commits', 'trx_ro_commits', 'trx_nl_ro_commits', 'trx_rollbacks') AND "
        "ENABLED = 1",
        "SELECT NAME, COUNT FROM information_schema.INNODB_METRICS WHERE NAME IN "
        "('trx_rw_commits', 'trx_ro_commits', 'trx_nl_ro_commits', 'trx_rollbacks') AND "
        "STATUS = 'enabled'"};
    struct trx_ctx t;
    int rc;
    if (oc->trx_state < 0)
        return 0;
    memset(&t, 0, sizeof t);
    rc = query_rows(oc, sql[oc->status_column], 1, on_trx, &t);
    if (rc != 0 && oc->trx_state == 0 && oc->c.err.errnum == 1054 && oc->status_column == 0) {
        oc->status_column = 1; /* MySQL 8: STATUS, not ENABLED */
        rc = query_rows(oc, sql[1], 1, on_trx, &t);
    }
    if (rc == MYCONN_RECONNECT)
        return rc;
    if (rc != 0) {
        oc->trx_state = -1;
        snprintf(oc->trx_why, sizeof oc->trx_why, "information_schema.INNODB_METRICS: %.160s",
                 oc->c.err.msg);
        return 0;
    }
    if (t.seen != (1u << OBS_N_TRX) - 1) {
        oc->trx_state = -1;
        snprintf(oc->trx_why, sizeof oc->trx_why,
                 "InnoDB's transaction counters are off (innodb_monitor_enable = 'trx_%%' "
                 "in the server's configuration turns them on)");
        return 0;
    }
    oc->trx_state = 1;
    memcpy(s->trx, t.v, sizeof t.v);
    s->have_trx = 1;
    return 0;
}

int obs_read_status(struct obs_conn *oc, struct obs_status *s)
{
    struct status_ctx sc = {s, 0, 0};
    int rc;
    obs_status_free(s);
    s->t_mono_s = now_s();
    rc = query_rows(oc, "SHOW GLOBAL STATUS", 0, on_status, &sc);
    s->own_queries = oc->own_queries;
    s->own_selects = oc->own_selects;
    if (rc == 0 && sc.nomem) {
        myconn_fail(&oc->c, "SHOW GLOBAL STATUS", 2008, "HY000", "out of memory");
        rc = MYCONN_FATAL;
    }
    if (rc == 0)
        rc = read_trx(oc, s);
    if (rc != 0) {
        obs_status_free(s);
        return rc;
    }
    qsort(s->v, s->n, sizeof *s->v, by_name);
    return 0;
}

void obs_status_free(struct obs_status *s)
{
    if (!s)
        return;
    free(s->v);
    memset(s, 0, sizeof *s);
}

int obs_status_get(const struct obs_status *s, const char *name, uint64_t *out)
{
    struct srvstat_named key;
    const struct srvstat_named *f;
    if (!s->n || strlen(name) >= sizeof key.name)
        return 0;
    snprintf(key.name, sizeof key.name, "%s", name);
    f = bsearch(&key, s->v, s->n, sizeof *s->v, by_name);
    if (!f)
        return 0;
    *out = f->value;
    return 1;
}

/* SHOW GLOBAL STATUS LIKE 'Threads_running': Variable_name, Value */
static int on_running(void *ctx, unsigned n, const char *const *row)
{
    uint64_t v;
    if (n >= 2 && srvstat_parse_u64(row[1], &v) == 0)
        *(double *)ctx = (double)v;
    return 0;
}

int obs_threads_running(struct obs_conn *oc, double *n)
{
    double v = NAN;
    int rc = query_rows(oc, "SHOW GLOBAL STATUS LIKE 'Threads_running'", 0, on_running, &v);
    if (rc != 0)
        return rc;
    if (isnan(v)) {
        myconn_fail(&oc->c, "SHOW GLOBAL STATUS", 1064, "HY000", "no Threads_running");
        return MYCONN_FATAL;
    }
    *n = v >= 1 ? v - 1 : 0; /* this connection's SHOW is running too */
    return 0;
}

/* SHOW GLOBAL VARIABLES: Variable_name, Value */
static int on_var(void *ctx, unsigned n, const char *const *row)
{
    struct obs_server *srv = ctx;
    uint64_t x;
    if (n < 2 || !row[0] || !row[1])
        return 0;
    if (strcmp(row[0], "version") == 0)
        snprintf(srv->version, sizeof srv->version, "%s", row[1]);
    else if (strcmp(row[0], "version_comment") == 0)
        snprintf(srv->comment, sizeof srv->comment, "%s", row[1]);
    else if (strcmp(row[0], "hostname") == 0)
        snprintf(srv->hostname, sizeof srv->hostname, "%s", row[1]);
    else if (strcmp(row[0], "innodb_buffer_pool_size") == 0 && srvstat_parse_u64(row[1], &x) == 0)
        srv->buffer_pool_bytes = (double)x;
    else if (strcmp(row[0], "innodb_page_size") == 0 && srvstat_parse_u64(row[1], &x) == 0)
        srv->page_bytes = (double)x;
    else if (strcmp(row[0], "performance_schema") == 0)
        srv->performance_schema = strcmp(row[1], "ON") == 0 || strcmp(row[1], "1") == 0;
    else if (strcmp(row[0], "read_only") == 0)
        srv->read_only = strcmp(row[1], "ON") == 0 || strcmp(row[1], "1") == 0;
    return 0;
}

int obs_read_server(struct obs_conn *oc, struct obs_server *srv)
{
    int rc;
    memset(srv, 0, sizeof *srv);
    srv->buffer_pool_bytes = srv->page_bytes = NAN;
    srv->performance_schema = srv->read_only = -1;
    rc = query_rows(oc,
                    "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version', "
                    "'version_comment', 'hostname', 'innodb_buffer_pool_size', "
                    "'innodb_page_size', 'performance_schema', 'read_only')",
                    0, on_var, srv);
    return rc == MYCONN_RECONNECT ? rc : 0;
}

struct sizes_ctx {
    struct obs_schema *v;
    size_t n, cap;
    int nomem;
};

/* TABLE_SCHEMA, bytes, tables */
static int on_size(void *ctx, unsigned n, const char *const *row)
{
    struct sizes_ctx *c = ctx;
    uint64_t b = 0, t = 0;
    if (n < 3 || !row[0])
        return 0;
    if (row[1])
        srvstat_parse_u64(row[1], &b);
    if (row[2])
        srvstat_parse_u64(row[2], &t);
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        struct obs_schema *g = realloc(c->v, cap * sizeof *g);
        if (!g) {
            c->nomem = 1;
            return 1;
        }
        c->v = g;
        c->cap = cap;
    }
    snprintf(c->v[c->n].name, sizeof c->v[0].name, "%s", row[0]);
    c->v[c->n].bytes = (double)b;
    c->v[c->n++].tables = (long)t;
    return 0;
}

int obs_read_sizes(struct obs_conn *oc, struct obs_schema **out, size_t *n)
{
    struct sizes_ctx c = {NULL, 0, 0, 0};
    int rc = query_rows(oc,
                        "SELECT TABLE_SCHEMA, SUM(DATA_LENGTH + INDEX_LENGTH), COUNT(*) FROM "
                        "information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND "
                        "TABLE_SCHEMA NOT IN ('mysql', 'information_schema', "
                        "'performance_schema', 'sys') GROUP BY TABLE_SCHEMA ORDER BY TABLE_SCHEMA",
                        1, on_size, &c);
    if (rc == 0 && c.nomem) {
        myconn_fail(&oc->c, "information_schema.TABLES", 2008, "HY000", "out of memory");
        rc = MYCONN_FATAL;
    }
    if (rc != 0) {
        free(c.v);
        *out = NULL;
        *n = 0;
        return rc;
    }
    *out = c.v;
    *n = c.n;
    return 0;
}
