/* passes.c - a curve measured in passes (see passes.h). */
#include "passes.h"

#include "curve.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Batch-means degrees of freedom when a replicate does not say (probes/calib.h: 20 batches). */
#define DEFAULT_SE_DF 19.0

/* Earlier replicates' group keys k become HIST_KEY_BASE (1 + k): above every thread count, and
 * apart from each other by more than noise.h's 1e-9 relative (passes.h). */
#define HIST_KEY_BASE 1e10

struct passes_opts passes_opts_default(void)
{
    struct passes_opts o;
    memset(&o, 0, sizeof o);
    o.precision = 0.02;
    o.max_reps = 5;
    o.budget_s = 0;
    o.min_time_s = 5;
    o.max_time_s = 60;
    o.first_max_s = 10;
    o.slo.pct = 0;
    o.slo.target_s = 0;
    o.all_decide = 0;
    o.seed = 1;
    return o;
}

int passes_init(struct passes *p, const struct passes_opts *o)
{
    memset(p, 0, sizeof *p);
    if (!o || !(o->precision > 0 && o->precision < 1) || o->max_reps == 0 ||
        o->max_reps > PASSES_MAX_REPS || !(o->min_time_s >= 0) ||
        !(o->max_time_s > o->min_time_s) || !(o->first_max_s > 0) || !(o->budget_s >= 0))
        return -1;
    p->o = *o;
    p->o.history = NULL;
    p->o.n_history = 0;
    if (o->n_history > 0 && o->history) {
        p->hist = malloc(o->n_history * sizeof *p->hist);
        if (!p->hist)
            return -1;
        for (size_t i = 0; i < o->n_history; i++) {
            const struct noise_obs *h = &o->history[i];
            if (!(isfinite(h->n) && h->n > 0 && isfinite(h->x) && h->x > 0) || h->se < 0)
                continue; /* not a measurement: left out */
            p->hist[p->n_hist] = *h;
            p->hist[p->n_hist++].n = HIST_KEY_BASE * (1 + h->n);
        }
        {
            struct noise_pool hp;
            if (noise_pool(p->hist, p->n_hist, &hp) == NOISE_OK)
                p->hist_levels = hp.levels;
        }
    }
    p->floor.nu = 0;
    p->pass = 1;
    p->rep_s = fmin(o->first_max_s, o->max_time_s);
    p->attainable = NAN;
    p->target = o->precision;
    p->pool.nu = 0;
    p->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)o->seed;
    snprintf(p->why, sizeof p->why, "pass 1");
    return 0;
}

void passes_destroy(struct passes *p)
{
    if (!p)
        return;
    free(p->rep);
    free(p->hist);
    memset(p, 0, sizeof *p);
}

static void update_pool(struct passes *p);

int passes_add(struct passes *p, const struct passes_rep *r)
{
    if (!r || r->threads == 0)
        return -1;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 32;
        struct passes_rep *n = realloc(p->rep, cap * sizeof *n);
        if (!n)
            return -1;
        p->rep = n;
        p->cap = cap;
    }
    p->rep[p->n] = *r;
    if (p->rep[p->n].pass == 0)
        p->rep[p->n].pass = p->pass;
    if (p->rep[p->n].counts && !(p->rep[p->n].tps > 0 && isfinite(p->rep[p->n].tps)))
        p->rep[p->n].counts = 0;
    if (isfinite(r->cost_s) && r->cost_s > 0)
        p->spent_s += r->cost_s;
    p->n++;
    if (p->rep[p->n - 1].counts)
        update_pool(p); /* the pools say what is measured, also when no further pass runs */
    return 0;
}

double passes_first_max_s(const struct passes *p)
{
    return p->rep_s;
}

int passes_out_of_time(const struct passes *p)
{
    return p->o.budget_s > 0 && p->spent_s >= p->o.budget_s;
}

void passes_msg_seen(struct passes *p)
{
    p->msg_new = 0;
}

static double rep_df(const struct passes_rep *r)
{
    return r->se_df > 0 ? r->se_df : DEFAULT_SE_DF;
}

