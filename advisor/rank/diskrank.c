/* diskrank.c - measured configurations on other disk types and sizes, ranked (diskrank.h). */
#include "diskrank.h"

#include "curve.h"
#include "disk_perf.h"
#include "slo.h"
#include "units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The default sizes, GiB, within a type's range (a cloud console's usual steps). */
static const double ladder[] = {20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000};

int diskrank_spec_parse(const char *arg, struct diskrank_spec *out, char *err, size_t cap)
{
    const char *at = strrchr(arg, '@'), *colon = strchr(arg, ':');
    size_t tlen;
    memset(out, 0, sizeof *out);
    out->latency_ms = NAN;
    if (colon && at && colon > at)
        colon = NULL;
    tlen = colon ? (size_t)(colon - arg) : at ? (size_t)(at - arg) : strlen(arg);
    if (tlen == 0 || tlen >= sizeof out->type) {
        snprintf(err, cap,
                 "'%.80s' is not a disk choice: expected TYPE[:SIZE,...][@LATENCY], a disk type "
                 "of the catalogs, e.g. alibaba-essd-pl1:100,500 or huawei-evs-ssd@1ms",
                 arg);
        return -1;
    }
    memcpy(out->type, arg, tlen);
    out->type[tlen] = '\0';
    if (colon) {
        const char *p = colon + 1, *end = at ? at : colon + 1 + strlen(colon + 1);
        while (p < end) {
            const char *comma = memchr(p, ',', (size_t)(end - p));
            size_t len = comma ? (size_t)(comma - p) : (size_t)(end - p);
            char num[64];
            double v;
            if (out->n_sizes == DISKRANK_MAX_SIZES) {
                snprintf(err, cap, "'%.80s': more than %d sizes", arg, DISKRANK_MAX_SIZES);
                return -1;
            }
            snprintf(num, sizeof num, "%.*s", (int)(len < 63 ? len : 63), p);
            if (len == 0 || len >= sizeof num || strpbrk(num, "xXpP") ||
                units_parse_double(num, 1e-3, 1e9, &v) != 0) {
                snprintf(err, cap, "'%.80s': the size '%s' is not a number of GiB", arg, num);
                return -1;
            }
            out->sizes[out->n_sizes++] = v;
            p += len + (comma != NULL);
            if (comma && p == end) {
                snprintf(err, cap, "'%.80s': a size is missing after ','", arg);
                return -1;
            }
        }
        if (out->n_sizes == 0) {
            snprintf(err, cap, "'%.80s': no size after ':'", arg);
            return -1;
        }
    }
    if (at) {
        double v;
        char e[128];
        if (slo_parse_latency(at + 1, &v, e, sizeof e) != 0 || !(v >= 1e-6) || v > 10) {
            snprintf(err, cap,
                     "'%.80s': the latency '%.40s' is not a latency with its unit from 1 us to "
                     "10 s (e.g. 0.2ms, 150us)",
                     arg, at + 1);
            return -1;
        }
        out->latency_ms = v * 1e3;
    }
    return 0;
}

void diskrank_set_init(struct diskrank_set *ds)
{
    memset(ds, 0, sizeof *ds);
}

void diskrank_set_destroy(struct diskrank_set *ds)
{
    if (!ds)
        return;
    free(ds->models);
    free(ds->vars);
    free(ds->text);
    memset(ds, 0, sizeof *ds);
}

/* Append a line to ds->text. 0, or -1 out of memory. */
static int text_add(struct diskrank_set *ds, const char *fmt, ...)
{
    va_list ap;
    char line[1024];
    size_t old = ds->text ? strlen(ds->text) : 0, n;
    char *t;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    n = strlen(line);
    if (!(t = realloc(ds->text, old + n + 2)))
        return -1;
    memcpy(t + old, line, n);
    t[old + n] = '\n';
    t[old + n + 1] = '\0';
    ds->text = t;
    return 0;
}

/* vCPUs of a configuration's host: its slice's, its server's or its instance's; 0 unknown. */
static unsigned host_vcpus(const struct cat_catalog *cat, const struct cat_config *cf)
{
    const struct cat_server *sv = cf->server ? cat_find_server(cat, cf->server) : NULL;
    const struct cat_instance *in = cf->instance ? cat_find_instance(cat, cf->instance) : NULL;
    if (sv)
        return (unsigned)(cf->slice_vcpu > 0 ? cf->slice_vcpu : sv->vcpu);
    return in && in->vcpu > 0 ? (unsigned)in->vcpu : 0;
}

