/*
 * point.h - the sizeup.point/1 record: one measured point of one curve.
 *
 * A curve is all points with the same (target, workload).  Points travel as JSON
 * Lines: one object per line, each with "schema": "sizeup.point/1".  This module
 * holds the C form of the record, a writer that emits one whole line at a time,
 * and a strict reader.
 *
 * Absent values stay absent: reals are NAN when absent (test with isnan or
 * point_has_real), counts are POINT_NONE (-1) when absent, and the writer omits
 * both rather than writing 0.
 *
 * JSON layout (keys in the order the writer emits them; only schema, target,
 * workload, source and one of threads/nodes are required by the reader):
 *
 *   schema        "sizeup.point/1"
 *   target        string, what was measured ("idc-nvme", a host name, ...)
 *   config        string or null: catalog configuration id
 *   workload      sysbench name: oltp_read_write, fileio_rndrw, cpu, ...
 *   threads       integer > 0: client threads (or I/O queue depth for disk probes)
 *   nodes         integer > 0: server nodes, for scale-out curves
 *   rate          target rate, transactions per second (open loop), when set
 *   duration_s    measured time, seconds (after warmup_s)
 *   warmup_s      time cut as warm-up, seconds
 *   transactions, queries, reads, writes, other, errors, reconnects : counts
 *   tps, qps      per second
 *   reads_ps, writes_ps, other_ps, errors_ps, reconnects_ps : per second
 *   latency_ms    {"min","avg","max","sum","p50","p95","p99","p<any>"} milliseconds;
 *                 percentiles as "p" + %g of the percentile (p99.9 -> "p99.9")
 *   latency_overflows  count of latencies above the histogram's range, when known
 *   ci95_tps      half-width of the 95 % confidence interval of tps
 *   steady        bool
 *   incomplete    true when the run ended before its summary (killed, interrupted)
 *   flags         array of strings ("qps_below_tps", "interrupted", ...)
 *   io            {"reads_ps","writes_ps","fsyncs_ps","read_mib_s","written_mib_s"} (fileio, disk)
 *   server        the database server's demand per transaction (struct point_server below):
 *                 {"from", "window_s", "transactions", "ios_per_tx", "reads_per_tx", ...,
 *                 "per_tx": {"Com_select": 10.0, "Handler_read_key": ..., ...}}
 *   series        array of per-interval objects {"t","threads","tps","qps","reads_ps",
 *                 "writes_ps","other_ps","lat_ms","pct","errors_ps","reconnects_ps",
 *                 "read_mib_s","written_mib_s","fsyncs_ps"} (t in s from the start; absent
 *                 keys omitted), at most POINT_SERIES_MAX of them
 *   series_step   N >= 2 when each series entry summarises N reports (point_series_append)
 *   histogram     {"unit":"ms","buckets":[[value_ms,count],...]}
 *   latency_histogram  the exact latency histogram (hist_json.h): written by probes for parts,
 *                 read back losslessly, merged by merge.h
 *   client        a part measured by one of several load generators: {"index","count",
 *                 "threads" (its connections),"start_at" (the agreed start, RFC 3339),
 *                 "started_unix_s","ended_unix_s" (its window, wall clock)}
 *   tool          "sysbench 1.0.20", "sizeup 0.1.0", ...
 *   server_version, client_cpu_s, started_at (RFC 3339 UTC)
 *   options       object: the probe or run options, as given
 *   extra         object: anything else (unknown CSV columns, fileio/memory figures)
 *   basis         "measured" (the default when absent) or "predicted": a point `sizeup
 *                 predict` computed for a configuration that was not measured
 *   predicted_from  array of configuration ids the prediction used (required with
 *                 "predicted", refused without)
 *   source        {"kind": "probe"|"sysbench-log"|"table"|"prediction"|"tool-output", "file",
 * "line"}
 *
 * Thread-safety: functions touch only the objects passed to them.
 *
 * This header fronts point.c (the record in memory, its checks and lists), point_read.c (reading
 * JSON Lines: point_reader_new/next/free, point_parse_line, point_from_json,
 * point_looks_like_jsonl) and point_write.c (point_to_json, point_json_string, point_write).
 */
#ifndef SIZEUP_RECORDS_POINT_H
#define SIZEUP_RECORDS_POINT_H

