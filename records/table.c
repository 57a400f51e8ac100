/* table.c - tables of benchmark results -> point records: columns and rows (table.h). The
 * entry file of the table reader: the dialects (how a line becomes cells) and the column
 * names are in table_split.c, which calls nothing here. */
#include "table.h"
#include "table_int.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Take a header row. IMPORT_OK or IMPORT_EPARSE (reported). */
static int take_header(struct tbl *t, const struct tbl_row *r)
{
    int other = 0, measure = 0;
    t->ncols = r->n;
    t->has_tps = 0;
    t->wide = 0;
    t->x_col = -1;
    t->header_line = r->line;
    for (int i = 0; i < r->n; i++) {
        struct tbl_col *c = &t->cols[i];
        snprintf(c->name, sizeof c->name, "%s", r->cell[i]);
        tbl_normalise_name(c->name);
        tbl_trim_label(c->label, sizeof c->label, r->cell[i]);
        if (!c->name[0]) {
            import_diag(t->src, IMPORT_ERROR, r->line,
                        "header column %d is empty: expected a column name", i + 1);
            return IMPORT_EPARSE;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(t->cols[j].name, c->name) == 0) {
                import_diag(t->src, IMPORT_ERROR, r->line, "header names column \"%s\" twice",
                            c->name);
                return IMPORT_EPARSE;
            }
        tbl_classify(c);
        if (c->kind == C_TPS)
            t->has_tps = 1;
        if ((c->kind == C_THREADS || c->kind == C_NODES) && t->x_col < 0)
            t->x_col = i;
        else if (c->kind == C_EXTRA)
            other++;
        else
            measure = 1;
    }
    /* one column per configuration: x and nothing but other columns */
    if (t->x_col >= 0 && !measure && other > 0) {
        t->wide = 1;
        import_diag(t->src, IMPORT_NOTE, r->line,
                    "note: the table has one column per configuration (no tps, qps, latency, "
                    "target or workload column): each column after \"%s\" is read as the tps "
                    "of a target of that name",
                    t->cols[t->x_col].name);
    }
    t->have_header = 1;
    return IMPORT_OK;
}

/* A numeric cell: numbers >= 0 (thousands separators outside CSV). */
static int cell_number(const struct tbl *t, const char *cell, double *v)
{
    return tbl_number(cell, t->d != D_CSV, v) != 0 || *v < 0 ? -1 : 0;
}

static int bad_cell(struct tbl *t, long line, const char *col, const char *what, const char *cell)
{
    import_diag(t->src, IMPORT_ERROR, line, "column \"%s\": expected %s, found \"%.40s\"", col,
                what, cell);
    return IMPORT_EPARSE;
}

/* A name (target, configuration, workload) in another encoding (Latin-1) would be written with
 * '?' for its bytes, and two names would become one: refused, like a JSON Lines file's. */
#define NAME_UTF8 "a name in UTF-8 (convert the file, e.g. iconv -f latin1 -t utf-8)"

static int is_utf8(const char *s)
{
    json_t *u = json_string(s); /* jansson checks the encoding; NULL: not UTF-8 */
    json_decref(u);
    return u != NULL;
}

/* A column of extra as a number >= 0, NAN when absent, not a number or negative (a table's
 * "missing" marker such as -1 is not a figure). */
static double extra_num(const struct point *p, const char *name)
{
    const json_t *v = p->extra ? json_object_get(p->extra, name) : NULL;
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    return x >= 0 && isfinite(x) ? x : NAN;
}

/* The server block from a table's I/O columns (the published IDC-versus-cloud table's iops_avg,
 * iops_max, bw_mbps): IOPS as given, I/Os per transaction = iops_avg / tps. The columns stay in
 * extra as they were. IMPORT_OK or IMPORT_ENOMEM. */
