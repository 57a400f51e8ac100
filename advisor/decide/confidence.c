/* confidence.c - P(best), ties, break-even and what to probe next (confidence.h). */
#include "confidence.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct conf_options conf_options_default(void)
{
    struct conf_options o = {CONF_DEFAULT_DRAWS, CONF_DEFAULT_SEED, CONF_DEFAULT_TIE_P};
    return o;
}

void conf_destroy(struct rank_confidence *c)
{
    if (!c)
        return;
    free(c->rows);
    memset(c, 0, sizeof *c);
    c->best = c->runner_up = c->probe_next = -1;
}

/* The row's throughput at z standard deviations of its interval (asymmetric, > 0). */
static double x_at(const struct rank_row *r, double z)
{
    double v = r->x.value, x;
    if (!isfinite(r->x.lo) || !isfinite(r->x.hi))
        return v;
    x = z >= 0 ? v + z * (r->x.hi - v) / 1.96 : v + z * (v - r->x.lo) / 1.96;
    return fmax(x, v * 1e-6);
}

/* The score of row r at throughput x: higher is better. */
static double score(const struct rank_row *r, double x, int by_month, double required)
{
    if (!by_month)
        return r->cost_per_hour > 0 ? x / r->cost_per_hour : INFINITY;
    if (r->nodes_basis != CURVE_BASIS_LINEAR || r->units <= 0)
        return -r->cost_per_month; /* a scale-out curve's node count is held */
    if (!r->scale_out && x < required * (1 - 1e-12))
        return -INFINITY; /* one copy is the most it can be: in this draw it cannot carry it */
    return -ceil(required / x - 1e-12) * (r->cost_per_month / (double)r->units);
}

static int ranked(const struct rank_row *r, int by_month)
{
    return r->status == RANK_MET && r->rank > 0 && isfinite(r->x.value) && r->x.value > 0 &&
           (by_month ? isfinite(r->cost_per_month) : isfinite(r->cost_per_hour));
}

int conf_compute(struct rank_confidence *c, const struct rank_set *s, const struct conf_options *o)
{
    struct conf_options opt = o ? *o : conf_options_default();
    size_t *cand = NULL, nc = 0;
    double *sc = NULL, worst_best = -INFINITY, req = s->opt.required_tps;
    gsl_rng *rng = NULL;
    int by_month = req > 0;

    memset(c, 0, sizeof *c);
    c->best = c->runner_up = c->probe_next = -1;
    c->break_even_best_cost_per_hour = c->break_even_runner_cost_per_hour = NAN;
    if (opt.draws < 100 || !(opt.tie_p > 0 && opt.tie_p <= 0.5))
        return -1;
    c->opt = opt;
    c->n = s->n;
    c->by_month = by_month;
    c->rows = calloc(s->n ? s->n : 1, sizeof *c->rows);
    cand = malloc((s->n ? s->n : 1) * sizeof *cand);
    sc = malloc((s->n ? s->n : 1) * sizeof *sc);
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!c->rows || !cand || !sc || !rng)
        goto nomem;
    gsl_rng_set(rng, opt.seed);
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        if (!ranked(r, by_month))
            continue;
        if (r->rank == 1)
            c->best = (long)i;
        else if (r->rank == 2)
            c->runner_up = (long)i;
        /* the worst score of each row (the low end of its throughput, -3.29 sigma; with a
           monthly cost the low throughput is the expensive end too) */
        worst_best = fmax(worst_best, score(r, x_at(r, -CONF_TRUNCATE_Z), by_month, req));
    }
    if (c->best < 0) {
        free(cand);
        free(sc);
        gsl_rng_free(rng);
        return 0;
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        if (ranked(r, by_month) &&
            score(r, x_at(r, CONF_TRUNCATE_Z), by_month, req) >= worst_best) {
            c->rows[i].candidate = 1;
            cand[nc++] = i;
        }
    }
    c->candidates = nc;
    for (size_t d = 0; d < opt.draws; d++) {
        size_t win = 0;
        double best_sc = -INFINITY, s_best = 0;
        for (size_t k = 0; k < nc; k++) {
            const struct rank_row *r = &s->rows[cand[k]];
            double z;
            do
                z = gsl_ran_gaussian_ziggurat(rng, 1.0);
            while (fabs(z) > CONF_TRUNCATE_Z);
            sc[k] = score(r, x_at(r, z), by_month, req);
            if (sc[k] > best_sc) {
                best_sc = sc[k];
                win = k;
            }
            if ((long)cand[k] == c->best)
                s_best = sc[k];
        }
        c->rows[cand[win]].p_best += 1;
        for (size_t k = 0; k < nc; k++)
            if ((long)cand[k] != c->best && sc[k] > s_best)
                c->rows[cand[k]].p_above_best += 1;
    }
    for (size_t k = 0; k < nc; k++) {
        struct conf_row *q = &c->rows[cand[k]];
        q->p_best /= (double)opt.draws;
        q->p_above_best /= (double)opt.draws;
        q->tied = (long)cand[k] != c->best && q->p_above_best >= opt.tie_p;
    }
    if (c->runner_up >= 0) {
        const struct rank_row *w = &s->rows[c->best], *r = &s->rows[c->runner_up];
        double sw = score(w, w->x.value, by_month, req), sr = score(r, r->x.value, by_month, req);
        /* scores are linear in the hourly price: x/p, or -units x p x 730 */
        if (!by_month) {
            c->break_even_runner_cost_per_hour = r->cost_per_hour * sr / sw;
            c->break_even_best_cost_per_hour = w->cost_per_hour * sw / sr;
        } else {
            c->break_even_runner_cost_per_hour = r->cost_per_hour * sw / sr;
            c->break_even_best_cost_per_hour = w->cost_per_hour * sr / sw;
        }
    }
    for (size_t k = 0; k < nc; k++) {
        size_t i = cand[k];
        if (s->rows[i].basis == CURVE_BASIS_PREDICTED && c->rows[i].p_best > 0 &&
            (c->probe_next < 0 || c->rows[i].p_best > c->rows[c->probe_next].p_best))
            c->probe_next = (long)i;
    }
    free(cand);
    free(sc);
    gsl_rng_free(rng);
    return 0;
