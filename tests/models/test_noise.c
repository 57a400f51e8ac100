/*
 * test_noise.c - replicates pooled into levels with run-to-run noise (models/noise.h): closed
 * forms worked by hand (the classic one-level t interval, the pooled relative variance, the
 * method-of-moments split and Satterthwaite's degrees of freedom, two-stage sampling's optimum
 * replicate length found by a direct search), and the coverage of the level intervals counted on
 * data drawn from the random-effects model with known means.
 */
#include "check.h"
#include "noise.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

/* Student's t, 0.975 quantile (table values) */
#define T975_2 4.302652730
#define T975_19 2.093024054

static struct noise_obs ob(double n, double x, double se, double df)
{
    struct noise_obs o;
    o.n = n;
    o.x = x;
    o.se = se;
    o.se_df = df;
    return o;
}

static void one_level_is_the_t_interval(void)
{
    /* 96, 100, 104: mean 100, sample sd 4; the classic 95 % interval t(0.975, 2) 4 / sqrt(3) */
    struct noise_obs o[3] = {ob(4, 100, NAN, 0), ob(4, 104, NAN, 0), ob(4, 96, NAN, 0)};
    struct noise_pool p;
    struct noise_level l;
    CHECK_INT_EQ(noise_pool(o, 3, &p), NOISE_OK);
    CHECK_INT_EQ(p.levels, 1);
    CHECK_INT_EQ(p.reps, 3);
    CHECK_NEAR(p.nu, 2, 0);
    CHECK_NEAR(p.cv, 0.04, 1e-12); /* sqrt((0.0016 + 0 + 0.0016) / 2) */
    CHECK_INT_EQ(p.within_known, 0);
    CHECK_NEAR(p.between_cv, 0.04, 1e-12);
    CHECK_INT_EQ(noise_level(&p, o, 3, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_POOLED);
    CHECK_NEAR(l.mean, 100, 1e-12);
    CHECK_NEAR(l.df, 2, 1e-9);
    CHECK_NEAR(l.half95, T975_2 * 4 / sqrt(3.0), 1e-7);
}

static void two_levels_pool(void)
{
    /* level 1: 100, 110 (mean 105, d = -/+ 5/105); level 2: 200, 180 (mean 190, d = +/- 10/190)
     * s^2 = (2 (5/105)^2 + 2 (10/190)^2) / 2 */
    struct noise_obs o[5] = {ob(1, 100, NAN, 0), ob(2, 200, NAN, 0), ob(1, 110, NAN, 0),
                             ob(2, 180, NAN, 0), ob(4, 300, NAN, 0)};
    double s2 = (2 * pow(5.0 / 105, 2) + 2 * pow(10.0 / 190, 2)) / 2;
    struct noise_pool p;
    struct noise_level l;
    CHECK_INT_EQ(noise_pool(o, 5, &p), NOISE_OK);
    CHECK_INT_EQ(p.levels, 2);
    CHECK_INT_EQ(p.reps, 4);
    CHECK_NEAR(p.nu, 2, 0);
    CHECK_NEAR(p.cv, sqrt(s2), 1e-12);
    {
        struct noise_obs l1[2] = {o[0], o[2]};
        CHECK_INT_EQ(noise_level(&p, l1, 2, &l), NOISE_OK);
        CHECK_NEAR(l.half95, T975_2 * 105 * sqrt(s2 / 2), 1e-7);
    }
    /* the unreplicated level 4 gets the pooled noise: one run's own relative sd is s */
    CHECK_INT_EQ(noise_level(&p, &o[4], 1, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_POOLED);
    CHECK_NEAR(l.half95, T975_2 * 300 * sqrt(s2), 1e-6);
    /* without the pool a single run without an se has no interval */
    CHECK_INT_EQ(noise_level(NULL, &o[4], 1, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_NONE);
    CHECK(isnan(l.half95));
}

static void within_and_between(void)
{
    /* two levels of 2 replicates; level 1: 97, 103 (mean 100, se 1 each), level 2: 194, 206 (mean
     * 200, se 2 each). s^2 = 4 (0.03)^2 / 2 = 0.0018; w^2 = 0.01^2 = 0.0001; sigma_b^2 = 0.0017 */
    struct noise_obs o[4] = {ob(1, 97, 1, 19), ob(1, 103, 1, 19), ob(2, 194, 2, 19),
                             ob(2, 206, 2, 19)};
    struct noise_pool p;
    struct noise_level l;
    double sb2 = 0.0018 - 0.0001, w2 = 0.0001, df, rel;
    CHECK_INT_EQ(noise_pool(o, 4, &p), NOISE_OK);
    CHECK_INT_EQ(p.within_known, 1);
    CHECK_NEAR(p.cv, sqrt(0.0018), 1e-12);
    CHECK_NEAR(p.within_cv, 0.01, 1e-12);
    CHECK_NEAR(p.between_cv, sqrt(sb2), 1e-12);
    CHECK_INT_EQ(noise_level(&p, o, 2, &l), NOISE_OK);
    /* Satterthwaite over s^2 (nu = 2), w^2 (4 x 19 df) and the level's own 2 x 19:
     * (sb2 + w2)^2 / (s^4 / 2 + w^4 / 76 + w2^2 / 38) */
    df = (sb2 + w2) * (sb2 + w2) / (0.0018 * 0.0018 / 2 + 1e-8 / 76 + w2 * w2 / 38);
    rel = sqrt((sb2 + w2) / 2);
    CHECK_NEAR(l.df, df, 1e-9);
    CHECK_NEAR(l.rel_sd, rel, 1e-12);
    CHECK(l.df > 1.99 && l.df < 2.01); /* the between part dominates: about nu */
    /* the within-run interval alone: t(0.975, 38) sqrt(2 1^2) / 2; method says so */
    CHECK_INT_EQ(noise_level(NULL, o, 2, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_WITHIN);
    CHECK_NEAR(l.df, 38, 1e-9);
    CHECK_NEAR(l.half95, 2.024394164 * 100 * sqrt(0.0001 / 2), 1e-6);
    /* one run, within only: t(0.975, 19) se */
    CHECK_INT_EQ(noise_level(NULL, o, 1, &l), NOISE_OK);
    CHECK_NEAR(l.half95, T975_19 * 1, 1e-7);
}

static void stationary_replicates(void)
{
    /* replicates that agree better than their own within-run noise: sigma_b = 0, and the level's
     * interval is the within-run one, with the degrees of freedom the replicates give (about nu:
     * two replicates of two levels cannot yet show that the runs do not differ) */
    struct noise_obs o[4] = {ob(1, 100, 2, 19), ob(1, 101, 2, 19), ob(2, 200, 4, 19),
                             ob(2, 199, 4, 19)};
    struct noise_pool p;
    struct noise_level l;
    double s2 = (2 * pow(0.5 / 100.5, 2) + 2 * pow(0.5 / 199.5, 2)) / 2;
    double w2 = (2 * pow(2 / 100.5, 2) + 2 * pow(4 / 199.5, 2)) / 4, t = pow(2 / 100.5, 2), df;
    CHECK_INT_EQ(noise_pool(o, 4, &p), NOISE_OK);
    CHECK_NEAR(p.cv, sqrt(s2), 1e-12);
    CHECK_NEAR(p.within_cv, sqrt(w2), 1e-12);
    CHECK_NEAR(p.within_df, 76, 0);
    CHECK_NEAR(p.between_cv, 0, 0);
    CHECK_INT_EQ(noise_level(&p, o, 2, &l), NOISE_OK);
    /* s^2 below w^2: the between part estimated at 0; the level's variance and the df judged
     * at max(s^2, w^2) = w^2 (noise.h), so df is about nu = 2, not the within-run 38, and the
     * level's own within part t (a little below w^2) does not make it narrower */
    CHECK(t < w2);
    df = w2 * w2 / (w2 * w2 / 2 + w2 * w2 / 76 + t * t / 38);
    CHECK_NEAR(l.df, df, 1e-9);
    CHECK(l.df > 1.5 && l.df < 2.5);
    CHECK_NEAR(l.half95, gsl_cdf_tdist_Pinv(0.975, df) * 100.5 * sqrt(w2 / 2), 1e-9);
}

static void attainable_and_reps(void)
{
    struct noise_pool p = {4, 8, 4, 0.05, 0.02, sqrt(0.05 * 0.05 - 0.02 * 0.02), 152, 1, 0};
    double sb2 = 0.05 * 0.05 - 0.02 * 0.02, w2 = 0.0004;
    for (size_t r = 1; r <= 6; r++) {
        double df = (sb2 + w2) * (sb2 + w2) /
                    (pow(0.05, 4) / 4 + pow(0.02, 4) / 152 + w2 * w2 / (19.0 * (double)r));
        double a = noise_attainable(&p, w2, 19, r);
        CHECK_NEAR(a, gsl_cdf_tdist_Pinv(0.975, df) * sqrt((sb2 + w2) / (double)r), 1e-9);
    }
    /* more replicates, never a wider interval; the count needed is the first that reaches it */
    for (size_t r = 1; r < 20; r++)
        CHECK(noise_attainable(&p, w2, 19, r + 1) < noise_attainable(&p, w2, 19, r));
    {
        size_t need = noise_reps_needed(&p, w2, 19, 0.05, 20);
        CHECK(need >= 2 && need <= 20);
        CHECK(noise_attainable(&p, w2, 19, need) <= 0.05);
        CHECK(noise_attainable(&p, w2, 19, need - 1) > 0.05);
        CHECK_INT_EQ(noise_reps_needed(&p, w2, 19, 0.001, 5), 6); /* impossible with 5 */
    }
    CHECK(isnan(noise_attainable(NULL, 0, 19, 3)));
    CHECK(isnan(noise_attainable(&p, w2, 19, 0)));
}

/* the replicate length: a direct search over T of the cost r(T) (o + T), r(T) = (sb2 + k/T)/V */
static void replicate_length(void)
{
    double k = 0.064, o = 2.0, sb = 0.046, v = 0.0004, best_t = 0, best_c = INFINITY;
    double t_star = noise_replicate_s(k, o, sb);
    for (double t = 0.01; t < 200; t += 0.001) {
        double c = (sb * sb + k / t) / v * (o + t);
        if (c < best_c) {
            best_c = c;
            best_t = t;
        }
    }
    CHECK_NEAR(t_star, best_t, 0.002);
    CHECK_NEAR(t_star, sqrt(k * o) / sb, 1e-12);
    CHECK(isinf(noise_replicate_s(k, o, 0)));
    CHECK(isnan(noise_replicate_s(0, o, sb)));
    CHECK(isnan(noise_replicate_s(k, -1, sb)));
}

static void bad_input(void)
{
    struct noise_obs o[2] = {ob(1, 100, NAN, 0), ob(1, -3, NAN, 0)};
    struct noise_pool p;
    struct noise_level l;
    CHECK_INT_EQ(noise_pool(o, 2, &p), NOISE_EINVAL);
    o[1].x = 100;
    o[1].n = NAN;
    CHECK_INT_EQ(noise_pool(o, 2, &p), NOISE_EINVAL);
    o[1].n = 1;
    o[1].se = -1;
    CHECK_INT_EQ(noise_pool(o, 2, &p), NOISE_EINVAL);
    CHECK_INT_EQ(noise_level(&p, o, 0, &l), NOISE_EINVAL);
    CHECK_INT_EQ(noise_pool(o, 1, &p), NOISE_OK); /* one replicate: nothing pooled */
    CHECK_NEAR(p.nu, 0, 0);
    CHECK(isnan(p.cv));
}

/*
 * Coverage on the model itself: L levels with true means mu_i, r replicates each, every run's
 * offset drawn with relative sd sigma_b, its within-run error with sd omega (its se known, 19
 * df, from 20 batch means of the run). The pooled interval of each level must contain mu_i about
 * 95 % of the time; the within-run interval alone (what a calibrated point said before) far less.
 */
static void coverage(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    const double sigma_b = 0.04, omega = 0.01, mu[4] = {500, 900, 1200, 1250};
    int hit = 0, hit_within = 0, total = 0;
    gsl_rng_set(rng, 20261201);
    for (int rep = 0; rep < 4000; rep++) {
        struct noise_obs o[12];
        struct noise_pool p;
        size_t m = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++) {
                double x =
                    mu[i] * (1 + gsl_ran_gaussian(rng, sigma_b) + gsl_ran_gaussian(rng, omega));
                /* the run's estimate of its own se: sd of 20 batch means / sqrt(20) */
                double s = omega * mu[i] * sqrt(gsl_ran_chisq(rng, 19) / 19);
                o[m++] = ob(i + 1, x, s, 19);
            }
        noise_pool(o, m, &p);
        for (int i = 0; i < 4; i++) {
            struct noise_level l, lw;
            noise_level(&p, &o[3 * i], 3, &l);
            noise_level(NULL, &o[3 * i], 3, &lw);
            hit += fabs(l.mean - mu[i]) <= l.half95;
            hit_within += fabs(lw.mean - mu[i]) <= lw.half95;
            total++;
        }
    }
    printf("coverage: pooled %.3f, within-run only %.3f over %d levels\n", (double)hit / total,
           (double)hit_within / total, total);
    CHECK((double)hit / total >= 0.93 && (double)hit / total <= 0.975);
    CHECK((double)hit_within / total < 0.5);
    gsl_rng_free(rng);
}

static void long_replicate_attainable(void)
{
    /* a between part estimated at 0 and a projected replicate 6 x longer than the pooled ones:
     * the numerator is judged at max(s^2, w^2) (noise.h), so df is about the pool's nu, not far
     * below 1 (the plain ratio gave (w2/6)^2 / (w2^2/4) = 0.11 df here, and a t quantile in the
     * hundreds) */
    struct noise_pool p = {1, 5, 4, 0.01, 0.02, 0, 95, 1, 0};
    double w2 = 0.0004, om2 = w2 / 6, r = 5;
    double df = w2 * w2 / (w2 * w2 / 4 + w2 * w2 / 95 + om2 * om2 / (19 * r));
    double a = noise_attainable(&p, om2, 19, 5);
    /* and the projected replicate is not credited with a within part below the pool's w^2,
     * as a measured level is not (noise.h v_i): sqrt(w2 / r), not sqrt(om2 / r) */
    CHECK_NEAR(a, gsl_cdf_tdist_Pinv(0.975, df) * sqrt(w2 / r), 1e-12);
    CHECK(df > 3 && df < 4);
    CHECK(a < 0.03);
}

static void floor_of_the_server(void)
{
    /* the server's floor: 10 levels, 50 replicates, 40 df, run-to-run CV 8 % (no within-run
     * interval known: all of it between runs) */
    struct noise_pool fl = {10, 50, 40, 0.08, 0, 0.08, 0, 0, 0};
    struct noise_obs agree[2] = {ob(4, 100, NAN, 0), ob(4, 100.2, NAN, 0)};
    struct noise_obs apart[2] = {ob(4, 100, NAN, 0), ob(4, 130, NAN, 0)};
    struct noise_pool own;
    struct noise_level l, plain;
    /* two replicates that agree by chance: the floor's interval, 40 df */
    CHECK_INT_EQ(noise_pool(agree, 2, &own), NOISE_OK);
    CHECK_INT_EQ(noise_level(&own, agree, 2, &plain), NOISE_OK);
    CHECK_INT_EQ(noise_level_floor(&own, &fl, agree, 2, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_FLOOR);
    CHECK_NEAR(l.mean, 100.1, 1e-12);
    CHECK_NEAR(l.df, 40, 1e-9);
    CHECK_NEAR(l.half95, gsl_cdf_tdist_Pinv(0.975, 40) * 100.1 * sqrt(0.0064 / 2), 1e-9);
    CHECK(l.half95 > 10);           /* about +/- 11 %: the floor, not the replicates' 0.2 % */
    CHECK(plain.half95 < l.half95); /* what the replicates alone said */
    /* two replicates 30 % apart: their own interval is wider than the floor's and stays */
    CHECK_INT_EQ(noise_pool(apart, 2, &own), NOISE_OK);
    CHECK_INT_EQ(noise_level(&own, apart, 2, &plain), NOISE_OK);
    CHECK_INT_EQ(noise_level_floor(&own, &fl, apart, 2, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_POOLED);
    CHECK_NEAR(l.half95, plain.half95, 0);
    /* no own pool (one replicate): the floor's, 1 replicate */
    CHECK_INT_EQ(noise_level_floor(NULL, &fl, agree, 1, &l), NOISE_OK);
    CHECK_INT_EQ(l.method, NOISE_FLOOR);
    CHECK_NEAR(l.half95, gsl_cdf_tdist_Pinv(0.975, 40) * 100 * 0.08, 1e-9);
    /* no floor: noise_level() */
    CHECK_INT_EQ(noise_level_floor(&own, NULL, apart, 2, &l), NOISE_OK);
    CHECK_NEAR(l.half95, plain.half95, 0);
}

/* An outlier level (noise.h): four levels of three replicates, three agreeing within 1 % (each
 * level's squared relative deviations 0.01^2 + 0 + 0.01^2 = 2e-4 over 2 df) and one at
 * 80/100/120 (0.2^2 + 0 + 0.2^2 = 0.08 over 2 df). Its variance 0.04 is 400 times the rest's
 * 1e-4 (6 df), beyond F(1 - 0.01/4; 2, 6) = 19.104 (tests/tdist.py): left out, the pool is the
 * rest's, CV 1 % on 6 df; its own interval is t(0.975, 2) x 100 x sqrt(0.04 / 3) = 49.68 and
 * the others' t(0.975, 6) x mean x 0.01 / sqrt(3). Without it, nothing is left out. */
static void outlier_level(void)
{
    struct noise_obs o[12] = {ob(1, 50, NAN, 0),  ob(1, 50.5, NAN, 0), ob(1, 49.5, NAN, 0),
                              ob(2, 100, NAN, 0), ob(2, 101, NAN, 0),  ob(2, 99, NAN, 0),
                              ob(4, 200, NAN, 0), ob(4, 202, NAN, 0),  ob(4, 198, NAN, 0),
                              ob(8, 80, NAN, 0),  ob(8, 100, NAN, 0),  ob(8, 120, NAN, 0)};
    struct noise_pool p;
    struct noise_level lv;
    CHECK_INT_EQ(noise_pool(o, 12, &p), NOISE_OK);
    CHECK_INT_EQ((int)p.excluded, 1);
    CHECK_INT_EQ((int)p.levels, 3);
    CHECK_NEAR(p.nu, 6, 0);
    CHECK_NEAR(p.cv, 0.01, 1e-12);
    CHECK_INT_EQ(noise_level(&p, o + 9, 3, &lv), NOISE_OK);
    CHECK_INT_EQ(lv.own, 1);
    CHECK_NEAR(lv.df, 2, 0);
    CHECK_NEAR(lv.half95, 4.302652729749464 * 100 * sqrt(0.04 / 3), 1e-9);
    CHECK_INT_EQ(noise_level(&p, o + 3, 3, &lv), NOISE_OK);
    CHECK_INT_EQ(lv.own, 0);
    CHECK_NEAR(lv.half95, 2.446911851144969 * 100 * 0.01 / sqrt(3), 1e-9);
    CHECK_NEAR(noise_outlier_f(2, 6, 4), 19.104189, 1e-5);
    /* replicates that agree exactly show no noise, not a noise of 0: nothing pooled */
    {
        struct noise_obs same[4] = {ob(1, 100, NAN, 0), ob(1, 100, NAN, 0), ob(2, 180, NAN, 0),
                                    ob(2, 180, NAN, 0)};
        CHECK_INT_EQ(noise_pool(same, 4, &p), NOISE_OK);
        CHECK_NEAR(p.nu, 0, 0);
        CHECK_INT_EQ(noise_level(&p, same, 2, &lv), NOISE_OK);
        CHECK_INT_EQ((int)lv.method, NOISE_NONE);
    }
    /* the three agreeing levels alone: no outlier among them */
    CHECK_INT_EQ(noise_pool(o, 9, &p), NOISE_OK);
    CHECK_INT_EQ((int)p.excluded, 0);
    CHECK_NEAR(p.cv, 0.01, 1e-12);
}

int main(void)
{
    outlier_level();
    long_replicate_attainable();
    floor_of_the_server();
    one_level_is_the_t_interval();
    two_levels_pool();
    within_and_between();
    stationary_replicates();
    attainable_and_reps();
    replicate_length();
    bad_input();
    coverage();
    return check_report();
}
