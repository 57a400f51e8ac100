/*
 * cmd_study.c - `sizeup study STUDY.json`: probe -> fit -> rank -> report, resumable.
 *
 * Everything the study file says is checked before the first connection (study_load: the
 * format, the limits of util/limit.h the probe uses too, the latency target of util/slo.h;
 * study_probes_new: the workloads the probe runs, the password files; here: the pricing and
 * the catalogs, loaded now, holding every candidate's configuration); an error names the
 * file's line and column and nothing is measured.
 *
 * Each probed candidate is measured in this process (study_probe.h: the probe session API
 * and the level driver `sizeup probe run` uses): every level is appended and flushed to the
 * study's results file as it is measured. Imported candidates are read with import_file() and
 * appended once. Then the whole results file is ranked (rankset.h) and the ranking and the
 * HTML report are written into the output folder.
 *
 * Signals: SIGINT and SIGTERM alike (util/stopflag.h) stop the level in flight after its
 * events in flight (its record marked interrupted), the candidate's tables are dropped, and
 * the study exits 130 saying how to resume.
 *
 * Resume (--resume): points already in results.jsonl are not measured again: a level found
 * there (one that counts, curve.h) is taken instead of measured, for a list and for the auto
 * ladder alike, and finished-curves.txt names the curves whose ladder has ended.
 */
#include "append.h"
#include "cli.h"
#include "cmd_catalog.h"
#include "commands.h"
#include "curve.h"
#include "import.h"
#include "mysql_conn.h"
#include "outfile.h"
#include "outlock.h"
#include "point.h"
#include "rank_output.h"
#include "ranking.h"
#include "rankset.h"
#include "report_html.h"
#include "setcli.h"
#include "setinput.h"
#include "stopflag.h"
#include "study.h"
#include "study_probe.h"
#include "tco.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct study_cmd {
    int resume;
    const char *sets[SETCLI_MAX]; /* --set */
    size_t n_sets;
};

static const struct cli_opt study_options[] = {
    {"resume", 0, CLI_FLAG, CLI_AT(struct study_cmd, resume),
     .help = "keep the output folder's results and measure only what is missing"},
    {"set", 0, CLI_STRING, CLI_LIST(struct study_cmd, sets, n_sets), .arg_name = SETCLI_ARG,
     .example = SETCLI_EXAMPLE,
     .help = SETCLI_HELP "; replaces the study file's \"set\" of the same CONFIG.INPUT"},
    {0}};

const struct cli_cmd cmd_study_cli = {
    .name = "study",
    .usage = "Usage: sizeup study [--resume] [--set CONFIG.INPUT=VALUE[:LOW..HIGH]]... "
             "STUDY.json",
    .description =
        "Run a whole sizing study described by a sizeup.study/1 file (docs/study.md): probe each\n"
        "candidate server with calibrated sysbench-style probes (or import its results), fit the\n"
        "curves, rank the configurations by throughput per cost at the latency target, and write\n"
        "OUTPUT/results.jsonl, OUTPUT/ranking.txt, OUTPUT/ranking.jsonl, OUTPUT/report.html and\n"
        "OUTPUT/report.md\n"
        "(the probes' sysbench-layout reports go to OUTPUT/probe.log).\n"
        "The whole file is checked before the first probe (errors name its line and column).\n"
        "Points are appended to results.jsonl as they are measured; after an interruption\n"
        "(SIGINT or SIGTERM: the level in flight is marked interrupted, the tables are dropped,\n"
        "exit 130), run the same command with --resume and nothing measured is measured again.\n"
        "A candidate that cannot be reached is reported and the others go on (exit 4 at the end).",
    .options = study_options,
    .min_operands = 1,
    .max_operands = 1,
    .operands_hint = "expected one STUDY.json file",
    .epilog = "Exit status: 0 done; 1 the work failed; 2 bad command line, or results already\n"
              "present without --resume; 3 a study file that is not valid, or input rejected; 4 a\n"
              "candidate server or a catalog URL could not be reached; 130 interrupted (SIGINT or\n"
              "SIGTERM)."};

