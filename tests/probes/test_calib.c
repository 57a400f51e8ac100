/*
 * test_calib.c - the warm-up rule (MSER-5) and the batch-means stopping rule on synthetic series
 * with known warm-up length and known variance, including autocorrelated ones (AR(1)), where the
 * true mean is known and coverage of the 95 % interval can be counted.
 */
#include "calib.h"
#include "check.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#define N_MAX 4000

/* AR(1) around mean mu: y_t = mu + phi (y_{t-1} - mu) + e_t, e ~ N(0, sd), started stationary. */
static void ar1(gsl_rng *r, double *x, size_t n, double mu, double phi, double sd)
{
    double y = gsl_ran_gaussian(r, sd / sqrt(1 - phi * phi));
    for (size_t i = 0; i < n; i++) {
        y = phi * y + gsl_ran_gaussian(r, sd);
        x[i] = mu + y;
    }
}

static void closed_forms(void)
{
    double x[100];
    size_t cut;
    int steady;
    struct calib_estimate e;
    for (int i = 0; i < 100; i++)
        x[i] = 500;
    CHECK_INT_EQ(calib_mser(x, 100, 5, &cut, &steady), CALIB_OK);
    CHECK_INT_EQ(cut, 0);
    CHECK_INT_EQ(steady, 1);
    CHECK_INT_EQ(calib_batch_means(x, 100, &e), CALIB_OK);
    CHECK_NEAR(e.mean, 500, 1e-12);
    CHECK_NEAR(e.half95, 0, 1e-12);
    CHECK_INT_EQ(e.batches, 20);
    CHECK_INT_EQ(e.batch_len, 5);
    /* alternating 0/2 in batches of 5: batch means 0,2,0,2,... -> sd of batch means = sqrt(20/19),
     * half-width = t(0.975,19) * sqrt(20/19) / sqrt(20) = 2.093024 * 0.229416 */
    for (int i = 0; i < 100; i++)
        x[i] = (i / 5) % 2 ? 2 : 0;
    CHECK_INT_EQ(calib_batch_means(x, 100, &e), CALIB_OK);
    CHECK_NEAR(e.mean, 1, 1e-12);
    CHECK_NEAR(e.half95, 2.0930240544 * sqrt(20.0 / 19.0) / sqrt(20.0), 1e-8);
    CHECK_NEAR(e.lag1, -0.95, 1e-12); /* alternating batch means: sum of 19 products / 20 */
    /* bad input */
    CHECK_INT_EQ(calib_mser(x, 9, 5, &cut, &steady), CALIB_ESHORT);
    CHECK_INT_EQ(calib_mser(x, 100, 0, &cut, &steady), CALIB_EINVAL);
    CHECK_INT_EQ(calib_batch_means(x, 9, &e), CALIB_ESHORT);
    x[3] = NAN;
    CHECK_INT_EQ(calib_batch_means(x, 100, &e), CALIB_EINVAL);
}

/* A ramp of known length, then stationary noise: MSER-5 cuts near the end of the ramp. */
static void known_warmup(void)
{
    static double x[N_MAX];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int near = 0, early = 0, trials = 100;
    gsl_rng_set(r, 12345);
    for (int t = 0; t < trials; t++) {
        size_t cut;
        int steady;
        /* 40 intervals rising linearly from 200 to 1000, then 160 at 1000 + N(0, 25) */
        for (int i = 0; i < 200; i++)
            x[i] = (i < 40 ? 200 + 800.0 * i / 40 : 1000) + gsl_ran_gaussian(r, 25);
        CHECK_INT_EQ(calib_mser(x, 200, 5, &cut, &steady), CALIB_OK);
        if (steady && cut >= 30 && cut <= 60)
            near++;
        if (cut < 30)
            early++; /* keeping warm-up in the estimate is the failure that matters */
    }
    /* the ramp ends at 40; its last batches are within 2 sd of the plateau */
    CHECK(near >= 85);
    CHECK_INT_EQ(early, 0);
    /* a series that trends all the way is not steady */
    for (int i = 0; i < 200; i++)
        x[i] = 100 + 5.0 * i + gsl_ran_gaussian(r, 5);
    {
        size_t cut;
        int steady;
        CHECK_INT_EQ(calib_mser(x, 200, 5, &cut, &steady), CALIB_OK);
        CHECK_INT_EQ(steady, 0);
    }
    gsl_rng_free(r);
}

