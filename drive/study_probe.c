/* study_probe.c - a study's probed candidates, in-process (see study_probe.h). */
#include "study_probe.h"
#include "confirm.h"

#include "curve.h"
#include "dblock.h"
#include "import.h"
#include "ladder.h"
#include "levelfile.h"
#include "nodump.h"
#include "oltp.h"
#include "probe_drive.h"
#include "readfile.h"
#include "sbtables.h"
#include "session.h"
#include "slo.h"
#include "stopflag.h"
#include "study_clients.h"
#include "study_setup.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a study's probe does besides its levels (and study_setup.h's): the probe's own defaults
 * (cmd_probe.c). */
/* passes: most replicates of a deciding level (probe's --replicates default) */
#define STUDY_REPLICATES 5

struct study_probes {
    const struct study *s;
    char **password; /* per candidate: its password (owned), or NULL */
    enum oltp_workload *wl;
    char *noise; /* the curves' noise lines (owned), NUL-terminated; NULL: none yet */
    size_t noise_len, noise_cap;
};

static void wipe(char *p)
{
    if (p) {
        memset(p, 0, strlen(p));
        free(p);
    }
}

void study_probes_free(struct study_probes *sp)
{
    if (!sp)
        return;
    for (size_t i = 0; sp->password && i < sp->s->n_cand; i++)
        wipe(sp->password[i]);
    free(sp->password);
    free(sp->wl);
    free(sp->noise);
    free(sp);
}

struct study_probes *study_probes_new(const struct study *s, char *err, size_t cap)
{
    struct study_probes *sp = calloc(1, sizeof *sp);
    int any = 0;
    if (!sp || !(sp->password = calloc(s->n_cand ? s->n_cand : 1, sizeof *sp->password)) ||
        !(sp->wl = calloc(s->n_wl ? s->n_wl : 1, sizeof *sp->wl))) {
        snprintf(err, cap, "out of memory");
        study_probes_free(sp);
        return NULL;
    }
    sp->s = s;
    for (size_t i = 0; i < s->n_cand; i++)
        any |= s->cand[i].probe;
    if (!any)
        return sp;
    for (size_t w = 0; w < s->n_wl; w++) {
        char jp[300];
        snprintf(jp, sizeof jp, "$.workloads.%s", s->wl[w].name);
        if (oltp_workload_parse(s->wl[w].name, &sp->wl[w]) != 0) {
            study_fail_at(s, jp, err, cap,
                          "'%s' is not a workload the probe runs (oltp_read_write, "
                          "oltp_read_only, oltp_write_only, oltp_point_select, oltp_insert, "
                          "oltp_update_index, oltp_update_non_index, oltp_delete, "
                          "select_random_points, select_random_ranges, oltp_legacy)",
                          s->wl[w].name);
            study_probes_free(sp);
            return NULL;
        }
        for (size_t i = 0; i < s->n_cand; i++) {
            struct oltp_opts o;
            char why[200];
            if (!s->cand[i].probe)
                continue;
            oltp_opts_default(&o);
            o.workload = sp->wl[w];
            o.tables = (unsigned)s->cand[i].tables;
            o.table_size = (unsigned)s->cand[i].table_size;
            if (oltp_opts_check(&o, why, sizeof why) != 0) {
                study_fail_at(s, jp, err, cap, "%s (candidate %s)", why, s->cand[i].target);
                study_probes_free(sp);
                return NULL;
            }
        }
    }
    for (size_t i = 0; i < s->n_cand; i++) {
        const struct study_candidate *c = &s->cand[i];
        const char *env = getenv("MYSQL_PWD");
        char why[600], jp[96];
        if (!c->probe)
            continue;
        nodump_process(); /* a password will be held (a file's, MYSQL_PWD's or an option file's) */
        snprintf(jp, sizeof jp, "$.candidates[%zu].mysql.password_file", i);
        if (c->mysql.password_file) {
            if (readfile_secret_line(c->mysql.password_file, &sp->password[i], why, sizeof why) !=
                0) {
                study_fail_at(s, jp, err, cap, "%s", why);
                study_probes_free(sp);
                return NULL;
            }
        } else if (env && !c->mysql.defaults_file && !(sp->password[i] = strdup(env))) {
            /* (with an option file named, Connector/C's order: the file's, then MYSQL_PWD) */
            snprintf(err, cap, "out of memory");
            study_probes_free(sp);
            return NULL;
        }
    }
    return sp;
}

