/*
 * fuzz_catalog.c - libFuzzer target for the sizeup.catalog/1 loader (catalogs/catalog.c and
 * catalogs/jsonpos.c): any byte string must either load or be rejected with a message, never
 * crash, leak or read out of bounds. A loaded catalog is also costed, config by config.
 */
#include "catalog.h"
#include "cost.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cat_catalog *cat = cat_catalog_new();
    struct cat_error err;
    if (!cat)
        return 0;
    if (cat_catalog_add_buffer(cat, (const char *)data, size, "fuzz", &err) == CAT_OK) {
        for (size_t i = 0; i < cat->n_configs; i++)
            for (int p = 0; p < CAT_PRICING_COUNT; p++) {
                struct cat_cost c;
                cat_config_cost(cat, cat->configs[i].id, (enum cat_pricing)p, 0, &c, &err);
            }
        /* a second copy must collide on every id */
        if (cat->n_configs + cat->n_instances + cat->n_disks + cat->n_servers > 0 &&
            cat_catalog_add_buffer(cat, (const char *)data, size, "fuzz2", &err) == CAT_OK)
            __builtin_trap();
    } else if (err.msg[0] == '\0') {
        __builtin_trap(); /* every rejection carries a message */
    }
    cat_catalog_free(cat);
    return 0;
}
