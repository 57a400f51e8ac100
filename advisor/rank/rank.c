/* rank.c - rank configurations by throughput per cost at a latency target (rank.h). */
#include "rank.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rank_mix_parse(const char *s, struct rank_mix_item *items, size_t *n, char *err, size_t cap)
{
    const char *p = s;
    double sum = 0;
    size_t k = 0;

    while (*p) {
        const char *comma = strchr(p, ','), *colon;
        const char *stop = comma ? comma : p + strlen(p);
        char num[64], *end;
        size_t wl;
        colon = memchr(p, ':', (size_t)(stop - p));
        if (!colon || colon == p || (size_t)(colon - p) >= sizeof items[0].workload ||
            (size_t)(stop - colon - 1) >= sizeof num || stop == colon + 1)
            goto bad;
        if (k == RANK_MAX_MIX) {
            snprintf(err, cap, "more than %d workloads", RANK_MAX_MIX);
            return -1;
        }
        wl = (size_t)(colon - p);
        memcpy(items[k].workload, p, wl);
        items[k].workload[wl] = '\0';
        memcpy(num, colon + 1, (size_t)(stop - colon - 1));
        num[stop - colon - 1] = '\0';
        items[k].weight = strtod(num, &end);
        if (*end || !isfinite(items[k].weight) || !(items[k].weight > 0))
            goto bad;
        for (size_t j = 0; j < k; j++)
            if (strcmp(items[j].workload, items[k].workload) == 0) {
                snprintf(err, cap, "workload '%s' given twice", items[k].workload);
                return -1;
            }
        sum += items[k].weight;
        k++;
        if (!comma)
            break;
        p = comma + 1;
        if (!*p)
            goto bad;
    }
    if (k == 0)
        goto bad;
    for (size_t j = 0; j < k; j++)
        items[j].weight /= sum;
    *n = k;
    return 0;
bad:
    snprintf(err, cap,
             "'%s' is not a workload mix: expected WORKLOAD:WEIGHT,... with weights > 0, "
             "e.g. oltp_read_write:0.7,oltp_point_select:0.3",
             s);
    return -1;
}

const char *rank_status_text(enum rank_status s)
{
    switch (s) {
    case RANK_MET:
        return "meets the target";
    case RANK_NEVER:
        return "never meets the target: latency at the smallest concurrency is above it";
    case RANK_NOLATENCY:
        return "no measured latency of the target's percentile";
    case RANK_NOCURVE:
        return "no points for a workload of the mix";
    case RANK_NOFIT:
        return "the curve could not be fitted";
    case RANK_NOPRICE:
        return "no price for the pricing model";
    case RANK_UNREACHABLE_TPS:
        return "cannot serve the required throughput";
    case RANK_OUTSIDE:
        return "node count outside the measured scale-out curve (see --extrapolate)";
    case RANK_NO_SCALE_OUT:
        return "cannot carry the required throughput: one copy gives less, and the catalog does "
               "not say it scales out (\"scale_out\": true)";
    }
    return "?";
}

