/* cmd_import.c - `sizeup import FILE...`: benchmark results -> sizeup.point/1 records, streamed:
 * each point is written as it is read, so memory stays flat whatever the input's size. */
#include "cli.h"
#include "commands.h"
#include "import.h"
#include "outfile.h"
#include "point.h"
#include "suite.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct import_cli {
    struct import_options opt; /* workload, target, format, threads */
    const char *output;
    int summary;
};

static const struct cli_choice import_formats[] = {
    {"auto", IMPORT_AUTO},       {"sysbench", IMPORT_SYSBENCH},   {"csv", IMPORT_CSV},
    {"tsv", IMPORT_TSV},         {"markdown", IMPORT_MARKDOWN},   {"gnuplot", IMPORT_GNUPLOT},
    {"pgbench", IMPORT_PGBENCH}, {"benchbase", IMPORT_BENCHBASE}, {"hammerdb", IMPORT_HAMMERDB},
    {"go-tpc", IMPORT_GOTPC},    {"points", IMPORT_POINTS},       {NULL, 0}};

#define A(field) CLI_AT(struct import_cli, field)
static const struct cli_opt import_options[] = {
    {"output", 'o', CLI_PATH, A(output),
     .help = "write the records to FILE (replaced whole at the end) instead of stdout"},
    {"workload", 'w', CLI_STRING, A(opt.workload), .dflt_doc = "from the file name, else unknown",
     .help = "workload when a file does not say it"},
    {"target", 't', CLI_STRING, A(opt.target), .dflt_doc = "the file's base name",
     .help = "target when a file does not say it"},
    {"threads", 0, CLI_INT, A(opt.threads), .min = 1, .max = 1000000, .dflt_doc = "none",
     .help = "concurrency when a file does not say it (go-tpc prints none: its -T)"},
    {"format", 0, CLI_CHOICE, A(opt.format), .arg_name = "FMT", .choices = import_formats,
     .dflt = "auto", .help = "the input format (points: sizeup.point/1 JSON Lines)"},
    {"summary", 0, CLI_FLAG, A(summary),
     .help = "print one line per curve (target, workload) instead of the records"},
    {0}};
#undef A

const struct cli_cmd cmd_import_cli = {
    .name = "import",
    .usage = "Usage: sizeup import [OPTIONS] FILE...",
    .description =
        "Read benchmark results and write one sizeup.point/1 record (JSON Lines) per measured\n"
        "point. FILE may be sysbench output (1.0, 1.1, legacy 0.4/0.5; OLTP, fileio, cpu, memory,\n"
        "mutex, threads; several runs in one file; pasted into a document), a table with a header\n"
        "row (CSV as in data/published/, TSV, Markdown, gnuplot .dat), pgbench output or a -l "
        "log,\n"
        "a BenchBase summary.json, HammerDB TPROC-C or go-tpc tpcc output, or point records; '-'\n"
        "reads stdin. Query-suite timings (a table with query and seconds columns, go-tpc tpch,\n"
        "HammerDB TPROC-H) become sizeup.suite/1 records instead, for `sizeup rank --suite`. Files "
        "of any size are read as a stream. A file with an error contributes no\n"
        "record; the others are still imported, and the exit status is 3. A failed sysbench run\n"
        "among good ones is left out with a warning (exit 3). A run killed before its summary is\n"
        "imported from its intermediate reports, marked incomplete, with a warning (exit 3).\n"
        "Out of memory or a failed write exits 1.",
    .options = import_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "no input files: give one or more FILEs ('-' for stdin)"};

/* One curve of --summary. */
struct curve_summary {
    char *target, *workload;
    size_t n;
    double x_min, x_max, best_y, best_x, best_lat;
    const char *lat_name;
    int by_nodes;
};

struct summary {
    struct curve_summary *c;
    size_t n, cap;
};

/* Latency to show for a point: p95, else p99, else avg. */
static double point_lat(const struct point *p, const char **which)
{
    double v = point_percentile(p, 95);
    *which = "p95";
    if (isnan(v)) {
        v = point_percentile(p, 99);
        *which = "p99";
    }
    if (isnan(v)) {
        v = p->latency_ms.avg;
        *which = "avg";
    }
    return v;
}

