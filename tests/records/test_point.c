/* test_point.c - the sizeup.point/1 record: round trip, absent values, strict reader. */
#include "check.h"
#include "point.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A point with every kind of field set, values taken from docs/reference/sysbench.md §7.2
 * (oltp_read_write). */
static void fill(struct point *p)
{
    struct point_interval iv = point_interval_none();
    point_set_str(&p->target, "local-mariadb");
    point_set_str(&p->workload, "oltp_read_write");
    p->threads = 2;
    p->duration_s = 5.0117;
    p->transactions = 1944;
    p->queries = 38880;
    p->reads = 27216;
    p->writes = 7776;
    p->other = 3888;
    p->errors = 0;
    p->reconnects = 0;
    p->tps = 387.77;
    p->qps = 7755.30;
    p->latency_ms.min = 0.77;
    p->latency_ms.avg = 5.15;
    p->latency_ms.max = 739.30;
    p->latency_ms.sum = 10014.30;
    point_set_percentile(p, 95, 9.22);
    iv.t_s = 1;
    iv.threads = 2;
    iv.tps = 93.68;
    iv.qps = 1898.33;
    iv.reads_ps = 1334.26;
    iv.writes_ps = 374.74;
    iv.other_ps = 189.34;
    iv.lat_ms = 12.30;
    iv.pct = 95;
    iv.errors_ps = 0;
    iv.reconnects_ps = 0;
    point_series_append(p, &iv);
    point_hist_append(p, 0.189, 29);
    point_hist_append(p, 46.625, 1);
    point_add_flag(p, "incomplete_series");
    point_set_str(&p->tool, "sysbench 1.0.20");
    p->source_kind = POINT_SRC_SYSBENCH_LOG;
    point_set_str(&p->source_file, "x.log");
    p->source_line = 12;
    p->extra = json_pack("{s:f}", "cpu_peak_pct", 97.93);
}

static void round_trip(void)
{
    struct point a, b;
    struct point_error err = {""};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct point_reader *r;
    point_init(&a);
    point_init(&b);
    fill(&a);
    CHECK_INT_EQ(point_write(f, &a, &err), POINT_OK);
    fclose(f);
    CHECK(len > 0 && buf[len - 1] == '\n');
    CHECK(memchr(buf, '\n', len) == buf + len - 1); /* exactly one line */
    CHECK(point_looks_like_jsonl(buf, len));
    f = fmemopen(buf, len, "r");
    r = point_reader_new(f, "mem");
    CHECK_INT_EQ(point_reader_next(r, &b, &err), 1);
    CHECK_STR_EQ(b.target, "local-mariadb");
    CHECK_STR_EQ(b.workload, "oltp_read_write");
    CHECK(b.config == NULL);
    CHECK_INT_EQ(b.threads, 2);
    CHECK_INT_EQ(b.nodes, POINT_NONE);
    CHECK_INT_EQ(b.transactions, 1944);
    CHECK_INT_EQ(b.reads, 27216);
    CHECK_INT_EQ(b.errors, 0);
    CHECK_NEAR(b.tps, 387.77, 1e-9);
    CHECK_NEAR(b.duration_s, 5.0117, 1e-12);
    CHECK_NEAR(point_percentile(&b, 95), 9.22, 1e-12);
    CHECK(isnan(point_percentile(&b, 99)));
    CHECK(isnan(b.ci95_tps));
    CHECK(isnan(b.rate));
    CHECK_INT_EQ(b.steady, -1);
    CHECK_INT_EQ(b.n_series, 1);
    CHECK_NEAR(b.series[0].writes_ps, 374.74, 1e-12);
    CHECK_INT_EQ(b.n_hist, 2);
    CHECK_NEAR(b.histogram[1].value_ms, 46.625, 1e-12);
    CHECK_INT_EQ(b.histogram[0].count, 29);
    CHECK(point_has_flag(&b, "incomplete_series"));
    CHECK_INT_EQ(b.source_kind, POINT_SRC_SYSBENCH_LOG);
    CHECK_INT_EQ(b.source_line, 12);
    CHECK_NEAR(json_real_value(json_object_get(b.extra, "cpu_peak_pct")), 97.93, 1e-12);
    CHECK_INT_EQ(point_reader_next(r, &b, &err), 0);
    point_reader_free(r);
    fclose(f);
    /* absent values are omitted, never written as 0 */
    CHECK(strstr(buf, "\"ci95_tps\"") == NULL);
    CHECK(strstr(buf, "\"p99\"") == NULL);
    CHECK(strstr(buf, "\"nodes\"") == NULL);
    CHECK(strstr(buf, "\"config\":null") != NULL);
    free(buf);
    point_destroy(&a);
    point_destroy(&b);
}

