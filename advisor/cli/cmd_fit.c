/* cmd_fit.c - `sizeup fit POINTS...`: fit saturation models to every curve. */
#include "cli.h"
#include "commands.h"
#include "curve.h"
#include "fit_record.h"
#include "import.h"
#include "point.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gsl_rng seed of --bootstrap: fixed, so a run is reproducible */
#define BOOTSTRAP_SEED 42UL

#define MAX_PREDICT 64

struct fit_cli {
    int model; /* FIT_AUTO or enum model_kind */
    int by_nodes, by_qps, json;
    double think_s;
    struct slo target; /* --latency-target; has_target when given */
    int has_target;
    long long boot_b; /* 0: delta method */
    long long predict[MAX_PREDICT];
    size_t n_predict;
};

static const struct cli_choice fit_models[] = {{"usl", MODEL_USL},
                                               {"amdahl", MODEL_AMDAHL},
                                               {"piecewise", MODEL_PIECEWISE},
                                               {"auto", FIT_AUTO},
                                               {NULL, 0}};
static const struct cli_choice fit_x[] = {{"threads", 0}, {"nodes", 1}, {NULL, 0}};
static const struct cli_choice fit_y[] = {{"tps", 0}, {"qps", 1}, {NULL, 0}};

static const struct cli_opt fit_options[] = {
    {"model", 0, CLI_CHOICE, CLI_AT(struct fit_cli, model), .arg_name = "M", .choices = fit_models,
     .dflt = "auto", .help = "the model to fit"},
    {"x", 0, CLI_CHOICE, CLI_AT(struct fit_cli, by_nodes), .arg_name = "X", .choices = fit_x,
     .dflt = "threads", .help = "the x axis"},
    {"y", 0, CLI_CHOICE, CLI_AT(struct fit_cli, by_qps), .arg_name = "Y", .choices = fit_y,
     .dflt = "tps", .help = "the throughput to fit"},
    {"think-time", 0, CLI_SECONDS, CLI_AT(struct fit_cli, think_s), .arg_name = "T", .min = 0,
     .max = 3600, .dflt = "0", .example = "5ms", .help = "closed-loop think time: R = N/X - T"},
    {"json", 0, CLI_FLAG, CLI_AT(struct fit_cli, json),
     .help = "write sizeup.fit/1 records (JSON Lines)"},
    {"predict", 0, CLI_INT_LIST, CLI_LIST(struct fit_cli, predict, n_predict), .min = 1, .max = 1e9,
     .example = "8,64,256", .help = "print X(N) and mean latency R(N) with intervals there"},
    {"latency-target", 0, CLI_SLO, CLI_AT(struct fit_cli, target), .arg_name = "avg:T",
     .example = "avg:20ms", .help = "mean latency target: the concurrency and throughput there"},
    {"bootstrap", 0, CLI_INT, CLI_AT(struct fit_cli, boot_b), .arg_name = "B", .min = 100,
     .max = 1000000, .example = "2000", .dflt_doc = "the delta method",
     .help = "peak/ceiling intervals by residual bootstrap of B refits"},
    {0}};

const struct cli_cmd cmd_fit_cli = {
    .name = "fit",
    .usage = "Usage: sizeup fit [OPTIONS] POINTS...",
    .description =
        "Fit the Universal Scalability Law, Amdahl's law and the piecewise min(lambda*N, X_max)\n"
        "bound to every curve (all points with the same target and workload) and print, per\n"
        "curve, the chosen model with 95 % intervals, the peak N* (or \"plateau, no peak in\n"
        "range\"), the ceiling, R^2 and the residuals. POINTS are sizeup.point/1 JSON Lines or\n"
        "anything `sizeup import` reads ('-' reads stdin); fit holds them in memory, at most\n"
        "250000 points (about 180 MB). A file or curve that cannot be used is\n"
        "reported on stderr, the others are still fitted, and the exit status is 3.\n"
        "Latency is the closed-loop mean from Little's law; with --y qps it is per query.\n"
        "auto picks the lowest AICc, and the USL only when its kappa is significant.\n"
        "Intervals are 95 %: delta method, or with --bootstrap percentiles of B refits\n"
        "(gsl_rng seed 42, reproducible).",
    .options = fit_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "no input files: give one or more POINTS files ('-' for stdin)"};

