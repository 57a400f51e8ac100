/* tco.c - horizon NPV, like for like, break-even inputs and sensitivity (tco.h). */
#include "tco.h"

#include "figfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tco_parse_horizon(const char *arg, int *months, char *err, size_t cap)
{
    char *end;
    double v = strtod(arg, &end), m;
    if (end == arg || !(v > 0) ||
        (strcmp(end, "y") != 0 && strcmp(end, "m") != 0 && strcmp(end, "mo") != 0)) {
        snprintf(err, cap,
                 "'%s' is not a horizon: expected a number of years or months, e.g. 3y "
                 "or 36m",
                 arg);
        return -1;
    }
    m = *end == 'y' ? v * 12 : v;
    if (m < 1 - 1e-9 || m > 1200 || fabs(m - round(m)) > 1e-9) {
        snprintf(err, cap, "a horizon of %g months: expected whole months from 1 to 1200 (100 y)",
                 m);
        return -1;
    }
    *months = (int)lround(m);
    return 0;
}

void tco_destroy(struct rank_tco *t)
{
    if (!t)
        return;
    free(t->rows);
    memset(t, 0, sizeof *t);
    t->best = t->runner_up = -1;
}

static int ranked(const struct rank_row *r)
{
    return r->status == RANK_MET && r->rank > 0 && isfinite(r->cost_per_hour) &&
           r->cost_per_hour > 0;
}

/* Row r's hourly cost at its own node count with one override (fig NULL: none). */
static double cost_with(const struct rank_set *s, const struct rank_row *r,
                        const struct cat_price *fig, double v, struct cat_cost *out)
{
    struct cat_override ov = {fig, v};
    struct cat_error err;
    if (rank_set_row_figures(s, r, -1, 0, fig ? &ov : NULL, fig ? 1u : 0u, out, &err) != CAT_OK)
        return NAN;
    return out->per_hour;
}

/* The advantage A with input k at value v. */
static double advantage_at(const struct rank_tco *t, const struct rank_set *s,
                           const struct tco_input *k, double v)
{
    const struct rank_row *r = &s->rows[k->side ? t->runner_up : t->best];
    struct cat_cost c;
    double x = cost_with(s, r, k->in.fig, v, &c);
    if (!isfinite(x))
        return NAN;
    if (x <= 0) /* free: the runner-up wins outright, the winner leads without bound */
        return k->side ? 0 : INFINITY;
    return k->side ? t->advantage * x / r->cost_per_hour : t->advantage * r->cost_per_hour / x;
}

/* The value of input k at which A = 1, by bisection between its value and a domain end. */
static double break_even(const struct rank_tco *t, const struct rank_set *s, struct tco_input *k)
{
    double v0 = k->in.value, a_lo = advantage_at(t, s, k, k->in.min),
           a_hi = advantage_at(t, s, k, k->in.max), lo, hi;
    k->rises = isfinite(a_hi) && isfinite(a_lo) ? a_hi < a_lo : 0;
    if (isfinite(a_hi) && a_hi <= 1 && (!isfinite(a_lo) || a_lo > 1)) {
        lo = v0; /* A > 1 */
        hi = k->in.max;
    } else if (isfinite(a_lo) && a_lo <= 1 && (!isfinite(a_hi) || a_hi > 1)) {
        lo = v0;
        hi = k->in.min;
    } else {
        return NAN;
    }
    for (int i = 0; i < 200; i++) {
        double m = 0.5 * (lo + hi), a = advantage_at(t, s, k, m);
        if (!isfinite(a))
            return NAN;
        if (a > 1)
            lo = m;
        else
            hi = m;
    }
    return 0.5 * (lo + hi);
}

