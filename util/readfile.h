/*
 * readfile.h - read a whole file into memory, with a size cap that the error message names.
 *
 * Thread-safety: touches only its arguments (reading "-" uses stdin).
 */
#ifndef SIZEUP_UTIL_READFILE_H
#define SIZEUP_UTIL_READFILE_H

#include <stddef.h>

/* Return codes. */
enum {
    READFILE_OK = 0,
    READFILE_EIO = -1,     /* cannot open or read, or the path is a directory (errno text) */
    READFILE_ETOOBIG = -2, /* larger than max_bytes */
    READFILE_ENOMEM = -3
};

/**
 * Read all of path ("-" reads standard input) into a new heap buffer.
 * @param max_bytes  largest accepted size in bytes (> 0); a larger file is refused
 * A UTF-8 byte order mark at the start (editors on Windows write one) is dropped, so a JSON or
 * text reader sees the text only.
 * @param buf        out: the content, NUL-terminated (one byte beyond *len), freed by the
 *                   caller with free(); NULL on error
 * @param len        out: bytes read
 * @param err        on error "PATH: cannot open: No such file or directory", "PATH: larger than
 *                   the 256 MiB sizeup reads at once", ... (cap bytes); may be NULL
 * @return READFILE_OK or a READFILE_E* code.
 */
int readfile(const char *path, size_t max_bytes, char **buf, size_t *len, char *err, size_t cap);

/**
 * The first line of a file that holds a secret (a password file: `--mysql-password-file`, a
 * study's `password_file`), without its line end ("\n" or "\r\n"); an empty file gives "".
 * The stack copy is wiped before returning; lines past 1023 bytes are cut there. The process
 * is marked not dumpable first (nodump.h): it holds a secret from then on.
 * @param out  out: a new string, freed by the caller (wipe it first: memset, then free); NULL
 *             on error
 * @param why  on error "cannot read PATH: No such file or directory" or "out of memory"
 *             (cap bytes)
 * @return 0, or -1 (nothing allocated).
 */
int readfile_secret_line(const char *path, char **out, char *why, size_t cap);

/** Text of a size cap for messages and --help: "256 MiB", "16 MiB", "512 KiB". Returns buf. */
const char *readfile_size_text(size_t bytes, char *buf, size_t cap);

#endif
