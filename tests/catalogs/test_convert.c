/*
 * test_convert.c - ec2instances.info and Azure Retail Prices excerpts -> sizeup.catalog/1.
 * The fixtures follow the field lists of docs/reference/catalogs.md sections 2a and 2c (the
 * x2iedn.32xlarge record is the real excerpt quoted there); expected prices are the fixtures'
 * strings and the closed form for Azure reservations, retailPrice / (years x 8760).
 */
#include "catalog.h"
#include "check.h"
#include "convert.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Convert, serialise, and load through the validator, as `sizeup catalog convert` does. */
static struct cat_catalog *convert(const char *file, int azure, const struct cat_convert_options *o,
                                   struct cat_convert_stats *st)
{
    json_t *doc = json_load_file(file, 0, NULL), *cat;
    struct cat_catalog *c = NULL;
    struct cat_error err;
    char *text;
    int rc;
    memset(st, 0, sizeof *st);
    CHECK(doc != NULL);
    if (!doc)
        return NULL;
    cat = cat_convert_new_catalog("USD", o);
    rc = azure ? cat_convert_azure_retail(cat, doc, file, o, st, &err)
               : cat_convert_ec2instances(cat, doc, file, o, st, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    if (json_array_size(json_object_get(cat, "disks")) == 0)
        json_object_del(cat, "disks");
    text = json_dumps(cat, 0);
    c = cat_catalog_new();
    rc = cat_catalog_add_buffer(c, text, strlen(text), "converted", &err);
    if (rc != CAT_OK)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_INT_EQ(rc, CAT_OK);
    free(text);
    json_decref(cat);
    json_decref(doc);
    return c;
}

static double price_of(const struct cat_catalog *c, const char *id, enum cat_pricing p)
{
    const struct cat_instance *in = cat_find_instance(c, id);
    for (size_t i = 0; in && i < in->n_prices; i++)
        if (in->prices[i].pricing == p)
            return in->prices[i].price.amount;
    return -1;
}

static void test_ec2instances(void)
{
    const char *f = "tests/catalogs/fixtures/ec2-instances.json";
    struct cat_convert_options o;
    struct cat_convert_stats st;
    struct cat_catalog *c;
    const struct cat_instance *in;

    cat_convert_options_default(&o);
    o.as_of = "2026-12-01";
    c = convert(f, 0, &o, &st);
    CHECK_INT_EQ(st.records, 5);
    CHECK_INT_EQ(st.instances, 3);
    CHECK_INT_EQ(st.prices, 4);
    CHECK_INT_EQ(st.skipped_price, 1); /* u-x.notpriced: "N/A" */
    CHECK_INT_EQ(st.skipped_none, 2);  /* u-x.notpriced, m5.xlarge (eu-west-1 only) */
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_ON_DEMAND), 26.676, 1e-12);
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_RESERVED_1Y), 16.41374, 1e-12);
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_RESERVED_3Y), -1, 0);
    CHECK_NEAR(price_of(c, "aws-c5.2xlarge", CAT_PRICING_ON_DEMAND), 0.34, 1e-12);
    CHECK_NEAR(price_of(c, "aws-m5.large", CAT_PRICING_ON_DEMAND), 0.096, 1e-12);
    CHECK(cat_find_instance(c, "aws-u-x.notpriced") == NULL);
    CHECK(cat_find_instance(c, "aws-m5.xlarge") == NULL);
    in = cat_find_instance(c, "aws-x2iedn.32xlarge");
    CHECK(in != NULL);
    if (in) {
        CHECK_INT_EQ(in->vcpu, 128);
        CHECK_NEAR(in->memory_gib, 4096, 0);
        CHECK_INT_EQ(in->local_disk_count, 2);
        /* 1900 GB = 1900e9 / 2^30 GiB = 1769.513... (kept to 0.01 below) */
        CHECK_NEAR(in->local_disk_gib, 1769.51, 1e-9);
        CHECK_NEAR(in->block_max_iops, 260000, 0);
        CHECK_NEAR(in->block_max_throughput_mb_s, 10000, 0);
        CHECK_STR_EQ(in->region, "us-east-1");
        CHECK_STR_EQ(in->prices[0].price.as_of, "2026-12-01");
        /* the family is the type name's prefix; processor and clock as instances.json gives
           them ("3.5 GHz") */
        CHECK_STR_EQ(in->family, "x2iedn");
        CHECK_STR_EQ(in->processor, "Intel Xeon Scalable (Icelake)");
        CHECK_NEAR(in->clock_ghz, 3.5, 0);
    }
    in = cat_find_instance(c, "aws-c5.2xlarge");
    if (in) {
        CHECK_STR_EQ(in->family, "c5");
        CHECK_STR_EQ(in->processor, "Intel Xeon Platinum 8124M");
        CHECK_NEAR(in->clock_ghz, 0, 0); /* not given */
        CHECK(in->local_disk == NULL);
        CHECK_NEAR(in->block_max_iops, 40000, 0);
        CHECK_NEAR(in->block_max_throughput_mb_s, 593.75, 0);
    }
    cat_catalog_free(c);

    /* purchase option and spot */
    o.purchase = "allUpfront";
    o.pricings = (1u << CAT_PRICING_RESERVED_3Y) | (1u << CAT_PRICING_SPOT);
    c = convert(f, 0, &o, &st);
    /* an all-upfront purchase is its own pricing model (paid at the start of the term) */
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_RESERVED_3Y_ALL), 7.447412, 1e-12);
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_RESERVED_3Y), -1, 0);
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_SPOT), 6.669, 1e-12);
    CHECK_NEAR(price_of(c, "aws-x2iedn.32xlarge", CAT_PRICING_ON_DEMAND), -1, 0);
    CHECK_INT_EQ(st.instances, 1);
    CHECK_INT_EQ(st.skipped_price, 1); /* c5.2xlarge spot_avg "N/A" */
    cat_catalog_free(c);

    /* region and OS */
    cat_convert_options_default(&o);
    o.as_of = "2026-12-01";
    o.region = "eu-west-1";
    c = convert(f, 0, &o, &st);
    CHECK_INT_EQ(st.instances, 1);
    CHECK_NEAR(price_of(c, "aws-m5.xlarge", CAT_PRICING_ON_DEMAND), 0.214, 1e-12);
    cat_catalog_free(c);
    o.region = NULL;
    o.os = "mswin";
    c = convert(f, 0, &o, &st);
    CHECK_INT_EQ(st.instances, 1);
    CHECK_NEAR(price_of(c, "aws-m5.large", CAT_PRICING_ON_DEMAND), 0.188, 1e-12);
    cat_catalog_free(c);
}

