/* oltp.c - sysbench 1.0.20 OLTP workloads (see oltp.h for the sources). */
#include "oltp.h"

#include "limit.h"

#include <stdlib.h>
#include <string.h>

const char oltp_c_template[] = "###########-###########-###########-###########-###########-"
                               "###########-###########-###########-###########-###########";
const char oltp_pad_template[] = "###########-###########-###########-###########-###########";

#define QBUF_SIZE 1024

static const char *const workload_names[OLTP_N_WORKLOADS] = {
    "oltp_point_select",     "oltp_read_only", "oltp_read_write",
    "oltp_write_only",       "oltp_insert",    "oltp_update_index",
    "oltp_update_non_index", "oltp_delete",    "select_random_points",
    "select_random_ranges",  "oltp_legacy"};

/* SQL templates per kind (oltp_common.lua stmt_defs); %u = table number. */
static const char *const kind_sql[OLTP_N_KINDS] = {
    "SELECT c FROM sbtest%u WHERE id=?",
    "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?",
    "SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?",
    "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
    "SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
    "UPDATE sbtest%u SET k=k+1 WHERE id=?",
    "UPDATE sbtest%u SET c=? WHERE id=?",
    "DELETE FROM sbtest%u WHERE id=?",
    "INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)"};

void oltp_opts_default(struct oltp_opts *o)
{
    memset(o, 0, sizeof *o);
    o->workload = OLTP_READ_WRITE;
    o->tables = 1;
    o->table_size = 10000;
    o->range_size = 100;
    o->point_selects = 10;
    o->simple_ranges = o->sum_ranges = o->order_ranges = o->distinct_ranges = 1;
    o->index_updates = o->non_index_updates = o->delete_inserts = 1;
    o->random_points = 10;
    o->number_of_ranges = 10;
    o->delta = 5;
    o->range_selects = 1;
    o->skip_trx = 0;
    o->auto_inc = 1;
    o->secondary = 0;
    o->create_secondary = 1;
    o->storage_engine = "innodb";
}

int oltp_workload_parse(const char *name, enum oltp_workload *out)
{
    for (int i = 0; i < OLTP_N_WORKLOADS; i++) {
        if (strcmp(name, workload_names[i]) == 0) {
            *out = (enum oltp_workload)i;
            return 0;
        }
    }
    return -1;
}

const char *oltp_workload_name(enum oltp_workload w)
{
    return (unsigned)w < OLTP_N_WORKLOADS ? workload_names[w] : "?";
}

