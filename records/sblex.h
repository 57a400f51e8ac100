/*
 * sblex.h - the small lexer under the sysbench output parser: strict, locale-free matching of
 * literal text and non-negative numbers inside one line. Every function that takes
 * `const char **s` advances *s past what it matched and leaves it unchanged on failure.
 * Pure functions; thread-safe.
 */
#ifndef SIZEUP_RECORDS_SBLEX_H
#define SIZEUP_RECORDS_SBLEX_H

#include <stddef.h>
#include <stdint.h>

/** Copy src into dst (cap bytes) with bytes outside printable ASCII replaced by '?'. */
void sblex_sanitize(char *dst, size_t cap, const char *src);

/** s past blanks and tabs. */
const char *sblex_skip_ws(const char *s);

/** s past prefix when s starts with it (spaces match exactly), else NULL. */
const char *sblex_after(const char *s, const char *prefix);

/** A non-negative finite decimal number after optional blanks. 0, or -1 (a '-' is no number). */
int sblex_num(const char **s, double *out);

/** A non-negative integer after optional blanks. 0, or -1. */
int sblex_count(const char **s, int64_t *out);

/** The literal text after optional blanks. 0, or -1. */
int sblex_lit(const char **s, const char *text);

/** 1 when only blanks remain. */
int sblex_at_end(const char *s);

/** The whole rest is "N (X per sec.)" or "N (X per second)". 0, or -1. */
int sblex_count_rate(const char *s, int64_t *n, double *rate);

/** A size as 0.4/0.5 fileio prints it ("93.875Mb", "8Gb", "512Kb", "0b") in MiB. 0, or -1. */
int sblex_size_mib(const char **s, double *mib);

#endif
