/* predict_output.c - predicted points as JSON Lines, the text report and the leave-one-out table
 * (predict_output.h). */
#include "predict_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *short_basis(enum hwscale_basis b)
{
    switch (b) {
    case HWSCALE_MEASURED:
        return "same size";
    case HWSCALE_INSIDE:
        return "between";
    case HWSCALE_BELOW:
        return "below";
    case HWSCALE_ABOVE:
        return "above";
    case HWSCALE_ONE:
        return "one size";
    case HWSCALE_BEYOND:
        return "beyond";
    }
    return "?";
}

static const char *stat_name(double pct, char *buf, size_t cap)
{
    if (pct == 0)
        snprintf(buf, cap, "avg");
    else
        snprintf(buf, cap, "p%g", pct);
    return buf;
}

int predict_write_points(FILE *f, const struct predict_set *s)
{
    struct point_list l;
    struct point_error err;
    int rc = 0;
    point_list_init(&l);
    for (size_t i = 0; i < s->n_rows && rc == 0; i++) {
        if (s->rows[i].status != PREDICT_OK)
            continue;
        if (predict_row_points(s, i, &l) != POINT_OK)
            rc = -1;
        for (size_t j = 0; j < l.n && rc == 0; j++)
            if (point_write(f, &l.items[j], &err) != POINT_OK)
                rc = -1;
        point_list_truncate(&l, 0);
    }
    point_list_destroy(&l);
    return rc;
}

/* The level of a curve with the highest throughput. */
static const struct hwscale_level *peak_level(const struct predict_curve *c)
{
    const struct hwscale_level *best = &c->levels[0];
    for (size_t l = 1; l < c->m; l++)
        if (c->levels[l].tps > best->tps)
            best = &c->levels[l];
    return best;
}

static void write_groups(FILE *f, const struct predict_set *s)
{
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct predict_group *G = &s->groups[g];
        size_t col;
        if (G->n_sizes >= 2)
            fprintf(f, "family %s (%s): leave-one-out error %.1f %% (95 %% of %zu levels within)\n",
                    G->family, G->workload, 100 * G->rel95, G->val.n_level_errors);
        else
            fprintf(f, "family %s (%s): one measured size, interval +/-%.0f %% assumed\n",
                    G->family, G->workload, 100 * G->rel95);
        fprintf(f, "  measured:");
        col = 11;
        for (size_t z = 0; z < G->n_sizes; z++) {
            const struct predict_member *M = &G->members[G->size_member[z]];
            char item[96];
            int k = snprintf(item, sizeof item, " %s (%d vCPU)%s", M->config, M->instance->vcpu,
                             z + 1 < G->n_sizes ? "," : "");
            if (k > 0 && col + (size_t)k > 96) {
                fprintf(f, "\n           ");
                col = 11;
            }
            fputs(item, f);
            col += k > 0 ? (size_t)k : 0;
        }
        fputc('\n', f);
    }
}

