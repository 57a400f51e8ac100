/*
 * commands.h - the subcommands of the sizeup binary. Each takes the arguments after the
 * subcommand name (argv[0] is the subcommand name) and returns a sizeup_exit code (cli.h).
 * `sizeup help CMD` calls CMD with "--help".
 */
#ifndef SIZEUP_ADVISOR_COMMANDS_H
#define SIZEUP_ADVISOR_COMMANDS_H

/** sizeup import FILE... : sysbench outputs and CSV tables -> point records. */
int cmd_import(int argc, char **argv);

/** sizeup disk --dir DIR : random/sequential I/O and commit latency of a disk. */
int cmd_disk(int argc, char **argv);

#endif
