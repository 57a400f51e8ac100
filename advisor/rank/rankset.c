/* rankset.c - join points to configurations, fit, rank and price them (rankset.h). */
#include "rankset.h"

#include "disk_perf.h"

#include "cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rank_map_parse(char *s, struct rank_map *m)
{
    char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1])
        return -1;
    *eq = '\0';
    m->target = s;
    m->config = eq + 1;
    return 0;
}

void rank_set_init(struct rank_set *s)
{
    memset(s, 0, sizeof *s);
}

void rank_set_destroy(struct rank_set *s)
{
    if (!s)
        return;
    if (s->curves)
        for (size_t i = 0; i < s->n_sets * s->opt.n_mix; i++)
            curve_destroy(&s->curves[i]);
    for (size_t i = 0; i < s->n; i++) {
        free(s->config[i]);
        if (s->from)
            free(s->from[i]);
        if (s->note)
            free(s->note[i]);
        if (s->measured)
            free(s->measured[i]);
    }
    free(s->config);
    free(s->from);
    free(s->note);
    free(s->measured);
    free(s->trailer);
    free(s->config_set);
    free(s->curves);
    free(s->at);
    free(s->rows);
    free(s->row_curve);
    memset(s, 0, sizeof *s);
}

const struct curve *rank_set_curves(const struct rank_set *s, size_t i)
{
    return &s->curves[s->config_set[s->row_curve[i]] * s->opt.n_mix];
}

struct row_key {
    const char *config; /* a row's config pointer: s->config[k] */
    size_t k;
};

static int cmp_key(const void *a, const void *b)
{
    const struct row_key *x = a, *y = b;
    return x->config < y->config ? -1 : x->config > y->config;
}

int rank_set_sort(struct rank_set *s)
{
    struct row_key *keys = malloc((s->n + 1) * sizeof *keys);
    rank_sort(s->rows, s->n, &s->opt);
    if (!keys)
        return -1;
    /* rows[i].config is the pointer s->config[k] of its configuration */
    for (size_t k = 0; k < s->n; k++) {
        keys[k].config = s->config[k];
        keys[k].k = k;
    }
    qsort(keys, s->n, sizeof *keys, cmp_key);
    for (size_t i = 0; i < s->n; i++) {
        struct row_key q = {s->rows[i].config, 0}, *hit;
        hit = bsearch(&q, keys, s->n, sizeof *keys, cmp_key);
        s->row_curve[i] = hit ? hit->k : 0;
    }
    free(keys);
    return 0;
}

const char *rank_set_workloads(const struct rank_set *s, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->opt.n_mix && used < cap; i++) {
        int k;
        if (s->opt.n_mix == 1)
            k = snprintf(buf + used, cap - used, "%s", s->opt.mix[i].workload);
        else
            k = snprintf(buf + used, cap - used, "%s%s %g", i ? ", " : "", s->opt.mix[i].workload,
                         s->opt.mix[i].weight);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

/* The configuration id of a point, or NULL when it joins none. */
const char *rank_point_config(const struct point *p, const struct rank_map *maps, size_t n_maps)
{
    if (p->config)
        return p->config;
    for (size_t i = 0; i < n_maps; i++)
        if (strcmp(maps[i].target, p->target) == 0)
            return maps[i].config;
    return p->target;
}

static long find_str(const char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], s) == 0)
            return (long)i;
    return -1;
}

static long mix_index(const struct rank_options *o, const char *workload)
{
    for (size_t i = 0; i < o->n_mix; i++)
        if (strcmp(o->mix[i].workload, workload) == 0)
            return (long)i;
    return -1;
}

static int row_cost(const struct rank_set *s, const struct rank_row *r, int pricing, int nodes,
                    const struct cat_override *ov, size_t n_ov, int values_only,
                    struct cat_cost *out, struct cat_error *err)
{
    struct cat_cost_opts o = {ov, n_ov, s->opt.ha_standby, 0, values_only};
    if (isfinite(r->load) && r->load > 0)
        o.measured_load = fmin(1.0, r->load);
    return cat_config_cost_x(s->cat, r->config,
                             pricing >= 0 ? (enum cat_pricing)pricing : s->opt.pricing,
                             nodes > 0 ? nodes : r->config_nodes, &o, out, err);
}

