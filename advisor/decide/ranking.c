/* ranking.c - the ranking pipeline (ranking.h). */
#include "ranking.h"

#include "rankpred.h"

#include <stdlib.h>
#include <string.h>

void ranking_init(struct ranking *r)
{
    memset(r, 0, sizeof *r);
    rank_set_init(&r->set);
}

void ranking_destroy(struct ranking *r)
{
    if (!r)
        return;
    if (r->has_tco)
        tco_destroy(&r->tco);
    if (r->has_conf)
        conf_destroy(&r->conf);
    rank_set_destroy(&r->set);
    ranking_init(r);
}

const struct rank_confidence *ranking_conf(const struct ranking *r)
{
    return r->has_conf ? &r->conf : NULL;
}

const struct rank_tco *ranking_tco(const struct ranking *r)
{
    return r->has_tco ? &r->tco : NULL;
}

/* "c6i, c7g, ..." of a list that may have been cut where it filled its buffer. */
static const char *more(const char *list, size_t cap)
{
    return strlen(list) + 20 > cap ? ", ..." : "";
}

/* The lines said at the end of the table about the catalogs' sizes that were not predicted. */
static char *not_predicted_text(const struct rankpred_stats *st)
{
    size_t cap = strlen(st->families) + strlen(st->small) + strlen(st->no_clock_list) + 1200,
           len = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    t[0] = '\0';
    if (st->not_predicted)
        len += (size_t)snprintf(t, cap,
                                "not ranked: %zu configuration%s of the catalogs neither measured "
                                "nor predicted\n  (probe one size of: %s%s)\n",
                                st->not_predicted, st->not_predicted == 1 ? "" : "s", st->families,
                                more(st->families, sizeof st->families));
    if (st->no_clock && len < cap)
        len += (size_t)snprintf(
            t + len, cap - len,
            "not ranked: %zu configuration%s of a --transfer ...:clock family without "
            "clock_ghz\n  in the catalogs for both families (add it, or give the ratio "
            "as a number): %s%s\n",
            st->no_clock, st->no_clock == 1 ? "" : "s", st->no_clock_list,
            more(st->no_clock_list, sizeof st->no_clock_list));
    if (st->other && len < cap)
        len += (size_t)snprintf(t + len, cap - len,
                                "not ranked: %zu configuration%s without a vcpu count or "
                                "an instance family (sizeup predict lists each)\n",
                                st->other, st->other == 1 ? "" : "s");
    if (st->no_memory && len < cap)
        snprintf(t + len, cap - len,
                 "not ranked: %zu configuration%s too small in memory: %.0f %% of it "
                 "cannot hold the %.1f GiB buffer pool\n  a measured size ran with (its "
                 "data would not fit as it did there): %s%s\n",
                 st->no_memory, st->no_memory == 1 ? "" : "s", 100 * PREDICT_POOL_SHARE,
                 st->pool_mib / 1024, st->small, more(st->small, sizeof st->small));
    return t;
}

/* Text gathered for the trailer. */
struct notes_text {
    char *text; /* owned, NULL when empty */
    size_t len;
};

/* Append one line to t (dropped when out of memory). */
static void notes_add_line(struct notes_text *t, const char *line)
{
    size_t n = strlen(line);
    char *p = realloc(t->text, t->len + n + 2);
    if (!p)
        return;
    memcpy(p + t->len, line, n);
    p[t->len + n] = '\n';
    p[t->len + n + 1] = '\0';
    t->text = p;
    t->len += n + 1;
}

/* One line per family predicted across families (--transfer), saying how and with what error,
 * each once: a row predicted that way must not read as a prediction from its own family. */
static void transfer_text(const struct predict_set *ps, struct notes_text *t)
{
    /* the (family, source group) pairs said: a few, against every curve of a catalog that may
     * hold a million (bench/run-predict.sh transfers every family) */
    struct said {
        char fam[64];
        size_t group;
    } *said = NULL;
    size_t n_said = 0;
    for (size_t c = 0; c < ps->n_curves; c++) {
        const struct predict_curve *cv = &ps->curves[c];
        char fbuf[64], line[400], how[200];
        const char *fam;
        size_t k;
        struct said *grown;
        if (!cv->transfer || !cv->instance ||
            !(fam = cat_instance_family(cv->instance, fbuf, sizeof fbuf)))
            continue;
        for (k = 0; k < n_said && !(said[k].group == cv->group && strcmp(said[k].fam, fam) == 0);
             k++)
            ;
        if (k < n_said)
            continue;
        if (!(grown = realloc(said, (n_said + 1) * sizeof *said)))
            break; /* out of memory: the rest of the notes go */
        said = grown;
        snprintf(said[n_said].fam, sizeof said[n_said].fam, "%s", fam);
        said[n_said++].group = cv->group;
        if (cv->score_spec)
            snprintf(how, sizeof how,
                     "by the ratio of CPU scores\n  (%s); each row's interval is at least +/-%.1f "
                     "%%, the score file's calibrated error",
                     cv->score_spec, 100 * cv->score_error);
        else if (cv->ratio_from_clock)
            snprintf(how, sizeof how, "by the ratio of the instances' clocks");
        else
            snprintf(how, sizeof how,
                     "at the stated per-core ratio %g\n  (a guess that carries no error of its "
                     "own: --transfer F=G:score gives a measured one)",
                     cv->ratio);
        snprintf(line, sizeof line, "across families: %s predicted from %s's measured sizes %s",
                 fam, ps->groups[cv->group].family, how);
        notes_add_line(t, line);
    }
    free(said);
}

