/*
 * commands.h - the subcommands of the sizeup binary. Each takes the arguments after the
 * subcommand name (argv[0] is the subcommand name) and returns a sizeup_exit code (cli.h).
 * `sizeup help CMD` calls CMD with "--help".
 *
 * Each command's function and option table are defined in its own file: cmd_import.c, cmd_fit.c,
 * cmd_catalog.c, cmd_probe.c (and cmd_probe_config_default), cmd_observe.c, cmd_merge.c,
 * cmd_disk.c, cmd_predict.c, cmd_rank.c, cmd_report.c, cmd_study.c; the dispatcher and sizeup_cli
 * in commands.c.
 */
#ifndef SIZEUP_CLI_COMMANDS_H
#define SIZEUP_CLI_COMMANDS_H

#include "cli.h"

#include <jansson.h>

/* The commands of `sizeup` (name, function, summary, option table), ending with a NULL name:
 * main.c dispatches through it and the --help test walks it. */
extern const struct cli_cmd sizeup_cli;

/** sizeup [--version] COMMAND ARGS... : argv[0] is the program; returns an exit status. */
int cmd_sizeup(int argc, char **argv);

/** sizeup import FILE... : sysbench outputs and CSV tables -> point records. */
int cmd_import(int argc, char **argv);
extern const struct cli_cmd cmd_import_cli;

/** sizeup fit POINTS... : fit saturation models to every curve; print or write fits. */
int cmd_fit(int argc, char **argv);
extern const struct cli_cmd cmd_fit_cli;
/** sizeup catalog check | cost | list | fetch | convert : catalogs and cost (cmd_catalog.c). */
int cmd_catalog(int argc, char **argv);
extern const struct cli_cmd cmd_catalog_cli, cmd_catalog_check_cli, cmd_catalog_cost_cli,
    cmd_catalog_list_cli;
/** sizeup probe prepare|run|cleanup : sysbench 1.0.20-compatible OLTP probes. */
int cmd_probe(int argc, char **argv);
extern const struct cli_cmd cmd_probe_cli;

struct probe_config;
/**
 * The configuration `sizeup probe` has before any option is given: every default of
 * cmd_probe_cli's option table (the one place they are written, the same that --help prints)
 * over probes/' probe_config_defaults (which sets what no option does); a calibrated level
 * (time_s 0). No stream, stop flag or password. test_cli_help holds it equal to
 * probe_config_defaults, where a study's probes start.
 * @return 0, or -1 when the table's defaults do not parse (a defect test_cli_help catches).
 */
int cmd_probe_config_default(struct probe_config *cfg);

/**
 * The probe configuration a sizeup probe record was measured with, rebuilt from its options
 * object (probe_config_json's keys, sysbench's names) through `probe run`'s own option table,
 * so every default and check is the probe's; the connection from the record's mysql_* keys and
 * the password as `probe` finds one (MYSQL_PWD, the option files), never from the record.
 * Scalars only; the thread list and a client's share are not a configuration.
 * @return the probe's options (free with cmd_probe_record_free; its configuration through
 *         cmd_probe_record_config), or NULL (the reason on stderr as `probe` says it).
 */
struct probe_cli;
struct probe_cli *cmd_probe_from_record(const json_t *options);
const struct probe_config *cmd_probe_record_config(const struct probe_cli *pc);
void cmd_probe_record_free(struct probe_cli *pc);
/** sizeup observe [-o WORKLOAD] : sample a running server read-only (cmd_observe.c). */
int cmd_observe(int argc, char **argv);
extern const struct cli_cmd cmd_observe_cli;

/** sizeup merge PARTS... [-o POINTS] : parts measured by several load generators -> points. */
int cmd_merge(int argc, char **argv);
extern const struct cli_cmd cmd_merge_cli;

/** sizeup disk --dir DIR : random/sequential I/O and commit latency of a disk. */
int cmd_disk(int argc, char **argv);
extern const struct cli_cmd cmd_disk_cli;

/** sizeup predict --points --catalog : predicted curves of unprobed configurations. */
int cmd_predict(int argc, char **argv);
extern const struct cli_cmd cmd_predict_cli;

/** sizeup rank --points --catalog --slo : rank configurations by throughput per cost. */
int cmd_rank(int argc, char **argv);
extern const struct cli_cmd cmd_rank_cli;

/** sizeup report : the ranking as a self-contained HTML page (inline SVG) or Markdown. */
int cmd_report(int argc, char **argv);
extern const struct cli_cmd cmd_report_cli;

/** sizeup study [--resume] STUDY.json : probe -> fit -> rank -> report, resumable. */
int cmd_study(int argc, char **argv);
extern const struct cli_cmd cmd_study_cli;

#endif
