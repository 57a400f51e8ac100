/* point.c - the sizeup.point/1 record: C form, JSON Lines writer and strict reader. */
#include "point.h"

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
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
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
    p->client_cpu_s = NAN;
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
    free(p->series);
    free(p->histogram);
    free(p->tool);
    free(p->server_version);
    free(p->started_at);
    json_decref(p->options);
    json_decref(p->extra);
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
    tmp.series = NULL;
    tmp.n_series = tmp.cap_series = 0;
    tmp.histogram = NULL;
    tmp.n_hist = tmp.cap_hist = 0;
    tmp.options = tmp.extra = NULL;
    if (point_set_str(&tmp.target, src->target) || point_set_str(&tmp.config, src->config) ||
        point_set_str(&tmp.workload, src->workload) || point_set_str(&tmp.tool, src->tool) ||
        point_set_str(&tmp.server_version, src->server_version) ||
        point_set_str(&tmp.started_at, src->started_at) ||
        point_set_str(&tmp.source_file, src->source_file))
        goto nomem;
    for (size_t i = 0; i < src->n_flags; i++)
        if (point_add_flag(&tmp, src->flags[i]))
            goto nomem;
    for (size_t i = 0; i < src->n_series; i++)
        if (point_series_append(&tmp, &src->series[i]))
            goto nomem;
    for (size_t i = 0; i < src->n_hist; i++)
        if (point_hist_append(&tmp, src->histogram[i].value_ms, src->histogram[i].count))
            goto nomem;
    if (src->options && !(tmp.options = json_deep_copy(src->options)))
        goto nomem;
    if (src->extra && !(tmp.extra = json_deep_copy(src->extra)))
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

struct point_interval point_interval_none(void)
{
    struct point_interval iv;
    iv.t_s = NAN;
    iv.threads = 0;
    iv.tps = iv.qps = iv.reads_ps = iv.writes_ps = iv.other_ps = NAN;
    iv.lat_ms = iv.pct = iv.errors_ps = iv.reconnects_ps = NAN;
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

int point_series_append(struct point *p, const struct point_interval *iv)
{
    void *arr = p->series;
    if (grow(&arr, &p->cap_series, p->n_series + 1, sizeof *p->series))
        return POINT_ENOMEM;
    p->series = arr;
    p->series[p->n_series++] = *iv;
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
        json_t *pair = json_pack("[fI]", p->histogram[i].value_ms,
                                 (json_int_t)p->histogram[i].count);
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
        set_err(err, "point has no %s", !p->target || !*p->target ? "target"
                                          : !p->workload || !*p->workload ? "workload"
                                                                          : "threads or nodes");
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
    if (p->n_series) {
        sub = series_to_json(p);
        if (!sub)
            goto nomem;
        rc |= json_object_set_new(o, "series", sub);
    }
    if (p->n_hist) {
        sub = histogram_to_json(p);
        if (!sub)
            goto nomem;
        rc |= json_object_set_new(o, "histogram", sub);
    }
    rc |= put_str(o, "tool", p->tool);
    rc |= put_str(o, "server_version", p->server_version);
    rc |= put_real(o, "client_cpu_s", p->client_cpu_s);
    rc |= put_str(o, "started_at", p->started_at);
    if (p->options)
        rc |= json_object_set(o, "options", p->options);
    if (p->extra && json_object_size(p->extra) > 0)
        rc |= json_object_set(o, "extra", p->extra);
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
        return (!p->target || !p->workload || (p->threads <= 0 && p->nodes <= 0)) ? POINT_EINVAL
                                                                                  : POINT_ENOMEM;
    line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (!line) {
        set_err(err, "out of memory while writing a point record");
        return POINT_ENOMEM;
    }
    len = strlen(line);
    line[len] = '\n'; /* replace the terminator; written with its length below */
    errno = 0;
    if (fwrite(line, 1, len + 1, f) != len + 1 || fflush(f) != 0) {
        set_err(err, "cannot write point record: %s", strerror(errno ? errno : EIO));
        rc = POINT_EIO;
    }
    free(line);
    return rc;
}

/* ---- reader ---- */

struct rd {
    const char *file;
    long line;
    struct point_error *err;
};

static int bad(struct rd *r, const char *key, const char *expected)
{
    set_err(r->err, "%s:%ld: key \"%s\": expected %s", r->file ? r->file : "<input>", r->line,
            key, expected);
    return POINT_EPARSE;
}

static int get_real(struct rd *r, const json_t *o, const char *key, double *out, double min)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return POINT_OK;
    if (!json_is_number(v))
        return bad(r, key, "a number");
    *out = json_number_value(v);
    if (!isfinite(*out) || *out < min)
        return bad(r, key, min == 0 ? "a number >= 0" : "a finite number");
    return POINT_OK;
}

