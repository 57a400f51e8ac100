/* rank_cli.c - the input options of sizeup rank and sizeup report (rank_cli.h). */
#include "rank_cli.h"

#include "tco.h"
#include "workload.h"

#include "cmd_catalog.h"
#include "import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rank_cli_init(struct rank_cli *o)
{
    memset(o, 0, sizeof *o);
}

void rank_cli_destroy(struct rank_cli *o)
{
    for (size_t i = 0; i < o->n_map_text; i++)
        free(o->map_text[i]);
    o->n_map_text = 0;
}

int rank_cli_parse_workload(const char *arg, void *dest, char *err, size_t cap)
{
    struct rank_options *opt = dest;
    if (opt->n_mix) {
        snprintf(err, cap, "give one --workload or one --mix");
        return -1;
    }
    if (!*arg || strlen(arg) >= sizeof opt->mix[0].workload) {
        snprintf(err, cap, "'%s' is not a workload name, e.g. oltp_read_write", arg);
        return -1;
    }
    snprintf(opt->mix[0].workload, sizeof opt->mix[0].workload, "%s", arg);
    opt->mix[0].weight = 1;
    opt->n_mix = 1;
    return 0;
}

int rank_cli_parse_mix(const char *arg, void *dest, char *err, size_t cap)
{
    struct rank_options *opt = dest;
    if (opt->n_mix) {
        snprintf(err, cap, "give one --workload or one --mix");
        return -1;
    }
    return rank_mix_parse(arg, opt->mix, &opt->n_mix, err, cap);
}

/* Add one TARGET=ID; where prefixes the message ("map.txt:3: " or ""). */
static int add_map(struct rank_cli *o, const char *text, const char *where, char *err, size_t cap)
{
    char *copy;
    if (o->n_maps == RANK_CLI_MAX_MAPS) {
        snprintf(err, cap, "%smore than %d mappings", where, RANK_CLI_MAX_MAPS);
        return -1;
    }
    copy = strdup(text);
    if (!copy) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    o->map_text[o->n_map_text++] = copy;
    if (rank_map_parse(copy, &o->maps[o->n_maps]) != 0) {
        snprintf(err, cap, "%s'%s' is not a mapping: expected TARGET=CONFIG-ID", where, text);
        return -1;
    }
    /* a target mapped twice: the same configuration is harmless, another one is a mistake the
     * first would silently win */
    for (size_t i = 0; i < o->n_maps; i++)
        if (strcmp(o->maps[i].target, o->maps[o->n_maps].target) == 0 &&
            strcmp(o->maps[i].config, o->maps[o->n_maps].config) != 0) {
            snprintf(err, cap, "%starget '%s' is mapped to '%s' and to '%s': map it once", where,
                     o->maps[i].target, o->maps[i].config, o->maps[o->n_maps].config);
            return -1;
        }
    o->n_maps++;
    return 0;
}

int rank_cli_parse_map(const char *arg, void *dest, char *err, size_t cap)
{
    return add_map(dest, arg, "", err, cap);
}