/* ---- one candidate ---------------------------------------------------------------------- */

/* 1 when done_path lists "target<TAB>workload": that curve finished (its ladder and every pass
 * of its levels, the level records written). */
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
    if (!f) {
        fprintf(stderr, "study: warning: cannot write %s: %s\n", done_path, strerror(errno));
        return;
    }
    fprintf(f, "%s\t%s\n", target, workload);
    if (fclose(f) != 0)
        fprintf(stderr, "study: warning: cannot write %s: %s\n", done_path, strerror(errno));
}

/* Does workload w of candidate c still need measuring? Until the curve is marked finished: a
 * fixed ladder whose first-pass levels are all there may still lack its later passes and its
 * level records (issue 27.10: a study killed in its second pass and resumed skipped the curve,
 * and the ranking used single replicates); what is measured already is taken, not measured
 * again (probe_drive's done). */
static int curve_needed(const struct study *s, const struct study_candidate *c, size_t w,
                        const char *done_path)
{
    return !ladder_finished(done_path, c->target, s->wl[w].name);
}

/* Curve w of candidate i measured by its K clients (c->clients > 1): each level of the list not
 * yet in done, for max_time, merged (study_clients.h). How it ended. */
static enum drive_status clients_curve(const struct study_probes *sp, size_t i, size_t w,
                                       const struct probe_config *cfg0, const json_t *opts,
                                       const struct point_list *done,
                                       const struct study_probe_files *f)
{
    const struct study *s = sp->s;
    const struct study_candidate *c = &s->cand[i];
    struct probe_config cfg = *cfg0;
    struct probe_session *res = NULL, *parts = NULL;
    struct study_clients_out o;
    int rc = DRIVE_OK;

    /* a part is one level of a fixed length, so that the clients' windows agree */
    cfg.precision = 0;
    cfg.time_s = s->max_time_s;
    if (!(res = study_setup_session(c, &cfg, s, f->results, opts)) ||
        !(parts = study_setup_session(c, &cfg, s, f->parts, opts))) {
        probe_session_free(res);
        return DRIVE_FAIL;
    }
    memset(&o, 0, sizeof o);
    o.target = c->target;
    o.config = c->config;
    o.tool = "sizeup " SIZEUP_VERSION;
    o.options = opts;
    o.results = res;
    o.parts = parts;
    o.log = f->log;
    for (size_t k = 0; k < s->n_ladder && rc == DRIVE_OK && !stopflag_signal(); k++) {
        struct probe_level lv;
        enum probe_level_status st;
        if (curve_find_point(done, c->target, s->wl[w].name, s->ladder[k]))
            continue;
        fprintf(stderr, "study: %s: %s, %ld threads over %ld clients, %.0f s\n", c->target,
                s->wl[w].name, s->ladder[k], c->clients, cfg.time_s);
        st = study_clients_level(&cfg, (unsigned)c->clients, (unsigned)s->ladder[k], &s->target, &o,
                                 &lv);
        switch (st) {
        case PROBE_LEVEL_OK:
            fprintf(stderr, "study: %s: %ld threads: %.2f tps (merged)\n", c->target, s->ladder[k],
                    lv.tps);
            break;
        case PROBE_LEVEL_FLAGGED:
            fprintf(stderr,
                    "study: %s: %ld threads: the merged point is flagged (%s): recorded, "
                    "it does not count\n",
                    c->target, s->ladder[k], lv.flags[0] ? lv.flags : "no transaction");
            break;
        case PROBE_LEVEL_INTERRUPTED:
            rc = DRIVE_INTERRUPTED;
            break;
        case PROBE_LEVEL_UNREACHABLE:
            rc = DRIVE_UNREACHABLE;
            break;
        default:
            rc = DRIVE_FAIL;
            break;
        }
    }
    probe_session_free(parts);
    probe_session_free(res);
    return rc;
}

/* Append "WHAT: TARGET / WORKLOAD: text" (noise, confirm) to sp->noise, wrapped at NOISE_COLS
 * columns with continuation lines indented under the text. Out of memory loses the line (said). */
