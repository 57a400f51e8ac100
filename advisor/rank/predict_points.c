/* predict_points.c - a predicted row as sizeup.point/1 records (predict.h, "predict_points.c"). */
#include "predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *prediction_json(const struct predict_set *s, const struct predict_row *r,
                               const struct predict_curve *c, const struct hwscale_level *L)
{
    const struct predict_group *G = &s->groups[c->group];
    json_t *o = json_object(), *sizes = json_array();
    if (!o || !sizes) {
        json_decref(o);
        json_decref(sizes);
        return NULL;
    }
    json_object_set_new(o, "model", json_string("hwscale/1"));
    json_object_set_new(o, "family", json_string(r->family));
    json_object_set_new(o, "vcpu", json_integer(c->instance->vcpu));
    json_object_set_new(o, "level_basis", json_string(hwscale_basis_name(L->basis)));
    if (isfinite(L->slope))
        json_object_set_new(o, "slope", json_real(L->slope));
    json_object_set_new(o, "rel95", json_real(G->rel95));
    json_array_append_new(sizes, json_string(G->members[G->size_member[L->lo]].config));
    if (L->hi != L->lo)
        json_array_append_new(sizes, json_string(G->members[G->size_member[L->hi]].config));
    json_object_set_new(o, "sizes", sizes);
    if (c->processor_differs)
        json_object_set_new(o, "processor_differs", json_true());
    if (c->transfer) {
        json_t *t = json_pack("{s:s, s:f, s:s}", "from_family", G->family, "ratio", c->ratio,
                              "ratio_source",
                              c->score_spec         ? "score"
                              : c->ratio_from_clock ? "clock"
                                                    : "given");
        if (t && c->score_spec) {
            json_object_set_new(t, "score", json_string(c->score_spec));
            if (c->score_from_family)
                json_object_set_new(t, "score_from_family_median", json_true());
            if (c->score_error > 0) {
                json_object_set_new(t, "ratio_error", json_real(c->score_error));
                json_object_set_new(t, "ratio_error_coverage", json_real(c->score_coverage));
            }
        }
        json_object_set_new(o, "transfer", t);
    }
    return o;
}

int predict_row_points(const struct predict_set *s, size_t i, struct point_list *out)
{
    const struct predict_row *r = &s->rows[i];
    const struct predict_curve *c;
    const struct predict_group *G;
    if (r->status != PREDICT_OK || r->curve < 0)
        return POINT_EINVAL;
    c = &s->curves[r->curve];
    G = &s->groups[c->group];
    for (size_t l = 0; l < c->m; l++) {
        const struct hwscale_level *L = &c->levels[l];
        struct point *p = point_list_push(out);
        double mean_s = L->threads / L->tps;
        if (!p)
            return POINT_ENOMEM;
        if (point_set_str(&p->target, r->config) || point_set_str(&p->config, r->config) ||
            point_set_str(&p->workload, r->workload) || point_set_str(&p->tool, "sizeup predict") ||
            point_set_str(&p->source_file, s->source_file))
            return POINT_ENOMEM;
        p->threads = (int64_t)llround(L->threads);
        p->tps = L->tps;
        p->ci95_tps = L->ci95_tps;
        for (size_t k = 0; k < G->n_lat; k++) {
            double ratio = L->lat_ratio[k];
            if (k == 0 && !isfinite(ratio))
                ratio = 1; /* no measured mean: Little's law itself */
            if (!isfinite(ratio))
                continue;
            if (G->lat_pct[k] == 0)
                p->latency_ms.avg = ratio * mean_s * 1e3;
            else if (point_set_percentile(p, G->lat_pct[k], ratio * mean_s * 1e3) != POINT_OK)
                return POINT_ENOMEM;
        }
        p->predicted = 1;
        if (point_add_predicted_from(p, G->members[G->size_member[L->lo]].config) ||
            point_add_predicted_from(p, G->members[G->size_member[L->hi]].config))
            return POINT_ENOMEM;
        p->source_kind = POINT_SRC_PREDICTION;
        p->extra = json_object();
        if (!p->extra || json_object_set_new(p->extra, "prediction", prediction_json(s, r, c, L)))
            return POINT_ENOMEM;
    }
    return POINT_OK;
}