/* The transfer lines after the ranking's other notes (s->trailer). */
static void transfer_notes(struct rank_set *s, const struct notes_text *t)
{
    size_t old = s->trailer ? strlen(s->trailer) : 0;
    char *p;
    if (!t->text)
        return;
    if (!(p = realloc(s->trailer, old + t->len + 1)))
        return; /* out of memory: the notes go */
    memcpy(p + old, t->text, t->len + 1);
    s->trailer = p;
}

/* The catalogs' predicted sizes join the ranking. 0, or -1 (out of memory: s destroyed). */
static int add_predicted(struct rank_set *s, const struct point_list *pts,
                         const struct cat_catalog *cat, const struct ranking_ask *a, FILE *err)
{
    struct predict_options po;
    struct predict_set ps;
    struct rankpred_stats st;
    struct notes_text ps_notes = {NULL, 0};
    int rc;
    memset(&po, 0, sizeof po);
    po.transfer = a->transfer;
    po.n_transfer = a->n_transfer;
    po.scores = a->scores;
    po.maps = a->maps;
    po.n_maps = a->n_maps;
    po.slo = s->opt.slo;
    /* problems of the points were reported by the ranking already */
    if (predict_set_build(&ps, pts, cat, &po, NULL) < 0) {
        fprintf(err, "sizeup: --predict: no measured point joins a catalog configuration on "
                     "an instance with a family and a vcpu count: nothing to predict from\n");
        return 0; /* the measured ranking stands */
    }
    rc = rankpred_add(s, &ps, &st, err);
    if (rc >= 0)
        transfer_text(&ps, &ps_notes);
    predict_set_destroy(&ps);
    if (rc < 0)
        return -1;
    if (st.mem_unchecked)
        fprintf(err,
                "sizeup: note: %zu predicted configuration%s ha%s no memory_gib in the catalog: "
                "whether %s the buffer pool the measured sizes ran with is not checked\n",
                st.mem_unchecked, st.mem_unchecked == 1 ? "" : "s",
                st.mem_unchecked == 1 ? "s" : "ve",
                st.mem_unchecked == 1 ? "it holds" : "they hold");
    if (st.not_predicted || st.no_memory || st.no_clock || st.other)
        s->trailer = not_predicted_text(&st); /* NULL when out of memory: the notes go */
    transfer_notes(s, &ps_notes);
    free(ps_notes.text);
    return 0;
}

int ranking_build(struct ranking *r, struct point_list *pts, struct cat_catalog *cat,
                  const struct ranking_ask *a, FILE *err)
{
    struct diskrank_set ds;
    int problems = 0, rc;
    diskrank_set_init(&ds);
    if (a->n_disks || a->n_disks_from) {
        long n = diskrank_expand(&ds, pts, cat, &a->opt, a->maps, a->n_maps, a->disks, a->n_disks,
                                 a->disks_from, a->n_disks_from, err);
        if (n < 0) {
            diskrank_set_destroy(&ds);
            return -1;
        }
        if (n == 0) {
            fprintf(err, "sizeup: --disks: no measured configuration could be modelled on the "
                         "disks asked (the reasons above); the measured ones are ranked\n");
            problems++;
        }
    }
    rc = rank_set_build(&r->set, pts, cat, &a->opt, a->maps, a->n_maps, err);
    if (rc >= 0 && diskrank_annotate(&ds, &r->set) != 0) {
        fprintf(err, "sizeup: out of memory\n");
        rc = -1;
    }
    diskrank_set_destroy(&ds);
    if (rc < 0) {
        ranking_destroy(r); /* what the build left */
        return -1;
    }
    problems += rc;
    if (a->predict && add_predicted(&r->set, pts, cat, a, err) != 0) {
        fprintf(err, "sizeup: out of memory\n");
        ranking_init(r); /* rankpred_add destroyed the set */
        return -1;
    }
    if (conf_compute(&r->conf, &r->set, NULL) != 0) {
        fprintf(err, "sizeup: out of memory\n");
        ranking_destroy(r);
        return -1;
    }
    r->has_conf = 1;
    if (tco_compute(&r->tco, &r->set, &r->conf) != 0) {
        fprintf(err, "sizeup: out of memory\n");
        ranking_destroy(r);
        return -1;
    }
    r->has_tco = 1;
    return problems;
}