static int read_one(const char *text, struct point *p, struct point_error *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct point_reader *r = point_reader_new(f, "in.jsonl");
    int rc = point_reader_next(r, p, err);
    point_reader_free(r);
    fclose(f);
    return rc;
}

static void strict_reader(void)
{
    struct point p;
    struct point_error err = {""};
    point_init(&p);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/2\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"source\":{\"kind\":\"table\"}}\n",
                          &p, &err),
                 POINT_ESCHEMA);
    CHECK(strstr(err.msg, "in.jsonl:1") != NULL);
    CHECK(strstr(err.msg, "sizeup.point/2") != NULL);
    CHECK_INT_EQ(read_one("\n{\"schema\":\"sizeup.point/1\",\"workload\":\"w\",\"threads\":1,"
                          "\"source\":{\"kind\":\"table\"}}\n",
                          &p, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg, "in.jsonl:2") != NULL);
    CHECK(strstr(err.msg, "in.jsonl:2:1: $: missing required key 'target' (a string)") != NULL);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"source\":{\"kind\":\"table\"}}\n",
                          &p, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg, "threads") != NULL);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"tps\":\"fast\",\"source\":{\"kind\":\"table\"}}\n",
                          &p, &err),
                 POINT_EPARSE);
    /* the column of the value in its line (util/jsonread.h) */
    CHECK(strstr(err.msg, "in.jsonl:1:74: $.tps: expected a number >= 0, got a string") != NULL);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\", \"target\":\n", &p, &err), POINT_EPARSE);
    CHECK(strstr(err.msg, "in.jsonl:1:") != NULL);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1}\n",
                          &p, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg, "source") != NULL);
    CHECK(p.target == NULL); /* nothing half-filled is left behind */
    /* a misspelt key is an error, not a silently lost value */
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"tsp\":5,\"source\":{\"kind\":\"table\"}}\n",
                          &p, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg, "in.jsonl:1:74: $.tsp: unknown key 'tsp' (misspelt?)") != NULL);
    /* a bad interval is named by its index, at its column */
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"series\":[{\"t\":1},{\"t\":-1}],\"source\":{\"kind\":"
                          "\"table\"}}\n",
                          &p, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg, "in.jsonl:1:91: $.series[1].t: expected a number >= 0, got -1") != NULL);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"source\":{\"kind\":\"log\"}}\n",
                          &p, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg,
                 "$.source.kind: expected probe, sysbench-log, table, prediction or tool-output") !=
          NULL);
    CHECK_INT_EQ(
        read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                 "\"threads\":1,\"latency_ms\":{\"p 95\":1},\"source\":{\"kind\":\"table\"}}\n",
                 &p, &err),
        POINT_EPARSE);
    /* a byte order mark before the first line is skipped */
    CHECK_INT_EQ(read_one("\xEF\xBB\xBF{\"schema\":\"sizeup.point/1\",\"target\":\"a\","
                          "\"workload\":\"w\",\"threads\":1,\"source\":{\"kind\":\"table\"}}\n",
                          &p, &err),
                 1);
    point_destroy(&p);
}

static void writer_refuses_incomplete(void)
{
    struct point p;
    struct point_error err = {""};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    point_init(&p);
    point_set_str(&p.target, "t");
    CHECK_INT_EQ(point_write(f, &p, &err), POINT_EINVAL);
    fclose(f);
    CHECK_INT_EQ(len, 0);
    free(buf);
    point_destroy(&p);
}

/* Printed numbers survive the writer: 15 significant digits. */
static void precision(void)
{
    struct point a, b;
    struct point_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct point_reader *r;
    point_init(&a);
    point_init(&b);
    fill(&a);
    a.latency_ms.sum = 123456789.12;
    a.tps = 0.1;
    CHECK_INT_EQ(point_write(f, &a, &err), POINT_OK);
    fclose(f);
    CHECK(strstr(buf, "\"sum\":123456789.12") != NULL);
    CHECK(strstr(buf, "\"tps\":0.1,") != NULL);
    f = fmemopen(buf, len, "r");
    r = point_reader_new(f, "mem");
    CHECK_INT_EQ(point_reader_next(r, &b, &err), 1);
    CHECK(b.latency_ms.sum == 123456789.12);
    point_reader_free(r);
    fclose(f);
    free(buf);
    point_destroy(&a);
    point_destroy(&b);
}

