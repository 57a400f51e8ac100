/*
 * test_curve.c - advisor/curve/curve.h: which points count, grouping, replicates pooled into
 * levels.
 *
 * Expected values are computed here from the points with the formulas of curve.h:
 *   level mean = arithmetic mean of the replicates;
 *   half-width = t(0.975, r-1) s / sqrt(r) (t quantiles from the tables: t(0.975, 1) = 12.7062,
 *   t(0.975, 2) = 4.30265), or sqrt(sum ci95^2) / r from the points' own intervals.
 */
#include "check.h"
#include "curve.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

static void add(struct point_list *l, const char *target, const char *workload, long threads,
                double tps, const char *flag)
{
    struct point *p = point_list_push(l);
    CHECK(p != NULL);
    if (!p)
        return;
    point_set_str(&p->target, target);
    point_set_str(&p->workload, workload);
    p->threads = threads;
    p->tps = tps;
    if (flag && strcmp(flag, "incomplete") == 0)
        p->incomplete = 1;
    else if (flag)
        point_add_flag(p, flag);
}

/* The rule: incomplete, interrupted, partial, stalled, reconnects do not count; other flags do. */
static void test_rule(void)
{
    struct point_list l;
    static const char *const out[] = {"incomplete", "interrupted", "partial", "stalled",
                                      "reconnects"};
    point_list_init(&l);
    for (size_t i = 0; i < 5; i++)
        add(&l, "t", "w", 1 + (long)i, 100, out[i]);
    add(&l, "t", "w", 8, 100, "qps_below_tps");
    add(&l, "t", "w", 9, 100, "some_future_flag");
    add(&l, "t", "w", 10, 100, NULL);
    for (size_t i = 0; i < 5; i++) {
        CHECK(!curve_point_counts(&l.items[i]));
        CHECK_STR_EQ(curve_point_excluded_why(&l.items[i]), out[i]);
    }
    for (size_t i = 5; i < 8; i++) {
        CHECK(curve_point_counts(&l.items[i]));
        CHECK(curve_point_excluded_why(&l.items[i]) == NULL);
    }
    CHECK(curve_find_point(&l, "t", "w", 2) == NULL); /* interrupted */
    CHECK(curve_find_point(&l, "t", "w", 9) == &l.items[6]);
    CHECK(curve_find_point(&l, "t", "x", 9) == NULL);
    CHECK_INT_EQ(curve_count_points(&l, "t", "w"), 3);
    point_list_destroy(&l);
}

/* Groups in order of first appearance, by target or by the caller's keys. */
static void test_groups(void)
{
    struct point_list l;
    struct curve_groups g;
    const char *keys[6] = {"cfg-a", "cfg-a", NULL, "cfg-a", "cfg-b", "cfg-a"};
    const struct curve_group *a;
    point_list_init(&l);
    add(&l, "t2", "w", 1, 10, NULL);
    add(&l, "t1", "w", 1, 10, NULL);
    add(&l, "t2", "w", 2, 20, "stalled");
    add(&l, "t1", "v", 1, 10, NULL);
    add(&l, "t2", "w", 4, 40, NULL);
    add(&l, "t1", "w", 2, 20, NULL);
    CHECK_INT_EQ(curve_groups_build(&g, &l, NULL), CURVE_OK);
    CHECK_INT_EQ(g.n, 3);
    CHECK_STR_EQ(g.g[0].key, "t2");
    CHECK_STR_EQ(g.g[1].key, "t1");
    CHECK_STR_EQ(g.g[2].workload, "v");
    CHECK_INT_EQ(g.g[0].n, 2);
    CHECK_INT_EQ(g.g[0].idx[0], 0);
    CHECK_INT_EQ(g.g[0].idx[1], 4);
    CHECK_INT_EQ(g.g[0].n_excluded, 1);
    CHECK_INT_EQ(g.g[0].excluded[0], 2);
    curve_groups_destroy(&g);
    /* keys: points 0, 1, 5 (cfg-a / w); point 2 joins nothing; 3 is workload v */
    CHECK_INT_EQ(curve_groups_build(&g, &l, keys), CURVE_OK);
    CHECK_INT_EQ(g.n, 3);
    a = curve_groups_find(&g, "cfg-a", "w");
    CHECK(a != NULL);
    if (a) {
        CHECK_INT_EQ(a->n, 3);
        CHECK_INT_EQ(a->idx[2], 5);
        CHECK_INT_EQ(a->n_excluded, 0);
    }
    CHECK(curve_groups_find(&g, "cfg-b", "w") != NULL);
    CHECK(curve_groups_find(&g, "cfg-b", "v") == NULL);
    curve_groups_destroy(&g);
    point_list_destroy(&l);
}