int rank_set_row_cost(const struct rank_set *s, const struct rank_row *r, int pricing, int nodes,
                      const struct cat_override *ov, size_t n_ov, struct cat_cost *out,
                      struct cat_error *err)
{
    return row_cost(s, r, pricing, nodes, ov, n_ov, 0, out, err);
}

int rank_set_row_figures(const struct rank_set *s, const struct rank_row *r, int pricing, int nodes,
                         const struct cat_override *ov, size_t n_ov, struct cat_cost *out,
                         struct cat_error *err)
{
    return row_cost(s, r, pricing, nodes, ov, n_ov, 1, out, err);
}

/* The oldest price with a YYYY-MM-DD date among a cost's terms, or NULL. */
static const struct cat_price *oldest_dated(const struct cat_cost *c)
{
    const struct cat_price *o = NULL;
    for (size_t i = 0; i < c->n_terms; i++) {
        const struct cat_price *p = c->terms[i].price;
        if (p && p->as_of && strlen(p->as_of) == 10 && (!o || strcmp(p->as_of, o->as_of) < 0))
            o = p;
    }
    return o;
}

struct cost_ctx {
    const struct rank_set *s;
    struct rank_row *row;
    int estimate;
};

static double cost_at(void *vctx, long nodes)
{
    struct cost_ctx *c = vctx;
    struct cat_cost cost;
    struct cat_error err;
    if (nodes > 1000000 ||
        rank_set_row_figures(c->s, c->row, -1, (int)nodes, NULL, 0, &cost, &err) != CAT_OK)
        return NAN;
    c->estimate |= cost.estimate;
    if (!c->row->oldest_known) {
        c->row->oldest_price = oldest_dated(&cost);
        c->row->oldest_known = 1;
    }
    c->row->ha = cost.ha;
    c->row->owned = cost.owned;
    c->row->standby_added = cost.config && !cost.config->ha ? cost.standby : 0;
    if ((long)c->row->config_nodes == nodes) {
        c->row->power_load = cost.power_load;
        c->row->power_load_measured = cost.power_load_measured;
    }
    return cost.per_hour;
}

int rank_set_price_row(const struct rank_set *s, struct rank_row *row,
                       const struct curve *const *cv)
{
    struct cost_ctx c = {s, row, 0};
    const struct cat_config *cf = cat_find_config(s->cat, row->config);
    int rc;
    row->ha = cf && cf->ha;
    row->owned = cf && cf->server;
    row->scale_out = cf && cf->scale_out;
    row->standby_added = 0;
    rc = rank_row_price(row, cv, &s->opt, cost_at, &c);
    row->cost_estimate = c.estimate;
    return rc;
}

int rank_set_row_price_date(const struct rank_set *s, const struct rank_row *r, char as_of[11],
                            const char **source)
{
    struct cat_cost c;
    struct cat_error err;
    const struct cat_price *p;
    as_of[0] = '\0';
    *source = NULL;
    if (r->oldest_known && isfinite(r->cost_per_hour)) {
        p = r->oldest_price; /* the pricing kept it: the same terms */
    } else {
        if (rank_set_row_figures(s, r, -1, 0, NULL, 0, &c, &err) != CAT_OK)
            return -1;
        p = oldest_dated(&c);
    }
    if (p) {
        memcpy(as_of, p->as_of, 11);
        *source = p->source;
    }
    return 0;
}

static const char *src_name(const struct point *p)
{
    return p->source_file ? p->source_file : "-";
}

/* Choose the workload when no mix was given: the one workload of the points. */
static int pick_workload(struct rank_set *s, const struct point_list *pts, FILE *errf)
{
    const char *w = NULL;
    for (size_t i = 0; i < pts->n; i++) {
        if (!w)
            w = pts->items[i].workload;
        else if (strcmp(w, pts->items[i].workload) != 0) {
            if (errf)
                fprintf(errf,
                        "sizeup: the points hold several workloads (%s, %s, ...): choose one with "
                        "--workload or a mix with --mix\n",
                        w, pts->items[i].workload);
            return -1;
        }
    }
    if (!w) {
        if (errf)
            fprintf(errf, "sizeup: no points to rank\n");
        return -1;
    }
    snprintf(s->opt.mix[0].workload, sizeof s->opt.mix[0].workload, "%s", w);
    s->opt.mix[0].weight = 1;
    s->opt.n_mix = 1;
    return 0;
}

