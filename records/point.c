/* point.c - the sizeup.point/1 record: C form (writer: point_write.c, reader: point_read.c). */
#include "point.h"

#include "hist_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const point_server_keys[PSRV_N] = {"window_s",          "transactions",
                                               "ios_per_tx",        "reads_per_tx",
                                               "writes_per_tx",     "data_fsyncs_per_tx",
                                               "log_fsyncs_per_tx", "log_writes_per_tx",
                                               "read_kib_per_tx",   "written_kib_per_tx",
                                               "log_kib_per_tx",    "bp_requests_per_tx",
                                               "bp_reads_per_tx",   "bp_miss_ratio",
                                               "cpu_s_per_tx",      "iops",
                                               "iops_max",          "io_mb_s",
                                               "buffer_pool_mib",   "data_mib"};

int point_has_server(const struct point *p)
{
    for (int i = 0; i < PSRV_N; i++)
        if (!isnan(p->server.v[i]))
            return 1;
    return p->server.per_tx && json_object_size(p->server.per_tx) > 0;
}

void point_init(struct point *p)
{
    memset(p, 0, sizeof *p);
    p->threads = p->nodes = POINT_NONE;
    p->rate = p->duration_s = p->warmup_s = NAN;
    p->transactions = p->queries = p->reads = p->writes = p->other = POINT_NONE;
    p->errors = p->reconnects = POINT_NONE;
    p->tps = p->qps = p->reads_ps = p->writes_ps = p->other_ps = NAN;
    p->errors_ps = p->reconnects_ps = NAN;
    p->latency_ms.min = p->latency_ms.avg = p->latency_ms.max = p->latency_ms.sum = NAN;
    p->latency_overflows = POINT_NONE;
    p->ci95_tps = NAN;
    p->steady = -1;
    p->io.reads_ps = p->io.writes_ps = p->io.fsyncs_ps = NAN;
    p->io.read_mib_s = p->io.written_mib_s = NAN;
    for (int i = 0; i < PSRV_N; i++)
        p->server.v[i] = NAN;
    p->client_cpu_s = NAN;
    p->client.index = p->client.count = p->client.threads = POINT_NONE;
    p->client.started_unix_s = p->client.ended_unix_s = NAN;
    p->source_kind = POINT_SRC_TABLE;
}

void point_destroy(struct point *p)
{
    if (!p)
        return;
    free(p->target);
    free(p->config);
    free(p->workload);
    for (size_t i = 0; i < p->n_flags; i++)
        free(p->flags[i]);
    free(p->flags);
    for (size_t i = 0; i < p->n_predicted_from; i++)
        free(p->predicted_from[i]);
    free(p->predicted_from);
    free(p->series);
    free(p->histogram);
    hist_free(p->latency_hist);
    free(p->client.start_at);
    free(p->tool);
    free(p->server_version);
    free(p->started_at);
    json_decref(p->options);
    json_decref(p->extra);
    json_decref(p->server.per_tx);
    free(p->server.from);
    free(p->source_file);
    point_init(p);
}

struct point *point_new(void)
{
    struct point *p = malloc(sizeof *p);
    if (p)
        point_init(p);
    return p;
}

void point_free(struct point *p)
{
    if (!p)
        return;
    point_destroy(p);
    free(p);
}

int point_set_str(char **field, const char *s)
{
    char *copy = NULL;
    if (s) {
        copy = strdup(s);
        if (!copy)
            return POINT_ENOMEM;
    }
    free(*field);
    *field = copy;
    return POINT_OK;
}

