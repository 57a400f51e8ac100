/* import.c - open an input, detect its format, and pull its points one at a time (import.h). */
#include "import.h"
#include "pgbench.h"
#include "suite.h"
#include "sysbench_log.h"
#include "table.h"
#include "tools.h"

#include "textsafe.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One format: how to recognise it and its pull reader. */
struct fmt_ops {
    enum import_format fmt;
    const char *name;
    int (*detect)(const char *buf, size_t len, const char *path);
    void *(*open)(struct import_src *src);
    int (*next)(void *state, struct point *out);
    void (*close)(void *state);
};

static int points_detect(const char *buf, size_t len, const char *path);
static void *points_open(struct import_src *src);
static int points_next(void *state, struct point *out);
static void points_close(void *state);

/* In detection order: the most specific content first. */
static const struct fmt_ops formats[] = {
    {IMPORT_POINTS, "points", points_detect, points_open, points_next, points_close},
    {IMPORT_BENCHBASE, "benchbase", benchbase_detect, benchbase_open, benchbase_next,
     benchbase_close},
    {IMPORT_SYSBENCH, "sysbench", sysbench_log_detect, sysbench_log_open, sysbench_log_next,
     sysbench_log_close},
    {IMPORT_PGBENCH, "pgbench", pgbench_detect, pgbench_open, pgbench_next, pgbench_close},
    {IMPORT_HAMMERDB, "hammerdb", hammerdb_detect, hammerdb_open, hammerdb_next, hammerdb_close},
    {IMPORT_GOTPC, "go-tpc", gotpc_detect, gotpc_open, gotpc_next, gotpc_close},
    {IMPORT_MARKDOWN, "markdown", table_markdown_detect, table_markdown_open, table_next,
     table_close},
    {IMPORT_GNUPLOT, "gnuplot", table_gnuplot_detect, table_gnuplot_open, table_next, table_close},
    {IMPORT_TSV, "tsv", table_tsv_detect, table_tsv_open, table_next, table_close},
    {IMPORT_CSV, "csv", table_csv_detect, table_csv_open, table_next, table_close},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

struct import_reader {
    struct lines lines;
    struct import_src src;
    struct import_options opt;
    char *name;
    char *path;
    const struct fmt_ops *ops;
    void *state;
    int done, final_rc;
    int said_unknown; /* the note that a point's workload could not be named was given */
    int said_target;  /* the note that the target is the file name less its thread count */
};

enum import_format import_detect(const char *buf, size_t len, const char *path)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].detect(buf, len, path))
            return formats[i].fmt;
    return IMPORT_AUTO;
}

const char *import_format_name(enum import_format f)
{
    if (f == IMPORT_SUITE)
        return "suite";
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].fmt == f)
            return formats[i].name;
    return "auto";
}

int import_format_from_name(const char *name)
{
    if (strcmp(name, "auto") == 0)
        return IMPORT_AUTO;
    if (strcmp(name, "suite") == 0)
        return IMPORT_SUITE;
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(formats[i].name, name) == 0)
            return (int)formats[i].fmt;
    return -1;
}

static void report_reset(struct import_report *rep)
{
    memset(rep, 0, sizeof *rep);
}

