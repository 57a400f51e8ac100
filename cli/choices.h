/*
 * choices.h - the values of CLI_CHOICE options that several commands' tables share (cli.h),
 * so a name means the same value in every command.
 */
#ifndef SIZEUP_CLI_CHOICES_H
#define SIZEUP_CLI_CHOICES_H

#include "catalog.h"
#include "cli.h"

/* The pricing models of catalogs/catalog.h by their names, without the table's end: for a
 * table that adds its own values (catalog cost adds "all") before {NULL, 0}. */
#define CLI_PRICING_CHOICES                                                                        \
    {"on-demand", CAT_PRICING_ON_DEMAND}, {"reserved-1y", CAT_PRICING_RESERVED_1Y},                \
        {"reserved-3y", CAT_PRICING_RESERVED_3Y}, {"spot", CAT_PRICING_SPOT},                      \
        {"subscription-1m", CAT_PRICING_SUBSCRIPTION_1M},                                          \
        {"subscription-1y", CAT_PRICING_SUBSCRIPTION_1Y},                                          \
        {"reserved-1y-all-upfront", CAT_PRICING_RESERVED_1Y_ALL},                                  \
        {"reserved-3y-all-upfront", CAT_PRICING_RESERVED_3Y_ALL},                                  \
        {"savings-plan-1y", CAT_PRICING_SAVINGS_1Y},                                               \
    {                                                                                              \
        "savings-plan-3y", CAT_PRICING_SAVINGS_3Y                                                  \
    }

/* The pricing models of catalogs/catalog.h by their names (on-demand, reserved-1y,
 * reserved-3y, spot, subscription-1m, subscription-1y, the all-upfront reservations and savings
 * plans: CLI_PRICING_CHOICES), ending with a NULL name. */
extern const struct cli_choice cli_pricings[];

#endif
