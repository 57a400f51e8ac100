/*
 * cli.h - the sizeup command line as data: exit codes, one option table per command, one
 * parser that fills a command's option struct from argv and renders its --help from the same
 * table, and dispatch to subcommands.
 *
 * A command declares (sysbench's options-as-data: src/sb_options.c):
 *
 *     struct fit_opts { int model; double think_s; struct slo target; ... };
 *     static const struct cli_opt fit_table[] = {
 *         {"think-time", 0, CLI_SECONDS, CLI_AT(struct fit_opts, think_s), .min = 0,
 *          .max = 3600, .dflt = "0", .help = "closed-loop think time: R = N/X - T"},
 *         ...
 *         {0}};
 *     const struct cli_cmd cmd_fit_cli = {"fit", "Usage: sizeup fit [OPTIONS] POINTS...",
 *                                         "Fit ...", fit_table, 1, CLI_ANY, "..."};
 *
 *     struct fit_opts o;
 *     struct cli_args a;
 *     int rc = cli_parse(&cmd_fit_cli, argc, argv, &o, &a);
 *     if (rc != CLI_RUN)
 *         return rc;          // --help printed (0) or misuse reported (2)
 *
 * Every option's default is written once, in the table, in the option's own grammar ("1G",
 * "p95:50ms", "2%"); cli_parse applies it before reading argv and --help prints it, so the
 * two cannot disagree. A default computed at run time (the host name) is said in words in
 * .dflt_doc, and the command sets it itself.
 *
 * Conventions (as jq's): --help (added to every table) goes to stdout and exits 0;
 * misuse goes to stderr as "sizeup: --threads takes a list of positive integers, e.g.
 * 1,2,4,8, not 'x'" and "Try 'sizeup CMD --help'.", and exits SIZEUP_EXIT_USAGE (2).
 *
 * Thread-safety: cli_parse uses getopt_long's globals (optind, optarg): one thread at a time.
 *
 * This header fronts cli.c (parsing, misuse messages, the table checks), cli_table.c
 * (cli_default_text) and cli_help.c (cli_help: --help rendered from the table).
 */
#ifndef SIZEUP_CLI_H
#define SIZEUP_CLI_H

#include "drive_status.h"
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "slo.h"
#include "units.h"

/* Exit codes of the sizeup command (documented in README.md and `sizeup --help`). */
enum sizeup_exit {
    SIZEUP_EXIT_OK = 0,          /* success */
    SIZEUP_EXIT_FAIL = 1,        /* the work failed (I/O error, server error, fit failure) */
    SIZEUP_EXIT_USAGE = 2,       /* bad command line */
    SIZEUP_EXIT_INPUT = 3,       /* some input was rejected or incomplete; the rest was processed */
    SIZEUP_EXIT_UNREACHABLE = 4, /* a server or URL could not be reached */
    SIZEUP_EXIT_INTERRUPTED = 130 /* SIGINT or SIGTERM (treated alike, stopflag.h): what was
                                     measured so far is kept */
};

/* cli_parse's "carry on": the command line is good, run the command. Any other return is the
 * exit status to return at once. */
#define CLI_RUN (-1)

/* max_operands of a command that takes any number. */
#define CLI_ANY (-1)

/* Most options in one table (cli_args.given is this long). */
#define CLI_MAX_OPTIONS 96

/* What an option's value is, and the C type of its destination. */
enum cli_type {
    CLI_FLAG,     /* no value; int set to 1 */
    CLI_BOOL,     /* on|off (also yes|no, true|false, 1|0); int 1 or 0. With .optional, a
                     bare --name means on */
    CLI_INT,      /* integer in [min, max]; an integer field of any width (CLI_AT gives it),
                     signed or not */
    CLI_REAL,     /* number in [min, max]; double */
    CLI_SECONDS,  /* duration with an optional unit ms, s, m, h (a bare number is seconds),
                     in [min, max] seconds; double seconds */
    CLI_MS,       /* latency with its unit us, ms or s (a bare number is refused,
                     slo_parse_latency), in [min, max] milliseconds; double milliseconds */
    CLI_FRACTION, /* "2%" or "0.02", in (0, 1] and [min, max] when max > 0; double */
    CLI_SIZE,     /* bytes with an optional binary unit K, M, G, T (1K = 1024), in [min,
                     max]; an integer field (long long) */
    CLI_INT_LIST, /* comma-separated integers in [min, max], at most .cap of them; an array
                     of integers (CLI_LIST gives it) and its size_t count */
    CLI_SLO,      /* latency target avg|pNN:VALUE(us|ms|s) (slo.h); struct slo */
    CLI_PATH,     /* a file name (or URL, or "-"); const char * into argv. With CLI_LIST:
                     repeatable, an array of const char * and its size_t count */
    CLI_STRING,   /* non-empty text; const char * into argv (repeatable as CLI_PATH) */
    CLI_CHOICE,   /* one of .choices; an int or enum field set to the choice's value */
    CLI_CUSTOM    /* .parse reads the value; the destination is what .parse says */
};

