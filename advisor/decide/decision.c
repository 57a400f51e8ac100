/* decision.c - the decision section of a report (decision.h). */
#include "decision.h"

#include "confidence.h"
#include "tco.h"

#include "textsafe.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Append to an item, never past its end. */
static void add(char *item, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(char *item, const char *fmt, ...)
{
    size_t used = strlen(item);
    va_list ap;
    if (used + 1 >= DECISION_ITEM_MAX)
        return;
    va_start(ap, fmt);
    vsnprintf(item + used, DECISION_ITEM_MAX - used, fmt, ap);
    va_end(ap);
}

/* "on-premises X" for an owned server, "X" otherwise. */
static const char *who(const struct rank_row *r, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", r->owned ? "on-premises " : "", r->config);
    return buf;
}

/* The row's figure at the target: "1437 tps at avg <= 20 ms for 0.09605 USD/h: 14962 tps per
 * USD/h", or with a required throughput its node count and monthly cost. */
static void row_figures(char *item, const struct rank_set *s, const struct rank_row *r)
{
    char a[32], b[32], slo[64];
    const char *cur = s->cat->currency;
    add(item, "%s tps at %s", tco_fnum(a, sizeof a, r->x.value),
        slo_text(&s->opt.slo, slo, sizeof slo));
    if (s->opt.required_tps > 0)
        add(item, "; %ld node%s serve %g tps for %.2f %s/month", r->nodes_needed,
            r->nodes_needed == 1 ? "" : "s", s->opt.required_tps, r->cost_per_month, cur);
    else
        add(item, " for %.4g %s/h: %s tps per %s/h", r->cost_per_hour, cur,
            tco_fnum(b, sizeof b, r->tps_per_cost), cur);
    add(item, " (%s%s)", curve_basis_name(r->basis), r->standby_added ? ", a standby added" : "");
}

/* The break-even item and the never-flips item of t. */
static void flips(char (*items)[DECISION_ITEM_MAX], size_t *n, const struct rank_set *s,
                  const struct rank_tco *t)
{
    const struct rank_row *w = &s->rows[t->best], *r = &s->rows[t->runner_up];
    const struct tco_input *v[TCO_MAX_INPUTS];
    size_t k = tco_sorted_inputs(t, v, 0), shown = 0, none = 0;
    char *item = items[(*n)++], a[64], b[64];
    add(item, "Where it flips: %s stays cheaper %s than %s unless (one estimate at a time)",
        who(w, a, sizeof a), s->opt.required_tps > 0 ? "per month" : "per tps",
        who(r, b, sizeof b));
    for (size_t i = 0; i < k; i++) {
        const struct tco_input *q = v[i];
        char n1[32], n2[32];
        if (!isfinite(q->break_even)) {
            none++;
            continue;
        }
        add(item, "%c%s's %s%s %s %s%s%s (now %s)", DECISION_ALT, q->config, q->in.name,
            strcmp(q->in.name, "instance") == 0 ? " price" : "",
            q->break_even > q->in.value ? "exceeds" : "falls below",
            tco_fnum(n1, sizeof n1, q->break_even), *q->in.unit ? " " : "", q->in.unit,
            tco_fnum(n2, sizeof n2, q->in.value));
        if (strcmp(q->in.name, "servers_per_admin") == 0)
            add(item, ": %.3g FTE per server", 1 / q->break_even);
        shown++;
    }
    if (!shown) {
        item[0] = '\0';
        add(item,
            "Where it flips: no single estimate flips it within the values a catalog accepts");
    }
    add(item, ".");
    if (none) {
        item = items[(*n)++];
        add(item, "Never flips it alone:");
        for (size_t i = 0, j = 0; i < k; i++)
            if (!isfinite(v[i]->break_even))
                add(item, "%s %s's %s", j++ ? "," : "", v[i]->config, v[i]->in.name);
        add(item, ".");
    }
}

/* The span of the sensitivity table. */
static void sensitivity(char *item, const struct rank_set *s, const struct rank_tco *t)
{
    const struct tco_input *lo = NULL, *hi = NULL;
    double a_lo = INFINITY, a_hi = -INFINITY;
    int lo_at_high = 0, hi_at_high = 0;
    for (size_t i = 0; i < t->n_inputs; i++) {
        const struct tco_input *q = &t->inputs[i];
        if (tco_swing(q) < 0)
            continue;
        for (int end = 0; end < 2; end++) {
            double a = end ? q->adv_high : q->adv_low;
            if (a < a_lo) {
                a_lo = a;
                lo = q;
                lo_at_high = end;
            }
            if (a > a_hi) {
                a_hi = a;
                hi = q;
                hi_at_high = end;
            }
        }
    }
    if (!lo || !hi)
        return;
    add(item,
        "Sensitivity: with each ranged estimate at its low and its high, %s's lead is between "
        "%.3gx (%s's %s at %g) and %.3gx (%s's %s at %g)",
        s->rows[t->best].config, a_lo, lo->config, lo->in.name,
        lo_at_high ? lo->in.fig->high : lo->in.fig->low, a_hi, hi->config, hi->in.name,
        hi_at_high ? hi->in.fig->high : hi->in.fig->low);
    add(item, a_lo <= 1 ? "; below 1x the order flips." : ": the order holds across the ranges.");
}

/* Like for like. */
static void like(char *item, const struct rank_set *s, const struct rank_tco *t)
{
    if (!t->like_for_like) {
        size_t j = 0;
        add(item, "Not like for like: highly available (a standby in the price):");
        for (size_t i = 0; i < s->n; i++)
            if (s->rows[i].rank > 0 && s->rows[i].ha)
                add(item, "%s %s", j++ ? "," : "", s->rows[i].config);
        add(item, "; single machines:");
        j = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->rows[i].rank > 0 && !s->rows[i].ha)
                add(item, "%s %s", j++ ? "," : "", s->rows[i].config);
        add(item, " (--ha-standby 1 prices a standby copy of each single machine).");
    } else if (t->n_standby_added) {
        add(item,
            "Like for like: a standby copy priced for each configuration that is not highly "
            "available (--ha-standby %d).",
            s->opt.ha_standby);
    } else if (t->n_ha && !t->n_single) {
        add(item, "Like for like: every configuration ranked is highly available.");
    } else {
        add(item, "Like for like: no configuration ranked is highly available (no standby in any "
                  "price).");
    }
}