#include "histogram.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define POINT_SCHEMA "sizeup.point/1"
/* Value of an absent count. */
#define POINT_NONE ((int64_t)-1)
/* Longest workload name, bytes: every importer refuses a longer one at its file and line
 * (issue 27.6: a 64-byte name was fitted but truncated by the ranking into a name no point
 * had). sysbench's longest is 21. */
#define POINT_WORKLOAD_MAX 63
/* Most percentiles one point carries. */
#define POINT_MAX_PCT 8

/* Error returns. */
enum {
    POINT_OK = 0,
    POINT_EINVAL = -1, /* a value out of range or a required value missing */
    POINT_ENOMEM = -2, /* allocation failed */
    POINT_EIO = -3,    /* read or write failed (errno kept in the message) */
    POINT_EPARSE = -4, /* input is not a valid sizeup.point/1 record */
    POINT_ESCHEMA = -5 /* schema missing or of an unknown version */
};

/* Error detail: message names file, line (and column for JSON) where input was at fault. */
struct point_error {
    char msg[320];
};

enum point_source_kind {
    POINT_SRC_PROBE,
    POINT_SRC_SYSBENCH_LOG,
    POINT_SRC_TABLE,
    POINT_SRC_PREDICTION, /* computed by sizeup predict (file: the first points file used) */
    POINT_SRC_TOOL /* another tool's output (pgbench, BenchBase, HammerDB, go-tpc): see tool */
};

struct point_latency {
    double min, avg, max, sum; /* ms; NAN when absent */
    size_t n_pct;
    double pct[POINT_MAX_PCT];    /* percentile, e.g. 95 or 99.9 */
    double pct_ms[POINT_MAX_PCT]; /* its value, ms */
};

/* One intermediate report line ([ Ns ] in sysbench). Absent values: NAN / 0 threads. */
struct point_interval {
    double t_s; /* seconds since start, end of the interval */
    int threads;
    double tps, qps, reads_ps, writes_ps, other_ps;
    double lat_ms; /* latency percentile of the interval, ms */
    double pct;    /* which percentile lat_ms is */
    double errors_ps, reconnects_ps;
    double read_mib_s, written_mib_s, fsyncs_ps; /* fileio / disk intervals */
};

struct point_bucket {
    double value_ms;
    uint64_t count;
};

struct point_io {
    double reads_ps, writes_ps, fsyncs_ps; /* operations per second */
    double read_mib_s, written_mib_s;      /* MiB (2^20 bytes) per second */
};

/*
 * The `server` block: what the database server did per transaction over a level, from its own
 * counters (a probe reads SHOW GLOBAL STATUS before and after the level: the deltas divided by
 * the transactions the level completed between the two reads) or from a table's I/O columns
 * (iops_avg, iops_max, bw_mbps, divided by the row's tps). Every figure is >= 0; NAN = absent
 * (a counter the server does not have is left out, never 0). docs/point-record.md "The server
 * block" gives each key's counter.
 */
enum point_server_field {
    PSRV_WINDOW_S,           /* s between the two reads of the counters */
    PSRV_TRANSACTIONS,       /* transactions the level completed between them */
    PSRV_IOS_PER_TX,         /* physical I/Os per transaction: data reads + data writes + redo
                              * log writes (a table: its IOPS column / tps) */
    PSRV_READS_PER_TX,       /* Innodb_data_reads */
    PSRV_WRITES_PER_TX,      /* Innodb_data_writes */
    PSRV_DATA_FSYNCS_PER_TX, /* Innodb_data_fsyncs */
    PSRV_LOG_FSYNCS_PER_TX,  /* Innodb_os_log_fsyncs */
    PSRV_LOG_WRITES_PER_TX,  /* Innodb_log_writes (redo log writes) */
    PSRV_READ_KIB_PER_TX,    /* Innodb_data_read, KiB */
    PSRV_WRITTEN_KIB_PER_TX, /* Innodb_data_written, KiB */
    PSRV_LOG_KIB_PER_TX,     /* Innodb_os_log_written, KiB */
    PSRV_BP_REQUESTS_PER_TX, /* Innodb_buffer_pool_read_requests (logical page reads) */
    PSRV_BP_READS_PER_TX,    /* Innodb_buffer_pool_reads (pages read from disk) */
    PSRV_BP_MISS_RATIO,      /* bp reads / bp read requests, 0..1 */
    PSRV_CPU_S_PER_TX,       /* the server process's CPU seconds (user + system) */
    PSRV_IOPS,               /* physical I/Os per second over the window (a table: its avg) */
    PSRV_IOPS_MAX,           /* a table's peak IOPS column */
    PSRV_IO_MB_S,            /* MB/s (10^6 bytes) read + written (a table: as it gives it) */
    PSRV_BUFFER_POOL_MIB,    /* innodb_buffer_pool_size, MiB */
    PSRV_DATA_MIB,           /* data + index length of the probe's tables, MiB */
    PSRV_N
};