static int get_count(struct rd *r, const json_t *o, const char *key, int64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return POINT_OK;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return bad(r, key, "an integer >= 0");
    *out = (int64_t)json_integer_value(v);
    return POINT_OK;
}

static int get_str(struct rd *r, const json_t *o, const char *key, char **out, int required)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return required ? bad(r, key, "a string (required)") : POINT_OK;
    if (!json_is_string(v) || (required && json_string_length(v) == 0))
        return bad(r, key, required ? "a non-empty string" : "a string");
    return point_set_str(out, json_string_value(v));
}

static int get_bool(struct rd *r, const json_t *o, const char *key, int *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return POINT_OK;
    if (!json_is_boolean(v))
        return bad(r, key, "true or false");
    *out = json_is_true(v) ? 1 : 0;
    return POINT_OK;
}

static int read_latency(struct rd *r, const json_t *o, struct point *p)
{
    const char *key;
    json_t *v;
    if (!o)
        return POINT_OK;
    if (!json_is_object(o))
        return bad(r, "latency_ms", "an object");
    json_object_foreach((json_t *)o, key, v) {
        double x;
        char *end;
        if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
            return bad(r, "latency_ms", "numbers >= 0 (milliseconds)");
        x = json_number_value(v);
        if (strcmp(key, "min") == 0)
            p->latency_ms.min = x;
        else if (strcmp(key, "avg") == 0)
            p->latency_ms.avg = x;
        else if (strcmp(key, "max") == 0)
            p->latency_ms.max = x;
        else if (strcmp(key, "sum") == 0)
            p->latency_ms.sum = x;
        else if (key[0] == 'p' && key[1]) {
            double pct = strtod(key + 1, &end);
            if (*end != '\0' || point_set_percentile(p, pct, x) != POINT_OK)
                return bad(r, "latency_ms", "keys min, avg, max, sum or pNN with 0 < NN <= 100");
        } else {
            return bad(r, "latency_ms", "keys min, avg, max, sum or pNN");
        }
    }
    return POINT_OK;
}

static int read_series(struct rd *r, const json_t *a, struct point *p)
{
    size_t i;
    json_t *o;
    if (!a)
        return POINT_OK;
    if (!json_is_array(a))
        return bad(r, "series", "an array of objects");
    json_array_foreach(a, i, o) {
        struct point_interval iv = point_interval_none();
        int64_t th = POINT_NONE;
        int rc = 0;
        if (!json_is_object(o))
            return bad(r, "series", "an array of objects");
        rc |= get_real(r, o, "t", &iv.t_s, 0);
        rc |= get_count(r, o, "threads", &th);
        rc |= get_real(r, o, "tps", &iv.tps, 0);
        rc |= get_real(r, o, "qps", &iv.qps, 0);
        rc |= get_real(r, o, "reads_ps", &iv.reads_ps, 0);
        rc |= get_real(r, o, "writes_ps", &iv.writes_ps, 0);
        rc |= get_real(r, o, "other_ps", &iv.other_ps, 0);
        rc |= get_real(r, o, "lat_ms", &iv.lat_ms, 0);
        rc |= get_real(r, o, "pct", &iv.pct, 0);
        rc |= get_real(r, o, "errors_ps", &iv.errors_ps, 0);
        rc |= get_real(r, o, "reconnects_ps", &iv.reconnects_ps, 0);
        if (rc)
            return POINT_EPARSE;
        iv.threads = th > 0 && th < 1000000000 ? (int)th : 0;
        if (point_series_append(p, &iv))
            return POINT_ENOMEM;
    }
    return POINT_OK;
}

static int read_histogram(struct rd *r, const json_t *h, struct point *p)
{
    const json_t *b;
    size_t i;
    json_t *pair;
    if (!h)
        return POINT_OK;
    b = json_object_get(h, "buckets");
    if (!json_is_object(h) || !json_is_array(b))
        return bad(r, "histogram", "an object with \"buckets\": [[value_ms, count], ...]");
    json_array_foreach(b, i, pair) {
        const json_t *v = json_array_get(pair, 0), *c = json_array_get(pair, 1);
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_number(v) ||
            !json_is_integer(c) || json_integer_value(c) < 0 || json_number_value(v) < 0)
            return bad(r, "histogram", "buckets as [value_ms >= 0, count >= 0] pairs");
        if (point_hist_append(p, json_number_value(v), (uint64_t)json_integer_value(c)))
            return POINT_ENOMEM;
    }
    return POINT_OK;
}

