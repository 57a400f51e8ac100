/* suite.c - the suite record sizeup.suite/1 and its readers (suite.h). Tables are split into
 * cells by the table reader's dialects (table_int.h), so a suite table may be CSV, TSV or
 * Markdown. */
#include "suite.h"
#include "import_types.h"
#include "sblex.h"
#include "table.h"
#include "table_int.h"

#include "append.h"
#include "errtext.h"
#include "readfile.h"

#include "textsafe.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

double suite_total_s(const struct suite_run *s)
{
    double t = 0;
    for (size_t i = 0; i < s->n_q; i++)
        if (!s->q[i].failed && !isnan(s->q[i].seconds))
            t += s->q[i].seconds;
    return t;
}

size_t suite_failed(const struct suite_run *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_q; i++)
        n += s->q[i].failed != 0;
    return n;
}

const struct suite_query *suite_find_query(const struct suite_run *s, const char *name)
{
    for (size_t i = 0; i < s->n_q; i++)
        if (strcmp(s->q[i].name, name) == 0)
            return &s->q[i];
    return NULL;
}

static void run_free(struct suite_run *r)
{
    for (size_t i = 0; i < r->n_q; i++) {
        free(r->q[i].name);
        free(r->q[i].result);
    }
    free(r->q);
    free(r->target);
    free(r->config);
    free(r->suite);
    free(r->tool);
    free(r->source_kind);
    free(r->source_file);
    memset(r, 0, sizeof *r);
}

void suite_list_init(struct suite_list *l)
{
    memset(l, 0, sizeof *l);
}

void suite_list_destroy(struct suite_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        run_free(&l->items[i]);
    free(l->items);
    suite_list_init(l);
}

static void truncate_list(struct suite_list *l, size_t n)
{
    while (l->n > n)
        run_free(&l->items[--l->n]);
}

static struct suite_run *push_run(struct suite_list *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        struct suite_run *n = realloc(l->items, cap * sizeof *n);
        if (!n)
            return NULL;
        l->items = n;
        l->cap = cap;
    }
    memset(&l->items[l->n], 0, sizeof l->items[0]);
    return &l->items[l->n++];
}

static int push_query(struct suite_run *r, const char *name, double seconds, int failed,
                      const char *result)
{
    struct suite_query *q;
    if (r->n_q == r->cap_q) {
        size_t cap = r->cap_q ? r->cap_q * 2 : 32;
        struct suite_query *n = realloc(r->q, cap * sizeof *n);
        if (!n)
            return -1;
        r->q = n;
        r->cap_q = cap;
    }
    q = &r->q[r->n_q];
    q->name = strdup(name);
    q->result = result && *result ? strdup(result) : NULL;
    if (!q->name || (result && *result && !q->result)) {
        free(q->name);
        free(q->result);
        return -1;
    }
    q->seconds = seconds;
    q->failed = failed;
    r->n_q++;
    return 0;
}

static int set_str(char **dst, const char *s)
{
    free(*dst);
    *dst = s ? strdup(s) : NULL;
    return s && !*dst ? -1 : 0;
}

/* What a reader needs: where messages go, the defaults, the runs being built. */
struct rd {
    const char *name;
    const struct suite_options *opt;
    struct suite_list *out;
    size_t first; /* the runs this file added start here */
    char *err;
    size_t cap;
};