nomem:
    free(cand);
    free(sc);
    gsl_rng_free(rng);
    conf_destroy(c);
    return -1;
}

static const char *pct(char *buf, size_t cap, double p)
{
    if (p <= 0)
        snprintf(buf, cap, "0 %%");
    else if (p < 0.001)
        snprintf(buf, cap, "<0.1 %%");
    else if (p < 0.1)
        snprintf(buf, cap, "%.1f %%", 100 * p);
    else
        snprintf(buf, cap, "%.0f %%", 100 * p);
    return buf;
}

int conf_write_text(FILE *f, const struct rank_set *s, const struct rank_confidence *c)
{
    char slo[SLO_TEXT_MAX], a[16], b[16], rk[16];
    const char *cur = s->cat->currency;
    size_t shown = 0, ranked_n = 0;
    if (c->best < 0)
        return 0;
    for (size_t i = 0; i < s->n; i++)
        ranked_n += s->rows[i].rank > 0;
    fprintf(f, "how sure: P(best at %s), %zu draws within each 95 %% interval (seed %lu);\n",
            slo_text(&s->opt.slo, slo, sizeof slo), c->opt.draws, c->opt.seed);
    fprintf(f, "  %zu of %zu ranked configurations can be best\n", c->candidates, ranked_n);
    fprintf(f, "  rank %-20s P(best) above 1st\n", "config");
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        const struct conf_row *q = &c->rows[i];
        if (!q->candidate || (q->p_best < 0.0005 && !q->tied && (long)i != c->best))
            continue;
        if (shown == 12) {
            fprintf(f, "  ... (every row's P(best) in --json)\n");
            break;
        }
        snprintf(rk, sizeof rk, "%ld%s", r->rank, q->tied ? "~" : "");
        fprintf(f, "  %4s %-20s %7s %9s  %s%s%s\n", rk, r->config, pct(a, sizeof a, q->p_best),
                (long)i == c->best ? "-" : pct(b, sizeof b, q->p_above_best),
                (long)i == c->best ? "first"
                : q->tied          ? "tied"
                                   : "",
                r->basis == CURVE_BASIS_PREDICTED && ((long)i == c->best || q->tied) ? ", " : "",
                r->basis == CURVE_BASIS_PREDICTED ? "pred" : "");
        shown++;
    }
    if (c->runner_up >= 0) {
        const struct rank_row *w = &s->rows[c->best], *r = &s->rows[c->runner_up];
        fprintf(f, "break-even: %s overtakes %s at %.4g %s/h or less (now %.4g),\n", r->config,
                w->config, c->break_even_runner_cost_per_hour, cur, r->cost_per_hour);
        fprintf(f, "  or when %s costs more than %.4g %s/h (now %.4g)\n", w->config,
                c->break_even_best_cost_per_hour, cur, w->cost_per_hour);
    }
    if (c->probe_next >= 0) {
        const struct rank_row *r = &s->rows[c->probe_next];
        size_t k = s->row_curve[c->probe_next];
        fprintf(f,
                "probe next: %s, P(best) %s, the unprobed configuration most likely to be\n"
                "  best (predicted from %s)\n",
                r->config, pct(a, sizeof a, c->rows[c->probe_next].p_best),
                s->from && s->from[k] ? s->from[k] : "its family");
    }
    return ferror(f) ? -1 : 0;
}

int conf_row_json(const struct rank_confidence *c, size_t i, json_t *o)
{
    const struct conf_row *q;
    int rc = 0;
    if (!c || i >= c->n)
        return 0;
    q = &c->rows[i];
    rc |= json_object_set_new(o, "p_best", json_real(q->p_best));
    rc |= json_object_set_new(o, "tied_with_best", json_boolean(q->tied));
    rc |= json_object_set_new(o, "probe_next", json_boolean((long)i == c->probe_next));
    if ((long)i == c->best && isfinite(c->break_even_best_cost_per_hour))
        rc |= json_object_set_new(o, "break_even_cost_per_hour",
                                  json_real(c->break_even_best_cost_per_hour));
    if ((long)i == c->runner_up && isfinite(c->break_even_runner_cost_per_hour))
        rc |= json_object_set_new(o, "break_even_cost_per_hour",
                                  json_real(c->break_even_runner_cost_per_hour));
    return rc ? -1 : 0;
}