/* Horizon figures of row i. */
static void horizon_row(struct rank_tco *t, const struct rank_set *s, size_t i)
{
    const struct rank_row *r = &s->rows[i];
    struct tco_row *q = &t->rows[i];
    const struct cat_config *cf = cat_find_config(s->cat, r->config);
    unsigned mask = cf ? cat_config_pricings(s->cat, cf) : 0;
    int req = s->opt.required_tps > 0, nodes = r->config_nodes;
    double mult = 1, x = req ? s->opt.required_tps : r->x.value;
    q->cheapest = -1;
    if (req) {
        if (r->nodes_basis == CURVE_BASIS_LINEAR)
            mult = (double)r->units;
        else
            nodes = (int)r->nodes_needed;
    }
    for (int p = 0; p < CAT_PRICING_COUNT; p++) {
        struct cat_cost c;
        struct cat_error err;
        struct tco_pricing *tp;
        if (!(mask & (1u << p)) || (r->owned && p != (int)s->opt.pricing))
            continue;
        if (rank_set_row_figures(s, r, p, nodes, NULL, 0, &c, &err) != CAT_OK)
            continue;
        tp = &q->pr[q->n];
        tp->pricing = (enum cat_pricing)p;
        if (cat_cost_npv(&c, t->months, t->rate, &tp->npv) != CAT_OK)
            continue;
        tp->npv.total *= mult;
        tp->npv.capital *= mult;
        tp->npv.running *= mult;
        tp->npv.residual *= mult;
        tp->per_mtx = tp->npv.total / (x * 3600.0 * tp->npv.discounted_hours / 1e6);
        if (q->cheapest < 0 || tp->npv.total < q->pr[q->cheapest].npv.total)
            q->cheapest = (long)q->n;
        q->n++;
    }
}

int tco_compute(struct rank_tco *t, const struct rank_set *s, const struct rank_confidence *c)
{
    memset(t, 0, sizeof *t);
    t->best = t->runner_up = -1;
    t->advantage = NAN;
    t->rate = s->opt.discount_rate;
    t->n = s->n;
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        if (!ranked(r))
            continue;
        if (r->ha)
            t->n_ha++;
        else
            t->n_single++;
        if (r->standby_added)
            t->n_standby_added++;
        if (r->rank == 1)
            t->best = (long)i;
        else if (r->rank == 2)
            t->runner_up = (long)i;
    }
    t->like_for_like = t->n_ha == 0 || t->n_single == 0;
    /* the horizon: asked, else the longest life of the owned servers ranked */
    t->months = s->opt.horizon_months;
    if (t->months <= 0) {
        t->months_default = 1;
        t->months = 0;
        for (size_t i = 0; i < s->n; i++) {
            struct cat_cost k;
            if (ranked(&s->rows[i]) && s->rows[i].owned &&
                isfinite(cost_with(s, &s->rows[i], NULL, 0, &k)))
                t->months = (int)fmax(t->months, lround(k.life_years * 12));
        }
    }
    /* rows over the horizon only when there is one (816 bytes a row: a ranking of a million
     * configurations without a horizon needs none) */
    if (t->months > 0) {
        if (!(t->rows = calloc(s->n ? s->n : 1, sizeof *t->rows)))
            return -1;
        for (size_t i = 0; i < s->n; i++) {
            t->rows[i].cheapest = -1;
            if (ranked(&s->rows[i]))
                horizon_row(t, s, i);
        }
    }
    /* where the decision flips */
    if (c && c->best >= 0 && c->runner_up >= 0 && c->best == t->best &&
        c->runner_up == t->runner_up && isfinite(c->break_even_best_cost_per_hour)) {
        t->advantage = c->break_even_best_cost_per_hour / s->rows[t->best].cost_per_hour;
        for (int side = 0; side < 2; side++) {
            const struct rank_row *r = &s->rows[side ? t->runner_up : t->best];
            struct cat_cost k;
            if (!isfinite(cost_with(s, r, NULL, 0, &k)))
                continue;
            for (size_t j = 0; j < k.n_inputs && t->n_inputs < TCO_MAX_INPUTS; j++) {
                struct tco_input *in = &t->inputs[t->n_inputs];
                /* the estimates, and the inputs the user set (--set): the figures in question */
                if (!k.inputs[j].fig->estimate && !k.inputs[j].fig->user_set)
                    continue;
                memset(in, 0, sizeof *in);
                in->side = side;
                in->config = r->config;
                in->in = k.inputs[j];
                in->adv_low = in->adv_high = NAN;
                in->break_even = t->advantage > 1 ? break_even(t, s, in) : NAN;
                if (in->in.fig->has_range) {
                    in->adv_low = advantage_at(t, s, in, in->in.fig->low);
                    in->adv_high = advantage_at(t, s, in, in->in.fig->high);
                }
                t->n_inputs++;
            }
        }
    }
    return 0;
}

const char *tco_fnum(char *buf, size_t cap, double v)
{
    return fig_fmt(buf, cap, v, FIG_LARGE);
}