static int fail(struct rd *d, long line, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(struct rd *d, long line, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errtext_vset(d->err, d->cap, d->name, line, 0, fmt, ap);
    va_end(ap);
    return rc;
}

static const char *base_name(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    char *dot;
    snprintf(buf, cap, "%s", slash ? slash + 1 : path);
    dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
    return buf;
}

/* The run of (target, suite) among this file's runs, made when new. NULL: out of memory. */
static struct suite_run *run_of(struct rd *d, const char *target, const char *suite,
                                const char *kind, long line)
{
    char bn[256];
    struct suite_run *r;
    if (!target || !*target)
        target = d->opt && d->opt->target ? d->opt->target : base_name(d->name, bn, sizeof bn);
    if (!suite || !*suite)
        suite = d->opt && d->opt->suite ? d->opt->suite : "suite";
    for (size_t i = d->first; i < d->out->n; i++)
        if (strcmp(d->out->items[i].target, target) == 0 &&
            strcmp(d->out->items[i].suite, suite) == 0)
            return &d->out->items[i];
    if (!(r = push_run(d->out)))
        return NULL;
    if (set_str(&r->target, target) || set_str(&r->suite, suite) ||
        set_str(&r->source_kind, kind) || set_str(&r->source_file, d->name)) {
        run_free(r);
        d->out->n--;
        return NULL;
    }
    r->source_line = line;
    return r;
}

static int failed_word(const char *w)
{
    static const char *const words[] = {"fail",      "failed",  "failure", "error",     "timeout",
                                        "timed out", "killed",  "cancel",  "cancelled", "canceled",
                                        "abort",     "aborted", NULL};
    for (int i = 0; words[i]; i++)
        if (strcasecmp(w, words[i]) == 0)
            return 1;
    return 0;
}

/* ---- tables ---- */

enum { SC_TARGET, SC_CONFIG, SC_SUITE, SC_QUERY, SC_SECONDS, SC_RESULT, SC_OTHER };

static int column_kind(const char *name)
{
    if (strcmp(name, "target") == 0)
        return SC_TARGET;
    if (strcmp(name, "config") == 0)
        return SC_CONFIG;
    if (strcmp(name, "suite") == 0 || strcmp(name, "benchmark") == 0)
        return SC_SUITE;
    if (strcmp(name, "query") == 0 || strcmp(name, "q") == 0)
        return SC_QUERY;
    if (strcmp(name, "seconds") == 0 || strcmp(name, "time_s") == 0 || strcmp(name, "sec") == 0 ||
        strcmp(name, "duration_s") == 0 || strcmp(name, "s") == 0)
        return SC_SECONDS;
    if (strcmp(name, "result") == 0 || strcmp(name, "status") == 0)
        return SC_RESULT;
    return SC_OTHER;
}

/* The cells of one data row by the kind of their column (NULL or -1: no such column). */
struct row_cells {
    const char *target, *config, *suite, *result;
    int qcol, scol; /* the query's and the seconds' column */
};

/* The header row of t: the kind of each of its columns into kinds, their count into *ncols.
 * SUITE_OK, or SUITE_EFORMAT (d->err set) when it names no query or no seconds column. */
static int table_header(struct rd *d, const struct tbl *t, int *kinds, int *ncols)
{
    int has_q = 0, has_s = 0;
    *ncols = t->row.n;
    for (int i = 0; i < *ncols; i++) {
        char name[TBL_CELL_MAX];
        snprintf(name, sizeof name, "%s", t->row.cell[i]);
        tbl_normalise_name(name);
        kinds[i] = column_kind(name);
        has_q |= kinds[i] == SC_QUERY;
        has_s |= kinds[i] == SC_SECONDS;
    }
    if (!has_q || !has_s)
        return fail(d, t->row.line, SUITE_EFORMAT,
                    "the header names no %s column: expected query and seconds",
                    has_q ? "seconds" : "query");
    return SUITE_OK;
}

/* The cells of t's row by the kinds of the header's ncols columns. */
static void row_cells(const struct tbl *t, const int *kinds, int ncols, struct row_cells *c)
{
    *c = (struct row_cells){NULL, NULL, NULL, NULL, -1, -1};
    for (int i = 0; i < ncols; i++) {
        const char *cell = t->row.cell[i];
        switch (kinds[i]) {
        case SC_TARGET:
            c->target = cell;
            break;
        case SC_CONFIG:
            c->config = cell;
            break;
        case SC_SUITE:
            c->suite = cell;
            break;
        case SC_QUERY:
            c->qcol = i;
            break;
        case SC_SECONDS:
            c->scol = i;
            break;
        case SC_RESULT:
            c->result = cell;
            break;
        default:
            break;
        }
    }
}

/* The query of one data row (cells c) added to the run of its target and suite: its seconds, or
 * failed when its result says so or it has no time. SUITE_OK or an error (d->err set). */
static int table_row(struct rd *d, const struct tbl *t, const struct row_cells *c,
                     enum tbl_dialect dialect)
{
    const char *query = t->row.cell[c->qcol], *secs = t->row.cell[c->scol];
    struct suite_run *r;
    double sec = NAN;
    int failed;
    if (!query[0])
        return fail(d, t->row.line, SUITE_EPARSE, "column \"query\": expected a query name");
    failed = c->result && failed_word(c->result);
    if (secs[0] && strcmp(secs, "-") != 0) {
        if (tbl_number(secs, dialect != D_CSV, &sec) || sec < 0)
            return fail(d, t->row.line, SUITE_EPARSE,
                        "column \"seconds\": expected a number >= 0, found \"%.40s\"", secs);
    } else {
        failed = 1; /* no time: the query did not complete */
    }
    if (!(r = run_of(d, c->target ? c->target : c->config, c->suite, "table", t->row.line)) ||
        (c->config && *c->config && !r->config && set_str(&r->config, c->config)))
        return SUITE_ENOMEM;
    if (suite_find_query(r, query))
        return fail(d, t->row.line, SUITE_EPARSE,
                    "query \"%.40s\" of %s / %s twice: expected one row per query and run", query,
                    r->target, r->suite);
    if (push_query(r, query, sec, failed, c->result))
        return SUITE_ENOMEM;
    return SUITE_OK;
}

/* A table of query timings (dialect: CSV, TSV, Markdown, ...) in buf into d's runs: a header
 * naming query and seconds, then a row per query. SUITE_OK or an error (d->err set). */
static int read_table(struct rd *d, const char *buf, size_t len, enum tbl_dialect dialect)
{
    struct lines l;
    struct import_report rep;
    struct import_options io = {.format = IMPORT_AUTO};
    struct import_src src;
    struct tbl *t = calloc(1, sizeof *t);
    int kinds[TBL_MAX_COLS], ncols = 0, have_header = 0, rc;
    long header_line = 0;
    if (!t)
        return SUITE_ENOMEM;
    memset(&rep, 0, sizeof rep);
    lines_open_mem(&l, buf, len, d->name);
    src.lines = &l;
    src.name = d->name;
    src.path = NULL;
    src.opt = &io;
    src.report = &rep;
    src.empty_ok = 0;
    t->src = &src;
    t->d = dialect;
    for (;;) {
        int is_header = 0;
        struct row_cells c;
        rc = tbl_split_next(t, &t->row, &is_header);
        if (rc < 0) {
            snprintf(d->err, d->cap, "%s", rep.msg);
            rc = rc == IMPORT_ENOMEM ? SUITE_ENOMEM : SUITE_EPARSE;
            break;
        }
        if (rc == 0) {
            rc = have_header ? SUITE_OK
                             : fail(d, 0, SUITE_EFORMAT,
                                    "no header row: expected a header naming query and seconds");
            break;
        }
        if (is_header) {
            header_line = t->row.line;
            if ((rc = table_header(d, t, kinds, &ncols)) != SUITE_OK)
                break;
            have_header = 1;
            t->have_header = 1;
            continue;
        }
        if (t->row.n != ncols) {
            rc = fail(d, t->row.line, SUITE_EPARSE,
                      "expected %d cells as in the header (line %ld), found %d", ncols, header_line,
                      t->row.n);
            break;
        }
        row_cells(t, kinds, ncols, &c);
        if ((rc = table_row(d, t, &c, dialect)) != SUITE_OK)
            break;
    }
    table_close(t);
    lines_close(&l);
    return rc;
}

/* ---- tool outputs ---- */

/* go-tpc tpch "[Summary] Q1: 1.23s" and HammerDB TPROC-H "query 14 completed in 0.432
 * seconds" (with "Vuser N:" prefixes; "Completed N query set(s)" ends a set). */
static int tool_lines(struct rd *d, struct lines *lp);

static int read_tool_lines(struct rd *d, const char *buf, size_t len)
{
    struct lines l;
    int rc;
    lines_open_mem(&l, buf, len, d->name);
    rc = tool_lines(d, &l);
    lines_close(&l);
    return rc;
}

static int tool_lines(struct rd *d, struct lines *l)
{
    char err[400];
    struct suite_run *cur = NULL;
    int rc, any = 0;
    while ((rc = lines_next(l, err, sizeof err)) == 1) {
        const char *t = sblex_skip_ws(l->line), *v;
        double x;
        if ((v = sblex_after(t, "Vuser ")) && isdigit((unsigned char)*v)) {
            while (isdigit((unsigned char)*v))
                v++;
            if (*v == ':')
                t = sblex_skip_ws(v + 1);
        }
        if ((v = sblex_after(t, "[Summary] Q")) && isdigit((unsigned char)*v)) {
            char q[16];
            size_t n = 0;
            q[n++] = 'Q';
            while (isdigit((unsigned char)*v) && n + 1 < sizeof q)
                q[n++] = *v++;
            q[n] = '\0';
            if (sblex_lit(&v, ":") || sblex_num(&v, &x) || sblex_lit(&v, "s"))
                return fail(d, l->no, SUITE_EPARSE, "expected \"[Summary] Qn: Xs\"");
            if (!cur && !(cur = run_of(d, NULL, d->opt && d->opt->suite ? d->opt->suite : "tpch",
                                       "tool-output", l->no)))
                return SUITE_ENOMEM;
            if (!cur->tool && set_str(&cur->tool, "go-tpc"))
                return SUITE_ENOMEM;
            if (suite_find_query(cur, q))
                continue; /* a later summary of the same query: the first is kept */
            if (push_query(cur, q, x, 0, NULL))
                return SUITE_ENOMEM;
            any = 1;
        } else if ((v = sblex_after(t, "query ")) && isdigit((unsigned char)*v)) {
            char q[16];
            size_t n = 0;
            q[n++] = 'Q';
            while (isdigit((unsigned char)*v) && n + 1 < sizeof q)
                q[n++] = *v++;
            q[n] = '\0';
            if (sblex_lit(&v, "completed in"))
                continue; /* "query 14 returned N rows" */
            if (sblex_num(&v, &x) || sblex_lit(&v, "seconds"))
                return fail(d, l->no, SUITE_EPARSE, "expected \"query N completed in X seconds\"");
            if (!cur) {
                /* each query set is a run of its own */
                char bn[256];
                const char *tg =
                    d->opt && d->opt->target ? d->opt->target : base_name(d->name, bn, sizeof bn);
                if (!(cur = push_run(d->out)) || set_str(&cur->target, tg) ||
                    set_str(&cur->suite, d->opt && d->opt->suite ? d->opt->suite : "tproch") ||
                    set_str(&cur->source_kind, "tool-output") ||
                    set_str(&cur->source_file, d->name) || set_str(&cur->tool, "HammerDB"))
                    return SUITE_ENOMEM;
                cur->source_line = l->no;
            }
            if (push_query(cur, q, x, 0, NULL))
                return SUITE_ENOMEM;
            any = 1;
        } else if (sblex_after(t, "Completed ") && strstr(t, "query set")) {
            cur = NULL;
        }
    }
    if (rc < 0)
        return fail(d, -1, SUITE_EPARSE, "%s", err);
    return any ? SUITE_OK
               : fail(d, 0, SUITE_EFORMAT,
                      "no query timings: expected \"[Summary] Qn: Xs\" or \"query N completed in "
                      "X seconds\" lines");
}

/* ---- sizeup.suite/1 JSON Lines ---- */

static int only_keys(const json_t *o, const char *const *keys, const char **bad)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v)
    {
        int ok = 0;
        for (const char *const *p = keys; *p; p++)
            ok |= strcmp(*p, k) == 0;
        if (!ok) {
            *bad = k;
            return -1;
        }
    }
    return 0;
}