int point_copy(struct point *dst, const struct point *src)
{
    struct point tmp = *src;
    point_destroy(dst);
    /* shallow copy, then replace every owned pointer with its own copy */
    tmp.target = tmp.config = tmp.workload = tmp.tool = NULL;
    tmp.server_version = tmp.started_at = tmp.source_file = NULL;
    tmp.flags = NULL;
    tmp.n_flags = 0;
    tmp.predicted_from = NULL;
    tmp.n_predicted_from = 0;
    tmp.series = NULL;
    tmp.n_series = tmp.cap_series = 0;
    tmp.histogram = NULL;
    tmp.n_hist = tmp.cap_hist = 0;
    tmp.latency_hist = NULL;
    tmp.client.start_at = NULL;
    tmp.options = tmp.extra = tmp.server.per_tx = NULL;
    tmp.server.from = NULL;
    if (point_set_str(&tmp.target, src->target) || point_set_str(&tmp.config, src->config) ||
        point_set_str(&tmp.workload, src->workload) || point_set_str(&tmp.tool, src->tool) ||
        point_set_str(&tmp.server_version, src->server_version) ||
        point_set_str(&tmp.started_at, src->started_at) ||
        point_set_str(&tmp.source_file, src->source_file) ||
        point_set_str(&tmp.client.start_at, src->client.start_at) ||
        point_set_str(&tmp.server.from, src->server.from))
        goto nomem;
    if (src->latency_hist) {
        if (!(tmp.latency_hist = hist_new()))
            goto nomem;
        *tmp.latency_hist = *src->latency_hist;
    }
    for (size_t i = 0; i < src->n_flags; i++)
        if (point_add_flag(&tmp, src->flags[i]))
            goto nomem;
    for (size_t i = 0; i < src->n_predicted_from; i++)
        if (point_add_predicted_from(&tmp, src->predicted_from[i]))
            goto nomem;
    tmp.series_step = tmp.series_fill = 0; /* copied as they are, after */
    for (size_t i = 0; i < src->n_series; i++)
        if (point_series_append(&tmp, &src->series[i]))
            goto nomem;
    tmp.series_step = src->series_step;
    tmp.series_fill = src->series_fill;
    for (size_t i = 0; i < src->n_hist; i++)
        if (point_hist_append(&tmp, src->histogram[i].value_ms, src->histogram[i].count))
            goto nomem;
    if (src->options && !(tmp.options = json_deep_copy(src->options)))
        goto nomem;
    if (src->extra && !(tmp.extra = json_deep_copy(src->extra)))
        goto nomem;
    if (src->server.per_tx && !(tmp.server.per_tx = json_deep_copy(src->server.per_tx)))
        goto nomem;
    *dst = tmp;
    return POINT_OK;
nomem:
    point_destroy(&tmp);
    return POINT_ENOMEM;
}

int point_add_flag(struct point *p, const char *flag)
{
    char **grown;
    char *copy;
    if (point_has_flag(p, flag))
        return POINT_OK;
    copy = strdup(flag);
    if (!copy)
        return POINT_ENOMEM;
    grown = realloc(p->flags, (p->n_flags + 1) * sizeof *grown);
    if (!grown) {
        free(copy);
        return POINT_ENOMEM;
    }
    p->flags = grown;
    p->flags[p->n_flags++] = copy;
    return POINT_OK;
}

int point_has_flag(const struct point *p, const char *flag)
{
    for (size_t i = 0; i < p->n_flags; i++)
        if (strcmp(p->flags[i], flag) == 0)
            return 1;
    return 0;
}

int point_add_predicted_from(struct point *p, const char *config)
{
    char **grown, *copy;
    for (size_t i = 0; i < p->n_predicted_from; i++)
        if (strcmp(p->predicted_from[i], config) == 0)
            return POINT_OK;
    copy = strdup(config);
    if (!copy)
        return POINT_ENOMEM;
    grown = realloc(p->predicted_from, (p->n_predicted_from + 1) * sizeof *grown);
    if (!grown) {
        free(copy);
        return POINT_ENOMEM;
    }
    p->predicted_from = grown;
    p->predicted_from[p->n_predicted_from++] = copy;
    return POINT_OK;
}

int point_set_percentile(struct point *p, double pct, double value_ms)
{
    struct point_latency *l = &p->latency_ms;
    if (!(pct > 0 && pct <= 100) || !(value_ms >= 0) || !isfinite(value_ms))
        return POINT_EINVAL;
    for (size_t i = 0; i < l->n_pct; i++) {
        if (l->pct[i] == pct) {
            l->pct_ms[i] = value_ms;
            return POINT_OK;
        }
    }
    if (l->n_pct >= POINT_MAX_PCT)
        return POINT_EINVAL;
    l->pct[l->n_pct] = pct;
    l->pct_ms[l->n_pct] = value_ms;
    l->n_pct++;
    return POINT_OK;
}

double point_percentile(const struct point *p, double pct)
{
    for (size_t i = 0; i < p->latency_ms.n_pct; i++)
        if (p->latency_ms.pct[i] == pct)
            return p->latency_ms.pct_ms[i];
    return NAN;
}

double point_latency_pct(const struct point *p, double pct, enum point_pct_source *src)
{
    double v = point_percentile(p, pct);
    enum point_pct_source from = POINT_PCT_REPORTED;
    if (isnan(v) && p->latency_hist && pct > 0 && pct <= 100) {
        uint64_t ns;
        int rc = hist_percentile(p->latency_hist, pct, &ns);
        if (rc == HIST_OK || rc == HIST_BELOW_RANGE || rc == HIST_ABOVE_RANGE) {
            v = (double)ns / 1e6;
            from = POINT_PCT_HIST_EXACT;
        }
    }
    if (isnan(v) && p->n_hist > 0 && pct > 0 && pct <= 100) {
        /* sysbench's rule over its table: the buckets as printed, ascending by value */
        uint64_t n = 0, cum = 0, nmax;
        double prev = -INFINITY;
        int sorted = 1;
        for (size_t i = 0; i < p->n_hist; i++) {
            n += p->histogram[i].count;
            sorted &= p->histogram[i].value_ms >= prev;
            prev = p->histogram[i].value_ms;
        }
        nmax = (uint64_t)floor((double)n * pct / 100 + 0.5);
        for (size_t i = 0; n > 0 && sorted && i < p->n_hist; i++) {
            cum += p->histogram[i].count;
            if (cum >= nmax) {
                v = p->histogram[i].value_ms;
                from = POINT_PCT_HISTOGRAM;
                break;
            }
        }
    }
    if (src)
        *src = isnan(v) ? POINT_PCT_NONE : from;
    return v;
}