/* The name of a row's pricing line: "owned" or the model. */
double tco_npv_per_ktps(const struct rank_row *r, const struct tco_pricing *p)
{
    return r->x.value > 0 && isfinite(p->npv.total) ? p->npv.total * 1000 / r->x.value : NAN;
}

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static const char *pricing_label(const struct rank_row *r, const struct tco_pricing *p, char *buf,
                                 size_t cap)
{
    if (r->owned)
        snprintf(buf, cap, "owned, %d purchase%s", p->npv.purchases,
                 p->npv.purchases == 1 ? "" : "s");
    else
        snprintf(buf, cap, "%s", cat_pricing_name(p->pricing));
    return buf;
}

double tco_swing(const struct tco_input *k)
{
    if (!isfinite(k->adv_low) || !isfinite(k->adv_high) || k->adv_low <= 0 || k->adv_high <= 0)
        return -1;
    return fabs(log(k->adv_high) - log(k->adv_low));
}

/* Nearness of input k's flip: |log(break-even / value)| (smaller is nearer), +inf without. */
static double nearness(const struct tco_input *k)
{
    if (!isfinite(k->break_even) || k->break_even <= 0 || k->in.value <= 0)
        return INFINITY;
    return fabs(log(k->break_even / k->in.value));
}

static int cmp_near(const void *a, const void *b)
{
    double x = nearness(*(const struct tco_input *const *)a),
           y = nearness(*(const struct tco_input *const *)b);
    return x < y ? -1 : x > y;
}

static int cmp_swing(const void *a, const void *b)
{
    double x = tco_swing(*(const struct tco_input *const *)a),
           y = tco_swing(*(const struct tco_input *const *)b);
    return x > y ? -1 : x < y;
}

size_t tco_sorted_inputs(const struct rank_tco *t, const struct tco_input **v, int by_swing)
{
    int (*cmp)(const void *, const void *) = by_swing ? cmp_swing : cmp_near;
    for (size_t i = 0; i < t->n_inputs; i++)
        v[i] = &t->inputs[i];
    qsort((void *)v, t->n_inputs, sizeof *v, cmp);
    return t->n_inputs;
}

/* The ranked rows that are (ha 1) or are not (ha 0) highly available, wrapped at 96 columns
 * from column col. */
static void ha_list(FILE *f, const struct rank_set *s, int ha, size_t col)
{
    for (size_t i = 0; i < s->n; i++)
        if (ranked(&s->rows[i]) && (ha ? s->rows[i].ha : !s->rows[i].ha)) {
            if (col + strlen(s->rows[i].config) > 96) {
                fprintf(f, "\n   ");
                col = 3;
            }
            col += (size_t)fprintf(f, " %s", s->rows[i].config);
        }
}

/* Whether the ranking compares like for like: which rows carry a standby and which do not, or
 * the standby copies --ha-standby added; nothing when it is like for like as it stands. */
static void like_for_like_text(FILE *f, const struct rank_set *s, const struct rank_tco *t)
{
    if (!t->like_for_like) {
        fprintf(f, "not like for like: highly available (a standby in the price):");
        ha_list(f, s, 1, 62);
        fprintf(f, ";\n  a single machine:");
        ha_list(f, s, 0, 19);
        fprintf(f, "\n  (--ha-standby 1 prices a standby copy for each single machine)\n");
    } else if (t->n_standby_added) {
        fprintf(f,
                "like for like: a standby copy priced for each configuration that is not "
                "highly available\n  (--ha-standby %d)\n",
                s->opt.ha_standby);
    }
}

/* The net present value table over the horizon: each row under each pricing model; nothing
 * without a horizon or a priced row. */