struct point_server {
    double v[PSRV_N]; /* NAN = absent */
    json_t *per_tx;   /* {"Com_select": 10.0, "Handler_write": ...}: counters per transaction
                       * (owned reference or NULL) */
    char *from;       /* where the figures come from, e.g. "SHOW GLOBAL STATUS" (owned) */
};

/* JSON key of each field, in enum order. */
extern const char *const point_server_keys[PSRV_N];

/* The `client` object of a part (count POINT_NONE when the point is not one). */
struct point_client {
    int64_t index, count, threads;
    char *start_at;                      /* owned; NULL when absent */
    double started_unix_s, ended_unix_s; /* NAN when absent */
};

struct point {
    char *target;   /* required */
    char *config;   /* NULL when not joined to a catalog configuration */
    char *workload; /* required */
    int64_t threads, nodes;
    double rate;
    double duration_s, warmup_s;
    int64_t transactions, queries, reads, writes, other, errors, reconnects;
    double tps, qps, reads_ps, writes_ps, other_ps, errors_ps, reconnects_ps;
    struct point_latency latency_ms;
    int64_t latency_overflows;
    double ci95_tps;
    int steady;     /* -1 absent, 0 false, 1 true */
    int incomplete; /* 0 or 1 */
    char **flags;
    size_t n_flags;
    struct point_io io;
    struct point_server server;
    struct point_interval *series;
    size_t n_series, cap_series;
    size_t series_step; /* 0 or 1: one entry per report; N > 1: each entry summarises N reports
                           (the last one series_fill of them): see point_series_append */
    size_t series_fill; /* reports in the last entry while series_step > 1 */
    struct point_bucket *histogram;
    size_t n_hist, cap_hist;
    struct hist *latency_hist;  /* latency_histogram, exact (owned); NULL when absent */
    struct point_client client; /* a part of a multi-client point; client.count POINT_NONE */
    char *tool;
    char *server_version;
    double client_cpu_s;
    char *started_at;
    json_t *options;       /* owned reference or NULL */
    json_t *extra;         /* owned reference or NULL */
    int predicted;         /* 1: "basis": "predicted" (not a measurement); 0: measured */
    char **predicted_from; /* configuration ids a predicted point came from; owned */
    size_t n_predicted_from;
    enum point_source_kind source_kind;
    char *source_file;
    long source_line; /* 1-based line in source_file; 0 when none */
};

/**
 * Set every field of an embedded point to "absent" (NAN, POINT_NONE, NULL).
 * Never fails. Pair with point_destroy().
 */
void point_init(struct point *p);

/** Free what an embedded point owns and leave it initialised (absent). NULL-safe. */
void point_destroy(struct point *p);

/** Heap point, initialised. Returns NULL when out of memory. Free with point_free(). */
struct point *point_new(void);

/** Free a heap point and what it owns. NULL-safe. */
void point_free(struct point *p);

/** 1 when the point carries a server block (any figure or per_tx counter), else 0. */
int point_has_server(const struct point *p);

/* extra.interval.method of a level record: a record that pools the replicates of one level
 * (advisor/passes.h writes it). The one place the rule lives. */
#define POINT_LEVEL_METHOD "replicates"

/** 1 when extra (a point's "extra" object, or NULL) marks a level record: interval.method is
 *  POINT_LEVEL_METHOD; a level record replaces the replicates it pools. */
int point_extra_is_level_record(const json_t *extra);

/** point_extra_is_level_record of p's extra. */
int point_is_level_record(const struct point *p);

