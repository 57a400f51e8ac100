/*
 * test_curve.c - advisor/curve.h: which points count, grouping, replicates pooled into levels.
 *
 * Expected values are computed here from the points with the formulas of curve.h:
 *   level mean = arithmetic mean of the replicates;
 *   half-width = t(0.975, r-1) s / sqrt(r) (t quantiles from the tables: t(0.975, 1) = 12.7062,
 *   t(0.975, 2) = 4.30265), or sqrt(sum ci95^2) / r from the points' own intervals.
 */
#include "check.h"
#include "curve.h"

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

/* Replicates pool into levels: mean and the between-replicate half-width. */
static void test_levels(void)
{
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    char err[256];
    /* 3 replicates at 1, 2 at 2, one at 4 and 8 with a calibrated ci95 */
    struct curve_obs o[7] = {{1, 100, NAN, NAN}, {2, 190, NAN, NAN}, {1, 104, NAN, NAN},
                             {4, 300, 6, NAN},   {1, 96, NAN, NAN},  {2, 200, NAN, NAN},
                             {8, 310, 9, NAN}};
    spec.lat_pct = CURVE_LAT_NONE;
    CHECK_INT_EQ(curve_init(&c, o, 7, &spec, NULL, err, sizeof err), CURVE_OK);
    CHECK_INT_EQ(c.m, 4);
    CHECK_INT_EQ(c.n_obs, 7);
    CHECK_NEAR(c.lv[0].n, 1, 0);
    CHECK_NEAR_REL(c.lv[0].x, 100, 1e-12);
    CHECK_INT_EQ(c.lv[0].reps, 3);
    /* s = 4 (deviations -0, +4, -4 around 100: s^2 = 32/2): 4.30265 * 4 / sqrt(3) */
    CHECK_NEAR_REL(c.lv[0].half95, 4.30265 * 4 / sqrt(3), 1e-5);
    /* 190, 200: s = 7.0711; 12.7062 * 7.0711 / sqrt(2) = 63.531 */
    CHECK_NEAR_REL(c.lv[1].x, 195, 1e-12);
    CHECK_NEAR_REL(c.lv[1].half95, 12.7062 * sqrt(50) / sqrt(2), 1e-5);
    /* one point with its own interval */
    CHECK_NEAR_REL(c.lv[2].half95, 6, 1e-12);
    CHECK_NEAR_REL(c.lv[3].half95, 9, 1e-12);
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

int main(void)
{
    gsl_set_error_handler_off();
    test_rule();
    test_groups();
    test_levels();
    test_from_points();
    return check_report();
}
