/* svg.c - inline-SVG plotting helpers (svg.h). */
#include "svg.h"

#include <math.h>
#include <string.h>

void svg_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static double px(const struct svg_plot *p, double x)
{
    double t = p->logx ? (log2(x) - log2(p->x0)) / (log2(p->x1) - log2(p->x0))
                       : (x - p->x0) / (p->x1 - p->x0);
    return p->ml + t * (p->w - p->ml - p->mr);
}

static double py(const struct svg_plot *p, double y)
{
    double t = (y - p->y0) / (p->y1 - p->y0);
    if (t < -0.05)
        t = -0.05;
    if (t > 1.05)
        t = 1.05;
    return p->h - p->mb - t * (p->h - p->mt - p->mb);
}

static int visible(const struct svg_plot *p, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!p->logx || x > 0) && x >= p->x0 * (1 - 1e-9) &&
           x <= p->x1 * (1 + 1e-9);
}

/* A tick step of 1, 2 or 5 x 10^k giving about n ticks over span. */
static double nice_step(double span, int n)
{
    double raw = span / n, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static void fmt_tick(char *buf, size_t cap, double v)
{
    if (fabs(v) >= 10000)
        snprintf(buf, cap, "%.0fk", v / 1000);
    else
        snprintf(buf, cap, "%g", v);
}

void svg_plot_begin(struct svg_plot *p, FILE *f, const char *title, const char *xlabel,
                    const char *ylabel, double x0, double x1, double y0, double y1)
{
    double step;
    char buf[32];
    memset(p, 0, sizeof *p);
    p->f = f;
    p->w = 440;
    p->h = 290;
    p->ml = 62;
    p->mr = 16;
    p->mt = 30;
    p->mb = 44;
    if (!(x1 > x0))
        x1 = x0 + 1;
    p->logx = x0 > 0 && x1 / x0 > 16;
    if (p->logx) {
        p->x0 = pow(2, floor(log2(x0)));
        p->x1 = pow(2, ceil(log2(x1)));
    } else {
        step = nice_step(x1 - x0, 5);
        p->x0 = floor(x0 / step) * step;
        p->x1 = ceil(x1 / step) * step;
    }
    if (!(y1 > y0))
        y1 = y0 + 1;
    step = nice_step(y1 - y0, 5);
    p->y0 = floor(y0 / step) * step;
    p->y1 = ceil(y1 / step) * step;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" viewBox=\"0 0 %g %g\" "
            "width=\"%g\" height=\"%g\" role=\"img\">\n<title>",
            p->w, p->h, p->w, p->h);
    svg_escape(f, title);
    fprintf(f, "</title>\n<text class=\"ptitle\" x=\"%g\" y=\"18\">", p->ml);
    svg_escape(f, title);
    fprintf(f, "</text>\n<g class=\"axes\">\n");
    /* y grid and ticks */
    for (double v = p->y0; v <= p->y1 + step * 1e-9; v += step) {
        fmt_tick(buf, sizeof buf, fabs(v) < step * 1e-9 ? 0 : v);
        fprintf(f,
                "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                p->ml, py(p, v), p->w - p->mr, py(p, v), p->ml - 5, py(p, v) + 4, buf);
    }
    /* x ticks */
    if (p->logx) {
        for (double v = p->x0; v <= p->x1 * (1 + 1e-9); v *= 2) {
            fmt_tick(buf, sizeof buf, v);
            fprintf(f,
                    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                    "</text>\n",
                    px(p, v), p->mt, px(p, v), p->h - p->mb, px(p, v), p->h - p->mb + 15, buf);
        }
    } else {
        step = nice_step(p->x1 - p->x0, 5);
        for (double v = p->x0; v <= p->x1 + step * 1e-9; v += step) {
            fmt_tick(buf, sizeof buf, v);
            fprintf(f,
                    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
                    "</text>\n",
                    px(p, v), p->mt, px(p, v), p->h - p->mb, px(p, v), p->h - p->mb + 15, buf);
        }
    }
    fprintf(f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
            p->ml, p->mt, p->w - p->ml - p->mr, p->h - p->mt - p->mb);
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            (p->ml + p->w - p->mr) / 2, p->h - 8);
    svg_escape(f, xlabel);
    fprintf(f, "%s</text>\n", p->logx ? " (log scale)" : "");
    fprintf(f,
            "<text class=\"label\" transform=\"translate(14,%.1f) rotate(-90)\" "
            "text-anchor=\"middle\">",
            (p->mt + p->h - p->mb) / 2);
    svg_escape(f, ylabel);
    fprintf(f, "</text>\n</g>\n");
}

