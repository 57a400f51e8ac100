/*
 * test_import.c - `sizeup import` on real input: the sysbench 1.0.20 fixtures made by
 * tests/fixtures/sysbench/make-fixtures.sh (expected values are the numbers those files print),
 * the legacy/1.1 layouts, the published tables in data/published/ (values from the tables), and
 * bad input.
 */
#include "check.h"
#include "import.h"
#include "point.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/sysbench/"

static int load(const char *path, const struct import_options *opt, struct point_list *l,
                struct import_report *rep)
{
    point_list_init(l);
    return import_file(path, opt, l, rep);
}

static const struct point *find(const struct point_list *l, const char *target,
                                const char *workload, int64_t threads)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].target, target) == 0 &&
            strcmp(l->items[i].workload, workload) == 0 && l->items[i].threads == threads)
            return &l->items[i];
    return NULL;
}

/* sysbench 1.0.20 oltp_point_select, 2 threads, --report-interval=1 */
static void point_select(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "oltp_point_select-2t.log", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_point_select"); /* from the file name */
    /* the file name less its thread count (2 threads, "-2t"): one curve with its siblings */
    CHECK_STR_EQ(p->target, "oltp_point_select");
    CHECK_INT_EQ(p->threads, 2);
    CHECK_INT_EQ(p->reads, 277573);
    CHECK_INT_EQ(p->writes, 0);
    CHECK_INT_EQ(p->other, 0);
    CHECK_INT_EQ(p->queries, 277573);
    CHECK_INT_EQ(p->transactions, 277573);
    CHECK_NEAR(p->tps, 55457.72, 1e-9);
    CHECK_NEAR(p->qps, 55457.72, 1e-9);
    CHECK_INT_EQ(p->errors, 0);
    CHECK_INT_EQ(p->reconnects, 0);
    CHECK_NEAR(p->duration_s, 5.0043, 1e-12);
    CHECK_NEAR(p->latency_ms.min, 0.03, 1e-12);
    CHECK_NEAR(p->latency_ms.avg, 0.04, 1e-12);
    CHECK_NEAR(p->latency_ms.max, 4.33, 1e-12);
    CHECK_NEAR(p->latency_ms.sum, 9946.34, 1e-9);
    CHECK_NEAR(point_percentile(p, 95), 0.06, 1e-12);
    CHECK(isnan(point_percentile(p, 99)));
    CHECK_INT_EQ(p->n_series, 5);
    CHECK_NEAR(p->series[0].t_s, 1, 0);
    CHECK_NEAR(p->series[0].tps, 52218.46, 1e-9);
    CHECK_NEAR(p->series[0].reads_ps, 52218.46, 1e-9);
    CHECK_NEAR(p->series[0].lat_ms, 0.07, 1e-12);
    CHECK_NEAR(p->series[0].pct, 95, 0);
    CHECK_INT_EQ(p->series[0].threads, 2);
    CHECK_NEAR(
        json_number_value(json_object_get(json_object_get(p->extra, "fairness_events"), "avg")),
        138786.5, 1e-9);
    CHECK_STR_EQ(p->tool, "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)");
    CHECK_INT_EQ(p->source_kind, POINT_SRC_SYSBENCH_LOG);
    CHECK_INT_EQ(p->source_line, 1);
    CHECK(!p->incomplete);
    point_list_destroy(&l);
}

