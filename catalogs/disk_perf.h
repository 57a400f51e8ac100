/*
 * disk_perf.h - performance of a disk type at a capacity and provisioning, from the rule data of
 * struct cat_disk (catalog.h). No provider is special-cased: AWS gp3/gp2/io2, Alibaba ESSD
 * PL0-PL3 and AutoPL, Huawei EVS and local NVMe all differ only in their numbers
 * (each rule's source, the vendor's documentation page, is in its catalog entry in
 * data/catalogs/).
 *
 *   baseline(C)   = max(floor, min(base + per_gib*C, cap, cap_per_gib*C))   for IOPS and MB/s
 *   IOPS          = baseline_iops(C) + P                (P = provisioned IOPS, bought extra)
 *   MB/s          = baseline_mb_s(C) + T + min(k*P, ...) (k = throughput_mb_s_per_iops,
 *                                                         T = provisioned MB/s, bought extra;
 *                   the k*P part stops at throughput_mb_s_max, e.g. io2's 4,000 MiB/s)
 *   limits        P <= max;  total_min <= IOPS <= min(total_max, total_max_per_gib*C);
 *                 when T > 0: MB/s <= min(total_max, total_max_per_iops*IOPS)
 *
 * Example (ESSD PL1, "ESSDs" user guide): C = 500 GiB -> IOPS = min(1800 + 50*500, 50000)
 * = 26800, MB/s = min(120 + 0.5*500, 350) = 350.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_CATALOGS_DISK_PERF_H
#define SIZEUP_CATALOGS_DISK_PERF_H

#include "catalog.h"

#include <stddef.h>

/* Performance of one volume. */
struct cat_disk_perf {
    double size_gib;
    double baseline_iops, iops;                       /* IOPS */
    double baseline_throughput_mb_s, throughput_mb_s; /* MB/s */
    double provisioned_iops, provisioned_throughput_mb_s;
};

/** Value of a rule at capacity size_gib (>= 0): max(floor, min(base + per_gib*C, cap,
 *  cap_per_gib*C)). */
double cat_rule_eval(const struct cat_perf_rule *r, double size_gib);

/**
 * Performance of a volume of disk type d.
 *
 * @param size_gib           capacity, GiB, within [d->min_gib, d->max_gib]
 * @param provisioned_iops   extra IOPS bought on top of the baseline, >= 0 (0 when the type
 *                           has no provisioning)
 * @param provisioned_mb_s   extra MB/s bought on top of the baseline, >= 0
 * @param out                filled on success
 * @param msg                on error, what limit was broken (may be NULL)
 * @return CAT_OK, or CAT_EINVAL (capacity out of range, provisioning the type does not offer
 *         or above its limits; msg says which).
 */
int cat_disk_performance(const struct cat_disk *d, double size_gib, double provisioned_iops,
                         double provisioned_mb_s, struct cat_disk_perf *out, char *msg,
                         size_t msg_cap);

#endif
