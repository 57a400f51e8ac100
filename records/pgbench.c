/* pgbench.c - pgbench's printed output -> one point per run (pgbench.h). Its -l logs are read in
 * pgbench_log.c. */
#include "pgbench.h"
#include "pgbench_int.h"
#include "sblex.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pgrun {
    struct point p;
    long first_line;
    int has_summary; /* "transaction type:" */
    int has_tps;
    int aborted;
    long error_line;
    char error[200];
    double tps_including; /* pgbench <= 13 prints both; excluding wins */
    json_t *statements;   /* -r */
    json_t *scripts;      /* "SQL script N:" blocks */
    json_t *script;       /* the block being read (borrowed from scripts) */
    int in_statements;
    int script_no;       /* 0: the whole run, else the SQL script N the statements belong to */
    int64_t cmd_clients; /* -c of the command line echoed before the run */
};

struct pgb {
    struct import_src *src;
    struct pgrun run;
    int in_run;
    long line_no;
    struct point_list queue;
    size_t q_head, n_yielded, n_failed;
    long failed_line;
    char failed_text[200];
    int64_t next_clients; /* -c of a command line echoed for the next run */
    int eof;
    struct pglog *log; /* the -l log reader, when the input is a log */
};

static void run_start(struct pgb *g)
{
    struct pgrun *r = &g->run;
    point_init(&r->p);
    memset((char *)r + sizeof r->p, 0, sizeof *r - sizeof r->p);
    r->first_line = g->line_no;
    r->p.source_kind = POINT_SRC_TOOL;
    r->p.source_line = g->line_no;
    r->tps_including = NAN;
    r->cmd_clients = g->next_clients;
    g->next_clients = 0;
    g->in_run = 1;
}

static void run_clear(struct pgrun *r)
{
    point_destroy(&r->p);
    json_decref(r->statements);
    json_decref(r->scripts);
    r->statements = r->scripts = r->script = NULL;
}

/* The workload a "transaction type:" names. */
static int set_workload(struct point *p, const char *v)
{
    char name[80] = "pgbench_";
    size_t n = strlen(name);
    const char *slash;
    if (strncmp(v, "<builtin: TPC-B", 15) == 0)
        return point_set_str(&p->workload, "pgbench_tpcb");
    if (strncmp(v, "<builtin: select only", 21) == 0)
        return point_set_str(&p->workload, "pgbench_select_only");
    if (strncmp(v, "<builtin: simple update", 23) == 0)
        return point_set_str(&p->workload, "pgbench_simple_update");
    if (strncmp(v, "multiple scripts", 16) == 0)
        return point_set_str(&p->workload, "pgbench_mixed");
    slash = strrchr(v, '/');
    for (v = slash ? slash + 1 : v; *v && n + 1 < sizeof name; v++) {
        if (*v == '.' && strcmp(v, ".sql") == 0)
            break;
        name[n++] = isalnum((unsigned char)*v) ? (char)tolower((unsigned char)*v) : '_';
    }
    name[n] = '\0';
    return point_set_str(&p->workload, name);
}

static int put(struct pgb *g, const char *key, json_t *v)
{
    return import_set_extra(&g->run.p, key, v) ? IMPORT_ENOMEM : IMPORT_OK;
}

static int bad(struct pgb *g, const char *expected, const char *line)
{
    return import_bad_line(g->src, g->line_no, expected, line);
}

/* "N (X%)" after a label: the count. */
static int count_pct(const char *v, int64_t *n)
{
    double pct;
    if (sblex_count(&v, n))
        return -1;
    if (sblex_lit(&v, "(") == 0 && (sblex_num(&v, &pct) || sblex_lit(&v, "%)")))
        return -1;
    return 0;
}

