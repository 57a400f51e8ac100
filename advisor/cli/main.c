/* main.c - the sizeup command: dispatches to a subcommand, nothing else. */
#include "cli.h"
#include "commands.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#ifndef SIZEUP_VERSION
#define SIZEUP_VERSION "0.0.0"
#endif

struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct subcommand subcommands[] = {
    {"import", cmd_import, "sysbench outputs (1.0, 1.1, legacy 0.4/0.5) and CSV tables -> points"},
    {"fit", cmd_fit, "fit saturation models (USL, Amdahl, piecewise) to every curve"},
    {"catalog", cmd_catalog, "check | cost | list | fetch | convert: catalogs and cost"},
    {"probe", cmd_probe, "prepare | run | cleanup: sysbench-style OLTP probes on a MySQL server"},
    {"disk", cmd_disk, "disk probes: random/sequential I/O and commit (fsync) latency"},
    {"rank", cmd_rank, "rank configurations by throughput per cost at a latency target"},
    {"report", cmd_report, "the ranking as one self-contained HTML page with SVG plots"},
    {"study", cmd_study, "STUDY.json: probe -> fit -> rank -> report, resumable"},
    {NULL, NULL, NULL},
};

static const struct subcommand *find_subcommand(const char *name)
{
    for (const struct subcommand *s = subcommands; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static void print_help(FILE *f)
{
    fprintf(f, "Usage: sizeup COMMAND [OPTIONS] [ARGS]\n"
               "\n"
               "sizeup measures, models and prices database servers, and ranks configurations by\n"
               "throughput per cost at a latency target.\n"
               "\n"
               "Commands:\n");
    for (const struct subcommand *s = subcommands; s->name; s++)
        fprintf(f, "  %-9s %s\n", s->name, s->summary);
    fprintf(f, "  %-9s %s\n", "help", "help CMD: the options of one command");
    fprintf(f, "\n"
               "Options:\n"
               "  -h, --help     this text\n"
               "  -V, --version  print the version and exit\n"
               "\n"
               "Exit status:\n"
               "  0    success\n"
               "  1    the work failed (I/O error, server error, fit failure)\n"
               "  2    bad command line\n"
               "  3    some input was rejected or incomplete; the rest was processed\n"
               "  4    a server or URL could not be reached\n"
               "  130  interrupted (SIGINT); what was measured so far is kept\n");
}

int main(int argc, char **argv)
{
    const struct subcommand *s;

    gsl_set_error_handler_off();
    if (argc < 2) {
        print_help(stderr);
        return SIZEUP_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        print_help(stdout);
        return SIZEUP_EXIT_OK;
    }
    if ((strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) && argc > 2)
        return cli_usage_error(NULL, "--version takes no arguments");
    if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("sizeup %s\n", SIZEUP_VERSION);
        return SIZEUP_EXIT_OK;
    }
    if (strcmp(argv[1], "help") == 0) {
        char help_flag[] = "--help";
        char *sub_argv[3];
        if (argc < 3) {
            print_help(stdout);
            return SIZEUP_EXIT_OK;
        }
        if (argc > 3)
            return cli_usage_error(NULL, "help takes one command name");
        s = find_subcommand(argv[2]);
        if (!s)
            return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
        sub_argv[0] = argv[2];
        sub_argv[1] = help_flag;
        sub_argv[2] = NULL;
        return s->run(2, sub_argv);
    }
    if (argv[1][0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
    s = find_subcommand(argv[1]);
    if (!s)
        return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
    return s->run(argc - 1, argv + 1);
}
