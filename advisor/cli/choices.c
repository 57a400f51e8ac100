/* choices.c - CLI_CHOICE values shared by several commands (choices.h). */
#include "choices.h"

#include "catalog.h"

const struct cli_choice cli_pricings[] = {{"on-demand", CAT_PRICING_ON_DEMAND},
                                          {"reserved-1y", CAT_PRICING_RESERVED_1Y},
                                          {"reserved-3y", CAT_PRICING_RESERVED_3Y},
                                          {"spot", CAT_PRICING_SPOT},
                                          {"subscription-1m", CAT_PRICING_SUBSCRIPTION_1M},
                                          {"subscription-1y", CAT_PRICING_SUBSCRIPTION_1Y},
                                          {"reserved-1y-all-upfront", CAT_PRICING_RESERVED_1Y_ALL},
                                          {"reserved-3y-all-upfront", CAT_PRICING_RESERVED_3Y_ALL},
                                          {"savings-plan-1y", CAT_PRICING_SAVINGS_1Y},
                                          {"savings-plan-3y", CAT_PRICING_SAVINGS_3Y},
                                          {NULL, 0}};
