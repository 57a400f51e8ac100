/*
 * test_suite_rank.c - rank --suite's ranking (advisor/rank/suite_rank.h) with the bundled
 * data/catalogs/published.json: cost per run = the catalog's cost per hour (cat_config_cost) x
 * the suite's total seconds (summed here from the fixture's rows) / 3600; complete runs by cost,
 * a run with a failed query after them; the time rank; a target priced on a second configuration
 * with its measured times ("same times").
 */
#include "check.h"
#include "cost.h"
#include "suite_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double per_hour(const struct cat_catalog *cat, const char *id)
{
    struct cat_cost c;
    struct cat_error err;
    return cat_config_cost(cat, id, CAT_PRICING_ON_DEMAND, 0, &c, &err) == CAT_OK ? c.per_hour
                                                                                  : NAN;
}

static void three_configs(const struct cat_catalog *cat)
{
    struct suite_list runs;
    struct suite_ranking_set s;
    char err[512];
    double tot_idc = 12.40 + 1.10 + 8.75 + 3.05, tot_essd = 10.90 + 0.95 + 7.20 + 2.80;
    double c_idc = per_hour(cat, "idc-nvme") * tot_idc / 3600;
    double c_essd = per_hour(cat, "cloud-essd") * tot_essd / 3600;
    suite_list_init(&runs);
    suite_ranking_init(&s);
    CHECK_INT_EQ(
        suite_read_file("tests/fixtures/suite/two-configs.md", NULL, &runs, err, sizeof err),
        SUITE_OK);
    CHECK_INT_EQ(suite_ranking_build(&s, &runs, cat, CAT_PRICING_ON_DEMAND, NULL, 0, NULL, NULL),
                 0);
    CHECK_INT_EQ(s.n, 1);
    if (s.n == 1 && s.r[0].n == 3) {
        const struct suite_rank_row *r = s.r[0].rows;
        CHECK_STR_EQ(s.r[0].suite, "tpch");
        /* idc-nvme is far cheaper per hour: cheaper per run although slower */
        CHECK(c_idc < c_essd);
        CHECK_STR_EQ(r[0].config, "idc-nvme");
        CHECK_NEAR(r[0].cost_per_run, c_idc, 1e-12);
        CHECK_NEAR(r[0].total_s, tot_idc, 1e-9);
        CHECK_INT_EQ(r[0].rank_cost, 1);
        CHECK_INT_EQ(r[0].rank_time, 2); /* cloud-essd is the fastest complete run */
        CHECK_STR_EQ(r[1].config, "cloud-essd");
        CHECK_NEAR(r[1].cost_per_run, c_essd, 1e-12);
        CHECK_INT_EQ(r[1].rank_time, 1);
        CHECK(r[0].measured_on == NULL && r[1].measured_on == NULL);
        /* cloud-ssd's Q3 timed out: last, whatever its partial cost, and last by time */
        CHECK_STR_EQ(r[2].config, "cloud-ssd");
        CHECK_INT_EQ(r[2].n_failed, 1);
        CHECK_INT_EQ(r[2].rank_cost, 3);
        CHECK_INT_EQ(r[2].rank_time, 3);
        CHECK_NEAR(r[2].total_s, 14.10 + 1.30 + 3.60, 1e-9);
        CHECK(r[2].total_s < tot_essd); /* a shorter partial total does not rank it higher */
    } else {
        CHECK(0);
    }
    suite_ranking_destroy(&s);
    suite_list_destroy(&runs);
}

static void same_times(const struct cat_catalog *cat)
{
    struct suite_list runs;
    struct suite_ranking_set s;
    struct rank_map map = {"klustron-3x32c", "klustron-3x-i3.8xlarge"};
    char err[512];
    suite_list_init(&runs);
    suite_ranking_init(&s);
    CHECK_INT_EQ(suite_read_file("data/published/klustron-tpch-tpcds-queries.csv", NULL, &runs, err,
                                 sizeof err),
                 SUITE_OK);
    CHECK_INT_EQ(suite_ranking_build(&s, &runs, cat, CAT_PRICING_ON_DEMAND, &map, 1, "tpch", NULL),
                 0);
    CHECK_INT_EQ(s.n, 1); /* --workload tpch: the TPC-DS run is left out */
    if (s.n == 1 && s.r[0].n == 2) {
        const struct suite_rank_row *r = s.r[0].rows;
        double onprem = per_hour(cat, "klustron-3x32c"),
               cloud = per_hour(cat, "klustron-3x-i3.8xlarge");
        CHECK_NEAR(cloud, 3 * 2.496, 1e-12); /* 3 x i3.8xlarge on-demand */
        CHECK_STR_EQ(r[0].config, onprem < cloud ? "klustron-3x32c" : "klustron-3x-i3.8xlarge");
        CHECK_NEAR(r[0].cost_per_run, fmin(onprem, cloud) * 3997.49 / 3600, 1e-12);
        CHECK_NEAR(r[1].cost_per_run, fmax(onprem, cloud) * 3997.49 / 3600, 1e-12);
        for (size_t i = 0; i < 2; i++) {
            if (strcmp(r[i].config, "klustron-3x-i3.8xlarge") == 0)
                CHECK_STR_EQ(r[i].measured_on, "klustron-3x32c");
            else
                CHECK(r[i].measured_on == NULL);
            CHECK_INT_EQ(r[i].rank_time, 1); /* the same times: a tie */
        }
        CHECK(r[0].cost_estimate || r[1].cost_estimate); /* the on-premises cost is estimated */
    } else {
        CHECK(0);
    }
    suite_ranking_destroy(&s);
    CHECK_INT_EQ(suite_ranking_build(&s, &runs, cat, CAT_PRICING_ON_DEMAND, NULL, 0, "tpcx", NULL),
                 -1);
    suite_ranking_destroy(&s);
    suite_list_destroy(&runs);
}

int main(void)
{
    struct cat_catalog *cat = cat_catalog_new();
    struct cat_error err;
    CHECK_INT_EQ(cat_catalog_add_file(cat, "data/catalogs/published.json", &err), CAT_OK);
    three_configs(cat);
    same_times(cat);
    cat_catalog_free(cat);
    return check_report();
}
