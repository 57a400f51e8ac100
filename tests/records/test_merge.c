/*
 * test_merge.c - merging the parts of a point measured by several load generators
 * (records/merge.h) and the lossless histogram member (records/hist_json.h).
 *
 * The samples are drawn here (a fixed xorshift generator, log-uniform latencies from 0.2 us to
 * 200 s so that underflows and overflows occur), split over the parts, and every expectation
 * comes from the samples themselves: counts, the exact min/max/sum, one histogram built from all
 * samples, and nearest-rank percentiles of the sorted samples (within the histogram's stated
 * error, histogram.h). Each part goes through its JSON line and back, so the check also covers
 * the record's writer and reader.
 */
#include "check.h"
#include "hist_json.h"
#include "merge.h"
#include "point.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_SAMPLES 60000
#define K 3

static uint64_t xs = 88172645463325252ull;
static uint64_t next_u64(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 7;
    xs ^= xs << 17;
    return xs;
}

/* log-uniform in [0.2 us, 200 s] */
static uint64_t sample_ns(void)
{
    double u = (double)(next_u64() >> 11) / 9007199254740992.0;
    return (uint64_t)exp(log(200.0) + u * (log(200e9) - log(200.0)));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A part: client i of K with the samples [from, to), written as a JSON line and read back. */
static int make_part(struct point *out, int i, const uint64_t *s, size_t from, size_t to,
                     const char *workload, long long threads, long long conns, double start,
                     double dur, const char *start_at)
{
    struct point p;
    struct point_error err;
    json_t *j;
    char *line;
    int rc;
    point_init(&p);
    point_set_str(&p.target, "t1");
    point_set_str(&p.workload, workload);
    p.threads = threads;
    p.transactions = (int64_t)(to - from);
    p.queries = p.reads = (int64_t)(to - from);
    p.writes = p.other = 0;
    p.errors = i;
    p.reconnects = 0;
    p.duration_s = dur;
    p.tps = (double)(to - from) / dur;
    p.client_cpu_s = 0.5 + i;
    p.latency_hist = hist_new();
    for (size_t k = from; k < to; k++)
        hist_record(p.latency_hist, s[k]);
    p.latency_overflows = (int64_t)p.latency_hist->overflow;
    point_set_percentile(&p, 95, 1.0); /* a part's own percentile: never used by the merge */
    point_set_percentile(&p, 99.9, 1.0);
    point_add_flag(&p, "partial");
    p.client.index = i;
    p.client.count = K;
    p.client.threads = conns;
    point_set_str(&p.client.start_at, start_at);
    p.client.started_unix_s = start;
    p.client.ended_unix_s = start + dur;
    p.options =
        json_pack("{s:s,s:I,s:s,s:I}", "workload", workload, "tables", (json_int_t)1, "client",
                  i == 0   ? "1/3"
                  : i == 1 ? "2/3"
                           : "3/3",
                  "workers", (json_int_t)(i + 1));
    p.source_kind = POINT_SRC_PROBE;
    j = point_to_json(&p, &err);
    point_destroy(&p);
    if (!j)
        return -1;
    line = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    point_init(out);
    rc = point_parse_line(line, strlen(line), "part.jsonl", i + 1, out, &err);
    if (rc != 1)
        fprintf(stderr, "part %d: %s\n", i, err.msg);
    free(line);
    return rc == 1 ? 0 : -1;
}

static const char *const where[K + 2] = {"a.jsonl:1", "b.jsonl:1", "c.jsonl:1", "d.jsonl:1",
                                         "e.jsonl:1"};

/* merge_parts on n parts; MERGE_* code, message in msg */
static int merge(struct point *parts, size_t n, struct point_list *out, char *msg, FILE *warn)
{
    return merge_parts(parts, where, n, MERGE_SKEW_S, out, warn, msg, 512);
}

int main(void)
{
    static uint64_t s[N_SAMPLES], sorted[N_SAMPLES];
    struct hist *all = hist_new();
    struct point parts[K + 2];
    struct point_list out;
    char msg[512];
    /* uneven shares of 7 connections and of the samples */
    const size_t cut[K + 1] = {0, 17000, 41000, N_SAMPLES};
    const long long conns[K] = {2, 2, 3};
    const double dur[K] = {10.0, 10.02, 9.99};
    uint64_t sum = 0, mn = UINT64_MAX, mx = 0;
    int rc;

    for (size_t i = 0; i < N_SAMPLES; i++) {
        s[i] = sample_ns();
        hist_record(all, s[i]);
        sum += s[i];
        mn = s[i] < mn ? s[i] : mn;
        mx = s[i] > mx ? s[i] : mx;
    }
    memcpy(sorted, s, sizeof s);
    qsort(sorted, N_SAMPLES, sizeof sorted[0], cmp_u64);
    CHECK(all->underflow > 0 && all->overflow > 0);

    for (int i = 0; i < K; i++)
        CHECK(make_part(&parts[i], i, s, cut[i], cut[i + 1], "oltp_point_select", 7, conns[i],
                        1764583200.0 + 0.01 * i, dur[i], "2025-12-01T10:00:00Z") == 0);
    /* the JSON line keeps the histogram exactly */
    {
        struct hist h;
        hist_reset(&h);
        for (size_t k = cut[1]; k < cut[2]; k++)
            hist_record(&h, s[k]);
        CHECK(parts[1].latency_hist && memcmp(parts[1].latency_hist, &h, sizeof h) == 0);
    }

    /* ---- merged, parts in any order -------------------------------------------------------- */
    point_list_init(&out);
    {
        struct point shuffled[K];
        shuffled[0] = parts[2];
        shuffled[1] = parts[0];
        shuffled[2] = parts[1];
        rc = merge(shuffled, K, &out, msg, NULL);
    }
    CHECK_INT_EQ(rc, MERGE_OK);
    CHECK_INT_EQ(out.n, 1);
    if (rc == MERGE_OK && out.n == 1) {
        const struct point *m = &out.items[0];
        double tps = 0;
        static const double pcts[4] = {50, 95, 99, 99.9};
        for (int i = 0; i < K; i++)
            tps += (double)(cut[i + 1] - cut[i]) / dur[i];
        CHECK(m->latency_hist && memcmp(m->latency_hist, all, sizeof *all) == 0);
        CHECK_INT_EQ(m->latency_hist->count, N_SAMPLES);
        CHECK_INT_EQ(m->latency_hist->sum_ns, sum);
        CHECK_INT_EQ(m->transactions, N_SAMPLES);
        CHECK_INT_EQ(m->errors, 0 + 1 + 2);
        CHECK_INT_EQ(m->threads, 7);
        CHECK_INT_EQ(m->latency_overflows, all->overflow);
        CHECK_NEAR_REL(m->tps, tps, 1e-12);
        CHECK_NEAR_REL(m->client_cpu_s, 0.5 + 1.5 + 2.5, 1e-12);
        /* the common window: latest start (part 2 at +0.02 s) to earliest end (part 0, 10 s) */
        CHECK_NEAR(m->duration_s, 10.0 - 0.02, 1e-6);
        CHECK_NEAR_REL(m->latency_ms.min, (double)mn / 1e6, 1e-12);
        CHECK_NEAR_REL(m->latency_ms.max, (double)mx / 1e6, 1e-12);
        CHECK_NEAR_REL(m->latency_ms.avg, (double)sum / N_SAMPLES / 1e6, 1e-12);
        for (int q = 0; q < 4; q++) {
            uint64_t v;
            size_t rank = (size_t)ceil(pcts[q] / 100.0 * N_SAMPLES - 1e-9);
            double exact = (double)sorted[rank - 1] / 1e6;
            hist_percentile(all, pcts[q], &v);
            /* equal to one histogram of all samples, and within its error of the samples' */
            CHECK(point_percentile(m, pcts[q]) == (double)v / 1e6);
            if (sorted[rank - 1] >= HIST_LOWEST_NS && sorted[rank - 1] < HIST_HIGHEST_NS)
                CHECK_NEAR_REL(point_percentile(m, pcts[q]), exact, HIST_MAX_REL_ERROR + 1e-12);
        }
        CHECK(!point_has_flag(m, "partial"));
        CHECK_INT_EQ(m->client.count, POINT_NONE);
        CHECK(json_object_get(m->options, "client") == NULL &&
              json_object_get(m->options, "workers") == NULL);
        CHECK_INT_EQ(json_integer_value(json_object_get(m->options, "clients")), 3);
        CHECK_INT_EQ(
            json_integer_value(json_object_get(json_object_get(m->extra, "merge"), "parts")), 3);
        /* the merged point is a valid record */
        {
            struct point_error err;
            json_t *j = point_to_json(m, &err);
            char *line = j ? json_dumps(j, JSON_COMPACT) : NULL;
            struct point back;
            point_init(&back);
            CHECK(line && point_parse_line(line, strlen(line), "m", 1, &back, &err) == 1);
            CHECK(back.latency_hist && memcmp(back.latency_hist, all, sizeof *all) == 0);
            point_destroy(&back);
            free(line);
            json_decref(j);
        }
    }
    point_list_destroy(&out);

    /* ---- skew beyond MERGE_SKEW_S: merged, with a warning -------------------------------------
     */
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *w = open_memstream(&buf, &len);
        double save = parts[1].client.started_unix_s;
        parts[1].client.started_unix_s += 0.5;
        point_list_init(&out);
        CHECK_INT_EQ(merge(parts, K, &out, msg, w), MERGE_OK);
        fclose(w);
        CHECK(buf && strstr(buf, "starts differ by 0.5") != NULL);
        free(buf);
        point_list_destroy(&out);
        parts[1].client.started_unix_s = save;
    }

    /* ---- refusals ------------------------------------------------------------------------------
     */
    /* another workload at the same agreed start */
    CHECK(make_part(&parts[K], 2, s, cut[2], cut[3], "oltp_read_only", 7, 3, 1764583200.02, 9.99,
                    "2025-12-01T10:00:00Z") == 0);
    {
        struct point mixed[K] = {parts[0], parts[1], parts[K]};
        point_list_init(&out);
        CHECK_INT_EQ(merge(mixed, K, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "differ in workload") && strstr(msg, "oltp_read_only") &&
              strstr(msg, "c.jsonl:1"));
        CHECK_INT_EQ(out.n, 0);
    }
    /* another level at the same agreed start */
    CHECK(make_part(&parts[K + 1], 2, s, cut[2], cut[3], "oltp_point_select", 8, 4, 1764583200.02,
                    9.99, "2025-12-01T10:00:00Z") == 0);
    {
        struct point mixed[K] = {parts[0], parts[1], parts[K + 1]};
        CHECK_INT_EQ(merge(mixed, K, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "differ in threads") != NULL);
    }
    /* a part given twice, a part missing */
    {
        struct point twice[K] = {parts[0], parts[1], parts[1]};
        CHECK_INT_EQ(merge(twice, K, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "client 2/3 of the same level is given twice") != NULL);
        CHECK_INT_EQ(merge(parts, 2, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "client 3/3 is missing") != NULL);
    }
    /* connections that do not add up */
    {
        int64_t save = parts[2].client.threads;
        parts[2].client.threads = 2;
        CHECK_INT_EQ(merge(parts, K, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "ran 6 connections in all, not 7") != NULL);
        parts[2].client.threads = save;
    }
    /* options that differ (workers may) */
    {
        json_object_set_new(parts[1].options, "tables", json_integer(2));
        CHECK_INT_EQ(merge(parts, K, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "options tables") != NULL);
        json_object_set_new(parts[1].options, "tables", json_integer(1));
        CHECK_INT_EQ(merge(parts, K, &out, msg, NULL), MERGE_OK);
    }
    /* a point that is not a part */
    {
        struct point plain;
        point_init(&plain);
        point_copy(&plain, &parts[0]);
        plain.client.count = POINT_NONE;
        CHECK_INT_EQ(merge(&plain, 1, &out, msg, NULL), MERGE_EINVAL);
        CHECK(strstr(msg, "is not a part") != NULL);
        point_destroy(&plain);
    }
    point_list_destroy(&out);

    /* ---- the histogram member refuses what is not lossless ---------------------------------- */
    {
        static const char *const bad[][2] = {
            {"{\"unit\":\"ns\",\"sub_buckets\":64,\"lowest_ns\":1000,\"highest_ns\":100000000000,"
             "\"count\":0,\"underflow\":0,\"overflow\":0,\"buckets\":[]}",
             "another layout"},
            {"{\"unit\":\"ns\",\"sub_buckets\":128,\"lowest_ns\":1000,\"highest_ns\":100000000000,"
             "\"count\":1,\"underflow\":0,\"overflow\":0,\"min_ns\":1001,\"max_ns\":1001,"
             "\"sum_ns\":1001,\"buckets\":[[1001,1]]}",
             "not the lower bound of a bucket"},
            {"{\"unit\":\"ns\",\"sub_buckets\":128,\"lowest_ns\":1000,\"highest_ns\":100000000000,"
             "\"count\":3,\"underflow\":0,\"overflow\":0,\"min_ns\":1024,\"max_ns\":1024,"
             "\"sum_ns\":2048,\"buckets\":[[1024,2]]}",
             "expected count = underflow + overflow"},
            {"{\"unit\":\"ns\",\"sub_buckets\":128,\"lowest_ns\":1000,\"highest_ns\":100000000000,"
             "\"count\":2,\"underflow\":0,\"overflow\":0,\"min_ns\":1024,\"max_ns\":1032,"
             "\"sum_ns\":2056,\"buckets\":[[1032,1],[1024,1]]}",
             "increasing order"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            json_t *o = json_loads(bad[i][0], 0, NULL);
            struct jr r;
            struct hist h;
            char m[256] = "";
            jr_init(&r, "h.json", bad[i][0], strlen(bad[i][0]), 1, m, sizeof m);
            CHECK_INT_EQ(hist_json_read(&r, o, &h), JR_EINVAL);
            CHECK(strstr(m, bad[i][1]) != NULL);
            if (!strstr(m, bad[i][1]))
                fprintf(stderr, "    message: %s\n", m);
            json_decref(o);
        }
    }
    for (int i = 0; i < K + 2; i++)
        point_destroy(&parts[i]);
    hist_free(all);
    return check_report();
}
