/* sysbench_log.c - sysbench text output (1.0, 1.1, 0.4, 0.5; oltp, fileio, cpu, memory, mutex,
 * threads) -> points: the entry file, which reads the lines and hands each to its reader: the
 * blocks of a summary in sysbench_blocks.c, intermediate reports in sysbench_interval.c, fileio
 * and memory in sysbench_tests.c; a run's start and finish are sysbench_run.c's. None of them
 * calls back into this file. */
#include "sysbench_log.h"
#include "sblex.h"
#include "sysbench_log_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void flush_failed(struct parser *ps)
{
    for (size_t i = 0; i < ps->n_failed_pending; i++)
        import_diag(ps->src, IMPORT_WARNING, ps->failed[i].line,
                    "sysbench reported a fatal error: %s; this run is left out, the other runs "
                    "of the file are kept",
                    ps->failed[i].text);
    ps->n_failed_pending = 0;
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

/* A section header of a summary (the block it starts becomes ps->block) or a blank line:
 * 1 when the line was one, else 0. */
static int section_line(struct parser *ps, const char *t)
{
    struct run *r = &ps->run;
    if (sblex_after(t, "SQL statistics:") || sblex_after(t, "OLTP test statistics:")) {
        ps->block = B_SQL;
        r->has_summary = 1;
        return 1;
    }
    if (sblex_after(t, "General statistics:") || sblex_after(t, "Test execution summary:")) {
        ps->block = B_GENERAL;
        r->has_summary = 1;
        return 1;
    }
    if (sblex_after(t, "Throughput:")) {
        /* fileio (1.0 and 1.1) has its own Throughput block; 1.1 OLTP's replaces General */
        int fileio = (r->workload_hint && strncmp(r->workload_hint, "fileio_", 7) == 0) ||
                     !isnan(r->p.io.reads_ps) || !isnan(r->p.io.writes_ps);
        ps->block = fileio ? B_FILETHRU : B_GENERAL;
        r->has_summary = 1;
        return 1;
    }
    if (sblex_after(t, "Latency (ms):") || sblex_after(t, "per-request statistics:") ||
        sblex_after(t, "response time:")) {
        ps->block = B_LATENCY;
        r->has_summary = 1;
        return 1;
    }
    if (sblex_after(t, "Threads fairness:")) {
        ps->block = B_FAIRNESS;
        return 1;
    }
    if (sblex_after(t, "File operations:")) {
        ps->block = B_FILEOPS;
        return 1;
    }
    if (sblex_after(t, "CPU speed:")) {
        ps->block = B_CPU;
        return 1;
    }
    if (sblex_after(t, "Latency histogram")) {
        ps->block = B_HISTOGRAM;
        return 1;
    }
    if (*t == '\0') {
        if (ps->block == B_HISTOGRAM)
            ps->block = B_NONE;
        return 1;
    }
    return 0;
}

/* A line inside the current block of a summary, to that block's reader. */
static int block_line(struct parser *ps, const char *t, const char *raw)
{
    struct run *r = &ps->run;
    const char *v;
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
    if (section_line(ps, t))
        return IMPORT_OK;
    return block_line(ps, t, raw);
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
