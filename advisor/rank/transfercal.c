/* transfercal.c - the calibration of a CPU-score transfer (transfercal.h). */
#include "transfercal.h"
#include "predict.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void tcal_result_destroy(struct tcal_result *r)
{
    if (!r)
        return;
    free(r->pairs);
    memset(r, 0, sizeof *r);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double tcal_conformal(const double *err, size_t n, double coverage)
{
    double *v, b;
    size_t k = (size_t)ceil(coverage * (double)(n + 1));
    if (n == 0 || k > n || !(coverage > 0 && coverage < 1))
        return INFINITY;
    if (k < 1)
        k = 1;
    if (!(v = malloc(n * sizeof *v)))
        return NAN;
    memcpy(v, err, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    b = v[k - 1];
    free(v);
    return b;
}

static double max_of(const double *x, size_t n)
{
    double m = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

static int member_of(const struct predict_group *G, const char *config)
{
    for (size_t i = 0; i < G->n_members; i++)
        if (G->members[i].used && strcmp(G->members[i].config, config) == 0)
            return (int)i;
    return -1;
}

/* Predict group gt's measured sizes from group gs's points alone; append the pairs. */
static int predict_pairs(const struct point_list *pts, const struct cat_catalog *cat,
                         const struct score_table *sc, const char *spec,
                         const struct predict_set *full, size_t gt, size_t gs,
                         struct tcal_result *r, FILE *errf)
{
    const struct predict_group *T = &full->groups[gt], *S = &full->groups[gs];
    struct point_list sub = {0};
    struct predict_transfer tr;
    struct predict_options po;
    struct predict_set s;
    int rc = -1;

    if (!(sub.items = malloc((pts->n + 1) * sizeof *sub.items)))
        return -1;
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        if (member_of(S, p->config ? p->config : p->target) >= 0)
            sub.items[sub.n++] = *p; /* shallow: borrowed, never destroyed */
    }
    memset(&tr, 0, sizeof tr);
    snprintf(tr.family, sizeof tr.family, "%s", T->family);
    snprintf(tr.from, sizeof tr.from, "%s", S->family);
    tr.ratio = NAN;
    tr.score = 1;
    snprintf(tr.spec, sizeof tr.spec, "%s", spec);
    memset(&po, 0, sizeof po);
    po.threads = T->levels;
    po.n_threads = T->n_levels;
    po.transfer = &tr;
    po.n_transfer = 1;
    po.workload = T->workload;
    po.slo = full->opt.slo;
    po.scores = sc;
    po.score_raw = 1;
    if (predict_set_build(&s, &sub, cat, &po, errf) < 0)
        goto out;
    for (size_t i = 0; i < s.n_rows; i++) {
        const struct predict_row *row = &s.rows[i];
        const struct predict_curve *c;
        const struct predict_member *m;
        struct tcal_pair *p;
        double best = -INFINITY;
        int mi;
        if (row->status != PREDICT_OK || strcmp(row->family, T->family) != 0 ||
            strcmp(row->workload, T->workload) != 0 || (mi = member_of(T, row->config)) < 0)
            continue;
        c = &s.curves[row->curve];
        if (!c->transfer)
            continue;
        m = &T->members[mi];
        for (size_t l = 0; l < c->m; l++)
            if (c->levels[l].tps > best)
                best = c->levels[l].tps;
        p = &r->pairs[r->n++];
        memset(p, 0, sizeof *p);
        snprintf(p->family, sizeof p->family, "%s", T->family);
        snprintf(p->from, sizeof p->from, "%s", S->family);
        snprintf(p->workload, sizeof p->workload, "%s", T->workload);
        p->config = m->config;
        p->vcpu = m->instance->vcpu;
        p->ratio = c->ratio;
        p->predicted = best;
        p->measured = max_of(m->tps, m->m);
        p->error = fabs(p->measured / p->predicted - 1);
    }
    rc = 0;
    predict_set_destroy(&s);
out:
    free(sub.items);
    return rc;
}

static int family_index(const struct tcal_result *r, const char *f)
{
    for (size_t i = 0; i < r->n_families; i++)
        if (strcmp(r->families[i], f) == 0)
            return (int)i;
    return -1;
}

long tcal_run(const struct point_list *pts, const struct cat_catalog *cat,
              const struct score_table *sc, const char *spec, const char *workload, double coverage,
              struct tcal_result *out, FILE *errf)
{
    struct predict_options po;
    struct predict_set full;
    size_t cap = 0;
    double *err = NULL;
    char bench[64];
    int all;
    long rc = -1;

    memset(out, 0, sizeof *out);
    snprintf(out->spec, sizeof out->spec, "%s", spec);
    out->coverage = coverage;
    if (score_spec_split(spec, bench, sizeof bench, &all) != 0) {
        if (errf)
            fprintf(errf, "sizeup: '%s' is not BENCH.single or BENCH.all\n", spec);
        return -1;
    }
    memset(&po, 0, sizeof po);
    po.workload = workload;
    slo_parse("p95:50ms", &po.slo, bench, sizeof bench);
    if (predict_set_build(&full, pts, cat, &po, errf) < 0)
        return -1;
    for (size_t g = 0; g < full.n_groups; g++) {
        cap += full.groups[g].n_members;
        if (family_index(out, full.groups[g].family) < 0 && out->n_families < TCAL_MAX_FAMILIES) {
            size_t i = out->n_families++;
            snprintf(out->families[i], sizeof out->families[i], "%s", full.groups[g].family);
            out->scored[i] = isfinite(score_per_core(sc, spec, NULL, full.groups[g].family, NULL));
            for (size_t z = 0; !out->scored[i] && z < full.groups[g].n_sizes; z++) {
                const struct cat_instance *in =
                    full.groups[g].members[full.groups[g].size_member[z]].instance;
                out->scored[i] =
                    isfinite(score_per_core(sc, spec, in->name ? in->name : in->id, NULL, NULL));
            }
            if (!out->scored[i] && errf)
                fprintf(errf,
                        "sizeup: family %s has no %s score in %s: it is neither predicted "
                        "nor predicted from\n",
                        out->families[i], spec, sc->file);
        }
    }
    if (out->n_families < 2) {
        if (errf)
            fprintf(errf,
                    "sizeup: the points measure %zu family: a transfer calibration needs "
                    "two or more\n",
                    out->n_families);
        goto done;
    }
    if (!(out->pairs = calloc(cap * full.n_groups + 1, sizeof *out->pairs)))
        goto nomem;
    for (size_t t = 0; t < full.n_groups; t++)
        for (size_t s = 0; s < full.n_groups; s++) {
            const struct predict_group *T = &full.groups[t], *S = &full.groups[s];
            if (strcmp(T->family, S->family) == 0 || strcmp(T->workload, S->workload) != 0 ||
                T->nodes != S->nodes || !out->scored[family_index(out, T->family)] ||
                !out->scored[family_index(out, S->family)])
                continue;
            if (predict_pairs(pts, cat, sc, spec, &full, t, s, out, errf) != 0)
                goto nomem;
        }
    if (!(err = malloc((out->n + 1) * sizeof *err)))
        goto nomem;
    for (size_t i = 0; i < out->n; i++)
        err[i] = out->pairs[i].error;
    out->bound = tcal_conformal(err, out->n, coverage);
    for (size_t f = 0; f < out->n_families; f++) {
        size_t n = 0;
        for (size_t i = 0; i < out->n; i++)
            if (strcmp(out->pairs[i].family, out->families[f]) != 0 &&
                strcmp(out->pairs[i].from, out->families[f]) != 0)
                err[n++] = out->pairs[i].error;
        out->held_bound[f] = tcal_conformal(err, n, coverage);
        for (size_t i = 0; i < out->n; i++)
            if (strcmp(out->pairs[i].family, out->families[f]) == 0) {
                out->held_n++;
                out->held_in += out->pairs[i].error <= out->held_bound[f];
            }
    }
    rc = (long)out->n;
    goto done;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
done:
    free(err);
    predict_set_destroy(&full);
    return rc;
}

/* The q-quantile of sorted x[0..n) by linear interpolation (Hyndman & Fan 1996, type 7). */
static double quantile(const double *x, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    return lo + 1 < n ? x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]) : x[n - 1];
}

