/*
 * cmd_study.c - `sizeup study STUDY.json`: probe -> fit -> rank -> report, resumable.
 *
 * Each probed candidate is measured by running this same binary as `sizeup probe` in a child
 * process (prepare, run per workload, cleanup), so a probe that crashes or is interrupted
 * cannot take the study with it, and every level is appended and flushed to the study's
 * results file by the probe itself as it is measured. Imported candidates are read with
 * import_file() and appended once. Then the whole results file is ranked (rankset.h) and the
 * ranking and the HTML report are written into the output folder.
 *
 * Resume (--resume): points already in results.jsonl are not measured again. For a fixed
 * ladder the missing levels are run; for the auto ladder the probe is run with --resume,
 * which takes the levels already in the file instead of measuring them. Incomplete points
 * (interrupted, partial) do not count as measured.
 */
#include "cli.h"
#include "cmd_catalog.h"
#include "commands.h"
#include "curve.h"
#include "import.h"
#include "outfile.h"
#include "point.h"
#include "rankset.h"
#include "report_html.h"
#include "study.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { OPT_RESUME = 256, OPT_NO_REPORT };

static const struct cli_option study_options[] = {
    {"resume", no_argument, OPT_RESUME, NULL,
     "keep the output folder's results and measure only what is missing"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL}};

static const char study_usage[] = "Usage: sizeup study [--resume] STUDY.json";
static const char study_description[] =
    "Run a whole sizing study described by a sizeup.study/1 file (docs/study.md): probe each\n"
    "candidate server with calibrated sysbench-style probes (or import its results), fit the\n"
    "curves, rank the configurations by throughput per cost at the latency target, and write\n"
    "OUTPUT/results.jsonl, OUTPUT/ranking.txt, OUTPUT/ranking.jsonl and OUTPUT/report.html\n"
    "(the probes' sysbench-layout reports go to OUTPUT/probe.log).\n"
    "Points are appended to results.jsonl as they are measured; after an interruption, run\n"
    "the same command with --resume and nothing measured is measured again. A candidate\n"
    "that cannot be reached is reported and the others go on (exit 4 at the end).";

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static int has_level(const struct point_list *l, const char *target, const char *workload,
                     long threads)
{
    return curve_find_point(l, target, workload, threads) != NULL;
}

/* Run this binary with args (NULL-terminated, args[0] unused), its stdout appended to
 * probe_log (the probes' sysbench-layout reports; stdout stays the ranking's); returns its exit
 * status, 128+sig when killed, or -1 when it could not start. */