/* IOPS of a configuration's disk by its type's rule, NAN when it has none or no disk. */
static double config_iops(const struct cat_catalog *cat, const struct cat_config *cf)
{
    const struct cat_disk *d = cf && cf->disk ? cat_find_disk(cat, cf->disk) : NULL;
    struct cat_disk_perf perf;
    if (!d || cat_disk_performance(d, cf->size_gib, cf->provisioned_iops,
                                   cf->provisioned_throughput_mb_s, &perf, NULL, 0) != CAT_OK)
        return NAN;
    return perf.iops;
}

/* --map T=C where T is a configuration of the catalogs too and C's disk differs from T's (type,
 * or IOPS by the types' rules): C's row is T's throughput on T's disk. Said once per map, with
 * both disks and how to predict C's (issue 24.6: an ESSD curve mapped to a PL0 configuration
 * the catalog rates at 7,800 IOPS went unflagged). */
static void map_disk_notes(const struct cat_catalog *cat, const struct rank_map *maps,
                           size_t n_maps, FILE *errf)
{
    for (size_t i = 0; i < n_maps && errf; i++) {
        const struct cat_config *from = cat_find_config(cat, maps[i].target);
        const struct cat_config *to = cat_find_config(cat, maps[i].config);
        double a, b;
        if (!from || !to || from == to || !from->disk || !to->disk)
            continue;
        a = config_iops(cat, from);
        b = config_iops(cat, to);
        if (strcmp(from->disk, to->disk) == 0 && !(fabs(a - b) > 0.05 * fmax(a, b)))
            continue;
        fprintf(errf,
                "sizeup: note: --map %s=%s: %s was measured on %s at %g GiB (%.0f IOPS by its "
                "rule), %s has %s at %g GiB (%.0f IOPS): its row is %s's throughput on %s's "
                "disk, not predicted for its own (sizeup predict --disk predicts it)\n",
                maps[i].target, maps[i].config, maps[i].target, from->disk, from->size_gib, a,
                maps[i].config, to->disk, to->size_gib, b, maps[i].target, maps[i].target);
    }
}

/* How point p was measured, as far as it says (rank_set.measured), into buf; "" when it says
 * nothing. */
static const char *measured_with(const struct point *p, char *buf, size_t cap)
{
    const json_t *o = p->options;
    const json_t *tb = o ? json_object_get(o, "tables") : NULL;
    const json_t *ts = o ? json_object_get(o, "table_size") : NULL;
    const json_t *host = o ? json_object_get(o, "mysql_host") : NULL;
    const json_t *sock = o ? json_object_get(o, "mysql_socket") : NULL;
    size_t len = 0;
    buf[0] = '\0';
    if (p->server_version && p->server_version[0])
        len += (size_t)snprintf(buf + len, cap - len, "server %.48s", p->server_version);
    if (json_is_integer(tb) && json_is_integer(ts) && len < cap)
        len +=
            (size_t)snprintf(buf + len, cap - len, "%s%lld x %lld rows", len ? "; " : "",
                             (long long)json_integer_value(tb), (long long)json_integer_value(ts));
    if (len < cap && (json_is_string(sock) || json_is_string(host))) {
        const char *h = json_is_string(host) ? json_string_value(host) : "";
        int local = json_is_string(sock) || strcmp(h, "127.0.0.1") == 0 ||
                    strcmp(h, "localhost") == 0 || strcmp(h, "::1") == 0;
        if (local)
            snprintf(buf + len, cap - len, "%sclient on the server's host", len ? "; " : "");
        else
            snprintf(buf + len, cap - len, "%sclient on another host (%.40s)", len ? "; " : "", h);
    }
    return buf;
}

/* Note configuration k's predicted_from: the configurations its predicted points came from,
 * ", "-separated (s->from, allocated on first use). 0, or -1 out of memory. */
static int note_from(struct rank_set *s, size_t k, const struct point_list *pts, const size_t *idx,
                     size_t n)
{
    char buf[512] = "";
    size_t len = 0;
    if (!s->from && !(s->from = calloc(s->n, sizeof *s->from)))
        return -1;
    if (s->from[k])
        len = (size_t)snprintf(buf, sizeof buf, "%s", s->from[k]);
    for (size_t i = 0; i < n; i++) {
        const struct point *p = &pts->items[idx[i]];
        for (size_t j = 0; j < p->n_predicted_from; j++) {
            const char *f = p->predicted_from[j];
            size_t fl = strlen(f);
            const char *q = buf;
            int seen = 0;
            while (!seen && (q = strstr(q, f)) != NULL) {
                seen = (q == buf || q[-1] == ' ') && (q[fl] == ',' || q[fl] == '\0');
                q += fl;
            }
            if (!seen && len + fl + 3 < sizeof buf)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : "", f);
        }
    }
    free(s->from[k]);
    return (s->from[k] = strdup(buf)) ? 0 : -1;
}

