/*
 * jsonpos.h - where a value sits in JSON text: turns a JSON path such as
 * "$.instances[2].prices[0].amount" into the 1-based line and column of the value, so that
 * validation errors found after parsing (jansson keeps no positions) can point at the text.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_UTIL_JSONPOS_H
#define SIZEUP_UTIL_JSONPOS_H

#include <stddef.h>

/**
 * Locate the value named by path in text.
 *
 * @param text  JSON text of len bytes (need not be NUL-terminated); it should parse, but a
 *              malformed text only makes the search stop early
 * @param path  "$" followed by ".key" (key made of any characters but '.', '[') and "[index]"
 *              components; "$" alone is the whole document
 * @param line  out: 1-based line of the value's first character
 * @param column out: 1-based column in bytes
 * @return 0 when found; -1 when the path is malformed or does not exist in text (then line
 *         and column point at the deepest value found, at least the document start).
 */
int jsonpos_find(const char *text, size_t len, const char *path, long *line, long *column);

#endif