/* The instance's cap on attached block storage, IOPS; INFINITY when none (or a server). */
static double host_cap(const struct cat_catalog *cat, const struct cat_config *cf)
{
    const struct cat_instance *in = cf->instance ? cat_find_instance(cat, cf->instance) : NULL;
    return in && in->block_max_iops > 0 ? in->block_max_iops : INFINITY;
}

/* IOPS of type d at size gib (with provisioning) on cf's host: the rule, capped by the
 * instance for a network disk. NAN when the rule refuses the size. */
static double disk_iops(const struct cat_catalog *cat, const struct cat_config *cf,
                        const struct cat_disk *d, double gib, double piops, double pmbs)
{
    struct cat_disk_perf perf;
    if (cat_disk_performance(d, gib, piops, pmbs, &perf, NULL, 0) != CAT_OK)
        return NAN;
    return d->local ? perf.iops : fmin(perf.iops, host_cap(cat, cf));
}

/* IOPS of network type d at size gib for model m: disk_iops, and no more than the network disk
 * the host was measured on delivered when it delivered less than its rule (m->net_cap). */
static double model_iops(const struct cat_catalog *cat, const struct cat_config *cf,
                         const struct diskrank_model *m, const struct cat_disk *d, double gib)
{
    double v = disk_iops(cat, cf, d, gib, 0, 0);
    return isnan(v) || d->local ? v : fmin(v, m->net_cap);
}

/* A profile of type d at size gib on cf's host, latency lat (ms). */
static void make_profile(const struct cat_catalog *cat, const struct cat_config *cf,
                         const struct cat_disk *d, double gib, double iops, double lat, int stated,
                         const char *id, struct diskpred_profile *out)
{
    double rule = disk_iops(cat, cf, d, gib, 0, 0);
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", id);
    out->iops = iops;
    out->latency_ms = lat;
    snprintf(out->source, sizeof out->source, "%s at %g GiB: %.0f IOPS%s; %g ms an I/O (%s)", d->id,
             gib, iops,
             !d->local && isfinite(host_cap(cat, cf)) && iops >= host_cap(cat, cf) && !(rule < iops)
                 ? " (the instance's cap)"
                 : "",
             lat,
             stated                   ? "stated"
             : d->latency_ms.estimate ? "the catalog's estimate"
                                      : "the catalog");
}

/* The largest data size the points of configuration id measured, GiB; 0 when none says. */
static double data_gib(const struct point_list *pts, const char *id, const struct rank_map *maps,
                       size_t n_maps)
{
    double mib = 0;
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        if (!p->predicted && strcmp(rank_point_config(p, maps, n_maps), id) == 0 &&
            p->server.v[PSRV_DATA_MIB] > mib)
            mib = p->server.v[PSRV_DATA_MIB];
    }
    return mib / 1024;
}

/* Smallest size in [d->min_gib, d->max_gib] whose IOPS on cf's host reach need (bisection on
 * the nondecreasing rule); NAN when even the largest does not. */
