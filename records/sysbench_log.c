/* sysbench_log.c - sysbench text output (1.0, 1.1, 0.4, 0.5; oltp, fileio, cpu, memory) -> points.
 */
#include "sysbench_log.h"
#include "sblex.h"
#include "sysbench_log_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run_start(struct parser *ps)
{
    struct run *r = &ps->run;
    point_init(&r->p);
    r->first_line = ps->line_no;
    r->has_summary = r->has_latency = r->has_max = r->truncated = 0;
    r->elapsed_before_s = 0;
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
        sblog_report(ps, r->fatal_line,
                     "sysbench reported a fatal error, so this run has no results: %s "
                     "(expected a run that ends with its statistics)",
                     r->fatal);
        point_destroy(&r->p);
        return IMPORT_EPARSE;
    }
    if (!r->has_summary && r->p.n_series == 0) {
        /* prepare / cleanup / help output logged beside the runs: nothing measured, skip */
        ps->n_skipped++;
        point_destroy(&r->p);
        return IMPORT_OK;
    }
    if (r->has_summary && (!r->has_latency || !r->has_max || r->truncated)) {
        /* the file ends inside the summary: keep what it printed, say so */
        r->p.incomplete = 1;
        if (point_add_flag(&r->p, "truncated_summary"))
            goto nomem;
        if (isnan(r->p.tps) && r->p.n_series > 0)
            r->p.tps = series_mean(&r->p, offsetof(struct point_interval, tps));
        if (isnan(r->p.tps) && isnan(r->p.io.reads_ps) && isnan(r->p.io.writes_ps)) {
            sblog_report(ps, ps->line_no,
                         "the file ends inside the run's statistics before any throughput: "
                         "expected \"transactions: N (X per sec.)\" and the latency block");
            point_destroy(&r->p);
            return IMPORT_EPARSE;
        }
        ps->n_incomplete++;
        sblog_report(ps, r->first_line,
                     "warning: the file ends inside this run's statistics (truncated?); imported "
                     "what it printed and marked incomplete");
        rc = IMPORT_WARN;
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
        r->p.io.read_mib_s = series_mean(&r->p, offsetof(struct point_interval, read_mib_s));
        r->p.io.written_mib_s = series_mean(&r->p, offsetof(struct point_interval, written_mib_s));
        r->p.io.fsyncs_ps = series_mean(&r->p, offsetof(struct point_interval, fsyncs_ps));
        r->p.duration_s = last->t_s;
        if (r->p.threads <= 0 && last->threads > 0)
            r->p.threads = last->threads;
        ps->n_incomplete++;
        sblog_report(ps, r->first_line,
                     "warning: the run ends after %zu intermediate report(s) without its summary "
                     "(killed?); imported from the intervals and marked incomplete",
                     r->p.n_series);
        rc = IMPORT_WARN;
    }
    if (r->p.threads <= 0) {
        sblog_report(ps, r->first_line,
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
        const char *t =
            ps->opt && ps->opt->target ? ps->opt->target : base_name(ps->name, buf, sizeof buf);
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
    sblog_report(ps, 0, "out of memory");
    return IMPORT_ENOMEM;
}

/* "[ 1s ] thds: 2 tps: ..." (1.0/1.1 DB), "[ 1s ] thds: 2 eps: ..." (non-DB), fileio, 0.5. */
static int interval_line(struct parser *ps, const char *s)
{
    struct point_interval iv = point_interval_none();
    struct run *r = &ps->run;
    const char *p = s + 1;
    double t, th;
    if (sblex_num(&p, &t) || sblex_lit(&p, "s"))
        return sblog_bad_line(ps, "an intermediate report \"[ Ns ] ...\"", s);
    if (sblex_lit(&p, "]"))
        return sblog_bad_line(ps, "an intermediate report \"[ Ns ] ...\"", s);
    iv.t_s = t;
    p = sblex_skip_ws(p);
    if (sblex_after(p, "queue length:"))
        return IMPORT_OK; /* --rate queue line */
    if (sblex_after(p, "Checkpoint report:")) {
        /* the summary that follows covers the time since the previous checkpoint */
        if (ps->in_run && point_add_flag(&ps->run.p, "checkpoint"))
            return IMPORT_ENOMEM;
        return IMPORT_OK;
    }
    if (sblex_after(p, "thds:")) {
        const char *q = p + 5;
        if (sblex_num(&q, &th) || th > 1e6 || th != floor(th))
            return sblog_bad_line(ps, "\"thds: N\" with a whole N", s);
        iv.threads = (int)th;
        if (!sblex_lit(&q, "tps:")) {
            if (sblex_num(&q, &iv.tps) || sblex_lit(&q, "qps:") || sblex_num(&q, &iv.qps) ||
                sblex_lit(&q, "(r/w/o:") || sblex_num(&q, &iv.reads_ps) || sblex_lit(&q, "/") ||
                sblex_num(&q, &iv.writes_ps) || sblex_lit(&q, "/") || sblex_num(&q, &iv.other_ps) ||
                sblex_lit(&q, ")") || sblex_lit(&q, "lat (ms,") || sblex_num(&q, &iv.pct) ||
                sblex_lit(&q, "%):") || sblex_num(&q, &iv.lat_ms) || sblex_lit(&q, "err/s:") ||
                sblex_num(&q, &iv.errors_ps) || sblex_lit(&q, "reconn/s:") ||
                sblex_num(&q, &iv.reconnects_ps))
                return sblog_bad_line(
                    ps,
                    "\"[ Ns ] thds: N tps: X qps: X (r/w/o: X/X/X) lat (ms,P%): X "
                    "err/s: X reconn/s: X\"",
                    s);
        } else if (!sblex_lit(&q, "eps:")) {
            if (sblex_num(&q, &iv.tps) || sblex_lit(&q, "lat (ms,") || sblex_num(&q, &iv.pct) ||
                sblex_lit(&q, "%):") || sblex_num(&q, &iv.lat_ms))
                return sblog_bad_line(ps, "\"[ Ns ] thds: N eps: X lat (ms,P%): X\"", s);
        } else {
            return sblog_bad_line(ps, "\"tps:\" or \"eps:\" after \"thds: N\"", s);
        }
    } else if (sblex_after(p, "reads:")) {
        /* fileio: reads: X MiB/s writes: X MiB/s fsyncs: X/s latency (ms,P%): X */
        const char *q = p + 6;
        double rd, wr, fs;
        if (sblex_num(&q, &rd) || sblex_lit(&q, "MiB/s writes:") || sblex_num(&q, &wr) ||
            sblex_lit(&q, "MiB/s fsyncs:") || sblex_num(&q, &fs) ||
            sblex_lit(&q, "/s latency (ms,") || sblex_num(&q, &iv.pct) || sblex_lit(&q, "%):") ||
            sblex_num(&q, &iv.lat_ms))
            return sblog_bad_line(ps,
                                  "\"[ Ns ] reads: X MiB/s writes: X MiB/s fsyncs: X/s latency "
                                  "(ms,P%): X\"",
                                  s);
        iv.read_mib_s = rd;
        iv.written_mib_s = wr;
        iv.fsyncs_ps = fs;
    } else if (sblex_after(p, "threads:")) {
        /* 0.5: threads: N, tps: X, reads: X, writes: X, response time: Xms (P%), errors: X,
         * reconnects: X   (0.4 later builds: reads/s:, writes/s: and no errors) */
        const char *q = p + 8;
        if (sblex_num(&q, &th) || th > 1e6 || th != floor(th) || sblex_lit(&q, ",") ||
            sblex_lit(&q, "tps:") || sblex_num(&q, &iv.tps) || sblex_lit(&q, ","))
            return sblog_bad_line(ps, "\"[ Ns] threads: N, tps: X, ...\"", s);
        iv.threads = (int)th;
        if ((sblex_lit(&q, "reads:") && sblex_lit(&q, "reads/s:")) || sblex_num(&q, &iv.reads_ps) ||
            sblex_lit(&q, ",") || (sblex_lit(&q, "writes:") && sblex_lit(&q, "writes/s:")) ||
            sblex_num(&q, &iv.writes_ps))
            return sblog_bad_line(ps, "\"reads: X, writes: X\"", s);
        sblex_lit(&q, ",");
        if (sblex_lit(&q, "response time:") || sblex_num(&q, &iv.lat_ms) || sblex_lit(&q, "ms (") ||
            sblex_num(&q, &iv.pct) || sblex_lit(&q, "%)"))
            return sblog_bad_line(ps, "\"response time: Xms (P%)\"", s);
        if (!sblex_lit(&q, ",") && !sblex_lit(&q, "errors:")) {
            if (sblex_num(&q, &iv.errors_ps) || sblex_lit(&q, ",") ||
                sblex_lit(&q, "reconnects:") || sblex_num(&q, &iv.reconnects_ps))
                return sblog_bad_line(ps, "\"errors: X, reconnects: X\"", s);
        }
    } else {
        return sblog_bad_line(ps, "an intermediate report \"[ Ns ] thds: ...\"", s);
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
    if ((v = sblex_after(t, "queries performed:")))
        return IMPORT_OK;
    if ((v = sblex_after(t, "read:")) || (v = sblex_after(t, "write:")) ||
        (v = sblex_after(t, "other:")) || (v = sblex_after(t, "total:"))) {
        if (sblex_count(&v, &n) || !sblex_at_end(v))
            return sblog_bad_line(ps, "a count, e.g. \"read: 27216\"", raw);
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
    if ((v = sblex_after(t, "transactions:"))) {
        if (sblex_count_rate(v, &p->transactions, &p->tps))
            return sblog_bad_line(ps, "\"transactions: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "queries:"))) {
        if (sblex_count_rate(v, &p->queries, &p->qps))
            return sblog_bad_line(ps, "\"queries: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "ignored errors:")) || (v = sblex_after(t, "deadlocks:"))) {
        if (sblex_count_rate(v, &p->errors, &p->errors_ps))
            return sblog_bad_line(ps, "\"ignored errors: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "reconnects:"))) {
        if (sblex_count_rate(v, &p->reconnects, &p->reconnects_ps))
            return sblog_bad_line(ps, "\"reconnects: N (X per sec.)\"", raw);
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "read/write requests:"))) {
        if (sblex_count_rate(v, &n, &rate))
            return sblog_bad_line(ps, "\"read/write requests: N (X per sec.)\"", raw);
        /* legacy: queries = all statements incl. other; qps follows from the total */
        return sblog_set_extra(p, "rw_requests_ps", json_real(rate)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = sblex_after(t, "other operations:"))) {
        if (sblex_count_rate(v, &n, &rate))
            return sblog_bad_line(ps, "\"other operations: N (X per sec.)\"", raw);
        return sblog_set_extra(p, "other_operations_ps", json_real(rate)) ? IMPORT_ENOMEM
                                                                          : IMPORT_OK;
    }
    return IMPORT_OK; /* other lines of the block carry nothing we keep */
}

static int general_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double x;
    int64_t n;
    if ((v = sblex_after(t, "total time taken by event execution:"))) {
        if (sblex_num(&v, &x))
            return sblog_bad_line(ps, "\"total time taken by event execution: X\"", raw);
        return sblog_set_extra(p, "event_execution_s", json_real(x)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = sblex_after(t, "total time:")) || (v = sblex_after(t, "time elapsed:"))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "s") || !sblex_at_end(v))
            return sblog_bad_line(ps, "\"total time: Xs\"", raw);
        p->duration_s = x;
        if (ps->run.elapsed_before_s > 0) {
            /* a checkpoint report: counters cover the time since the previous one */
            if (x < ps->run.elapsed_before_s)
                return sblog_bad_line(ps, "a total time past the previous checkpoint's", raw);
            p->duration_s = x - ps->run.elapsed_before_s;
            if (sblog_set_extra(p, "total_time_s", json_real(x)))
                return IMPORT_ENOMEM;
        }
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "total number of events:"))) {
        if (sblex_count(&v, &n) || !sblex_at_end(v))
            return sblog_bad_line(ps, "\"total number of events: N\"", raw);
        if (p->transactions < 0)
            p->transactions = n;
        return sblog_set_extra(p, "events", json_integer(n)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = sblex_after(t, "events/s (eps):"))) {
        if (sblex_num(&v, &x) || !sblex_at_end(v))
            return sblog_bad_line(ps, "\"events/s (eps): X\"", raw);
        return sblog_set_extra(p, "eps", json_real(x)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    return IMPORT_OK;
}

static int latency_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double x, pct;
    /* values end with "ms" in legacy outputs */
#define LAT_VALUE(dst)                                                                             \
    do {                                                                                           \
        if (sblex_num(&v, &x))                                                                     \
            return sblog_bad_line(ps, "a latency in ms, e.g. \"avg: 5.15\"", raw);                 \
        (void)sblex_lit(&v, "ms");                                                                 \
        if (!sblex_at_end(v))                                                                      \
            return sblog_bad_line(ps, "a latency in ms, e.g. \"avg: 5.15\"", raw);                 \
        dst = x;                                                                                   \
    } while (0)
    if ((v = sblex_after(t, "min:"))) {
        LAT_VALUE(p->latency_ms.min);
    } else if ((v = sblex_after(t, "avg:"))) {
        LAT_VALUE(p->latency_ms.avg);
        ps->run.has_latency = 1;
    } else if ((v = sblex_after(t, "max:"))) {
        LAT_VALUE(p->latency_ms.max);
        ps->run.has_max = 1;
    } else if ((v = sblex_after(t, "sum:"))) {
        LAT_VALUE(p->latency_ms.sum);
    } else if ((v = sblex_after(t, "approx."))) {
        if (sblex_num(&v, &pct) || sblex_lit(&v, "percentile:"))
            return sblog_bad_line(ps, "\"approx.  95 percentile: Xms\"", raw);
        LAT_VALUE(x);
        if (point_set_percentile(p, pct, x))
            return sblog_bad_line(ps, "a percentile in (0, 100]", raw);
    } else if (isdigit((unsigned char)t[0])) {
        const char *q = t;
        if (sblex_num(&q, &pct) ||
            (sblex_lit(&q, "th") && sblex_lit(&q, "st") && sblex_lit(&q, "nd") &&
             sblex_lit(&q, "rd")) ||
            sblex_lit(&q, "percentile:"))
            return sblog_bad_line(ps, "\"95th percentile: X\"", raw);
        v = q;
        LAT_VALUE(x);
        if (point_set_percentile(p, pct, x))
            return sblog_bad_line(ps, "a percentile in (0, 100]", raw);
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
    if ((v = sblex_after(t, "events (avg/stddev):")))
        key = "fairness_events";
    else if ((v = sblex_after(t, "execution time (avg/stddev):")))
        key = "fairness_execution_s";
    if (!key)
        return IMPORT_OK;
    if (sblex_num(&v, &a) || sblex_lit(&v, "/") || sblex_num(&v, &sd) || !sblex_at_end(v))
        return sblog_bad_line(ps, "\"avg/stddev\" as two numbers \"X/Y\"", raw);
    return sblog_set_extra(p, key, json_pack("{s:f,s:f}", "avg", a, "stddev", sd)) ? IMPORT_ENOMEM
                                                                                   : IMPORT_OK;
}

static int histogram_line(struct parser *ps, const char *t, const char *raw)
{
    const char *v = t, *bar;
    double value;
    int64_t n;
    if (sblex_after(t, "value"))
        return IMPORT_OK; /* the column header */
    bar = strchr(t, '|');
    if (sblex_num(&v, &value) || !bar || sblex_skip_ws(v) != bar)
        return sblog_bad_line(ps, "a histogram row \"value |*** count\"", raw);
    v = bar + 1;
    while (*v == '*' || *v == ' ')
        v++;
    if (sblex_count(&v, &n) || !sblex_at_end(v))
        return sblog_bad_line(ps, "a histogram row \"value |*** count\"", raw);
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
    if ((v = sblex_after(t, "Number of threads:"))) {
        if (ps->in_run && (r->has_summary || r->p.n_series > 0 || r->p.threads > 0)) {
            *rc = run_finish(ps);
            if (*rc < 0)
                return 1;
        }
        if (!ps->in_run)
            run_start(ps);
        if (sblex_count(&v, &n) || !sblex_at_end(v) || n <= 0 || n > 1000000) {
            *rc = sblog_bad_line(ps, "\"Number of threads: N\" with 0 < N <= 1000000", t);
            return 1;
        }
        r->p.threads = n;
        return 1;
    }
    if (!ps->in_run)
        return 0;
    if ((v = sblex_after(t, "Target transaction rate:"))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "/sec"))
            *rc = sblog_bad_line(ps, "\"Target transaction rate: N/sec\"", t);
        else
            r->p.rate = x;
        return 1;
    }
    if ((v = sblex_after(t, "Warmup time:"))) {
        if (sblex_num(&v, &x) || sblex_lit(&v, "s"))
            *rc = sblog_bad_line(ps, "\"Warmup time: Ns\"", t);
        else
            r->p.warmup_s = x;
        return 1;
    }
    if ((v = sblex_after(t, "Report intermediate results every"))) {
        if (sblex_num(&v, &x))
            *rc = sblog_bad_line(ps, "\"Report intermediate results every N second(s)\"", t);
        else
            *rc = sblog_set_extra(&r->p, "report_interval_s", json_real(x)) ? IMPORT_ENOMEM : 0;
        return 1;
    }
    if ((v = sblex_after(t, "Initializing random number generator from seed ("))) {
        if (sblex_count(&v, &n))
            *rc = sblog_bad_line(ps, "\"... from seed (N).\"", t);
        else
            *rc = sblog_set_extra(&r->p, "rand_seed", json_integer(n)) ? IMPORT_ENOMEM : 0;
        return 1;
    }
    if (sblex_after(t, "Doing OLTP test") || sblex_after(t, "Running mixed OLTP test") ||
        sblex_after(t, "Running simple OLTP test")) {
        r->workload_hint = "oltp_legacy";
        return 1;
    }
    if (sblex_after(t, "Doing random r/w test"))
        r->workload_hint = "fileio_rndrw";
    else if (sblex_after(t, "Doing random read test"))
        r->workload_hint = "fileio_rndrd";
    else if (sblex_after(t, "Doing random write test"))
        r->workload_hint = "fileio_rndwr";
    else if (sblex_after(t, "Doing sequential write (creation) test"))
        r->workload_hint = "fileio_seqwr";
    else if (sblex_after(t, "Doing sequential rewrite test"))
        r->workload_hint = "fileio_seqrewr";
    else if (sblex_after(t, "Doing sequential read test"))
        r->workload_hint = "fileio_seqrd";
    else if (sblex_after(t, "Prime numbers limit:") ||
             sblex_after(t, "Doing CPU performance benchmark"))
        r->workload_hint = "cpu";
    else if (sblex_after(t, "Running memory speed test") ||
             sblex_after(t, "Doing memory operations"))
        r->workload_hint = "memory";
    else
        return 0;
    return 1;
}

