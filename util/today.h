/*
 * today.h - the date sizeup takes as today, and the age of a dated figure in months.
 *
 * Today is the UTC date of SOURCE_DATE_EPOCH when that variable holds a number of seconds since
 * 1970 up to the end of 9999 (the reproducible-builds convention,
 * reproducible-builds.org/specs/source-date-epoch: the output of a run then does not depend on the
 * day it ran, as README's examples and the tests need), else of the clock.
 *
 * Thread-safety: reads the environment; pure otherwise.
 */
#ifndef SIZEUP_UTIL_TODAY_H
#define SIZEUP_UTIL_TODAY_H

/** Today as YYYY-MM-DD into out (11 bytes). @return out. */
const char *today_ymd(char out[11]);

/**
 * Whole months from date a to date b (YYYY-MM-DD each), counting a month only when its day is
 * reached (2024-02-21 to 2026-12-06: 33). @return the months (negative when b is before a), or
 * -1000000 when either is not such a date.
 */
int months_between(const char *a, const char *b);

#endif
