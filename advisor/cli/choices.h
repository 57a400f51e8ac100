/*
 * choices.h - the values of CLI_CHOICE options that several commands' tables share (cli.h),
 * so a name means the same value in every command.
 */
#ifndef SIZEUP_ADVISOR_CLI_CHOICES_H
#define SIZEUP_ADVISOR_CLI_CHOICES_H

#include "cli.h"

/* The pricing models of catalogs/catalog.h by their names (on-demand, reserved-1y,
 * reserved-3y, spot, subscription-1m, subscription-1y), ending with a NULL name. */
extern const struct cli_choice cli_pricings[];

#endif