static int run_self(char **args, const char *probe_log)
{
    pid_t pid;
    int st;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *log = probe_log ? fopen(probe_log, "a") : NULL;
        if (log) {
            dup2(fileno(log), STDOUT_FILENO);
            fclose(log);
        }
        execv("/proc/self/exe", args);
        fprintf(stderr, "sizeup: cannot run /proc/self/exe: %s\n", strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return -1;
}

/* argv builder */
struct args {
    char *v[96];
    int n;
    char num[24][32];
    int n_num;
};

static void add(struct args *a, const char *s)
{
    if (a->n < 95)
        a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

static void add_num(struct args *a, const char *opt, long v)
{
    if (a->n_num >= 24)
        return;
    snprintf(a->num[a->n_num], sizeof a->num[0], "%ld", v);
    add(a, opt);
    add(a, a->num[a->n_num++]);
}

static void conn_args(struct args *a, const struct study_candidate *c)
{
    if (c->mysql.host) {
        add(a, "--mysql-host");
        add(a, c->mysql.host);
    }
    if (c->mysql.port)
        add_num(a, "--mysql-port", c->mysql.port);
    if (c->mysql.socket) {
        add(a, "--mysql-socket");
        add(a, c->mysql.socket);
    }
    if (c->mysql.user) {
        add(a, "--mysql-user");
        add(a, c->mysql.user);
    }
    if (c->mysql.db) {
        add(a, "--mysql-db");
        add(a, c->mysql.db);
    }
    if (c->mysql.password_file) {
        add(a, "--mysql-password-file");
        add(a, c->mysql.password_file);
    }
    if (c->mysql.defaults_file) {
        add(a, "--defaults-file");
        add(a, c->mysql.defaults_file);
    }
    if (c->mysql.group) {
        add(a, "--defaults-group");
        add(a, c->mysql.group);
    }
    add_num(a, "--tables", c->tables);
    add_num(a, "--table-size", c->table_size);
}

/* 1 when done_path lists "target<TAB>workload": that curve's auto ladder finished. */
static int ladder_finished(const char *done_path, const char *target, const char *workload)
{
    FILE *f = fopen(done_path, "r");
    char line[512], want[512];
    int found = 0;
    if (!f)
        return 0;
    snprintf(want, sizeof want, "%s\t%s\n", target, workload);
    while (!found && fgets(line, sizeof line, f))
        found = strcmp(line, want) == 0;
    fclose(f);
    return found;
}

static void mark_finished(const char *done_path, const char *target, const char *workload)
{
    FILE *f = fopen(done_path, "a");
    if (!f)
        return;
    fprintf(f, "%s\t%s\n", target, workload);
    fclose(f);
}

/* Does workload w of candidate c still need measuring? */
static int curve_needed(const struct study *s, const struct study_candidate *c, size_t w,
                        const struct point_list *done, const char *done_path)
{
    if (s->ladder_auto)
        return !ladder_finished(done_path, c->target, s->wl[w].name);
    for (size_t i = 0; i < s->n_ladder; i++)
        if (!has_level(done, c->target, s->wl[w].name, s->ladder[i]))
            return 1;
    return 0;
}

/* Probe one candidate. Returns 0, SIZEUP_EXIT_UNREACHABLE (reported, go on),
 * SIZEUP_EXIT_INTERRUPTED, or another non-zero exit code (reported, go on). */
static int probe_candidate(const struct study *s, const struct study_candidate *c,
                           const struct point_list *done, const char *results,
                           const char *done_path, const char *log_path, int resume)
{
    char precision[32], max_time[32], min_time[32], ladder[STUDY_MAX_LADDER * 8];
    int need = 0, rc, prepared = 0;
    for (size_t w = 0; w < s->n_wl; w++)
        need |= curve_needed(s, c, w, done, done_path);
    if (!need) {
        fprintf(stderr, "study: %s: every point already measured\n", c->target);
        return 0;
    }
    snprintf(precision, sizeof precision, "%g%%", s->precision * 100);
    snprintf(max_time, sizeof max_time, "%g", s->max_time_s);
    /* never stop before 5 s, or half the limit for shorter limits */
    snprintf(min_time, sizeof min_time, "%g", s->max_time_s / 2 < 5 ? s->max_time_s / 2 : 5.0);

    { /* drop tables a previous interrupted run left (only sbtest-shaped ones), then load */
        struct args a = {{0}, 0, {{0}}, 0};
        add(&a, "sizeup");
        add(&a, "probe");
        add(&a, "cleanup");
        conn_args(&a, c);
        fprintf(stderr, "study: %s: preparing %ld table(s) x %ld rows\n", c->target, c->tables,
                c->table_size);
        rc = run_self(a.v, log_path);
        if (rc != 0)
            goto failed;
        a.n = 0;
        a.n_num = 0;
        add(&a, "sizeup");
        add(&a, "probe");
        add(&a, "prepare");
        conn_args(&a, c);
        add_num(&a, "--threads", 2);
        rc = run_self(a.v, log_path);
        if (rc != 0)
            goto failed; /* a failed prepare drops what it created */
        prepared = 1;
    }
    for (size_t w = 0; w < s->n_wl && !interrupted; w++) {
        struct args a = {{0}, 0, {{0}}, 0};
        size_t len = 0;
        ladder[0] = '\0';
        if (!curve_needed(s, c, w, done, done_path))
            continue;
        if (!s->ladder_auto) {
            for (size_t i = 0; i < s->n_ladder; i++)
                if (!has_level(done, c->target, s->wl[w].name, s->ladder[i]))
                    len += (size_t)snprintf(ladder + len, sizeof ladder - len, "%s%ld",
                                            len ? "," : "", s->ladder[i]);
            if (len == 0)
                continue;
        }
        add(&a, "sizeup");
        add(&a, "probe");
        add(&a, "run");
        conn_args(&a, c);
        add(&a, "--workload");
        add(&a, s->wl[w].name);
        add(&a, "--target");
        add(&a, c->target);
        add(&a, "--config");
        add(&a, c->config);
        add(&a, "--threads");
        add(&a, s->ladder_auto ? "auto" : ladder);
        if (s->ladder_auto) {
            add_num(&a, "--max-threads", s->max_threads);
            add_num(&a, "--max-points", s->max_points);
            add(&a, "--slo");
            add(&a, s->slo);
            if (resume && curve_count_points(done, c->target, s->wl[w].name) > 0)
                add(&a, "--resume");
        }
        add(&a, "--precision");
        add(&a, precision);
        add(&a, "--min-time");
        add(&a, min_time);
        add(&a, "--max-time");
        add(&a, max_time);
        add(&a, "--out");
        add(&a, results);
        fprintf(stderr, "study: %s: %s, threads %s\n", c->target, s->wl[w].name,
                s->ladder_auto ? "auto" : ladder);
        rc = run_self(a.v, log_path);
        if (rc != 0)
            goto failed;
        mark_finished(done_path, c->target, s->wl[w].name);
    }
    {
        struct args a = {{0}, 0, {{0}}, 0};
        add(&a, "sizeup");
        add(&a, "probe");
        add(&a, "cleanup");
        conn_args(&a, c);
        prepared = 0;
        rc = run_self(a.v, log_path);
        if (rc != 0)
            goto failed;
    }
    return interrupted ? SIZEUP_EXIT_INTERRUPTED : 0;
failed:
    if (prepared) { /* every path after a prepare drops the tables again */
        struct args a = {{0}, 0, {{0}}, 0};
        int crc;
        add(&a, "sizeup");
        add(&a, "probe");
        add(&a, "cleanup");
        conn_args(&a, c);
        crc = run_self(a.v, log_path);
        if (crc != 0)
            fprintf(stderr, "study: %s: cleanup after the failure ended with exit status %d\n",
                    c->target, crc);
    }
    if (rc == SIZEUP_EXIT_INTERRUPTED || interrupted || rc == 128 + SIGINT)
        return SIZEUP_EXIT_INTERRUPTED;
    fprintf(stderr,
            "study: %s: the probe ended with exit status %d%s; going on with the "
            "other candidates\n",
            c->target, rc, rc == SIZEUP_EXIT_UNREACHABLE ? " (server unreachable)" : "");
    return rc == SIZEUP_EXIT_UNREACHABLE ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
}

/* Import one candidate's result files, keep its points (by target; a file of one target is
 * taken whole), set their config, append the new ones to results. */
static int import_candidate(const struct study_candidate *c, const struct point_list *done,
                            FILE *out)
{
    struct point_list l;
    int status = 0;
    size_t kept = 0, already = 0;
    point_list_init(&l);
    for (size_t i = 0; i < c->n_results; i++) {
        struct import_report rep;
        size_t first = l.n;
        int rc = import_file(c->results[i], NULL, &l, &rep);
        if (rc < 0 || rc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            status = SIZEUP_EXIT_INPUT;
        }
        if (rc >= 0) {
            int any = 0, one_target = 1;
            for (size_t k = first; k < l.n; k++) {
                any |= strcmp(l.items[k].target, c->target) == 0;
                one_target &= strcmp(l.items[k].target, l.items[first].target) == 0;
            }
            for (size_t k = first; k < l.n; k++) {
                struct point *p = &l.items[k];
                if (any ? strcmp(p->target, c->target) != 0 : !one_target)
                    p->threads = -2; /* mark: not this candidate's */
                else if (point_set_str(&p->target, c->target) ||
                         point_set_str(&p->config, c->config))
                    status = SIZEUP_EXIT_FAIL;
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
        if (p->threads > 0 && has_level(done, p->target, p->workload, (long)p->threads)) {
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

/* The three outputs of a study, for outfile_emit. */
struct study_out {
    const struct rank_set *rs;
    const struct report_inputs *in;
};

static int write_text(FILE *f, const void *ctx)
{
    return rank_set_write_text(f, ((const struct study_out *)ctx)->rs);
}

static int write_json(FILE *f, const void *ctx)
{
    return rank_set_write_json(f, ((const struct study_out *)ctx)->rs);
}

static int write_html(FILE *f, const void *ctx)
{
    const struct study_out *o = ctx;
    return report_write_html(f, o->rs, o->in);
}

static int write_outputs(const struct study *s, const struct rank_set *rs, const char *results)
{
    static const char *const names[] = {"ranking.txt", "ranking.jsonl", "report.html"};
    int (*const fns[])(FILE *, const void *) = {write_text, write_json, write_html};
    const char *files[1] = {results};
    struct report_inputs in = {files, 1, "sizeup " SIZEUP_VERSION};
    struct study_out o = {rs, &in};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", s->output, names[i]);
        if (outfile_emit(path, names[i], fns[i], &o) != 0)
            rc = -1;
    }
    return rc;
}

static int rank_study(const struct study *s, const char *results)
{
    struct point_list all;
    struct import_report rep;
    struct cat_catalog *cat = cat_catalog_new();
    struct rank_set rs;
    struct rank_options opt;
    char err[256];
    int status = 0, rc;
    double wsum = 0;

    memset(&opt, 0, sizeof opt);
    point_list_init(&all);
    rank_set_init(&rs);
    if (!cat)
        return SIZEUP_EXIT_FAIL;
    if (slo_parse(s->slo, &opt.slo, err, sizeof err) != 0) {
        fprintf(stderr, "sizeup: %s: $.slo: %s\n", s->path, err);
        cat_catalog_free(cat);
        return SIZEUP_EXIT_USAGE;
    }
    opt.pricing = CAT_PRICING_ON_DEMAND;
    if (s->pricing && cat_pricing_parse(s->pricing, &opt.pricing) != 0) {
        fprintf(stderr, "sizeup: %s: $.pricing: unknown pricing model \"%s\"\n", s->path,
                s->pricing);
        cat_catalog_free(cat);
        return SIZEUP_EXIT_USAGE;
    }
    opt.required_tps = isnan(s->required_tps) ? 0 : s->required_tps;
    for (size_t i = 0; i < s->n_wl && i < RANK_MAX_MIX; i++)
        wsum += s->wl[i].weight;
    for (size_t i = 0; i < s->n_wl && i < RANK_MAX_MIX; i++) {
        snprintf(opt.mix[i].workload, sizeof opt.mix[i].workload, "%s", s->wl[i].name);
        opt.mix[i].weight = s->wl[i].weight / wsum;
        opt.n_mix++;
    }
    for (size_t i = 0; i < s->n_catalogs; i++) {
        rc = cmd_catalog_load_one(cat, s->catalogs[i]);
        if (rc != 0) {
            cat_catalog_free(cat);
            return rc;
        }
    }
    rc = import_file(results, NULL, &all, &rep);
    if (rc < 0) {
        fprintf(stderr, "sizeup: %s\n", rep.msg);
        cat_catalog_free(cat);
        return SIZEUP_EXIT_FAIL;
    }
    /* rank_set_build leaves out the points that do not count (curve.h) and says so */
    fprintf(stderr, "study: ranking %zu point(s) at %s\n", all.n, s->slo);
    rc = rank_set_build(&rs, &all, cat, &opt, NULL, 0, stderr);
    if (rc < 0) {
        status = SIZEUP_EXIT_FAIL;
    } else {
        if (rc > 0)
            status = SIZEUP_EXIT_INPUT;
        rank_set_write_text(stdout, &rs);
        if (write_outputs(s, &rs, results) != 0)
            status = SIZEUP_EXIT_FAIL;
        else
            printf("\nreport: %s/report.html\nranking: %s/ranking.txt, %s/ranking.jsonl\n"
                   "points: %s\n",
                   s->output, s->output, s->output, results);
    }
    rank_set_destroy(&rs);
    point_list_destroy(&all);

    cat_catalog_free(cat);
    return status;
}

int cmd_study(int argc, char **argv)
{
    struct option longs[8];
    char shorts[16];
    struct study s;
    char err[600], results[4096], done_path[4096], log_path[4096];
    int c, resume = 0, status = SIZEUP_EXIT_OK, unreachable = 0;
    struct point_list done;
    struct stat st;
    struct sigaction sa, old;
    FILE *out;

    cli_build_getopt(study_options, longs, 8, shorts, sizeof shorts);
    optind = 0; /* full re-initialisation: the dispatcher before stopped at the first operand */
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        switch (c) {
        case OPT_RESUME:
            resume = 1;
            break;
        case 'h':
            cli_print_help(study_usage, study_description, study_options);
            return SIZEUP_EXIT_OK;
        default:
            return cli_getopt_error("study", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_usage_error("study", "expected one STUDY.json file");
    if (study_load(argv[optind], &s, err, sizeof err) != 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        return SIZEUP_EXIT_INPUT;
    }
    if (mkdir(s.output, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "sizeup: cannot create the output folder %s: %s\n", s.output,
                strerror(errno));
        study_destroy(&s);
        return SIZEUP_EXIT_FAIL;
    }
    snprintf(results, sizeof results, "%s/results.jsonl", s.output);
    snprintf(done_path, sizeof done_path, "%s/finished-curves.txt", s.output);
    snprintf(log_path, sizeof log_path, "%s/probe.log", s.output);
    point_list_init(&done);
    if (!resume)
        unlink(done_path); /* a fresh study: no curve is finished */
    if (stat(results, &st) == 0 && st.st_size > 0) {
        struct import_report rep;
        if (!resume) {
            point_list_destroy(&done);
            fprintf(stderr,
                    "sizeup: %s already holds results: run with --resume to go on "
                    "with them, or remove it to start over\n",
                    results);
            study_destroy(&s);
            return SIZEUP_EXIT_USAGE;
        }
        if (import_file(results, NULL, &done, &rep) < 0) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            point_list_destroy(&done);
            study_destroy(&s);
            return SIZEUP_EXIT_INPUT;
        }
        fprintf(stderr, "study: resuming with %zu point(s) from %s\n", done.n, results);
    }

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    for (size_t i = 0; i < s.n_cand && !interrupted; i++) {
        const struct study_candidate *cd = &s.cand[i];
        int rc;
        fprintf(stderr, "study: [%zu/%zu] %s (%s)\n", i + 1, s.n_cand, cd->target,
                cd->probe ? "probe" : "import");
        if (cd->probe) {
            rc = probe_candidate(&s, cd, &done, results, done_path, log_path, resume);
        } else {
            out = fopen(results, "a");
            if (!out) {
                fprintf(stderr, "sizeup: cannot write %s: %s\n", results, strerror(errno));
                status = SIZEUP_EXIT_FAIL;
                break;
            }
            rc = import_candidate(cd, &done, out);
            if (fclose(out) != 0)
                rc = SIZEUP_EXIT_FAIL;
        }
        if (rc == SIZEUP_EXIT_INTERRUPTED)
            interrupted = 1;
        else if (rc == SIZEUP_EXIT_UNREACHABLE)
            unreachable = 1;
        else if (rc != 0 && status == SIZEUP_EXIT_OK)
            status = rc;
    }
    sigaction(SIGINT, &old, NULL);
    point_list_destroy(&done);
    if (interrupted) {
        fprintf(stderr,
                "sizeup: interrupted; the points measured so far are in %s. Run "
                "'sizeup study --resume %s' to go on.\n",
                results, argv[optind]);
        study_destroy(&s);
        return SIZEUP_EXIT_INTERRUPTED;
    }
    {
        int rc = rank_study(&s, results);
        if (rc != 0)
            status = rc;
    }
    study_destroy(&s);
    if (status == SIZEUP_EXIT_OK && unreachable)
        status = SIZEUP_EXIT_UNREACHABLE;
    return status;
}
