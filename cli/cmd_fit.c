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
    const char *import_target; /* --target: as import's, for files that name none */
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
    {"target", 't', CLI_STRING, CLI_AT(struct fit_cli, import_target),
     .dflt_doc = "the file's base name, less a trailing thread count",
     .help = "target of the points of files that do not name one (as sizeup import --target)"},
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
        "Read every curve (all points with the same target and workload that count: not\n"
        "incomplete, interrupted, partial, stalled or with reconnects) and print its shape as\n"
        "the points show it (rising, plateau, peaked, falling, collapse, a superlinear start),\n"
        "the Universal Scalability Law, Amdahl's law or the piecewise min(lambda*N, X_max) bound\n"
        "fitted to the levels a model can describe, whether it describes them (every residual\n"
        "within its level's noise, at least 5 %) or the measured curve is used, the peak, the\n"
        "ceiling, R^2 and the residuals. POINTS are sizeup.point/1 JSON Lines or anything\n"
        "`sizeup import` reads ('-' reads stdin); fit holds them in memory, at most 250000\n"
        "points (about 180 MB). A file or curve that cannot be used is\n"
        "reported on stderr, the others are still fitted, and the exit status is 3.\n"
        "Latency is the closed-loop mean from Little's law; with --y qps it is per query.\n"
        "auto: the USL when the points fall after their best level (a peak exists), else the\n"
        "lowest AICc, and the USL only when its kappa is significant. Predictions say how far\n"
        "beyond the data they lie. Intervals are 95 %: delta method, or with --bootstrap\n"
        "percentiles of B refits (gsl_rng seed 42, reproducible).",
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

/* "  label       text", the text wrapped at 100 columns under itself. */
static void print_wrapped(const char *label, const char *text)
{
    size_t len = strlen(text), col;
    printf("  %-11s ", label);
    col = 14;
    while (len) {
        size_t take = len, room = 100 - col;
        if (take > room) {
            take = room;
            while (take > 0 && text[take] != ' ')
                take--;
            if (take == 0)
                take = room;
        }
        fwrite(text, 1, take, stdout);
        text += take;
        len -= take;
        while (len && *text == ' ') {
            text++;
            len--;
        }
        if (len)
            printf("\n%14s", "");
    }
    printf("\n");
}

/* The peak line: what the curve reports (curve.h), and the model's N* when it differs. */
static void print_peak(const struct fit_record *r)
{
    const struct curve *c = r->curve;
    const struct curve_peak *p = &c->peak;
    const char *xn = r->x_name, *yn = r->y_name;
    char t[400], a[32];
    if (p->has && p->from_model) {
        printf("  %-11s N* = ", "peak");
        print_value(xn, &p->n);
        printf(", X = ");
        print_value(yn, &p->x);
        printf(" (%s)%s\n", model_kind_name(c->fit.kind),
               p->below_range ? ", below the smallest measured: the whole range is past it" : "");
        return;
    }
    if (p->has) {
        const struct curve_level *b = &c->lv[c->shape.best];
        int n =
            snprintf(t, sizeof t, "measured: %s %s at %g %s (the best level%s)",
                     curve_fmt_tps(b->x, a, sizeof a), yn, b->n, xn,
                     p->below_range ? ", the smallest measured: the peak lies at or below it" : "");
        if (isfinite(p->model_n) && n > 0 && (size_t)n < sizeof t && !c->use_model) {
            /* the model's peak is not taken because the model is not (issue 28.14: the text
             * said N* = 34 was not between the levels 16 and 64 next to the best) */
            const struct derived_value *mn = &r->derived.n_peak;
            char iv[80] = "";
            if (isfinite(mn->lo) && isfinite(mn->hi))
                snprintf(iv, sizeof iv, " [%.5g, %.5g]", mn->lo, mn->hi);
            snprintf(t + n, sizeof t - (size_t)n,
                     "; the %s's N* = %.5g%s %s is not taken: no model describes the points, so "
                     "the measured curve is used",
                     model_kind_name(c->fit.kind), mn->value, iv, xn);
        } else if (isfinite(p->model_n) && n > 0 && (size_t)n < sizeof t) {
            const struct derived_value *mn = &r->derived.n_peak;
            if (isfinite(mn->lo) && isfinite(mn->hi))
                snprintf(t + n, sizeof t - (size_t)n,
                         "; the %s's N* = %.5g [%.5g, %.5g] %s is not where the points put the "
                         "peak (between the levels next to the best)",
                         model_kind_name(c->fit.kind), mn->value, mn->lo, mn->hi, xn);
            else
                snprintf(t + n, sizeof t - (size_t)n,
                         "; the %s's N* = %.5g %s is not where the points put the peak (between "
                         "the levels next to the best)",
                         model_kind_name(c->fit.kind), mn->value, xn);
        }
        print_wrapped("peak", t);
        return;
    }
    if (c->shape.cls == SHAPE_RISING)
        print_wrapped("peak", "none seen: still rising at the largest level");
    else if (c->shape.cls == SHAPE_PLATEAU)
        print_wrapped("peak", "none: a plateau (no fall beyond the noise)");
    else
        print_wrapped("peak", "none: a single level");
}

