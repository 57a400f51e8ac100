/*
 * ranking.h - the ranking pipeline, built in one place for `sizeup rank`, `sizeup report` and a
 * study: the disk choices' derived configurations (diskrank.h), the measured configurations
 * joined, fitted, evaluated, priced and sorted (rankset.h), the predicted sizes (rankpred.h),
 * how sure the order is (confidence.h) and the cost over a horizon with where the decision flips
 * (tco.h). The confidence and the TCO are held by value beside the rows; the writers
 * (rank_output.h, report_html.h) read a struct ranking.
 *
 *     struct ranking r;
 *     ranking_init(&r);
 *     if (ranking_build(&r, &pts, cat, &ask, stderr) >= 0)
 *         ranking_write_text(stdout, &r);
 *     ranking_destroy(&r);
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_RANKING_H
#define SIZEUP_ADVISOR_RANKING_H

#include "confidence.h"
#include "diskrank.h"
#include "predict.h"
#include "rankset.h"
#include "tco.h"

#include <stdio.h>

/* What a ranking is asked, besides the points and the catalogs. Everything is borrowed. */
struct ranking_ask {
    struct rank_options opt;     /* the latency target, pricing, mix, required tps, horizon */
    const struct rank_map *maps; /* --map: target -> configuration */
    size_t n_maps;
    const struct diskrank_spec *disks; /* --disks: disk types and sizes to model the measured
                                          configurations on (checked against the catalogs by
                                          the caller); NULL/0: none */
    size_t n_disks;
    const char *const *disks_from; /* --disks-from: only these measured configurations */
    size_t n_disks_from;
    int predict;                             /* 1: the catalogs' unmeasured sizes (rankpred.h) */
    const struct predict_transfer *transfer; /* --transfer rules (predict.h) */
    size_t n_transfer;
    const struct score_table *scores; /* CPU scores for score transfers (scores.h), or NULL */
};

/* A built ranking: the rows and how people should read them. */
struct ranking {
    struct rank_set set;         /* the rows, in ranking order */
    struct rank_confidence conf; /* how sure the order is; valid when has_conf */
    struct rank_tco tco;         /* horizon, like for like, where it flips; valid when has_tco */
    int has_conf, has_tco;
};

/** Set r empty (nothing to free yet). */
void ranking_init(struct ranking *r);

/** Free what r owns; leaves it empty. NULL-safe. */
void ranking_destroy(struct ranking *r);

/** r's confidence, or NULL when none was computed. */
const struct rank_confidence *ranking_conf(const struct ranking *r);

/** r's TCO, or NULL when none was computed. */
const struct rank_tco *ranking_tco(const struct ranking *r);

/**
 * Build the ranking of pts on cat as a asks: disks (their derived configurations are added to
 * cat and their predicted points to pts), rank_set_build, the predicted sizes (their notes go to
 * r->set.trailer), conf_compute and tco_compute.
 * @param r    initialised (ranking_init); built on success
 * @param pts  the points (points derived for --disks are appended)
 * @param cat  the catalogs (configurations derived for --disks are added)
 * @param err  problems, one line each ("sizeup: ..."); may not be NULL
 * @return the number of problems that leave part of the question unanswered (points that join
 *         nothing, curves that cannot be fitted, configurations without a price, disks that
 *         could model nothing) >= 0, or -1 when nothing can be ranked or out of memory (said;
 *         r is left empty).
 */
int ranking_build(struct ranking *r, struct point_list *pts, struct cat_catalog *cat,
                  const struct ranking_ask *a, FILE *err);

#endif