static void copy(void)
{
    struct point a, b;
    point_init(&a);
    point_init(&b);
    fill(&a);
    CHECK_INT_EQ(point_copy(&b, &a), POINT_OK);
    point_destroy(&a);
    CHECK_STR_EQ(b.target, "local-mariadb");
    CHECK_INT_EQ(b.n_series, 1);
    CHECK(json_object_get(b.extra, "cpu_peak_pct") != NULL);
    point_destroy(&b);
}

/* "basis": "predicted" and predicted_from: round trip, and the rules of the reader */
static void predicted(void)
{
    struct point a, b;
    struct point_error err = {""};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    point_init(&a);
    point_init(&b);
    point_set_str(&a.target, "c5.2xlarge");
    point_set_str(&a.config, "c5.2xlarge");
    point_set_str(&a.workload, "oltp_read_only");
    a.threads = 16;
    a.tps = 5500;
    a.ci95_tps = 600;
    a.source_kind = POINT_SRC_PREDICTION;
    /* a predicted point without its sources is refused by the writer */
    a.predicted = 1;
    CHECK_INT_EQ(point_write(f, &a, &err), POINT_EINVAL);
    CHECK(strstr(err.msg, "predicted_from") != NULL);
    CHECK_INT_EQ(point_add_predicted_from(&a, "c5.xlarge"), POINT_OK);
    CHECK_INT_EQ(point_add_predicted_from(&a, "c5.4xlarge"), POINT_OK);
    CHECK_INT_EQ(point_add_predicted_from(&a, "c5.xlarge"), POINT_OK); /* once */
    CHECK_INT_EQ(a.n_predicted_from, 2);
    CHECK_INT_EQ(point_write(f, &a, &err), POINT_OK);
    fclose(f);
    CHECK(
        strstr(buf, "\"basis\":\"predicted\",\"predicted_from\":[\"c5.xlarge\",\"c5.4xlarge\"]") !=
        NULL);
    CHECK(strstr(buf, "\"kind\":\"prediction\"") != NULL);
    CHECK_INT_EQ(read_one(buf, &b, &err), 1);
    CHECK_INT_EQ(b.predicted, 1);
    CHECK_INT_EQ(b.n_predicted_from, 2);
    CHECK_STR_EQ(b.predicted_from[1], "c5.4xlarge");
    CHECK_INT_EQ(b.source_kind, POINT_SRC_PREDICTION);
    CHECK_INT_EQ(point_copy(&a, &b), POINT_OK);
    CHECK_STR_EQ(a.predicted_from[0], "c5.xlarge");
    free(buf);
    /* a measured point says nothing of a basis; "measured" is accepted */
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"basis\":\"measured\",\"source\":{\"kind\":\"table\"}}\n",
                          &b, &err),
                 1);
    CHECK_INT_EQ(b.predicted, 0);
    CHECK_INT_EQ(read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                          "\"threads\":1,\"basis\":\"guessed\",\"source\":{\"kind\":\"table\"}}\n",
                          &b, &err),
                 POINT_EPARSE);
    CHECK(strstr(err.msg, "in.jsonl:1:76: $.basis: expected \"measured\" or \"predicted\"") !=
          NULL);
    CHECK_INT_EQ(
        read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                 "\"threads\":1,\"basis\":\"predicted\",\"source\":{\"kind\":\"prediction\"}}\n",
                 &b, &err),
        POINT_EPARSE);
    CHECK(strstr(err.msg, "predicted_from") != NULL);
    CHECK_INT_EQ(
        read_one("{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\","
                 "\"threads\":1,\"predicted_from\":[\"x\"],\"source\":{\"kind\":\"table\"}}\n",
                 &b, &err),
        POINT_EPARSE);
    CHECK(strstr(err.msg, "absent unless") != NULL);
    point_destroy(&a);
    point_destroy(&b);
}

/* The server block (docs/point-record.md): written when present, read back exactly, copied, and
 * refused when a figure is negative, a ratio above 1, a key unknown or a counter not a number. */
