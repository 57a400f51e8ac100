/*
 * predict.h - curves of catalog configurations that were not measured, predicted from the
 * measured configurations of the same instance family (`sizeup predict`, `sizeup rank
 * --predict`). The scaling model is models/hwscale.h; docs/predict.md is the user's page. It
 * fronts predict.c (the set and its rows), predict_join.c (the points joined to configurations
 * and the groups of measured sizes, the parts of predict_set_build that read the points) and
 * predict_points.c (a row as point records); the writers are present/predict_output.h's.
 *
 *     struct predict_set s;
 *     predict_set_init(&s);
 *     if (predict_set_build(&s, &points, cat, &opt, stderr) < 0) ...nothing to predict from
 *     predict_write_text(stdout, &s);           or predict_write_points(stdout, &s)
 *                                               (present/predict_output.h)
 *     predict_set_destroy(&s);
 *
 * Join: a point belongs to the configuration named by its `config`, else by --map, else to the
 * configuration whose id is its target (as sizeup rank joins). The points of a configuration and
 * workload form its curve by advisor/curve.h's rules (curve_groups_build: which points count,
 * a level record's pooled replicates left out), pooled into levels as curve.h pools them
 * (curve_levels_points: the mean tps, a 95 % half-width with the run-to-run noise of the whole
 * curve, the mean latency of each statistic).
 *
 * Families: a measured configuration on a catalog instance with a vCPU count and a family
 * (cat_instance_family: the catalog's `family`, else the name up to its first '.') is a member
 * of the group (family, workload, node count). Each member's curve is its levels: thread
 * count, mean tps, relative 95 % half-width (half95 / mean, NAN when unknown), and per latency
 * statistic (avg and every percentile the group measured) the level's mean latency divided by
 * Little's law threads / tps. Two members with the same vCPU count: the first by
 * configuration id is used, the other is named in a note.
 *
 * Prediction: every configuration of the catalogs (and every workload of the points) without
 * points of its own is predicted from its group, at opt->threads or else at every level the
 * group measured, with the group's leave-one-out error as q (hwscale_validate; with one
 * member HWSCALE_ONE_SIZE_REL95). A configuration whose family has no measured member is "not
 * predicted: probe one size of family F" unless a transfer rule names a source family: then
 * it is predicted from that family's group at its own vCPU count and the throughput (and its
 * interval) is multiplied by the per-core ratio, the latencies divided by it, labelled
 * "transfer". Configurations on the same instance share one predicted curve.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_PREDICT_H
#define SIZEUP_ADVISOR_PREDICT_H

#include "catalog.h"
#include "curve.h"
#include "hwscale.h"
#include "point.h"
#include "rankset.h"
#include "scores.h"
#include "slo.h"

#include <stdio.h>

/* A cross-family rule: predict family `family` from family `from`'s measured sizes. */
struct predict_transfer {
    char family[64];
    char from[64];
    double ratio;  /* per-core throughput of family over from's (> 0); NAN: the ratio of the
                      instances' clock_ghz (both must be known), or of their CPU scores */
    int score;     /* 1: the ratio of the per-core scores of predict_options.scores (scores.h) */
    char spec[64]; /* with score: "BENCH.KIND", or "" for the score file's best calibrated one */
};

/**
 * Parse "m5=c5:0.9" (family m5 from c5 at 0.9 x c5's per-core throughput), "m5=c5:clock",
 * "m5=c5:score" or "m5=c5:score:geekbench6.all" (the ratio of the instances' per-core CPU
 * scores, scores.h; without BENCH.KIND the score file's one with the smallest calibrated error).
 * @return 0, or -1 with err ("'m5=c5' is not a transfer rule: expected FAMILY=FROM:RATIO ...").
 */
int predict_transfer_parse(const char *s, struct predict_transfer *out, char *err, size_t cap);

/**
 * Check that both families of every transfer rule have an instance in the catalogs (a name
 * misspelt there matched nothing and the rule was silently unused) and that a family is not
 * predicted from itself.
 * @param text  the rules as given (for messages), n of them
 * @return 0; -1 with err ("--transfer m6i=zz9:score: no instance of family 'zz9' in the
 *         catalogs (they have: c5, c5a, ...)").
 */
int predict_transfer_check(const struct predict_transfer *tr, const char *const *text, size_t n,
                           const struct cat_catalog *cat, char *err, size_t cap);

/**
 * Check the score rules among n parsed transfers against a loaded score file: each needs the
 * file (sc non-NULL) and a calibrated error for its BENCH.KIND (or, without one, the file's
 * best calibrated one), since that error is the interval the transferred rows carry.
 * @param text  the rules as given (for messages), n of them
 * @param path  the score file's name (for messages), or NULL with sc
 * @return 0; -1 with err ("--transfer m5=c5:score: give --scores FILE", or which calibration is
 *         missing and how to measure it).
 */