/* Result files imported once for every candidate that names them (issue 27.13: 1,000
 * candidates of one 9.8 MB table parsed it 1,000 times, 256 s). */
struct import_cache {
    char *path;
    struct point_list pts;
    int rc;
    char msg[1024];
};

struct import_caches {
    struct import_cache *v;
    size_t n;
};

static void import_caches_free(struct import_caches *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].path);
        point_list_destroy(&cs->v[i].pts);
    }
    free(cs->v);
    memset(cs, 0, sizeof *cs);
}

/* The file's points, imported the first time it is asked for; NULL when out of memory. */
static const struct import_cache *cached_import(struct import_caches *cs, const char *path)
{
    struct import_cache *g, *e;
    struct import_report rep;
    for (size_t i = 0; i < cs->n; i++)
        if (strcmp(cs->v[i].path, path) == 0)
            return &cs->v[i];
    if (!(g = realloc(cs->v, (cs->n + 1) * sizeof *g)))
        return NULL;
    cs->v = g;
    e = &cs->v[cs->n];
    memset(e, 0, sizeof *e);
    point_list_init(&e->pts);
    if (!(e->path = strdup(path)))
        return NULL;
    e->rc = import_file(path, NULL, &e->pts, &rep);
    snprintf(e->msg, sizeof e->msg, "%s", rep.msg);
    cs->n++;
    return e;
}

/* Import one candidate's result files, keep its points (by target; a file of one target is
 * taken whole), set their config, append the new ones to results. */
static int import_candidate(const struct study_candidate *c, const struct point_list *done,
                            FILE *out, struct import_caches *cache)
{
    struct point_list l;
    int status = 0;
    size_t kept = 0, already = 0;
    point_list_init(&l);
    for (size_t i = 0; i < c->n_results; i++) {
        const struct import_cache *ce = cached_import(cache, c->results[i]);
        int rc;
        if (!ce) {
            fprintf(stderr, "sizeup: out of memory\n");
            point_list_destroy(&l);
            return SIZEUP_EXIT_FAIL;
        }
        rc = ce->rc;
        if (rc < 0 || rc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", ce->msg);
            status = SIZEUP_EXIT_INPUT;
        }
        if (rc >= 0) {
            const struct point_list *src = &ce->pts;
            int any = 0, one_target = 1;
            for (size_t k = 0; k < src->n; k++) {
                any |= strcmp(src->items[k].target, c->target) == 0;
                one_target &= strcmp(src->items[k].target, src->items[0].target) == 0;
            }
            /* copied: only this candidate's points (a shared file's others stay in the cache) */
            for (size_t k = 0; k < src->n; k++) {
                struct point *q;
                if (any ? strcmp(src->items[k].target, c->target) != 0 : !one_target)
                    continue;
                if (!(q = point_list_push(&l)) || point_copy(q, &src->items[k]) != POINT_OK ||
                    point_set_str(&q->target, c->target) || point_set_str(&q->config, c->config)) {
                    fprintf(stderr, "sizeup: out of memory\n");
                    point_list_destroy(&l);
                    return SIZEUP_EXIT_FAIL;
                }
            }
            if (!any && !one_target)
                fprintf(stderr,
                        "sizeup: %s: no points of target %s (the file holds several "
                        "targets)\n",
                        c->results[i], c->target);
        }
    }
    for (size_t k = 0; k < l.n; k++) {
        struct point_error err;
        struct point *p = &l.items[k];
        if (p->threads == -2)
            continue;
        if (p->threads > 0 && curve_find_point(done, p->target, p->workload, (long)p->threads)) {
            already++;
            continue;
        }
        if (point_write(out, p, &err) != POINT_OK) {
            fprintf(stderr, "sizeup: %s\n", err.msg);
            status = SIZEUP_EXIT_FAIL;
            break;
        }
        kept++;
    }
    fprintf(stderr, "study: %s: %zu imported point(s)%s\n", c->target, kept,
            already ? ", the others already in the results" : "");
    point_list_destroy(&l);
    return status;
}

