/* pgbench_log.c - pgbench's -l per-transaction logs -> one point with a latency histogram
 * (pgbench.h). Every line is folded into counters and a histogram as it is read: flat memory
 * for a log of any length. */
#include "histogram.h"
#include "pgbench_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pglog {
    struct import_src *src;
    struct hist *h;
    uint64_t n_ok, n_failed, n_skipped;
    int64_t start_us, end_us; /* first start, last end (epoch microseconds) */
    unsigned char *clients;   /* bitmap of the client ids seen */
    size_t clients_bytes, n_clients;
    int n_files, done;
    int skip; /* a thread file read with its main file */
};

/* Split a line into at most cap whitespace-separated fields. The count. */
static int fields(const char *s, const char **f, size_t *fl, int cap)
{
    int n = 0;
    for (;;) {
        size_t k = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            return n;
        if (n == cap)
            return cap + 1;
        while (s[k] && s[k] != ' ' && s[k] != '\t')
            k++;
        f[n] = s;
        fl[n] = k;
        n++;
        s += k;
    }
}

static int as_int(const char *s, size_t n, long long *out)
{
    char buf[32];
    char *end;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)buf[i]))
            return -1;
    errno = 0;
    *out = strtoll(buf, &end, 10);
    return errno || *end ? -1 : 0;
}

static int is_word(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

static int failed_word(const char *s, size_t n)
{
    return is_word(s, n, "failed") || is_word(s, n, "serialization") || is_word(s, n, "deadlock") ||
           is_word(s, n, "other");
}

/* 1: a per-transaction line; 2: an aggregated line; 0: neither. */
static int line_kind(const char *s)
{
    const char *f[20];
    size_t fl[20];
    long long v[20];
    int n = fields(s, f, fl, 19);
    if (n < 6 || n > 19)
        return 0;
    for (int i = 0; i < n; i++)
        if (as_int(f[i], fl[i], &v[i]) &&
            !(i == 2 && (failed_word(f[i], fl[i]) || is_word(f[i], fl[i], "skipped"))))
            return 0;
    if (n <= 8 && v[4] >= 100000000 && v[5] < 1000000 && v[0] < 100000000)
        return 1;
    if (v[0] >= 100000000)
        return 2; /* interval_start num_transactions sum_latency sum_latency_2 min max ... */
    return 0;
}

int pglog_detect(const char *buf, size_t len, const char *path)
{
    char line[256];
    size_t i = 0;
    int seen = 0;
    (void)path;
    while (i < len && seen < 3) {
        size_t e = i;
        while (e < len && buf[e] != '\n')
            e++;
        if (e == len && len == LINES_PEEK_BYTES)
            break; /* a line cut by the look-ahead */
        if (e > i && !(e - i == 1 && buf[i] == '\r')) {
            if (e - i >= sizeof line)
                return 0;
            memcpy(line, buf + i, e - i);
            line[e - i] = '\0';
            if (!line_kind(line))
                return 0;
            seen++;
        }
        i = e + 1;
    }
    return seen > 0;
}

/* PATH ends with ".<digits>.<digits>": a thread file; its main file is PATH without the last
 * ".<digits>". 1 when the main file exists. */
static int main_file_exists(const char *path, char *main, size_t cap)
{
    const char *dot = strrchr(path, '.'), *prev;
    struct stat st;
    if (!dot || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1))
        return 0;
    for (prev = dot - 1; prev > path && *prev != '.' && *prev != '/'; prev--)
        ;
    if (prev <= path || *prev != '.' || prev + 1 == dot ||
        strspn(prev + 1, "0123456789") != (size_t)(dot - prev - 1))
        return 0;
    if ((size_t)(dot - path) >= cap)
        return 0;
    memcpy(main, path, (size_t)(dot - path));
    main[dot - path] = '\0';
    return stat(main, &st) == 0 && S_ISREG(st.st_mode);
}

