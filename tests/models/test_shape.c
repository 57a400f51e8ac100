/*
 * test_shape.c - models/shape.h (the shape rule), fit_check_levels and the data-first model
 * choice of fit_curve_opt (models/fit.h). Each curve is chosen so the rule's answer follows by
 * hand: noise e = max(h, 5 % of X); a difference counts when it exceeds sqrt(e_a^2 + e_b^2).
 */
#include "check.h"
#include "fit.h"
#include "shape.h"

#include <gsl/gsl_errno.h>
#include <math.h>

static void test_classes(void)
{
    struct shape s;
    double n[5] = {1, 2, 4, 8, 16};
    /* rising: 1000 -> 1400 at the end, noise sqrt(65^2 + 70^2) = 95 */
    double rise[5] = {200, 400, 800, 1300, 1400};
    /* plateau: last step +3 % (30 < sqrt(50^2 + 51.5^2)), best within the noise */
    double flat[5] = {400, 700, 1000, 1000, 1030};
    /* peaked: best 1000 at 4, last 800 (200 > 64) */
    double peak[5] = {400, 700, 1000, 950, 800};
    /* falling: best first */
    double fall[5] = {1000, 900, 800, 700, 600};
    /* collapse: 1000 -> 200 from 4 to 8: slope log(0.2)/log(2) = -2.3, drop 800 > 3 x 51 */
    double cliff[5] = {400, 700, 1000, 200, 190};
    /* superlinear start: 500 -> 1200 > 2 x 500 by 200 > sqrt(60^2 + (2 x 25)^2) = 78 */
    double sup[5] = {500, 1200, 1300, 1320, 1310};
    double h[5] = {NAN, NAN, NAN, NAN, 300};

    CHECK_INT_EQ(shape_classify(n, rise, NULL, NULL, 5, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_RISING);
    CHECK_INT_EQ(shape_classify(n, flat, NULL, NULL, 5, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_PLATEAU);
    CHECK_INT_EQ(s.top_lo, 2);
    CHECK_INT_EQ(s.top_hi, 4);
    CHECK_INT_EQ(shape_classify(n, peak, NULL, NULL, 5, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_PEAKED);
    CHECK_INT_EQ(s.best, 2);
    CHECK_INT_EQ(shape_classify(n, fall, NULL, NULL, 5, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_FALLING);
    CHECK_INT_EQ(shape_classify(n, cliff, NULL, NULL, 5, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_COLLAPSE);
    CHECK_INT_EQ(s.collapse_at, 2);
    CHECK_INT_EQ(shape_classify(n, sup, NULL, NULL, 5, &s), 0);
    CHECK(s.superlinear_start);
    CHECK_INT_EQ(s.cls, SHAPE_PLATEAU);
    CHECK_NEAR_REL(s.start_ratio, 2.4, 1e-12);
    CHECK_INT_EQ(shape_classify(n, rise, NULL, NULL, 5, &s), 0);
    CHECK(!s.superlinear_start); /* 400 = 2 x 200: not more than its share */
    /* a wide interval on the last level makes the rise of the rising curve noise */
    CHECK_INT_EQ(shape_classify(n, rise, h, NULL, 5, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_PLATEAU);
    CHECK_INT_EQ(shape_classify(n, rise, NULL, NULL, 1, &s), 0);
    CHECK_INT_EQ(s.cls, SHAPE_SINGLE);
    /* a level whose interval includes the run-to-run noise (replicates pooled) takes it without
     * the 5 % floor: 1000 -> 950 at +/-1 % each falls beyond sqrt(10^2 + 9.5^2) = 13.8, not
     * beyond the floored sqrt(50^2 + 47.5^2) = 69.0 */
    {
        double n2[3] = {1, 2, 4}, x2[3] = {500, 1000, 950}, h2[3] = {5, 10, 9.5};
        int pooled[3] = {1, 1, 1};
        CHECK_INT_EQ(shape_classify(n2, x2, h2, NULL, 3, &s), 0);
        CHECK_INT_EQ(s.cls, SHAPE_PLATEAU);
        CHECK_INT_EQ(shape_classify(n2, x2, h2, pooled, 3, &s), 0);
        CHECK_INT_EQ(s.cls, SHAPE_PEAKED);
    }
    /* bad input */
    {
        double bad_n[3] = {1, 4, 2}, x[3] = {1, 2, 3};
        CHECK_INT_EQ(shape_classify(bad_n, x, NULL, NULL, 3, &s), -1);
        CHECK_INT_EQ(shape_classify(n, x, NULL, NULL, 0, &s), -1);
    }
}

/* fit_check_levels: a residual beyond the bound, and a run of one-signed residuals. */
static void test_check(void)
{
    struct model_fit f = {0};
    struct fit_check k;
    double n[6] = {1, 2, 4, 8, 16, 32};
    double near[6] = {102, 198, 404, 796, 1610, 3180}; /* within 2 % of 100 N */
    double off[6] = {130, 200, 400, 800, 1600, 3200};  /* +30 % at 1 */
    double run[6] = {97, 194, 388, 776, 1600, 3200};   /* -3 % at four levels: > bound/2 */
    f.kind = MODEL_PIECEWISE;
    f.par[MODEL_LAMBDA].value = 100;
    f.par[MODEL_XM].value = NAN;
    CHECK_INT_EQ(fit_check_levels(&f, n, near, NULL, 6, &k), 0);
    CHECK(k.describes);
    CHECK(k.max_rel < 0.02);
    CHECK_INT_EQ(fit_check_levels(&f, n, off, NULL, 6, &k), 0);
    CHECK(!k.describes && !k.pattern);
    CHECK_INT_EQ(k.worst, 0);
    CHECK_NEAR_REL(k.worst_rel, 30.0 / 130, 1e-12);
    CHECK_INT_EQ(fit_check_levels(&f, n, run, NULL, 6, &k), 0);
    CHECK(!k.describes && k.pattern);
    CHECK_INT_EQ(k.run_from, 0);
    CHECK_INT_EQ(k.run_len, 4);
}

/* A falling tail chooses the USL whatever AICc says: with 4 points its AICc is infinite. */
static void test_peak_seen(void)
{
    double n[4] = {100, 300, 600, 900}, x[4];
    struct fit_result fr;
    struct fit_options o = {FIT_AUTO, 0};
    char err[200];
    for (int i = 0; i < 4; i++)
        x[i] = 1000 * n[i] / (1 + 0.1 * (n[i] - 1) + 0.0005 * n[i] * (n[i] - 1));
    CHECK_INT_EQ(fit_curve_opt(n, x, 4, &o, NULL, &fr, err, sizeof err), MODEL_OK);
    CHECK(fr.chosen != MODEL_USL); /* by AICc alone */
    o.peak_seen = 1;
    CHECK_INT_EQ(fit_curve_opt(n, x, 4, &o, NULL, &fr, err, sizeof err), MODEL_OK);
    CHECK_INT_EQ(fr.chosen, MODEL_USL);
    CHECK(fr.by_shape && fr.fits[MODEL_USL].peak_in_data);
    /* the USL recovers N* = sqrt(0.9 / 0.0005) = 42.4, below the first level */
    CHECK_NEAR_REL(sqrt((1 - fr.fits[MODEL_USL].par[MODEL_SIGMA].value) /
                        fr.fits[MODEL_USL].par[MODEL_KAPPA].value),
                   sqrt(0.9 / 0.0005), 1e-4);
}

int main(void)
{
    gsl_set_error_handler_off();
    test_classes();
    test_check();
    test_peak_seen();
    return check_report();
}
