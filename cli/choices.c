/* choices.c - CLI_CHOICE values shared by several commands (choices.h). */
#include "choices.h"

const struct cli_choice cli_pricings[] = {CLI_PRICING_CHOICES, {NULL, 0}};