void svg_plot_end(struct svg_plot *p)
{
    fprintf(p->f, "</svg>\n");
}

static void open_series(FILE *f, const char *series, size_t n)
{
    fprintf(f, "<g class=\"series s-");
    svg_escape(f, series);
    fprintf(f, "\" data-series=\"");
    svg_escape(f, series);
    fprintf(f, "\" data-points=\"%zu\">", n);
}

void svg_line(struct svg_plot *p, const char *series, const double *x, const double *y, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += visible(p, x[i], y[i]);
    open_series(p->f, series, k);
    fprintf(p->f, "<polyline points=\"");
    /* clipped at the top of the plot: the line stops where it leaves the range */
    for (size_t i = 0; i < n; i++)
        if (visible(p, x[i], y[i])) {
            if (y[i] > p->y1) {
                double y0 = i ? y[i - 1] : y[i], x0 = i ? x[i - 1] : x[i];
                if (i && visible(p, x0, y0) && y0 <= p->y1) {
                    double t = (p->y1 - y0) / (y[i] - y0);
                    double xc = p->logx ? exp2(log2(x0) + t * (log2(x[i]) - log2(x0)))
                                        : x0 + t * (x[i] - x0);
                    fprintf(p->f, "%.1f,%.1f ", px(p, xc), py(p, p->y1));
                }
                break;
            }
            fprintf(p->f, "%.1f,%.1f ", px(p, x[i]), py(p, y[i]));
        }
    fprintf(p->f, "\"/></g>\n");
}

void svg_points(struct svg_plot *p, const char *series, const double *x, const double *y, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += visible(p, x[i], y[i]);
    open_series(p->f, series, k);
    for (size_t i = 0; i < n; i++)
        if (visible(p, x[i], y[i]))
            fprintf(p->f,
                    "<circle%s cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>%g, %.4g%s</title>"
                    "</circle>",
                    y[i] > p->y1 ? " class=\"off\"" : "", px(p, x[i]),
                    py(p, y[i] > p->y1 ? p->y1 : y[i]), x[i], y[i],
                    y[i] > p->y1 ? " (above the plot)" : "");
    fprintf(p->f, "</g>\n");
}

void svg_errorbars(struct svg_plot *p, const char *series, const double *x, const double *y,
                   const double *half, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += visible(p, x[i], y[i]) && isfinite(half[i]) && half[i] >= 0;
    open_series(p->f, series, k);
    for (size_t i = 0; i < n; i++) {
        double xp, lo, hi;
        if (!(visible(p, x[i], y[i]) && isfinite(half[i]) && half[i] >= 0))
            continue;
        xp = px(p, x[i]);
        lo = py(p, fmax(y[i] - half[i], p->y0));
        hi = py(p, fmin(y[i] + half[i], p->y1));
        fprintf(p->f,
                "<line class=\"bar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>%g: "
                "%.4g \xc2\xb1 %.3g (95 %%)</title></line>"
                "<line class=\"cap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                "<line class=\"cap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                xp, lo, xp, hi, x[i], y[i], half[i], xp - 3, lo, xp + 3, lo, xp - 3, hi, xp + 3,
                hi);
    }
    fprintf(p->f, "</g>\n");
}

void svg_band(struct svg_plot *p, const char *series, const double *x, const double *lo,
              const double *hi, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += visible(p, x[i], lo[i]) && isfinite(hi[i]);
    open_series(p->f, series, k);
    fprintf(p->f, "<polygon points=\"");
    for (size_t i = 0; i < n; i++)
        if (visible(p, x[i], lo[i]) && isfinite(hi[i]))
            fprintf(p->f, "%.1f,%.1f ", px(p, x[i]), py(p, hi[i]));
    for (size_t i = n; i-- > 0;)
        if (visible(p, x[i], lo[i]) && isfinite(hi[i]))
            fprintf(p->f, "%.1f,%.1f ", px(p, x[i]), py(p, lo[i]));
    fprintf(p->f, "\"/></g>\n");
}