/* One run given twice (the same file under two names) is one point, not two replicates that
 * agree exactly; a rerun that differs in any figure is a replicate. */
static void test_groups_duplicates(void)
{
    struct point_list l;
    struct curve_groups g;
    point_list_init(&l);
    add(&l, "t1", "w", 1, 10, NULL);
    add(&l, "t1", "w", 2, 20, NULL);
    add(&l, "t1", "w", 1, 10, NULL);        /* 0 again */
    add(&l, "t1", "w", 1, 10.000001, NULL); /* a rerun of 1 thread */
    add(&l, "t1", "w", 2, 20, NULL);        /* 1 again */
    add(&l, "t2", "w", 1, 10, NULL);        /* another server's */
    CHECK_INT_EQ(curve_groups_build(&g, &l, NULL), CURVE_OK);
    CHECK_INT_EQ(g.n, 2);
    CHECK_INT_EQ(g.g[0].n, 3);
    CHECK_INT_EQ(g.g[0].idx[0], 0);
    CHECK_INT_EQ(g.g[0].idx[1], 1);
    CHECK_INT_EQ(g.g[0].idx[2], 3);
    CHECK_INT_EQ(g.g[0].n_dup, 2);
    CHECK_INT_EQ(g.g[0].dup[0], 2);
    CHECK_INT_EQ(g.g[0].dup_of[0], 0);
    CHECK_INT_EQ(g.g[0].dup[1], 4);
    CHECK_INT_EQ(g.g[0].dup_of[1], 1);
    CHECK_INT_EQ(g.g[1].n, 1);
    CHECK_INT_EQ(g.g[1].n_dup, 0);
    /* started_at tells two runs apart even when their figures agree */
    point_set_str(&l.items[2].started_at, "2026-12-04T10:00:00Z");
    curve_groups_destroy(&g);
    CHECK_INT_EQ(curve_groups_build(&g, &l, NULL), CURVE_OK);
    CHECK_INT_EQ(g.g[0].n, 4);
    CHECK_INT_EQ(g.g[0].n_dup, 1);
    curve_groups_destroy(&g);
    point_list_destroy(&l);
}

/* A level record pooling two replicates (a.jsonl lines 1-3), and a copy of the replicates taken
 * before the record was written (b.jsonl): the copies are the record's replicates again, not
 * two more; two rows of one table that rounding made equal stay two; a level record of one
 * replicate is not that replicate's duplicate. */
static void test_groups_duplicates_pooled(void)
{
    struct point_list l;
    struct curve_groups g;
    const char *at[2] = {"2026-12-04T10:00:00Z", "2026-12-04T10:01:00Z"};
    double x[2] = {1000, 1100};
    point_list_init(&l);
    for (int i = 0; i < 2; i++) {
        add(&l, "t", "w", 4, x[i], NULL);
        point_set_str(&l.items[l.n - 1].started_at, at[i]);
        point_set_str(&l.items[l.n - 1].source_file, "a.jsonl");
        l.items[l.n - 1].source_line = i + 1;
    }
    add(&l, "t", "w", 4, 1050, NULL);
    point_set_str(&l.items[2].started_at, at[0]);
    point_set_str(&l.items[2].source_file, "a.jsonl");
    l.items[2].source_line = 3;
    l.items[2].extra =
        json_pack("{s:{s:s,s:[{s:s,s:f},{s:s,s:f}]}}", "interval", "method", "replicates", "pooled",
                  "started_at", at[0], "tps", x[0], "started_at", at[1], "tps", x[1]);
    for (int i = 0; i < 2; i++) {
        add(&l, "t", "w", 4, x[i], NULL);
        point_set_str(&l.items[l.n - 1].started_at, at[i]);
        point_set_str(&l.items[l.n - 1].source_file, "b.jsonl");
        l.items[l.n - 1].source_line = i + 1;
    }
    /* two rows of one table, equal after rounding, no started_at */
    for (int i = 0; i < 2; i++) {
        add(&l, "t", "w", 8, 1500, NULL);
        point_set_str(&l.items[l.n - 1].source_file, "table.csv");
        l.items[l.n - 1].source_line = 10 + i;
    }
    CHECK_INT_EQ(curve_groups_build(&g, &l, NULL), CURVE_OK);
    CHECK_INT_EQ(g.n, 1);
    CHECK_INT_EQ(g.g[0].n_pooled, 2);
    CHECK_INT_EQ(g.g[0].pooled[0], 0);
    CHECK_INT_EQ(g.g[0].pooled[1], 1);
    CHECK_INT_EQ(g.g[0].n, 3); /* the level record and the table's two rows */
    CHECK_INT_EQ(g.g[0].idx[0], 2);
    CHECK_INT_EQ(g.g[0].idx[1], 5);
    CHECK_INT_EQ(g.g[0].idx[2], 6);
    CHECK_INT_EQ(g.g[0].n_dup, 2);
    CHECK_INT_EQ(g.g[0].dup[0], 3);
    CHECK_INT_EQ(g.g[0].dup_of[0], 0);
    CHECK_INT_EQ(g.g[0].dup[1], 4);
    CHECK_INT_EQ(g.g[0].dup_of[1], 1);
    curve_groups_destroy(&g);
    point_list_destroy(&l);
}

