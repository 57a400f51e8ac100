/* rank.c - rank configurations by throughput per cost at a latency target (rank.h). */
#include "rank.h"

#include "piecewise.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bisection halvings for the crossing of the target inside one monotone segment. */
#define RANK_BISECT 60
/* Search limit for a curve without a peak, knee or fall: this many times the largest N. */
#define RANK_SEARCH_FACTOR 2.0

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
            snprintf(err, cap, "--mix: more than %d workloads", RANK_MAX_MIX);
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
                snprintf(err, cap, "--mix: workload '%s' given twice", items[k].workload);
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
             "--mix: '%s' is not a workload mix: expected WORKLOAD:WEIGHT,... with weights > 0, "
             "e.g. oltp_read_write:0.7,oltp_point_select:0.3",
             s);
    return -1;
}

const char *rank_basis_name(enum rank_basis b)
{
    switch (b) {
    case RANK_BASIS_MEASURED:
        return "measured";
    case RANK_BASIS_INTERPOLATED:
        return "interpolated";
    case RANK_BASIS_EXTRAPOLATED:
        return "extrapolated";
    case RANK_BASIS_LINEAR:
        return "linear scale-out";
    case RANK_BASIS_NONE:
        break;
    }
    return "-";
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
    }
    return "?";
}

const char *rank_status_name(enum rank_status s)
{
    static const char *const names[] = {"met",    "never",    "no-latency", "no-curve",
                                        "no-fit", "no-price", "short"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void rank_curve_destroy(struct rank_curve *c)
{
    if (!c)
        return;
    free(c->n);
    free(c->x);
    free(c->lat_n);
    free(c->lat_s);
    latency_pctl_free(c->lat);
    memset(c, 0, sizeof *c);
}

struct nx {
    double n, x, l;
};

static int cmp_nx(const void *a, const void *b)
{
    const struct nx *p = a, *q = b;
    return (p->n > q->n) - (p->n < q->n);
}

int rank_curve_init(struct rank_curve *c, const double *n, const double *x, const double *lat_s,
                    size_t m, int by_nodes, double lat_pct, struct usl_workspace *ws, char *err,
                    size_t cap)
{
    struct nx *v = NULL;
    struct fit_result *fr = NULL;
    int rc = RANK_ENOMEM;

    memset(c, 0, sizeof *c);
    c->by_nodes = by_nodes;
    c->lat_pct = lat_pct;
    if (model_check_points(n, x, m, err, cap) != MODEL_OK)
        return RANK_EINVAL;
    if (m < 2) {
        snprintf(err, cap, "one point: a curve needs at least 2");
        return RANK_EINVAL;
    }
    v = malloc(m * sizeof *v);
    fr = malloc(sizeof *fr);
    c->n = malloc(m * sizeof *c->n);
    c->x = malloc(m * sizeof *c->x);
    c->lat_n = malloc(m * sizeof *c->lat_n);
    c->lat_s = malloc(m * sizeof *c->lat_s);
    if (!v || !fr || !c->n || !c->x || !c->lat_n || !c->lat_s) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < m; i++) {
        v[i].n = n[i];
        v[i].x = x[i];
        v[i].l = lat_s ? lat_s[i] : NAN;
    }
    qsort(v, m, sizeof *v, cmp_nx);
    c->m = m;
    for (size_t i = 0; i < m; i++) {
        c->n[i] = v[i].n;
        c->x[i] = v[i].x;
    }
    /* the mean measured latency at each distinct N */
    for (size_t i = 0; i < m;) {
        size_t j = i, k = 0;
        double sum = 0;
        while (j < m && v[j].n == v[i].n) {
            if (isfinite(v[j].l) && v[j].l > 0) {
                sum += v[j].l;
                k++;
            }
            j++;
        }
        if (k) {
            c->lat_n[c->m_lat] = v[i].n;
            c->lat_s[c->m_lat++] = sum / (double)k;
        }
        i = j;
    }
    if (fit_curve(c->n, c->x, m, FIT_AUTO, ws, fr, err, cap) != MODEL_OK) {
        rc = RANK_EFIT;
        goto out;
    }
    c->fit = fr->fits[fr->chosen];
    if (derived_compute(&c->fit, &c->derived) != MODEL_OK) {
        snprintf(err, cap, "fitted model has non-finite parameters");
        rc = RANK_EFIT;
        goto out;
    }
    if (c->m_lat) {
        c->lat = latency_pctl_new(c->lat_n, c->lat_s, c->m_lat, err, cap);
        if (!c->lat) {
            rc = RANK_EINVAL;
            goto out;
        }
    }
    rc = RANK_OK;
out:
    free(v);
    free(fr);
    if (rc != RANK_OK)
        rank_curve_destroy(c);
    return rc;
}

static int near_measured(const struct rank_curve *c, double n)
{
    for (size_t i = 0; i < c->m; i++)
        if (fabs(c->n[i] - n) <= 1e-9 * c->n[i])
            return 1;
    return 0;
}

double rank_curve_latency(const struct rank_curve *c, double n, enum rank_basis *basis)
{
    double r;
    if (c->lat) {
        int ex = 0;
        r = latency_pctl_eval(c->lat, &c->fit, n, 0, &ex);
        *basis = ex ? RANK_BASIS_EXTRAPOLATED : RANK_BASIS_INTERPOLATED;
    } else if (!c->by_nodes && c->lat_pct == 0) {
        r = latency_mean(&c->fit, n, 0);
        *basis = n < c->fit.n_min || n > c->fit.n_max ? RANK_BASIS_EXTRAPOLATED
                                                      : RANK_BASIS_INTERPOLATED;
    } else {
        *basis = RANK_BASIS_NONE;
        return NAN;
    }
    if (*basis == RANK_BASIS_INTERPOLATED && near_measured(c, n) && c->lat)
        *basis = RANK_BASIS_MEASURED;
    return r;
}

static int meets(const struct rank_curve *c, double n, double target_s)
{
    enum rank_basis b;
    double r = rank_curve_latency(c, n, &b);
    return isfinite(r) && r <= target_s;
}

/* The measured mean tps at n when n is a measured N, else NAN. */
static double measured_x(const struct rank_curve *c, double n)
{
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < c->m; i++)
        if (fabs(c->n[i] - n) <= 1e-9 * c->n[i]) {
            sum += c->x[i];
            k++;
        }
    return k ? sum / (double)k : NAN;
}