struct point_interval point_interval_none(void)
{
    struct point_interval iv;
    iv.t_s = NAN;
    iv.threads = 0;
    iv.tps = iv.qps = iv.reads_ps = iv.writes_ps = iv.other_ps = NAN;
    iv.lat_ms = iv.pct = iv.errors_ps = iv.reconnects_ps = NAN;
    iv.read_mib_s = iv.written_mib_s = iv.fsyncs_ps = NAN;
    return iv;
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    size_t ncap;
    void *n;
    if (need <= *cap)
        return POINT_OK;
    ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    n = realloc(*arr, ncap * elem);
    if (!n)
        return POINT_ENOMEM;
    *arr = n;
    *cap = ncap;
    return POINT_OK;
}

/* a's value and b's, weighted wa and wb; either alone when the other is absent. */
static double wmean(double a, double wa, double b, double wb)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return (a * wa + b * wb) / (wa + wb);
}

/* Interval b (of wb reports) folded into a (of wa reports): point_series_append's rule. */
static void fold(struct point_interval *a, double wa, const struct point_interval *b, double wb)
{
    a->tps = wmean(a->tps, wa, b->tps, wb);
    a->qps = wmean(a->qps, wa, b->qps, wb);
    a->reads_ps = wmean(a->reads_ps, wa, b->reads_ps, wb);
    a->writes_ps = wmean(a->writes_ps, wa, b->writes_ps, wb);
    a->other_ps = wmean(a->other_ps, wa, b->other_ps, wb);
    a->errors_ps = wmean(a->errors_ps, wa, b->errors_ps, wb);
    a->reconnects_ps = wmean(a->reconnects_ps, wa, b->reconnects_ps, wb);
    a->read_mib_s = wmean(a->read_mib_s, wa, b->read_mib_s, wb);
    a->written_mib_s = wmean(a->written_mib_s, wa, b->written_mib_s, wb);
    a->fsyncs_ps = wmean(a->fsyncs_ps, wa, b->fsyncs_ps, wb);
    if (isnan(a->lat_ms) || b->lat_ms > a->lat_ms)
        a->lat_ms = b->lat_ms;
    if (isnan(a->pct))
        a->pct = b->pct;
    if (b->threads > 0)
        a->threads = b->threads;
    if (!isnan(b->t_s))
        a->t_s = b->t_s;
}

int point_series_append(struct point *p, const struct point_interval *iv)
{
    void *arr = p->series;
    size_t step = p->series_step > 1 ? p->series_step : 1;
    if (step > 1 && p->n_series > 0 && p->series_fill < step) {
        fold(&p->series[p->n_series - 1], (double)p->series_fill, iv, 1);
        p->series_fill++;
        return POINT_OK;
    }
    if (p->n_series >= POINT_SERIES_MAX) {
        /* every entry is full here: neighbours pairwise, twice the reports each */
        size_t n = 0;
        if (step == 1 && point_add_flag(p, "series_summarised"))
            return POINT_ENOMEM;
        for (size_t i = 0; i < p->n_series; i += 2, n++) {
            p->series[n] = p->series[i];
            if (i + 1 < p->n_series)
                fold(&p->series[n], (double)step, &p->series[i + 1], (double)step);
        }
        p->n_series = n;
        p->series_step = 2 * step; /* the new report starts an entry of its own */
    }
    if (grow(&arr, &p->cap_series, p->n_series + 1, sizeof *p->series))
        return POINT_ENOMEM;
    p->series = arr;
    p->series[p->n_series++] = *iv;
    p->series_fill = 1;
    return POINT_OK;
}

int point_hist_append(struct point *p, double value_ms, uint64_t count)
{
    void *arr = p->histogram;
    if (grow(&arr, &p->cap_hist, p->n_hist + 1, sizeof *p->histogram))
        return POINT_ENOMEM;
    p->histogram = arr;
    p->histogram[p->n_hist].value_ms = value_ms;
    p->histogram[p->n_hist].count = count;
    p->n_hist++;
    return POINT_OK;
}

