/* workload.c - the workload record, sizeup.workload/1 (workload.h). */
#include "workload.h"

#include "jsonread.h"
#include "readfile.h"
#include "textsafe.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Largest workload record read (a day at 1 s intervals is ~60 MB). */
#define WORKLOAD_MAX_FILE_BYTES (256u << 20)

void workload_init(struct workload *w)
{
    memset(w, 0, sizeof *w);
    w->buffer_pool_bytes = w->page_bytes = w->buffer_pool_data_bytes = NAN;
    snprintf(w->ended, sizeof w->ended, "running");
    snprintf(w->tps_rule, sizeof w->tps_rule, "status");
}

void workload_destroy(struct workload *w)
{
    for (size_t i = 0; i < w->n_notes; i++)
        free(w->notes[i]);
    free(w->notes);
    free(w->iv);
    free(w->sessions);
    free(w->schemas);
    workload_init(w);
}

/* Mean and p95 of k values (a scratch copy is sorted); NAN when k = 0. */
static int mean_p95(const double *v, size_t k, double *mean, double *p95, double *max)
{
    double *s;
    *mean = *p95 = NAN;
    if (max)
        *max = NAN;
    if (!k)
        return 0;
    if (!(s = malloc(k * sizeof *s)))
        return -1;
    memcpy(s, v, k * sizeof *s);
    gsl_sort(s, 1, k);
    *mean = gsl_stats_mean(s, 1, k);
    *p95 = gsl_stats_quantile_from_sorted_data(s, 1, k, 0.95);
    if (max)
        *max = s[k - 1];
    free(s);
    return 0;
}

int workload_add_session(struct workload *w, double running)
{
    if (w->n_sessions == w->cap_sessions) {
        size_t cap = w->cap_sessions ? 2 * w->cap_sessions : 256;
        double *g = realloc(w->sessions, cap * sizeof *g);
        if (!g)
            return -1;
        w->sessions = g;
        w->cap_sessions = cap;
    }
    w->sessions[w->n_sessions++] = running;
    return 0;
}

int workload_note(struct workload *w, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    char **g;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < w->n_notes; i++)
        if (strcmp(w->notes[i], buf) == 0)
            return 0; /* said once */
    if (!(g = realloc(w->notes, (w->n_notes + 1) * sizeof *g)))
        return -1;
    w->notes = g;
    if (!(g[w->n_notes] = strdup(buf)))
        return -1;
    w->n_notes++;
    return 0;
}

/* The statements/s of each class over an interval. */
static void class_rates(const struct workload_delta *d, double rate[WM_N_CLASS])
{
    double t = d->seconds;
    double scans = fmax(0, d->scans);
    rate[WM_POINT] = fmax(0, d->selects - d->select_range - scans) / t;
    rate[WM_RANGE] = d->select_range / t;
    rate[WM_SCAN] = fmin(scans, fmax(0, d->selects - d->select_range)) / t;
    rate[WM_INSERT] = d->inserts / t;
    rate[WM_UPDATE] = d->updates / t;
    rate[WM_DELETE] = d->deletes / t;
    /* a deadlock's victim ends without a COMMIT: its statements ran, and a client that
     * retries (sysbench does) runs them again; counted as an end, or its statements would
     * read as autocommit transactions (CI saw 469 for sysbench's 453 + 16 retried) */
    rate[WM_END] = (d->ends + (isfinite(d->aborted) ? d->aborted : 0)) / t;
}

/* An interval's tps: the engine's count, else ends + share x statements (the status rule). */
static double interval_tps(const struct workload *w, const struct workload_interval *iv,
                           double share)
{
    double stmts = 0;
    if (strcmp(w->tps_rule, "innodb_metrics") == 0 && isfinite(iv->d.engine_tx))
        return iv->d.engine_tx / iv->seconds;
    for (int c = 0; c < WM_END; c++)
        stmts += iv->rate[c];
    return iv->rate[WM_END] + share * stmts;
}