static int read_source(struct rd *r, const json_t *s, struct point *p)
{
    const json_t *kind, *line;
    const char *k;
    if (!s)
        return bad(r, "source", "an object {\"kind\", \"file\", \"line\"} (required)");
    kind = json_object_get(s, "kind");
    if (!json_is_object(s) || !json_is_string(kind))
        return bad(r, "source", "an object with \"kind\": probe, sysbench-log or table");
    k = json_string_value(kind);
    if (strcmp(k, "probe") == 0)
        p->source_kind = POINT_SRC_PROBE;
    else if (strcmp(k, "sysbench-log") == 0)
        p->source_kind = POINT_SRC_SYSBENCH_LOG;
    else if (strcmp(k, "table") == 0)
        p->source_kind = POINT_SRC_TABLE;
    else
        return bad(r, "source.kind", "probe, sysbench-log or table");
    if (get_str(r, s, "file", &p->source_file, 0))
        return POINT_EPARSE;
    line = json_object_get(s, "line");
    if (line && !json_is_null(line)) {
        if (!json_is_integer(line) || json_integer_value(line) < 0)
            return bad(r, "source.line", "an integer >= 0");
        p->source_line = (long)json_integer_value(line);
    }
    return POINT_OK;
}

static int read_point(struct rd *r, const json_t *o, struct point *p)
{
    const json_t *schema = json_object_get(o, "schema"), *v;
    int rc = 0;
    if (!json_is_string(schema)) {
        set_err(r->err, "%s:%ld: no \"schema\" key: expected \"%s\"", r->file ? r->file : "<input>",
                r->line, POINT_SCHEMA);
        return POINT_ESCHEMA;
    }
    if (strcmp(json_string_value(schema), POINT_SCHEMA) != 0) {
        set_err(r->err, "%s:%ld: schema \"%s\" is not one this version reads (expected \"%s\")",
                r->file ? r->file : "<input>", r->line, json_string_value(schema), POINT_SCHEMA);
        return POINT_ESCHEMA;
    }
    if ((rc = get_str(r, o, "target", &p->target, 1)) || (rc = get_str(r, o, "workload",
                                                                        &p->workload, 1)))
        return rc;
    if ((rc = get_str(r, o, "config", &p->config, 0)))
        return rc;
    if (get_count(r, o, "threads", &p->threads) || get_count(r, o, "nodes", &p->nodes))
        return POINT_EPARSE;
    if (p->threads <= 0 && p->nodes <= 0)
        return bad(r, "threads", "an integer > 0 (or \"nodes\" > 0)");
    rc |= get_real(r, o, "rate", &p->rate, 0);
    rc |= get_real(r, o, "duration_s", &p->duration_s, 0);
    rc |= get_real(r, o, "warmup_s", &p->warmup_s, 0);
    rc |= get_count(r, o, "transactions", &p->transactions);
    rc |= get_count(r, o, "queries", &p->queries);
    rc |= get_count(r, o, "reads", &p->reads);
    rc |= get_count(r, o, "writes", &p->writes);
    rc |= get_count(r, o, "other", &p->other);
    rc |= get_count(r, o, "errors", &p->errors);
    rc |= get_count(r, o, "reconnects", &p->reconnects);
    rc |= get_real(r, o, "tps", &p->tps, 0);
    rc |= get_real(r, o, "qps", &p->qps, 0);
    rc |= get_real(r, o, "reads_ps", &p->reads_ps, 0);
    rc |= get_real(r, o, "writes_ps", &p->writes_ps, 0);
    rc |= get_real(r, o, "other_ps", &p->other_ps, 0);
    rc |= get_real(r, o, "errors_ps", &p->errors_ps, 0);
    rc |= get_real(r, o, "reconnects_ps", &p->reconnects_ps, 0);
    rc |= get_count(r, o, "latency_overflows", &p->latency_overflows);
    rc |= get_real(r, o, "ci95_tps", &p->ci95_tps, 0);
    rc |= get_bool(r, o, "steady", &p->steady);
    rc |= get_bool(r, o, "incomplete", &p->incomplete);
    rc |= get_real(r, o, "client_cpu_s", &p->client_cpu_s, 0);
    if (rc)
        return POINT_EPARSE;
    if (p->incomplete < 0)
        p->incomplete = 0;
    if ((rc = read_latency(r, json_object_get(o, "latency_ms"), p)))
        return rc;
    v = json_object_get(o, "flags");
    if (v) {
        size_t i;
        json_t *f;
        if (!json_is_array(v))
            return bad(r, "flags", "an array of strings");
        json_array_foreach(v, i, f) {
            if (!json_is_string(f))
                return bad(r, "flags", "an array of strings");
            if (point_add_flag(p, json_string_value(f)))
                return POINT_ENOMEM;
        }
    }
    v = json_object_get(o, "io");
    if (v) {
        if (!json_is_object(v))
            return bad(r, "io", "an object");
        rc |= get_real(r, v, "reads_ps", &p->io.reads_ps, 0);
        rc |= get_real(r, v, "writes_ps", &p->io.writes_ps, 0);
        rc |= get_real(r, v, "fsyncs_ps", &p->io.fsyncs_ps, 0);
        rc |= get_real(r, v, "read_mib_s", &p->io.read_mib_s, 0);
        rc |= get_real(r, v, "written_mib_s", &p->io.written_mib_s, 0);
        if (rc)
            return POINT_EPARSE;
    }
    if ((rc = read_series(r, json_object_get(o, "series"), p)) ||
        (rc = read_histogram(r, json_object_get(o, "histogram"), p)))
        return rc;
    if ((rc = get_str(r, o, "tool", &p->tool, 0)) ||
        (rc = get_str(r, o, "server_version", &p->server_version, 0)) ||
        (rc = get_str(r, o, "started_at", &p->started_at, 0)))
        return rc;
    v = json_object_get(o, "options");
    if (v && !json_is_null(v)) {
        if (!json_is_object(v))
            return bad(r, "options", "an object");
        p->options = json_deep_copy(v);
    }
    v = json_object_get(o, "extra");
    if (v && !json_is_null(v)) {
        if (!json_is_object(v))
            return bad(r, "extra", "an object");
        p->extra = json_deep_copy(v);
    }
    return read_source(r, json_object_get(o, "source"), p);
}

