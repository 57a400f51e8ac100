/* rank_output.c - a ranking as text and Markdown (rank_output.h). */
#include "rank_output.h"

#include "confidence.h"
#include "csvfield.h"
#include "decision.h"
#include "decision_output.h"
#include "figfmt.h"
#include "setnotes.h"
#include "tco.h"

#include "textsafe.h"
#include "today.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A throughput or cost figure: 4 significant digits below 1000, integer above. */
static const char *num(char *buf, size_t cap, double v)
{
    return fig_fmt(buf, cap, v, FIG_PLAIN);
}

static const char *basis_short(enum curve_basis b)
{
    switch (b) {
    case CURVE_BASIS_MEASURED:
        return "meas";
    case CURVE_BASIS_INTERPOLATED:
        return "interp";
    case CURVE_BASIS_EXTRAPOLATED:
        return "extrap";
    case CURVE_BASIS_LINEAR:
        return "linear";
    case CURVE_BASIS_PREDICTED:
        return "pred";
    case CURVE_BASIS_NONE:
        break;
    }
    return "-";
}

/* One "note: " line, wrapped at 100 columns with a 6-space continuation. */
/* text after lead, wrapped at 100 columns, continued 6 columns in (4 after a short lead). */
static void note_lead(FILE *f, const char *lead, const char *text)
{
    size_t col = 0, len = strlen(text), indent = strlen(lead) >= 6 ? 6 : 4;
    const char *p = text;
    fputs(lead, f);
    col = strlen(lead);
    while (len) {
        size_t take = len, room = 100 - col;
        if (take > room) {
            take = room;
            while (take > 0 && p[take] != ' ')
                take--;
            if (take == 0)
                take = room;
        }
        fwrite(p, 1, take, f);
        p += take;
        len -= take;
        while (len && *p == ' ') {
            p++;
            len--;
        }
        if (len) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        }
    }
    fputc('\n', f);
}

/* Notes collected for one table: each text once, with every configuration it is about. */
struct notes {
    size_t n, cap;
    char **text, **who;
    size_t *n_who, *len_who; /* configurations a note names, and the length of who */
};

/* Most configurations a note names; the rest are counted ("and 999,990 more"): a note over
 * every row of a million-configuration ranking was quadratic to build and unreadable. */
#define NOTES_MAX_WHO 12

static void notes_init(struct notes *l)
{
    memset(l, 0, sizeof *l);
}

static void notes_add(struct notes *l, const char *who, const char *text)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->text[i], text) == 0) {
            size_t a = l->len_who[i], b = strlen(who);
            char *w;
            if (++l->n_who[i] > NOTES_MAX_WHO)
                return; /* counted, not named */
            if ((w = realloc(l->who[i], a + b + 3))) {
                memcpy(w + a, ", ", 2);
                memcpy(w + a + 2, who, b + 1);
                l->who[i] = w;
                l->len_who[i] = a + 2 + b;
            }
            return;
        }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        char **t = realloc(l->text, cap * sizeof *t), **w;
        size_t *nw, *lw;
        if (!t)
            return;
        l->text = t;
        if (!(w = realloc(l->who, cap * sizeof *w)))
            return;
        l->who = w;
        if (!(nw = realloc(l->n_who, cap * sizeof *nw)))
            return;
        l->n_who = nw;
        if (!(lw = realloc(l->len_who, cap * sizeof *lw)))
            return;
        l->len_who = lw;
        l->cap = cap;
    }
    l->text[l->n] = strdup(text);
    l->who[l->n] = strdup(who);
    l->n_who[l->n] = 1;
    l->len_who[l->n] = strlen(who);
    if (l->text[l->n] && l->who[l->n])
        l->n++;
}

static void notes_print_as(FILE *f, const struct notes *l, const char *lead);

/* setnotes_row's callback: one note per set input. */
static void set_note(void *ctx, const char *config, const char *line)
{
    notes_add(ctx, config, line);
}