int workload_add(struct workload *w, double start_s, const struct workload_delta *d,
                 const double *s, size_t k, const char *excluded)
{
    struct workload_interval *iv;
    struct workmix m;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        struct workload_interval *g = realloc(w->iv, cap * sizeof *g);
        if (!g)
            return -1;
        w->iv = g;
        w->cap = cap;
    }
    iv = &w->iv[w->n];
    memset(iv, 0, sizeof *iv);
    iv->start_s = start_s;
    iv->seconds = d->seconds;
    iv->d = *d;
    iv->n_sessions = (int)k;
    if (mean_p95(s, k, &iv->sessions_mean, &iv->sessions_p95, NULL))
        return -1;
    if (excluded || !(d->seconds > 0)) {
        snprintf(iv->excluded, sizeof iv->excluded, "%s",
                 excluded ? excluded : "an interval of no length");
        iv->tps = iv->qps = iv->mix_tps = NAN;
        w->n++;
        return 0;
    }
    class_rates(d, iv->rate);
    if (workmix_fit(iv->rate, &m) != 0) {
        snprintf(iv->excluded, sizeof iv->excluded, "a counter that is not a rate");
        iv->tps = iv->qps = iv->mix_tps = NAN;
        w->n++;
        return 0;
    }
    iv->mix_tps = m.total_tps;
    iv->qps = d->questions / d->seconds;
    for (int c = 0; c < WM_N_CLASS; c++)
        w->stmts[c] += iv->rate[c] * d->seconds;
    if (isfinite(d->aborted))
        w->aborted += d->aborted;
    w->n++;
    iv->tps = interval_tps(w, iv, workload_autocommit_share(w));
    return 0;
}

double workload_autocommit_share(const struct workload *w)
{
    struct workmix m;
    double s = 0;
    for (int c = 0; c < WM_END; c++)
        s += w->stmts[c];
    if (!(s > 0) || workmix_fit(w->stmts, &m) != 0)
        return 0;
    return fmax(0, fmin(1, (workmix_tps_status(w->stmts, w->aborted, &m) - w->stmts[WM_END]) / s));
}

void workload_settle(struct workload *w)
{
    double a = workload_autocommit_share(w);
    for (size_t i = 0; i < w->n; i++)
        if (!w->iv[i].excluded[0])
            w->iv[i].tps = interval_tps(w, &w->iv[i], a);
}

/* Statistics of the counted intervals' field at offset off; mean = time-weighted. */
static int stat_of(const struct workload *w, size_t off, struct workload_stat *st)
{
    double *v = malloc((w->n ? w->n : 1) * sizeof *v), sum = 0, t = 0;
    size_t k = 0;
    st->mean = st->p50 = st->p95 = st->p99 = st->max = NAN;
    if (!v)
        return -1;
    for (size_t i = 0; i < w->n; i++) {
        const struct workload_interval *iv = &w->iv[i];
        double x = *(const double *)((const char *)iv + off);
        if (iv->excluded[0] || !isfinite(x))
            continue;
        v[k++] = x;
        sum += x * iv->seconds;
        t += iv->seconds;
    }
    if (k) {
        gsl_sort(v, 1, k);
        st->mean = sum / t;
        st->p50 = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.50);
        st->p95 = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.95);
        st->p99 = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.99);
        st->max = v[k - 1];
    }
    free(v);
    return 0;
}

