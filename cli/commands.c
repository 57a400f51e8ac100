/* commands.c - the table of sizeup's commands and the top-level dispatch (commands.h). */
#include "commands.h"

#include <stdio.h>
#include <string.h>

static int cmd_help(int argc, char **argv);

static const struct cli_sub sizeup_subs[] = {
    {"import", cmd_import, "sysbench outputs (1.0, 1.1, legacy 0.4/0.5) and CSV tables -> points",
     &cmd_import_cli},
    {"fit", cmd_fit, "fit saturation models (USL, Amdahl, piecewise) to every curve", &cmd_fit_cli},
    {"catalog", cmd_catalog, "check | cost | list | fetch | convert: catalogs and cost",
     &cmd_catalog_cli},
    {"probe", cmd_probe, "prepare | run | cleanup: sysbench-style OLTP probes on a MySQL server",
     &cmd_probe_cli},
    {"observe", cmd_observe,
     "sample a running server read-only -> sizeup.workload/1 (the load it carries)",
     &cmd_observe_cli},
    {"merge", cmd_merge,
     "parts of a level measured by several load generators (probe --client) -> one point",
     &cmd_merge_cli},
    {"disk", cmd_disk, "disk probes: random/sequential I/O and commit (fsync) latency",
     &cmd_disk_cli},
    {"predict", cmd_predict,
     "curves of unprobed catalog configurations from their family's measured sizes",
     &cmd_predict_cli},
    {"rank", cmd_rank, "rank configurations by throughput per cost at a latency target",
     &cmd_rank_cli},
    {"report", cmd_report, "the ranking as one self-contained HTML page with SVG plots",
     &cmd_report_cli},
    {"study", cmd_study, "STUDY.json: probe -> fit -> rank -> report, resumable", &cmd_study_cli},
    {"help", cmd_help, "help CMD: the options of one command", NULL},
    {NULL, NULL, NULL, NULL},
};

struct sizeup_opts {
    int version;
};

static const struct cli_opt sizeup_options[] = {{"version", 'V', CLI_FLAG,
                                                 CLI_AT(struct sizeup_opts, version),
                                                 .help = "print the version and exit"},
                                                {0}};

const struct cli_cmd sizeup_cli = {
    .name = "",
    .usage = "Usage: sizeup COMMAND [OPTIONS] [ARGS]",
    .description =
        "sizeup measures, models and prices database servers, and ranks configurations by\n"
        "throughput per cost at a latency target.",
    .options = sizeup_options,
    .max_operands = CLI_ANY,
    .subs = sizeup_subs,
    .epilog = "Exit status:\n"
              "  0    success\n"
              "  1    the work failed (I/O error, server error, fit failure)\n"
              "  2    bad command line\n"
              "  3    some input was rejected or incomplete; the rest was processed\n"
              "  4    a server or URL could not be reached\n"
              "  130  interrupted (SIGINT or SIGTERM, treated alike); what was measured so far\n"
              "       is kept, the tables and temporary files are removed"};

/* sizeup help [CMD]: CMD's --help. */
static int cmd_help(int argc, char **argv)
{
    char help_flag[] = "--help";
    char *sub_argv[3];
    const struct cli_sub *s;
    if (argc < 2) {
        cli_help(&sizeup_cli, stdout);
        return SIZEUP_EXIT_OK;
    }
    if (argc > 2)
        return cli_usage_error(NULL, "help takes one command name");
    s = cli_find_sub(&sizeup_cli, argv[1]);
    if (!s || s->run == cmd_help)
        return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
    sub_argv[0] = argv[1];
    sub_argv[1] = help_flag;
    sub_argv[2] = NULL;
    return s->run(2, sub_argv);
}

int cmd_sizeup(int argc, char **argv)
{
    struct sizeup_opts o = {0};
    struct cli_args a;
    int rc = cli_parse(&sizeup_cli, argc, argv, &o, &a);
    if (rc != CLI_RUN)
        return rc;
    if (o.version) {
        if (a.argc > 0)
            return cli_usage_error(NULL, "--version takes no arguments");
        printf("sizeup %s\n", SIZEUP_VERSION);
        return SIZEUP_EXIT_OK;
    }
    if (a.argc == 0) {
        cli_help(&sizeup_cli, stderr);
        return SIZEUP_EXIT_USAGE;
    }
    return cli_run_sub(&sizeup_cli, a.argc, a.argv);
}