/* The four outputs of a study, for outfile_emit. */
struct study_out {
    const struct ranking *rs;
    const struct report_inputs *in;
};

static int write_text(FILE *f, const void *ctx)
{
    return ranking_write_text(f, ((const struct study_out *)ctx)->rs);
}

static int write_json(FILE *f, const void *ctx)
{
    return ranking_write_json(f, ((const struct study_out *)ctx)->rs);
}

static int write_html(FILE *f, const void *ctx)
{
    const struct study_out *o = ctx;
    return report_write_html(f, o->rs, o->in);
}

static int write_md(FILE *f, const void *ctx)
{
    const struct study_out *o = ctx;
    return report_write_markdown(f, o->rs, o->in);
}

static int write_outputs(const struct study *s, const struct ranking *rs, const char *results)
{
    static const char *const names[] = {"ranking.txt", "ranking.jsonl", "report.html", "report.md"};
    int (*const fns[])(FILE *, const void *) = {write_text, write_json, write_html, write_md};
    const char *files[1] = {results};
    struct report_inputs in = {files, 1, "sizeup " SIZEUP_VERSION};
    struct study_out o = {rs, &in};
    int rc = 0;
    for (int i = 0; i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", s->output, names[i]);
        if (outfile_emit(path, names[i], fns[i], &o) != 0)
            rc = -1;
    }
    return rc;
}

/* The length of a setting's CONFIG.INPUT (before its '='). */
static size_t set_key_len(const char *set)
{
    const char *eq = strchr(set, '=');
    return eq ? (size_t)(eq - set) : strlen(set);
}

/* The study file's "set" (those the command line does not replace), then --set. 0, or an exit
 * status (said): 3 for the file's (with its position), 2 for the command line's. */
static int apply_sets(const struct study *s, const struct study_cmd *o, enum cat_pricing pricing,
                      struct cat_catalog *cat)
{
    char err[1200];
    for (size_t i = 0; i < s->n_sets; i++) {
        struct cat_set set;
        char why[1024], jp[64];
        size_t kl = set_key_len(s->sets[i]);
        int replaced = 0;
        for (size_t k = 0; k < o->n_sets; k++)
            replaced |= set_key_len(o->sets[k]) == kl && strncmp(o->sets[k], s->sets[i], kl) == 0;
        if (replaced)
            continue;
        snprintf(jp, sizeof jp, "$.set[%zu]", i);
        if (cat_set_parse(s->sets[i], &set, why, sizeof why) != 0 ||
            cat_set_apply(cat, &set, pricing, "set in the study file", why, sizeof why, NULL, 0) !=
                CAT_OK) {
            study_fail_at(s, jp, err, sizeof err, "%s", why);
            fprintf(stderr, "sizeup: %s\n", err);
            return SIZEUP_EXIT_INPUT;
        }
    }
    return setcli_apply(cat, o->sets, o->n_sets, pricing, "study", "set on the command line");
}

/* Check what the ranking needs before any work: the pricing, and the catalogs (loaded into
 * *out) holding every candidate's configuration, with the settings of "set" and --set applied.
 * 0, or an exit status (said). */
static int load_catalogs(const struct study *s, const struct study_cmd *o, struct cat_catalog **out)
{
    struct cat_catalog *cat;
    enum cat_pricing pricing = CAT_PRICING_ON_DEMAND;
    char err[1200];
    int rc;
    *out = NULL;
    if (s->pricing && cat_pricing_parse(s->pricing, &pricing) != 0) {
        study_fail_at(s, "$.pricing", err, sizeof err,
                      "unknown pricing model \"%s\" (on-demand, reserved-1y, ...)", s->pricing);
        fprintf(stderr, "sizeup: %s\n", err);
        return SIZEUP_EXIT_INPUT;
    }
    if (!(cat = cat_catalog_new())) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    for (size_t i = 0; i < s->n_catalogs; i++) {
        rc = cmd_catalog_load_one(cat, s->catalogs[i]);
        if (rc != 0) {
            cat_catalog_free(cat);
            return rc;
        }
    }
    for (size_t i = 0; i < s->n_cand; i++) {
        char jp[64];
        if (cat_find_config(cat, s->cand[i].config))
            continue;
        snprintf(jp, sizeof jp, "$.candidates[%zu].config", i);
        study_fail_at(s, jp, err, sizeof err,
                      "configuration \"%s\" is in none of the catalogs (\"catalogs\")",
                      s->cand[i].config);
        fprintf(stderr, "sizeup: %s\n", err);
        cat_catalog_free(cat);
        return SIZEUP_EXIT_INPUT;
    }
    if ((rc = apply_sets(s, o, pricing, cat)) != 0) {
        cat_catalog_free(cat);
        return rc;
    }
    *out = cat;
    return 0;
}

