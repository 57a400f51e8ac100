/* merge.c - load generators' parts of a point merged into the point (see merge.h). */
#include "merge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Option keys that differ from client to client by design. */
static const char *const per_client_keys[] = {"client", "start_at", "workers", "out", NULL};

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int per_client(const char *key)
{
    for (size_t i = 0; per_client_keys[i]; i++)
        if (strcmp(key, per_client_keys[i]) == 0)
            return 1;
    return 0;
}

/* The first option key whose values differ (per-client keys aside), or NULL. */
static const char *options_differ(const json_t *a, const json_t *b)
{
    const char *key;
    json_t *v;
    if (!a || !b)
        return a == b ? NULL : "options";
    json_object_foreach((json_t *)a, key, v)
    {
        if (!per_client(key) && !json_equal(v, json_object_get(b, key)))
            return key;
    }
    json_object_foreach((json_t *)b, key, v)
    {
        if (!per_client(key) && !json_object_get(a, key))
            return key;
    }
    return NULL;
}

/* The group key of a part: (count, start_at) with an agreed start, else (count, threads). */
static int same_group(const struct point *a, const struct point *b)
{
    if (a->client.count != b->client.count)
        return 0;
    if (a->client.start_at || b->client.start_at)
        return same_str(a->client.start_at, b->client.start_at);
    return a->threads == b->threads;
}

static int64_t sum_count(int64_t a, int64_t b)
{
    return a < 0 || b < 0 ? POINT_NONE : a + b;
}

static double rate_of(int64_t count, double duration_s)
{
    return count >= 0 && duration_s > 0 ? (double)count / duration_s : NAN;
}

static double add_rate(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : a + b;
}

/* Check one group (parts g[0..k)) for consistency; MERGE_EINVAL with msg. */
static int check_group(const struct point *parts, const char *const *where, const size_t *g,
                       size_t k, char *msg, size_t cap)
{
    const struct point *a = &parts[g[0]];
    int64_t count = a->client.count, conns = 0;
    const size_t *by_index;
    size_t *seen = calloc((size_t)count, sizeof *seen);
    if (!seen)
        return MERGE_ENOMEM;
    by_index = seen;
    for (size_t i = 0; i < k; i++) {
        const struct point *p = &parts[g[i]];
        const char *key = NULL, *differs = NULL;
        if (!same_str(p->target, a->target))
            differs = "target";
        else if (!same_str(p->config, a->config))
            differs = "config";
        else if (!same_str(p->workload, a->workload))
            differs = "workload";
        else if (p->threads != a->threads)
            differs = "threads (the level)";
        else if (!(isnan(p->rate) && isnan(a->rate)) && p->rate != a->rate)
            differs = "rate";
        else if ((key = options_differ(p->options, a->options)))
            differs = "options";
        if (differs) {
            snprintf(msg, cap,
                     "%s and %s are parts of one level (client %lld/%lld and %lld/%lld, start %s) "
                     "but differ in %s%s%s: %s %s at %lld threads vs %s %s at %lld threads",
                     where[g[0]], where[g[i]], (long long)a->client.index + 1, (long long)count,
                     (long long)p->client.index + 1, (long long)count,
                     a->client.start_at ? a->client.start_at : "not agreed", differs,
                     key ? " " : "", key ? key : "", a->target, a->workload, (long long)a->threads,
                     p->target, p->workload, (long long)p->threads);
            free(seen);
            return MERGE_EINVAL;
        }
        if (seen[p->client.index]) {
            snprintf(msg, cap, "client %lld/%lld of the same level is given twice: %s and %s",
                     (long long)p->client.index + 1, (long long)count,
                     where[seen[p->client.index] - 1], where[g[i]]);
            free(seen);
            return MERGE_EINVAL;
        }
        seen[p->client.index] = g[i] + 1;
        if (!p->latency_hist || isnan(p->client.started_unix_s) || isnan(p->client.ended_unix_s) ||
            !(p->duration_s > 0)) {
            snprintf(msg, cap,
                     "%s has no %s: a part needs its latency_histogram, its window "
                     "(client.started_unix_s, ended_unix_s) and duration_s",
                     where[g[i]],
                     !p->latency_hist       ? "latency_histogram"
                     : !(p->duration_s > 0) ? "duration_s"
                                            : "window");
            free(seen);
            return MERGE_EINVAL;
        }
        conns += p->client.threads;
    }
    for (int64_t i = 0; i < count; i++) {
        if (!by_index[i]) {
            snprintf(msg, cap,
                     "client %lld/%lld is missing for %s %s at %lld threads (start %s; %zu of "
                     "%lld parts given, e.g. %s); parts are grouped by their agreed start "
                     "(--start-at), else by level",
                     (long long)i + 1, (long long)count, a->target, a->workload,
                     (long long)a->threads, a->client.start_at ? a->client.start_at : "not agreed",
                     k, (long long)count, where[g[0]]);
            free(seen);
            return MERGE_EINVAL;
        }
    }
    free(seen);
    if (conns != a->threads) {
        snprintf(msg, cap,
                 "the parts of %s at %lld threads (e.g. %s) ran %lld connections in all, not %lld",
                 a->workload, (long long)a->threads, where[g[0]], (long long)conns,
                 (long long)a->threads);
        return MERGE_EINVAL;
    }
    return MERGE_OK;
}