static int jsonl_lines(struct rd *d, struct lines *l);

static int read_jsonl(struct rd *d, const char *buf, size_t len)
{
    struct lines l;
    int rc;
    lines_open_mem(&l, buf, len, d->name);
    rc = jsonl_lines(d, &l);
    lines_close(&l);
    return rc;
}

static int jsonl_lines(struct rd *d, struct lines *l)
{
    static const char *const keys[] = {"schema",  "target",  "config",    "suite",
                                       "queries", "total_s", "n_queries", "n_failed",
                                       "tool",    "source",  NULL};
    static const char *const qkeys[] = {"query", "seconds", "failed", "result", NULL};
    char err[400];
    int rc;
    while ((rc = lines_next(l, err, sizeof err)) == 1) {
        json_error_t jerr;
        json_t *o, *qs, *q, *v;
        const char *bad = NULL;
        struct suite_run *r;
        size_t i;
        if (!*sblex_skip_ws(l->line))
            continue;
        o = json_loadb(l->line, l->line_len, JSON_REJECT_DUPLICATES, &jerr);
        if (!o)
            return fail(d, -1, SUITE_EPARSE, "%s:%ld:%d: invalid JSON: %s", d->name, l->no,
                        jerr.column, jerr.text);
#define BAD(...)                                                                                   \
    do {                                                                                           \
        int bad_rc = fail(d, l->no, SUITE_EPARSE, __VA_ARGS__); /* before o goes */                \
        json_decref(o);                                                                            \
        return bad_rc;                                                                             \
    } while (0)
        v = json_object_get(o, "schema");
        if (!json_is_object(o) || !json_is_string(v) ||
            strcmp(json_string_value(v), SUITE_SCHEMA) != 0)
            BAD("expected a %s record", SUITE_SCHEMA);
        if (only_keys(o, keys, &bad))
            BAD("key \"%s\" is not part of %s (misspelt?)", bad, SUITE_SCHEMA);
        if (!json_is_string(json_object_get(o, "target")) ||
            !json_is_string(json_object_get(o, "suite")))
            BAD("keys \"target\" and \"suite\": expected strings (required)");
        qs = json_object_get(o, "queries");
        if (!json_is_array(qs))
            BAD("key \"queries\": expected an array of {\"query\", \"seconds\"}");
        if (!(r = push_run(d->out)) ||
            set_str(&r->target, json_string_value(json_object_get(o, "target"))) ||
            set_str(&r->suite, json_string_value(json_object_get(o, "suite"))) ||
            set_str(&r->source_file, d->name) || set_str(&r->source_kind, "table")) {
            json_decref(o);
            return SUITE_ENOMEM;
        }
        r->source_line = l->no;
        if (json_is_string(json_object_get(o, "config")) &&
            set_str(&r->config, json_string_value(json_object_get(o, "config"))))
            BAD("out of memory");
        if (json_is_string(json_object_get(o, "tool")) &&
            set_str(&r->tool, json_string_value(json_object_get(o, "tool"))))
            BAD("out of memory");
        if (json_is_object(json_object_get(o, "source"))) {
            json_t *src = json_object_get(o, "source");
            if (json_is_string(json_object_get(src, "kind")) &&
                set_str(&r->source_kind, json_string_value(json_object_get(src, "kind"))))
                BAD("out of memory");
            if (json_is_string(json_object_get(src, "file")) &&
                set_str(&r->source_file, json_string_value(json_object_get(src, "file"))))
                BAD("out of memory");
            if (json_is_integer(json_object_get(src, "line")))
                r->source_line = (long)json_integer_value(json_object_get(src, "line"));
        }
        json_array_foreach(qs, i, q)
        {
            const json_t *name = json_object_get(q, "query"), *sec = json_object_get(q, "seconds");
            const json_t *failed = json_object_get(q, "failed"),
                         *res = json_object_get(q, "result");
            if (!json_is_object(q) || only_keys(q, qkeys, &bad) || !json_is_string(name) ||
                (sec && (!json_is_number(sec) || json_number_value(sec) < 0)) ||
                (failed && !json_is_boolean(failed)) || (res && !json_is_string(res)) ||
                (!sec && !json_is_true(failed)))
                BAD("queries[%zu]: expected {\"query\": name, \"seconds\": s >= 0} (seconds may "
                    "be left out only with \"failed\": true)",
                    i);
            if (push_query(r, json_string_value(name), sec ? json_number_value(sec) : NAN,
                           json_is_true(failed), res ? json_string_value(res) : NULL))
                BAD("out of memory");
        }
#undef BAD
        json_decref(o);
    }
    if (rc < 0)
        return fail(d, -1, SUITE_EPARSE, "%s", err);
    return d->out->n > d->first ? SUITE_OK
                                : fail(d, 0, SUITE_EFORMAT, "no %s records", SUITE_SCHEMA);
}

