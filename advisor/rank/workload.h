/*
 * workload.h - the workload record (sizeup.workload/1, docs/workload-record.md): what a running
 * server carried while `sizeup observe` watched it, per interval and summarised, the mix of
 * sysbench workloads that issues the same statements, and the probe table that holds its
 * working set; and the reading of it that `rank --require` sizes for.
 *
 * Rates are per second; sizes in bytes; per-transaction figures per transaction of the tps
 * rule in force (workload_interval.tps). Percentiles over intervals interpolate linearly between
 * order statistics (GSL gsl_stats_quantile_from_sorted_data: Hyndman & Fan's type 7).
 *
 * Thread-safety: plain data; one thread per struct workload.
 */
#ifndef SIZEUP_ADVISOR_WORKLOAD_H
#define SIZEUP_ADVISOR_WORKLOAD_H

#include "workmix.h"

#include <stddef.h>
#include <stdio.h>

#define WORKLOAD_SCHEMA "sizeup.workload/1"

/* On-disk bytes of one sysbench 1.0.20 row (id, k, c CHAR(120), pad CHAR(60), the k index) in
 * InnoDB with 16 KiB pages: data + index length / rows of a 200,000-row sbtest1 measured on
 * MariaDB 10.11 after ANALYZE TABLE (247 B). */
#define WORKLOAD_ROW_BYTES 247.0
/* Rows a suggested probe table holds at most (more tables are suggested instead). */
#define WORKLOAD_TABLE_ROWS_MAX 10000000L
/* The largest throughput a record may state, tps: a figure beyond any server is a broken file. */
#define WORKLOAD_TPS_MAX 1e9
/* rank --require: a mix that leaves more than this share of the statements unexplained is not
 * a mix of sysbench's workloads, and the curves cannot be compared with it; above the note
 * share the answer says how approximate it is. */
#define WORKLOAD_RESIDUAL_REFUSE 0.25
#define WORKLOAD_RESIDUAL_NOTE 0.10
/* A buffer-pool hit ratio at or above this says the working set fits in the pool. */
#define WORKLOAD_HIT_FITS 0.99

/* The counters' deltas over one interval, as read (the observer's own statements already
 * taken out); NAN where the server has no such counter. */
struct workload_delta {
    double seconds;
    double questions;    /* Questions */
    double selects;      /* Com_select */
    double select_range; /* Select_range */
    double scans;        /* Select_scan + Select_full_join, less one per observer statement */
    double inserts;      /* Com_insert + Com_insert_select + Com_replace + Com_replace_select */
    double updates;      /* Com_update + Com_update_multi */
    double deletes;      /* Com_delete + Com_delete_multi */
    double ends;         /* Com_commit + Com_rollback + Com_xa_commit + Com_xa_rollback */
    double aborted;      /* Innodb_deadlocks: transactions the engine rolled back; NAN: none */
    double engine_tx;    /* INNODB_METRICS trx_*_commits + trx_rollbacks; NAN: unreadable */
    double data_reads, data_writes, log_writes, data_fsyncs, log_fsyncs; /* Innodb_* */
    double bytes_read, bytes_written, log_bytes_written;                 /* Innodb_* */
    double bp_requests, bp_reads; /* Innodb_buffer_pool_read_requests, _reads */
};

/* Statistics over the counted intervals; NAN when there is none. */
struct workload_stat {
    double mean, p50, p95, p99, max;
};

struct workload_interval {
    double start_s, seconds; /* from the observation's start */
    char excluded[160];      /* "" counted; else why it is left out */
    double tps, qps;
    double rate[WM_N_CLASS]; /* statements/s by class */
    double mix_tps;          /* the interval's own mix: sysbench transactions/s */
    double sessions_mean, sessions_p95;
    int n_sessions; /* samples of Threads_running in the interval */
    struct workload_delta d;
};

struct workload_schema {
    char name[65];
    double bytes;
    long tables;
};

struct workload {
    /* who and when (the writer copies the strings) */
    char host[256], version[128], hostname[256], started[32], tps_rule[24];
    unsigned port;
    double interval_s, buffer_pool_bytes, page_bytes, buffer_pool_data_bytes;
    int complete;   /* 1: the observation ended as asked */
    char ended[32]; /* "duration", "interrupted", "server gone", "running" */
    struct workload_interval *iv;
    size_t n, cap;
    double *sessions; /* every Threads_running sample (less the observer) */
    size_t n_sessions, cap_sessions;
    struct workload_schema *schemas;
    size_t n_schemas;
    char **notes;
    size_t n_notes;
    double stmts[WM_N_CLASS]; /* statements of each class over the counted intervals */
    double aborted;           /* deadlock victims over the counted intervals (in stmts' ends) */
};

