/*
 * test_cost.c - disk rules and cost arithmetic against hand-computed values.
 *
 * Disk formulas: docs/reference/catalogs.md section 3 (Alibaba "ESSDs" and "ESSD AutoPL disks" user
 * guides, Huawei "EVS Overview", AWS EBS volume types); EBS prices: infracost golden test
 * ebs_volume_test.golden (40 GB gp3 -> $3.20, 1,000 extra IOPS -> $5.00, 5 extra MB/s -> $0.20,
 * 10 GB gp2 -> $1.00, 30 GB io2 -> $3.75, 300 IOPS -> $19.50). On-premises formula: cost.h
 * (docs/reference/catalogs.md section 5). Every expected value below is worked out by hand in its
 * comment.
 */
#include "catalog.h"
#include "check.h"
#include "cost.h"
#include "disk_perf.h"

#include <math.h>
#include <string.h>

static struct cat_catalog *load(const char *path)
{
    struct cat_catalog *c = cat_catalog_new();
    struct cat_error err;
    int rc = cat_catalog_add_file(c, path, &err);
    if (rc != CAT_OK)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_INT_EQ(rc, CAT_OK);
    return c;
}

/* IOPS and MB/s of disk id at size with provisioning; -1 when refused. */
static void perf(const struct cat_catalog *c, const char *id, double gib, double piops, double ptp,
                 double want_iops, double want_mb_s)
{
    const struct cat_disk *d = cat_find_disk(c, id);
    struct cat_disk_perf p;
    char msg[300];
    int rc;
    CHECK(d != NULL);
    if (!d)
        return;
    rc = cat_disk_performance(d, gib, piops, ptp, &p, msg, sizeof msg);
    if (want_iops < 0) {
        CHECK_INT_EQ(rc, CAT_EINVAL);
        return;
    }
    if (rc != CAT_OK)
        fprintf(stderr, "%s\n", msg);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_NEAR(p.iops, want_iops, 1e-9);
    CHECK_NEAR(p.throughput_mb_s, want_mb_s, 1e-9);
}

