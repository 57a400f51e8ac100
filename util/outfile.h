/*
 * outfile.h - an output file that is replaced whole or not at all.
 *
 * For a regular file (or a path that does not exist yet) the data goes to a temporary file
 * beside it, which outfile_commit() renames over the target: a reader never sees half a file,
 * and a failed run leaves the old file as it was. A symbolic link is followed (the file it
 * names is replaced, or created when it does not exist yet; the link stays). An existing file keeps
 * its permission bits; a new one gets 0666 less the umask. A path that is not a regular file
 * (/dev/stdout, /dev/null, a FIFO) is written directly; so is an open descriptor of this process
 * (/dev/stdout, /proc/self/fd/N or a link to one), appending, whatever it names; a link that
 * loops is refused.
 *
 * Signals: SIGINT or SIGTERM while a temporary file is open removes it before the process ends
 * (the handler unlinks every open temporary file, then ends the process by SIGINT's default
 * action: SIGTERM is treated as SIGINT, so the shell sees 130 for both, stopflag.h). The handler is
 * installed by the first outfile_open, for a signal whose action is still the default; a command
 * that handles the signal itself (a stop flag) keeps its handler and must outfile_abort its open
 * files on the way out. Up to OUTFILE_MAX_OPEN temporary files open at once are covered.
 *
 * Thread-safety: open, commit and abort of different outfiles may run in different threads.
 */
#ifndef SIZEUP_UTIL_OUTFILE_H
#define SIZEUP_UTIL_OUTFILE_H

#include <stdio.h>

/* How many temporary files open at once the signal handler removes. */
#define OUTFILE_MAX_OPEN 32

struct outfile {
    FILE *f;        /* write here */
    char *path;     /* the target, links resolved */
    char *tmp_path; /* NULL when writing directly */
};

/**
 * Open path for replacement.
 * @param of   filled on success
 * @param err  message on failure ("cannot write PATH: reason"), cap bytes
 * @return 0, or -1 (nothing was created).
 */
int outfile_open(struct outfile *of, const char *path, char *err, size_t cap);

/**
 * Flush, close and put the file in place.
 * @return 0, or -1 with err set (the temporary file is removed; the target is unchanged).
 */
int outfile_commit(struct outfile *of, char *err, size_t cap);

/** Close and remove the temporary file; the target is unchanged. NULL-safe, idempotent. */
void outfile_abort(struct outfile *of);

/**
 * Replace path whole with len bytes of data (outfile_open, one write, outfile_commit).
 * @param err  message on failure ("cannot write PATH: reason"), cap bytes
 * @return 0, or -1 (the old file is left as it was).
 */
int outfile_write(const char *path, const void *data, size_t len, char *err, size_t cap);

/**
 * Write a whole output with write_fn: to path (replaced whole, as above) or, when path is
 * NULL, to stdout (flushed). Failures are reported on stderr as "sizeup: cannot write <path or
 * what>: reason".
 * @param what      what is written, for messages about stdout ("the ranking")
 * @param write_fn  writes the output to f; returns 0, or -1 when writing failed
 * @return 0, or -1 (for a path: the old file is left as it was).
 */
int outfile_emit(const char *path, const char *what, int (*write_fn)(FILE *f, const void *ctx),
                 const void *ctx);

#endif
