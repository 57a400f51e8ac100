/*
 * drive_status.h - how a measurement run against a server ended, as the drivers (probe_drive.h,
 * study_probe.h) say it. Only the command line (cli/) turns it into a process exit code
 * (cli_exit_of_drive in cli.h); a driver never exits.
 */
#ifndef SIZEUP_DRIVE_STATUS_H
#define SIZEUP_DRIVE_STATUS_H

enum drive_status {
    DRIVE_OK = 0,      /* every level was measured, taken from earlier records or skipped as
                        * the plan says */
    DRIVE_FAIL,        /* a level could not be measured or recorded, or the tables failed their
                        * check: said on the driver's stderr; what was recorded is kept */
    DRIVE_UNREACHABLE, /* the server did not answer again within the give-up time */
    DRIVE_INTERRUPTED  /* SIGINT or SIGTERM (util/stopflag.h) stopped the run; every finished
                        * level is recorded */
};

/** The status's name for messages ("ok", "failed", "server unreachable", "interrupted"); a
 *  static string, never NULL. */
const char *drive_status_name(enum drive_status st);

#endif