/* ---- detection and entry points ---- */

static int looks_jsonl(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && isspace((unsigned char)buf[i]))
        i++;
    if (i >= len || buf[i] != '{')
        return 0;
    for (size_t j = i; j + 16 <= len && buf[j] != '\n'; j++)
        if (memcmp(buf + j, "\"sizeup.suite/", 14) == 0)
            return 1;
    return 0;
}

static int looks_tool(const char *buf, size_t len)
{
    for (size_t i = 0; i + 20 < len; i++) {
        if (memcmp(buf + i, "[Summary] Q", 11) == 0 && isdigit((unsigned char)buf[i + 11]))
            return 1;
        if (memcmp(buf + i, "query ", 6) == 0 && isdigit((unsigned char)buf[i + 6])) {
            const char *e = memchr(buf + i, '\n', len - i);
            size_t n = e ? (size_t)(e - (buf + i)) : len - i;
            for (size_t k = 0; k + 13 < n; k++)
                if (memcmp(buf + i + k, " completed in ", 14) == 0)
                    return 1;
        }
    }
    return 0;
}

/* The dialect of a suite table: a header naming query and seconds. -1 when none. */
static int table_dialect(const char *buf, size_t len)
{
    size_t i = 0;
    /* the first line that is not blank or a comment */
    while (i < len) {
        size_t e = i, p = i;
        while (e < len && buf[e] != '\n')
            e++;
        while (p < e && isspace((unsigned char)buf[p]))
            p++;
        if (p < e && buf[p] != '#') {
            char line[1024];
            size_t n = e - p < sizeof line - 1 ? e - p : sizeof line - 1;
            char *s, *save = NULL;
            int q = 0, sec = 0;
            memcpy(line, buf + p, n);
            line[n] = '\0';
            for (s = line; *s; s++)
                *s = (char)tolower((unsigned char)*s);
            for (char *tok = strtok_r(line, ",\t| \r", &save); tok;
                 tok = strtok_r(NULL, ",\t| \r", &save)) {
                q |= strcmp(tok, "query") == 0;
                sec |= column_kind(tok) == SC_SECONDS;
            }
            if (!q || !sec)
                return -1;
            if (buf[p] == '|')
                return D_MARKDOWN;
            if (memchr(buf + p, '\t', e - p))
                return D_TSV;
            return D_CSV;
        }
        i = e + 1;
    }
    return -1;
}

