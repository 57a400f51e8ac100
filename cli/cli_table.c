/*
 * cli_table.c - what the option parser (cli.c) and --help (cli_help.c) read of an option table
 * (declared in cli.h). It calls neither of them.
 */
#include "cli.h"

#include <stdio.h>

size_t cli_table_count(const struct cli_cmd *cmd)
{
    size_t n = 0;
    if (cmd->options)
        while (cmd->options[n].name)
            n++;
    return n;
}

const char *cli_table_choices(const struct cli_opt *o, char *buf, size_t cap)
{
    size_t n = 0, len = 0;
    buf[0] = '\0';
    if (!o->choices)
        return buf;
    while (o->choices[n].name)
        n++;
    for (size_t i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                i == 0       ? ""
                                : i + 1 == n ? " or "
                                             : ", ",
                                o->choices[i].name);
    return buf;
}

const char *cli_default_text(const struct cli_opt *o)
{
    return o->dflt ? o->dflt : o->dflt_doc;
}