const char *rank_status_name(enum rank_status s)
{
    static const char *const names[] = {"met",      "never", "no-latency", "no-curve",    "no-fit",
                                        "no-price", "short", "outside",    "no-scale-out"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static enum curve_basis worse(enum curve_basis a, enum curve_basis b)
{
    return a > b ? a : b;
}

void rank_row_eval(struct rank_row *row, struct rank_at *at, const char *config, int config_nodes,
                   const struct curve *const *curves, const struct rank_options *opt)
{
    double inv = 0, inv_lo = 0, inv_hi = 0;
    int have_iv = 1;

    memset(row, 0, sizeof *row);
    row->at = at;
    row->config = config;
    row->config_nodes = config_nodes > 0 ? config_nodes : 1;
    row->n_at = opt->n_mix;
    row->x.value = row->x.lo = row->x.hi = NAN;
    row->n = row->headroom = row->load = row->power_load = NAN;
    row->cost_per_hour = row->tps_per_cost = row->cost_per_mtx = row->cost_per_month = NAN;
    row->status = RANK_MET;
    for (size_t i = 0; i < opt->n_mix; i++) {
        struct rank_at *ra = &row->at[i];
        const struct curve_at *a = &ra->c;
        if (!curves[i]) {
            memset(ra, 0, sizeof *ra);
            ra->status = RANK_NOCURVE;
            ra->c.n = ra->c.x.value = ra->c.x.lo = ra->c.x.hi = NAN;
            ra->c.latency_s = ra->c.latency_n = ra->c.peak_x = ra->c.n_peak = NAN;
        } else {
            curve_at_target(curves[i], &opt->slo, (double)row->config_nodes,
                            opt->extrapolate > 1 ? opt->extrapolate : 1, &ra->c);
            ra->status = ra->c.status == CURVE_MET       ? RANK_MET
                         : ra->c.status == CURVE_NEVER   ? RANK_NEVER
                         : ra->c.status == CURVE_OUTSIDE ? RANK_OUTSIDE
                                                         : RANK_NOLATENCY;
        }
        if (ra->status != RANK_MET) {
            if (row->status == RANK_MET)
                row->status = ra->status;
            continue;
        }
        inv += opt->mix[i].weight / a->x.value;
        if (isfinite(a->x.lo) && a->x.lo >= 0 && isfinite(a->x.hi)) {
            /* a lower bound of 0 (an interval as wide as the value) makes the mix's 0 too */
            inv_lo += a->x.lo > 0 ? opt->mix[i].weight / a->x.lo : INFINITY;
            inv_hi += opt->mix[i].weight / a->x.hi;
        } else {
            have_iv = 0;
        }
        if (opt->mix[i].weight > 0 && worse(row->basis, a->x_basis) != row->basis) {
            row->basis = a->x_basis;
            row->basis_from = i;
        }
    }
    if (row->status != RANK_MET)
        return;
    row->x.value = 1 / inv;
    if (have_iv) {
        row->x.lo = 1 / inv_lo;
        row->x.hi = 1 / inv_hi;
    }
    if (opt->n_mix == 1) {
        row->n = row->at[0].c.n;
        if (isfinite(row->at[0].c.peak_x))
            row->headroom = row->at[0].c.peak_x / row->x.value - 1;
    } else {
        /* the mix's peak: the harmonic mean of the per-workload peaks */
        double ip = 0;
        int ok = 1;
        for (size_t i = 0; i < opt->n_mix; i++) {
            if (!isfinite(row->at[i].c.peak_x))
                ok = 0;
            else
                ip += opt->mix[i].weight / row->at[i].c.peak_x;
        }
        if (ok)
            row->headroom = 1 / ip / row->x.value - 1;
    }
    for (size_t i = 0; i < opt->n_mix; i++)
        if (row->at[i].c.peak_is_lower_bound)
            row->headroom_lower_bound = 1;
    if (row->headroom < 1e-9)
        row->headroom = 0; /* the answer is at or above the peak figure (or equal to it but for
                              rounding, 3e-14 in a CSV): nothing left to gain */
    if (isfinite(row->headroom))
        row->load = 1 / (1 + row->headroom); /* rho = X / X_peak, the utilisation law */
}

int rank_row_price(struct rank_row *row, const struct curve *const *curves,
                   const struct rank_options *opt, double (*cost_at)(void *ctx, long nodes),
                   void *ctx)
{
    double ph = cost_at(ctx, row->config_nodes);
    if (!isfinite(ph) || ph < 0) {
        if (row->status == RANK_MET)
            row->status = RANK_NOPRICE;
        return RANK_OK;
    }
    row->cost_per_hour = ph;
    if (row->status != RANK_MET)
        return RANK_OK;
    row->tps_per_cost = ph > 0 ? row->x.value / ph : INFINITY;
    row->cost_per_mtx = 1e6 * ph / (3600 * row->x.value);
    if (opt->required_tps > 0) {
        long nodes = 0;
        enum curve_basis b = CURVE_BASIS_LINEAR;
        int scale_curve = opt->n_mix == 1 && curves[0] && curves[0]->by_nodes;
        if (scale_curve) {
            nodes = curve_nodes_for(curves[0], &opt->slo, opt->required_tps, 100000,
                                    opt->extrapolate > 1 ? opt->extrapolate : 1, &b);
            row->units = nodes;
        } else {
            double u = ceil(opt->required_tps / row->x.value - 1e-12);
            if (u < 1)
                u = 1;
            if (u > 1 && !row->scale_out) {
                /* copies of a single-primary database do not add up (issue 28.12) */
                row->units = 1;
                row->status = RANK_NO_SCALE_OUT;
                return RANK_OK;
            }
            if (u > 1e9)
                u = 0;
            row->units = (long)u;
            nodes = row->units * row->config_nodes;
        }
        if (nodes <= 0) {
            row->status = RANK_UNREACHABLE_TPS;
            return RANK_OK;
        }
        row->nodes_needed = nodes;
        row->nodes_basis = b;
        ph = cost_at(ctx, nodes);
        if (!isfinite(ph)) {
            row->status = RANK_NOPRICE;
            return RANK_OK;
        }
        row->cost_per_month = ph * CAT_HOURS_PER_MONTH;
    }
    return RANK_OK;
}

static int by_id(const struct rank_row *a, const struct rank_row *b)
{
    return strcmp(a->config, b->config);
}

static int cmp_tpc(const void *pa, const void *pb)
{
    const struct rank_row *a = pa, *b = pb;
    int ma = a->status == RANK_MET, mb = b->status == RANK_MET;
    if (ma != mb)
        return mb - ma;
    if (ma && a->tps_per_cost != b->tps_per_cost)
        return a->tps_per_cost > b->tps_per_cost ? -1 : 1;
    return by_id(a, b);
}

static int cmp_month(const void *pa, const void *pb)
{
    const struct rank_row *a = pa, *b = pb;
    int ma = a->status == RANK_MET, mb = b->status == RANK_MET;
    if (ma != mb)
        return mb - ma;
    if (ma && a->cost_per_month != b->cost_per_month)
        return a->cost_per_month < b->cost_per_month ? -1 : 1;
    return by_id(a, b);
}

void rank_sort(struct rank_row *rows, size_t n, const struct rank_options *opt)
{
    long r = 0;
    qsort(rows, n, sizeof *rows, opt->required_tps > 0 ? cmp_month : cmp_tpc);
    for (size_t i = 0; i < n; i++)
        rows[i].rank = rows[i].status == RANK_MET ? ++r : 0;
}

double rank_row_noise(const struct rank_row *r)
{
    double v = r->x.value;
    if (r->status != RANK_MET || !(v > 0) || !isfinite(r->x.lo) || !isfinite(r->x.hi))
        return NAN;
    return fmax(v - r->x.lo, r->x.hi - v) / v;
}

/* Relative 95 % half-width of a curve's levels at x = n: linear in log n between levels. */
static double rel_at(const struct curve *c, double n)
{
    double prev_n = NAN, prev_r = NAN;
    for (size_t i = 0; i < c->m; i++) {
        double r = c->lv[i].half95 / c->lv[i].x;
        if (!isfinite(r))
            continue;
        if (c->lv[i].n >= n) {
            if (!isfinite(prev_r) || c->lv[i].n == n)
                return r;
            return prev_r + (log(n) - log(prev_n)) / (log(c->lv[i].n) - log(prev_n)) * (r - prev_r);
        }
        prev_n = c->lv[i].n;
        prev_r = r;
    }
    return prev_r;
}

void rank_row_widen_predicted(struct rank_row *row, const struct curve *const *cv,
                              const struct rank_options *o)
{
    double inv = 0, inv_lo = 0, inv_hi = 0;
    int all = 1;
    if (row->status != RANK_MET)
        return;
    for (size_t w = 0; w < o->n_mix; w++) {
        struct curve_at *a = &row->at[w].c;
        double rel;
        if (row->at[w].status != RANK_MET || !cv[w])
            continue;
        rel = rel_at(cv[w], a->n);
        if (isfinite(rel)) {
            double lo = a->x.value * fmax(1 - rel, 0), hi = a->x.value * (1 + rel);
            if (!(a->x.lo <= lo))
                a->x.lo = lo;
            if (!(a->x.hi >= hi))
                a->x.hi = hi;
        }
        inv += o->mix[w].weight / a->x.value;
        if (a->x.lo >= 0 && isfinite(a->x.hi)) {
            inv_lo += a->x.lo > 0 ? o->mix[w].weight / a->x.lo : INFINITY;
            inv_hi += o->mix[w].weight / a->x.hi;
        } else {
            all = 0;
        }
    }
    /* the harmonic mean of the mix, as rank.h combines it */
    row->x.value = 1 / inv;
    row->x.lo = all ? 1 / inv_lo : NAN;
    row->x.hi = all ? 1 / inv_hi : NAN;
    row->basis = CURVE_BASIS_PREDICTED;
}

/* How a row's node count was found: "one copy" (a configuration that does not scale out,
 * carrying the load alone), "linear scale-out" (copies), else the scale-out curve's basis;
 * short: the text table's "one", "linear", "curve". */
const char *nodes_by(const struct rank_row *r, int short_form)
{
    if (r->nodes_basis == CURVE_BASIS_LINEAR && !r->scale_out)
        return short_form ? "one" : "one copy";
    if (r->nodes_basis == CURVE_BASIS_LINEAR)
        return short_form ? "linear" : "linear scale-out";
    return short_form ? "curve" : curve_basis_name(r->nodes_basis);
}