static void print_value(const char *unit, const struct derived_value *v)
{
    if (isfinite(v->lo) && isinf(v->hi))
        printf("%.5g [%.5g, unbounded)%s%s", v->value, v->lo, *unit ? " " : "", unit);
    else if (isfinite(v->lo))
        printf("%.5g [%.5g, %.5g]%s%s", v->value, v->lo, v->hi, *unit ? " " : "", unit);
    else
        printf("%.5g%s%s", v->value, *unit ? " " : "", unit);
}

static void print_param(const char *name, const struct model_param *p)
{
    printf("  %-11s ", name);
    if (p->fixed)
        printf("%-12.6g (at bound)\n", p->value);
    else if (isfinite(p->se))
        printf("%-12.6g ± %-10.4g 95%% [%.6g, %.6g]\n", p->value, p->se, p->lo, p->hi);
    else
        printf("%-12.6g (no interval: no degrees of freedom)\n", p->value);
}

static void print_block(const struct fit_record *r)
{
    const struct fit_result *fr = r->result;
    const struct model_fit *f = &fr->fits[fr->chosen];
    const struct model_derived *d = &r->derived;
    const char *xn = r->x_name, *yn = r->y_name;

    printf("%s / %s: %zu points, %s %g-%g, %s\n", r->target, r->workload, f->n, xn, f->n_min,
           f->n_max, yn);
    printf("  %-11s %s (%s)\n", "model", model_kind_name(fr->chosen), fr->reason);
    print_param("lambda", &f->par[MODEL_LAMBDA]);
    if (f->kind == MODEL_PIECEWISE) {
        if (isfinite(f->par[MODEL_XM].value))
            print_param("x_max", &f->par[MODEL_XM]);
    } else {
        print_param("sigma", &f->par[MODEL_SIGMA]);
        if (f->kind == MODEL_USL)
            print_param("kappa", &f->par[MODEL_KAPPA]);
    }
    printf("  %-11s ", "peak");
    if (d->has_peak) {
        printf("N* = ");
        print_value(xn, &d->n_peak);
        printf(", X = ");
        print_value(yn, &d->x_peak);
        printf("%s\n", d->peak_beyond ? " (beyond the data: extrapolated)" : "");
    } else if (d->falling) {
        printf("at or below the smallest %s measured: throughput falls throughout\n", xn);
    } else if (f->kind == MODEL_PIECEWISE && !isfinite(f->par[MODEL_XM].value)) {
        printf("none: linear over the measured range\n");
    } else {
        printf("plateau, no peak in range\n");
    }
    if (isfinite(d->ceiling.value)) {
        printf("  %-11s ", "ceiling");
        print_value(yn, &d->ceiling);
        printf(f->kind == MODEL_PIECEWISE ? " (x_max)\n" : " (lambda/sigma)\n");
    }
    if (isfinite(d->knee.value)) {
        printf("  %-11s ", "knee");
        print_value(xn, &d->knee);
        printf(f->kind == MODEL_PIECEWISE ? " (x_max/lambda)\n" : " (1/sigma)\n");
    }
    printf("  %-11s %s", "regime", derived_regime_name(d->regime));
    if (d->regime == DERIVED_CONTENTION || d->regime == DERIVED_COHERENCY)
        printf("-bound at %g %s", f->n_max, xn);
    if (isfinite(d->crossover_n) && d->crossover_n > 0)
        printf(" (coherency overtakes contention at %.4g %s)", d->crossover_n, xn);
    printf("\n");
    printf("  %-11s R^2 %.5f, RSE %.5g, AICc %.2f, dof %d\n", "fit", f->r2, f->rse, f->aicc,
           f->dof);
    if (r->bootstrapped)
        printf("  %-11s peak and ceiling: residual bootstrap, %zu of %zu refits (%zu without a "
               "peak), seed %lu\n",
               "intervals", r->boot.refitted, r->boot.replicates, r->boot.no_peak, r->seed);
    else
        printf("  %-11s delta method, t(0.975, %d)\n", "intervals", f->dof);
    printf("  %-11s %s, %zu iterations, %zu face%s\n", "solver", gsl_strerror(f->status),
           f->iterations, f->faces_tried, f->faces_tried == 1 ? "" : "s");
    {
        const char *sep = " ";
        int any = 0;
        printf("  %-11s", "others");
        for (int k = 0; k < 3; k++) {
            if (k == (int)fr->chosen)
                continue;
            if (fr->fitted[k])
                printf("%s%s AICc %.2f%s", sep, model_kind_name((enum model_kind)k),
                       fr->fits[k].aicc,
                       k == MODEL_USL && !fr->kappa_significant ? " (kappa not significant)" : "");
            else if (fr->fit_err[k][0])
                printf("%s%s not fitted (%s)", sep, model_kind_name((enum model_kind)k),
                       fr->fit_err[k]);
            else
                continue;
            sep = "; ";
            any = 1;
        }
        printf("%s\n", any ? "" : " none fitted");
    }
    printf("  %-11s %8s %12s %12s %10s %8s\n", "residuals", xn, "measured", "fitted", "resid",
           "resid%");
    for (size_t i = 0; i < f->n_resid; i++) {
        double fit = model_eval(f, f->resid_n[i]);
        double meas = fit + f->resid[i];
        printf("  %-11s %8g %12.6g %12.6g %10.4g %7.1f%%\n", "", f->resid_n[i], meas, fit,
               f->resid[i], 100 * f->resid[i] / meas);
    }
    if (r->n_pred) {
        printf("  %-11s %8s %28s %28s", "predict", xn, yn, "mean latency ms");
        if (r->pctl > 0)
            printf(" %12s%g", "p", r->pctl);
        printf("\n");
        for (size_t i = 0; i < r->n_pred; i++) {
            const struct fit_record_prediction *p = &r->pred[i];
            char xs[64], rs[64] = "-";
            snprintf(xs, sizeof xs, "%.6g [%.6g, %.6g]", p->p.x.value, p->p.x.lo, p->p.x.hi);
            if (isfinite(p->p.r_s.value))
                snprintf(rs, sizeof rs, "%.4g [%.4g, %.4g]", p->p.r_s.value * 1e3,
                         p->p.r_s.lo * 1e3, p->p.r_s.hi * 1e3);
            printf("  %-11s %8g %28s %28s", "", p->p.n, xs, rs);
            if (r->pctl > 0 && isfinite(p->pctl_ms))
                printf(" %10.4g%s", p->pctl_ms, p->pctl_extrapolated ? " (extrapolated)" : "");
            printf("%s\n", p->p.extrapolated ? "  beyond the data" : "");
        }
    }
    if (r->has_target) {
        printf("  %-11s mean %.4g ms: ", "target", r->target_s * 1e3);
        if (r->at_target.status == LATENCY_UNREACHABLE)
            printf("unreachable (below the latency at the smallest concurrency)\n");
        else if (r->at_target.status == LATENCY_UNBOUNDED)
            printf("met at every concurrency (the model does not saturate)\n");
        else {
            printf("%s ", xn);
            print_value("", &r->at_target.n);
            printf(", ");
            print_value(yn, &r->at_target.x);
            printf("%s%s\n", r->at_target.capped ? " (capped at the peak N*)" : "",
                   r->at_target.extrapolated ? " (beyond the data)" : "");
        }
    }
    for (unsigned b = 1; b <= MODEL_WARN_SIGMA_ONE; b <<= 1)
        if (f->warnings & b)
            printf("  %-11s %s\n", "warning", model_warning_text(b));
    if (d->peak_beyond)
        printf("  %-11s %s\n", "warning", model_warning_text(MODEL_WARN_PEAK_BEYOND));
    printf("\n");
}

