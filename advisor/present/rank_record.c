/* rank_record.c - a ranking as sizeup.ranking/1 JSON Lines and as CSV (rank_output.h). */
#include "rank_output.h"

#include "csvfield.h"
#include "setnotes.h"
#include "today.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *value_ci(const struct derived_value *v)
{
    json_t *o = json_object();
    json_object_set_new(o, "value", real_or_null(v->value));
    if (isfinite(v->lo) || isfinite(v->hi))
        json_object_set_new(o, "ci95", json_pack("[oo]", real_or_null(v->lo), real_or_null(v->hi)));
    return o;
}

/* The "workloads" entry of row r for workload w of the mix: its curve cv[w] (cv: the row's
 * curves, one per workload) and the answer at the target; a new object. */
static json_t *workload_json(const struct rank_set *s, const struct rank_row *r,
                             const struct curve *cv, size_t w)
{
    const struct rank_at *ra = &r->at[w];
    const struct curve_at *a = &ra->c;
    json_t *x = json_object();
    json_object_set_new(x, "workload", json_string(s->opt.mix[w].workload));
    json_object_set_new(x, "weight", json_real(s->opt.mix[w].weight));
    json_object_set_new(x, "status", json_string(rank_status_name(ra->status)));
    json_object_set_new(x, "x", json_string(cv[w].by_nodes ? "nodes" : "threads"));
    if (cv[w].m) {
        json_object_set_new(x, "shape", json_string(shape_class_name(cv[w].shape.cls)));
        json_object_set_new(
            x, "model", cv[w].fitted ? json_string(model_kind_name(cv[w].fit.kind)) : json_null());
        json_object_set_new(x, "model_used", json_boolean(cv[w].use_model));
        json_object_set_new(x, "points", json_integer((json_int_t)cv[w].n_obs));
    }
    json_object_set_new(x, "at", real_or_null(a->n));
    json_object_set_new(x, "tps", value_ci(&a->x));
    json_object_set_new(x, "tps_basis", json_string(curve_basis_name(a->x_basis)));
    json_object_set_new(x, "latency_ms", real_or_null(a->latency_s * 1e3));
    json_object_set_new(x, "latency_basis", json_string(curve_basis_name(a->lat_basis)));
    if (isfinite(a->latency_lo_s)) {
        json_t *ci = json_array();
        json_array_append_new(ci, json_real(a->latency_lo_s * 1e3));
        json_array_append_new(ci, json_real(a->latency_hi_s * 1e3));
        json_object_set_new(x, "latency_ci95_ms", ci);
    }
    if (isfinite(a->p_meets))
        json_object_set_new(x, "p_meets", json_real(a->p_meets));
    json_object_set_new(x, "latency_source",
                        json_string(a->latency_model                              ? "littles-law"
                                    : cv[w].spec.source == CURVE_SOURCE_PREDICTED ? "predicted"
                                                                                  : "measured"));
    json_object_set_new(x, "tps_source",
                        json_string(a->x_from_model ? "model"
                                    : cv[w].spec.source == CURVE_SOURCE_PREDICTED
                                        ? "predicted curve"
                                        : "measured curve"));
    json_object_set_new(x, "binds", json_string(curve_binds_name(a->binds)));
    json_object_set_new(x, "met_at_every_level", json_boolean(a->met_everywhere));
    json_object_set_new(x, "search_to", real_or_null(a->limit_n));
    if (a->x_basis == CURVE_BASIS_EXTRAPOLATED)
        json_object_set_new(x, "beyond_largest", json_real(a->beyond));
    json_object_set_new(x, "peak_at", real_or_null(a->n_peak));
    json_object_set_new(x, "peak_tps", real_or_null(a->peak_x));
    json_object_set_new(x, "peak_is_best_level", json_boolean(a->peak_is_best_level));
    json_object_set_new(x, "peak_is_lower_bound", json_boolean(a->peak_is_lower_bound));
    if (isfinite(a->best_measured_x))
        json_object_set_new(x, "best_measured",
                            json_pack("{s:o,s:o}", "at", json_real(a->best_measured_n), "tps",
                                      json_real(a->best_measured_x)));
    return x;
}

/* "a, b, c" (the configurations a prediction comes from) as an array of strings; a new array. */
static json_t *from_array(const char *p)
{
    json_t *arr = json_array();
    while (arr && *p) {
        const char *e = strstr(p, ", ");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        json_array_append_new(arr, json_stringn(p, len));
        p += len + (e ? 2 : 0);
    }
    return arr;
}

