/* report_html.c - the ranking as a self-contained HTML page or Markdown (report_html.h). */
#include "report_html.h"

#include "figfmt.h"
#include "today.h"

#include "confidence.h"
#include "cost.h"
#include "decision.h"
#include "decision_output.h"
#include "svg.h"
#include "tco.h"

#include "textsafe.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px auto;"
    "max-width:1120px;color:#1d2330;background:#fff;line-height:1.45;padding:0 16px}"
    "h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid "
    "#dde2ea;padding-bottom:4px}h3{font-size:15px;margin:14px 0 4px}"
    ".answer{background:#eef6ee;border-left:4px solid #2e7d32;padding:10px 14px;margin:12px 0}"
    "table{border-collapse:collapse;font-size:13.5px;margin:6px 0}"
    "th,td{padding:4px 9px;border-bottom:1px solid #e4e8ef;text-align:right}"
    "th{background:#f3f5f9;font-weight:600}td.l,th.l{text-align:left}"
    "tr.miss td{color:#8a5a00;background:#fff8e6}"
    ".grid2{display:flex;flex-wrap:wrap;gap:10px}.card{border:1px solid #e1e5ec;border-radius:6px;"
    "padding:6px}.muted{color:#5d6677;font-size:13px}"
    "svg text{font-family:inherit}svg .tick{font-size:10.5px;fill:#5d6677}"
    "svg .label{font-size:12px;fill:#333}svg .ptitle{font-size:13px;font-weight:600;fill:#1d2330}"
    "svg .grid{stroke:#eceff4}svg .frame{fill:none;stroke:#b8c0cc}"
    "svg .s-measured circle,svg .s-latency-measured circle{fill:#1f5fbf;stroke:#fff;"
    "stroke-width:1}svg circle.off{fill:#fff;stroke:#1f5fbf;stroke-width:1.5}"
    "svg .s-fit polyline{fill:none;stroke:#e0701b;stroke-width:2}"
    "svg .s-predicted polyline,svg .s-latency-predicted polyline{fill:none;stroke:#7b3fb5;"
    "stroke-width:2;stroke-dasharray:7 4}"
    "svg .s-predicted-points circle,svg .s-latency-predicted-points circle{fill:#fff;"
    "stroke:#7b3fb5;stroke-width:1.5}"
    "tr.pred td{font-style:italic}tr.tied td:first-child::after{content:'~'}"
    "svg .s-latency-model polyline{fill:none;stroke:#e0701b;stroke-width:2}"
    "svg .s-band polygon{fill:#f4b183;fill-opacity:.35;stroke:none}"
    "svg .s-errorbars line{stroke:#1f5fbf;stroke-width:1.3}"
    "svg .s-predicted-errorbars line{stroke:#7b3fb5;stroke-width:1.3}"
    "svg .s-slo circle{fill:#2e7d32;stroke:#fff;stroke-width:2}svg .s-slo text{font-size:11.5px;"
    "fill:#2e7d32;font-weight:600}"
    "svg .s-slo-line line{stroke:#c62828;stroke-dasharray:6 4;stroke-width:1.5}"
    "svg .s-slo-line text{font-size:11px;fill:#c62828}"
    "svg .s-bars rect{fill:#3a7bd5}svg .blabel{font-size:12.5px;fill:#1d2330}"
    "svg line.ebar{stroke:#1d2330;stroke-width:1.4}"
    "svg .bvalue{font-size:12px;fill:#333}"
    ".legend span{display:inline-block;margin-right:16px;font-size:13px}"
    ".sw{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle}"
    "code{background:#f3f5f9;padding:1px 4px;border-radius:3px}";

static void esc(FILE *f, const char *s)
{
    svg_escape(f, s);
}

static const char *num(char *buf, size_t cap, double v)
{
    return fig_fmt(buf, cap, v, FIG_PLAIN);
}

