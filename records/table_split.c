/* table_split.c - the dialects of the table reader: how lines become rows of cells in CSV, TSV,
 * Markdown and gnuplot files, which row is the header, the column names it knows, and how each
 * dialect is recognised (table.h, table_int.h). A helper of table.c that calls nothing in it. */
#include "table.h"
#include "table_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tbl_number(const char *s, int thousands, double *out)
{
    char buf[TBL_CELL_MAX];
    char *end;
    size_t n = 0;
    if (!*s)
        return -1;
    if (thousands && strchr(s, ',')) {
        /* "1,234,567.5": groups of three digits after the first comma */
        const char *p = s;
        int digits = 0;
        while (*p && *p != '.' && n + 1 < sizeof buf) {
            if (*p == ',') {
                if (digits == 0 ||
                    (p[1] && !(isdigit((unsigned char)p[1]) && isdigit((unsigned char)p[2]) &&
                               isdigit((unsigned char)p[3]) &&
                               (p[4] == ',' || p[4] == '.' || p[4] == '\0'))))
                    return -1;
            } else {
                buf[n++] = *p;
                digits++;
            }
            p++;
        }
        while (*p && n + 1 < sizeof buf)
            buf[n++] = *p++;
        buf[n] = '\0';
        s = buf;
    }
    for (const char *p = s; *p; p++)
        if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' ||
              *p == 'E'))
            return -1;
    errno = 0;
    *out = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(*out))
        return -1;
    return 0;
}

void tbl_trim_label(char *dst, size_t cap, const char *cell)
{
    size_t n = strlen(cell), i = 0, o = 0;
    while (n > 0 && (cell[n - 1] == ' ' || cell[n - 1] == '\t'))
        n--;
    while (i < n && (cell[i] == ' ' || cell[i] == '\t'))
        i++;
    for (; i < n && o + 1 < cap; i++)
        dst[o++] = cell[i];
    dst[o] = '\0';
}

void tbl_normalise_name(char *s)
{
    size_t n = strlen(s), i = 0, o = 0;
    char *ms;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 32 || c > 126)
            s[o++] = '?'; /* keys of extra must be valid UTF-8 */
        else
            s[o++] = (char)tolower(c);
    }
    s[o] = '\0';
    /* "p95 (ms)" -> "p95_ms", "avg latency (ms)" -> "avg_latency_ms" */
    if ((ms = strstr(s, " (ms)")) && ms[5] == '\0')
        memcpy(ms, "_ms", 4);
    else if ((ms = strstr(s, "(ms)")) && ms[4] == '\0' && ms > s)
        memcpy(ms, "_ms", 4);
    for (char *c = s; *c; c++)
        if (*c == ' ')
            *c = '_';
}

static const struct {
    const char *name;
    enum col_kind kind;
} known_cols[] = {{"target", C_TARGET},
                  {"config", C_CONFIG},
                  {"workload", C_WORKLOAD},
                  {"threads", C_THREADS},
                  {"thds", C_THREADS},
                  {"clients", C_THREADS},
                  {"connections", C_THREADS},
                  {"concurrency", C_THREADS},
                  {"users", C_THREADS},
                  {"vus", C_THREADS},
                  {"nodes", C_NODES},
                  {"tps", C_TPS},
                  {"qps", C_QPS},
                  {"duration_s", C_DURATION},
                  {"avg_latency_ms", C_AVG},
                  {"latency_avg_ms", C_AVG},
                  {"avg_ms", C_AVG},
                  {"min_latency_ms", C_MIN},
                  {"max_latency_ms", C_MAX},
                  {"tpmc", C_TPMC},
                  {"tpm_total", C_TPM_TOTAL},
                  {"flag", C_FLAG},
                  {NULL, C_EXTRA}};

