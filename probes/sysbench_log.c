/* sysbench_log.c - sysbench text output (1.0, 1.1, 0.4, 0.5; oltp, fileio, cpu, memory) -> points. */
#include "sysbench_log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 1024

/* Which block of the output the parser is in. */
enum block {
    B_NONE,
    B_SQL,        /* "SQL statistics:" / "OLTP test statistics:" */
    B_GENERAL,    /* "General statistics:" / "Test execution summary:" / 1.1 "Throughput:" */
    B_LATENCY,    /* "Latency (ms):" / "per-request statistics:" / "response time:" */
    B_FAIRNESS,   /* "Threads fairness:" */
    B_FILEOPS,    /* fileio "File operations:" */
    B_FILETHRU,   /* fileio "Throughput:" */
    B_HISTOGRAM,  /* "Latency histogram (values are in milliseconds)" */
    B_CPU         /* "CPU speed:" */
};

struct run {
    struct point p;
    long first_line;
    int has_summary;   /* a statistics block was read */
    int has_latency;   /* the latency block was read */
    long fatal_line;   /* first FATAL line, 0 when none */
    char fatal[200];
    int version_major; /* -1 unknown */
    const char *workload_hint; /* from the content: fileio_*, cpu, memory, oltp_legacy */
    double fileio_latency_pct;
};

struct parser {
    const char *name;
    const struct import_options *opt;
    struct import_report *report;
    struct point_list runs_out; /* finished points */
    struct run run;
    int in_run;
    enum block block;
    long line_no;
    size_t n_incomplete;
};

static void report_msg(struct parser *ps, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report_msg(struct parser *ps, long line, const char *fmt, ...)
{
    char body[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(ps->report->msg, sizeof ps->report->msg, "%s:%ld: %s", ps->name, line, body);
    else
        snprintf(ps->report->msg, sizeof ps->report->msg, "%s: %s", ps->name, body);
}

/* Copy text for a message: non-printable and non-ASCII bytes become '?'. */
static void sanitize(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; *src && i + 1 < cap; src++)
        dst[i++] = (*src >= 32 && *src < 127) ? *src : '?';
    dst[i] = '\0';
}

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* After prefix (which may contain spaces matched exactly), or NULL. */
static const char *after(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/* Strict number at *s (leading blanks skipped); advances *s. Returns 0 or -1. */
static int num(const char **s, double *out)
{
    char *end;
    const char *p = skip_ws(*s);
    if (!(isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1])) || *p == '.'))
        return -1;
    errno = 0;
    *out = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(*out))
        return -1;
    *s = end;
    return 0;
}

static int count(const char **s, int64_t *out)
{
    char *end;
    const char *p = skip_ws(*s);
    long long v;
    if (!isdigit((unsigned char)*p))
        return -1;
    errno = 0;
    v = strtoll(p, &end, 10);
    if (errno == ERANGE || v < 0)
        return -1;
    *out = v;
    *s = end;
    return 0;
}

/* The text *s must continue with lit (after optional blanks); advances. */
static int lit(const char **s, const char *text)
{
    const char *p = skip_ws(*s);
    size_t n = strlen(text);
    if (strncmp(p, text, n) != 0)
        return -1;
    *s = p + n;
    return 0;
}

static int at_end(const char *s)
{
    return *skip_ws(s) == '\0';
}

/* "N (X per sec.)" or "N (X per second)" */
static int count_rate(const char *s, int64_t *n, double *rate)
{
    if (count(&s, n) || lit(&s, "(") || num(&s, rate))
        return -1;
    if (lit(&s, "per sec.)") && lit(&s, "per second)"))
        return -1;
    return at_end(s) ? 0 : -1;
}

static void run_start(struct parser *ps)
{
    struct run *r = &ps->run;
    point_init(&r->p);
    r->first_line = ps->line_no;
    r->has_summary = r->has_latency = 0;
    r->fatal_line = 0;
    r->fatal[0] = '\0';
    r->version_major = -1;
    r->workload_hint = NULL;
    r->fileio_latency_pct = NAN;
    r->p.source_kind = POINT_SRC_SYSBENCH_LOG;
    r->p.source_line = ps->line_no;
    ps->in_run = 1;
    ps->block = B_NONE;
}

static const char *base_name(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    const char *b = slash ? slash + 1 : path;
    char *dot;
    snprintf(buf, cap, "%s", b);
    dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
    return buf;
}

