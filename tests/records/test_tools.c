/*
 * test_tools.c - BenchBase, HammerDB and go-tpc results: the fixtures in tests/fixtures/tools/,
 * written in the formats the tools' sources print (README there names the source of each);
 * expected values are the numbers in those files.
 */
#include "check.h"
#include "import.h"
#include "point.h"

#include <math.h>
#include <string.h>

#define FIX "tests/fixtures/tools/"

static int load(const char *path, const struct import_options *opt, struct point_list *l,
                struct import_report *rep)
{
    point_list_init(l);
    return import_file(path, opt, l, rep);
}

static double xnum(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static void benchbase(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    static const char bad[] = "{\"Benchmark Type\": \"tpcc\", \"terminals\": \"16\",\n"
                              " \"Throughput (requests/second)\": \"fast\"}\n";
    CHECK_INT_EQ(load(FIX "tpcc_2025-11-20_10-15-30.summary.json", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "tpcc");
        CHECK_STR_EQ(p->tool, "BenchBase");
        CHECK_INT_EQ(p->source_kind, POINT_SRC_TOOL);
        CHECK_INT_EQ(p->threads, 16); /* "terminals": "16" */
        CHECK_INT_EQ(p->transactions, 54321);
        CHECK_NEAR(p->tps, 54321 / 60.000012345, 1e-9);
        CHECK_NEAR(xnum(p->extra, "goodput_rps"), 54012 / 60.000012345, 1e-9);
        CHECK_NEAR(p->duration_s, 60.000012345, 1e-12);
        CHECK_NEAR(p->latency_ms.min, 1.893, 1e-12);
        CHECK_NEAR(p->latency_ms.avg, 17.654, 1e-12);
        CHECK_NEAR(p->latency_ms.max, 412.006, 1e-12);
        CHECK_NEAR(point_percentile(p, 25), 9.127, 1e-12);
        CHECK_NEAR(point_percentile(p, 50), 14.286, 1e-12);
        CHECK_NEAR(point_percentile(p, 95), 39.922, 1e-12);
        CHECK_NEAR(point_percentile(p, 99), 71.388, 1e-12);
        CHECK_STR_EQ(p->started_at, "2025-11-20T10:15:30Z"); /* 1763633730123 ms */
        CHECK_STR_EQ(json_string_value(json_object_get(p->extra, "dbms_type")), "POSTGRES");
        CHECK_STR_EQ(json_string_value(json_object_get(p->extra, "isolation")),
                     "TRANSACTION_SERIALIZABLE");
        CHECK(!p->incomplete);
    }
    point_list_destroy(&l);
    point_list_init(&l);
    CHECK_INT_EQ(import_buffer(bad, sizeof bad - 1, "s.json", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "s.json:2:") && strstr(rep.msg, "Throughput (requests/second)"));
    CHECK_INT_EQ(l.n, 0);
    point_list_destroy(&l);
}

static void hammerdb(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    const json_t *rt;
    CHECK_INT_EQ(load(FIX "hammerdb-tprocc-autopilot.log", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 2);
    if (l.n == 2) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "tprocc");
        CHECK_INT_EQ(p->threads, 4);
        CHECK_NEAR(xnum(p->extra, "nopm"), 35102, 0);
        CHECK_NEAR(xnum(p->extra, "tpm"), 80733, 0);
        CHECK_NEAR(p->tps, 80733 / 60.0, 1e-9);
        CHECK_STR_EQ(json_string_value(json_object_get(p->extra, "database")), "PostgreSQL");
        CHECK_NEAR(p->duration_s, 120, 0);
        CHECK_NEAR(p->warmup_s, 60, 0);
        CHECK(isnan(p->latency_ms.avg)); /* no xtprof data for this test */
        CHECK(point_has_flag(p, "tps_from_tpm"));
        p = &l.items[1];
        CHECK_INT_EQ(p->threads, 8);
        CHECK_NEAR(p->tps, 133890 / 60.0, 1e-9);
        CHECK_NEAR(p->latency_ms.avg, 6.884, 1e-12); /* NEWORD */
        CHECK_NEAR(p->latency_ms.min, 0.612, 1e-12);
        CHECK_NEAR(point_percentile(p, 95), 11.950, 1e-12);
        CHECK_NEAR(point_percentile(p, 99), 17.402, 1e-12);
        rt = json_object_get(p->extra, "response_times");
        CHECK_NEAR(xnum(json_object_get(rt, "PAYMENT"), "p50_ms"), 3.702, 1e-12);
        CHECK_NEAR(xnum(json_object_get(rt, "NEWORD"), "calls"), 70210, 0);
    }
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "hammerdb-tpm-first.log", NULL, &l, &rep), IMPORT_OK);
    if (l.n == 1) {
        CHECK_INT_EQ(l.items[0].threads, 2);
        CHECK_NEAR(xnum(l.items[0].extra, "nopm"), 11392, 0);
        CHECK_NEAR(l.items[0].tps, 26207 / 60.0, 1e-9);
        CHECK_STR_EQ(json_string_value(json_object_get(l.items[0].extra, "database")), "MariaDB");
    }
    point_list_destroy(&l);
}

