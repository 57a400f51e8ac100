/* sysbench_interval.c - sysbench's intermediate reports ("[ Ns ] ..." lines). Part of the
 * sysbench output reader (sysbench_log_int.h); the point of a run that has only them is made
 * in sysbench_run.c. */
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
