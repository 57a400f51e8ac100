/*
 * lines.h - read a text input one line at a time, with a look at its beginning first: the one
 * way the importers read their input, so memory stays flat whatever the file's size (only the
 * current line and a 64 KiB read buffer are held).
 *
 * A source is a file ("-" is stdin) or a buffer in memory (not copied). The first bytes can be
 * looked at (lines_peek) before any line is taken, to detect the format; the lines then start
 * at the beginning. A UTF-8 byte order mark at the very start is skipped. A line is handed out
 * without its '\n' and without a '\r' before it (LF or CRLF); NUL bytes inside a line are kept
 * (len says where the line ends).
 *
 * Thread-safety: a struct lines is used by one thread at a time.
 */
#ifndef SIZEUP_RECORDS_LINES_H
#define SIZEUP_RECORDS_LINES_H

#include <stddef.h>
#include <stdio.h>

/* Longest line a source hands out (64 MiB): a longer one is LINES_ETOOLONG. */
#define LINES_MAX_LINE ((size_t)64 * 1024 * 1024)
/* How many bytes lines_peek() can show: the first 64 KiB. */
#define LINES_PEEK_BYTES ((size_t)64 * 1024)

enum {
    LINES_OK = 0,
    LINES_EIO = -1,      /* cannot open or read (message has strerror) */
    LINES_ETOOLONG = -2, /* a line longer than LINES_MAX_LINE */
    LINES_ENOMEM = -3
};

struct lines {
    FILE *f;         /* NULL for a buffer source */
    int close_f;     /* the source opened f and closes it */
    char *buf;       /* read buffer (file) or the caller's bytes (buffer source) */
    size_t cap;      /* buffer capacity (file source) */
    size_t len, pos; /* bytes in buf; next byte to hand out */
    int eof;         /* nothing more to read into buf */
    int started;     /* the first line was taken (the BOM check is done) */
    char *line;      /* the current line, NUL-terminated; valid until the next call */
    size_t line_len; /* its length in bytes, without the terminator */
    size_t line_cap;
    long no;        /* 1-based number of the current line; 0 before the first */
    int no_newline; /* the current line is the last and has no '\n' (the file was cut?) */
    const char *name;
};

/**
 * Open path ("-": standard input) for reading.
 * @param name  name used in messages (kept by pointer; must outlive the source)
 * @param err   on failure "NAME: cannot open: reason" (cap bytes)
 * @return LINES_OK, LINES_EIO (path missing, unreadable or a directory), LINES_ENOMEM.
 */
int lines_open(struct lines *l, const char *path, const char *name, char *err, size_t cap);

/** A source over len bytes at data (not copied: data must outlive the source). Never fails. */
void lines_open_mem(struct lines *l, const char *data, size_t len, const char *name);

/**
 * Look at the first bytes of the input without taking them (only before the first lines_next):
 * fills the buffer up to LINES_PEEK_BYTES or the end of input.
 * @param data  out: the bytes (after a byte order mark), valid until the next call
 * @param len   out: how many
 * @return LINES_OK or LINES_EIO (read error; err filled).
 */
int lines_peek(struct lines *l, const char **data, size_t *len, char *err, size_t cap);

/**
 * Take the next line into l->line / l->line_len (l->no counts it).
 * @return 1 (a line), 0 (end of input), LINES_EIO, LINES_ETOOLONG, LINES_ENOMEM (err filled
 *         with "NAME:LINE: ...").
 */
int lines_next(struct lines *l, char *err, size_t cap);

/** Close the file (if the source opened it) and free the buffers. NULL-safe. */
void lines_close(struct lines *l);

#endif