static void notes_print(FILE *f, const struct notes *l)
{
    notes_print_as(f, l, NULL);
}

static void notes_print_as(FILE *f, const struct notes *l, const char *lead)
{
    for (size_t i = 0; i < l->n; i++) {
        size_t len = l->len_who[i] + strlen(l->text[i]) + 40;
        char *line = malloc(len), more[40] = "";
        if (!line)
            continue;
        if (l->n_who[i] > NOTES_MAX_WHO)
            snprintf(more, sizeof more, " and %zu more", l->n_who[i] - NOTES_MAX_WHO);
        snprintf(line, len, "%s%s: %s", l->who[i], more, l->text[i]);
        note_lead(f, lead ? lead : "note: ", line);
        free(line);
    }
}

static void notes_free(struct notes *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->text[i]);
        free(l->who[i]);
    }
    free(l->text);
    free(l->who);
    free(l->n_who);
    free(l->len_who);
    memset(l, 0, sizeof *l);
}

static const char *x_name(const struct rank_set *s, size_t i)
{
    const struct curve *c = rank_set_curves(s, i);
    return s->opt.n_mix == 1 && c[0].by_nodes ? "nodes" : "threads";
}

/* Which load an owned row's power was read at, and why, into buf; 0 when not owned. */
static int power_load_text(const struct rank_set *s, const struct rank_row *r, char *buf,
                           size_t cap)
{
    const struct cat_config *cf;
    const struct cat_server *sv = rank_set_row_server(s, r, &cf);
    char a[32], b[32];
    if (!sv || r->status != RANK_MET)
        return 0;
    if (r->power_load_measured && cf->slice_vcpu > 0)
        snprintf(buf, cap,
                 "power read on the server's curve at load %.3g = X / X_peak (%s / %s tps at the "
                 "target, the utilisation law) x packing %.3g, not the catalog's cpu_load %g",
                 r->power_load, num(a, sizeof a, r->x.value),
                 num(b, sizeof b, r->x.value / r->load), r->power_load / r->load,
                 sv->cpu_load.amount);
    else if (r->power_load_measured)
        snprintf(buf, cap,
                 "power read on the server's curve at load %.3g = X / X_peak (%s / %s tps at the "
                 "target, the utilisation law), not the catalog's cpu_load %g",
                 r->power_load, num(a, sizeof a, r->x.value),
                 num(b, sizeof b, r->x.value / r->load), sv->cpu_load.amount);
    else
        snprintf(buf, cap,
                 "power read on the server's curve at the catalog's cpu_load %g (the curve gives "
                 "no peak to measure the utilisation against)",
                 r->power_load);
    return 1;
}

/* First of all, when the first-ranked configuration's 95 % interval is wider than half its
 * throughput either way (its low end below half the value): the data cannot tell a 2x
 * difference, so the ranking cannot be decided on it (issue 28.1). */
static void too_noisy(FILE *f, const struct rank_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        double noise = rank_row_noise(r);
        if (r->rank != 1 || !(noise > RANK_TOO_NOISY))
            continue;
        fprintf(f,
                "too noisy to rank: %s, first, has %.0f tps [%.0f, %.0f] at the target, +/-%.0f "
                "%% (95 %%):\n  the ranking cannot be decided on it; probe again on a quieter "
                "host or for longer\n  (more --replicates, a tighter --precision)\n",
                r->config, r->x.value, r->x.lo, r->x.hi, 100 * noise);
    }
}

/* The ranking's first line: target, workloads, pricing (and the required throughput). */
static const char *header_text(const struct rank_set *s, char *buf, size_t cap)
{
    char slo[64], wl[256];
    int n = snprintf(buf, cap, "target %s; workload %s; %s prices in %s",
                     slo_text(&s->opt.slo, slo, sizeof slo), rank_set_workloads(s, wl, sizeof wl),
                     cat_pricing_name(s->opt.pricing), s->cat->currency);
    if (s->opt.required_tps > 0 && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, "; required %g tps", s->opt.required_tps);
    return buf;
}

