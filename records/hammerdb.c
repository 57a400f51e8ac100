/* hammerdb.c - HammerDB TPROC-C output -> one point per test (tools.h). The lines are those of
 * TPC-Council/HammerDB (commit 5725747, 2026-06): modules/tpcccommon-1.0.tm (testresult:
 * "TEST RESULT : System achieved $nopm NOPM from $tpm $db TPM", or "$tpm $db TPM at $nopm NOPM"
 * when the first result is TPM), the driver scripts' "Active Virtual Users configured", "Timing
 * test period of N in minutes", "Beginning rampup time of N minutes", and the xtprof "TRANSACTION
 * RESPONSE TIMES" object (DocBook/docs.xml shows a whole CLI run). */
#include "sblex.h"
#include "tools.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hdb {
    struct import_src *src;
    struct point p;
    int in_run, has_result;
    long first_line;
    /* the xtprof JSON being collected */
    char *json;
    size_t json_len, json_cap;
    int depth, in_json;
    struct point_list queue;
    size_t q_head, n_yielded;
    int eof;
};

/* The line without "Vuser N:" and blanks. */
static const char *body(const char *s)
{
    const char *v;
    s = sblex_skip_ws(s);
    if ((v = sblex_after(s, "Vuser ")) && isdigit((unsigned char)*v)) {
        while (isdigit((unsigned char)*v))
            v++;
        if (*v == ':')
            s = v + 1;
    }
    return sblex_skip_ws(s);
}

int hammerdb_detect(const char *buf, size_t len, const char *path)
{
    static const char *const marks[] = {"TEST RESULT : System achieved",
                                        "Active Virtual Users configured",
                                        "Active Sessions configured", NULL};
    (void)path;
    for (const char *const *m = marks; *m; m++) {
        size_t n = strlen(*m);
        for (size_t i = 0; i + n <= len; i++)
            if (memcmp(buf + i, *m, n) == 0)
                return 1;
    }
    return 0;
}

void *hammerdb_open(struct import_src *src)
{
    struct hdb *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->src = src;
    point_init(&h->p);
    point_list_init(&h->queue);
    return h;
}

void hammerdb_close(void *state)
{
    struct hdb *h = state;
    if (!h)
        return;
    point_destroy(&h->p);
    point_list_destroy(&h->queue);
    free(h->json);
    free(h);
}

static void run_start(struct hdb *h)
{
    point_init(&h->p);
    h->p.source_kind = POINT_SRC_TOOL;
    h->p.source_line = h->src->lines->no;
    h->first_line = h->src->lines->no;
    h->in_run = 1;
    h->has_result = 0;
}

/* NEWORD's figures (strings of milliseconds in xtprof's JSON) as the point's latency, the whole
 * object (numbers) in extra.response_times. */
static int take_response_times(struct hdb *h)
{
    json_error_t jerr;
    json_t *o = json_loadb(h->json, h->json_len, 0, &jerr), *out, *v;
    const char *name, *key;
    if (!o || !json_is_object(o)) {
        json_decref(o);
        import_diag(h->src, IMPORT_WARNING, h->src->lines->no,
                    "warning: the TRANSACTION RESPONSE TIMES block is not a JSON object (%s); "
                    "the point has no latency",
                    o ? "not an object" : jerr.text);
        return IMPORT_OK;
    }
    out = json_object();
    json_object_foreach(o, name, v)
    {
        json_t *t = json_object(), *x;
        if (!t || !out)
            break;
        json_object_foreach(v, key, x)
        {
            char *end;
            double d = json_is_string(x) ? strtod(json_string_value(x), &end) : NAN;
            if (json_is_string(x) && !*end && isfinite(d))
                json_object_set_new(t, key, json_real(d));
            else if (json_is_number(x))
                json_object_set(t, key, x);
        }
        if (strcmp(name, "NEWORD") == 0) {
            struct point *p = &h->p;
            p->latency_ms.min = json_number_value(json_object_get(t, "min_ms"));
            p->latency_ms.avg = json_number_value(json_object_get(t, "avg_ms"));
            p->latency_ms.max = json_number_value(json_object_get(t, "max_ms"));
            if (!json_object_get(t, "min_ms"))
                p->latency_ms.min = NAN;
            if (!json_object_get(t, "avg_ms"))
                p->latency_ms.avg = NAN;
            if (!json_object_get(t, "max_ms"))
                p->latency_ms.max = NAN;
            if (json_object_get(t, "p50_ms"))
                point_set_percentile(p, 50, json_number_value(json_object_get(t, "p50_ms")));
            if (json_object_get(t, "p95_ms"))
                point_set_percentile(p, 95, json_number_value(json_object_get(t, "p95_ms")));
            if (json_object_get(t, "p99_ms"))
                point_set_percentile(p, 99, json_number_value(json_object_get(t, "p99_ms")));
        }
        json_object_set_new(out, name, t);
    }
    json_decref(o);
    if (!out || import_set_extra(&h->p, "response_times", out))
        return IMPORT_ENOMEM;
    return IMPORT_OK;
}