#define NOISE_COLS 100
static void add_line(struct study_probes *sp, const char *what, const char *target,
                     const char *workload, const char *text)
{
    char line[1200];
    size_t need, len;
    int n = snprintf(line, sizeof line, "%s: %s / %s: %s", what, target, workload, text);
    if (n < 0)
        return;
    len = strlen(line);
    need = sp->noise_len + 2 * len + 2; /* room for the wrapping's indents */
    if (need > sp->noise_cap) {
        size_t cap = need > 2 * sp->noise_cap ? need : 2 * sp->noise_cap;
        char *b = realloc(sp->noise, cap);
        if (!b) {
            fprintf(stderr, "study: out of memory: a noise line is left out\n");
            return;
        }
        sp->noise = b;
        sp->noise_cap = cap;
    }
    for (size_t at = 0, col = 0; at < len;) {
        /* the next word and the spaces before it */
        size_t sp_end = at, w_end;
        while (sp_end < len && line[sp_end] == ' ')
            sp_end++;
        w_end = sp_end;
        while (w_end < len && line[w_end] != ' ')
            w_end++;
        if (col > 0 && col + (w_end - at) > NOISE_COLS) {
            memcpy(sp->noise + sp->noise_len, "\n       ", 8);
            sp->noise_len += 8;
            col = 7;
            at = sp_end;
        }
        memcpy(sp->noise + sp->noise_len, line + at, w_end - at);
        sp->noise_len += w_end - at;
        col += w_end - at;
        at = w_end;
    }
    sp->noise[sp->noise_len++] = '\n';
    sp->noise[sp->noise_len] = '\0';
}

/* One level record per level of the curve in the results (levelfile.h), said on stderr. */
static void keep_newest_levels(const char *results, const char *target, const char *workload)
{
    char err[600];
    long n = levelfile_keep_newest(results, target, workload, err, sizeof err);
    if (n < 0)
        fprintf(stderr,
                "study: warning: %s; older level records of %s / %s may be left beside the "
                "new ones\n",
                err, target, workload);
    else if (n > 0)
        fprintf(stderr,
                "study: %s / %s: %ld older level record%s removed from %s (the new ones pool "
                "their replicates)\n",
                target, workload, n, n == 1 ? "" : "s", results);
}

/* The noise lines of a curve measured now in passes. */
static void note_noise(struct study_probes *sp, const char *target, const char *workload,
                       const struct probe_drive_result *r, double budget_s)
{
    char buf[400];
    if (r->noise_msg[0]) {
        add_line(sp, "noise", target, workload, r->noise_msg);
    } else {
        snprintf(buf, sizeof buf,
                 "run-to-run noise not measured (no level measured twice within the time "
                 "budget of %.0f s): its intervals are within-run only and leave out how much "
                 "a rerun would differ",
                 budget_s);
        add_line(sp, "noise", target, workload, buf);
    }
    if (r->limit_msg[0])
        add_line(sp, "noise", target, workload, r->limit_msg);
}

/* Open-loop confirmation (issue 28.4): each workload of candidate i run at the throughput its
 * own curve claims at the target (curve_at_target on what the results hold), Poisson arrivals
 * (cfg.rate) over DRIVE_CONFIRM_CONNS(n) connections for max_time, its record to f->confirm
 * (never a point of the curve); a "confirm:" line says whether the target held, with both
 * figures. A curve confirmed by an earlier run of the study (a record of it that counts in
 * f->confirm: a resumed study) is said again from that record, not run again; one whose run was
 * interrupted (its record incomplete) is run again. */
/* The last record of (target, workload) in the confirmation file that counts, or NULL. */
static const struct point *confirmed(const struct point_list *cf, const char *target,
                                     const char *workload)
{
    const struct point *found = NULL;
    for (size_t k = 0; k < cf->n; k++) {
        const struct point *p = &cf->items[k];
        if (p->target && p->workload && strcmp(p->target, target) == 0 &&
            strcmp(p->workload, workload) == 0 && curve_point_counts(p) && p->transactions > 0)
            found = p;
    }
    return found;
}

/* The confirmation file's records (empty when there is none yet). */
static void read_confirmed(const char *path, struct point_list *cf)
{
    struct import_report irep;
    point_list_init(cf);
    if (path && access(path, F_OK) == 0 && import_file(path, NULL, cf, &irep) < 0) {
        fprintf(stderr, "study: warning: %s: %s\n", path, irep.msg);
        point_list_destroy(cf);
        point_list_init(cf);
    }
}

/* The curve of (target, workload) in pts at the study's target: 0 and at filled when it meets
 * it, else -1. */