static double size_for(const struct cat_catalog *cat, const struct cat_config *cf,
                       const struct diskrank_model *m, const struct cat_disk *d, double need)
{
    double lo = d->min_gib, hi = d->max_gib;
    if (!(model_iops(cat, cf, m, d, hi) >= need))
        return NAN;
    if (model_iops(cat, cf, m, d, lo) >= need)
        return lo;
    for (int k = 0; k < 80 && hi - lo > 1e-3; k++) {
        double mid = (lo + hi) / 2;
        if (model_iops(cat, cf, m, d, mid) >= need)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* The target of the first measured point of configuration id and workload w (NULL: any). */
static const char *target_of(const struct point_list *pts, const char *id, const char *w,
                             const struct rank_map *maps, size_t n_maps)
{
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        if (!p->predicted && (!w || strcmp(p->workload, w) == 0) &&
            strcmp(rank_point_config(p, maps, n_maps), id) == 0)
            return p->target;
    }
    return NULL;
}

/* Ratio of the measured levels' statistic pct to their mean latency, at each of the model's
 * levels (NAN where not measured), from the points of target and workload. */
static void pct_ratios(const struct point_list *pts, const struct diskpred_base *b, double pct,
                       double *ratio)
{
    struct curve_groups g;
    const char **keys = malloc(sizeof *keys * (pts->n ? pts->n : 1));
    for (size_t i = 0; i < b->n_levels; i++)
        ratio[i] = NAN;
    if (!keys)
        return;
    for (size_t i = 0; i < pts->n; i++)
        keys[i] = pts->items[i].predicted ? NULL : pts->items[i].target;
    if (curve_groups_build(&g, pts, keys) == CURVE_OK) {
        const struct curve_group *grp = curve_groups_find(&g, b->target, b->workload);
        struct curve_level *a = grp ? malloc(sizeof *a * grp->n) : NULL;
        struct curve_level *q = grp ? malloc(sizeof *q * grp->n) : NULL;
        struct curve_spec sa = curve_spec_default(), sq;
        size_t na = 0, nq = 0;
        char err[256];
        sa.x = CURVE_X_THREADS;
        sa.lat_pct = 0;
        sq = sa;
        sq.lat_pct = pct;
        if (a && q &&
            curve_levels_points(pts, grp->idx, grp->n, &sa, a, &na, err, sizeof err) == CURVE_OK &&
            curve_levels_points(pts, grp->idx, grp->n, &sq, q, &nq, err, sizeof err) == CURVE_OK &&
            na == nq)
            for (size_t i = 0; i < b->n_levels; i++)
                for (size_t j = 0; j < na; j++)
                    if (a[j].n == b->levels[i] && a[j].lat_s > 0 && q[j].lat_s > 0)
                        ratio[i] = q[j].lat_s / a[j].lat_s;
        free(a);
        free(q);
        curve_groups_destroy(&g);
    }
    free(keys);
}

/* Append the predicted points of variant v (model m: one workload) to pts. 0, -1 no memory,
 * 1 the model refused (said on errf). */
static int add_points(struct point_list *pts, const struct diskrank_variant *v,
                      const struct diskrank_model *m, double pct, const char *file, FILE *errf)
{
    const struct diskpred_base *b = &m->b;
    struct diskpred_level lv[DISKPRED_MAX_LEVELS], lo[DISKPRED_MAX_LEVELS], hi[DISKPRED_MAX_LEVELS];
    struct diskpred_profile dlo = v->d, dhi = v->d;
    double ratio[DISKPRED_MAX_LEVELS];
    char err[256];
    dlo.latency_ms = v->lat_lo_ms;
    dhi.latency_ms = v->lat_hi_ms;
    if (diskpred_curve(b, &v->d, b->levels, b->n_levels, lv, err, sizeof err) != 0 ||
        diskpred_curve(b, &dlo, b->levels, b->n_levels, lo, err, sizeof err) != 0 ||
        diskpred_curve(b, &dhi, b->levels, b->n_levels, hi, err, sizeof err) != 0) {
        if (errf)
            fprintf(errf, "sizeup: --disks: %s / %s: %s\n", v->config, b->workload, err);
        return 1;
    }
    if (pct > 0)
        pct_ratios(pts, b, pct, ratio);
    for (size_t i = 0; i < b->n_levels; i++) {
        struct point *p = point_list_push(pts);
        double x = lv[i].tps, low, high;
        if (!p || diskpred_fill_point(b, &v->d, &lv[i], p) != POINT_OK ||
            point_set_str(&p->config, v->config) || (file && point_set_str(&p->source_file, file)))
            return -1;
        /* the validation's error at the value and at both ends of the latency's range */
        low = fmin(x, fmin(lo[i].tps, hi[i].tps)) * (1 - DISKPRED_REL95);
        high = fmax(x, fmax(lo[i].tps, hi[i].tps)) * (1 + DISKPRED_REL95);
        p->ci95_tps = fmax(x - low, high - x);
        if (pct > 0 && ratio[i] > 0 &&
            point_set_percentile(p, pct, ratio[i] * lv[i].latency_ms) != POINT_OK)
            return -1;
    }
    return 0;
}

/* Grow an array of n elements by one (doubling). NULL out of memory. */
static void *grow(void *arr, size_t n, size_t size)
{
    char *p = arr;
    if (n == 0 || (n & (n - 1)) == 0) {
        p = realloc(arr, (n ? 2 * n : 1) * size);
        if (!p)
            return NULL;
    }
    memset(p + n * size, 0, size);
    return p;
}

/* Configurations with measured points for the mix, each once (ids borrowed from pts/maps). */
static size_t measured_configs(const struct point_list *pts, const struct rank_map *maps,
                               size_t n_maps, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; i < pts->n; i++) {
        const char *id =
            pts->items[i].predicted ? NULL : rank_point_config(&pts->items[i], maps, n_maps);
        size_t k;
        if (!id)
            continue;
        for (k = 0; k < n && strcmp(out[k], id) != 0; k++)
            ;
        if (k == n)
            out[n++] = id;
    }
    return n;
}

