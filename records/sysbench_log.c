/* sysbench_log.c - sysbench text output (1.0, 1.1, 0.4, 0.5; oltp, fileio, cpu, memory, mutex,
 * threads) -> points: the lines, the runs and their points. The blocks of a summary are read in
 * sysbench_blocks.c, intermediate reports in sysbench_interval.c. */
#include "sysbench_log.h"
#include "sblex.h"
#include "sysbench_log_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sblog_run_start(struct parser *ps)
{
    struct run *r = &ps->run;
    point_init(&r->p);
    r->first_line = ps->line_no;
    r->has_summary = r->has_latency = r->has_max = r->truncated = 0;
    r->threads_from_header = r->checkpoints = 0;
    r->elapsed_before_s = 0;
    r->fair_events_avg = NAN;
    r->total_events = -1;
    r->fatal_line = 0;
    r->fatal[0] = '\0';
    r->version_major = -1;
    r->workload_hint = NULL;
    r->cmd_hint = ps->next_cmd_hint;
    ps->next_cmd_hint = NULL;
    r->fileio_latency_pct = NAN;
    r->p.source_kind = POINT_SRC_SYSBENCH_LOG;
    r->p.source_line = ps->line_no;
    ps->in_run = 1;
    ps->block = B_NONE;
}

static int is_workload(const struct point *p, const char *w)
{
    return p->workload && strcmp(p->workload, w) == 0;
}

/* What the output implies but does not print. IMPORT_OK or IMPORT_ENOMEM. */
static int derive(struct point *p)
{
    if (strncmp(p->workload, "fileio_", 7) == 0) {
        /* fileio: events are not transactions; legacy outputs print counts, not rates */
        const json_t *rd = json_object_get(p->extra, "ops_read");
        p->transactions = POINT_NONE;
        p->tps = NAN;
        if (rd && p->duration_s > 0) {
            double t = p->duration_s;
            p->io.reads_ps = (double)json_integer_value(rd) / t;
            p->io.writes_ps =
                (double)json_integer_value(json_object_get(p->extra, "ops_write")) / t;
            p->io.fsyncs_ps =
                (double)json_integer_value(json_object_get(p->extra, "ops_other")) / t;
            if (json_object_get(p->extra, "read_mib")) {
                p->io.read_mib_s = json_number_value(json_object_get(p->extra, "read_mib")) / t;
                p->io.written_mib_s =
                    json_number_value(json_object_get(p->extra, "written_mib")) / t;
            }
            if (point_add_flag(p, "rates_from_counts"))
                return IMPORT_ENOMEM;
        }
        return IMPORT_OK;
    }
    if (is_workload(p, "mutex") || is_workload(p, "threads")) {
        /* an event of these tests is a loop of lock/yield operations: a rate of them is no
         * throughput of anything a database does */
        p->tps = NAN;
        return IMPORT_OK;
    }
    /* legacy outputs print queries per type only: qps = total / time */
    if (isnan(p->qps) && p->queries >= 0 && p->duration_s > 0 && !p->incomplete && p->reads >= 0) {
        p->qps = (double)p->queries / p->duration_s;
        if (point_add_flag(p, "qps_from_queries"))
            return IMPORT_ENOMEM;
    }
    if (isnan(p->tps) && p->transactions >= 0 && p->duration_s > 0 && !p->incomplete) {
        /* 0.4 cpu and the like print only events and total time */
        p->tps = (double)p->transactions / p->duration_s;
        if (point_add_flag(p, "tps_from_events"))
            return IMPORT_ENOMEM;
    }
    return IMPORT_OK;
}

/* A failed run: its report waits until the file is known to hold good runs (then a warning)
 * or none (then the file's error). */
static void note_failed(struct parser *ps, const struct run *r)
{
    ps->n_failed++;
    ps->src->report->n_rejected++;
    if (ps->n_yielded > 0 || ps->queue.n > ps->q_head) {
        import_diag(ps->src, IMPORT_WARNING, r->fatal_line,
                    "sysbench reported a fatal error: %s; this run is left out, the other runs "
                    "of the file are kept",
                    r->fatal);
        return;
    }
    if (ps->n_failed_pending < MAX_PENDING_FAILED) {
        struct failed_run *f = &ps->failed[ps->n_failed_pending++];
        f->line = r->fatal_line;
        snprintf(f->text, sizeof f->text, "%s", r->fatal);
    }
}

