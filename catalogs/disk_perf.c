/* disk_perf.c - IOPS and MB/s of a disk type from its rule data (formulas in disk_perf.h). */
#include "disk_perf.h"

#include "errtext.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

double cat_rule_eval(const struct cat_perf_rule *r, double size_gib)
{
    double v = r->base + r->per_gib * size_gib;
    v = fmin(v, r->cap);
    v = fmin(v, r->cap_per_gib * size_gib);
    return fmax(r->floor, v);
}

static int bad(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    if (msg && cap) {
        va_start(ap, fmt);
        errtext_vset(msg, cap, NULL, 0, 0, fmt, ap);
        va_end(ap);
    }
    return CAT_EINVAL;
}

int cat_disk_performance(const struct cat_disk *d, double size_gib, double provisioned_iops,
                         double provisioned_mb_s, struct cat_disk_perf *out, char *msg,
                         size_t msg_cap)
{
    double iops_limit;
    if (!(size_gib >= d->min_gib && size_gib <= d->max_gib))
        return bad(msg, msg_cap, "%s: %g GiB is outside the capacity range [%g, %g] GiB", d->id,
                   size_gib, d->min_gib, d->max_gib);
    if (!(provisioned_iops >= 0) || !(provisioned_mb_s >= 0))
        return bad(msg, msg_cap, "%s: provisioned IOPS and MB/s must be >= 0", d->id);
    if (provisioned_iops > 0 && !d->has_prov_iops)
        return bad(msg, msg_cap, "%s takes no provisioned IOPS", d->id);
    if (provisioned_mb_s > 0 && !d->has_prov_throughput)
        return bad(msg, msg_cap, "%s takes no provisioned throughput", d->id);
    out->size_gib = size_gib;
    out->baseline_iops = cat_rule_eval(&d->iops, size_gib);
    out->baseline_throughput_mb_s = cat_rule_eval(&d->throughput_mb_s, size_gib);
    out->provisioned_iops = provisioned_iops;
    out->provisioned_throughput_mb_s = provisioned_mb_s;
    out->iops = out->baseline_iops + provisioned_iops;
    out->throughput_mb_s = out->baseline_throughput_mb_s + provisioned_mb_s;
    if (provisioned_iops > 0)
        out->throughput_mb_s =
            fmax(out->throughput_mb_s,
                 fmin(out->throughput_mb_s + d->throughput_per_prov_iops * provisioned_iops,
                      d->prov_iops_throughput_max));
    if (d->has_prov_iops) {
        if (provisioned_iops > d->prov_iops_max)
            return bad(msg, msg_cap, "%s: %g provisioned IOPS exceed the maximum %g", d->id,
                       provisioned_iops, d->prov_iops_max);
        iops_limit = fmin(d->prov_iops_total_max, d->prov_iops_total_per_gib * size_gib);
        if (provisioned_iops > 0 && out->iops > iops_limit)
            return bad(msg, msg_cap,
                       "%s: %g IOPS in total exceed the limit %g at %g GiB "
                       "(min(%g, %g per GiB))",
                       d->id, out->iops, iops_limit, size_gib, d->prov_iops_total_max,
                       d->prov_iops_total_per_gib);
        if (out->iops < d->prov_iops_total_min)
            return bad(msg, msg_cap, "%s: %g IOPS in total are below the minimum %g", d->id,
                       out->iops, d->prov_iops_total_min);
    }
    if (provisioned_mb_s > 0) {
        double tp_limit = fmin(d->prov_tp_total_max, d->prov_tp_total_per_iops * out->iops);
        if (out->throughput_mb_s > tp_limit)
            return bad(msg, msg_cap,
                       "%s: %g MB/s in total exceed the limit %g at %g IOPS "
                       "(min(%g, %g per IOPS))",
                       d->id, out->throughput_mb_s, tp_limit, out->iops, d->prov_tp_total_max,
                       d->prov_tp_total_per_iops);
    }
    return CAT_OK;
}