/* 1 when a catalog configuration on cf's host with disk d at gib has measured points of its
 * own (it is ranked on them; said on errf). */
static int measured_twin(const struct cat_catalog *cat, const struct point_list *pts,
                         const struct rank_map *maps, size_t n_maps, const struct cat_config *cf,
                         const struct cat_disk *d, double gib, FILE *errf)
{
    for (size_t i = 0; i < cat->n_configs; i++) {
        const struct cat_config *c = &cat->configs[i];
        if (c == cf || !c->disk || strcmp(c->disk, d->id) != 0 || c->size_gib != gib ||
            c->provisioned_iops != 0 || c->nodes != cf->nodes || c->slice_vcpu != cf->slice_vcpu ||
            !((c->instance && cf->instance && strcmp(c->instance, cf->instance) == 0) ||
              (c->server && cf->server && strcmp(c->server, cf->server) == 0)))
            continue;
        for (size_t k = 0; k < pts->n; k++)
            if (!pts->items[k].predicted &&
                strcmp(rank_point_config(&pts->items[k], maps, n_maps), c->id) == 0) {
                if (errf)
                    fprintf(errf,
                            "sizeup: --disks %s:%g for %s: that is %s, which was measured: "
                            "ranked on its own points\n",
                            d->id, gib, cf->id, c->id);
                return 1;
            }
    }
    return 0;
}

/* The knee of model m (the first workload's) on type d: a line of ds->text. */
static int knee_text(struct diskrank_set *ds, const struct cat_catalog *cat,
                     const struct cat_config *cf, const struct diskrank_model *m,
                     const struct cat_disk *d)
{
    const struct diskpred_base *b = &m->b;
    double xcpu = b->vcpus / b->cpu_s, need = b->ios * xcpu,
           top = model_iops(cat, cf, m, d, d->max_gib);
    double s = size_for(cat, cf, m, d, need);
    if (!(b->ios > 0))
        return text_add(ds,
                        "  %s on %s (%s): no I/Os per transaction measured: the disk does "
                        "not bind at any size; the %u vCPUs do at %.0f tps",
                        d->id, m->config, b->workload, b->vcpus, xcpu);
    if (isfinite(s))
        return text_add(ds,
                        "  %s on %s (%s): disk-bound below %.0f GiB,\n    where it reaches "
                        "%.0f IOPS = %.3g I/Os x %.0f tps; from there the %u vCPUs bind: more "
                        "size\n    buys nothing",
                        d->id, m->config, b->workload, ceil(s - 0.01), need, b->ios, xcpu,
                        b->vcpus);
    s = size_for(cat, cf, m, d, top * (1 - 1e-9));
    return text_add(ds,
                    "  %s on %s (%s): disk-bound at every size:\n    at most %.0f IOPS / "
                    "%.3g I/Os = %.0f tps (the %u vCPUs could do %.0f), reached at\n    %.0f "
                    "GiB: more size buys nothing",
                    d->id, m->config, b->workload, top, b->ios, top / b->ios, b->vcpus, xcpu,
                    ceil(s - 0.01));
}

/* What one diskrank_expand works on and with: its arguments. */
struct expand {
    struct diskrank_set *ds;
    struct point_list *pts;
    struct cat_catalog *cat;
    const struct rank_options *opt;
    const struct rank_map *maps;
    size_t n_maps;
    const char *file; /* the points' source file, copied */
    FILE *errf;
    long added; /* the variants added */
};

/* One measured configuration being modelled on other disks: its id, the disk it was measured
 * on, its first model in ds->models (one per workload) and the GiB of data it measured. */
struct expand_base {
    char id[128];
    const struct cat_disk *d0;
    size_t first_model;
    double gib_data;
};

/* The profile of the disk cf was measured on (its catalog disk at its size, by its rule) into
 * probed, with the host's vCPUs and that disk: 0, or 1 when cf cannot be modelled (said on
 * errf). */