static void flush_failed(struct parser *ps)
{
    for (size_t i = 0; i < ps->n_failed_pending; i++)
        import_diag(ps->src, IMPORT_WARNING, ps->failed[i].line,
                    "sysbench reported a fatal error: %s; this run is left out, the other runs "
                    "of the file are kept",
                    ps->failed[i].text);
    ps->n_failed_pending = 0;
}

/* Threads from "total number of events" / "events (avg/stddev)" avg: exact for sysbench, which
 * prints avg = events / threads with 4 decimals. 0 when it does not give a whole number. */
static int64_t threads_from_fairness(const struct run *r)
{
    double n;
    if (r->total_events <= 0 || !(r->fair_events_avg > 0))
        return 0;
    n = (double)r->total_events / r->fair_events_avg;
    if (!(n >= 0.5) || n > 1e6 || fabs(n - floor(n + 0.5)) > 0.01 * n)
        return 0;
    return (int64_t)floor(n + 0.5);
}

int sblog_run_finish(struct parser *ps)
{
    struct run *r = &ps->run;
    struct point *dst;
    int rc;
    if (!ps->in_run)
        return IMPORT_OK;
    ps->in_run = 0;
    if (r->fatal_line) {
        note_failed(ps, r);
        point_destroy(&r->p);
        return IMPORT_OK;
    }
    if (!r->has_summary && r->p.n_series == 0) {
        /* prepare / cleanup / help output logged beside the runs: nothing measured, skip */
        point_destroy(&r->p);
        return IMPORT_OK;
    }
    if (r->has_summary && (!r->has_latency || !r->has_max || r->truncated)) {
        /* the file ends inside the summary: keep what it printed, say so */
        r->p.incomplete = 1;
        if (point_add_flag(&r->p, "truncated_summary"))
            goto nomem;
        if (isnan(r->p.tps) && isnan(r->p.io.reads_ps) && isnan(r->p.io.writes_ps) &&
            r->p.n_series > 0 && (rc = sblog_from_intervals(ps)) != IMPORT_OK) {
            point_destroy(&r->p);
            return rc;
        }
        if (isnan(r->p.tps) && isnan(r->p.io.reads_ps) && isnan(r->p.io.writes_ps)) {
            sblog_report(ps, ps->line_no,
                         "the file ends inside the run's statistics before any throughput: "
                         "expected \"transactions: N (X per sec.)\" and the latency block");
            point_destroy(&r->p);
            return IMPORT_EPARSE;
        }
        import_diag(ps->src, IMPORT_WARNING, r->first_line,
                    "warning: the file ends inside this run's statistics (truncated?); imported "
                    "what it printed and marked incomplete");
    }
    if (!r->has_summary) {
        /* killed before its summary: keep the intervals, say so */
        if ((rc = sblog_from_intervals(ps)) != IMPORT_OK) {
            point_destroy(&r->p);
            return rc;
        }
        import_diag(ps->src, IMPORT_WARNING, r->first_line,
                    "warning: the run ends after %zu intermediate report(s) without its summary "
                    "(killed?); imported from the intervals and marked incomplete",
                    r->p.n_series);
    }
    for (size_t i = 0; !r->threads_from_header && i < r->p.n_series; i++)
        if (r->p.series[i].threads > r->p.threads)
            r->p.threads = r->p.series[i].threads;
    if (r->p.threads <= 0) {
        int64_t n = threads_from_fairness(r);
        if (n <= 0) {
            sblog_report(ps, r->first_line,
                         "the run does not say its thread count: expected \"Number of threads: "
                         "N\", intermediate reports \"[ Ns ] thds: N\", or \"total number of "
                         "events\" with \"events (avg/stddev)\" to infer it from");
            point_destroy(&r->p);
            return IMPORT_EPARSE;
        }
        r->p.threads = n;
        if (point_add_flag(&r->p, "threads_inferred"))
            goto nomem;
        import_diag(ps->src, IMPORT_NOTE, r->first_line,
                    "note: the run has no header; its thread count %lld was inferred from total "
                    "number of events / events (avg/stddev) avg = %lld / %.4f",
                    (long long)n, (long long)r->total_events, r->fair_events_avg);
    }
    if (!r->p.workload) {
        const char *w = r->workload_hint ? r->workload_hint : r->cmd_hint;
        if (!w)
            w = ps->src->opt->workload;
        if (!w)
            w = import_workload_from_name(ps->name);
        if (point_set_str(&r->p.workload, w ? w : "unknown"))
            goto nomem;
    }
    if ((rc = derive(&r->p)) != IMPORT_OK)
        goto nomem;
    dst = point_list_push(&ps->queue);
    if (!dst)
        goto nomem;
    *dst = r->p; /* moves ownership */
    point_init(&r->p);
    return IMPORT_OK;
nomem:
    point_destroy(&r->p);
    sblog_report(ps, 0, "out of memory");
    return IMPORT_ENOMEM;
}