static json_t *row_json(const struct ranking *rk, size_t i)
{
    const struct rank_set *s = &rk->set;
    const struct rank_row *r = &s->rows[i];
    const struct curve *cv = rank_set_curves(s, i);
    json_t *o = json_object(), *wl = json_array(), *slo = json_object();
    char pct[16];

    json_object_set_new(o, "schema", json_string(RANK_SCHEMA));
    json_object_set_new(o, "rank", r->rank ? json_integer(r->rank) : json_null());
    json_object_set_new(o, "config", json_string(r->config));
    json_object_set_new(o, "status", json_string(rank_status_name(r->status)));
    json_object_set_new(o, "status_text", json_string(rank_status_text(r->status)));
    if (rank_row_noise(r) > RANK_TOO_NOISY)
        json_object_set_new(o, "too_noisy", json_true()); /* its interval decides nothing */
    snprintf(pct, sizeof pct, "p%g", s->opt.slo.pct);
    json_object_set_new(slo, "statistic", json_string(s->opt.slo.pct > 0 ? pct : "avg"));
    json_object_set_new(slo, "target_ms", json_real(s->opt.slo.target_s * 1e3));
    json_object_set_new(o, "slo", slo);
    json_object_set_new(o, "pricing", json_string(cat_pricing_name(s->opt.pricing)));
    json_object_set_new(o, "currency", json_string(s->cat->currency));
    for (size_t w = 0; w < r->n_at; w++)
        json_array_append_new(wl, workload_json(s, r, cv, w));
    json_object_set_new(o, "workloads", wl);
    json_object_set_new(o, "tps", value_ci(&r->x));
    json_object_set_new(o, "at", real_or_null(r->n));
    json_object_set_new(o, "basis", json_string(curve_basis_name(r->basis)));
    if (s->note && s->note[s->row_curve[i]])
        json_object_set_new(o, "disk_model", json_string(s->note[s->row_curve[i]]));
    if (s->measured && s->measured[s->row_curve[i]])
        json_object_set_new(o, "measured_with", json_string(s->measured[s->row_curve[i]]));
    if (s->from && s->from[s->row_curve[i]])
        json_object_set_new(o, "predicted_from", from_array(s->from[s->row_curve[i]]));
    {
        json_t *set = setnotes_row_json(s, i);
        if (set)
            json_object_set_new(o, "inputs_set", set);
    }
    if (rk->has_conf)
        conf_row_json(&rk->conf, i, o);
    if (rk->has_tco)
        tco_row_json(&rk->tco, s, i, o);
    {
        char as_of[11], today[11];
        const char *src;
        if (rank_set_row_price_date(s, r, as_of, &src) == 0 && as_of[0]) {
            json_object_set_new(o, "price_as_of", json_string(as_of));
            json_object_set_new(o, "price_age_months",
                                json_integer(months_between(as_of, today_ymd(today))));
        }
    }
    json_object_set_new(o, "basis_from",
                        r->status == RANK_MET ? json_string(s->opt.mix[r->basis_from].workload)
                                              : json_null());
    json_object_set_new(o, "nodes", json_integer(r->config_nodes));
    json_object_set_new(o, "cost_per_hour", real_or_null(r->cost_per_hour));
    json_object_set_new(o, "cost_estimate", json_boolean(r->cost_estimate));
    json_object_set_new(o, "tps_per_cost", real_or_null(r->tps_per_cost));
    json_object_set_new(o, "cost_per_million_tx", real_or_null(r->cost_per_mtx));
    json_object_set_new(o, "headroom", real_or_null(r->headroom));
    json_object_set_new(o, "headroom_is_lower_bound", json_boolean(r->headroom_lower_bound));
    json_object_set_new(o, "utilisation_at_target", real_or_null(r->load));
    {
        const struct cat_config *cf;
        if (rank_set_row_server(s, r, &cf))
            json_object_set_new(o, "power_load",
                                json_pack("{s:f,s:s}", "value", r->power_load, "basis",
                                          r->power_load_measured ? "measured" : "catalog"));
    }
    if (s->opt.required_tps > 0) {
        json_t *q = json_object();
        json_object_set_new(q, "tps", json_real(s->opt.required_tps));
        json_object_set_new(q, "units", json_integer(r->units));
        json_object_set_new(q, "nodes", json_integer(r->nodes_needed));
        json_object_set_new(q, "nodes_basis", json_string(nodes_by(r, 0)));
        json_object_set_new(q, "cost_per_month", real_or_null(r->cost_per_month));
        json_object_set_new(o, "required", q);
    }
    return o;
}

int ranking_write_json(FILE *f, const struct ranking *rk)
{
    const struct rank_set *s = &rk->set;
    for (size_t i = 0; i < s->n; i++) {
        json_t *o = row_json(rk, i);
        char *line =
            o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) : NULL;
        json_decref(o);
        if (!line)
            return -1;
        fprintf(f, "%s\n", line);
        free(line);
    }
    return ferror(f) ? -1 : 0;
}

static void csv_real(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.10g", v);
    else
        fprintf(f, ",");
}

int ranking_write_csv(FILE *f, const struct ranking *rk)
{
    const struct rank_set *s = &rk->set;
    fprintf(f, "rank,config,status,tps,tps_lo,tps_hi,at,basis,cost_per_hour,currency,"
               "tps_per_cost,cost_per_million_tx,headroom,required_tps,nodes_needed,nodes_basis,"
               "cost_per_month,headroom_is_lower_bound\n");
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        if (r->rank)
            fprintf(f, "%ld", r->rank);
        fputc(',', f);
        csv_write_field(f, r->config);
        fprintf(f, ",%s", rank_status_name(r->status));
        csv_real(f, r->x.value);
        csv_real(f, r->x.lo);
        csv_real(f, r->x.hi);
        csv_real(f, r->n);
        fprintf(f, ",%s", curve_basis_name(r->basis));
        csv_real(f, r->cost_per_hour);
        fputc(',', f);
        csv_write_field(f, s->cat->currency);
        csv_real(f, r->tps_per_cost);
        csv_real(f, r->cost_per_mtx);
        csv_real(f, r->headroom);
        if (s->opt.required_tps > 0) {
            csv_real(f, s->opt.required_tps);
            fprintf(f, ",%ld,%s", r->nodes_needed, nodes_by(r, 0));
            csv_real(f, r->cost_per_month);
        } else {
            fprintf(f, ",,,,");
        }
        fprintf(f, ",%s\n", r->status != RANK_MET ? "" : r->headroom_lower_bound ? "1" : "0");
    }
    return ferror(f) ? -1 : 0;
}