static int finish(struct hdb *h)
{
    struct point *dst;
    if (!h->in_run)
        return IMPORT_OK;
    h->in_run = 0;
    if (!h->has_result) {
        if (h->p.threads > 0 || !isnan(h->p.duration_s))
            import_diag(h->src, IMPORT_WARNING, h->first_line,
                        "warning: this HammerDB test has no \"TEST RESULT\" line (stopped?); it is "
                        "left out");
        point_destroy(&h->p);
        return IMPORT_OK;
    }
    if (h->p.threads <= 0) {
        import_diag(h->src, IMPORT_ERROR, h->first_line,
                    "the test does not say its virtual users: expected \"N Active Virtual Users "
                    "configured\"");
        point_destroy(&h->p);
        return IMPORT_EPARSE;
    }
    if (point_set_str(&h->p.workload, "tprocc") || point_add_flag(&h->p, "tps_from_tpm") ||
        !(dst = point_list_push(&h->queue))) {
        point_destroy(&h->p);
        return IMPORT_ENOMEM;
    }
    *dst = h->p;
    point_init(&h->p);
    return IMPORT_OK;
}

static int result_line(struct hdb *h, const char *v, const char *line)
{
    struct point *p = &h->p;
    double a, b;
    char db[64];
    size_t n = 0;
    const char *q;
    /* "N NOPM from M <db> TPM" or "M <db> TPM at N NOPM" */
    if (sblex_num(&v, &a))
        return import_bad_line(h->src, h->src->lines->no,
                               "\"TEST RESULT : System achieved N NOPM from M DB TPM\"", line);
    if (sblex_lit(&v, "NOPM from") == 0) {
        if (sblex_num(&v, &b))
            return import_bad_line(h->src, h->src->lines->no, "\"... N NOPM from M DB TPM\"", line);
        v = sblex_skip_ws(v);
        q = strstr(v, " TPM");
        if (!q)
            return import_bad_line(h->src, h->src->lines->no, "\"... from M DB TPM\"", line);
        n = (size_t)(q - v);
    } else {
        q = strstr(v, " TPM at ");
        if (!q)
            return import_bad_line(h->src, h->src->lines->no,
                                   "\"... N NOPM from M DB TPM\" or \"... M DB TPM at N NOPM\"",
                                   line);
        v = sblex_skip_ws(v);
        n = (size_t)(q - v);
        q += 8;
        b = a;
        if (sblex_num(&q, &a) || sblex_lit(&q, "NOPM"))
            return import_bad_line(h->src, h->src->lines->no, "\"... M DB TPM at N NOPM\"", line);
    }
    if (n >= sizeof db)
        n = sizeof db - 1;
    memcpy(db, v, n);
    db[n] = '\0';
    if (import_set_extra(p, "nopm", json_real(a)) || import_set_extra(p, "tpm", json_real(b)) ||
        import_set_extra(p, "database", point_json_string(db)))
        return IMPORT_ENOMEM;
    p->tps = b / 60;
    h->has_result = 1;
    return IMPORT_OK;
}

