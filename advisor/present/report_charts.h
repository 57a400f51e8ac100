/*
 * report_charts.h - the charts of the HTML report (report_html.h), inline SVG (svg.h): the
 * throughput per cost of each configuration as bars with their 95 % whiskers, every candidate's
 * curve on one axis, the disk choices' curves (rank --disks), and per configuration and workload
 * the throughput and latency plots with the notes on the curve's shape and model. Each writes
 * HTML to f; names are escaped. Used by report_html.c only.
 *
 * Thread-safety: functions touch only their arguments and f.
 */
#ifndef SIZEUP_ADVISOR_REPORT_CHARTS_H
#define SIZEUP_ADVISOR_REPORT_CHARTS_H

#include "rankset.h"

#include <stdio.h>

/* Samples of each fitted curve drawn. */
#define REPORT_CURVE_SAMPLES 96
/* Configurations whose curves are drawn (the first in ranking order); the rest are listed. */
#define REPORT_MAX_PLOTTED 24
/* Rows of the page's ranking, bar chart, cost and NPV tables: the first, in ranking order (a
 * ranking of a million configurations made a 150 MB page of a hundred thousand); the rest are in
 * rank --json and --csv. */
#define REPORT_MAX_ROWS 200

/** The rows a table or chart of the page shows: the first REPORT_MAX_ROWS (report_html.h) in
 *  ranking order. */
size_t report_page_rows(const struct rank_set *s);

/** Under a table or chart cut at report_page_rows: how many it leaves out, and where they are
 *  (nothing when none is). */
void report_more_rows(FILE *f, const struct rank_set *s);

/** The bar chart of throughput per cost at the target, whiskers from the tps interval. */
void report_bars(FILE *f, const struct rank_set *s);

/** Every ranked candidate's throughput curve on one axis (the first ten, a colour each). */
void report_overlay(FILE *f, const struct rank_set *s);

/** rank --disks: per measured configuration, its curves on each disk choice on one axis. */
void report_disk_overlays(FILE *f, const struct rank_set *s);

/** The "Curves" section: per configuration (the first REPORT_MAX_PLOTTED) and workload, its
 *  shape and model notes, the throughput and the latency plots. */
void report_curves(FILE *f, const struct rank_set *s);

#endif
