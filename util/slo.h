/*
 * slo.h - a latency target (service-level objective), the one grammar every sizeup command and
 * record file uses for it:
 *
 *     STAT:VALUE    STAT   avg (also mean) or pNN with 0 < NN < 100 (p50, p95, p99, p99.9)
 *                   VALUE  a positive number with its unit: us, ms or s
 *
 * e.g. "p95:50ms", "avg:20ms", "p99:0.2s", "p99.9:800us". The unit is required: "p95:50" is
 * refused with a hint ("give a unit, e.g. p95:50ms"), because a bare number meant
 * milliseconds in one place and seconds in another before this type existed.
 *
 * A latency alone (a VALUE without STAT, e.g. probe's --max-latency 200ms) has the same rule:
 * slo_parse_latency().
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_UTIL_SLO_H
#define SIZEUP_UTIL_SLO_H

#include <stddef.h>

/* A latency target: the mean (pct 0) or a percentile of latency, at most target_s seconds. */
struct slo {
    double pct;      /* 0 for the mean (avg), else the percentile in (0, 100): 50, 95, 99.9 */
    double target_s; /* the bound in seconds, > 0 and finite */
};

/* Longest text slo_parse accepts and slo_format writes, with its NUL. */
#define SLO_TEXT_MAX 64

/**
 * Parse a latency target "STAT:VALUE" (grammar above).
 *
 * @param s    the text, NUL-terminated; the whole string must be the target (no spaces)
 * @param out  set on success; untouched on failure
 * @param err  on failure, cap bytes: "'p95:50' is not a latency target: give a unit, e.g.
 *             p95:50ms" or "... expected avg or pNN (0 < NN < 100), a colon and a latency
 *             with its unit (us, ms or s), e.g. p95:50ms"; the caller adds where it was
 *             written ("--slo: ", "FILE:LINE:COL: "). May be NULL when cap is 0.
 * @return 0, or -1 (err set).
 */
int slo_parse(const char *s, struct slo *out, char *err, size_t cap);

/**
 * Parse a latency with its unit: "50ms", "0.2s", "800us". A bare number is refused with a hint
 * ("give a unit, e.g. 50ms").
 *
 * @param s      the text, NUL-terminated
 * @param out_s  set to the latency in seconds (> 0, finite) on success; untouched on failure
 * @param err    the reason on failure (cap bytes), without the option name; may be NULL when
 *               cap is 0
 * @return 0, or -1.
 */
int slo_parse_latency(const char *s, double *out_s, char *err, size_t cap);

/**
 * The target in the grammar, such that slo_parse(slo_format(x)) == x to the printed
 * precision (%g, 6 significant digits): "p95:50ms", "avg:20ms", "p99:1.5s", "p99.9:800us".
 * The unit is ms for 1 ms <= target < 10 s, s above, us below.
 * @return buf (cap bytes; SLO_TEXT_MAX is always enough).
 */
const char *slo_format(const struct slo *slo, char *buf, size_t cap);

/**
 * The target for people: "p95 <= 50 ms", "avg <= 20 ms" (always in milliseconds).
 * @return buf (cap bytes; SLO_TEXT_MAX is always enough).
 */
const char *slo_text(const struct slo *slo, char *buf, size_t cap);

#endif