static void read_write_and_write_only(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "oltp_read_write-2t.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_INT_EQ(p->reads, 122374);
    CHECK_INT_EQ(p->writes, 34950);
    CHECK_INT_EQ(p->other, 17476);
    CHECK_INT_EQ(p->queries, 174800);
    CHECK_INT_EQ(p->transactions, 8735);
    CHECK_NEAR(p->tps, 1745.18, 1e-9);
    CHECK_NEAR(p->qps, 34923.59, 1e-9);
    CHECK_INT_EQ(p->errors, 6);
    CHECK_NEAR(p->errors_ps, 1.20, 1e-12);
    CHECK_NEAR(p->latency_ms.max, 11.40, 1e-12);
    CHECK_NEAR(point_percentile(p, 95), 2.11, 1e-12);
    CHECK_INT_EQ(p->n_series, 5);
    CHECK_NEAR(p->series[4].tps, 1411.97, 1e-9);
    CHECK_NEAR(p->series[4].writes_ps, 5648.87, 1e-9);
    CHECK_NEAR(p->series[4].other_ps, 2825.94, 1e-9);
    CHECK_NEAR(p->series[4].lat_ms, 2.76, 1e-12);
    CHECK_NEAR(p->series[4].errors_ps, 1.00, 1e-12);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "oltp_write_only-4t.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_write_only");
    CHECK_INT_EQ(p->threads, 4);
    CHECK_INT_EQ(p->writes, 93600);
    CHECK_INT_EQ(p->other, 46852);
    CHECK_INT_EQ(p->transactions, 23343);
    CHECK_NEAR(p->tps, 4663.32, 1e-9);
    CHECK_NEAR(p->qps, 28058.61, 1e-9);
    CHECK_INT_EQ(p->errors, 166);
    CHECK_NEAR(p->errors_ps, 33.16, 1e-12);
    CHECK_NEAR(p->latency_ms.sum, 19983.90, 1e-9);
    CHECK_NEAR(point_percentile(p, 95), 1.58, 1e-12);
    CHECK_NEAR(p->series[0].errors_ps, 38.71, 1e-12);
    point_list_destroy(&l);
}