int oltp_opts_check(const struct oltp_opts *o, char *msg, size_t msg_len)
{
    if (!limit_ok(LIMIT_TABLES, o->tables) || !limit_ok(LIMIT_TABLE_SIZE, o->table_size)) {
        char a[120], b[120];
        snprintf(msg, msg_len, "%s; %s", limit_text(LIMIT_TABLES, a, sizeof a),
                 limit_text(LIMIT_TABLE_SIZE, b, sizeof b));
        return -1;
    }
    if ((o->workload == OLTP_SELECT_RANDOM_POINTS || o->workload == OLTP_SELECT_RANDOM_RANGES) &&
        o->tables != 1) {
        snprintf(msg, msg_len, "%s does not support --tables > 1 (as sysbench)",
                 oltp_workload_name(o->workload));
        return -1;
    }
    if (o->random_points < 1 || o->random_points > 1000 || o->number_of_ranges < 1 ||
        o->number_of_ranges > 1000) {
        snprintf(msg, msg_len, "--random-points and --number-of-ranges must be in 1..1000");
        return -1;
    }
    if (o->table_size > 2147483647u || o->range_size < 1) {
        snprintf(msg, msg_len, "--table-size must be < 2^31 and --range-size >= 1");
        return -1;
    }
    if (strlen(o->storage_engine) > 64 ||
        strspn(o->storage_engine,
               "abcdefghijklmnopqrstuvwxyz"
               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(o->storage_engine)) {
        snprintf(msg, msg_len, "--mysql-storage-engine must be an identifier (letters, digits, _)");
        return -1;
    }
    return 0;
}

static int uses_trx(const struct oltp_opts *o)
{
    return !o->skip_trx && (o->workload == OLTP_READ_ONLY || o->workload == OLTP_READ_WRITE ||
                            o->workload == OLTP_WRITE_ONLY || o->workload == OLTP_LEGACY);
}

void oltp_event_shape(const struct oltp_opts *o, struct oltp_shape *s)
{
    unsigned ranges = o->range_selects
                          ? o->simple_ranges + o->sum_ranges + o->order_ranges + o->distinct_ranges
                          : 0;
    memset(s, 0, sizeof *s);
    s->begins = s->commits = uses_trx(o) ? 1 : 0;
    switch (o->workload) {
    case OLTP_POINT_SELECT:
        s->selects = 1;
        break;
    case OLTP_READ_ONLY:
        s->selects = o->point_selects + ranges;
        break;
    case OLTP_READ_WRITE:
    case OLTP_LEGACY:
        s->selects = o->point_selects + ranges;
        /* fall through */
    case OLTP_WRITE_ONLY:
        s->updates = o->index_updates + o->non_index_updates;
        s->deletes = s->inserts = o->delete_inserts;
        break;
    case OLTP_INSERT:
        s->inserts = 1;
        break;
    case OLTP_UPDATE_INDEX:
        s->updates = o->index_updates;
        break;
    case OLTP_UPDATE_NON_INDEX:
        s->updates = o->non_index_updates;
        break;
    case OLTP_DELETE:
        s->deletes = 1;
        break;
    case OLTP_SELECT_RANDOM_POINTS:
    case OLTP_SELECT_RANDOM_RANGES:
        s->selects = 1;
        break;
    case OLTP_N_WORKLOADS:
        break;
    }
}

/* ---- statements ---------------------------------------------------------------------- */

static void free_stmts(struct oltp_worker *w);

static struct myconn_stmt *stmt_at(struct oltp_worker *w, unsigned table, enum oltp_kind k)
{
    return &w->stmts[(size_t)(table - 1) * OLTP_N_KINDS + k];
}

/* Set a statement up and note it in prepare order. */
static int setup(struct oltp_worker *w, struct myconn_stmt *s, const char *sql,
                 const enum myconn_ptype *types, const unsigned long *caps, size_t n)
{
    int rc = myconn_stmt_setup(&w->conn, s, sql, types, caps, n);
    if (!rc)
        w->prep[w->n_prep++] = s;
    return rc;
}

static int prepare_kind(struct oltp_worker *w, enum oltp_kind k)
{
    static const enum myconn_ptype t_int[2] = {MYCONN_P_INT, MYCONN_P_INT};
    static const enum myconn_ptype t_nonidx[2] = {MYCONN_P_CHAR, MYCONN_P_INT};
    static const unsigned long cap_nonidx[2] = {120, 0};
    static const enum myconn_ptype t_ins[4] = {MYCONN_P_INT, MYCONN_P_INT, MYCONN_P_CHAR,
                                               MYCONN_P_CHAR};
    static const unsigned long cap_ins[4] = {0, 0, 120, 60};
    for (unsigned t = 1; t <= w->o->tables; t++) {
        char sql[160];
        const enum myconn_ptype *types = t_int;
        const unsigned long *caps = NULL;
        size_t n = 1;
        int rc;
        snprintf(sql, sizeof sql, kind_sql[k], t);
        switch (k) {
        case OLTP_K_SIMPLE:
        case OLTP_K_SUM:
        case OLTP_K_ORDER:
        case OLTP_K_DISTINCT:
            n = 2;
            break;
        case OLTP_K_NONIDX_UPD:
            types = t_nonidx;
            caps = cap_nonidx;
            n = 2;
            break;
        case OLTP_K_INSERT:
            types = t_ins;
            caps = cap_ins;
            n = 4;
            break;
        default:
            break;
        }
        rc = setup(w, stmt_at(w, t, k), sql, types, caps, n);
        if (rc)
            return rc;
    }
    return 0;
}

static int prepare_trx(struct oltp_worker *w)
{
    int rc;
    if (w->o->skip_trx)
        return 0;
    rc = setup(w, &w->begin, "BEGIN", NULL, NULL, 0);
    if (!rc)
        rc = setup(w, &w->commit, "COMMIT", NULL, NULL, 0);
    return rc;
}

static int prepare_ranges(struct oltp_worker *w)
{
    int rc = 0;
    if (!w->o->range_selects)
        return 0;
    for (int k = OLTP_K_SIMPLE; k <= OLTP_K_DISTINCT && !rc; k++)
        rc = prepare_kind(w, (enum oltp_kind)k);
    return rc;
}

static int prepare_writes(struct oltp_worker *w)
{
    int rc = prepare_kind(w, OLTP_K_IDX_UPD);
    if (!rc)
        rc = prepare_kind(w, OLTP_K_NONIDX_UPD);
    if (!rc)
        rc = prepare_kind(w, OLTP_K_DELETE);
    if (!rc)
        rc = prepare_kind(w, OLTP_K_INSERT);
    return rc;
}

/* The long-string SQL of select_random_points / select_random_ranges, whitespace kept. */
static int prepare_single(struct oltp_worker *w)
{
    int random_points = w->o->workload == OLTP_SELECT_RANDOM_POINTS;
    unsigned n = random_points ? w->o->random_points : 2 * w->o->number_of_ranges;
    size_t cap = 128 + (size_t)n * 24;
    char *sql = malloc(cap), *p;
    enum myconn_ptype *types = calloc(n, sizeof *types);
    int rc;
    if (!sql || !types) {
        free(sql);
        free(types);
        snprintf(w->conn.err.msg, sizeof w->conn.err.msg, "out of memory");
        w->conn.err.cls = MYCONN_FATAL;
        return MYCONN_FATAL;
    }
    if (random_points) {
        p = sql + sprintf(sql, "        SELECT id, k, c, pad\n          FROM sbtest1\n"
                               "          WHERE k IN (");
        for (unsigned i = 0; i < n; i++)
            p += sprintf(p, i + 1 < n ? "?, " : "?");
        sprintf(p, ")\n        ");
    } else {
        p = sql + sprintf(sql, "        SELECT count(k)\n          FROM sbtest1\n          WHERE ");
        for (unsigned i = 0; i < n / 2; i++)
            p += sprintf(p, i + 1 < n / 2 ? "k BETWEEN ? AND ? OR " : "k BETWEEN ? AND ?");
    }
    for (unsigned i = 0; i < n; i++)
        types[i] = MYCONN_P_INT;
    rc = setup(w, &w->single, sql, types, NULL, n);
    free(sql);
    free(types);
    return rc;
}

int oltp_worker_setup(struct oltp_worker *w)
{
    const struct oltp_opts *o = w->o;
    size_t n = (size_t)o->tables * OLTP_N_KINDS;
    free_stmts(w);
    w->stmts = calloc(n, sizeof *w->stmts);
    w->prep = calloc(n + 3, sizeof *w->prep);
    w->qbuf = malloc(QBUF_SIZE);
    if (!w->stmts || !w->prep || !w->qbuf) {
        free_stmts(w);
        return myconn_fail(&w->conn, "malloc", 2008, "HY000", "out of memory");
    }
    switch (o->workload) {
    case OLTP_POINT_SELECT:
        return prepare_kind(w, OLTP_K_POINT);
    case OLTP_READ_ONLY: {
        int rc = prepare_kind(w, OLTP_K_POINT);
        if (!rc)
            rc = prepare_trx(w);
        if (!rc)
            rc = prepare_ranges(w);
        return rc;
    }
    case OLTP_READ_WRITE: {
        int rc = prepare_trx(w);
        if (!rc)
            rc = prepare_kind(w, OLTP_K_POINT);
        if (!rc)
            rc = prepare_ranges(w);
        if (!rc)
            rc = prepare_writes(w);
        return rc;
    }
    case OLTP_WRITE_ONLY: {
        int rc = prepare_trx(w);
        if (!rc)
            rc = prepare_writes(w);
        return rc;
    }
    case OLTP_UPDATE_INDEX:
        return prepare_kind(w, OLTP_K_IDX_UPD);
    case OLTP_UPDATE_NON_INDEX:
        return prepare_kind(w, OLTP_K_NONIDX_UPD);
    case OLTP_DELETE:
        return prepare_kind(w, OLTP_K_DELETE);
    case OLTP_SELECT_RANDOM_POINTS:
    case OLTP_SELECT_RANDOM_RANGES:
        return prepare_single(w);
    case OLTP_INSERT:
    case OLTP_LEGACY: /* text queries only */
    case OLTP_N_WORKLOADS:
        break;
    }
    return 0;
}

/* Free the statements, the prepare list and the buffers (the connection stays). */
static void free_stmts(struct oltp_worker *w)
{
    if (w->stmts)
        for (size_t i = 0; i < (size_t)w->o->tables * OLTP_N_KINDS; i++)
            myconn_stmt_destroy(&w->stmts[i]);
    myconn_stmt_destroy(&w->begin);
    myconn_stmt_destroy(&w->commit);
    myconn_stmt_destroy(&w->single);
    free(w->stmts);
    free(w->prep);
    free(w->qbuf);
    w->stmts = NULL;
    w->prep = NULL;
    w->qbuf = NULL;
    w->n_prep = 0;
}

void oltp_worker_unprepare(struct oltp_worker *w)
{
    for (size_t i = 0; i < w->n_prep; i++)
        myconn_stmt_unprepare(w->prep[i]);
}

void oltp_worker_destroy(struct oltp_worker *w)
{
    free_stmts(w);
    myconn_close(&w->conn);
    free(w->plan.steps);
    free(w->plan.data);
    memset(&w->plan, 0, sizeof w->plan);
}

/* ---- events: the plan of one event -------------------------------------------------------- */

/* Returns of the emitters: go on, the step limit is reached (stop planning), out of memory. */
enum { PLAN_GO = 0, PLAN_FULL = 1, PLAN_NOMEM = -1 };

static int plan_room(struct oltp_plan *p, size_t bytes)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 32;
        struct oltp_step *n = realloc(p->steps, cap * sizeof *n);
        if (!n)
            return PLAN_NOMEM;
        p->steps = n;
        p->cap = cap;
    }
    if (p->used + bytes > p->cap_data) {
        size_t cap = p->cap_data ? p->cap_data : 1024;
        char *n;
        while (cap < p->used + bytes)
            cap *= 2;
        n = realloc(p->data, cap);
        if (!n)
            return PLAN_NOMEM;
        p->data = n;
        p->cap_data = cap;
    }
    return PLAN_GO;
}