static void fill_peak(const struct rank_curve *c, struct rank_at *out)
{
    const struct model_derived *d = &c->derived;
    out->n_peak = NAN;
    out->peak_x = NAN;
    if (d->has_peak) {
        out->n_peak = d->n_peak.value;
        out->peak_x = d->x_peak.value;
    } else if (isfinite(d->ceiling.value)) {
        out->peak_x = d->ceiling.value;
        out->peak_is_ceiling = 1;
    }
}

/* Upper limit of the search (rank.h). *capped_kind: 1 peak or knee, 0 search factor. */
static double search_limit(const struct rank_curve *c, int *is_peak)
{
    const struct model_derived *d = &c->derived;
    const struct model_fit *f = &c->fit;
    *is_peak = 1;
    if (d->falling)
        return 1;
    if (d->has_peak && d->n_peak.value >= 1)
        return d->n_peak.value;
    if (d->has_peak)
        return 1;
    if (f->kind == MODEL_PIECEWISE && isfinite(f->par[MODEL_XM].value)) {
        double knee = piecewise_knee(f);
        if (isfinite(knee) && knee >= 1)
            return knee;
    }
    *is_peak = 0;
    return RANK_SEARCH_FACTOR * f->n_max;
}

static void finish_at(const struct rank_curve *c, double nt, struct rank_at *out)
{
    struct derived_prediction pr;
    double mx = measured_x(c, nt);
    derived_predict(&c->fit, nt, 0, 0, &pr);
    out->n = nt;
    out->x = pr.x;
    if (isfinite(mx)) {
        out->x.value = mx;
        out->x_basis = RANK_BASIS_MEASURED;
    } else {
        out->x_basis = pr.extrapolated ? RANK_BASIS_EXTRAPOLATED : RANK_BASIS_INTERPOLATED;
    }
    out->latency_s = rank_curve_latency(c, nt, &out->lat_basis);
}