/** An empty record. */
void workload_init(struct workload *w);

/** Free what w owns; leaves it empty. */
void workload_destroy(struct workload *w);

/**
 * Append an interval computed from its counters' deltas d and its session samples (s, k of them,
 * taken by the caller into w->sessions already): tps by the rule in w->tps_rule ("innodb_metrics"
 * uses d->engine_tx; "status" workmix_tps_status), qps = Questions, the classes and their mix.
 * @param excluded  NULL, or why the interval is left out (its figures are then not computed)
 * @return 0, or -1 out of memory.
 */
int workload_add(struct workload *w, double start_s, const struct workload_delta *d,
                 const double *s, size_t k, const char *excluded);

/**
 * The share of the statements that ran in autocommit, over the whole observation so far, by
 * workmix_tps_status's rule on the counted intervals' totals: (tps_status - ends) / statements
 * (0 when no statement was counted). Taken over the totals, not per interval, because a
 * transaction open across an interval's end puts its statements in one interval and its COMMIT
 * in the next: per interval that would count its statements as autocommit ones.
 */
double workload_autocommit_share(const struct workload *w);

/**
 * Set every counted interval's tps under the "status" rule from the share so far: ends +
 * share x statements, so that the intervals add up to the totals' transactions. Call before
 * writing or summarising (workload_add sets a provisional figure from the share up to then).
 */
void workload_settle(struct workload *w);

/** Add a session sample (Threads_running less the observer). @return 0 or -1 (memory). */
int workload_add_session(struct workload *w, double running);

/** Add a note (copied). @return 0 or -1 (memory). */
int workload_note(struct workload *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The summary of a record, as written (docs/workload-record.md "summary", "mix", "probe"). */
struct workload_summary {
    size_t counted, excluded;
    double seconds, transactions, queries;
    double aborted; /* transactions InnoDB rolled back on a deadlock; NAN: no such counter */
    struct workload_stat tps, qps, mix_tps;
    double sessions_mean, sessions_p95, sessions_max;
    double rate[WM_N_CLASS]; /* mean statements/s by class over the counted time */
    struct workmix mix;      /* of the counted intervals' total statements */
    double weight[WM_N_WORKLOAD];
    double ios_per_tx, reads_per_tx, writes_per_tx, log_writes_per_tx, fsyncs_per_tx;
    double kib_read_per_tx, kib_written_per_tx, bp_hit_ratio;
    double data_bytes, working_set_bytes;
    long probe_tables, probe_table_size;
    const char *working_set_rule;
};

/** The summary of w (pure; no allocation beyond a scratch array freed before return).
 * @return 0, or -1 out of memory. */
int workload_summarise(const struct workload *w, struct workload_summary *s);

/**
 * Write w as one sizeup.workload/1 JSON document (pretty, two-space indent) to f.
 * @return 0, or -1 (memory or a write error).
 */
int workload_write(FILE *f, const struct workload *w, const char *sizeup_version);

/* What `rank --require` needs of a record. */
struct workload_req {
    char workload[WM_N_WORKLOAD][32]; /* the mix's workloads (weights > 0) */
    double weight[WM_N_WORKLOAD];
    size_t n;
    struct workload_stat mix_tps; /* sysbench transactions/s of the mix over the intervals */
    struct workload_stat tps;     /* the observed transactions/s (its tps rule) */
    double seconds;               /* counted time, s (NAN when the record does not say) */
    int complete;                 /* the record's "complete" (1 when absent) */
    char ended[32];               /* its "ended", or "" */
    long probe_tables, probe_table_size;
    double residual;
};

/**
 * Read a sizeup.workload/1 file for sizing.
 * @param path  the file
 * @param msg   on failure, "FILE:LINE:COL: $.path: what was expected" or "FILE: why" (cap)
 * @return 0, or -1 (a file that cannot be read, is not JSON, is another record such as
 *         sizeup.point/1, names an unknown schema version, or lacks a field).
 */
int workload_read(const char *path, struct workload_req *r, char *msg, size_t cap);

/** workload_read on text already in memory (len bytes, not NUL-terminated); name is the file
 * name for messages. Same returns. */
int workload_read_text(const char *name, const char *text, size_t len, struct workload_req *r,
                       char *msg, size_t cap);

/** The statistic named by stat ("mean", "p50", "p95", "p99", "max") of s into *out.
 * @return 0, or -1 for an unknown name. */
int workload_stat_get(const struct workload_stat *s, const char *stat, double *out);

#endif
