/*
 * test_import_shapes.c - the sysbench output shapes of issue 17: the fixtures made by
 * tests/fixtures/sysbench/make-shapes.sh (real sysbench 1.0.20 runs, and committed real outputs
 * reshaped as people paste them) and the hand-written legacy-0.4.12-memory.log and
 * tpcc-wind-down-intervals.log (fixtures README). Expected values are the numbers those files
 * print, or follow from them by the rule under test (a mean of printed intervals, a ratio).
 */
#include "check.h"
#include "import.h"
#include "point.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/sysbench/"

/* Diagnostics, collected for the checks. */
struct diags {
    int n[3];
    char last[3][512];
};

static void collect(void *ctx, enum import_severity sev, const char *msg)
{
    struct diags *d = ctx;
    d->n[sev]++;
    snprintf(d->last[sev], sizeof d->last[sev], "%s", msg);
}

static int load(const char *path, const char *workload, struct point_list *l,
                struct import_report *rep, struct diags *d)
{
    struct import_options opt = {.workload = workload, .diag = collect, .diag_ctx = d};
    memset(d, 0, sizeof *d);
    point_list_init(l);
    return import_file(path, &opt, l, rep);
}

/* The whole run indented by 4 spaces, fenced, indented by a tab and quoted with "> ", under
 * headings in Russian: every run is read, in the file's order. */
static void pasted(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    static const int64_t threads[] = {2, 4, 8, 1};
    static const double tps[] = {1759.77, 1394.27, 1410.21, 787.14};
    static const double p95[] = {1.55, 4.33, 8.43, 1.52};
    static const long line[] = {7, 48, 89, 129};
    CHECK_INT_EQ(load(FIX "pasted-oltp_read_write.md", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 4);
    for (size_t i = 0; i < 4 && i < l.n; i++) {
        const struct point *p = &l.items[i];
        CHECK_STR_EQ(p->workload, "oltp_read_write");
        CHECK_INT_EQ(p->threads, threads[i]);
        CHECK_NEAR(p->tps, tps[i], 1e-9);
        CHECK_NEAR(point_percentile(p, 95), p95[i], 1e-12);
        CHECK_INT_EQ(p->source_line, line[i]);
        CHECK_STR_EQ(p->tool, "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)");
        CHECK(!p->incomplete);
    }
    CHECK_INT_EQ(d.n[IMPORT_WARNING] + d.n[IMPORT_ERROR], 0);
    point_list_destroy(&l);
}

/* Summaries pasted from "SQL statistics:", "File operations:" or "General statistics:" on:
 * the thread count is total events / events avg, flagged and noted. */
static void summary_only(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    const struct point *p;
    CHECK_INT_EQ(load(FIX "summary-only-oltp_read_write.log", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_INT_EQ(p->threads, 2); /* 8735 / 4367.5000 */
        CHECK(point_has_flag(p, "threads_inferred"));
        CHECK_INT_EQ(p->transactions, 8735);
        CHECK_NEAR(p->tps, 1745.18, 1e-9);
        CHECK_NEAR(p->qps, 34923.59, 1e-9);
        CHECK_NEAR(point_percentile(p, 95), 2.11, 1e-12);
        CHECK(p->tool == NULL);
    }
    CHECK_INT_EQ(d.n[IMPORT_NOTE], 1);
    CHECK(strstr(d.last[IMPORT_NOTE], "summary-only-oltp_read_write.log:1:") &&
          strstr(d.last[IMPORT_NOTE], "inferred") && strstr(d.last[IMPORT_NOTE], "8735 / 4367.5"));
    CHECK(strstr(rep.note, "inferred") != NULL);
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "summary-only-fileio_rndrw.log", NULL, &l, &rep, &d), IMPORT_OK);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "fileio_rndrw");
        CHECK_INT_EQ(p->threads, 1); /* 47153 / 47153.0000 */
        CHECK(point_has_flag(p, "threads_inferred"));
        CHECK_NEAR(p->io.reads_ps, 4124.39, 1e-9);
        CHECK_NEAR(p->io.written_mib_s, 42.96, 1e-9);
    }
    point_list_destroy(&l);

    CHECK_INT_EQ(load(FIX "summary-only-cpu.log", NULL, &l, &rep, &d), IMPORT_OK);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "cpu"); /* a whole word of the file name */
        CHECK_INT_EQ(p->threads, 2);      /* 24055 / 12027.5000 */
        CHECK_NEAR(p->tps, 24055 / 3.0004, 1e-9);
        CHECK(point_has_flag(p, "tps_from_events"));
    }
    point_list_destroy(&l);
}

