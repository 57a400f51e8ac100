/* diskpred.c - a measured curve on another disk, by mean-value analysis (see diskpred.h). */
#include "diskpred.h"

#include "curve.h"
#include "disk_perf.h"
#include "mva.h"
#include "slo.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* LATENCY with its unit (us, ms or s: slo_parse_latency, the project's one rule), at most
 * 10 s. 0, or -1. */
static int parse_latency_ms(const char *s, double *ms)
{
    double v;
    char e[128];
    if (slo_parse_latency(s, &v, e, sizeof e) != 0 || !(v > 0) || v > 10)
        return -1;
    *ms = v * 1e3;
    return 0;
}

/* One I/O's latency is taken at queue depth 1 as the median (a throttle's waits fall on a few
 * I/Os and lift the mean, not the median: blkio at 2,000 IOPS gave 0.50 ms mean, 0.037 ms
 * median, the device alone 0.044 ms), else the mean.
 * A profile from a `sizeup disk --out` file: the most I/Os per second of any random test, and
 * the mean latency of randread (else randrw) at queue depth 1. 0, or -1 with err. */
static int profile_from_file(const char *path, struct diskpred_profile *out, char *err, size_t cap)
{
    static const char *const tests[] = {"disk_randread", "disk_randrw", "disk_randwrite"};
    FILE *f;
    struct stat st;
    struct point_reader *r;
    struct point p;
    struct point_error pe;
    double iops[3] = {0, 0, 0}, lat[3] = {NAN, NAN, NAN};
    int median[3] = {0, 0, 0}, rc, t;
    char target[128] = "";
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, cap, "%s: %s", path,
                 errno && stat(path, &st) != 0 ? strerror(errno)
                                               : "not a regular file (a sizeup disk --out file)");
        return -1;
    }
    if (!(f = fopen(path, "r"))) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!(r = point_reader_new(f, path))) {
        fclose(f);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    point_init(&p);
    while ((rc = point_reader_next(r, &p, &pe)) == 1) {
        for (t = 0; t < 3 && !(p.workload && strcmp(p.workload, tests[t]) == 0); t++)
            ;
        if (t == 3 || !(p.tps > 0))
            continue;
        if (!target[0])
            snprintf(target, sizeof target, "%s", p.target);
        else if (strcmp(target, p.target) != 0) {
            snprintf(err, cap,
                     "%s: records of two disks (targets '%s' and '%s'): give one sizeup disk run "
                     "a file",
                     path, target, p.target);
            rc = -100;
            break;
        }
        iops[t] = fmax(iops[t], p.tps);
        if (p.threads == 1) {
            double m = point_percentile(&p, 50);
            median[t] = m > 0;
            lat[t] = m > 0 ? m : p.latency_ms.avg;
        }
    }
    point_destroy(&p);
    point_reader_free(r);
    fclose(f);
    if (rc == -100)
        return -1;
    if (rc < 0) {
        snprintf(err, cap, "%s", pe.msg);
        return -1;
    }
    /* an OLTP workload reads more than it writes: randread first, then randrw, then randwrite */
    for (t = 0; t < 3 && !(iops[t] > 0 && lat[t] > 0); t++)
        ;
    if (t == 3) {
        snprintf(err, cap,
                 "%s: no random-I/O test of sizeup disk with IOPS and a queue-depth-1 latency "
                 "(make one: sizeup disk --dir DIR --tests randread --iodepth 1,16 --out "
                 "NEW.jsonl)",
                 path);
        return -1;
    }
    out->iops = iops[t];
    out->latency_ms = lat[t];
    snprintf(out->source, sizeof out->source,
             "sizeup disk %.60s (%s): %.0f IOPS, %g ms an I/O (%s at QD 1)", path, tests[t] + 5,
             out->iops, out->latency_ms, median[t] ? "median" : "mean");
    return 0;
}

/* The profile's ID, the text of spec before eq ('=', or NULL), into out->id: at least one byte,
 * no space, quote or control character. 0, or -1 with err. */
