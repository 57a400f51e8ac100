/* report_html.c - the ranking as a self-contained HTML page or Markdown (report_html.h). */
#include "report_html.h"

#include "rank_output.h"

#include "figfmt.h"
#include "today.h"

#include "confidence.h"
#include "cost.h"
#include "decision.h"
#include "decision_output.h"
#include "report_charts.h"
#include "setnotes.h"
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

/* One row of the ranking table: row i, met (its figures) or not (its status across). */
static void ranking_row(FILE *f, const struct rank_set *s, const struct rank_confidence *conf,
                        size_t i)
{
    char a[32], b[32], c[32];
    const struct rank_row *r = &s->rows[i];
    if (r->status != RANK_MET) {
        fprintf(f, "<tr class=\"miss\"><td>-</td><td class=\"l\">");
        esc(f, r->config);
        fprintf(f, "</td><td class=\"l\" colspan=\"%d\">%s</td></tr>\n",
                s->opt.required_tps > 0 ? 10 : 8, rank_status_text(r->status));
        return;
    }
    fprintf(f, "<tr class=\"%s%s\"><td>%ld</td><td class=\"l\">",
            r->basis == CURVE_BASIS_PREDICTED ? "pred" : "",
            conf && i < conf->n && conf->rows[i].tied ? " tied" : "", r->rank);
    esc(f, r->config);
    fprintf(f, "</td><td>%s</td><td>", num(a, sizeof a, r->x.value));
    if (isfinite(r->x.lo))
        fprintf(f, "%s – %s", num(b, sizeof b, r->x.lo), num(c, sizeof c, r->x.hi));
    fprintf(f, "</td><td>");
    if (isfinite(r->n))
        fprintf(f, "%.1f %s", r->n, curve_x_name(&rank_set_curves(s, i)[0]));
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
    if (conf && i < conf->n)
        fprintf(f, "<td>%.1f %%</td>", 100 * conf->rows[i].p_best);
    if (s->opt.required_tps > 0)
        fprintf(f, "<td>%ld (%s)</td><td>%.2f</td>", r->nodes_needed, nodes_by(r, 0),
                r->cost_per_month);
    fprintf(f, "</tr>\n");
}

/* The prices past --max-price-age, as the text says them (issue 26.3): one item per date and
 * source, naming its first configurations (a million rows made a million items). */
