/*
 * test_pgbench.c - the pgbench reader on the real pgbench 15 outputs and -l logs made by
 * tests/fixtures/pgbench/make-fixtures.sh: expected values are the numbers those files print;
 * the log's figures are recomputed here from the log lines (count, exact mean, nearest-rank
 * percentiles) and checked against pgbench's own summary of the same run (logged-3c-run.txt).
 * tests/records/test_pgbench.py does the same on fresh runs against a throwaway PostgreSQL.
 */
#include "check.h"
#include "import.h"
#include "point.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/pgbench/"

static int load(const char *path, const struct import_options *opt, struct point_list *l,
                struct import_report *rep)
{
    point_list_init(l);
    return import_file(path, opt, l, rep);
}

static double extra_num(const struct point *p, const char *key)
{
    return json_number_value(json_object_get(p->extra, key));
}

static void summary_progress_statements(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    json_t *st;
    static const double prog_tps[] = {1382.8, 1678.1, 4047.9};
    static const double prog_lat[] = {1.423, 1.193, 0.494};
    CHECK_INT_EQ(load(FIX "tpcb-2c-progress-r.txt", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n != 1) {
        point_list_destroy(&l);
        return;
    }
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "pgbench_tpcb");
    CHECK_STR_EQ(p->tool, "pgbench (15.18 (Debian 15.18-0+deb12u1))");
    CHECK_INT_EQ(p->threads, 2); /* number of clients */
    CHECK_NEAR(extra_num(p, "pgbench_threads"), 2, 0);
    CHECK_NEAR(extra_num(p, "scale"), 1, 0);
    CHECK_INT_EQ(p->transactions, 7111);
    CHECK_INT_EQ(p->errors, 0);
    CHECK_NEAR(p->tps, 2376.688599, 1e-9);
    CHECK_NEAR(p->duration_s, 7111 / 2376.688599, 1e-9);
    CHECK_NEAR(p->latency_ms.avg, 0.840, 1e-12);
    CHECK_NEAR(extra_num(p, "latency_stddev_ms"), 1.371, 1e-12);
    CHECK_NEAR(extra_num(p, "initial_connection_ms"), 9.954, 1e-12);
    CHECK_NEAR(extra_num(p, "duration_requested_s"), 3, 0);
    CHECK_INT_EQ(p->source_kind, POINT_SRC_TOOL);
    CHECK(!p->incomplete);
    CHECK_INT_EQ(p->n_series, 3);
    for (size_t i = 0; i < 3 && i < p->n_series; i++) {
        CHECK_NEAR(p->series[i].t_s, (double)(i + 1), 0);
        CHECK_NEAR(p->series[i].tps, prog_tps[i], 1e-9);
        CHECK_NEAR(p->series[i].lat_ms, prog_lat[i], 1e-12);
        CHECK(isnan(p->series[i].pct)); /* a mean, not a percentile */
        CHECK_NEAR(p->series[i].errors_ps, 0, 0);
    }
    st = json_object_get(p->extra, "statements");
    CHECK_INT_EQ(json_array_size(st), 11);
    CHECK_NEAR(json_number_value(json_object_get(json_array_get(st, 5), "latency_ms")), 0.115,
               1e-12);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(st, 5), "command")),
                 "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;");
    CHECK_INT_EQ(json_integer_value(json_object_get(json_array_get(st, 5), "failures")), 0);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "select-only-4c-t50.txt", NULL, &l, &rep), IMPORT_OK);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "pgbench_select_only");
        CHECK_INT_EQ(p->threads, 4);
        CHECK_INT_EQ(p->transactions, 200); /* "200/200" */
        CHECK_NEAR(extra_num(p, "transactions_per_client"), 50, 0);
        CHECK_NEAR(p->tps, 7717.835919, 1e-9);
        CHECK_NEAR(p->latency_ms.avg, 0.518, 1e-12);
        CHECK(json_object_get(p->extra, "latency_stddev_ms") == NULL);
    }
    point_list_destroy(&l);
}