static int profile_id(const char *spec, const char *eq, struct diskpred_profile *out, char *err,
                      size_t cap)
{
    size_t idlen;
    if (eq && (size_t)(eq - spec) >= sizeof out->id) {
        snprintf(err, cap, "'%.80s...': the ID before '=' is longer than %zu bytes", spec,
                 sizeof out->id - 1);
        return -1;
    }
    for (const char *c = spec; eq && c < eq; c++)
        if ((unsigned char)*c <= ' ' || *c == '"' || *c == '\'' || *c == '\\' || *c == 0x7f) {
            snprintf(err, cap,
                     "the ID of '%.80s' has a space, quote or control character: name it with "
                     "letters, digits, '-', '_', '.'",
                     spec);
            return -1;
        }
    if (!eq || eq == spec || (idlen = (size_t)(eq - spec)) >= sizeof out->id) {
        snprintf(err, cap,
                 "'%s' is not a disk profile: expected ID=IOPS@LATENCY (e.g. "
                 "essd=22653@0.5ms), ID=DISK:SIZE@LATENCY (a catalog disk type at SIZE GiB) or "
                 "ID=@FILE[@LATENCY] (a sizeup disk --out file)",
                 spec);
        return -1;
    }
    memcpy(out->id, spec, idlen);
    return 0;
}

/* ID=@FILE or ID=@FILE@LATENCY (a stated latency wins): the profile of a sizeup disk --out
 * file (eq: spec's '=', at: its last '@'). 0, -1 or DISKPRED_BAD_FILE with err. */
static int profile_file(const char *spec, const char *eq, const char *at,
                        struct diskpred_profile *out, char *err, size_t cap)
{
    char path[1024];
    size_t plen = at > eq + 1 ? (size_t)(at - eq - 2) : strlen(eq + 2);
    if (plen == 0 || plen >= sizeof path) {
        snprintf(err, cap, "'%s': expected ID=@FILE (a sizeup disk --out file)", spec);
        return -1;
    }
    memcpy(path, eq + 2, plen);
    path[plen] = '\0';
    if (profile_from_file(path, out, err, cap) != 0)
        return DISKPRED_BAD_FILE;
    if (at > eq + 1) {
        if (parse_latency_ms(at + 1, &out->latency_ms) != 0) {
            snprintf(err, cap,
                     "'%s': the latency '%s' is not a latency with its unit up to 10 s (e.g. "
                     "0.2ms, 150us)",
                     spec, at + 1);
            return -1;
        }
        snprintf(out->source, sizeof out->source,
                 "sizeup disk %.80s: %.0f IOPS; %g ms an I/O (stated)", path, out->iops,
                 out->latency_ms);
    }
    return 0;
}

/* ID=DISK:SIZE without a latency, the type's latency_ms from the catalogs: spec again with
 * "@LATENCYms" added (eq: spec's '='). 1 with *rc the parse's result when the catalogs give the
 * type a latency, else 0 (not handled here). */
static int profile_type_latency(const char *spec, const char *eq, const struct cat_catalog *cat,
                                struct diskpred_profile *out, char *err, size_t cap, int *rc)
{
    const char *colon1 = strchr(eq + 1, ':');
    char type[96];
    const struct cat_disk *d;
    snprintf(type, sizeof type, "%.*s", (int)(colon1 - eq - 1), eq + 1);
    d = cat_find_disk(cat, type);
    if (d && d->latency_ms.present) {
        char with[300];
        snprintf(with, sizeof with, "%s@%gms", spec, d->latency_ms.amount);
        *rc = diskpred_profile_parse(with, cat, out, err, cap);
        if (*rc == 0)
            snprintf(out->source, sizeof out->source, "%s at %s GiB: %.0f IOPS; %g ms an I/O (%s)",
                     d->name ? d->name : d->id, colon1 + 1, out->iops, out->latency_ms,
                     d->latency_ms.estimate ? "the catalog's estimate" : "the catalog");
        return 1;
    }
    return 0;
}