int tcal_write_text(FILE *f, const struct tcal_result *r)
{
    double *q = malloc((r->n + 1) * sizeof *q);
    if (!q)
        return -1;
    fprintf(f,
            "transfer calibration: %s, %zu predicted peaks of %zu families, each family "
            "from each other\n\n",
            r->spec, r->n, r->n_families);
    fprintf(f, "family  from    config           vCPU  ratio  predicted   measured  "
               "pred/meas\n");
    for (size_t i = 0; i < r->n; i++) {
        const struct tcal_pair *p = &r->pairs[i];
        fprintf(f, "%-7s %-7s %-16s %4d %6.3f %10.0f %10.0f %10.3f\n", p->family, p->from,
                p->config, p->vcpu, p->ratio, p->predicted, p->measured,
                p->predicted / p->measured);
        q[i] = p->predicted / p->measured;
    }
    if (r->n) {
        qsort(q, r->n, sizeof *q, cmp_double);
        fprintf(f,
                "\npredicted / measured peak: min %.3f, 10 %% %.3f, median %.3f, 90 %% %.3f, max "
                "%.3f\n",
                q[0], quantile(q, r->n, 0.1), quantile(q, r->n, 0.5), quantile(q, r->n, 0.9),
                q[r->n - 1]);
    }
    fprintf(f,
            "bound: |measured / predicted - 1| <= %.3f for %.0f %% of pairs (split conformal: "
            "the %.0f-th smallest of %zu)\n",
            r->bound, 100 * r->coverage, ceil(r->coverage * (double)(r->n + 1)), r->n);
    fprintf(f,
            "held out: %zu of %zu peaks inside the bound of the pairs without their "
            "family (",
            r->held_in, r->held_n);
    for (size_t i = 0; i < r->n_families; i++)
        fprintf(f, "%s%s %.3f", i ? ", " : "", r->families[i], r->held_bound[i]);
    fprintf(f, ")\n");
    for (size_t i = 0; i < r->n_families; i++)
        if (!r->scored[i])
            fprintf(f, "no score: family %s (not predicted, not predicted from)\n", r->families[i]);
    if (isfinite(r->bound))
        fprintf(f,
                "\nscore file entry (\"calibration\"): {\"spec\": \"%s\", \"coverage\": %.2f, "
                "\"rel_error\": %.6f, \"pairs\": %zu}\n",
                r->spec, r->coverage, r->bound, r->n);
    free(q);
    return ferror(f) ? -1 : 0;
}