/* One value of a CLI_CHOICE option. A list ends with a NULL name. */
struct cli_choice {
    const char *name;
    int value;
};

/* One option of a command. A table ends with an entry whose name is NULL. */
struct cli_opt {
    const char *name; /* long name without "--" */
    char short_name;  /* 'o' for -o, or 0 */
    enum cli_type type;
    size_t off;           /* destination: offset in the command's option struct (CLI_AT) */
    size_t size;          /* its size in bytes; for a list, of one element */
    size_t count_off;     /* lists: offset of the size_t count */
    size_t cap;           /* lists: capacity of the array; 0 for a single value */
    const char *arg_name; /* "N", "FILE" in --help; NULL: from the type */
    const char *help;     /* one sentence; no default in it (the table has it) */
    double min, max;      /* range of numbers (inclusive; for CLI_MS in ms, CLI_SECONDS in s);
                             min == max == 0: any value the type takes */
    const char *dflt;     /* default in the option's own grammar, applied before argv and
                             printed by --help; NULL: none (the field is left as it was) */
    const char *dflt_doc; /* a default the command computes, in words, for --help */
    const struct cli_choice *choices; /* CLI_CHOICE */
    const char *example;              /* a good value for misuse messages ("1,2,4,8"); NULL: dflt */
    const char *takes; /* what the value is, for misuse messages ("a throughput > 0");
                          NULL: said from the type and range */
    int optional;      /* CLI_BOOL: the value may be left out (--direct = --direct=on) */
    /* CLI_CUSTOM: read arg into dest (base of the option struct + off); 0, or -1 with the
     * reason in err (cap bytes, without the option name: "'x' is not a mapping: ...") */
    int (*parse)(const char *arg, void *dest, char *err, size_t cap);
};

/* Destination of a single value: field of struct type T. */
#define CLI_AT(T, field) .off = offsetof(T, field), .size = sizeof(((T *)0)->field)
/* Destination of a list: array field, count field (size_t) of struct type T. */
#define CLI_LIST(T, field, count)                                                                  \
    .off = offsetof(T, field), .size = sizeof(((T *)0)->field[0]),                                 \
    .count_off = offsetof(T, count), .cap = sizeof(((T *)0)->field) / sizeof(((T *)0)->field[0])

struct cli_cmd;

/* A subcommand of a dispatching command (sizeup, sizeup catalog). A list ends with a NULL name. */
struct cli_sub {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the name; returns an exit status */
    const char *summary;               /* one line for the parent's --help */
    const struct cli_cmd *cli;         /* its table (for the --help test), or NULL */
};

/* A command: its usage, description and options; or a dispatcher of subcommands. */
struct cli_cmd {
    const char *name;              /* "fit", "catalog cost"; "" for sizeup itself */
    const char *usage;             /* "Usage: sizeup fit [OPTIONS] POINTS..." (may hold '\n') */
    const char *description;       /* paragraphs after the usage; no defaults in it */
    const struct cli_opt *options; /* table ending with a NULL name; may be NULL */
    int min_operands;              /* operands after the options */
    int max_operands;              /* CLI_ANY for no limit */
    const char *operands_hint;     /* misuse text for too few: "name at least one FILE" */
    const struct cli_sub *subs;    /* dispatcher: the subcommands; operands are then
                                      SUB [ARGS...] and option parsing stops at SUB */
    const char *epilog;            /* text after the options (exit status), or NULL */
    const char *sub_word;          /* dispatcher: what a subcommand is called ("action");
                                      NULL: "command" */
};

/* What cli_parse found besides the options. */
struct cli_args {
    int argc;    /* number of operands */
    char **argv; /* the operands (inside the argv given to cli_parse); NULL-terminated */
    unsigned char given[CLI_MAX_OPTIONS]; /* given[i]: option i of the table was on the line */
};