/** The list of replicates a level record pools (extra.interval.pooled, borrowed), or NULL when
 *  p is no level record or has no list. */
json_t *point_level_pooled(const struct point *p);

/**
 * Pool the server blocks of n replicates of one level into out's (replaced): over the
 * replicates that have a block with transactions > 0, transactions and window_s are summed,
 * every per-transaction figure and per_tx counter is their mean weighted by transactions (the
 * whole level's delta / its transactions), bp_miss_ratio is bp_reads / bp_requests of the
 * pool, iops and io_mb_s the transactions-weighted mean of the replicates' rates,
 * buffer_pool_mib and data_mib the last replicate's, from the first's. No replicate with a
 * block: out has none.
 * @return POINT_OK or POINT_ENOMEM (out's block then cleared).
 */
int point_server_pool(struct point *out, const struct point *const *reps, size_t n);

/**
 * Deep copy src into dst (dst must be initialised; its old contents are destroyed).
 * @return POINT_OK or POINT_ENOMEM (dst then left initialised, absent).
 */
int point_copy(struct point *dst, const struct point *src);

/**
 * Replace a string field with a copy of s (NULL clears it); the old value is freed.
 * @return POINT_OK or POINT_ENOMEM (field unchanged).
 */
int point_set_str(char **field, const char *s);

/** Append a flag string (copied) unless already present. @return POINT_OK or POINT_ENOMEM. */
int point_add_flag(struct point *p, const char *flag);

/**
 * Append a configuration id (copied) to p's predicted_from, unless already there.
 * @return POINT_OK or POINT_ENOMEM.
 */
int point_add_predicted_from(struct point *p, const char *config);

/** 1 when flag is among p's flags, else 0. */
int point_has_flag(const struct point *p, const char *flag);

/**
 * Set the latency percentile pct (0 < pct <= 100) to value_ms (>= 0), replacing an existing
 * value for the same percentile.
 * @return POINT_OK, POINT_EINVAL (pct or value out of range, or POINT_MAX_PCT reached).
 */
int point_set_percentile(struct point *p, double pct, double value_ms);

/** Latency percentile pct in ms, or NAN when the point does not carry it. */
double point_percentile(const struct point *p, double pct);

/* Where point_latency_pct found a percentile. */
enum point_pct_source {
    POINT_PCT_NONE = 0,   /* nowhere: NAN */
    POINT_PCT_REPORTED,   /* latency_ms.pNN as the tool reported it */
    POINT_PCT_HIST_EXACT, /* the exact latency_histogram (hist_percentile: nearest rank) */
    POINT_PCT_HISTOGRAM   /* the histogram table (sysbench --histogram) by sysbench's rule */
};

/**
 * Latency percentile pct (in (0, 100]) of p, ms: the one reported; else from its exact
 * latency_histogram (hist_percentile, nearest rank, within the histogram's 1 % buckets); else
 * from its histogram table by sysbench's own rule (src/sb_histogram.c, docs/reference/sysbench.md
 * section 5: with N events, nmax = floor(N pct / 100 + 0.5); the value of the first bucket, in
 * ascending order, at which the cumulative count reaches nmax), which gives what sysbench
 * itself would have printed with --percentile=pct. NAN when none of them is there.
 * @param src  where it came from; may be NULL
 */
double point_latency_pct(const struct point *p, double pct, enum point_pct_source *src);

/* Most entries a series keeps (issue 27.12: one run of 1.45 M intermediate reports imported in
 * 2.9 GB and wrote a 253 MB line no reader takes). */
#define POINT_SERIES_MAX 4096

/**
 * Append one interval (copied). The series stays bounded: when it holds POINT_SERIES_MAX
 * entries, each two neighbours become one (series_step doubles: every entry then summarises
 * that many consecutive reports, and a new report joins the last entry until it is full), and
 * the point is flagged series_summarised. An entry that summarises reports has the mean of their
 * rates (reports of one run are of equal length), the largest of their latency percentiles (an
 * upper bound of each report's), the last one's threads and end time.
 * @return POINT_OK or POINT_ENOMEM.
 */
int point_series_append(struct point *p, const struct point_interval *iv);

/** A point_interval with every value absent (NAN, threads 0). */
struct point_interval point_interval_none(void);