/* What a study asks of its ranking: the study file's target, pricing, mix (its weights
 * normalised), required throughput, horizon and standby. */
static void study_ask(const struct study *s, struct ranking_ask *a)
{
    double wsum = 0;
    memset(a, 0, sizeof *a);
    a->opt.slo = s->target;
    a->opt.pricing = CAT_PRICING_ON_DEMAND;
    if (s->pricing)
        cat_pricing_parse(s->pricing, &a->opt.pricing); /* checked at load */
    a->opt.required_tps = isnan(s->required_tps) ? 0 : s->required_tps;
    a->opt.horizon_months = s->horizon_months;
    a->opt.discount_rate = s->discount_rate;
    a->opt.ha_standby = s->ha_standby;
    for (size_t i = 0; i < s->n_wl && i < RANK_MAX_MIX; i++)
        wsum += s->wl[i].weight;
    for (size_t i = 0; i < s->n_wl && i < RANK_MAX_MIX; i++) {
        snprintf(a->opt.mix[i].workload, sizeof a->opt.mix[i].workload, "%s", s->wl[i].name);
        a->opt.mix[i].weight = s->wl[i].weight / wsum;
        a->opt.n_mix++;
    }
}

static int rank_study(const struct study *s, struct cat_catalog *cat, const char *results,
                      const struct study_probes *sp)
{
    struct point_list all;
    struct import_report rep;
    struct ranking rk;
    struct ranking_ask a;
    char slo[SLO_TEXT_MAX];
    int status = 0, rc;

    point_list_init(&all);
    ranking_init(&rk);
    study_ask(s, &a);
    rc = import_file(results, NULL, &all, &rep);
    if (rc < 0) {
        fprintf(stderr, "sizeup: %s\n", rep.msg);
        point_list_destroy(&all);
        return SIZEUP_EXIT_FAIL;
    }
    /* the ranking leaves out the points that do not count (curve.h) and says so */
    fprintf(stderr, "study: ranking %zu point(s) at %s\n", all.n,
            slo_format(&s->target, slo, sizeof slo));
    rc = ranking_build(&rk, &all, cat, &a, stderr);
    if (rc < 0) {
        status = SIZEUP_EXIT_FAIL;
    } else {
        if (rc > 0)
            status = SIZEUP_EXIT_INPUT;
        ranking_write_text(stdout, &rk);
        /* the probed curves' run-to-run noise and what it allows (the precision asked) */
        study_probes_write_noise(sp, stdout);
        if (write_outputs(s, &rk, results) != 0)
            status = SIZEUP_EXIT_FAIL;
        else
            printf("\nreport: %s/report.html, %s/report.md\nranking: %s/ranking.txt, "
                   "%s/ranking.jsonl\npoints: %s\n",
                   s->output, s->output, s->output, s->output, results);
    }
    ranking_destroy(&rk);
    point_list_destroy(&all);
    return status;
}

/* Measure or import every candidate. 0, or the worst status; *unreachable when a server could
 * not be reached. */