static void header_lines(FILE *f, const struct rank_set *s)
{
    char h[512];
    fprintf(f, "%s\n", header_text(s, h, sizeof h));
}

/* The rows a text or Markdown table shows (rank --top). */
static size_t rank_set_text_rows(const struct rank_set *s)
{
    return s->text_rows && s->text_rows < s->n ? s->text_rows : s->n;
}

/* After a table that shows the first `shown` rows: how many more there are, and how many of
 * them are ranked (meet the target, and with --required-tps carry it). */
static void more_rows(FILE *f, const struct rank_set *s, size_t shown, const char *lead)
{
    size_t met = 0;
    if (shown >= s->n)
        return;
    for (size_t i = shown; i < s->n; i++)
        met += s->rows[i].status == RANK_MET;
    fprintf(f,
            "%s... %zu more configurations not shown (%zu of them ranked):\n"
            "    --top 0 shows every row; --json and --csv hold every row\n",
            lead, s->n - shown, met);
}

/* The table's heading line for the columns. */
static void table_heading(FILE *f, const struct rank_set *s, int w)
{
    const char *cur = s->cat->currency;
    char h1[24], h2[24], h3[24];
    snprintf(h1, sizeof h1, "%s/h", cur);
    if (s->opt.required_tps <= 0) {
        snprintf(h2, sizeof h2, "tps/(%s/h)", cur);
        snprintf(h3, sizeof h3, "%s/Mtx", cur);
        fprintf(f, "%4s %-*s %8s %-17s %7s %7s %10s %8s %6s %s\n", "rank", w, "config", "tps",
                "95% interval", x_name(s, 0), h1, h2, h3, "headrm", "basis");
    } else {
        snprintf(h2, sizeof h2, "%s/month", cur);
        fprintf(f, "%4s %-*s %8s %-17s %7s %8s %6s %6s %-8s %12s\n", "rank", w, "config", "tps",
                "95% interval", x_name(s, 0), h1, "units", "nodes", "nodes by", h2);
    }
}

/* The table's rows, the first `shown`, the configuration column w wide; a rank with "~" is tied
 * with the first within noise (conf may be NULL). */
static void table_rows(FILE *f, const struct rank_set *s, const struct rank_confidence *conf,
                       size_t shown, int w)
{
    char a[32], b[32], c[32], d[32], e[32], g[80];
    int req = s->opt.required_tps > 0;
    for (size_t i = 0; i < shown; i++) {
        const struct rank_row *r = &s->rows[i];
        char rk[16];
        if (r->rank && conf && i < conf->n && conf->rows[i].tied)
            snprintf(rk, sizeof rk, "%ld~", r->rank); /* tied with the first within noise */
        else if (r->rank)
            snprintf(rk, sizeof rk, "%ld", r->rank);
        else
            snprintf(rk, sizeof rk, "-");
        if (r->status != RANK_MET) {
            if (r->status == RANK_NEVER && r->n_at == 1 && isfinite(r->at[0].c.latency_s))
                fprintf(f, "%4s %-*s never meets the target (%.4g ms at %g %s%s already)", rk, w,
                        r->config, r->at[0].c.latency_s * 1e3, r->at[0].c.latency_n,
                        strcmp(x_name(s, i), "nodes") == 0 ? "node" : "thread",
                        r->at[0].c.latency_n == 1 ? "" : "s");
            else if (r->status == RANK_NO_SCALE_OUT && isfinite(r->x.value))
                fprintf(f,
                        "%4s %-*s cannot carry %g tps: one copy gives %s at the target, and the "
                        "catalog does not say it scales out",
                        rk, w, r->config, s->opt.required_tps, num(c, sizeof c, r->x.value));
            else
                fprintf(f, "%4s %-*s %s", rk, w, r->config, rank_status_text(r->status));
            fprintf(f, "\n");
            continue;
        }
        if (isfinite(r->x.lo))
            snprintf(g, sizeof g, "[%s, %s]", num(a, sizeof a, r->x.lo), num(b, sizeof b, r->x.hi));
        else
            snprintf(g, sizeof g, "-");
        if (!req) {
            char hr[16] = "-";
            if (isfinite(r->headroom))
                snprintf(hr, sizeof hr, "%s%.0f%%", r->headroom_lower_bound ? ">=" : "",
                         100 * r->headroom);
            fprintf(f, "%4s %-*s %8s %-17s %7s %7.4g %10s %8.3g %6s %s%s\n", rk, w, r->config,
                    num(c, sizeof c, r->x.value), g,
                    isfinite(r->n) ? (snprintf(d, sizeof d, "%.1f", r->n), d) : "-",
                    r->cost_per_hour, num(e, sizeof e, r->tps_per_cost), r->cost_per_mtx, hr,
                    basis_short(r->basis), r->standby_added ? " +sb" : "");
        } else {
            fprintf(f, "%4s %-*s %8s %-17s %7s %8.4g %6ld %6ld %-8s %12.2f%s\n", rk, w, r->config,
                    num(c, sizeof c, r->x.value), g,
                    isfinite(r->n) ? (snprintf(d, sizeof d, "%.1f", r->n), d) : "-",
                    r->cost_per_hour, r->units, r->nodes_needed, nodes_by(r, 1), r->cost_per_month,
                    r->standby_added ? " +sb" : "");
        }
    }
}