/** Append one histogram bucket (value in ms, count). @return POINT_OK or POINT_ENOMEM. */
int point_hist_append(struct point *p, double value_ms, uint64_t count);

/**
 * A JSON string for s (new reference, NULL when out of memory). Text that is not valid UTF-8 (a
 * Latin-1 file name, stray bytes in a log) gets each byte outside printable ASCII replaced by
 * '?', so a record is always valid JSON.
 */
json_t *point_json_string(const char *s);

/** Name of a source kind: "probe", "sysbench-log", "table", "prediction", "tool-output". */
const char *point_source_kind_name(enum point_source_kind k);

/**
 * Build the JSON object of a point.
 * @return a new reference, or NULL with err->msg set when a required field (target, workload,
 *         threads or nodes) is missing (POINT_EINVAL) or memory ran out.
 */
json_t *point_to_json(const struct point *p, struct point_error *err);

/**
 * Write one point as one JSON line ("...}\n") to f. The line is built in memory first, f is
 * flushed, and the line goes to f's file descriptor in one write (util/append.h): when the write
 * fails part way (a full disk, a file size limit), a regular file is truncated back to its
 * length before the call, so the file never holds half a record and the next append starts on
 * a fresh line. A failed conversion writes nothing.
 * @return POINT_OK, POINT_EINVAL (missing required field), POINT_ENOMEM, POINT_EIO
 *         (write or flush failed; err->msg has strerror; the file is as it was).
 */
int point_write(FILE *f, const struct point *p, struct point_error *err);

/**
 * Fill out (initialised; old contents destroyed) from a JSON object. file and line name the
 * object's place in error messages (file may be NULL).
 * @return POINT_OK, POINT_ESCHEMA (schema missing or not sizeup.point/1), POINT_EPARSE (missing
 *         required key, wrong type or value out of range; err->msg names the key), POINT_ENOMEM.
 *         On error out is left initialised (absent).
 */
int point_from_json(const json_t *obj, struct point *out, const char *file, long line,
                    struct point_error *err);

/*
 * Strict JSON Lines reader.  Blank lines are skipped; every other line must be one
 * sizeup.point/1 object with only the keys listed at the top of this file (a misspelt key is
 * an error, not a silently lost value).  A UTF-8 byte order mark before the first line is
 * skipped.
 */
struct point_reader;

/**
 * Open a reader over a stream (not closed by the reader) named name in messages.
 * @return a reader, or NULL when out of memory. Free with point_reader_free().
 */
struct point_reader *point_reader_new(FILE *f, const char *name);

/** Free a reader (not its stream). NULL-safe. */
void point_reader_free(struct point_reader *r);

/**
 * Read the next point into out (initialised; old contents destroyed).
 * @return 1 when a point was read, 0 at end of input, or a negative POINT_E* code with
 *         err->msg naming file, line and column (POINT_EPARSE for invalid JSON).
 */
int point_reader_next(struct point_reader *r, struct point *out, struct point_error *err);

/**
 * Parse one line of JSON Lines (len bytes, need not be NUL-terminated) into out (initialised;
 * old contents destroyed). name and line place it in messages; a UTF-8 byte order mark is
 * skipped on line 1.
 * @return 1 (a point), 0 (a blank line: nothing), or a negative POINT_E* code with err->msg
 *         naming file, line and column.
 */
int point_parse_line(const char *text, size_t len, const char *name, long line, struct point *out,
                     struct point_error *err);

/**
 * 1 when the first non-blank line of the buffer looks like a sizeup.point record
 * (a JSON object containing "schema":"sizeup.point/"), else 0. Used for format detection.
 */
int point_looks_like_jsonl(const char *buf, size_t len);

/* A growable array of points. */
struct point_list {
    struct point *items;
    size_t n, cap;
};

/** Set an embedded list empty. Never fails. */
void point_list_init(struct point_list *l);

/** Destroy every point and free the array; the list is left empty. NULL-safe. */
void point_list_destroy(struct point_list *l);

/**
 * Append a new initialised point and return it (owned by the list; valid until the next
 * append), or NULL when out of memory.
 */
struct point *point_list_push(struct point_list *l);

/** Destroy and remove the points from index n on (n <= l->n). */
void point_list_truncate(struct point_list *l, size_t n);

#endif
