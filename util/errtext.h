/*
 * errtext.h - error text with a position: "FILE:LINE:COLUMN: what was wrong, what was
 * expected", the one shape every sizeup message about bad input takes. The
 * text goes into a caller's buffer (an error struct's msg[]); nothing is allocated.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_UTIL_ERRTEXT_H
#define SIZEUP_UTIL_ERRTEXT_H

#include <stdarg.h>
#include <stddef.h>

/**
 * Format a message with its position into buf (cap bytes, always NUL-terminated when cap > 0;
 * a long message is cut, never overflows).
 * @param file    file name, or NULL/"" for none (then line and column are not written either)
 * @param line    1-based line, or <= 0 for none (then column is not written)
 * @param column  1-based column in bytes, or <= 0 for none
 * @param fmt     printf-style text of the message
 * @return buf.
 */
char *errtext_set(char *buf, size_t cap, const char *file, long line, long column, const char *fmt,
                  ...) __attribute__((format(printf, 6, 7)));

/** errtext_set with a va_list. @return buf. */
char *errtext_vset(char *buf, size_t cap, const char *file, long line, long column, const char *fmt,
                   va_list ap) __attribute__((format(printf, 6, 0)));

#endif
