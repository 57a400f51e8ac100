/* rank_output.c - a ranking as text, sizeup.ranking/1 JSON Lines, CSV and Markdown (rankset.h). */
#include "rankset.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A throughput or cost figure: 4 significant digits below 1000, integer above. */
static const char *num(char *buf, size_t cap, double v)
{
    if (!isfinite(v))
        snprintf(buf, cap, "-");
    else if (fabs(v) >= 1000)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.4g", v);
    return buf;
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

static const char *x_name(const struct rank_set *s, size_t i)
{
    const struct curve *c = rank_set_curves(s, i);
    return s->opt.n_mix == 1 && c[0].by_nodes ? "nodes" : "threads";
}

static void header_lines(FILE *f, const struct rank_set *s)
{
    char slo[64], wl[256];
    fprintf(f, "target %s; workload %s; %s prices in %s", slo_text(&s->opt.slo, slo, sizeof slo),
            rank_set_workloads(s, wl, sizeof wl), cat_pricing_name(s->opt.pricing),
            s->cat->currency);
    if (s->opt.required_tps > 0)
        fprintf(f, "; required %g tps", s->opt.required_tps);
    fprintf(f, "\n");
}

int rank_set_write_text(FILE *f, const struct rank_set *s)
{
    const char *cur = s->cat->currency;
    char a[32], b[32], c[32], d[32], e[32], g[80];
    int req = s->opt.required_tps > 0, w = 6; /* w: configuration column width */

    /* the configuration column: as wide as the longest id, 6 to 18 characters */
    for (size_t i = 0; i < s->n; i++)
        if ((int)strlen(s->rows[i].config) > w)
            w = (int)strlen(s->rows[i].config);
    if (w > 18)
        w = 18;

    header_lines(f, s);
    if (!req) {
        char h1[24], h2[24], h3[24];
        snprintf(h1, sizeof h1, "%s/h", cur);
        snprintf(h2, sizeof h2, "tps/(%s/h)", cur);
        snprintf(h3, sizeof h3, "%s/Mtx", cur);
        fprintf(f, "%4s %-*s %8s %-17s %7s %7s %10s %8s %6s %s\n", "rank", w, "config", "tps",
                "95% interval", x_name(s, 0), h1, h2, h3, "headrm", "basis");
    } else {
        char h1[24], h2[24];
        snprintf(h1, sizeof h1, "%s/h", cur);
        snprintf(h2, sizeof h2, "%s/month", cur);
        fprintf(f, "%4s %-*s %8s %7s %8s %6s %6s %-8s %12s\n", "rank", w, "config", "tps",
                x_name(s, 0), h1, "units", "nodes", "nodes by", h2);
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        char rk[16];
        if (r->rank)
            snprintf(rk, sizeof rk, "%ld", r->rank);
        else
            snprintf(rk, sizeof rk, "-");
        if (r->status != RANK_MET) {
            if (r->status == RANK_NEVER && r->n_at == 1 && isfinite(r->at[0].c.latency_s))
                fprintf(f, "%4s %-*.*s never meets the target (%.4g ms at 1 %s already)", rk, w, w,
                        r->config, r->at[0].c.latency_s * 1e3,
                        strcmp(x_name(s, i), "nodes") == 0 ? "node" : "thread");
            else
                fprintf(f, "%4s %-*.*s %s", rk, w, w, r->config, rank_status_text(r->status));
            fprintf(f, "\n");
            continue;
        }
        if (!req) {
            if (isfinite(r->x.lo))
                snprintf(g, sizeof g, "[%s, %s]", num(a, sizeof a, r->x.lo),
                         num(b, sizeof b, r->x.hi));
            else
                snprintf(g, sizeof g, "-");
            char hr[16] = "-";
            if (isfinite(r->headroom))
                snprintf(hr, sizeof hr, "%.0f%%", 100 * r->headroom);
            fprintf(f, "%4s %-*.*s %8s %-17s %7s %7.4g %10s %8.3g %6s %s\n", rk, w, w, r->config,
                    num(c, sizeof c, r->x.value), g,
                    isfinite(r->n) ? (snprintf(d, sizeof d, "%.1f", r->n), d) : "-",
                    r->cost_per_hour, num(e, sizeof e, r->tps_per_cost), r->cost_per_mtx, hr,
                    basis_short(r->basis));
        } else {
            fprintf(f, "%4s %-*.*s %8s %7s %8.4g %6ld %6ld %-8s %12.2f\n", rk, w, w, r->config,
                    num(c, sizeof c, r->x.value),
                    isfinite(r->n) ? (snprintf(d, sizeof d, "%.1f", r->n), d) : "-",
                    r->cost_per_hour, r->units, r->nodes_needed,
                    r->nodes_basis == CURVE_BASIS_LINEAR ? "linear" : "curve", r->cost_per_month);
        }
    }
    /* notes */
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        for (size_t k = 0; k < r->n_at; k++) {
            const struct rank_at *ra = &r->at[k];
            const struct curve_at *at = &ra->c;
            if (ra->status != RANK_MET)
                continue;
            if (at->capped)
                fprintf(f, "note: %s: capped at the peak N* = %.1f %s (throughput falls beyond)\n",
                        r->config, at->n, x_name(s, i));
            if (at->bound_by_search)
                fprintf(f,
                        "note: %s: meets the target up to %.0f %s, twice the largest "
                        "measured (extrapolated)\n",
                        r->config, at->n, x_name(s, i));
            if (at->latency_model)
                fprintf(f,
                        "note: %s: latency from Little's law R = N/X on the model (no "
                        "measured latency)\n",
                        r->config);
        }
    }
    {
        int any = 0;
        size_t col = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->rows[i].cost_estimate) {
                const char *lead = any ? ", " : "note: estimated prices in the cost of ";
                if (col + strlen(lead) + strlen(s->rows[i].config) > 98) {
                    fprintf(f, ",\n     ");
                    lead = "";
                    col = 5;
                }
                col += (size_t)fprintf(f, "%s%s", lead, s->rows[i].config);
                any = 1;
            }
        if (any)
            fprintf(f, "\n      (sizeup catalog cost ID shows each term and its source)\n");
    }
    fprintf(f, "basis: meas = at a measured point, interp = fitted model between measured "
               "points,\n       extrap = beyond them; 95%% interval from the fit (delta "
               "method); headrm = peak/tps - 1\n");
    return ferror(f) ? -1 : 0;
}

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