/* The notes of row i's curves at the target (where it binds, peaks, is extrapolated, ...). */
static void curve_notes(struct notes *nl, const struct rank_set *s, size_t i)
{
    const struct rank_row *r = &s->rows[i];
    const struct curve *cv = rank_set_curves(s, i);
    for (size_t k = 0; k < r->n_at; k++) {
        const struct rank_at *ra = &r->at[k];
        const struct curve_at *at = &ra->c;
        const struct curve *cu = &cv[k];
        char who[160], line[400], a1[32], a2[32];
        const char *xn = x_name(s, i);
        char xn_at[24]; /* "1 thread", not "1 threads" */
        if (ra->status != RANK_MET)
            continue;
        snprintf(xn_at, sizeof xn_at, "%.*s", at->n == 1 ? (int)strlen(xn) - 1 : (int)strlen(xn),
                 xn);
        if (r->n_at > 1)
            snprintf(who, sizeof who, "%s / %s", r->config, s->opt.mix[k].workload);
        else
            snprintf(who, sizeof who, "%s", r->config);
        if (at->binds == CURVE_BINDS_PEAK) {
            /* where the figure at the peak comes from */
            const char *from = at->x_basis == CURVE_BASIS_PREDICTED  ? "the predicted points"
                               : at->x_basis == CURVE_BASIS_MEASURED ? "measured"
                               : at->x_from_model                    ? "the model"
                                                                     : "the measured curve";
            if (cu->shape.cls == SHAPE_PLATEAU)
                snprintf(line, sizeof line,
                         "a plateau: the most throughput meeting the target is at %.4g %s (%s); "
                         "more %s meet it but give no more",
                         at->n, xn_at, from, xn);
            else
                snprintf(line, sizeof line,
                         "throughput peaks at %.4g %s (%s); more %s meet the target but give less",
                         at->n, xn_at, from, xn);
            notes_add(nl, who, line);
        }
        if (at->x_basis == CURVE_BASIS_EXTRAPOLATED) {
            snprintf(line, sizeof line,
                     "extrapolated to %.4g %s, %.3g x the %s measured (%g), as "
                     "--extrapolate=%g allows: the model has not seen %s",
                     at->n, at->n == 1 ? (cu->by_nodes ? "node" : "thread") : xn, at->beyond,
                     at->beyond < 1 ? "smallest" : "largest",
                     at->beyond < 1 ? cu->lv[0].n : cu->lv[cu->m - 1].n, s->opt.extrapolate,
                     cu->by_nodes ? "that node count" : "where the target binds");
            notes_add(nl, who, line);
        } else if (at->binds == CURVE_BINDS_RANGE && at->met_everywhere) {
            snprintf(line, sizeof line,
                     "meets the target at every measured level; probe higher "
                     "concurrency to find where it binds");
            notes_add(nl, who, line);
        } else if (at->binds == CURVE_BINDS_RANGE) {
            snprintf(line, sizeof line,
                     "meets the target at the largest measured level (%g %s); probe "
                     "higher concurrency to find where it binds",
                     at->n, xn);
            notes_add(nl, who, line);
        }
        if (cu->shape.cls == SHAPE_COLLAPSE) {
            const struct curve_level *p = &cu->lv[cu->shape.collapse_at], *q = p + 1;
            snprintf(line, sizeof line,
                     "throughput collapses between %g and %g %s (%s -> %s tps): nothing "
                     "beyond %g is ranked",
                     p->n, q->n, xn, curve_fmt_tps(p->x, a1, sizeof a1),
                     curve_fmt_tps(q->x, a2, sizeof a2), p->n);
            notes_add(nl, who, line);
        }
        if (at->x_basis == CURVE_BASIS_INTERPOLATED && !at->x_from_model) {
            snprintf(line, sizeof line,
                     "%s; the measured curve is used (interpolated between levels)",
                     cu->fitted && !cu->use_model ? "no model describes the points"
                     : !cu->fitted                ? "no model could be fitted"
                                                  : "the model overshoots the measured levels");
            notes_add(nl, who, line);
        }
        if (at->latency_model) {
            snprintf(line, sizeof line,
                     "latency from Little's law R = N/X on the curve (no measured "
                     "latency)");
            notes_add(nl, who, line);
        }
    }
    if (r->n_at > 1 && r->status == RANK_MET && r->basis != CURVE_BASIS_MEASURED) {
        char line[600];
        size_t used = 0;
        line[0] = '\0';
        for (size_t k = 0; k < r->n_at && used < sizeof line; k++)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s %s at %.4g %s, ",
                                     s->opt.mix[k].workload, curve_basis_name(r->at[k].c.x_basis),
                                     r->at[k].c.n, x_name(s, i));
        if (used < sizeof line)
            snprintf(line + used, sizeof line - used,
                     "so the row is %s (the weakest basis, from %s)", curve_basis_name(r->basis),
                     s->opt.mix[r->basis_from].workload);
        notes_add(nl, r->config, line);
    }
}