/* Coverage of the true mean by the 95 % interval: batch means hold it for autocorrelated
 * intervals where the naive i.i.d. interval does not (for AR(1) with phi = 0.8 the variance of
 * the mean is (1+phi)/(1-phi) = 9 times the i.i.d. one, so the naive interval covers about
 * 2*Phi(1.96/3) - 1 = 49 %). */
static void coverage(void)
{
    static double x[N_MAX];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    const int trials = 1000;
    int covered_bm = 0, covered_naive = 0, covered_iid = 0;
    gsl_rng_set(r, 2026);
    for (int t = 0; t < trials; t++) {
        struct calib_estimate e;
        double mean = 0, var = 0;
        const size_t n = 800;
        ar1(r, x, n, 1000, 0.8, 30);
        CHECK_INT_EQ(calib_batch_means(x, n, &e), CALIB_OK);
        if (fabs(e.mean - 1000) <= e.half95)
            covered_bm++;
        for (size_t i = 0; i < n; i++)
            mean += x[i];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            var += (x[i] - mean) * (x[i] - mean);
        var /= (double)(n - 1);
        if (fabs(mean - 1000) <= 1.96 * sqrt(var / (double)n))
            covered_naive++;
        /* independent intervals: the interval is exact (t with 19 df) */
        for (size_t i = 0; i < 200; i++)
            x[i] = 1000 + gsl_ran_gaussian(r, 30);
        CHECK_INT_EQ(calib_batch_means(x, 200, &e), CALIB_OK);
        if (fabs(e.mean - 1000) <= e.half95)
            covered_iid++;
    }
    printf("coverage over %d trials: batch means (AR1 0.8) %.3f, naive %.3f, iid %.3f\n", trials,
           covered_bm / (double)trials, covered_naive / (double)trials,
           covered_iid / (double)trials);
    CHECK(covered_bm >= 0.90 * trials);
    CHECK(covered_naive <= 0.65 * trials);
    CHECK(covered_iid >= 0.93 * trials && covered_iid <= 0.97 * trials);
    gsl_rng_free(r);
}

static void stopping_rule(void)
{
    static double x[N_MAX];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    struct calib_decision d;
    size_t n;
    gsl_rng_set(r, 7);
    /* 0.25 s intervals: warm-up of 2 s (8 intervals) then 1000 +- 20 (2 % sd per interval) */
    for (size_t i = 0; i < N_MAX; i++)
        x[i] = (i < 8 ? 300 + 80.0 * (double)i : 1000) + gsl_ran_gaussian(r, 20);
    /* never before min_time */
    CHECK_INT_EQ(calib_decide(x, 20, 0.25, 5, 0.02, 10, 60, &d), CALIB_OK);
    CHECK_INT_EQ(d.stop, 0);
    /* it stops once min_time has passed and the interval is within 2 % */
    for (n = 1; n <= 240; n++) {
        CHECK_INT_EQ(calib_decide(x, n, 0.25, 5, 0.02, 5, 60, &d), CALIB_OK);
        if (d.stop)
            break;
    }
    CHECK(d.stop && d.steady);
    CHECK(n * 0.25 >= 5 && n * 0.25 <= 15);
    CHECK(d.cut >= 5 && d.cut <= 15);
    CHECK(d.have_est && d.est.rel95 <= 0.02);
    CHECK(fabs(d.est.mean - 1000) <= 3 * d.est.half95);
    /* a series that never settles ends at max_time, not steady */
    for (size_t i = 0; i < 400; i++)
        x[i] = 100 + 3.0 * (double)i + gsl_ran_gaussian(r, 5);
    CHECK_INT_EQ(calib_decide(x, 240, 0.25, 5, 0.02, 5, 60, &d), CALIB_OK);
    CHECK_INT_EQ(d.stop, 1);
    CHECK_INT_EQ(d.steady, 0);
    CHECK_INT_EQ(calib_decide(x, 239, 0.25, 5, 0.02, 5, 60, &d), CALIB_OK);
    CHECK_INT_EQ(d.stop, 0);
    CHECK_INT_EQ(calib_decide(x, 10, 0, 5, 0.02, 5, 60, &d), CALIB_EINVAL);
    gsl_rng_free(r);
}