/* The block's head: the curve, its shape, the model chosen, whether it describes the points,
 * the parameters. */
static void print_head(const struct fit_record *r, const struct model_fit *f)
{
    const struct curve *c = r->curve;
    const struct fit_result *fr = r->result;
    const char *xn = r->x_name, *yn = r->y_name;
    char t[600];

    printf("%s / %s: %zu points, %s %g-%g, %s\n", r->target, r->workload, c->n_obs, xn, c->lv[0].n,
           c->lv[c->m - 1].n, yn);
    print_wrapped("shape", curve_shape_text(c, t, sizeof t));
    if (c->shape.superlinear_start)
        print_wrapped("start", curve_start_text(c, t, sizeof t));
    if (f) {
        char head[300];
        if (c->fit_lo > 0 || c->fit_hi + 1 < c->m)
            snprintf(head, sizeof head, "%s (%s), fitted to %g-%g %s", model_kind_name(fr->chosen),
                     fr->reason, c->lv[c->fit_lo].n, c->lv[c->fit_hi].n, xn);
        else
            snprintf(head, sizeof head, "%s (%s)", model_kind_name(fr->chosen), fr->reason);
        print_wrapped("model", head);
    }
    print_wrapped(c->use_model ? "describes" : "no model", curve_model_text(c, t, sizeof t));
    if (f) {
        print_param("lambda", &f->par[MODEL_LAMBDA]);
        if (f->kind == MODEL_PIECEWISE) {
            if (isfinite(f->par[MODEL_XM].value))
                print_param("x_max", &f->par[MODEL_XM]);
        } else {
            print_param("sigma", &f->par[MODEL_SIGMA]);
            if (f->kind == MODEL_USL)
                print_param("kappa", &f->par[MODEL_KAPPA]);
        }
    }
}

/* The model's ceiling, knee and regime (when the model describes the points). */
static void print_derived(const struct fit_record *r, const struct model_fit *f)
{
    const struct model_derived *d = &r->derived;
    const char *xn = r->x_name, *yn = r->y_name;
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
}

