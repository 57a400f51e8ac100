/* cli_help.c - a command's --help rendered from its option table (cli_help in cli.h). */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Width of --help text and the widest option label before the text goes on its own line. */
#define HELP_COLS 100
#define HELP_LABEL_MAX 34

/* Write text from column indent, wrapping at spaces so lines end before column cols. */
static void print_wrapped(FILE *f, const char *text, int indent, int cols)
{
    int avail = cols - indent > 20 ? cols - indent : 20;
    if (!*text)
        fputc('\n', f);
    while (*text) {
        int len = (int)strlen(text), cut = len;
        if (len > avail) {
            cut = avail;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = avail;
        }
        fprintf(f, "%.*s\n", cut, text);
        text += cut;
        while (*text == ' ')
            text++;
        if (*text)
            fprintf(f, "%*s", indent, "");
    }
}

/* The placeholder of o's value in --help: its arg_name, else its type's ("N", "FILE"). */
static const char *arg_name(const struct cli_opt *o)
{
    static const char *const by_type[] = {[CLI_FLAG] = "",
                                          [CLI_BOOL] = "on|off",
                                          [CLI_INT] = "N",
                                          [CLI_REAL] = "X",
                                          [CLI_SECONDS] = "DURATION",
                                          [CLI_MS] = "LATENCY",
                                          [CLI_FRACTION] = "P",
                                          [CLI_SIZE] = "SIZE",
                                          [CLI_INT_LIST] = "N,...",
                                          [CLI_SLO] = "STAT:LATENCY",
                                          [CLI_PATH] = "FILE",
                                          [CLI_STRING] = "NAME",
                                          [CLI_CHOICE] = "NAME",
                                          [CLI_CUSTOM] = "VALUE"};
    return o->arg_name ? o->arg_name : by_type[o->type];
}

/* o's label in --help, "-t, --time=DURATION", into buf. @return its length (snprintf's). */
static int option_label(const struct cli_opt *o, char *buf, size_t cap)
{
    char shortpart[8] = "    ";
    if (o->short_name)
        snprintf(shortpart, sizeof shortpart, "-%c, ", o->short_name);
    if (o->type == CLI_FLAG)
        return snprintf(buf, cap, "%s--%s", shortpart, o->name);
    if (o->optional)
        return snprintf(buf, cap, "%s--%s[=%s]", shortpart, o->name, arg_name(o));
    return snprintf(buf, cap, "%s--%s=%s", shortpart, o->name, arg_name(o));
}

/* The help text of o with its choices and default: "the model (usl, ... or auto; default:
 * auto)". */
static void option_text(const struct cli_opt *o, char *buf, size_t cap)
{
    char choices[400] = "";
    const char *dflt = cli_default_text(o);
    if (o->type == CLI_CHOICE)
        cli_table_choices(o, choices, sizeof choices);
    if (*choices && dflt)
        snprintf(buf, cap, "%s (%s; default: %s)", o->help, choices, dflt);
    else if (*choices)
        snprintf(buf, cap, "%s (%s)", o->help, choices);
    else if (dflt)
        snprintf(buf, cap, "%s (default: %s)", o->help, dflt);
    else
        snprintf(buf, cap, "%s", o->help);
}

void cli_help(const struct cli_cmd *cmd, FILE *f)
{
    static const struct cli_opt help_opt = {"help", 'h', CLI_FLAG, .help = "this text"};
    size_t n = cli_table_count(cmd);
    char label[128], text[1024];
    int width = 0;

    fprintf(f, "%s\n", cmd->usage);
    if (cmd->description && *cmd->description)
        fprintf(f, "\n%s\n", cmd->description);
    if (cmd->subs) {
        int w = 0;
        const char *word = cmd->sub_word ? cmd->sub_word : "command";
        for (const struct cli_sub *s = cmd->subs; s->name; s++)
            if ((int)strlen(s->name) > w)
                w = (int)strlen(s->name);
        w = w + 1 < 9 ? 9 : w + 1;
        fprintf(f, "\n%c%ss:\n", toupper((unsigned char)word[0]), word + 1);
        for (const struct cli_sub *s = cmd->subs; s->name; s++)
            fprintf(f, "  %-*s %s\n", w, s->name, s->summary);
    }
    for (size_t i = 0; i <= n; i++) {
        int len = option_label(i < n ? &cmd->options[i] : &help_opt, label, sizeof label);
        if (len > width && len < HELP_LABEL_MAX)
            width = len;
    }
    fprintf(f, "\nOptions:\n");
    for (size_t i = 0; i <= n; i++) {
        const struct cli_opt *o = i < n ? &cmd->options[i] : &help_opt;
        int len = option_label(o, label, sizeof label);
        if (len > width)
            fprintf(f, "  %s\n  %*s  ", label, width, "");
        else
            fprintf(f, "  %-*s  ", width, label);
        option_text(o, text, sizeof text);
        print_wrapped(f, text, width + 4, HELP_COLS);
    }
    if (cmd->epilog && *cmd->epilog)
        fprintf(f, "\n%s\n", cmd->epilog);
}
