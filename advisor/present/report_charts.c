/*
 * report_charts.c - the report's charts (report_charts.h): throughput per cost as bars, every
 * candidate's curve on one axis, the disk choices' curves, and each configuration's throughput
 * and latency plots with their notes.
 */
#include "report_charts.h"

#include "figfmt.h"
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Candidates drawn on the overlay of every candidate, and their colours (the CSS's cand-K). */
#define REPORT_MAX_OVERLAY 10
static const char *const overlay_colour[REPORT_MAX_OVERLAY] = {
    "#1f5fbf", "#e0701b", "#2e7d32", "#c62828", "#7b3fb5",
    "#00838f", "#8d6e63", "#d81b60", "#5d6677", "#9e9d24"};

static const char *num(char *buf, size_t cap, double v)
{
    return fig_fmt(buf, cap, v, FIG_PLAIN);
}

/* The rows a table or chart of the page shows: the first REPORT_MAX_ROWS in ranking order. */
size_t report_page_rows(const struct rank_set *s)
{
    return s->n < REPORT_MAX_ROWS ? s->n : REPORT_MAX_ROWS;
}

/* Under a table or chart cut at page_rows: how many it leaves out, and where they are. */
void report_more_rows(FILE *f, const struct rank_set *s)
{
    if (s->n > REPORT_MAX_ROWS)
        fprintf(f,
                "<p class=\"muted\">The first %d of %zu configurations, in ranking order; "
                "<code>sizeup rank --json</code> (or <code>--csv</code>) has every row.</p>\n",
                REPORT_MAX_ROWS, s->n);
}

/* Every candidate's throughput curve (its first workload's levels) on one axis, in ranking
 * order, the first REPORT_MAX_OVERLAY of them, each in its colour with its name in the legend
 * (issue 28.18): which one is higher where, at a glance. */
void report_overlay(FILE *f, const struct rank_set *s)
{
    size_t idx[REPORT_MAX_OVERLAY], n = 0;
    double x0 = INFINITY, x1 = 0, ymax = 0;
    int by_nodes = -1;
    struct svg_plot p;
    char title[200];
    for (size_t i = 0; i < s->n && n < REPORT_MAX_OVERLAY; i++) {
        const struct curve *c = &rank_set_curves(s, i)[0];
        if (c->m == 0 || (by_nodes >= 0 && c->by_nodes != by_nodes))
            continue;
        by_nodes = c->by_nodes;
        idx[n++] = i;
        for (size_t j = 0; j < c->m; j++) {
            x0 = fmin(x0, c->lv[j].n);
            x1 = fmax(x1, c->lv[j].n);
            ymax = fmax(ymax, c->lv[j].x);
        }
    }
    if (n < 2 || !(x1 > x0) || !(ymax > 0))
        return;
    fprintf(f, "<h2>Every candidate on one axis</h2>\n<style>");
    for (size_t k = 0; k < n; k++)
        fprintf(f,
                "svg .s-cand-%zu polyline{fill:none;stroke:%s;stroke-width:2}"
                "svg .s-cand-%zu circle{fill:%s}",
                k, overlay_colour[k], k, overlay_colour[k]);
    fprintf(f, "</style>\n<p class=\"legend\">");
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "<span><i class=\"sw\" style=\"background:%s\"></i>", overlay_colour[k]);
        svg_escape(f, s->rows[idx[k]].config);
        fprintf(f, "%s</span>", s->from && s->from[s->row_curve[idx[k]]] ? " (predicted)" : "");
    }
    fprintf(f, "</p>\n");
    if (s->n > n)
        fprintf(f,
                "<p class=\"muted\">The first %zu in ranking order; the curves of each are "
                "drawn below.</p>\n",
                n);
    snprintf(title, sizeof title, "Throughput of every candidate (%s)", s->opt.mix[0].workload);
    fprintf(f, "<div class=\"card\">\n");
    svg_plot_begin(&p, f, title, curve_x_name(&rank_set_curves(s, idx[0])[0]), "tps", x0, x1, 0,
                   ymax * 1.1);
    for (size_t k = 0; k < n; k++) {
        const struct curve *c = &rank_set_curves(s, idx[k])[0];
        double xs[64], ys[64];
        size_t m = c->m < 64 ? c->m : 64;
        char series[16];
        for (size_t j = 0; j < m; j++) {
            xs[j] = c->lv[j].n;
            ys[j] = c->lv[j].x;
        }
        snprintf(series, sizeof series, "cand-%zu", k);
        svg_line(&p, series, xs, ys, m);
        svg_points(&p, series, xs, ys, m);
    }
    svg_plot_end(&p);
    fprintf(f, "</div>\n");
}