/* The target's text for HTML: "avg &lt;= 20 ms" (slo_text's "<=" escaped). */
static const char *slo_html(const struct slo *slo, char *buf, size_t cap)
{
    char t[SLO_TEXT_MAX], *lt;
    slo_text(slo, t, sizeof t);
    if ((lt = strchr(t, '<')) != NULL)
        snprintf(buf, cap, "%.*s&lt;%s", (int)(lt - t), t, lt + 1);
    else
        snprintf(buf, cap, "%s", t);
    return buf;
}

/* The rows a table or chart of the page shows: the first REPORT_MAX_ROWS in ranking order. */
static size_t page_rows(const struct rank_set *s)
{
    return s->n < REPORT_MAX_ROWS ? s->n : REPORT_MAX_ROWS;
}

/* Under a table or chart cut at page_rows: how many it leaves out, and where they are. */
static void more_rows(FILE *f, const struct rank_set *s)
{
    if (s->n > REPORT_MAX_ROWS)
        fprintf(f,
                "<p class=\"muted\">The first %d of %zu configurations, in ranking order; "
                "<code>sizeup rank --json</code> (or <code>--csv</code>) has every row.</p>\n",
                REPORT_MAX_ROWS, s->n);
}

static const char *xname(const struct curve *c)
{
    return curve_x_name(c);
}