/* The decision on autocorrelated intervals: AR(1) with phi = 0.8 and innovation sd 30 around
 * 1000 has a marginal sd of 50 (5 %) but a long-run variance 9 times the marginal one
 * ((1+phi)/(1-phi), Law 5th ed. §9.5.3), so at 20 intervals (5 s of 0.25 s ticks) one-interval
 * "batches" give a half-width of about 2.3 % while the true one is about 7 %. Asked for 2.5 %,
 * the rule without the independence check (replayed here from calib_mser and
 * calib_batch_means) stops at min_time with one-interval batches in nearly every trial; the
 * check must hold back a good share of those premature stops and must not lower coverage. It is
 * a partial remedy (repeated looks at a noisy lag-1 estimate still let many through): the
 * figures are printed. */
static void decision_coverage(void)
{
    static double x[N_MAX];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    const int trials = 400;
    int covered = 0, at_min = 0, covered0 = 0, at_min0 = 0;
    gsl_rng_set(r, 11);
    for (int t = 0; t < trials; t++) {
        struct calib_decision d;
        int done0 = 0;
        ar1(r, x, 240, 1000, 0.8, 30);
        for (size_t n = 1; n <= 240; n++) {
            CHECK_INT_EQ(calib_decide(x, n, 0.25, 5, 0.025, 5, 60, &d), CALIB_OK);
            /* the same rule without the check */
            if (!done0 && n * 0.25 >= 5 && d.have_est && d.est.rel95 <= 0.025) {
                size_t cut;
                int warm;
                if (calib_mser(x, n, 5, &cut, &warm) == CALIB_OK && warm) {
                    done0 = 1;
                    covered0 += fabs(d.est.mean - 1000) <= d.est.half95;
                    at_min0 += d.est.batch_len == 1;
                }
            }
            if (d.stop)
                break;
        }
        if (d.steady) {
            covered += fabs(d.est.mean - 1000) <= d.est.half95;
            at_min += d.est.batch_len == 1;
        }
    }
    printf("AR(1) 0.8 decisions over %d trials: covered %d (without the check %d), stopped with "
           "1-interval batches %d (without the check %d)\n",
           trials, covered, covered0, at_min, at_min0);
    CHECK(at_min0 >= 0.9 * trials);
    CHECK(at_min <= 0.75 * at_min0);
    CHECK(covered >= covered0);
    gsl_rng_free(r);
}

/* A deterministic slow oscillation (period 80 intervals, amplitude 1 %): the batch means of 4
 * intervals follow the wave, so their lag-1 autocorrelation is near cos(2 pi 4/80) = 0.95, above
 * Bartlett's bound 1.96/sqrt(20) = 0.44, although the half-width is well under 2 %: the rule must
 * not stop on it. */
static void oscillation(void)
{
    double x[80];
    struct calib_decision d;
    for (size_t i = 0; i < 80; i++)
        x[i] = 1000 + 10 * sin(2 * M_PI * (double)i / 80.0);
    CHECK_INT_EQ(calib_decide(x, 80, 0.25, 5, 0.02, 5, 60, &d), CALIB_OK);
    CHECK(d.have_est);
    if (d.have_est) {
        CHECK(d.est.rel95 < 0.02);
        CHECK(d.est.lag1 > 1.96 / sqrt(20.0));
    }
    CHECK_INT_EQ(d.indep, 0);
    CHECK_INT_EQ(d.stop, 0);
}

int main(void)
{
    closed_forms();
    known_warmup();
    coverage();
    stopping_rule();
    decision_coverage();
    oscillation();
    return check_report();
}