static void test_azure(void)
{
    const char *f = "tests/catalogs/fixtures/azure-retail-page.json";
    struct cat_convert_options o;
    struct cat_convert_stats st;
    struct cat_catalog *c;
    const struct cat_instance *in;

    cat_convert_options_default(&o);
    o.as_of = "2026-12-01";
    c = convert(f, 1, &o, &st);
    CHECK_INT_EQ(st.records, 10);
    CHECK_INT_EQ(st.instances, 2);
    CHECK_INT_EQ(st.prices, 4);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_ON_DEMAND), 0.192, 1e-12);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_RESERVED_1Y), 1008.0 / 8760, 1e-12);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_RESERVED_3Y), 1944.0 / 26280,
               1e-12);
    CHECK_NEAR(price_of(c, "azure-Standard_D2s_v5", CAT_PRICING_ON_DEMAND), 0.096, 1e-12);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_SPOT), -1, 0);
    in = cat_find_instance(c, "azure-Standard_D4s_v5");
    if (in) {
        CHECK_STR_EQ(in->prices[0].price.as_of, "2021-11-01"); /* effectiveStartDate */
        CHECK_STR_EQ(in->prices[0].price.currency, "USD");
        CHECK_STR_EQ(in->region, "eastus");
    }
    cat_catalog_free(c);

    o.os = "windows";
    o.pricings = 1u << CAT_PRICING_ON_DEMAND;
    c = convert(f, 1, &o, &st);
    CHECK_INT_EQ(st.instances, 1);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_ON_DEMAND), 0.376, 1e-12);
    cat_catalog_free(c);

    o.os = "linux";
    o.pricings = 1u << CAT_PRICING_SPOT;
    c = convert(f, 1, &o, &st);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_SPOT), 0.0384, 1e-12);
    cat_catalog_free(c);

    o.pricings = 0;
    o.region = "westeurope";
    c = convert(f, 1, &o, &st);
    CHECK_NEAR(price_of(c, "azure-Standard_D4s_v5", CAT_PRICING_ON_DEMAND), 0.23, 1e-12);
    cat_catalog_free(c);
}

static void test_wrong_shapes(void)
{
    struct cat_convert_options o;
    struct cat_convert_stats st;
    struct cat_error err;
    json_t *cat, *arr = json_array(), *obj = json_pack("{s:i}", "Items", 3);
    json_t *eur = json_pack("{s:[{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:f}]}", "Items", "armSkuName",
                            "Standard_D2s_v5", "armRegionName", "eastus", "serviceName",
                            "Virtual Machines", "productName", "Virtual Machines Dsv5 Series",
                            "skuName", "D2s v5", "type", "Consumption", "unitOfMeasure", "1 Hour",
                            "currencyCode", "EUR", "retailPrice", 0.09);
    cat_convert_options_default(&o);
    o.as_of = "2026-12-01";
    memset(&st, 0, sizeof st);
    cat = cat_convert_new_catalog("USD", &o);
    CHECK_INT_EQ(cat_convert_azure_retail(cat, arr, "x.json", &o, &st, &err), CAT_EINVAL);
    CHECK(strstr(err.msg, "Items") != NULL);
    CHECK_INT_EQ(cat_convert_azure_retail(cat, obj, "x.json", &o, &st, &err), CAT_EINVAL);
    CHECK_INT_EQ(cat_convert_ec2instances(cat, obj, "x.json", &o, &st, &err), CAT_EINVAL);
    CHECK(strstr(err.msg, "array of instance objects") != NULL);
    CHECK_INT_EQ(cat_convert_azure_retail(cat, eur, "eur.json", &o, &st, &err), CAT_EINVAL);
    CHECK(strstr(err.msg, "currency EUR differs from the catalog's USD") != NULL);
    json_decref(cat);
    json_decref(arr);
    json_decref(obj);
    json_decref(eur);
}

int main(void)
{
    test_ec2instances();
    test_azure();
    test_wrong_shapes();
    return check_report();
}