/* --rate=200 --histogram=on --percentile=99 */
static void histogram_rate_p99(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    struct import_options opt = {.workload = "oltp_point_select", .target = "local"};
    uint64_t total = 0;
    CHECK_INT_EQ(load(FIX "histogram-rate-p99.log", &opt, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_point_select");
    CHECK_STR_EQ(p->target, "local");
    CHECK_NEAR(p->rate, 200, 0);
    CHECK_INT_EQ(p->transactions, 634);
    CHECK_NEAR(p->tps, 210.36, 1e-9);
    CHECK_NEAR(point_percentile(p, 99), 0.59, 1e-12);
    CHECK(isnan(point_percentile(p, 95)));
    CHECK_NEAR(p->latency_ms.max, 2.26, 1e-12);
    CHECK_INT_EQ(p->n_series, 3); /* queue-length lines are not intervals */
    CHECK_NEAR(p->series[1].tps, 196.37, 1e-9);
    CHECK_NEAR(p->series[1].pct, 99, 0);
    CHECK_INT_EQ(p->n_hist, 125);
    CHECK_NEAR(p->histogram[0].value_ms, 0.053, 1e-12);
    CHECK_INT_EQ(p->histogram[0].count, 1);
    CHECK_NEAR(p->histogram[p->n_hist - 1].value_ms, 2.264, 1e-12);
    for (size_t i = 0; i < p->n_hist; i++)
        total += p->histogram[i].count;
    CHECK_INT_EQ(total, 634); /* every event is in the histogram */
    {
        /* issue 28.10: a percentile not reported is read from the histogram by sysbench's rule
         * (docs/reference/sysbench.md section 5). Checked against sysbench itself: with the
         * reported p99 removed, the histogram gives what sysbench printed (0.59 ms, its bucket
         * value rounded to 2 decimals); and p95 at the bucket where the cumulative count first
         * reaches floor(634 x 0.95 + 0.5) = 602 */
        struct point q;
        enum point_pct_source src;
        uint64_t cum = 0;
        double want95 = NAN;
        point_init(&q);
        CHECK_INT_EQ(point_copy(&q, p), POINT_OK);
        CHECK_NEAR(point_latency_pct(&q, 99, &src), 0.59, 1e-12);
        CHECK_INT_EQ(src, POINT_PCT_REPORTED);
        q.latency_ms.n_pct = 0;
        CHECK_NEAR(point_latency_pct(&q, 99, &src), 0.59, 0.005);
        CHECK_INT_EQ(src, POINT_PCT_HISTOGRAM);
        for (size_t i = 0; i < q.n_hist && isnan(want95); i++)
            if ((cum += q.histogram[i].count) >= 602)
                want95 = q.histogram[i].value_ms;
        CHECK_NEAR(point_latency_pct(&q, 95, &src), want95, 0);
        CHECK(want95 > 0.3 && want95 <= 0.59);
        q.n_hist = 0;
        CHECK(isnan(point_latency_pct(&q, 95, &src)));
        CHECK_INT_EQ(src, POINT_PCT_NONE);
        point_destroy(&q);
    }
    point_list_destroy(&l);
}

static void read_only_p99_and_seed(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "oltp_read_only-p99.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_read_only");
    CHECK_INT_EQ(p->reads, 97972);
    CHECK_INT_EQ(p->other, 13996);
    CHECK_INT_EQ(p->transactions, 6998);
    CHECK_NEAR(p->tps, 2327.98, 1e-9);
    CHECK_NEAR(p->qps, 37247.62, 1e-9);
    CHECK_NEAR(point_percentile(p, 99), 1.34, 1e-12);
    CHECK_INT_EQ(p->n_series, 0);
    CHECK_INT_EQ(json_integer_value(json_object_get(p->extra, "rand_seed")), 42);
    point_list_destroy(&l);
}

/* Four runs logged into one file: one point each, workload from --workload. */
static void sweep(void)
{
    struct point_list l;
    struct import_report rep;
    struct import_options opt = {.workload = "oltp_read_write"};
    static const int64_t threads[] = {1, 2, 4, 8};
    static const int64_t trx[] = {2365, 5287, 4194, 4252};
    static const double tps[] = {787.14, 1759.77, 1394.27, 1410.21};
    static const double qps[] = {15742.79, 35240.32, 27940.32, 28312.28};
    static const double p95[] = {1.52, 1.55, 4.33, 8.43};
    CHECK_INT_EQ(load(FIX "sweep-rw.log", &opt, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 4);
    for (size_t i = 0; i < 4 && i < l.n; i++) {
        const struct point *p = &l.items[i];
        CHECK_STR_EQ(p->workload, "oltp_read_write");
        CHECK_STR_EQ(p->target, "sweep-rw");
        CHECK_INT_EQ(p->threads, threads[i]);
        CHECK_INT_EQ(p->transactions, trx[i]);
        CHECK_NEAR(p->tps, tps[i], 1e-9);
        CHECK_NEAR(p->qps, qps[i], 1e-9);
        CHECK_NEAR(point_percentile(p, 95), p95[i], 1e-12);
    }
    CHECK(l.n == 4 && l.items[1].source_line > l.items[0].source_line);
    point_list_destroy(&l);
}

static void killed_and_fatal(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "killed-read_write.log", NULL, &l, &rep), IMPORT_WARN);
    CHECK_INT_EQ(l.n, 1);
    CHECK_INT_EQ(rep.n_incomplete, 1);
    CHECK(strstr(rep.msg, "killed-read_write.log:1:") != NULL);
    CHECK(strstr(rep.msg, "incomplete") != NULL);
    p = &l.items[0];
    CHECK(p->incomplete);
    CHECK_INT_EQ(p->n_series, 3);
    CHECK_INT_EQ(p->threads, 2);
    /* mean of the three printed interval tps: (1424.28 + 1962.13 + 1831.36) / 3 */
    CHECK_NEAR(p->tps, (1424.28 + 1962.13 + 1831.36) / 3, 1e-9);
    CHECK_NEAR(p->duration_s, 3, 0);
    CHECK_INT_EQ(p->transactions, POINT_NONE);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "fatal-read_write.log", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK_INT_EQ(l.n, 0);
    CHECK(strstr(rep.msg, "fatal-read_write.log:15:") != NULL);
    CHECK(strstr(rep.msg, "error 2013") != NULL);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "fatal-connect.log", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK_INT_EQ(l.n, 0);
    CHECK(strstr(rep.msg, "fatal-connect.log:10:") != NULL);
    point_list_destroy(&l);
}