struct pglog *pglog_new(struct import_src *src)
{
    struct pglog *g = calloc(1, sizeof *g);
    char main[4096];
    if (!g)
        return NULL;
    g->src = src;
    g->start_us = INT64_MAX;
    g->end_us = INT64_MIN;
    if (src->path && main_file_exists(src->path, main, sizeof main)) {
        g->skip = 1;
        return g;
    }
    if (!(g->h = hist_new())) {
        free(g);
        return NULL;
    }
    return g;
}

void pglog_free(struct pglog *g)
{
    if (!g)
        return;
    hist_free(g->h);
    free(g->clients);
    free(g);
}

static int see_client(struct pglog *g, long long id)
{
    size_t byte = (size_t)(id / 8);
    if (id < 0 || id >= (1LL << 24))
        return -1;
    if (byte >= g->clients_bytes) {
        size_t n = g->clients_bytes ? g->clients_bytes : 64;
        unsigned char *c;
        while (n <= byte)
            n *= 2;
        if (!(c = realloc(g->clients, n)))
            return -2;
        memset(c + g->clients_bytes, 0, n - g->clients_bytes);
        g->clients = c;
        g->clients_bytes = n;
    }
    if (!(g->clients[byte] & (1u << (id % 8)))) {
        g->clients[byte] |= (unsigned char)(1u << (id % 8));
        g->n_clients++;
    }
    return 0;
}

/* One line of the log named name (line number no). IMPORT_OK or a negative code (reported). */
static int take(struct pglog *g, struct import_src *src, const char *s)
{
    const char *f[20];
    size_t fl[20];
    long long id, cnt, lat = 0, script, sec, usec, x;
    int n = fields(s, f, fl, 19), failed = 0, skipped = 0;
    int64_t end;
    if (n == 0)
        return IMPORT_OK;
    if (n >= 6 && line_kind(s) == 2) {
        import_diag(src, IMPORT_ERROR, src->lines->no,
                    "an aggregated pgbench log (--aggregate-interval): it does not say how many "
                    "clients ran; import the run's printed output, or a per-transaction log "
                    "(-l without --aggregate-interval)");
        return IMPORT_EPARSE;
    }
    if (n < 6 || n > 8 || as_int(f[0], fl[0], &id) || as_int(f[1], fl[1], &cnt) ||
        as_int(f[3], fl[3], &script) || as_int(f[4], fl[4], &sec) || as_int(f[5], fl[5], &usec) ||
        usec >= 1000000 || (n > 6 && as_int(f[6], fl[6], &x)) || (n > 7 && as_int(f[7], fl[7], &x)))
        return import_bad_line(src, src->lines->no,
                               "a pgbench -l line \"client_id transaction_no time script_no "
                               "time_epoch time_us [schedule_lag] [retries]\"",
                               s);
    if (as_int(f[2], fl[2], &lat)) {
        failed = failed_word(f[2], fl[2]);
        skipped = is_word(f[2], fl[2], "skipped");
        if (!failed && !skipped)
            return import_bad_line(src, src->lines->no,
                                   "a latency in microseconds, failed, skipped, serialization, "
                                   "deadlock or other as the third field",
                                   s);
    }
    if (sec > 100000000000LL || lat > 1000000000000LL)
        return import_bad_line(src, src->lines->no,
                               "a time_epoch in seconds and a latency under 10^12 microseconds", s);
    switch (see_client(g, id)) {
    case -2:
        import_diag(src, IMPORT_ERROR, 0, "out of memory");
        return IMPORT_ENOMEM;
    case -1:
        return import_bad_line(src, src->lines->no, "a client id below 16777216", s);
    default:
        break;
    }
    end = (int64_t)sec * 1000000 + usec;
    if (failed) {
        g->n_failed++;
    } else if (skipped) {
        g->n_skipped++;
    } else {
        g->n_ok++;
        hist_record(g->h, (uint64_t)lat * 1000);
        if (end - lat < g->start_us)
            g->start_us = end - lat;
    }
    if (end > g->end_us)
        g->end_us = end;
    return IMPORT_OK;
}