static void ranking_table(FILE *f, const struct rank_set *s)
{
    const char *cur = s->cat->currency;
    char a[32], b[32], c[32];
    fprintf(f,
            "<table class=\"ranking\"><thead><tr><th>rank</th><th class=\"l\">config</th>"
            "<th>tps at target</th><th>95 %% interval</th><th>at</th><th>%s/h</th>"
            "<th>tps per %s/h</th><th>%s per million tx</th><th>headroom</th>"
            "<th class=\"l\">basis</th>%s",
            cur, cur, cur, s->conf ? "<th>P(best)</th>" : "");
    if (s->opt.required_tps > 0)
        fprintf(f, "<th>nodes needed</th><th>%s/month</th>", cur);
    fprintf(f, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < page_rows(s); i++) {
        const struct rank_row *r = &s->rows[i];
        if (r->status != RANK_MET) {
            fprintf(f, "<tr class=\"miss\"><td>-</td><td class=\"l\">");
            esc(f, r->config);
            fprintf(f, "</td><td class=\"l\" colspan=\"%d\">%s</td></tr>\n",
                    s->opt.required_tps > 0 ? 10 : 8, rank_status_text(r->status));
            continue;
        }
        fprintf(f, "<tr class=\"%s%s\"><td>%ld</td><td class=\"l\">",
                r->basis == CURVE_BASIS_PREDICTED ? "pred" : "",
                s->conf && i < s->conf->n && s->conf->rows[i].tied ? " tied" : "", r->rank);
        esc(f, r->config);
        fprintf(f, "</td><td>%s</td><td>", num(a, sizeof a, r->x.value));
        if (isfinite(r->x.lo))
            fprintf(f, "%s – %s", num(b, sizeof b, r->x.lo), num(c, sizeof c, r->x.hi));
        fprintf(f, "</td><td>");
        if (isfinite(r->n))
            fprintf(f, "%.1f %s", r->n, xname(&rank_set_curves(s, i)[0]));
        fprintf(f, "</td><td>%.4g%s</td><td>%s</td><td>%.3g</td><td>", r->cost_per_hour,
                r->cost_estimate ? "*" : "", num(a, sizeof a, r->tps_per_cost), r->cost_per_mtx);
        if (isfinite(r->headroom))
            fprintf(f, "%s%.0f %%", r->headroom_lower_bound ? "≥ " : "", 100 * r->headroom);
        fprintf(f, "</td><td class=\"l\">%s%s", curve_basis_name(r->basis),
                r->at[0].c.binds == CURVE_BINDS_PEAK ? ", where throughput peaks" : "");
        if (s->from && s->from[s->row_curve[i]]) {
            fprintf(f, " from ");
            esc(f, s->from[s->row_curve[i]]);
        }
        fprintf(f, "</td>");
        if (s->conf && i < s->conf->n)
            fprintf(f, "<td>%.1f %%</td>", 100 * s->conf->rows[i].p_best);
        if (s->opt.required_tps > 0)
            fprintf(f, "<td>%ld (%s)</td><td>%.2f</td>", r->nodes_needed, nodes_by(r, 0),
                    r->cost_per_month);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
    more_rows(f, s);
    fprintf(f, "<p class=\"muted\">* the cost rests on estimated prices (see "
               "Inputs). Basis: measured = at a measured level; interpolated = between measured "
               "levels (the model where it describes them, else the measured curve); "
               "extrapolated = beyond them (only with --extrapolate). Intervals: 95 %%, a "
               "level's from its replicates or its points' ci95 (else ±5 %%), the model's by the "
               "delta method. Headroom = peak throughput (a plateau: its best level) / "
               "throughput at the target − 1. Predicted rows (italic) were not measured: their "
               "curves come from measured sizes of the same family (sizeup predict), their "
               "intervals carry the family's leave-one-out error (or, CONFIG@DISK:GIB, a measured "
               "configuration on another disk by a queueing model of its CPU and disk, sizeup "
               "rank --disks). ~ = tied with the first within noise.</p>\n");
    if (s->trailer) {
        fprintf(f, "<pre class=\"muted\">");
        esc(f, s->trailer);
        fprintf(f, "</pre>\n");
    }
    {
        /* prices past --max-price-age, as the text says them (issue 26.3): one item per date
         * and source, naming its first configurations (a million rows made a million items) */
        struct age_group {
            char as_of[11];
            const char *src;
            int age;
            size_t n, first[REPORT_AGE_NAMES];
        } *g = NULL;
        size_t ng = 0, cap = 0;
        char today[11];
        int max =
            s->opt.max_price_age_months > 0 ? s->opt.max_price_age_months : RANK_MAX_PRICE_AGE;
        today_ymd(today);
        for (size_t i = 0; i < s->n; i++) {
            char as_of[11];
            const char *src;
            int age;
            size_t k;
            if (rank_set_row_price_date(s, &s->rows[i], as_of, &src) != 0 || !as_of[0] ||
                (age = months_between(as_of, today)) <= max)
                continue;
            for (k = 0;
                 k < ng && !(strcmp(g[k].as_of, as_of) == 0 &&
                             (g[k].src == src || (g[k].src && src && strcmp(g[k].src, src) == 0)));
                 k++)
                ;
            if (k == ng) {
                if (ng == cap) {
                    struct age_group *grown = realloc(g, (cap ? 2 * cap : 16) * sizeof *g);
                    if (!grown)
                        break; /* out of memory: the items so far */
                    g = grown;
                    cap = cap ? 2 * cap : 16;
                }
                memcpy(g[ng].as_of, as_of, sizeof as_of);
                g[ng].src = src;
                g[ng].age = age;
                g[ng].n = 0;
                ng++;
            }
            if (g[k].n < REPORT_AGE_NAMES)
                g[k].first[g[k].n] = i;
            g[k].n++;
        }
        if (ng)
            fprintf(f,
                    "<p class=\"muted\">Prices older than %d months (--max-price-age): refresh the "
                    "catalogs that hold them.</p>\n<ul class=\"muted\">\n",
                    max);
        for (size_t k = 0; k < ng; k++) {
            fprintf(f, "<li>");
            for (size_t j = 0; j < g[k].n && j < REPORT_AGE_NAMES; j++) {
                if (j)
                    fprintf(f, ", ");
                esc(f, s->rows[g[k].first[j]].config);
            }
            if (g[k].n > REPORT_AGE_NAMES)
                fprintf(f, " and %zu more", g[k].n - REPORT_AGE_NAMES);
            fprintf(f, ": as of %s, %d months old (", g[k].as_of, g[k].age);
            esc(f, g[k].src ? g[k].src : "no source");
            fprintf(f, ")</li>\n");
        }
        if (ng)
            fprintf(f, "</ul>\n");
        free(g);
    }
}

/* Candidates drawn on the overlay of every candidate, and their colours (the CSS's cand-K). */
#define REPORT_MAX_OVERLAY 10
static const char *const overlay_colour[REPORT_MAX_OVERLAY] = {
    "#1f5fbf", "#e0701b", "#2e7d32", "#c62828", "#7b3fb5",
    "#00838f", "#8d6e63", "#d81b60", "#5d6677", "#9e9d24"};

/* Every candidate's throughput curve (its first workload's levels) on one axis, in ranking
 * order, the first REPORT_MAX_OVERLAY of them, each in its colour with its name in the legend
 * (issue 28.18): which one is higher where, at a glance. */
static void overlay(FILE *f, const struct rank_set *s)
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
        esc(f, s->rows[idx[k]].config);
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
    svg_plot_begin(&p, f, title, xname(&rank_set_curves(s, idx[0])[0]), "tps", x0, x1, 0,
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
static void disk_overlays(FILE *f, const struct rank_set *s)
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
        svg_plot_begin(&p, f, title, xname(&bc[0]), "tps", x0, x1, 0, ymax * 1.1);
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

static void bars(FILE *f, const struct rank_set *s)
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
        svg_bars(f, "Throughput per cost at the target", unit, labels, v, lo, hi, page_rows(s));
        more_rows(f, s);
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
    svg_plot_begin(&p, f, title, xname(c), "tps", x0, x1, 0, ymax * 1.05);
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
    svg_plot_begin(&p, f, title, xname(c), "ms", x0, x1, 0, lmax);
    svg_line(&p, predicted ? "latency-predicted" : "latency-model", xs, lat, REPORT_CURVE_SAMPLES);
    svg_points(&p, predicted ? "latency-predicted-points" : "latency-measured", lat_n, ml, lat_m);
    svg_hline(&p, "slo-line", s->opt.slo.target_s * 1e3, slo_text(&s->opt.slo, slo, sizeof slo));
    if (ra->status == RANK_MET && isfinite(a->latency_s)) {
        snprintf(label, sizeof label, "%.1f %s", a->n, xname(c));
        svg_marker(&p, "slo", a->n, a->latency_s * 1e3, label);
    } else {
        svg_marker(&p, "slo", NAN, NAN, "");
    }
    svg_plot_end(&p);
    fprintf(f, "</div>\n");
    free(ml);
}

static void inputs(FILE *f, const struct rank_set *s, const struct report_inputs *in)
{
    char slo[SLO_TEXT_MAX + 8], wl[256];
    fprintf(f, "<h2>Inputs</h2>\n<table class=\"inputs\"><tbody>\n");
    fprintf(f, "<tr><th class=\"l\">latency target</th><td class=\"l\">%s</td></tr>\n",
            slo_html(&s->opt.slo, slo, sizeof slo));
    fprintf(f, "<tr><th class=\"l\">workloads</th><td class=\"l\">");
    esc(f, rank_set_workloads(s, wl, sizeof wl));
    fprintf(f, "%s</td></tr>\n", s->opt.n_mix > 1 ? " (weighted harmonic mean of throughput)" : "");
    fprintf(f, "<tr><th class=\"l\">pricing</th><td class=\"l\">%s, %s</td></tr>\n",
            cat_pricing_name(s->opt.pricing), s->cat->currency);
    if (s->opt.required_tps > 0)
        fprintf(f, "<tr><th class=\"l\">required throughput</th><td class=\"l\">%g tps</td></tr>\n",
                s->opt.required_tps);
    fprintf(f, "<tr><th class=\"l\">points</th><td class=\"l\">%zu points from ", s->n_points);
    for (size_t i = 0; i < in->n_points_files; i++) {
        fprintf(f, "%s<code>", i ? ", " : "");
        esc(f, in->points_files[i]);
        fprintf(f, "</code>");
    }
    fprintf(f, "</td></tr>\n<tr><th class=\"l\">catalogs</th><td class=\"l\">");
    for (size_t i = 0; i < s->cat->n_files; i++) {
        fprintf(f, "%s<code>", i ? ", " : "");
        esc(f, s->cat->files[i]);
        fprintf(f, "</code>");
    }
    fprintf(f, " — ");
    esc(f, s->cat->name ? s->cat->name : "(unnamed)");
    fprintf(f, ", as of ");
    esc(f, s->cat->as_of ? s->cat->as_of : "?");
    fprintf(f, "</td></tr>\n");
    if (in->generated_by) {
        fprintf(f, "<tr><th class=\"l\">generated by</th><td class=\"l\">");
        esc(f, in->generated_by);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f,
            "</tbody></table>\n<h3>Cost of each configuration (%s, per hour)</h3>\n"
            "<table class=\"costs\"><thead><tr><th class=\"l\">config</th><th class=\"l\">"
            "term</th><th>%s/h</th><th class=\"l\">formula</th><th class=\"l\">source</th>"
            "<th class=\"l\">as of</th></tr></thead><tbody>\n",
            cat_pricing_name(s->opt.pricing), s->cat->currency);
    for (size_t i = 0; i < page_rows(s); i++) {
        struct cat_cost cost;
        struct cat_error err;
        if (rank_set_row_cost(s, &s->rows[i], -1, 0, NULL, 0, &cost, &err) != CAT_OK)
            continue;
        for (size_t t = 0; t < cost.n_terms; t++) {
            const struct cat_cost_term *ct = &cost.terms[t];
            fprintf(f, "<tr><td class=\"l\">");
            esc(f, t == 0 ? s->rows[i].config : "");
            fprintf(f, "</td><td class=\"l\">");
            esc(f, ct->name);
            fprintf(f, "</td><td>%.4g</td><td class=\"l\">", ct->per_hour);
            esc(f, ct->formula);
            fprintf(f, "</td><td class=\"l\">");
            esc(f, ct->price && ct->price->source ? ct->price->source : "");
            if (ct->price && ct->price->estimate)
                fprintf(f, " <em>(estimate)</em>");
            fprintf(f, "</td><td class=\"l\">");
            esc(f, ct->price && ct->price->as_of ? ct->price->as_of : "");
            fprintf(f, "</td></tr>\n");
        }
    }
    fprintf(f, "</tbody></table>\n");
    more_rows(f, s);
}

/* How sure the ranking is: P(best), ties, the break-even price, what to probe next. */
static void confidence(FILE *f, const struct rank_set *s)
{
    const struct rank_confidence *c = s->conf;
    char slo[SLO_TEXT_MAX + 8];
    size_t shown = 0;
    if (c->best < 0)
        return;
    fprintf(f,
            "<h2>How sure</h2>\n<p>The probability that each configuration is the best at "
            "%s, from %zu draws of every throughput within its 95 %% interval (seed %lu); "
            "%zu configurations can be best.</p>\n<table class=\"conf\"><thead><tr><th>rank"
            "</th><th class=\"l\">config</th><th>P(best)</th><th>P(above the first)</th>"
            "<th class=\"l\"></th></tr></thead><tbody>\n",
            slo_html(&s->opt.slo, slo, sizeof slo), c->opt.draws, c->opt.seed, c->candidates);
    for (size_t i = 0; i < s->n && shown < 20; i++) {
        const struct conf_row *q = &c->rows[i];
        if (!q->candidate || (q->p_best < 0.0005 && !q->tied && (long)i != c->best))
            continue;
        fprintf(f, "<tr><td>%ld</td><td class=\"l\">", s->rows[i].rank);
        esc(f, s->rows[i].config);
        fprintf(
            f, "</td><td>%.1f %%</td><td>%s</td><td class=\"l\">%s%s</td></tr>\n", 100 * q->p_best,
            (long)i == c->best ? "–"
                               : (snprintf(slo, sizeof slo, "%.1f %%", 100 * q->p_above_best), slo),
            (long)i == c->best ? "ranked first"
            : q->tied          ? "tied within noise"
                               : "",
            s->rows[i].basis == CURVE_BASIS_PREDICTED ? " (predicted)" : "");
        shown++;
    }
    fprintf(f, "</tbody></table>\n");
    if (c->runner_up >= 0) {
        const struct rank_row *w = &s->rows[c->best], *r = &s->rows[c->runner_up];
        fprintf(f, "<p><strong>Break-even:</strong> ");
        esc(f, r->config);
        fprintf(f, " overtakes ");
        esc(f, w->config);
        fprintf(f, " at %.4g %s/h or less (now %.4g), or when ", c->break_even_runner_cost_per_hour,
                s->cat->currency, r->cost_per_hour);
        esc(f, w->config);
        fprintf(f, " costs more than %.4g %s/h (now %.4g).</p>\n", c->break_even_best_cost_per_hour,
                s->cat->currency, w->cost_per_hour);
    }
    if (c->probe_next >= 0) {
        fprintf(f, "<p><strong>Probe next:</strong> ");
        esc(f, s->rows[c->probe_next].config);
        fprintf(f, ", P(best) %.1f %%: the unprobed configuration most likely to be best.</p>\n",
                100 * c->rows[c->probe_next].p_best);
    }
}

/* IDC against cloud: like for like, the horizon NPV, where the decision flips (tco.h). */
static void decision(FILE *f, const struct rank_set *s)
{
    const struct rank_tco *t = s->tco;
    const struct tco_input *v[TCO_MAX_INPUTS];
    const char *labels[TCO_MAX_INPUTS];
    char lab[TCO_MAX_INPUTS][80];
    double lo[TCO_MAX_INPUTS], hi[TCO_MAX_INPUTS];
    size_t n, k = 0;
    int any = 0;
    for (size_t i = 0; t->rows && i < t->n; i++)
        any |= t->rows[i].n > 0;
    if (!any && t->n_inputs == 0 && t->like_for_like)
        return;
    fprintf(f, "<h2>Cost over time and where the decision flips</h2>\n");
    if (!t->like_for_like)
        fprintf(f, "<p><strong>Not like for like:</strong> highly available configurations (a "
                   "standby in the price) are ranked with single machines; <code>--ha-standby "
                   "1</code> prices a standby copy for each single machine.</p>\n");
    if (any) {
        fprintf(f,
                "<p>Net present value over %d months at %g %% a year: owned servers bought at "
                "the start and at each end of life, running costs monthly, the book value at the "
                "end credited; cloud commitments paid upfront or monthly to their end.</p>\n"
                "<table class=\"conf\"><thead><tr><th class=\"l\">config</th><th class=\"l\">"
                "pricing</th><th>NPV %s</th><th>%s per million transactions</th></tr></thead>"
                "<tbody>\n",
                t->months, 100 * t->rate, s->cat->currency, s->cat->currency);
        for (size_t i = 0; i < t->n && i < page_rows(s); i++)
            for (size_t p = 0; p < t->rows[i].n; p++) {
                const struct tco_pricing *tp = &t->rows[i].pr[p];
                fprintf(f, "<tr><td class=\"l\">");
                esc(f, s->rows[i].config);
                fprintf(f, "</td><td class=\"l\">%s%s</td><td>%.2f</td><td>%.4g</td></tr>\n",
                        s->rows[i].owned ? "owned" : cat_pricing_name(tp->pricing),
                        t->rows[i].n > 1 && (long)p == t->rows[i].cheapest ? " (lowest)" : "",
                        tp->npv.total, tp->per_mtx);
            }
        fprintf(f, "</tbody></table>\n");
        more_rows(f, s);
    }
    if (t->best < 0 || t->runner_up < 0 || !isfinite(t->advantage) || t->n_inputs == 0)
        return;
    fprintf(f, "<p><strong>Where it flips:</strong> ");
    esc(f, s->rows[t->best].config);
    fprintf(f, " leads ");
    esc(f, s->rows[t->runner_up].config);
    fprintf(f,
            " %.3g times at the catalog's figures. It stays ahead unless (one estimate at a "
            "time):</p>\n<ul>\n",
            t->advantage);
    n = tco_sorted_inputs(t, v, 0);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<li>");
        esc(f, v[i]->config);
        fprintf(f, " ");
        esc(f, v[i]->in.name);
        if (isfinite(v[i]->break_even)) {
            /* the figures as the decision list above prints them (one formatter) */
            char b1[32], b2[32];
            fprintf(f, " %s %s ", v[i]->break_even > v[i]->in.value ? "exceeds" : "falls below",
                    fig_fmt(b1, sizeof b1, v[i]->break_even, FIG_LARGE));
            esc(f, v[i]->in.unit);
            fprintf(f, " (now %s)", fig_fmt(b2, sizeof b2, v[i]->in.value, FIG_LARGE));
        } else
            fprintf(f, ": no value a catalog accepts flips it alone");
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul>\n");
    n = tco_sorted_inputs(t, v, 1);
    for (size_t i = 0; i < n; i++)
        if (tco_swing(v[i]) >= 0) {
            snprintf(lab[k], sizeof lab[k], "%s %s (%.6g to %.6g)", v[i]->config, v[i]->in.name,
                     v[i]->in.fig->low, v[i]->in.fig->high);
            labels[k] = lab[k];
            lo[k] = v[i]->adv_low;
            hi[k] = v[i]->adv_high;
            k++;
        }
    if (k) {
        char title[256];
        snprintf(title, sizeof title,
                 "Lead of %s over %s, each estimate at its low (blue) and "
                 "high (orange)",
                 s->rows[t->best].config, s->rows[t->runner_up].config);
        svg_tornado(f, title, labels, lo, hi, k, t->advantage);
    }
}

int report_write_html(FILE *f, const struct rank_set *s, const struct report_inputs *in)
{
    char slo[SLO_TEXT_MAX + 8], wl[256], a[32];
    const struct rank_row *top = s->n && s->rows[0].status == RANK_MET ? &s->rows[0] : NULL;

    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>sizeup report: ");
    esc(f, rank_set_workloads(s, wl, sizeof wl));
    fprintf(f, " at %s</title>\n<style>%s</style>\n</head>\n<body>\n",
            slo_html(&s->opt.slo, slo, sizeof slo), css);
    fprintf(f, "<h1>Throughput per cost at %s</h1>\n<p class=\"muted\">workload ", slo);
    esc(f, wl);
    fprintf(f, "; %s prices in %s; %zu configurations</p>\n", cat_pricing_name(s->opt.pricing),
            s->cat->currency, s->n);
    if (top && rank_row_noise(top) > RANK_TOO_NOISY) {
        fprintf(f, "<p class=\"answer\"><strong>Too noisy to rank:</strong> ");
        esc(f, top->config);
        fprintf(f,
                ", first, has %.0f tps [%.0f, %.0f] at the target, &plusmn;%.0f %% (95 %%): the "
                "ranking below cannot be decided on it; probe again on a quieter host or for "
                "longer.</p>\n",
                top->x.value, top->x.lo, top->x.hi, 100 * rank_row_noise(top));
    }
    fprintf(f, "<div class=\"answer\">");
    if (top) {
        /* one sentence a manager can act on (issue 28.18) */
        /* no "buy" on a ranking too noisy to decide (said just above) */
        fprintf(f, "<strong>%s",
                rank_row_noise(top) > RANK_TOO_NOISY ? "First, not decided: " : "Buy ");
        esc(f, top->config);
        fprintf(f, "</strong>: %s tps at %s", num(a, sizeof a, top->x.value), slo);
        if (isfinite(top->x.lo))
            fprintf(f, " (95 %% interval %.0f – %.0f)", top->x.lo, top->x.hi);
        fprintf(f, ", %.2f %s/month (%.4g %s/h, %s tps per %s/h)",
                top->cost_per_hour * CAT_HOURS_PER_MONTH, s->cat->currency, top->cost_per_hour,
                s->cat->currency, num(a, sizeof a, top->tps_per_cost), s->cat->currency);
        if (isfinite(top->headroom))
            fprintf(f, ", %s%.0f %% headroom to its peak",
                    top->headroom_lower_bound ? "at least " : "", 100 * top->headroom);
        if (s->conf && s->conf->n > 0)
            fprintf(f, ", P(best) %.0f %%", 100 * s->conf->rows[0].p_best);
        fprintf(f, "%s.",
                top->basis == CURVE_BASIS_PREDICTED
                    ? " (predicted, not measured: probe it before buying)"
                    : "");
        if (s->opt.required_tps > 0)
            fprintf(f, " Serving %g tps takes %ld node(s) for %.2f %s/month.", s->opt.required_tps,
                    top->nodes_needed, top->cost_per_month, s->cat->currency);
    } else {
        if (s->opt.required_tps > 0)
            fprintf(f, "No configuration carries the required %g tps at %s.", s->opt.required_tps,
                    slo);
        else
            fprintf(f, "No configuration meets %s.", slo);
    }
    fprintf(f, "</div>\n");
    if (decision_write_html(f, s) != 0)
        return -1;
    fprintf(f, "<h2>Ranking</h2>\n");
    ranking_table(f, s);
    if (s->conf)
        confidence(f, s);
    if (s->tco)
        decision(f, s);
    fprintf(f, "<h2>Throughput per cost</h2>\n");
    bars(f, s);
    overlay(f, s);
    disk_overlays(f, s);
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
            esc(f, s->rows[i].config);
            fprintf(f, " — ");
            esc(f, s->opt.mix[w].workload);
            if (predicted) {
                fprintf(f, " <span class=\"muted\">(predicted from ");
                esc(f, s->from[s->row_curve[i]]);
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
                esc(f, s->note[s->row_curve[i]]);
                fprintf(f, "</p>\n");
            }
            {
                char t1[600], t2[600], t3[400];
                fprintf(f, "<p class=\"muted\">");
                esc(f, curve_shape_text(&cv[w], t1, sizeof t1));
                if (cv[w].shape.superlinear_start) {
                    fprintf(f, ". ");
                    esc(f, curve_start_text(&cv[w], t3, sizeof t3));
                }
                fprintf(f, ". ");
                esc(f, curve_model_text(&cv[w], t2, sizeof t2));
                fprintf(f, ".</p>\n");
            }
            fprintf(f, "<div class=\"grid2\">\n");
            curve_plots(f, s, s->rows[i].config, s->opt.mix[w].workload, &cv[w], &s->rows[i].at[w],
                        predicted);
            fprintf(f, "</div>\n");
        }
    }
    inputs(f, s, in);
    fprintf(f, "</body>\n</html>\n");
    return ferror(f) ? -1 : 0;
}

int report_write_markdown(FILE *f, const struct rank_set *s, const struct report_inputs *in)
{
    fprintf(f, "# sizeup report\n\n");
    if (rank_set_write_markdown(f, s) != 0)
        return -1;
    char md[2048], md2[256];
    fprintf(f, "\nPoints: %zu from", s->n_points);
    for (size_t i = 0; i < in->n_points_files; i++)
        fprintf(f, "%s %s", i ? "," : "", textsafe_md(in->points_files[i], md, sizeof md));
    fprintf(f, ".\nCatalogs:");
    for (size_t i = 0; i < s->cat->n_files; i++)
        fprintf(f, "%s %s", i ? "," : "", textsafe_md(s->cat->files[i], md, sizeof md));
    fprintf(f, " (%s, as of %s).\n",
            textsafe_md(s->cat->name ? s->cat->name : "unnamed", md, sizeof md),
            textsafe_md(s->cat->as_of ? s->cat->as_of : "?", md2, sizeof md2));
    return ferror(f) ? -1 : 0;
}