static int base_profile(const struct expand *e, const struct cat_config *cf, const char *base_id,
                        unsigned *vcpus, const struct cat_disk **d0,
                        struct diskpred_profile *probed)
{
    FILE *errf = e->errf;
    double iops0;
    if (!(*vcpus = host_vcpus(e->cat, cf))) {
        if (errf)
            fprintf(errf,
                    "sizeup: --disks: %s: its host has no vcpu in the catalogs: its "
                    "curve cannot be modelled on other disks\n",
                    base_id);
        return 1;
    }
    if (!cf->disk || !(*d0 = cat_find_disk(e->cat, cf->disk))) {
        if (errf)
            fprintf(errf,
                    "sizeup: --disks: %s has no disk in the catalogs: what it was measured "
                    "on is not known, so no other disk is predicted from it\n",
                    base_id);
        return 1;
    }
    if (!(*d0)->latency_ms.present) {
        if (errf)
            fprintf(errf,
                    "sizeup: --disks: %s was measured on %s, which has no latency_ms in the "
                    "catalogs: add it (docs/catalog-format.md) to model other disks from "
                    "it\n",
                    base_id, (*d0)->id);
        return 1;
    }
    iops0 = disk_iops(e->cat, cf, *d0, cf->size_gib, cf->provisioned_iops,
                      cf->provisioned_throughput_mb_s);
    if (!(iops0 > 0)) {
        if (errf)
            fprintf(errf, "sizeup: --disks: %s: its disk %s at %g GiB has no IOPS by its rule\n",
                    base_id, (*d0)->id, cf->size_gib);
        return 1;
    }
    make_profile(e->cat, cf, *d0, cf->size_gib, iops0, (*d0)->latency_ms.amount, 0, base_id,
                 probed);
    return 0;
}

/* The models of base b on the probed disk, one per workload of the mix, onto ds->models. 0; 1
 * not modelled (said on errf; the caller drops the models added); -1 out of memory. */
static int base_models(struct expand *e, const struct expand_base *b, unsigned vcpus,
                       const struct diskpred_profile *probed)
{
    struct diskrank_set *ds = e->ds;
    const struct rank_options *opt = e->opt;
    FILE *errf = e->errf;
    char err[512];
    for (size_t w = 0; w < ds->n_mix; w++) {
        const char *wl = opt->n_mix ? opt->mix[w].workload : NULL;
        const char *tg = target_of(e->pts, b->id, wl, e->maps, e->n_maps);
        struct diskrank_model *m;
        if (!tg)
            return 1;
        if (!(ds->models = grow(ds->models, ds->n_models, sizeof *ds->models)))
            return -1;
        m = &ds->models[ds->n_models];
        snprintf(m->config, sizeof m->config, "%s", b->id);
        if (diskpred_base_build(e->pts, tg, wl, vcpus, probed, &m->b, err, sizeof err) != 0) {
            if (errf)
                fprintf(errf, "sizeup: --disks: %s: not modelled: %s\n", b->id, err);
            return 1;
        }
        snprintf(m->workload, sizeof m->workload, "%s", m->b.workload);
        m->net_cap = INFINITY;
        if (m->b.probed.iops < 0.98 * m->b.probed_iops_rule) {
            /* a network disk's shortfall caps every network disk of this host */
            if (!b->d0->local)
                m->net_cap = m->b.probed.iops;
            if (errf)
                fprintf(errf,
                        "sizeup: --disks: %s / %s: its %s delivered about %.0f IOPS where "
                        "the rule gives %.0f (the host's CPU was %.0f %% busy at its best "
                        "level): %s\n",
                        b->id, m->workload, b->d0->id, m->b.probed.iops, m->b.probed_iops_rule,
                        100 * m->b.cpu_s * m->b.at_tps / m->b.vcpus,
                        b->d0->local ? "modelled at what it delivered"
                                     : "taken as this host's limit for every network disk");
        }
        if (!opt->n_mix)
            snprintf(ds->workloads[0], sizeof ds->workloads[0], "%s", m->b.workload);
        ds->n_models++;
    }
    return 0;
}

/* 1 when disk type d can carry base b (its host cf): a local disk the host has, or a network
 * disk of the instance's provider with a price, giving IOPS without provisioning; else 0 (why
 * said on errf). */
