/* setcli.c - --set CONFIG.INPUT=VALUE[:LOW..HIGH] applied to the loaded catalogs (setcli.h). */
#include "setcli.h"

#include "cli.h"
#include "setinput.h"

#include <stdio.h>

int setcli_apply(struct cat_catalog *cat, const char *const *sets, size_t n,
                 enum cat_pricing pricing, const char *cmd, const char *origin)
{
    for (size_t i = 0; i < n; i++) {
        struct cat_set set;
        char err[1024], shared[400];
        int rc;
        if (cat_set_parse(sets[i], &set, err, sizeof err) != 0)
            return cli_usage_error(cmd, "--set %s", err);
        rc = cat_set_apply(cat, &set, pricing, origin, err, sizeof err, shared, sizeof shared);
        if (rc == CAT_ENOMEM) {
            fprintf(stderr, "sizeup: out of memory\n");
            return SIZEUP_EXIT_FAIL;
        }
        if (rc != CAT_OK)
            return cli_usage_error(cmd, "--set %s", err);
        if (shared[0])
            fprintf(stderr,
                    "sizeup %s: note: --set %s sets a figure the cost of other configurations "
                    "reads too: %s\n",
                    cmd, set.text, shared);
    }
    return 0;
}
