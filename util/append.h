/*
 * append.h - append one record to a file whole or not at all.
 *
 * A record (one JSON line of points, a disk result, a study result) is handed to write(2) in one
 * call; a short write is continued, and when any part of it fails (no space, file too large, an
 * I/O error) the file is truncated back to the length it had before the call. A reader (or a
 * later --resume) then never sees half a record, and the next append does not glue onto one.
 *
 * Only a regular file written at its end (opened for appending, or written sequentially) can
 * be taken back; for anything else (a pipe, a terminal, /dev/null) the bytes are written the
 * same way but a failure cannot be undone.
 *
 * Thread-safety: no shared state; concurrent appends to one file from several processes are not
 * coordinated (sizeup's writers append from one thread).
 */
#ifndef SIZEUP_UTIL_APPEND_H
#define SIZEUP_UTIL_APPEND_H

#include <stddef.h>
#include <stdio.h>

/**
 * Append len bytes to the file open on fd.
 * @return 0, or -1 with errno set (ENOSPC, EFBIG, EIO, ...); for a regular file its length is
 *         then what it was before the call. SIGXFSZ should be ignored by the caller for EFBIG to
 *         be seen (the default action ends the process).
 */
int append_whole(int fd, const void *buf, size_t len);

/**
 * append_whole() on a stdio stream: f is flushed first (what it buffered is written before the
 * record), then the record goes to its file descriptor; a stream without one (open_memstream)
 * gets an fwrite and fflush.
 * @return 0, or -1 with errno set.
 */
int append_whole_stream(FILE *f, const void *buf, size_t len);

/**
 * Before a --resume reads a JSON Lines file: a last line without its newline (power loss, or a
 * kill between the bytes of a write that append_whole could not take back) is either a whole
 * JSON object, which gets its newline, or a torn record, which is moved to path.torn (appended
 * there, so nothing is lost) and cut from the file. Only the last line is ever touched.
 * @param msg  what was done, for a warning (cap bytes), or "" when nothing was
 * @return 0 nothing to do, 1 the newline added, 2 a torn line moved to path.torn, or -1 with msg
 *         (the file could not be read, or the .torn file written: the file is then unchanged).
 */
int append_cut_torn(const char *path, char *msg, size_t cap);

#endif
