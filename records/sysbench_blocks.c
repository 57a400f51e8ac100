/* sysbench_blocks.c - the summary blocks of sysbench's output (SQL / OLTP statistics, general
 * statistics, latency, threads fairness, the --histogram table) and its header lines. Part of the
 * sysbench output reader (sysbench_log_int.h). */
#include "sblex.h"
#include "sysbench_log_int.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* "read:  N" etc. inside SQL / OLTP statistics. */
int sblog_sql_line(struct parser *ps, const char *t, const char *raw)
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

int sblog_general_line(struct parser *ps, const char *t, const char *raw)
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
        ps->run.total_events = n;
        return sblog_set_extra(p, "events", json_integer(n)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    if ((v = sblex_after(t, "events/s (eps):"))) {
        if (sblex_num(&v, &x) || !sblex_at_end(v))
            return sblog_bad_line(ps, "\"events/s (eps): X\"", raw);
        return sblog_set_extra(p, "eps", json_real(x)) ? IMPORT_ENOMEM : IMPORT_OK;
    }
    return IMPORT_OK;
}

int sblog_latency_line(struct parser *ps, const char *t, const char *raw)
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

int sblog_fairness_line(struct parser *ps, const char *t, const char *raw)
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
    if (strcmp(key, "fairness_events") == 0)
        ps->run.fair_events_avg = a;
    return sblog_set_extra(p, key, json_pack("{s:f,s:f}", "avg", a, "stddev", sd)) ? IMPORT_ENOMEM
                                                                                   : IMPORT_OK;
}

int sblog_histogram_line(struct parser *ps, const char *t, const char *raw)
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
int sblog_header_line(struct parser *ps, const char *t, int *rc)
{
    struct run *r = &ps->run;
    const char *v;
    double x;
    int64_t n;
    *rc = IMPORT_OK;
    if ((v = sblex_after(t, "Number of threads:"))) {
        if (ps->in_run && (r->has_summary || r->p.n_series > 0 || r->threads_from_header)) {
            *rc = sblog_run_finish(ps);
            if (*rc < 0)
                return 1;
        }
        if (!ps->in_run)
            sblog_run_start(ps);
        if (sblex_count(&v, &n) || !sblex_at_end(v) || n <= 0 || n > 1000000) {
            *rc = sblog_bad_line(ps, "\"Number of threads: N\" with 0 < N <= 1000000", t);
            return 1;
        }
        r->p.threads = n;
        r->threads_from_header = 1;
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
    else if (sblex_after(t, "Doing mutex performance test"))
        r->workload_hint = "mutex";
    else if (sblex_after(t, "Doing thread subsystem performance test"))
        r->workload_hint = "threads";
    else
        return 0;
    return 1;
}
