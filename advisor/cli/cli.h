/*
 * cli.h - what every sizeup subcommand shares: exit codes, an option table that feeds
 * getopt_long and renders --help, and strict parsers for numbers, durations, sizes and lists.
 *
 * Convention (jq, CONVENTIONS.md): --help goes to stdout and exits 0; misuse goes to stderr
 * as "sizeup: <what is wrong>" plus a pointer to --help, and exits SIZEUP_EXIT_USAGE.
 */
#ifndef SIZEUP_ADVISOR_CLI_H
#define SIZEUP_ADVISOR_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "units.h"

/* Exit codes of the sizeup command (documented in README.md and `sizeup --help`). */
enum sizeup_exit {
    SIZEUP_EXIT_OK = 0,          /* success */
    SIZEUP_EXIT_FAIL = 1,        /* the work failed (I/O error, server error, fit failure) */
    SIZEUP_EXIT_USAGE = 2,       /* bad command line */
    SIZEUP_EXIT_INPUT = 3,       /* some input was rejected or incomplete; the rest was processed */
    SIZEUP_EXIT_UNREACHABLE = 4, /* a server or URL could not be reached */
    SIZEUP_EXIT_INTERRUPTED = 130 /* SIGINT: what was measured so far is kept */
};

/* One option of a subcommand. A table ends with an entry whose name is NULL. */
struct cli_option {
    const char *name;     /* long name without "--" */
    int has_arg;          /* no_argument, required_argument, optional_argument */
    int val;              /* getopt_long's return value (a short letter or a code >= 256) */
    const char *arg_name; /* e.g. "N", "FILE"; NULL when has_arg is no_argument */
    const char *help;     /* one-line description; defaults are written into it */
};

/**
 * Build the getopt_long tables for an option table.
 * @param opts   option table ending with a NULL name
 * @param longs  out: array of struct option with a zero terminator, at least n+1 entries
 * @param n_longs capacity of longs
 * @param shorts out: optstring (leading ':' so missing arguments are reported), capacity n_shorts
 * @return 0, or -1 when a buffer is too small.
 */
int cli_build_getopt(const struct cli_option *opts, struct option *longs, size_t n_longs,
                     char *shorts, size_t n_shorts);

/**
 * Print a subcommand's help to stdout: the usage line(s), the description, then one aligned
 * line per option ("  -t, --threads=N   help").
 */
void cli_print_help(const char *usage, const char *description, const struct cli_option *opts);

/**
 * Report misuse: prints "sizeup: <formatted message>" and "Try 'sizeup <cmd> --help'." to stderr.
 * @return SIZEUP_EXIT_USAGE, for `return cli_usage_error(...)`.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * Report an option getopt_long rejected (unknown, missing argument), using optopt/optind.
 * @return SIZEUP_EXIT_USAGE.
 */
int cli_getopt_error(const char *cmd, int c, char **argv);

#endif
