/* study_setup.c - a study candidate's probe set-up: configuration, ladder, options, sessions,
 * the drop of its tables (see study_setup.h). */
#include "study_setup.h"

#include "stopflag.h"

#include <string.h>
#include <unistd.h>

void study_setup_config(const struct study *s, size_t i, const char *password, FILE *log,
                        struct probe_config *cfg)
{
    const struct study_candidate *c = &s->cand[i];
    probe_config_defaults(cfg); /* `sizeup probe`'s defaults (test_cli_help) */
    if (c->mysql.host)
        cfg->conn.host = c->mysql.host;
    if (c->mysql.port)
        cfg->conn.port = (unsigned)c->mysql.port;
    cfg->conn.socket = c->mysql.socket;
    if (c->mysql.user)
        cfg->conn.user = c->mysql.user;
    if (c->mysql.db)
        cfg->conn.db = c->mysql.db;
    cfg->conn.defaults_file = c->mysql.defaults_file;
    if (c->mysql.group)
        cfg->conn.defaults_group = c->mysql.group;
    cfg->conn.password = password;
    cfg->oltp.tables = (unsigned)c->tables;
    cfg->oltp.table_size = (unsigned)c->table_size;
    /* calibrated levels: never stop before 5 s, or half the limit for shorter limits */
    cfg->time_s = 0;
    cfg->precision = s->precision;
    cfg->max_time_s = s->max_time_s;
    cfg->min_time_s = s->max_time_s / 2 < 5 ? s->max_time_s / 2 : 5.0;
    cfg->out = log;
    cfg->progress = stderr;
    cfg->progress_live = isatty(STDERR_FILENO);
    cfg->stop = stopflag_get();
}

struct ladder_opts study_setup_ladder(const struct study *s)
{
    struct ladder_opts lo = ladder_opts_default();
    lo.max_threads = (unsigned)s->max_threads;
    lo.max_points = (size_t)s->max_points;
    lo.max_latency_ms = ladder_latency_bound_ms(&s->target);
    return lo;
}

json_t *study_setup_options(const struct study *s, const struct probe_config *cfg,
                            const struct ladder_opts *lo)
{
    json_t *j = probe_config_json(cfg), *th;
    if (!j)
        return NULL;
    if (s->ladder_auto) {
        th = json_string("auto");
    } else {
        th = json_array();
        for (size_t i = 0; th && i < s->n_ladder; i++)
            json_array_append_new(th, json_integer(s->ladder[i]));
    }
    json_object_set_new(j, "threads", th);
    if (s->ladder_auto) {
        json_object_set_new(j, "max_threads", json_integer(lo->max_threads));
        json_object_set_new(j, "max_points", json_integer((json_int_t)lo->max_points));
        json_object_set_new(j, "max_latency_ms", json_real(lo->max_latency_ms));
        json_object_set_new(j, "slo",
                            s->target.pct > 0 ? json_pack("{s:f,s:f}", "percentile", s->target.pct,
                                                          "latency_ms", s->target.target_s * 1e3)
                                              : json_pack("{s:s,s:f}", "statistic", "avg",
                                                          "latency_ms", s->target.target_s * 1e3));
    }
    return j;
}

struct probe_session *study_setup_session(const struct study_candidate *c,
                                          const struct probe_config *cfg, const struct study *s,
                                          const char *out_path, const json_t *options)
{
    struct probe_session_opts so;
    struct probe_session *ps;
    char err[600];
    memset(&so, 0, sizeof so);
    so.cfg = cfg;
    so.target = c->target;
    so.config = c->config;
    so.tool = "sizeup " SIZEUP_VERSION;
    so.out_path = out_path;
    so.options = options;
    so.give_up_s = STUDY_GIVE_UP_S;
    so.remeasure = STUDY_REMEASURE;
    so.latency = s->target;
    so.recheck_tables = 1;
    ps = probe_session_new(&so, err, sizeof err);
    if (!ps)
        fprintf(stderr, "sizeup: %s\n", err);
    return ps;
}

enum drive_status study_setup_tables_status(int rc)
{
    return rc == 0 ? DRIVE_OK : rc == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
}

enum drive_status study_setup_prepare_tables(const struct study_candidate *c,
                                             struct probe_session *tables, FILE *log)
{
    int rc;
    fprintf(stderr, "study: %s: preparing %ld table(s) x %ld rows\n", c->target, c->tables,
            c->table_size);
    fprintf(log, "sizeup %s (sysbench 1.0.20-compatible report)\n\n", SIZEUP_VERSION);
    fflush(log);
    rc = probe_session_cleanup(tables);
    if (rc != 0) {
        fprintf(stderr, "sizeup: cleanup: %s\n", probe_session_msg(tables));
        return study_setup_tables_status(rc); /* nothing of ours exists: nothing to drop */
    }
    rc = probe_session_prepare(tables, STUDY_PREPARE_CONNECTIONS);
    fflush(log);
    if (rc != 0) {
        /* a failed or interrupted prepare drops what it created */
        if (!stopflag_signal())
            fprintf(stderr, "sizeup: prepare: %s\n", probe_session_msg(tables));
        return stopflag_signal() ? DRIVE_INTERRUPTED : study_setup_tables_status(rc);
    }
    return DRIVE_OK;
}

int study_setup_drop_tables(struct probe_session *ps, const struct probe_config *cfg,
                            const char *target)
{
    int rc = probe_session_cleanup(ps);
    if (rc == -MYCONN_RECONNECT) {
        struct myconn_error e;
        fprintf(stderr,
                "study: %s: the server does not answer; waiting up to %.0f s to drop the "
                "tables\n",
                target, STUDY_GIVE_UP_S);
        memset(&e, 0, sizeof e);
        if (myconn_wait_answer(&cfg->conn, STUDY_GIVE_UP_S, NULL, &e) == 0)
            rc = probe_session_cleanup(ps);
    }
    if (rc != 0) {
        fprintf(stderr, "sizeup: cleanup: %s\n", probe_session_msg(ps));
        fprintf(stderr,
                "study: %s: the tables sbtest1..%u may be left on the server; run "
                "'sizeup probe cleanup' against it\n",
                target, cfg->oltp.tables);
        return -1;
    }
    return 0;
}