/* The statement s with its current parameter values: INT as 4 bytes, CHAR as a 4-byte length
 * and its bytes. */
static int emit(struct oltp_worker *w, struct myconn_stmt *s)
{
    struct oltp_plan *p = &w->plan;
    size_t bytes = 0, off;
    if (p->limit && p->n >= p->limit)
        return PLAN_FULL;
    for (size_t i = 0; i < s->n_params; i++)
        bytes += 4 + (s->params[i].type == MYCONN_P_CHAR ? s->params[i].len : 0);
    if (plan_room(p, bytes))
        return PLAN_NOMEM;
    off = p->used;
    for (size_t i = 0; i < s->n_params; i++) {
        const struct myconn_param *pr = &s->params[i];
        if (pr->type == MYCONN_P_INT) {
            memcpy(p->data + p->used, &pr->ival, 4);
            p->used += 4;
        } else {
            uint32_t len = (uint32_t)pr->len;
            memcpy(p->data + p->used, &len, 4);
            memcpy(p->data + p->used + 4, pr->sval, len);
            p->used += 4 + len;
        }
    }
    p->steps[p->n].stmt = s;
    p->steps[p->n].off = off;
    p->steps[p->n].len = p->used - off;
    p->n++;
    return p->limit && p->n >= p->limit ? PLAN_FULL : PLAN_GO;
}