void tbl_classify(struct tbl_col *c)
{
    size_t n = strlen(c->name);
    c->kind = C_EXTRA;
    for (int i = 0; known_cols[i].name; i++)
        if (strcmp(c->name, known_cols[i].name) == 0) {
            c->kind = known_cols[i].kind;
            return;
        }
    /* pNN_ms */
    if (n > 4 && c->name[0] == 'p' && strcmp(c->name + n - 3, "_ms") == 0) {
        char num[64];
        double v;
        if (n - 4 < sizeof num) {
            memcpy(num, c->name + 1, n - 4);
            num[n - 4] = '\0';
            if (tbl_number(num, 0, &v) == 0 && v > 0 && v <= 100) {
                c->kind = C_PCT;
                c->pct = v;
            }
        }
    }
}

int tbl_known_name(const char *name)
{
    struct tbl_col c;
    snprintf(c.name, sizeof c.name, "%s", name);
    tbl_classify(&c);
    return c.kind == C_THREADS || c.kind == C_NODES || c.kind == C_TPS || c.kind == C_QPS ||
           c.kind == C_WORKLOAD;
}

static void trim_cell(char *s)
{
    size_t n = strlen(s), i = 0;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

static int blank_or_comment(const char *s, int hash)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0' || (hash && *s == '#');
}

/* Add a cell of n bytes to r. 0, or -1 with *why set. */
static int add_cell(struct tbl_row *r, const char *s, size_t n, int trim, const char **why)
{
    if (r->n >= TBL_MAX_COLS) {
        *why = "at most 64 columns";
        return -1;
    }
    if (n >= TBL_CELL_MAX) {
        *why = "cells shorter than 256 bytes";
        return -1;
    }
    memcpy(r->cell[r->n], s, n);
    r->cell[r->n][n] = '\0';
    if (trim)
        trim_cell(r->cell[r->n]);
    r->n++;
    return 0;
}

/* One CSV record starting at the current line (a quoted cell may continue on the next lines). */
static int csv_row(struct tbl *t, struct tbl_row *r)
{
    struct lines *l = t->src->lines;
    char cell[TBL_CELL_MAX];
    size_t n = 0, pos = 0;
    int quoted = 0, was_quoted = 0, rc;
    const char *why = NULL;
    r->n = 0;
    r->line = l->no;
    for (;;) {
        char ch;
        if (pos == l->line_len) {
            if (quoted) {
                if ((rc = import_read_line(t->src)) < 0)
                    return rc;
                if (rc == 0) {
                    why = "a closing double quote";
                    goto bad;
                }
                pos = 0;
                if (n + 1 >= sizeof cell) {
                    why = "cells shorter than 256 bytes";
                    goto bad;
                }
                cell[n++] = '\n';
                continue;
            }
            break;
        }
        ch = l->line[pos++];
        if (quoted) {
            if (ch == '"') {
                if (pos < l->line_len && l->line[pos] == '"') {
                    pos++;
                } else {
                    quoted = 0;
                    continue;
                }
            }
        } else if (ch == '"' && !was_quoted && n == 0) {
            quoted = was_quoted = 1;
            continue;
        } else if (ch == ',') {
            if (add_cell(r, cell, n, !was_quoted, &why))
                goto bad;
            n = 0;
            was_quoted = 0;
            continue;
        } else if (ch == '\r') {
            why = "lines ending in LF or CRLF (a lone carriage return was found)";
            goto bad;
        } else if (was_quoted && ch != ' ' && ch != '\t') {
            why = "a comma after a closing quote";
            goto bad;
        } else if (was_quoted) {
            continue;
        }
        if (ch == '\0') {
            why = "text without NUL bytes";
            goto bad;
        }
        if (n + 1 >= sizeof cell) {
            why = "cells shorter than 256 bytes";
            goto bad;
        }
        cell[n++] = ch;
    }
    if (add_cell(r, cell, n, !was_quoted, &why))
        goto bad;
    return 1;
bad:
    import_diag(t->src, IMPORT_ERROR, r->line, "expected %s", why);
    return IMPORT_EPARSE;
}