static void crlf_and_latin1(void)
{
    struct point_list a, b;
    struct import_report rep;
    CHECK_INT_EQ(load(FIX "crlf-point_select.log", NULL, &a, &rep), IMPORT_OK);
    CHECK_INT_EQ(load(FIX "oltp_point_select-2t.log", NULL, &b, &rep), IMPORT_OK);
    CHECK(a.n == 1 && b.n == 1);
    if (a.n == 1 && b.n == 1) {
        CHECK_NEAR(a.items[0].tps, 55457.72, 1e-9);
        CHECK_INT_EQ(a.items[0].transactions, b.items[0].transactions);
        CHECK_INT_EQ(a.items[0].n_series, b.items[0].n_series);
        CHECK_NEAR(point_percentile(&a.items[0], 95), 0.06, 1e-12);
    }
    point_list_destroy(&a);
    point_list_destroy(&b);

    CHECK_INT_EQ(load(FIX "latin1-write_only.log", NULL, &a, &rep), IMPORT_OK);
    CHECK_INT_EQ(a.n, 1);
    if (a.n == 1) {
        struct point_error err;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        CHECK_NEAR(a.items[0].tps, 4663.32, 1e-9);
        CHECK_INT_EQ(point_write(f, &a.items[0], &err), POINT_OK); /* valid UTF-8 JSON */
        fclose(f);
        CHECK(buf &&
              strstr(buf, "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3) ?? caf?") != NULL);
        free(buf);
    }
    point_list_destroy(&a);
}

static void other_tests(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "fileio-rndrw.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "fileio_rndrw");
    CHECK_INT_EQ(p->threads, 1);
    CHECK_NEAR(p->io.reads_ps, 4124.39, 1e-9);
    CHECK_NEAR(p->io.writes_ps, 2749.60, 1e-9);
    CHECK_NEAR(p->io.fsyncs_ps, 8826.93, 1e-9);
    CHECK_NEAR(p->io.read_mib_s, 64.44, 1e-9);
    CHECK_NEAR(p->io.written_mib_s, 42.96, 1e-9);
    CHECK_NEAR(p->duration_s, 3.0105, 1e-12);
    CHECK_INT_EQ(json_integer_value(json_object_get(p->extra, "events")), 47153);
    CHECK_NEAR(point_percentile(p, 95), 0.18, 1e-12);
    CHECK_INT_EQ(p->n_series, 3);
    CHECK_NEAR(p->series[0].read_mib_s, 64.51, 1e-9);
    CHECK_NEAR(p->series[0].written_mib_s, 43.01, 1e-9);
    CHECK_NEAR(p->series[0].fsyncs_ps, 8789.26, 1e-9);
    CHECK(isnan(p->series[0].reads_ps));
    CHECK_NEAR(p->series[0].lat_ms, 0.179, 1e-12);
    CHECK(isnan(p->tps));
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "cpu-2t.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "cpu");
    CHECK_INT_EQ(p->threads, 2);
    CHECK_NEAR(p->tps, 8011.26, 1e-9);
    CHECK_INT_EQ(p->transactions, 24055);
    CHECK_NEAR(p->latency_ms.avg, 0.25, 1e-12);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "memory-1t.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "memory");
    CHECK_INT_EQ(p->transactions, 1048576);
    CHECK_NEAR(p->tps, 5888533.83, 1e-6);
    CHECK_NEAR(json_number_value(json_object_get(p->extra, "memory_mib_s")), 5750.52, 1e-9);
    point_list_destroy(&l);
}