static int parse_line(struct hdb *h, const char *line)
{
    const char *t = body(line), *v;
    struct point *p = &h->p;
    double x, y;
    int rc;
    if (h->in_json) {
        for (const char *c = t; *c; c++)
            h->depth += *c == '{' ? 1 : *c == '}' ? -1 : 0;
        if (h->json_len + strlen(t) + 2 > h->json_cap) {
            size_t cap = h->json_cap ? h->json_cap * 2 : 4096;
            char *nj;
            while (cap < h->json_len + strlen(t) + 2)
                cap *= 2;
            if (cap > ((size_t)4 << 20) || !(nj = realloc(h->json, cap))) {
                h->in_json = 0;
                return IMPORT_OK; /* an endless block: not xtprof's */
            }
            h->json = nj;
            h->json_cap = cap;
        }
        memcpy(h->json + h->json_len, t, strlen(t));
        h->json_len += strlen(t);
        h->json[h->json_len++] = '\n';
        if (h->depth <= 0) {
            h->in_json = 0;
            return h->in_run ? take_response_times(h) : IMPORT_OK;
        }
        return IMPORT_OK;
    }
    if (sblex_after(t, "TRANSACTION RESPONSE TIMES")) {
        h->in_json = 1;
        h->depth = 0;
        h->json_len = 0;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "Beginning rampup time of")) ||
        (v = sblex_after(t, "Timing test period of"))) {
        int rampup = t[0] == 'B';
        if (h->in_run && (h->has_result || (rampup && !isnan(p->warmup_s))) &&
            (rc = finish(h)) != IMPORT_OK)
            return rc;
        if (!h->in_run)
            run_start(h);
        if (sblex_num(&v, &x) || (sblex_lit(&v, "in minutes") && sblex_lit(&v, "minutes")))
            return import_bad_line(h->src, h->src->lines->no,
                                   "\"Timing test period of N in minutes\"", line);
        if (rampup)
            p->warmup_s = x * 60;
        else
            p->duration_s = x * 60;
        return IMPORT_OK;
    }
    v = t;
    if (isdigit((unsigned char)*t) && sblex_num(&v, &x) == 0 &&
        (sblex_lit(&v, "Active Virtual Users configured") == 0 ||
         (sblex_lit(&v, "VU *") == 0 && sblex_num(&v, &y) == 0 && sblex_lit(&v, "AC =") == 0 &&
          sblex_num(&v, &x) == 0 && sblex_lit(&v, "Active Sessions configured") == 0))) {
        if (h->in_run && h->has_result && (rc = finish(h)) != IMPORT_OK)
            return rc;
        if (!h->in_run)
            run_start(h);
        if (x < 1 || x > 1e6 || x != floor(x))
            return import_bad_line(h->src, h->src->lines->no, "a whole number of virtual users",
                                   line);
        p->threads = (int64_t)x;
        return IMPORT_OK;
    }
    if ((v = sblex_after(t, "TEST RESULT : System achieved"))) {
        if (h->in_run && h->has_result && (rc = finish(h)) != IMPORT_OK)
            return rc;
        if (!h->in_run)
            run_start(h);
        return result_line(h, v, line);
    }
    if ((v = sblex_after(t, "HammerDB CLI v")) || (v = sblex_after(t, "HammerDB v"))) {
        size_t n = strlen(t);
        while (n && isspace((unsigned char)t[n - 1]))
            n--;
        if (h->in_run && !h->p.tool)
            return (h->p.tool = strndup(t, n)) ? IMPORT_OK : IMPORT_ENOMEM;
    }
    return IMPORT_OK;
}

int hammerdb_next(void *state, struct point *out)
{
    struct hdb *h = state;
    int rc;
    for (;;) {
        if (h->q_head < h->queue.n) {
            *out = h->queue.items[h->q_head];
            point_init(&h->queue.items[h->q_head]);
            if (++h->q_head == h->queue.n) {
                point_list_truncate(&h->queue, 0);
                h->q_head = 0;
            }
            if (!out->tool && point_set_str(&out->tool, "HammerDB"))
                return IMPORT_ENOMEM;
            h->n_yielded++;
            return 1;
        }
        if (h->eof) {
            if (h->n_yielded)
                return 0;
            if (h->src->report->msg[0] == '\0')
                import_diag(h->src, IMPORT_ERROR, 0,
                            "no HammerDB test result found: expected \"N Active Virtual Users "
                            "configured\" and \"TEST RESULT : System achieved N NOPM from M DB "
                            "TPM\"");
            return IMPORT_EPARSE;
        }
        if ((rc = import_read_line(h->src)) < 0)
            return rc;
        if (rc == 0) {
            h->eof = 1;
            if ((rc = finish(h)) != IMPORT_OK)
                goto fail;
            continue;
        }
        if ((rc = parse_line(h, h->src->lines->line)) != IMPORT_OK)
            goto fail;
    }
fail:
    if (rc == IMPORT_ENOMEM)
        import_diag(h->src, IMPORT_ERROR, 0, "out of memory");
    return rc;
}