static int disk_fits(const struct expand *e, const struct expand_base *b,
                     const struct cat_config *cf, const struct cat_disk *d)
{
    const struct cat_catalog *cat = e->cat;
    FILE *errf = e->errf;
    if (d->local ? !((cf->instance && cat_find_instance(cat, cf->instance)->local_disk &&
                      strcmp(cat_find_instance(cat, cf->instance)->local_disk, d->id) == 0) ||
                     (cf->server && cat_find_server(cat, cf->server)->local_disk &&
                      strcmp(cat_find_server(cat, cf->server)->local_disk, d->id) == 0))
                 : cf->server != NULL) {
        if (errf)
            fprintf(errf, "sizeup: --disks %s: not for %s (%s)\n", d->id, b->id,
                    d->local ? "a local disk its host does not have"
                             : "a network disk on an on-premises server");
        return 0;
    }
    if (!(model_iops(cat, cf, &e->ds->models[b->first_model], d, d->max_gib) > 0)) {
        if (errf)
            fprintf(errf,
                    "sizeup: --disks %s: it gives no IOPS without provisioned IOPS "
                    "(provisioning is not a --disks choice): not modelled\n",
                    d->id);
        return 0;
    }
    if (!d->local && d->provider && cf->instance &&
        cat_find_instance(cat, cf->instance)->provider &&
        strcmp(d->provider, cat_find_instance(cat, cf->instance)->provider) != 0) {
        if (errf)
            fprintf(errf, "sizeup: --disks %s: not for %s (a %s disk on a %s instance)\n", d->id,
                    b->id, d->provider, cat_find_instance(cat, cf->instance)->provider);
        return 0;
    }
    if (!d->local && !d->per_gib_month.present) {
        if (errf)
            fprintf(errf,
                    "sizeup: --disks %s: it has no price in the catalogs (performance "
                    "only): not ranked\n",
                    d->id);
        return 0;
    }
    return 1;
}

/* The sizes of d to model base b at (sizes: room for DISKRANK_MAX_SIZES + 16), how many: the
 * spec's, else the ladder, the knee rounded up to 10 GiB and the measured size on its type. */
static size_t disk_sizes(const struct expand *e, const struct expand_base *b,
                         const struct cat_config *cf, const struct diskrank_spec *sp,
                         const struct cat_disk *d, double *sizes)
{
    const struct cat_catalog *cat = e->cat;
    size_t ns = 0;
    if (sp->n_sizes) {
        for (size_t i = 0; i < sp->n_sizes; i++)
            sizes[ns++] = sp->sizes[i];
    } else {
        /* up to where more size buys nothing: the knee, or where the rule (or the
         * host) caps the IOPS; past it every size costs more for the same */
        const struct diskrank_model *m0 = &e->ds->models[b->first_model];
        double knee = size_for(cat, cf, m0, d, m0->b.ios * m0->b.vcpus / m0->b.cpu_s);
        if (!isfinite(knee))
            knee = size_for(cat, cf, m0, d, model_iops(cat, cf, m0, d, d->max_gib) * (1 - 1e-9));
        for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++)
            if (ladder[i] >= d->min_gib && ladder[i] <= d->max_gib &&
                !(isfinite(knee) && ladder[i] > knee))
                sizes[ns++] = ladder[i];
        if (isfinite(knee) && ceil((knee - 0.01) / 10) * 10 <= d->max_gib)
            sizes[ns++] = fmax(ceil((knee - 0.01) / 10) * 10, d->min_gib);
        if (strcmp(d->id, b->d0->id) == 0)
            sizes[ns++] = cf->size_gib;
    }
    return ns;
}

/* The variant of base b on d at gib GiB (latency lat ms, stated in sp or the type's): its
 * derived catalog configuration (*cfp: base b's configuration, found again when the catalog's
 * array moves) and its predicted points. 1 added; 0 not (said on errf); -1 out of memory. */