/* The notes of the rows shown (the same text for several configurations on one line). */
static void row_notes(FILE *f, const struct rank_set *s, size_t shown)
{
    struct notes nl;
    notes_init(&nl);
    for (size_t i = 0; i < shown; i++)
        curve_notes(&nl, s, i);
    for (size_t i = 0; i < shown; i++) {
        char line[400];
        if (power_load_text(s, &s->rows[i], line, sizeof line))
            notes_add(&nl, s->rows[i].config, line);
    }
    for (size_t i = 0; s->from && i < shown; i++) {
        const char *from = s->from[s->row_curve[i]];
        char line[600];
        if (!from)
            continue;
        snprintf(line, sizeof line, "predicted from %s (%s; not measured)", from,
                 s->note && s->note[s->row_curve[i]] ? "rank --disks" : "sizeup predict");
        notes_add(&nl, s->rows[i].config, line);
    }
    for (size_t i = 0; i < shown; i++) {
        const struct curve *cv = rank_set_curves(s, i);
        for (size_t k = 0; k < s->opt.n_mix; k++) {
            char line[300];
            if (cv[k].m == 0 || cv[k].n_lat_hist == 0)
                continue;
            /* issue 28.10: a percentile nobody reported, read from the histogram */
            snprintf(line, sizeof line,
                     "%s p%g derived from the latency histogram of %zu of its %zu points "
                     "(sysbench's percentile rule; not reported by the tool)",
                     s->opt.mix[k].workload, s->opt.slo.pct, cv[k].n_lat_hist, cv[k].n_obs);
            notes_add(&nl, s->rows[i].config, line);
        }
    }
    for (size_t i = 0; s->note && i < shown; i++) {
        const char *note = s->note[s->row_curve[i]];
        char line[800];
        if (!note)
            continue;
        snprintf(line, sizeof line, "disk model: %s", note);
        notes_add(&nl, s->rows[i].config, line);
    }
    notes_print(f, &nl);
    notes_free(&nl);
}