static int server_from_columns(struct point *p)
{
    double iops = extra_num(p, "iops_avg"), iops_max = extra_num(p, "iops_max");
    double mb_s = extra_num(p, "bw_mbps");
    if (isnan(iops))
        iops = extra_num(p, "iops");
    if (isnan(iops) && isnan(iops_max) && isnan(mb_s))
        return IMPORT_OK;
    p->server.v[PSRV_IOPS] = iops;
    p->server.v[PSRV_IOPS_MAX] = iops_max;
    p->server.v[PSRV_IO_MB_S] = mb_s;
    if (p->tps > 0 && !isnan(iops))
        p->server.v[PSRV_IOS_PER_TX] = iops / p->tps;
    return point_set_str(&p->server.from, "table columns (iops_avg or iops, iops_max, bw_mbps)")
               ? IMPORT_ENOMEM
               : IMPORT_OK;
}

/* Fill one point from one row (long layout). IMPORT_OK, IMPORT_EPARSE, IMPORT_ENOMEM. */
static int fill_point(struct tbl *t, struct point *p, const struct tbl_row *r)
{
    double tpm_total = NAN;
    for (int i = 0; i < r->n; i++) {
        const char *cell = r->cell[i];
        const struct tbl_col *c = &t->cols[i];
        double v = NAN;
        int rc = 0;
        int numeric = c->kind != C_EXTRA && c->kind != C_TARGET && c->kind != C_CONFIG &&
                      c->kind != C_WORKLOAD && c->kind != C_FLAG && c->kind != C_NODES;
        if (numeric && cell_number(t, cell, &v) != 0)
            return bad_cell(t, r->line, c->name, "a number >= 0", cell);
        switch (c->kind) {
        case C_TARGET:
        case C_CONFIG:
        case C_WORKLOAD:
            if (!*cell) {
                if (c->kind == C_CONFIG)
                    break;
                import_diag(t->src, IMPORT_ERROR, r->line,
                            "column \"%s\": expected a name, found an empty cell", c->name);
                return IMPORT_EPARSE;
            }
            if (!is_utf8(cell))
                return bad_cell(t, r->line, c->name, NAME_UTF8, cell);
            rc = point_set_str(c->kind == C_TARGET   ? &p->target
                               : c->kind == C_CONFIG ? &p->config
                                                     : &p->workload,
                               cell);
            break;
        case C_THREADS:
            if (v < 1 || v != floor(v) || v > 1e9)
                return bad_cell(t, r->line, c->name, "an integer > 0", cell);
            p->threads = (int64_t)v;
            break;
        case C_NODES:
            if (tbl_number(cell, 0, &v) == 0 && v >= 1 && v == floor(v) && v <= 1e9)
                p->nodes = (int64_t)v;
            else if (*cell)
                rc = import_set_extra(p, "nodes", point_json_string(cell));
            else {
                import_diag(t->src, IMPORT_ERROR, r->line,
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
                import_diag(t->src, IMPORT_ERROR, r->line,
                            "column \"%s\": too many percentile columns", c->name);
                return IMPORT_EPARSE;
            }
            break;
        case C_TPMC:
            rc = import_set_extra(p, "tpmc", json_real(v));
            break;
        case C_TPM_TOTAL:
            tpm_total = v;
            rc = import_set_extra(p, "tpm_total", json_real(v));
            break;
        case C_FLAG:
            if (*cell)
                rc = point_add_flag(p, cell);
            break;
        case C_EXTRA:
            if (tbl_number(cell, t->d != D_CSV, &v) == 0)
                rc = import_set_extra(p, c->name, json_real(v));
            else
                rc = import_set_extra(p, c->name, point_json_string(cell));
            break;
        }
        if (rc)
            return IMPORT_ENOMEM;
    }
    if (p->threads <= 0 && p->nodes <= 0) {
        import_diag(t->src, IMPORT_ERROR, r->line,
                    "expected a \"threads\" or \"nodes\" column with a count > 0");
        return IMPORT_EPARSE;
    }
    if (!t->has_tps && !isnan(tpm_total)) {
        p->tps = tpm_total / 60.0;
        if (point_add_flag(p, "tps_from_tpm_total"))
            return IMPORT_ENOMEM;
    }
    return server_from_columns(p);
}

/* One point of a wide row: column col's cell as the tps of the target named by the column.
 * 1 (a point), 0 (an empty or "-" cell: none), or a negative IMPORT_E* code. */
static int fill_wide(struct tbl *t, struct point *p, const struct tbl_row *r, int col)
{
    const struct tbl_col *x = &t->cols[t->x_col];
    const char *xc = r->cell[t->x_col], *cell = r->cell[col];
    double xv, v;
    if (!*cell || strcmp(cell, "-") == 0 || strcmp(cell, "?") == 0 || strcasecmp(cell, "nan") == 0)
        return 0; /* no measurement (gnuplot writes "?" or NaN for a missing value) */
    if (cell_number(t, xc, &xv) != 0 || xv < 1 || xv != floor(xv) || xv > 1e9)
        return bad_cell(t, r->line, x->name, "an integer > 0", xc);
    if (cell_number(t, cell, &v) != 0)
        return bad_cell(t, r->line, t->cols[col].name, "a number >= 0 (the tps of this column)",
                        cell);
    if (x->kind == C_NODES)
        p->nodes = (int64_t)xv;
    else
        p->threads = (int64_t)xv;
    p->tps = v;
    if (!is_utf8(t->cols[col].label))
        return bad_cell(t, t->header_line, t->cols[col].label, NAME_UTF8, t->cols[col].label);
    if (point_set_str(&p->target, t->cols[col].label) || point_add_flag(p, "wide_table"))
        return IMPORT_ENOMEM;
    return 1;
}

int table_next(void *state, struct point *out)
{
    struct tbl *t = state;
    for (;;) {
        int rc, is_header = 0;
        if (t->wide_active) {
            while (t->wide_next < t->row.n) {
                int col = t->wide_next++;
                if (col == t->x_col)
                    continue;
                rc = fill_wide(t, out, &t->row, col);
                if (rc < 0)
                    return rc;
                if (rc == 1) {
                    out->source_kind = POINT_SRC_TABLE;
                    out->source_line = t->row.line;
                    return 1;
                }
            }
            t->wide_active = 0;
        }
        rc = tbl_split_next(t, &t->row, &is_header);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            if (!t->have_header) {
                import_diag(t->src, IMPORT_ERROR, 0,
                            "no header row: expected a header such as "
                            "\"target,workload,threads,tps\"");
                return IMPORT_EFORMAT;
            }
            if (t->n_rows == 0) {
                import_diag(t->src, IMPORT_ERROR, 0, "the table has a header but no data rows");
                return IMPORT_EFORMAT;
            }
            return 0;
        }
        if (is_header) {
            if ((rc = take_header(t, &t->row)) != IMPORT_OK)
                return rc;
            continue;
        }
        if (!t->have_header) {
            import_diag(t->src, IMPORT_ERROR, t->row.line,
                        "a data row before any header row: expected a header naming the columns");
            return IMPORT_EPARSE;
        }
        if (t->row.n != t->ncols) {
            import_diag(t->src, IMPORT_ERROR, t->row.line,
                        "expected %d cells as in the header (line %ld), found %d", t->ncols,
                        t->header_line, t->row.n);
            return IMPORT_EPARSE;
        }
        t->n_rows++;
        if (t->wide) {
            t->wide_next = 0;
            t->wide_active = 1;
            continue;
        }
        rc = fill_point(t, out, &t->row);
        if (rc != IMPORT_OK) {
            if (rc == IMPORT_ENOMEM)
                import_diag(t->src, IMPORT_ERROR, 0, "out of memory");
            return rc;
        }
        out->source_kind = POINT_SRC_TABLE;
        out->source_line = t->row.line;
        return 1;
    }
}

static void *open_dialect(struct import_src *src, enum tbl_dialect d)
{
    struct tbl *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->src = src;
    t->d = d;
    return t;
}

void *table_csv_open(struct import_src *src)
{
    return open_dialect(src, D_CSV);
}

void *table_tsv_open(struct import_src *src)
{
    return open_dialect(src, D_TSV);
}

void *table_markdown_open(struct import_src *src)
{
    return open_dialect(src, D_MARKDOWN);
}

void *table_gnuplot_open(struct import_src *src)
{
    return open_dialect(src, D_GNUPLOT);
}

void table_close(void *state)
{
    struct tbl *t = state;
    if (!t)
        return;
    free(t->held_line);
    free(t);
}
