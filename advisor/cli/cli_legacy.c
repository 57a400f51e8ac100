/*
 * cli_legacy.c - the hand-written option tables of `probe` and `study` (cli.h, struct
 * cli_option): getopt_long tables and --help. Goes once both commands use cli_opt tables.
 */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int cli_build_getopt(const struct cli_option *opts, struct option *longs, size_t n_longs,
                     char *shorts, size_t n_shorts)
{
    size_t nl = 0, ns = 0;
    if (n_shorts < 2)
        return -1;
    shorts[ns++] = ':';
    for (const struct cli_option *o = opts; o->name; o++) {
        if (nl + 1 >= n_longs)
            return -1;
        longs[nl].name = o->name;
        longs[nl].has_arg = o->has_arg;
        longs[nl].flag = NULL;
        longs[nl].val = o->val;
        nl++;
        if (o->val > 0 && o->val < 128 && isalnum(o->val)) {
            if (ns + 3 >= n_shorts)
                return -1;
            shorts[ns++] = (char)o->val;
            if (o->has_arg == required_argument)
                shorts[ns++] = ':';
            else if (o->has_arg == optional_argument) {
                shorts[ns++] = ':';
                shorts[ns++] = ':';
            }
        }
    }
    memset(&longs[nl], 0, sizeof longs[nl]);
    shorts[ns] = '\0';
    return 0;
}

static int option_label(const struct cli_option *o, char *buf, size_t cap)
{
    char shortpart[8] = "    ";
    if (o->val > 0 && o->val < 128 && isalnum(o->val))
        snprintf(shortpart, sizeof shortpart, "-%c, ", o->val);
    if (o->has_arg == no_argument)
        return snprintf(buf, cap, "%s--%s", shortpart, o->name);
    if (o->has_arg == optional_argument)
        return snprintf(buf, cap, "%s--%s[=%s]", shortpart, o->name,
                        o->arg_name ? o->arg_name : "ARG");
    return snprintf(buf, cap, "%s--%s=%s", shortpart, o->name, o->arg_name ? o->arg_name : "ARG");
}

/* Print text from column indent, wrapping at spaces so lines end before column cols. */
static void print_wrapped(const char *text, int indent, int cols)
{
    int avail = cols - indent > 20 ? cols - indent : 20;
    if (!*text)
        putchar('\n');
    while (*text) {
        int len = (int)strlen(text), cut = len;
        if (len > avail) {
            cut = avail;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = avail;
        }
        printf("%.*s\n", cut, text);
        text += cut;
        while (*text == ' ')
            text++;
        if (*text)
            printf("%*s", indent, "");
    }
}

void cli_print_help(const char *usage, const char *description, const struct cli_option *opts)
{
    char label[128];
    int width = 0;
    printf("%s\n", usage);
    if (description && *description)
        printf("\n%s\n", description);
    for (const struct cli_option *o = opts; o->name; o++) {
        int n = option_label(o, label, sizeof label);
        if (n > width && n < 34)
            width = n;
    }
    printf("\nOptions:\n");
    for (const struct cli_option *o = opts; o->name; o++) {
        int n = option_label(o, label, sizeof label);
        if (n > width)
            printf("  %s\n  %*s  ", label, width, "");
        else
            printf("  %-*s  ", width, label);
        print_wrapped(o->help, width + 4, 100);
    }
}

int cli_getopt_error(const char *cmd, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        return cli_usage_error(cmd, "option '%s' needs a value", arg);
    if (optopt > 0 && optopt < 128 && isprint(optopt))
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}
