/* probe_point.c - a level's result as a sizeup.point/1 record (probe_fill_point, probe.h). */
#include "probe.h"

#include "calib.h"

#include <math.h>
#include <string.h>
#include <time.h>

static double pct_ms(const struct hist *h, double p)
{
    uint64_t v = 0;
    if (p <= 0 || h->count == 0)
        return 0.0;
    hist_percentile(h, p, &v);
    return (double)v / 1e6;
}

/* p->extra, made an empty object when it is none yet; NULL out of memory. */
static json_t *extra_of(struct point *p)
{
    json_t *x = p->extra ? p->extra : json_object();
    if (x)
        p->extra = x;
    return x;
}

/* The counts and their rates over el seconds (the kept part of a calibrated level). */
static void fill_counts(const struct probe_totals *t, double el, struct point *p)
{
    p->transactions = (int64_t)t->events;
    p->queries = (int64_t)(t->reads + t->writes + t->other);
    p->reads = (int64_t)t->reads;
    p->writes = (int64_t)t->writes;
    p->other = (int64_t)t->other;
    p->errors = (int64_t)t->errors;
    p->reconnects = (int64_t)t->reconnects;
    if (el > 0) {
        p->tps = (double)t->events / el;
        p->qps = (double)p->queries / el;
        p->reads_ps = (double)t->reads / el;
        p->writes_ps = (double)t->writes / el;
        p->other_ps = (double)t->other / el;
        p->errors_ps = (double)t->errors / el;
        p->reconnects_ps = (double)t->reconnects / el;
    }
}

/* The latency figures of histogram h (NULL or empty: none), ms: min, mean, max, sum, the 50th,
 * 95th and 99th percentiles and cfg->percentile's. */
static void fill_latency(const struct probe_config *cfg, const struct hist *h, struct point *p)
{
    static const double std_pct[3] = {50, 95, 99};
    if (!h || h->count == 0)
        return;
    p->latency_ms.min = (double)h->min_ns / 1e6;
    p->latency_ms.avg = hist_mean_ns(h) / 1e6;
    p->latency_ms.max = (double)h->max_ns / 1e6;
    p->latency_ms.sum = (double)h->sum_ns / 1e6;
    for (int i = 0; i < 3; i++)
        point_set_percentile(p, std_pct[i], pct_ms(h, std_pct[i]));
    if (cfg->percentile > 0)
        point_set_percentile(p, cfg->percentile, pct_ms(h, cfg->percentile));
}

/* A calibrated level's interval, steadiness and extra.calibration (its stopping rule and
 * figures). POINT_OK or POINT_ENOMEM. */
static int fill_calibration(const struct probe_config *cfg, const struct probe_result *r,
                            struct point *p)
{
    json_t *x = extra_of(p);
    json_t *c;
    if (!x)
        return POINT_ENOMEM;
    if (!isnan(r->ci95_tps))
        p->ci95_tps = r->ci95_tps;
    p->steady = r->steady;
    c = json_pack("{s:s,s:f,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:I,s:f}", "rule",
                  "MSER-5 warm-up cut, 20 batch means, t 95 %", "tick_s",
                  cfg->tick_s > 0 ? cfg->tick_s : PROBE_TICK_S, "mser_m", PROBE_MSER_M, "ticks",
                  (int)r->ticks, "cut_ticks", (int)r->cut_ticks, "precision", cfg->precision,
                  "min_time_s", cfg->min_time_s, "max_time_s", cfg->max_time_s, "elapsed_s",
                  r->elapsed_s, "run_transactions", (json_int_t)r->tot.events, "warmup_s",
                  r->warmup_s);
    if (!c)
        return POINT_ENOMEM;
    json_object_set_new(c, "rel95", isnan(r->rel95) ? json_null() : json_real(r->rel95));
    json_object_set_new(c, "lag1", isnan(r->lag1) ? json_null() : json_real(r->lag1));
    json_object_set_new(x, "calibration", c);
    return POINT_OK;
}