/* Read every line of one source. */
static int read_all(struct pglog *g, struct import_src *src)
{
    int rc;
    g->n_files++;
    while ((rc = import_read_line(src)) == 1) {
        if (src->lines->line_len > 200) {
            import_bad_line(src, src->lines->no, "a pgbench -l line (under 200 bytes)",
                            src->lines->line);
            return IMPORT_EPARSE;
        }
        if ((rc = take(g, src, src->lines->line)) != IMPORT_OK)
            return rc;
    }
    return rc;
}

/* The thread files PATH.1, PATH.2, ... that pgbench -j writes beside PATH. */
static int read_siblings(struct pglog *g)
{
    for (int k = 1; k < 100000; k++) {
        char path[4200];
        struct lines l;
        struct import_src s = *g->src;
        char err[400];
        struct stat st;
        int rc;
        snprintf(path, sizeof path, "%s.%d", g->src->path, k);
        if (stat(path, &st) != 0)
            return IMPORT_OK;
        if (lines_open(&l, path, path, err, sizeof err) != LINES_OK) {
            import_diag(g->src, IMPORT_ERROR, -1, "%s", err);
            return IMPORT_EIO;
        }
        s.lines = &l;
        s.name = path;
        rc = read_all(g, &s);
        lines_close(&l);
        if (rc < 0)
            return rc;
    }
    return IMPORT_OK;
}

static int fill(struct pglog *g, struct point *p)
{
    struct hist *h = g->h;
    static const double pcts[] = {50, 95, 99};
    uint64_t v;
    p->source_kind = POINT_SRC_TOOL;
    p->source_line = 1;
    p->threads = (int64_t)g->n_clients;
    p->transactions = (int64_t)g->n_ok;
    p->errors = (int64_t)g->n_failed;
    p->duration_s = (double)(g->end_us - g->start_us) / 1e6;
    if (p->duration_s > 0)
        p->tps = (double)g->n_ok / p->duration_s;
    p->latency_ms.min = (double)h->min_ns / 1e6;
    p->latency_ms.max = (double)h->max_ns / 1e6;
    p->latency_ms.avg = hist_mean_ns(h) / 1e6;
    p->latency_ms.sum = (double)h->sum_ns / 1e6;
    for (size_t i = 0; i < 3; i++)
        if (hist_percentile(h, pcts[i], &v) >= 0)
            point_set_percentile(p, pcts[i], (double)v / 1e6);
    p->latency_overflows = (int64_t)h->overflow;
    if (h->underflow && point_hist_append(p, (double)h->min_ns / 1e6, h->underflow))
        return -1;
    for (int i = 0; i < HIST_N_BUCKETS; i++)
        if (h->buckets[i] &&
            point_hist_append(p, (double)hist_bucket_value_ns(i) / 1e6, h->buckets[i]))
            return -1;
    if (import_set_extra(p, "log_files", json_integer(g->n_files)) ||
        (g->n_skipped && import_set_extra(p, "skipped", json_integer((json_int_t)g->n_skipped))) ||
        point_set_str(&p->tool, "pgbench (-l per-transaction log)") ||
        point_add_flag(p, "from_transaction_log"))
        return -1;
    if (!g->src->opt->workload && !import_workload_from_name(g->src->name) &&
        point_set_str(&p->workload, "pgbench"))
        return -1;
    return 0;
}

int pglog_next(struct pglog *g, struct point *out)
{
    int rc;
    if (g->done)
        return 0;
    g->done = 1;
    if (g->skip) {
        char main[4096];
        main_file_exists(g->src->path, main, sizeof main);
        g->src->empty_ok = 1;
        import_diag(g->src, IMPORT_NOTE, 0,
                    "note: a thread file of pgbench -l; it is read with its main file %s", main);
        return 0;
    }
    if ((rc = read_all(g, g->src)) < 0)
        return rc;
    if (g->src->path && (rc = read_siblings(g)) < 0)
        return rc;
    if (g->n_ok == 0) {
        import_diag(g->src, IMPORT_ERROR, 0,
                    "the pgbench log has no successful transaction: expected lines with a "
                    "latency in microseconds");
        return IMPORT_EPARSE;
    }
    if (fill(g, out)) {
        import_diag(g->src, IMPORT_ERROR, 0, "out of memory");
        return IMPORT_ENOMEM;
    }
    return 1;
}