int suite_detect(const char *buf, size_t len)
{
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        buf += 3;
        len -= 3;
    }
    return looks_jsonl(buf, len) || table_dialect(buf, len) >= 0 || looks_tool(buf, len);
}

int suite_read_buffer(const char *buf, size_t len, const char *name,
                      const struct suite_options *opt, struct suite_list *out, char *err,
                      size_t cap)
{
    struct rd d = {name ? name : "<input>", opt, out, out->n, err, cap};
    int rc, dialect;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
        buf += 3;
        len -= 3;
    }
    if (looks_jsonl(buf, len))
        rc = read_jsonl(&d, buf, len);
    else if ((dialect = table_dialect(buf, len)) >= 0)
        rc = read_table(&d, buf, len, (enum tbl_dialect)dialect);
    else if (looks_tool(buf, len))
        rc = read_tool_lines(&d, buf, len);
    else
        rc = fail(&d, 1, SUITE_EFORMAT,
                  "no suite timings: expected a table with query and seconds columns, %s "
                  "records, go-tpc tpch or HammerDB TPROC-H output",
                  SUITE_SCHEMA);
    if (rc == SUITE_ENOMEM)
        fail(&d, 0, rc, "out of memory");
    if (rc != SUITE_OK)
        truncate_list(out, d.first);
    return rc;
}

