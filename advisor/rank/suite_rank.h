/*
 * suite_rank.h - configurations ranked by what one run of a query suite costs on them
 * (`sizeup rank --suite`): the suite's total time (the seconds of its queries, one after the
 * other) priced at the configuration's cost per hour,
 *
 *     cost per run = price per hour x total_s / 3600,
 *
 * and ranked by it (the cheapest run first), with the rank by suite time beside it and a
 * per-query comparison. docs/suite-record.md.
 *
 * Join: a suite run belongs to the configuration its record names (config), else to every
 * configuration --map gives for its target, else to the configuration whose id is its target.
 * The run was measured on the configuration its record names or its target is, else on the
 * first --map of its target; on any other configuration it is joined to, its times are the
 * measured ones taken as they are (basis "same times as X": the price differs, the times were
 * not measured there). A run with failed queries has no full total: it ranks after every
 * complete run, its total and cost cover the queries that completed (shown as ">=").
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_SUITE_RANK_H
#define SIZEUP_ADVISOR_SUITE_RANK_H

#include "catalog.h"
#include "cost.h"
#include "rankset.h"
#include "suite.h"

#include <stdio.h>

#define SUITE_RANKING_SCHEMA "sizeup.suite-ranking/1"

/* One configuration's run of one suite. */
struct suite_rank_row {
    const struct suite_run *run; /* borrowed */
    const char *config;          /* borrowed id (catalog) */
    const char *measured_on;     /* NULL: measured here; else the configuration it was */
    int priced;                  /* the catalog prices it under the pricing asked */
    double cost_per_hour;        /* catalog currency per hour; NAN when not priced */
    int cost_estimate;           /* a price term rests on an estimate */
    double total_s;              /* seconds of the completed queries */
    double cost_per_run;         /* cost_per_hour x total_s / 3600; NAN when not priced */
    size_t n_failed;
    int rank_cost, rank_time; /* 1-based; ties share a rank */
};

/* The rows of one suite, in ranking order. */
struct suite_ranking {
    const char *suite; /* borrowed */
    struct suite_rank_row *rows;
    size_t n;
};

struct suite_ranking_set {
    struct suite_ranking *r;
    size_t n;
    const struct cat_catalog *cat; /* borrowed */
    enum cat_pricing pricing;
};

/** Set an embedded set empty. */
void suite_ranking_init(struct suite_ranking_set *s);

/** Free what a set owns (not the runs or the catalog). NULL-safe. */
void suite_ranking_destroy(struct suite_ranking_set *s);

/**
 * Join the runs to configurations, price and rank them, one ranking per suite.
 * @param runs    suite runs (borrowed; must outlive s)
 * @param cat     catalogs (borrowed; must outlive s)
 * @param only    rank only this suite (NULL: every suite of the runs)
 * @param errf    problems, one line each ("sizeup: ..."): a run joining no configuration, a
 *                configuration without a price; may be NULL
 * @return the number of problems reported (>= 0), or -1 when nothing can be ranked (no run
 *         joins a configuration, no suite named only, out of memory; said on errf).
 */
int suite_ranking_build(struct suite_ranking_set *s, const struct suite_list *runs,
                        const struct cat_catalog *cat, enum cat_pricing pricing,
                        const struct rank_map *maps, size_t n_maps, const char *only, FILE *errf);

/** The rankings as aligned text, each followed by its per-query comparison. 0, or -1 when a
 *  write failed. */
int suite_ranking_write_text(FILE *f, const struct suite_ranking_set *s);

/** One sizeup.suite-ranking/1 JSON line per row (docs/suite-record.md). 0, or -1. */
int suite_ranking_write_json(FILE *f, const struct suite_ranking_set *s);

#endif