static int finish(struct pgb *g)
{
    struct pgrun *r = &g->run;
    struct point *p = &r->p, *dst;
    if (!g->in_run)
        return IMPORT_OK;
    g->in_run = 0;
    if (!r->has_summary && p->n_series == 0) {
        if (r->error_line) {
            g->n_failed++;
            g->src->report->n_rejected++;
            if (g->n_yielded > 0 || g->queue.n > g->q_head) {
                import_diag(g->src, IMPORT_WARNING, r->error_line,
                            "pgbench failed: %s; this run is left out, the other runs of the file "
                            "are kept",
                            r->error);
            } else if (g->n_failed == 1) {
                g->failed_line = r->error_line;
                snprintf(g->failed_text, sizeof g->failed_text, "%s", r->error);
            }
        }
        run_clear(r); /* vacuum / init output: nothing measured */
        return IMPORT_OK;
    }
    if (p->threads <= 0 && r->cmd_clients > 0)
        p->threads = r->cmd_clients;
    if (p->threads <= 0 && g->src->opt->threads > 0)
        p->threads = g->src->opt->threads;
    if (p->threads <= 0) {
        import_diag(g->src, IMPORT_ERROR, r->first_line,
                    "the run does not say its client count: expected \"number of clients: N\" "
                    "(progress lines do not carry it: give --threads N, pgbench's -c)");
        run_clear(r);
        return IMPORT_EPARSE;
    }
    if (!r->has_tps && !isnan(r->tps_including)) {
        p->tps = r->tps_including;
        r->has_tps = 1;
    }
    if (!r->has_summary || !r->has_tps) {
        double sum = 0, lat = 0;
        size_t n = 0, nl = 0;
        for (size_t i = 0; i < p->n_series; i++) {
            if (!isnan(p->series[i].tps)) {
                sum += p->series[i].tps;
                n++;
            }
            if (!isnan(p->series[i].lat_ms)) {
                lat += p->series[i].lat_ms;
                nl++;
            }
        }
        if (n == 0) {
            import_diag(g->src, IMPORT_ERROR, g->line_no,
                        "the run ends before its throughput: expected \"tps = X (...)\" or "
                        "progress lines");
            run_clear(r);
            return IMPORT_EPARSE;
        }
        p->incomplete = 1;
        p->tps = sum / (double)n;
        if (isnan(p->latency_ms.avg) && nl)
            p->latency_ms.avg = lat / (double)nl;
        p->duration_s = p->series[p->n_series - 1].t_s;
        if (point_add_flag(p, r->has_summary ? "truncated_summary" : "no_summary"))
            goto nomem;
        import_diag(g->src, IMPORT_WARNING, r->first_line,
                    "warning: the run ends after %zu progress line(s) without its summary "
                    "(killed?); imported from the progress lines and marked incomplete",
                    p->n_series);
    } else if (p->transactions >= 0 && p->tps > 0) {
        p->duration_s = (double)p->transactions / p->tps;
    }
    if (r->aborted) {
        p->incomplete = 1;
        if (point_add_flag(p, "aborted"))
            goto nomem;
        import_diag(g->src, IMPORT_WARNING, r->first_line,
                    "warning: pgbench says the run was aborted (a client failed): its results are "
                    "incomplete; imported and marked incomplete");
    }
    if (!p->workload && point_set_str(&p->workload, "pgbench"))
        goto nomem;
    if (r->statements && json_array_size(r->statements) && put(g, "statements", r->statements))
        goto nomem_kept;
    r->statements = NULL;
    if (r->scripts && json_array_size(r->scripts) && put(g, "scripts", r->scripts))
        goto nomem_kept;
    r->scripts = NULL;
    dst = point_list_push(&g->queue);
    if (!dst)
        goto nomem;
    *dst = *p;
    point_init(p);
    run_clear(r);
    return IMPORT_OK;
nomem_kept:
    r->statements = r->scripts = NULL;
nomem:
    run_clear(r);
    import_diag(g->src, IMPORT_ERROR, 0, "out of memory");
    return IMPORT_ENOMEM;
}

/* "progress: 1.0 s, 1417.7 tps, lat 1.264 ms stddev 3.141, 0 failed[, lag X ms][, N skipped]
 * [, N retried, N retries]" (pgbench 15; 14 and before end after stddev, or with lag). */