static void npv_table(FILE *f, const struct rank_set *s, const struct rank_tco *t)
{
    const char *cur = s->cat->currency;
    char lab[48];
    int any = 0;
    if (t->months <= 0)
        return;
    for (size_t i = 0; t->rows && i < s->n; i++)
        any |= t->rows[i].n > 0;
    if (any) {
        char h1[24], h2[24], h3[24];
        fprintf(f, "over %d months (%s) at %g %%/y, net present value:\n", t->months,
                t->months_default ? "the owned servers' amortisation period" : "--horizon",
                100 * t->rate);
        snprintf(h1, sizeof h1, "NPV %s", cur);
        snprintf(h2, sizeof h2, "%s/Mtx", cur);
        snprintf(h3, sizeof h3, "per 1k tps");
        /* the whole id: truncated, derived ids collide (cloud-essd@huawei-ev x 5) */
        int w = 20;
        for (size_t i = 0; i < s->n; i++)
            if (t->rows[i].n > 0 && (int)strlen(s->rows[i].config) > w)
                w = (int)strlen(s->rows[i].config);
        fprintf(f, "  %-*s %-24s %12s %9s %11s\n", w, "config", "pricing", h1, h2, h3);
        for (size_t i = 0; i < s->n; i++) {
            const struct tco_row *q = &t->rows[i];
            for (size_t p = 0; p < q->n; p++)
                fprintf(f, "  %-*s %-24s %12.2f %9.4g %11.2f%s\n", w, p ? "" : s->rows[i].config,
                        pricing_label(&s->rows[i], &q->pr[p], lab, sizeof lab), q->pr[p].npv.total,
                        q->pr[p].per_mtx, tco_npv_per_ktps(&s->rows[i], &q->pr[p]),
                        q->n > 1 && (long)p == q->cheapest ? "  lowest" : "");
        }
        fprintf(f, "  (owned: purchases and refreshes, running costs monthly, the book value "
                   "at the end\n  credited; cloud: commitments paid upfront or monthly to "
                   "their end; Mtx levelised;\n  NPV is what the row buys: its copies at "
                   "its own throughput; per 1k tps = NPV x 1000 /\n  its tps at the "
                   "target, for rows of unequal capacity)\n");
    }
}

/* Where the decision flips: the first six estimates (v, n of them, nearest first) whose
 * break-even value would hand the lead to the runner-up, then those that never do. */
static void flips_text(FILE *f, const struct rank_set *s, const struct rank_tco *t,
                       const struct tco_input *const *v, size_t n)
{
    const struct rank_row *w = &s->rows[t->best], *r = &s->rows[t->runner_up];
    char n1[32], n2[32];
    size_t shown = 0;
    fprintf(f, "where it flips: %s leads %s %.3gx at the catalog's figures; it stays\n", w->config,
            r->config, t->advantage);
    fprintf(f, "  ahead unless (one estimate at a time)");
    for (size_t i = 0; i < n && shown < 6; i++) {
        const struct tco_input *k = v[i];
        int up;
        if (!isfinite(k->break_even))
            continue;
        up = k->break_even > k->in.value; /* the flip lies above the value */
        fprintf(f, "%s\n    %s %s %s %s%s%s (now %s)", shown ? "," : "", k->config, k->in.name,
                up ? "exceeds" : "falls below", tco_fnum(n1, sizeof n1, k->break_even),
                *k->in.unit ? " " : "", k->in.unit, tco_fnum(n2, sizeof n2, k->in.value));
        if (strcmp(k->in.name, "servers_per_admin") == 0)
            fprintf(f, ": %.3g FTE per server", 1 / k->break_even);
        shown++;
    }
    if (!shown)
        fprintf(f, ":\n    no single estimate flips it within the values a catalog accepts");
    fprintf(f, "\n");
    {
        size_t none = 0;
        for (size_t i = 0; i < n; i++)
            none += !isfinite(v[i]->break_even);
        if (none) {
            size_t col = 20;
            fprintf(f, "  never flips it:");
            for (size_t i = 0; i < n; i++)
                if (!isfinite(v[i]->break_even)) {
                    size_t l = strlen(v[i]->config) + strlen(v[i]->in.name) + 2;
                    if (col + l > 96) {
                        fprintf(f, "\n   ");
                        col = 3;
                    }
                    col += (size_t)fprintf(f, "%s %s %s", col > 20 ? "," : "", v[i]->config,
                                           v[i]->in.name);
                }
            fprintf(f, "\n");
        }
    }
}

/* The sensitivity table: the winner's lead with each ranged estimate (v, n of them, widest
 * swing first) at its low and its high, six at most. */
static void sensitivity_text(FILE *f, const struct rank_set *s, const struct rank_tco *t,
                             const struct tco_input *const *v, size_t n)
{
    const struct rank_row *w = &s->rows[t->best];
    char n1[32], n2[32];
    size_t shown = 0;
    for (size_t i = 0; i < n; i++)
        if (tco_swing(v[i]) >= 0) {
            if (shown == 6) {
                fprintf(f, "  ... (every input in --json)\n");
                break;
            }
            if (!shown)
                fprintf(f,
                        "sensitivity: %s's lead with each ranged estimate at its low / "
                        "high\n",
                        w->config);
            fprintf(f, "  %-20.20s %-24.24s %9s / %-9s %6.3gx / %.3gx\n", v[i]->config,
                    v[i]->in.name, tco_fnum(n1, sizeof n1, v[i]->in.fig->low),
                    tco_fnum(n2, sizeof n2, v[i]->in.fig->high), v[i]->adv_low, v[i]->adv_high);
            shown++;
        }
}

