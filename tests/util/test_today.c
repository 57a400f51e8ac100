/* test_today.c - util/today.h: today from SOURCE_DATE_EPOCH (1796515200 s is 2026-12-06
 * 00:00:00 UTC: 20,793 days x 86,400 s) and ages in whole months counted by hand. */
#include "check.h"
#include "today.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
    char d[11];
    setenv("SOURCE_DATE_EPOCH", "1796515200", 1);
    CHECK_STR_EQ(today_ymd(d), "2026-12-06");
    setenv("SOURCE_DATE_EPOCH", "1796515199", 1); /* one second earlier: the day before */
    CHECK_STR_EQ(today_ymd(d), "2026-12-05");
    setenv("SOURCE_DATE_EPOCH", "253402300800", 1); /* 10000-01-01: not a 10-character date */
    CHECK(strlen(today_ymd(d)) == 10 && d[4] == '-');
    setenv("SOURCE_DATE_EPOCH", "not a number", 1); /* ignored: the clock's date */
    CHECK(strlen(today_ymd(d)) == 10 && d[4] == '-');
    /* 2024-02-21 .. 2026-12-06: 34 calendar months, the 21st not reached in December: 33 */
    CHECK_INT_EQ(months_between("2024-02-21", "2026-12-06"), 33);
    CHECK_INT_EQ(months_between("2024-02-06", "2026-12-06"), 34);
    CHECK_INT_EQ(months_between("2026-12-01", "2026-12-06"), 0);
    CHECK_INT_EQ(months_between("2026-11-30", "2026-12-06"), 0);
    CHECK_INT_EQ(months_between("2026-12-06", "2024-02-21"), -33);
    CHECK_INT_EQ(months_between("2026-13-01", "2026-12-06"), -1000000);
    CHECK_INT_EQ(months_between("yesterday", "2026-12-06"), -1000000);
    return check_report();
}