/* Hand-written in the layouts of real 0.4.12, 0.5 and 1.1 outputs (fixtures README). */
static void legacy_and_1_1(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    struct import_options opt = {.workload = "oltp_legacy"};
    CHECK_INT_EQ(load(FIX "legacy-0.4.12-oltp.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_legacy"); /* "Doing OLTP test." */
    CHECK_INT_EQ(p->threads, 16);
    CHECK_INT_EQ(p->reads, 1120840);
    CHECK_INT_EQ(p->writes, 400300);
    CHECK_INT_EQ(p->other, 160120);
    CHECK_INT_EQ(p->queries, 1681260);
    CHECK_INT_EQ(p->transactions, 80060);
    CHECK_NEAR(p->tps, 1334.26, 1e-9);
    CHECK_INT_EQ(p->errors, 0); /* deadlocks */
    CHECK_NEAR(p->duration_s, 60.0036, 1e-12);
    CHECK_NEAR(p->latency_ms.min, 3.12, 1e-12);
    CHECK_NEAR(p->latency_ms.avg, 11.98, 1e-12);
    CHECK_NEAR(p->latency_ms.max, 87.45, 1e-12);
    CHECK_NEAR(point_percentile(p, 95), 19.37, 1e-12);
    CHECK_NEAR(p->qps, 1681260 / 60.0036, 1e-9); /* total / total time */
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "legacy-0.5-oltp.log", &opt, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_legacy");
    CHECK_INT_EQ(p->threads, 8);
    CHECK_INT_EQ(p->transactions, 18195);
    CHECK_NEAR(p->tps, 606.45, 1e-9);
    CHECK_INT_EQ(p->errors, 1);
    CHECK_NEAR(p->errors_ps, 0.03, 1e-12);
    CHECK_NEAR(point_percentile(p, 95), 18.83, 1e-12);
    CHECK_NEAR(p->latency_ms.avg, 13.19, 1e-12);
    CHECK_INT_EQ(p->n_series, 3);
    CHECK_NEAR(p->series[1].t_s, 20, 0);
    CHECK_NEAR(p->series[1].tps, 598.10, 1e-9);
    CHECK_NEAR(p->series[1].reads_ps, 8373.40, 1e-9);
    CHECK_NEAR(p->series[1].lat_ms, 19.07, 1e-12);
    CHECK_NEAR(p->series[1].errors_ps, 0.10, 1e-12);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "sysbench-1.1-oltp_point_select.log", NULL, &l, &rep), IMPORT_OK);
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "oltp_point_select");
    CHECK_INT_EQ(p->threads, 4);
    CHECK_NEAR(p->warmup_s, 2, 0);
    CHECK_INT_EQ(p->transactions, 60823);
    CHECK_NEAR(p->tps, 20270.91, 1e-9);
    CHECK_NEAR(p->duration_s, 3.0005, 1e-12); /* "time elapsed:" */
    CHECK_NEAR(json_number_value(json_object_get(p->extra, "eps")), 20270.9076, 1e-9);
    CHECK_NEAR(point_percentile(p, 95), 0.27, 1e-12);
    CHECK_INT_EQ(p->n_series, 3);
    point_list_destroy(&l);
}

