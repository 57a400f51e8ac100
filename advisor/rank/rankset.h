/*
 * rankset.h - a whole ranking: points joined to catalog configurations, one fitted curve per
 * configuration and workload, one ranked row per configuration (rank.h), and its output as
 * an aligned text table, sizeup.ranking/1 JSON Lines (docs/ranking-record.md), CSV or
 * Markdown. `sizeup rank`, `sizeup report` and a study build one the same way:
 *
 *     struct rank_set s;
 *     rank_set_init(&s);
 *     if (rank_set_build(&s, &points, cat, &opt, maps, n_maps, stderr) < 0) ...error
 *     rank_set_write_text(stdout, &s);
 *     rank_set_destroy(&s);
 *
 * Join (rank_set_build): a point belongs to the configuration named by its `config` field;
 * else to the one --map gives for its target; else to the configuration whose id equals its
 * target. Points of workloads outside the mix are ignored. A curve is on nodes (scale-out)
 * when every point carries a node count and there are at least 2 distinct counts.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_RANKSET_H
#define SIZEUP_ADVISOR_RANKSET_H

#include "catalog.h"
#include "cost.h"
#include "point.h"
#include "rank.h"

#include <stdio.h>

/* One --map entry: points of target belong to configuration config. */
struct rank_map {
    const char *target;
    const char *config;
};

/**
 * Parse "target=config-id" (both non-empty) into m; the strings point into s, which must
 * outlive m (s is modified: the '=' becomes '\0').
 * @return 0, or -1 when s has no '=' or an empty side.
 */
int rank_map_parse(char *s, struct rank_map *m);

struct rank_set {
    struct rank_options opt;
    const struct cat_catalog *cat; /* borrowed */
    size_t n;                      /* configurations */
    char **config;                 /* ids, owned */
    struct curve *curves;          /* n_sets x opt.n_mix; an absent curve has m = 0 */
    struct rank_at *at;            /* n_sets x opt.n_mix: each set's curves at the target, the
                                      storage of rows[].at (owned) */
    size_t n_sets;                 /* curve sets (one per measured configuration; a set of
                                      predicted curves may be shared by several, rankpred.h) */
    size_t *config_set;            /* config k's curve set: its curves start at
                                      config_set[k] * opt.n_mix (owned) */
    struct rank_row *rows;         /* n rows, in ranking order after build */
    size_t *row_curve;             /* rows[i]'s index into config */
    char **from;                   /* from[k]: for a configuration ranked on predicted points,
                                      the measured configurations they came from ("c5.xlarge,
                                      c5.12xlarge"); NULL for a measured one (owned; the array
                                      itself NULL when nothing is predicted) */
    char **note;                   /* note[k]: a line said of configuration k's row (the disk
                                      model's binding resource, diskrank.h), or NULL (owned; the
                                      array itself NULL when there is none) */
    char **measured;               /* measured[k]: how configuration k's points were measured,
                                      as far as they say: the server's version, the tables and
                                      rows, where the client ran ("MariaDB 10.11.6; 1 x 10000
                                      rows; client on the server's host"), or NULL when they say
                                      nothing (owned; the array NULL when no row says) */
    size_t n_points;               /* points used */
    char *trailer;    /* text printed at the end of the text table ("note: ..." lines), or NULL
                         (owned) */
    size_t text_rows; /* the text and Markdown tables show the first text_rows rows and say how
                         many more there are (0: every row; JSON and CSV hold every row) */
};

/* rank's --top default: a table a person reads; a million rows go to --json or --csv. */
#define RANK_TEXT_ROWS_DEFAULT 1000

/** The configuration a point joins: its config, else the --map of its target, else its target
 *  (borrowed from p or maps). */
const char *rank_point_config(const struct point *p, const struct rank_map *maps, size_t n_maps);

/** Set an embedded set empty. */
void rank_set_init(struct rank_set *s);

/** Free what a set owns. NULL-safe. */
void rank_set_destroy(struct rank_set *s);

/**
 * Join, fit, evaluate, price and sort.
 * @param pts     points (borrowed)
 * @param cat     loaded catalogs (borrowed; must outlive s)
 * @param opt     target, pricing, mix (n_mix 0: the single workload of the points)
 * @param errf    where problems are reported, one line each ("sizeup: FILE:LINE: ..."), or NULL
 * @return the number of problems reported (points that join no configuration, curves that
 *         cannot be fitted, configurations without a price) >= 0, or -1 when nothing can be
 *         ranked (no points join, several workloads and no --workload or --mix, out of
 *         memory; said on errf).
 */
int rank_set_build(struct rank_set *s, const struct point_list *pts, const struct cat_catalog *cat,
                   const struct rank_options *opt, const struct rank_map *maps, size_t n_maps,
                   FILE *errf);

/**
 * Sort the rows in ranking order (rank_sort) and set row_curve to match, in O(n log n).
 * @return 0, or -1 when out of memory (the rows are sorted, row_curve is left as it was).
 */
int rank_set_sort(struct rank_set *s);

/** The curves of row i (opt.n_mix of them; an absent one has m = 0). */
const struct curve *rank_set_curves(const struct rank_set *s, size_t i);

/**
 * Cost of row r as the ranking prices it: the ranking's pricing model unless p >= 0, at nodes
 * (0: the row's own count), with the standby copies of rank_options.ha_standby and the power
 * curve read at the row's measured utilisation (rank_row.load, when finite), plus n_ov
 * overrides (ov may be NULL). The text, the JSON, the report, the break-even and the horizon
 * all price a row through this. @return as catalogs/cost.h cat_config_cost_x.
 */
int rank_set_row_cost(const struct rank_set *s, const struct rank_row *r, int pricing, int nodes,
                      const struct cat_override *ov, size_t n_ov, struct cat_cost *out,
                      struct cat_error *err);

/**
 * rank_set_row_cost's figures without the terms' formulas (each left ""): the same per_hour,
 * terms, inputs and flags, for callers that print no breakdown (pricing every row, the horizon,
 * the break-even). @return as rank_set_row_cost.
 */
int rank_set_row_figures(const struct rank_set *s, const struct rank_row *r, int pricing, int nodes,
                         const struct cat_override *ov, size_t n_ov, struct cat_cost *out,
                         struct cat_error *err);

/**
 * Price an evaluated row (rank.h rank_row_price through rank_set_row_cost): its costs, ha,
 * owned, standby_added, cost_estimate, power_load. @return rank_row_price's.
 */
int rank_set_price_row(const struct rank_set *s, struct rank_row *row,
                       const struct curve *const *cv);

/**
 * The oldest dated price row r's cost rests on, as rank_set_row_cost prices it: its as_of
 * (YYYY-MM-DD into as_of, "" when no term is dated) and its source (borrowed from the catalog,
 * or NULL). @return 0, or -1 when the row cannot be priced.
 */
int rank_set_row_price_date(const struct rank_set *s, const struct rank_row *r, char as_of[11],
                            const char **source);

/** Workloads of the mix as text: "oltp_legacy" or "oltp_read_write 0.7, ...". */
const char *rank_set_workloads(const struct rank_set *s, char *buf, size_t cap);

/**
 * The owned server row r runs on, when it has a power curve and r a load to read it at (NULL
 * otherwise); *cf is set to r's configuration (NULL when the catalogs lack it). Both borrowed
 * from s->cat.
 */
const struct cat_server *rank_set_row_server(const struct rank_set *s, const struct rank_row *r,
                                             const struct cat_config **cf);

#endif
