/* table_csv.c - CSV tables of benchmark results (the CSV files in data/published) -> point records.
 */
#include "table_csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64
#define CELL_MAX 256

struct row {
    int n;
    char cell[MAX_COLS][CELL_MAX];
};

struct cursor {
    const char *buf;
    size_t len, pos;
    long line; /* line number of the row being read */
};

static void msg(struct import_report *rep, const char *name, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void msg(struct import_report *rep, const char *name, long line, const char *fmt, ...)
{
    char body[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(rep->msg, sizeof rep->msg, "%s:%ld: %s", name, line, body);
    else
        snprintf(rep->msg, sizeof rep->msg, "%s: %s", name, body);
}

static void trim(char *s)
{
    size_t n = strlen(s), i = 0;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

/* Skip blank and '#' lines. Returns 1 at the start of a data line, 0 at end of input. */
static int skip_comments(struct cursor *c)
{
    while (c->pos < c->len) {
        size_t p = c->pos;
        while (p < c->len && (c->buf[p] == ' ' || c->buf[p] == '\t'))
            p++;
        if (p < c->len && c->buf[p] != '#' && c->buf[p] != '\n' && c->buf[p] != '\r')
            return 1;
        while (p < c->len && c->buf[p] != '\n')
            p++;
        c->pos = p + 1;
        c->line++;
    }
    return 0;
}

/* Read one record (may span lines inside quotes). Returns 0, or -1 with *why set. */
static int read_row(struct cursor *c, struct row *r, const char **why)
{
    size_t n = 0;
    int quoted = 0, was_quoted = 0;
    r->n = 0;
    r->cell[0][0] = '\0';
    while (c->pos < c->len) {
        char ch = c->buf[c->pos++];
        if (quoted) {
            if (ch == '"') {
                if (c->pos < c->len && c->buf[c->pos] == '"') {
                    c->pos++;
                } else {
                    quoted = 0;
                    continue;
                }
            }
            if (ch == '\n')
                c->line++;
        } else if (ch == '"' && !was_quoted && n == 0) {
            quoted = was_quoted = 1;
            continue;
        } else if (ch == ',' || ch == '\n' || ch == '\r') {
            if (ch == '\r' && c->pos < c->len && c->buf[c->pos] != '\n') {
                *why = "lines ending in LF or CRLF (a lone carriage return was found)";
                return -1;
            }
            if (ch == '\r')
                continue;
            r->cell[r->n][n] = '\0';
            if (!was_quoted)
                trim(r->cell[r->n]);
            r->n++;
            n = 0;
            was_quoted = 0;
            if (ch == '\n') {
                c->line++;
                return 0;
            }
            if (r->n >= MAX_COLS) {
                *why = "at most 64 columns";
                return -1;
            }
            r->cell[r->n][0] = '\0';
            continue;
        } else if (was_quoted && ch != ' ' && ch != '\t') {
            *why = "a comma after a closing quote";
            return -1;
        }
        if (ch == '\0') {
            *why = "text without NUL bytes";
            return -1;
        }
        if (n + 1 >= CELL_MAX) {
            *why = "cells shorter than 256 bytes";
            return -1;
        }
        r->cell[r->n][n++] = ch;
    }
    if (quoted) {
        *why = "a closing double quote";
        return -1;
    }
    r->cell[r->n][n] = '\0';
    if (!was_quoted)
        trim(r->cell[r->n]);
    r->n++;
    c->line++;
    return 0;
}

static int parse_number(const char *s, double *out)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(*out))
        return -1;
    for (const char *p = s; *p; p++)
        if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' ||
              *p == 'E'))
            return -1;
    return 0;
}

enum col_kind {
    C_EXTRA,
    C_TARGET,
    C_CONFIG,
    C_WORKLOAD,
    C_THREADS,
    C_NODES,
    C_TPS,
    C_QPS,
    C_DURATION,
    C_AVG,
    C_MIN,
    C_MAX,
    C_PCT,
    C_TPMC,
    C_TPM_TOTAL,
    C_FLAG
};

struct col {
    enum col_kind kind;
    double pct;
    char name[CELL_MAX];
};

static void classify(struct col *c)
{
    static const struct {
        const char *name;
        enum col_kind kind;
    } known[] = {{"target", C_TARGET},
                 {"config", C_CONFIG},
                 {"workload", C_WORKLOAD},
                 {"threads", C_THREADS},
                 {"nodes", C_NODES},
                 {"tps", C_TPS},
                 {"qps", C_QPS},
                 {"duration_s", C_DURATION},
                 {"avg_latency_ms", C_AVG},
                 {"min_latency_ms", C_MIN},
                 {"max_latency_ms", C_MAX},
                 {"tpmc", C_TPMC},
                 {"tpm_total", C_TPM_TOTAL},
                 {"flag", C_FLAG},
                 {NULL, C_EXTRA}};
    size_t n = strlen(c->name);
    c->kind = C_EXTRA;
    for (int i = 0; known[i].name; i++)
        if (strcmp(c->name, known[i].name) == 0) {
            c->kind = known[i].kind;
            return;
        }
    /* pNN_ms */
    if (n > 4 && c->name[0] == 'p' && strcmp(c->name + n - 3, "_ms") == 0) {
        char num[64];
        double v;
        if (n - 4 < sizeof num) {
            memcpy(num, c->name + 1, n - 4);
            num[n - 4] = '\0';
            if (parse_number(num, &v) == 0 && v > 0 && v <= 100) {
                c->kind = C_PCT;
                c->pct = v;
            }
        }
    }
}