static void scripts_and_reconnect(void)
{
    struct point_list l;
    struct import_report rep;
    const struct point *p;
    json_t *sc, *st;
    CHECK_INT_EQ(load(FIX "mixed-scripts.txt", NULL, &l, &rep), IMPORT_OK);
    if (l.n != 1) {
        CHECK_INT_EQ(l.n, 1);
        point_list_destroy(&l);
        return;
    }
    p = &l.items[0];
    CHECK_STR_EQ(p->workload, "pgbench_mixed");
    CHECK_NEAR(p->tps, 53.354572, 1e-9); /* "(including reconnection times)" with -C */
    CHECK_NEAR(extra_num(p, "average_connection_ms"), 17.831, 1e-12);
    sc = json_object_get(p->extra, "scripts");
    CHECK_INT_EQ(json_array_size(sc), 2);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(sc, 0), "name")),
                 "<builtin: select only>");
    CHECK_INT_EQ(json_integer_value(json_object_get(json_array_get(sc, 0), "weight")), 3);
    CHECK_INT_EQ(json_integer_value(json_object_get(json_array_get(sc, 0), "transactions")), 91);
    CHECK_NEAR(json_number_value(json_object_get(json_array_get(sc, 0), "tps")), 44.138782, 1e-9);
    CHECK_NEAR(json_number_value(json_object_get(json_array_get(sc, 1), "latency_stddev_ms")),
               9.134, 1e-12);
    st = json_object_get(p->extra, "statements");
    CHECK_INT_EQ(json_array_size(st), 11); /* 2 of script 1, 9 of script 2 */
    CHECK_INT_EQ(json_integer_value(json_object_get(json_array_get(st, 1), "script")), 1);
    CHECK_NEAR(json_number_value(json_object_get(json_array_get(st, 1), "latency_ms")), 19.907,
               1e-12);
    CHECK_INT_EQ(json_integer_value(json_object_get(json_array_get(st, 10), "script")), 2);
    point_list_destroy(&l);
}

/* A sweep with a failed run in the middle; a run killed after two progress lines. */
static void sweep_and_killed(void)
{
    struct point_list l;
    struct import_report rep;
    struct import_options opt = {.threads = 0};
    CHECK_INT_EQ(load(FIX "sweep-clients.txt", NULL, &l, &rep), IMPORT_WARN);
    CHECK_INT_EQ(l.n, 2);
    CHECK_INT_EQ(rep.n_rejected, 1);
    CHECK(strstr(rep.msg, "sweep-clients.txt:17:") && strstr(rep.msg, "missing.sql") &&
          strstr(rep.msg, "left out"));
    if (l.n == 2) {
        CHECK_INT_EQ(l.items[0].threads, 1);
        CHECK_INT_EQ(l.items[0].transactions, 1094);
        CHECK_NEAR(l.items[0].tps, 543.073848, 1e-9);
        CHECK_INT_EQ(l.items[0].source_line, 2);
        CHECK_INT_EQ(l.items[1].threads, 4);
        CHECK_NEAR(l.items[1].tps, 917.238370, 1e-9);
        CHECK_NEAR(l.items[1].latency_ms.avg, 4.361, 1e-12);
        CHECK_INT_EQ(l.items[1].source_line, 19);
    }
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "killed-progress.txt", &opt, &l, &rep), IMPORT_WARN);
    if (l.n == 1) {
        const struct point *p = &l.items[0];
        CHECK(p->incomplete && point_has_flag(p, "no_summary"));
        CHECK_INT_EQ(p->threads, 2); /* from the echoed "-c 2" */
        CHECK_NEAR(p->tps, (1715.0 + 833.2) / 2, 1e-9);
        CHECK_NEAR(p->latency_ms.avg, (1.154 + 2.239) / 2, 1e-12);
        CHECK_NEAR(p->duration_s, 2.1, 1e-12);
    }
    point_list_destroy(&l);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The latencies (us) of the successful transactions in the log files, read here on their own. */