static int progress_line(struct pgb *g, const char *v, const char *line)
{
    struct point_interval iv = point_interval_none();
    struct pgrun *r = &g->run;
    double t, sd, x;
    int rc;
    if (sblex_num(&v, &t) || sblex_lit(&v, "s,") || sblex_num(&v, &iv.tps) ||
        sblex_lit(&v, "tps,") || sblex_lit(&v, "lat") || sblex_num(&v, &iv.lat_ms) ||
        sblex_lit(&v, "ms stddev") || sblex_num(&v, &sd))
        return bad(g, "\"progress: T s, X tps, lat Y ms stddev Z, ...\"", line);
    while (sblex_lit(&v, ",") == 0) {
        if (sblex_lit(&v, "lag") == 0) {
            if (sblex_num(&v, &x) || sblex_lit(&v, "ms"))
                return bad(g, "\", lag X ms\"", line);
        } else if (sblex_num(&v, &x) == 0) {
            if (sblex_lit(&v, "failed") == 0) {
                double prev = r->p.n_series ? r->p.series[r->p.n_series - 1].t_s : 0;
                if (t > prev)
                    iv.errors_ps = x / (t - prev);
            } else if (sblex_lit(&v, "skipped") && sblex_lit(&v, "retried") &&
                       sblex_lit(&v, "retries")) {
                return bad(g, "\", N failed\", \", N skipped\" or \", N retried, N retries\"",
                           line);
            }
        } else {
            return bad(g, "a progress field after a comma", line);
        }
    }
    if (!sblex_at_end(v))
        return bad(g, "the end of the progress line", line);
    iv.t_s = t;
    if (g->in_run && (r->has_tps || (!r->has_summary && r->p.n_series > 0 &&
                                     t <= r->p.series[r->p.n_series - 1].t_s))) {
        if ((rc = finish(g)) != IMPORT_OK)
            return rc;
    }
    if (!g->in_run)
        run_start(g);
    return point_series_append(&r->p, &iv) ? IMPORT_ENOMEM : IMPORT_OK;
}

/* A statement line of -r: "  0.132   0  UPDATE ..." (15: latency, failures[, retries]) or
 * "  0.132  UPDATE ..." (13 and before). 1 when it was one. */
static int statement_line(struct pgb *g, const char *t, int *rc)
{
    struct pgrun *r = &g->run;
    const char *v = t;
    double lat;
    int64_t fail = -1, retr = -1;
    json_t *o;
    *rc = IMPORT_OK;
    if (!r->in_statements || sblex_num(&v, &lat) || (*v != ' ' && *v != '\t'))
        return 0;
    {
        const char *w = v;
        if (sblex_count(&w, &fail) == 0 && (*w == ' ' || *w == '\t')) {
            v = w;
            w = v;
            if (sblex_count(&w, &retr) == 0 && (*w == ' ' || *w == '\t'))
                v = w;
            else
                retr = -1;
        } else {
            fail = -1;
        }
    }
    v = sblex_skip_ws(v);
    o = json_pack("{s:f,s:s}", "latency_ms", lat, "command", v);
    if (!o)
        o = json_pack("{s:f,s:s}", "latency_ms", lat, "command", "?");
    if (o && fail >= 0)
        json_object_set_new(o, "failures", json_integer(fail));
    if (o && retr >= 0)
        json_object_set_new(o, "retries", json_integer(retr));
    if (o && r->script_no > 0)
        json_object_set_new(o, "script", json_integer(r->script_no));
    if (!o || (!r->statements && !(r->statements = json_array())) ||
        json_array_append_new(r->statements, o))
        *rc = IMPORT_ENOMEM;
    return 1;
}