/* The two rows' lowest NPV over the horizon. */
static void horizon(char *item, const struct rank_set *s, const struct rank_tco *t)
{
    const char *cur = s->cat->currency;
    long rows[2] = {t->best, t->runner_up};
    int any = 0;
    for (int k = 0; k < 2; k++) {
        const struct tco_row *q;
        const struct tco_pricing *p;
        if (rows[k] < 0 || !t->rows || t->rows[rows[k]].cheapest < 0)
            continue;
        q = &t->rows[rows[k]];
        p = &q->pr[q->cheapest];
        if (!any)
            add(item, "Over %d months at %g %%/y (net present value, the lowest pricing model): ",
                t->months, 100 * t->rate);
        add(item, "%s%s %.2f %s (", any ? "; " : "", s->rows[rows[k]].config, p->npv.total, cur);
        if (s->rows[rows[k]].owned)
            add(item, "owned, %d purchase%s", p->npv.purchases, p->npv.purchases == 1 ? "" : "s");
        else
            add(item, "%s", cat_pricing_name(p->pricing));
        add(item, ", %.4g %s per million transactions, %.2f %s per 1,000 tps)", p->per_mtx, cur,
            tco_npv_per_ktps(&s->rows[rows[k]], p), cur);
        any = 1;
    }
    if (any)
        add(item, ".");
}

/* The load an owned row's power was read at. */
static void power(char *item, const struct rank_row *r)
{
    if (!r->owned || !isfinite(r->power_load))
        return;
    if (item[0])
        add(item, " ");
    else
        add(item, "Power: ");
    if (r->power_load_measured)
        add(item,
            "%s's server read on its power curve at load %.3g, from its measured utilisation at "
            "the target (X / X_peak = %.3g, the utilisation law%s).",
            r->config, r->power_load, r->load,
            fabs(r->power_load - r->load) > 1e-12 ? ", times the packing" : "");
    else
        add(item, "%s's server read on its power curve at the catalog's cpu_load %.3g.", r->config,
            r->power_load);
}