static int run_candidates(const struct study *s, struct study_probes *sp,
                          const struct point_list *done, const struct study_probe_files *f,
                          int *unreachable)
{
    int status = SIZEUP_EXIT_OK;
    struct import_caches cache = {NULL, 0};
    for (size_t i = 0; i < s->n_cand && !stopflag_signal(); i++) {
        const struct study_candidate *cd = &s->cand[i];
        int rc;
        fprintf(stderr, "study: [%zu/%zu] %s (%s)\n", i + 1, s->n_cand, cd->target,
                cd->probe ? "probe" : "import");
        if (cd->probe) {
            rc = cli_exit_of_drive(study_probes_run(sp, i, done, f));
        } else {
            FILE *out = fopen(f->results, "a");
            if (!out) {
                fprintf(stderr, "sizeup: cannot write %s: %s\n", f->results, strerror(errno));
                import_caches_free(&cache);
                return SIZEUP_EXIT_FAIL;
            }
            rc = import_candidate(cd, done, out, &cache);
            if (fclose(out) != 0)
                rc = SIZEUP_EXIT_FAIL;
        }
        if (rc == SIZEUP_EXIT_INTERRUPTED)
            break;
        if (rc == SIZEUP_EXIT_UNREACHABLE)
            *unreachable = 1;
        else if (rc != 0 && status == SIZEUP_EXIT_OK)
            status = rc;
    }
    import_caches_free(&cache);
    return status;
}

/* What the study sizes for, as rank --require says it (on stderr). */
static void say_requirement(const struct study *s)
{
    fprintf(stderr,
            "sizeup study: sizing for %s: %s %.1f tps x growth %g x (1 + headroom %g) = %.1f "
            "tps of the mix",
            s->require, s->require_at, s->require_base_tps, s->require_growth, s->require_headroom,
            s->required_tps);
    for (size_t i = 0; i < s->n_wl; i++)
        fprintf(stderr, "%s %s:%.3f", i ? "," : "", s->wl[i].name, s->wl[i].weight);
    fprintf(stderr, "\n");
    if (s->require_residual > WORKLOAD_RESIDUAL_NOTE)
        fprintf(stderr,
                "sizeup study: note: the mix issues the observed statements only "
                "approximately: %.0f %% of them differ (the record's mix.residual)\n",
                100 * s->require_residual);
}

/* The output folder made ready: refused when it holds results and --resume is not given,
 * created, locked for this study (*lockfd: the caller releases it), emptied of a former run's
 * bookkeeping, or with --resume its results read into done. @return SIZEUP_EXIT_OK, or the
 * exit status said on stderr. */
static int prepare_output(const struct study_cmd *o, const struct study *s,
                          const struct study_probe_files *f, struct point_list *done, int *lockfd)
{
    char err[1200];
    struct stat st;
    if (stat(f->results, &st) == 0 && st.st_size > 0 && !o->resume) {
        fprintf(stderr,
                "sizeup: %s already holds results: run with --resume to go on "
                "with them, or remove it to start over\n",
                f->results);
        return SIZEUP_EXIT_USAGE;
    }
    if (mkdir(s->output, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "sizeup: cannot create the output folder %s: %s\n", s->output,
                strerror(errno));
        return SIZEUP_EXIT_FAIL;
    }
    /* one study at a time in an output folder (util/outlock.h): a second one would drop and
     * recreate the first's tables and interleave its records (issue 27.8) */
    if ((*lockfd = outlock_take(f->results, err, sizeof err)) < 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        return SIZEUP_EXIT_FAIL;
    }
    if (!o->resume) {
        unlink(f->done_path); /* a fresh study: no curve is finished */
        unlink(f->parts);     /* nor any level of several clients */
        unlink(f->confirm);   /* nor confirmed */
    }
    if (o->resume && stat(f->results, &st) == 0 && st.st_size > 0) {
        struct import_report rep;
        if (append_cut_torn(f->results, err, sizeof err) != 0 && err[0])
            fprintf(stderr, "study: warning: %s\n", err);
        if (import_file(f->results, NULL, done, &rep) < 0) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            return SIZEUP_EXIT_INPUT;
        }
        fprintf(stderr, "study: resuming with %zu point(s) from %s\n", done->n, f->results);
    }
    return SIZEUP_EXIT_OK;
}