static int answer(const struct study *s, const struct point_list *pts, const struct curve_groups *g,
                  const char *target, const char *workload, struct curve_at *at)
{
    const struct curve_group *gr = curve_groups_find(g, target, workload);
    struct curve_spec spec = curve_spec_default();
    struct curve cv;
    char err[400];
    int rc = -1;
    memset(&cv, 0, sizeof cv);
    spec.x = CURVE_X_THREADS;
    spec.lat_pct = s->target.pct;
    if (gr && gr->n >= 2 &&
        curve_init_points(&cv, pts, gr->idx, gr->n, &spec, NULL, err, sizeof err) == CURVE_OK &&
        curve_at_target(&cv, &s->target, 1, 1, at) == CURVE_OK && at->status == CURVE_MET)
        rc = 0;
    curve_destroy(&cv);
    return rc;
}

/* 1 when every workload of candidate c whose curve meets the target has a confirmation record
 * that counts (or the results cannot be read: nothing to run then). */
static int all_confirmed(const struct study *s, const struct study_candidate *c,
                         const struct study_probe_files *f)
{
    struct point_list cf, pts;
    struct import_report irep;
    struct curve_groups g;
    int all = 1;
    read_confirmed(f->confirm, &cf);
    point_list_init(&pts);
    memset(&g, 0, sizeof g);
    if (import_file(f->results, NULL, &pts, &irep) >= 0 &&
        curve_groups_build(&g, &pts, NULL) == CURVE_OK)
        for (size_t w = 0; w < s->n_wl; w++) {
            struct curve_at at;
            if (!confirmed(&cf, c->target, s->wl[w].name) &&
                answer(s, &pts, &g, c->target, s->wl[w].name, &at) == 0)
                all = 0;
        }
    curve_groups_destroy(&g);
    point_list_destroy(&pts);
    point_list_destroy(&cf);
    return all;
}

static int confirm(struct study_probes *sp, size_t i, const struct probe_config *cfg0,
                   const struct study_probe_files *f, struct dblock *lock)
{
    const struct study *s = sp->s;
    const struct study_candidate *c = &s->cand[i];
    struct point_list pts, cf;
    struct import_report irep;
    struct curve_groups g;
    char line[900];
    int rc = DRIVE_OK;

    if (c->clients > 1) {
        /* measured with K load generators because one could not drive it: one open-loop
         * generator would measure itself */
        for (size_t w = 0; w < s->n_wl; w++)
            add_line(sp, "confirm", c->target, s->wl[w].name,
                     "not run: the curve was measured with several clients, and the open-loop "
                     "run has one");
        return DRIVE_OK;
    }
    point_list_init(&pts);
    memset(&g, 0, sizeof g);
    read_confirmed(f->confirm, &cf);
    if (import_file(f->results, NULL, &pts, &irep) < 0 ||
        curve_groups_build(&g, &pts, NULL) != CURVE_OK) {
        fprintf(stderr, "study: %s: confirm: cannot read %s\n", c->target, f->results);
        point_list_destroy(&pts);
        point_list_destroy(&cf);
        return DRIVE_OK; /* the curves stand; only the confirmation is missing */
    }
    for (size_t w = 0; w < s->n_wl && rc == DRIVE_OK && !stopflag_signal(); w++) {
        const struct point *done = confirmed(&cf, c->target, s->wl[w].name);
        struct curve_at at;
        struct probe_config cfg = *cfg0;
        struct probe_session *ps;
        struct probe_level lv;
        enum probe_level_status st;
        char lmsg[1024];
        unsigned conns;
        json_t *opts;
        if (done) {
            drive_confirm_line(&s->target, done, "(an earlier run) ", line, sizeof line);
            add_line(sp, "confirm", c->target, s->wl[w].name, line);
            continue;
        }
        if (answer(s, &pts, &g, c->target, s->wl[w].name, &at) != 0) {
            add_line(sp, "confirm", c->target, s->wl[w].name,
                     "not run: no measured level meets the target, so there is no rate to "
                     "confirm");
            continue;
        }
        if (!lock) /* said again only (every curve confirmed before): nothing is run */
            continue;
        cfg.oltp.workload = sp->wl[w];
        cfg.precision = 0;
        cfg.time_s = s->max_time_s;
        cfg.rate = at.x.value;
        conns = DRIVE_CONFIRM_CONNS(at.n);
        opts = json_pack("{s:{s:f,s:f,s:f}}", "confirm", "closed_loop_tps", at.x.value,
                         "closed_loop_threads", at.n, "closed_loop_latency_ms", at.latency_s * 1e3);
        /* the session borrows opts until it is freed */
        ps = opts ? study_setup_session(c, &cfg, s, f->confirm, opts) : NULL;
        if (!ps) {
            json_decref(opts);
            rc = DRIVE_FAIL;
            break;
        }
        if (probe_session_open(ps) != 0 || probe_session_check(ps) != 0) {
            snprintf(line, sizeof line, "not run: %s", probe_session_msg(ps));
            add_line(sp, "confirm", c->target, s->wl[w].name, line);
            probe_session_free(ps);
            json_decref(opts);
            continue;
        }
        if (dblock_keep(lock, lmsg, sizeof lmsg) != 0) {
            fprintf(stderr, "sizeup: %s: %s\n", c->target, lmsg);
            probe_session_free(ps);
            json_decref(opts);
            rc = DRIVE_FAIL;
            break;
        }
        fprintf(stderr,
                "study: %s: confirm %s open loop at %.1f tps (Poisson arrivals) over %u "
                "connections, %.0f s\n",
                c->target, s->wl[w].name, cfg.rate, conns, cfg.time_s);
        st = probe_session_level(ps, conns, &lv);
        if ((st == PROBE_LEVEL_OK || st == PROBE_LEVEL_FLAGGED) && lv.record) {
            drive_confirm_line(&s->target, lv.record, "", line, sizeof line);
            add_line(sp, "confirm", c->target, s->wl[w].name, line);
            fprintf(stderr, "study: %s: confirm %s: %s\n", c->target, s->wl[w].name,
                    drive_confirm_held(&s->target, lv.record) ? "the target held"
                                                              : "the target was NOT held");
        } else if (st == PROBE_LEVEL_INTERRUPTED) {
            rc = DRIVE_INTERRUPTED;
        } else {
            snprintf(line, sizeof line, "the open-loop run failed (%s): nothing confirmed",
                     probe_session_msg(ps));
            add_line(sp, "confirm", c->target, s->wl[w].name, line);
        }
        probe_session_free(ps);
        json_decref(opts);
    }
    curve_groups_destroy(&g);
    point_list_destroy(&pts);
    point_list_destroy(&cf);
    return rc;
}