/* The lines of an "SQL script N: NAME" block (" - weight: ...", " - N transactions ..."). */
static int script_line(struct pgb *g, const char *t, const char *line)
{
    struct pgrun *r = &g->run;
    json_t *s = r->script;
    const char *v;
    double x, pct;
    int64_t n;
    if ((v = sblex_after(t, "weight:"))) {
        if (sblex_count(&v, &n))
            return bad(g, "\" - weight: N (targets X% of total)\"", line);
        return json_object_set_new(s, "weight", json_integer(n)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = sblex_after(t, "latency average ="))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "ms"))
            return bad(g, "\" - latency average = X ms\"", line);
        return json_object_set_new(s, "latency_avg_ms", json_real(x)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = sblex_after(t, "latency stddev ="))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "ms"))
            return bad(g, "\" - latency stddev = X ms\"", line);
        return json_object_set_new(s, "latency_stddev_ms", json_real(x)) ? IMPORT_ENOMEM
                                                                         : IMPORT_OK;
    }
    if ((v = sblex_after(t, "number of failed transactions:"))) {
        if (count_pct(v, &n))
            return bad(g, "\" - number of failed transactions: N (X%)\"", line);
        return json_object_set_new(s, "failed", json_integer(n)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    v = t;
    if (sblex_count(&v, &n) == 0 && sblex_lit(&v, "transactions (") == 0) {
        /* "- 72 transactions (72.7% of total, tps = 61.354241)" */
        if (sblex_num(&v, &pct) || sblex_lit(&v, "% of total, tps =") || sblex_num(&v, &x) ||
            sblex_lit(&v, ")"))
            return bad(g, "\" - N transactions (X% of total, tps = Y)\"", line);
        return json_object_set_new(s, "transactions", json_integer(n)) ||
                       json_object_set_new(s, "tps", json_real(x))
                   ? IMPORT_ENOMEM
                   : IMPORT_OK;
    }
    return IMPORT_OK;
}

/* "pgbench ... -c 8 ..." echoed before a run: a new run begins; its client count (when the line
 * gives one) is kept for it. 1 when the line was such a command line. */
static int command_line(struct pgb *g, const char *t, int *rc)
{
    const char *s = strstr(t, "pgbench ");
    *rc = IMPORT_OK;
    if (!s || (s != t && !strchr(" \t$+>#`", s[-1])) || s[8] == '(' || strchr(t, ':'))
        return 0;
    if (g->in_run && (*rc = finish(g)) != IMPORT_OK)
        return 1;
    g->next_clients = 0;
    for (s += 8; *s;) {
        long long n;
        char *end;
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, "-c", 2) == 0 || strncmp(s, "--client=", 9) == 0) {
            s += s[1] == 'c' ? 2 : 9;
            while (*s == ' ' || *s == '=')
                s++;
            n = strtoll(s, &end, 10);
            if (end != s && n > 0 && n <= 1000000)
                g->next_clients = n;
            return 1;
        }
        while (*s && *s != ' ' && *s != '\t')
            s++;
    }
    return 1;
}

/* What a summary_line helper returns for a line that is not of its kind (no IMPORT_ code). */
#define NOT_SUMMARY 100

/* The run's settings: scale, query mode, clients, threads, duration, transactions per client.
 * NOT_SUMMARY when t is none of them. */
static int setup_line(struct pgb *g, const char *t, const char *line)
{
    struct point *p = &g->run.p;
    const char *v;
    double x;
    int64_t n;
    if ((v = sblex_after(t, "scaling factor:"))) {
        if (sblex_count(&v, &n))
            return bad(g, "\"scaling factor: N\"", line);
        return put(g, "scale", json_integer(n));
    }
    if ((v = sblex_after(t, "query mode:")))
        return put(g, "query_mode", point_json_string(sblex_skip_ws(v)));
    if ((v = sblex_after(t, "number of clients:"))) {
        if (sblex_count(&v, &n) || n <= 0 || n > 1000000 || !sblex_at_end(v))
            return bad(g, "\"number of clients: N\" with 0 < N <= 1000000", line);
        p->threads = n;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "number of threads:"))) {
        if (sblex_count(&v, &n))
            return bad(g, "\"number of threads: N\"", line);
        return put(g, "pgbench_threads", json_integer(n));
    }
    if ((v = sblex_after(t, "duration:"))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "s"))
            return bad(g, "\"duration: N s\"", line);
        return put(g, "duration_requested_s", json_real(x));
    }
    if ((v = sblex_after(t, "number of transactions per client:"))) {
        if (sblex_count(&v, &n))
            return bad(g, "\"number of transactions per client: N\"", line);
        return put(g, "transactions_per_client", json_integer(n));
    }
    return NOT_SUMMARY;
}