static void test_disk_rules(void)
{
    struct cat_catalog *b = load("data/catalogs/batch.json");
    struct cat_catalog *p = load("data/catalogs/published.json");

    /* Alibaba ESSD PL1: min{1800 + 50C, 50000}, min{120 + 0.5C, 350} */
    perf(b, "alibaba-essd-pl1", 500, 0, 0, 26800, 350); /* 1800+25000; 120+250 -> 350 */
    perf(b, "alibaba-essd-pl1", 460, 0, 0, 24800, 350); /* throughput breakpoint */
    perf(b, "alibaba-essd-pl1", 964, 0, 0, 50000, 350); /* IOPS breakpoint: 1800+48200 */
    perf(b, "alibaba-essd-pl1", 100, 0, 0, 6800, 170);  /* 1800+5000; 120+50 */
    perf(b, "alibaba-essd-pl1", 10, 0, 0, -1, -1);      /* below 20 GiB */
    /* PL0: min{1800 + 12C, 10000}, min{100 + 0.25C, 180} */
    perf(b, "alibaba-essd-pl0", 100, 0, 0, 3000, 125);   /* 1800+1200; 100+25 */
    perf(b, "alibaba-essd-pl0", 1000, 0, 0, 10000, 180); /* 13800 -> 10000; 350 -> 180 */
    /* PL2: min{1800 + 50C, 100000}, min{120 + 0.5C, 750} */
    perf(b, "alibaba-essd-pl2", 1000, 0, 0, 51800, 620);
    perf(b, "alibaba-essd-pl2", 400, 0, 0, -1, -1); /* below 461 GiB */
    /* PL3: min{1800 + 50C, 1000000}, min{120 + 0.5C, 4000} */
    perf(b, "alibaba-essd-pl3", 2000, 0, 0, 101800, 1120);
    perf(b, "alibaba-essd-pl3", 32768, 0, 0, 1000000, 4000); /* 1640200 -> cap; 16504 -> cap */
    /* AutoPL: max{min{1800 + 50C, 50000}, 3000}; max{min{120 + 0.5C, 350}, 125};
     * provisioned P <= min{1000C - baseline, 50000}, adds 16/1024 MB/s each */
    perf(b, "alibaba-essd-autopl", 20, 0, 0, 3000, 130); /* 2800 -> floor 3000; 130 */
    perf(b, "alibaba-essd-autopl", 40, 0, 0, 3800, 140);
    perf(b, "alibaba-essd-autopl", 40, 10000, 0, 13800, 296.25);  /* 140 + 10000*16/1024 */
    perf(b, "alibaba-essd-autopl", 40, 36200, 0, 40000, 705.625); /* 1000*40 - 3800 = 36200 */
    perf(b, "alibaba-essd-autopl", 40, 36201, 0, -1, -1);
    perf(b, "alibaba-essd-autopl", 1000, 50001, 0, -1, -1); /* above 50000 provisioned */
    /* AWS gp3: 3000 IOPS / 125 MB/s included; total <= min(16000, 500C); MB/s <= 0.25 x IOPS */
    perf(b, "aws-gp3", 100, 0, 0, 3000, 125);
    perf(b, "aws-gp3", 100, 3000, 125, 6000, 250);
    perf(b, "aws-gp3", 100, 13000, 875, 16000, 1000);
    perf(b, "aws-gp3", 20, 7000, 0, 10000, 125); /* 500 x 20 = 10000: the limit exactly */
    perf(b, "aws-gp3", 20, 7001, 0, -1, -1);
    perf(b, "aws-gp3", 100, 1000, 876, -1, -1); /* 1001 MB/s > 0.25 x 4000 = 1000 */
    /* gp2: max(100, min(3C, 16000)), 250 MB/s */
    perf(b, "aws-gp2", 10, 0, 0, 100, 250);
    perf(b, "aws-gp2", 100, 0, 0, 300, 250);
    perf(b, "aws-gp2", 1000, 0, 0, 3000, 250);
    perf(b, "aws-gp2", 6000, 0, 0, 16000, 250);
    perf(b, "aws-gp2", 100, 100, 0, -1, -1); /* gp2 takes no provisioning */
    /* io2: all IOPS provisioned, 100 <= IOPS <= min(256000, 1000C); 0.256 MB/s per IOPS */
    perf(b, "aws-io2", 30, 300, 0, 300, 76.8);
    perf(b, "aws-io2", 300, 256000, 0, 256000, 4000); /* min(256000, 300000); MB/s capped */
    perf(b, "aws-io2", 100, 10000, 0, 10000, 2560);   /* 0.256 x 10000 under the cap */
    perf(b, "aws-io2", 300, 256001, 0, -1, -1);       /* above the 256000 cap */
    perf(b, "aws-io2", 100, 0, 0, -1, -1);            /* below the 100 IOPS minimum */
    /* Huawei EVS */
    perf(b, "huawei-essd", 500, 0, 0, 26800, 370);    /* min(128000, 26800); min(1000, 370) */
    perf(b, "huawei-essd", 3000, 0, 0, 128000, 1000); /* 151800 -> cap; 1620 -> cap */
    perf(b, "huawei-ssd", 1000, 0, 0, 50000, 350);    /* 51800 -> 50000; 620 -> 350 */
    perf(b, "huawei-gpssd", 500, 0, 0, 7800, 250);    /* 1800+6000; 100+250 -> 250 */
    perf(b, "huawei-sas", 500, 0, 0, 5000, 150);      /* 1800+4000 -> 5000; 175 -> 150 */
    perf(b, "huawei-sas", 100, 0, 0, 2600, 115);      /* 1800+800; 100+15 */
    perf(b, "huawei-gpssd2", 100, 2000, 100, 5000, 225);
    perf(b, "huawei-gpssd2", 100, 47000, 0, 50000, 125); /* 500 x 100 exactly */
    perf(b, "huawei-gpssd2", 100, 48000, 0, -1, -1);     /* 51000 > 500 x 100 */
    /* local NVMe: min(165C, 240000) */
    perf(b, "local-nvme-ssd", 1000, 0, 0, 165000, 200);
    perf(b, "local-nvme-ssd", 2000, 0, 0, 240000, 200);
    perf(p, "local-nvme", 500, 0, 0, 82500, 200);
    perf(p, "huawei-evs-essd", 500, 0, 0, 26800, 370);
    perf(p, "huawei-evs-ssd", 500, 0, 0, 26800, 350); /* min(350, 120 + 250) */
    cat_catalog_free(b);
    cat_catalog_free(p);
}

static double term(const struct cat_cost *c, const char *name)
{
    for (size_t i = 0; i < c->n_terms; i++)
        if (strcmp(c->terms[i].name, name) == 0)
            return c->terms[i].per_hour;
    return -1;
}

static const char *term_formula(const struct cat_cost *c, const char *name)
{
    for (size_t i = 0; i < c->n_terms; i++)
        if (strcmp(c->terms[i].name, name) == 0)
            return c->terms[i].formula;
    return "";
}