static int set_extra(struct point *p, const char *key, json_t *v)
{
    if (!v)
        return -1;
    if (!p->extra && !(p->extra = json_object())) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(p->extra, key, v);
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

/* Fill one point from one row. Returns IMPORT_OK, IMPORT_EPARSE (report set), IMPORT_ENOMEM. */
static int fill_point(struct point *p, const struct col *cols, const struct row *r, int has_tps,
                      const char *name, long line, const struct import_options *opt,
                      struct import_report *rep)
{
    char bn[256];
    double tpm_total = NAN;
    for (int i = 0; i < r->n; i++) {
        const char *cell = r->cell[i];
        const struct col *c = &cols[i];
        double v = NAN;
        int rc = 0;
        int numeric = c->kind != C_EXTRA && c->kind != C_TARGET && c->kind != C_CONFIG &&
                      c->kind != C_WORKLOAD && c->kind != C_FLAG && c->kind != C_NODES;
        if (numeric && (parse_number(cell, &v) != 0 || v < 0)) {
            msg(rep, name, line, "column \"%s\": expected a number >= 0, found \"%.40s\"", c->name,
                cell);
            return IMPORT_EPARSE;
        }
        switch (c->kind) {
        case C_TARGET:
        case C_CONFIG:
        case C_WORKLOAD:
            if (!*cell) {
                if (c->kind == C_CONFIG)
                    break;
                msg(rep, name, line, "column \"%s\": expected a name, found an empty cell",
                    c->name);
                return IMPORT_EPARSE;
            }
            rc = point_set_str(c->kind == C_TARGET   ? &p->target
                               : c->kind == C_CONFIG ? &p->config
                                                     : &p->workload,
                               cell);
            break;
        case C_THREADS:
            if (v < 1 || v != floor(v) || v > 1e9) {
                msg(rep, name, line, "column \"threads\": expected an integer > 0, found \"%.40s\"",
                    cell);
                return IMPORT_EPARSE;
            }
            p->threads = (int64_t)v;
            break;
        case C_NODES:
            if (parse_number(cell, &v) == 0 && v >= 1 && v == floor(v) && v <= 1e9)
                p->nodes = (int64_t)v;
            else if (*cell)
                rc = set_extra(p, "nodes", point_json_string(cell));
            else {
                msg(rep, name, line,
                    "column \"nodes\": expected a node count, found an empty cell");
                return IMPORT_EPARSE;
            }
            break;
        case C_TPS:
            p->tps = v;
            break;
        case C_QPS:
            p->qps = v;
            break;
        case C_DURATION:
            p->duration_s = v;
            break;
        case C_AVG:
            p->latency_ms.avg = v;
            break;
        case C_MIN:
            p->latency_ms.min = v;
            break;
        case C_MAX:
            p->latency_ms.max = v;
            break;
        case C_PCT:
            if (point_set_percentile(p, c->pct, v)) {
                msg(rep, name, line, "column \"%s\": too many percentile columns", c->name);
                return IMPORT_EPARSE;
            }
            break;
        case C_TPMC:
            rc = set_extra(p, "tpmc", json_real(v));
            break;
        case C_TPM_TOTAL:
            tpm_total = v;
            rc = set_extra(p, "tpm_total", json_real(v));
            break;
        case C_FLAG:
            if (*cell)
                rc = point_add_flag(p, cell);
            break;
        case C_EXTRA:
            if (parse_number(cell, &v) == 0)
                rc = set_extra(p, c->name, json_real(v));
            else
                rc = set_extra(p, c->name, point_json_string(cell));
            break;
        }
        if (rc)
            goto nomem;
    }
    if (p->threads <= 0 && p->nodes <= 0) {
        msg(rep, name, line, "expected a \"threads\" or \"nodes\" column with a count > 0");
        return IMPORT_EPARSE;
    }
    if (!has_tps && !isnan(tpm_total)) {
        p->tps = tpm_total / 60.0;
        if (point_add_flag(p, "tps_from_tpm_total"))
            goto nomem;
    }
    if (!p->workload) {
        const char *w = opt && opt->workload ? opt->workload : import_workload_from_name(name);
        if (point_set_str(&p->workload, w ? w : "unknown"))
            goto nomem;
    }
    if (!p->target &&
        point_set_str(&p->target,
                      opt && opt->target ? opt->target : base_name(name, bn, sizeof bn)))
        goto nomem;
    p->source_kind = POINT_SRC_TABLE;
    p->source_line = line;
    if (point_set_str(&p->source_file, name))
        goto nomem;
    return IMPORT_OK;
nomem:
    msg(rep, name, 0, "out of memory");
    return IMPORT_ENOMEM;
}

int table_csv_parse(const char *buf, size_t len, const char *name, const struct import_options *opt,
                    struct point_list *out, struct import_report *report)
{
    struct cursor c = {buf, len, 0, 1};
    struct row *r = malloc(sizeof *r);
    struct col *cols = malloc(MAX_COLS * sizeof *cols);
    const char *why = NULL;
    size_t first = out->n;
    int ncols, has_tps = 0, rc = IMPORT_OK;
    long header_line;

    name = name ? name : "<input>";
    report->msg[0] = '\0';
    report->n_points = report->n_incomplete = 0;
    if (!r || !cols) {
        free(r);
        free(cols);
        msg(report, name, 0, "out of memory");
        return IMPORT_ENOMEM;
    }
    if (!skip_comments(&c)) {
        msg(report, name, 0,
            "no header row: expected a CSV header such as "
            "\"target,workload,threads,tps\"");
        rc = IMPORT_EFORMAT;
        goto done;
    }
    header_line = c.line;
    if (read_row(&c, r, &why)) {
        msg(report, name, header_line, "header row: expected %s", why);
        rc = IMPORT_EPARSE;
        goto done;
    }
    ncols = r->n;
    for (int i = 0; i < ncols; i++) {
        snprintf(cols[i].name, sizeof cols[i].name, "%s", r->cell[i]);
        for (char *ch = cols[i].name; *ch; ch++) { /* names match case-insensitively */
            if ((unsigned char)*ch < 32 || (unsigned char)*ch > 126)
                *ch = '?'; /* keys of extra must be valid UTF-8 */
            else
                *ch = (char)tolower((unsigned char)*ch);
        }
        if (!cols[i].name[0]) {
            msg(report, name, header_line, "header column %d is empty: expected a column name",
                i + 1);
            rc = IMPORT_EPARSE;
            goto done;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(cols[j].name, cols[i].name) == 0) {
                msg(report, name, header_line, "header names column \"%s\" twice", cols[i].name);
                rc = IMPORT_EPARSE;
                goto done;
            }
        classify(&cols[i]);
        if (cols[i].kind == C_TPS)
            has_tps = 1;
    }
    while (skip_comments(&c)) {
        long line = c.line;
        struct point *p;
        if (read_row(&c, r, &why)) {
            msg(report, name, line, "expected %s", why);
            rc = IMPORT_EPARSE;
            goto done;
        }
        if (r->n != ncols) {
            msg(report, name, line, "expected %d cells as in the header (line %ld), found %d",
                ncols, header_line, r->n);
            rc = IMPORT_EPARSE;
            goto done;
        }
        p = point_list_push(out);
        if (!p) {
            msg(report, name, 0, "out of memory");
            rc = IMPORT_ENOMEM;
            goto done;
        }
        rc = fill_point(p, cols, r, has_tps, name, line, opt, report);
        if (rc)
            goto done;
    }
    if (out->n == first) {
        msg(report, name, 0, "the table has a header but no data rows");
        rc = IMPORT_EFORMAT;
        goto done;
    }
    report->n_points = out->n - first;
done:
    if (rc != IMPORT_OK)
        point_list_truncate(out, first);
    free(r);
    free(cols);
    return rc;
}

int table_csv_detect(const char *buf, size_t len)
{
    struct cursor c = {buf, len, 0, 1};
    size_t end;
    int commas = 0, known = 0;
    char tok[64];
    size_t tn = 0;
    if (!skip_comments(&c))
        return 0;
    end = c.pos;
    while (end < len && buf[end] != '\n')
        end++;
    for (size_t i = c.pos; i <= end; i++) {
        char ch = i < end ? buf[i] : ',';
        if (ch == '\r')
            continue;
        if (ch == ',') {
            tok[tn] = '\0';
            if (strcmp(tok, "threads") == 0 || strcmp(tok, "nodes") == 0 ||
                strcmp(tok, "tps") == 0 || strcmp(tok, "qps") == 0 || strcmp(tok, "workload") == 0)
                known = 1;
            if (i < end)
                commas++;
            tn = 0;
            continue;
        }
        if (ch == ' ' || ch == '"')
            continue;
        if (!(isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '%'))
            return 0;
        if (tn + 1 < sizeof tok)
            tok[tn++] = (char)tolower((unsigned char)ch);
    }
    return commas >= 1 && known;
}
