/*
 * diskrank.h - a measured configuration on disk types and sizes it was not measured on, ranked
 * with everything else (`sizeup rank --disks`, `sizeup report --disks`): instance x disk type
 * x disk size, the binding resource of each row, and per disk type the smallest size past
 * which more size buys nothing.
 *
 *     struct diskrank_set ds;
 *     diskrank_set_init(&ds);
 *     diskrank_expand(&ds, &points, cat, &opt, maps, n_maps, specs, n_specs, stderr);
 *     rank_set_build(&s, &points, cat, &opt, maps, n_maps, stderr);  ranks the variants too
 *     diskrank_annotate(&ds, &s);
 *     diskrank_set_destroy(&ds);
 *
 * For every measured configuration of the catalogs whose host (an instance, or a server or
 * its slice) has a vCPU count and whose disk has a profile, and every --disks type and size:
 *   - the probed disk's profile: its type's IOPS at its size by the vendor rule
 *     (catalogs/disk_perf.h), the lower of that and the instance's block-storage cap
 *     (block_max_iops) for a network disk, and the type's latency_ms from the catalogs;
 *   - the model: advisor/diskpred.h's closed network (CPU, disk, delay) with the demands of the
 *     measured curve (its server block or a table's I/O columns) at its best level;
 *   - a derived configuration "CONFIG@TYPE:SIZE" (cat_config_derive: the same host, that disk
 *     at that size, priced by the catalog) with predicted points at the measured levels: the
 *     mean response time of the model, each percentile the measured curve has scaled by the
 *     measured level's ratio of that percentile to its mean (the shape of the distribution is
 *     kept; a disk that changes it is not modelled), and a 95 % interval that covers the
 *     model's validation error (DISKPRED_REL95) at the type's latency and at both ends of its
 *     stated range (an estimate's low and high);
 *   - per measured configuration and type, the knee: the CPU ceiling vCPUs / D_cpu needs
 *     ios x that IOPS; the smallest size whose IOPS reach it (bisection on the monotone rule)
 *     is where the disk stops binding, and past it more size buys nothing; a type whose cap
 *     (or the instance's) stays below it binds at every size, and past the size where its
 *     rule reaches the cap more size buys nothing either.
 * Sizes: those given, else a ladder of 20, 50, 100, 200, 500 GiB, ... within the type's range,
 * plus the knee rounded up to 10 GiB and the measured size; never smaller than the data the
 * points' server blocks measured (data_mib).
 * What cannot be modelled (no vCPU count, no disk, a disk or type without latency, no demands
 * in the points, a local type the host lacks, a network type on an on-premises server or
 * without a price) is said once on errf and left out, never ranked on made-up figures.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_DISKRANK_H
#define SIZEUP_ADVISOR_DISKRANK_H

#include "catalog.h"
#include "diskpred.h"
#include "point.h"
#include "rank.h"
#include "rankset.h"

#include <stddef.h>
#include <stdio.h>

#define DISKRANK_MAX_SIZES 32
#define DISKRANK_MAX_SPECS 32

/* One --disks argument: TYPE[:SIZE[,SIZE...]][@LATENCY]. */
struct diskrank_spec {
    char type[96];
    double sizes[DISKRANK_MAX_SIZES]; /* GiB */
    size_t n_sizes;                   /* 0: the default ladder */
    double latency_ms;                /* stated; NAN: the type's latency_ms in the catalogs */
};

/**
 * Parse "TYPE", "TYPE:100,500" or "TYPE:500@0.2ms" (LATENCY with its unit, at most 10 s).
 * Sizes are numbers of GiB > 0, at most DISKRANK_MAX_SIZES; the type is looked up later.
 * @return 0, or -1 with err ("'x:abc': the size 'abc' is not a number of GiB", ...).
 */
int diskrank_spec_parse(const char *arg, struct diskrank_spec *out, char *err, size_t cap);

/* One measured curve modelled (a configuration and a workload of the mix). */
struct diskrank_model {
    char config[128];
    char workload[128];
    struct diskpred_base b;
    double net_cap; /* IOPS no network disk passes on this host: what the network disk measured
                       delivered when it delivered less than its rule (diskpred.h calibration),
                       else INFINITY */
};

/* One derived configuration. */
struct diskrank_variant {
    char config[256];            /* its id, CONFIG@TYPE:SIZE */
    char base[128];              /* the measured configuration */
    size_t model[RANK_MAX_MIX];  /* per workload of the mix */
    struct diskpred_profile d;   /* the disk at its size (latency: the type's value) */
    double lat_lo_ms, lat_hi_ms; /* the latency's range (both the value when none) */
};

struct diskrank_set {
    size_t n_mix;
    char workloads[RANK_MAX_MIX][128];
    struct diskrank_model *models; /* owned */
    size_t n_models;
    struct diskrank_variant *vars; /* owned */
    size_t n_vars;
    char *text; /* the knee of each (measured configuration, type), lines (owned), or NULL */
};

/** Set an embedded set empty. */
void diskrank_set_init(struct diskrank_set *ds);

/** Free what it owns. NULL-safe. */
void diskrank_set_destroy(struct diskrank_set *ds);

/**
 * Derive the configurations and append their predicted points (see the top of this file).
 * @param pts    measured points; the predicted ones are appended (their source_file: the
 *               first point's)
 * @param cat    loaded catalogs; the derived configurations are added
 * @param opt    the ranking's mix (n_mix 0: the points' only workload) and target statistic
 * @param only   the measured configurations to model (n_only 0: every one)
 * @param errf   what is left out and why, one line each; may be NULL
 * @return the number of derived configurations >= 0, or -1 out of memory.
 */
long diskrank_expand(struct diskrank_set *ds, struct point_list *pts, struct cat_catalog *cat,
                     const struct rank_options *opt, const struct rank_map *maps, size_t n_maps,
                     const struct diskrank_spec *specs, size_t n_specs, const char *const *only,
                     size_t n_only, FILE *errf);

/**
 * After the ranking: each derived row's note (s->note) names what binds at the concurrency of
 * its answer (or at its best level when it meets no target), e.g. "huawei-evs-ssd at 200 GiB
 * (11,800 IOPS, 1 ms): disk-bound at 16 threads, 98 % busy; ceiling 686 tps (disk)"; ds->text is
 * added to the ranking's trailer. @return 0, or -1 out of memory.
 */
int diskrank_annotate(const struct diskrank_set *ds, struct rank_set *s);

#endif