static void gotpc(void)
{
    static const char no_threads[] =
        "[Summary] NEW_ORDER - Takes(s): 10.0, Count: 100, TPM: 600.0, Sum(ms): 1000.0, Avg(ms): "
        "10.0, 50th(ms): 9.0, 90th(ms): 16.0, 95th(ms): 19.0, 99th(ms): 28.0, 99.9th(ms): 41.0, "
        "Max(ms): 55.0\ntpmC: 600.0, efficiency: 11.7%\n";
    struct import_options opt = {.threads = 8};
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "gotpc-tpcc-16t.log", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "tpcc");
        CHECK_STR_EQ(p->tool, "go-tpc");
        CHECK_INT_EQ(p->threads, 16); /* the echoed -T 16 */
        CHECK_NEAR(xnum(p->extra, "tpmc"), 3672.0, 1e-9);
        CHECK_NEAR(xnum(p->extra, "tpm_total"), 8160.0, 1e-9);
        CHECK_NEAR(p->tps, 8160.0 / 60, 1e-9);
        CHECK_INT_EQ(p->transactions, 109 + 1224 + 111 + 1170 + 106);
        CHECK_INT_EQ(p->errors, 2); /* NEW_ORDER_ERR */
        CHECK_NEAR(p->duration_s, 20.0, 0);
        CHECK_NEAR(p->latency_ms.avg, 21.7, 1e-12);
        CHECK_NEAR(point_percentile(p, 95), 41.2, 1e-12);
        CHECK_NEAR(point_percentile(p, 99.9), 89.0, 1e-12);
        CHECK_NEAR(p->latency_ms.max, 119.3, 1e-12);
        CHECK_NEAR(
            xnum(json_object_get(json_object_get(p->extra, "transactions"), "PAYMENT"), "count"),
            1170, 0);
        CHECK_INT_EQ(p->n_series, 2);
        if (p->n_series == 2) {
            CHECK_NEAR(p->series[0].t_s, 10.0, 1e-12);
            CHECK_NEAR(p->series[0].tps, (52 + 601 + 53 + 572 + 55) / 10.0, 1e-9);
            CHECK_NEAR(p->series[1].t_s, 20.0, 1e-12);
        }
    }
    point_list_destroy(&l);

    point_list_init(&l);
    CHECK_INT_EQ(import_buffer(no_threads, sizeof no_threads - 1, "g.log", NULL, &l, &rep),
                 IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "g.log:1:") && strstr(rep.msg, "--threads"));
    CHECK_INT_EQ(import_buffer(no_threads, sizeof no_threads - 1, "g.log", &opt, &l, &rep),
                 IMPORT_OK);
    if (l.n == 1) {
        CHECK_INT_EQ(l.items[0].threads, 8);
        CHECK_NEAR(l.items[0].tps, 600.0 / 60, 1e-12); /* no tpmTotal: the summary's TPM */
        CHECK(point_has_flag(&l.items[0], "tps_from_tpm_sum"));
    }
    point_list_destroy(&l);
}

int main(void)
{
    benchbase();
    hammerdb();
    gotpc();
    return check_report();
}