static void summary_destroy(struct summary *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->c[i].target);
        free(s->c[i].workload);
    }
    free(s->c);
    s->c = NULL;
    s->n = s->cap = 0;
}

/* Count one point into its curve. 0, or -1 when out of memory. */
static int summary_add(struct summary *s, const struct point *p)
{
    struct curve_summary *c = NULL;
    int by_nodes = p->threads <= 0 || (p->nodes > 0);
    double x = by_nodes ? (double)p->nodes : (double)p->threads;
    double y = !isnan(p->tps) ? p->tps : p->qps;
    const char *which;
    double lat = point_lat(p, &which);
    for (size_t j = 0; j < s->n; j++)
        if (strcmp(s->c[j].target, p->target) == 0 && strcmp(s->c[j].workload, p->workload) == 0)
            c = &s->c[j];
    if (!c) {
        if (s->n == s->cap) {
            size_t ncap = s->cap ? s->cap * 2 : 16;
            struct curve_summary *nc = realloc(s->c, ncap * sizeof *nc);
            if (!nc)
                return -1;
            s->c = nc;
            s->cap = ncap;
        }
        c = &s->c[s->n];
        memset(c, 0, sizeof *c);
        c->target = strdup(p->target);
        c->workload = strdup(p->workload);
        if (!c->target || !c->workload) {
            free(c->target);
            free(c->workload);
            return -1;
        }
        s->n++;
        c->x_min = c->x_max = x;
        c->best_y = -1;
        c->by_nodes = by_nodes;
    }
    c->n++;
    c->x_min = fmin(c->x_min, x);
    c->x_max = fmax(c->x_max, x);
    if (!isnan(y) && y > c->best_y) {
        c->best_y = y;
        c->best_x = x;
        c->best_lat = lat;
        c->lat_name = which;
    }
    return 0;
}

/* Add the curves of from into into. 0, or -1 when out of memory. */
static int summary_merge(struct summary *into, const struct summary *from)
{
    for (size_t i = 0; i < from->n; i++) {
        const struct curve_summary *c = &from->c[i];
        struct curve_summary *g = NULL;
        for (size_t j = 0; j < into->n; j++)
            if (strcmp(into->c[j].target, c->target) == 0 &&
                strcmp(into->c[j].workload, c->workload) == 0)
                g = &into->c[j];
        if (!g) {
            if (into->n == into->cap) {
                size_t ncap = into->cap ? into->cap * 2 : 16;
                struct curve_summary *nc = realloc(into->c, ncap * sizeof *nc);
                if (!nc)
                    return -1;
                into->c = nc;
                into->cap = ncap;
            }
            g = &into->c[into->n];
            *g = *c;
            g->target = strdup(c->target);
            g->workload = strdup(c->workload);
            if (!g->target || !g->workload) {
                free(g->target);
                free(g->workload);
                return -1;
            }
            into->n++;
            continue;
        }
        g->n += c->n;
        g->x_min = fmin(g->x_min, c->x_min);
        g->x_max = fmax(g->x_max, c->x_max);
        if (c->best_y > g->best_y) {
            g->best_y = c->best_y;
            g->best_x = c->best_x;
            g->best_lat = c->best_lat;
            g->lat_name = c->lat_name;
        }
    }
    return 0;
}

static void print_summary(const struct summary *s)
{
    printf("%-20s %-22s %6s %12s %12s %8s %12s\n", "target", "workload", "points", "x range",
           "peak tps", "at x", "latency ms");
    for (size_t j = 0; j < s->n; j++) {
        char range[32], lat[32];
        const struct curve_summary *c = &s->c[j];
        snprintf(range, sizeof range, "%s %g-%g", c->by_nodes ? "n" : "t", c->x_min, c->x_max);
        if (c->best_y >= 0 && !isnan(c->best_lat))
            snprintf(lat, sizeof lat, "%s %.2f", c->lat_name, c->best_lat);
        else
            snprintf(lat, sizeof lat, "-");
        if (c->best_y >= 0)
            printf("%-20s %-22s %6zu %12s %12.2f %8g %12s\n", c->target, c->workload, c->n, range,
                   c->best_y, c->best_x, lat);
        else
            printf("%-20s %-22s %6zu %12s %12s %8s %12s\n", c->target, c->workload, c->n, range,
                   "-", "-", lat);
    }
}