static void server_block(void)
{
    struct point a, b, c;
    struct point_error err = {""};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    point_init(&a);
    point_init(&b);
    point_init(&c);
    CHECK(point_set_str(&a.target, "t") == POINT_OK && point_set_str(&a.workload, "w") == 0);
    a.threads = 4;
    CHECK(!point_has_server(&a));
    /* the published IDC table's 16-thread idc-nvme row: 24722 IOPS at 1437 tps */
    a.server.v[PSRV_IOPS] = 24722;
    a.server.v[PSRV_IOS_PER_TX] = 24722.0 / 1437.0;
    a.server.v[PSRV_BP_MISS_RATIO] = 0.04;
    a.server.per_tx = json_pack("{s:f}", "Com_select", 14.0);
    CHECK(point_set_str(&a.server.from, "table columns") == POINT_OK);
    CHECK(point_has_server(&a));
    CHECK_INT_EQ(point_write(f, &a, &err), POINT_OK);
    fclose(f);
    CHECK(strstr(buf, "\"server\":{\"from\":\"table columns\",\"ios_per_tx\":") != NULL);
    CHECK(strstr(buf, "\"window_s\"") == NULL); /* absent stays absent */
    CHECK_INT_EQ(read_one(buf, &b, &err), 1);
    CHECK_NEAR(b.server.v[PSRV_IOS_PER_TX], 24722.0 / 1437.0, 1e-12);
    CHECK_NEAR(b.server.v[PSRV_IOPS], 24722, 0);
    CHECK(isnan(b.server.v[PSRV_CPU_S_PER_TX]));
    CHECK(b.server.per_tx && json_real_value(json_object_get(b.server.per_tx, "Com_select")) == 14);
    CHECK(b.server.from && strcmp(b.server.from, "table columns") == 0);
    CHECK_INT_EQ(point_copy(&c, &b), POINT_OK);
    CHECK(c.server.per_tx != b.server.per_tx && json_equal(c.server.per_tx, b.server.per_tx));
    CHECK_NEAR(c.server.v[PSRV_BP_MISS_RATIO], 0.04, 0);
    free(buf);
#define SRV_LINE(body)                                                                             \
    "{\"schema\":\"sizeup.point/1\",\"target\":\"a\",\"workload\":\"w\",\"threads\":1,"            \
    "\"server\":" body ",\"source\":{\"kind\":\"table\"}}\n"
    CHECK_INT_EQ(read_one(SRV_LINE("{\"reads_per_tx\":-1}"), &b, &err), POINT_EPARSE);
    CHECK(strstr(err.msg, "$.server.reads_per_tx: expected a number >= 0") != NULL);
    CHECK_INT_EQ(read_one(SRV_LINE("{\"bp_miss_ratio\":1.5}"), &b, &err), POINT_EPARSE);
    CHECK(strstr(err.msg, "bp_miss_ratio") != NULL && strstr(err.msg, "between 0 and 1"));
    CHECK_INT_EQ(read_one(SRV_LINE("{\"iops_per_tx\":3}"), &b, &err), POINT_EPARSE);
    CHECK(strstr(err.msg, "$.server.iops_per_tx") != NULL);
    CHECK_INT_EQ(read_one(SRV_LINE("{\"per_tx\":{\"Com_select\":\"x\"}}"), &b, &err), POINT_EPARSE);
    CHECK(strstr(err.msg, "$.server.per_tx.Com_select: expected a number >= 0") != NULL);
    CHECK_INT_EQ(read_one(SRV_LINE("[1]"), &b, &err), POINT_EPARSE);
    CHECK(strstr(err.msg, "$.server: expected an object") != NULL);
#undef SRV_LINE
    point_destroy(&a);
    point_destroy(&b);
    point_destroy(&c);
}

/* Replicates of one level pooled (point_server_pool): the level's counter deltas over its
 * transactions, worked out here by hand. */