static json_t *row_json(const struct rank_set *s, size_t i)
{
    const struct rank_row *r = &s->rows[i];
    const struct curve *cv = rank_set_curves(s, i);
    json_t *o = json_object(), *wl = json_array(), *slo = json_object();
    char pct[16];

    json_object_set_new(o, "schema", json_string(RANK_SCHEMA));
    json_object_set_new(o, "rank", r->rank ? json_integer(r->rank) : json_null());
    json_object_set_new(o, "config", json_string(r->config));
    json_object_set_new(o, "status", json_string(rank_status_name(r->status)));
    json_object_set_new(o, "status_text", json_string(rank_status_text(r->status)));
    snprintf(pct, sizeof pct, "p%g", s->opt.slo.pct);
    json_object_set_new(slo, "statistic", json_string(s->opt.slo.pct > 0 ? pct : "avg"));
    json_object_set_new(slo, "target_ms", json_real(s->opt.slo.target_s * 1e3));
    json_object_set_new(o, "slo", slo);
    json_object_set_new(o, "pricing", json_string(cat_pricing_name(s->opt.pricing)));
    json_object_set_new(o, "currency", json_string(s->cat->currency));
    for (size_t w = 0; w < r->n_at; w++) {
        const struct rank_at *ra = &r->at[w];
        const struct curve_at *a = &ra->c;
        json_t *x = json_object();
        json_object_set_new(x, "workload", json_string(s->opt.mix[w].workload));
        json_object_set_new(x, "weight", json_real(s->opt.mix[w].weight));
        json_object_set_new(x, "status", json_string(rank_status_name(ra->status)));
        json_object_set_new(x, "x", json_string(cv[w].by_nodes ? "nodes" : "threads"));
        if (cv[w].m) {
            json_object_set_new(x, "model", json_string(model_kind_name(cv[w].fit.kind)));
            json_object_set_new(x, "points", json_integer((json_int_t)cv[w].n_obs));
        }
        json_object_set_new(x, "at", real_or_null(a->n));
        json_object_set_new(x, "tps", value_ci(&a->x));
        json_object_set_new(x, "tps_basis", json_string(curve_basis_name(a->x_basis)));
        json_object_set_new(x, "latency_ms", real_or_null(a->latency_s * 1e3));
        json_object_set_new(x, "latency_basis", json_string(curve_basis_name(a->lat_basis)));
        json_object_set_new(x, "latency_source",
                            json_string(a->latency_model ? "littles-law" : "measured"));
        json_object_set_new(x, "capped_at_peak", json_boolean(a->capped));
        json_object_set_new(x, "bound_by_search", json_boolean(a->bound_by_search));
        json_object_set_new(x, "peak_at", real_or_null(a->n_peak));
        json_object_set_new(x, "peak_tps", real_or_null(a->peak_x));
        json_object_set_new(x, "peak_is_ceiling", json_boolean(a->peak_is_ceiling));
        if (isfinite(a->best_measured_x))
            json_object_set_new(x, "best_measured",
                                json_pack("{s:o,s:o}", "at", json_real(a->best_measured_n), "tps",
                                          json_real(a->best_measured_x)));
        json_array_append_new(wl, x);
    }
    json_object_set_new(o, "workloads", wl);
    json_object_set_new(o, "tps", value_ci(&r->x));
    json_object_set_new(o, "at", real_or_null(r->n));
    json_object_set_new(o, "basis", json_string(curve_basis_name(r->basis)));
    json_object_set_new(o, "nodes", json_integer(r->config_nodes));
    json_object_set_new(o, "cost_per_hour", real_or_null(r->cost_per_hour));
    json_object_set_new(o, "cost_estimate", json_boolean(r->cost_estimate));
    json_object_set_new(o, "tps_per_cost", real_or_null(r->tps_per_cost));
    json_object_set_new(o, "cost_per_million_tx", real_or_null(r->cost_per_mtx));
    json_object_set_new(o, "headroom", real_or_null(r->headroom));
    if (s->opt.required_tps > 0) {
        json_t *q = json_object();
        json_object_set_new(q, "tps", json_real(s->opt.required_tps));
        json_object_set_new(q, "units", json_integer(r->units));
        json_object_set_new(q, "nodes", json_integer(r->nodes_needed));
        json_object_set_new(q, "nodes_basis", json_string(curve_basis_name(r->nodes_basis)));
        json_object_set_new(q, "cost_per_month", real_or_null(r->cost_per_month));
        json_object_set_new(o, "required", q);
    }
    return o;
}

