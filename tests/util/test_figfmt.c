/* test_figfmt.c - figures for people (util/figfmt.h): each style against the text printf's rules
 * give by hand: %.0f at and above the style's threshold, %.4g below, "-" for what is not a
 * number where the style says so, and thousands separators every three digits. */
#include "check.h"
#include "figfmt.h"

#include <math.h>

int main(void)
{
    char b[64], small[6];
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 14961.59, FIG_PLAIN), "14962");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 1000, FIG_PLAIN), "1000");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 0.0960459, FIG_PLAIN), "0.09605");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 467.84, FIG_PLAIN), "467.8");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, -2500.4, FIG_PLAIN), "-2500");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, NAN, FIG_PLAIN), "-");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, INFINITY, FIG_PLAIN), "-");
    /* large: integers from 10^4, 4 significant digits below (so 9999.5 rounds to 1e+04) */
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 1337751.2, FIG_LARGE), "1337751");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 11082.4, FIG_LARGE), "11082");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 1.89514, FIG_LARGE), "1.895");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 9999.5, FIG_LARGE), "1e+04");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 2e15, FIG_LARGE), "2e+15");
    /* thousands: a comma every three digits from the right */
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 3097.4, FIG_THOUSANDS), "3,097");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 41390, FIG_THOUSANDS), "41,390");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, -1234567, FIG_THOUSANDS), "-1,234,567");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 100000, FIG_THOUSANDS), "100,000");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, 999.4, FIG_THOUSANDS), "999.4");
    CHECK_STR_EQ(fig_fmt(b, sizeof b, NAN, FIG_THOUSANDS), "-");
    /* a buffer too small for the separators: the plain integer, cut as snprintf cuts */
    CHECK_STR_EQ(fig_fmt(small, sizeof small, 123456, FIG_THOUSANDS), "12345");
    return check_report();
}