void study_probes_write_noise(const struct study_probes *sp, FILE *out)
{
    if (sp && sp->noise_len)
        fputs(sp->noise, out);
}

/* Does candidate i need its tables? A curve still needed, or (every curve measured) a
 * confirmation missing: said. When it needs none, that is said, and so is its earlier
 * confirmation (when the study confirms). */
static int candidate_needed(struct study_probes *sp, size_t i, const struct study_probe_files *f)
{
    const struct study *s = sp->s;
    const struct study_candidate *c = &s->cand[i];
    int need = 0;
    for (size_t w = 0; w < s->n_wl; w++)
        need |= curve_needed(s, c, w, f->done_path);
    if (!need && s->confirm && f->confirm && c->clients <= 1 && !all_confirmed(s, c, f)) {
        /* every curve measured, a confirmation missing (a study interrupted in it): the tables
         * again, for the confirmation alone */
        fprintf(stderr, "study: %s: every point already measured; confirming open loop\n",
                c->target);
        need = 1;
    } else if (!need) {
        fprintf(stderr, "study: %s: every point already measured\n", c->target);
        if (s->confirm && f->confirm) { /* say the earlier confirmation again */
            struct probe_config cfg0;
            memset(&cfg0, 0, sizeof cfg0);
            confirm(sp, i, &cfg0, f, NULL);
        }
    }
    return need;
}

/* Where candidate c's connections go once the option files are read (for the records and
 * messages), checked: no TLS setting of c's given by an option file too. cfg->conn points
 * into *where after: keep it as long as cfg. DRIVE_OK, or DRIVE_FAIL (said). */
static enum drive_status resolve(const struct study_candidate *c, struct probe_config *cfg,
                                 struct myconn_where *where)
{
    if (myconn_resolve(&cfg->conn, where) != 0) {
        fprintf(stderr, "sizeup: out of memory\n");
        return DRIVE_FAIL;
    }
    if (where->tls_conflict) {
        fprintf(stderr, "sizeup: %s: %s is set by an option file too\n", c->target,
                where->tls_conflict);
        return DRIVE_FAIL;
    }
    return DRIVE_OK;
}

