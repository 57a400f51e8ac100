/* figfmt.c - figures for people (figfmt.h). */
#include "figfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* v >= 1000 in magnitude, without decimals, a comma between groups of three digits. */
static void thousands(char *buf, size_t cap, double v)
{
    char digits[64], *o = buf;
    size_t len, lead;
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    len = strlen(digits);
    lead = len % 3 ? len % 3 : 3;
    if (cap < len + len / 3 + 3) {
        snprintf(buf, cap, "%.0f", v);
        return;
    }
    if (v < 0)
        *o++ = '-';
    for (size_t i = 0; i < len; i++) {
        if (i >= lead && (i - lead) % 3 == 0)
            *o++ = ',';
        *o++ = digits[i];
    }
    *o = '\0';
}

const char *fig_fmt(char *buf, size_t cap, double v, enum fig_style style)
{
    switch (style) {
    case FIG_LARGE:
        if (fabs(v) >= 1e4 && fabs(v) < 1e15)
            snprintf(buf, cap, "%.0f", v);
        else
            snprintf(buf, cap, "%.4g", v);
        break;
    case FIG_THOUSANDS:
        if (!isfinite(v))
            snprintf(buf, cap, "-");
        else if (fabs(v) < 1000)
            snprintf(buf, cap, "%.4g", v);
        else
            thousands(buf, cap, v);
        break;
    default:
        if (!isfinite(v))
            snprintf(buf, cap, "-");
        else if (fabs(v) >= 1000)
            snprintf(buf, cap, "%.0f", v);
        else
            snprintf(buf, cap, "%.4g", v);
        break;
    }
    return buf;
}