/* The IOPS of DISK:SIZE (body, colon its ':'), a catalog disk type at SIZE GiB by its rule,
 * into out->iops and out->source (the latency, stated, already in out). 0, or -1 with err. */
static int profile_type_size(const char *spec, const char *body, const char *colon,
                             const struct cat_catalog *cat, struct diskpred_profile *out, char *err,
                             size_t cap)
{
    char type[96], msg[200];
    const struct cat_disk *d;
    struct cat_disk_perf perf;
    double gib;
    snprintf(type, sizeof type, "%.*s", (int)(colon - body), body);
    d = cat ? cat_find_disk(cat, type) : NULL;
    if (!d) {
        snprintf(err, cap,
                 "'%s': no disk type '%s' in the catalogs (their \"disks\", "
                 "docs/catalog-format.md)",
                 spec, type);
        return -1;
    }
    if (units_parse_double(colon + 1, 0, 1e9, &gib) != 0) {
        snprintf(err, cap, "'%s': the size '%s' is not a number of GiB", spec, colon + 1);
        return -1;
    }
    if (cat_disk_performance(d, gib, 0, 0, &perf, msg, sizeof msg) != CAT_OK) {
        snprintf(err, cap, "'%s': %s", spec, msg);
        return -1;
    }
    out->iops = perf.iops;
    snprintf(out->source, sizeof out->source, "%s at %g GiB: %.0f IOPS (%s); %g ms an I/O (stated)",
             d->name ? d->name : d->id, gib, perf.iops, d->id, out->latency_ms);
    return 0;
}

int diskpred_profile_parse(const char *spec, const struct cat_catalog *cat,
                           struct diskpred_profile *out, char *err, size_t cap)
{
    const char *eq = strchr(spec, '='), *at = strrchr(spec, '@'), *colon;
    char body[128], lat[64];
    int rc;
    memset(out, 0, sizeof *out);
    if (profile_id(spec, eq, out, err, cap) != 0)
        return -1;
    if (eq[1] == '@')
        return profile_file(spec, eq, at, out, err, cap);
    if ((!at || at < eq) && strchr(eq + 1, ':') && cat &&
        profile_type_latency(spec, eq, cat, out, err, cap, &rc))
        return rc;
    if (!at || at < eq) {
        snprintf(err, cap,
                 "'%s' has no latency: give the latency of one I/O after '@' (e.g. @0.2ms; a "
                 "published figure or a `sizeup disk` result), or use a disk type whose "
                 "latency_ms the catalogs give; sizeup does not make one up",
                 spec);
        return -1;
    }
    if ((size_t)(at - eq - 1) >= sizeof body || strlen(at + 1) >= sizeof lat) {
        snprintf(err, cap, "'%s': too long", spec);
        return -1;
    }
    memcpy(body, eq + 1, (size_t)(at - eq - 1));
    body[at - eq - 1] = '\0';
    snprintf(lat, sizeof lat, "%s", at + 1);
    if (parse_latency_ms(lat, &out->latency_ms) != 0) {
        snprintf(err, cap,
                 "'%s': the latency '%s' is not a latency with its unit up to 10 s (e.g. 0.2ms, "
                 "150us)",
                 spec, lat);
        return -1;
    }
    colon = strchr(body, ':');
    if (!colon) {
        if (units_parse_double(body, 1, 1e9, &out->iops) != 0) {
            snprintf(err, cap, "'%s': the IOPS '%s' is not a number from 1 to 1e9", spec, body);
            return -1;
        }
        snprintf(out->source, sizeof out->source, "stated: %.0f IOPS, %g ms an I/O", out->iops,
                 out->latency_ms);
        return 0;
    }
    return profile_type_size(spec, body, colon, cat, out, err, cap);
}

