/*
 * figfmt.h - figures for people: the one formatter of numbers that sizeup prints in tables,
 * notes and reports (issue 29.2: four formatters printed figures before, two of them the same
 * code). Each style keeps the text a figure had; the style says which.
 *
 *   FIG_PLAIN      "-" when not finite; at 1000 and above no decimals ("14962"); below, 4
 *                  significant digits ("0.09605", "467.8")
 *   FIG_LARGE      at 10^4 and above (below 10^15) no decimals ("126728", "11082"); else 4
 *                  significant digits ("1.895"; 9999.5 gives "1e+04"); not finite as printf
 *   FIG_THOUSANDS  "-" when not finite; at 1000 and above no decimals with thousands separators
 *                  ("3,097"); below, 4 significant digits
 *
 * Thread-safety: pure (writes only buf).
 */
#ifndef SIZEUP_UTIL_FIGFMT_H
#define SIZEUP_UTIL_FIGFMT_H

#include <stddef.h>

enum fig_style { FIG_PLAIN, FIG_LARGE, FIG_THOUSANDS };

/**
 * Write v in style into buf (cap bytes, >= 1; cut to fit as snprintf does).
 * @return buf
 */
const char *fig_fmt(char *buf, size_t cap, double v, enum fig_style style);

#endif