static void old_prices(FILE *f, const struct rank_set *s)
{
    struct age_group {
        char as_of[11];
        const char *src;
        int age;
        size_t n, first[REPORT_AGE_NAMES];
    } *g = NULL;
    size_t ng = 0, cap = 0;
    char today[11];
    int max = s->opt.max_price_age_months > 0 ? s->opt.max_price_age_months : RANK_MAX_PRICE_AGE;
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

/* The ranking as an HTML table (a page of rows), its notes, the text's trailer and the prices
 * past --max-price-age. */
static void ranking_table(FILE *f, const struct rank_set *s, const struct rank_confidence *conf)
{
    const char *cur = s->cat->currency;
    fprintf(f,
            "<table class=\"ranking\"><thead><tr><th>rank</th><th class=\"l\">config</th>"
            "<th>tps at target</th><th>95 %% interval</th><th>at</th><th>%s/h</th>"
            "<th>tps per %s/h</th><th>%s per million tx</th><th>headroom</th>"
            "<th class=\"l\">basis</th>%s",
            cur, cur, cur, conf ? "<th>P(best)</th>" : "");
    if (s->opt.required_tps > 0)
        fprintf(f, "<th>nodes needed</th><th>%s/month</th>", cur);
    fprintf(f, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < report_page_rows(s); i++)
        ranking_row(f, s, conf, i);
    fprintf(f, "</tbody></table>\n");
    report_more_rows(f, s);
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
    old_prices(f, s);
}

/* The set inputs' row of the Inputs table, one line each (setnotes_row's callback). */
struct set_html {
    FILE *f;
    size_t n;
};

static void set_html_line(void *ctx, const char *config, const char *line)
{
    struct set_html *sh = ctx;
    fprintf(sh->f, "%s",
            sh->n++ ? "<br>\n" : "<tr><th class=\"l\">inputs set</th><td class=\"l\">");
    esc(sh->f, config);
    fprintf(sh->f, ": ");
    esc(sh->f, line);
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
        if (s->cat->licences && s->cat->licences[i]) {
            fprintf(f, " (licence ");
            esc(f, s->cat->licences[i]);
            fprintf(f, ")");
        }
    }
    fprintf(f, " — ");
    esc(f, s->cat->name ? s->cat->name : "(unnamed)");
    fprintf(f, ", as of ");
    esc(f, s->cat->as_of ? s->cat->as_of : "?");
    fprintf(f, "</td></tr>\n");
    {
        /* the inputs the user set (--set), not the catalog's */
        struct set_html sh = {f, 0};
        for (size_t i = 0; i < report_page_rows(s); i++)
            setnotes_row(s, i, set_html_line, &sh);
        if (sh.n)
            fprintf(f, "</td></tr>\n");
    }
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
    for (size_t i = 0; i < report_page_rows(s); i++) {
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
    report_more_rows(f, s);
}

/* How sure the ranking is: P(best), ties, the break-even price, what to probe next. */
static void confidence(FILE *f, const struct rank_set *s, const struct rank_confidence *c)
{
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
static void decision(FILE *f, const struct rank_set *s, const struct rank_tco *t)
{
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
        for (size_t i = 0; i < t->n && i < report_page_rows(s); i++)
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
        report_more_rows(f, s);
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

int report_write_html(FILE *f, const struct ranking *rk, const struct report_inputs *in)
{
    const struct rank_set *s = &rk->set;
    const struct rank_confidence *conf = ranking_conf(rk);
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
        if (conf && conf->n > 0)
            fprintf(f, ", P(best) %.0f %%", 100 * conf->rows[0].p_best);
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
    if (decision_write_html(f, rk) != 0)
        return -1;
    fprintf(f, "<h2>Ranking</h2>\n");
    ranking_table(f, s, conf);
    if (conf)
        confidence(f, s, conf);
    if (rk->has_tco)
        decision(f, s, &rk->tco);
    fprintf(f, "<h2>Throughput per cost</h2>\n");
    report_bars(f, s);
    report_overlay(f, s);
    report_disk_overlays(f, s);
    report_curves(f, s);
    inputs(f, s, in);
    fprintf(f, "</body>\n</html>\n");
    return ferror(f) ? -1 : 0;
}

int report_write_markdown(FILE *f, const struct ranking *rk, const struct report_inputs *in)
{
    const struct rank_set *s = &rk->set;
    fprintf(f, "# sizeup report\n\n");
    if (ranking_write_markdown(f, rk) != 0)
        return -1;
    char md[2048], md2[256];
    fprintf(f, "\nPoints: %zu from", s->n_points);
    for (size_t i = 0; i < in->n_points_files; i++)
        fprintf(f, "%s %s", i ? "," : "", textsafe_md(in->points_files[i], md, sizeof md));
    fprintf(f, ".\nCatalogs:");
    for (size_t i = 0; i < s->cat->n_files; i++) {
        fprintf(f, "%s %s", i ? "," : "", textsafe_md(s->cat->files[i], md, sizeof md));
        if (s->cat->licences && s->cat->licences[i])
            fprintf(f, " (licence %s)", textsafe_md(s->cat->licences[i], md, sizeof md));
    }
    fprintf(f, " (%s, as of %s).\n",
            textsafe_md(s->cat->name ? s->cat->name : "unnamed", md, sizeof md),
            textsafe_md(s->cat->as_of ? s->cat->as_of : "?", md2, sizeof md2));
    return ferror(f) ? -1 : 0;
}
