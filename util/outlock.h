/*
 * outlock.h - one writer at a time for a results file: FILE.lock beside it, held with flock()
 * for the whole run that reads and appends to FILE (or replaces it whole).
 *
 * Two runs on one --out lost records: one replaced the file (rename) while the other appended to
 * the old, unlinked inode (issue 27.7). The lock, a POSIX record lock (fcntl F_SETLK) on the
 * whole of FILE.lock, is taken before FILE is read and held until the run ends; a second run is
 * refused at once (no waiting), named by the holder's pid (F_GETLK) and command line (/proc).
 * FILE.lock stays empty (no data block: a results file on a nearly full file system keeps its
 * room) and is opened by this module only, once per process, so no other close() of it can drop
 * the lock. The lock dies with its process, so a run killed with SIGKILL leaves no stale lock,
 * only the empty FILE.lock, which is never unlinked: removing it while a run waits to open it
 * would let two runs hold two files' locks.
 *
 * Thread-safety: call from the main thread.
 */
#ifndef SIZEUP_UTIL_OUTLOCK_H
#define SIZEUP_UTIL_OUTLOCK_H

#include <stddef.h>

/**
 * Take the lock of path (FILE.lock is created, mode 0644, when missing).
 * @param err   why not (cap bytes): "out.jsonl is being written by another run (pid 123: sizeup
 *              probe run --out out.jsonl ...): wait for it to end, or give another output", or
 *              the system error
 * @return a descriptor >= 0 that holds the lock (outlock_release), or -1.
 */
int outlock_take(const char *path, char *err, size_t cap);

/** Release a lock outlock_take returned (negative: nothing): close its descriptor. */
void outlock_release(int fd);

#endif