/* A point's CPU demand per transaction, s: the server's own, else cpu_peak_pct. NAN: none. */
static double point_cpu_s(const struct point *p, unsigned vcpus, const char **from)
{
    const json_t *v = p->extra ? json_object_get(p->extra, "cpu_peak_pct") : NULL;
    if (!isnan(p->server.v[PSRV_CPU_S_PER_TX])) {
        *from = "the server's CPU time per transaction (cpu_s_per_tx)";
        return p->server.v[PSRV_CPU_S_PER_TX];
    }
    if (json_is_number(v) && p->tps > 0) {
        *from = "the utilisation law: cpu_peak_pct / 100 x vCPUs / tps";
        return json_number_value(v) / 100 * vcpus / p->tps;
    }
    return NAN;
}

/* The network of b on disk d, with delay z. */
/* A disk whose IOPS limit is below what one I/O at a time at its latency gives (L s < 1) cannot
 * be parallel servers of that latency: its limit is a throttle (a cloud disk's QoS, a blkio
 * cgroup), which adds nothing below the limit and holds the rate to it above. */
static int rate_limited(const struct diskpred_profile *d)
{
    return d->iops * d->latency_ms / 1e3 < 1;
}

static void stations(const struct diskpred_base *b, const struct diskpred_profile *d, double z,
                     struct mva_station st[3])
{
    /* c = L s servers of service time s: at most L IOPS, one I/O alone s. A rate-limited disk
     * (L s < 1) is a delay of s an I/O; its limit is the cap of capped() */
    double s = d->latency_ms / 1e3, c = d->iops * s;
    st[0] = (struct mva_station){b->cpu_s, b->vcpus};
    st[1] = (struct mva_station){b->ios * s, rate_limited(d) ? 0 : c};
    st[2] = (struct mva_station){z, 0};
}

/* X of the network, capped at a rate-limited disk's L / ios. */
static double capped(const struct diskpred_base *b, const struct diskpred_profile *d, double x)
{
    return rate_limited(d) && b->ios > 0 ? fmin(x, d->iops / b->ios) : x;
}

/* X at n customers of b on d with delay z. */
static double x_at(const struct diskpred_base *b, const struct diskpred_profile *d, double z,
                   unsigned n, double *work)
{
    struct mva_station st[3];
    stations(b, d, z, st);
    if (mva_solve(st, 3, 0, n, work, NULL, NULL) != 0)
        return NAN;
    return capped(b, d, work[n - 1]);
}

/* The delay with which the probed network gives the calibration level's throughput. */
static double fit_delay(const struct diskpred_base *b)
{
    unsigned n0 = (unsigned)lround(b->levels[b->cal]);
    double *work = malloc(sizeof *work * n0), lo = 0, hi = 1;
    double want = b->tps[b->cal];
    if (!work)
        return NAN;
    if (!(x_at(b, &b->probed, 0, n0, work) > want)) {
        free(work);
        return 0; /* the demands alone give that level or less */
    }
    while (x_at(b, &b->probed, hi, n0, work) > want && hi < 1e3)
        hi *= 2;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (x_at(b, &b->probed, mid, n0, work) > want)
            lo = mid;
        else
            hi = mid;
    }
    free(work);
    return (lo + hi) / 2;
}

/* The keys of a grouping: each point's target, NULL for a predicted point (never a measurement
 * to model from). */
static const char **measured_keys(const struct point_list *pts)
{
    const char **keys = malloc(sizeof *keys * (pts->n ? pts->n : 1));
    if (keys)
        for (size_t i = 0; i < pts->n; i++)
            keys[i] = pts->items[i].predicted ? NULL : pts->items[i].target;
    return keys;
}

/* X at the best level with CPU demand c (the delay refitted at the calibration level). */
static double x_best_with_cpu(struct diskpred_base *b, double c, size_t best)
{
    unsigned n = (unsigned)lround(b->levels[best]);
    double *work = malloc(sizeof *work * n), x;
    if (!work)
        return NAN;
    b->cpu_s = c;
    b->z_s = fit_delay(b);
    x = isnan(b->z_s) ? NAN : x_at(b, &b->probed, b->z_s, n, work);
    free(work);
    return x;
}