static int parse_line(struct parser *ps, const char *raw)
{
    const char *t = sblex_skip_ws(raw);
    int rc;
    struct run *r = &ps->run;
    const char *v;

    /* a banner starts a new run */
    if ((v = sblex_after(raw, "sysbench ")) && isdigit((unsigned char)*v)) {
        double ver;
        if (ps->in_run && (rc = run_finish(ps)) < 0)
            return rc;
        run_start(ps);
        if (sblex_num(&v, &ver) == 0)
            r->version_major = ver < 1000 ? (int)ver : -1;
        return point_set_str(&r->p.tool, raw) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if (sblex_after(t, "FATAL:")) {
        if (!ps->in_run)
            run_start(ps);
        if (!r->fatal_line) {
            r->fatal_line = ps->line_no;
            sblex_sanitize(r->fatal, sizeof r->fatal, t);
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
        if (sblex_after(t, "SQL statistics:") || sblex_after(t, "OLTP test statistics:"))
            run_start(ps);
        else
            return IMPORT_OK;
    }
    if (sblog_memory_line(ps, t, &rc) || sblog_legacy_fileio_line(ps, t, &rc))
        return rc;
    /* section headers */
    if (sblex_after(t, "SQL statistics:") || sblex_after(t, "OLTP test statistics:")) {
        if (r->has_latency) {
            /* a second summary (--report-checkpoints): the next point of the same run */
            int64_t threads = r->p.threads;
            double rate = r->p.rate;
            double elapsed = r->elapsed_before_s + r->p.duration_s;
            const char *hint = r->workload_hint;
            char *tool = r->p.tool;
            r->p.tool = NULL;
            if ((rc = run_finish(ps)) < 0) {
                free(tool);
                return rc;
            }
            run_start(ps);
            r->p.threads = threads;
            r->p.rate = rate;
            r->workload_hint = hint;
            r->p.tool = tool;
            r->elapsed_before_s = elapsed;
            if (point_add_flag(&r->p, "checkpoint"))
                return IMPORT_ENOMEM;
        }
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
        ps->block = r->workload_hint && strncmp(r->workload_hint, "fileio_", 7) == 0 ? B_FILETHRU
                                                                                     : B_GENERAL;
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
        return sql_line(ps, t, raw);
    case B_GENERAL:
        return general_line(ps, t, raw);
    case B_LATENCY:
        return latency_line(ps, t, raw);
    case B_FAIRNESS:
        return fairness_line(ps, t, raw);
    case B_FILEOPS:
        return sblog_fileops_line(ps, t, raw);
    case B_FILETHRU:
        return sblog_filethru_line(ps, t, raw);
    case B_HISTOGRAM:
        return histogram_line(ps, t, raw);
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

/* After all runs: derive what the output implies but does not print, then check. */
static int finish_point(struct parser *ps, struct point *p)
{
    /* legacy outputs print queries per type only: qps = total / time */
    if (isnan(p->qps) && p->queries >= 0 && p->duration_s > 0 && !p->incomplete &&
        p->source_kind == POINT_SRC_SYSBENCH_LOG && p->reads >= 0)
        p->qps = (double)p->queries / p->duration_s;
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
    } else if (isnan(p->tps) && p->transactions >= 0 && p->duration_s > 0 && !p->incomplete) {
        /* 0.4 cpu and the like print only events and total time */
        p->tps = (double)p->transactions / p->duration_s;
        if (point_add_flag(p, "tps_from_events"))
            return IMPORT_ENOMEM;
    }
    (void)ps;
    return IMPORT_OK;
}

int sysbench_log_detect(const char *buf, size_t len)
{
    static const char *const marks[] = {"sysbench ",          "Threads started!",
                                        "SQL statistics:",    "OLTP test statistics:",
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
        ps.line_no++;
        if (end == len) {
            /* the last line has no newline: the file was cut while it was written */
            size_t i = 0;
            while (i < n && isspace((unsigned char)buf[pos + i]))
                i++;
            if (i < n && ps.in_run)
                ps.run.truncated = 1;
            if (i < n)
                break;
        }
        if (n >= sizeof line) {
            sblog_report(&ps, ps.line_no,
                         "a line of %zu bytes: expected sysbench output (lines under %d bytes)", n,
                         LINE_MAX_LEN);
            rc = IMPORT_EPARSE;
            goto fail;
        }
        memcpy(line, buf + pos, n);
        line[n] = '\0';
        for (size_t i = 0; i < n; i++)
            if (line[i] == '\0')
                line[i] = ' ';
        pos = end + 1;
        rc = parse_line(&ps, line);
        if (rc < 0)
            goto fail;
    }
    if (ps.in_run) {
        rc = run_finish(&ps);
        if (rc < 0)
            goto fail;
        if (rc == IMPORT_WARN)
            warn = 1;
    }
    if (ps.runs_out.n == 0) {
        sblog_report(&ps, 0,
                     "no sysbench run found: expected a run's output (\"sysbench 1.0.20 "
                     "...\", \"Number of threads: N\", statistics)");
        rc = IMPORT_EPARSE;
        goto fail;
    }
    for (size_t i = 0; i < ps.runs_out.n; i++) {
        if (ps.runs_out.items[i].incomplete)
            warn = 1;
        if (finish_point(&ps, &ps.runs_out.items[i]) != IMPORT_OK) {
            sblog_report(&ps, 0, "out of memory");
            rc = IMPORT_ENOMEM;
            goto fail;
        }
    }
    /* move all points to out (all or nothing) */
    for (size_t i = 0; i < ps.runs_out.n; i++) {
        struct point *dst = point_list_push(out);
        if (!dst) {
            point_list_truncate(out, out->n - i);
            sblog_report(&ps, 0, "out of memory");
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