/*
 * Build the curve of configuration k and workload w from group g. Points of basis "predicted"
 * (sizeup predict --json, rank --disks) make a curve of source CURVE_SOURCE_PREDICTED, whose
 * row is then labelled and widened as predicted (*any_pred = 1); a configuration with measured
 * points of its own is ranked on those alone (its predicted points are left out, said once).
 * idx has room for g->n. @return curve_init_points's, or CURVE_ENOMEM.
 */
static int init_curve(struct rank_set *s, size_t k, size_t w, const struct point_list *pts,
                      const struct curve_group *g, const struct curve_spec *spec,
                      struct usl_workspace *ws, size_t *idx, int *any_pred, char *err, size_t cap,
                      FILE *errf)
{
    struct curve *c = &s->curves[k * s->opt.n_mix + w];
    struct curve_spec sp = *spec;
    size_t n_meas = 0, n_pred = 0;
    for (size_t i = 0; i < g->n; i++)
        n_pred += pts->items[g->idx[i]].predicted;
    n_meas = g->n - n_pred;
    if (n_pred == 0)
        return curve_init_points(c, pts, g->idx, g->n, &sp, ws, err, cap);
    if (n_meas > 0) {
        for (size_t i = 0, j = 0; i < g->n; i++)
            if (!pts->items[g->idx[i]].predicted)
                idx[j++] = g->idx[i];
        if (errf) {
            const struct point *p = &pts->items[g->idx[0]];
            fprintf(errf,
                    "sizeup: %s:%ld: %s / %s: %zu predicted point%s left out: the "
                    "configuration is ranked on its %zu measured\n",
                    src_name(p), p->source_line, s->config[k], s->opt.mix[w].workload, n_pred,
                    n_pred == 1 ? "" : "s", n_meas);
        }
        return curve_init_points(c, pts, idx, n_meas, &sp, ws, err, cap);
    }
    sp.source = CURVE_SOURCE_PREDICTED;
    /* points of the disk model (diskpred_fill_point: extra.prediction.disk) are that model's
     * curve, exact at each level: interpolated, never refitted */
    {
        const json_t *pr = pts->items[g->idx[0]].extra
                               ? json_object_get(pts->items[g->idx[0]].extra, "prediction")
                               : NULL;
        sp.levels_only = json_is_object(pr) && json_object_get(pr, "disk") != NULL;
    }
    *any_pred = 1;
    if (note_from(s, k, pts, g->idx, g->n) != 0)
        return CURVE_ENOMEM;
    return curve_init_points(c, pts, g->idx, g->n, &sp, ws, err, cap);
}

/* Join the points of the mix's workloads to configurations: keys[i] the id of point i's, NULL
 * when it joins none (each unknown id said once on errf, recorded in bad, counted in
 * *problems); every configuration joined once into s->config. 0, or -1 out of memory. */
static int join_points(struct rank_set *s, const struct point_list *pts,
                       const struct cat_catalog *cat, const struct rank_map *maps, size_t n_maps,
                       const char **keys, const char **bad, int *problems, FILE *errf)
{
    size_t n_bad = 0;
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        const char *id;
        keys[i] = NULL;
        if (mix_index(&s->opt, p->workload) < 0)
            continue;
        id = rank_point_config(p, maps, n_maps);
        if (!cat_find_config(cat, id)) {
            if (find_str(bad, n_bad, id) < 0) {
                bad[n_bad++] = id;
                (*problems)++;
                if (errf)
                    fprintf(errf,
                            "sizeup: %s:%ld: target '%s': configuration '%s' is not in the "
                            "catalogs; give its id as the points' config or with --map %s=ID\n",
                            src_name(p), p->source_line, p->target, id, p->target);
            }
            continue;
        }
        if (find_str((const char *const *)s->config, s->n, id) < 0) {
            s->config[s->n] = strdup(id);
            if (!s->config[s->n])
                return -1;
            s->n++;
        }
        keys[i] = id;
    }
    return 0;
}