/* The model on the probed disk gives the measured best level: when it gives more (the CPUs did
 * other work too: a load generator on the same host, the server's background threads), the
 * CPU demand is raised until it gives that level (bisection); the rise is reported. 0 or -1. */
static int calibrate_cpu(struct diskpred_base *b, size_t best)
{
    double lo = b->cpu_s, hi = b->cpu_s, want = b->tps[best], x;
    b->cpu_s_measured = b->cpu_s;
    x = x_best_with_cpu(b, lo, best);
    if (isnan(x))
        return -1;
    if (x <= want * 1.02)
        return 0;
    for (int k = 0; k < 40 && x_best_with_cpu(b, hi, best) > want; k++)
        hi *= 2;
    for (int k = 0; k < 50; k++) {
        double mid = (lo + hi) / 2;
        x = x_best_with_cpu(b, mid, best);
        if (isnan(x))
            return -1;
        if (x > want)
            lo = mid;
        else
            hi = mid;
    }
    return isnan(x_best_with_cpu(b, hi, best)) ? -1 : 0;
}

/* The host's CPU was measured less than DISKPRED_BINDS_UTIL busy at the best level (a table's
 * cpu_peak_pct: the whole host, so nothing else hid there): when the model on the probed disk
 * gives more than that level, the disk delivered less than its profile says (a lower real
 * limit, an instance cap the catalog lacks), so its IOPS are lowered until the model gives the
 * level (bisection, no lower than the IOPS measured there). 0 or -1. */
static int calibrate_disk(struct diskpred_base *b, size_t best)
{
    double want = b->tps[best], lo = b->ios * want, hi = b->probed.iops, x;
    b->cpu_s_measured = b->cpu_s;
    x = x_best_with_cpu(b, b->cpu_s, best);
    if (isnan(x))
        return -1;
    if (x <= want * 1.02 || !(lo > 0) || lo >= hi)
        return 0;
    for (int k = 0; k < 50; k++) {
        b->probed.iops = (lo + hi) / 2;
        x = x_best_with_cpu(b, b->cpu_s, best);
        if (isnan(x))
            return -1;
        if (x > want)
            hi = b->probed.iops;
        else
            lo = b->probed.iops;
    }
    b->probed.iops = hi;
    return isnan(x_best_with_cpu(b, b->cpu_s, best)) ? -1 : 0;
}

/* The one curve of target (and workload, when given) among the groups g, or NULL with err
 * naming the workloads to choose from, or the curves there are. */
static const struct curve_group *target_group(const struct curve_groups *g, const char *target,
                                              const char *workload, char *err, size_t cap)
{
    const struct curve_group *grp = NULL;
    size_t found = 0, len = 0;
    char names[256] = "";
    for (size_t i = 0; i < g->n; i++)
        if (strcmp(g->g[i].key, target) == 0 &&
            (!workload || strcmp(g->g[i].workload, workload) == 0) && g->g[i].n > 0) {
            grp = &g->g[i];
            found++;
            if (len < sizeof names)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                        g->g[i].workload);
        }
    if (found == 1)
        return grp;
    if (found)
        snprintf(err, cap, "target '%s' has curves of %zu workloads (%s): give --workload", target,
                 found, names);
    else {
        len = 0;
        for (size_t i = 0; i < g->n && len < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s / %s", len ? ", " : "",
                                    g->g[i].key, g->g[i].workload);
        snprintf(err, cap, "no measured point of target '%s'%s%s counts (the points have: %s)",
                 target, workload ? " and workload " : "", workload ? workload : "",
                 names[0] ? names : "none that counts");
    }
    return NULL;
}

/* The sums and counts of the CPU demand and the I/Os per transaction over grp's points at
 * n_best (out->cpu_from: where the CPU demand came from). */