/* Like for like? What the rows' points say of how they were measured, when it differs (issue
 * 28.17). */
static void like_for_like(FILE *f, const struct rank_set *s)
{
    struct notes ml;
    if (!s->measured)
        return;
    notes_init(&ml);
    for (size_t i = 0; i < s->n; i++) {
        const char *m = s->measured[s->row_curve[i]];
        if (s->rows[i].status == RANK_MET && !(s->from && s->from[s->row_curve[i]]))
            notes_add(&ml, s->rows[i].config, m ? m : "not stated (an imported table)");
    }
    if (ml.n > 1) {
        fprintf(f, "like for like? the measured rows were not measured alike (an engine, the "
                   "data or where\n  the client ran can move throughput as much as the "
                   "hardware):\n");
        notes_print_as(f, &ml, "  ");
    }
    notes_free(&ml);
}

/* The configurations whose cost holds an estimated price. */
static void estimated_prices(FILE *f, const struct rank_set *s)
{
    size_t any = 0, col = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].cost_estimate) {
            const char *lead = any ? ", " : "note: estimated prices in the cost of ";
            if (++any > 4 * NOTES_MAX_WHO)
                continue; /* counted below */
            if (col + strlen(lead) + strlen(s->rows[i].config) > 98) {
                fprintf(f, ",\n     ");
                lead = "";
                col = 5;
            }
            col += (size_t)fprintf(f, "%s%s", lead, s->rows[i].config);
        }
    if (any > 4 * NOTES_MAX_WHO)
        fprintf(f, " and %zu more", any - 4 * NOTES_MAX_WHO);
    if (any)
        fprintf(f, "\n      (sizeup catalog cost ID shows each term and its source)\n");
}

/* The inputs the user set (--set), not the catalog's, of the rows shown. */
static void set_inputs(FILE *f, const struct rank_set *s, size_t shown)
{
    struct notes sl;
    notes_init(&sl);
    for (size_t i = 0; i < shown; i++)
        setnotes_row(s, i, set_note, &sl);
    notes_print(f, &sl);
    notes_free(&sl);
}

/* How old the prices are (issue 26.3): those past --max-price-age, and any dated after today,
 * by date and source. */
static void price_ages(FILE *f, const struct rank_set *s)
{
    struct notes pl, fut;
    char today[11];
    int max = s->opt.max_price_age_months > 0 ? s->opt.max_price_age_months : RANK_MAX_PRICE_AGE;
    today_ymd(today);
    notes_init(&pl);
    notes_init(&fut);
    for (size_t i = 0; i < s->n; i++) {
        char as_of[11], line[300];
        const char *src;
        int age;
        if (rank_set_row_price_date(s, &s->rows[i], as_of, &src) != 0 || !as_of[0])
            continue;
        age = months_between(as_of, today);
        if (age < 0) {
            /* a price from the future: the catalog's date or today's is wrong */
            snprintf(line, sizeof line, "as of %s (%.90s%s)", as_of, src ? src : "no source",
                     src && strlen(src) > 90 ? "..." : "");
            notes_add(&fut, s->rows[i].config, line);
            continue;
        }
        if (age <= max)
            continue;
        snprintf(line, sizeof line, "as of %s, %d months old (%.90s%s)", as_of, age,
                 src ? src : "no source", src && strlen(src) > 90 ? "..." : "");
        notes_add(&pl, s->rows[i].config, line);
    }
    if (pl.n) {
        fprintf(f,
                "prices older than %d months (--max-price-age): refresh the catalogs that "
                "hold them\n",
                max);
        notes_print_as(f, &pl, "  ");
    }
    if (fut.n) {
        fprintf(f, "prices dated after today (%s): a catalog's date or today's is wrong\n", today);
        notes_print_as(f, &fut, "  ");
    }
    notes_free(&fut);
    notes_free(&pl);
}