/* Most disk choices drawn on one measured configuration's overlay. */
#define REPORT_MAX_DISKS 12

/* rank --disks: per measured configuration, its measured curve and its curves on the disks it
 * was not measured on, on one axis (the first workload), each labelled at its end with the disk,
 * its size and what binds there (issue 24.7). */
void report_disk_overlays(FILE *f, const struct rank_set *s)
{
    int head = 0;
    if (!s->note)
        return;
    for (size_t b = 0; b < s->n; b++) {
        const struct curve *bc = rank_set_curves(s, b);
        size_t idx[REPORT_MAX_DISKS], n = 0;
        double x0 = INFINITY, x1 = 0, ymax = 0;
        struct svg_plot p;
        char title[300];
        if (s->from && s->from[s->row_curve[b]])
            continue; /* not measured */
        for (size_t i = 0; i < s->n && n < REPORT_MAX_DISKS; i++)
            if (s->note[s->row_curve[i]] && s->from && s->from[s->row_curve[i]] &&
                strcmp(s->from[s->row_curve[i]], s->rows[b].config) == 0 &&
                rank_set_curves(s, i)[0].m > 0)
                idx[n++] = i;
        if (n == 0 || bc[0].m == 0)
            continue;
        if (!head) {
            fprintf(f, "<h2>Disks</h2>\n<p class=\"muted\">Each measured configuration (solid) "
                       "and its curves on the disks it was not measured on (dashed: predicted by "
                       "a queueing model of its CPU and disk from what its server did per "
                       "transaction, sizeup rank --disks), labelled at their end with the disk, "
                       "its size and what binds there.</p>\n");
            head = 1;
        }
        for (size_t k = 0; k <= n; k++) {
            const struct curve *c = k < n ? &rank_set_curves(s, idx[k])[0] : &bc[0];
            for (size_t j = 0; j < c->m; j++) {
                x0 = fmin(x0, c->lv[j].n);
                x1 = fmax(x1, c->lv[j].n);
                ymax = fmax(ymax, c->lv[j].x);
            }
        }
        if (!(x1 > x0) || !(ymax > 0))
            continue;
        snprintf(title, sizeof title, "%s on other disks (%s)", s->rows[b].config,
                 s->opt.mix[0].workload);
        fprintf(f, "<div class=\"card\">\n");
        svg_plot_begin(&p, f, title, curve_x_name(&bc[0]), "tps", x0, x1, 0, ymax * 1.1);
        {
            /* the lines, then one label per group of ends that would overlap (within 4 % of
             * the plot's height: curves that reach one ceiling end together) */
            double ex[REPORT_MAX_DISKS + 1], ey[REPORT_MAX_DISKS + 1];
            char lab[REPORT_MAX_DISKS + 1][120];
            int done[REPORT_MAX_DISKS + 1] = {0};
            for (size_t k = 0; k <= n; k++) {
                const struct curve *c = k < n ? &rank_set_curves(s, idx[k])[0] : &bc[0];
                double xs[64], ys[64];
                size_t m = c->m < 64 ? c->m : 64;
                for (size_t j = 0; j < m; j++) {
                    xs[j] = c->lv[j].n;
                    ys[j] = c->lv[j].x;
                }
                svg_line(&p, k < n ? "predicted" : "fit", xs, ys, m);
                svg_points(&p, k < n ? "predicted-points" : "measured", xs, ys, m);
                ex[k] = xs[m - 1];
                ey[k] = ys[m - 1];
                if (k < n) {
                    /* "essd:200 GiB disk" from the row id (CONFIG@TYPE:GIB: the type's last
                     * word) and its note */
                    const char *id = s->rows[idx[k]].config, *at = strchr(id, '@');
                    const char *colon = at ? strrchr(at, ':') : NULL, *w = colon;
                    const char *note = s->note[s->row_curve[idx[k]]];
                    while (w && w > at && w[-1] != '-' && w[-1] != '@')
                        w--;
                    snprintf(lab[k], sizeof lab[k], "%.*s%s GiB %s",
                             w && colon ? (int)(colon - w) : 0, w ? w : "", colon ? colon : id,
                             strstr(note, "disk-bound: ")  ? "disk-bound"
                             : strstr(note, "CPU-bound: ") ? "CPU-bound"
                                                           : "");
                } else {
                    snprintf(lab[k], sizeof lab[k], "measured");
                }
            }
            for (size_t k = 0; k <= n; k++) {
                char label[600];
                size_t len;
                if (done[k])
                    continue;
                len = (size_t)snprintf(label, sizeof label, "%s", lab[k]);
                for (size_t j = k + 1; j <= n; j++)
                    if (!done[j] && fabs(ey[j] - ey[k]) < 0.04 * ymax * 1.1 && len < sizeof label) {
                        len += (size_t)snprintf(label + len, sizeof label - len, "; %s", lab[j]);
                        done[j] = 1;
                    }
                svg_marker(&p, "slo", ex[k], ey[k], label);
            }
        }
        svg_plot_end(&p);
        fprintf(f, "</div>\n");
    }
}