static void demands_at(const struct point_list *pts, const struct curve_group *grp, double n_best,
                       unsigned vcpus, struct diskpred_base *out, double *cpu_sum, int *cpu_n,
                       double *ios_sum, int *ios_n)
{
    for (size_t i = 0; i < grp->n; i++) {
        const struct point *p = &pts->items[grp->idx[i]];
        double n = p->threads > 0 ? (double)p->threads : (double)p->nodes, c;
        if (n != n_best)
            continue;
        c = point_cpu_s(p, vcpus, &out->cpu_from);
        if (!isnan(c)) {
            *cpu_sum += c;
            (*cpu_n)++;
        }
        if (!isnan(p->server.v[PSRV_IOS_PER_TX])) {
            *ios_sum += p->server.v[PSRV_IOS_PER_TX];
            (*ios_n)++;
        }
    }
}

/* The demands of b against what was given: usable, and the utilisation law at the measured
 * best level within the vCPUs and the probed disk's IOPS (5 % slack). 0, -1 or
 * DISKPRED_CONTRADICTS with err. */
static int check_demands(const struct diskpred_base *out, const char *target, unsigned vcpus,
                         const struct diskpred_profile *probed, const struct curve_level *lv,
                         char *err, size_t cap)
{
    if (!(out->cpu_s > 0) || !(out->ios >= 0) || !(lv[0].n >= 1)) {
        snprintf(err, cap, "%s: the demands are not usable (CPU %g s, %g I/Os a transaction)",
                 target, out->cpu_s, out->ios);
        return -1;
    }
    /* the utilisation law at the measured best level: the figures given must allow it */
    if (out->cpu_s * out->at_tps > vcpus * 1.05) {
        snprintf(err, cap,
                 "%s at %g threads did %.0f tps at %.4g ms of CPU a transaction: %.2f CPUs busy, "
                 "more than the %u vCPUs given (--vcpus or the catalog's)",
                 target, out->at_threads, out->at_tps, 1e3 * out->cpu_s, out->cpu_s * out->at_tps,
                 vcpus);
        return DISKPRED_CONTRADICTS;
    }
    if (out->ios * out->at_tps > probed->iops * 1.05) {
        snprintf(err, cap,
                 "%s at %g threads did %.0f tps at %.3g I/Os a transaction: %.0f IOPS, more than "
                 "the %.0f of the disk it was measured on (%s)",
                 target, out->at_threads, out->at_tps, out->ios, out->ios * out->at_tps,
                 probed->iops, probed->id);
        return DISKPRED_CONTRADICTS;
    }
    return 0;
}