/* Logs as sweep scripts write them, checkpoints, truncation, legacy non-OLTP tests. */
static void real_world_logs(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    /* prepare + run + cleanup in one file: only the run is a point */
    CHECK_INT_EQ(load(FIX "prep-run-clean-oltp_read_write.log", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        CHECK_INT_EQ(l.items[0].transactions, 1826);
        CHECK_NEAR(l.items[0].tps, 605.34, 1e-9);
        CHECK_NEAR(point_percentile(&l.items[0], 95), 8.28, 1e-12);
    }
    point_list_destroy(&l);
    /* --report-checkpoints=2,4 --time=5: three points, each over its own span */
    CHECK_INT_EQ(load(FIX "checkpoints-oltp_read_write.log", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 3);
    if (l.n == 3) {
        CHECK_INT_EQ(l.items[0].transactions, 1185);
        CHECK_NEAR(l.items[0].tps, 591.50, 1e-9);
        CHECK_NEAR(l.items[0].duration_s, 2.0008, 1e-12);
        CHECK_INT_EQ(l.items[1].threads, 2);
        CHECK_INT_EQ(l.items[1].transactions, 810);
        CHECK_NEAR(l.items[1].tps, 405.27, 1e-9);
        CHECK_NEAR(l.items[1].duration_s, 4.0006 - 2.0008, 1e-9);
        CHECK_NEAR(point_percentile(&l.items[1], 95), 10.27, 1e-12);
        CHECK_INT_EQ(l.items[2].transactions, 729);
        CHECK_NEAR(l.items[2].duration_s, 5.0090 - 4.0006, 1e-9);
        CHECK(point_has_flag(&l.items[2], "checkpoint"));
        CHECK_STR_EQ(l.items[2].tool, "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)");
    }
    point_list_destroy(&l);
    /* cut inside the summary, mid-number: what was printed whole is kept, marked incomplete */
    CHECK_INT_EQ(load(FIX "trunc-summary-oltp_read_write.log", NULL, &l, &rep), IMPORT_WARN);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK(p->incomplete && point_has_flag(p, "truncated_summary"));
        CHECK_NEAR(p->tps, 1745.18, 1e-9);
        CHECK_NEAR(point_percentile(p, 95), 2.11, 1e-12);
        CHECK(isnan(p->latency_ms.sum)); /* the cut "sum: 99" is not taken */
    }
    point_list_destroy(&l);
    /* cut inside an intermediate line: the whole lines before it are kept */
    CHECK_INT_EQ(load(FIX "trunc-interval-oltp_read_write.log", NULL, &l, &rep), IMPORT_WARN);
    CHECK(l.n == 1 && l.items[0].n_series == 2 && l.items[0].incomplete);
    if (l.n == 1)
        CHECK_NEAR(l.items[0].tps, (1867.82 + 1607.23) / 2, 1e-9);
    point_list_destroy(&l);
    /* legacy 0.4 fileio prints counts: rates = count / total time */
    CHECK_INT_EQ(load(FIX "legacy-0.4.12-fileio-rndrw.log", NULL, &l, &rep), IMPORT_OK);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "fileio_rndrw");
        CHECK_NEAR(p->io.reads_ps, 72000 / 60.0, 1e-9);
        CHECK_NEAR(p->io.writes_ps, 48000 / 60.0, 1e-9);
        CHECK_NEAR(p->io.fsyncs_ps, 153600 / 60.0, 1e-9);
        CHECK_NEAR(p->io.written_mib_s, 750 / 60.0, 1e-9);
        CHECK_NEAR(p->io.read_mib_s, 1.0986 * 1024 / 60.0, 1e-9);
    }
    point_list_destroy(&l);
    CHECK_INT_EQ(load(FIX "legacy-0.4.12-cpu.log", NULL, &l, &rep), IMPORT_OK);
    if (l.n == 1) {
        CHECK_STR_EQ(l.items[0].workload, "cpu");
        CHECK_NEAR(l.items[0].tps, 10000 / 25.0, 1e-9);
        CHECK(point_has_flag(&l.items[0], "tps_from_events"));
    }
    point_list_destroy(&l);
}

/* Hostile variations of real outputs, built in memory. */
static void hostile(void)
{
    struct point_list l;
    struct import_report rep;
    static const char neg[] = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
                              "Number of threads: 2\n"
                              "SQL statistics:\n"
                              "    transactions:                        10 (-5.00 per sec.)\n";
    static const char bom_csv[] = "\xEF\xBB\xBFTarget,Workload,Threads,TPS\nh,oltp_insert,4,100\n";
    static const char frac_thds[] = "sysbench 1.0.20\nNumber of threads: 2\n"
                                    "[ 1s ] thds: 2.7 tps: 1.00 qps: 1.00 (r/w/o: 1.00/0.00/0.00) "
                                    "lat (ms,95%): 0.10 err/s: 0.00 reconn/s: 0.00\n";
    char longline[3000];
    point_list_init(&l);
    CHECK_INT_EQ(import_buffer(neg, sizeof neg - 1, "neg.log", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "neg.log:4:") != NULL);
    CHECK_INT_EQ(import_buffer(frac_thds, sizeof frac_thds - 1, "f.log", NULL, &l, &rep),
                 IMPORT_EPARSE);
    CHECK_INT_EQ(import_buffer(bom_csv, sizeof bom_csv - 1, "bom.csv", NULL, &l, &rep), IMPORT_OK);
    CHECK(l.n == 1 && strcmp(l.items[0].target, "h") == 0 && l.items[0].threads == 4);
    point_list_destroy(&l);
    snprintf(longline, sizeof longline, "sysbench 1.0.20\nNumber of threads: 1\n%*s\n", 2000, "x");
    CHECK_INT_EQ(import_buffer(longline, strlen(longline), "long.log", NULL, &l, &rep),
                 IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "long.log:3:") != NULL);
    CHECK_INT_EQ(l.n, 0);
}

