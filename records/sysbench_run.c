/* sysbench_run.c - what the sysbench output readers share (sysbench_log_int.h): messages,
 * extra fields, and a run's start and finish, its point from the summary or from the
 * intermediate reports alone. The entry file (sysbench_log.c) and the block, interval and test
 * readers call it; it calls none of them. */
#include "sblex.h"
#include "sysbench_log_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sblog_report(struct parser *ps, long line, const char *fmt, ...)
{
    char text[440];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    import_diag(ps->src, IMPORT_ERROR, line, "%s", text);
}

int sblog_set_extra(struct point *p, const char *key, json_t *v)
{
    return import_set_extra(p, key, v);
}

int sblog_bad_line(struct parser *ps, const char *expected, const char *line)
{
    return import_bad_line(ps->src, ps->line_no, expected, line);
}

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

static double mean_of(const struct point *p, size_t n, size_t field_off)
{
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double v = *(const double *)((const char *)&p->series[i] + field_off);
        if (!isnan(v)) {
            sum += v;
            k++;
        }
    }
    return k ? sum / (double)k : NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median tps of the intervals run at max_threads (all when threads are unknown); NAN if none. */
static double median_tps(const struct point *p, int max_threads)
{
    double *v = malloc(p->n_series * sizeof *v), m;
    size_t k = 0;
    if (!v)
        return NAN;
    for (size_t i = 0; i < p->n_series; i++)
        if (!isnan(p->series[i].tps) && (max_threads <= 0 || p->series[i].threads == max_threads))
            v[k++] = p->series[i].tps;
    if (k == 0) {
        free(v);
        return NAN;
    }
    qsort(v, k, sizeof *v, cmp_double);
    m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    free(v);
    return m;
}

/* How many intervals at the end of the run are its wind-down: 0 unless the last one ran at 0
 * tps or with fewer threads than the run had; then the tail of intervals with fewer threads or
 * below half the median tps (never all of them). */
static size_t wind_down(const struct point *p, int max_threads)
{
    const struct point_interval *last = &p->series[p->n_series - 1];
    size_t end = p->n_series;
    double med;
    int fewer = last->threads > 0 && last->threads < max_threads;
    if (p->n_series < 2 || !(fewer || last->tps == 0))
        return 0;
    med = median_tps(p, max_threads);
    while (end > 1) {
        const struct point_interval *iv = &p->series[end - 1];
        int thin = iv->threads > 0 && iv->threads < max_threads;
        if (!(thin || (!isnan(iv->tps) && !isnan(med) && iv->tps < 0.5 * med)))
            break;
        end--;
    }
    return p->n_series - end;
}

int sblog_from_intervals(struct parser *ps)
{
    struct run *r = &ps->run;
    struct point *p = &r->p;
    int max_threads = 0;
    size_t cut, n;
    for (size_t i = 0; i < p->n_series; i++)
        if (p->series[i].threads > max_threads)
            max_threads = p->series[i].threads;
    cut = wind_down(p, max_threads);
    n = p->n_series - cut;
    p->incomplete = 1;
    if (!r->has_summary && point_add_flag(p, "no_summary"))
        return IMPORT_ENOMEM;
    p->tps = mean_of(p, n, offsetof(struct point_interval, tps));
    if (!r->has_summary) {
        p->qps = mean_of(p, n, offsetof(struct point_interval, qps));
        p->reads_ps = mean_of(p, n, offsetof(struct point_interval, reads_ps));
        p->writes_ps = mean_of(p, n, offsetof(struct point_interval, writes_ps));
        p->other_ps = mean_of(p, n, offsetof(struct point_interval, other_ps));
        p->errors_ps = mean_of(p, n, offsetof(struct point_interval, errors_ps));
        p->reconnects_ps = mean_of(p, n, offsetof(struct point_interval, reconnects_ps));
        p->io.read_mib_s = mean_of(p, n, offsetof(struct point_interval, read_mib_s));
        p->io.written_mib_s = mean_of(p, n, offsetof(struct point_interval, written_mib_s));
        p->io.fsyncs_ps = mean_of(p, n, offsetof(struct point_interval, fsyncs_ps));
        p->duration_s = p->series[n - 1].t_s;
    }
    if (!r->threads_from_header && max_threads > 0)
        p->threads = max_threads;
    if (cut > 0) {
        if (point_add_flag(p, "wind_down") ||
            sblog_set_extra(p, "wind_down_intervals", json_integer((json_int_t)cut)))
            return IMPORT_ENOMEM;
        import_diag(ps->src, IMPORT_NOTE, r->first_line,
                    "note: the last %zu intermediate report(s) show the run winding down (threads "
                    "leaving, tps falling); the means are over the %zu report(s) before them, at "
                    "%d thread(s)",
                    cut, n, max_threads);
    }
    return IMPORT_OK;
}