int diskpred_base_build(const struct point_list *pts, const char *target, const char *workload,
                        unsigned vcpus, const struct diskpred_profile *probed,
                        struct diskpred_base *out, char *err, size_t cap)
{
    struct curve_groups g;
    struct curve_level *lv = NULL;
    struct curve_spec spec = curve_spec_default();
    const struct curve_group *grp = NULL;
    const char **keys;
    size_t nlv = 0, best = 0;
    double cpu_sum = 0, ios_sum = 0;
    int cpu_n = 0, ios_n = 0, rc = -1;
    memset(out, 0, sizeof *out);
    if (vcpus == 0) {
        snprintf(err, cap, "no vCPU count for %s: give --vcpus N", target);
        return -1;
    }
    if (!(keys = measured_keys(pts)) || curve_groups_build(&g, pts, keys) != CURVE_OK) {
        free(keys);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    if (!(grp = target_group(&g, target, workload, err, cap)))
        goto out;
    if (!(lv = malloc(sizeof *lv * grp->n))) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    if (curve_levels_points(pts, grp->idx, grp->n, &spec, lv, &nlv, err, cap) != CURVE_OK)
        goto out;
    if (nlv > DISKPRED_MAX_LEVELS) {
        snprintf(err, cap, "%s: %zu levels, more than %d", target, nlv, DISKPRED_MAX_LEVELS);
        goto out;
    }
    for (size_t i = 1; i < nlv; i++)
        if (lv[i].x > lv[best].x)
            best = i;
    out->cpu_from = NULL;
    demands_at(pts, grp, lv[best].n, vcpus, out, &cpu_sum, &cpu_n, &ios_sum, &ios_n);
    snprintf(out->target, sizeof out->target, "%s", target);
    snprintf(out->workload, sizeof out->workload, "%s", grp->workload);
    if (ios_n == 0) {
        snprintf(err, cap,
                 "%s at %g threads: no I/Os per transaction (the server block's ios_per_tx): "
                 "probe with this sizeup (it reads the server's counters), or give a table with "
                 "an iops_avg column",
                 target, lv[best].n);
        goto out;
    }
    if (cpu_n == 0) {
        snprintf(err, cap,
                 "%s at %g threads: no CPU demand: the server block has no cpu_s_per_tx (the "
                 "server ran on another host) and the points no cpu_peak_pct",
                 target, lv[best].n);
        goto out;
    }
    out->vcpus = vcpus;
    out->cpu_s = cpu_sum / cpu_n;
    out->ios = ios_sum / ios_n;
    out->at_threads = lv[best].n;
    out->at_tps = lv[best].x;
    out->probed = *probed;
    out->n_levels = nlv;
    for (size_t i = 0; i < nlv; i++) {
        out->levels[i] = lv[i].n;
        out->tps[i] = lv[i].x;
    }
    if ((rc = check_demands(out, target, vcpus, probed, lv, err, cap)) != 0)
        goto out;
    rc = -1;
    /* the level where a transaction's own time is least disturbed: the most tps per thread (a
     * superlinear first step, a 1-thread level slowed by wake-ups on an idle host, is not it) */
    out->cal = 0;
    for (size_t i = 1; i < nlv; i++)
        if (out->tps[i] / out->levels[i] > out->tps[out->cal] / out->levels[out->cal])
            out->cal = i;
    out->probed_iops_rule = probed->iops;
    if (strstr(out->cpu_from, "cpu_peak_pct") &&
        out->cpu_s * out->at_tps < DISKPRED_BINDS_UTIL * vcpus && calibrate_disk(out, best) != 0) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    if (calibrate_cpu(out, best) != 0 || isnan(out->z_s)) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    rc = 0;
out:
    free(lv);
    free(keys);
    curve_groups_destroy(&g);
    return rc;
}

const char *diskpred_binds_name(enum diskpred_binds b)
{
    return b == DISKPRED_DISK ? "disk" : b == DISKPRED_CPU ? "cpu" : "none";
}

int diskpred_curve(const struct diskpred_base *b, const struct diskpred_profile *d,
                   const double *threads, size_t n, struct diskpred_level *out, char *err,
                   size_t cap)
{
    struct mva_station st[3];
    unsigned nmax = 0;
    double *x, *q;
    for (size_t i = 0; i < n; i++) {
        if (!(threads[i] >= 1) || threads[i] > DISKPRED_MAX_THREADS ||
            threads[i] != floor(threads[i])) {
            snprintf(err, cap, "a level of %g threads: expected a whole number from 1 to %d",
                     threads[i], DISKPRED_MAX_THREADS);
            return -1;
        }
        nmax = (unsigned)fmax(nmax, threads[i]);
    }
    if (!(d->iops > 0) || !(d->latency_ms > 0)) {
        snprintf(err, cap, "disk %s: a profile needs IOPS > 0 and a latency > 0", d->id);
        return -1;
    }
    if (n == 0)
        return 0;
    x = malloc(sizeof *x * nmax);
    q = malloc(sizeof *q * nmax * 3);
    if (!x || !q) {
        free(x);
        free(q);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    stations(b, d, b->z_s, st);
    if (mva_solve(st, 3, 0, nmax, x, NULL, q) != 0) {
        snprintf(err, cap, "the model of %s cannot be solved", b->target);
        free(x);
        free(q);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned k = (unsigned)threads[i];
        double xv = capped(b, d, x[k - 1]), ucpu = xv * st[0].demand_s / st[0].servers,
               udisk =
                   rate_limited(d) ? xv * b->ios / d->iops : xv * st[1].demand_s / st[1].servers,
               qsum =
                   q[(size_t)(k - 1) * 3] + q[(size_t)(k - 1) * 3 + 1] + q[(size_t)(k - 1) * 3 + 2];
        out[i].threads = k;
        out[i].tps = xv;
        out[i].lo = xv * (1 - DISKPRED_REL95);
        /* not capped at the ceiling: its inputs (CPU time, I/Os a transaction) are measured,
         * and a measured peak above a model's ceiling was seen (docs/predict.md) */
        out[i].hi = xv * (1 + DISKPRED_REL95);
        out[i].latency_ms = 1e3 * k / xv;
        out[i].util = fmax(ucpu, udisk);
        out[i].binds = out[i].util < DISKPRED_BINDS_UTIL ? DISKPRED_NONE
                       : udisk > ucpu                    ? DISKPRED_DISK
                                                         : DISKPRED_CPU;
        /* Little's law per station: the share of the response time is the share of the
         * transactions there (a rate-limited disk's wait for its limit is not in it) */
        out[i].cpu_share = qsum > 0 ? q[(size_t)(k - 1) * 3] / qsum : 0;
        out[i].disk_share = qsum > 0 ? q[(size_t)(k - 1) * 3 + 1] / qsum : 0;
    }
    free(x);
    free(q);
    return 0;
}

const char *diskpred_ceiling_text(const struct diskpred_base *b, const struct diskpred_profile *d,
                                  char *buf, size_t cap)
{
    double xdisk = b->ios > 0 ? d->iops / b->ios : INFINITY, xcpu = b->vcpus / b->cpu_s;
    if (xdisk < xcpu)
        snprintf(buf, cap, "disk-bound: %.0f IOPS / %.3g I/Os per transaction = %.0f tps", d->iops,
                 b->ios, xdisk);
    else
        snprintf(buf, cap, "CPU-bound: %u vCPUs / %.4g ms = %.0f tps", b->vcpus, 1e3 * b->cpu_s,
                 xcpu);
    return buf;
}

int diskpred_fill_point(const struct diskpred_base *b, const struct diskpred_profile *d,
                        const struct diskpred_level *lv, struct point *p)
{
    json_t *pred;
    if (point_set_str(&p->target, d->id) || point_set_str(&p->workload, b->workload) ||
        point_add_predicted_from(p, b->target))
        return POINT_ENOMEM;
    p->threads = (int64_t)lv->threads;
    p->tps = lv->tps;
    p->ci95_tps = lv->tps * DISKPRED_REL95;
    p->latency_ms.avg = lv->latency_ms;
    p->predicted = 1;
    p->source_kind = POINT_SRC_PREDICTION;
    p->server.v[PSRV_IOS_PER_TX] = b->ios;
    p->server.v[PSRV_IOPS] = b->ios * lv->tps;
    if (point_set_str(&p->server.from, "predicted (sizeup predict --disk)"))
        return POINT_ENOMEM;
    pred = json_pack("{s:s,s:{s:s,s:f,s:f,s:s},s:f,s:f,s:I,s:f,s:f,s:s,s:f,s:f,s:f,s:f}", "method",
                     "mean-value analysis: CPU (vCPUs), disk (IOPS, latency), delay", "disk", "id",
                     d->id, "iops", d->iops, "latency_ms", d->latency_ms, "source", d->source,
                     "cpu_ms", 1e3 * b->cpu_s, "cpu_ms_measured", 1e3 * b->cpu_s_measured, "vcpus",
                     (json_int_t)b->vcpus, "ios_per_tx", b->ios, "delay_ms", 1e3 * b->z_s, "binds",
                     diskpred_binds_name(lv->binds), "utilisation", lv->util, "disk_share",
                     lv->disk_share, "cpu_share", lv->cpu_share, "from_level", b->at_threads);
    if (!pred)
        return POINT_ENOMEM;
    if (!p->extra && !(p->extra = json_object())) {
        json_decref(pred);
        return POINT_ENOMEM;
    }
    return json_object_set_new(p->extra, "prediction", pred) ? POINT_ENOMEM : POINT_OK;
}