int rank_cli_parse_map_file(const char *path, void *dest, char *err, size_t cap)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[1100];
    long no = 0;
    if (!f) {
        snprintf(err, cap, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char *s = line, *e;
        no++;
        while (*s == ' ' || *s == '\t')
            s++;
        e = s + strlen(s);
        while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (!*s || *s == '#')
            continue;
        snprintf(where, sizeof where, "%s:%ld: ", path, no);
        if (add_map(dest, s, where, err, cap) != 0) {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

int rank_cli_load_catalogs(const struct rank_cli *o, const char *cmd, struct cat_catalog **cat)
{
    int rc;
    *cat = cat_catalog_new();
    if (!*cat) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    if (o->n_catalogs == 0) {
        rc = cmd_catalog_load_one(*cat, cat_default_source());
    } else {
        rc = SIZEUP_EXIT_OK;
        for (size_t i = 0; rc == SIZEUP_EXIT_OK && i < o->n_catalogs; i++)
            rc = cmd_catalog_load_one(*cat, o->catalogs[i]);
    }
    if (rc == SIZEUP_EXIT_OK)
        rc = setcli_apply(*cat, o->sets, o->n_sets, o->opt.pricing, cmd, "set on the command line");
    if (rc != SIZEUP_EXIT_OK) {
        cat_catalog_free(*cat);
        *cat = NULL;
        return rc;
    }
    return 0;
}

int rank_cli_load(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                  struct cat_catalog **cat, int *status)
{
    struct import_options io = {.max_points = IMPORT_HELD_POINTS_MAX, .target = o->import_target};
    int rc;
    *cat = NULL;
    if (o->n_points == 0)
        return cli_usage_error(cmd, "no points: give --points FILE");
    if ((rc = rank_cli_load_catalogs(o, cmd, cat)) != 0)
        return rc;
    for (size_t i = 0; i < o->n_points; i++) {
        struct import_report rep;
        long twice = cli_same_file_before(o->points, i);
        int irc;
        if (twice >= 0) {
            fprintf(stderr,
                    "sizeup: %s: the same file as %s, given before: read once (its points "
                    "twice would be replicates that agree exactly, a run-to-run noise of 0)\n",
                    o->points[i], o->points[twice]);
            continue;
        }
        irc = import_file(o->points[i], &io, pts, &rep);
        if (irc < 0 || irc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            *status = SIZEUP_EXIT_INPUT;
        }
        if (irc == IMPORT_ENOMEM) {
            cat_catalog_free(*cat);
            *cat = NULL;
            return SIZEUP_EXIT_FAIL;
        }
    }
    return 0;
}

/* Levenshtein distance of a and b (each at most 63 bytes: a workload name). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la > 63 || lb > 63)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* Every workload of --mix / --workload is one some point has: a typo is misuse, named with the
 * closest workload the points have (issue 28.7: it ranked nothing and exited 0). 0, or 2; 3
 * when the mix came from --require (an input the points cannot answer, not a typo). */
static int check_mix(const struct rank_cli *o, const char *cmd, const struct point_list *pts)
{
    for (size_t m = 0; m < o->opt.n_mix; m++) {
        const char *w = o->opt.mix[m].workload, *best = NULL;
        size_t dbest = (size_t)-1, len = 0, found = 0;
        char have[512] = "";
        for (size_t i = 0; i < pts->n && !found; i++)
            found = pts->items[i].workload && strcmp(pts->items[i].workload, w) == 0;
        if (found || pts->n == 0)
            continue;
        for (size_t i = 0; i < pts->n; i++) {
            const char *x = pts->items[i].workload;
            size_t d, k;
            if (!x)
                continue;
            for (k = 0;
                 k < i && !(pts->items[k].workload && strcmp(pts->items[k].workload, x) == 0); k++)
                ;
            if (k < i)
                continue; /* listed already */
            if (len < sizeof have - 1)
                len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", len ? ", " : "", x);
            if ((d = edit_distance(w, x)) < dbest) {
                dbest = d;
                best = x;
            }
        }
        if (len >= sizeof have - 1)
            snprintf(have + sizeof have - 6, 6, ", ...");
        if (o->require) {
            /* not a typo: the observed load has a workload nobody measured */
            fprintf(stderr,
                    "sizeup: --require %s: the observed load's mix has %s (weight %.3f), which no "
                    "point measures (the points have: %s): measure it (sizeup probe run "
                    "--workload %s) or give --mix and --required-tps yourself\n",
                    o->require, w, o->opt.mix[m].weight, have, w);
            return SIZEUP_EXIT_INPUT;
        }
        if (best && dbest <= 3)
            return cli_usage_error(cmd,
                                   "no point has workload '%s' (of the mix): did you mean '%s'? "
                                   "the points have: %s",
                                   w, best, have);
        return cli_usage_error(cmd, "no point has workload '%s' (of the mix); the points have: %s",
                               w, have);
    }
    return 0;
}

/* --disks and --disks-from parsed into sp and checked against the catalogs and the points (the
 * ranking derives the configurations, ranking.h). 0, or an exit code (misuse said). */
static int check_disks(const struct rank_cli *o, const char *cmd, const struct point_list *pts,
                       const struct cat_catalog *cat, struct diskrank_spec *sp)
{
    char err[256];
    for (size_t i = 0; i < o->n_disks; i++) {
        if (diskrank_spec_parse(o->disks[i], &sp[i], err, sizeof err) != 0)
            return cli_usage_error(cmd, "--disks: %s", err);
        if (!cat_find_disk(cat, sp[i].type)) {
            char have[600];
            size_t len = 0;
            have[0] = '\0';
            for (size_t k = 0; k < cat->n_disks && len + 8 < sizeof have; k++)
                len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", k ? ", " : "",
                                        cat->disks[k].id);
            return cli_usage_error(cmd,
                                   "--disks: no disk type '%s' in the catalogs (they have: %s)",
                                   sp[i].type, cat->n_disks ? have : "none");
        }
        {
            const struct cat_disk *d = cat_find_disk(cat, sp[i].type);
            if (d->local)
                return cli_usage_error(cmd,
                                       "--disks %s: a local disk comes with its host and is priced "
                                       "in it, so its size is no choice: rank the hosts that have "
                                       "it as catalog configurations",
                                       d->id);
            for (size_t k = 0; k < sp[i].n_sizes; k++)
                if (sp[i].sizes[k] < d->min_gib || sp[i].sizes[k] > d->max_gib)
                    return cli_usage_error(cmd, "--disks %s: %g GiB is outside its %g-%g GiB",
                                           d->id, sp[i].sizes[k], d->min_gib, d->max_gib);
            for (size_t k = 0; k < i; k++)
                if (strcmp(sp[k].type, sp[i].type) == 0)
                    return cli_usage_error(cmd,
                                           "--disks %s given twice: give each type once, with "
                                           "all its sizes (TYPE:100,500)",
                                           d->id);
        }
    }
    for (size_t i = 0; i < o->n_disks_from; i++) {
        size_t k;
        for (k = 0; k < pts->n && strcmp(rank_point_config(&pts->items[k], o->maps, o->n_maps),
                                         o->disks_from[i]) != 0;
             k++)
            ;
        if (k == pts->n)
            return cli_usage_error(cmd, "--disks-from %s: no point joins that configuration",
                                   o->disks_from[i]);
    }
    if (o->n_disks_from && !o->n_disks)
        return cli_usage_error(cmd, "--disks-from needs --disks: the disk types to model it on");
    return 0;
}

int rank_cli_run(const struct rank_cli *o, const char *cmd, struct point_list *pts,
                 struct cat_catalog **cat, struct ranking *rk, int *status)
{
    struct diskrank_spec disks[DISKRANK_MAX_SPECS];
    struct predict_transfer tr[RANK_CLI_MAX_FILES];
    struct score_table sc;
    struct ranking_ask a;
    char err[512];
    int rc;
    memset(&sc, 0, sizeof sc);
    if (o->scores && !o->predict)
        return cli_usage_error(cmd, "--scores is for --predict --transfer F=FROM:score");
    rc = rank_cli_load(o, cmd, pts, cat, status);
    if (rc != 0)
        return rc;
    memset(&a, 0, sizeof a);
    if ((rc = check_mix(o, cmd, pts)) == 0 && (o->n_disks || o->n_disks_from))
        rc = check_disks(o, cmd, pts, *cat, disks);
    for (size_t i = 0; rc == 0 && o->predict && i < o->n_transfer; i++)
        if (predict_transfer_parse(o->transfer[i], &tr[i], err, sizeof err) != 0)
            rc = cli_usage_error(cmd, "--transfer: %s", err);
    if (rc == 0 && o->scores && score_table_load(o->scores, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        rc = SIZEUP_EXIT_INPUT;
    }
    if (rc == 0 && o->predict &&
        (predict_transfer_check(tr, o->transfer, o->n_transfer, *cat, err, sizeof err) != 0 ||
         predict_score_check(tr, o->transfer, o->n_transfer, o->scores ? &sc : NULL, o->scores, err,
                             sizeof err) != 0))
        rc = cli_usage_error(cmd, "%s", err);
    if (rc == 0 && o->scores) {
        size_t k = 0;
        while (k < o->n_transfer && !tr[k].score)
            k++;
        if (k == o->n_transfer)
            rc = cli_usage_error(cmd, "--scores is for --transfer F=FROM:score rules, and none "
                                      "is given: the scores would change nothing");
    }
    if (rc != 0) {
        score_table_destroy(&sc);
        cat_catalog_free(*cat);
        *cat = NULL;
        return rc;
    }
    a.opt = o->opt;
    a.maps = o->maps;
    a.n_maps = o->n_maps;
    a.disks = disks;
    a.n_disks = o->n_disks;
    a.disks_from = o->disks_from;
    a.n_disks_from = o->n_disks_from;
    a.predict = o->predict;
    a.transfer = tr;
    a.n_transfer = o->predict ? o->n_transfer : 0;
    a.scores = o->scores ? &sc : NULL;
    rc = ranking_build(rk, pts, *cat, &a, stderr);
    score_table_destroy(&sc);
    if (rc < 0) {
        cat_catalog_free(*cat);
        *cat = NULL;
        return SIZEUP_EXIT_FAIL;
    }
    if (rc > 0)
        *status = SIZEUP_EXIT_INPUT;
    return 0;
}

int rank_cli_parse_horizon(const char *arg, void *dest, char *err, size_t cap)
{
    return tco_parse_horizon(arg, dest, err, cap);
}

int rank_cli_require(struct rank_cli *o, const char *cmd)
{
    struct workload_req q;
    char msg[1024];
    double at, at_tps, base;
    if (!o->require) {
        if (o->growth != 1 || o->headroom != 0.3 || strcmp(o->require_at, "p95") != 0)
            return cli_usage_error(cmd, "--growth, --headroom and --require-at size for a "
                                        "workload record: give --require FILE (else "
                                        "--required-tps N)");
        return 0;
    }
    if (o->opt.n_mix || o->opt.required_tps > 0)
        return cli_usage_error(cmd, "--require takes the mix and the throughput from the record: "
                                    "it excludes --mix, --workload and --required-tps");
    if (workload_read(o->require, &q, msg, sizeof msg) != 0) {
        fprintf(stderr, "sizeup: --require %s\n", msg);
        return SIZEUP_EXIT_INPUT;
    }
    if (workload_stat_get(&q.mix_tps, o->require_at, &at) != 0 ||
        workload_stat_get(&q.tps, o->require_at, &at_tps) != 0)
        return cli_usage_error(cmd, "--require-at takes mean, p50, p95, p99 or max, not '%s'",
                               o->require_at);
    if (q.residual > WORKLOAD_RESIDUAL_REFUSE) {
        fprintf(stderr,
                "sizeup: --require %s: the observed statements are not a mix of sysbench's "
                "workloads: the nearest mix leaves %.0f %% of them unexplained (mix.residual; "
                "scanning SELECTs, or transactions of another shape), so sysbench curves cannot "
                "be compared with this load. Probe the candidates with a workload of your own, "
                "or give --mix and --required-tps yourself\n",
                o->require, 100 * q.residual);
        return SIZEUP_EXIT_INPUT;
    }
    if (q.n > RANK_MAX_MIX) {
        fprintf(stderr, "sizeup: --require %s: more than %d workloads in the mix\n", o->require,
                RANK_MAX_MIX);
        return SIZEUP_EXIT_INPUT;
    }
    o->opt.n_mix = q.n;
    for (size_t i = 0; i < q.n; i++) {
        snprintf(o->opt.mix[i].workload, sizeof o->opt.mix[i].workload, "%s", q.workload[i]);
        o->opt.mix[i].weight = q.weight[i];
    }
    /* the mix's transactions, never fewer than the transactions observed: a mix that explains
     * the statements with fewer, larger transactions would size for less than the load */
    base = fmax(at, at_tps);
    o->opt.required_tps = base * o->growth * (1 + o->headroom);
    fprintf(stderr,
            "sizeup %s: sizing for %s: %s %.1f tps x growth %g x (1 + headroom %g) = %.1f tps "
            "of the mix",
            cmd, o->require, o->require_at, base, o->growth, o->headroom, o->opt.required_tps);
    for (size_t i = 0; i < q.n; i++)
        fprintf(stderr, "%s %s:%.3f", i ? "," : "", q.workload[i], q.weight[i]);
    fprintf(stderr, "\n");
    if (at_tps > at * 1.001)
        fprintf(stderr,
                "sizeup %s: note: the observed %s tps (%.1f) is above the mix's (%.1f): sized "
                "for the observed\n",
                cmd, o->require_at, at_tps, at);
    if (q.residual > WORKLOAD_RESIDUAL_NOTE)
        fprintf(stderr,
                "sizeup %s: note: the mix issues the observed statements only approximately: "
                "%.0f %% of them differ (the record's mix.residual)\n",
                cmd, 100 * q.residual);
    if (!q.complete)
        fprintf(stderr,
                "sizeup %s: note: the observation did not finish (ended: %s); sized on the %.0f "
                "s it counted\n",
                cmd, q.ended[0] ? q.ended : "?", q.seconds);
    return 0;
}

int rank_cli_finish(struct rank_cli *o, const char *cmd, const struct cli_args *args,
                    struct point_list *pts, struct cat_catalog **cat, struct ranking *rk,
                    int *status)
{
    int rc;
    if (args->argc > 0)
        return cli_usage_error(cmd, "unexpected argument '%s' (points go after --points)",
                               args->argv[0]);
    if ((rc = rank_cli_require(o, cmd)) != 0)
        return rc;
    point_list_init(pts);
    ranking_init(rk);
    rc = rank_cli_run(o, cmd, pts, cat, rk, status);
    if (rc != 0)
        point_list_destroy(pts);
    return rc;
}

/* The latency statistics the points have, "avg, p95, p99" (and any percentile of a histogram),
 * into buf. */
static const char *stats_of(const struct point_list *pts, char *buf, size_t cap)
{
    double seen[32];
    size_t n_seen = 0, len = 0;
    int avg = 0, hist = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        avg |= isfinite(p->latency_ms.avg);
        hist |= p->n_hist > 0 || p->latency_hist != NULL;
        for (size_t k = 0; k < p->latency_ms.n_pct; k++) {
            size_t j;
            for (j = 0; j < n_seen && seen[j] != p->latency_ms.pct[k]; j++)
                ;
            if (j == n_seen && n_seen < sizeof seen / sizeof seen[0])
                seen[n_seen++] = p->latency_ms.pct[k];
        }
    }
    if (avg)
        len += (size_t)snprintf(buf + len, cap - len, "avg");
    for (size_t j = 0; j < n_seen && len < cap; j++)
        len += (size_t)snprintf(buf + len, cap - len, "%sp%g", len ? ", " : "", seen[j]);
    if (hist && len < cap)
        snprintf(buf + len, cap - len, "%sany percentile of their latency histograms",
                 len ? ", and " : "");
    if (!buf[0])
        snprintf(buf, cap, "no latency at all (rank by throughput needs one: probe again)");
    return buf;
}

int rank_cli_nothing(const struct rank_set *s, const struct point_list *pts, const char *cmd)
{
    size_t judged = 0, met = 0;
    char have[400];
    (void)cmd;
    if (s->n == 0)
        return 0;
    for (size_t i = 0; i < s->n; i++) {
        judged += s->rows[i].status != RANK_NOLATENCY;
        met += s->rows[i].status == RANK_MET;
    }
    /* every configuration lacks the target's statistic: the target judged none of them */
    if (judged == 0) {
        fprintf(stderr,
                "sizeup: nothing to rank: no configuration has the target's latency statistic "
                "measured (see the list); give one the points have: %s\n",
                stats_of(pts, have, sizeof have));
        return SIZEUP_EXIT_FAIL;
    }
    if (s->opt.required_tps > 0 && met == 0) {
        fprintf(stderr,
                "sizeup: nothing to rank: no configuration carries %g tps at the target (see the "
                "list: each one's reason)\n",
                s->opt.required_tps);
        return SIZEUP_EXIT_FAIL;
    }
    return 0;
}