int sblog_next_segment(struct parser *ps)
{
    struct run *r = &ps->run;
    int64_t threads = r->p.threads;
    double rate = r->p.rate;
    double elapsed = r->elapsed_before_s + (isnan(r->p.duration_s) ? 0 : r->p.duration_s);
    const char *hint = r->workload_hint, *cmd = r->cmd_hint;
    int from_header = r->threads_from_header, version = r->version_major;
    char *tool = r->p.tool;
    int rc;
    r->p.tool = NULL;
    if ((rc = sblog_run_finish(ps)) < 0) {
        free(tool);
        return rc;
    }
    sblog_run_start(ps);
    r->p.threads = threads;
    r->p.rate = rate;
    r->workload_hint = hint;
    r->cmd_hint = cmd;
    r->threads_from_header = from_header;
    r->version_major = version;
    r->p.tool = tool;
    r->elapsed_before_s = elapsed;
    r->checkpoints = 1;
    return point_add_flag(&r->p, "checkpoint") ? IMPORT_ENOMEM : IMPORT_OK;
}

/* The workload a command line echoed before a run names ("$ sysbench cpu --threads=2 run",
 * "+ sysbench --test=mutex run", "sysbench /usr/share/sysbench/oltp_read_write.lua ... run"),
 * or NULL. The name is copied into ps->cmd_hint_buf. */
static const char *command_hint(struct parser *ps, const char *t)
{
    static const char *const tests[] = {"cpu", "memory", "mutex", "threads", NULL};
    const char *s = strstr(t, "sysbench ");
    char tok[64];
    if (!s || (s != t && !strchr(" \t$+>#`", s[-1])))
        return NULL;
    s += 9;
    while (*s) {
        size_t n = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        while (s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != '`')
            n++;
        if (n == 0 || n >= sizeof tok)
            return NULL;
        memcpy(tok, s, n);
        tok[n] = '\0';
        s += n;
        if (strncmp(tok, "--test=", 7) == 0) {
            memmove(tok, tok + 7, strlen(tok + 7) + 1);
            if (strcmp(tok, "oltp") == 0)
                return "oltp_legacy";
        } else if (tok[0] == '-') {
            continue;
        }
        {
            /* a script path: its base name without .lua */
            const char *slash = strrchr(tok, '/');
            char *dot;
            snprintf(ps->cmd_hint_buf, sizeof ps->cmd_hint_buf, "%s", slash ? slash + 1 : tok);
            dot = strstr(ps->cmd_hint_buf, ".lua");
            if (dot && dot[4] == '\0')
                *dot = '\0';
        }
        for (int i = 0; tests[i]; i++)
            if (strcmp(ps->cmd_hint_buf, tests[i]) == 0)
                return tests[i];
        if (strncmp(ps->cmd_hint_buf, "oltp_", 5) == 0 || strcmp(ps->cmd_hint_buf, "tpcc") == 0 ||
            strncmp(ps->cmd_hint_buf, "select_random_", 14) == 0 ||
            strcmp(ps->cmd_hint_buf, "bulk_insert") == 0)
            return ps->cmd_hint_buf;
        return NULL; /* "fileio" (the content says its mode), "run", a version, ... */
    }
    return NULL;
}

