/*
 * test_sbrand.c - sysbench 1.0.20-compatible random numbers.
 *
 * Expected values: xoroshiro128+'s recurrence worked by hand from the state {1, 2}; glibc's
 * random() (the generator sysbench seeds from) called directly; closed forms of each
 * distribution (docs/reference/sysbench.md 4): `special` puts res = 75 % of draws in the window
 * [a + t/2 - t*pct/200 + 0.25*(t*pct/100 + 1), a + t/2 - t*pct/200 + t*pct/100 + 1) plus the
 * share of the 12-uniform (Irwin-Hall) branch that lands there; pareto with h = 0.2 puts
 * 1 - ... = 0.2^(1/power) = 80 % of draws in the lowest 20 % of ids; uniform's mean is
 * (a + b) / 2.
 */
#include "check.h"
#include "sbrand.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_xoroshiro(void)
{
    struct sbrand r = {{1, 2}};
    /* out1 = s0 + s1 = 3; then s1 ^= s0 -> 3, s0 = rotl(1,55) ^ 3 ^ (3 << 14), s1 = rotl(3,36) */
    uint64_t s0 = (UINT64_C(1) << 55) ^ 3 ^ (UINT64_C(3) << 14), s1 = UINT64_C(3) << 36;
    CHECK(sbrand_next(&r) == 3);
    CHECK(r.s[0] == s0 && r.s[1] == s1);
    CHECK(sbrand_next(&r) == s0 + s1);
    /* u = top 52 bits as the mantissa of [1,2) minus 1: state {0, 1} gives x = 1 -> u = 0 */
    {
        struct sbrand z = {{0, 1}};
        CHECK_NEAR(sbrand_double(&z), 0.0, 0.0);
        z.s[0] = UINT64_MAX;
        z.s[1] = 0; /* x = 2^64-1 -> u = 1 - 2^-52 */
        CHECK_NEAR(sbrand_double(&z), 1.0 - ldexp(1.0, -52), 0.0);
    }
}

static void test_seeder(void)
{
    struct sbrand_seeder sd;
    struct sbrand r;
    uint32_t lib[8];
    int same = 1;
    srandom(12345);
    for (int i = 0; i < 8; i++)
        lib[i] = (uint32_t)random();
    sbrand_seeder_init(&sd, 12345);
    for (int i = 0; i < 4; i++)
        if (sbrand_seeder_next(&sd) != lib[i])
            same = 0;
    CHECK(same);
    sbrand_seed(&r, &sd); /* values 5..8 */
    CHECK(r.s[0] == ((uint64_t)lib[4] << 32 | lib[5]));
    CHECK(r.s[1] == ((uint64_t)lib[6] << 32 | lib[7]));
    /* glibc: srandom(1) -> first random() is 1804289383 (the C library's documented sequence) */
    sbrand_seeder_init(&sd, 1);
    CHECK_INT_EQ(sbrand_seeder_next(&sd), 1804289383);
}

static void seeded(struct sbrand *r, unsigned seed)
{
    struct sbrand_seeder sd;
    sbrand_seeder_init(&sd, seed);
    sbrand_seed(r, &sd);
}

static void test_special(void)
{
    struct sbrand_params p;
    struct sbrand r;
    const int n = 400000;
    const uint32_t a = 1, b = 10000;
    const double t = b - a;
    /* window of the uniform branch (closed form above): ids 4975 .. 5051 */
    double lo = t / 2 - t * 0.005 + 0.25 * (t * 0.01 + 1), hi = t / 2 - t * 0.005 + t * 0.01 + 1;
    uint32_t wlo = a + (uint32_t)lo, whi = a + (uint32_t)hi;
    /* the Irwin-Hall(12) branch, mean t/2, sd t/12: normal share of the window */
    double z = ((double)(whi - wlo + 1) / 2.0) / (t / 12.0);
    double expect = 0.75 + 0.25 * erf(z / sqrt(2.0));
    long in_window = 0, in_central_1pct = 0;
    uint32_t mn = UINT32_MAX, mx = 0;
    CHECK_INT_EQ(sbrand_params_init(&p, SBRAND_SPECIAL, 12, 1, 75, 0.2), 0);
    CHECK_INT_EQ(wlo, 4975);
    CHECK_INT_EQ(whi, 5051);
    seeded(&r, 7);
    for (int i = 0; i < n; i++) {
        uint32_t v = sbrand_default(&r, &p, a, b);
        if (v >= wlo && v <= whi)
            in_window++;
        if (v >= 4950 && v <= 5050)
            in_central_1pct++;
        if (v < mn)
            mn = v;
        if (v > mx)
            mx = v;
    }
    CHECK_NEAR((double)in_window / n, expect, 0.005);
    /* docs/reference/sysbench.md: "76 % of draws in the central 1 %" */
    CHECK_NEAR((double)in_central_1pct / n, 0.76, 0.01);
    CHECK(mn >= a && mx <= b);
    /* 1..1000: the window is 498..506 (docs/reference/sysbench.md 4, measured with sysbench) */
    {
        long hits = 0;
        for (int i = 0; i < n; i++) {
            uint32_t v = sbrand_special(&r, &p, 1, 1000);
            if (v >= 498 && v <= 506)
                hits++;
        }
        CHECK((double)hits / n > 0.75);
    }
    CHECK_INT_EQ(sbrand_params_init(&p, SBRAND_SPECIAL, 0, 1, 75, 0.2), -1);
    CHECK_INT_EQ(sbrand_params_init(&p, SBRAND_SPECIAL, 12, 1, 100, 0.2), -1);
}

