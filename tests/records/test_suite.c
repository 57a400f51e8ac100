/*
 * test_suite.c - the sizeup.suite/1 record and its readers: the published Klustron TPC-H /
 * TPC-DS timings (totals recomputed here from the CSV rows and checked against the sums its
 * header states), the fixtures of tests/fixtures/suite (a Markdown table with a timed-out query,
 * go-tpc tpch and HammerDB TPROC-H output), the JSON Lines round trip, and bad input.
 */
#include "check.h"
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KLUSTRON "data/published/klustron-tpch-tpcds-queries.csv"
#define FIX "tests/fixtures/suite/"

/* The sum of the seconds column of the rows of suite name, read here on its own. */
static double csv_sum(const char *suite, int *rows)
{
    FILE *f = fopen(KLUSTRON, "r");
    char line[512];
    double sum = 0;
    *rows = 0;
    while (f && fgets(line, sizeof line, f)) {
        char target[64], s[64], q[64], res[64];
        double sec;
        if (line[0] == '#' ||
            sscanf(line, "%63[^,],%63[^,],%63[^,],%lf,%63s", target, s, q, &sec, res) != 5)
            continue;
        if (strcmp(s, suite) == 0) {
            sum += sec;
            (*rows)++;
        }
    }
    if (f)
        fclose(f);
    return sum;
}

static void klustron(void)
{
    struct suite_list l;
    char err[512];
    int rows_h, rows_ds;
    double sum_h = csv_sum("tpch", &rows_h), sum_ds = csv_sum("tpcds", &rows_ds);
    suite_list_init(&l);
    CHECK_INT_EQ(suite_read_file(KLUSTRON, NULL, &l, err, sizeof err), SUITE_OK);
    CHECK_INT_EQ(l.n, 2);
    if (l.n == 2) {
        CHECK_STR_EQ(l.items[0].target, "klustron-3x32c");
        CHECK_STR_EQ(l.items[0].suite, "tpch");
        CHECK_INT_EQ(l.items[0].n_q, 22);
        CHECK_INT_EQ(rows_h, 22);
        CHECK_NEAR(suite_total_s(&l.items[0]), sum_h, 1e-9);
        CHECK_NEAR(suite_total_s(&l.items[0]), 3997.49, 1e-9); /* the file header's sum */
        CHECK_STR_EQ(l.items[1].suite, "tpcds");
        CHECK_INT_EQ(l.items[1].n_q, 99);
        CHECK_INT_EQ(rows_ds, 99);
        CHECK_NEAR(suite_total_s(&l.items[1]), sum_ds, 1e-9);
        CHECK_NEAR(suite_total_s(&l.items[1]), 2964.76, 1e-9);
        CHECK_INT_EQ(suite_failed(&l.items[1]), 0);
        CHECK_NEAR(suite_find_query(&l.items[0], "Q7")->seconds, 2262.64, 1e-12);
        CHECK_STR_EQ(suite_find_query(&l.items[0], "Q7")->result, "succ");
        CHECK_INT_EQ(l.items[0].source_line, 6); /* the first row (the header is line 5) */
    }
    suite_list_destroy(&l);
}

static void markdown_and_tools(void)
{
    struct suite_list l;
    char err[512];
    const struct suite_query *q;
    suite_list_init(&l);
    CHECK_INT_EQ(suite_read_file(FIX "two-configs.md", NULL, &l, err, sizeof err), SUITE_OK);
    CHECK_INT_EQ(l.n, 3);
    if (l.n == 3) {
        CHECK_STR_EQ(l.items[1].target, "cloud-essd");
        CHECK_NEAR(suite_total_s(&l.items[0]), 12.40 + 1.10 + 8.75 + 3.05, 1e-9);
        CHECK_NEAR(suite_total_s(&l.items[1]), 10.90 + 0.95 + 7.20 + 2.80, 1e-9);
        q = suite_find_query(&l.items[2], "Q3");
        CHECK(q && q->failed && isnan(q->seconds) && strcmp(q->result, "timeout") == 0);
        CHECK_INT_EQ(suite_failed(&l.items[2]), 1);
        CHECK_NEAR(suite_total_s(&l.items[2]), 14.10 + 1.30 + 3.60, 1e-9);
    }
    suite_list_destroy(&l);

    CHECK_INT_EQ(suite_read_file(FIX "gotpc-tpch.log", NULL, &l, err, sizeof err), SUITE_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        CHECK_STR_EQ(l.items[0].suite, "tpch");
        CHECK_STR_EQ(l.items[0].tool, "go-tpc");
        CHECK_INT_EQ(l.items[0].n_q, 3);
        CHECK_NEAR(suite_find_query(&l.items[0], "Q1")->seconds, 2.39, 1e-12); /* the summary */
        CHECK_NEAR(suite_total_s(&l.items[0]), 2.39 + 1.00 + 0.37, 1e-9);
    }
    suite_list_destroy(&l);

    CHECK_INT_EQ(suite_read_file(FIX "hammerdb-tproch.log", NULL, &l, err, sizeof err), SUITE_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        CHECK_STR_EQ(l.items[0].suite, "tproch");
        CHECK_STR_EQ(l.items[0].tool, "HammerDB");
        CHECK_INT_EQ(l.items[0].n_q, 4);
        CHECK_NEAR(suite_find_query(&l.items[0], "Q9")->seconds, 3.785, 1e-12);
        CHECK_NEAR(suite_total_s(&l.items[0]), 0.432 + 0.211 + 3.785 + 1.09, 1e-9);
        CHECK_INT_EQ(l.items[0].source_line, 3);
    }
    suite_list_destroy(&l);
}