int rank_curve_at_target(const struct rank_curve *c, const struct slo *slo, double nodes_at,
                         struct rank_at *out)
{
    double lim, t = slo->target_s, *bp, nt;
    size_t nb = 0;
    int is_peak, k;

    memset(out, 0, sizeof *out);
    out->n = out->latency_s = out->best_measured_x = out->best_measured_n = NAN;
    out->x.value = out->x.lo = out->x.hi = NAN;
    if (!(t > 0) || !isfinite(t))
        return RANK_EINVAL;
    fill_peak(c, out);
    out->latency_model = c->lat == NULL;
    if (slo->pct != c->lat_pct || (!c->lat && (c->by_nodes || slo->pct > 0))) {
        out->status = RANK_NOLATENCY;
        return RANK_OK;
    }
    if (c->by_nodes) {
        if (!(nodes_at > 0))
            return RANK_EINVAL;
        if (!meets(c, nodes_at, t)) {
            out->status = RANK_NEVER;
            out->latency_s = rank_curve_latency(c, nodes_at, &out->lat_basis);
            return RANK_OK;
        }
        finish_at(c, nodes_at, out);
        out->status = RANK_MET;
        return RANK_OK;
    }
    lim = search_limit(c, &is_peak);
    /* best measured point meeting the target at N <= lim */
    for (size_t i = 0; i < c->m; i++) {
        double l = NAN;
        for (size_t j = 0; j < c->m_lat; j++)
            if (c->lat_n[j] == c->n[i])
                l = c->lat_s[j];
        if (!c->lat)
            l = c->n[i] / c->x[i]; /* Little's law on the measured point */
        if (isfinite(l) && l <= t && c->n[i] <= lim * (1 + 1e-9) &&
            !(c->x[i] <= out->best_measured_x)) {
            out->best_measured_x = c->x[i];
            out->best_measured_n = c->n[i];
        }
    }
    /* breakpoints: 1, the measured N inside (1, lim), lim */
    bp = malloc((c->m + 2) * sizeof *bp);
    if (!bp)
        return RANK_ENOMEM;
    bp[nb++] = 1;
    for (size_t i = 0; i < c->m; i++)
        if (c->n[i] > bp[nb - 1] && c->n[i] < lim)
            bp[nb++] = c->n[i];
    if (lim > bp[nb - 1])
        bp[nb++] = lim;
    for (k = (int)nb - 1; k >= 0; k--)
        if (meets(c, bp[k], t))
            break;
    if (k < 0) {
        free(bp);
        out->status = RANK_NEVER;
        out->latency_s = rank_curve_latency(c, 1, &out->lat_basis);
        return RANK_OK;
    }
    if (k == (int)nb - 1) {
        nt = bp[k];
        out->capped = is_peak && nb > 1;
        out->bound_by_search = !is_peak;
    } else {
        double lo = bp[k], hi = bp[k + 1];
        for (int i = 0; i < RANK_BISECT; i++) {
            double mid = 0.5 * (lo + hi);
            if (meets(c, mid, t))
                lo = mid;
            else
                hi = mid;
        }
        nt = lo;
    }
    free(bp);
    finish_at(c, nt, out);
    out->status = RANK_MET;
    return RANK_OK;
}

