/*
 * observe_drive.h - observe a running server read-only (probes/observe.h): the sampling loop of
 * `sizeup observe`. Every interval the server's counters are read at its ends and its running
 * sessions OBSERVE_SESSION_SAMPLES times in it; the interval's deltas go into a
 * sizeup.workload/1 record (advisor's workload.h), rewritten whole after every interval so a
 * killed observation keeps what it sampled. A lost server is waited for (give_up_s) and the gap
 * is left out; a restart or FLUSH STATUS leaves its interval out, said in the record.
 *
 * Progress and errors go to o->progress as today's `sizeup observe: ...` lines. The driver
 * never exits; the command line turns its status into an exit code (cli_exit_of_drive).
 *
 * Thread-safety: one observation per thread; the stop flag (util/stopflag.h) is read, not
 * installed: the caller installs it.
 */
#ifndef SIZEUP_DRIVE_OBSERVE_DRIVE_H
#define SIZEUP_DRIVE_OBSERVE_DRIVE_H

#include "drive_status.h"
#include "mysql_conn.h"
#include "workload.h"

#include <stdio.h>

/* Most intervals of one record (about 450 bytes each written: under 100 MB, which rank
 * --require reads whole); a --duration / --interval beyond it is refused by the command line,
 * an observation until interrupted stops there. */
#define OBSERVE_MAX_INTERVALS 200000

struct observe_drive_opts {
    const struct myconn_opts *conn; /* the server (ready for myconn_connect: conn_cli.h) */
    const char *target;             /* "host:port" as asked, for messages before a connection */
    double interval_s;              /* one interval, s (>= 1) */
    double duration_s;              /* how long to observe, s (ignored with until_interrupted) */
    double give_up_s;               /* how long a lost server may take to answer again, s */
    int until_interrupted; /* 1: observe until the stop flag; the stop is then the normal end */
    const char *out;       /* the record's file, rewritten after every interval (outfile.h);
                            * NULL or "-": written only at the end, to stdout */
    const char *version;   /* sizeup's version, for the record's tool */
    FILE *progress;        /* progress lines and errors (stderr) */
    /* called once, after the first connection, with it: fills *where with the option files'
     * values as that connection read them (myconn_where_of; what conn then borrows must
     * outlive the observation: the hook's own copy, not *where) and checks them; nonzero
     * stops the observation with DRIVE_FAIL (the hook said why) */
    int (*connected)(void *arg, const struct myconn *c, struct myconn_where *where);
    void *arg;
};

/**
 * Observe: connect, read the server once (version, buffer pool, data size), then sample every
 * o->interval_s until o->duration_s, the stop flag or OBSERVE_MAX_INTERVALS, each interval
 * added to w (workload_add) and the record rewritten to o->out (every interval up to 100, then
 * once a minute); at the end the data size again. w->ended and w->complete say how it ended.
 * @param w  initialised by the caller (workload_init; interval_s, started, host and port set),
 *           filled here; the caller writes it at the end (observe_drive_write) and destroys it
 * @return DRIVE_OK (the duration, the interval limit, or the stop flag with until_interrupted);
 *         DRIVE_FAIL (a statement refused, the record not written, memory, or o->connected
 *         refused); DRIVE_UNREACHABLE (no connection, or the server did not answer again within
 *         o->give_up_s); DRIVE_INTERRUPTED (the stop flag without until_interrupted). Said on
 *         o->progress; what was sampled stays in w.
 */
enum drive_status observe_drive(const struct observe_drive_opts *o, struct workload *w);

/**
 * Write w's record (workload_settle first) to o->out, replaced whole (util/outfile.h), or to
 * stdout when o->out is NULL or "-".
 * @return 0, or -1 with the reason on o->progress ("sizeup: ..."; memory, the file, stdout).
 */
int observe_drive_write(const struct observe_drive_opts *o, struct workload *w);

#endif