/* The transaction counts: processed, failed, skipped, late, retried, retries. NOT_SUMMARY
 * when t is none of them. */
static int count_line(struct pgb *g, const char *t, const char *line)
{
    struct point *p = &g->run.p;
    const char *v;
    double x;
    int64_t n, m;
    if ((v = sblex_after(t, "number of transactions actually processed:"))) {
        if (sblex_count(&v, &n) || (sblex_lit(&v, "/") == 0 && sblex_count(&v, &m)) ||
            !sblex_at_end(v))
            return bad(g, "\"number of transactions actually processed: N[/M]\"", line);
        p->transactions = n;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "number of failed transactions:"))) {
        if (count_pct(v, &n))
            return bad(g, "\"number of failed transactions: N (X%)\"", line);
        p->errors = n;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "number of transactions skipped:"))) {
        if (count_pct(v, &n))
            return bad(g, "\"number of transactions skipped: N (X%)\"", line);
        return put(g, "skipped", json_integer(n));
    }
    if ((v = sblex_after(t, "number of transactions above the"))) {
        /* "... above the 5.0 ms latency limit: 4/448 (0.893%)" */
        if (sblex_num(&v, &x) || sblex_lit(&v, "ms latency limit:") || sblex_count(&v, &n) ||
            sblex_lit(&v, "/") || sblex_count(&v, &m))
            return bad(g, "\"... above the X ms latency limit: N/M (P%)\"", line);
        return put(g, "latency_limit_ms", json_real(x)) ? IMPORT_ENOMEM
                                                        : put(g, "late", json_integer(n));
    }
    if ((v = sblex_after(t, "number of transactions retried:"))) {
        if (count_pct(v, &n))
            return bad(g, "\"number of transactions retried: N (X%)\"", line);
        return put(g, "retried", json_integer(n));
    }
    if ((v = sblex_after(t, "total number of retries:"))) {
        if (sblex_count(&v, &n))
            return bad(g, "\"total number of retries: N\"", line);
        return put(g, "retries", json_integer(n));
    }
    return NOT_SUMMARY;
}

/* Latency, schedule lag, connection time and tps. NOT_SUMMARY when t is none of them. */
static int latency_line(struct pgb *g, const char *t, const char *line)
{
    struct pgrun *r = &g->run;
    struct point *p = &g->run.p;
    const char *v;
    double x, y;
    if ((v = sblex_after(t, "latency average ="))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "ms"))
            return bad(g, "\"latency average = X ms\"", line);
        p->latency_ms.avg = x;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "latency stddev ="))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "ms"))
            return bad(g, "\"latency stddev = X ms\"", line);
        return put(g, "latency_stddev_ms", json_real(x));
    }
    if ((v = sblex_after(t, "rate limit schedule lag: avg"))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "(max") || sblex_num(&v, &y) ||
            sblex_lit(&v, ") ms"))
            return bad(g, "\"rate limit schedule lag: avg X (max Y) ms\"", line);
        return put(g, "lag_avg_ms", json_real(x)) ? IMPORT_ENOMEM
                                                  : put(g, "lag_max_ms", json_real(y));
    }
    if ((v = sblex_after(t, "initial connection time =")) ||
        (v = sblex_after(t, "average connection time ="))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "ms"))
            return bad(g, "\"initial connection time = X ms\"", line);
        return put(g, t[0] == 'i' ? "initial_connection_ms" : "average_connection_ms",
                   json_real(x));
    }
    if ((v = sblex_after(t, "tps ="))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "("))
            return bad(g, "\"tps = X (without initial connection time)\"", line);
        if (sblex_lit(&v, "including connections establishing)") == 0) {
            r->tps_including = x;
            return IMPORT_OK;
        }
        if (sblex_lit(&v, "without initial connection time)") &&
            sblex_lit(&v, "excluding connections establishing)") &&
            sblex_lit(&v, "including reconnection times)"))
            return bad(g, "\"tps = X (without initial connection time)\"", line);
        p->tps = x;
        r->has_tps = 1;
        return IMPORT_OK;
    }
    return NOT_SUMMARY;
}

