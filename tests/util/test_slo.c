/*
 * test_slo.c - the latency-target grammar avg|pNN:VALUE(us|ms|s) of util/slo.h. Expected
 * values are the grammar's own definition: the statistic, and VALUE times 1e-6, 1e-3 or 1 s.
 */
#include "check.h"
#include "slo.h"

#include <string.h>

static void accepts(const char *text, double pct, double target_s)
{
    struct slo s = {-1, -1};
    char err[256] = "";
    CHECK_INT_EQ(slo_parse(text, &s, err, sizeof err), 0);
    CHECK_NEAR(s.pct, pct, 0);
    CHECK_NEAR_REL(s.target_s, target_s, 1e-15);
}

/* Refused, untouched, and the message holds hint. */
static void refuses(const char *text, const char *hint)
{
    struct slo s = {7, 7};
    char err[256] = "";
    CHECK_INT_EQ(slo_parse(text, &s, err, sizeof err), -1);
    CHECK(s.pct == 7 && s.target_s == 7);
    CHECK(strstr(err, hint) != NULL);
    if (!strstr(err, hint))
        fprintf(stderr, "  '%s': %s\n", text, err);
}

static void test_parse(void)
{
    accepts("p95:50ms", 95, 0.050);
    accepts("avg:20ms", 0, 0.020);
    accepts("mean:1s", 0, 1.0);
    accepts("p99:0.2s", 99, 0.2);
    accepts("p50:5ms", 50, 0.005);
    accepts("p99.9:800us", 99.9, 800e-6);
    accepts("P95:50ms", 95, 0.050);
    accepts("p95:1e2ms", 95, 0.1);
    /* a bare number: no unit, with the hint the issue asks for */
    refuses("p95:50", "'p95:50' is not a latency target: give a unit, e.g. p95:50ms");
    refuses("avg:20", "give a unit, e.g. avg:20ms");
    /* a latency without its statistic */
    refuses("20ms", "give the statistic, e.g. avg:20ms or p95:20ms");
    refuses("q95:50ms", "expected avg or pNN");
    refuses("p:50ms", "expected avg or pNN");
    refuses("p0:50ms", "expected avg or pNN");
    refuses("p100:5ms", "expected avg or pNN");
    refuses("p95:-1ms", "expected avg or pNN");
    refuses("p95:0ms", "expected avg or pNN");
    refuses("p95:5 ms", "expected avg or pNN");
    refuses("p95:50min", "expected avg or pNN");
    refuses("p95:0x10ms", "expected avg or pNN");
    refuses("p95:infms", "expected avg or pNN");
    refuses("p95:nanms", "expected avg or pNN");
    refuses("avg 20ms", "expected avg or pNN");
    refuses("", "expected avg or pNN");
    refuses("p95:", "expected avg or pNN");
}

static void test_latency(void)
{
    double s = -1;
    char err[256] = "";
    CHECK_INT_EQ(slo_parse_latency("50ms", &s, err, sizeof err), 0);
    CHECK_NEAR_REL(s, 0.05, 1e-15);
    CHECK_INT_EQ(slo_parse_latency("800us", &s, err, sizeof err), 0);
    CHECK_NEAR_REL(s, 800e-6, 1e-15);
    CHECK_INT_EQ(slo_parse_latency("0.2s", &s, err, sizeof err), 0);
    CHECK_NEAR_REL(s, 0.2, 1e-15);
    s = -1;
    CHECK_INT_EQ(slo_parse_latency("50", &s, err, sizeof err), -1);
    CHECK(s == -1);
    CHECK(strstr(err, "'50' is not a latency: give a unit, e.g. 50ms") != NULL);
    CHECK_INT_EQ(slo_parse_latency("-5ms", &s, err, sizeof err), -1);
    CHECK_INT_EQ(slo_parse_latency("5m", &s, err, sizeof err), -1);
    CHECK(strstr(err, "us, ms or s") != NULL);
    CHECK_INT_EQ(slo_parse_latency("", &s, err, sizeof err), -1);
    CHECK_INT_EQ(slo_parse_latency("5ms", &s, NULL, 0), 0);
}

/* slo_format writes the grammar back: parse(format(x)) == x; slo_text for people. */
static void test_format(void)
{
    static const struct slo cases[] = {{95, 0.050}, {0, 0.020}, {99.9, 800e-6},
                                       {99, 12.5},  {50, 1e-3}, {0, 9.5}};
    char buf[SLO_TEXT_MAX], err[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct slo back;
        slo_format(&cases[i], buf, sizeof buf);
        CHECK_INT_EQ(slo_parse(buf, &back, err, sizeof err), 0);
        CHECK_NEAR(back.pct, cases[i].pct, 0);
        CHECK_NEAR_REL(back.target_s, cases[i].target_s, 1e-12);
    }
    CHECK(strcmp(slo_format(&cases[0], buf, sizeof buf), "p95:50ms") == 0);
    CHECK(strcmp(slo_format(&cases[2], buf, sizeof buf), "p99.9:800us") == 0);
    CHECK(strcmp(slo_format(&cases[3], buf, sizeof buf), "p99:12.5s") == 0);
    CHECK(strcmp(slo_text(&cases[0], buf, sizeof buf), "p95 <= 50 ms") == 0);
    CHECK(strcmp(slo_text(&cases[1], buf, sizeof buf), "avg <= 20 ms") == 0);
}

int main(void)
{
    test_parse();
    test_latency();
    test_format();
    return check_report();
}
