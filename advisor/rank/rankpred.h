/*
 * rankpred.h - rank measured and predicted configurations together (`sizeup rank --predict`,
 * `sizeup report --predict`).
 *
 * After rank_set_build has ranked the measured configurations, rankpred_add adds every
 * configuration predict_set_build predicted (predict.h) for the workloads of the ranking's
 * mix, unless it was measured itself (a configuration with points of its own is ranked on
 * them; a workload of the mix it lacks stays "no curve"). A predicted configuration's curves
 * are built from its predicted points (curve.h, source CURVE_SOURCE_PREDICTED) and evaluated
 * at the target like measured ones; its row is labelled basis CURVE_BASIS_PREDICTED, rank_set
 * from[k] names the measured configurations its points came from, and its 95 % interval is
 * widened to at least the predicted points' own (which carry the family's leave-one-out error)
 * at the concurrency of the answer, interpolated between levels on log N. Configurations on
 * the same instance share one predicted curve (one curve set of the ranking) and one
 * evaluation; only the price differs. The rows are sorted again (rank_set_sort).
 *
 * Thread-safety: touches only its arguments.
 */
#ifndef SIZEUP_ADVISOR_RANKPRED_H
#define SIZEUP_ADVISOR_RANKPRED_H

#include "predict.h"
#include "rankset.h"

#include <stdio.h>

/* What rankpred_add did. */
struct rankpred_stats {
    size_t added;            /* predicted configurations ranked */
    size_t sets;             /* distinct predicted curve sets */
    size_t not_predicted;    /* configurations of the catalogs neither measured nor predicted
                                because no size of their family was measured */
    char families[400];      /* their families, "c6i, c7g, ..." (the first that fit) */
    size_t no_clock;         /* not predicted: a clock transfer without both clock_ghz */
    char no_clock_list[400]; /* those configurations, "m5.large, ..." (the first that fit) */
    size_t other;            /* not predicted for another reason (no vcpu, no family, refused) */
    size_t no_memory;        /* of them, those whose memory cannot hold the measured buffer pool */
    double pool_mib;         /* the largest such pool, MiB */
    char small[400];         /* those configurations, "c5.large, ..." (the first that fit) */
    size_t mem_unchecked;    /* predicted configurations whose instance has no memory_gib */
};

/**
 * Add ps's predicted configurations to the ranking s (built from the same points and catalogs,
 * s->cat == ps->cat).
 * @param errf  problems (a predicted curve that cannot be built), or NULL
 * @return the number of problems >= 0, or -1 when out of memory (s is then destroyed).
 */
int rankpred_add(struct rank_set *s, const struct predict_set *ps, struct rankpred_stats *st,
                 FILE *errf);

#endif