/* 1 when the line (after the run's prefix) starts a run or a summary block. */
static int starts_block(const char *t)
{
    static const char *const marks[] = {"SQL statistics:",     "OLTP test statistics:",
                                        "General statistics:", "Test execution summary:",
                                        "CPU speed:",          "File operations:",
                                        "Total operations:",   "Operations performed:",
                                        "Throughput:",         NULL};
    for (int i = 0; marks[i]; i++)
        if (sblex_after(t, marks[i]))
            return 1;
    return 0;
}

/* A line whose first characters can begin a run: the prefix before it is the run's indentation. */
static int run_marker(const char *body)
{
    const char *v = sblex_after(body, "sysbench ");
    if (v && isdigit((unsigned char)*v))
        return 1;
    if (body[0] == '[')
        return 1;
    return starts_block(body) || sblex_after(body, "Number of threads:") ||
           sblex_after(body, "Running the test with") || sblex_after(body, "FATAL:") ||
           sblex_after(body, "Threads started!");
}

/* The line without the indentation of the document it was pasted into (Markdown code block,
 * quoted mail): the leading blanks, tabs and '>' before a run marker become the prefix that is
 * taken off the lines that follow. */
static const char *strip_prefix(struct parser *ps, const char *raw)
{
    size_t lead = 0;
    while (raw[lead] == ' ' || raw[lead] == '\t' || raw[lead] == '>')
        lead++;
    if (lead < PREFIX_MAX && run_marker(raw + lead)) {
        memcpy(ps->prefix, raw, lead);
        ps->prefix_len = lead;
        return raw + lead;
    }
    if (ps->prefix_len && strncmp(raw, ps->prefix, ps->prefix_len) == 0)
        return raw + ps->prefix_len;
    return raw;
}