int rank_set_write_json(FILE *f, const struct rank_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        json_t *o = row_json(s, i);
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

int rank_set_write_csv(FILE *f, const struct rank_set *s)
{
    fprintf(f, "rank,config,status,tps,tps_lo,tps_hi,at,basis,cost_per_hour,currency,"
               "tps_per_cost,cost_per_million_tx,headroom,required_tps,nodes_needed,nodes_basis,"
               "cost_per_month\n");
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        if (r->rank)
            fprintf(f, "%ld", r->rank);
        fprintf(f, ",%s,%s", r->config, rank_status_name(r->status));
        csv_real(f, r->x.value);
        csv_real(f, r->x.lo);
        csv_real(f, r->x.hi);
        csv_real(f, r->n);
        fprintf(f, ",%s", curve_basis_name(r->basis));
        csv_real(f, r->cost_per_hour);
        fprintf(f, ",%s", s->cat->currency);
        csv_real(f, r->tps_per_cost);
        csv_real(f, r->cost_per_mtx);
        csv_real(f, r->headroom);
        if (s->opt.required_tps > 0) {
            csv_real(f, s->opt.required_tps);
            fprintf(f, ",%ld,%s", r->nodes_needed, curve_basis_name(r->nodes_basis));
            csv_real(f, r->cost_per_month);
        } else {
            fprintf(f, ",,,,");
        }
        fprintf(f, "\n");
    }
    return ferror(f) ? -1 : 0;
}

int rank_set_write_markdown(FILE *f, const struct rank_set *s)
{
    const char *cur = s->cat->currency;
    char a[32], b[32], c[32], e[32];
    fprintf(f, "Ranking: ");
    header_lines(f, s);
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
    for (size_t i = 0; i < s->n; i++) {
        const struct rank_row *r = &s->rows[i];
        if (r->status != RANK_MET) {
            fprintf(f, "| - | %s | %s | | | %s | | | | |", r->config, rank_status_text(r->status),
                    num(a, sizeof a, r->cost_per_hour));
            if (s->opt.required_tps > 0)
                fprintf(f, " | |");
            fprintf(f, "\n");
            continue;
        }
        fprintf(f, "| %ld | %s | %s | ", r->rank, r->config, num(a, sizeof a, r->x.value));
        if (isfinite(r->x.lo))
            fprintf(f, "[%s, %s]", num(b, sizeof b, r->x.lo), num(c, sizeof c, r->x.hi));
        fprintf(f, " | %s | %.4g | %s | %.4g | ",
                isfinite(r->n) ? (snprintf(e, sizeof e, "%.1f", r->n), e) : "-", r->cost_per_hour,
                num(a, sizeof a, r->tps_per_cost), r->cost_per_mtx);
        if (isfinite(r->headroom))
            fprintf(f, "%.0f %%", 100 * r->headroom);
        fprintf(f, " | %s |", curve_basis_name(r->basis));
        if (s->opt.required_tps > 0)
            fprintf(f, " %ld (%s) | %.2f |", r->nodes_needed,
                    r->nodes_basis == CURVE_BASIS_LINEAR ? "linear scale-out" : "scale-out curve",
                    r->cost_per_month);
        fprintf(f, "\n");
    }
    return ferror(f) ? -1 : 0;
}