void report_bars(FILE *f, const struct rank_set *s)
{
    const char **labels = malloc((s->n + 1) * sizeof *labels);
    double *v = malloc(3 * (s->n + 1) * sizeof *v), *lo = v ? v + s->n + 1 : NULL;
    double *hi = lo ? lo + s->n + 1 : NULL;
    char unit[80];
    if (labels && v) {
        for (size_t i = 0; i < s->n; i++) {
            const struct rank_row *r = &s->rows[i];
            int met = r->status == RANK_MET && r->cost_per_hour > 0;
            labels[i] = r->config;
            v[i] = r->status == RANK_MET ? r->tps_per_cost : NAN;
            /* the throughput's interval at the same price (the price is a figure, not noise) */
            lo[i] = met ? r->x.lo / r->cost_per_hour : NAN;
            hi[i] = met ? r->x.hi / r->cost_per_hour : NAN;
        }
        snprintf(unit, sizeof unit, "tps per %s/h; the whisker: its 95 %% interval",
                 s->cat->currency);
        svg_bars(f, "Throughput per cost at the target", unit, labels, v, lo, hi,
                 report_page_rows(s));
        report_more_rows(f, s);
    }
    free((void *)labels);
    free(v);
}

/* The two plots of one curve. */
static void curve_plots(FILE *f, const struct rank_set *s, const char *config, const char *workload,
                        const struct curve *c, const struct rank_at *ra, int predicted)
{
    const struct curve_at *a = &ra->c;
    double xs[REPORT_CURVE_SAMPLES], y[REPORT_CURVE_SAMPLES], lo[REPORT_CURVE_SAMPLES],
        hi[REPORT_CURVE_SAMPLES], lat[REPORT_CURVE_SAMPLES];
    /* the measured range only: no model is drawn where no point was measured */
    double x0 = c->lv[0].n, x1 = c->lv[c->m - 1].n, ymax = 0, lmax = 0;
    double *ml = malloc((2 * c->m + 1) * sizeof *ml), *lat_n = ml + c->m;
    char title[200], label[120], slo[64], xv[32];
    struct svg_plot p;
    size_t lat_m = 0;

    if (!ml)
        return;
    if (ra->status == RANK_MET && a->n > x1)
        x1 = a->n; /* an extrapolated answer (--extrapolate) */
    if (!(x1 > x0))
        x1 = x0 * 2;
    for (int i = 0; i < REPORT_CURVE_SAMPLES; i++) {
        struct curve_value v;
        enum curve_basis b;
        double t = (double)i / (REPORT_CURVE_SAMPLES - 1);
        xs[i] = x1 / x0 > 16 ? x0 * pow(x1 / x0, t) : x0 + (x1 - x0) * t;
        /* the curve as rank reads it: the model where it is used, else the measured curve;
         * nothing where neither gives an answer (no smooth model across a collapse) */
        curve_throughput(c, xs[i], &v);
        y[i] = v.x.value;
        lo[i] = v.x.lo;
        hi[i] = v.x.hi;
        lat[i] = curve_latency(c, xs[i], &b) * 1e3;
        if (isfinite(hi[i]) && hi[i] > ymax)
            ymax = hi[i];
        if (isfinite(y[i]) && y[i] > ymax)
            ymax = y[i];
    }
    for (size_t i = 0; i < c->n_obs; i++)
        if (c->obs_x[i] > ymax)
            ymax = c->obs_x[i];
    for (size_t i = 0; i < c->m; i++) /* the error bars fit too */
        if (isfinite(c->lv[i].half95) && c->lv[i].x + c->lv[i].half95 > ymax)
            ymax = c->lv[i].x + c->lv[i].half95;
    fprintf(f, "<div class=\"card\">\n");
    snprintf(title, sizeof title, "%s — %s: throughput", config, workload);
    svg_plot_begin(&p, f, title, curve_x_name(c), "tps", x0, x1, 0, ymax * 1.05);
    svg_band(&p, "band", xs, lo, hi, REPORT_CURVE_SAMPLES);
    /* a predicted curve is drawn dashed, its points hollow: it was not measured */
    svg_line(&p, predicted ? "predicted" : "fit", xs, y, REPORT_CURVE_SAMPLES);
    /* each level's 95 % interval (its replicates' with the run-to-run noise, or its point's) */
    {
        double *bx = malloc(3 * (c->m + 1) * sizeof *bx), *by = bx ? bx + c->m + 1 : NULL,
               *bh = bx ? by + c->m + 1 : NULL;
        if (bx) {
            for (size_t i = 0; i < c->m; i++) {
                bx[i] = c->lv[i].n;
                by[i] = c->lv[i].x;
                bh[i] = c->lv[i].half95;
            }
            svg_errorbars(&p, predicted ? "predicted-errorbars" : "errorbars", bx, by, bh, c->m);
            free(bx);
        }
    }
    svg_points(&p, predicted ? "predicted-points" : "measured", c->obs_n, c->obs_x, c->n_obs);
    if (ra->status == RANK_MET) {
        snprintf(label, sizeof label, "%s tps at %.1f", num(xv, sizeof xv, a->x.value), a->n);
        svg_marker(&p, "slo", a->n, a->x.value, label);
    } else {
        svg_marker(&p, "slo", NAN, NAN, "");
    }
    svg_plot_end(&p);
    fprintf(f, "</div>\n<div class=\"card\">\n");
    /* latency: measured where there is some, else Little's law on the measured points */
    for (size_t i = 0; i < c->m; i++)
        if (isfinite(c->lv[i].lat_s)) {
            lat_n[lat_m] = c->lv[i].n;
            ml[lat_m++] = c->lv[i].lat_s * 1e3;
        }
    if (lat_m == 0 && !c->by_nodes)
        for (size_t i = 0; i < c->m; i++) {
            lat_n[lat_m] = c->lv[i].n;
            ml[lat_m++] = c->lv[i].n / c->lv[i].x * 1e3;
        }
    for (size_t i = 0; i < lat_m; i++)
        if (ml[i] > lmax)
            lmax = ml[i];
    for (int i = 0; i < REPORT_CURVE_SAMPLES; i++)
        if (isfinite(lat[i]) && lat[i] > lmax)
            lmax = lat[i];
    if (lmax > 6 * s->opt.slo.target_s * 1e3)
        lmax = 6 * s->opt.slo.target_s * 1e3;
    if (lmax < 1.25 * s->opt.slo.target_s * 1e3)
        lmax = 1.25 * s->opt.slo.target_s * 1e3;
    snprintf(title, sizeof title, "%s — %s: %s latency", config, workload,
             s->opt.slo.pct > 0 ? (snprintf(slo, sizeof slo, "p%g", s->opt.slo.pct), slo) : "mean");
    svg_plot_begin(&p, f, title, curve_x_name(c), "ms", x0, x1, 0, lmax);
    svg_line(&p, predicted ? "latency-predicted" : "latency-model", xs, lat, REPORT_CURVE_SAMPLES);
    svg_points(&p, predicted ? "latency-predicted-points" : "latency-measured", lat_n, ml, lat_m);
    svg_hline(&p, "slo-line", s->opt.slo.target_s * 1e3, slo_text(&s->opt.slo, slo, sizeof slo));
    if (ra->status == RANK_MET && isfinite(a->latency_s)) {
        snprintf(label, sizeof label, "%.1f %s", a->n, curve_x_name(c));
        svg_marker(&p, "slo", a->n, a->latency_s * 1e3, label);
    } else {
        svg_marker(&p, "slo", NAN, NAN, "");
    }
    svg_plot_end(&p);
    fprintf(f, "</div>\n");
    free(ml);
}

