/* cli.c - option tables as data: one parser, dispatch (cli.h); --help is cli_help.c. */
#include "cli.h"

#include "textsafe.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* getopt_long value of option i of a table; --help is HELP_VAL. */
#define OPT_VAL(i) (256 + (i))
#define HELP_VAL 'h'

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char raw[8192], safe[8192];
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* the values in it are what was typed: a control character is shown, never acted on by
     * the terminal (issue 27.5: --slo 'p95:ESC]0;pwn BEL' retitled it) */
    fprintf(stderr, "sizeup: %s", textsafe_message(raw, safe, sizeof safe));
    if (cmd && *cmd)
        fprintf(stderr, "\nTry 'sizeup %s --help'.\n", cmd);
    else
        fputs("\nTry 'sizeup --help'.\n", stderr);
    return SIZEUP_EXIT_USAGE;
}

/* ---- values ------------------------------------------------------------------------------ */

/* Store v (in range for the field) into an integer field of size bytes. */
static void store_int(void *p, size_t size, long long v)
{
    switch (size) {
    case 1: {
        int8_t x = (int8_t)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        int16_t x = (int16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4:
        if (v > INT32_MAX) {
            uint32_t u = (uint32_t)v;
            memcpy(p, &u, 4);
        } else {
            int32_t x = (int32_t)v;
            memcpy(p, &x, 4);
        }
        break;
    default: {
        int64_t x = (int64_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    }
}

/* Integer range of an option: the table's, or what a signed field of its size holds. */
static void int_range(const struct cli_opt *o, long long *lo, long long *hi)
{
    if (o->min != 0 || o->max != 0) {
        *lo = o->min <= -9.2e18 ? LLONG_MIN : (long long)o->min;
        *hi = o->max >= 9.2e18 ? LLONG_MAX : (long long)o->max;
        return;
    }
    *lo = o->size >= 8 ? LLONG_MIN : -(1LL << (8 * o->size - 1));
    *hi = o->size >= 8 ? LLONG_MAX : (1LL << (8 * o->size - 1)) - 1;
}

static int in_range(const struct cli_opt *o, double v)
{
    return (o->min == 0 && o->max == 0) || (v >= o->min && v <= o->max);
}

/* The range of a number as text: " from 1 to 64", " >= 0", "" when unbounded. */
static void range_text(const struct cli_opt *o, const char *unit, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (o->min == 0 && o->max == 0)
        return;
    if (o->max >= 1e15)
        snprintf(buf, cap, " >= %g%s", o->min, unit);
    else
        snprintf(buf, cap, " from %g%s to %g%s", o->min, unit, o->max, unit);
}

/* A byte count as the size grammar writes it: "64M", "16K", "1000". */
static void size_text(double bytes, char *buf, size_t cap)
{
    static const char units[] = "KMGT";
    long long b = (long long)bytes;
    int u = -1;
    while (u < 3 && b >= 1024 && b % 1024 == 0) {
        b /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, cap, "%lld", b);
    else
        snprintf(buf, cap, "%lld%c", b, units[u]);
}

/* What an option takes, for misuse messages: "an integer from 1 to 64". */
static void takes_text(const struct cli_opt *o, char *buf, size_t cap)
{
    char r[96], c[400];
    switch (o->type) {
    case CLI_FLAG:
        snprintf(buf, cap, "no value");
        break;
    case CLI_BOOL:
        snprintf(buf, cap, "on or off");
        break;
    case CLI_INT: {
        long long lo, hi;
        int_range(o, &lo, &hi);
        if (o->min == 0 && o->max == 0)
            snprintf(buf, cap, "an integer");
        else if (o->max >= 1e15)
            snprintf(buf, cap, "an integer >= %lld", lo);
        else
            snprintf(buf, cap, "an integer from %lld to %lld", lo, hi);
        break;
    }
    case CLI_REAL:
        range_text(o, "", r, sizeof r);
        snprintf(buf, cap, "a number%s", r);
        break;
    case CLI_SECONDS:
        /* durations start at 0 s: only a positive floor is worth saying */
        if (o->min == 0 && o->max == 0)
            r[0] = '\0';
        else if (o->min > 0)
            snprintf(r, sizeof r, " from %gs to %gs", o->min, o->max);
        else
            snprintf(r, sizeof r, " up to %gs", o->max);
        snprintf(buf, cap, "a duration (unit ms, s, m or h; a bare number is seconds)%s", r);
        break;
    case CLI_MS:
        range_text(o, "ms", r, sizeof r);
        snprintf(buf, cap, "a latency with its unit (us, ms or s)%s", r);
        break;
    case CLI_FRACTION:
        snprintf(buf, cap, "a percentage or a fraction in (0, 1]");
        break;
    case CLI_SIZE:
        size_text(o->min, r, sizeof r / 2);
        size_text(o->max, r + sizeof r / 2, sizeof r / 2);
        if (o->min == 0 && o->max == 0)
            snprintf(buf, cap, "a size in bytes with an optional unit K, M, G or T");
        else if (o->max >= 1e15)
            snprintf(buf, cap, "a size in bytes (unit K, M, G or T) >= %s", r);
        else
            snprintf(buf, cap, "a size in bytes (unit K, M, G or T) from %s to %s", r,
                     r + sizeof r / 2);
        break;
    case CLI_INT_LIST: {
        long long lo, hi;
        int_range(o, &lo, &hi);
        if (lo == 1 && hi >= (long long)1e15)
            snprintf(buf, cap, "a list of up to %zu positive integers", o->cap);
        else if (lo == 1)
            snprintf(buf, cap, "a list of up to %zu positive integers up to %lld", o->cap, hi);
        else
            snprintf(buf, cap, "a list of up to %zu integers from %lld to %lld", o->cap, lo, hi);
        break;
    }
    case CLI_SLO:
        snprintf(buf, cap, "a latency target avg|pNN:VALUE with a unit us, ms or s");
        break;
    case CLI_PATH:
        snprintf(buf, cap, "a file name");
        break;
    case CLI_STRING:
        snprintf(buf, cap, "a non-empty value");
        break;
    case CLI_CHOICE:
        snprintf(buf, cap, "%s", cli_table_choices(o, c, sizeof c));
        break;
    case CLI_CUSTOM:
        snprintf(buf, cap, "a value");
        break;
    }
}

/* Parse arg into a list of integers at base + o->off. */
static int parse_int_list(const struct cli_opt *o, const char *arg, char *base)
{
    long long lo, hi;
    size_t n = 0;
    const char *p = arg;
    int_range(o, &lo, &hi);
    if (!*arg)
        return -1;
    for (;;) {
        char item[32];
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        long long v;
        if (len == 0 || len >= sizeof item || n >= o->cap)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (units_parse_int(item, lo, hi, &v) != 0)
            return -1;
        store_int(base + o->off + n * o->size, o->size, v);
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    memcpy(base + o->count_off, &n, sizeof n);
    return 0;
}

/*
 * Read arg (NULL for a flag, or a bare optional bool) into the destination of o.
 * @param first  1 for the first occurrence on the command line (a repeatable list restarts)
 * @return 0, or -1 with the reason in err: empty for "takes ..." messages, else the whole
 *         message after "--name: ".
 */
static int apply(const struct cli_opt *o, const char *arg, char *base, int first, char *err,
                 size_t cap)
{
    char *dst = base + o->off;
    long long ll, lo, hi;
    double d;
    err[0] = '\0';
    switch (o->type) {
    case CLI_FLAG:
        store_int(dst, o->size, 1);
        return 0;
    case CLI_BOOL:
        if (!arg || !strcasecmp(arg, "on") || !strcasecmp(arg, "yes") || !strcasecmp(arg, "true") ||
            !strcmp(arg, "1"))
            store_int(dst, o->size, 1);
        else if (!strcasecmp(arg, "off") || !strcasecmp(arg, "no") || !strcasecmp(arg, "false") ||
                 !strcmp(arg, "0"))
            store_int(dst, o->size, 0);
        else
            return -1;
        return 0;
    case CLI_INT:
        int_range(o, &lo, &hi);
        if (units_parse_int(arg, lo, hi, &ll) != 0)
            return -1;
        store_int(dst, o->size, ll);
        return 0;
    case CLI_REAL:
        if (units_parse_double(arg, -HUGE_VAL, HUGE_VAL, &d) != 0 || !in_range(o, d))
            return -1;
        memcpy(dst, &d, sizeof d);
        return 0;
    case CLI_SECONDS:
        if (units_parse_duration(arg, &d) != 0 || !in_range(o, d))
            return -1;
        memcpy(dst, &d, sizeof d);
        return 0;
    case CLI_MS:
        if (slo_parse_latency(arg, &d, err, cap) != 0)
            return -1;
        d *= 1e3;
        if (!in_range(o, d))
            return -1;
        memcpy(dst, &d, sizeof d);
        return 0;
    case CLI_FRACTION:
        if (units_parse_fraction(arg, &d) != 0 || (o->max > 0 && !in_range(o, d)))
            return -1;
        memcpy(dst, &d, sizeof d);
        return 0;
    case CLI_SIZE:
        if (units_parse_size(arg, &ll) != 0 || !in_range(o, (double)ll))
            return -1;
        store_int(dst, o->size, ll);
        return 0;
    case CLI_INT_LIST:
        return parse_int_list(o, arg, base);
    case CLI_SLO: {
        struct slo s;
        if (slo_parse(arg, &s, err, cap) != 0)
            return -1;
        memcpy(dst, &s, sizeof s);
        return 0;
    }
    case CLI_PATH:
    case CLI_STRING:
        if (!*arg)
            return -1;
        if (o->cap) {
            size_t n;
            memcpy(&n, base + o->count_off, sizeof n);
            if (first)
                n = 0;
            if (n >= o->cap) {
                snprintf(err, cap, "at most %zu of them", o->cap);
                return -1;
            }
            memcpy(dst + n * sizeof arg, &arg, sizeof arg);
            n++;
            memcpy(base + o->count_off, &n, sizeof n);
        } else {
            memcpy(dst, &arg, sizeof arg);
        }
        return 0;
    case CLI_CHOICE:
        for (const struct cli_choice *c = o->choices; c && c->name; c++)
            if (strcmp(c->name, arg) == 0) {
                store_int(dst, o->size, c->value);
                return 0;
            }
        return -1;
    case CLI_CUSTOM:
        /* an empty err: the message says what the option takes (.takes) */
        return o->parse(arg, dst, err, cap) != 0 ? -1 : 0;
    }
    return -1;
}

/* Report a bad value of o; returns SIZEUP_EXIT_USAGE. */
static int bad_value(const struct cli_cmd *cmd, const struct cli_opt *o, const char *arg,
                     const char *why)
{
    char takes[512];
    /* the example: the table's, else the default where it shows the grammar */
    const char *eg =
        o->example ? o->example
        : o->takes || o->type == CLI_CHOICE || o->type == CLI_BOOL || o->type == CLI_CUSTOM
            ? NULL
            : o->dflt;
    if (why && *why)
        return cli_usage_error(cmd->name, "--%s: %s", o->name, why);
    if (o->takes)
        snprintf(takes, sizeof takes, "%s", o->takes);
    else
        takes_text(o, takes, sizeof takes);
    if (!arg)
        return cli_usage_error(cmd->name, "--%s takes %s%s%s", o->name, takes, eg ? ", e.g. " : "",
                               eg ? eg : "");
    return cli_usage_error(cmd->name, "--%s takes %s%s%s, not '%s'", o->name, takes,
                           eg ? ", e.g. " : "", eg ? eg : "", arg);
}

/* ---- tables ------------------------------------------------------------------------------ */

int cli_exit_of_drive(enum drive_status st)
{
    switch (st) {
    case DRIVE_OK:
        return SIZEUP_EXIT_OK;
    case DRIVE_UNREACHABLE:
        return SIZEUP_EXIT_UNREACHABLE;
    case DRIVE_INTERRUPTED:
        return SIZEUP_EXIT_INTERRUPTED;
    case DRIVE_FAIL:
        break;
    }
    return SIZEUP_EXIT_FAIL;
}

int cli_check_table(const struct cli_cmd *cmd, char *err, size_t cap)
{
    size_t n = cli_table_count(cmd);
    char *scratch, msg[256];
    if (n > CLI_MAX_OPTIONS) {
        snprintf(err, cap, "%s: %zu options, at most %d", cmd->name, n, CLI_MAX_OPTIONS);
        return -1;
    }
    scratch = calloc(1, 1 << 16);
    if (!scratch) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const struct cli_opt *o = &cmd->options[i];
        const char *bad = NULL;
        if (!*o->name || strcmp(o->name, "help") == 0 || o->short_name == 'h')
            bad = "empty name, or a second --help / -h";
        else if (!o->help)
            bad = "no help text";
        else if ((o->type == CLI_INT_LIST || o->count_off) && (!o->cap || !o->size))
            bad = "a list without capacity";
        else if (o->type == CLI_CHOICE && !o->choices)
            bad = "a choice without choices";
        else if (o->type == CLI_CUSTOM && !o->parse)
            bad = "a custom option without a parser";
        else if (o->off + o->size > (1 << 16) - 512 ||
                 (o->cap && o->off + o->cap * o->size > (1 << 16) - 512))
            bad = "destination out of range";
        for (size_t j = 0; !bad && j < i; j++)
            if (strcmp(cmd->options[j].name, o->name) == 0 ||
                (o->short_name && cmd->options[j].short_name == o->short_name))
                bad = "name or short name given twice";
        if (!bad && o->dflt && apply(o, o->dflt, scratch, 1, msg, sizeof msg) != 0)
            bad = "its default does not parse";
        if (bad) {
            snprintf(err, cap, "%s: --%s: %s", cmd->name, o->name, bad);
            free(scratch);
            return -1;
        }
    }
    free(scratch);
    return 0;
}

/* ---- parsing ----------------------------------------------------------------------------- */

/* The option a getopt_long value stands for, or NULL. */
static const struct cli_opt *opt_of(const struct cli_cmd *cmd, size_t n, int c, size_t *index)
{
    for (size_t i = 0; i < n; i++)
        if (c == OPT_VAL((int)i) || (c > 0 && c < 128 && c == cmd->options[i].short_name)) {
            *index = i;
            return &cmd->options[i];
        }
    return NULL;
}

/* An option that takes a secret or a secret's path: never reachable by abbreviation. */
static int is_secret_opt(const char *name)
{
    return strstr(name, "password") || strstr(name, "secret") || strstr(name, "token") ||
           strstr(name, "ssl-key");
}

/* 1 when needle occurs within the first len bytes of s. */
static int has_word(const char *s, size_t len, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (strncmp(s + i, needle, k) == 0)
            return 1;
    return 0;
}

/* 1 when option o takes a value that may be the next word (not a flag, not optional). */
static int takes_word(const struct cli_opt *o)
{
    return o->type != CLI_FLAG && !o->optional;
}

/* The option of the table that getopt_long would take the long name (len bytes) for: an exact
 * name, else the only option it is a prefix of; NULL when none or ambiguous. */
static const struct cli_opt *long_match(const struct cli_cmd *cmd, size_t n, const char *name,
                                        size_t len)
{
    const struct cli_opt *hit = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *on = cmd->options[i].name;
        if (strncmp(on, name, len) != 0)
            continue;
        if (on[len] == '\0')
            return &cmd->options[i];
        hit = hit ? NULL : &cmd->options[i];
    }
    return hit;
}

/*
 * Before getopt_long sees argv (it accepts any unique prefix of a long name and would echo the
 * value in its errors): a long option that names a password, a secret or a token but is not an
 * option of the table (sysbench's --mysql-password, --password, --mysql-pass) is refused with
 * how to give a password, and a prefix of a secret option's name must be spelled out. Neither
 * message holds the value. The scan follows getopt_long's reading: the value of an option that
 * takes one as the next word is skipped (it is not an option, even when it starts with "--"),
 * and a "--" that is not such a value ends it.
 * Returns 0, or the exit status of the refusal.
 */
static int guard_secrets(const struct cli_cmd *cmd, size_t n, int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        const struct cli_opt *o;
        size_t len;
        if (strcmp(arg, "--") == 0 || (cmd->subs && arg[0] != '-'))
            break; /* a dispatcher's subcommand guards its own options */
        if (arg[0] == '-' && arg[1] && arg[1] != '-') {
            /* short options: "-o FILE" takes the next word when the value is not attached */
            for (const char *c = arg + 1; *c; c++) {
                const struct cli_opt *so = NULL;
                for (size_t i = 0; i < n && !so; i++)
                    if (cmd->options[i].short_name == *c)
                        so = &cmd->options[i];
                if (so && takes_word(so)) {
                    if (!c[1])
                        a++;
                    break;
                }
            }
            continue;
        }
        if (strncmp(arg, "--", 2) != 0 || !arg[2])
            continue;
        len = strcspn(arg + 2, "=");
        o = long_match(cmd, n, arg + 2, len);
        if (o && strlen(o->name) == len) {
            if (takes_word(o) && !arg[2 + len])
                a++;
            continue;
        }
        if (len == 4 && strncmp(arg + 2, "help", 4) == 0)
            continue;
        if (has_word(arg + 2, len, "pass") || has_word(arg + 2, len, "pwd") ||
            has_word(arg + 2, len, "secret") || has_word(arg + 2, len, "token"))
            return cli_usage_error(
                cmd->name,
                "--%.*s: sizeup takes no password or secret on the command line (it would be in "
                "the shell's history and the process list): use --mysql-password-file FILE, an "
                "option file ([client] password=...; --defaults-extra-file FILE), or MYSQL_PWD",
                (int)(len > 64 ? 64 : len), arg + 2);
        for (size_t i = 0; i < n; i++)
            if (is_secret_opt(cmd->options[i].name) &&
                strncmp(cmd->options[i].name, arg + 2, len) == 0)
                return cli_usage_error(cmd->name,
                                       "--%.*s: give the option's whole name (--%s): an option "
                                       "that takes a secret or a secret's path is never "
                                       "abbreviated",
                                       (int)(len > 64 ? 64 : len), arg + 2, cmd->options[i].name);
        if (o && takes_word(o) && !arg[2 + len])
            a++; /* an abbreviation getopt_long takes: its value is the next word */
    }
    return 0;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *dest, struct cli_args *args)
{
    struct option longs[CLI_MAX_OPTIONS + 2];
    char shorts[3 * CLI_MAX_OPTIONS + 8], err[320];
    size_t n = cli_table_count(cmd), ns = 0;
    int c;

    memset(args, 0, sizeof *args);
    if (n > CLI_MAX_OPTIONS) {
        fprintf(stderr, "sizeup: %s: too many options in its table\n", cmd->name);
        return SIZEUP_EXIT_FAIL;
    }
    if (cmd->subs)
        shorts[ns++] = '+'; /* a dispatcher stops at the subcommand's name */
    shorts[ns++] = ':';
    for (size_t i = 0; i < n; i++) {
        const struct cli_opt *o = &cmd->options[i];
        int has = o->type == CLI_FLAG ? no_argument
                  : o->optional       ? optional_argument
                                      : required_argument;
        longs[i].name = o->name;
        longs[i].has_arg = has;
        longs[i].flag = NULL;
        longs[i].val = OPT_VAL((int)i);
        if (o->short_name) {
            shorts[ns++] = o->short_name;
            if (has != no_argument)
                shorts[ns++] = ':';
            if (has == optional_argument)
                shorts[ns++] = ':';
        }
        if (o->dflt && apply(o, o->dflt, dest, 1, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: %s: the default of --%s does not parse: %s\n", cmd->name,
                    o->name, err);
            return SIZEUP_EXIT_FAIL;
        }
    }
    if ((c = guard_secrets(cmd, n, argc, argv)) != 0)
        return c;
    longs[n] = (struct option){"help", no_argument, NULL, HELP_VAL};
    longs[n + 1] = (struct option){NULL, 0, NULL, 0};
    shorts[ns++] = HELP_VAL;
    shorts[ns] = '\0';

    optind = 0; /* full re-initialisation of getopt's state (glibc and musl), then argv[1] */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const struct cli_opt *o;
        size_t i;
        if (c == HELP_VAL) {
            cli_help(cmd, stdout);
            return SIZEUP_EXIT_OK;
        }
        if (c == '?') {
            const char *text = argv[optind - 1];
            if (optopt > 0 && optopt < 128 && isprint(optopt) && strncmp(text, "--", 2) != 0)
                return cli_usage_error(cmd->name, "unknown option '-%c'", optopt);
            /* the name only: a value after '=' may be a secret given to a wrong name */
            return cli_usage_error(cmd->name, "unknown option '%.*s'%s", (int)strcspn(text, "="),
                                   text, strchr(text, '=') ? " (its value not shown)" : "");
        }
        if (c == ':') {
            o = opt_of(cmd, n, optopt, &i);
            if (!o)
                return cli_usage_error(cmd->name, "option '%s' needs a value", argv[optind - 1]);
            return bad_value(cmd, o, NULL, NULL);
        }
        o = opt_of(cmd, n, c, &i);
        if (!o)
            return cli_usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
        if (apply(o, optarg, dest, !args->given[i], err, sizeof err) != 0)
            return bad_value(cmd, o, optarg, err);
        args->given[i] = 1;
    }
    args->argc = argc - optind;
    args->argv = argv + optind;
    if (cmd->subs && args->argc == 0 && cmd->min_operands > 0) {
        cli_help(cmd, stderr);
        return SIZEUP_EXIT_USAGE;
    }
    if (args->argc < cmd->min_operands)
        return cli_usage_error(cmd->name, "%s",
                               cmd->operands_hint ? cmd->operands_hint : "missing operand");
    if (!cmd->subs && cmd->max_operands != CLI_ANY && args->argc > cmd->max_operands)
        return cli_usage_error(cmd->name, "unexpected argument '%s'",
                               args->argv[cmd->max_operands]);
    return CLI_RUN;
}

int cli_given(const struct cli_cmd *cmd, const struct cli_args *args, const char *name)
{
    size_t n = cli_table_count(cmd);
    for (size_t i = 0; i < n && i < CLI_MAX_OPTIONS; i++)
        if (strcmp(cmd->options[i].name, name) == 0)
            return args->given[i];
    return 0;
}

const struct cli_sub *cli_find_sub(const struct cli_cmd *cmd, const char *name)
{
    for (const struct cli_sub *s = cmd->subs; s && s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

int cli_run_sub(const struct cli_cmd *cmd, int argc, char **argv)
{
    const struct cli_sub *s = argc > 0 ? cli_find_sub(cmd, argv[0]) : NULL;
    char names[512];
    size_t len = 0;
    if (s)
        return s->run(argc, argv);
    names[0] = '\0';
    for (const struct cli_sub *t = cmd->subs; t && t->name && len < sizeof names; t++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", t == cmd->subs ? "" : ", ",
                                t->name);
    return cli_usage_error(cmd->name, "unknown %s '%s' (%s)",
                           cmd->sub_word ? cmd->sub_word : "command", argc > 0 ? argv[0] : "",
                           names);
}

long cli_same_file_before(const char *const *paths, size_t i)
{
    struct stat a, b;
    if (!paths[i] || strcmp(paths[i], "-") == 0 || stat(paths[i], &a) != 0)
        return -1;
    for (size_t j = 0; j < i; j++)
        if (paths[j] && strcmp(paths[j], "-") != 0 && stat(paths[j], &b) == 0 &&
            a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return (long)j;
    return -1;
}