/* The text query of len bytes in w->qbuf. */
static int emit_text(struct oltp_worker *w, int len)
{
    struct oltp_plan *p = &w->plan;
    if (p->limit && p->n >= p->limit)
        return PLAN_FULL;
    if (len < 0 || plan_room(p, (size_t)len + 1))
        return PLAN_NOMEM;
    memcpy(p->data + p->used, w->qbuf, (size_t)len);
    p->data[p->used + (size_t)len] = '\0';
    p->steps[p->n].stmt = NULL;
    p->steps[p->n].off = p->used;
    p->steps[p->n].len = (size_t)len;
    p->used += (size_t)len + 1;
    p->n++;
    return p->limit && p->n >= p->limit ? PLAN_FULL : PLAN_GO;
}

static uint32_t get_id(struct oltp_worker *w)
{
    return sbrand_default(w->rng, w->rp, 1, w->o->table_size);
}

static uint32_t get_table(struct oltp_worker *w)
{
    return sbrand_uniform(w->rng, 1, w->o->tables);
}

static int run_kind(struct oltp_worker *w, enum oltp_kind k, unsigned times)
{
    uint32_t t;
    struct myconn_stmt *s;
    int rc;
    if (times == 0) /* the scripts still draw the table number */
        return (void)get_table(w), 0;
    t = get_table(w);
    s = stmt_at(w, t, k);
    for (unsigned i = 0; i < times; i++) {
        switch (k) {
        case OLTP_K_SIMPLE:
        case OLTP_K_SUM:
        case OLTP_K_ORDER:
        case OLTP_K_DISTINCT: {
            uint32_t id = get_id(w);
            myconn_stmt_set_int(s, 0, (int32_t)id);
            myconn_stmt_set_int(s, 1, (int32_t)(id + w->o->range_size - 1));
            break;
        }
        case OLTP_K_NONIDX_UPD:
            sbrand_str(w->rng, oltp_c_template, myconn_stmt_buf(s, 0));
            myconn_stmt_set_len(s, 0, OLTP_C_LEN);
            myconn_stmt_set_int(s, 1, (int32_t)get_id(w));
            break;
        case OLTP_K_DELETE: { /* delete_inserts: DELETE id then INSERT (id, k, c, pad) */
            struct myconn_stmt *ins = stmt_at(w, t, OLTP_K_INSERT);
            uint32_t id = get_id(w), k2 = get_id(w);
            myconn_stmt_set_int(s, 0, (int32_t)id);
            myconn_stmt_set_int(ins, 0, (int32_t)id);
            myconn_stmt_set_int(ins, 1, (int32_t)k2);
            sbrand_str(w->rng, oltp_c_template, myconn_stmt_buf(ins, 2));
            myconn_stmt_set_len(ins, 2, OLTP_C_LEN);
            sbrand_str(w->rng, oltp_pad_template, myconn_stmt_buf(ins, 3));
            myconn_stmt_set_len(ins, 3, OLTP_PAD_LEN);
            rc = emit(w, s);
            if (!rc)
                rc = emit(w, ins);
            if (rc)
                return rc;
            continue;
        }
        default: /* POINT, IDX_UPD */
            myconn_stmt_set_int(s, 0, (int32_t)get_id(w));
            break;
        }
        rc = emit(w, s);
        if (rc)
            return rc;
    }
    return 0;
}