int workload_summarise(const struct workload *w, struct workload_summary *s)
{
    struct workload_delta tot;
    double rows;
    int have_log_fsyncs = 1;
    memset(s, 0, sizeof *s);
    memset(&tot, 0, sizeof tot);
    for (size_t i = 0; i < w->n; i++) {
        const struct workload_interval *iv = &w->iv[i];
        const struct workload_delta *d = &iv->d;
        if (iv->excluded[0]) {
            s->excluded++;
            continue;
        }
        s->counted++;
        s->seconds += iv->seconds;
        s->transactions += iv->tps * iv->seconds;
        s->queries += d->questions;
        if (isfinite(d->aborted) && !isnan(s->aborted))
            s->aborted += d->aborted;
        else
            s->aborted = NAN;
        for (int c = 0; c < WM_N_CLASS; c++)
            s->rate[c] += iv->rate[c] * iv->seconds;
        tot.data_reads += d->data_reads;
        tot.data_writes += d->data_writes;
        tot.log_writes += d->log_writes;
        tot.data_fsyncs += d->data_fsyncs;
        if (isnan(d->log_fsyncs))
            have_log_fsyncs = 0;
        else
            tot.log_fsyncs += d->log_fsyncs;
        tot.bytes_read += d->bytes_read;
        tot.bytes_written += d->bytes_written + d->log_bytes_written;
        tot.bp_requests += d->bp_requests;
        tot.bp_reads += d->bp_reads;
    }
    if (stat_of(w, offsetof(struct workload_interval, tps), &s->tps) ||
        stat_of(w, offsetof(struct workload_interval, qps), &s->qps) ||
        stat_of(w, offsetof(struct workload_interval, mix_tps), &s->mix_tps) ||
        mean_p95(w->sessions, w->n_sessions, &s->sessions_mean, &s->sessions_p95, &s->sessions_max))
        return -1;
    for (int c = 0; c < WM_N_CLASS; c++)
        s->rate[c] = s->seconds > 0 ? s->rate[c] / s->seconds : NAN;
    if (s->seconds > 0)
        workmix_fit(s->rate, &s->mix);
    for (int k = 0; k < WM_N_WORKLOAD; k++)
        s->weight[k] = s->mix.total_tps > 0 ? s->mix.tps[k] / s->mix.total_tps : 0;
    if (s->transactions > 0) {
        double tx = s->transactions;
        s->reads_per_tx = tot.data_reads / tx;
        s->writes_per_tx = tot.data_writes / tx;
        s->log_writes_per_tx = tot.log_writes / tx;
        /* srvstat.h's rule: MariaDB 10.8+ (no Innodb_os_log_fsyncs) leaves the redo log's
         * writes out of Innodb_data_writes */
        s->ios_per_tx =
            (tot.data_reads + tot.data_writes + (have_log_fsyncs ? 0 : tot.log_writes)) / tx;
        s->fsyncs_per_tx = (tot.data_fsyncs + (have_log_fsyncs ? tot.log_fsyncs : 0)) / tx;
        s->kib_read_per_tx = tot.bytes_read / 1024 / tx;
        s->kib_written_per_tx = tot.bytes_written / 1024 / tx;
    } else {
        s->reads_per_tx = s->writes_per_tx = s->log_writes_per_tx = s->ios_per_tx = NAN;
        s->fsyncs_per_tx = s->kib_read_per_tx = s->kib_written_per_tx = NAN;
    }
    s->bp_hit_ratio = tot.bp_requests > 0 ? 1 - tot.bp_reads / tot.bp_requests : NAN;
    s->data_bytes = NAN;
    if (w->n_schemas) {
        s->data_bytes = 0;
        for (size_t i = 0; i < w->n_schemas; i++)
            s->data_bytes += w->schemas[i].bytes;
    }
    if (isfinite(s->bp_hit_ratio) && s->bp_hit_ratio >= WORKLOAD_HIT_FITS &&
        isfinite(w->buffer_pool_data_bytes)) {
        s->working_set_bytes = isfinite(s->data_bytes)
                                   ? fmin(s->data_bytes, w->buffer_pool_data_bytes)
                                   : w->buffer_pool_data_bytes;
        s->working_set_rule = "the buffer pool's data (hit ratio >= 99 %: the working set fits "
                              "in it), at most the data size";
    } else if (isfinite(s->data_bytes)) {
        s->working_set_bytes = s->data_bytes;
        s->working_set_rule = "all data (hit ratio below 99 % or unknown: the working set reaches "
                              "past the buffer pool, so the probe's must too)";
    } else {
        s->working_set_bytes = NAN;
        s->working_set_rule = "unknown (no data size was readable): sysbench's default table";
    }
    rows = isfinite(s->working_set_bytes) ? ceil(s->working_set_bytes / WORKLOAD_ROW_BYTES) : 0;
    s->probe_tables =
        rows > WORKLOAD_TABLE_ROWS_MAX ? (long)ceil(rows / (double)WORKLOAD_TABLE_ROWS_MAX) : 1;
    s->probe_table_size = (long)fmax(10000, ceil(rows / (double)s->probe_tables));
    return 0;
}

/* ---- writing ---- */

static int set(json_t *o, const char *k, json_t *v)
{
    return v ? json_object_set_new(o, k, v) : -1;
}

/* A number, left out when unknown (NAN) */
static int set_num(json_t *o, const char *k, double v)
{
    if (!isfinite(v))
        return 0;
    return set(o, k, json_real(v));
}