static double series_mean(const struct point *p, size_t field_off)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < p->n_series; i++) {
        double v = *(const double *)((const char *)&p->series[i] + field_off);
        if (!isnan(v)) {
            sum += v;
            n++;
        }
    }
    return n ? sum / (double)n : NAN;
}

/* Finish the current run: validate, fill defaults, move it to the output list. */
static int run_finish(struct parser *ps)
{
    struct run *r = &ps->run;
    struct point *dst;
    char buf[256];
    int rc = IMPORT_OK;
    if (!ps->in_run)
        return IMPORT_OK;
    ps->in_run = 0;
    if (r->fatal_line) {
        report_msg(ps, r->fatal_line,
                   "sysbench reported a fatal error, so this run has no results: %s "
                   "(expected a run that ends with its statistics)",
                   r->fatal);
        point_destroy(&r->p);
        return IMPORT_EPARSE;
    }
    if (!r->has_summary && r->p.n_series == 0) {
        report_msg(ps, r->first_line,
                   "a sysbench run with no results: expected intermediate \"[ Ns ]\" lines or "
                   "a statistics block");
        point_destroy(&r->p);
        return IMPORT_EPARSE;
    }
    if (r->has_summary && !r->has_latency) {
        report_msg(ps, ps->line_no,
                   "the run's statistics end before its latency block: expected \"Latency "
                   "(ms):\" or \"response time:\" with min/avg/max");
        point_destroy(&r->p);
        return IMPORT_EPARSE;
    }
    if (!r->has_summary) {
        /* killed before its summary: keep the intervals, say so */
        const struct point_interval *last = &r->p.series[r->p.n_series - 1];
        r->p.incomplete = 1;
        if (point_add_flag(&r->p, "no_summary"))
            goto nomem;
        r->p.tps = series_mean(&r->p, offsetof(struct point_interval, tps));
        r->p.qps = series_mean(&r->p, offsetof(struct point_interval, qps));
        r->p.reads_ps = series_mean(&r->p, offsetof(struct point_interval, reads_ps));
        r->p.writes_ps = series_mean(&r->p, offsetof(struct point_interval, writes_ps));
        r->p.other_ps = series_mean(&r->p, offsetof(struct point_interval, other_ps));
        r->p.errors_ps = series_mean(&r->p, offsetof(struct point_interval, errors_ps));
        r->p.reconnects_ps = series_mean(&r->p, offsetof(struct point_interval, reconnects_ps));
        r->p.duration_s = last->t_s;
        if (r->p.threads <= 0 && last->threads > 0)
            r->p.threads = last->threads;
        ps->n_incomplete++;
        report_msg(ps, r->first_line,
                   "warning: the run ends after %zu intermediate report(s) without its summary "
                   "(killed?); imported from the intervals and marked incomplete",
                   r->p.n_series);
        rc = IMPORT_WARN;
    }
    if (r->p.threads <= 0) {
        report_msg(ps, r->first_line,
                   "the run does not say its thread count: expected \"Number of threads: N\"");
        point_destroy(&r->p);
        return IMPORT_EPARSE;
    }
    if (!r->p.workload) {
        const char *w = r->workload_hint;
        if (!w)
            w = ps->opt && ps->opt->workload ? ps->opt->workload : NULL;
        if (!w)
            w = import_workload_from_name(ps->name);
        if (!w)
            w = "unknown";
        if (point_set_str(&r->p.workload, w))
            goto nomem;
    }
    if (!r->p.target) {
        const char *t = ps->opt && ps->opt->target ? ps->opt->target
                                                   : base_name(ps->name, buf, sizeof buf);
        if (point_set_str(&r->p.target, t))
            goto nomem;
    }
    if (point_set_str(&r->p.source_file, ps->name))
        goto nomem;
    dst = point_list_push(&ps->runs_out);
    if (!dst)
        goto nomem;
    *dst = r->p; /* moves ownership */
    point_init(&r->p);
    return rc;
nomem:
    point_destroy(&r->p);
    report_msg(ps, 0, "out of memory");
    return IMPORT_ENOMEM;
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

static int bad_line(struct parser *ps, const char *expected, const char *line)
{
    char shown[120];
    sanitize(shown, sizeof shown, line);
    report_msg(ps, ps->line_no, "expected %s, found \"%s\"", expected, shown);
    return IMPORT_EPARSE;
}

/* "[ 1s ] thds: 2 tps: ..." (1.0/1.1 DB), "[ 1s ] thds: 2 eps: ..." (non-DB), fileio, 0.5. */
static int interval_line(struct parser *ps, const char *s)
{
    struct point_interval iv = point_interval_none();
    struct run *r = &ps->run;
    const char *p = s + 1;
    double t, th;
    if (num(&p, &t) || lit(&p, "s"))
        return bad_line(ps, "an intermediate report \"[ Ns ] ...\"", s);
    if (lit(&p, "]"))
        return bad_line(ps, "an intermediate report \"[ Ns ] ...\"", s);
    iv.t_s = t;
    p = skip_ws(p);
    if (after(p, "queue length:") || after(p, "Checkpoint report:"))
        return IMPORT_OK; /* --rate queue line; checkpoints are read as their own blocks */
    if (after(p, "thds:")) {
        const char *q = p + 5;
        if (num(&q, &th) || th < 0 || th > 1e9)
            return bad_line(ps, "\"thds: N\"", s);
        iv.threads = (int)th;
        if (!lit(&q, "tps:")) {
            if (num(&q, &iv.tps) || lit(&q, "qps:") || num(&q, &iv.qps) || lit(&q, "(r/w/o:") ||
                num(&q, &iv.reads_ps) || lit(&q, "/") || num(&q, &iv.writes_ps) || lit(&q, "/") ||
                num(&q, &iv.other_ps) || lit(&q, ")") || lit(&q, "lat (ms,") ||
                num(&q, &iv.pct) || lit(&q, "%):") || num(&q, &iv.lat_ms) ||
                lit(&q, "err/s:") || num(&q, &iv.errors_ps) || lit(&q, "reconn/s:") ||
                num(&q, &iv.reconnects_ps))
                return bad_line(ps,
                                "\"[ Ns ] thds: N tps: X qps: X (r/w/o: X/X/X) lat (ms,P%): X "
                                "err/s: X reconn/s: X\"",
                                s);
        } else if (!lit(&q, "eps:")) {
            if (num(&q, &iv.tps) || lit(&q, "lat (ms,") || num(&q, &iv.pct) || lit(&q, "%):") ||
                num(&q, &iv.lat_ms))
                return bad_line(ps, "\"[ Ns ] thds: N eps: X lat (ms,P%): X\"", s);
        } else {
            return bad_line(ps, "\"tps:\" or \"eps:\" after \"thds: N\"", s);
        }
    } else if (after(p, "reads:")) {
        /* fileio: reads: X MiB/s writes: X MiB/s fsyncs: X/s latency (ms,P%): X */
        const char *q = p + 6;
        double rd, wr, fs;
        if (num(&q, &rd) || lit(&q, "MiB/s writes:") || num(&q, &wr) || lit(&q, "MiB/s fsyncs:") ||
            num(&q, &fs) || lit(&q, "/s latency (ms,") || num(&q, &iv.pct) || lit(&q, "%):") ||
            num(&q, &iv.lat_ms))
            return bad_line(ps,
                            "\"[ Ns ] reads: X MiB/s writes: X MiB/s fsyncs: X/s latency "
                            "(ms,P%): X\"",
                            s);
        /* MiB/s go in the series' reads_ps/writes_ps slots, fsyncs/s in other_ps */
        iv.reads_ps = rd;
        iv.writes_ps = wr;
        iv.other_ps = fs;
    } else if (after(p, "threads:")) {
        /* 0.5: threads: N, tps: X, reads: X, writes: X, response time: Xms (P%), errors: X,
         * reconnects: X   (0.4 later builds: reads/s:, writes/s: and no errors) */
        const char *q = p + 8;
        if (num(&q, &th) || th < 0 || th > 1e9 || lit(&q, ",") || lit(&q, "tps:") ||
            num(&q, &iv.tps) || lit(&q, ","))
            return bad_line(ps, "\"[ Ns] threads: N, tps: X, ...\"", s);
        iv.threads = (int)th;
        if ((lit(&q, "reads:") && lit(&q, "reads/s:")) || num(&q, &iv.reads_ps) || lit(&q, ",") ||
            (lit(&q, "writes:") && lit(&q, "writes/s:")) || num(&q, &iv.writes_ps))
            return bad_line(ps, "\"reads: X, writes: X\"", s);
        lit(&q, ",");
        if (lit(&q, "response time:") || num(&q, &iv.lat_ms) || lit(&q, "ms (") ||
            num(&q, &iv.pct) || lit(&q, "%)"))
            return bad_line(ps, "\"response time: Xms (P%)\"", s);
        if (!lit(&q, ",") && !lit(&q, "errors:")) {
            if (num(&q, &iv.errors_ps) || lit(&q, ",") || lit(&q, "reconnects:") ||
                num(&q, &iv.reconnects_ps))
                return bad_line(ps, "\"errors: X, reconnects: X\"", s);
        }
    } else {
        return bad_line(ps, "an intermediate report \"[ Ns ] thds: ...\"", s);
    }
    if (!ps->in_run)
        run_start(ps);
    if (iv.threads > 0 && r->p.threads <= 0)
        r->p.threads = iv.threads;
    if (point_series_append(&r->p, &iv))
        return IMPORT_ENOMEM;
    return IMPORT_OK;
}

/* "read:  N" etc. inside SQL / OLTP statistics. */
static int sql_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    int64_t n;
    double rate;
    if ((v = after(t, "queries performed:")))
        return IMPORT_OK;
    if ((v = after(t, "read:")) || (v = after(t, "write:")) || (v = after(t, "other:")) ||
        (v = after(t, "total:"))) {
        if (count(&v, &n) || !at_end(v))
            return bad_line(ps, "a count, e.g. \"read: 27216\"", raw);
        if (t[0] == 'r')
            p->reads = n;
        else if (t[0] == 'w')
            p->writes = n;
        else if (t[0] == 'o')
            p->other = n;
        else
            p->queries = n;
        return IMPORT_OK;
    }
    if ((v = after(t, "transactions:"))) {
        if (count_rate(v, &p->transactions, &p->tps))
            return bad_line(ps, "\"transactions: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = after(t, "queries:"))) {
        if (count_rate(v, &p->queries, &p->qps))
            return bad_line(ps, "\"queries: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = after(t, "ignored errors:")) || (v = after(t, "deadlocks:"))) {
        if (count_rate(v, &p->errors, &p->errors_ps))
            return bad_line(ps, "\"ignored errors: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = after(t, "reconnects:"))) {
        if (count_rate(v, &p->reconnects, &p->reconnects_ps))
            return bad_line(ps, "\"reconnects: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = after(t, "read/write requests:"))) {
        if (count_rate(v, &n, &rate))
            return bad_line(ps, "\"read/write requests: N (X per sec.)\"", raw);
        /* legacy: queries = all statements incl. other; qps follows from the total */
        return set_extra(p, "rw_requests_ps", json_real(rate)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = after(t, "other operations:"))) {
        if (count_rate(v, &n, &rate))
            return bad_line(ps, "\"other operations: N (X per sec.)\"", raw);
        return set_extra(p, "other_operations_ps", json_real(rate)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    return IMPORT_OK; /* other lines of the block carry nothing we keep */
}

static int general_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double x;
    int64_t n;
    if ((v = after(t, "total time taken by event execution:"))) {
        if (num(&v, &x))
            return bad_line(ps, "\"total time taken by event execution: X\"", raw);
        return set_extra(p, "event_execution_s", json_real(x)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = after(t, "total time:")) || (v = after(t, "time elapsed:"))) {
        if (num(&v, &x) || lit(&v, "s") || !at_end(v))
            return bad_line(ps, "\"total time: Xs\"", raw);
        p->duration_s = x;
        return IMPORT_OK;
    }
    if ((v = after(t, "total number of events:"))) {
        if (count(&v, &n) || !at_end(v))
            return bad_line(ps, "\"total number of events: N\"", raw);
        if (p->transactions < 0)
            p->transactions = n;
        return set_extra(p, "events", json_integer(n)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = after(t, "events/s (eps):"))) {
        if (num(&v, &x) || !at_end(v))
            return bad_line(ps, "\"events/s (eps): X\"", raw);
        return set_extra(p, "eps", json_real(x)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    return IMPORT_OK;
}

static int latency_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double x, pct;
    /* values end with "ms" in legacy outputs */
#define LAT_VALUE(dst)                                                                            \
    do {                                                                                          \
        if (num(&v, &x))                                                                          \
            return bad_line(ps, "a latency in ms, e.g. \"avg: 5.15\"", raw);                     \
        (void)lit(&v, "ms");                                                                      \
        if (!at_end(v))                                                                           \
            return bad_line(ps, "a latency in ms, e.g. \"avg: 5.15\"", raw);                     \
        dst = x;                                                                                  \
    } while (0)
    if ((v = after(t, "min:"))) {
        LAT_VALUE(p->latency_ms.min);
    } else if ((v = after(t, "avg:"))) {
        LAT_VALUE(p->latency_ms.avg);
        ps->run.has_latency = 1;
    } else if ((v = after(t, "max:"))) {
        LAT_VALUE(p->latency_ms.max);
    } else if ((v = after(t, "sum:"))) {
        LAT_VALUE(p->latency_ms.sum);
    } else if ((v = after(t, "approx."))) {
        if (num(&v, &pct) || lit(&v, "percentile:"))
            return bad_line(ps, "\"approx.  95 percentile: Xms\"", raw);
        LAT_VALUE(x);
        if (point_set_percentile(p, pct, x))
            return bad_line(ps, "a percentile in (0, 100]", raw);
    } else if (isdigit((unsigned char)t[0])) {
        const char *q = t;
        if (num(&q, &pct) || (lit(&q, "th") && lit(&q, "st") && lit(&q, "nd") && lit(&q, "rd")) ||
            lit(&q, "percentile:"))
            return bad_line(ps, "\"95th percentile: X\"", raw);
        v = q;
        LAT_VALUE(x);
        if (point_set_percentile(p, pct, x))
            return bad_line(ps, "a percentile in (0, 100]", raw);
    }
#undef LAT_VALUE
    return IMPORT_OK; /* "percentile stats: disabled" and the like */
}

static int fairness_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double a, sd;
    const char *key = NULL;
    if ((v = after(t, "events (avg/stddev):")))
        key = "fairness_events";
    else if ((v = after(t, "execution time (avg/stddev):")))
        key = "fairness_execution_s";
    if (!key)
        return IMPORT_OK;
    if (num(&v, &a) || lit(&v, "/") || num(&v, &sd) || !at_end(v))
        return bad_line(ps, "\"avg/stddev\" as two numbers \"X/Y\"", raw);
    return set_extra(p, key, json_pack("{s:f,s:f}", "avg", a, "stddev", sd)) ? IMPORT_ENOMEM
                                                                            : IMPORT_OK;
}

static int fileops_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double x;
    double *dst = NULL;
    if ((v = after(t, "reads/s:")))
        dst = &p->io.reads_ps;
    else if ((v = after(t, "writes/s:")))
        dst = &p->io.writes_ps;
    else if ((v = after(t, "fsyncs/s:")))
        dst = &p->io.fsyncs_ps;
    if (!dst)
        return IMPORT_OK;
    if (num(&v, &x) || !at_end(v))
        return bad_line(ps, "\"reads/s: X\"", raw);
    *dst = x;
    ps->run.has_summary = 1;
    return IMPORT_OK;
}

/* fileio "Throughput:" (1.0: "read, MiB/s: X"; 1.1: "read:  IOPS=X X MiB/s (X MB/s)"). */
static int filethru_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double iops, mib, mb;
    if ((v = after(t, "read, MiB/s:"))) {
        if (num(&v, &p->io.read_mib_s) || !at_end(v))
            return bad_line(ps, "\"read, MiB/s: X\"", raw);
    } else if ((v = after(t, "written, MiB/s:"))) {
        if (num(&v, &p->io.written_mib_s) || !at_end(v))
            return bad_line(ps, "\"written, MiB/s: X\"", raw);
    } else if ((v = after(t, "read:")) || (v = after(t, "write:"))) {
        int is_read = t[4] == ':';
        if (lit(&v, "IOPS=") || num(&v, &iops) || num(&v, &mib) || lit(&v, "MiB/s (") ||
            num(&v, &mb) || lit(&v, "MB/s)"))
            return bad_line(ps, "\"read: IOPS=X X MiB/s (X MB/s)\"", raw);
        if (is_read) {
            p->io.reads_ps = iops;
            p->io.read_mib_s = mib;
        } else {
            p->io.writes_ps = iops;
            p->io.written_mib_s = mib;
        }
        ps->run.has_summary = 1;
    } else if ((v = after(t, "fsync:"))) {
        if (lit(&v, "IOPS=") || num(&v, &p->io.fsyncs_ps))
            return bad_line(ps, "\"fsync: IOPS=X\"", raw);
    }
    return IMPORT_OK;
}

static int histogram_line(struct parser *ps, const char *t, const char *raw)
{
    const char *v = t, *bar;
    double value;
    int64_t n;
    if (after(t, "value"))
        return IMPORT_OK; /* the column header */
    bar = strchr(t, '|');
    if (num(&v, &value) || !bar || skip_ws(v) != bar)
        return bad_line(ps, "a histogram row \"value |*** count\"", raw);
    v = bar + 1;
    while (*v == '*' || *v == ' ')
        v++;
    if (count(&v, &n) || !at_end(v))
        return bad_line(ps, "a histogram row \"value |*** count\"", raw);
    return point_hist_append(&ps->run.p, value, (uint64_t)n) ? IMPORT_ENOMEM : IMPORT_OK;
}

/* Header and section lines; returns 1 when the line was consumed. */
static int header_line(struct parser *ps, const char *t, int *rc)
{
    struct run *r = &ps->run;
    const char *v;
    double x;
    int64_t n;
    *rc = IMPORT_OK;
    if ((v = after(t, "Number of threads:"))) {
        if (ps->in_run && (r->has_summary || r->p.n_series > 0 || r->p.threads > 0)) {
            *rc = run_finish(ps);
            if (*rc < 0)
                return 1;
        }
        if (!ps->in_run)
            run_start(ps);
        if (count(&v, &n) || !at_end(v) || n <= 0) {
            *rc = bad_line(ps, "\"Number of threads: N\" with N > 0", t);
            return 1;
        }
        r->p.threads = n;
        return 1;
    }
    if (!ps->in_run)
        return 0;
    if ((v = after(t, "Target transaction rate:"))) {
        if (num(&v, &x) || lit(&v, "/sec"))
            *rc = bad_line(ps, "\"Target transaction rate: N/sec\"", t);
        else
            r->p.rate = x;
        return 1;
    }
    if ((v = after(t, "Warmup time:"))) {
        if (num(&v, &x) || lit(&v, "s"))
            *rc = bad_line(ps, "\"Warmup time: Ns\"", t);
        else
            r->p.warmup_s = x;
        return 1;
    }
    if ((v = after(t, "Report intermediate results every"))) {
        if (num(&v, &x))
            *rc = bad_line(ps, "\"Report intermediate results every N second(s)\"", t);
        else
            *rc = set_extra(&r->p, "report_interval_s", json_real(x)) ? IMPORT_ENOMEM : 0;
        return 1;
    }
    if ((v = after(t, "Initializing random number generator from seed ("))) {
        if (count(&v, &n))
            *rc = bad_line(ps, "\"... from seed (N).\"", t);
        else
            *rc = set_extra(&r->p, "rand_seed", json_integer(n)) ? IMPORT_ENOMEM : 0;
        return 1;
    }
    if (after(t, "Doing OLTP test") || after(t, "Running mixed OLTP test") ||
        after(t, "Running simple OLTP test")) {
        r->workload_hint = "oltp_legacy";
        return 1;
    }
    if (after(t, "Doing random r/w test"))
        r->workload_hint = "fileio_rndrw";
    else if (after(t, "Doing random read test"))
        r->workload_hint = "fileio_rndrd";
    else if (after(t, "Doing random write test"))
        r->workload_hint = "fileio_rndwr";
    else if (after(t, "Doing sequential write (creation) test"))
        r->workload_hint = "fileio_seqwr";
    else if (after(t, "Doing sequential rewrite test"))
        r->workload_hint = "fileio_seqrewr";
    else if (after(t, "Doing sequential read test"))
        r->workload_hint = "fileio_seqrd";
    else if (after(t, "Prime numbers limit:") || after(t, "Doing CPU performance benchmark"))
        r->workload_hint = "cpu";
    else if (after(t, "Running memory speed test") || after(t, "Doing memory operations"))
        r->workload_hint = "memory";
    else
        return 0;
    return 1;
}

/* memory: "Total operations: N (X per second)" and "X MiB transferred (Y MiB/sec)" */
static int memory_line(struct parser *ps, const char *t, int *rc)
{
    struct point *p = &ps->run.p;
    const char *v;
    double mib, rate;
    *rc = IMPORT_OK;
    if ((v = after(t, "Total operations:"))) {
        int64_t n;
        if (count_rate(v, &n, &rate))
            *rc = bad_line(ps, "\"Total operations: N (X per second)\"", t);
        else {
            p->transactions = n;
            p->tps = rate;
            ps->run.has_summary = 1;
        }
        return 1;
    }
    v = t;
    if (isdigit((unsigned char)*v) && num(&v, &mib) == 0 && lit(&v, "MiB transferred (") == 0) {
        if (num(&v, &rate) || lit(&v, "MiB/sec)"))
            *rc = bad_line(ps, "\"X MiB transferred (Y MiB/sec)\"", t);
        else
            *rc = set_extra(p, "memory_mib_s", json_real(rate)) ? IMPORT_ENOMEM : 0;
        return 1;
    }
    return 0;
}

static int parse_line(struct parser *ps, const char *raw)
{
    const char *t = skip_ws(raw);
    int rc;
    struct run *r = &ps->run;
    const char *v;

    /* a banner starts a new run */
    if ((v = after(raw, "sysbench ")) && isdigit((unsigned char)*v)) {
        double ver;
        if (ps->in_run && (rc = run_finish(ps)) < 0)
            return rc;
        run_start(ps);
        if (num(&v, &ver) == 0)
            r->version_major = ver < 1000 ? (int)ver : -1;
        return point_set_str(&r->p.tool, raw) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if (after(t, "FATAL:")) {
        if (!ps->in_run)
            run_start(ps);
        if (!r->fatal_line) {
            r->fatal_line = ps->line_no;
            sanitize(r->fatal, sizeof r->fatal, t);
        }
        return IMPORT_OK;
    }
    if (raw[0] == '[') {
        ps->block = B_NONE;
        return interval_line(ps, raw);
    }
    if (header_line(ps, t, &rc))
        return rc;
    if (!ps->in_run) {
        /* a summary block without banner or thread count starts a run too */
        if (after(t, "SQL statistics:") || after(t, "OLTP test statistics:"))
            run_start(ps);
        else
            return IMPORT_OK;
    }
    if (memory_line(ps, t, &rc))
        return rc;
    /* section headers */
    if (after(t, "SQL statistics:") || after(t, "OLTP test statistics:")) {
        if (r->has_latency) { /* a second summary (checkpoint report): next run */
            if ((rc = run_finish(ps)) < 0)
                return rc;
            run_start(ps);
        }
        ps->block = B_SQL;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (after(t, "General statistics:") || after(t, "Test execution summary:")) {
        ps->block = B_GENERAL;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (after(t, "Throughput:")) {
        /* fileio (1.0 and 1.1) has its own Throughput block; 1.1 OLTP's replaces General */
        ps->block = r->workload_hint && strncmp(r->workload_hint, "fileio_", 7) == 0 ? B_FILETHRU
                                                                                      : B_GENERAL;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (after(t, "Latency (ms):") || after(t, "per-request statistics:") ||
        after(t, "response time:")) {
        ps->block = B_LATENCY;
        r->has_summary = 1;
        return IMPORT_OK;
    }
    if (after(t, "Threads fairness:")) {
        ps->block = B_FAIRNESS;
        return IMPORT_OK;
    }
    if (after(t, "File operations:")) {
        ps->block = B_FILEOPS;
        return IMPORT_OK;
    }
    if (after(t, "CPU speed:")) {
        ps->block = B_CPU;
        return IMPORT_OK;
    }
    if (after(t, "Latency histogram")) {
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
        return sql_line(ps, t, raw);
    case B_GENERAL:
        return general_line(ps, t, raw);
    case B_LATENCY:
        return latency_line(ps, t, raw);
    case B_FAIRNESS:
        return fairness_line(ps, t, raw);
    case B_FILEOPS:
        return fileops_line(ps, t, raw);
    case B_FILETHRU:
        return filethru_line(ps, t, raw);
    case B_HISTOGRAM:
        return histogram_line(ps, t, raw);
    case B_CPU:
        if ((v = after(t, "events per second:"))) {
            if (num(&v, &r->p.tps) || !at_end(v))
                return bad_line(ps, "\"events per second: X\"", raw);
            r->has_summary = 1;
        }
        return IMPORT_OK;
    case B_NONE:
        break;
    }
    return IMPORT_OK;
}

/* After all runs: derive what the output implies but does not print, then check. */
static int finish_point(struct parser *ps, struct point *p)
{
    /* legacy outputs print queries per type only: qps = total / time */
    if (isnan(p->qps) && p->queries >= 0 && p->duration_s > 0 && !p->incomplete &&
        p->source_kind == POINT_SRC_SYSBENCH_LOG && p->reads >= 0)
        p->qps = (double)p->queries / p->duration_s;
    if (strcmp(p->workload, "cpu") == 0 || strcmp(p->workload, "memory") == 0 ||
        strncmp(p->workload, "fileio_", 7) == 0) {
        /* non-DB tests: events are not transactions */
        if (strncmp(p->workload, "fileio_", 7) == 0) {
            p->transactions = POINT_NONE;
            p->tps = NAN;
        }
    }
    (void)ps;
    return IMPORT_OK;
}

int sysbench_log_detect(const char *buf, size_t len)
{
    static const char *const marks[] = {"sysbench ",        "Threads started!",
                                        "SQL statistics:",  "OLTP test statistics:",
                                        "Number of threads:", NULL};
    size_t scan = len < 65536 ? len : 65536;
    for (const char *const *m = marks; *m; m++) {
        size_t n = strlen(*m);
        for (size_t i = 0; i + n <= scan; i++) {
            if ((i == 0 || buf[i - 1] == '\n') && memcmp(buf + i, *m, n) == 0) {
                if (*m == marks[0] && !(i + n < scan && isdigit((unsigned char)buf[i + n])))
                    continue;
                return 1;
            }
        }
    }
    return 0;
}

int sysbench_log_parse(const char *buf, size_t len, const char *name,
                       const struct import_options *opt, struct point_list *out,
                       struct import_report *report)
{
    struct parser ps;
    size_t pos = 0;
    int rc = IMPORT_OK, warn = 0;
    char line[LINE_MAX_LEN];

    memset(&ps, 0, sizeof ps);
    ps.name = name ? name : "<input>";
    ps.opt = opt;
    ps.report = report;
    report->msg[0] = '\0';
    report->n_points = report->n_incomplete = 0;
    point_list_init(&ps.runs_out);
    point_init(&ps.run.p);

    while (pos < len) {
        size_t end = pos, n;
        while (end < len && buf[end] != '\n')
            end++;
        n = end - pos;
        if (n > 0 && buf[pos + n - 1] == '\r')
            n--;
        if (n >= sizeof line)
            n = sizeof line - 1; /* sysbench never prints such lines; keep the head */
        memcpy(line, buf + pos, n);
        line[n] = '\0';
        for (size_t i = 0; i < n; i++)
            if (line[i] == '\0')
                line[i] = ' ';
        pos = end + 1;
        ps.line_no++;
        rc = parse_line(&ps, line);
        if (rc < 0)
            goto fail;
    }
    ps.line_no++;
    if (ps.in_run) {
        rc = run_finish(&ps);
        if (rc < 0)
            goto fail;
        if (rc == IMPORT_WARN)
            warn = 1;
    }
    if (ps.runs_out.n == 0) {
        report_msg(&ps, 0, "no sysbench run found: expected a run's output (\"sysbench 1.0.20 "
                           "...\", \"Number of threads: N\", statistics)");
        rc = IMPORT_EPARSE;
        goto fail;
    }
    for (size_t i = 0; i < ps.runs_out.n; i++) {
        if (ps.runs_out.items[i].incomplete)
            warn = 1;
        finish_point(&ps, &ps.runs_out.items[i]);
    }
    /* move all points to out (all or nothing) */
    for (size_t i = 0; i < ps.runs_out.n; i++) {
        struct point *dst = point_list_push(out);
        if (!dst) {
            point_list_truncate(out, out->n - i);
            report_msg(&ps, 0, "out of memory");
            rc = IMPORT_ENOMEM;
            goto fail;
        }
        *dst = ps.runs_out.items[i];
        point_init(&ps.runs_out.items[i]);
    }
    report->n_points = ps.runs_out.n;
    report->n_incomplete = ps.n_incomplete;
    point_list_destroy(&ps.runs_out);
    if (!warn)
        report->msg[0] = '\0';
    return warn ? IMPORT_WARN : IMPORT_OK;
fail:
    point_destroy(&ps.run.p);
    point_list_destroy(&ps.runs_out);
    report->n_points = report->n_incomplete = 0;
    return rc;
}