/* How the level ended as flags (interrupted, partial, server_unreachable, fatal_error; the
 * point then incomplete), and latency_overflow. POINT_OK or POINT_ENOMEM. */
static int fill_end_flags(const struct probe_result *r, const struct hist *h, struct point *p)
{
    if (r->end == PROBE_END_INTERRUPTED) {
        p->incomplete = 1;
        if (point_add_flag(p, "interrupted"))
            return POINT_ENOMEM;
    } else if (r->end == PROBE_END_PARTIAL) {
        p->incomplete = 1;
        if (point_add_flag(p, "partial") || point_add_flag(p, "server_unreachable"))
            return POINT_ENOMEM;
    } else if (r->end == PROBE_END_FATAL) {
        p->incomplete = 1;
        if (point_add_flag(p, "partial") || point_add_flag(p, "fatal_error"))
            return POINT_ENOMEM;
    }
    if (h && h->overflow > 0 && point_add_flag(p, "latency_overflow"))
        return POINT_ENOMEM;
    return POINT_OK;
}

/* The level's faults: the flags stalled and reconnects, and extra.faults when it had one or
 * a silence of 1 s or more. POINT_OK or POINT_ENOMEM. */
static int fill_faults(const struct probe_result *r, struct point *p)
{
    json_t *x;
    /* faults: curve.h's rule leaves such a level out of fits, rankings and ladder decisions */
    if (r->stalled && point_add_flag(p, "stalled"))
        return POINT_ENOMEM;
    if (r->tot.reconnects > 0 && point_add_flag(p, "reconnects"))
        return POINT_ENOMEM;
    if (!(r->stalled || r->tot.reconnects > 0 || r->longest_silence_s >= 1 ||
          r->near_silence_s >= 1))
        return POINT_OK;
    if (!(x = extra_of(p)))
        return POINT_ENOMEM;
    json_object_set_new(x, "faults",
                        json_pack("{s:f,s:f,s:b,s:I}", "longest_silence_s", r->longest_silence_s,
                                  "near_silence_s", r->near_silence_s, "cut", r->cut, "reconnects",
                                  (json_int_t)r->tot.reconnects));
    return POINT_OK;
}

/* extra.window: when the level ran, wall clock, s (a level that started). POINT_OK or
 * POINT_ENOMEM. */
static int fill_window(const struct probe_result *r, struct point *p)
{
    /* when the level ran, wall clock (docs/point-record.md): started_at has whole seconds
     * only, and a fault's window is compared with it (bench/run-faults.sh) */
    json_t *x = extra_of(p), *w;
    if (!x)
        return POINT_ENOMEM;
    w = json_pack("{s:f,s:f}", "started_unix_s", (double)r->start_unix_ns / 1e9, "ended_unix_s",
                  (double)r->end_unix_ns / 1e9);
    if (!w || json_object_set_new(x, "window", w))
        return POINT_ENOMEM;
    return POINT_OK;
}

/* extra.load_generator: the load generator's own figures (docs/load-generator.md), and the
 * flags client_bound and client_delay. POINT_OK or POINT_ENOMEM. */
static int fill_load_generator(const struct probe_result *r, struct point *p)
{
    json_t *x = extra_of(p), *c;
    if (!x)
        return POINT_ENOMEM;
    c = json_pack("{s:I,s:I,s:I,s:f,s:f}", "workers", (json_int_t)r->workers, "connections",
                  (json_int_t)r->threads, "cpus_online", (json_int_t)r->cpus_online,
                  "worker_cpu_max", r->worker_cpu_max, "worker_busy_max", r->worker_busy_max);
    if (c && isfinite(r->client_delay_avg_ms) &&
        json_object_set_new(
            c, "client_delay_ms",
            json_pack("{s:f,s:f}", "avg", r->client_delay_avg_ms, "max", r->client_delay_max_ms)))
        return POINT_ENOMEM;
    if (!c || json_object_set_new(x, "load_generator", c))
        return POINT_ENOMEM;
    if (r->client_bound && point_add_flag(p, "client_bound"))
        return POINT_ENOMEM;
    if (probe_client_delay_material(r, p->latency_ms.avg) && point_add_flag(p, "client_delay"))
        return POINT_ENOMEM;
    return POINT_OK;
}