long rank_curve_nodes_for(const struct rank_curve *c, const struct slo *slo, double required_tps,
                          long max_nodes, enum rank_basis *basis)
{
    int is_peak;
    double lim = search_limit(c, &is_peak);
    long hi_n = is_peak ? (long)floor(lim) : max_nodes;
    *basis = RANK_BASIS_NONE;
    if (hi_n > max_nodes)
        hi_n = max_nodes;
    /* X rises up to the limit: first k with X(k) >= R by bisection, then the latency check
     * going up (latency need not be monotone in nodes) */
    if (hi_n < 1 || model_eval(&c->fit, (double)hi_n) < required_tps)
        return 0;
    {
        long lo = 1, hi = hi_n;
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (model_eval(&c->fit, (double)mid) >= required_tps)
                hi = mid;
            else
                lo = mid + 1;
        }
        for (long k = lo; k <= hi_n; k++)
            if (meets(c, (double)k, slo->target_s)) {
                double mx = measured_x(c, (double)k);
                *basis = isfinite(mx) ? RANK_BASIS_MEASURED
                         : (double)k < c->fit.n_min || (double)k > c->fit.n_max
                             ? RANK_BASIS_EXTRAPOLATED
                             : RANK_BASIS_INTERPOLATED;
                return k;
            }
    }
    return 0;
}

static enum rank_basis worse(enum rank_basis a, enum rank_basis b)
{
    return a > b ? a : b;
}

void rank_row_eval(struct rank_row *row, const char *config, int config_nodes,
                   const struct rank_curve *const *curves, const struct rank_options *opt)
{
    double inv = 0, inv_lo = 0, inv_hi = 0;
    int have_iv = 1;

    memset(row, 0, sizeof *row);
    row->config = config;
    row->config_nodes = config_nodes > 0 ? config_nodes : 1;
    row->n_at = opt->n_mix;
    row->x.value = row->x.lo = row->x.hi = NAN;
    row->n = row->headroom = NAN;
    row->cost_per_hour = row->tps_per_cost = row->cost_per_mtx = row->cost_per_month = NAN;
    row->status = RANK_MET;
    for (size_t i = 0; i < opt->n_mix; i++) {
        struct rank_at *a = &row->at[i];
        if (!curves[i]) {
            memset(a, 0, sizeof *a);
            a->status = RANK_NOCURVE;
            a->n = a->x.value = a->x.lo = a->x.hi = NAN;
        } else {
            rank_curve_at_target(curves[i], &opt->slo, (double)row->config_nodes, a);
        }
        if (a->status != RANK_MET) {
            if (row->status == RANK_MET)
                row->status = a->status;
            continue;
        }
        inv += opt->mix[i].weight / a->x.value;
        if (isfinite(a->x.lo) && a->x.lo > 0 && isfinite(a->x.hi)) {
            inv_lo += opt->mix[i].weight / a->x.lo;
            inv_hi += opt->mix[i].weight / a->x.hi;
        } else {
            have_iv = 0;
        }
        row->basis = worse(row->basis, a->x_basis);
    }
    if (row->status != RANK_MET)
        return;
    row->x.value = 1 / inv;
    if (have_iv) {
        row->x.lo = 1 / inv_lo;
        row->x.hi = 1 / inv_hi;
    }
    if (opt->n_mix == 1) {
        row->n = row->at[0].n;
        if (isfinite(row->at[0].peak_x))
            row->headroom = row->at[0].peak_x / row->x.value - 1;
    } else {
        /* the mix's peak: the harmonic mean of the per-workload peaks */
        double ip = 0;
        int ok = 1;
        for (size_t i = 0; i < opt->n_mix; i++) {
            if (!isfinite(row->at[i].peak_x))
                ok = 0;
            else
                ip += opt->mix[i].weight / row->at[i].peak_x;
        }
        if (ok)
            row->headroom = 1 / ip / row->x.value - 1;
    }
    if (row->headroom < 0 && row->headroom > -1e-9)
        row->headroom = 0;
}

int rank_row_price(struct rank_row *row, const struct rank_curve *const *curves,
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
        enum rank_basis b = RANK_BASIS_LINEAR;
        int scale_curve = opt->n_mix == 1 && curves[0] && curves[0]->by_nodes;
        if (scale_curve) {
            nodes = rank_curve_nodes_for(curves[0], &opt->slo, opt->required_tps, 100000, &b);
            row->units = nodes;
        } else {
            double u = ceil(opt->required_tps / row->x.value - 1e-12);
            if (u < 1)
                u = 1;
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
