/* gotpc.c - go-tpc tpcc output -> one point per run (tools.h). The lines are those of
 * pingcap/go-tpc (commit 682637f, 2025-11): tpcc/workload.go outputRtMeasurement prints
 * "%s%-6s - %s" with prefix "[Current] " or "[Summary] ", the operation in upper case and
 * pkg/measurement/hist.go Summary's "Takes(s): %.1f, Count: %d, TPM: %.1f, Sum(ms): %.1f,
 * Avg(ms): %.1f, 50th(ms): %.1f, 90th(ms): %.1f, 95th(ms): %.1f, 99th(ms): %.1f, 99.9th(ms): %.1f,
 * Max(ms): %.1f"; OutputStats prints "tpmC: %s, tpmTotal: %s, efficiency: %s" (before August
 * 2022: "tpmC: %.1f, efficiency: %.1f%%"). */
#include "sblex.h"
#include "tools.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FIELDS 11

struct gop {
    char name[32];
    double f[N_FIELDS]; /* Takes(s) Count TPM Sum Avg 50th 90th 95th 99th 99.9th Max */
};

struct gotpc {
    struct import_src *src;
    struct point p;
    int in_run, has_summary, has_tpmc;
    long first_line;
    json_t *ops;    /* the summary's operations */
    double tpm_sum; /* of the summary's non-_ERR operations */
    int64_t count, errors;
    /* the [Current] block being read */
    double cur_tpm, cur_t, t_total;
    int cur_n;
    char cur_names[512];
    int64_t cmd_threads, next_threads;
    struct point_list queue;
    size_t q_head, n_yielded;
    int eof;
};

static const char *const labels[N_FIELDS] = {
    "Takes(s):", "Count:",    "TPM:",      "Sum(ms):",    "Avg(ms):", "50th(ms):",
    "90th(ms):", "95th(ms):", "99th(ms):", "99.9th(ms):", "Max(ms):"};

int gotpc_detect(const char *buf, size_t len, const char *path)
{
    (void)path;
    for (size_t i = 0; i + 20 < len; i++)
        if ((memcmp(buf + i, "[Summary] ", 10) == 0 || memcmp(buf + i, "[Current] ", 10) == 0)) {
            const char *e = memchr(buf + i, '\n', len - i);
            size_t n = e ? (size_t)(e - (buf + i)) : len - i;
            for (size_t k = 0; k + 12 <= n; k++)
                if (memcmp(buf + i + k, " - Takes(s):", 12) == 0)
                    return 1;
        }
    return 0;
}

void *gotpc_open(struct import_src *src)
{
    struct gotpc *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->src = src;
    point_init(&g->p);
    point_list_init(&g->queue);
    return g;
}

void gotpc_close(void *state)
{
    struct gotpc *g = state;
    if (!g)
        return;
    point_destroy(&g->p);
    json_decref(g->ops);
    point_list_destroy(&g->queue);
    free(g);
}

/* "OP - Takes(s): .., Count: .., ..." after the prefix. 0, or -1. */
static int parse_op(const char *v, struct gop *op)
{
    size_t n = 0;
    v = sblex_skip_ws(v);
    while (*v && *v != ' ' && n + 1 < sizeof op->name)
        op->name[n++] = *v++;
    op->name[n] = '\0';
    if (n == 0 || sblex_lit(&v, "-"))
        return -1;
    for (int i = 0; i < N_FIELDS; i++) {
        if ((i > 0 && sblex_lit(&v, ",")) || sblex_lit(&v, labels[i]) || sblex_num(&v, &op->f[i]))
            return -1;
    }
    return sblex_at_end(v) ? 0 : -1;
}

static int is_err(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, "_ERR") == 0;
}

static void run_start(struct gotpc *g)
{
    point_init(&g->p);
    g->p.source_kind = POINT_SRC_TOOL;
    g->p.source_line = g->src->lines->no;
    g->first_line = g->src->lines->no;
    g->in_run = 1;
    g->has_summary = g->has_tpmc = 0;
    g->tpm_sum = 0;
    g->count = g->errors = 0;
    g->cur_n = 0;
    g->cur_tpm = g->cur_t = g->t_total = 0;
    g->cur_names[0] = '\0';
    g->cmd_threads = g->next_threads;
    g->next_threads = 0;
    json_decref(g->ops);
    g->ops = NULL;
}

