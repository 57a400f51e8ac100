/* point_write.c - the sizeup.point/1 JSON Lines writer (point.h: point_to_json, point_write,
 * point_json_string). */
#include "point.h"

#include "append.h"
#include "errtext.h"
#include "hist_json.h"

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

/* The optional blocks of a point record into o, in the record's order: io, server, series,
 * histogram, latency_histogram, client. 0, or -1 out of memory (or a non-finite number). */
static int put_blocks(json_t *o, const struct point *p)
{
    json_t *sub;
    int rc = 0;
    if (!isnan(p->io.reads_ps) || !isnan(p->io.writes_ps) || !isnan(p->io.fsyncs_ps) ||
        !isnan(p->io.read_mib_s) || !isnan(p->io.written_mib_s)) {
        json_t *io = json_object();
        if (!io)
            return -1;
        rc |= put_real(io, "reads_ps", p->io.reads_ps);
        rc |= put_real(io, "writes_ps", p->io.writes_ps);
        rc |= put_real(io, "fsyncs_ps", p->io.fsyncs_ps);
        rc |= put_real(io, "read_mib_s", p->io.read_mib_s);
        rc |= put_real(io, "written_mib_s", p->io.written_mib_s);
        rc |= json_object_set_new(o, "io", io);
    }
    if (point_has_server(p)) {
        if (!(sub = server_to_json(p)))
            return -1;
        rc |= json_object_set_new(o, "server", sub);
    }
    if (p->n_series) {
        sub = series_to_json(p);
        if (!sub)
            return -1;
        rc |= json_object_set_new(o, "series", sub);
        if (p->series_step > 1)
            rc |= json_object_set_new(o, "series_step", json_integer((json_int_t)p->series_step));
    }
    if (p->n_hist) {
        sub = histogram_to_json(p);
        if (!sub)
            return -1;
        rc |= json_object_set_new(o, "histogram", sub);
    }
    if (p->latency_hist) {
        sub = hist_json_new(p->latency_hist);
        if (!sub)
            return -1;
        rc |= json_object_set_new(o, "latency_histogram", sub);
    }
    if (p->client.count > 0) {
        sub = json_object();
        if (!sub)
            return -1;
        rc |= put_count(sub, "index", p->client.index);
        rc |= put_count(sub, "count", p->client.count);
        rc |= put_count(sub, "threads", p->client.threads);
        rc |= put_str(sub, "start_at", p->client.start_at);
        rc |= put_real(sub, "started_unix_s", p->client.started_unix_s);
        rc |= put_real(sub, "ended_unix_s", p->client.ended_unix_s);
        rc |= json_object_set_new(o, "client", sub);
    }
    return rc;
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
    if (put_blocks(o, p) != 0)
        goto nomem;
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