const char *point_source_kind_name(enum point_source_kind k)
{
    switch (k) {
    case POINT_SRC_PROBE:
        return "probe";
    case POINT_SRC_SYSBENCH_LOG:
        return "sysbench-log";
    case POINT_SRC_TABLE:
        return "table";
    case POINT_SRC_PREDICTION:
        return "prediction";
    case POINT_SRC_TOOL:
        return "tool-output";
    }
    return "table";
}

/* Clear a server block: every figure absent. */
static void server_clear(struct point_server *s)
{
    json_decref(s->per_tx);
    free(s->from);
    memset(s, 0, sizeof *s);
    for (int i = 0; i < PSRV_N; i++)
        s->v[i] = NAN;
}

int point_server_pool(struct point *out, const struct point *const *reps, size_t n)
{
    struct point_server acc;
    double tx = 0, w[PSRV_N] = {0};
    const struct point *first = NULL, *last = NULL;
    server_clear(&out->server);
    memset(&acc, 0, sizeof acc);
    for (int i = 0; i < PSRV_N; i++)
        acc.v[i] = 0;
    if (!(acc.per_tx = json_object()))
        return POINT_ENOMEM;
    for (size_t r = 0; r < n; r++) {
        const struct point_server *s = &reps[r]->server;
        double t = s->v[PSRV_TRANSACTIONS];
        const char *key;
        json_t *val;
        if (!(t > 0))
            continue;
        first = first ? first : reps[r];
        last = reps[r];
        tx += t;
        for (int i = 0; i < PSRV_N; i++)
            if (!isnan(s->v[i])) {
                acc.v[i] += i == PSRV_TRANSACTIONS || i == PSRV_WINDOW_S ? s->v[i] : s->v[i] * t;
                w[i] += t;
            }
        json_object_foreach(s->per_tx, key, val)
        {
            json_t *cur = json_object_get(acc.per_tx, key);
            double sum = (cur ? json_real_value(cur) : 0) + json_number_value(val) * t;
            if (json_object_set_new(acc.per_tx, key, json_real(sum))) {
                json_decref(acc.per_tx);
                return POINT_ENOMEM;
            }
        }
    }
    if (!first) {
        json_decref(acc.per_tx);
        return POINT_OK;
    }
    {
        const char *key;
        json_t *val;
        json_object_foreach(acc.per_tx, key, val) json_real_set(val, json_real_value(val) / tx);
    }
    for (int i = 0; i < PSRV_N; i++)
        acc.v[i] = w[i] > 0
                       ? (i == PSRV_TRANSACTIONS || i == PSRV_WINDOW_S ? acc.v[i] : acc.v[i] / w[i])
                       : NAN;
    acc.v[PSRV_BP_MISS_RATIO] =
        acc.v[PSRV_BP_REQUESTS_PER_TX] > 0 && !isnan(acc.v[PSRV_BP_READS_PER_TX])
            ? fmin(1, acc.v[PSRV_BP_READS_PER_TX] / acc.v[PSRV_BP_REQUESTS_PER_TX])
            : NAN;
    acc.v[PSRV_BUFFER_POOL_MIB] = last->server.v[PSRV_BUFFER_POOL_MIB];
    acc.v[PSRV_DATA_MIB] = last->server.v[PSRV_DATA_MIB];
    if (first->server.from && !(acc.from = strdup(first->server.from))) {
        json_decref(acc.per_tx);
        return POINT_ENOMEM;
    }
    out->server = acc;
    return POINT_OK;
}

void point_list_init(struct point_list *l)
{
    l->items = NULL;
    l->n = l->cap = 0;
}

void point_list_destroy(struct point_list *l)
{
    if (!l)
        return;
    point_list_truncate(l, 0);
    free(l->items);
    point_list_init(l);
}

struct point *point_list_push(struct point_list *l)
{
    void *arr = l->items;
    if (grow(&arr, &l->cap, l->n + 1, sizeof *l->items))
        return NULL;
    l->items = arr;
    point_init(&l->items[l->n]);
    return &l->items[l->n++];
}

void point_list_truncate(struct point_list *l, size_t n)
{
    while (l->n > n)
        point_destroy(&l->items[--l->n]);
}

int point_extra_is_level_record(const json_t *extra)
{
    const json_t *iv = extra ? json_object_get(extra, "interval") : NULL;
    const json_t *m = iv ? json_object_get(iv, "method") : NULL;
    return json_is_string(m) && strcmp(json_string_value(m), POINT_LEVEL_METHOD) == 0;
}

int point_is_level_record(const struct point *p)
{
    return point_extra_is_level_record(p->extra);
}

json_t *point_level_pooled(const struct point *p)
{
    json_t *l;
    if (!point_is_level_record(p))
        return NULL;
    l = json_object_get(json_object_get(p->extra, "interval"), "pooled");
    return json_is_array(l) ? l : NULL;
}