static void test_other_distributions(void)
{
    struct sbrand_params p;
    struct sbrand r;
    const int n = 400000;
    double sum = 0, sumsq = 0;
    long low20 = 0;
    uint32_t mn = UINT32_MAX, mx = 0;
    seeded(&r, 11);
    sbrand_params_init(&p, SBRAND_UNIFORM, 12, 1, 75, 0.2);
    for (int i = 0; i < n; i++) {
        uint32_t v = sbrand_default(&r, &p, 1, 100);
        sum += v;
        if (v < mn)
            mn = v;
        if (v > mx)
            mx = v;
    }
    CHECK_NEAR(sum / n, 50.5, 0.2); /* (a+b)/2, sd of the mean 29/sqrt(n) = 0.05 */
    CHECK_INT_EQ(mn, 1);
    CHECK_INT_EQ(mx, 100);
    /* gaussian: mean of 12 uniforms over t = b-a+1 = 10000 -> mean a + t/2, sd t/12 */
    sbrand_params_init(&p, SBRAND_GAUSSIAN, 12, 1, 75, 0.2);
    sum = 0;
    for (int i = 0; i < n; i++) {
        double v = sbrand_default(&r, &p, 1, 10000);
        sum += v;
        sumsq += v * v;
    }
    CHECK_NEAR(sum / n, 1 + 5000.0 - 0.5, 5.0);
    CHECK_NEAR(sqrt(sumsq / n - (sum / n) * (sum / n)), 10000.0 / 12.0, 5.0);
    /* pareto h = 0.2: P(v - a < 0.2 (b-a+1)) = 0.2^(ln 0.8 / ln 0.2) = 0.8 */
    sbrand_params_init(&p, SBRAND_PARETO, 12, 1, 75, 0.2);
    CHECK_NEAR(p.pareto_power, log(0.2) / log(0.8), 1e-12);
    for (int i = 0; i < n; i++)
        if (sbrand_default(&r, &p, 1, 10000) - 1 < 2000)
            low20++;
    CHECK_NEAR((double)low20 / n, pow(0.2, log(0.8) / log(0.2)), 0.005);
    CHECK_NEAR(pow(0.2, log(0.8) / log(0.2)), 0.8, 1e-12);
    {
        enum sbrand_dist d;
        CHECK_INT_EQ(sbrand_dist_parse("special", &d), 0);
        CHECK_INT_EQ(d, SBRAND_SPECIAL);
        CHECK_INT_EQ(sbrand_dist_parse("zipfian", &d), -1); /* master only */
        CHECK_STR_EQ(sbrand_dist_name(SBRAND_PARETO), "pareto");
    }
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void test_unique_and_str(void)
{
    struct sbrand_unique u;
    struct sbrand r;
    const int n = 200000;
    uint32_t *v = malloc(n * sizeof *v);
    int distinct = 1, format_ok = 1;
    long digits[10] = {0};
    char buf[64];
    const char *fmt = "###########-###########-@@@";
    sbrand_unique_seed(&u, 12345, 67890);
    for (int i = 0; i < n; i++)
        v[i] = sbrand_unique_next(&u);
    qsort(v, n, sizeof *v, cmp_u32);
    for (int i = 1; i < n; i++)
        if (v[i] == v[i - 1])
            distinct = 0;
    CHECK(distinct);
    free(v);
    seeded(&r, 3);
    for (int k = 0; k < 20000; k++) {
        sbrand_str(&r, fmt, buf);
        for (size_t i = 0; i < strlen(fmt); i++) {
            if (fmt[i] == '#') {
                if (buf[i] < '0' || buf[i] > '9')
                    format_ok = 0;
                else
                    digits[buf[i] - '0']++;
            } else if (fmt[i] == '@') {
                if (buf[i] < 'a' || buf[i] > 'z')
                    format_ok = 0;
            } else if (buf[i] != fmt[i]) {
                format_ok = 0;
            }
        }
    }
    CHECK(format_ok);
    for (int d = 0; d < 10; d++) /* 440000 digits, 10 % each, sd 0.05 % */
        CHECK_NEAR(digits[d] / 440000.0, 0.1, 0.003);
}

int main(void)
{
    test_xoroshiro();
    test_seeder();
    test_special();
    test_other_distributions();
    test_unique_and_str();
    return check_report();
}