/* Fit one curve (a group's counting points); returns 0, or -1 after reporting why on stderr. */
static int fit_one(const struct fit_cli *o, const struct point_list *pts,
                   const struct curve_group *g, struct usl_workspace *ws)
{
    const struct point *p0 = &pts->items[g->n ? g->idx[0] : g->excluded[0]];
    struct curve c;
    struct curve_spec spec = curve_spec_default();
    struct fit_record rec;
    struct fit_record_prediction pred[MAX_PREDICT];
    const struct fit_result *fr;
    char err[320];
    int rc = -1, crc;

    if (g->n_excluded) {
        const struct point *p = &pts->items[g->excluded[0]];
        fprintf(stderr,
                "sizeup: %s:%ld: %s / %s: %zu point%s left out (%s%s): not a steady "
                "measurement\n",
                p->source_file ? p->source_file : "-", p->source_line, p->target, p->workload,
                g->n_excluded, g->n_excluded == 1 ? "" : "s", curve_point_excluded_why(p),
                g->n_excluded > 1 ? ", ..." : "");
    }
    spec.x = o->by_nodes ? CURVE_X_NODES : CURVE_X_THREADS;
    spec.qps = o->by_qps;
    spec.model = o->model;
    spec.lat_pct = !o->by_nodes && !o->by_qps && o->n_predict ? CURVE_LAT_AUTO : CURVE_LAT_NONE;
    crc = curve_init_points(&c, pts, g->idx, g->n, &spec, ws, err, sizeof err);
    if (crc != CURVE_OK) {
        if (crc == CURVE_EINVAL && strncmp(err, p0->source_file ? p0->source_file : "-",
                                           strlen(p0->source_file ? p0->source_file : "-")) == 0)
            fprintf(stderr, "sizeup: %s\n", err);
        else
            fprintf(stderr, "sizeup: %s:%ld: %s / %s: %s\n",
                    p0->source_file ? p0->source_file : "-", p0->source_line, p0->target,
                    p0->workload, err);
        return -1;
    }
    fr = c.fr;
    if (c.fit.warnings & MODEL_WARN_FEW_DISTINCT)
        fprintf(stderr, "sizeup: %s:%ld: %s / %s: %s\n", p0->source_file ? p0->source_file : "-",
                p0->source_line, p0->target, p0->workload,
                model_warning_text(MODEL_WARN_FEW_DISTINCT));
    memset(&rec, 0, sizeof rec);
    rec.target = p0->target;
    rec.workload = p0->workload;
    rec.config = p0->config;
    rec.x_name = curve_x_name(&c);
    rec.y_name = o->by_qps ? "qps" : "tps";
    rec.asked = o->model == FIT_AUTO ? "auto" : model_kind_name((enum model_kind)o->model);
    rec.result = fr;
    rec.think_time_s = o->think_s;
    rec.derived = c.derived;
    if (o->boot_b > 0 && c.fit.dof > 0) {
        struct bootstrap_options bo = bootstrap_options_default();
        struct derived_value *dn = &rec.derived.n_peak, *dx = &rec.derived.x_peak;
        struct derived_value *dc = &rec.derived.ceiling;
        bo.replicates = (size_t)o->boot_b;
        bo.seed = BOOTSTRAP_SEED;
        if (bootstrap_derived(c.obs_n, c.obs_x, c.n_obs, &c.fit, &bo, ws, &rec.boot, err,
                              sizeof err) == MODEL_OK) {
            rec.bootstrapped = 1;
            rec.seed = BOOTSTRAP_SEED;
            if (rec.derived.has_peak) {
                dn->lo = rec.boot.n_peak.lo;
                dn->hi = rec.boot.n_peak.hi;
                dx->lo = rec.boot.x_max.lo;
                dx->hi = rec.boot.x_max.hi;
            }
            if (isfinite(dc->value)) {
                dc->lo = rec.boot.ceiling.lo;
                dc->hi = rec.boot.ceiling.hi;
            }
        } else {
            fprintf(stderr, "sizeup: %s / %s: bootstrap: %s; delta-method intervals kept\n",
                    p0->target, p0->workload, err);
        }
    }
    {
        const struct model_fit *f = &c.fit;
        int latency = !o->by_nodes;
        if (c.lat)
            rec.pctl = c.spec.lat_pct;
        for (size_t i = 0; i < o->n_predict; i++) {
            derived_predict(f, (double)o->predict[i], o->think_s, latency, &pred[i].p);
            pred[i].pctl_ms = NAN;
            pred[i].pctl_extrapolated = 0;
            if (c.lat)
                pred[i].pctl_ms = latency_pctl_eval(c.lat, f, (double)o->predict[i], o->think_s,
                                                    &pred[i].pctl_extrapolated) *
                                  1e3;
        }
        rec.n_pred = o->n_predict;
        rec.pred = pred;
        if (o->has_target && latency) {
            rec.has_target = 1;
            rec.target_s = o->target.target_s;
            latency_at_target(f, o->target.target_s, o->think_s, &rec.at_target);
        }
    }
    if (o->json) {
        if (fit_record_write(stdout, &rec, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: stdout: %s\n", err);
            goto out;
        }
    } else {
        print_block(&rec);
    }
    rc = 0;
out:
    curve_destroy(&c);
    return rc;
}

int cmd_fit(int argc, char **argv)
{
    struct fit_cli o;
    struct cli_args args;
    struct point_list pts;
    struct usl_workspace *ws;
    struct curve_groups groups;
    int rc, status = SIZEUP_EXIT_OK;

    memset(&o, 0, sizeof o);
    memset(&groups, 0, sizeof groups);
    if ((rc = cli_parse(&cmd_fit_cli, argc, argv, &o, &args)) != CLI_RUN)
        return rc;
    o.has_target = cli_given(&cmd_fit_cli, &args, "latency-target");
    if (o.has_target && o.target.pct > 0)
        return cli_usage_error("fit",
                               "--latency-target: fit solves a mean latency target (avg:VALUE, "
                               "e.g. avg:20ms); for a percentile target use sizeup rank --slo");
    if (o.has_target && o.by_nodes)
        return cli_usage_error("fit", "--latency-target needs --x threads: a node count is not "
                                      "a concurrency");

    point_list_init(&pts);
    for (int i = 0; i < args.argc; i++) {
        struct import_report rep;
        struct import_options io = {.max_points = IMPORT_HELD_POINTS_MAX};
        rc = import_file(args.argv[i], &io, &pts, &rep);
        if (rc < 0 || rc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            status = SIZEUP_EXIT_INPUT;
        }
        if (rc == IMPORT_ENOMEM) {
            point_list_destroy(&pts);
            return SIZEUP_EXIT_FAIL;
        }
    }
    if (pts.n == 0) {
        fprintf(stderr, "sizeup: no points to fit\n");
        point_list_destroy(&pts);
        return status == SIZEUP_EXIT_OK ? SIZEUP_EXIT_INPUT : status;
    }
    ws = usl_workspace_new();
    if (!ws || curve_groups_build(&groups, &pts, NULL) != CURVE_OK) {
        fprintf(stderr, "sizeup: out of memory\n");
        status = SIZEUP_EXIT_FAIL;
        goto out;
    }
    /* curves in order of first appearance */
    for (size_t i = 0; i < groups.n; i++)
        if (fit_one(&o, &pts, &groups.g[i], ws) != 0 && status == SIZEUP_EXIT_OK)
            status = SIZEUP_EXIT_INPUT;
out:
    curve_groups_destroy(&groups);
    usl_workspace_free(ws);
    point_list_destroy(&pts);
    return status;
}