static struct noise_obs rep_obs(const struct passes_rep *r)
{
    struct noise_obs o;
    o.n = r->threads;
    o.x = r->tps;
    o.se_df = rep_df(r);
    o.se = isfinite(r->ci95_tps) && r->ci95_tps >= 0
               ? r->ci95_tps / gsl_cdf_tdist_Pinv(0.975, o.se_df)
               : NAN;
    return o;
}

size_t passes_reps_at(const struct passes *p, unsigned threads)
{
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        k += p->rep[i].counts && p->rep[i].threads == threads;
    return k;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

size_t passes_levels(const struct passes *p, unsigned *threads, size_t cap)
{
    unsigned s[LADDER_MAX_LEVELS * 4];
    size_t m = 0, out = 0;
    for (size_t i = 0; i < p->n; i++) {
        int seen = 0;
        if (!p->rep[i].counts)
            continue;
        for (size_t j = 0; j < m && !seen; j++)
            seen = s[j] == p->rep[i].threads;
        if (!seen && m < sizeof s / sizeof s[0])
            s[m++] = p->rep[i].threads;
    }
    qsort(s, m, sizeof s[0], cmp_unsigned);
    for (size_t j = 0; j < m && out < cap; j++)
        threads[out++] = s[j];
    return m;
}

/* The noise pooled over the earlier replicates (with_history: p->hist, the server's floor) and
 * every counting replicate. 0, or -1 out of memory; pool->nu 0 when nothing pools, and for the
 * floor when there is nothing earlier (the curve's own pool is the floor then). */
static int noise_of(const struct passes *p, int with_history, struct noise_pool *pool)
{
    size_t nh = with_history ? p->n_hist : 0, m = 0;
    struct noise_obs *o;
    pool->nu = 0;
    if (with_history && nh == 0)
        return 0;
    if (!(o = malloc((p->n + nh + 1) * sizeof *o)))
        return -1;
    for (size_t i = 0; i < nh; i++)
        o[m++] = p->hist[i];
    for (size_t i = 0; i < p->n; i++)
        if (p->rep[i].counts)
            o[m++] = rep_obs(&p->rep[i]);
    if (noise_pool(o, m, pool) != NOISE_OK)
        pool->nu = 0;
    free(o);
    return 0;
}

static int pool_of(const struct passes *p, struct noise_pool *pool)
{
    return noise_of(p, 0, pool);
}

static int floor_of(const struct passes *p, struct noise_pool *floor)
{
    return noise_of(p, 1, floor);
}

static void update_pool(struct passes *p)
{
    pool_of(p, &p->pool);
    floor_of(p, &p->floor);
}

int passes_level(const struct passes *p, unsigned threads, struct noise_level *out)
{
    struct noise_obs *o = malloc((p->n + 1) * sizeof *o);
    struct noise_pool pool, floor;
    size_t r = 0;
    int rc;
    if (!o || pool_of(p, &pool) != 0 || floor_of(p, &floor) != 0) {
        free(o);
        return -1;
    }
    for (size_t i = 0; i < p->n; i++)
        if (p->rep[i].counts && p->rep[i].threads == threads)
            o[r++] = rep_obs(&p->rep[i]);
    rc = r > 0 && noise_level_floor(&pool, &floor, o, r, out) == NOISE_OK ? 0 : -1;
    free(o);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Medians over the counting replicates: k (within-run relative variance x kept time, s), the
 * cost beyond the kept time o (s) and, when w2 is not NULL, a replicate's within-run relative
 * variance (se / tps)^2. */
static void costs(const struct passes *p, double *k, double *o, double *w2)
{
    double *a = malloc(3 * (p->n + 1) * sizeof *a), *b, *c;
    size_t na = 0, nb = 0, nc = 0;
    *k = *o = NAN;
    if (w2)
        *w2 = NAN;
    if (!a)
        return;
    b = a + p->n + 1;
    c = b + p->n + 1;
    for (size_t i = 0; i < p->n; i++) {
        const struct passes_rep *r = &p->rep[i];
        struct noise_obs q;
        if (!r->counts)
            continue;
        q = rep_obs(r);
        if (isfinite(q.se) && r->kept_s > 0) {
            a[na++] = (q.se / r->tps) * (q.se / r->tps) * r->kept_s;
            c[nc++] = (q.se / r->tps) * (q.se / r->tps);
        }
        if (isfinite(r->cost_s) && r->cost_s > 0 && r->kept_s >= 0)
            b[nb++] = fmax(0, r->cost_s - r->kept_s);
    }
    *k = median(a, na);
    *o = median(b, nb);
    if (w2)
        *w2 = median(c, nc);
    free(a);
}

/* The replicate length limit from the noise (passes.h), and the best attainable precision. */
static void plan_length(struct passes *p, double *omega2_rep)
{
    double k, o, w2, sigma_b, cap, t;
    /* the server's floor when it knows more than the curve's own replicates */
    const struct noise_pool *q = p->floor.nu > p->pool.nu ? &p->floor : &p->pool;
    costs(p, &k, &o, &w2);
    *omega2_rep = NAN;
    if (q->nu == 0) {
        /* no level has 2 replicates yet: the between-run part is unknown. Take it at a
         * replicate's own within-run CV, the least one that 2 replicates of that length could
         * tell apart from none (sigma_b^2 = s^2 - w^2, passes.h); T* = sqrt(k o / w^2), the
         * geometric mean of the kept time and the cost beyond it, at most first-pass length.
         * The next pool corrects it. */
        sigma_b = w2 > 0 ? sqrt(w2) : NAN;
        cap = p->o.first_max_s;
    } else {
        sigma_b = q->between_cv;
        cap = p->o.max_time_s;
    }
    t = isfinite(k) && isfinite(o) ? noise_replicate_s(k, o, sigma_b) : NAN;
    if (!isfinite(t)) /* no between part shown (or unknown): not shown absent either with this
                       * few df, so first-pass length, not one run to --max-time (which a
                       * level's budget may not even hold) */
        t = p->o.first_max_s;
    if (t > cap)
        t = cap;
    if (t < p->o.min_time_s)
        t = p->o.min_time_s;
    p->rep_s = fmin(t, p->o.max_time_s);
    if (!(p->rep_s > 0)) /* T* 0 (no cost beyond the kept time) with --min-time 0: a limit of 0
                          * would be none at all */
        p->rep_s = fmin(p->o.first_max_s, p->o.max_time_s);
    if (isfinite(k))
        *omega2_rep = k / p->rep_s;
}

/* Add threads to the deciding set (once). */
static void decide_add(struct passes *p, unsigned t)
{
    for (size_t i = 0; i < p->n_decide; i++)
        if (p->decide[i] == t)
            return;
    if (p->n_decide < LADDER_MAX_LEVELS)
        p->decide[p->n_decide++] = t;
}

/* The levels that decide the answer (passes.h), from the curve of the counting replicates. */
static void choose_deciding(struct passes *p, struct usl_workspace *ws)
{
    unsigned lv[LADDER_MAX_LEVELS];
    size_t m = passes_levels(p, lv, LADDER_MAX_LEVELS);
    struct curve_obs *obs;
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    char err[320];
    size_t k = 0;
    p->n_decide = 0;
    if (m > LADDER_MAX_LEVELS)
        m = LADDER_MAX_LEVELS;
    if (p->o.all_decide || m <= 3) {
        for (size_t i = 0; i < m; i++)
            decide_add(p, lv[i]);
        return;
    }
    obs = malloc(p->n * sizeof *obs);
    if (!obs)
        goto all;
    for (size_t i = 0; i < p->n; i++) {
        const struct passes_rep *r = &p->rep[i];
        if (!r->counts)
            continue;
        obs[k].n = r->threads;
        obs[k].x = r->tps;
        obs[k].ci95_x = r->ci95_tps;
        obs[k].ci95_df = rep_df(r);
        obs[k].pooled = 0;
        obs[k].lat_hist = 0;
        obs[k].lat_s = isfinite(r->latency_ms) ? r->latency_ms / 1e3 : NAN;
        k++;
    }
    spec.lat_pct = p->o.slo.target_s > 0 ? p->o.slo.pct : CURVE_LAT_NONE;
    if (curve_init(&c, obs, k, &spec, ws, err, sizeof err) != CURVE_OK) {
        free(obs);
        goto all;
    }
    free(obs);
    {
        size_t b = c.shape.best;
        if (b > 0)
            decide_add(p, (unsigned)c.lv[b - 1].n);
        decide_add(p, (unsigned)c.lv[b].n);
        if (b + 1 < c.m)
            decide_add(p, (unsigned)c.lv[b + 1].n);
        if (c.shape.cls == SHAPE_PLATEAU)
            decide_add(p, (unsigned)c.lv[c.shape.top_lo].n);
    }
    if (p->o.slo.target_s > 0 && c.lat) {
        struct curve_at at;
        if (curve_at_target(&c, &p->o.slo, 1, 1, &at) == CURVE_OK) {
            if (at.status == CURVE_MET && isfinite(at.n)) {
                size_t i = 0;
                while (i + 1 < c.m && c.lv[i + 1].n <= at.n * (1 + 1e-9))
                    i++;
                decide_add(p, (unsigned)c.lv[i].n);
                if (i + 1 < c.m)
                    decide_add(p, (unsigned)c.lv[i + 1].n);
            } else if (at.status == CURVE_NEVER) {
                decide_add(p, (unsigned)c.lv[0].n);
            }
        }
    }
    curve_destroy(&c);
    qsort(p->decide, p->n_decide, sizeof p->decide[0], cmp_unsigned);
    return;
all:
    for (size_t i = 0; i < m; i++)
        decide_add(p, lv[i]);
}

static void set_msg(struct passes *p, char *dst, size_t cap, const char *text)
{
    if (strcmp(dst, text) != 0) {
        snprintf(dst, cap, "%s", text);
        p->msg_new = 1;
    }
}

/* What the noise allows: attainable, impossible, target, and the two messages. The noise said
 * is the server's floor when earlier replicates are known (it is what bounds the intervals),
 * else the curve's own pool. */
static void judge(struct passes *p, double omega2_rep)
{
    char buf[320], from[120] = "";
    struct noise_pool proj = p->pool;
    const struct noise_pool *q = p->floor.nu > p->pool.nu ? &p->floor : &p->pool;
    double nu_proj = (double)p->n_decide * (double)(p->o.max_reps - 1), a;
    if (q->nu == 0)
        return;
    if (q == &p->floor)
        snprintf(from, sizeof from, ", %zu of them from earlier runs on this server",
                 p->hist_levels);
    if (!q->within_known)
        /* noise.h: a replicate without a within-run interval (too short for batch means)
         * leaves the within-run part out, all of the spread counted between runs */
        snprintf(buf, sizeof buf,
                 "run-to-run noise on this server: %.1f %% between runs (CV between replicates "
                 "%.1f %%, all of it counted between runs: some replicates were too short for a "
                 "within-run interval; %zu level%s%s, %.0f df)",
                 100 * q->between_cv, 100 * q->cv, q->levels, q->levels == 1 ? "" : "s", from,
                 q->nu);
    else if (q->between_cv > 0)
        snprintf(buf, sizeof buf,
                 "run-to-run noise on this server: %.1f %% between runs (CV between replicates "
                 "%.1f %%, their within-run part %.1f %%; %zu level%s%s, %.0f df)",
                 100 * q->between_cv, 100 * q->cv, 100 * q->within_cv, q->levels,
                 q->levels == 1 ? "" : "s", from, q->nu);
    else
        snprintf(buf, sizeof buf,
                 "run-to-run noise on this server: not above the runs' own noise (CV between "
                 "replicates %.1f %%, their within-run part %.1f %%; %zu level%s%s, %.0f df)",
                 100 * q->cv, 100 * q->within_cv, q->levels, q->levels == 1 ? "" : "s", from,
                 q->nu);
    set_msg(p, p->noise_msg, sizeof p->noise_msg, buf);
    if (nu_proj > proj.nu)
        proj.nu = nu_proj;
    if (!isfinite(omega2_rep))
        omega2_rep = q->within_cv * q->within_cv;
    /* the wider of what the curve's own noise and the server's floor allow (noise_level_floor) */
    p->attainable =
        p->pool.nu > 0 ? noise_attainable(&proj, omega2_rep, DEFAULT_SE_DF, p->o.max_reps) : NAN;
    a = p->floor.nu > 0 ? noise_attainable(&p->floor, omega2_rep, DEFAULT_SE_DF, p->o.max_reps)
                        : NAN;
    if (isfinite(a) && !(p->attainable >= a))
        p->attainable = a;
    p->impossible = isfinite(p->attainable) && p->attainable > p->o.precision;
    p->target = p->impossible ? PASSES_IMPOSSIBLE_SLACK * p->attainable : p->o.precision;
    if (p->impossible) {
        snprintf(buf, sizeof buf,
                 "asked %.3g %%; run-to-run noise on this server is about %.1f %%: the best "
                 "attainable is about %.1f %% (%u replicates per level of at most %.0f s each); "
                 "the deciding levels get short replicates until within %.1f %%, instead of "
                 "running to --max-time",
                 100 * p->o.precision, 100 * (q->between_cv > 0 ? q->between_cv : q->cv),
                 100 * p->attainable, p->o.max_reps, p->rep_s, 100 * p->target);
        set_msg(p, p->limit_msg, sizeof p->limit_msg, buf);
    } else if (p->limit_msg[0]) {
        set_msg(p, p->limit_msg, sizeof p->limit_msg, "");
    }
}

/* splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", 2014) */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Fisher-Yates */
static void shuffle(unsigned *a, size_t n, uint64_t *s)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next_rand(s) % i);
        unsigned t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

static size_t list_levels(const unsigned *t, size_t n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 12 < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%u", i ? ", " : "", t[i]);
    return len;
}

/* Plan the next pass: 1 when it has levels, 0 when the passes are done (why says why). */
static int begin_pass(struct passes *p, struct usl_workspace *ws)
{
    double omega2_rep;
    char names[120];
    int at_max = 0;
    update_pool(p);
    choose_deciding(p, ws);
    plan_length(p, &omega2_rep);
    judge(p, omega2_rep);
    if (p->o.max_reps <= 1) {
        snprintf(p->why, sizeof p->why, "one pass (1 replicate per level)");
        return 0;
    }
    if (p->n_decide == 0) {
        snprintf(p->why, sizeof p->why, "no level counts: nothing to measure again");
        return 0;
    }
    p->nq = 0;
    for (size_t i = 0; i < p->n_decide; i++) {
        unsigned t = p->decide[i];
        size_t r = passes_reps_at(p, t);
        struct noise_level l;
        int need;
        if (r == 0 || passes_level(p, t, &l) != 0)
            continue;
        need = r < 2 || (r < p->o.max_reps && !(l.half95 <= p->target * l.mean));
        at_max |= r >= p->o.max_reps && !(l.half95 <= p->target * l.mean);
        if (need)
            p->queue[p->nq++] = t;
    }
    list_levels(p->decide, p->n_decide, names, sizeof names);
    if (p->nq == 0) {
        if (at_max)
            snprintf(p->why, sizeof p->why,
                     "the deciding levels (%s threads) have %u replicates, the most asked", names,
                     p->o.max_reps);
        else
            snprintf(p->why, sizeof p->why,
                     "every deciding level (%s threads) is within %.3g %% (95 %%, run-to-run "
                     "noise included)",
                     names, 100 * p->target);
        return 0;
    }
    shuffle(p->queue, p->nq, &p->rng);
    p->pass++;
    p->iq = 0;
    {
        char order[120];
        list_levels(p->queue, p->nq, order, sizeof order);
        snprintf(p->why, sizeof p->why,
                 "pass %u: %s threads (shuffled), replicates of at most %.0f s; deciding levels "
                 "%s",
                 p->pass, order, p->rep_s, names);
    }
    return 1;
}

/* The cost of one more replicate: its length limit plus the median cost beyond it. */
static double next_cost(const struct passes *p)
{
    double k, o;
    costs(p, &k, &o, NULL);
    return p->rep_s + (isfinite(o) ? o : 0);
}

unsigned passes_next(struct passes *p, struct usl_workspace *ws, double *max_time_s)
{
    if (max_time_s)
        *max_time_s = p->rep_s;
    if (p->done)
        return 0;
    for (int guard = 0; guard < 2; guard++) {
        if (p->iq < p->nq) {
            unsigned t = p->queue[p->iq];
            if (p->o.budget_s > 0 && p->spent_s + next_cost(p) > p->o.budget_s) {
                snprintf(p->why, sizeof p->why,
                         "the time budget (%.0f s) is spent: %.0f s measured, a replicate more "
                         "would pass it",
                         p->o.budget_s, p->spent_s);
                /* what the replicates measured so far say of the noise, as after a pass */
                update_pool(p);
                {
                    double omega2_rep;
                    plan_length(p, &omega2_rep);
                    judge(p, omega2_rep);
                }
                p->done = 1;
                return 0;
            }
            p->iq++;
            if (max_time_s)
                *max_time_s = p->rep_s;
            return t;
        }
        if (!begin_pass(p, ws)) {
            p->done = 1;
            return 0;
        }
    }
    p->done = 1;
    return 0;
}

/* The mean of v over the replicates where it is finite (NAN when none). */
static double mean_of(const struct point *const *reps, size_t n, size_t off)
{
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double v = *(const double *)((const char *)reps[i] + off);
        if (isfinite(v)) {
            sum += v;
            k++;
        }
    }
    return k ? sum / (double)k : NAN;
}