/* The five published tables: 142 rows, values as printed in the CSV files. */
static void published(void)
{
    static const char *const files[] = {
        "data/published/rds-idc-vs-cloud-4c16g.csv", "data/published/seekdb-4c8g-1c2g.csv",
        "data/published/monosql-scaleout-c5-2xlarge.csv",
        "data/published/klustron-3node-32c128g.csv", "data/published/klustron-tpcc-500wh.csv"};
    static const size_t rows[] = {36, 54, 12, 28, 12};
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    size_t total = 0;
    point_list_init(&l);
    for (size_t i = 0; i < 5; i++) {
        size_t before = l.n;
        CHECK_INT_EQ(import_file(files[i], NULL, &l, &rep), IMPORT_OK);
        CHECK_INT_EQ(l.n - before, rows[i]);
        total += l.n - before;
    }
    CHECK_INT_EQ(total, 142);

    p = find(&l, "idc-nvme", "oltp_legacy", 16);
    CHECK(p != NULL);
    if (p) {
        CHECK_NEAR(p->qps, 28734, 0);
        CHECK_NEAR(p->tps, 1437, 0);
        CHECK_NEAR(p->latency_ms.avg, 11.14, 1e-12);
        CHECK_NEAR(json_number_value(json_object_get(p->extra, "cpu_peak_pct")), 97.93, 1e-12);
        CHECK_INT_EQ(p->source_kind, POINT_SRC_TABLE);
        CHECK_INT_EQ(p->source_line, 11);
    }
    p = find(&l, "cloud-local-ssd", "oltp_legacy", 1);
    CHECK(p && fabs(p->tps - 181.23) < 1e-9);
    p = find(&l, "seekdb-4c8g", "oltp_point_select", 400);
    CHECK(p && fabs(p->tps - 108138.11) < 1e-9 && fabs(point_percentile(p, 99) - 15.00) < 1e-12);
    CHECK(p && isnan(p->qps) && isnan(p->latency_ms.avg));            /* absent stays absent */
    CHECK(find(&l, "seekdb-1c2g", "oltp_point_select", 400) == NULL); /* the missing row */
    p = find(&l, "seekdb-1c2g", "update", 200);
    CHECK(p && fabs(p->tps - 18839.09) < 1e-9);
    p = find(&l, "monosql-c5.2xlarge", "oltp_point_select", 1920);
    CHECK(p && p->nodes == 16 && fabs(p->tps - 249806.74) < 1e-9 &&
          fabs(p->latency_ms.avg - 7.6) < 1e-12 && fabs(point_percentile(p, 95) - 12.30) < 1e-12);
    p = find(&l, "klustron-3x32c", "oltp_write_only", 300);
    CHECK(p && point_has_flag(p, "qps_below_tps") && fabs(p->qps - 1812.38) < 1e-9);
    p = find(&l, "klustron-3x32c", "oltp_write_only", 100);
    CHECK(p && p->n_flags == 0);
    p = find(&l, "klustron-3x32c", "tpcc", 100);
    CHECK(p != NULL);
    if (p) {
        CHECK_NEAR(json_number_value(json_object_get(p->extra, "tpmc")), 46545.82, 1e-9);
        CHECK_NEAR(p->tps, 103319.45 / 60, 1e-9);
        CHECK(point_has_flag(p, "tps_from_tpm_total"));
        CHECK_STR_EQ(json_string_value(json_object_get(p->extra, "nodes")), "20-21-22");
    }
    point_list_destroy(&l);
}