/*
 * Where the records of one input go until the input is known to be whole: straight into the
 * output when it is a regular file (a failed input is cut off again with ftruncate), else
 * into a spool file (created and unlinked at once, so nothing is left behind on a signal)
 * copied to the output once the input is whole.
 */
struct sink {
    FILE *out;
    const char *out_name;
    int seekable;
    off_t mark;
    FILE *spool;
};

static int sink_init(struct sink *k, FILE *out, const char *out_name)
{
    struct stat st;
    k->out = out;
    k->out_name = out_name;
    k->spool = NULL;
    k->mark = 0;
    k->seekable = fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode) && ftello(out) >= 0;
    return 0;
}

static FILE *sink_file(struct sink *k)
{
    return k->seekable ? k->out : k->spool;
}

/* Start an input. 0, or -1 (message printed). */
static int sink_begin(struct sink *k)
{
    if (k->seekable) {
        if (fflush(k->out) != 0 || (k->mark = ftello(k->out)) < 0) {
            fprintf(stderr, "sizeup: cannot write %s: %s\n", k->out_name, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!k->spool) {
        const char *dir = getenv("TMPDIR");
        char path[4096];
        int fd;
        snprintf(path, sizeof path, "%s/sizeup-import.XXXXXX", dir && *dir ? dir : "/tmp");
        fd = mkstemp(path);
        if (fd < 0 || !(k->spool = fdopen(fd, "w+"))) {
            fprintf(stderr, "sizeup: cannot create a spool file in %s: %s\n",
                    dir && *dir ? dir : "/tmp", strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        unlink(path); /* the open file stays usable; no name is left behind */
    }
    return 0;
}

/* The input is whole: its records stay. 0, or -1 (message printed). */
static int sink_commit(struct sink *k)
{
    char buf[65536];
    size_t n;
    if (k->seekable)
        return 0;
    if (fflush(k->spool) != 0 || fseeko(k->spool, 0, SEEK_SET) != 0)
        goto fail;
    while ((n = fread(buf, 1, sizeof buf, k->spool)) > 0)
        if (fwrite(buf, 1, n, k->out) != n)
            goto fail;
    if (ferror(k->spool) || fflush(k->out) != 0)
        goto fail;
    if (fseeko(k->spool, 0, SEEK_SET) != 0 || ftruncate(fileno(k->spool), 0) != 0)
        goto fail;
    return 0;
fail:
    fprintf(stderr, "sizeup: cannot write %s: %s\n", k->out_name, strerror(errno ? errno : EIO));
    return -1;
}

/* The input failed: its records go. 0, or -1 (message printed). */
static int sink_rollback(struct sink *k)
{
    FILE *f = sink_file(k);
    off_t to = k->seekable ? k->mark : 0;
    if (fflush(f) != 0 || ftruncate(fileno(f), to) != 0 || fseeko(f, to, SEEK_SET) != 0) {
        fprintf(stderr, "sizeup: cannot write %s: %s\n", k->out_name, strerror(errno));
        return -1;
    }
    return 0;
}

static void sink_destroy(struct sink *k)
{
    if (k->spool)
        fclose(k->spool);
    k->spool = NULL;
}

/* Diagnostics of the readers go to stderr as they happen. */
struct diag_ctx {
    size_t errors;
};

static void print_diag(void *ctx, enum import_severity sev, const char *msg)
{
    struct diag_ctx *d = ctx;
    if (sev == IMPORT_ERROR)
        d->errors++;
    fprintf(stderr, "sizeup: %s\n", msg);
}

struct run_state {
    int kinds; /* what was written: 1 points, 2 suites (one output holds one kind) */
    struct sink sink;
    struct summary sum, file_sum;
    int write_records, summary;
    size_t n_points, n_suites;
    int n_files_ok;
};

/* 1 when path, a regular file, holds query-suite timings rather than points (a pipe or stdin
 * can be read once only: suites there need --format suite). */
static int is_suite_file(const char *path)
{
    char buf[65536];
    struct stat st;
    size_t n;
    FILE *f;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
        !(f = fopen(path, "rb")))
        return 0;
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return suite_detect(buf, n);
}

/* Import one file of suite timings: sizeup.suite/1 records. The exit status it asks for. */
static int import_suite(struct run_state *st, const char *path, const struct import_options *opt)
{
    struct suite_options so = {.target = opt->target, .suite = opt->workload};
    struct suite_list l;
    char err[512];
    int rc;
    if (st->kinds & 1) {
        fprintf(stderr,
                "sizeup: %s: query-suite timings and point records go to different "
                "outputs: import it on its own\n",
                path);
        return SIZEUP_EXIT_INPUT;
    }
    suite_list_init(&l);
    rc = suite_read_file(path, &so, &l, err, sizeof err);
    if (rc != SUITE_OK) {
        fprintf(stderr, "sizeup: %s\n", err);
        return rc == SUITE_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
    }
    if (st->write_records && sink_begin(&st->sink) != 0)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        if (st->write_records && suite_write(sink_file(&st->sink), &l.items[i], err, sizeof err)) {
            fprintf(stderr, "sizeup: %s: %s\n", st->sink.out_name, err);
            rc = -1;
        }
        if (st->summary)
            printf("%-20s %-10s %4zu queries %3zu failed %12.2f s\n", l.items[i].target,
                   l.items[i].suite, l.items[i].n_q, suite_failed(&l.items[i]),
                   suite_total_s(&l.items[i]));
    }
    if (rc == 0 && st->write_records && sink_commit(&st->sink) != 0)
        rc = -1;
    if (rc != 0 && st->write_records)
        sink_rollback(&st->sink);
    if (rc == 0) {
        st->kinds |= 2;
        st->n_suites += l.n;
        st->n_files_ok++;
    }
    suite_list_destroy(&l);
    return rc == 0 ? SIZEUP_EXIT_OK : SIZEUP_EXIT_FAIL;
}

/* Import one file into the sink. The exit status it asks for (OK, INPUT or FAIL). */
static int import_one(struct run_state *st, const char *path, struct import_options *opt,
                      struct diag_ctx *dc)
{
    struct import_reader *r;
    struct import_report rep;
    struct point p;
    size_t errors_before = dc->errors, n = 0;
    int rc, status = SIZEUP_EXIT_OK;
    if (opt->format == IMPORT_SUITE || (opt->format == IMPORT_AUTO && is_suite_file(path)))
        return import_suite(st, path, opt);
    if (st->kinds & 2) {
        fprintf(stderr,
                "sizeup: %s: point records and query-suite timings go to different "
                "outputs: import it on its own\n",
                path);
        return SIZEUP_EXIT_INPUT;
    }
    rc = import_open(path, opt, &rep, &r);
    if (rc != IMPORT_OK) {
        if (dc->errors == errors_before)
            fprintf(stderr, "sizeup: %s\n", rep.msg);
        return rc == IMPORT_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
    }
    if (st->write_records && sink_begin(&st->sink) != 0) {
        import_close(r);
        return SIZEUP_EXIT_FAIL;
    }
    point_init(&p);
    while ((rc = import_next(r, &p)) == 1) {
        struct point_error err;
        if (st->write_records && point_write(sink_file(&st->sink), &p, &err) != POINT_OK) {
            fprintf(stderr, "sizeup: %s: %s\n", st->sink.out_name, err.msg);
            rc = IMPORT_EIO;
            status = SIZEUP_EXIT_FAIL;
            break;
        }
        if (st->summary && summary_add(&st->file_sum, &p) != 0) {
            fprintf(stderr, "sizeup: out of memory\n");
            rc = IMPORT_ENOMEM;
            break;
        }
        n++;
    }
    point_destroy(&p);
    import_close(r);
    if (rc < 0) {
        if (status == SIZEUP_EXIT_OK && dc->errors == errors_before)
            fprintf(stderr, "sizeup: %s\n", rep.msg);
        if (st->write_records && sink_rollback(&st->sink) != 0)
            status = SIZEUP_EXIT_FAIL;
        summary_destroy(&st->file_sum);
        if (status == SIZEUP_EXIT_OK)
            status = rc == IMPORT_ENOMEM ? SIZEUP_EXIT_FAIL : SIZEUP_EXIT_INPUT;
        return status;
    }
    if (st->write_records && sink_commit(&st->sink) != 0)
        return SIZEUP_EXIT_FAIL;
    if (st->summary) {
        int mrc = summary_merge(&st->sum, &st->file_sum);
        summary_destroy(&st->file_sum);
        if (mrc != 0) {
            fprintf(stderr, "sizeup: out of memory\n");
            return SIZEUP_EXIT_FAIL;
        }
    }
    st->n_points += n;
    st->n_files_ok++;
    st->kinds |= 1;
    return rep.n_warnings > 0 ? SIZEUP_EXIT_INPUT : SIZEUP_EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
    struct import_cli o;
    struct cli_args args;
    struct import_options opt;
    struct diag_ctx dc = {0};
    const char *output;
    int summary, status = SIZEUP_EXIT_OK, rc;
    struct outfile of;
    struct run_state st;
    char errbuf[512];

    memset(&o, 0, sizeof o);
    if ((rc = cli_parse(&cmd_import_cli, argc, argv, &o, &args)) != CLI_RUN)
        return rc;
    output = o.output;
    summary = o.summary;
    opt = o.opt;
    opt.diag = print_diag;
    opt.diag_ctx = &dc;

    memset(&st, 0, sizeof st);
    st.summary = summary;
    st.write_records = !summary || output;
    if (output && outfile_open(&of, output, errbuf, sizeof errbuf) != 0) {
        fprintf(stderr, "sizeup: %s\n", errbuf);
        return SIZEUP_EXIT_FAIL;
    }
    if (st.write_records)
        sink_init(&st.sink, output ? of.f : stdout, output ? output : "stdout");
    for (int i = 0; i < args.argc; i++) {
        int s = import_one(&st, args.argv[i], &opt, &dc);
        if (s == SIZEUP_EXIT_FAIL) {
            status = SIZEUP_EXIT_FAIL;
            break;
        }
        if (s != SIZEUP_EXIT_OK)
            status = s;
    }
    if (st.write_records)
        sink_destroy(&st.sink);
    if (output) {
        if (status == SIZEUP_EXIT_FAIL) {
            outfile_abort(&of);
            fprintf(stderr, "sizeup: %s is left as it was\n", output);
        } else if (st.n_points + st.n_suites == 0 && status != SIZEUP_EXIT_OK) {
            outfile_abort(&of);
            fprintf(stderr, "sizeup: nothing was imported; %s is left as it was\n", output);
        } else if (outfile_commit(&of, errbuf, sizeof errbuf) != 0) {
            fprintf(stderr, "sizeup: %s\n", errbuf);
            status = SIZEUP_EXIT_FAIL;
        }
    } else if (st.write_records && fflush(stdout) != 0) {
        fprintf(stderr, "sizeup: cannot write stdout: %s\n", strerror(errno));
        status = SIZEUP_EXIT_FAIL;
    }
    if (summary && status != SIZEUP_EXIT_FAIL && st.sum.n)
        print_summary(&st.sum);
    summary_destroy(&st.sum);
    summary_destroy(&st.file_sum);
    if (status != SIZEUP_EXIT_FAIL && st.n_suites)
        fprintf(stderr, "sizeup: imported %zu suite run(s) from %d of %d file(s)\n", st.n_suites,
                st.n_files_ok, args.argc);
    else if (status != SIZEUP_EXIT_FAIL)
        fprintf(stderr, "sizeup: imported %zu point(s) from %d of %d file(s)\n", st.n_points,
                st.n_files_ok, args.argc);
    return status;
}