static void warn_skew(FILE *warn, const char *what, const struct point *a, double d, double skew_s,
                      const char *where)
{
    if (warn && d > skew_s)
        fprintf(warn,
                "sizeup merge: %s at %lld threads (e.g. %s): the parts' %s differ by %.3f s "
                "(> %.3f s); the point's window is the common one\n",
                a->workload, (long long)a->threads, where, what, d, skew_s);
}

/* The flags of the merged point: the parts' united, less `partial` unless a part lost its
 * server. */
static int merge_flags(struct point *m, const struct point *parts, const size_t *g, size_t k)
{
    int lost = 0;
    for (size_t i = 0; i < m->n_flags; i++)
        free(m->flags[i]);
    m->n_flags = 0;
    for (size_t i = 0; i < k; i++) {
        const struct point *p = &parts[g[i]];
        for (size_t f = 0; f < p->n_flags; f++) {
            if (strcmp(p->flags[f], "server_unreachable") == 0 ||
                strcmp(p->flags[f], "fatal_error") == 0)
                lost = 1;
            if (strcmp(p->flags[f], "partial") != 0 && point_add_flag(m, p->flags[f]))
                return MERGE_ENOMEM;
        }
    }
    if (lost && point_add_flag(m, "partial"))
        return MERGE_ENOMEM;
    return MERGE_OK;
}

/* The series: the parts' intervals by index, rates summed; percentiles left out. */
static int merge_series(struct point *m, const struct point *parts, const size_t *g, size_t k)
{
    size_t n = SIZE_MAX;
    for (size_t i = 0; i < k; i++)
        if (parts[g[i]].n_series < n)
            n = parts[g[i]].n_series;
    m->n_series = 0;
    for (size_t t = 0; t < n; t++) {
        struct point_interval iv = point_interval_none();
        iv.threads = (int)m->threads;
        for (size_t i = 0; i < k; i++) {
            const struct point_interval *s = &parts[g[i]].series[t];
            iv.t_s = isnan(iv.t_s) || s->t_s > iv.t_s ? s->t_s : iv.t_s;
            iv.tps = add_rate(iv.tps, s->tps);
            iv.qps = add_rate(iv.qps, s->qps);
            iv.reads_ps = add_rate(iv.reads_ps, s->reads_ps);
            iv.writes_ps = add_rate(iv.writes_ps, s->writes_ps);
            iv.other_ps = add_rate(iv.other_ps, s->other_ps);
            iv.errors_ps = add_rate(iv.errors_ps, s->errors_ps);
            iv.reconnects_ps = add_rate(iv.reconnects_ps, s->reconnects_ps);
        }
        if (point_series_append(m, &iv))
            return MERGE_ENOMEM;
    }
    return MERGE_OK;
}

/* Every percentile a part carries, plus 50, 95, 99, from the merged histogram. */
static int merge_latency(struct point *m, const struct point *parts, const size_t *g, size_t k)
{
    const struct hist *h = m->latency_hist;
    static const double std_pct[3] = {50, 95, 99};
    double pcts[POINT_MAX_PCT];
    size_t np = 0;
    for (int i = 0; i < 3; i++)
        pcts[np++] = std_pct[i];
    for (size_t i = 0; i < k; i++) {
        const struct point *p = &parts[g[i]];
        for (size_t j = 0; j < p->latency_ms.n_pct && np < POINT_MAX_PCT; j++) {
            size_t q = 0;
            while (q < np && pcts[q] != p->latency_ms.pct[j])
                q++;
            if (q == np)
                pcts[np++] = p->latency_ms.pct[j];
        }
    }
    m->latency_ms.n_pct = 0;
    m->latency_ms.min = m->latency_ms.avg = m->latency_ms.max = m->latency_ms.sum = NAN;
    if (h->count == 0)
        return MERGE_OK;
    m->latency_ms.min = (double)h->min_ns / 1e6;
    m->latency_ms.avg = hist_mean_ns(h) / 1e6;
    m->latency_ms.max = (double)h->max_ns / 1e6;
    m->latency_ms.sum = (double)h->sum_ns / 1e6;
    for (size_t i = 0; i < np; i++) {
        uint64_t v = 0;
        hist_percentile(h, pcts[i], &v);
        point_set_percentile(m, pcts[i], (double)v / 1e6);
    }
    return MERGE_OK;
}