/* Cells split at sep (tab, or '|' for Markdown). */
static int split_row(struct tbl *t, const char *s, size_t len, char sep, struct tbl_row *r)
{
    const char *why = NULL;
    size_t start = 0;
    r->n = 0;
    r->line = t->src->lines->no;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] == '\0') {
            why = "text without NUL bytes";
            break;
        }
        if (i == len || s[i] == sep) {
            if (add_cell(r, s + start, i - start, 1, &why))
                break;
            start = i + 1;
        }
    }
    if (why) {
        import_diag(t->src, IMPORT_ERROR, r->line, "expected %s", why);
        return IMPORT_EPARSE;
    }
    return 1;
}

/* Cells separated by blanks and tabs (gnuplot). */
static int split_ws(struct tbl *t, const char *s, struct tbl_row *r)
{
    const char *why = NULL;
    r->n = 0;
    r->line = t->src->lines->no;
    for (;;) {
        size_t n = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        while (s[n] && s[n] != ' ' && s[n] != '\t')
            n++;
        if (add_cell(r, s, n, 1, &why)) {
            import_diag(t->src, IMPORT_ERROR, r->line, "expected %s", why);
            return IMPORT_EPARSE;
        }
        s += n;
    }
    return 1;
}

/* Markdown: "| a | b |" -> cells a, b, with **bold** and `code` marks taken off. */
static int md_cells(struct tbl *t, const char *s, size_t len, struct tbl_row *r)
{
    int rc;
    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    if (len > 0 && *s == '|') {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len > 0 && s[len - 1] == '|')
        len--;
    if ((rc = split_row(t, s, len, '|', r)) != 1)
        return rc;
    for (int i = 0; i < r->n; i++) {
        char *c = r->cell[i];
        size_t n = strlen(c);
        while (n >= 2 && ((c[0] == '*' && c[n - 1] == '*') || (c[0] == '`' && c[n - 1] == '`') ||
                          (c[0] == '_' && c[n - 1] == '_' && n > 2 && c[1] == '_'))) {
            memmove(c, c + 1, n - 2);
            n -= 2;
            c[n] = '\0';
        }
        trim_cell(c);
    }
    return 1;
}

static int md_is_row(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '|';
}

static int md_is_separator(const char *s)
{
    int dashes = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != '|')
        return 0;
    for (; *s; s++) {
        if (*s == '-')
            dashes++;
        else if (*s != '|' && *s != ':' && *s != ' ' && *s != '\t')
            return 0;
    }
    return dashes >= 3;
}

/* The next line for Markdown, a held one first. Same returns as import_read_line. */
static int md_line(struct tbl *t, const char **s, size_t *len)
{
    struct lines *l = t->src->lines;
    int rc;
    if (t->has_held_line) {
        t->has_held_line = 0;
        *s = t->held_line;
        *len = strlen(t->held_line);
        l->no = t->held_line_no;
        return 1;
    }
    if ((rc = import_read_line(t->src)) <= 0)
        return rc;
    *s = l->line;
    *len = l->line_len;
    return 1;
}

static int md_next(struct tbl *t, struct tbl_row *row, int *is_header)
{
    struct lines *l = t->src->lines;
    const char *s;
    size_t len;
    int rc;
    for (;;) {
        if ((rc = md_line(t, &s, &len)) <= 0)
            return rc;
        if (!md_is_row(s)) {
            t->have_header = 0; /* the table ended: the next one has its own header */
            continue;
        }
        if (t->have_header) {
            if (md_is_separator(s))
                continue;
            return md_cells(t, s, len, row);
        }
        /* a header when the next line is its separator */
        if ((rc = md_cells(t, s, len, row)) != 1)
            return rc;
        if ((rc = import_read_line(t->src)) < 0)
            return rc;
        if (rc == 1 && md_is_separator(l->line)) {
            *is_header = 1;
            return 1;
        }
        if (rc == 1) {
            /* not a table: look at that line again */
            if (l->line_len + 1 > t->held_line_cap) {
                char *nb = realloc(t->held_line, l->line_len + 1);
                if (!nb) {
                    import_diag(t->src, IMPORT_ERROR, 0, "out of memory");
                    return IMPORT_ENOMEM;
                }
                t->held_line = nb;
                t->held_line_cap = l->line_len + 1;
            }
            memcpy(t->held_line, l->line, l->line_len + 1);
            t->held_line_no = l->no;
            t->has_held_line = 1;
        }
    }
}