/**
 * Parse a command line into a command's option struct.
 *
 * Applies every option's .dflt first, then reads argv[1..argc-1] with getopt_long (options
 * and operands may mix, as with GNU tools; "--" ends the options; a dispatcher stops at its
 * first operand). Each value is checked against its type and range; the last of a repeated
 * single-valued option wins; a repeatable one (CLI_LIST) appends.
 *
 * @param cmd   the command; its table must pass cli_check_table
 * @param argc  argument count, >= 1; argv[0] is the command's name (ignored)
 * @param argv  the arguments; getopt_long may permute them (operands move to the end)
 * @param dest  the command's option struct, which the table's offsets index; fields without
 *              a default keep what the caller put there
 * @param args  out: the operands and which options were given
 * @return CLI_RUN: run the command; SIZEUP_EXIT_OK: --help was printed on stdout;
 *         SIZEUP_EXIT_USAGE: misuse was reported on stderr (unknown option, missing or bad
 *         value, too few or too many operands); SIZEUP_EXIT_FAIL: a default of the table does
 *         not parse (a programming error, reported on stderr).
 */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, void *dest, struct cli_args *args);

/**
 * Whether an option was on the command line (not merely defaulted).
 * @param name  long name of an option of cmd's table
 * @return 1 or 0 (also 0 when cmd has no such option).
 */
int cli_given(const struct cli_cmd *cmd, const struct cli_args *args, const char *name);

/**
 * Run a dispatcher's subcommand: argv[0] names it (argc >= 1), the rest are its arguments.
 * @return the subcommand's exit status, or SIZEUP_EXIT_USAGE for an unknown name (reported
 *         as "unknown command 'x'" with the list of names).
 */
int cli_run_sub(const struct cli_cmd *cmd, int argc, char **argv);

/** Find a dispatcher's subcommand by name; NULL when cmd has none of that name. */
const struct cli_sub *cli_find_sub(const struct cli_cmd *cmd, const char *name);

/**
 * Write a command's help to f: the usage, the description, its subcommands ("Commands:"),
 * its options, one per line with short and long name, argument, help, the choices and
 * "(default: X)" from the table, wrapped at 100 columns, -h/--help last, then the epilog.
 */
void cli_help(const struct cli_cmd *cmd, FILE *f);

/**
 * Check a table (the help test and cli_parse's defaults use it): names unique and non-empty,
 * short names unique, at most CLI_MAX_OPTIONS, every .dflt parses, lists have a capacity,
 * choices and custom parsers are given.
 * @param err  what is wrong (cap bytes)
 * @return 0, or -1.
 */
int cli_check_table(const struct cli_cmd *cmd, char *err, size_t cap);

/**
 * The text of an option's default as --help prints it: .dflt, else .dflt_doc, else NULL.
 */
const char *cli_default_text(const struct cli_opt *o);

/**
 * Whether the file paths[i] names was given before it in paths (the same file: device and inode
 * equal, whatever the spelling or link): points read twice would be pooled as replicates that
 * agree exactly, a run-to-run noise of 0 the data never showed.
 * @param paths  n paths; "-" (stdin) and paths that cannot be stat()ed are never the same
 * @return the index j < i of the first earlier path of the same file, or -1.
 */
long cli_same_file_before(const char *const *paths, size_t i);

/**
 * Report misuse: prints "sizeup: <formatted message>" and "Try 'sizeup <cmd> --help'." to
 * stderr (cmd NULL or "": "Try 'sizeup --help'.").
 * @return SIZEUP_EXIT_USAGE, for `return cli_usage_error(...)`.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * The exit status of a measurement run's ending (drive/drive_status.h): DRIVE_OK -> 0,
 * DRIVE_FAIL -> SIZEUP_EXIT_FAIL, DRIVE_UNREACHABLE -> SIZEUP_EXIT_UNREACHABLE,
 * DRIVE_INTERRUPTED -> SIZEUP_EXIT_INTERRUPTED. The one place a driver's status becomes one.
 */
int cli_exit_of_drive(enum drive_status st);

/* ---- cli_table.c: what the parser and --help read of a table ------------------------------ */

/** The number of options of cmd's table (up to its {0} end); 0 when it has none. */
size_t cli_table_count(const struct cli_cmd *cmd);

/**
 * o's choices for people, "usl, amdahl, piecewise or auto", into buf (cap bytes, cut to fit);
 * "" when o has none. @return buf.
 */
const char *cli_table_choices(const struct cli_opt *o, char *buf, size_t cap);

#endif