static int add_variant(struct expand *e, const struct expand_base *b, const struct cat_config **cfp,
                       const struct diskrank_spec *sp, const struct cat_disk *d, double gib,
                       double lat)
{
    struct diskrank_set *ds = e->ds;
    struct cat_catalog *cat = e->cat;
    struct diskrank_variant *v;
    struct cat_error ce;
    double iops;
    if (!(ds->vars = grow(ds->vars, ds->n_vars, sizeof *ds->vars)))
        return -1;
    v = &ds->vars[ds->n_vars];
    snprintf(v->config, sizeof v->config, "%s@%s:%g", b->id, d->id, gib);
    snprintf(v->base, sizeof v->base, "%s", b->id);
    {
        char descr[400];
        int rc;
        snprintf(descr, sizeof descr, "%s with %s at %g GiB (predicted by sizeup rank --disks)",
                 b->id, d->id, gib);
        rc = cat_config_derive(cat, b->id, v->config, d->id, gib, descr, &ce);
        if (rc == CAT_ENOMEM)
            return -1;
        if (rc != CAT_OK) {
            if (e->errf)
                fprintf(e->errf, "sizeup: --disks %s:%g for %s: %s\n", d->id, gib, b->id, ce.msg);
            return 0;
        }
    }
    *cfp = cat_find_config(cat, b->id);
    iops = model_iops(cat, *cfp, &ds->models[b->first_model], d, gib);
    make_profile(cat, *cfp, d, gib, iops, lat, !isnan(sp->latency_ms), v->config, &v->d);
    v->lat_lo_ms = v->lat_hi_ms = lat;
    if (isnan(sp->latency_ms) && d->latency_ms.has_range) {
        v->lat_lo_ms = d->latency_ms.low;
        v->lat_hi_ms = d->latency_ms.high;
    }
    for (size_t w = 0; w < ds->n_mix; w++)
        v->model[w] = b->first_model + w;
    for (size_t w = 0; w < ds->n_mix; w++) {
        int rc = add_points(e->pts, v, &ds->models[b->first_model + w], e->opt->slo.pct, e->file,
                            e->errf);
        if (rc < 0)
            return -1;
        if (rc)
            return 0; /* its configuration stays, without points: not ranked */
    }
    ds->n_vars++;
    e->added++;
    return 1;
}

/* Base b on the disk type of spec sp at each of its sizes (none below the data measured, none
 * the base itself or a measured twin), then the type's knee in ds->text. 0, or -1 out of
 * memory. */
static int spec_variants(struct expand *e, const struct expand_base *b,
                         const struct diskrank_spec *sp)
{
    struct cat_catalog *cat = e->cat;
    FILE *errf = e->errf;
    const struct cat_disk *d = cat_find_disk(cat, sp->type);
    const struct cat_config *cf = cat_find_config(cat, b->id); /* the array may have moved */
    double sizes[DISKRANK_MAX_SIZES + 16], lat;
    size_t ns, skipped_small = 0;
    if (!d) {
        if (errf)
            fprintf(errf, "sizeup: --disks: no disk type '%s' in the catalogs\n", sp->type);
        return 0;
    }
    if (!isnan(sp->latency_ms))
        lat = sp->latency_ms;
    else if (d->latency_ms.present)
        lat = d->latency_ms.amount;
    else {
        if (errf)
            fprintf(errf,
                    "sizeup: --disks %s: the catalogs give no latency_ms for it: state "
                    "one (--disks %s@0.5ms, a published figure or a sizeup disk "
                    "result); sizeup does not make one up\n",
                    sp->type, sp->type);
        return 0;
    }
    if (!disk_fits(e, b, cf, d))
        return 0;
    ns = disk_sizes(e, b, cf, sp, d, sizes);
    for (size_t i = 0; i < ns; i++) {
        double gib = sizes[i];
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= sizes[j] == gib;
        if (dup ||
            (strcmp(d->id, b->d0->id) == 0 && gib == cf->size_gib && cf->provisioned_iops == 0))
            continue; /* measured itself */
        if (gib < b->gib_data) {
            skipped_small++;
            continue;
        }
        if (measured_twin(cat, e->pts, e->maps, e->n_maps, cf, d, gib, errf))
            continue;
        if (add_variant(e, b, &cf, sp, d, gib, lat) < 0)
            return -1;
    }
    if (skipped_small && errf)
        fprintf(errf,
                "sizeup: --disks %s: %zu size%s below the %.1f GiB of data %s measured "
                "left out\n",
                d->id, skipped_small, skipped_small == 1 ? "" : "s", b->gib_data, b->id);
    return knee_text(e->ds, cat, cf, &e->ds->models[b->first_model], d) != 0 ? -1 : 0;
}