/* Written records read back the same. */
static void round_trip(void)
{
    struct suite_list a, b;
    char err[512], *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    suite_list_init(&a);
    suite_list_init(&b);
    CHECK_INT_EQ(suite_read_file(FIX "two-configs.md", NULL, &a, err, sizeof err), SUITE_OK);
    for (size_t i = 0; i < a.n; i++)
        CHECK_INT_EQ(suite_write(f, &a.items[i], err, sizeof err), 0);
    fclose(f);
    CHECK(suite_detect(buf, len));
    CHECK_INT_EQ(suite_read_buffer(buf, len, "mem.jsonl", NULL, &b, err, sizeof err), SUITE_OK);
    CHECK_INT_EQ(b.n, a.n);
    for (size_t i = 0; i < a.n && i < b.n; i++) {
        CHECK_STR_EQ(b.items[i].target, a.items[i].target);
        CHECK_INT_EQ(b.items[i].n_q, a.items[i].n_q);
        CHECK_NEAR(suite_total_s(&b.items[i]), suite_total_s(&a.items[i]), 1e-12);
        CHECK_INT_EQ(suite_failed(&b.items[i]), suite_failed(&a.items[i]));
        CHECK_STR_EQ(b.items[i].source_file, FIX "two-configs.md");
    }
    free(buf);
    suite_list_destroy(&a);
    suite_list_destroy(&b);
}

static void bad_input(void)
{
    static const char twice[] = "target,query,seconds\na,Q1,1.5\na,Q2,2\na,Q1,1.7\n";
    static const char no_sec[] = "target,query,result\na,Q1,ok\n";
    static const char neg[] = "query,seconds\nQ1,-3\n";
    static const char badkey[] = "{\"schema\":\"sizeup.suite/1\",\"target\":\"a\",\"suite\":\"s\","
                                 "\"queries\":[],\"totl_s\":3}\n";
    struct suite_list l;
    char err[512];
    suite_list_init(&l);
    CHECK_INT_EQ(suite_read_buffer(twice, sizeof twice - 1, "t.csv", NULL, &l, err, sizeof err),
                 SUITE_EPARSE);
    CHECK(strstr(err, "t.csv:4:") && strstr(err, "Q1") && strstr(err, "twice"));
    CHECK_INT_EQ(l.n, 0);
    CHECK_INT_EQ(suite_read_buffer(no_sec, sizeof no_sec - 1, "n.csv", NULL, &l, err, sizeof err),
                 SUITE_EFORMAT);
    CHECK_INT_EQ(suite_read_buffer(neg, sizeof neg - 1, "neg.csv", NULL, &l, err, sizeof err),
                 SUITE_EPARSE);
    CHECK(strstr(err, "neg.csv:2:") && strstr(err, "seconds"));
    CHECK_INT_EQ(suite_read_buffer(badkey, sizeof badkey - 1, "k.jsonl", NULL, &l, err, sizeof err),
                 SUITE_EPARSE);
    CHECK(strstr(err, "k.jsonl:1:") && strstr(err, "totl_s"));
    CHECK_INT_EQ(l.n, 0);
    suite_list_destroy(&l);
}

int main(void)
{
    klustron();
    markdown_and_tools();
    round_trip();
    bad_input();
    return check_report();
}