int suite_read_file(const char *path, const struct suite_options *opt, struct suite_list *out,
                    char *err, size_t cap)
{
    char *buf;
    size_t len;
    int rc = readfile(path, SUITE_MAX_BYTES, &buf, &len, err, cap);
    if (rc != READFILE_OK)
        return rc == READFILE_ENOMEM    ? SUITE_ENOMEM
               : rc == READFILE_ETOOBIG ? SUITE_EFORMAT
                                        : SUITE_EIO;
    {
        size_t first = out->n;
        const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
        rc = suite_read_buffer(buf, len, name, opt, out, err, cap);
        /* the names reach terminals and reports: none with a control character (issue 27.5) */
        for (size_t i = first; rc == SUITE_OK && i < out->n; i++) {
            const struct suite_run *r = &out->items[i];
            const char *bad = textsafe_control_at(r->target) >= 0   ? r->target
                              : textsafe_control_at(r->config) >= 0 ? r->config
                              : textsafe_control_at(r->suite) >= 0  ? r->suite
                                                                    : NULL;
            for (size_t k = 0; !bad && k < r->n_q; k++)
                if (textsafe_control_at(r->q[k].name) >= 0)
                    bad = r->q[k].name;
            if (bad) {
                char vis[160], nm[300];
                snprintf(err, cap, "%s:%ld: a name with a control character, '%s': remove it",
                         textsafe_visible(name, nm, sizeof nm), r->source_line,
                         textsafe_visible(bad, vis, sizeof vis));
                rc = SUITE_EPARSE;
            }
        }
        if (rc == SUITE_EPARSE) /* the file is refused whole: none of its runs is kept */
            while (out->n > first)
                run_free(&out->items[--out->n]);
    }
    free(buf);
    return rc;
}