void svg_hline(struct svg_plot *p, const char *series, double y, const char *label)
{
    open_series(p->f, series, 1);
    fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", p->ml, py(p, y),
            p->w - p->mr, py(p, y));
    fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", p->w - p->mr - 4,
            py(p, y) - 5);
    svg_escape(p->f, label);
    fprintf(p->f, "</text></g>\n");
}

void svg_marker(struct svg_plot *p, const char *series, double x, double y, const char *label)
{
    int v = visible(p, x, y);
    open_series(p->f, series, v ? 1 : 0);
    if (v) {
        double cx = px(p, x), cy = py(p, y);
        int left = cx > (p->ml + p->w - p->mr) / 2;
        fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\"/>", cx, cy);
        fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cx + (left ? -9 : 9),
                cy + (cy < p->mt + 20 ? 16 : -9), left ? "end" : "start");
        svg_escape(p->f, label);
        fprintf(p->f, "</text>");
    }
    fprintf(p->f, "</g>\n");
}

void svg_bars(FILE *f, const char *title, const char *unit, const char *const *labels,
              const double *values, const double *lo, const double *hi, size_t n)
{
    /* the label column as wide as the longest label (about 7 px a character at 12.5 px), so
     * none is cut, as in svg_tornado */
    double w, lw = 170, bh = 24, top = 34, max = 0, h;
    char buf[48];
    for (size_t i = 0; i < n; i++) {
        double lwi = 7.0 * (double)strlen(labels[i]) + 16;
        if (lwi > lw)
            lw = fmin(lwi, 520);
        if (isfinite(values[i]) && values[i] > max)
            max = values[i];
        if (hi && isfinite(hi[i]) && hi[i] > max)
            max = hi[i];
    }
    if (!(max > 0))
        max = 1;
    w = lw + 730;
    h = top + bh * (double)n + 12;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" viewBox=\"0 0 %g %g\" "
            "width=\"%g\" height=\"%g\" role=\"img\">\n<title>",
            w, h, w, h);
    svg_escape(f, title);
    fprintf(f, "</title>\n<text class=\"ptitle\" x=\"%g\" y=\"18\">", lw);
    svg_escape(f, title);
    fprintf(f, " (");
    svg_escape(f, unit);
    fprintf(f, ")</text>\n");
    open_series(f, "bars", n);
    for (size_t i = 0; i < n; i++) {
        double y = top + bh * (double)i, len = 0, end;
        double scale = (w - lw - 110) / max;
        if (isfinite(values[i]) && values[i] > 0)
            len = scale * values[i];
        end = len;
        fprintf(f, "<text class=\"blabel\" x=\"%g\" y=\"%.1f\" text-anchor=\"end\">", lw - 8,
                y + bh * 0.65);
        svg_escape(f, labels[i]);
        fprintf(f, "</text><rect x=\"%g\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", lw, y + 3,
                len, bh - 6);
        if (lo && hi && isfinite(values[i]) && isfinite(lo[i]) && isfinite(hi[i]) &&
            hi[i] >= lo[i]) {
            /* the 95 % interval as a whisker across the bar's end */
            double a = lw + scale * fmax(0, lo[i]), b = lw + scale * hi[i], ym = y + bh / 2;
            fprintf(f,
                    "<line class=\"ebar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    "data-lo=\"%.6g\" data-hi=\"%.6g\"/><line class=\"ebar\" x1=\"%.1f\" "
                    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><line class=\"ebar\" x1=\"%.1f\" "
                    "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                    a, ym, b, ym, lo[i], hi[i], a, ym - 5, a, ym + 5, b, ym - 5, b, ym + 5);
            end = fmax(end, b - lw);
        }
        if (isfinite(values[i]))
            snprintf(buf, sizeof buf, values[i] >= 1000 ? "%.0f" : "%.4g", values[i]);
        else
            snprintf(buf, sizeof buf, "n/a");
        fprintf(f, "<text class=\"bvalue\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", lw + end + 6,
                y + bh * 0.65, buf);
    }
    fprintf(f, "</g>\n</svg>\n");
}