/* The reader after its source is open: detect (unless forced) and open the format's reader. */
static int start(struct import_reader *r, struct import_report *report)
{
    const char *data;
    size_t len, i;
    enum import_format fmt = r->opt.format;
    char err[400];
    int rc = lines_peek(&r->lines, &data, &len, err, sizeof err);
    if (rc != LINES_OK) {
        import_diag(&r->src, IMPORT_ERROR, -1, "%s", err);
        return IMPORT_EIO;
    }
    for (i = 0; i < len; i++)
        if (!isspace((unsigned char)data[i]))
            break;
    if (i == len) {
        import_diag(&r->src, IMPORT_ERROR, 0,
                    "the file is empty: expected sysbench or pgbench output, a table with a "
                    "header row, or sizeup.point/1 JSON Lines");
        return IMPORT_EFORMAT;
    }
    if (fmt == IMPORT_AUTO)
        fmt = import_detect(data, len, r->path);
    for (i = 0; i < N_FORMATS; i++)
        if (formats[i].fmt == fmt)
            r->ops = &formats[i];
    if (!r->ops && (fmt == IMPORT_SUITE || suite_detect(data, len))) {
        import_diag(&r->src, IMPORT_ERROR, 1,
                    "query-suite timings (query and seconds), not points: they have no "
                    "throughput curve; rank them with sizeup rank --suite FILE (sizeup import "
                    "writes them as sizeup.suite/1 records)");
        return IMPORT_EFORMAT;
    }
    if (!r->ops) {
        import_diag(&r->src, IMPORT_ERROR, 1,
                    "not a format sizeup reads: expected sysbench output (\"sysbench 1.0.20 "
                    "...\"), pgbench, BenchBase, HammerDB or go-tpc output, a table (CSV, TSV, "
                    "Markdown, gnuplot) with a header row naming threads or nodes, or "
                    "sizeup.point/1 JSON Lines");
        return IMPORT_EFORMAT;
    }
    r->state = r->ops->open(&r->src);
    if (!r->state) {
        if (report->msg[0] == '\0')
            import_diag(&r->src, IMPORT_ERROR, 0, "out of memory");
        return IMPORT_ENOMEM;
    }
    return IMPORT_OK;
}

static struct import_reader *reader_new(const char *name, const char *path,
                                        const struct import_options *opt,
                                        struct import_report *report)
{
    struct import_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (opt)
        r->opt = *opt;
    r->name = strdup(name);
    r->path = path ? strdup(path) : NULL;
    if (!r->name || (path && !r->path)) {
        free(r->name);
        free(r->path);
        free(r);
        return NULL;
    }
    r->src.lines = &r->lines;
    r->src.name = r->name;
    r->src.path = r->path;
    r->src.opt = &r->opt;
    r->src.report = report;
    return r;
}

int import_open(const char *path, const struct import_options *opt, struct import_report *report,
                struct import_reader **out)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    struct import_reader *r;
    char err[400];
    int rc;
    report_reset(report);
    *out = NULL;
    r = reader_new(name, strcmp(path, "-") == 0 ? NULL : path, opt, report);
    if (!r) {
        snprintf(report->msg, sizeof report->msg, "%s: out of memory", name);
        return IMPORT_ENOMEM;
    }
    rc = lines_open(&r->lines, path, r->name, err, sizeof err);
    if (rc != LINES_OK) {
        import_diag(&r->src, IMPORT_ERROR, -1, "%s", err);
        import_close(r);
        return rc == LINES_ENOMEM ? IMPORT_ENOMEM : IMPORT_EIO;
    }
    if ((rc = start(r, report)) != IMPORT_OK) {
        import_close(r);
        return rc;
    }
    *out = r;
    return IMPORT_OK;
}