/* The items with a "where it flips" item's alternatives each after DECISION_ALT; the writers
 * print them as a sentence (decision_items) or a list (HTML). */
size_t decision_items_parts(const struct ranking *rk, char (*items)[DECISION_ITEM_MAX])
{
    const struct rank_set *s = &rk->set;
    const struct rank_confidence *c = ranking_conf(rk);
    const struct rank_tco *t = ranking_tco(rk);
    const struct rank_row *w = NULL, *r = NULL;
    size_t n = 0;
    char a[64];
    for (size_t i = 0; i < s->n; i++) {
        if (s->rows[i].rank == 1)
            w = &s->rows[i];
        else if (s->rows[i].rank == 2)
            r = &s->rows[i];
    }
    if (!w)
        return 0;
    for (size_t i = 0; i < DECISION_MAX_ITEMS; i++)
        items[i][0] = '\0';
    if (rank_row_noise(w) > RANK_TOO_NOISY)
        add(items[n++],
            "Too noisy to rank: %s, first, has %.0f tps [%.0f, %.0f] at the target, +/-%.0f %% "
            "(95 %%): the ranking cannot be decided on it; probe again on a quieter host or for "
            "longer.",
            w->config, w->x.value, w->x.lo, w->x.hi, 100 * rank_row_noise(w));
    add(items[n], "Winner: %s, ", who(w, a, sizeof a));
    row_figures(items[n], s, w);
    if (c && c->best >= 0 && (size_t)c->best < c->n)
        add(items[n], "; P(best) %.3g %%", 100 * c->rows[c->best].p_best);
    add(items[n++], ".");
    if (r) {
        add(items[n], "Runner-up: %s, ", who(r, a, sizeof a));
        row_figures(items[n], s, r);
        if (t && isfinite(t->advantage))
            add(items[n], "; %s leads it %.3gx", w->config, t->advantage);
        else if (s->opt.required_tps > 0 && r->cost_per_month > 0)
            add(items[n], "; %s costs %.3gx less per month", w->config,
                r->cost_per_month / w->cost_per_month);
        else if (r->tps_per_cost > 0)
            add(items[n], "; %s leads it %.3gx per tps", w->config,
                w->tps_per_cost / r->tps_per_cost);
        if (c && c->runner_up >= 0 && (size_t)c->runner_up < c->n && c->rows[c->runner_up].tied)
            add(items[n], " (tied with the winner within noise)");
        add(items[n++], ".");
    } else {
        add(items[n++], "Runner-up: none; no other configuration meets the target.");
    }
    if (t && t->best >= 0 && t->runner_up >= 0 && isfinite(t->advantage)) {
        if (t->n_inputs > 0 && t->advantage > 1)
            flips(items, &n, s, t);
        else if (t->n_inputs == 0)
            add(items[n++], "Where it flips: neither cost rests on an estimate.");
        sensitivity(items[n], s, t);
        if (items[n][0])
            n++;
    }
    if (t) {
        like(items[n++], s, t);
        if (t->months > 0) {
            horizon(items[n], s, t);
            if (items[n][0])
                n++;
        }
    }
    power(items[n], w);
    if (r)
        power(items[n], r);
    if (items[n][0])
        n++;
    return n;
}

size_t decision_items(const struct ranking *rk, char (*items)[DECISION_ITEM_MAX])
{
    size_t n = decision_items_parts(rk, items);
    for (size_t i = 0; i < n; i++) {
        /* the alternatives as one sentence: "... time) A, or B." */
        char out[DECISION_ITEM_MAX];
        size_t o = 0, alts = 0;
        for (const char *p = items[i]; *p && o + 6 < sizeof out; p++) {
            if (*p != DECISION_ALT) {
                out[o++] = *p;
                continue;
            }
            if (alts++)
                out[o++] = ',', out[o++] = ' ', out[o++] = 'o', out[o++] = 'r';
            out[o++] = ' ';
        }
        out[o] = '\0';
        memcpy(items[i], out, o + 1);
    }
    return n;
}