/* Replicates pool into levels: mean and the between-replicate half-width. */
static void test_levels(void)
{
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    char err[256];
    /* 3 replicates at 1, 2 at 2, one at 4 and 8 with a calibrated ci95 */
    struct curve_obs o[7] = {{1, 100, NAN, NAN, 0, 0, 0}, {2, 190, NAN, NAN, 0, 0, 0},
                             {1, 104, NAN, NAN, 0, 0, 0}, {4, 300, 6, NAN, 0, 0, 0},
                             {1, 96, NAN, NAN, 0, 0, 0},  {2, 200, NAN, NAN, 0, 0, 0},
                             {8, 310, 9, NAN, 0, 0, 0}};
    /* the run-to-run relative variance pooled over levels 1 and 2 (models/noise.h), by hand:
     * level 1 deviations 0, +4 %, -4 % of 100; level 2 -/+ 5 of 195; nu = 2 + 1 = 3 */
    double s2 = (0.0016 + 0.0016 + 2 * (5.0 / 195) * (5.0 / 195)) / 3, w4, w8, df4, df8;
    spec.lat_pct = CURVE_LAT_NONE;
    CHECK_INT_EQ(curve_init(&c, o, 7, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK_INT_EQ(c.m, 4);
    CHECK_INT_EQ(c.n_obs, 7);
    CHECK_NEAR(c.lv[0].n, 1, 0);
    CHECK_NEAR_REL(c.lv[0].x, 100, 1e-12);
    CHECK_INT_EQ(c.lv[0].reps, 3);
    /* no within-run part known: sigma_b^2 = s2, df = nu = 3, t(0.975, 3) = 3.182446305 */
    CHECK_NEAR_REL(c.lv[0].half95, 3.182446305 * 100 * sqrt(s2 / 3), 1e-8);
    CHECK_NEAR_REL(c.lv[1].x, 195, 1e-12);
    CHECK_NEAR_REL(c.lv[1].half95, 3.182446305 * 195 * sqrt(s2 / 2), 1e-8);
    /* a level measured once carries the curve's run-to-run noise and its own interval (as a
     * standard error, 6 / 1.959964), with Satterthwaite's df against nu = 3 */
    w4 = pow(6 / 1.959963985 / 300, 2);
    w8 = pow(9 / 1.959963985 / 310, 2);
    df4 = (s2 + w4) * (s2 + w4) / (s2 * s2 / 3 + w4 * w4 / 1e6);
    df8 = (s2 + w8) * (s2 + w8) / (s2 * s2 / 3 + w8 * w8 / 1e6);
    CHECK_NEAR_REL(c.lv[2].half95, gsl_cdf_tdist_Pinv(0.975, df4) * 300 * sqrt(s2 + w4), 1e-8);
    CHECK_NEAR_REL(c.lv[3].half95, gsl_cdf_tdist_Pinv(0.975, df8) * 310 * sqrt(s2 + w8), 1e-8);
    CHECK(c.lv[2].half95 > 6 && c.lv[3].half95 > 9);
    curve_destroy(&c);
    /* without replicates a point's own interval is the level's (within-run only) */
    {
        struct curve_obs q[2] = {{4, 300, 6, NAN, 19, 0, 0}, {8, 310, 9, NAN, 0, 0, 0}};
        CHECK_INT_EQ(curve_init(&c, q, 2, &spec, NULL, err, sizeof err), CURVE_OK);
        CHECK_NEAR_REL(c.lv[0].half95, 6, 1e-12);
        CHECK_NEAR_REL(c.lv[1].half95, 9, 1e-12);
        curve_destroy(&c);
    }
    CHECK_INT_EQ(curve_init(&c, o, 7, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK(curve_level_at(&c, 4) == &c.lv[2]);
    CHECK(curve_level_at(&c, 3) == NULL);
    /* the fit sees every observation, sorted by x */
    CHECK_NEAR(c.obs_n[0], 1, 0);
    CHECK_NEAR(c.obs_n[6], 8, 0);
    curve_destroy(&c);
    /* too few */
    CHECK_INT_EQ(curve_init(&c, o, 1, &spec, NULL, err, sizeof err), CURVE_EINVAL);
    CHECK(strstr(err, "at least 2") != NULL);
}

/* From points: auto x axis (nodes when every point has >= 2 distinct counts), qps, errors. */
/* A level record of the probe's passes pools its replicates: they leave the curve's points (to
 * the group's pooled list) and the level is the record's own mean and interval, not pooled again;
 * a replicate it does not list (another started_at, or another tps) stays. */
static void test_level_records(void)
{
    struct point_list l;
    struct curve_groups g;
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    char err[320];
    static const char *const at[3] = {"2026-12-01T10:00:00Z", "2026-12-01T10:01:00Z",
                                      "2026-12-01T10:02:00Z"};
    double tps[3] = {1000, 1100, 1050};
    json_t *pooled = json_array();
    point_list_init(&l);
    for (int i = 0; i < 3; i++) {
        add(&l, "t", "w", 4, tps[i], NULL);
        point_set_str(&l.items[i].started_at, at[i]);
        l.items[i].ci95_tps = 20;
        json_array_append_new(
            pooled, json_pack("{s:s,s:f,s:i}", "started_at", at[i], "tps", tps[i], "pass", i + 1));
    }
    add(&l, "t", "w", 8, 1500, NULL); /* another level, measured once */
    add(&l, "t", "w", 4, 1050, NULL); /* the level record: mean 1050, +/- 140 with 2.5 df */
    l.items[4].ci95_tps = 140;
    l.items[4].extra = json_pack("{s:{s:s,s:i,s:f,s:o}}", "interval", "method", "replicates",
                                 "replicates", 3, "df", 2.5, "pooled", pooled);
    add(&l, "t", "w", 4, 990, NULL); /* a later run of level 4, not pooled by the record */
    point_set_str(&l.items[5].started_at, at[0]);
    CHECK_INT_EQ(curve_groups_build(&g, &l, NULL), CURVE_OK);
    CHECK_INT_EQ(g.n, 1);
    CHECK_INT_EQ(g.g[0].n, 3);
    CHECK_INT_EQ(g.g[0].idx[0], 3);
    CHECK_INT_EQ(g.g[0].idx[1], 4);
    CHECK_INT_EQ(g.g[0].idx[2], 5);
    CHECK_INT_EQ(g.g[0].n_pooled, 3);
    CHECK_INT_EQ(g.g[0].pooled[0], 0);
    CHECK_INT_EQ(g.g[0].pooled[2], 2);
    CHECK_INT_EQ(g.g[0].n_excluded, 0);
    /* the record alone at its level: taken as recorded */
    {
        size_t idx[2] = {3, 4};
        spec.lat_pct = CURVE_LAT_NONE;
        CHECK_INT_EQ(curve_init_points(&c, &l, idx, 2, &spec, NULL, err, sizeof err), CURVE_OK);
        CHECK_NEAR_REL(c.lv[0].x, 1050, 1e-12);
        CHECK_NEAR_REL(c.lv[0].half95, 140, 1e-9);
        curve_destroy(&c);
    }
    /* curve_levels_points: the same levels without a fit, and one point alone */
    {
        struct curve_level lv[3];
        size_t n = 9;
        CHECK_INT_EQ(curve_init_points(&c, &l, g.g[0].idx, 3, &spec, NULL, err, sizeof err),
                     CURVE_OK);
        CHECK_INT_EQ(curve_levels_points(&l, g.g[0].idx, 3, &spec, lv, &n, err, sizeof err),
                     CURVE_OK);
        CHECK_INT_EQ(n, c.m);
        CHECK_INT_EQ(n, 2);
        for (size_t i = 0; i < n && i < c.m; i++) {
            CHECK_NEAR(lv[i].n, c.lv[i].n, 0);
            CHECK_NEAR(lv[i].x, c.lv[i].x, 0);
            CHECK(lv[i].half95 == c.lv[i].half95 || (isnan(lv[i].half95) && isnan(c.lv[i].half95)));
            CHECK_INT_EQ(lv[i].reps, c.lv[i].reps);
        }
        CHECK_NEAR_REL(lv[0].x, (1050 + 990) / 2.0, 1e-12); /* the record and the later run */
        CHECK_INT_EQ(lv[0].reps, 2);
        curve_destroy(&c);
        CHECK_INT_EQ(curve_levels_points(&l, g.g[0].idx, 1, &spec, lv, &n, err, sizeof err),
                     CURVE_OK);
        CHECK_INT_EQ(n, 1);
        CHECK_NEAR(lv[0].x, 1500, 0);
        CHECK(isnan(lv[0].half95)); /* one run, no interval of its own */
        CHECK_INT_EQ(curve_levels_points(&l, g.g[0].idx, 0, &spec, lv, &n, err, sizeof err),
                     CURVE_EINVAL);
        CHECK_INT_EQ(n, 0);
    }
    curve_groups_destroy(&g);
    point_list_destroy(&l);
}

static void test_from_points(void)
{
    struct point_list l;
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    size_t idx[4] = {0, 1, 2, 3};
    char err[320];
    point_list_init(&l);
    for (int i = 0; i < 4; i++) {
        add(&l, "t", "w", 120 * (2 << i), 1000.0 * (2 << i), NULL);
        l.items[i].nodes = 2 << i;
        l.items[i].qps = 20 * l.items[i].tps;
        l.items[i].latency_ms.avg = 8;
    }
    spec.x = CURVE_X_AUTO;
    CHECK_INT_EQ(curve_init_points(&c, &l, idx, 4, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK_INT_EQ(c.by_nodes, 1);
    CHECK_NEAR(c.lv[0].n, 2, 0);
    CHECK_NEAR_REL(c.lv[0].lat_s, 0.008, 1e-12);
    CHECK_STR_EQ(curve_x_name(&c), "nodes");
    curve_destroy(&c);
    spec.x = CURVE_X_THREADS;
    spec.qps = 1;
    CHECK_INT_EQ(curve_init_points(&c, &l, idx, 4, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK_NEAR(c.lv[0].n, 240, 0);
    CHECK_NEAR_REL(c.lv[0].x, 40000, 1e-12);
    curve_destroy(&c);
    l.items[2].tps = NAN;
    spec.qps = 0;
    CHECK_INT_EQ(curve_init_points(&c, &l, idx, 4, &spec, NULL, err, sizeof err), CURVE_EINVAL);
    CHECK(strstr(err, "point at threads 960 has no positive tps") != NULL);
    point_list_destroy(&l);
}

static double usl(double l, double s, double k, double n)
{
    return l * n / (1 + s * (n - 1) + k * n * (n - 1));
}

/* A curve from exact values at n[0..m-1], no latency (Little's law for mean targets). */
static int build(struct curve *c, const double *n, const double *x, size_t m)
{
    struct curve_obs o[32];
    struct curve_spec spec = curve_spec_default();
    char err[256];
    for (size_t i = 0; i < m; i++) {
        o[i].n = n[i];
        o[i].x = x[i];
        o[i].ci95_x = NAN;
        o[i].lat_s = NAN;
        o[i].ci95_df = 0;
        o[i].pooled = 0;
    }
    return curve_init(c, o, m, &spec, NULL, err, sizeof err);
}

/* USL with N* = sqrt(0.9 / 0.0005) = 42.4 below the first level (100..1000): falling, the USL
 * converges and describes it, and its peak is reported below the range. */
static void test_usl_below_first(void)
{
    double n[8] = {100, 200, 300, 400, 600, 800, 900, 1000}, x[8];
    struct curve c;
    for (int i = 0; i < 8; i++)
        x[i] = usl(1000, 0.1, 0.0005, n[i]);
    CHECK_INT_EQ(build(&c, n, x, 8), CURVE_OK);
    CHECK_INT_EQ(c.shape.cls, SHAPE_FALLING);
    CHECK(c.fitted && c.fit.kind == MODEL_USL);
    CHECK(c.use_model);
    CHECK(c.peak.has && c.peak.from_model && c.peak.below_range);
    CHECK_NEAR_REL(c.peak.n.value, sqrt(0.9 / 0.0005), 1e-4);
    curve_destroy(&c);
}

/* N* = 30.8 inside 1..64: peaked, the model's peak between the levels next to the best (32). */
static void test_usl_inside(void)
{
    double n[7] = {1, 2, 4, 8, 16, 32, 64}, x[7];
    struct curve c;
    for (int i = 0; i < 7; i++)
        x[i] = usl(100, 0.05, 0.001, n[i]);
    CHECK_INT_EQ(build(&c, n, x, 7), CURVE_OK);
    CHECK_INT_EQ(c.shape.cls, SHAPE_PEAKED);
    CHECK_INT_EQ(c.shape.best, 5);
    CHECK(c.peak.has && c.peak.from_model && !c.peak.below_range);
    CHECK_NEAR_REL(c.peak.n.value, sqrt(0.95 / 0.001), 1e-6);
    CHECK(c.peak.n.value >= 16 && c.peak.n.value <= 64);
    curve_destroy(&c);
}

/* N* = 308 beyond 1..128: X(128) / X(64) = 1.116, a gain beyond the noise: rising, no peak. */
static void test_usl_beyond(void)
{
    double n[8] = {1, 2, 4, 8, 16, 32, 64, 128}, x[8];
    struct curve c;
    for (int i = 0; i < 8; i++)
        x[i] = usl(100, 0.05, 1e-5, n[i]);
    CHECK_INT_EQ(build(&c, n, x, 8), CURVE_OK);
    CHECK_INT_EQ(c.shape.cls, SHAPE_RISING);
    CHECK(c.use_model);
    CHECK(!c.peak.has);
    curve_destroy(&c);
}

/* A cliff: 100 N up to 8 threads, then 150 and 140 tps: the drop 800 -> 150 has log-log slope
 * ln(150/800)/ln 2 = -2.4 < -2 and is 16 x its noise: a collapse; the model sees 1..8 only and
 * a target every level meets is answered at 8, never beyond. */
static void test_cliff(void)
{
    double n[6] = {1, 2, 4, 8, 16, 32}, x[6] = {100, 200, 400, 800, 150, 140};
    struct curve c;
    struct curve_at a;
    struct slo slo = {0, 10.0};
    char t[400];
    CHECK_INT_EQ(build(&c, n, x, 6), CURVE_OK);
    CHECK_INT_EQ(c.shape.cls, SHAPE_COLLAPSE);
    CHECK_INT_EQ(c.shape.collapse_at, 3);
    CHECK_INT_EQ(c.fit_hi, 3);
    CHECK(strstr(curve_shape_text(&c, t, sizeof t),
                 "throughput collapses between 8 and 16 threads (800 -> 150 tps)") != NULL);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_INT_EQ(a.status, CURVE_MET);
    CHECK_NEAR(a.n, 8, 0);
    CHECK_NEAR(a.x.value, 800, 1e-9);
    CHECK_INT_EQ(a.binds, CURVE_BINDS_COLLAPSE);
    CHECK(!a.met_everywhere);
    curve_destroy(&c);
}

/* Superlinear 1 -> 2 (500 tps, then Amdahl 4000 N / (1 + 0.5 (N - 1)): 5333 at 2), saturating
 * at 7758 by 32: the first level is left out of the fit, so the knee is Amdahl's 1/sigma = 2,
 * not the first point, and a target every level meets is answered at the best level. */
static void test_superlinear_start(void)
{
    double n[6] = {1, 2, 4, 8, 16, 32}, x[6];
    struct curve c;
    struct curve_at a;
    struct slo slo = {0, 10.0};
    x[0] = 500;
    for (int i = 1; i < 6; i++)
        x[i] = 4000 * n[i] / (1 + 0.5 * (n[i] - 1));
    CHECK_INT_EQ(build(&c, n, x, 6), CURVE_OK);
    CHECK(c.shape.superlinear_start);
    CHECK_NEAR_REL(c.shape.start_ratio, x[1] / x[0], 1e-12);
    CHECK_INT_EQ(c.shape.cls, SHAPE_PLATEAU);
    CHECK_INT_EQ(c.fit_lo, 1);
    CHECK(c.use_model);
    CHECK_NEAR_REL(c.derived.knee.value, 2, 1e-6);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_NEAR(a.n, 32, 0);
    CHECK_NEAR_REL(a.x.value, x[5], 1e-12);
    CHECK(a.met_everywhere);
    curve_destroy(&c);
}

/* Flat at 1000 tps with 1 % noise (a fixed pattern): R^2 says nothing, the residuals (within
 * 2 % of the throughput) say the model describes it; a plateau without a peak. */
static void test_flat(void)
{
    static const double z[8] = {0.8, -1.1, 0.3, 1.4, -0.6, -1.5, 0.9, -0.2};
    double n[8] = {1, 2, 4, 8, 16, 32, 64, 128}, x[8];
    struct curve c;
    for (int i = 0; i < 8; i++)
        x[i] = 1000 * (1 + 0.01 * z[i]);
    CHECK_INT_EQ(build(&c, n, x, 8), CURVE_OK);
    CHECK_INT_EQ(c.shape.cls, SHAPE_PLATEAU);
    CHECK(c.use_model);
    CHECK(c.check.max_rel < 0.03);
    CHECK(!c.peak.has);
    curve_destroy(&c);
}

/* Pure linear 100 N: rising; beyond the data only the model, labelled with how far; the search
 * stays in the measured range unless asked, and says the target is met at every level. */
static void test_linear(void)
{
    double n[7] = {1, 2, 4, 8, 16, 32, 64}, x[7];
    struct curve c;
    struct curve_value v;
    struct curve_at a;
    struct slo slo = {0, 10.0};
    for (int i = 0; i < 7; i++)
        x[i] = 100 * n[i];
    CHECK_INT_EQ(build(&c, n, x, 7), CURVE_OK);
    CHECK_INT_EQ(c.shape.cls, SHAPE_RISING);
    CHECK(c.use_model && !c.peak.has);
    CHECK_INT_EQ(curve_throughput(&c, 256, &v), CURVE_OK);
    CHECK_INT_EQ(v.basis, CURVE_BASIS_EXTRAPOLATED);
    CHECK_NEAR_REL(v.beyond, 4, 1e-12);
    CHECK_NEAR_REL(v.x.value, 25600, 1e-9);
    CHECK_INT_EQ(curve_throughput(&c, 24, &v), CURVE_OK);
    CHECK_INT_EQ(v.basis, CURVE_BASIS_INTERPOLATED);
    CHECK_NEAR_REL(v.x.value, 2400, 1e-9);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_NEAR(a.n, 64, 0);
    CHECK_INT_EQ(a.x_basis, CURVE_BASIS_MEASURED);
    CHECK_INT_EQ(a.binds, CURVE_BINDS_RANGE);
    CHECK(a.met_everywhere);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 2, &a), CURVE_OK);
    CHECK_NEAR_REL(a.n, 128, 1e-12);
    CHECK_INT_EQ(a.x_basis, CURVE_BASIS_EXTRAPOLATED);
    CHECK_NEAR_REL(a.x.value, 12800, 1e-9);
    curve_destroy(&c);
}

/* No model describes the points: the measured curve, linear in log N between levels, with the
 * levels' intervals interpolated; a level's figure is its mean inside its own interval. */
static void test_measured_curve(void)
{
    double n[5] = {1, 2, 3, 4, 8}, x[5] = {655, 3618, 2783, 2864, 2808};
    struct curve c;
    struct curve_value v;
    double t = log(6.0 / 4) / log(8.0 / 4);
    CHECK_INT_EQ(build(&c, n, x, 5), CURVE_OK);
    CHECK(c.shape.superlinear_start);
    CHECK_INT_EQ(c.shape.cls, SHAPE_PEAKED);
    CHECK(!c.use_model);
    CHECK(c.peak.has && !c.peak.from_model);
    CHECK_NEAR(c.peak.n.value, 2, 0);
    CHECK_INT_EQ(curve_throughput(&c, 6, &v), CURVE_OK);
    CHECK_INT_EQ(v.from_model, 0);
    CHECK_NEAR_REL(v.x.value, 2864 + t * (2808 - 2864), 1e-12);
    CHECK_NEAR_REL(v.x.lo, 0.95 * 2864 + t * (0.95 * 2808 - 0.95 * 2864), 1e-12);
    CHECK_INT_EQ(curve_throughput(&c, 2, &v), CURVE_OK);
    CHECK_NEAR(v.x.value, 3618, 0);
    CHECK(v.x.lo < 3618 && v.x.hi > 3618);
    CHECK_INT_EQ(curve_throughput(&c, 16, &v), CURVE_OK);
    CHECK(isnan(v.x.value)); /* no model to carry it beyond the data */
    curve_destroy(&c);
}

/* Points predicted for a configuration: the same curve, every figure labelled predicted. */
static void test_predicted(void)
{
    struct curve_obs o[4] = {{1, 100, NAN, NAN, 0, 0, 0},
                             {2, 190, NAN, NAN, 0, 0, 0},
                             {4, 350, NAN, NAN, 0, 0, 0},
                             {8, 600, NAN, NAN, 0, 0, 0}};
    struct curve_spec spec = curve_spec_default();
    struct curve c;
    struct curve_value v;
    char err[256];
    spec.source = CURVE_SOURCE_PREDICTED;
    CHECK_INT_EQ(curve_init(&c, o, 4, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK_INT_EQ(curve_throughput(&c, 4, &v), CURVE_OK);
    CHECK_INT_EQ(v.basis, CURVE_BASIS_PREDICTED);
    CHECK_NEAR(v.x.value, 350, 0);
    CHECK_INT_EQ(curve_throughput(&c, 3, &v), CURVE_OK);
    CHECK_INT_EQ(v.basis, CURVE_BASIS_PREDICTED);
    curve_destroy(&c);
}

/* Latency's noise (issue 28.3): a level's relative interval of its latency, and the answer at
 * a target widened to where a rerun could cross it. Two levels measured once each, n = 1 and 4,
 * 100 and 300 tps with ci95 10 %, p95 5 and 20 ms: their latencies carry +/- 10 % (Little's
 * law: the throughput's), the latency is linear between them (two points) and the throughput
 * linear in log n (the measured curve). At p95 <= 10 ms the crossing is at n = 2: 200 tps
 * [180, 220]. The latency at its 95 % upper bound, 1.1 L(n), crosses at L = 10 / 1.1, n =
 * 1 + (10/1.1 - 5) / 5; at its lower bound, 0.9 L(n), at n = 1 + (10/0.9 - 5) / 5: the interval
 * reaches the lower end of the first and the upper end of the second. The latency at the answer
 * is 10 ms [9, 11], and it meets the target with P = 0.5 (a crossing). Three replicates of
 * latency 9, 10, 11 ms give t(0.975, 2) x 1 / sqrt(3) / 10 (more than their throughput's). */
static void test_latency_noise(void)
{
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    struct curve_at at;
    struct slo slo = {95, 0.010};
    char err[256];
    struct curve_obs o[2] = {{1, 100, 10, 0.005, 0, 0, 0}, {4, 300, 30, 0.020, 0, 0, 0}};
    double n_lo = 1 + (0.010 / 1.1 - 0.005) / 0.005, n_hi = 1 + (0.010 / 0.9 - 0.005) / 0.005;
    double w_lo = log(n_lo) / log(4), w_hi = log(n_hi) / log(4);
    spec.lat_pct = 95;
    CHECK_INT_EQ(curve_init(&c, o, 2, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK(!c.use_model);
    CHECK_NEAR(c.lv[0].lat_rel95, 0.1, 1e-12);
    CHECK_NEAR(c.lv[1].lat_rel95, 0.1, 1e-12);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &at), CURVE_OK);
    CHECK_INT_EQ(at.status, CURVE_MET);
    CHECK_NEAR(at.n, 2, 1e-9);
    CHECK_NEAR(at.x.value, 200, 1e-6);
    CHECK_NEAR(at.x.lo, 90 + 180 * w_lo, 1e-6);
    CHECK_NEAR(at.x.hi, 110 + 220 * w_hi, 1e-6);
    CHECK(at.x.lo < 180 && at.x.hi > 220);
    CHECK_NEAR(at.latency_s, 0.010, 1e-9);
    CHECK_NEAR(at.latency_lo_s, 0.009, 1e-9);
    CHECK_NEAR(at.latency_hi_s, 0.011, 1e-9);
    CHECK_NEAR(at.p_meets, 0.5, 1e-6);
    /* at p95 <= 25 ms the answer is the last level (20 ms, the range binds): P = Phi((25 - 20) /
     * (0.1 x 20 / 1.959964)) */
    slo.target_s = 0.025;
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &at), CURVE_OK);
    CHECK_NEAR(at.n, 4, 0);
    CHECK_NEAR(at.p_meets, gsl_cdf_ugaussian_P(5 / (2 / 1.959963984540054)), 1e-9);
    curve_destroy(&c);
    {
        struct curve_obs q[4] = {{1, 100, 1, 0.009, 0, 0, 0},
                                 {1, 100, 1, 0.010, 0, 0, 0},
                                 {1, 100, 1, 0.011, 0, 0, 0},
                                 {2, 190, 2, 0.012, 0, 0, 0}};
        CHECK_INT_EQ(curve_init(&c, q, 4, &spec, NULL, err, sizeof err), CURVE_OK);
        CHECK_NEAR(c.lv[0].lat_rel95, gsl_cdf_tdist_Pinv(0.975, 2) * 0.001 / sqrt(3) / 0.010, 1e-9);
        curve_destroy(&c);
    }
    /* without a measured latency (Little's law on the curve) nothing is added */
    spec.lat_pct = 0;
    o[0].lat_s = o[1].lat_s = NAN;
    slo.pct = 0;
    slo.target_s = 0.010;
    CHECK_INT_EQ(curve_init(&c, o, 2, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &at), CURVE_OK);
    CHECK(isnan(at.p_meets) && isnan(at.latency_lo_s));
    curve_destroy(&c);
}

int main(void)
{
    gsl_set_error_handler_off();
    test_rule();
    test_groups();
    test_groups_duplicates();
    test_groups_duplicates_pooled();
    test_levels();
    test_level_records();
    test_from_points();
    test_usl_below_first();
    test_usl_inside();
    test_usl_beyond();
    test_cliff();
    test_superlinear_start();
    test_flat();
    test_linear();
    test_measured_curve();
    test_predicted();
    test_latency_noise();
    return check_report();
}