/* Drop what a single run carries and a pooled level does not: its series, histogram, extra
 * and warm-up cut. */
static void drop_run_only(struct point *out)
{
    free(out->series);
    out->series = NULL;
    out->n_series = out->cap_series = 0;
    free(out->histogram);
    out->histogram = NULL;
    out->n_hist = out->cap_hist = 0;
    json_decref(out->extra);
    out->extra = NULL;
    out->warmup_s = NAN;
}

/* The level's totals over its n replicates (durations, counters, latency sum, client CPU; each
 * over the replicates that have it), the extremes of latency and the mean of each percentile of
 * the last replicate's list. */
static void pool_totals(struct point *out, const struct point *const *reps, size_t n)
{
    const struct point *last = reps[n - 1];
    out->duration_s = 0;
    out->transactions = out->queries = out->reads = out->writes = out->other = 0;
    out->errors = out->reconnects = 0;
    out->latency_ms.sum = 0;
    out->client_cpu_s = 0;
    for (size_t i = 0; i < n; i++) {
        const struct point *q = reps[i];
        out->duration_s += isfinite(q->duration_s) ? q->duration_s : 0;
        out->transactions += q->transactions > 0 ? q->transactions : 0;
        out->queries += q->queries > 0 ? q->queries : 0;
        out->reads += q->reads > 0 ? q->reads : 0;
        out->writes += q->writes > 0 ? q->writes : 0;
        out->other += q->other > 0 ? q->other : 0;
        out->errors += q->errors > 0 ? q->errors : 0;
        out->reconnects += q->reconnects > 0 ? q->reconnects : 0;
        out->latency_ms.sum += isfinite(q->latency_ms.sum) ? q->latency_ms.sum : 0;
        out->client_cpu_s += isfinite(q->client_cpu_s) ? q->client_cpu_s : 0;
        if (i == 0 || q->latency_ms.min < out->latency_ms.min)
            out->latency_ms.min = q->latency_ms.min;
        if (i == 0 || q->latency_ms.max > out->latency_ms.max)
            out->latency_ms.max = q->latency_ms.max;
    }
    for (size_t j = 0; j < last->latency_ms.n_pct; j++) {
        double pct = last->latency_ms.pct[j], sum = 0;
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            double v = point_percentile(reps[i], pct);
            if (isfinite(v)) {
                sum += v;
                m++;
            }
        }
        out->latency_ms.pct_ms[j] = m ? sum / (double)m : NAN;
    }
}