static int parse_line(struct parser *ps, const char *line)
{
    const char *raw = strip_prefix(ps, line);
    const char *t = sblex_skip_ws(raw);
    struct run *r = &ps->run;
    const char *v, *hint;
    int rc;

    /* a banner starts a new run */
    if ((v = sblex_after(raw, "sysbench ")) && isdigit((unsigned char)*v)) {
        double ver;
        size_t n = strlen(raw);
        if (ps->in_run && (rc = sblog_run_finish(ps)) < 0)
            return rc;
        sblog_run_start(ps);
        if (sblex_num(&v, &ver) == 0)
            r->version_major = ver < 1000 ? (int)ver : -1;
        while (n > 0 && (raw[n - 1] == ' ' || raw[n - 1] == '\t'))
            n--;
        if (!(r->p.tool = strndup(raw, n)))
            return IMPORT_ENOMEM;
        return IMPORT_OK;
    }
    if (sblex_after(t, "FATAL:")) {
        if (ps->in_run && r->has_max && (rc = sblog_run_finish(ps)) < 0)
            return rc;
        if (!ps->in_run)
            sblog_run_start(ps);
        if (!r->fatal_line) {
            r->fatal_line = ps->line_no;
            sblex_sanitize(r->fatal, sizeof r->fatal, t);
        }
        return IMPORT_OK;
    }
    if (raw[0] == '[') {
        ps->block = B_NONE;
        return sblog_interval_line(ps, raw);
    }
    if ((hint = command_hint(ps, t))) {
        ps->next_cmd_hint = hint;
        return IMPORT_OK;
    }
    if (sblog_header_line(ps, t, &rc))
        return rc;
    if (starts_block(t)) {
        if (ps->in_run && r->has_max) {
            /* the run's summary is whole: a checkpoint continues it, else a new run (pasted
             * without its header) begins */
            if (ps->pending_checkpoint || r->checkpoints)
                rc = sblog_next_segment(ps);
            else if ((rc = sblog_run_finish(ps)) == IMPORT_OK)
                sblog_run_start(ps);
            if (rc != IMPORT_OK)
                return rc;
        } else if (!ps->in_run) {
            sblog_run_start(ps);
        }
        ps->pending_checkpoint = 0;
    }
    if (!ps->in_run)
        return IMPORT_OK;
    if (sblog_memory_line(ps, t, &rc) || sblog_legacy_fileio_line(ps, t, &rc))
        return rc;
    /* section headers */
    if (sblex_after(t, "SQL statistics:") || sblex_after(t, "OLTP test statistics:")) {
        ps->block = B_SQL;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (sblex_after(t, "General statistics:") || sblex_after(t, "Test execution summary:")) {
        ps->block = B_GENERAL;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (sblex_after(t, "Throughput:")) {
        /* fileio (1.0 and 1.1) has its own Throughput block; 1.1 OLTP's replaces General */
        int fileio = (r->workload_hint && strncmp(r->workload_hint, "fileio_", 7) == 0) ||
                     !isnan(r->p.io.reads_ps) || !isnan(r->p.io.writes_ps);
        ps->block = fileio ? B_FILETHRU : B_GENERAL;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (sblex_after(t, "Latency (ms):") || sblex_after(t, "per-request statistics:") ||
        sblex_after(t, "response time:")) {
        ps->block = B_LATENCY;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (sblex_after(t, "Threads fairness:")) {
        ps->block = B_FAIRNESS;
        return IMPORT_OK;
    }
    if (sblex_after(t, "File operations:")) {
        ps->block = B_FILEOPS;
        return IMPORT_OK;
    }
    if (sblex_after(t, "CPU speed:")) {
        ps->block = B_CPU;
        return IMPORT_OK;
    }
    if (sblex_after(t, "Latency histogram")) {
        ps->block = B_HISTOGRAM;
        return IMPORT_OK;
    }
    if (*t == '\0') {
        if (ps->block == B_HISTOGRAM)
            ps->block = B_NONE;
        return IMPORT_OK;
    }
    switch (ps->block) {
    case B_SQL:
        return sblog_sql_line(ps, t, raw);
    case B_GENERAL:
        return sblog_general_line(ps, t, raw);
    case B_LATENCY:
        return sblog_latency_line(ps, t, raw);
    case B_FAIRNESS:
        return sblog_fairness_line(ps, t, raw);
    case B_FILEOPS:
        return sblog_fileops_line(ps, t, raw);
    case B_FILETHRU:
        return sblog_filethru_line(ps, t, raw);
    case B_HISTOGRAM:
        return sblog_histogram_line(ps, t, raw);
    case B_CPU:
        if ((v = sblex_after(t, "events per second:"))) {
            if (sblex_num(&v, &r->p.tps) || !sblex_at_end(v))
                return sblog_bad_line(ps, "\"events per second: X\"", raw);
            r->has_summary = 1;
        }
        return IMPORT_OK;
    case B_NONE:
        break;
    }
    return IMPORT_OK;
}

int sysbench_log_detect(const char *buf, size_t len, const char *path)
{
    static const char *const marks[] = {"sysbench ",
                                        "Threads started!",
                                        "SQL statistics:",
                                        "OLTP test statistics:",
                                        "Number of threads:",
                                        "General statistics:",
                                        "Test execution summary:",
                                        "File operations:",
                                        "[ ",
                                        NULL};
    size_t scan = len < LINES_PEEK_BYTES ? len : LINES_PEEK_BYTES;
    (void)path;
    for (size_t i = 0; i < scan; i++) {
        if (i > 0 && buf[i - 1] != '\n')
            continue;
        while (i < scan && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '>'))
            i++;
        for (const char *const *m = marks; *m; m++) {
            size_t n = strlen(*m);
            const char *s = buf + i;
            if (i + n > scan || memcmp(s, *m, n) != 0)
                continue;
            if (*m == marks[0] && !(i + n < scan && isdigit((unsigned char)s[n])))
                continue;
            if (*m == marks[8]) {
                /* "[ 1s ] thds: " (1.0/1.1) or "[  10s] threads: " (0.5) */
                const char *q = s + 1, *end = buf + scan;
                while (q < end && *q == ' ')
                    q++;
                if (q == end || !isdigit((unsigned char)*q))
                    continue;
                while (q < end && (isdigit((unsigned char)*q) || *q == '.'))
                    q++;
                if (end - q < 10 || q[0] != 's')
                    continue;
                q++;
                while (q < end && *q == ' ')
                    q++;
                if (end - q < 8 || *q != ']')
                    continue;
                q++;
                while (q < end && *q == ' ')
                    q++;
                if (end - q >= 5 && (memcmp(q, "thds:", 5) == 0 || memcmp(q, "reads:", 6) == 0 ||
                                     memcmp(q, "threads:", 8) == 0))
                    return 1;
                continue;
            }
            return 1;
        }
    }
    return 0;
}

void *sysbench_log_open(struct import_src *src)
{
    struct parser *ps = calloc(1, sizeof *ps);
    if (!ps)
        return NULL;
    ps->src = src;
    ps->name = src->name;
    point_list_init(&ps->queue);
    point_init(&ps->run.p);
    return ps;
}

/* The last line of the file has no newline: cut while it was written, unless it is the end of a
 * document around the output (a fence, a heading). */
static int cut_line(const char *s)
{
    s = sblex_skip_ws(s);
    return *s && strncmp(s, "```", 3) != 0 && strncmp(s, "~~~", 3) != 0 && *s != '#' && *s != '<';
}

static int pop(struct parser *ps, struct point *out)
{
    *out = ps->queue.items[ps->q_head];
    point_init(&ps->queue.items[ps->q_head]);
    if (++ps->q_head == ps->queue.n) {
        point_list_truncate(&ps->queue, 0);
        ps->q_head = 0;
    }
    ps->n_yielded++;
    flush_failed(ps);
    return 1;
}

int sysbench_log_next(void *state, struct point *out)
{
    struct parser *ps = state;
    struct lines *l = ps->src->lines;
    char line[LINE_MAX_LEN];
    int rc;
    for (;;) {
        if (ps->q_head < ps->queue.n)
            return pop(ps, out);
        if (ps->eof) {
            if (ps->n_yielded > 0)
                return 0;
            if (ps->n_failed_pending > 0) {
                const struct failed_run *f = &ps->failed[0];
                import_diag(ps->src, IMPORT_ERROR, f->line,
                            "sysbench reported a fatal error, so this run has no results: %s "
                            "(expected a run that ends with its statistics)%s",
                            f->text,
                            ps->n_failed > 1 ? "; no other run of the file has either" : "");
                ps->n_failed_pending = 0;
            } else if (ps->src->report->msg[0] == '\0') {
                sblog_report(ps, 0,
                             "no sysbench run found: expected a run's output (\"sysbench 1.0.20 "
                             "...\", \"Number of threads: N\", statistics)");
            }
            return IMPORT_EPARSE;
        }
        rc = import_read_line(ps->src);
        if (rc < 0)
            return rc;
        ps->line_no = l->no;
        if (rc == 0 || (l->no_newline && cut_line(l->line))) {
            if (rc > 0 && ps->in_run)
                ps->run.truncated = 1;
            ps->eof = 1;
            if (ps->in_run && (rc = sblog_run_finish(ps)) < 0)
                return rc;
            continue;
        }
        if (l->line_len >= sizeof line) {
            if (ps->in_run && !ps->run.has_max) {
                sblog_report(ps, ps->line_no,
                             "a line of %zu bytes: expected sysbench output (lines under %d "
                             "bytes)",
                             l->line_len, LINE_MAX_LEN);
                return IMPORT_EPARSE;
            }
            continue; /* a paragraph of the document around the outputs */
        }
        memcpy(line, l->line, l->line_len + 1);
        for (size_t i = 0; i < l->line_len; i++)
            if (line[i] == '\0')
                line[i] = ' ';
        if ((rc = parse_line(ps, line)) < 0)
            return rc;
    }
}

void sysbench_log_close(void *state)
{
    struct parser *ps = state;
    if (!ps)
        return;
    point_destroy(&ps->run.p);
    point_list_destroy(&ps->queue);
    free(ps);
}
