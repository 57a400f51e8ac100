/* srvstat.c - the server's counters around a level (see srvstat.h). */
#include "srvstat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const counter_names[SRV_N_COUNTERS] = {
    "Innodb_data_reads",       "Innodb_data_writes",    "Innodb_data_fsyncs",
    "Innodb_os_log_fsyncs",    "Innodb_log_writes",     "Innodb_data_read",
    "Innodb_data_written",     "Innodb_os_log_written", "Innodb_buffer_pool_read_requests",
    "Innodb_buffer_pool_reads"};

const char *srvstat_counter_name(enum srvstat_counter c)
{
    return c < SRV_N_COUNTERS ? counter_names[c] : "?";
}

void srvstat_init(struct srvstat_snap *s)
{
    memset(s, 0, sizeof *s);
    s->cpu_s = s->buffer_pool_bytes = s->data_bytes = NAN;
}

void srvstat_destroy(struct srvstat_snap *s)
{
    if (!s)
        return;
    free(s->named);
    srvstat_init(s);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int srvstat_parse_u64(const char *v, uint64_t *out)
{
    char *end;
    unsigned long long x;
    if (!v || !*v || *v == '-')
        return -1;
    errno = 0;
    x = strtoull(v, &end, 10);
    if (errno || *end)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

static int named_kind(const char *name)
{
    return strncmp(name, "Com_", 4) == 0 || strncmp(name, "Handler_", 8) == 0 ||
           strncmp(name, "Innodb_rows_", 12) == 0;
}

struct status_ctx {
    struct srvstat_snap *s;
    size_t cap;
    int nomem;
};

/* SHOW GLOBAL STATUS: Variable_name, Value */
static int on_status(void *ctx, unsigned n, const char *const *row)
{
    struct status_ctx *c = ctx;
    struct srvstat_snap *s = c->s;
    uint64_t v;
    if (n < 2 || !row[0] || srvstat_parse_u64(row[1], &v) != 0)
        return 0;
    for (int i = 0; i < SRV_N_COUNTERS; i++)
        if (strcmp(row[0], counter_names[i]) == 0) {
            s->v[i] = v;
            s->have[i] = 1;
            return 0;
        }
    if (!named_kind(row[0]) || strlen(row[0]) >= sizeof s->named[0].name)
        return 0;
    if (s->n_named == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        struct srvstat_named *g = realloc(s->named, cap * sizeof *g);
        if (!g) {
            c->nomem = 1;
            return 1;
        }
        s->named = g;
        c->cap = cap;
    }
    snprintf(s->named[s->n_named].name, sizeof s->named[0].name, "%s", row[0]);
    s->named[s->n_named++].value = v;
    return 0;
}

struct vars {
    double bp;
    char pid_file[4096], hostname[256];
};

/* SHOW GLOBAL VARIABLES: Variable_name, Value */
static int on_var(void *ctx, unsigned n, const char *const *row)
{
    struct vars *v = ctx;
    if (n < 2 || !row[0] || !row[1])
        return 0;
    if (strcmp(row[0], "innodb_buffer_pool_size") == 0) {
        uint64_t x;
        if (srvstat_parse_u64(row[1], &x) == 0)
            v->bp = (double)x;
    } else if (strcmp(row[0], "pid_file") == 0)
        snprintf(v->pid_file, sizeof v->pid_file, "%s", row[1]);
    else if (strcmp(row[0], "hostname") == 0)
        snprintf(v->hostname, sizeof v->hostname, "%s", row[1]);
    return 0;
}

/* SHOW TABLE STATUS: Name, Engine, Version, Row_format, Rows, Avg_row_length, Data_length,
 * Max_data_length, Index_length, ... */
static int on_table(void *ctx, unsigned n, const char *const *row)
{
    double *sum = ctx;
    uint64_t d, i;
    if (n < 9 || srvstat_parse_u64(row[6], &d) != 0 || srvstat_parse_u64(row[8], &i) != 0)
        return 0;
    *sum = (isnan(*sum) ? 0 : *sum) + (double)d + (double)i;
    return 0;
}

/* The first line of a file into buf (cap bytes). 0, or -1 when it cannot be read. */
static int first_line(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    int ok = f && fgets(buf, (int)cap, f) != NULL;
    if (f)
        fclose(f);
    return ok ? 0 : -1;
}

/* The server process's CPU seconds when it runs here, else NAN with why. */
static double server_cpu_s(const struct vars *v, char *why, size_t cap)
{
    char host[256] = "", path[64], comm[64] = "", buf[1024], pidline[32] = "";
    long pid = 0;
    unsigned long long ut, st;
    const char *p;
    if (gethostname(host, sizeof host) != 0 || !v->hostname[0] || strcmp(host, v->hostname) != 0) {
        snprintf(why, cap, "the server runs on another host (%.100s)",
                 v->hostname[0] ? v->hostname : "its hostname is not readable");
        return NAN;
    }
    if (!v->pid_file[0] || first_line(v->pid_file, pidline, sizeof pidline) != 0 ||
        sscanf(pidline, "%ld", &pid) != 1 || pid <= 0) {
        snprintf(why, cap, "its pid file (%.100s) is not readable here",
                 v->pid_file[0] ? v->pid_file : "none");
        return NAN;
    }
    snprintf(path, sizeof path, "/proc/%ld/comm", pid);
    if (first_line(path, comm, sizeof comm) != 0 ||
        (strncmp(comm, "mariadbd", 8) != 0 && strncmp(comm, "mysqld", 6) != 0)) {
        snprintf(why, cap, "process %ld is not a mariadbd or mysqld on this host", pid);
        return NAN;
    }
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if (first_line(path, buf, sizeof buf) != 0) {
        snprintf(why, cap, "%s is not readable", path);
        return NAN;
    }
    /* proc(5): after "pid (comm) ", field 3 is state; utime and stime are fields 14 and 15 */
    p = strrchr(buf, ')');
    if (!p ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) {
        snprintf(why, cap, "%s has no utime and stime", path);
        return NAN;
    }
    why[0] = '\0';
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int read_vars(struct myconn *c, struct vars *v)
{
    return myconn_query_rows(c,
                             "SHOW GLOBAL VARIABLES WHERE Variable_name IN "
                             "('innodb_buffer_pool_size', 'pid_file', 'hostname')",
                             on_var, v);
}

int srvstat_read(const struct myconn_opts *o, int with_sizes, struct srvstat_snap *s, char *err,
                 size_t cap)
{
    struct myconn c;
    struct myconn_opts oo;
    struct status_ctx sc;
    struct vars v;
    int rc;
    srvstat_destroy(s);
    memset(&c, 0, sizeof c);
    memset(&v, 0, sizeof v);
    v.bp = NAN;
    err[0] = '\0';
    sc.s = s;
    sc.cap = 0;
    sc.nomem = 0;
    /* the status is read last in a level's first snapshot and first in its second, so that the
     * window between them holds no statement of ours but one SHOW GLOBAL STATUS */
    /* a frozen server must not hold the probe: SRVSTAT_TIMEOUT_S for the connection and each
     * statement, whatever the caller's (a level has PROBE_STALL_S; these statements take ms) */
    oo = *o;
    if (!oo.connect_timeout_s || oo.connect_timeout_s > SRVSTAT_TIMEOUT_S)
        oo.connect_timeout_s = SRVSTAT_TIMEOUT_S;
    if (!oo.timeout_s || oo.timeout_s > SRVSTAT_TIMEOUT_S)
        oo.timeout_s = SRVSTAT_TIMEOUT_S;
    rc = myconn_connect(&c, &oo);
    /* best-effort: a refusal leaves the sizes unknown (NAN, v.bp NAN), not the counters */
    if (rc == 0 && with_sizes &&
        myconn_query_rows(&c, "SHOW TABLE STATUS LIKE 'sbtest%'", on_table, &s->data_bytes))
        s->data_bytes = NAN;
    if (rc == 0 && with_sizes)
        read_vars(&c, &v);
    if (rc == 0) {
        s->t_mono_s = now_s();
        rc = myconn_query_rows(&c, "SHOW GLOBAL STATUS", on_status, &sc);
    }
    if (rc == 0 && !with_sizes)
        read_vars(&c, &v);
    if (rc != 0 || sc.nomem) {
        snprintf(err, cap, "%s", sc.nomem ? "out of memory" : c.err.msg);
        myconn_close(&c);
        srvstat_destroy(s);
        return -1;
    }
    myconn_close(&c);
    if (with_sizes)
        s->buffer_pool_bytes = v.bp;
    s->cpu_s = server_cpu_s(&v, s->cpu_why, sizeof s->cpu_why);
    s->ok = 1;
    return 0;
}

const char *srvstat_missing(const struct srvstat_snap *s, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < SRV_N_COUNTERS && len < cap; i++)
        if (!s->have[i])
            len +=
                (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", counter_names[i]);
    return buf;
}

/* The delta of a fixed counter per transaction, NAN when a snapshot lacks it. */
static double per_tx(const struct srvstat_snap *a, const struct srvstat_snap *b,
                     enum srvstat_counter i, double tx)
{
    if (!a->have[i] || !b->have[i])
        return NAN;
    return (double)(b->v[i] - a->v[i]) / tx;
}

static const struct srvstat_named *find_named(const struct srvstat_snap *s, const char *name)
{
    for (size_t i = 0; i < s->n_named; i++)
        if (strcmp(s->named[i].name, name) == 0)
            return &s->named[i];
    return NULL;
}

/* 1 when some counter went backwards between a and b (the server restarted). */
static int went_back(const struct srvstat_snap *a, const struct srvstat_snap *b)
{
    for (int i = 0; i < SRV_N_COUNTERS; i++)
        if (a->have[i] && b->have[i] && b->v[i] < a->v[i])
            return 1;
    for (size_t i = 0; i < a->n_named; i++) {
        const struct srvstat_named *y = find_named(b, a->named[i].name);
        if (y && y->value < a->named[i].value)
            return 1;
    }
    return 0;
}

int srvstat_demand(const struct srvstat_snap *a, const struct srvstat_snap *b,
                   uint64_t transactions, double tps, struct point *p)
{
    double tx = (double)transactions, *v = p->server.v, rd, wr, bytes;
    json_t *m;
    if (!a->ok || !b->ok || transactions == 0 || went_back(a, b))
        return 0;
    if (!(m = json_object()))
        return POINT_ENOMEM;
    for (size_t i = 0; i < a->n_named; i++) {
        const struct srvstat_named *y = find_named(b, a->named[i].name);
        /* our own SHOW GLOBAL STATUS counts in Com_show_status: not the workload's */
        if (!y || y->value == a->named[i].value || strcmp(y->name, "Com_show_status") == 0)
            continue;
        if (json_object_set_new(m, y->name,
                                json_real((double)(y->value - a->named[i].value) / tx))) {
            json_decref(m);
            return POINT_ENOMEM;
        }
    }
    json_decref(p->server.per_tx);
    p->server.per_tx = m;
    v[PSRV_WINDOW_S] = b->t_mono_s - a->t_mono_s;
    v[PSRV_TRANSACTIONS] = tx;
    v[PSRV_READS_PER_TX] = rd = per_tx(a, b, SRV_DATA_READS, tx);
    v[PSRV_WRITES_PER_TX] = wr = per_tx(a, b, SRV_DATA_WRITES, tx);
    v[PSRV_LOG_WRITES_PER_TX] = per_tx(a, b, SRV_LOG_WRITES, tx);
    /* the redo log's writes are apart from Innodb_data_writes only where the log was rewritten
     * (MariaDB 10.8+, which has no Innodb_os_log_fsyncs): srvstat.h */
    v[PSRV_IOS_PER_TX] =
        rd + wr +
        (!b->have[SRV_LOG_FSYNCS] && !isnan(v[PSRV_LOG_WRITES_PER_TX]) ? v[PSRV_LOG_WRITES_PER_TX]
                                                                       : 0);
    v[PSRV_DATA_FSYNCS_PER_TX] = per_tx(a, b, SRV_DATA_FSYNCS, tx);
    v[PSRV_LOG_FSYNCS_PER_TX] = per_tx(a, b, SRV_LOG_FSYNCS, tx);
    v[PSRV_READ_KIB_PER_TX] = per_tx(a, b, SRV_DATA_READ, tx) / 1024;
    v[PSRV_WRITTEN_KIB_PER_TX] = per_tx(a, b, SRV_DATA_WRITTEN, tx) / 1024;
    v[PSRV_LOG_KIB_PER_TX] = per_tx(a, b, SRV_LOG_WRITTEN, tx) / 1024;
    v[PSRV_BP_REQUESTS_PER_TX] = per_tx(a, b, SRV_BP_READ_REQUESTS, tx);
    v[PSRV_BP_READS_PER_TX] = per_tx(a, b, SRV_BP_READS, tx);
    v[PSRV_BP_MISS_RATIO] =
        v[PSRV_BP_REQUESTS_PER_TX] > 0 ? v[PSRV_BP_READS_PER_TX] / v[PSRV_BP_REQUESTS_PER_TX] : NAN;
    if (v[PSRV_BP_MISS_RATIO] > 1) /* never above 1, as the record's reader requires */
        v[PSRV_BP_MISS_RATIO] = 1;
    v[PSRV_CPU_S_PER_TX] = (b->cpu_s - a->cpu_s) / tx;
    if (v[PSRV_CPU_S_PER_TX] < 0)
        v[PSRV_CPU_S_PER_TX] = NAN;
    v[PSRV_IOPS] = tps > 0 ? v[PSRV_IOS_PER_TX] * tps : NAN;
    bytes = 1024 * (v[PSRV_READ_KIB_PER_TX] + v[PSRV_WRITTEN_KIB_PER_TX] +
                    (isnan(v[PSRV_LOG_KIB_PER_TX]) ? 0 : v[PSRV_LOG_KIB_PER_TX]));
    v[PSRV_IO_MB_S] = tps > 0 ? bytes * tps / 1e6 : NAN;
    v[PSRV_BUFFER_POOL_MIB] = a->buffer_pool_bytes / 1048576.0;
    v[PSRV_DATA_MIB] = a->data_bytes / 1048576.0;
    return point_set_str(&p->server.from, "SHOW GLOBAL STATUS") ? POINT_ENOMEM : 1;
}