/* A part of a point measured by several clients (records/merge.h): the flag partial, the
 * client block (its --start-at in RFC 3339, its window) and a copy of the histogram h.
 * POINT_OK or POINT_ENOMEM. */
static int fill_client(const struct probe_config *cfg, const struct probe_result *r,
                       const struct hist *h, struct point *p)
{
    char at[32];
    if (point_add_flag(p, "partial"))
        return POINT_ENOMEM;
    p->client.index = cfg->client_index;
    p->client.count = cfg->client_count;
    p->client.threads = r->threads;
    if (cfg->start_at_unix_ns) {
        time_t at_s = (time_t)(cfg->start_at_unix_ns / 1000000000);
        struct tm tm;
        gmtime_r(&at_s, &tm);
        if (cfg->start_at_unix_ns % 1000000000 == 0)
            strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", &tm);
        else
            snprintf(at + strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm), 12, ".%03dZ",
                     (int)(cfg->start_at_unix_ns % 1000000000 / 1000000));
        if (point_set_str(&p->client.start_at, at))
            return POINT_ENOMEM;
    }
    if (r->start_unix_ns) {
        p->client.started_unix_s = (double)r->start_unix_ns / 1e9;
        p->client.ended_unix_s = (double)r->end_unix_ns / 1e9;
    }
    if (h) {
        if (!(p->latency_hist = hist_new()))
            return POINT_ENOMEM;
        *p->latency_hist = *h;
    }
    return POINT_OK;
}

int probe_fill_point(const struct probe_config *cfg, const struct probe_result *r, struct point *p)
{
    const struct hist *h = r->calibrated ? r->kept_hist : r->hist;
    const struct probe_totals *t = r->calibrated ? &r->kept : &r->tot;
    double el = r->calibrated ? r->kept_s : r->elapsed_s;
    if (!(el > 0))
        el = 0;
    if (point_set_str(&p->workload, oltp_workload_name(cfg->oltp.workload)))
        return POINT_ENOMEM;
    p->threads = r->level_threads ? r->level_threads : r->threads;
    if (cfg->rate > 0)
        p->rate = cfg->rate;
    p->duration_s = el;
    p->warmup_s = r->calibrated ? r->warmup_s : 0;
    fill_counts(t, el, p);
    fill_latency(cfg, h, p);
    if (r->calibrated && fill_calibration(cfg, r, p) != POINT_OK)
        return POINT_ENOMEM;
    p->latency_overflows = h ? (int64_t)h->overflow : 0;
    for (size_t i = 0; i < r->n_series; i++)
        if (point_series_append(p, &r->series[i]))
            return POINT_ENOMEM;
    p->client_cpu_s = r->client_cpu_s;
    if (r->server_version[0] && point_set_str(&p->server_version, r->server_version))
        return POINT_ENOMEM;
    if (r->started_at[0] && point_set_str(&p->started_at, r->started_at))
        return POINT_ENOMEM;
    p->source_kind = POINT_SRC_PROBE;
    if (fill_end_flags(r, h, p) != POINT_OK || fill_faults(r, p) != POINT_OK)
        return POINT_ENOMEM;
    if (r->start_unix_ns && fill_window(r, p) != POINT_OK)
        return POINT_ENOMEM;
    if (fill_load_generator(r, p) != POINT_OK)
        return POINT_ENOMEM;
    if (cfg->client_count > 0 && fill_client(cfg, r, h, p) != POINT_OK)
        return POINT_ENOMEM;
    if (cfg->rate > 0) {
        json_t *x = extra_of(p);
        if (!x)
            return POINT_ENOMEM;
        json_object_set_new(x, "rate_lag_ms",
                            json_pack("{s:f,s:f}", "avg", r->lag_avg_ms, "max", r->lag_max_ms));
    }
    return POINT_OK;
}