/* The per-statement and per-script sections, a script's own lines, an aborted run; any
 * other line is ignored. */
static int section_line(struct pgb *g, const char *t, const char *line)
{
    struct pgrun *r = &g->run;
    const char *v;
    int64_t n;
    if (sblex_after(t, "statement latencies in milliseconds")) {
        r->in_statements = 1;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "SQL script "))) {
        json_t *s;
        if (sblex_count(&v, &n) || sblex_lit(&v, ":"))
            return bad(g, "\"SQL script N: NAME\"", line);
        s = json_pack("{s:I,s:s}", "script", (json_int_t)n, "name", sblex_skip_ws(v));
        if (!s || (!r->scripts && !(r->scripts = json_array())) ||
            json_array_append_new(r->scripts, s))
            return IMPORT_ENOMEM;
        r->script = s;
        r->script_no = (int)n;
        r->in_statements = 0;
        return IMPORT_OK;
    }
    if (t[0] == '-' && r->script) {
        const char *u = sblex_skip_ws(t + 1);
        r->in_statements = sblex_after(u, "statement latencies in milliseconds") != NULL;
        return r->in_statements ? IMPORT_OK : script_line(g, u, line);
    }
    if (sblex_after(t, "Run was aborted")) {
        r->aborted = 1;
        return IMPORT_OK;
    }
    return IMPORT_OK;
}

/* One line of a run's summary (t: the line without its indentation). */
static int summary_line(struct pgb *g, const char *t, const char *line)
{
    int rc;
    if ((rc = setup_line(g, t, line)) != NOT_SUMMARY ||
        (rc = count_line(g, t, line)) != NOT_SUMMARY ||
        (rc = latency_line(g, t, line)) != NOT_SUMMARY)
        return rc;
    return section_line(g, t, line);
}