int cmd_study(int argc, char **argv)
{
    struct study_cmd o;
    struct cli_args args;
    struct study s;
    struct study_probes *sp = NULL;
    struct cat_catalog *cat = NULL;
    struct study_probe_files files;
    char err[1200], results[4096], done_path[4096], log_path[4096], parts_path[4096];
    char confirm_path[4096];
    int lockfd = -1;
    int rc, status = SIZEUP_EXIT_OK, unreachable = 0, lib = 0;
    struct point_list done;
    const char *path;

    memset(&o, 0, sizeof o);
    rc = cli_parse(&cmd_study_cli, argc, argv, &o, &args);
    if (rc != CLI_RUN)
        return rc;
    path = args.argv[0];
    if (study_load(path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        return SIZEUP_EXIT_INPUT;
    }
    if (s.require)
        say_requirement(&s);
    if (!(sp = study_probes_new(&s, err, sizeof err))) {
        fprintf(stderr, "sizeup: %s\n", err);
        study_destroy(&s);
        return SIZEUP_EXIT_INPUT;
    }
    if ((rc = load_catalogs(&s, &o, &cat)) != 0) {
        study_probes_free(sp);
        study_destroy(&s);
        return rc;
    }
    snprintf(results, sizeof results, "%s/results.jsonl", s.output);
    snprintf(done_path, sizeof done_path, "%s/finished-curves.txt", s.output);
    snprintf(log_path, sizeof log_path, "%s/probe.log", s.output);
    snprintf(parts_path, sizeof parts_path, "%s/parts.jsonl", s.output);
    snprintf(confirm_path, sizeof confirm_path, "%s/confirm.jsonl", s.output);
    point_list_init(&done);
    files.results = results;
    files.done_path = done_path;
    files.parts = parts_path;
    files.confirm = confirm_path;
    if ((status = prepare_output(&o, &s, &files, &done, &lockfd)) != SIZEUP_EXIT_OK)
        goto out;
    if (!(files.log = fopen(log_path, "a"))) {
        fprintf(stderr, "sizeup: cannot write %s: %s\n", log_path, strerror(errno));
        status = SIZEUP_EXIT_FAIL;
        goto out;
    }
    if (stopflag_install() != 0) {
        fprintf(stderr, "sizeup: cannot handle SIGINT/SIGTERM: %s\n", strerror(errno));
        fclose(files.log);
        status = SIZEUP_EXIT_FAIL;
        goto out;
    }
    if (myconn_library_init() != 0) {
        fprintf(stderr, "sizeup: cannot initialise the MySQL client library\n");
        status = SIZEUP_EXIT_FAIL;
    } else {
        lib = 1;
        status = run_candidates(&s, sp, &done, &files, &unreachable);
    }
    stopflag_restore();
    if (fclose(files.log) != 0 && status == SIZEUP_EXIT_OK)
        status = SIZEUP_EXIT_FAIL;
    if (lib)
        myconn_library_end();
    if (stopflag_signal()) {
        fprintf(stderr,
                "sizeup: interrupted (%s); the points measured so far are in %s. Run "
                "'sizeup study --resume %s' to go on.\n",
                stopflag_name(stopflag_signal()), results, path);
        status = SIZEUP_EXIT_INTERRUPTED;
        goto out;
    }
    if (status == SIZEUP_EXIT_FAIL && !lib)
        goto out;
    if (status != SIZEUP_EXIT_OK && access(results, F_OK) != 0)
        goto out; /* nothing was measured or imported (said above): nothing to rank */
    rc = rank_study(&s, cat, results, sp);
    /* a candidate whose server stopped answering may have no point that counts (its levels
     * flagged), which the ranking reports as a problem: the cause is the server (4), not the
     * input (3); and a probe that failed (a table swapped in, a lock another run holds) is the
     * cause of what the ranking then misses: its status stays */
    if (rc != 0 && status == SIZEUP_EXIT_OK && !(unreachable && rc == SIZEUP_EXIT_INPUT))
        status = rc;
    if (status == SIZEUP_EXIT_OK && unreachable)
        status = SIZEUP_EXIT_UNREACHABLE;
out:
    outlock_release(lockfd);
    point_list_destroy(&done);
    cat_catalog_free(cat);
    study_probes_free(sp);
    study_destroy(&s);
    return status;
}