static json_t *stat_json(const struct workload_stat *st)
{
    json_t *o = json_object();
    if (!o || set_num(o, "mean", st->mean) || set_num(o, "p50", st->p50) ||
        set_num(o, "p95", st->p95) || set_num(o, "p99", st->p99) || set_num(o, "max", st->max)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *rates_json(const double rate[WM_N_CLASS])
{
    json_t *o = json_object();
    for (int c = 0; o && c < WM_N_CLASS; c++)
        if (set_num(o, workmix_class_name((enum workmix_class)c), rate[c])) {
            json_decref(o);
            return NULL;
        }
    return o;
}

static json_t *interval_json(const struct workload_interval *iv)
{
    json_t *o = json_object();
    int bad = !o || set_num(o, "start_s", iv->start_s) || set_num(o, "seconds", iv->seconds);
    if (!bad && iv->excluded[0])
        bad = set(o, "excluded", json_string(iv->excluded));
    if (!bad && !iv->excluded[0]) {
        const struct workload_delta *d = &iv->d;
        double tx = iv->tps * iv->seconds;
        bad = set_num(o, "tps", iv->tps) || set_num(o, "qps", iv->qps) ||
              set_num(o, "mix_tps", iv->mix_tps) ||
              set(o, "statements_per_s", rates_json(iv->rate));
        if (!bad && tx > 0)
            bad = set_num(o, "data_reads_per_tx", d->data_reads / tx) ||
                  set_num(o, "data_writes_per_tx", d->data_writes / tx) ||
                  set_num(o, "log_writes_per_tx", d->log_writes / tx);
        if (!bad && d->bp_requests > 0)
            bad = set_num(o, "bp_hit_ratio", 1 - d->bp_reads / d->bp_requests);
    }
    if (!bad && iv->n_sessions)
        bad = set_num(o, "sessions_mean", iv->sessions_mean) ||
              set_num(o, "sessions_p95", iv->sessions_p95);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *build(const struct workload *w, const char *version)
{
    struct workload_summary s;
    json_t *root = json_object(), *srv = json_object(), *ivs = json_array(), *sum = json_object();
    json_t *mix = json_object(), *weights = json_object(), *data = json_object();
    json_t *schemas = json_array(), *probe = json_object(), *notes = json_array();
    json_t *pertx = json_object(), *sess = json_object();
    int bad = !root || !srv || !ivs || !sum || !mix || !weights || !data || !schemas || !probe ||
              !notes || !pertx || !sess || workload_summarise(w, &s);
    if (bad)
        goto fail;
    bad = set(root, "schema", json_string(WORKLOAD_SCHEMA)) ||
          set(root, "sizeup_version", json_string(version)) ||
          set(srv, "host", json_string(w->host)) || set(srv, "port", json_integer(w->port)) ||
          set(srv, "version", json_string(w->version)) ||
          set(srv, "hostname", json_string(w->hostname)) ||
          set_num(srv, "buffer_pool_bytes", w->buffer_pool_bytes) ||
          set_num(srv, "buffer_pool_data_bytes", w->buffer_pool_data_bytes) ||
          set_num(srv, "page_bytes", w->page_bytes) || set(root, "server", json_incref(srv)) ||
          set(root, "started", json_string(w->started)) ||
          set_num(root, "interval_s", w->interval_s) ||
          set(root, "complete", json_boolean(w->complete)) ||
          set(root, "ended", json_string(w->ended)) ||
          set(root, "tps_rule", json_string(w->tps_rule));
    for (size_t i = 0; !bad && i < w->n; i++)
        bad = json_array_append_new(ivs, interval_json(&w->iv[i]));
    bad = bad || set(root, "intervals", json_incref(ivs));
    /* summary */
    bad = bad || set(sum, "intervals", json_integer((json_int_t)s.counted)) ||
          set(sum, "excluded", json_integer((json_int_t)s.excluded)) ||
          set_num(sum, "seconds", s.seconds) || set_num(sum, "transactions", s.transactions) ||
          set_num(sum, "queries", s.queries) || set_num(sum, "aborted", s.aborted) ||
          set(sum, "tps", stat_json(&s.tps)) || set(sum, "qps", stat_json(&s.qps)) ||
          set(sum, "mix_tps", stat_json(&s.mix_tps)) ||
          set(sum, "statements_per_s", rates_json(s.rate)) ||
          set_num(sess, "mean", s.sessions_mean) || set_num(sess, "p95", s.sessions_p95) ||
          set_num(sess, "max", s.sessions_max) ||
          set(sess, "samples", json_integer((json_int_t)w->n_sessions)) ||
          set(sum, "sessions", json_incref(sess)) || set_num(pertx, "ios", s.ios_per_tx) ||
          set_num(pertx, "data_reads", s.reads_per_tx) ||
          set_num(pertx, "data_writes", s.writes_per_tx) ||
          set_num(pertx, "log_writes", s.log_writes_per_tx) ||
          set_num(pertx, "fsyncs", s.fsyncs_per_tx) ||
          set_num(pertx, "kib_read", s.kib_read_per_tx) ||
          set_num(pertx, "kib_written", s.kib_written_per_tx) ||
          set(sum, "per_tx", json_incref(pertx)) || set_num(sum, "bp_hit_ratio", s.bp_hit_ratio) ||
          set(root, "summary", json_incref(sum));
    /* mix */
    for (int k = 0; !bad && k < WM_N_WORKLOAD; k++)
        if (s.weight[k] > 0)
            bad = set_num(weights, workmix_workload_name((enum workmix_workload)k), s.weight[k]);
    bad = bad || set(mix, "weights", json_incref(weights)) ||
          set_num(mix, "residual", s.mix.residual) ||
          set(mix, "rule",
              json_string("non-negative least squares of the statements/s by class (point, "
                          "range and scanning SELECTs, INSERTs, UPDATEs, DELETEs, COMMITs + "
                          "ROLLBACKs) onto sysbench 1.0.20's oltp_point_select, oltp_read_only, "
                          "oltp_read_write, oltp_write_only, oltp_insert, oltp_update_non_index, "
                          "oltp_delete and select_random_ranges at their default statement "
                          "counts; of the mixes within 2 % of the best in statements left "
                          "unexplained, the fewest workloads; a workload under 1 % of the "
                          "transactions is left out; residual = the share of statements the mix "
                          "does not issue (docs/workload-record.md)")) ||
          set(root, "mix", json_incref(mix));
    /* data */
    for (size_t i = 0; !bad && i < w->n_schemas; i++) {
        json_t *o = json_object();
        bad = !o || set(o, "name", json_string(w->schemas[i].name)) ||
              set_num(o, "bytes", w->schemas[i].bytes) ||
              set(o, "tables", json_integer(w->schemas[i].tables)) ||
              json_array_append_new(schemas, o);
    }
    bad = bad || set_num(data, "bytes", s.data_bytes) ||
          set(data, "schemas", json_incref(schemas)) ||
          set(data, "seen_as",
              json_string("data + index length in information_schema.TABLES of the schemas "
                          "this account can see, system schemas left out")) ||
          set(root, "data", json_incref(data));
    /* probe */
    bad = bad || set_num(probe, "working_set_bytes", s.working_set_bytes) ||
          set(probe, "working_set_rule", json_string(s.working_set_rule)) ||
          set_num(probe, "row_bytes", WORKLOAD_ROW_BYTES) ||
          set(probe, "tables", json_integer(s.probe_tables)) ||
          set(probe, "table_size", json_integer(s.probe_table_size)) ||
          set(root, "probe", json_incref(probe));
    for (size_t i = 0; !bad && i < w->n_notes; i++)
        bad = json_array_append_new(notes, json_string(w->notes[i]));
    bad = bad || set(root, "notes", json_incref(notes));
fail:
    json_decref(srv);
    json_decref(ivs);
    json_decref(sum);
    json_decref(mix);
    json_decref(weights);
    json_decref(data);
    json_decref(schemas);
    json_decref(probe);
    json_decref(notes);
    json_decref(pertx);
    json_decref(sess);
    if (bad) {
        json_decref(root);
        return NULL;
    }
    return root;
}

int workload_write(FILE *f, const struct workload *w, const char *sizeup_version)
{
    json_t *root = build(w, sizeup_version);
    int rc;
    if (!root)
        return -1;
    rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    json_decref(root);
    if (rc == 0 && fputc('\n', f) == EOF)
        rc = -1;
    return rc;
}

/* ---- reading ---- */

int workload_stat_get(const struct workload_stat *s, const char *stat, double *out)
{
    if (strcmp(stat, "mean") == 0)
        *out = s->mean;
    else if (strcmp(stat, "p50") == 0)
        *out = s->p50;
    else if (strcmp(stat, "p95") == 0)
        *out = s->p95;
    else if (strcmp(stat, "p99") == 0)
        *out = s->p99;
    else if (strcmp(stat, "max") == 0)
        *out = s->max;
    else
        return -1;
    return 0;
}

/* A statistic object {mean, p50, p95, p99, max} of the summary: numbers from 0 to
 * WORKLOAD_TPS_MAX, in order (p50 <= p95 <= p99 <= max, mean <= max). */
static int read_stat(struct jr *r, const json_t *sum, const char *key, const char *what,
                     struct workload_stat *st)
{
    const json_t *o = json_object_get(sum, key);
    size_t pk;
    if (!o || !json_is_object(o))
        return jr_fail_key(r, key, "an object of %s (mean, p50, p95, p99, max) is required", what);
    pk = jr_push_key(r, key);
    if (jr_get_num(r, o, "mean", JR_REQUIRED, 0, WORKLOAD_TPS_MAX, 0, &st->mean) ||
        jr_get_num(r, o, "p50", JR_REQUIRED, 0, WORKLOAD_TPS_MAX, 0, &st->p50) ||
        jr_get_num(r, o, "p95", JR_REQUIRED, 0, WORKLOAD_TPS_MAX, 0, &st->p95) ||
        jr_get_num(r, o, "p99", JR_REQUIRED, 0, WORKLOAD_TPS_MAX, 0, &st->p99) ||
        jr_get_num(r, o, "max", JR_REQUIRED, 0, WORKLOAD_TPS_MAX, 0, &st->max))
        return JR_EINVAL;
    if (!(st->p50 <= st->p95 && st->p95 <= st->p99 && st->p99 <= st->max && st->mean <= st->max))
        return jr_fail_at(r, r->path,
                          "out of order: p50 %g, p95 %g, p99 %g, max %g, mean %g (percentiles "
                          "of the same intervals rise, and none is above the max)",
                          st->p50, st->p95, st->p99, st->max, st->mean);
    jr_pop(r, pk);
    return JR_OK;
}

static int read_req(struct jr *r, const json_t *root, struct workload_req *q)
{
    const json_t *sum, *mix, *weights, *probe, *v0;
    const char *key;
    json_t *v;
    size_t pk;
    double total = 0;
    long long ll;
    if (!(sum = json_object_get(root, "summary")) || !json_is_object(sum))
        return jr_fail_key(r, "summary", "a summary object is required (sizeup observe writes it)");
    pk = jr_push_key(r, "summary");
    if (jr_get_int(r, sum, "intervals", JR_REQUIRED, 0, 100000000, 0, &ll))
        return JR_EINVAL;
    if (ll == 0)
        return jr_fail_key(r, "intervals", "no interval was counted: nothing to size for");
    if (jr_get_num(r, sum, "seconds", 0, 0, 1e10, NAN, &q->seconds) ||
        read_stat(r, sum, "mix_tps", "the mix's transactions/s", &q->mix_tps) ||
        read_stat(r, sum, "tps", "the observed transactions/s", &q->tps))
        return JR_EINVAL;
    if (!(q->mix_tps.max > 0) && !(q->tps.max > 0))
        return jr_fail_at(r, r->path,
                          "no load was observed (every interval's tps is 0): nothing "
                          "to size for");
    jr_pop(r, pk);
    q->complete = 1;
    if ((v0 = json_object_get(root, "complete")) && json_is_boolean(v0))
        q->complete = json_is_true(v0);
    if ((v0 = json_object_get(root, "ended")) && json_is_string(v0))
        snprintf(q->ended, sizeof q->ended, "%s", json_string_value(v0));
    if (!(mix = json_object_get(root, "mix")) || !json_is_object(mix))
        return jr_fail_key(r, "mix", "a mix object is required (sizeup observe writes it)");
    pk = jr_push_key(r, "mix");
    if (jr_get_num(r, mix, "residual", JR_REQUIRED, 0, INFINITY, 0, &q->residual))
        return JR_EINVAL;
    weights = json_object_get(mix, "weights");
    if (json_is_object(weights) && !json_object_size(weights) && q->residual > 0)
        return jr_fail_key(r, "weights",
                           "empty: the observed statements are not a mix of sysbench's workloads "
                           "(the nearest mix leaves %.0f %% of them unexplained; scanning "
                           "SELECTs, or transactions of another shape): sysbench curves cannot "
                           "stand for this load",
                           100 * q->residual);
    if (!weights || !json_is_object(weights) || !json_object_size(weights))
        return jr_fail_key(r, "weights",
                           "an object of workload weights is required, e.g. "
                           "{\"oltp_read_write\": 1}");
    jr_push_key(r, "weights");
    json_object_foreach((json_t *)weights, key, v)
    {
        double x;
        if (textsafe_control_at(key) >= 0) {
            char vis[160];
            return jr_fail_at(r, r->path, "a workload name with a control character, \"%s\"",
                              textsafe_visible(key, vis, sizeof vis));
        }
        if (q->n == WM_N_WORKLOAD || strlen(key) >= sizeof q->workload[0])
            return jr_fail_key(r, key, "at most %d workloads of names under 32 bytes",
                               WM_N_WORKLOAD);
        if (jr_get_num(r, weights, key, JR_REQUIRED, 0, 1, 0, &x))
            return JR_EINVAL;
        if (x > 0) {
            snprintf(q->workload[q->n], sizeof q->workload[0], "%s", key);
            q->weight[q->n++] = x;
            total += x;
        }
    }
    if (fabs(total - 1) > 1e-3)
        return jr_fail_at(r, r->path, "the weights add up to %g, not 1", total);
    jr_pop(r, pk);
    if (!(probe = json_object_get(root, "probe")) || !json_is_object(probe))
        return jr_fail_key(r, "probe", "a probe object is required (sizeup observe writes it)");
    pk = jr_push_key(r, "probe");
    if (jr_get_int(r, probe, "tables", JR_REQUIRED, 1, 1000000, 1, &ll))
        return JR_EINVAL;
    q->probe_tables = (long)ll;
    if (jr_get_int(r, probe, "table_size", JR_REQUIRED, 1, 1000000000000LL, 1, &ll))
        return JR_EINVAL;
    q->probe_table_size = (long)ll;
    jr_pop(r, pk);
    return JR_OK;
}

int workload_read(const char *path, struct workload_req *q, char *msg, size_t cap)
{
    char *text = NULL;
    size_t len = 0;
    int rc;
    memset(q, 0, sizeof *q);
    if (readfile(path, WORKLOAD_MAX_FILE_BYTES, &text, &len, msg, cap) != READFILE_OK)
        return -1;
    rc = workload_read_text(path, text, len, q, msg, cap);
    free(text);
    return rc;
}

int workload_read_text(const char *path, const char *text, size_t len, struct workload_req *q,
                       char *msg, size_t cap)
{
    json_error_t jerr;
    json_t *root;
    struct jr r;
    const char *schema;
    int rc;
    memset(q, 0, sizeof *q);
    /* the first value alone first: a JSON Lines file of points is named, not a syntax error */
    root = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, &jerr);
    if (root && json_is_object(root) && json_is_string(json_object_get(root, "schema"))) {
        schema = json_string_value(json_object_get(root, "schema"));
        if (strncmp(schema, "sizeup.workload/", 16) != 0) {
            jr_init(&r, path, text, len, 1, msg, cap);
            jr_fail_key(&r, "schema",
                        "'%s' is not a workload record: --require takes what sizeup observe "
                        "writes (%s)%s",
                        schema, WORKLOAD_SCHEMA,
                        strncmp(schema, "sizeup.point/", 13) == 0
                            ? "; measured points go to --points"
                            : "");
            json_decref(root);
            return -1;
        }
        if (strcmp(schema, WORKLOAD_SCHEMA) != 0) {
            jr_init(&r, path, text, len, 1, msg, cap);
            jr_fail_key(&r, "schema",
                        "unknown schema version '%s': this sizeup reads %s (a newer sizeup "
                        "wrote it?)",
                        schema, WORKLOAD_SCHEMA);
            json_decref(root);
            return -1;
        }
    }
    json_decref(root);
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        jr_syntax_error(msg, cap, path, 1, &jerr);
        return -1;
    }
    jr_init(&r, path, text, len, 1, msg, cap);
    if (!json_is_object(root))
        rc = jr_fail_at(&r, "$", "a sizeup.workload/1 object is expected, got %s",
                        jr_type_name(root));
    else if (!json_is_string(json_object_get(root, "schema")))
        rc = jr_fail_key(&r, "schema", "\"%s\" is required", WORKLOAD_SCHEMA);
    else
        rc = read_req(&r, root, q);
    json_decref(root);
    return rc == JR_OK ? 0 : -1;
}