static void test_cloud_costs(void)
{
    struct cat_catalog *b = load("data/catalogs/batch.json");
    struct cat_catalog *p = load("data/catalogs/published.json");
    struct cat_cost c;
    struct cat_error err;

    /* c5.2xlarge + gp3 500 GiB: 0.34 + 500 x 0.08 / 730 */
    CHECK_INT_EQ(cat_config_cost(b, "aws-c5.2xlarge-gp3-500", CAT_PRICING_ON_DEMAND, 0, &c, &err),
                 CAT_OK);
    CHECK_NEAR(term(&c, "instance"), 0.34, 1e-12);
    CHECK_NEAR(term(&c, "disk capacity"), 40.0 / 730, 1e-12);
    CHECK_NEAR(c.per_hour, 0.34 + 40.0 / 730, 1e-12);
    CHECK_NEAR(c.per_month, 0.34 * 730 + 40.0, 1e-9); /* 248.2 + 40 = 288.2 */
    CHECK(!c.estimate);
    CHECK_NEAR(c.iops, 3000, 0);
    /* + 9000 IOPS and 375 MB/s provisioned: 9000 x 0.005 = 45, 375 x 0.04 = 15 per month */
    CHECK_INT_EQ(
        cat_config_cost(b, "aws-c5.2xlarge-gp3-500-12k", CAT_PRICING_ON_DEMAND, 0, &c, &err),
        CAT_OK);
    CHECK_NEAR(term(&c, "disk IOPS"), 45.0 / 730, 1e-12);
    CHECK_NEAR(term(&c, "disk throughput"), 15.0 / 730, 1e-12);
    CHECK_NEAR(c.per_month, 248.2 + 40 + 45 + 15, 1e-9);
    CHECK_NEAR(c.iops, 12000, 0);
    CHECK_NEAR(c.throughput_mb_s, 500, 0);
    /* io2 500 GiB, 16000 IOPS: 500 x 0.125 + 16000 x 0.065 = 62.5 + 1040 per month */
    CHECK_INT_EQ(
        cat_config_cost(b, "aws-c5.2xlarge-io2-500-16k", CAT_PRICING_ON_DEMAND, 0, &c, &err),
        CAT_OK);
    CHECK_NEAR(c.per_month, 248.2 + 62.5 + 1040, 1e-9);
    CHECK(c.estimate); /* the io2 IOPS price ignores the tiers: marked */
    /* node count override: 4 nodes cost 4 times */
    CHECK_INT_EQ(cat_config_cost(p, "monosql-c5.2xlarge", CAT_PRICING_ON_DEMAND, 4, &c, &err),
                 CAT_OK);
    CHECK_NEAR(c.per_hour, 4 * 0.34, 1e-12);
    CHECK_INT_EQ(c.nodes, 4);
    /* currency through the declared rate: 0.68 CNY/h x 0.14 USD/CNY; 280 CNY/month / 730 */
    CHECK_INT_EQ(cat_config_cost(p, "seekdb-1c2g", CAT_PRICING_ON_DEMAND, 0, &c, &err), CAT_OK);
    CHECK_NEAR(c.per_hour, 0.68 * 0.14, 1e-12);
    CHECK(c.terms[0].rate != NULL);
    CHECK_INT_EQ(cat_config_cost(p, "seekdb-4c8g", CAT_PRICING_SUBSCRIPTION_1M, 0, &c, &err),
                 CAT_OK);
    CHECK_NEAR(c.per_hour, 560 * 0.14 / 730, 1e-12);
    /* a pricing model the instance lacks */
    CHECK_INT_EQ(cat_config_cost(p, "seekdb-4c8g", CAT_PRICING_RESERVED_1Y, 0, &c, &err),
                 CAT_ENOTFOUND);
    CHECK(strstr(err.msg, "has no reserved-1y price (it has: on-demand, subscription-1m)") != NULL);
    CHECK_INT_EQ(cat_config_cost(p, "no-such-config", CAT_PRICING_ON_DEMAND, 0, &c, &err),
                 CAT_ENOTFOUND);
    /* cloud-essd: 0.192 + 500 x 0.35 / 730 */
    CHECK_INT_EQ(cat_config_cost(p, "cloud-essd", CAT_PRICING_ON_DEMAND, 0, &c, &err), CAT_OK);
    CHECK_NEAR(c.per_hour, 0.192 + 175.0 / 730, 1e-12);
    /* x2iedn: instance store only, its EBS cap is not applied to a local disk */
    CHECK_INT_EQ(
        cat_config_cost(b, "aws-x2iedn.32xlarge-local", CAT_PRICING_RESERVED_1Y, 0, &c, &err),
        CAT_OK);
    CHECK_NEAR(c.per_hour, 16.41374, 1e-12);
    CHECK_INT_EQ(c.n_terms, 1);
    cat_catalog_free(b);
    cat_catalog_free(p);
}

static const char onprem[] =
    "{\"schema\": \"sizeup.catalog/1\", \"currency\": \"USD\", \"as_of\": \"2026-12-01\",\n"
    " \"rates\": {\"EUR\": {\"rate\": 1.1, \"source\": \"test\", \"as_of\": \"2026-12-01\"}},\n"
    " \"servers\": [{\"id\": \"s\", \"vcpu\": 64, \"memory_gib\": 256,\n"
    "   \"capital\": {\"amount\": 12000, \"currency\": \"USD\", \"source\": \"t\", \"as_of\": "
    "\"2026-12-01\"},\n"
    "   \"amortisation_years\": 4, \"maintenance_rate\": 0.2, \"power_kw\": 0.5, \"pue\": 1.5,\n"
    "   \"energy_per_kwh\": {\"amount\": 0.12, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"rack_per_month\": {\"amount\": 1200, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"rack_units\": 2, \"rack_units_per_rack\": 42,\n"
    "   \"staff_per_month\": {\"amount\": 100, \"currency\": \"EUR\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"}},\n"
    "  {\"id\": \"d\", \"vcpu\": 16, \"memory_gib\": 64,\n"
    "   \"capital\": {\"amount\": 8760, \"currency\": \"USD\", \"source\": \"t\", \"as_of\": "
    "\"2026-12-01\"},\n"
    "   \"power_kw\": 0.2,\n"
    "   \"energy_per_kwh\": {\"amount\": 0.1, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"rack_per_month\": {\"amount\": 730, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"rack_units\": 1}],\n"
    " \"configs\": [{\"id\": \"whole\", \"server\": \"s\"},\n"
    "  {\"id\": \"slice\", \"server\": \"s\", \"slice\": {\"vcpu\": 8, \"memory_gib\": 64}},\n"
    "  {\"id\": \"three\", \"server\": \"d\", \"nodes\": 3}]}\n";