/* extra.merge, and the parts' own load-generator figures under it; extra.window the span of
 * the parts' windows, [start_min, end_max] (Unix s). */
static int merge_extra(struct point *m, const struct point *parts, const char *const *where,
                       const size_t *g, size_t k, double start_skew, double end_skew,
                       double window_s, double start_min, double end_max)
{
    json_t *x = m->extra ? m->extra : json_object(), *clients = json_array(), *files = json_array();
    json_t *mg;
    if (!x || !clients || !files)
        goto nomem;
    m->extra = x;
    json_object_del(x, "load_generator");
    /* the merged point ran from the first part's start to the last one's end */
    json_object_del(x, "window");
    if (isfinite(start_min) && isfinite(end_max) &&
        json_object_set_new(
            x, "window",
            json_pack("{s:f,s:f}", "started_unix_s", start_min, "ended_unix_s", end_max)))
        goto nomem;
    for (size_t i = 0; i < k; i++) {
        const struct point *p = &parts[g[i]];
        json_t *c = json_pack("{s:I,s:I,s:f,s:f}", "index", (json_int_t)p->client.index, "threads",
                              (json_int_t)p->client.threads, "tps",
                              rate_of(p->transactions, p->duration_s), "duration_s", p->duration_s);
        json_t *lg = p->extra ? json_object_get(p->extra, "load_generator") : NULL;
        if (!c)
            goto nomem;
        if (!isnan(p->client_cpu_s))
            json_object_set_new(c, "client_cpu_s", json_real(p->client_cpu_s));
        if (lg)
            json_object_set(c, "load_generator", lg);
        if (json_array_append_new(clients, c) ||
            json_array_append_new(files, point_json_string(where[g[i]])))
            goto nomem;
    }
    mg = json_pack("{s:I,s:o,s:f,s:f,s:f,s:o}", "parts", (json_int_t)k, "files", files,
                   "start_skew_s", start_skew, "end_skew_s", end_skew, "window_s", window_s,
                   "clients", clients);
    if (!mg || json_object_set_new(x, "merge", mg))
        return MERGE_ENOMEM;
    return MERGE_OK;
nomem:
    json_decref(clients);
    json_decref(files);
    return MERGE_ENOMEM;
}