void svg_tornado(FILE *f, const char *title, const char *const *labels, const double *lo,
                 const double *hi, size_t n, double base)
{
    /* the label column as wide as the longest label (about 7 px a character at 12.5 px), so
     * none is cut; ticks on the log axis at 1, 2, 5 x 10^k (issue 28.18) */
    double lw = 160, pw = 520, rw = 110, bh = 24, top = 48, h, w, vmin = base, vmax = base;
    double yb;
    char buf[48];
    for (size_t i = 0; i < n; i++) {
        double lwi = 7.0 * (double)strlen(labels[i]) + 16;
        if (lwi > lw)
            lw = fmin(lwi, 520);
        if (isfinite(lo[i]) && lo[i] > 0) {
            vmin = fmin(vmin, lo[i]);
            vmax = fmax(vmax, lo[i]);
        }
        if (isfinite(hi[i]) && hi[i] > 0) {
            vmin = fmin(vmin, hi[i]);
            vmax = fmax(vmax, hi[i]);
        }
    }
    w = lw + pw + rw;
    vmin = fmin(vmin, 1.0) / 1.25; /* the flip (1) is always on the axis */
    vmax = fmax(vmax, 1.0) * 1.25;
    if (!(vmin > 0) || !(vmax > vmin)) {
        vmin = 0.5;
        vmax = 2;
    }
#define TX(v) (lw + pw * (log(v) - log(vmin)) / (log(vmax) - log(vmin)))
    yb = top + bh * (double)n;
    h = yb + 44;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tornado\" viewBox=\"0 0 %g %g\" "
            "width=\"%g\" height=\"%g\" role=\"img\">\n<title>",
            w, h, w, h);
    svg_escape(f, title);
    fprintf(f, "</title>\n<text class=\"ptitle\" x=\"8\" y=\"18\">");
    svg_escape(f, title);
    fprintf(f, "</text>\n");
    /* the axis: a tick at each 1, 2, 5 x 10^k in range, with a grid line */
    for (double dec = pow(10, floor(log10(vmin))); dec <= vmax; dec *= 10)
        for (int k = 0; k < 3; k++) {
            double v = dec * (k == 0 ? 1 : k == 1 ? 2 : 5);
            if (v < vmin || v > vmax)
                continue;
            fprintf(f,
                    "<line class=\"grid\" x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\"/><text "
                    "class=\"tick\" x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%gx</text>\n",
                    TX(v), top - 2, TX(v), yb, TX(v), yb + 13, v);
        }
    open_series(f, "tornado", n);
    for (size_t i = 0; i < n; i++) {
        double y = top + bh * (double)i;
        fprintf(f, "<text class=\"blabel\" x=\"%g\" y=\"%.1f\" text-anchor=\"end\">", lw - 8,
                y + bh * 0.65);
        svg_escape(f, labels[i]);
        fprintf(f, "</text>");
        if (isfinite(lo[i]) && isfinite(hi[i]) && lo[i] > 0 && hi[i] > 0) {
            double b = TX(fmax(fmax(lo[i], hi[i]), base));
            fprintf(f,
                    "<rect class=\"lowbar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%.1f\" fill=\"%s\"/>",
                    fmin(TX(lo[i]), TX(base)), y + 3, fabs(TX(lo[i]) - TX(base)), bh - 6,
                    "#1f5fbf");
            fprintf(f,
                    "<rect class=\"highbar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%.1f\" fill=\"%s\"/>",
                    fmin(TX(hi[i]), TX(base)), y + 3, fabs(TX(hi[i]) - TX(base)), bh - 6,
                    "#e0701b");
            snprintf(buf, sizeof buf, "%.3gx / %.3gx", lo[i], hi[i]);
            fprintf(f, "<text class=\"bvalue\" x=\"%.1f\" y=\"%.1f\">%s</text>", b + 6,
                    y + bh * 0.65, buf);
        }
        fputc('\n', f);
    }
    fprintf(f, "</g>\n");
    fprintf(f,
            "<line class=\"base\" x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" "
            "stroke=\"#333\"/>\n<text class=\"tick\" x=\"%.1f\" y=\"%g\" "
            "text-anchor=\"middle\">now %.3gx</text>\n",
            TX(base), top - 4, TX(base), yb, TX(base), top - 8, base);
    fprintf(f,
            "<line class=\"flip\" x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" "
            "stroke=\"#c62828\" stroke-dasharray=\"4 3\"/>\n<text class=\"tick\" x=\"%.1f\" "
            "y=\"%g\" text-anchor=\"middle\">1x: the decision flips</text>\n</svg>\n",
            TX(1.0), top - 4, TX(1.0), yb, TX(1.0), yb + 30);
#undef TX
}