static size_t read_latencies(long long **out)
{
    static const char *const files[] = {FIX "pgbench_log.4242", FIX "pgbench_log.4242.1"};
    size_t n = 0, cap = 4096;
    long long *v = malloc(cap * sizeof *v);
    for (size_t f = 0; f < 2 && v; f++) {
        FILE *in = fopen(files[f], "r");
        char line[256];
        while (in && fgets(line, sizeof line, in)) {
            long long c, k, lat, s, sec, us;
            if (sscanf(line, "%lld %lld %lld %lld %lld %lld", &c, &k, &lat, &s, &sec, &us) != 6)
                continue;
            if (n == cap) {
                long long *nv = realloc(v, (cap *= 2) * sizeof *v);
                if (!nv)
                    break;
                v = nv;
            }
            v[n++] = lat;
        }
        if (in)
            fclose(in);
    }
    *out = v;
    return v ? n : 0;
}

static void transaction_log(void)
{
    struct point_list l;
    struct import_report rep;
    long long *lat;
    size_t n = read_latencies(&lat);
    double sum = 0;
    CHECK_INT_EQ(n, 954); /* = "number of transactions actually processed" of that run */
    for (size_t i = 0; i < n; i++)
        sum += (double)lat[i];
    qsort(lat, n, sizeof *lat, cmp_ll);
    CHECK_INT_EQ(load(FIX "pgbench_log.4242", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1 && n == 954) {
        const struct point *p = &l.items[0];
        /* nearest rank (Hyndman & Fan def. 1): the ceil(p/100 * n)-th smallest */
        double p95 = (double)lat[(size_t)ceil(0.95 * (double)n) - 1] / 1000;
        double p50 = (double)lat[(size_t)ceil(0.50 * (double)n) - 1] / 1000;
        uint64_t total = 0;
        CHECK_INT_EQ(p->threads, 3); /* clients 0, 1 (main file) and 2 (thread file) */
        CHECK_INT_EQ(p->transactions, 954);
        CHECK_INT_EQ(p->errors, 0);
        CHECK_NEAR(p->latency_ms.avg, sum / (double)n / 1000, 1e-9);
        CHECK_NEAR(p->latency_ms.avg, 6.266, 0.001); /* pgbench's own "latency average" */
        CHECK_NEAR(p->latency_ms.min, (double)lat[0] / 1000, 1e-12);
        CHECK_NEAR(p->latency_ms.max, (double)lat[n - 1] / 1000, 1e-12);
        CHECK_NEAR_REL(point_percentile(p, 95), p95, 1.0 / 256);
        CHECK_NEAR_REL(point_percentile(p, 50), p50, 1.0 / 256);
        CHECK_NEAR_REL(p->tps, 477.974111, 0.01); /* its own span vs pgbench's -T timing */
        for (size_t i = 0; i < p->n_hist; i++)
            total += p->histogram[i].count;
        CHECK_INT_EQ(total, 954);
        CHECK_NEAR(extra_num(p, "log_files"), 2, 0);
        CHECK(point_has_flag(p, "from_transaction_log"));
    }
    free(lat);
    point_list_destroy(&l);

    /* the thread file alone: read with its main file, so nothing of its own */
    CHECK_INT_EQ(load(FIX "pgbench_log.4242.1", NULL, &l, &rep), IMPORT_OK);
    CHECK_INT_EQ(l.n, 0);
    CHECK(strstr(rep.note, "read with its main file") != NULL);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "aggregated.log", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "aggregated.log:1:") && strstr(rep.msg, "--aggregate-interval"));
    point_list_destroy(&l);
}

int main(void)
{
    summary_progress_statements();
    scripts_and_reconnect();
    sweep_and_killed();
    transaction_log();
    return check_report();
}