int tcal_write_json(FILE *f, const struct tcal_result *r)
{
    json_t *o = json_object(), *pairs = json_array(), *fams = json_array();
    int rc = -1;
    if (!o || !pairs || !fams) {
        json_decref(o);
        json_decref(pairs);
        json_decref(fams);
        return -1;
    }
    json_object_set_new(o, "schema", json_string("sizeup.transfer-calibration/1"));
    json_object_set_new(o, "spec", json_string(r->spec));
    json_object_set_new(o, "coverage", json_real(r->coverage));
    json_object_set_new(o, "rel_error", isfinite(r->bound) ? json_real(r->bound) : json_null());
    json_object_set_new(o, "held_out_n", json_integer((json_int_t)r->held_n));
    json_object_set_new(o, "held_out_inside", json_integer((json_int_t)r->held_in));
    for (size_t i = 0; i < r->n_families; i++)
        json_array_append_new(
            fams,
            json_pack("{s:s, s:b, s:o}", "family", r->families[i], "scored", r->scored[i],
                      "held_out_rel_error",
                      isfinite(r->held_bound[i]) ? json_real(r->held_bound[i]) : json_null()));
    for (size_t i = 0; i < r->n; i++) {
        const struct tcal_pair *p = &r->pairs[i];
        json_array_append_new(pairs, json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:f}",
                                               "family", p->family, "from", p->from, "workload",
                                               p->workload, "config", p->config, "vcpu", p->vcpu,
                                               "ratio", p->ratio, "predicted_peak", p->predicted,
                                               "measured_peak", p->measured, "error", p->error));
    }
    json_object_set_new(o, "families", fams);
    json_object_set_new(o, "pairs", pairs);
    if (json_dumpf(o, f, JSON_COMPACT) == 0 && fputc('\n', f) != EOF)
        rc = 0;
    json_decref(o);
    return rc;
}