int predict_write_text(FILE *f, const struct predict_set *s)
{
    size_t n_pred = 0, n_meas = 0, n_not = 0;
    int transfer = 0, proc = 0, scored = 0;
    char from[256];

    for (size_t i = 0; i < s->n_rows; i++) {
        n_pred += s->rows[i].status == PREDICT_OK;
        n_meas += s->rows[i].status == PREDICT_MEASURED;
        n_not += s->rows[i].status != PREDICT_OK && s->rows[i].status != PREDICT_MEASURED;
    }
    fprintf(f, "%zu configurations predicted from %zu measured (%zu points), %zu not predicted\n",
            n_pred, n_meas, s->n_points, n_not);
    write_groups(f, s);
    if (n_pred) {
        fprintf(f, "\nconfig           vCPU  peak tps  95%% interval      threads  basis     "
                   "from\n");
        for (size_t i = 0; i < s->n_rows; i++) {
            const struct predict_row *r = &s->rows[i];
            const struct predict_curve *c;
            const struct hwscale_level *L;
            char iv[48];
            if (r->status != PREDICT_OK)
                continue;
            c = &s->curves[r->curve];
            L = peak_level(c);
            snprintf(iv, sizeof iv, "[%.0f, %.0f]", fmax(0, L->tps - L->ci95_tps),
                     L->tps + L->ci95_tps);
            fprintf(f, "%-16s %4d %9.0f  %-17s %7.0f  %-9s %s%s%s\n", r->config, c->instance->vcpu,
                    L->tps, iv, L->threads, short_basis(L->basis),
                    predict_curve_from(s, c, from, sizeof from), c->transfer ? "; transfer" : "",
                    c->processor_differs ? "; processor" : "");
            transfer |= c->transfer && !c->score_spec;
            scored |= c->score_spec != NULL;
            proc |= c->processor_differs;
        }
    }
    if (n_not) {
        fprintf(f, "\nnot predicted:\n");
        /* no sibling: one line per family; other reasons: one line per configuration */
        for (size_t i = 0; i < s->n_rows; i++) {
            const struct predict_row *r = &s->rows[i];
            size_t shown = 0, count = 0;
            int first = 1;
            if (r->status == PREDICT_OK || r->status == PREDICT_MEASURED)
                continue;
            if (r->status != PREDICT_NO_SIBLING) {
                fprintf(f, "  %s (%s): %s\n", r->config, r->workload,
                        predict_status_text(r->status));
                continue;
            }
            for (size_t j = 0; j < i && first; j++)
                if (s->rows[j].status == PREDICT_NO_SIBLING &&
                    strcmp(s->rows[j].family, r->family) == 0 &&
                    strcmp(s->rows[j].workload, r->workload) == 0)
                    first = 0;
            if (!first)
                continue;
            fprintf(f, "  probe one size of family %s (%s): ", r->family, r->workload);
            for (size_t j = i; j < s->n_rows; j++) {
                const struct predict_row *q = &s->rows[j];
                if (q->status != PREDICT_NO_SIBLING || strcmp(q->family, r->family) != 0 ||
                    strcmp(q->workload, r->workload) != 0)
                    continue;
                count++;
                if (shown < 6)
                    fprintf(f, "%s%s", shown++ ? ", " : "", q->config);
            }
            if (count > shown)
                fprintf(f, ", ... (%zu configurations)", count);
            fputc('\n', f);
        }
    }
    fprintf(f, "\nbasis: between = between two measured sizes of the family (a power law in vCPUs "
               "at the same\n       threads per vCPU); above/below = extrapolated beyond the "
               "measured sizes; one size =\n       per-vCPU scaling from one size; beyond = more "
               "threads per vCPU than any size measured\n");
    fprintf(f, "interval: 95 %%: the family's leave-one-out error (sizeup predict --validate) "
               "combined\n          with the measured sizes' own\n");
    if (transfer)
        fprintf(f, "transfer: predicted from another family with the per-core ratio given; the "
                   "ratio's own\n          error is not in the interval\n");
    if (scored)
        fprintf(f, "transfer: predicted from another family with the ratio of per-core CPU "
                   "scores (--scores);\n          the interval is at least the ratio's "
                   "calibrated error (sizeup predict\n          --calibrate-transfer)\n");
    if (proc)
        fprintf(f, "processor: a size it came from has another processor (catalog `processor`)\n");
    return ferror(f) ? -1 : 0;
}