/* Say on errf which points of configuration k's curve of workload w (group g) are left out:
 * those that do not count and those that repeat a measurement. */
static void left_out_notes(const struct rank_set *s, size_t k, size_t w,
                           const struct point_list *pts, const struct curve_group *g, FILE *errf)
{
    if (g->n_excluded && errf) {
        const struct point *p = &pts->items[g->excluded[0]];
        fprintf(errf, "sizeup: %s:%ld: %s / %s: %zu point%s left out (%s%s): %s\n", src_name(p),
                p->source_line, s->config[k], s->opt.mix[w].workload, g->n_excluded,
                g->n_excluded == 1 ? "" : "s", curve_point_excluded_why(p),
                g->n_excluded > 1 ? ", ..." : "",
                curve_excluded_meaning(curve_point_excluded_why(p)));
    }
    if (g->n_dup && errf) {
        const struct point *p = &pts->items[g->dup[0]], *q = &pts->items[g->dup_of[0]];
        fprintf(errf,
                "sizeup: %s:%ld: %s / %s: %zu point%s left out: the same measurement as "
                "%s:%ld%s (one run given twice is not two replicates)\n",
                src_name(p), p->source_line, s->config[k], s->opt.mix[w].workload, g->n_dup,
                g->n_dup == 1 ? "" : "s", src_name(q), q->source_line, g->n_dup > 1 ? ", ..." : "");
    }
}

/* The curves of configuration k, one per workload of the mix, into s->curves and cv (NULL where
 * there is none; a curve that cannot be built is said on errf and counted in *problems;
 * *any_pred: one is predicted). 0, or -1 out of memory. */
static int row_curves(struct rank_set *s, size_t k, const struct point_list *pts,
                      const struct curve_groups *groups, const struct curve_spec *spec,
                      struct usl_workspace *ws, size_t *idx, const struct curve **cv, int *any_pred,
                      int *problems, FILE *errf)
{
    for (size_t w = 0; w < s->opt.n_mix; w++) {
        struct curve *c = &s->curves[k * s->opt.n_mix + w];
        const struct curve_group *g =
            curve_groups_find(groups, s->config[k], s->opt.mix[w].workload);
        char err[320];
        int rc;
        cv[w] = NULL;
        if (!g || g->n + g->n_excluded == 0)
            continue;
        s->n_points += g->n;
        left_out_notes(s, k, w, pts, g, errf);
        if (g->n == 0) {
            (*problems)++;
            continue;
        }
        rc = init_curve(s, k, w, pts, g, spec, ws, idx, any_pred, err, sizeof err, errf);
        if (rc == CURVE_ENOMEM)
            return -1;
        if (rc != CURVE_OK) {
            const struct point *first = &pts->items[g->idx[0]];
            (*problems)++;
            if (errf) {
                if (strncmp(err, src_name(first), strlen(src_name(first))) == 0)
                    fprintf(errf, "sizeup: %s\n", err);
                else
                    fprintf(errf, "sizeup: %s:%ld: %s / %s: %s\n", src_name(first),
                            first->source_line, s->config[k], s->opt.mix[w].workload, err);
            }
            continue;
        }
        cv[w] = c;
    }
    return 0;
}

/* How configuration k's points were measured (issue 28.17: a local MariaDB ranked against
 * another engine's published figures with nothing said): the first measured point's words
 * into s->measured[k]. 0, or -1 out of memory. */
static int row_measured_with(struct rank_set *s, size_t k, const struct point_list *pts,
                             const struct curve_groups *groups)
{
    for (size_t w = 0; w < s->opt.n_mix; w++) {
        const struct curve_group *g =
            curve_groups_find(groups, s->config[k], s->opt.mix[w].workload);
        char mw[300];
        for (size_t i = 0; g && i < g->n; i++)
            if (!pts->items[g->idx[i]].predicted &&
                measured_with(&pts->items[g->idx[i]], mw, sizeof mw)[0]) {
                if (!s->measured && !(s->measured = calloc(s->n, sizeof *s->measured)))
                    return -1;
                if (!s->measured[k] && !(s->measured[k] = strdup(mw)))
                    return -1;
                break;
            }
    }
    return 0;
}