static void server_pool(void)
{
    struct point r[3], out;
    const struct point *reps[3] = {&r[0], &r[1], &r[2]};
    for (int i = 0; i < 3; i++)
        point_init(&r[i]);
    point_init(&out);
    r[0].server.v[PSRV_TRANSACTIONS] = 1000;
    r[0].server.v[PSRV_WINDOW_S] = 2;
    r[0].server.v[PSRV_READS_PER_TX] = 2;
    r[0].server.v[PSRV_BP_REQUESTS_PER_TX] = 100;
    r[0].server.v[PSRV_BP_READS_PER_TX] = 1;
    r[0].server.v[PSRV_DATA_MIB] = 10;
    r[0].server.per_tx = json_pack("{s:f}", "Com_select", 14.0);
    point_set_str(&r[0].server.from, "SHOW GLOBAL STATUS");
    /* r[1]: no block (e.g. its counters could not be read): left out */
    r[2].server.v[PSRV_TRANSACTIONS] = 3000;
    r[2].server.v[PSRV_WINDOW_S] = 5;
    r[2].server.v[PSRV_READS_PER_TX] = 4;
    r[2].server.v[PSRV_BP_REQUESTS_PER_TX] = 100;
    r[2].server.v[PSRV_BP_READS_PER_TX] = 5;
    r[2].server.v[PSRV_DATA_MIB] = 12;
    r[2].server.per_tx = json_pack("{s:f,s:f}", "Com_select", 15.0, "Com_update", 2.0);
    CHECK_INT_EQ(point_server_pool(&out, reps, 3), POINT_OK);
    CHECK_NEAR(out.server.v[PSRV_TRANSACTIONS], 4000, 0);
    CHECK_NEAR(out.server.v[PSRV_WINDOW_S], 7, 0);
    CHECK_NEAR(out.server.v[PSRV_READS_PER_TX], (2000.0 + 12000) / 4000, 1e-12);
    CHECK_NEAR(out.server.v[PSRV_BP_MISS_RATIO], (1000.0 + 15000) / 400000, 1e-12);
    CHECK_NEAR(out.server.v[PSRV_DATA_MIB], 12, 0); /* the last replicate's */
    CHECK(isnan(out.server.v[PSRV_CPU_S_PER_TX]));
    CHECK_NEAR(json_real_value(json_object_get(out.server.per_tx, "Com_select")),
               (14000.0 + 45000) / 4000, 1e-12);
    /* a counter one replicate lacks: the others' delta over all the level's transactions */
    CHECK_NEAR(json_real_value(json_object_get(out.server.per_tx, "Com_update")), 6000.0 / 4000,
               1e-12);
    CHECK(out.server.from && strcmp(out.server.from, "SHOW GLOBAL STATUS") == 0);
    /* no replicate with a block: none */
    reps[0] = reps[2] = &r[1];
    CHECK_INT_EQ(point_server_pool(&out, reps, 3), POINT_OK);
    CHECK(!point_has_server(&out));
    for (int i = 0; i < 3; i++)
        point_destroy(&r[i]);
    point_destroy(&out);
}

/* Issue 27.12: a series stays within POINT_SERIES_MAX entries. 10,000 one-second reports of
 * tps = i and p95 = i % 7 (i = 1..10,000): past 4,096 entries neighbours merge, so with step 4
 * (4,096 x 2 < 10,000 <= 4,096 x 4) entry k holds reports 4k+1..4k+4: tps their mean 4k + 2.5,
 * p95 the largest of theirs, t the last report's; the last entry reports 9,997..10,000. The
 * point says series_summarised, and the step survives a round trip. */
static void series_bounded(void)
{
    struct point a, b;
    struct point_error err = {""};
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    struct point_reader *r;
    int ok_tps = 1, ok_lat = 1, ok_t = 1;
    point_init(&a);
    point_init(&b);
    fill(&a);
    a.n_series = 0;
    for (int i = 1; i <= 10000; i++) {
        struct point_interval iv = point_interval_none();
        iv.t_s = i;
        iv.threads = 2;
        iv.tps = i;
        iv.lat_ms = i % 7;
        iv.pct = 95;
        CHECK_INT_EQ(point_series_append(&a, &iv), POINT_OK);
    }
    CHECK(a.n_series <= POINT_SERIES_MAX);
    CHECK_INT_EQ(a.series_step, 4);
    CHECK_INT_EQ(a.n_series, 2500);
    for (size_t k = 0; k < a.n_series; k++) {
        double lo = 4.0 * (double)k + 1, want_lat = 0;
        for (int j = 0; j < 4; j++)
            want_lat = fmax(want_lat, (double)(((int)lo + j) % 7));
        ok_tps &= fabs(a.series[k].tps - (lo + 1.5)) < 1e-9;
        ok_lat &= a.series[k].lat_ms == want_lat;
        ok_t &= a.series[k].t_s == lo + 3;
    }
    CHECK(ok_tps);
    CHECK(ok_lat);
    CHECK(ok_t);
    CHECK(point_has_flag(&a, "series_summarised"));
    f = open_memstream(&buf, &len);
    CHECK_INT_EQ(point_write(f, &a, &err), POINT_OK);
    fclose(f);
    CHECK(len < 1024 * 1024);
    f = fmemopen(buf, len, "r");
    r = point_reader_new(f, "mem");
    CHECK_INT_EQ(point_reader_next(r, &b, &err), 1);
    CHECK_INT_EQ(b.n_series, 2500);
    CHECK_INT_EQ(b.series_step, 4);
    CHECK_NEAR(b.series[2499].tps, 9998.5, 1e-9);
    point_reader_free(r);
    fclose(f);
    free(buf);
    point_destroy(&a);
    point_destroy(&b);
}

int main(void)
{
    series_bounded();
    server_block();
    server_pool();
    round_trip();
    predicted();
    strict_reader();
    writer_refuses_incomplete();
    copy();
    precision();
    return check_report();
}