static int gnuplot_next(struct tbl *t, struct tbl_row *row, int *is_header)
{
    struct lines *l = t->src->lines;
    int rc;
    if (t->has_held) {
        *row = t->held;
        t->has_held = 0;
        return 1;
    }
    for (;;) {
        const char *s;
        if ((rc = import_read_line(t->src)) <= 0)
            return rc;
        s = l->line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            continue;
        if (*s == '#') {
            if ((rc = split_ws(t, s + 1, &t->comment)) != 1)
                return rc;
            t->has_comment = t->comment.n > 0;
            continue;
        }
        if ((rc = split_ws(t, s, row)) != 1)
            return rc;
        if (t->has_comment && t->comment.n == row->n) {
            int known = 0;
            for (int i = 0; i < t->comment.n && !known; i++) {
                char name[TBL_CELL_MAX];
                snprintf(name, sizeof name, "%s", t->comment.cell[i]);
                tbl_normalise_name(name);
                known = tbl_known_name(name);
            }
            t->has_comment = 0;
            if (known) {
                t->held = *row;
                t->has_held = 1;
                *row = t->comment;
                row->line = t->comment.line;
                *is_header = 1;
                return 1;
            }
        }
        t->has_comment = 0;
        if (!t->have_header) {
            import_diag(t->src, IMPORT_ERROR, row->line,
                        "a data row of %d columns without a '#' comment naming them above it: "
                        "expected a header such as \"# threads tps p95_ms\"",
                        row->n);
            return IMPORT_EPARSE;
        }
        return 1;
    }
}

int tbl_split_next(struct tbl *t, struct tbl_row *row, int *is_header)
{
    struct lines *l = t->src->lines;
    int rc;
    *is_header = 0;
    if (t->d == D_MARKDOWN)
        return md_next(t, row, is_header);
    if (t->d == D_GNUPLOT)
        return gnuplot_next(t, row, is_header);
    do {
        if ((rc = import_read_line(t->src)) <= 0)
            return rc;
    } while (blank_or_comment(l->line, 1));
    rc = t->d == D_CSV ? csv_row(t, row) : split_row(t, l->line, l->line_len, '\t', row);
    if (rc == 1 && !t->have_header)
        *is_header = 1;
    return rc;
}

/* ---- detection ---- */

/* The first line of buf that is not blank or a '#' comment: *start, *end. 0 when none. */
static int first_data_line(const char *buf, size_t len, size_t *start, size_t *end)
{
    size_t i = 0;
    while (i < len) {
        size_t e = i, p = i;
        while (e < len && buf[e] != '\n')
            e++;
        while (p < e && (buf[p] == ' ' || buf[p] == '\t' || buf[p] == '\r'))
            p++;
        if (p < e && buf[p] != '#') {
            *start = i;
            *end = e;
            return 1;
        }
        i = e + 1;
    }
    return 0;
}

/* Split buf[start, end) at sep into names; 1 when >= 2 names, all of allowed characters, one
 * known. */
static int names_ok(const char *buf, size_t start, size_t end, char sep)
{
    char tok[TBL_CELL_MAX];
    size_t tn = 0;
    int n = 0, known = 0;
    for (size_t i = start; i <= end; i++) {
        char ch = i < end ? buf[i] : sep;
        if (ch == '\r')
            continue;
        if (ch == sep) {
            tok[tn] = '\0';
            tbl_normalise_name(tok);
            if (tok[0] && tbl_known_name(tok))
                known = 1;
            n++;
            tn = 0;
            continue;
        }
        if (ch == '"' || ch == '*' || ch == '`')
            continue;
        if (!(isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '%' || ch == ' ' ||
              ch == '(' || ch == ')' || ch == '-' || (sep != '\t' && ch == '\t') ||
              (unsigned char)ch >= 0x80)) /* names in other scripts (the reader checks UTF-8) */
            return 0;
        if (tn + 1 < sizeof tok)
            tok[tn++] = ch;
    }
    return n >= 2 && known;
}