int rank_set_build(struct rank_set *s, const struct point_list *pts, const struct cat_catalog *cat,
                   const struct rank_options *opt, const struct rank_map *maps, size_t n_maps,
                   FILE *errf)
{
    const char **keys = NULL; /* configuration id of each point, NULL when it joins none */
    const char **bad = NULL;  /* ids already reported */
    struct usl_workspace *ws = NULL;
    struct curve_groups groups;
    struct curve_spec spec = curve_spec_default();
    size_t *idx = NULL; /* the points of one curve */
    int problems = 0;

    rank_set_init(s);
    memset(&groups, 0, sizeof groups);
    s->opt = *opt;
    s->cat = cat;
    map_disk_notes(cat, maps, n_maps, errf);
    if (s->opt.n_mix == 0 && pick_workload(s, pts, errf) != 0)
        return -1;
    keys = malloc((pts->n + 1) * sizeof *keys);
    bad = malloc((pts->n + 1) * sizeof *bad);
    s->config = malloc((pts->n + 1) * sizeof *s->config);
    ws = usl_workspace_new();
    if (!keys || !bad || !s->config || !ws)
        goto nomem;
    if (join_points(s, pts, cat, maps, n_maps, keys, bad, &problems, errf) != 0)
        goto nomem;
    if (s->n == 0) {
        if (errf)
            fprintf(errf,
                    "sizeup: no point joins a configuration of the catalogs for workload "
                    "%s\n",
                    s->opt.mix[0].workload);
        goto fail;
    }
    if (curve_groups_build(&groups, pts, keys) != CURVE_OK)
        goto nomem;
    s->curves = calloc(s->n * s->opt.n_mix, sizeof *s->curves);
    s->at = calloc(s->n * s->opt.n_mix, sizeof *s->at);
    s->rows = calloc(s->n, sizeof *s->rows);
    s->row_curve = calloc(s->n, sizeof *s->row_curve);
    s->config_set = calloc(s->n, sizeof *s->config_set);
    if (!s->curves || !s->at || !s->rows || !s->row_curve || !s->config_set)
        goto nomem;
    s->n_sets = s->n;
    for (size_t k = 0; k < s->n; k++)
        s->config_set[k] = k;
    if (!(idx = malloc((pts->n + 1) * sizeof *idx)))
        goto nomem;
    spec.x = CURVE_X_AUTO;
    spec.lat_pct = s->opt.slo.pct;
    for (size_t k = 0; k < s->n; k++) {
        const struct cat_config *cf = cat_find_config(cat, s->config[k]);
        const struct curve *cv[RANK_MAX_MIX];
        int any_pred = 0;
        if (row_curves(s, k, pts, &groups, &spec, ws, idx, cv, &any_pred, &problems, errf) != 0)
            goto nomem;
        s->row_curve[k] = k;
        if (row_measured_with(s, k, pts, &groups) != 0)
            goto nomem;
        rank_row_eval(&s->rows[k], s->at + s->config_set[k] * s->opt.n_mix, s->config[k], cf->nodes,
                      cv, &s->opt);
        if (any_pred)
            rank_row_widen_predicted(&s->rows[k], cv, &s->opt);
        rank_set_price_row(s, &s->rows[k], cv);
        if (!isfinite(s->rows[k].cost_per_hour)) {
            struct cat_cost cost;
            struct cat_error cerr;
            problems++;
            if (errf &&
                cat_config_cost(cat, s->config[k], s->opt.pricing, 0, &cost, &cerr) != CAT_OK)
                fprintf(errf, "sizeup: %s: %s\n", s->config[k], cerr.msg);
        }
    }
    for (size_t k = 0; k < s->n; k++)
        s->row_curve[k] = k;
    if (rank_set_sort(s) != 0)
        goto nomem;
    free((void *)keys);
    free((void *)bad);
    free(idx);
    curve_groups_destroy(&groups);
    usl_workspace_free(ws);
    return problems;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
fail:
    free((void *)keys);
    free((void *)bad);
    free(idx);
    curve_groups_destroy(&groups);
    usl_workspace_free(ws);
    rank_set_destroy(s);
    return -1;
}

const struct cat_server *rank_set_row_server(const struct rank_set *s, const struct rank_row *r,
                                             const struct cat_config **cf)
{
    const struct cat_server *sv;
    *cf = cat_find_config(s->cat, r->config);
    sv = *cf && (*cf)->server ? cat_find_server(s->cat, (*cf)->server) : NULL;
    return sv && sv->has_power_curve && isfinite(r->power_load) ? sv : NULL;
}
