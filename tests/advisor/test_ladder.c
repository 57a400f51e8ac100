/* test_ladder.c - the --threads auto ladder (advisor/plan/ladder.c) driven by synthetic curves
 * whose shape is known in closed form: the USL X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1))
 * with its peak N* = sqrt((1 - sigma) / kappa) (Gunther, GCaP 2007, eq. 4.33), and Amdahl's law
 * (kappa = 0, ceiling lambda / sigma). Latency of a closed loop by Little's law: R = N / X. */
#include "check.h"
#include "ladder.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double usl(double n, double lambda, double sigma, double kappa)
{
    return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

struct curve {
    double lambda, sigma, kappa;
    double noise; /* relative, alternating in sign from level to level */
};

/* Run a ladder to its end on a curve; levels[] gets the thread counts in order. */
static size_t drive(struct ladder *l, const struct curve *c, unsigned *levels, size_t cap)
{
    size_t n = 0;
    unsigned t;
    while ((t = ladder_next(l, NULL)) != 0 && n < cap) {
        double x = usl(t, c->lambda, c->sigma, c->kappa) * (1 + ((n % 2) ? -c->noise : c->noise));
        levels[n++] = t;
        ladder_add(l, t, x, 1e3 * t / x);
    }
    return n;
}

static int count_doubling(const unsigned *levels, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n && levels[i] == (1u << i); i++)
        k++;
    return k;
}

int main(void)
{
    struct ladder l;
    struct ladder_opts o = ladder_opts_default();
    unsigned lv[LADDER_MAX_LEVELS];
    size_t n;

    /* bad options are refused */
    o.max_threads = 0;
    CHECK(ladder_init(&l, &o) == -1);
    o = ladder_opts_default();
    o.max_points = 1;
    CHECK(ladder_init(&l, &o) == -1);
    o = ladder_opts_default();
    o.min_gain = 0;
    CHECK(ladder_init(&l, &o) == -1);
    o = ladder_opts_default();
    o.max_latency_ms = -1;
    CHECK(ladder_init(&l, &o) == -1);

    /* a USL curve with its peak at N* = sqrt(0.95 / 0.002) = 21.79: gains X(32)/X(16) - 1 =
     * -1.6 % and X(64)/X(32) - 1 = -25.8 % are the first two below 5 %, so doubling stops at
     * 64 on the plateau rule (max_threads 256 is not reached). Exact data: the fit recovers
     * N* with a zero-width interval, so no midpoint is needed. */
    {
        struct curve c = {1000, 0.05, 0.002, 0};
        o = ladder_opts_default();
        o.max_threads = 256;
        CHECK(ladder_init(&l, &o) == 0);
        n = drive(&l, &c, lv, LADDER_MAX_LEVELS);
        CHECK_INT_EQ(n, 7);
        CHECK_INT_EQ(count_doubling(lv, n), 7);
        CHECK(strstr(l.doubling_why, "plateau") != NULL);
        CHECK(l.have_est && l.est_is_peak);
        CHECK_NEAR_REL(l.est, sqrt(0.95 / 0.002), 1e-6);
        CHECK(strstr(l.why, "narrow") != NULL);
        CHECK_INT_EQ(l.phase, LADDER_DONE);
    }

    /* the same curve with +-8 % measurement noise: the peak's interval is wide, so levels are
     * added at geometric midpoints near the peak: the first in the gap (16, 32) that holds
     * N* = 21.8, at round(sqrt(16 * 32)) = 23; all stay within the doubling range, no level is
     * measured twice, and the ladder ends by max_points at the latest */
    {
        struct curve c = {1000, 0.05, 0.002, 0.08};
        o = ladder_opts_default();
        o.max_threads = 256;
        o.max_points = 10;
        CHECK(ladder_init(&l, &o) == 0);
        n = drive(&l, &c, lv, LADDER_MAX_LEVELS);
        CHECK_INT_EQ(count_doubling(lv, n), 7);
        CHECK(n > 7 && n <= 10);
        if (n > 7)
            CHECK_INT_EQ(lv[7], 23);
        for (size_t i = 7; i < n; i++) {
            CHECK(lv[i] > 8 && lv[i] < 64);
            for (size_t j = 0; j < i; j++)
                CHECK(lv[i] != lv[j]);
        }
    }

    /* latency bound: R(N) = N / X(N) is 2.23 ms at 16 threads and 4.53 ms at 32 on this curve;
     * with a 4 ms bound doubling ends at 32 */
    {
        struct curve c = {1000, 0.05, 0.002, 0};
        o = ladder_opts_default();
        o.max_threads = 256;
        o.max_latency_ms = 4;
        CHECK(ladder_init(&l, &o) == 0);
        n = drive(&l, &c, lv, LADDER_MAX_LEVELS);
        CHECK_INT_EQ(count_doubling(lv, n), 6);
        CHECK(strstr(l.doubling_why, "latency") != NULL);
    }

    /* Amdahl's law with sigma = 0.3 (ceiling 3333 tps): gains stay above 5 % up to 32 threads
     * (X(32)/X(16) - 1 = 6.8 %), so with max_threads 48 doubling is clipped to 48 and ends on
     * max_threads; exact data: the knee 1/sigma = 3.33 is recovered with a zero-width
     * interval and the ladder ends */
    {
        struct curve c = {1000, 0.3, 0, 0};
        o = ladder_opts_default();
        o.max_threads = 48;
        CHECK(ladder_init(&l, &o) == 0);
        n = drive(&l, &c, lv, LADDER_MAX_LEVELS);
        CHECK_INT_EQ(count_doubling(lv, n), 6);
        CHECK(n >= 7 && lv[6] == 48);
        CHECK(strstr(l.doubling_why, "max-threads 48") != NULL);
        CHECK(l.have_est && !l.est_is_peak);
        CHECK_NEAR_REL(l.est, 1 / 0.3, 1e-6);
    }

    /* max_points ends the doubling too */
    {
        struct curve c = {1000, 0.0, 0.0, 0};
        o = ladder_opts_default();
        o.max_threads = 1024;
        o.max_points = 4;
        CHECK(ladder_init(&l, &o) == 0);
        n = drive(&l, &c, lv, LADDER_MAX_LEVELS);
        CHECK_INT_EQ(n, 4);
        CHECK(strstr(l.why, "max-points 4") != NULL);
    }
    /* a zigzag no model describes (the read_write levels one loaded run measured, 1 to 16
     * threads): refining names the best level and says its interval is unknown, never "nan" */
    {
        static const double tps[] = {531.32, 671.39, 737.35, 591.40, 923.73};
        unsigned t;
        size_t k = 0;
        int refined = 0;
        o = ladder_opts_default();
        o.max_threads = 16;
        o.max_points = 6;
        CHECK(ladder_init(&l, &o) == 0);
        while ((t = ladder_next(&l, NULL)) != 0) {
            double x = k < 5 ? tps[k] : 996.71;
            CHECK(strstr(l.why, "nan") == NULL);
            refined |= l.phase == LADDER_REFINING;
            ladder_add(&l, t, x, 1e3 * t / x);
            k++;
        }
        CHECK(refined);
        CHECK(strstr(l.why, "nan") == NULL);
        if (!l.have_est)
            CHECK(strstr(l.why, "95 % interval") == NULL ||
                  strstr(l.why, "95 % interval unknown") != NULL);
        printf("zigzag ladder: %zu levels; last why: %s\n", k, l.why);
    }
    return check_report();
}