static int event_rw(struct oltp_worker *w, int reads, int writes)
{
    const struct oltp_opts *o = w->o;
    int rc = 0;
    if (!o->skip_trx && (rc = emit(w, &w->begin)))
        return rc;
    if (reads) {
        if ((rc = run_kind(w, OLTP_K_POINT, o->point_selects)))
            return rc;
        if (o->range_selects) {
            if ((rc = run_kind(w, OLTP_K_SIMPLE, o->simple_ranges)) ||
                (rc = run_kind(w, OLTP_K_SUM, o->sum_ranges)) ||
                (rc = run_kind(w, OLTP_K_ORDER, o->order_ranges)) ||
                (rc = run_kind(w, OLTP_K_DISTINCT, o->distinct_ranges)))
                return rc;
        }
    }
    if (writes) {
        if ((rc = run_kind(w, OLTP_K_IDX_UPD, o->index_updates)) ||
            (rc = run_kind(w, OLTP_K_NONIDX_UPD, o->non_index_updates)) ||
            (rc = run_kind(w, OLTP_K_DELETE, o->delete_inserts)))
            return rc;
    }
    if (!o->skip_trx)
        rc = emit(w, &w->commit);
    return rc;
}

static int event_insert(struct oltp_worker *w)
{
    char cval[OLTP_C_LEN + 1], pad[OLTP_PAD_LEN + 1];
    uint32_t t = get_table(w);
    uint32_t k = get_id(w);
    long long id;
    sbrand_str(w->rng, oltp_c_template, cval);
    sbrand_str(w->rng, oltp_pad_template, pad);
    cval[OLTP_C_LEN] = pad[OLTP_PAD_LEN] = '\0';
    id = w->o->auto_inc ? 0 : (long long)sbrand_unique_next(w->uniq) - 2147483648LL;
    return emit_text(w,
                     snprintf(w->qbuf, QBUF_SIZE,
                              "INSERT INTO sbtest%u (id, k, c, pad) VALUES (%lld, %u, '%s', '%s')",
                              (unsigned)t, id, (unsigned)k, cval, pad));
}