static int parse_line(struct pgb *g, const char *line)
{
    const char *t = sblex_skip_ws(line), *v;
    struct pgrun *r = &g->run;
    int rc;
    if ((v = sblex_after(t, "pgbench (")) && isdigit((unsigned char)*v)) {
        size_t n = strlen(t);
        if (g->in_run && r->has_tps && (rc = finish(g)) != IMPORT_OK)
            return rc;
        if (!g->in_run)
            run_start(g);
        while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
            n--;
        free(r->p.tool);
        return (r->p.tool = strndup(t, n)) ? IMPORT_OK : IMPORT_ENOMEM;
    }
    if (sblex_after(t, "starting vacuum")) {
        if (g->in_run && r->has_tps && (rc = finish(g)) != IMPORT_OK)
            return rc;
        if (!g->in_run)
            run_start(g);
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "progress:")))
        return progress_line(g, v, line);
    if ((v = sblex_after(t, "pgbench: error:")) || (v = sblex_after(t, "pgbench: fatal:")) ||
        (v = sblex_after(t, "FATAL:"))) {
        if (g->in_run && r->has_tps && (rc = finish(g)) != IMPORT_OK)
            return rc;
        if (!g->in_run)
            run_start(g);
        if (!r->error_line) {
            r->error_line = g->line_no;
            sblex_sanitize(r->error, sizeof r->error, t);
        }
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "transaction type:"))) {
        if (g->in_run && r->has_summary && (rc = finish(g)) != IMPORT_OK)
            return rc;
        if (!g->in_run)
            run_start(g);
        r->has_summary = 1;
        return set_workload(&r->p, sblex_skip_ws(v)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if (command_line(g, t, &rc))
        return rc;
    if (!g->in_run)
        return IMPORT_OK;
    if (statement_line(g, t, &rc))
        return rc;
    return summary_line(g, t, line);
}

/* 1 when buf holds pgbench's printed output (not a log). */
static int output_detect(const char *buf, size_t len)
{
    static const char *const marks[] = {
        "pgbench (", "transaction type:", "progress: ", "number of clients:", NULL};
    for (size_t i = 0; i < len; i++) {
        size_t k = i;
        if (i > 0 && buf[i - 1] != '\n')
            continue;
        while (k < len && (buf[k] == ' ' || buf[k] == '\t'))
            k++;
        for (const char *const *m = marks; *m; m++) {
            size_t n = strlen(*m);
            const char *q = buf + k + n;
            if (k + n >= len || memcmp(buf + k, *m, n) != 0)
                continue;
            if (*m == marks[0] && !isdigit((unsigned char)*q))
                continue;
            if (*m == marks[2]) {
                /* "progress: 1.0 s, 1417.7 tps, lat ..." */
                const char *e = memchr(q, '\n', (size_t)(buf + len - q));
                size_t ln = e ? (size_t)(e - q) : (size_t)(buf + len - q);
                char tmp[160];
                if (ln >= sizeof tmp)
                    continue;
                memcpy(tmp, q, ln);
                tmp[ln] = '\0';
                if (!strstr(tmp, " s, ") || !strstr(tmp, " tps, lat "))
                    continue;
            }
            return 1;
        }
    }
    return 0;
}

int pgbench_detect(const char *buf, size_t len, const char *path)
{
    return output_detect(buf, len) || pglog_detect(buf, len, path);
}

void *pgbench_open(struct import_src *src)
{
    struct pgb *g = calloc(1, sizeof *g);
    const char *data;
    size_t len;
    char err[400];
    if (!g)
        return NULL;
    g->src = src;
    point_list_init(&g->queue);
    point_init(&g->run.p);
    if (lines_peek(src->lines, &data, &len, err, sizeof err) == LINES_OK &&
        pglog_detect(data, len, src->path) && !output_detect(data, len)) {
        g->log = pglog_new(src);
        if (!g->log) {
            free(g);
            return NULL;
        }
    }
    return g;
}

int pgbench_next(void *state, struct point *out)
{
    struct pgb *g = state;
    struct lines *l = g->src->lines;
    int rc;
    if (g->log)
        return pglog_next(g->log, out);
    for (;;) {
        if (g->q_head < g->queue.n) {
            *out = g->queue.items[g->q_head];
            point_init(&g->queue.items[g->q_head]);
            if (++g->q_head == g->queue.n) {
                point_list_truncate(&g->queue, 0);
                g->q_head = 0;
            }
            if (g->n_yielded++ == 0 && g->failed_line)
                import_diag(g->src, IMPORT_WARNING, g->failed_line,
                            "pgbench failed: %s; this run is left out, the other runs of the "
                            "file are kept",
                            g->failed_text);
            return 1;
        }
        if (g->eof) {
            if (g->n_yielded > 0)
                return 0;
            if (g->failed_line)
                import_diag(g->src, IMPORT_ERROR, g->failed_line,
                            "pgbench failed, so the run has no results: %s (expected a run's "
                            "summary or progress lines)",
                            g->failed_text);
            else if (g->src->report->msg[0] == '\0')
                import_diag(g->src, IMPORT_ERROR, 0,
                            "no pgbench run found: expected its summary (\"number of clients: "
                            "N\", \"tps = X (...)\") or progress lines");
            return IMPORT_EPARSE;
        }
        rc = import_read_line(g->src);
        if (rc < 0)
            return rc;
        g->line_no = l->no;
        if (rc == 0) {
            g->eof = 1;
            if ((rc = finish(g)) != IMPORT_OK)
                return rc;
            continue;
        }
        if (l->line_len > 4096)
            continue; /* no pgbench line is that long: text around the output */
        if ((rc = parse_line(g, l->line)) != IMPORT_OK) {
            if (rc == IMPORT_ENOMEM)
                import_diag(g->src, IMPORT_ERROR, 0, "out of memory");
            return rc;
        }
    }
}

void pgbench_close(void *state)
{
    struct pgb *g = state;
    if (!g)
        return;
    run_clear(&g->run);
    point_list_destroy(&g->queue);
    pglog_free(g->log);
    free(g);
}
