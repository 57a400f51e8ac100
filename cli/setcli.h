/*
 * setcli.h - the --set option of `sizeup rank`, `report`, `study` and `catalog cost`: the
 * user's own cost inputs applied to the loaded catalogs (catalogs/setinput.h). Internal to the
 * command line.
 */
#ifndef SIZEUP_ADVISOR_SETCLI_H
#define SIZEUP_ADVISOR_SETCLI_H

#include "catalog.h"

#include <stddef.h>

/* Most --set options on one command line. */
#define SETCLI_MAX 64

/* The option's argument and help, the same text everywhere. */
#define SETCLI_ARG "CONFIG.INPUT=VALUE[:LOW..HIGH]"
#define SETCLI_EXAMPLE "idc-nvme.capital=18000:15000..22000"
#define SETCLI_HELP                                                                                \
    "use VALUE for input INPUT of configuration CONFIG's cost (a name 'sizeup catalog cost "       \
    "CONFIG' lists under inputs: capital, energy_per_kwh, instance, per_gib_month, ...), in the "  \
    "catalog's unit and currency, with the range LOW..HIGH for the break-even and sensitivity "    \
    "(none given: the catalog's, which must hold VALUE); repeatable"

/**
 * Parse and apply settings (cat_set_parse, cat_set_apply) to a loaded catalog, in order; says on
 * stderr which other configurations a set figure also prices ("sizeup CMD: note: ...").
 * @param cat      the loaded catalogs; changed
 * @param sets     n settings as given after --set
 * @param pricing  the pricing model the command costs under
 * @param cmd      the command's name for messages ("rank", "catalog cost")
 * @param origin   for the figures' source: "set on the command line", "set in the study file"
 * @return 0; SIZEUP_EXIT_USAGE (2) for a setting refused (its syntax, an unknown configuration or
 *         input, a value outside the input's range or domain), said on stderr naming it; or
 *         SIZEUP_EXIT_FAIL (out of memory).
 */
int setcli_apply(struct cat_catalog *cat, const char *const *sets, size_t n,
                 enum cat_pricing pricing, const char *cmd, const char *origin);

#endif
