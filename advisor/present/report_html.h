/*
 * report_html.h - a ranking as one self-contained HTML page (inline CSS and SVG; no scripts,
 * no external assets, readable offline) or as a Markdown summary.
 *
 * The page holds, in order: the answer in one sentence; the ranking table (rank_set); a bar
 * chart of throughput per cost; per configuration and workload a throughput-vs-concurrency
 * plot (series "band": the fitted curve's 95 % interval, "fit": the fitted curve,
 * "measured": the measured points, "slo": the point where the latency target binds) and a
 * latency-vs-concurrency plot (series "latency-model", "latency-measured", "slo-line",
 * "slo"); a configuration ranked on predicted points (rankpred.h) has "predicted" (dashed),
 * "predicted-points" (hollow), "latency-predicted" and "latency-predicted-points" instead;
 * with a confidence (ranking.h) a "How sure" section (P(best), ties, break-even price,
 * what to probe next) after the ranking; and the inputs: target, workloads, pricing, points files,
 * catalog files with their name and as-of date, and every cost term with its source and date.
 *
 * The charts are report_charts.h's.
 *
 * Thread-safety: touches only its arguments.
 */
#ifndef SIZEUP_ADVISOR_REPORT_HTML_H
#define SIZEUP_ADVISOR_REPORT_HTML_H

#include "ranking.h"
#include "report_charts.h"

#include <stdio.h>

/* Configurations named in one item of the page's price-age list; the rest counted. */
#define REPORT_AGE_NAMES 12

/* What the report says about where its inputs came from (borrowed strings). */
struct report_inputs {
    const char *const *points_files;
    size_t n_points_files;
    const char *generated_by; /* e.g. "sizeup 0.1.0" */
};

/** Write the HTML page. @return 0, or -1 when writing failed. */
int report_write_html(FILE *f, const struct ranking *rk, const struct report_inputs *in);

/** Write the Markdown summary (ranking table, notes, inputs). @return 0 or -1. */
int report_write_markdown(FILE *f, const struct ranking *rk, const struct report_inputs *in);

#endif