static void bad_input(void)
{
    struct point_list l;
    struct import_report rep;
    CHECK_INT_EQ(load("tests/fixtures/bad/empty.log", NULL, &l, &rep), IMPORT_EFORMAT);
    CHECK(strstr(rep.msg, "empty.log") && strstr(rep.msg, "empty"));
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/comment-only.csv", NULL, &l, &rep), IMPORT_EFORMAT);
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/missing-cell.csv", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "missing-cell.csv:3:") && strstr(rep.msg, "expected 4 cells"));
    CHECK_INT_EQ(l.n, 0); /* the good row 2 is not kept */
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/nonnumeric.csv", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "nonnumeric.csv:3:") && strstr(rep.msg, "\"tps\"") &&
          strstr(rep.msg, "fast"));
    CHECK_INT_EQ(l.n, 0);
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/unknown.txt", NULL, &l, &rep), IMPORT_EFORMAT);
    CHECK(strstr(rep.msg, "unknown.txt:1:") && strstr(rep.msg, "expected"));
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/corrupt-summary.log", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "corrupt-summary.log:24:") && strstr(rep.msg, "transactions"));
    CHECK_INT_EQ(l.n, 0);
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/no-such-file.log", NULL, &l, &rep), IMPORT_EIO);
    CHECK(strstr(rep.msg, "No such file") != NULL);
    point_list_destroy(&l);
    CHECK_INT_EQ(load("tests/fixtures/bad/crlf-table.csv", NULL, &l, &rep), IMPORT_OK);
    CHECK(l.n == 2 && l.items[1].threads == 16 && fabs(l.items[0].tps - 2500.25) < 1e-9);
    CHECK(l.n == 2 && strcmp(l.items[0].workload, "oltp_read_only") == 0);
    point_list_destroy(&l);
}

/* A file of points written by the writer reads back (the JSONL path of import). */
static void points_pass_through(void)
{
    struct point_list l, back;
    struct import_report rep;
    struct point_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_INT_EQ(load("data/published/rds-idc-vs-cloud-4c16g.csv", NULL, &l, &rep), IMPORT_OK);
    for (size_t i = 0; i < l.n; i++)
        CHECK_INT_EQ(point_write(f, &l.items[i], &err), POINT_OK);
    fclose(f);
    CHECK_INT_EQ(import_detect(buf, len, NULL), IMPORT_POINTS);
    point_list_init(&back);
    CHECK_INT_EQ(import_buffer(buf, len, "mem.jsonl", NULL, &back, &rep), IMPORT_OK);
    CHECK_INT_EQ(back.n, 36);
    if (back.n == 36) {
        CHECK_NEAR(back.items[3].qps, 28734, 0);
        CHECK_STR_EQ(back.items[3].source_file, "data/published/rds-idc-vs-cloud-4c16g.csv");
    }
    free(buf);
    point_list_destroy(&l);
    point_list_destroy(&back);
}

static void workload_names(void)
{
    CHECK_STR_EQ(import_workload_from_name("x/run-oltp_update_non_index-16.log"),
                 "oltp_update_non_index");
    CHECK_STR_EQ(import_workload_from_name("oltp-read-write.txt"), "oltp_read_write");
    CHECK(import_workload_from_name("results.log") == NULL);
}

int main(void)
{
    point_select();
    read_write_and_write_only();
    histogram_rate_p99();
    read_only_p99_and_seed();
    sweep();
    killed_and_fatal();
    crlf_and_latin1();
    other_tests();
    legacy_and_1_1();
    published();
    bad_input();
    real_world_logs();
    hostile();
    points_pass_through();
    workload_names();
    return check_report();
}