/* rlen = table_size / threads and rmin = rlen * thread_id are Lua doubles; sb_rand() gets
 * them converted to uint32 (truncated). */
static uint32_t random_thread_value(struct oltp_worker *w)
{
    double rlen = (double)w->o->table_size / w->threads;
    double rmin = rlen * w->thread_id, rmax = rmin + rlen;
    return sbrand_default(w->rng, w->rp, (uint32_t)rmin, (uint32_t)rmax);
}

static int event_random(struct oltp_worker *w)
{
    if (w->o->workload == OLTP_SELECT_RANDOM_POINTS) {
        for (unsigned i = 0; i < w->o->random_points; i++)
            myconn_stmt_set_int(&w->single, i, (int32_t)random_thread_value(w));
    } else {
        for (unsigned i = 0; i < w->o->number_of_ranges; i++) {
            uint32_t v = random_thread_value(w);
            myconn_stmt_set_int(&w->single, 2 * i, (int32_t)v);
            myconn_stmt_set_int(&w->single, 2 * i + 1, (int32_t)(v + w->o->delta));
        }
    }
    return emit(w, &w->single);
}

/* tests/include/oltp_legacy/oltp.lua of sysbench 1.0: text queries, one table per event. */
static int event_legacy(struct oltp_worker *w)
{
    const struct oltp_opts *o = w->o;
    char *q = w->qbuf;
    char cval[OLTP_C_LEN + 1], pad[OLTP_PAD_LEN + 1];
    unsigned t = get_table(w);
    int rc;
#define LEGACY(...) (rc = emit_text(w, snprintf(q, QBUF_SIZE, __VA_ARGS__)))
    if (!o->skip_trx && LEGACY("BEGIN"))
        return rc;
    for (unsigned i = 0; i < o->point_selects; i++)
        if (LEGACY("SELECT c FROM sbtest%u WHERE id=%u", t, (unsigned)get_id(w)))
            return rc;
    if (o->range_selects) {
        static const char *const heads[4] = {"SELECT c FROM", "SELECT SUM(K) FROM", "SELECT c FROM",
                                             "SELECT DISTINCT c FROM"};
        const unsigned times[4] = {o->simple_ranges, o->sum_ranges, o->order_ranges,
                                   o->distinct_ranges};
        for (int kind = 0; kind < 4; kind++) {
            for (unsigned i = 0; i < times[kind]; i++) {
                uint32_t start = get_id(w);
                if (LEGACY("%s sbtest%u WHERE id BETWEEN %u AND %u%s", heads[kind], t,
                           (unsigned)start, (unsigned)(start + o->range_size - 1),
                           kind >= 2 ? " ORDER BY c" : ""))
                    return rc;
            }
        }
    }
    for (unsigned i = 0; i < o->index_updates; i++)
        if (LEGACY("UPDATE sbtest%u SET k=k+1 WHERE id=%u", t, (unsigned)get_id(w)))
            return rc;
    for (unsigned i = 0; i < o->non_index_updates; i++) {
        sbrand_str(w->rng, oltp_c_template, cval);
        cval[OLTP_C_LEN] = '\0';
        if (LEGACY("UPDATE sbtest%u SET c='%s' WHERE id=%u", t, cval, (unsigned)get_id(w)))
            return rc;
    }
    for (unsigned i = 0; i < o->delete_inserts; i++) {
        uint32_t id = get_id(w);
        if (LEGACY("DELETE FROM sbtest%u WHERE id=%u", t, (unsigned)id))
            return rc;
        sbrand_str(w->rng, oltp_c_template, cval);
        sbrand_str(w->rng, oltp_pad_template, pad);
        cval[OLTP_C_LEN] = pad[OLTP_PAD_LEN] = '\0';
        if (LEGACY("INSERT INTO sbtest%u (id, k, c, pad) VALUES (%u, %u, '%s', '%s')", t,
                   (unsigned)id, (unsigned)get_id(w), cval, pad))
            return rc;
    }
    if (!o->skip_trx && LEGACY("COMMIT"))
        return rc;
#undef LEGACY
    return 0;
}