/* ---- writer ---- */

json_t *suite_to_json(const struct suite_run *s)
{
    json_t *o = json_object(), *qs = json_array(), *src = json_object();
    int rc = 0;
    if (!o || !qs || !src)
        goto fail;
    for (size_t i = 0; i < s->n_q; i++) {
        const struct suite_query *q = &s->q[i];
        json_t *j = json_object();
        if (!j)
            goto fail;
        rc |= json_object_set_new(j, "query", point_json_string(q->name));
        if (!isnan(q->seconds))
            rc |= json_object_set_new(j, "seconds", json_real(q->seconds));
        if (q->failed)
            rc |= json_object_set_new(j, "failed", json_true());
        if (q->result)
            rc |= json_object_set_new(j, "result", point_json_string(q->result));
        rc |= json_array_append_new(qs, j);
    }
    rc |= json_object_set_new(o, "schema", json_string(SUITE_SCHEMA));
    rc |= json_object_set_new(o, "target", point_json_string(s->target));
    rc |= json_object_set_new(o, "config", s->config ? point_json_string(s->config) : json_null());
    rc |= json_object_set_new(o, "suite", point_json_string(s->suite));
    rc |= json_object_set_new(o, "queries", qs);
    qs = NULL;
    rc |= json_object_set_new(o, "total_s", json_real(suite_total_s(s)));
    rc |= json_object_set_new(o, "n_queries", json_integer((json_int_t)s->n_q));
    rc |= json_object_set_new(o, "n_failed", json_integer((json_int_t)suite_failed(s)));
    if (s->tool)
        rc |= json_object_set_new(o, "tool", point_json_string(s->tool));
    rc |= json_object_set_new(src, "kind", json_string(s->source_kind ? s->source_kind : "table"));
    if (s->source_file)
        rc |= json_object_set_new(src, "file", point_json_string(s->source_file));
    if (s->source_line > 0)
        rc |= json_object_set_new(src, "line", json_integer(s->source_line));
    rc |= json_object_set_new(o, "source", src);
    src = NULL;
    if (rc)
        goto fail;
    return o;
fail:
    json_decref(qs);
    json_decref(src);
    json_decref(o);
    return NULL;
}

int suite_write(FILE *f, const struct suite_run *s, char *err, size_t cap)
{
    json_t *o = suite_to_json(s);
    char *line;
    size_t len;
    int rc = 0;
    if (!o) {
        snprintf(err, cap, "out of memory while writing a suite record");
        return -1;
    }
    line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(o);
    if (!line) {
        snprintf(err, cap, "out of memory while writing a suite record");
        return -1;
    }
    len = strlen(line);
    line[len] = '\n';
    if (append_whole_stream(f, line, len + 1) != 0) {
        snprintf(err, cap, "cannot write a suite record: %s", strerror(errno ? errno : EIO));
        rc = -1;
    }
    free(line);
    return rc;
}