int table_csv_detect(const char *buf, size_t len, const char *path)
{
    size_t s, e;
    (void)path;
    return first_data_line(buf, len, &s, &e) && memchr(buf + s, ',', e - s) &&
           names_ok(buf, s, e, ',');
}

int table_tsv_detect(const char *buf, size_t len, const char *path)
{
    size_t s, e;
    (void)path;
    return first_data_line(buf, len, &s, &e) && memchr(buf + s, '\t', e - s) &&
           names_ok(buf, s, e, '\t');
}

int table_markdown_detect(const char *buf, size_t len, const char *path)
{
    size_t i = 0;
    (void)path;
    while (i < len) {
        size_t e = i, p = i, e2, q;
        while (e < len && buf[e] != '\n')
            e++;
        while (p < e && (buf[p] == ' ' || buf[p] == '\t'))
            p++;
        if (p < e && buf[p] == '|' && e < len) {
            int dashes = 0, ok = 1;
            e2 = e + 1;
            while (e2 < len && buf[e2] != '\n')
                e2++;
            q = e + 1;
            while (q < e2 && (buf[q] == ' ' || buf[q] == '\t'))
                q++;
            if (q < e2 && buf[q] == '|') {
                for (size_t k = q; k < e2; k++) {
                    if (buf[k] == '-')
                        dashes++;
                    else if (!strchr("|: \t\r", buf[k]))
                        ok = 0;
                }
                if (ok && dashes >= 3) {
                    /* the header: names between the pipes */
                    size_t a = p + 1, b = e;
                    while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\r' || buf[b - 1] == '|'))
                        b--;
                    if (names_ok(buf, a, b, '|'))
                        return 1;
                }
            }
        }
        i = e + 1;
    }
    return 0;
}

int table_gnuplot_detect(const char *buf, size_t len, const char *path)
{
    size_t i = 0, cs = 0, ce = 0;
    int have_comment = 0;
    (void)path;
    while (i < len) {
        size_t e = i, p = i;
        while (e < len && buf[e] != '\n')
            e++;
        while (p < e && (buf[p] == ' ' || buf[p] == '\t'))
            p++;
        if (p < e && buf[p] == '#') {
            cs = p + 1;
            ce = e;
            have_comment = 1;
        } else if (p < e && buf[p] != '\r') {
            /* the first data row: numbers, as many as the comment's names */
            int cells = 0, names = 0, known = 0;
            size_t k = p;
            if (!have_comment)
                return 0;
            while (k < e) {
                char num[64];
                size_t n = 0;
                double v;
                while (k < e && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r'))
                    k++;
                if (k >= e)
                    break;
                while (k < e && buf[k] != ' ' && buf[k] != '\t' && buf[k] != '\r') {
                    if (n + 1 < sizeof num)
                        num[n++] = buf[k];
                    k++;
                }
                num[n] = '\0';
                if (tbl_number(num, 1, &v) != 0 && strcmp(num, "-") != 0 && strcmp(num, "?") != 0)
                    return 0;
                cells++;
            }
            for (k = cs; k < ce;) {
                char name[TBL_CELL_MAX];
                size_t n = 0;
                while (k < ce && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r'))
                    k++;
                if (k >= ce)
                    break;
                while (k < ce && buf[k] != ' ' && buf[k] != '\t' && buf[k] != '\r') {
                    if (n + 1 < sizeof name)
                        name[n++] = buf[k];
                    k++;
                }
                name[n] = '\0';
                tbl_normalise_name(name);
                if (tbl_known_name(name))
                    known = 1;
                names++;
            }
            return cells >= 2 && cells == names && known;
        }
        i = e + 1;
    }
    return 0;
}