int predict_score_check(const struct predict_transfer *tr, const char *const *text, size_t n,
                        const struct score_table *sc, const char *path, char *err, size_t cap);

#define PREDICT_MAX_TRANSFER 32

/* What to predict. */
struct predict_options {
    const double *threads; /* levels to predict (> 0); NULL: the group's measured levels */
    size_t n_threads;
    const struct predict_transfer *transfer;
    size_t n_transfer;
    const struct rank_map *maps; /* --map entries, as sizeup rank */
    size_t n_maps;
    const char *workload;             /* only this workload; NULL: every workload of the points */
    struct slo slo;                   /* the latency target of the leave-one-out comparison */
    const struct score_table *scores; /* for score transfers (borrowed), or NULL */
    int score_raw; /* 1: a score transfer's interval is not widened by its calibrated error (the
                      calibration itself, advisor/transfercal.h) */
};

/* One measured configuration of a group. */
/* The share of an instance's memory InnoDB's buffer pool may take on a dedicated database
 * server (MySQL 8.0 Reference Manual, 17.8.3.1 "Configuring InnoDB Buffer Pool Size": up to 80
 * percent of physical memory; MariaDB's Knowledge Base says the same for innodb_buffer_pool_size).
 * A configuration whose share is smaller than the smallest buffer pool its family's measured
 * sizes ran with is not predicted (PREDICT_NO_MEMORY): its curve would have more misses than any
 * measured one. */
#define PREDICT_POOL_SHARE 0.8

struct predict_member {
    const char *config;                  /* borrowed from the catalog */
    const struct cat_instance *instance; /* borrowed */
    size_t m;                            /* distinct thread levels */
    double *threads, *tps, *rel_ci;      /* owned, m each */
    double *lat_ratio[HWSCALE_MAX_LAT];  /* owned, m each (NAN where not measured) */
    size_t n_points;
    int used;        /* 0: left out (another member has the same vCPU count) */
    double pool_mib; /* the buffer pool its curve used: the largest min(data, buffer pool) of its
                      * points' server blocks, MiB; NAN when no point says */
};

/* A group: one family, workload and node count with measured members. */
struct predict_group {
    char family[64];
    char workload[64];
    int nodes;
    size_t n_members;
    struct predict_member *members; /* owned, sorted by vCPU */
    size_t n_sizes;                 /* members used */
    struct hwscale_size *sizes;     /* owned, n_sizes; sizes[i] is members[size_member[i]] */
    size_t *size_member;
    size_t n_levels;
    double *levels; /* owned: the union of the members' levels, ascending */
    size_t n_lat;
    double lat_pct[HWSCALE_MAX_LAT]; /* statistic k: 0 the mean, else the percentile */
    struct hwscale_loo *loo;         /* owned, n_sizes */
    struct hwscale_validation val;   /* leave-one-out at opt->slo (val.n = 0 with one size) */
    int target_stat;                 /* index of opt->slo's statistic in lat_pct, -1 none */
    double rel95;                    /* q: val.rel95, or HWSCALE_ONE_SIZE_REL95 */
};

/* One predicted curve (shared by the configurations on one instance). */
struct predict_curve {
    size_t group;                        /* the group predicted from */
    const struct cat_instance *instance; /* borrowed */
    struct hwscale_info info;
    size_t m;
    struct hwscale_level *levels; /* owned, m */
    int transfer;                 /* 1: from another family's group */
    double ratio;                 /* per-core ratio applied (1 without transfer) */
    int ratio_from_clock;
    const char *score_spec; /* a score transfer's BENCH.KIND (borrowed), else NULL */
    int score_from_family;  /* 1: a family's median score stood in for an instance's */
    double score_error;     /* the calibrated relative error the interval was widened to (the
                               half-width is at least score_error x tps), 0 when none */
    double score_coverage;  /* the share of peaks that error held in the calibration */
    int processor_differs;  /* 1: a size used has another known processor than the instance */
};

enum predict_status {
    PREDICT_OK = 0,     /* predicted */
    PREDICT_MEASURED,   /* has points of its own: not predicted */
    PREDICT_NO_SIBLING, /* no measured size of its family (and no transfer rule) */
    PREDICT_NO_VCPU,    /* its instance has no vcpu in the catalog */
    PREDICT_NO_FAMILY,  /* no family (an on-premises server, an instance without one) */
    PREDICT_NO_CLOCK,   /* a clock transfer without both clocks */
    PREDICT_FAILED,     /* the model refused the input (message on errf) */
    PREDICT_NO_MEMORY,  /* its memory cannot hold the buffer pool its family's measured sizes
                           used (the smallest of them, against PREDICT_POOL_SHARE of it): never
                           ranked  as if   the data fit */
    PREDICT_NO_SCORE    /* a score transfer without a score of the instance or of the source
                           family, or without a calibrated error in the score file */
};