void report_curves(FILE *f, const struct rank_set *s)
{
    fprintf(f, "<h2>Curves</h2>\n<p class=\"legend\"><span><i class=\"sw\" style=\"background:"
               "#1f5fbf\"></i>measured; the bar through a level: its 95 %% interval (its "
               "replicates' with the run-to-run noise, or its point's)</span><span><i "
               "class=\"sw\" style=\"background:#e0701b\">"
               "</i>the curve: the model where it describes the points, else the measured curve"
               "</span><span><i class=\"sw\" style=\"background:#f4b183\"></i>"
               "its 95 %% interval</span><span><i class=\"sw\" style=\"background:"
               "#2e7d32\"></i>where the target binds</span><span><i class=\"sw\" style=\""
               "background:#c62828\"></i>latency target</span><span><i class=\"sw\" style=\""
               "background:#7b3fb5\"></i>predicted (dashed, hollow points: not measured)"
               "</span></p>\n");
    for (size_t i = 0; i < s->n; i++) {
        const struct curve *cv = rank_set_curves(s, i);
        int predicted = s->from && s->from[s->row_curve[i]];
        if (i == REPORT_MAX_PLOTTED) {
            fprintf(f,
                    "<p class=\"muted\">The curves of the other %zu configurations are not "
                    "drawn (the first %d in ranking order are); sizeup rank --json has every "
                    "figure.</p>\n",
                    s->n - i, REPORT_MAX_PLOTTED);
            break;
        }
        for (size_t w = 0; w < s->opt.n_mix; w++) {
            if (cv[w].m == 0)
                continue;
            fprintf(f, "<h3>");
            svg_escape(f, s->rows[i].config);
            fprintf(f, " — ");
            svg_escape(f, s->opt.mix[w].workload);
            if (predicted) {
                fprintf(f, " <span class=\"muted\">(predicted from ");
                svg_escape(f, s->from[s->row_curve[i]]);
                fprintf(f, "; %s, %zu points; %s)</span></h3>\n", shape_class_name(cv[w].shape.cls),
                        cv[w].n_obs, rank_status_text(s->rows[i].at[w].status));
            } else {
                fprintf(f, " <span class=\"muted\">(%s, %s, %zu points; %s)</span></h3>\n",
                        shape_class_name(cv[w].shape.cls),
                        !cv[w].fitted     ? "no model"
                        : cv[w].use_model ? model_kind_name(cv[w].fit.kind)
                                          : "measured curve",
                        cv[w].n_obs, rank_status_text(s->rows[i].at[w].status));
            }
            if (s->note && s->note[s->row_curve[i]]) {
                /* a disk model's row: the disk, and what binds (diskrank.h) */
                fprintf(f, "<p class=\"muted\">disk model: ");
                svg_escape(f, s->note[s->row_curve[i]]);
                fprintf(f, "</p>\n");
            }
            {
                char t1[600], t2[600], t3[400];
                fprintf(f, "<p class=\"muted\">");
                svg_escape(f, curve_shape_text(&cv[w], t1, sizeof t1));
                if (cv[w].shape.superlinear_start) {
                    fprintf(f, ". ");
                    svg_escape(f, curve_start_text(&cv[w], t3, sizeof t3));
                }
                fprintf(f, ". ");
                svg_escape(f, curve_model_text(&cv[w], t2, sizeof t2));
                fprintf(f, ".</p>\n");
            }
            fprintf(f, "<div class=\"grid2\">\n");
            curve_plots(f, s, s->rows[i].config, s->opt.mix[w].workload, &cv[w], &s->rows[i].at[w],
                        predicted);
            fprintf(f, "</div>\n");
        }
    }
}