static int plan_body(struct oltp_worker *w)
{
    const struct oltp_opts *o = w->o;
    switch (o->workload) {
    case OLTP_POINT_SELECT:
        return run_kind(w, OLTP_K_POINT, 1);
    case OLTP_READ_ONLY:
        return event_rw(w, 1, 0);
    case OLTP_READ_WRITE:
        return event_rw(w, 1, 1);
    case OLTP_WRITE_ONLY:
        return event_rw(w, 0, 1);
    case OLTP_INSERT:
        return event_insert(w);
    case OLTP_UPDATE_INDEX:
        return run_kind(w, OLTP_K_IDX_UPD, o->index_updates);
    case OLTP_UPDATE_NON_INDEX:
        return run_kind(w, OLTP_K_NONIDX_UPD, o->non_index_updates);
    case OLTP_DELETE: {
        uint32_t t = get_table(w);
        struct myconn_stmt *s = stmt_at(w, t, OLTP_K_DELETE);
        myconn_stmt_set_int(s, 0, (int32_t)get_id(w));
        return emit(w, s);
    }
    case OLTP_SELECT_RANDOM_POINTS:
    case OLTP_SELECT_RANDOM_RANGES:
        return event_random(w);
    case OLTP_LEGACY:
        return event_legacy(w);
    case OLTP_N_WORKLOADS:
        break;
    }
    return PLAN_GO;
}

static int plan(struct oltp_worker *w, size_t limit)
{
    struct oltp_plan *p = &w->plan;
    p->n = p->used = 0;
    p->limit = limit;
    return plan_body(w) == PLAN_NOMEM ? -1 : 0;
}

int oltp_plan_event(struct oltp_worker *w)
{
    w->plan.rng0 = *w->rng;
    return plan(w, 0);
}

int oltp_plan_cut(struct oltp_worker *w, size_t failed)
{
    if (failed + 1 >= w->plan.n)
        return 0; /* the last step: every draw was made before it anyway */
    *w->rng = w->plan.rng0;
    return plan(w, failed + 1);
}

void oltp_step_load(struct oltp_worker *w, size_t i)
{
    const struct oltp_step *st = &w->plan.steps[i];
    const char *d = w->plan.data + st->off;
    struct myconn_stmt *s = st->stmt;
    if (!s)
        return;
    for (size_t k = 0; k < s->n_params; k++) {
        struct myconn_param *pr = &s->params[k];
        if (pr->type == MYCONN_P_INT) {
            memcpy(&pr->ival, d, 4);
            d += 4;
        } else {
            uint32_t len;
            memcpy(&len, d, 4);
            memcpy(pr->sval, d + 4, len);
            pr->len = len;
            d += 4 + len;
        }
    }
}

const char *oltp_step_sql(const struct oltp_worker *w, size_t i)
{
    const struct oltp_step *st = &w->plan.steps[i];
    if (!st->stmt)
        return w->plan.data + st->off;
    return st->stmt->stmt || !st->stmt->text ? st->stmt->sql : st->stmt->text;
}