/* The legend of the basis column and the marks, as the rows use them. */
static void legend(FILE *f, const struct rank_set *s, const struct rank_confidence *conf)
{
    fprintf(f,
            "basis: meas = at a measured level, interp = between measured levels (the model where "
            "it\n       describes them, else the measured curve), extrap = beyond them (only "
            "with --extrapolate);\n       95%% interval: a level's from its replicates or "
            "ci95 (else +/-5 %%), the model's by the\n       delta method, and as far as the "
            "latency's own interval moves where the target is\n       crossed; headrm = peak (a "
            "plateau: its best level) / tps - 1\n");
    {
        int any_lb = 0;
        for (size_t i = 0; i < s->n; i++)
            any_lb |= s->rows[i].status == RANK_MET && s->rows[i].headroom_lower_bound;
        if (any_lb)
            fprintf(f, "       headrm >= : the curve still rises at its largest level; its peak is "
                       "beyond the\n       data, at least the best level, so the headroom is at "
                       "least this\n");
    }
    if (s->from) {
        int fam = 0, disk = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->from[s->row_curve[i]]) {
                if (s->note && s->note[s->row_curve[i]])
                    disk = 1;
                else
                    fam = 1;
            }
        if (fam)
            fprintf(f,
                    "       pred = predicted from measured sizes of its family (sizeup predict), "
                    "its interval\n       with the family's leave-one-out error\n");
        if (disk)
            fprintf(f, "       pred CONFIG@DISK:GIB = CONFIG's demands on that disk (rank --disks: "
                       "a queueing\n       model of its CPU and disk), its interval with the "
                       "model's validation error\n");
    }
    if (conf) {
        int any_tied = 0;
        for (size_t i = 0; i < conf->n; i++)
            any_tied |= conf->rows[i].tied;
        if (any_tied)
            fprintf(f, "       N~ = tied with the first within noise (not ordered at 95 %%)\n");
    }
}

int ranking_write_text(FILE *f, const struct ranking *rk)
{
    const struct rank_set *s = &rk->set;
    const struct rank_confidence *conf = ranking_conf(rk);
    const struct rank_tco *tco = ranking_tco(rk);
    size_t shown = rank_set_text_rows(s);
    int w = 6; /* the configuration column's width */

    /* as wide as the longest id, 6 to 40 characters; a longer id is printed whole (its row
     * shifts), never cut, so two ids never read alike (issue 28.13) */
    for (size_t i = 0; i < shown; i++)
        if ((int)strlen(s->rows[i].config) > w)
            w = (int)strlen(s->rows[i].config);
    if (w > 40)
        w = 40;
    too_noisy(f, s);
    header_lines(f, s);
    table_heading(f, s, w);
    table_rows(f, s, conf, shown, w);
    more_rows(f, s, shown, "");
    row_notes(f, s, shown);
    like_for_like(f, s);
    estimated_prices(f, s);
    set_inputs(f, s, shown);
    price_ages(f, s);
    legend(f, s, conf);
    if (conf && conf_write_text(f, s, conf) != 0)
        return -1;
    if (tco && tco_write_text(f, s, tco) != 0)
        return -1;
    if (s->trailer)
        fputs(s->trailer, f);
    return ferror(f) ? -1 : 0;
}

/* setnotes_row's callback for Markdown: one list item per set input. */
static void set_md_line(void *ctx, const char *config, const char *line)
{
    char a[256], b[1024];
    fprintf(ctx, "- %s: %s\n", textsafe_md(config, a, sizeof a), textsafe_md(line, b, sizeof b));
}