int point_from_json(const json_t *obj, struct point *out, const char *file, long line,
                    struct point_error *err)
{
    struct rd r = {file, line, err};
    int rc;
    point_destroy(out);
    if (!json_is_object(obj)) {
        set_err(err, "%s:%ld: expected a JSON object (a sizeup.point/1 record)",
                file ? file : "<input>", line);
        return POINT_EPARSE;
    }
    rc = read_point(&r, obj, out);
    if (rc != POINT_OK) {
        if (rc == POINT_ENOMEM)
            set_err(err, "%s:%ld: out of memory", file ? file : "<input>", line);
        point_destroy(out);
    }
    return rc;
}

struct point_reader {
    FILE *f;
    char *name;
    long line;
    char *buf;
    size_t cap;
};

struct point_reader *point_reader_new(FILE *f, const char *name)
{
    struct point_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->f = f;
    r->name = strdup(name ? name : "<input>");
    if (!r->name) {
        free(r);
        return NULL;
    }
    return r;
}

void point_reader_free(struct point_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->name);
    free(r);
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

int point_reader_next(struct point_reader *r, struct point *out, struct point_error *err)
{
    for (;;) {
        ssize_t n;
        json_t *o;
        json_error_t jerr;
        int rc;
        errno = 0;
        n = getline(&r->buf, &r->cap, r->f);
        if (n < 0) {
            if (ferror(r->f)) {
                set_err(err, "%s:%ld: read error: %s", r->name, r->line + 1,
                        strerror(errno ? errno : EIO));
                return POINT_EIO;
            }
            return 0;
        }
        r->line++;
        if (blank(r->buf, (size_t)n))
            continue;
        o = json_loadb(r->buf, (size_t)n, JSON_REJECT_DUPLICATES, &jerr);
        if (!o) {
            set_err(err, "%s:%ld:%d: invalid JSON: %s", r->name, r->line, jerr.column, jerr.text);
            return POINT_EPARSE;
        }
        rc = point_from_json(o, out, r->name, r->line, err);
        json_decref(o);
        return rc == POINT_OK ? 1 : rc;
    }
}

int point_looks_like_jsonl(const char *buf, size_t len)
{
    size_t i = 0, end;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    if (i >= len || buf[i] != '{')
        return 0;
    end = i;
    while (end < len && buf[end] != '\n')
        end++;
    for (size_t j = i; j + 14 <= end; j++)
        if (memcmp(buf + j, "\"sizeup.point/", 14) == 0)
            return 1;
    return 0;
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
