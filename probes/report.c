/* report.c - sysbench 1.0.20-layout text report (see report.h). */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void report_pct_label(char *buf, size_t len, double percentile)
{
    snprintf(buf, len, "%g", percentile);
}

void report_header(FILE *f, const char *version, const struct probe_config *cfg, unsigned threads,
                   unsigned seed)
{
    fprintf(f, "sizeup %s (sysbench 1.0.20-compatible report)\n\n", version);
    fprintf(f, "Running the test with following options:\n");
    fprintf(f, "Number of threads: %u\n", threads);
    if (cfg->rate > 0)
        fprintf(f, "Target transaction rate: %.0f/sec\n", cfg->rate);
    if (cfg->report_interval_s > 0)
        fprintf(f, "Report intermediate results every %u second(s)\n", cfg->report_interval_s);
    if (seed)
        fprintf(f, "Initializing random number generator from seed (%u).\n", seed);
    else
        fprintf(f, "Initializing random number generator from current time\n");
    fprintf(f, "\n\nInitializing worker threads...\n");
    fflush(f);
}

void report_started(FILE *f)
{
    fprintf(f, "\nThreads started!\n\n");
    fflush(f);
}

void report_interval(FILE *f, double t_s, unsigned threads, const struct probe_totals *d,
                     double dt_s, double percentile, double lat_ms)
{
    char pct[32];
    double q = (double)(d->reads + d->writes + d->other);
    report_pct_label(pct, sizeof pct, percentile);
    if (dt_s <= 0)
        dt_s = 1e-9;
    fprintf(f,
            "[ %.0fs ] thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%s%%): "
            "%4.2f err/s: %4.2f reconn/s: %4.2f\n",
            t_s, threads, (double)d->events / dt_s, q / dt_s, (double)d->reads / dt_s,
            (double)d->writes / dt_s, (double)d->other / dt_s, pct, lat_ms,
            (double)d->errors / dt_s, (double)d->reconnects / dt_s);
    fflush(f);
}

void report_queue(FILE *f, double t_s, unsigned long queue, unsigned long concurrency)
{
    fprintf(f, "[ %.0fs ] queue length: %lu, concurrency: %lu\n", t_s, queue, concurrency);
    fflush(f);
}

static void mean_sd(const double *x, unsigned n, double *mean, double *sd)
{
    double s = 0, ss = 0;
    for (unsigned i = 0; i < n; i++)
        s += x[i];
    *mean = n ? s / n : 0;
    for (unsigned i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *sd = n ? sqrt(ss / n) : 0;
}

void report_summary(FILE *f, const struct probe_result *r, double percentile)
{
    const struct probe_totals *t = &r->tot;
    unsigned long q = (unsigned long)(t->reads + t->writes + t->other);
    double el = r->elapsed_s > 0 ? r->elapsed_s : 1e-9;
    const struct hist *h = r->hist;
    double ev_mean, ev_sd, tm_mean, tm_sd;
    uint64_t avg_ns = h && h->count ? h->sum_ns / h->count : 0;

    fprintf(f, "SQL statistics:\n    queries performed:\n");
    fprintf(f, "        read:                            %lu\n", (unsigned long)t->reads);
    fprintf(f, "        write:                           %lu\n", (unsigned long)t->writes);
    fprintf(f, "        other:                           %lu\n", (unsigned long)t->other);
    fprintf(f, "        total:                           %lu\n", q);
    fprintf(f, "    transactions:                        %-6lu (%.2f per sec.)\n",
            (unsigned long)t->events, (double)t->events / el);
    fprintf(f, "    queries:                             %-6lu (%.2f per sec.)\n", q,
            (double)q / el);
    fprintf(f, "    ignored errors:                      %-6lu (%.2f per sec.)\n",
            (unsigned long)t->errors, (double)t->errors / el);
    fprintf(f, "    reconnects:                          %-6lu (%.2f per sec.)\n",
            (unsigned long)t->reconnects, (double)t->reconnects / el);
    fprintf(f, "\nGeneral statistics:\n");
    fprintf(f, "    total time:                          %.4fs\n", r->elapsed_s);
    fprintf(f, "    total number of events:              %lu\n", (unsigned long)t->events);
    fprintf(f, "\nLatency (ms):\n");
    fprintf(f, "         min: %39.2f\n", h ? (double)hist_min_ns(h) / 1e6 : 0.0);
    fprintf(f, "         avg: %39.2f\n", (double)avg_ns / 1e6);
    fprintf(f, "         max: %39.2f\n", h ? (double)h->max_ns / 1e6 : 0.0);
    if (percentile > 0) {
        uint64_t v = 0;
        char pct[32];
        if (h)
            hist_percentile(h, percentile, &v);
        report_pct_label(pct, sizeof pct, percentile);
        if (percentile == floor(percentile))
            fprintf(f, "        %3dth percentile: %27.2f\n", (int)percentile, (double)v / 1e6);
        else
            fprintf(f, "        %sth percentile: %*.2f\n", pct, (int)(30 - strlen(pct)),
                    (double)v / 1e6);
    } else {
        fprintf(f, "         percentile stats:               disabled\n");
    }
    fprintf(f, "         sum: %39.2f\n", h ? (double)h->sum_ns / 1e6 : 0.0);
    if (h && h->overflow > 0)
        fprintf(f, "         latency overflows (>= 100000 ms): %lu\n", (unsigned long)h->overflow);
    mean_sd(r->thread_events, r->threads, &ev_mean, &ev_sd);
    mean_sd(r->thread_time_s, r->threads, &tm_mean, &tm_sd);
    fprintf(f, "\nThreads fairness:\n");
    fprintf(f, "    events (avg/stddev):           %.4f/%3.2f\n", ev_mean, ev_sd);
    fprintf(f, "    execution time (avg/stddev):   %.4f/%3.2f\n\n", tm_mean, tm_sd);
    fflush(f);
}