/* The inputs the user set (--set), not the catalog's, of the rows the table shows. */
static void set_inputs_md(FILE *f, const struct rank_set *s)
{
    int said = 0;
    for (size_t i = 0; i < rank_set_text_rows(s); i++) {
        if (setnotes_row(s, i, NULL, NULL) == 0)
            continue;
        if (!said++)
            fprintf(f, "\nInputs set, not the catalog's:\n\n");
        setnotes_row(s, i, set_md_line, f);
    }
}

int ranking_write_markdown(FILE *f, const struct ranking *rk)
{
    const struct rank_set *s = &rk->set;
    const char *cur = s->cat->currency;
    char a[32], b[32], c[32], e[32];
    char h[512], md[1024], cfg[512];
    int any_lb = 0;
    /* every name escaped for Markdown (textsafe.h): a '|' would break the row, HTML render */
    fprintf(f, "Ranking: %s\n", textsafe_md(header_text(s, h, sizeof h), md, sizeof md));
    fprintf(f,
            "\n| rank | config | tps at target | 95 %% interval | %s | %s/h | tps per %s/h | "
            "%s per million tx | headroom | basis |",
            s->opt.n_mix == 1 && s->n && rank_set_curves(s, 0)[0].by_nodes ? "nodes" : "threads",
            cur, cur, cur);
    if (s->opt.required_tps > 0)
        fprintf(f, " nodes needed | %s/month |", cur);
    fprintf(f, "\n|---:|---|---:|---|---:|---:|---:|---:|---:|---|");
    if (s->opt.required_tps > 0)
        fprintf(f, "---:|---:|");
    fprintf(f, "\n");
    for (size_t i = 0; i < rank_set_text_rows(s); i++) {
        const struct rank_row *r = &s->rows[i];
        if (r->status != RANK_MET) {
            fprintf(f, "| - | %s | %s | | | %s | | | | |", textsafe_md(r->config, cfg, sizeof cfg),
                    rank_status_text(r->status), num(a, sizeof a, r->cost_per_hour));
            if (s->opt.required_tps > 0)
                fprintf(f, " | |");
            fprintf(f, "\n");
            continue;
        }
        fprintf(f, "| %ld | %s | %s | ", r->rank, textsafe_md(r->config, cfg, sizeof cfg),
                num(a, sizeof a, r->x.value));
        if (isfinite(r->x.lo))
            fprintf(f, "[%s, %s]", num(b, sizeof b, r->x.lo), num(c, sizeof c, r->x.hi));
        fprintf(f, " | %s | %.4g | %s | %.4g | ",
                isfinite(r->n) ? (snprintf(e, sizeof e, "%.1f", r->n), e) : "-", r->cost_per_hour,
                num(a, sizeof a, r->tps_per_cost), r->cost_per_mtx);
        if (isfinite(r->headroom))
            fprintf(f, "%s%.0f %%", r->headroom_lower_bound ? "≥ " : "", 100 * r->headroom);
        fprintf(f, " | %s |", curve_basis_name(r->basis));
        if (s->opt.required_tps > 0)
            fprintf(f, " %ld (%s) | %.2f |", r->nodes_needed, nodes_by(r, 0), r->cost_per_month);
        fprintf(f, "\n");
        any_lb |= r->headroom_lower_bound;
    }
    more_rows(f, s, rank_set_text_rows(s), "\n");
    if (any_lb)
        fprintf(f, "\n≥ headroom: the curve still rises at its largest level; its peak is beyond "
                   "the data, at least the best level, so the headroom is at least this.\n");
    if (s->trailer) {
        /* what was not ranked, and each disk type's knee (rank --disks), as the text has them */
        char line[1024];
        const char *p = s->trailer;
        fprintf(f, "\n");
        while (*p) {
            size_t n = strcspn(p, "\n");
            snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1),
                     p);
            fprintf(f, "> %s\n", textsafe_md(line, md, sizeof md));
            p += n + (p[n] == '\n');
        }
    }
    set_inputs_md(f, s);
    if (decision_write_markdown(f, rk) != 0)
        return -1;
    return ferror(f) ? -1 : 0;
}
