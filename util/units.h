/*
 * units.h - strict parsers for the values people type: integers, reals, durations with a unit,
 * sizes with a binary unit, lists of positive integers and fractions or percentages. Shared by
 * the command line and by the record files (study, catalogs) so a value means the same
 * wherever it is written.
 *
 * Every parser reads the whole string (no trailing text), checks errno and the range, and
 * leaves *out untouched on failure.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_UTIL_UNITS_H
#define SIZEUP_UTIL_UNITS_H

#include <stddef.h>

/**
 * Parse a whole string as a signed integer in [min, max] (base 10, no trailing characters).
 * @return 0 and *out set, or -1 (empty, not a number, trailing text, out of range).
 */
int units_parse_int(const char *s, long long min, long long max, long long *out);

/**
 * Parse a whole string as a finite double in [min, max].
 * @return 0 and *out set, or -1.
 */
int units_parse_double(const char *s, double min, double max, double *out);

/**
 * Parse a duration: a number with an optional unit ms, s (default), m, h: "10", "10s", "2m",
 * "500ms", "1.5h". Result in seconds, >= 0.
 * @return 0 and *out_s set, or -1.
 */
int units_parse_duration(const char *s, double *out_s);

/**
 * Parse a size in bytes: a number with an optional binary unit K, M, G, T (also KiB, MiB, ...,
 * case-insensitive; 1K = 1024): "64M", "1G", "4096".
 * @return 0 and *out_bytes set, or -1 (also when it overflows 2^63-1).
 */
int units_parse_size(const char *s, long long *out_bytes);

/**
 * Parse a comma-separated list of positive integers, "1,2,4,8", each in [1, max].
 * @param out    caller's array of capacity cap
 * @param n_out  number of values parsed
 * @return 0, or -1 (empty item, not a number, out of range, more than cap items).
 */
int units_parse_int_list(const char *s, long long max, long long *out, size_t cap, size_t *n_out);

/**
 * Parse a percentage or fraction: "2%" -> 0.02, "0.02" -> 0.02. Range (0, 1].
 * @return 0 and *out set, or -1.
 */
int units_parse_fraction(const char *s, double *out);

#endif
