/* disk_report.c - table row and point record of one disk test (see disk_report.h). */
#include "disk_report.h"

#include "clock.h"

#include <math.h>
#include <string.h>

static const double report_pcts[3] = {50.0, 95.0, 99.0};

void disk_report_header(FILE *f)
{
    fprintf(f, "%-9s %4s %10s %9s %8s %8s %8s %8s %8s %8s %6s %6s %5s\n", "test", "qd", "IOPS",
            "MiB/s", "min ms", "avg ms", "p50 ms", "p95 ms", "p99 ms", "max ms", "ci%", "time s",
            "cpu%");
}

/* A latency cell: ms with 3 decimals, or ">100000" when the percentile overflowed. */
static void lat_cell(char *buf, size_t len, const struct hist *h, double pct)
{
    uint64_t v = 0;
    int rc = hist_percentile(h, pct, &v);
    if (rc == HIST_EMPTY)
        snprintf(buf, len, "-");
    else if (rc == HIST_ABOVE_RANGE)
        snprintf(buf, len, ">%.0f", clock_ns_to_ms(HIST_HIGHEST_NS));
    else
        snprintf(buf, len, "%.3f", clock_ns_to_ms(v));
}

void disk_report_row(FILE *f, enum disk_test t, unsigned qd, uint32_t block_size,
                     const struct disk_result *r)
{
    char c[6][24], ci[16];
    double mib_s = r->iops * (double)block_size / 1048576.0;
    lat_cell(c[0], sizeof c[0], &r->hist, 0.0);
    snprintf(c[1], sizeof c[1], "%.3f", hist_mean_ns(&r->hist) / 1e6);
    lat_cell(c[2], sizeof c[2], &r->hist, 50.0);
    lat_cell(c[3], sizeof c[3], &r->hist, 95.0);
    lat_cell(c[4], sizeof c[4], &r->hist, 99.0);
    lat_cell(c[5], sizeof c[5], &r->hist, 100.0);
    if (isnan(r->ci95_iops) || !(r->iops > 0))
        snprintf(ci, sizeof ci, "-");
    else
        snprintf(ci, sizeof ci, "%.1f", 100.0 * r->ci95_iops / r->iops);
    fprintf(f, "%-9s %4u %10.1f %9.2f %8s %8s %8s %8s %8s %8s %6s %6.1f %5.0f\n", disk_test_name(t),
            qd, r->iops, mib_s, c[0], c[1], c[2], c[3], c[4], c[5], ci, r->duration_s,
            r->wall_s > 0 ? 100.0 * r->client_cpu_s / r->wall_s : 0.0);
}

int disk_report_point(struct point *p, const struct disk_report_info *info, enum disk_test t,
                      unsigned qd, uint32_t block_size, const char *started_at,
                      const struct disk_result *r)
{
    double mib = (double)block_size / 1048576.0;
    int rc = 0;
    point_destroy(p);
    rc |= point_set_str(&p->target, info->target);
    rc |= point_set_str(&p->workload, disk_test_workload(t));
    rc |= point_set_str(&p->tool, info->tool);
    rc |= point_set_str(&p->started_at, started_at);
    p->threads = qd;
    p->duration_s = r->duration_s;
    p->warmup_s = r->warmup_s;
    p->transactions = (int64_t)r->ops;
    p->reads = (int64_t)r->reads;
    p->writes = (int64_t)r->writes;
    p->other = (int64_t)r->syncs;
    p->errors = 0;
    p->tps = r->iops;
    p->reads_ps = r->reads_ps;
    p->writes_ps = r->writes_ps;
    p->other_ps = r->syncs_ps;
    p->errors_ps = 0.0;
    p->io.reads_ps = r->reads_ps;
    p->io.writes_ps = r->writes_ps;
    p->io.fsyncs_ps = r->syncs_ps;
    p->io.read_mib_s = r->reads_ps * mib;
    p->io.written_mib_s = r->writes_ps * mib;
    if (r->hist.count > 0) {
        uint64_t v;
        p->latency_ms.min = clock_ns_to_ms(hist_min_ns(&r->hist));
        p->latency_ms.avg = hist_mean_ns(&r->hist) / 1e6;
        p->latency_ms.max = clock_ns_to_ms(r->hist.max_ns);
        p->latency_ms.sum = clock_ns_to_ms(r->hist.sum_ns);
        for (size_t i = 0; i < sizeof report_pcts / sizeof report_pcts[0]; i++) {
            int hr = hist_percentile(&r->hist, report_pcts[i], &v);
            if (hr == HIST_OK || hr == HIST_BELOW_RANGE)
                rc |= point_set_percentile(p, report_pcts[i], clock_ns_to_ms(v));
        }
    }
    if (r->sync_hist.count > 0) {
        /* the sync call alone, comparable with fio's "sync" latency */
        json_t *sl = json_object();
        uint64_t v;
        p->extra = json_object();
        if (!sl || !p->extra ||
            json_object_set_new(sl, "min", json_real(clock_ns_to_ms(hist_min_ns(&r->sync_hist)))) ||
            json_object_set_new(sl, "avg", json_real(hist_mean_ns(&r->sync_hist) / 1e6)) ||
            json_object_set_new(sl, "max", json_real(clock_ns_to_ms(r->sync_hist.max_ns))))
            rc = POINT_ENOMEM;
        for (size_t i = 0; sl && i < sizeof report_pcts / sizeof report_pcts[0]; i++) {
            char key[24];
            int hr = hist_percentile(&r->sync_hist, report_pcts[i], &v);
            snprintf(key, sizeof key, "p%g", report_pcts[i]);
            if ((hr == HIST_OK || hr == HIST_BELOW_RANGE) &&
                json_object_set_new(sl, key, json_real(clock_ns_to_ms(v))) != 0)
                rc = POINT_ENOMEM;
        }
        if (!sl || !p->extra || json_object_set_new(p->extra, "sync_latency_ms", sl) != 0)
            rc = POINT_ENOMEM;
    }
    p->latency_overflows = (int64_t)r->hist.overflow;
    p->ci95_tps = r->ci95_iops;
    p->steady = isnan(r->ci95_iops) ? -1 : r->steady;
    p->client_cpu_s = r->client_cpu_s;
    p->source_kind = POINT_SRC_PROBE;
    if (!info->direct)
        rc |= point_add_flag(p, "buffered");
    if (info->direct_refused)
        rc |= point_add_flag(p, "o_direct_refused");
    for (size_t i = 0; i < r->n_batches; i++) {
        struct point_interval iv = point_interval_none();
        iv.t_s = r->batch_end_s[i];
        iv.threads = (int)qd;
        iv.tps = r->batch_iops[i];
        rc |= point_series_append(p, &iv);
    }
    p->options = info->options ? json_deep_copy(info->options) : json_object();
    if (!p->options ||
        json_object_set_new(p->options, "block_size", json_integer((json_int_t)block_size)) != 0)
        rc = POINT_ENOMEM;
    if (rc != 0) {
        point_destroy(p);
        return POINT_ENOMEM;
    }
    return POINT_OK;
}
