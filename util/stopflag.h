/*
 * stopflag.h - the stop flag: SIGINT and SIGTERM set it, long work polls it and stops at the
 * next safe point, keeping what was measured. It is the one piece of global mutable state the
 * conventions allow, and this module is the only place that holds it.
 *
 * SIGTERM is treated as SIGINT (issue 12.5): both stop the work the same way and the command
 * exits 130, the status of an interrupt, whichever came; the flag holds the number of the
 * signal that asked to stop (0: none) only so a command can say which one it was.
 * It is a lock-free atomic_int: the handler may store it (C11 7.14.1.1), and worker threads
 * may read it without a data race. The handlers are installed without SA_RESTART, so a
 * thread sleeping in nanosleep or blocked in read wakes with EINTR and can look at the flag.
 *
 * Usage:
 *     stopflag_install();                  // clears the flag, handlers on
 *     engine_cfg.stop = stopflag_get();    // workers poll it
 *     ... run ...
 *     stopflag_restore();                  // the previous handlers back
 *     if (stopflag_signal())
 *         return stopflag_exit_status();   // 130
 *
 * Thread-safety: install/restore from one thread (the main thread) while no other thread
 * changes signal dispositions; stopflag_signal and the flag itself from any thread.
 */
#ifndef SIZEUP_UTIL_STOPFLAG_H
#define SIZEUP_UTIL_STOPFLAG_H

#include <stdatomic.h>

/**
 * Clear the flag and install the handler for SIGINT and SIGTERM (the old actions are kept for
 * stopflag_restore). Calling it again before stopflag_restore only clears the flag.
 * @return 0, or -1 when sigaction failed (errno set; nothing was changed).
 */
int stopflag_install(void);

/**
 * For a whole program (main): SIGTERM from now on acts as SIGINT wherever the program has not
 * installed a handler of its own for SIGTERM (stopflag_install's handler, while installed, takes
 * both): its handler raises SIGINT, so SIGINT's action - a handler that removes temporary files
 * (outfile.h), or the default, ending the process with the shell's status 130 - runs for either.
 * A SIGINT that is ignored (a background job of a non-interactive shell) is set back to its
 * default first, so a SIGTERM still ends the process. A SIGTERM that is ignored stays ignored.
 * @return 0, or -1 when sigaction failed (errno set).
 */
int stopflag_term_as_int(void);

/** Put back the actions stopflag_install replaced; the flag keeps its value. No-op when not
 *  installed. */
void stopflag_restore(void);

/** The flag, for engines that poll it (probes' `stop`, the disk probe's `interrupted`):
 *  non-zero once a stop was asked. Never NULL; valid for the program's lifetime. */
const atomic_int *stopflag_get(void);

/** The signal that asked to stop (SIGINT, SIGTERM), or 0. */
int stopflag_signal(void);

/** Ask to stop as the handler would (sig > 0; e.g. a command's own time limit or a test). */
void stopflag_raise(int sig);

/** Clear the flag (stopflag_signal() returns 0 again). */
void stopflag_clear(void);

/** "SIGINT", "SIGTERM", or "signal N" for another number; "" for 0. Static text (for
 *  another number: a per-thread buffer, valid until the next call in that thread). */
const char *stopflag_name(int sig);

/**
 * Exit status for a run stopped by the flag: 130 (128 + SIGINT, the shell's status of an
 * interrupt) for SIGINT and SIGTERM alike, and for a stop asked by stopflag_raise; 0 when no
 * stop was asked.
 */
int stopflag_exit_status(void);

#endif