/* This database's probe tables for this study alone (probes/dblock.h, issue 27.8): *lock taken
 * (its note said). DRIVE_OK, or how it failed (said). */
static enum drive_status take_lock(const struct study_candidate *c, const struct probe_config *cfg,
                                   struct dblock *lock)
{
    char lmsg[1024];
    int lr = dblock_acquire(lock, &cfg->conn, lmsg, sizeof lmsg);
    if (lr != 0) {
        fprintf(stderr, "sizeup: %s: %s\n", c->target, lmsg);
        return lr == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
    }
    if (lmsg[0])
        fprintf(stderr, "study: %s: note: %s\n", c->target, lmsg);
    return DRIVE_OK;
}

/* The "threads" line of curve w of candidate c: "auto", or the levels of the list not yet in
 * done. */
static void say_curve(const struct study *s, const struct study_candidate *c, size_t w,
                      const struct point_list *done)
{
    char list[STUDY_MAX_LADDER * 8] = "auto";
    size_t len = 0;
    for (size_t k = 0; !s->ladder_auto && k < s->n_ladder; k++)
        if (!curve_find_point(done, c->target, s->wl[w].name, s->ladder[k]))
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%ld", len ? "," : "",
                                    s->ladder[k]);
    fprintf(stderr, "study: %s: %s, threads %s\n", c->target, s->wl[w].name, list);
}

/* probe_drive's options for curve w of candidate c: its list (levels[], the study's) or the
 * ladder lo, done taken, the lock kept, the noise floor from the results (read into hist when
 * calibrated, else done), calibrated levels in passes. @return the passes' budget, s. */
static double curve_opts(const struct study *s, const struct study_candidate *c, size_t w,
                         const struct probe_config *cfg, const struct ladder_opts *lo,
                         const struct point_list *done, struct point_list *hist,
                         struct dblock *lock, const struct study_probe_files *f, long long *levels,
                         struct probe_drive_opts *d)
{
    size_t nlv = s->ladder_auto ? lo->max_points : s->n_ladder;
    double budget_s;
    memset(d, 0, sizeof *d);
    d->target = c->target;
    d->workload = s->wl[w].name;
    d->auto_threads = s->ladder_auto;
    for (size_t k = 0; k < s->n_ladder; k++)
        levels[k] = s->ladder[k];
    d->threads = levels;
    d->n_threads = s->n_ladder;
    d->ladder = *lo;
    d->done = done;      /* a level already measured is taken, not measured again */
    d->held_lock = lock; /* kept before every level */
    /* the server's noise floor: what the results hold now, this target's curves measured
     * before this one in this study too (done is the results as the study started) */
    point_list_destroy(hist);
    point_list_init(hist);
    d->history = done;
    if (cfg->precision > 0) {
        struct import_report irep;
        if (import_file(f->results, NULL, hist, &irep) >= 0)
            d->history = hist;
    }
    d->done_name = f->results;
    d->slo = s->target;
    d->progress = stderr;
    /* calibrated levels measured in passes, as `probe run` does; the budget leaves room
     * for the deciding levels' replicates beyond the first pass (study.h) */
    budget_s = s->budget_s > 0 ? s->budget_s : STUDY_BUDGET_FACTOR * (double)nlv * cfg->max_time_s;
    probe_drive_passes(d, cfg, nlv, STUDY_REPLICATES, budget_s);
    return budget_s;
}

/* Curve w of candidate i by one load generator (probe_drive.h: the ladder or the list, levels
 * in done taken, in passes), its records to f->results with options opts (borrowed); its
 * noise noted, a resumed curve's older level records removed. hist: the noise floor's
 * records (reused). How it ended. */
static enum drive_status drive_curve(struct study_probes *sp, size_t i, size_t w,
                                     const struct probe_config *cfg, const json_t *opts,
                                     const struct ladder_opts *lo, const struct point_list *done,
                                     struct point_list *hist, struct dblock *lock,
                                     const struct study_probe_files *f)
{
    const struct study *s = sp->s;
    const struct study_candidate *c = &s->cand[i];
    struct probe_drive_opts d;
    struct probe_drive_result res;
    struct probe_session *ps;
    long long levels[STUDY_MAX_LADDER];
    double budget_s;
    enum drive_status rc;
    if (!(ps = study_setup_session(c, cfg, s, f->results, opts)))
        return DRIVE_FAIL;
    budget_s = curve_opts(s, c, w, cfg, lo, done, hist, lock, f, levels, &d);
    say_curve(s, c, w, done);
    rc = probe_drive(ps, &d, &res);
    fflush(f->log);
    if (d.passes)
        note_noise(sp, c->target, s->wl[w].name, &res, budget_s);
    probe_session_free(ps);
    /* a resumed curve's new level records pool the earlier ones' replicates too */
    if (d.passes && done && done->n > 0)
        keep_newest_levels(f->results, c->target, s->wl[w].name);
    return rc;
}