/* The noise figures of the level's extra.interval: its relative interval, what is attainable,
 * the curve's pooled run-to-run noise and the server's floor, the noise method. */
static void interval_noise(json_t *iv, const struct passes *p, const struct noise_level *lv,
                           const struct noise_pool *pool, const struct noise_pool *floor)
{
    json_object_set_new(iv, "rel95",
                        isfinite(lv->half95) ? json_real(lv->half95 / lv->mean) : json_null());
    if (isfinite(p->attainable))
        json_object_set_new(iv, "attainable", json_real(p->attainable));
    if (pool->nu > 0) {
        json_object_set_new(iv, "run_to_run_cv", json_real(pool->cv));
        json_object_set_new(iv, "between_cv", json_real(pool->between_cv));
        json_object_set_new(iv, "within_cv", json_real(pool->within_cv));
        json_object_set_new(iv, "pooled_levels", json_integer((json_int_t)pool->levels));
        json_object_set_new(iv, "pooled_df", json_real(pool->nu));
    }
    if (p->n_hist > 0 && floor->nu > 0) {
        json_t *f = json_pack("{s:f,s:f,s:i,s:f,s:i}", "run_to_run_cv", floor->cv, "between_cv",
                              floor->between_cv, "levels", (int)floor->levels, "df", floor->nu,
                              "earlier_levels", (int)p->hist_levels);
        if (f)
            json_object_set_new(iv, "floor", f);
    }
    json_object_set_new(iv, "noise", json_string(noise_method_name(lv->method)));
}

