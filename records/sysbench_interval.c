/* sysbench_interval.c - sysbench's intermediate reports ("[ Ns ] ..." lines) and the point of a
 * run that has only them. Part of the sysbench output reader (sysbench_log_int.h). */
#include "sblex.h"
#include "sysbench_log_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "err/s: X" as sysbench's C code prints it, or "err/s X" as the Lua report_default does. */
static int rate_after(const char **q, const char *label, double *out)
{
    if (sblex_lit(q, label))
        return -1;
    (void)sblex_lit(q, ":");
    return sblex_num(q, out);
}

/* "[ 1s ] thds: 2 tps: ..." (1.0/1.1 DB) or "thds: 2 eps: ..." (non-DB). */
static int thds_line(struct parser *ps, const char *s, const char *q, struct point_interval *iv)
{
    double th;
    if (sblex_num(&q, &th) || th > 1e6 || th != floor(th))
        return sblog_bad_line(ps, "\"thds: N\" with a whole N", s);
    iv->threads = (int)th;
    if (!sblex_lit(&q, "tps:")) {
        if (sblex_num(&q, &iv->tps) || sblex_lit(&q, "qps:") || sblex_num(&q, &iv->qps) ||
            sblex_lit(&q, "(r/w/o:") || sblex_num(&q, &iv->reads_ps) || sblex_lit(&q, "/") ||
            sblex_num(&q, &iv->writes_ps) || sblex_lit(&q, "/") || sblex_num(&q, &iv->other_ps) ||
            sblex_lit(&q, ")") || sblex_lit(&q, "lat (ms,") || sblex_num(&q, &iv->pct) ||
            sblex_lit(&q, "%):") || sblex_num(&q, &iv->lat_ms) ||
            rate_after(&q, "err/s", &iv->errors_ps) ||
            rate_after(&q, "reconn/s", &iv->reconnects_ps))
            return sblog_bad_line(ps,
                                  "\"[ Ns ] thds: N tps: X qps: X (r/w/o: X/X/X) lat (ms,P%): X "
                                  "err/s: X reconn/s: X\"",
                                  s);
    } else if (!sblex_lit(&q, "eps:")) {
        if (sblex_num(&q, &iv->tps) || sblex_lit(&q, "lat (ms,") || sblex_num(&q, &iv->pct) ||
            sblex_lit(&q, "%):") || sblex_num(&q, &iv->lat_ms))
            return sblog_bad_line(ps, "\"[ Ns ] thds: N eps: X lat (ms,P%): X\"", s);
    } else {
        return sblog_bad_line(ps, "\"tps:\" or \"eps:\" after \"thds: N\"", s);
    }
    return IMPORT_OK;
}

/* 0.5: threads: N, tps: X, reads: X, writes: X, response time: Xms (P%), errors: X,
 * reconnects: X   (later 0.4 builds: reads/s:, writes/s: and no errors) */
static int threads_line(struct parser *ps, const char *s, const char *q, struct point_interval *iv)
{
    double th;
    if (sblex_num(&q, &th) || th > 1e6 || th != floor(th) || sblex_lit(&q, ",") ||
        sblex_lit(&q, "tps:") || sblex_num(&q, &iv->tps) || sblex_lit(&q, ","))
        return sblog_bad_line(ps, "\"[ Ns] threads: N, tps: X, ...\"", s);
    iv->threads = (int)th;
    if ((sblex_lit(&q, "reads:") && sblex_lit(&q, "reads/s:")) || sblex_num(&q, &iv->reads_ps) ||
        sblex_lit(&q, ",") || (sblex_lit(&q, "writes:") && sblex_lit(&q, "writes/s:")) ||
        sblex_num(&q, &iv->writes_ps))
        return sblog_bad_line(ps, "\"reads: X, writes: X\"", s);
    (void)sblex_lit(&q, ",");
    if (sblex_lit(&q, "response time:") || sblex_num(&q, &iv->lat_ms) || sblex_lit(&q, "ms (") ||
        sblex_num(&q, &iv->pct) || sblex_lit(&q, "%)"))
        return sblog_bad_line(ps, "\"response time: Xms (P%)\"", s);
    if (!sblex_lit(&q, ",") && !sblex_lit(&q, "errors:")) {
        if (sblex_num(&q, &iv->errors_ps) || sblex_lit(&q, ",") || sblex_lit(&q, "reconnects:") ||
            sblex_num(&q, &iv->reconnects_ps))
            return sblog_bad_line(ps, "\"errors: X, reconnects: X\"", s);
    }
    return IMPORT_OK;
}