/* Merge one checked group into m (initialised). */
static int merge_group(const struct point *parts, const char *const *where, const size_t *g,
                       size_t k, double skew_s, struct point *m, FILE *warn)
{
    const struct point *a = &parts[g[0]];
    double s_min = INFINITY, s_max = -INFINITY, e_min = INFINITY, e_max = -INFINITY, window;
    int rc;
    if (point_copy(m, a) != POINT_OK)
        return MERGE_ENOMEM;
    free(m->client.start_at);
    m->client.start_at = NULL;
    m->client.index = m->client.count = m->client.threads = POINT_NONE;
    m->client.started_unix_s = m->client.ended_unix_s = NAN;
    m->ci95_tps = NAN;
    m->steady = -1;
    hist_reset(m->latency_hist);
    m->transactions = m->queries = m->reads = m->writes = m->other = 0;
    m->errors = m->reconnects = m->latency_overflows = 0;
    m->tps = m->qps = m->reads_ps = m->writes_ps = m->other_ps = NAN;
    m->errors_ps = m->reconnects_ps = NAN;
    m->client_cpu_s = 0;
    m->incomplete = 0;
    for (size_t i = 0; i < k; i++) {
        const struct point *p = &parts[g[i]];
        hist_merge(m->latency_hist, p->latency_hist);
        m->transactions = sum_count(m->transactions, p->transactions);
        m->queries = sum_count(m->queries, p->queries);
        m->reads = sum_count(m->reads, p->reads);
        m->writes = sum_count(m->writes, p->writes);
        m->other = sum_count(m->other, p->other);
        m->errors = sum_count(m->errors, p->errors);
        m->reconnects = sum_count(m->reconnects, p->reconnects);
        m->latency_overflows = sum_count(m->latency_overflows, p->latency_overflows);
        m->tps = add_rate(m->tps, rate_of(p->transactions, p->duration_s));
        m->qps = add_rate(m->qps, rate_of(p->queries, p->duration_s));
        m->reads_ps = add_rate(m->reads_ps, rate_of(p->reads, p->duration_s));
        m->writes_ps = add_rate(m->writes_ps, rate_of(p->writes, p->duration_s));
        m->other_ps = add_rate(m->other_ps, rate_of(p->other, p->duration_s));
        m->errors_ps = add_rate(m->errors_ps, rate_of(p->errors, p->duration_s));
        m->reconnects_ps = add_rate(m->reconnects_ps, rate_of(p->reconnects, p->duration_s));
        m->client_cpu_s =
            isnan(p->client_cpu_s) ? m->client_cpu_s : m->client_cpu_s + p->client_cpu_s;
        m->incomplete |= p->incomplete;
        s_min = fmin(s_min, p->client.started_unix_s);
        s_max = fmax(s_max, p->client.started_unix_s);
        e_min = fmin(e_min, p->client.ended_unix_s);
        e_max = fmax(e_max, p->client.ended_unix_s);
        if (p->started_at && m->started_at && strcmp(p->started_at, m->started_at) < 0 &&
            point_set_str(&m->started_at, p->started_at))
            return MERGE_ENOMEM;
        if (warn && !same_str(p->server_version, a->server_version))
            fprintf(warn, "sizeup merge: %s and %s name different server versions (%s, %s)\n",
                    where[g[0]], where[g[i]], a->server_version ? a->server_version : "none",
                    p->server_version ? p->server_version : "none");
    }
    window = e_min - s_max;
    if (!(window > 0)) {
        /* the windows do not overlap: no common window to speak of */
        return MERGE_EINVAL;
    }
    m->duration_s = window;
    warn_skew(warn, "starts", a, s_max - s_min, skew_s, where[g[0]]);
    warn_skew(warn, "ends", a, e_max - e_min, skew_s, where[g[0]]);
    if ((rc = merge_flags(m, parts, g, k)) || (rc = merge_series(m, parts, g, k)) ||
        (rc = merge_latency(m, parts, g, k)) ||
        (rc = merge_extra(m, parts, where, g, k, s_max - s_min, e_max - e_min, window, s_min,
                          e_max)))
        return rc;
    if (m->options) {
        for (size_t i = 0; per_client_keys[i]; i++)
            json_object_del(m->options, per_client_keys[i]);
        json_object_set_new(m->options, "clients", json_integer((json_int_t)a->client.count));
    }
    return MERGE_OK;
}

int merge_parts(const struct point *parts, const char *const *where, size_t n, double skew_s,
                struct point_list *out, FILE *warn, char *msg, size_t cap)
{
    size_t *group = malloc((n ? n : 1) * sizeof *group), *g = malloc((n ? n : 1) * sizeof *g);
    size_t first_out = out->n;
    int rc = MERGE_OK;
    if (!group || !g) {
        free(group);
        free(g);
        snprintf(msg, cap, "out of memory");
        return MERGE_ENOMEM;
    }
    if (n == 0) {
        snprintf(msg, cap, "no parts to merge");
        rc = MERGE_EINVAL;
    }
    for (size_t i = 0; i < n && rc == MERGE_OK; i++) {
        if (parts[i].client.count <= 0) {
            snprintf(msg, cap,
                     "%s is not a part of a multi-client point (no \"client\" object; parts come "
                     "from sizeup probe run --client I/K)",
                     where[i]);
            rc = MERGE_EINVAL;
        }
        group[i] = SIZE_MAX;
    }
    for (size_t i = 0; i < n && rc == MERGE_OK; i++) {
        size_t k = 0;
        struct point *m;
        if (group[i] != SIZE_MAX)
            continue;
        for (size_t j = i; j < n; j++) {
            if (group[j] == SIZE_MAX && same_group(&parts[i], &parts[j])) {
                group[j] = i;
                g[k++] = j;
            }
        }
        if ((rc = check_group(parts, where, g, k, msg, cap)) != MERGE_OK)
            break;
        if (!(m = point_list_push(out))) {
            rc = MERGE_ENOMEM;
            break;
        }
        rc = merge_group(parts, where, g, k, skew_s, m, warn);
        if (rc == MERGE_EINVAL)
            snprintf(msg, cap,
                     "the parts of %s at %lld threads (e.g. %s) have no common window: "
                     "one ended before another started",
                     parts[i].workload, (long long)parts[i].threads, where[i]);
    }
    free(group);
    free(g);
    if (rc == MERGE_ENOMEM)
        snprintf(msg, cap, "out of memory");
    if (rc != MERGE_OK)
        point_list_truncate(out, first_out);
    return rc;
}