/* Each curve of candidate i still needed, in the study's order, until one fails or the stop
 * flag: by its K clients or by probe_drive; a curve that ended well is marked finished. cfg:
 * the candidate's (its workload set per curve). DRIVE_OK or how a curve ended. */
static enum drive_status curves(struct study_probes *sp, size_t i, struct probe_config *cfg,
                                const struct ladder_opts *lo, const struct point_list *done,
                                struct point_list *hist, struct dblock *lock,
                                const struct study_probe_files *f)
{
    const struct study *s = sp->s;
    const struct study_candidate *c = &s->cand[i];
    enum drive_status rc = DRIVE_OK;
    for (size_t w = 0; w < s->n_wl && rc == DRIVE_OK && !stopflag_signal(); w++) {
        json_t *opts;
        if (!curve_needed(s, c, w, f->done_path))
            continue;
        cfg->oltp.workload = sp->wl[w];
        if (c->clients > 1) { /* parts of one fixed length (study_clients.h) */
            cfg->precision = 0;
            cfg->time_s = s->max_time_s;
        }
        if (!(opts = study_setup_options(s, cfg, lo)) ||
            (c->clients > 1 && json_object_set_new(opts, "clients", json_integer(c->clients)))) {
            json_decref(opts);
            fprintf(stderr, "sizeup: out of memory\n");
            return DRIVE_FAIL;
        }
        if (c->clients > 1)
            rc = clients_curve(sp, i, w, cfg, opts, done, f);
        else
            rc = drive_curve(sp, i, w, cfg, opts, lo, done, hist, lock, f);
        json_decref(opts);
        if (rc == DRIVE_OK)
            mark_finished(f->done_path, c->target, s->wl[w].name);
    }
    return rc;
}

enum drive_status study_probes_run(struct study_probes *sp, size_t i, const struct point_list *done,
                                   const struct study_probe_files *f)
{
    const struct study *s = sp->s;
    const struct study_candidate *c = &s->cand[i];
    struct probe_config cfg;
    struct myconn_where where; /* cfg.conn points into it */
    struct probe_session *tables;
    struct ladder_opts lo = study_setup_ladder(s);
    struct point_list hist; /* the results as each curve starts (the noise floor) */
    struct dblock lock = {0};
    int rc;

    point_list_init(&hist);
    if (!candidate_needed(sp, i, f))
        return DRIVE_OK;
    study_setup_config(s, i, sp->password[i], f->log, &cfg);
    if (resolve(c, &cfg, &where) != DRIVE_OK)
        return DRIVE_FAIL;
    if (!(tables = study_setup_session(c, &cfg, s, NULL, NULL)))
        return DRIVE_FAIL;
    if ((rc = take_lock(c, &cfg, &lock)) != DRIVE_OK)
        goto out;
    if ((rc = study_setup_prepare_tables(c, tables, f->log)) != DRIVE_OK)
        goto out;
    rc = curves(sp, i, &cfg, &lo, done, &hist, &lock, f);
    if (rc == DRIVE_OK && s->confirm && f->confirm && !stopflag_signal())
        rc = confirm(sp, i, &cfg, f, &lock);
    /* every path after a prepare drops the tables again */
    if (study_setup_drop_tables(tables, &cfg, c->target) != 0 && rc == DRIVE_OK)
        rc = DRIVE_FAIL;
    fflush(f->log);
    if (stopflag_signal())
        rc = DRIVE_INTERRUPTED;
out:
    dblock_release(&lock);
    point_list_destroy(&hist);
    probe_session_free(tables);
    if (rc != DRIVE_OK && rc != DRIVE_INTERRUPTED)
        fprintf(stderr, "study: %s: the probe ended: %s; going on with the other candidates\n",
                c->target, drive_status_name(rc));
    return rc;
}
