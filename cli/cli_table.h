/*
 * cli_table.h - what the option parser (cli.c) and --help (cli_help.c) share of an option
 * table. Private to cli/: commands use cli.h.
 */
#ifndef SIZEUP_CLI_TABLE_H
#define SIZEUP_CLI_TABLE_H

#include <stddef.h>

struct cli_cmd;
struct cli_opt;

/** The number of options of cmd's table (up to its {0} end); 0 when it has none. */
size_t cli_table_count(const struct cli_cmd *cmd);

/**
 * o's choices for people, "usl, amdahl, piecewise or auto", into buf (cap bytes, cut to fit);
 * "" when o has none. @return buf.
 */
const char *cli_table_choices(const struct cli_opt *o, char *buf, size_t cap);

#endif