/* The [Current] block read so far becomes one interval of the series. */
static int close_block(struct gotpc *g)
{
    struct point_interval iv = point_interval_none();
    if (g->cur_n == 0)
        return IMPORT_OK;
    g->t_total += g->cur_t;
    iv.t_s = g->t_total;
    iv.tps = g->cur_tpm / 60;
    g->cur_n = 0;
    g->cur_tpm = g->cur_t = 0;
    g->cur_names[0] = '\0';
    return point_series_append(&g->p, &iv) ? IMPORT_ENOMEM : IMPORT_OK;
}

static int finish(struct gotpc *g)
{
    struct point *p = &g->p, *dst;
    int rc;
    if (!g->in_run)
        return IMPORT_OK;
    g->in_run = 0;
    if ((rc = close_block(g)) != IMPORT_OK)
        goto fail;
    if (!g->has_summary) {
        if (p->n_series > 0)
            import_diag(g->src, IMPORT_WARNING, g->first_line,
                        "warning: the go-tpc run ends without its [Summary] (stopped?); it is "
                        "left out");
        point_destroy(p);
        return IMPORT_OK;
    }
    if (p->threads <= 0)
        p->threads = g->cmd_threads > 0 ? g->cmd_threads : g->src->opt->threads;
    if (p->threads <= 0) {
        import_diag(g->src, IMPORT_ERROR, g->first_line,
                    "go-tpc prints no thread count: give --threads N (the run's -T), or keep the "
                    "go-tpc command line above its output");
        point_destroy(p);
        return IMPORT_EPARSE;
    }
    if (!g->has_tpmc) {
        p->tps = g->tpm_sum / 60;
        if (point_add_flag(p, "tps_from_tpm_sum"))
            goto nomem;
    }
    p->transactions = g->count;
    p->errors = g->errors;
    if (import_set_extra(p, "transactions", g->ops))
        goto nomem_ops;
    g->ops = NULL;
    if (point_set_str(&p->workload, "tpcc") || point_set_str(&p->tool, "go-tpc") ||
        !(dst = point_list_push(&g->queue)))
        goto nomem;
    *dst = *p;
    point_init(p);
    return IMPORT_OK;
nomem_ops:
    g->ops = NULL;
nomem:
    rc = IMPORT_ENOMEM;
fail:
    point_destroy(p);
    return rc;
}

static int summary_op(struct gotpc *g, const struct gop *op)
{
    struct point *p = &g->p;
    json_t *o = json_pack("{s:f,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "takes_s", op->f[0], "count",
                          (json_int_t)op->f[1], "tpm", op->f[2], "avg_ms", op->f[4], "p50_ms",
                          op->f[5], "p90_ms", op->f[6], "p95_ms", op->f[7], "p99_ms", op->f[8],
                          "p99.9_ms", op->f[9], "max_ms", op->f[10]);
    if (!o || (!g->ops && !(g->ops = json_object())) || json_object_set_new(g->ops, op->name, o))
        return IMPORT_ENOMEM;
    g->has_summary = 1;
    if (is_err(op->name)) {
        g->errors += (int64_t)op->f[1];
        return IMPORT_OK;
    }
    g->count += (int64_t)op->f[1];
    g->tpm_sum += op->f[2];
    if (strcmp(op->name, "NEW_ORDER") == 0) {
        p->duration_s = op->f[0];
        p->latency_ms.avg = op->f[4];
        p->latency_ms.max = op->f[10];
        point_set_percentile(p, 50, op->f[5]);
        point_set_percentile(p, 90, op->f[6]);
        point_set_percentile(p, 95, op->f[7]);
        point_set_percentile(p, 99, op->f[8]);
        point_set_percentile(p, 99.9, op->f[9]);
    }
    return IMPORT_OK;
}

static int current_op(struct gotpc *g, const struct gop *op)
{
    char key[40];
    int rc;
    snprintf(key, sizeof key, "|%s|", op->name);
    if (strstr(g->cur_names, key) && (rc = close_block(g)) != IMPORT_OK)
        return rc; /* the operation again: the next interval */
    if (strlen(g->cur_names) + strlen(key) < sizeof g->cur_names)
        strcat(g->cur_names, key);
    g->cur_n++;
    if (op->f[0] > g->cur_t)
        g->cur_t = op->f[0];
    if (!is_err(op->name))
        g->cur_tpm += op->f[2];
    return IMPORT_OK;
}