/* Append to list one entry per replicate (started_at, tps, pass, ci95_tps when known).
 * 0, or -1 out of memory. */
static int pooled_entries(json_t *list, const struct point *const *reps,
                          const struct passes_rep *const *rr, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_pack("{s:s,s:f,s:i}", "started_at", reps[i]->started_at, "tps",
                              reps[i]->tps, "pass", (int)rr[i]->pass);
        if (!e)
            return -1;
        if (isfinite(reps[i]->ci95_tps))
            json_object_set_new(e, "ci95_tps", json_real(reps[i]->ci95_tps));
        json_array_append_new(list, e);
    }
    return 0;
}

int passes_level_record(const struct passes *p, unsigned threads, const struct point *const *reps,
                        size_t n, struct point *out)
{
    struct noise_level lv;
    struct noise_pool pool, floor;
    const struct passes_rep *rr[PASSES_MAX_REPS * 4];
    const struct point *last;
    json_t *iv, *list;
    size_t k = 0;
    if (n == 0 || n != passes_reps_at(p, threads) || n > sizeof rr / sizeof rr[0] ||
        passes_level(p, threads, &lv) != 0 || pool_of(p, &pool) != 0 || floor_of(p, &floor) != 0)
        return -1;
    for (size_t i = 0; i < p->n; i++)
        if (p->rep[i].counts && p->rep[i].threads == threads)
            rr[k++] = &p->rep[i];
    for (size_t i = 0; i < n; i++)
        if (!reps[i] || !reps[i]->started_at)
            return -1;
    last = reps[n - 1];
    point_destroy(out);
    point_init(out);
    if (point_copy(out, last) != POINT_OK)
        return -1;
    drop_run_only(out);
    if (point_set_str(&out->started_at, reps[0]->started_at) != POINT_OK ||
        point_server_pool(out, reps, n) != POINT_OK)
        return -1;
    out->tps = lv.mean;
    out->ci95_tps = lv.half95;
    out->steady = isfinite(lv.half95) && lv.half95 <= p->o.precision * lv.mean ? 1 : 0;
#define MEAN(field) out->field = mean_of(reps, n, offsetof(struct point, field))
    MEAN(qps);
    MEAN(reads_ps);
    MEAN(writes_ps);
    MEAN(other_ps);
    MEAN(errors_ps);
    MEAN(reconnects_ps);
    MEAN(latency_ms.avg);
#undef MEAN
    pool_totals(out, reps, n);
    list = json_array();
    iv = json_pack("{s:s,s:s,s:i,s:f,s:f}", "method", POINT_LEVEL_METHOD, "rule",
                   "replicates pooled with the run-to-run noise of the curve's replicated levels "
                   "(two-level random effects, Kalibera & Jones 2013; Satterthwaite df), no "
                   "narrower than the server's noise floor over its earlier replicated levels",
                   "replicates", (int)n, "df", lv.df, "asked", p->o.precision);
    if (!list || !iv || !(out->extra = json_object())) {
        json_decref(list);
        json_decref(iv);
        return -1;
    }
    interval_noise(iv, p, &lv, &pool, &floor);
    if (pooled_entries(list, reps, rr, n) != 0) {
        json_decref(list);
        json_decref(iv);
        return -1;
    }
    json_object_set_new(iv, "pooled", list);
    json_object_set_new(out->extra, "interval", iv);
    return 0;
}