int import_open_buffer(const char *buf, size_t len, const char *name,
                       const struct import_options *opt, struct import_report *report,
                       struct import_reader **out)
{
    struct import_reader *r;
    int rc;
    report_reset(report);
    *out = NULL;
    name = name ? name : "<input>";
    r = reader_new(name, NULL, opt, report);
    if (!r) {
        snprintf(report->msg, sizeof report->msg, "%s: out of memory", name);
        return IMPORT_ENOMEM;
    }
    lines_open_mem(&r->lines, buf, len, r->name);
    if ((rc = start(r, report)) != IMPORT_OK) {
        import_close(r);
        return rc;
    }
    *out = r;
    return IMPORT_OK;
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

/* The file's base name less a trailing thread count that equals the point's threads
 * ("oltp_read_write_16", "db1-16t", "run_16threads" at 16 threads: "oltp_read_write", "db1",
 * "run"), so that one file per thread count, as people keep sysbench runs, makes one curve
 * (issue 28.9). Any other name, or a number that is not the point's thread count (a date, a
 * run number), is kept whole. @return buf, or NULL when nothing was cut. */
static const char *name_less_threads(const char *bn, long threads, char *buf, size_t cap)
{
    size_t len = strlen(bn), end = len, digits;
    long v;
    if (threads <= 0)
        return NULL;
    if (end >= 7 && strcmp(bn + end - 7, "threads") == 0)
        end -= 7;
    else if (end >= 1 && (bn[end - 1] == 't' || bn[end - 1] == 'T') && end >= 2 &&
             isdigit((unsigned char)bn[end - 2]))
        end -= 1;
    digits = end;
    while (digits > 0 && isdigit((unsigned char)bn[digits - 1]))
        digits--;
    if (digits == end || end - digits > 9)
        return NULL;
    v = strtol(bn + digits, NULL, 10);
    if (v != threads || digits < 2 || (bn[digits - 1] != '_' && bn[digits - 1] != '-'))
        return NULL;
    snprintf(buf, cap, "%.*s", (int)(digits - 1), bn);
    return buf;
}

/* Fill what the content did not say: target, workload, source file. */
static int fill_defaults(struct import_reader *r, struct point *p)
{
    char bn[256];
    if (!p->workload) {
        const char *w = r->opt.workload;
        if (!w)
            w = import_workload_from_name(r->name);
        if (point_set_str(&p->workload, w ? w : "unknown"))
            return -1;
    }
    if (!p->target) {
        char cut[256];
        const char *t = r->opt.target;
        if (!t) {
            t = base_name(r->name, bn, sizeof bn);
            if (name_less_threads(bn, p->threads, cut, sizeof cut)) {
                if (!r->said_target) {
                    r->said_target = 1;
                    import_diag(&r->src, IMPORT_NOTE, 0,
                                "note: target '%s', the file name less its thread count %ld: files "
                                "whose names differ only by the thread count are one curve "
                                "(--target names it yourself)",
                                cut, p->threads);
                }
                t = cut;
            }
        }
        if (point_set_str(&p->target, t))
            return -1;
    }
    if (!p->source_file && point_set_str(&p->source_file, r->name))
        return -1;
    return 0;
}

/* Latencies that cannot all be true of one run (issue 28.11): min <= avg <= max; every
 * percentile within [min, max] and rising with p; and, since a share p of the events lie at or
 * below P_p and the rest at or below max, avg <= p P_p + (1 - p) max. Tolerances: 0.01 ms for
 * the printed rounding, 0.1 % between exact figures, and 2.5 % where a percentile is compared:
 * sysbench reports a percentile as its histogram bucket's bound (1024 log-spaced buckets from
 * 0.001 ms to 10^5 ms, 1.8 % apart: src/sb_histogram.c), so a p95 of 2 events can read 0.6 %
 * above their max. Into why (cap bytes); 1 when one fails. */
static int latency_impossible(const struct point_latency *l, char *why, size_t cap)
{
    double tol_abs = 0.011, tol = 0.001;
#define OVER(a, b) ((a) > (b) * (1 + tol) + tol_abs)
    if (isfinite(l->min) && isfinite(l->avg) && OVER(l->min, l->avg))
        return snprintf(why, cap, "min %g ms above avg %g ms", l->min, l->avg), 1;
    if (isfinite(l->avg) && isfinite(l->max) && OVER(l->avg, l->max))
        return snprintf(why, cap, "avg %g ms above max %g ms", l->avg, l->max), 1;
    tol = 0.025; /* from here on a percentile is in every comparison */
    for (size_t i = 0; i < l->n_pct; i++) {
        double p = l->pct[i] / 100, v = l->pct_ms[i];
        if (!isfinite(v))
            continue;
        if (isfinite(l->max) && OVER(v, l->max))
            return snprintf(why, cap, "p%g %g ms above max %g ms", l->pct[i], v, l->max), 1;
        if (isfinite(l->min) && OVER(l->min, v))
            return snprintf(why, cap, "p%g %g ms below min %g ms", l->pct[i], v, l->min), 1;
        for (size_t j = 0; j < l->n_pct; j++)
            if (l->pct[j] > l->pct[i] && isfinite(l->pct_ms[j]) && OVER(v, l->pct_ms[j]))
                return snprintf(why, cap, "p%g %g ms above p%g %g ms", l->pct[i], v, l->pct[j],
                                l->pct_ms[j]),
                       1;
        if (isfinite(l->avg) && isfinite(l->max) && p > 0 && p < 1 &&
            OVER(l->avg, p * v + (1 - p) * l->max))
            return snprintf(why, cap,
                            "avg %g ms above what p%g %g ms and max %g ms allow (%g%% of the "
                            "events at or below %g ms, the rest at or below %g: avg <= %.4g ms)",
                            l->avg, l->pct[i], v, l->max, l->pct[i], v, l->max,
                            p * v + (1 - p) * l->max),
                   1;
    }
#undef OVER
    return 0;
}

/* A histogram whose counts do not add up to the run's transactions: flagged. */
static int histogram_mismatch(const struct point *p, char *why, size_t cap)
{
    double sum = (double)(p->latency_overflows > 0 ? p->latency_overflows : 0), n;
    if (!p->n_hist || p->transactions <= 0)
        return 0;
    for (size_t i = 0; i < p->n_hist; i++)
        sum += (double)p->histogram[i].count;
    n = (double)p->transactions;
    if (fabs(sum - n) <= fmax(1, 0.005 * n))
        return 0;
    snprintf(why, cap, "the latency histogram counts %.0f events, the run %.0f transactions", sum,
             n);
    return 1;
}

/* Flag a point whose figures contradict each other, and say so once per file and kind.
 * @return 0, or -1 out of memory. */
static int impossible(struct import_reader *r, struct point *p)
{
    char why[320];
    if (latency_impossible(&p->latency_ms, why, sizeof why)) {
        if (point_add_flag(p, "impossible_latency"))
            return -1;
        import_diag(&r->src, IMPORT_NOTE, p->source_line > 0 ? p->source_line : 0,
                    "warning: latencies that cannot all be true: %s; the point is flagged "
                    "impossible_latency and left out of fits and rankings",
                    why);
    }
    if (histogram_mismatch(p, why, sizeof why)) {
        if (point_add_flag(p, "histogram_mismatch"))
            return -1;
        import_diag(&r->src, IMPORT_NOTE, p->source_line > 0 ? p->source_line : 0,
                    "warning: %s; the point is flagged histogram_mismatch and left out of fits "
                    "and rankings",
                    why);
    }
    return 0;
}

/* The first name of p with a control character ("target", "workload", "config"), or NULL. */
static const char *control_name(const struct point *p)
{
    if (textsafe_control_at(p->target) >= 0)
        return "target";
    if (textsafe_control_at(p->workload) >= 0)
        return "workload";
    if (textsafe_control_at(p->config) >= 0)
        return "config";
    return NULL;
}

int import_next(struct import_reader *r, struct point *out)
{
    const char *bad_name;
    struct import_report *rep = r->src.report;
    int rc;
    if (r->done)
        return r->final_rc;
    point_destroy(out);
    rc = r->ops->next(r->state, out);
    if (rc == 1) {
        if (fill_defaults(r, out)) {
            point_destroy(out);
            import_diag(&r->src, IMPORT_ERROR, 0, "out of memory");
            rc = IMPORT_ENOMEM;
        } else if ((bad_name = control_name(out)) != NULL) {
            char vis[160];
            import_diag(&r->src, IMPORT_ERROR, out->source_line > 0 ? out->source_line : 0,
                        "a %s with a control character, '%s': names are printed to terminals "
                        "and reports; remove it",
                        bad_name,
                        textsafe_visible(strcmp(bad_name, "target") == 0     ? out->target
                                         : strcmp(bad_name, "workload") == 0 ? out->workload
                                                                             : out->config,
                                         vis, sizeof vis));
            rc = IMPORT_EPARSE;
        } else if (strlen(out->workload) > POINT_WORKLOAD_MAX) {
            import_diag(&r->src, IMPORT_ERROR, out->source_line > 0 ? out->source_line : 0,
                        "a workload name of %zu bytes ('%.40s...'): at most %d; shorten it",
                        strlen(out->workload), out->workload, POINT_WORKLOAD_MAX);
            rc = IMPORT_EPARSE;
        } else {
            rep->n_points++;
            if (out->incomplete)
                rep->n_incomplete++;
            if (!r->said_unknown && out->workload && strcmp(out->workload, "unknown") == 0) {
                /* issue 28.8: 'unknown' later broke --mix without a word */
                r->said_unknown = 1;
                import_diag(&r->src, IMPORT_NOTE, 0,
                            "note: neither the file nor its name says which workload ran: its "
                            "points are workload 'unknown'; name it with --workload NAME (e.g. "
                            "oltp_read_write), or in the file name (oltp_read_write_16.log)");
            }
            if (impossible(r, out) != 0) {
                point_destroy(out);
                import_diag(&r->src, IMPORT_ERROR, 0, "out of memory");
                return IMPORT_ENOMEM;
            }
            return 1;
        }
    }
    point_destroy(out);
    if (rc == 0 && rep->n_points == 0 && !r->src.empty_ok) {
        if (rep->msg[0] == '\0')
            import_diag(&r->src, IMPORT_ERROR, 0, "no %s records found",
                        import_format_name(r->ops->fmt));
        rc = IMPORT_EPARSE;
    }
    if (rc < 0 && rep->msg[0] == '\0')
        import_diag(&r->src, IMPORT_ERROR, 0, "cannot read (error %d)", rc);
    r->done = 1;
    r->final_rc = rc;
    return rc;
}

enum import_format import_reader_format(const struct import_reader *r)
{
    return r->ops ? r->ops->fmt : IMPORT_AUTO;
}

void import_close(struct import_reader *r)
{
    if (!r)
        return;
    if (r->ops && r->state)
        r->ops->close(r->state);
    lines_close(&r->lines);
    free(r->name);
    free(r->path);
    free(r);
}

/* Pull every point of an open reader into out; all or nothing (out is not touched on error). */
static int drain(struct import_reader *r, struct import_report *report, struct point_list *out)
{
    size_t first = out->n;
    struct point p;
    int rc;
    point_init(&p);
    for (;;) {
        struct point *dst;
        rc = import_next(r, &p);
        if (rc != 1)
            break;
        if (r->opt.max_points && out->n >= r->opt.max_points) {
            import_diag(&r->src, IMPORT_ERROR, 0,
                        "more than %zu points: this command holds every point in memory and "
                        "takes at most %zu (about %zu MB); sizeup import reads files of any size",
                        r->opt.max_points, r->opt.max_points, r->opt.max_points * 3 / 4 / 1000 + 1);
            rc = IMPORT_ETOOMANY;
            break;
        }
        if (!(dst = point_list_push(out))) {
            import_diag(&r->src, IMPORT_ERROR, 0, "out of memory");
            rc = IMPORT_ENOMEM;
            break;
        }
        *dst = p; /* moves ownership */
        point_init(&p);
    }
    point_destroy(&p);
    if (rc < 0) {
        point_list_truncate(out, first);
        report->n_points = report->n_incomplete = 0;
        return rc;
    }
    return report->n_warnings > 0 ? IMPORT_WARN : IMPORT_OK;
}

int import_file(const char *path, const struct import_options *opt, struct point_list *out,
                struct import_report *report)
{
    struct import_reader *r;
    int rc = import_open(path, opt, report, &r);
    if (rc != IMPORT_OK)
        return rc;
    rc = drain(r, report, out);
    import_close(r);
    return rc;
}

int import_buffer(const char *buf, size_t len, const char *name, const struct import_options *opt,
                  struct point_list *out, struct import_report *report)
{
    struct import_reader *r;
    int rc = import_open_buffer(buf, len, name, opt, report, &r);
    if (rc != IMPORT_OK)
        return rc;
    rc = drain(r, report, out);
    import_close(r);
    return rc;
}

/* ---- sizeup.point/1 JSON Lines ---- */

static int points_detect(const char *buf, size_t len, const char *path)
{
    (void)path;
    return point_looks_like_jsonl(buf, len);
}

static void *points_open(struct import_src *src)
{
    return src; /* no state of its own */
}

static int points_next(void *state, struct point *out)
{
    struct import_src *src = state;
    struct lines *l = src->lines;
    for (;;) {
        struct point_error err;
        int rc = import_read_line(src);
        if (rc <= 0)
            return rc;
        rc = point_parse_line(l->line, l->line_len, src->name, l->no, out, &err);
        if (rc == 0)
            continue; /* blank */
        if (rc < 0) {
            import_diag(src, IMPORT_ERROR, -1, "%s", err.msg);
            return rc == POINT_ENOMEM ? IMPORT_ENOMEM : IMPORT_EPARSE;
        }
        return 1;
    }
}

static void points_close(void *state)
{
    (void)state;
}
