/*
 * svg.h - small inline-SVG plotting helpers for the HTML report: an x-y plot with axes and
 * ticks (linear, or log2 on x when the range spans more than a factor 16), series as
 * polylines, marker sets and bands, a horizontal reference line, and a horizontal bar chart.
 *
 * Every series is one <g class="series" data-series="NAME" data-points="N"> element, so a
 * checker can count what was drawn. Text is XML-escaped. No scripts, no external assets.
 *
 * Use:
 *     struct svg_plot p;
 *     svg_plot_begin(&p, f, "title", "threads", "tps", x_min, x_max, y_min, y_max);
 *     svg_band(&p, "band", xs, lo, hi, n);
 *     svg_line(&p, "fit", xs, ys, n);
 *     svg_points(&p, "measured", xs, ys, n);
 *     svg_plot_end(&p);
 *
 * Thread-safety: touches only its arguments.
 */
#ifndef SIZEUP_ADVISOR_SVG_H
#define SIZEUP_ADVISOR_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg_plot {
    FILE *f;
    double x0, x1, y0, y1; /* data range shown */
    int logx;              /* 1: log2 x axis */
    double w, h;           /* size in px */
    double ml, mr, mt, mb; /* margins, px */
};

/** Write s to f with &, <, >, " and ' escaped. */
void svg_escape(FILE *f, const char *s);

/**
 * Open an <svg> with axes, ticks and labels for the data range [x0, x1] x [y0, y1]
 * (x0 > 0 for a log axis; y0 < y1). Ranges are widened to round tick values.
 */
void svg_plot_begin(struct svg_plot *p, FILE *f, const char *title, const char *xlabel,
                    const char *ylabel, double x0, double x1, double y0, double y1);

/** Close the <svg>. */
void svg_plot_end(struct svg_plot *p);

/** A polyline through n points (non-finite points skipped), x ascending; it stops where it
 * leaves the top of the plot. */
void svg_line(struct svg_plot *p, const char *series, const double *x, const double *y, size_t n);

/** A circle at each of n points; one above the plot is drawn hollow (class "off") on its top
 * edge, its title saying so. */
void svg_points(struct svg_plot *p, const char *series, const double *x, const double *y, size_t n);

/**
 * A vertical error bar at each of n points: from y - half to y + half (clipped to the plot's
 * y range), with 6 px caps; each is a <line class="bar" x1 y1 x2 y2> (y1 the low end, y2 the
 * high end) followed by two <line class="cap">, titled "x: y ± half (95 %)". Points whose half
 * or y is not finite, or whose x is outside the plot, get none; data-points counts the bars.
 */
void svg_errorbars(struct svg_plot *p, const char *series, const double *x, const double *y,
                   const double *half, size_t n);

/** A filled band between lo and hi over x (n points, finite ones only). */
void svg_band(struct svg_plot *p, const char *series, const double *x, const double *lo,
              const double *hi, size_t n);

/** A horizontal line at y across the plot, labelled. */
void svg_hline(struct svg_plot *p, const char *series, double y, const char *label);

/** One highlighted marker at (x, y) with a label. */
void svg_marker(struct svg_plot *p, const char *series, double x, double y, const char *label);

/**
 * A horizontal bar chart of n values (>= 0; non-finite drawn as "n/a") with labels (the label
 * column as wide as the longest, up to 520 px), one series "bars" with n data points. lo and hi
 * (both or neither may be NULL) give each value's 95 % interval, drawn as a whisker where both are
 * finite: three <line class="ebar">, the first across from lo to hi carrying data-lo and data-hi,
 * then its two caps; the axis reaches the largest hi.
 */
void svg_bars(FILE *f, const char *title, const char *unit, const char *const *labels,
              const double *values, const double *lo, const double *hi, size_t n);

/**
 * A tornado chart: for n inputs, a bar from the base value to the value with the input at its
 * low (blue) and at its high (orange), on a log axis ticked at 1, 2 and 5 x 10^k, with a line
 * at base ("now") and a dashed line at 1 (where the decision flips); the label column is as
 * wide as the longest label (up to 520 px), the title starts at the left edge. One series
 * "tornado" with n data points. Values are ratios > 0; a non-finite pair draws no bar.
 */
void svg_tornado(FILE *f, const char *title, const char *const *labels, const double *lo,
                 const double *hi, size_t n, double base);

#endif