/* The other models: AICc of those fitted, why the others were not. */
static void print_others(const struct fit_result *fr)
{
    const char *sep = " ";
    int any = 0;
    printf("  %-11s", "others");
    for (int k = 0; k < 3; k++) {
        if (k == (int)fr->chosen)
            continue;
        if (fr->fitted[k])
            printf("%s%s AICc %.2f%s", sep, model_kind_name((enum model_kind)k), fr->fits[k].aicc,
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

/* The fit's quality, its intervals' method, the solver, the other models, the residuals. */
static void print_fit(const struct fit_record *r, const struct model_fit *f)
{
    const struct curve *c = r->curve;
    const char *xn = r->x_name;
    printf("  %-11s R^2 %.5f, RSE %.5g, AICc %.2f, dof %d, largest residual %.1f %% of the "
           "throughput\n",
           "fit", f->r2, f->rse, f->aicc, f->dof, 100 * c->check.max_rel);
    if (r->bootstrapped)
        printf("  %-11s peak and ceiling: residual bootstrap, %zu of %zu refits (%zu without "
               "a peak), seed %lu\n",
               "intervals", r->boot.refitted, r->boot.replicates, r->boot.no_peak, r->seed);
    else
        printf("  %-11s delta method, t(0.975, %d)\n", "intervals", f->dof);
    printf("  %-11s %s, %zu iterations, %zu face%s\n", "solver", gsl_strerror(f->status),
           f->iterations, f->faces_tried, f->faces_tried == 1 ? "" : "s");
    print_others(r->result);
    printf("  %-11s %8s %12s %12s %10s %8s\n", "residuals", xn, "measured", "fitted", "resid",
           "resid%");
    for (size_t i = 0; i < f->n_resid; i++) {
        double fit = model_eval(f, f->resid_n[i]);
        double meas = fit + f->resid[i];
        printf("  %-11s %8g %12.6g %12.6g %10.4g %7.1f%%\n", "", f->resid_n[i], meas, fit,
               f->resid[i], 100 * f->resid[i] / meas);
    }
}

/* The predictions asked (--predict): throughput and mean latency with intervals, the
 * percentile, how far beyond the data. */
static void print_predictions(const struct fit_record *r)
{
    const char *xn = r->x_name, *yn = r->y_name;
    printf("  %-11s %8s %28s %28s", "predict", xn, yn, "mean latency ms");
    if (r->pctl > 0)
        printf(" %12s%g", "p", r->pctl);
    printf("\n");
    for (size_t i = 0; i < r->n_pred; i++) {
        const struct fit_record_prediction *p = &r->pred[i];
        char xs[64] = "-", rs[64] = "-", note[200];
        if (isfinite(p->v.x.value))
            snprintf(xs, sizeof xs, "%.6g [%.6g, %.6g]", p->v.x.value, p->v.x.lo, p->v.x.hi);
        if (isfinite(p->r_s.value))
            snprintf(rs, sizeof rs, "%.4g [%.4g, %.4g]", p->r_s.value * 1e3, p->r_s.lo * 1e3,
                     p->r_s.hi * 1e3);
        printf("  %-11s %8g %28s %28s", "", p->n, xs, rs);
        if (r->pctl > 0 && isfinite(p->pctl_ms))
            printf(" %10.4g%s", p->pctl_ms, p->pctl_extrapolated ? " (extrapolated)" : "");
        fit_record_prediction_note(r, p, note, sizeof note);
        if (note[0])
            printf("  %s%s", p->v.beyond != 1 ? "beyond the data: " : "", note);
        printf("\n");
    }
}

/* The answer at the latency target (--latency-target). */
static void print_target(const struct fit_record *r)
{
    const struct curve *c = r->curve;
    const char *xn = r->x_name, *yn = r->y_name;
    char t[600];
    const struct curve_at *at = &r->at_target;
    char a[32], b[32], v[32];
    if (at->status == CURVE_NEVER)
        snprintf(t, sizeof t, "mean %.4g ms: never met (%.4g ms at %g %s already)",
                 r->target_s * 1e3, at->latency_s * 1e3, c->lv[0].n,
                 c->lv[0].n == 1 ? (c->by_nodes ? "node" : "thread") : xn);
    else if (at->status != CURVE_MET)
        snprintf(t, sizeof t, "mean %.4g ms: no answer (no latency for it)", r->target_s * 1e3);
    else
        snprintf(t, sizeof t, "mean %.4g ms: %s %.4g, %s [%s, %s] %s (%s; %s)", r->target_s * 1e3,
                 xn, at->n, curve_fmt_tps(at->x.value, v, sizeof v),
                 curve_fmt_tps(at->x.lo, a, sizeof a), curve_fmt_tps(at->x.hi, b, sizeof b), yn,
                 curve_basis_name(at->x_basis),
                 at->binds == CURVE_BINDS_PEAK
                     ? "throughput peaks there: more concurrency meets the target but gives "
                       "less"
                 : at->binds == CURVE_BINDS_RANGE
                     ? "met at the largest measured level: probe higher concurrency to find "
                       "where it binds"
                 : at->binds == CURVE_BINDS_COLLAPSE ? "met at the last level before the "
                                                       "collapse"
                                                     : "the target binds there");
    print_wrapped("target", t);
}

/* One curve's block of text: head, peak, derived figures, fit, predictions, target,
 * warnings. */
static void print_block(const struct fit_record *r)
{
    const struct fit_result *fr = r->result;
    const struct model_fit *f = fr ? &fr->fits[fr->chosen] : NULL;
    const struct model_derived *d = &r->derived;

    print_head(r, f);
    print_peak(r);
    if (f && r->curve->use_model)
        print_derived(r, f);
    if (f)
        print_fit(r, f);
    if (r->n_pred)
        print_predictions(r);
    if (r->has_target)
        print_target(r);
    if (f) {
        for (unsigned b = 1; b <= MODEL_WARN_SIGMA_ONE; b <<= 1)
            if (f->warnings & b)
                printf("  %-11s %s\n", "warning", model_warning_text(b));
        if (d->peak_beyond)
            printf("  %-11s %s\n", "warning", model_warning_text(MODEL_WARN_PEAK_BEYOND));
    }
    printf("\n");
}

/* Say on stderr which points of the group are left out and why (one line each kind). */
static void say_left_out(const struct point_list *pts, const struct curve_group *g)
{
    if (g->n_excluded) {
        const struct point *p = &pts->items[g->excluded[0]];
        fprintf(stderr, "sizeup: %s:%ld: %s / %s: %zu point%s left out (%s%s): %s\n",
                p->source_file ? p->source_file : "-", p->source_line, p->target, p->workload,
                g->n_excluded, g->n_excluded == 1 ? "" : "s", curve_point_excluded_why(p),
                g->n_excluded > 1 ? ", ..." : "",
                curve_excluded_meaning(curve_point_excluded_why(p)));
    }
    if (g->n_dup) {
        const struct point *p = &pts->items[g->dup[0]], *q = &pts->items[g->dup_of[0]];
        fprintf(stderr,
                "sizeup: %s:%ld: %s / %s: %zu point%s left out: the same measurement as "
                "%s:%ld%s (one run given twice is not two replicates)\n",
                p->source_file ? p->source_file : "-", p->source_line, p->target, p->workload,
                g->n_dup, g->n_dup == 1 ? "" : "s", q->source_file ? q->source_file : "-",
                q->source_line, g->n_dup > 1 ? ", ..." : "");
    }
}

/* Peak and ceiling intervals of rec by residual bootstrap of o->boot_b refits (on failure the
 * delta method's are kept, said on stderr); c's model peak gets them too. */
static void bootstrap_intervals(const struct fit_cli *o, struct curve *c, struct fit_record *rec,
                                struct usl_workspace *ws, const struct point *p0)
{
    char err[320];
    struct bootstrap_options bo = bootstrap_options_default();
    struct derived_value *dn = &rec->derived.n_peak, *dx = &rec->derived.x_peak;
    struct derived_value *dc = &rec->derived.ceiling;
    double *bn = malloc(2 * c->n_obs * sizeof *bn);
    size_t k = 0;
    for (size_t i = 0; bn && i < c->n_obs; i++)
        if (c->obs_n[i] >= c->lv[c->fit_lo].n && c->obs_n[i] <= c->lv[c->fit_hi].n) {
            bn[k] = c->obs_n[i];
            bn[c->n_obs + k++] = c->obs_x[i];
        }
    bo.replicates = (size_t)o->boot_b;
    bo.seed = BOOTSTRAP_SEED;
    if (bn && bootstrap_derived(bn, bn + c->n_obs, k, &c->fit, &bo, ws, &rec->boot, err,
                                sizeof err) == MODEL_OK) {
        rec->bootstrapped = 1;
        rec->seed = BOOTSTRAP_SEED;
        if (rec->derived.has_peak) {
            dn->lo = rec->boot.n_peak.lo;
            dn->hi = rec->boot.n_peak.hi;
            dx->lo = rec->boot.x_max.lo;
            dx->hi = rec->boot.x_max.hi;
        }
        if (isfinite(dc->value)) {
            dc->lo = rec->boot.ceiling.lo;
            dc->hi = rec->boot.ceiling.hi;
        }
        if (c->peak.has && c->peak.from_model) {
            c->peak.n.lo = dn->lo;
            c->peak.n.hi = dn->hi;
            c->peak.x.lo = dx->lo;
            c->peak.x.hi = dx->hi;
        }
    } else {
        fprintf(stderr, "sizeup: %s / %s: bootstrap: %s; delta-method intervals kept\n", p0->target,
                p0->workload, bn ? err : "out of memory");
    }
    free(bn);
}

/* The prediction at n (--predict) into *p: throughput, mean latency R = N/X - T with its
 * interval (none when the think time exceeds N/X: said on stderr), the percentile. */
static void predict_one(const struct fit_cli *o, const struct curve *c,
                        const struct fit_record *rec, double n, struct fit_record_prediction *p)
{
    int latency = !o->by_nodes;
    memset(p, 0, sizeof *p);
    p->n = n;
    curve_throughput(c, p->n, &p->v);
    p->r_s.value = p->r_s.lo = p->r_s.hi = NAN;
    if (latency && p->v.x.value > 0) {
        p->r_s.value = p->n / p->v.x.value - o->think_s;
        if (p->v.x.hi > 0 && p->v.x.lo > 0) {
            p->r_s.lo = p->n / p->v.x.hi - o->think_s;
            p->r_s.hi = p->n / p->v.x.lo - o->think_s;
        }
        /* R = N/X - T < 0: the think time is more than a whole cycle at this N, which
         * no response time explains: none is given (and an interval stops at 0) */
        if (p->r_s.value < 0) {
            fprintf(stderr,
                    "sizeup: fit: %s / %s: --think-time %g s exceeds N/X = %.4g s at %g "
                    "%s: no mean response time there (R = N/X - T < 0)\n",
                    rec->target, rec->workload, o->think_s, p->n / p->v.x.value, p->n,
                    o->by_nodes ? "nodes" : "threads");
            p->r_s.value = p->r_s.lo = p->r_s.hi = NAN;
        } else if (p->r_s.lo < 0) {
            p->r_s.lo = 0;
        }
    }
    p->pctl_ms = NAN;
    if (c->lat) {
        enum curve_basis b;
        p->pctl_ms = curve_latency(c, p->n, &b) * 1e3;
        p->pctl_extrapolated = b == CURVE_BASIS_EXTRAPOLATED;
    }
    p->unsaturated = c->shape.cls == SHAPE_RISING && p->v.beyond > 2;
}

/* Fit one curve (a group's counting points); returns 0, or -1 after reporting why on stderr. */
static int fit_one(const struct fit_cli *o, const struct point_list *pts,
                   const struct curve_group *g, struct usl_workspace *ws)
{
    const struct point *p0 = &pts->items[g->n ? g->idx[0] : g->excluded[0]];
    const char *src = p0->source_file ? p0->source_file : "-";
    struct curve c, ct;
    struct curve_spec spec = curve_spec_default();
    struct fit_record rec;
    struct fit_record_prediction pred[MAX_PREDICT];
    char err[320];
    int rc = -1, crc;

    memset(&ct, 0, sizeof ct);
    say_left_out(pts, g);
    spec.x = o->by_nodes ? CURVE_X_NODES : CURVE_X_THREADS;
    spec.qps = o->by_qps;
    spec.model = o->model;
    spec.think_s = o->think_s;
    spec.lat_pct = !o->by_nodes && !o->by_qps && o->n_predict ? CURVE_LAT_AUTO : CURVE_LAT_NONE;
    crc = curve_init_points(&c, pts, g->idx, g->n, &spec, ws, err, sizeof err);
    if (crc != CURVE_OK) {
        if (crc == CURVE_EINVAL && strncmp(err, src, strlen(src)) == 0)
            fprintf(stderr, "sizeup: %s\n", err);
        else
            fprintf(stderr, "sizeup: %s:%ld: %s / %s: %s\n", src, p0->source_line, p0->target,
                    p0->workload, err);
        return -1;
    }
    if (c.fitted && (c.fit.warnings & MODEL_WARN_FEW_DISTINCT))
        fprintf(stderr, "sizeup: %s:%ld: %s / %s: %s\n", src, p0->source_line, p0->target,
                p0->workload, model_warning_text(MODEL_WARN_FEW_DISTINCT));
    memset(&rec, 0, sizeof rec);
    rec.target = p0->target;
    rec.workload = p0->workload;
    rec.config = p0->config;
    rec.x_name = curve_x_name(&c);
    rec.y_name = o->by_qps ? "qps" : "tps";
    rec.asked = o->model == FIT_AUTO ? "auto" : model_kind_name((enum model_kind)o->model);
    rec.curve = &c;
    rec.result = c.fitted ? c.fr : NULL;
    rec.think_time_s = o->think_s;
    rec.derived = c.derived;
    if (o->boot_b > 0 && c.fitted && c.fit.dof > 0)
        bootstrap_intervals(o, &c, &rec, ws, p0);
    {
        int latency = !o->by_nodes;
        if (c.lat)
            rec.pctl = c.spec.lat_pct;
        for (size_t i = 0; i < o->n_predict; i++)
            predict_one(o, &c, &rec, (double)o->predict[i], &pred[i]);
        rec.n_pred = o->n_predict;
        rec.pred = pred;
        if (o->has_target && latency) {
            /* the same search as rank, on the mean latency (Little's law on the curve unless
             * the points carry a measured mean) */
            struct curve_spec ts = spec;
            ts.lat_pct = 0;
            if (curve_init_points(&ct, pts, g->idx, g->n, &ts, ws, err, sizeof err) == CURVE_OK) {
                rec.has_target = 1;
                rec.target_s = o->target.target_s;
                curve_at_target(&ct, &o->target, 1, 1, &rec.at_target);
            }
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
    curve_destroy(&ct);
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
        struct import_options io = {.max_points = IMPORT_HELD_POINTS_MAX,
                                    .target = o.import_target};
        long twice = cli_same_file_before((const char *const *)args.argv, (size_t)i);
        if (twice >= 0) {
            fprintf(stderr,
                    "sizeup: %s: the same file as %s, given before: read once (its points "
                    "twice would be replicates that agree exactly, a run-to-run noise of 0)\n",
                    args.argv[i], args.argv[twice]);
            continue;
        }
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