/* Two runs one after the other without their headers, each with its own intervals: two
 * points, not a checkpoint, each with its own series. */
static void headerless_runs(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    CHECK_INT_EQ(load(FIX "headerless-runs-oltp_read_write.log", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 2);
    if (l.n == 2) {
        const struct point *a = &l.items[0], *b = &l.items[1];
        CHECK_INT_EQ(a->threads, 1);
        CHECK_INT_EQ(a->transactions, 2596);
        CHECK_NEAR(a->tps, 863.33, 1e-9);
        CHECK_NEAR(a->duration_s, 3.0052, 1e-12);
        CHECK_INT_EQ(a->n_series, 2);
        CHECK(!point_has_flag(a, "checkpoint") && !point_has_flag(a, "threads_inferred"));
        CHECK_INT_EQ(b->threads, 2);
        CHECK_INT_EQ(b->transactions, 1863);
        CHECK_NEAR(b->tps, 619.69, 1e-9);
        CHECK_NEAR(b->duration_s, 3.0049, 1e-12); /* its own total time, not a difference */
        CHECK_NEAR(point_percentile(b, 95), 8.90, 1e-12);
        CHECK_INT_EQ(b->n_series, 3);
        CHECK(!point_has_flag(b, "checkpoint"));
        CHECK_INT_EQ(b->source_line, 31);
    }
    point_list_destroy(&l);

    /* --report-checkpoints=2 with --report-interval=1: a checkpoint and the final report, the
     * reports after the checkpoint in the second span */
    CHECK_INT_EQ(load(FIX "checkpoints-intervals-oltp_read_write.log", NULL, &l, &rep, &d),
                 IMPORT_OK);
    CHECK_INT_EQ(l.n, 2);
    if (l.n == 2) {
        CHECK_INT_EQ(l.items[0].transactions, 1346);
        CHECK_NEAR(l.items[0].duration_s, 2.0001, 1e-12);
        CHECK_INT_EQ(l.items[0].n_series, 1);
        CHECK_INT_EQ(l.items[1].transactions, 801);
        CHECK_NEAR(l.items[1].tps, 398.25, 1e-9);
        CHECK_NEAR(l.items[1].duration_s, 4.0113 - 2.0001, 1e-9);
        CHECK_INT_EQ(l.items[1].n_series, 2);
        CHECK_NEAR(l.items[1].series[0].t_s, 2, 0);
        CHECK(point_has_flag(&l.items[0], "checkpoint") &&
              point_has_flag(&l.items[1], "checkpoint"));
    }
    point_list_destroy(&l);
}

/* cpu, memory, a failed fileio prepare, mutex, threads in one file: the failed run is left out
 * and reported with its line, the four others are kept; mutex and threads carry no tps. */
static void failed_among_good(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    static const char *const workloads[] = {"cpu", "memory", "mutex", "threads"};
    static const long lines[] = {2, 34, 79, 107};
    CHECK_INT_EQ(load(FIX "suite-cpu-memory-fileio-mutex-threads.log", NULL, &l, &rep, &d),
                 IMPORT_WARN);
    CHECK_INT_EQ(l.n, 4);
    CHECK_INT_EQ(rep.n_rejected, 1);
    CHECK_INT_EQ(d.n[IMPORT_WARNING], 1);
    CHECK(strstr(rep.msg, "suite-cpu-memory-fileio-mutex-threads.log:77:") &&
          strstr(rep.msg, "Can't open file") && strstr(rep.msg, "left out"));
    for (size_t i = 0; i < 4 && i < l.n; i++) {
        CHECK_STR_EQ(l.items[i].workload, workloads[i]); /* from the echoed command lines */
        CHECK_INT_EQ(l.items[i].source_line, lines[i]);
    }
    if (l.n == 4) {
        CHECK_INT_EQ(l.items[0].threads, 2);
        CHECK_NEAR(l.items[0].tps, 3578.19, 1e-9); /* cpu: events per second */
        CHECK(!point_has_flag(&l.items[0], "tps_from_events"));
        CHECK_INT_EQ(l.items[1].transactions, 524288);
        CHECK_NEAR(l.items[1].tps, 4150245.29, 1e-6);
        CHECK(isnan(l.items[2].tps) && l.items[2].transactions == 2);   /* mutex */
        CHECK(isnan(l.items[3].tps) && l.items[3].transactions == 611); /* threads */
        CHECK_INT_EQ(l.items[3].threads, 2);
    }
    point_list_destroy(&l);

    /* a file whose only run failed is still an error */
    CHECK_INT_EQ(load(FIX "fatal-read_write.log", NULL, &l, &rep, &d), IMPORT_EPARSE);
    CHECK_INT_EQ(d.n[IMPORT_WARNING], 0);
    CHECK_INT_EQ(d.n[IMPORT_ERROR], 1);
    point_list_destroy(&l);
}

/* 0.4.12 memory: "Operations performed: N (X ops/sec)", "X MB transferred (Y MB/sec)". */
static void legacy_memory(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    CHECK_INT_EQ(load(FIX "legacy-0.4.12-memory.log", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        const struct point *p = &l.items[0];
        CHECK_STR_EQ(p->workload, "memory");
        CHECK_INT_EQ(p->threads, 4);
        CHECK_INT_EQ(p->transactions, 10485760);
        CHECK_NEAR(p->tps, 2396580.81, 1e-6);
        CHECK_NEAR(json_number_value(json_object_get(p->extra, "memory_mib_s")), 2340.41, 1e-9);
        CHECK_NEAR(p->duration_s, 4.3753, 1e-12);
        CHECK(isnan(p->io.reads_ps)); /* not read as fileio */
        CHECK(!point_has_flag(p, "tps_from_events"));
    }
    point_list_destroy(&l);
}

/* Interval lines only: detected from a "[ 1s ] thds:" first line; tpcc.lua's "err/s 4.99"; the
 * wind-down tail left out of the means; the thread count the one that ran. */
static void intervals_only(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    const struct point *p;
    double tps8 = (412.97 + 478.03 + 455.02 + 497.98 + 463.01 + 489.00 + 471.99 + 480.02) / 8;
    double err8 = (1.99 + 3.00 + 4.99 + 2.00 + 1.00 + 3.00 + 2.00 + 4.00) / 8;
    CHECK_INT_EQ(load(FIX "tpcc-wind-down-intervals.log", NULL, &l, &rep, &d), IMPORT_WARN);
    CHECK_INT_EQ(l.n, 1);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_STR_EQ(p->workload, "tpcc");
        CHECK_INT_EQ(p->threads, 16);
        CHECK_INT_EQ(p->n_series, 11);
        CHECK_NEAR(p->series[2].errors_ps, 4.99, 1e-12);
        CHECK_NEAR(p->tps, tps8, 1e-9);
        CHECK_NEAR(p->errors_ps, err8, 1e-9);
        CHECK_NEAR(p->duration_s, 8, 0);
        CHECK(p->incomplete && point_has_flag(p, "no_summary") && point_has_flag(p, "wind_down"));
        CHECK_INT_EQ(json_integer_value(json_object_get(p->extra, "wind_down_intervals")), 3);
    }
    CHECK_INT_EQ(d.n[IMPORT_NOTE], 1);
    CHECK(strstr(d.last[IMPORT_NOTE], "winding down") != NULL);
    point_list_destroy(&l);

    /* real reports of a run cut at the end of its --time, not winding down: all are kept */
    CHECK_INT_EQ(load(FIX "intervals-only-oltp_read_write.log", NULL, &l, &rep, &d), IMPORT_WARN);
    if (l.n == 1) {
        p = &l.items[0];
        CHECK_INT_EQ(p->threads, 2);
        CHECK_NEAR(p->tps, (378.05 + 294.74 + 362.59 + 227.53) / 4, 1e-9);
        CHECK(!point_has_flag(p, "wind_down"));
    }
    point_list_destroy(&l);
}

/* The small ones: legacy qps derived and marked; the tool without trailing blanks. */
static void small_ones(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    CHECK_INT_EQ(load(FIX "legacy-0.5-oltp.log", "oltp_legacy", &l, &rep, &d), IMPORT_OK);
    if (l.n == 1) {
        CHECK_NEAR(l.items[0].qps, 363901 / 30.0028, 1e-9); /* queries performed total / time */
        CHECK(point_has_flag(&l.items[0], "qps_from_queries"));
    }
    point_list_destroy(&l);
    CHECK_INT_EQ(load(FIX "oltp_read_write-2t.log", NULL, &l, &rep, &d), IMPORT_OK);
    if (l.n == 1)
        CHECK(!point_has_flag(&l.items[0], "qps_from_queries")); /* 1.0 prints its qps */
    point_list_destroy(&l);
    CHECK_INT_EQ(load(FIX "trailing-blanks-oltp_point_select.log", NULL, &l, &rep, &d), IMPORT_OK);
    if (l.n == 1) {
        CHECK_STR_EQ(l.items[0].tool, "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)");
        CHECK_NEAR(l.items[0].tps, 55457.72, 1e-9);
    }
    point_list_destroy(&l);
    CHECK_STR_EQ(import_workload_from_name("runs/sysbench-mutex-4t.log"), "mutex");
    CHECK(import_workload_from_name("oltp-8threads.log") == NULL);
    CHECK(import_workload_from_name("cpus.log") == NULL);
}

#define TAB "tests/fixtures/tables/"

/* gnuplot .dat with one column per configuration; the long layout; Markdown; TSV. */
static void tables(void)
{
    struct point_list l;
    struct import_report rep;
    struct diags d;
    const struct point *p;
    static const int64_t th[] = {1, 1, 2, 2, 4, 4, 8, 8, 16};
    static const char *const tg[] = {"mysql57", "mysql80", "mysql57", "mysql80", "mysql57",
                                     "mysql80", "mysql57", "mysql80", "mysql57"};
    static const double tps[] = {812.4,  790.1,  1544.9, 1502.3, 2870.2,
                                 2801.7, 4102.5, 4190.0, 4388.1};
    static const long line[] = {4, 4, 5, 5, 6, 6, 7, 7, 9};
    CHECK_INT_EQ(load(TAB "sweep-2-servers.dat", "oltp_read_write", &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 9); /* the "?" cell is no point */
    for (size_t i = 0; i < 9 && i < l.n; i++) {
        p = &l.items[i];
        CHECK_STR_EQ(p->target, tg[i]);
        CHECK_STR_EQ(p->workload, "oltp_read_write");
        CHECK_INT_EQ(p->threads, th[i]);
        CHECK_NEAR(p->tps, tps[i], 1e-9);
        CHECK_INT_EQ(p->source_line, line[i]);
        CHECK(point_has_flag(p, "wide_table"));
    }
    CHECK_INT_EQ(d.n[IMPORT_NOTE], 1);
    CHECK(strstr(d.last[IMPORT_NOTE], "sweep-2-servers.dat:3:") != NULL);
    point_list_destroy(&l);

    /* names in another encoding: refused with the line, not merged as "db?" */
    CHECK_INT_EQ(load(TAB "latin1-target.csv", NULL, &l, &rep, &d), IMPORT_EPARSE);
    CHECK_INT_EQ(l.n, 0);
    CHECK(strstr(rep.msg, "latin1-target.csv:2:") != NULL);
    CHECK(strstr(rep.msg, "a name in UTF-8") != NULL);
    point_list_destroy(&l);

    /* ... and a wide table's column name too; one in UTF-8 is kept byte for byte */
    CHECK_INT_EQ(load(TAB "wide-utf8.tsv", "oltp_read_write", &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 4);
    if (l.n == 4)
        CHECK_STR_EQ(l.items[0].target, "srv-\xc3\xa9");
    point_list_destroy(&l);
    CHECK_INT_EQ(load(TAB "wide-latin1.tsv", "oltp_read_write", &l, &rep, &d), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "wide-latin1.tsv:1:") != NULL);
    CHECK(strstr(rep.msg, "a name in UTF-8") != NULL);
    point_list_destroy(&l);

    /* a configuration named by a column keeps its spelling (catalog ids are case-sensitive) */
    CHECK_INT_EQ(load(TAB "wide-names.tsv", "oltp_read_write", &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 4);
    if (l.n == 4) {
        CHECK_STR_EQ(l.items[0].target, "ServerA");
        CHECK_STR_EQ(l.items[1].target, "db-East.1");
        CHECK_NEAR(l.items[1].tps, 90.25, 1e-12);
        CHECK_STR_EQ(l.items[2].target, "ServerA");
        CHECK_INT_EQ(l.items[2].threads, 2);
    }
    point_list_destroy(&l);

    CHECK_INT_EQ(load(TAB "oltp_point_select-latency.dat", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 3);
    if (l.n == 3) {
        p = &l.items[2];
        CHECK_STR_EQ(p->workload, "oltp_point_select");
        CHECK_STR_EQ(p->target, "oltp_point_select-latency");
        CHECK_INT_EQ(p->threads, 16);
        CHECK_NEAR(p->tps, 61002.80, 1e-9);
        CHECK_NEAR(p->latency_ms.avg, 0.26, 1e-12);
        CHECK_NEAR(point_percentile(p, 95), 0.43, 1e-12);
        CHECK(!point_has_flag(p, "wide_table"));
    }
    point_list_destroy(&l);

    CHECK_INT_EQ(load(TAB "results-oltp_read_only.md", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 4);
    if (l.n == 4) {
        CHECK_INT_EQ(l.items[0].threads, 1);
        CHECK_NEAR(l.items[0].qps, 9800, 0);
        CHECK_NEAR(point_percentile(&l.items[0], 95), 1.89, 1e-12); /* "p95 (ms)" */
        CHECK_NEAR(l.items[1].tps, 3904.25, 1e-9);                  /* "**3,904.25**" */
        CHECK_NEAR(l.items[2].tps, 5120.00, 1e-9);                  /* "`5,120.00`" */
        CHECK_INT_EQ(l.items[2].source_line, 9);
        CHECK_STR_EQ(l.items[2].workload, "oltp_read_only");
        /* the second table, with its own header: target and workload columns, clients */
        CHECK_STR_EQ(l.items[3].target, "replica-2");
        CHECK_STR_EQ(l.items[3].workload, "oltp_point_select");
        CHECK_INT_EQ(l.items[3].threads, 64);
        CHECK_NEAR(l.items[3].tps, 101233.70, 1e-9);
        CHECK_INT_EQ(l.items[3].source_line, 15);
    }
    point_list_destroy(&l);

    CHECK_INT_EQ(load(TAB "write-only.tsv", NULL, &l, &rep, &d), IMPORT_OK);
    CHECK_INT_EQ(l.n, 2);
    if (l.n == 2) {
        CHECK_STR_EQ(l.items[1].target, "box-a");
        CHECK_INT_EQ(l.items[1].threads, 16);
        CHECK_NEAR(l.items[1].tps, 5533.25, 1e-9);
        CHECK_NEAR(point_percentile(&l.items[1], 99), 19.11, 1e-12);
        CHECK_INT_EQ(l.items[1].source_line, 4);
    }
    point_list_destroy(&l);
}

/* Bad tables: the message names the file, the line and what was expected; nothing is kept. */
static void bad_tables(void)
{
    static const char md[] = "| threads | tps |\n|---|---|\n| 1 | 100 |\n| 2 | 180 | 3 |\n";
    static const char dat[] = "# a sweep\n1 100\n2 180\n";
    static const char tsv[] = "threads\ttps\n4\tfast\n";
    struct import_options md_opt = {.format = IMPORT_MARKDOWN};
    struct import_options dat_opt = {.format = IMPORT_GNUPLOT};
    struct point_list l;
    struct import_report rep;
    point_list_init(&l);
    CHECK_INT_EQ(import_buffer(md, sizeof md - 1, "t.md", &md_opt, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "t.md:4:") && strstr(rep.msg, "expected 2 cells"));
    CHECK_INT_EQ(l.n, 0);
    CHECK_INT_EQ(import_buffer(dat, sizeof dat - 1, "t.dat", &dat_opt, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "t.dat:2:") && strstr(rep.msg, "'#' comment naming them"));
    CHECK_INT_EQ(import_detect(dat, sizeof dat - 1, NULL), IMPORT_AUTO);
    CHECK_INT_EQ(import_buffer(tsv, sizeof tsv - 1, "t.tsv", NULL, &l, &rep), IMPORT_EPARSE);
    CHECK(strstr(rep.msg, "t.tsv:2:") && strstr(rep.msg, "\"tps\"") && strstr(rep.msg, "fast"));
    CHECK_INT_EQ(l.n, 0);
    point_list_destroy(&l);
}

int main(void)
{
    pasted();
    summary_only();
    headerless_runs();
    failed_among_good();
    legacy_memory();
    intervals_only();
    small_ones();
    tables();
    bad_tables();
    return check_report();
}