/* "go-tpc tpcc ... -T 16" / "--threads 16" / "--threads=16" echoed before a run. */
static int command_line(struct gotpc *g, const char *t)
{
    const char *s = strstr(t, "go-tpc ");
    if (!s || (s != t && !strchr(" \t$+>#`/", s[-1])))
        return 0;
    g->next_threads = 0;
    for (s += 7; *s;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, "-T", 2) == 0 || strncmp(s, "--threads", 9) == 0) {
            long long n;
            char *end;
            s += s[1] == 'T' ? 2 : 9;
            while (*s == ' ' || *s == '=')
                s++;
            n = strtoll(s, &end, 10);
            if (end != s && n > 0 && n <= 1000000)
                g->next_threads = n;
        }
        while (*s && *s != ' ' && *s != '\t')
            s++;
    }
    return 1;
}

static int parse_line(struct gotpc *g, const char *line)
{
    const char *t = sblex_skip_ws(line), *v;
    struct gop op;
    double c, x, eff;
    int rc;
    if ((v = sblex_after(t, "[Current] "))) {
        if (parse_op(v, &op))
            return import_bad_line(g->src, g->src->lines->no,
                                   "\"[Current] OP - Takes(s): T, Count: N, TPM: X, ...\"", line);
        if (g->in_run && g->has_summary && (rc = finish(g)) != IMPORT_OK)
            return rc;
        if (!g->in_run)
            run_start(g);
        return current_op(g, &op);
    }
    if ((v = sblex_after(t, "[Summary] "))) {
        if (parse_op(v, &op))
            return import_bad_line(g->src, g->src->lines->no,
                                   "\"[Summary] OP - Takes(s): T, Count: N, TPM: X, ...\"", line);
        if (g->in_run && g->has_tpmc && (rc = finish(g)) != IMPORT_OK)
            return rc;
        if (!g->in_run)
            run_start(g);
        if ((rc = close_block(g)) != IMPORT_OK)
            return rc;
        return summary_op(g, &op);
    }
    if ((v = sblex_after(t, "tpmC:"))) {
        if (!g->in_run || !g->has_summary)
            return IMPORT_OK;
        if (sblex_num(&v, &c))
            return import_bad_line(g->src, g->src->lines->no,
                                   "\"tpmC: X, tpmTotal: Y, efficiency: Z%\"", line);
        if (import_set_extra(&g->p, "tpmc", json_real(c)))
            return IMPORT_ENOMEM;
        if (sblex_lit(&v, ",") == 0 && sblex_lit(&v, "tpmTotal:") == 0) {
            if (sblex_num(&v, &x))
                return import_bad_line(g->src, g->src->lines->no, "\"tpmTotal: Y\"", line);
            g->p.tps = x / 60;
            g->has_tpmc = 1;
            if (import_set_extra(&g->p, "tpm_total", json_real(x)) ||
                point_add_flag(&g->p, "tps_from_tpm_total"))
                return IMPORT_ENOMEM;
            (void)sblex_lit(&v, ",");
        }
        if (sblex_lit(&v, "efficiency:") == 0 && sblex_num(&v, &eff) == 0 &&
            import_set_extra(&g->p, "efficiency_pct", json_real(eff)))
            return IMPORT_ENOMEM;
        return finish(g);
    }
    if (command_line(g, t) && g->in_run && g->has_summary)
        return finish(g);
    return IMPORT_OK;
}

int gotpc_next(void *state, struct point *out)
{
    struct gotpc *g = state;
    int rc;
    for (;;) {
        if (g->q_head < g->queue.n) {
            *out = g->queue.items[g->q_head];
            point_init(&g->queue.items[g->q_head]);
            if (++g->q_head == g->queue.n) {
                point_list_truncate(&g->queue, 0);
                g->q_head = 0;
            }
            g->n_yielded++;
            return 1;
        }
        if (g->eof) {
            if (g->n_yielded)
                return 0;
            if (g->src->report->msg[0] == '\0')
                import_diag(g->src, IMPORT_ERROR, 0,
                            "no go-tpc run with a summary found: expected \"[Summary] NEW_ORDER - "
                            "Takes(s): ...\" lines and \"tpmC: X, tpmTotal: Y, ...\"");
            return IMPORT_EPARSE;
        }
        if ((rc = import_read_line(g->src)) < 0)
            return rc;
        if (rc == 0) {
            g->eof = 1;
            if ((rc = finish(g)) != IMPORT_OK)
                goto fail;
            continue;
        }
        if ((rc = parse_line(g, g->src->lines->line)) != IMPORT_OK)
            goto fail;
    }
fail:
    if (rc == IMPORT_ENOMEM)
        import_diag(g->src, IMPORT_ERROR, 0, "out of memory");
    return rc;
}
