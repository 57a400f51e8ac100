/* point.c - the sizeup.point/1 record: C form and JSON Lines writer (reader: point_read.c). */
#include "point.h"

#include "errtext.h"

#include "append.h"
#include "hist_json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void set_err(struct point_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_err(struct point_error *err, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    errtext_vset(err->msg, sizeof err->msg, NULL, 0, 0, fmt, ap);
    va_end(ap);
}

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

/* ---- writer ---- */

/* Each setter returns 0, or -1 when jansson ran out of memory. Absent values are skipped. */
static int put_real(json_t *o, const char *key, double v)
{
    if (isnan(v))
        return 0;
    if (!isfinite(v))
        return -1;
    return json_object_set_new(o, key, json_real(v));
}

static int put_count(json_t *o, const char *key, int64_t v)
{
    if (v < 0)
        return 0;
    return json_object_set_new(o, key, json_integer((json_int_t)v));
}

json_t *point_json_string(const char *s)
{
    json_t *v = json_string(s);
    char *copy;
    if (v)
        return v;
    copy = strdup(s);
    if (!copy)
        return NULL;
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
            *c = '?';
    v = json_string(copy);
    free(copy);
    return v;
}

static int put_str(json_t *o, const char *key, const char *s)
{
    if (!s)
        return 0;
    return json_object_set_new(o, key, point_json_string(s));
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

/* The server block as JSON (point_has_server(p) is true); NULL when out of memory. */
static json_t *server_to_json(const struct point *p)
{
    json_t *o = json_object();
    int rc = 0;
    if (!o)
        return NULL;
    rc |= put_str(o, "from", p->server.from);
    for (int i = 0; i < PSRV_N; i++)
        rc |= put_real(o, point_server_keys[i], p->server.v[i]);
    if (p->server.per_tx && json_object_size(p->server.per_tx) > 0)
        rc |= json_object_set(o, "per_tx", p->server.per_tx);
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static void pct_key(char *buf, size_t cap, double pct)
{
    snprintf(buf, cap, "p%g", pct);
}

static json_t *latency_to_json(const struct point_latency *l)
{
    json_t *o = json_object();
    int rc = 0;
    char key[32];
    if (!o)
        return NULL;
    rc |= put_real(o, "min", l->min);
    rc |= put_real(o, "avg", l->avg);
    rc |= put_real(o, "max", l->max);
    rc |= put_real(o, "sum", l->sum);
    for (size_t i = 0; i < l->n_pct; i++) {
        pct_key(key, sizeof key, l->pct[i]);
        rc |= put_real(o, key, l->pct_ms[i]);
    }
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *series_to_json(const struct point *p)
{
    json_t *arr = json_array();
    if (!arr)
        return NULL;
    for (size_t i = 0; i < p->n_series; i++) {
        const struct point_interval *iv = &p->series[i];
        json_t *o = json_object();
        int rc = 0;
        if (!o)
            goto fail;
        rc |= put_real(o, "t", iv->t_s);
        if (iv->threads > 0)
            rc |= json_object_set_new(o, "threads", json_integer(iv->threads));
        rc |= put_real(o, "tps", iv->tps);
        rc |= put_real(o, "qps", iv->qps);
        rc |= put_real(o, "reads_ps", iv->reads_ps);
        rc |= put_real(o, "writes_ps", iv->writes_ps);
        rc |= put_real(o, "other_ps", iv->other_ps);
        rc |= put_real(o, "lat_ms", iv->lat_ms);
        rc |= put_real(o, "pct", iv->pct);
        rc |= put_real(o, "errors_ps", iv->errors_ps);
        rc |= put_real(o, "reconnects_ps", iv->reconnects_ps);
        rc |= put_real(o, "read_mib_s", iv->read_mib_s);
        rc |= put_real(o, "written_mib_s", iv->written_mib_s);
        rc |= put_real(o, "fsyncs_ps", iv->fsyncs_ps);
        if (rc || json_array_append_new(arr, o))
            goto fail;
    }
    return arr;
fail:
    json_decref(arr);
    return NULL;
}

static json_t *histogram_to_json(const struct point *p)
{
    json_t *o = json_object(), *b = json_array();
    if (!o || !b)
        goto fail;
    for (size_t i = 0; i < p->n_hist; i++) {
        json_t *pair =
            json_pack("[fI]", p->histogram[i].value_ms, (json_int_t)p->histogram[i].count);
        if (!pair || json_array_append_new(b, pair))
            goto fail;
    }
    if (json_object_set_new(o, "unit", json_string("ms")) || json_object_set_new(o, "buckets", b))
        goto fail_o;
    return o;
fail:
    json_decref(b);
fail_o:
    json_decref(o);
    return NULL;
}

json_t *point_to_json(const struct point *p, struct point_error *err)
{
    json_t *o, *sub;
    int rc = 0;
    if (!p->target || !*p->target || !p->workload || !*p->workload ||
        (p->threads <= 0 && p->nodes <= 0)) {
        set_err(err, "point has no %s",
                !p->target || !*p->target       ? "target"
                : !p->workload || !*p->workload ? "workload"
                                                : "threads or nodes");
        return NULL;
    }
    if (p->predicted && p->n_predicted_from == 0) {
        set_err(err, "predicted point of %s has no predicted_from", p->target);
        return NULL;
    }
    o = json_object();
    if (!o)
        goto nomem;
    rc |= put_str(o, "schema", POINT_SCHEMA);
    rc |= put_str(o, "target", p->target);
    rc |= json_object_set_new(o, "config", p->config ? point_json_string(p->config) : json_null());
    rc |= put_str(o, "workload", p->workload);
    if (p->threads > 0)
        rc |= put_count(o, "threads", p->threads);
    if (p->nodes > 0)
        rc |= put_count(o, "nodes", p->nodes);
    rc |= put_real(o, "rate", p->rate);
    rc |= put_real(o, "duration_s", p->duration_s);
    rc |= put_real(o, "warmup_s", p->warmup_s);
    rc |= put_count(o, "transactions", p->transactions);
    rc |= put_count(o, "queries", p->queries);
    rc |= put_count(o, "reads", p->reads);
    rc |= put_count(o, "writes", p->writes);
    rc |= put_count(o, "other", p->other);
    rc |= put_count(o, "errors", p->errors);
    rc |= put_count(o, "reconnects", p->reconnects);
    rc |= put_real(o, "tps", p->tps);
    rc |= put_real(o, "qps", p->qps);
    rc |= put_real(o, "reads_ps", p->reads_ps);
    rc |= put_real(o, "writes_ps", p->writes_ps);
    rc |= put_real(o, "other_ps", p->other_ps);
    rc |= put_real(o, "errors_ps", p->errors_ps);
    rc |= put_real(o, "reconnects_ps", p->reconnects_ps);
    if (rc)
        goto nomem;
    sub = latency_to_json(&p->latency_ms);
    if (!sub)
        goto nomem;
    if (json_object_size(sub) > 0)
        rc |= json_object_set_new(o, "latency_ms", sub);
    else
        json_decref(sub);
    rc |= put_count(o, "latency_overflows", p->latency_overflows);
    rc |= put_real(o, "ci95_tps", p->ci95_tps);
    if (p->steady >= 0)
        rc |= json_object_set_new(o, "steady", json_boolean(p->steady));
    if (p->incomplete)
        rc |= json_object_set_new(o, "incomplete", json_true());
    if (p->n_flags) {
        json_t *fl = json_array();
        if (!fl)
            goto nomem;
        for (size_t i = 0; i < p->n_flags; i++)
            rc |= json_array_append_new(fl, point_json_string(p->flags[i]));
        rc |= json_object_set_new(o, "flags", fl);
    }
    if (!isnan(p->io.reads_ps) || !isnan(p->io.writes_ps) || !isnan(p->io.fsyncs_ps) ||
        !isnan(p->io.read_mib_s) || !isnan(p->io.written_mib_s)) {
        json_t *io = json_object();
        if (!io)
            goto nomem;
        rc |= put_real(io, "reads_ps", p->io.reads_ps);
        rc |= put_real(io, "writes_ps", p->io.writes_ps);
        rc |= put_real(io, "fsyncs_ps", p->io.fsyncs_ps);
        rc |= put_real(io, "read_mib_s", p->io.read_mib_s);
        rc |= put_real(io, "written_mib_s", p->io.written_mib_s);
        rc |= json_object_set_new(o, "io", io);
    }
    if (point_has_server(p)) {
        if (!(sub = server_to_json(p)))
            goto nomem;
        rc |= json_object_set_new(o, "server", sub);
    }
    if (p->n_series) {
        sub = series_to_json(p);
        if (!sub)
            goto nomem;
        rc |= json_object_set_new(o, "series", sub);
        if (p->series_step > 1)
            rc |= json_object_set_new(o, "series_step", json_integer((json_int_t)p->series_step));
    }
    if (p->n_hist) {
        sub = histogram_to_json(p);
        if (!sub)
            goto nomem;
        rc |= json_object_set_new(o, "histogram", sub);
    }
    if (p->latency_hist) {
        sub = hist_json_new(p->latency_hist);
        if (!sub)
            goto nomem;
        rc |= json_object_set_new(o, "latency_histogram", sub);
    }
    if (p->client.count > 0) {
        sub = json_object();
        if (!sub)
            goto nomem;
        rc |= put_count(sub, "index", p->client.index);
        rc |= put_count(sub, "count", p->client.count);
        rc |= put_count(sub, "threads", p->client.threads);
        rc |= put_str(sub, "start_at", p->client.start_at);
        rc |= put_real(sub, "started_unix_s", p->client.started_unix_s);
        rc |= put_real(sub, "ended_unix_s", p->client.ended_unix_s);
        rc |= json_object_set_new(o, "client", sub);
    }
    rc |= put_str(o, "tool", p->tool);
    rc |= put_str(o, "server_version", p->server_version);
    rc |= put_real(o, "client_cpu_s", p->client_cpu_s);
    rc |= put_str(o, "started_at", p->started_at);
    if (p->options)
        rc |= json_object_set(o, "options", p->options);
    if (p->extra && json_object_size(p->extra) > 0)
        rc |= json_object_set(o, "extra", p->extra);
    if (p->predicted) {
        json_t *from = json_array();
        if (!from)
            goto nomem;
        rc |= json_object_set_new(o, "basis", json_string("predicted"));
        for (size_t i = 0; i < p->n_predicted_from; i++)
            rc |= json_array_append_new(from, point_json_string(p->predicted_from[i]));
        rc |= json_object_set_new(o, "predicted_from", from);
    }
    sub = json_object();
    if (!sub)
        goto nomem;
    rc |= put_str(sub, "kind", point_source_kind_name(p->source_kind));
    rc |= put_str(sub, "file", p->source_file);
    if (p->source_line > 0)
        rc |= json_object_set_new(sub, "line", json_integer(p->source_line));
    rc |= json_object_set_new(o, "source", sub);
    if (rc)
        goto nomem;
    return o;
nomem:
    json_decref(o);
    set_err(err, "out of memory (or a non-finite number) while building a point record");
    return NULL;
}

int point_write(FILE *f, const struct point *p, struct point_error *err)
{
    json_t *o = point_to_json(p, err);
    char *line;
    size_t len;
    int rc = POINT_OK;
    if (!o)
        return (!p->target || !p->workload || (p->threads <= 0 && p->nodes <= 0) ||
                (p->predicted && p->n_predicted_from == 0))
                   ? POINT_EINVAL
                   : POINT_ENOMEM;
    line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(o);
    if (!line) {
        set_err(err, "out of memory while writing a point record");
        return POINT_ENOMEM;
    }
    len = strlen(line);
    line[len] = '\n'; /* replace the terminator; written with its length below */
    errno = 0;
    if (append_whole_stream(f, line, len + 1) != 0) {
        set_err(err, "cannot write point record: %s", strerror(errno ? errno : EIO));
        rc = POINT_EIO;
    }
    free(line);
    return rc;
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