long diskrank_expand(struct diskrank_set *ds, struct point_list *pts, struct cat_catalog *cat,
                     const struct rank_options *opt, const struct rank_map *maps, size_t n_maps,
                     const struct diskrank_spec *specs, size_t n_specs, const char *const *only,
                     size_t n_only, FILE *errf)
{
    const char **ids = malloc(sizeof *ids * (pts->n ? pts->n : 1));
    const char *file = pts->n ? pts->items[0].source_file : NULL;
    char *file_copy = file ? strdup(file) : NULL;
    struct expand e = {ds, pts, cat, opt, maps, n_maps, file_copy, errf, 0};
    size_t n_ids;
    if (!ids || (file && !file_copy))
        goto nomem;
    ds->n_mix = opt->n_mix ? opt->n_mix : 1;
    for (size_t w = 0; w < opt->n_mix; w++)
        snprintf(ds->workloads[w], sizeof ds->workloads[w], "%s", opt->mix[w].workload);
    n_ids = measured_configs(pts, maps, n_maps, ids);
    for (size_t k = 0; k < n_ids; k++) {
        const struct cat_config *cf = cat_find_config(cat, ids[k]);
        struct expand_base b;
        struct diskpred_profile probed;
        unsigned vcpus;
        int rc;
        size_t o;
        if (!cf)
            continue; /* the ranking says it joins nothing */
        for (o = 0; o < n_only && strcmp(only[o], cf->id) != 0; o++)
            ;
        if (n_only && o == n_only)
            continue;
        snprintf(b.id, sizeof b.id, "%s", cf->id);
        b.first_model = ds->n_models;
        if (base_profile(&e, cf, b.id, &vcpus, &b.d0, &probed) != 0)
            continue;
        if ((rc = base_models(&e, &b, vcpus, &probed)) < 0)
            goto nomem;
        if (rc) {
            ds->n_models = b.first_model;
            continue;
        }
        b.gib_data = data_gib(pts, b.id, maps, n_maps);
        for (size_t t = 0; t < n_specs; t++)
            if (spec_variants(&e, &b, &specs[t]) != 0)
                goto nomem;
    }
    free(ids);
    free(file_copy);
    return e.added;
nomem:
    if (errf)
        fprintf(errf, "sizeup: out of memory\n");
    free(ids);
    free(file_copy);
    return -1;
}

int diskrank_annotate(const struct diskrank_set *ds, struct rank_set *s)
{
    if (!ds->n_vars && !ds->text)
        return 0;
    if (ds->n_vars && !s->note && !(s->note = calloc(s->n ? s->n : 1, sizeof *s->note)))
        return -1;
    for (size_t k = 0; k < s->n && ds->n_vars; k++) {
        const struct diskrank_variant *v = NULL;
        const struct rank_row *r = NULL;
        const struct diskrank_model *m;
        struct diskpred_level lv;
        char line[600], ceil_txt[200], err[200];
        double n;
        for (size_t j = 0; j < ds->n_vars && !v; j++)
            if (strcmp(ds->vars[j].config, s->config[k]) == 0)
                v = &ds->vars[j];
        for (size_t i = 0; i < s->n && !r; i++)
            if (s->row_curve[i] == k)
                r = &s->rows[i];
        if (!v || !r)
            continue;
        m = &ds->models[v->model[r->basis_from < ds->n_mix ? r->basis_from : 0]];
        n = r->status == RANK_MET && r->at[r->basis_from].c.n >= 1 ? r->at[r->basis_from].c.n
                                                                   : m->b.at_threads;
        n = fmin(fmax(round(n), 1), DISKPRED_MAX_THREADS);
        diskpred_ceiling_text(&m->b, &v->d, ceil_txt, sizeof ceil_txt);
        if (diskpred_curve(&m->b, &v->d, &n, 1, &lv, err, sizeof err) != 0)
            snprintf(line, sizeof line, "%s; %s", v->d.source, ceil_txt);
        else if (lv.binds == DISKPRED_NONE)
            snprintf(line, sizeof line,
                     "%s; at %.0f threads nothing binds (%.0f %% busy; time: disk %.0f %%, CPU "
                     "%.0f %%); %s",
                     v->d.source, n, 100 * lv.util, 100 * lv.disk_share, 100 * lv.cpu_share,
                     ceil_txt);
        else
            snprintf(line, sizeof line, "%s; %s-bound at %.0f threads (%.0f %% busy); %s",
                     v->d.source, diskpred_binds_name(lv.binds), n, 100 * lv.util, ceil_txt);
        free(s->note[k]);
        if (!(s->note[k] = strdup(line)))
            return -1;
    }
    if (ds->text) {
        const char *head = "disks (rank --disks: mean-value analysis of the CPU and the disk, "
                           "docs/predict.md):\n";
        size_t old = s->trailer ? strlen(s->trailer) : 0;
        char *t = realloc(s->trailer, old + strlen(head) + strlen(ds->text) + 1);
        if (!t)
            return -1;
        if (!old)
            t[0] = '\0';
        strcat(t, head);
        strcat(t, ds->text);
        s->trailer = t;
    }
    return 0;
}