static void test_onprem(void)
{
    struct cat_catalog *c = cat_catalog_new();
    struct cat_cost k;
    struct cat_error err;
    int rc = cat_catalog_add_buffer(c, onprem, strlen(onprem), "onprem", &err);
    if (rc != CAT_OK)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_INT_EQ(rc, CAT_OK);
    /* whole server:
     *   capital      12000 / (4 x 8760)          = 0.3424657534
     *   maintenance  0.2 x 12000 / 8760          = 0.2739726027
     *   power        0.5 kW x 1.5 x 0.12         = 0.09
     *   rack         1200 x (2/42) / 730         = 0.0782778865
     *   staff        100 EUR x 1.1 / 730         = 0.1506849315
     *   total                                    = 0.9354011741 */
    CHECK_INT_EQ(cat_config_cost(c, "whole", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_NEAR(term(&k, "capital"), 12000.0 / 35040, 1e-12);
    CHECK_NEAR(term(&k, "maintenance"), 2400.0 / 8760, 1e-12);
    CHECK_NEAR(term(&k, "power"), 0.09, 1e-12);
    CHECK_NEAR(term(&k, "rack"), 1200.0 * 2 / 42 / 730, 1e-12);
    CHECK_NEAR(term(&k, "staff"), 110.0 / 730, 1e-12);
    CHECK_NEAR(k.per_hour, 0.9354011741, 1e-9);
    /* the same under another pricing model: an owned server has one cost */
    CHECK_INT_EQ(cat_config_cost(c, "whole", CAT_PRICING_RESERVED_3Y, 0, &k, &err), CAT_OK);
    CHECK_NEAR(k.per_hour, 0.9354011741, 1e-9);
    /* slice 8 vCPU / 64 GiB: share = max(8/64, 64/256) = 0.25 */
    CHECK_INT_EQ(cat_config_cost(c, "slice", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_NEAR(k.per_hour, 0.25 * 0.9354011741, 1e-9);
    /* defaults (5 years, 15 %/year, PUE 1.5, 42 U), 3 nodes:
     *   capital 8760/(5 x 8760) = 0.2; maintenance 0.15 x 8760/8760 = 0.15;
     *   power 0.2 x 1.5 x 0.1 = 0.03; rack 730 x (1/42) / 730 = 1/42 -> per node 0.4038095238 */
    CHECK_INT_EQ(cat_config_cost(c, "three", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_NEAR(term(&k, "capital"), 3 * 0.2, 1e-12);
    CHECK_NEAR(term(&k, "maintenance"), 3 * 0.15, 1e-12);
    CHECK_NEAR(k.per_hour, 3 * (0.2 + 0.15 + 0.03 + 1.0 / 42), 1e-12);
    CHECK_NEAR(k.per_month, 730 * 3 * (0.2 + 0.15 + 0.03 + 1.0 / 42), 1e-9);
    /* cat_server_cost: share out of range */
    CHECK_INT_EQ(cat_server_cost(c, cat_find_server(c, "s"), 1.5, &k, &err), CAT_EINVAL);
    CHECK_INT_EQ(cat_server_cost(c, cat_find_server(c, "s"), 0.5, &k, &err), CAT_OK);
    CHECK_NEAR(k.per_hour, 0.5 * 0.9354011741, 1e-9);
    cat_catalog_free(c);

    /* the bundled idc-nvme: share max(4/80, 16/384) = 0.05 of the server, packed to
     * utilisation 0.7: e = 0.05 / 0.7; $10,000, 5 y, 15 %; SPECpower curve 53.65 / 228 / 463 W
     * read at load 0.5 (228 W), PUE 1.56, $0.10/kWh; CBRE 184.06 USD/kW-month on the 463 W
     * peak; 2 ports x $20/month; 126,728 USD/y per administrator of 20 servers */
    c = load("data/catalogs/published.json");
    CHECK_INT_EQ(cat_config_cost(c, "idc-nvme", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    {
        double e = 0.05 / 0.7;
        CHECK_NEAR(term(&k, "capital"), 10000 * e / 43800, 1e-12);
        CHECK_NEAR(term(&k, "maintenance"), 0.15 * 10000 * e / 8760, 1e-12);
        CHECK_NEAR(term(&k, "power"), 0.228 * e * 1.56 * 0.1, 1e-12);
        CHECK_NEAR(term(&k, "colocation"), 0.463 * 184.06 * e / 730, 1e-12);
        CHECK_NEAR(term(&k, "network"), 2 * 20 * e / 730, 1e-12);
        CHECK_NEAR(term(&k, "staff"), 126728.0 / 20 * e / 8760, 1e-12);
        CHECK_NEAR(k.per_hour,
                   10000 * e / 43800 + 0.15 * 10000 * e / 8760 + 0.228 * e * 1.56 * 0.1 +
                       0.463 * 184.06 * e / 730 + 2 * 20 * e / 730 + 126728.0 / 20 * e / 8760,
                   1e-12);
    }
    CHECK(k.estimate);
    /* klustron-3x32c: 3 whole servers (no packing) of $10,000, R640 curve 232 W at 50 %,
     * 469 W peak */
    CHECK_INT_EQ(cat_config_cost(c, "klustron-3x32c", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_NEAR(k.per_hour,
               3 * (10000.0 / 43800 + 1500.0 / 8760 + 0.232 * 1.56 * 0.1 + 0.469 * 184.06 / 730 +
                    40.0 / 730 + 126728.0 / 20 / 8760),
               1e-12);
    cat_catalog_free(c);
}

/* The whole owned-server model (cost.h, docs/catalog-format.md "Servers"), every term given. */
static const char full[] =
    "{\"schema\": \"sizeup.catalog/1\", \"currency\": \"USD\", \"as_of\": \"2026-12-01\",\n"
    " \"disks\": [{\"id\": \"nv\", \"local\": true, \"size_gib\": {\"min\": 1, \"max\": 8192},\n"
    "   \"iops\": {\"per_gib\": 100}, \"throughput_mb_s\": {\"base\": 200}, \"source\": \"t\"}],\n"
    " \"instances\": [{\"id\": \"vm\", \"provider\": \"aws\", \"prices\": [\n"
    "   {\"pricing\": \"on-demand\", \"unit\": \"hour\", \"amount\": 0.5, \"currency\": \"USD\",\n"
    "    \"source\": \"t\", \"as_of\": \"2026-12-01\"},\n"
    "   {\"pricing\": \"reserved-1y-all-upfront\", \"unit\": \"hour\", \"amount\": 0.3,\n"
    "    \"currency\": \"USD\", \"source\": \"t\", \"as_of\": \"2026-12-01\"},\n"
    "   {\"pricing\": \"reserved-3y\", \"unit\": \"hour\", \"amount\": 0.2, \"currency\": "
    "\"USD\",\n"
    "    \"source\": \"t\", \"as_of\": \"2026-12-01\"}]}],\n"
    " \"servers\": [{\"id\": \"full\", \"vcpu\": 64, \"memory_gib\": 256,\n"
    "   \"local_disk\": {\"disk\": \"nv\", \"count\": 2, \"size_gib\": 1000},\n"
    "   \"capital\": {\"amount\": 20000, \"currency\": \"USD\", \"source\": \"t\", \"as_of\": "
    "\"2026-12-01\", \"estimate\": true, \"note\": \"n\", \"low\": 15000, \"high\": 30000},\n"
    "   \"amortisation_years\": {\"value\": 4, \"source\": \"t\", \"as_of\": \"2026-12-01\"},\n"
    "   \"maintenance_rate\": 0.1,\n"
    "   \"licence\": {\"amount\": 300, \"currency\": \"USD\", \"source\": \"t\", \"as_of\": "
    "\"2026-12-01\"}, \"licence_per\": \"core\", \"cores\": 32,\n"
    "   \"power_curve\": {\"points\": [[0, 100], [0.5, 300], [1, 500]], \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"cpu_load\": 0.25, \"pue\": 1.4,\n"
    "   \"energy_per_kwh\": {\"amount\": 0.15, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"colocation_per_kw_month\": {\"amount\": 180, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"network_per_port_month\": {\"amount\": 20, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"}, \"network_ports\": 2,\n"
    "   \"admin_cost_per_year\": {\"amount\": 120000, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"},\n"
    "   \"servers_per_admin\": {\"value\": 40, \"source\": \"t\", \"as_of\": \"2026-12-01\", "
    "\"estimate\": true, \"note\": \"n\", \"low\": 20, \"high\": 80},\n"
    "   \"storage_per_gib\": {\"amount\": 0.1, \"currency\": \"USD\", \"source\": \"t\", "
    "\"as_of\": \"2026-12-01\"}, \"storage_redundancy\": 2,\n"
    "   \"utilisation\": 0.5}],\n"
    " \"configs\": [{\"id\": \"fslice\", \"server\": \"full\", \"slice\": {\"vcpu\": 8, "
    "\"memory_gib\": 32}, \"disk\": \"nv\", \"size_gib\": 400, \"ha\": true},\n"
    "  {\"id\": \"fwhole\", \"server\": \"full\"},\n"
    "  {\"id\": \"cloud\", \"instance\": \"vm\", \"ha\": true}]}\n";

/* sum of d(t) = (1 + r)^(-t/12) over t = a..b (months) */
static double disc(double r, int a, int b)
{
    double s = 0;
    for (int t = a; t <= b; t++)
        s += pow(1 + r, -t / 12.0);
    return s;
}

static void test_full_model(void)
{
    struct cat_catalog *c = cat_catalog_new();
    struct cat_cost k;
    struct cat_error err;
    struct cat_npv v;
    double e = 0.125 / 0.5, cap, run, want;
    int rc = cat_catalog_add_buffer(c, full, strlen(full), "full", &err);
    if (rc != CAT_OK)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_INT_EQ(rc, CAT_OK);
    /* share s = max(8/64, 32/256) = 0.125, packed into a server used to 0.5: e = 0.25;
     * "ha": true on a server prices 1 standby copy: 2 copies */
    CHECK_INT_EQ(cat_config_cost(c, "fslice", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_INT_EQ(k.standby, 1);
    CHECK(k.ha && k.owned);
    CHECK_NEAR(term(&k, "capital"), 2 * 20000 * e / (4 * 8760.0), 1e-12);
    CHECK_NEAR(term(&k, "maintenance"), 2 * 0.1 * 20000 * e / 8760, 1e-12);
    CHECK_NEAR(term(&k, "licence"), 2 * 32 * 300 * e / 8760, 1e-12); /* per core, 32 cores */
    /* the formula names the price once with its unit (it printed "300 USD/y/y") */
    CHECK(strstr(term_formula(&k, "licence"), "2 x 32 cores x 300 USD/y x") != NULL);
    CHECK(strstr(term_formula(&k, "licence"), "/y/y") == NULL);
    /* the curve at load 0.25: 100 + (300 - 100) x 0.25 / 0.5 = 200 W */
    CHECK_NEAR(term(&k, "power"), 2 * 0.2 * e * 1.4 * 0.15, 1e-12);
    /* colocation per kW of the peak (the curve at load 1: 500 W) */
    CHECK_NEAR(term(&k, "colocation"), 2 * 0.5 * 180 * e / 730, 1e-12);
    CHECK_NEAR(term(&k, "network"), 2 * 2 * 20 * e / 730, 1e-12);
    CHECK_NEAR(term(&k, "staff"), 2 * 120000.0 / 40 * e / 8760, 1e-12);
    /* storage: 400 GiB x 2 (redundancy) x 0.1 USD/GiB, amortised over 4 y plus 10 %/y */
    CHECK_NEAR(term(&k, "storage"), 2 * 400 * 2 * 0.1 * (1.0 / 4 + 0.1) / 8760, 1e-12);
    CHECK_INT_EQ(k.n_terms, 8);
    want = 2 * 20000 * e / (4 * 8760.0) + 2 * 0.1 * 20000 * e / 8760 + 2 * 32 * 300 * e / 8760 +
           2 * 0.2 * e * 1.4 * 0.15 + 2 * 0.5 * 180 * e / 730 + 2 * 2 * 20 * e / 730 +
           2 * 120000.0 / 40 * e / 8760 + 2 * 400 * 2 * 0.1 * (1.0 / 4 + 0.1) / 8760;
    CHECK_NEAR(k.per_hour, want, 1e-12);
    CHECK(k.estimate);
    /* capex per purchase: the capital share and the storage */
    cap = 2 * 20000 * e + 2 * 400 * 2 * 0.1;
    CHECK_NEAR(k.capex, cap, 1e-9);

    /* NPV over 36 months at 6 %/y: one purchase at t = 0, running costs monthly, the book value
     * at 36 months of a 48-month life (1 - 36/48 of capex) credited at t = 36 */
    run = (want - cap / (4 * 8760.0)) * 730;
    CHECK_INT_EQ(cat_cost_npv(&k, 36, 0.06, &v), CAT_OK);
    CHECK_INT_EQ(v.purchases, 1);
    CHECK_NEAR(v.capital, cap, 1e-9);
    CHECK_NEAR(v.residual, cap * 0.25 * pow(1.06, -3.0), 1e-9);
    CHECK_NEAR(v.running, run * disc(0.06, 1, 36), 1e-9);
    CHECK_NEAR(v.total, cap + run * disc(0.06, 1, 36) - cap * 0.25 * pow(1.06, -3.0), 1e-9);
    /* 60 months: bought again at 48 (the refresh), 12 of 48 months used at the end */
    CHECK_INT_EQ(cat_cost_npv(&k, 60, 0.06, &v), CAT_OK);
    CHECK_INT_EQ(v.purchases, 2);
    CHECK_NEAR(v.total,
               cap + cap * pow(1.06, -4.0) + run * disc(0.06, 1, 60) - cap * 0.75 * pow(1.06, -5.0),
               1e-9);
    /* at rate 0 over exactly one life the NPV is the hourly cost x hours */
    CHECK_INT_EQ(cat_cost_npv(&k, 48, 0, &v), CAT_OK);
    CHECK_NEAR(v.total, want * 730 * 48, 1e-6);
    CHECK_INT_EQ(cat_cost_npv(&k, 0, 0.06, &v), CAT_EINVAL); /* shorter than a month */

    /* a whole server ignores the packing factor: e = 1, no standby, no storage term */
    CHECK_INT_EQ(cat_config_cost(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_NEAR(term(&k, "capital"), 20000 / (4 * 8760.0), 1e-12);
    CHECK_NEAR(term(&k, "storage"), -1, 0);
    CHECK_INT_EQ(k.standby, 0);
    /* add_standby: a configuration that is not HA gets the copies; an HA one keeps its own */
    {
        struct cat_cost_opts o = {NULL, 0, 1, 0, 0};
        CHECK_INT_EQ(cat_config_cost_x(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_NEAR(term(&k, "capital"), 2 * 20000 / (4 * 8760.0), 1e-12);
        CHECK(k.ha);
        o.add_standby = 2;
        CHECK_INT_EQ(cat_config_cost_x(c, "fslice", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_INT_EQ(k.standby, 1);
        CHECK_INT_EQ(cat_config_cost_x(c, "cloud", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err), CAT_OK);
        CHECK_INT_EQ(k.standby, 0); /* an HA instance's price includes its standby */
        CHECK_NEAR(k.per_hour, 0.5, 1e-12);
    }
    /* values_only: the same figures, terms, inputs and flags, every formula left empty; and a
     * cost built after another holds nothing of it (the terms are not cleared whole) */
    {
        static const char *const ids[] = {"fwhole", "fslice", "cloud"};
        struct cat_cost_opts o = {NULL, 0, 1, 0, 1};
        struct cat_cost whole, fig;
        for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
            o.values_only = 0;
            CHECK_INT_EQ(cat_config_cost_x(c, ids[i], CAT_PRICING_ON_DEMAND, 0, &o, &whole, &err),
                         CAT_OK);
            o.values_only = 1;
            CHECK_INT_EQ(cat_config_cost_x(c, ids[i], CAT_PRICING_ON_DEMAND, 0, &o, &fig, &err),
                         CAT_OK);
            CHECK(whole.per_hour > 0);
            CHECK_NEAR(fig.per_hour, whole.per_hour, 0);
            CHECK_INT_EQ(fig.n_terms, whole.n_terms);
            CHECK_INT_EQ(fig.n_inputs, whole.n_inputs);
            CHECK_INT_EQ(fig.estimate, whole.estimate);
            CHECK_INT_EQ(fig.standby, whole.standby);
            for (size_t t = 0; t < whole.n_terms; t++) {
                CHECK(whole.terms[t].formula[0] != '\0');
                CHECK_STR_EQ(fig.terms[t].formula, "");
                CHECK_STR_EQ(fig.terms[t].name, whole.terms[t].name);
                CHECK_NEAR(fig.terms[t].per_hour, whole.terms[t].per_hour, 0);
                CHECK(fig.terms[t].price == whole.terms[t].price);
            }
        }
        /* fig now holds "cloud"; a whole server built into it has none of its terms' state */
        CHECK_INT_EQ(cat_config_cost_x(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &o, &fig, &err),
                     CAT_OK);
        CHECK(!fig.ha || fig.standby > 0);
        CHECK_NEAR(term(&fig, "instance"), -1, 0);
        CHECK_INT_EQ(fig.has_disk, 0);
    }
    /* a measured utilisation rho at the operating point (cat_cost_opts.measured_load): the
     * curve is read at rho for a whole server, at packing x rho for a slice, and cpu_load is
     * no input then. fwhole at rho 0.8: 300 + (500 - 300) x 0.3 / 0.5 = 420 W; fslice at
     * rho 0.8 packed into a server used to 0.5: load 0.4, 100 + 200 x 0.4 / 0.5 = 260 W */
    {
        struct cat_cost_opts o = {NULL, 0, 0, 0.8, 0};
        CHECK(isnan(k.power_load)); /* the cloud configuration above: no power curve */
        CHECK_INT_EQ(cat_config_cost(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
        CHECK_NEAR(k.power_load, 0.25, 1e-12); /* the catalog's cpu_load */
        CHECK(!k.power_load_measured);
        CHECK_INT_EQ(cat_config_cost_x(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_NEAR(term(&k, "power"), 0.42 * 1 * 1.4 * 0.15, 1e-12);
        CHECK_NEAR(k.power_load, 0.8, 1e-12);
        CHECK(k.power_load_measured);
        for (size_t i = 0; i < k.n_inputs; i++)
            CHECK(strcmp(k.inputs[i].name, "cpu_load") != 0);
        CHECK_INT_EQ(cat_config_cost_x(c, "fslice", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_NEAR(term(&k, "power"), 2 * 0.26 * e * 1.4 * 0.15, 1e-12);
        CHECK_NEAR(k.power_load, 0.4, 1e-12);
        /* colocation stays on the peak (load 1), whatever the load */
        CHECK_NEAR(term(&k, "colocation"), 2 * 0.5 * 180 * e / 730, 1e-12);
        o.measured_load = 1.5; /* above 1: read at full load */
        CHECK_INT_EQ(cat_config_cost_x(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_NEAR(term(&k, "power"), 0.5 * 1.4 * 0.15, 1e-12);
    }
    CHECK_INT_EQ(cat_config_cost(c, "fwhole", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_NEAR(term(&k, "power"), 0.2 * 1.4 * 0.15, 1e-12); /* cpu_load 0.25: 200 W */
    /* overrides: servers per admin 20 doubles the staff term; out of its domain is refused */
    {
        const struct cat_server *sv = cat_find_server(c, "full");
        struct cat_override ov = {&sv->servers_per_admin, 20};
        struct cat_cost_opts o = {&ov, 1, 0, 0, 0};
        CHECK_INT_EQ(cat_config_cost_x(c, "fslice", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_NEAR(term(&k, "staff"), 2 * 120000.0 / 20 * e / 8760, 1e-12);
        ov.fig = &sv->utilisation;
        ov.value = 0;
        CHECK_INT_EQ(cat_config_cost_x(c, "fslice", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_EINVAL);
        ov.value = 0.125; /* a slice never pays more than the whole server */
        CHECK_INT_EQ(cat_config_cost_x(c, "fslice", CAT_PRICING_ON_DEMAND, 0, &o, &k, &err),
                     CAT_OK);
        CHECK_NEAR(term(&k, "capital"), 2 * 20000 / (4 * 8760.0), 1e-12);
    }

    /* cloud: on-demand monthly in arrears; reserved 1 y all upfront bought at 0, 12, 24 and
     * paid whole; reserved 3 y no upfront over 20 months still owes its 36 months */
    CHECK_INT_EQ(cat_config_cost(c, "cloud", CAT_PRICING_ON_DEMAND, 0, &k, &err), CAT_OK);
    CHECK_INT_EQ(cat_cost_npv(&k, 36, 0.06, &v), CAT_OK);
    CHECK_NEAR(v.total, 0.5 * 730 * disc(0.06, 1, 36), 1e-9);
    CHECK_INT_EQ(cat_config_cost(c, "cloud", CAT_PRICING_RESERVED_1Y_ALL, 0, &k, &err), CAT_OK);
    CHECK_INT_EQ(cat_cost_npv(&k, 36, 0.06, &v), CAT_OK);
    CHECK_INT_EQ(v.purchases, 3);
    CHECK_NEAR(v.total, 0.3 * 730 * 12 * (1 + pow(1.06, -1.0) + pow(1.06, -2.0)), 1e-9);
    CHECK_INT_EQ(cat_config_cost(c, "cloud", CAT_PRICING_RESERVED_3Y, 0, &k, &err), CAT_OK);
    CHECK_INT_EQ(cat_cost_npv(&k, 20, 0.06, &v), CAT_OK);
    CHECK_NEAR(v.total, 0.2 * 730 * disc(0.06, 1, 36), 1e-9);
    CHECK_NEAR(v.discounted_hours, 730 * disc(0.06, 1, 20), 1e-9);
    cat_catalog_free(c);
}

static void test_every_bundled_config(void)
{
    /* every configuration of the bundled catalogs has an on-demand or subscription cost > 0 */
    const char *files[] = {"data/catalogs/published.json", "data/catalogs/batch.json"};
    for (size_t f = 0; f < 2; f++) {
        struct cat_catalog *c = load(files[f]);
        for (size_t i = 0; i < c->n_configs; i++) {
            struct cat_cost k;
            struct cat_error err;
            int rc = cat_config_cost(c, c->configs[i].id, CAT_PRICING_ON_DEMAND, 0, &k, &err);
            if (rc != CAT_OK)
                fprintf(stderr, "%s\n", err.msg);
            CHECK_INT_EQ(rc, CAT_OK);
            CHECK(k.per_hour > 0);
            CHECK(k.n_terms >= 1);
        }
        cat_catalog_free(c);
    }
}

/* local.json with a UTF-8 byte order mark before it loads as local.json does */
static void test_bom(void)
{
    struct cat_catalog *a = load("tests/catalogs/fixtures/bom-local.json");
    struct cat_catalog *b = load("data/catalogs/local.json");
    CHECK(a->n_configs > 0 && a->n_configs == b->n_configs && a->n_servers == b->n_servers);
    cat_catalog_free(a);
    cat_catalog_free(b);
}

int main(void)
{
    test_bom();
    test_disk_rules();
    test_cloud_costs();
    test_onprem();
    test_full_model();
    test_every_bundled_config();
    return check_report();
}
