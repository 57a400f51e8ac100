/*
 * test_report.c - the sysbench 1.0.20 layout of the final report.
 *
 * Expected text: the summary of docs/reference/sysbench.md 7.1 (a real `sysbench oltp_point_select`
 * run: 53975 events, 2 threads of 31769 and 22206 events, min 0.02 ms, max 893.82 ms, sum 10218.04
 * ms, p95 0.14 ms, total time 5.1499 s).  The only lines that differ are the two "per sec." rates,
 * which sysbench divides by a second timer read a moment after "total time" (10478.31 there); here
 * both use total time: 53975 / 5.1499 = 10480.79.
 */
#include "check.h"
#include "probe.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char expected[] =
    "SQL statistics:\n"
    "    queries performed:\n"
    "        read:                            53975\n"
    "        write:                           0\n"
    "        other:                           0\n"
    "        total:                           53975\n"
    "    transactions:                        53975  (10480.79 per sec.)\n"
    "    queries:                             53975  (10480.79 per sec.)\n"
    "    ignored errors:                      0      (0.00 per sec.)\n"
    "    reconnects:                          0      (0.00 per sec.)\n"
    "\n"
    "General statistics:\n"
    "    total time:                          5.1499s\n"
    "    total number of events:              53975\n"
    "\n"
    "Latency (ms):\n"
    "         min:                                    0.02\n"
    "         avg:                                    0.19\n"
    "         max:                                  893.82\n"
    "         95th percentile:                        0.14\n"
    "         sum:                                10218.04\n"
    "\n"
    "Threads fairness:\n"
    "    events (avg/stddev):           26987.5000/4781.50\n"
    "    execution time (avg/stddev):   5.1090/0.03\n"
    "\n";

static char *render(const struct probe_result *r, double pct)
{
    static char buf[8192];
    FILE *f = tmpfile();
    size_t n;
    report_summary(f, r, pct);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(void)
{
    struct probe_result r;
    double ev[2] = {31769, 22206}, tm[2] = {5.1390, 5.0790};
    struct hist *h = hist_new();
    char *out;
    probe_result_init(&r);
    r.threads = 2;
    r.tot.events = r.tot.reads = 53975;
    r.elapsed_s = 5.1499;
    r.thread_events = ev;
    r.thread_time_s = tm;
    /* min and max exact; 53973 values in the bucket of 0.14 ms; sum set to sysbench's */
    hist_record(h, 20000);
    hist_record(h, 893820000);
    for (int i = 0; i < 53973; i++)
        hist_record(h, 140000);
    h->sum_ns = 10218040000ull;
    r.hist = h;
    out = render(&r, 95);
    CHECK_STR_EQ(out, expected);
    /* disabled percentile, as sysbench's --percentile=0 */
    out = render(&r, 0);
    CHECK(strstr(out, "         percentile stats:               disabled\n") != NULL);
    /* a fractional percentile keeps the numbers' column (53) */
    out = render(&r, 99.9);
    CHECK(strstr(out, "        99.9th percentile:                       0.14\n") != NULL);
    /* overflows are said, never shown as a cap */
    hist_record(h, 200000000000ull);
    r.tot.events++;
    out = render(&r, 100);
    CHECK(strstr(out, "        100th percentile:                   200000.00\n") != NULL);
    CHECK(strstr(out, "         latency overflows (>= 100000 ms): 1\n") != NULL);
    {
        struct probe_totals d = {2000, 2800, 800, 400, 2, 1};
        char line[512];
        FILE *f = tmpfile();
        size_t n;
        report_interval(f, 1.0, 2, &d, 2.0, 95, 9.22);
        rewind(f);
        n = fread(line, 1, sizeof line - 1, f);
        line[n] = '\0';
        fclose(f);
        /* docs/reference/sysbench.md 6.1 format, values per second over dt = 2 s */
        CHECK_STR_EQ(line, "[ 1s ] thds: 2 tps: 1000.00 qps: 2000.00 (r/w/o: 1400.00/400.00/"
                           "200.00) lat (ms,95%): 9.22 err/s: 1.00 reconn/s: 0.50\n");
    }
    hist_free(h);
    return check_report();
}