int tco_write_text(FILE *f, const struct rank_set *s, const struct rank_tco *t)
{
    const struct tco_input *v[TCO_MAX_INPUTS];
    like_for_like_text(f, s, t);
    npv_table(f, s, t);
    if (t->best >= 0 && t->runner_up >= 0 && isfinite(t->advantage) && t->n_inputs > 0) {
        size_t n = tco_sorted_inputs(t, v, 0);
        flips_text(f, s, t, v, n);
        n = tco_sorted_inputs(t, v, 1);
        sensitivity_text(f, s, t, v, n);
    }
    return ferror(f) ? -1 : 0;
}

int tco_row_json(const struct rank_tco *t, const struct rank_set *s, size_t i, json_t *o)
{
    const struct rank_row *r;
    int rc = 0;
    if (!t || i >= t->n)
        return 0;
    r = &s->rows[i];
    rc |= json_object_set_new(o, "ha", json_boolean(r->ha));
    rc |= json_object_set_new(o, "standby_added", json_integer(r->standby_added));
    if (t->months > 0 && t->rows && t->rows[i].n > 0) {
        json_t *h = json_object(), *arr = json_array();
        if (!h || !arr) {
            json_decref(h);
            json_decref(arr);
            return -1;
        }
        json_object_set_new(h, "months", json_integer(t->months));
        json_object_set_new(h, "discount_rate", json_real(t->rate));
        for (size_t p = 0; p < t->rows[i].n; p++) {
            const struct tco_pricing *tp = &t->rows[i].pr[p];
            json_t *e = json_object();
            if (!e)
                break;
            json_object_set_new(e, "pricing",
                                json_string(r->owned ? "owned" : cat_pricing_name(tp->pricing)));
            json_object_set_new(e, "npv", json_real(tp->npv.total));
            json_object_set_new(e, "capital", json_real(tp->npv.capital));
            json_object_set_new(e, "running", json_real(tp->npv.running));
            json_object_set_new(e, "residual", json_real(tp->npv.residual));
            json_object_set_new(e, "purchases", json_integer(tp->npv.purchases));
            json_object_set_new(e, "per_million_tx", json_real(tp->per_mtx));
            json_object_set_new(e, "npv_per_1000_tps", real_or_null(tco_npv_per_ktps(r, tp)));
            json_object_set_new(e, "lowest", json_boolean((long)p == t->rows[i].cheapest));
            json_array_append_new(arr, e);
        }
        json_object_set_new(h, "pricing", arr);
        rc |= json_object_set_new(o, "horizon", h);
    }
    if ((long)i == t->best) {
        json_t *d = json_object(), *arr = json_array();
        if (!d || !arr) {
            json_decref(d);
            json_decref(arr);
            return -1;
        }
        json_object_set_new(d, "like_for_like", json_boolean(t->like_for_like));
        json_object_set_new(d, "against",
                            t->runner_up >= 0 ? json_string(s->rows[t->runner_up].config)
                                              : json_null());
        json_object_set_new(d, "advantage",
                            isfinite(t->advantage) ? json_real(t->advantage) : json_null());
        for (size_t k = 0; k < t->n_inputs; k++) {
            const struct tco_input *in = &t->inputs[k];
            json_t *e = json_object();
            if (!e)
                break;
            json_object_set_new(e, "config", json_string(in->config));
            json_object_set_new(e, "name", json_string(in->in.name));
            json_object_set_new(e, "value", json_real(in->in.value));
            json_object_set_new(e, "unit", json_string(in->in.unit));
            if (in->in.fig->has_range) {
                json_object_set_new(e, "low", json_real(in->in.fig->low));
                json_object_set_new(e, "high", json_real(in->in.fig->high));
                json_object_set_new(e, "advantage_low", json_real(in->adv_low));
                json_object_set_new(e, "advantage_high", json_real(in->adv_high));
            }
            json_object_set_new(e, "break_even",
                                isfinite(in->break_even) ? json_real(in->break_even) : json_null());
            if (in->in.fig->source)
                json_object_set_new(e, "source", json_string(in->in.fig->source));
            if (in->in.fig->user_set)
                json_object_set_new(e, "set", json_true());
            json_array_append_new(arr, e);
        }
        json_object_set_new(d, "inputs", arr);
        rc |= json_object_set_new(o, "decision", d);
    }
    return rc ? -1 : 0;
}