int predict_write_validation_text(FILE *f, const struct predict_set *s)
{
    char slo[SLO_TEXT_MAX], st[16];
    slo_text(&s->opt.slo, slo, sizeof slo);
    fprintf(f,
            "leave-one-out: each measured size predicted from the other sizes of its family;\n"
            "error = predicted / measured - 1 of the peak (the highest tps over the levels)\n"
            "and of the tps at %s (model-free, between the levels)\n",
            slo);
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct predict_group *G = &s->groups[g];
        const struct hwscale_validation *v = &G->val;
        fprintf(f, "family %s, %s\n", G->family, G->workload);
        if (G->n_sizes < 2) {
            fprintf(f,
                    "  one measured size (%s): nothing to leave out; predictions from it carry\n"
                    "  +/-%.0f %%\n",
                    G->members[G->size_member[0]].config, 100 * G->rel95);
            continue;
        }
        fprintf(f, "                      peak tps                       tps at %s\n", slo);
        fprintf(f, "  config        vCPU  measured predicted  error      measured predicted  "
                   "error  basis\n");
        for (size_t z = 0; z < v->n; z++) {
            const struct hwscale_loo *L = &G->loo[z];
            const struct predict_member *M = &G->members[G->size_member[z]];
            char tm[16] = "-", tp[16] = "-", te[16] = "-";
            if (isfinite(L->target_measured))
                snprintf(tm, sizeof tm, "%.0f", L->target_measured);
            if (isfinite(L->target_predicted))
                snprintf(tp, sizeof tp, "%.0f", L->target_predicted);
            if (isfinite(L->target_error))
                snprintf(te, sizeof te, "%+.1f%%", 100 * L->target_error);
            fprintf(f, "  %-13s %4d  %8.0f %9.0f %+6.1f%%      %8s %9s %6s  %s\n", M->config,
                    M->instance->vcpu, L->peak_measured, L->peak_predicted, 100 * L->peak_error, tm,
                    tp, te, short_basis(L->basis));
        }
        fprintf(f, "  median |error|: peak %.1f %%, at the target ", 100 * v->peak_median);
        if (isfinite(v->target_median))
            fprintf(f, "%.1f %%\n", 100 * v->target_median);
        else
            fprintf(f, "- (%s not measured)\n", stat_name(s->opt.slo.pct, st, sizeof st));
        fprintf(f, "  worst: peak %.1f %% (%s)", 100 * v->peak_worst,
                G->members[G->size_member[v->peak_worst_index]].config);
        if (isfinite(v->target_worst))
            fprintf(f, ", at the target %.1f %% (%s)", 100 * v->target_worst,
                    G->members[G->size_member[v->target_worst_index]].config);
        fprintf(f,
                "\n  95 %% of the %zu level errors within %.1f %% (the interval of the family's "
                "predictions)\n",
                v->n_level_errors, 100 * v->rel95);
        {
            /* why the worst case: its basis, and a processor unlike the others' */
            const struct predict_member *W = &G->members[G->size_member[v->peak_worst_index]];
            const char *other = NULL;
            for (size_t z = 0; z < G->n_sizes; z++) {
                const struct predict_member *M = &G->members[G->size_member[z]];
                if (M != W && M->instance->processor)
                    other = M->instance->processor;
            }
            fprintf(f, "  worst case %s: %s", W->config,
                    hwscale_basis_name(G->loo[v->peak_worst_index].basis));
            if (W->instance->processor && other && strcmp(W->instance->processor, other) != 0)
                fprintf(f, ";\n    its processor (%s) is not the others' (%s)",
                        W->instance->processor, other);
            fputc('\n', f);
        }
    }
    fprintf(f, "basis (of the level of the predicted peak): between = between two measured "
               "sizes; above,\nbelow = extrapolated beyond the measured sizes; one size = "
               "per-vCPU scaling from one;\nbeyond = more threads per vCPU than any size "
               "measured\n");
    return ferror(f) ? -1 : 0;
}

static json_t *num_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

int predict_write_validation_json(FILE *f, const struct predict_set *s)
{
    char slo[SLO_TEXT_MAX];
    slo_format(&s->opt.slo, slo, sizeof slo);
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct predict_group *G = &s->groups[g];
        json_t *o = json_object(), *sizes = json_array();
        char *line;
        if (!o || !sizes) {
            json_decref(o);
            json_decref(sizes);
            return -1;
        }
        json_object_set_new(o, "schema", json_string("sizeup.validation/1"));
        json_object_set_new(o, "family", json_string(G->family));
        json_object_set_new(o, "workload", json_string(G->workload));
        json_object_set_new(o, "slo", json_string(slo));
        for (size_t z = 0; z < G->val.n; z++) {
            const struct hwscale_loo *L = &G->loo[z];
            const struct predict_member *M = &G->members[G->size_member[z]];
            json_array_append_new(
                sizes, json_pack("{s:s, s:i, s:s, s:f, s:f, s:f, s:o, s:o, s:o, s:f}", "config",
                                 M->config, "vcpu", M->instance->vcpu, "basis",
                                 hwscale_basis_name(L->basis), "peak_measured", L->peak_measured,
                                 "peak_predicted", L->peak_predicted, "peak_error", L->peak_error,
                                 "target_measured", num_or_null(L->target_measured),
                                 "target_predicted", num_or_null(L->target_predicted),
                                 "target_error", num_or_null(L->target_error),
                                 "max_abs_level_error", L->max_abs_level_error));
        }
        json_object_set_new(o, "sizes", sizes);
        json_object_set_new(o, "peak_median", num_or_null(G->val.peak_median));
        json_object_set_new(o, "peak_worst", num_or_null(G->val.peak_worst));
        json_object_set_new(o, "target_median", num_or_null(G->val.target_median));
        json_object_set_new(o, "target_worst", num_or_null(G->val.target_worst));
        json_object_set_new(o, "rel95", json_real(G->rel95));
        json_object_set_new(o, "one_size", json_boolean(G->n_sizes < 2));
        line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        json_decref(o);
        if (!line)
            return -1;
        fprintf(f, "%s\n", line);
        free(line);
    }
    return ferror(f) ? -1 : 0;
}