/* One configuration and workload of the catalogs. */
struct predict_row {
    const char *config;   /* borrowed */
    const char *workload; /* borrowed from a group or the points */
    char family[64];      /* "" when none */
    enum predict_status status;
    long curve;        /* index into curves, or -1 */
    double pool_mib;   /* PREDICT_NO_MEMORY: the buffer pool the measured sizes used, MiB */
    double mem_mib;    /* and PREDICT_POOL_SHARE of the instance's memory, MiB */
    int mem_unchecked; /* predicted though its instance gives no memory to hold the pool with */
};

struct predict_set {
    struct predict_options opt;
    const struct cat_catalog *cat; /* borrowed */
    const char *source_file;       /* the first points file, for source.file; borrowed */
    size_t n_groups;
    struct predict_group *groups;
    size_t n_curves, cap_curves;
    struct predict_curve *curves;
    size_t n_rows, cap_rows;
    struct predict_row *rows;
    size_t n_points; /* points used */
};

/** Set an embedded set empty. */
void predict_set_init(struct predict_set *s);

/** Free what a set owns. NULL-safe. */
void predict_set_destroy(struct predict_set *s);

/**
 * Join the points, build the groups, validate them and predict every configuration of cat.
 * @param pts   measured points (borrowed; must outlive s for source_file)
 * @param cat   loaded catalogs (borrowed; must outlive s)
 * @param errf  problems, one line each ("sizeup: FILE:LINE: target 'x': configuration 'x' is
 *              not in the catalogs ..."), or NULL
 * @return the number of problems reported (points joining no configuration; an instance of a
 *         measured family without vcpu, at its cat_instance.where) >= 0, or -1 when
 *         nothing can be predicted from (no point joins a configuration with a family and a
 *         vCPU count; said on errf) or memory ran out.
 */
int predict_set_build(struct predict_set *s, const struct point_list *pts,
                      const struct cat_catalog *cat, const struct predict_options *opt, FILE *errf);

/** Text of a status: "predicted", "measured", "not predicted: probe one size of family %s"... */
const char *predict_status_text(enum predict_status st);

/* ---- predict_join.c: the measured side of predict_set_build --------------------------------- */

/* The points joined to the catalogs' configurations (the Join above). */
struct predict_join {
    const char **keys; /* [point]: its configuration id, NULL when it joins none */
    const char **bad;  /* configuration ids joining nothing, said once each */
    size_t n_bad;
    struct curve_groups groups; /* the measured curves, by configuration id and workload */
    const char *wl[64];         /* the workloads predicted: opt's, or every measured one */
    size_t n_wl;
    unsigned char *measured; /* [config * n_wl + workload]: 1 when it has points of its own */
};

/**
 * Join pts to s->cat's configurations (s->opt and s->cat set), build the measured curves, and
 * set s->source_file and s->n_points. A point joining no configuration is said on errf once per
 * configuration id. j starts zeroed; free it with predict_join_destroy, success or not.
 * @return the number of configuration ids said (>= 0), or -1 out of memory.
 */
int predict_join_points(struct predict_set *s, const struct point_list *pts, struct predict_join *j,
                        FILE *errf);

/**
 * Build s's groups from the measured configurations of j (Families above), each with its
 * sizes, levels and leave-one-out validation.
 * @return 0; -1 out of memory; -2 nothing to predict from, or a point or group the model
 *         refused (said on errf).
 */
int predict_groups_build(struct predict_set *s, const struct point_list *pts,
                         const struct predict_join *j, FILE *errf);

/** Free what a join owns and zero it. */
void predict_join_destroy(struct predict_join *j);

/* ---- predict_points.c ------------------------------------------------------------------- */

/**
 * Append the predicted points of row i (status PREDICT_OK) to out: one sizeup.point/1 per
 * level, "basis": "predicted", predicted_from, ci95_tps, latency_ms, extra.prediction.
 * @return POINT_OK, POINT_EINVAL (the row is not predicted), POINT_ENOMEM.
 */
int predict_row_points(const struct predict_set *s, size_t i, struct point_list *out);

/* ---- predict.c, continued ------------------------------------------------------------------ */

/**
 * The measured configurations a curve used (its sizes at any level), comma-separated, into
 * buf (cap bytes). @return buf.
 */
const char *predict_curve_from(const struct predict_set *s, const struct predict_curve *c,
                               char *buf, size_t cap);

#endif