/* fileio: reads: X MiB/s writes: X MiB/s fsyncs: X/s latency (ms,P%): X */
static int fileio_line(struct parser *ps, const char *s, const char *q, struct point_interval *iv)
{
    double rd, wr, fs;
    if (sblex_num(&q, &rd) || sblex_lit(&q, "MiB/s writes:") || sblex_num(&q, &wr) ||
        sblex_lit(&q, "MiB/s fsyncs:") || sblex_num(&q, &fs) || sblex_lit(&q, "/s latency (ms,") ||
        sblex_num(&q, &iv->pct) || sblex_lit(&q, "%):") || sblex_num(&q, &iv->lat_ms))
        return sblog_bad_line(ps,
                              "\"[ Ns ] reads: X MiB/s writes: X MiB/s fsyncs: X/s latency "
                              "(ms,P%): X\"",
                              s);
    iv->read_mib_s = rd;
    iv->written_mib_s = wr;
    iv->fsyncs_ps = fs;
    return IMPORT_OK;
}

/* The time the current run's reports have reached: its last interval, or the end of the last
 * checkpoint's span. */
static double run_time(const struct run *r)
{
    double t = r->elapsed_before_s + (isnan(r->p.duration_s) ? 0 : r->p.duration_s);
    if (r->p.n_series > 0 && r->p.series[r->p.n_series - 1].t_s > t)
        t = r->p.series[r->p.n_series - 1].t_s;
    return t;
}

int sblog_interval_line(struct parser *ps, const char *s)
{
    struct point_interval iv = point_interval_none();
    struct run *r = &ps->run;
    const char *p = s + 1, *q;
    double t;
    int rc;
    if (sblex_num(&p, &t) || sblex_lit(&p, "s") || sblex_lit(&p, "]"))
        return sblog_bad_line(ps, "an intermediate report \"[ Ns ] ...\"", s);
    iv.t_s = t;
    p = sblex_skip_ws(p);
    if (sblex_after(p, "queue length:"))
        return IMPORT_OK; /* --rate queue line */
    if (sblex_after(p, "Checkpoint report:")) {
        /* the summary that follows covers the time since the previous checkpoint */
        if (ps->in_run && r->has_max && (rc = sblog_next_segment(ps)) != IMPORT_OK)
            return rc;
        if (!ps->in_run)
            sblog_run_start(ps);
        r->checkpoints = 1;
        ps->pending_checkpoint = 1;
        return point_add_flag(&r->p, "checkpoint") ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((q = sblex_after(p, "thds:")))
        rc = thds_line(ps, s, q, &iv);
    else if ((q = sblex_after(p, "reads:")))
        rc = fileio_line(ps, s, q, &iv);
    else if ((q = sblex_after(p, "threads:")))
        rc = threads_line(ps, s, q, &iv);
    else if (strstr(p, "MB/sec,") && sblex_num(&p, &t) == 0)
        return IMPORT_OK; /* 0.4 memory: "[   1s] 1234.56 MB/sec," */
    else
        return sblog_bad_line(ps, "an intermediate report \"[ Ns ] thds: ...\"", s);
    if (rc != IMPORT_OK)
        return rc;
    if (ps->in_run && r->has_max) {
        /* after a whole summary: the next segment of a checkpointed run, else a new run */
        if (r->checkpoints && iv.t_s > run_time(r) - 0.5)
            rc = sblog_next_segment(ps);
        else if ((rc = sblog_run_finish(ps)) == IMPORT_OK)
            sblog_run_start(ps);
    } else if (ps->in_run && !r->has_summary && r->p.n_series > 0 &&
               iv.t_s <= r->p.series[r->p.n_series - 1].t_s) {
        /* the reports start again: the run before ended without a summary */
        if ((rc = sblog_run_finish(ps)) == IMPORT_OK)
            sblog_run_start(ps);
    }
    if (rc != IMPORT_OK)
        return rc;
    if (!ps->in_run)
        sblog_run_start(ps);
    return point_series_append(&r->p, &iv) ? IMPORT_ENOMEM : IMPORT_OK;
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
