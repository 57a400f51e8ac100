/*
 * session.h - a probe session: what `sizeup probe` and a study do with one server, in-process.
 *
 *   probe_session_new()      options of one target and workload; --out opened for appending
 *   probe_session_open()     connect once: the server answers, its max_connections
 *   probe_session_check()    every table the workload touches is sizeup's (sbtables.h)
 *   probe_session_prepare()  / probe_session_cleanup(): the tables, never anyone else's
 *   probe_session_level()    one concurrency level: run it, print its sysbench-layout report,
 *                            append its point to --out (whole, util/append.h) and fsync; when
 *                            the level is flagged (stalled, reconnects, partial: curve.h does
 *                            not count it) wait for the server to answer again and measure it
 *                            again, up to `remeasure` times; every attempt's record is kept
 *   probe_session_free()
 *
 * The caller drives the levels (a list, or the auto ladder of advisor/ladder.h) and decides
 * what a level's status means for its exit status. No <mysql.h> type crosses this header.
 *
 * Signals: the caller's stop flag (cfg->stop, util/stopflag.h) ends the level being measured
 * after the events in flight (probe.h), and a wait for the server at once.
 *
 * Thread-safety: a session belongs to one thread.
 */
#ifndef SIZEUP_PROBES_SESSION_H
#define SIZEUP_PROBES_SESSION_H

#include "probe.h"
#include "slo.h"

#include <jansson.h>
#include <stddef.h>

/* What a session needs. Strings and cfg are borrowed for the session's life. */
struct probe_session_opts {
    const struct probe_config *cfg; /* connection, workload, run length, report streams, stop */
    const char *target;             /* the records' target (required) */
    const char *config;             /* the records' catalog configuration, or NULL */
    const char *tool;               /* the records' tool, e.g. "sizeup 0.1.0" */
    const char *out_path;           /* append one record per attempt here; NULL = none */
    const json_t *options;          /* the records' options object (copied into each); NULL */
    double give_up_s;               /* how long to wait for the server after a fault, s */
    unsigned remeasure;             /* times a flagged level is measured again (0..10) */
    struct slo latency;             /* the statistic a level reports for the ladder: pct 0 the
                                       mean, else that percentile (target_s not read) */
    int recheck_tables; /* 1: the tables are checked to be sizeup's (sbtables_check) before
                           every level and after one that ended well: a table that is not,
                           before, refuses the level (PROBE_LEVEL_REFUSED, nothing run); after,
                           flags its record tables_changed (PROBE_LEVEL_FATAL): the run stops,
                           msg names it. A level that did not end well (stalled, reconnects)
                           does not count and is measured again after the check before it */
};

/* How a level (all its attempts) ended. */
enum probe_level_status {
    PROBE_LEVEL_OK = 0,          /* its last point counts */
    PROBE_LEVEL_FLAGGED = 1,     /* still flagged after the re-measures: recorded, not counted */
    PROBE_LEVEL_INTERRUPTED = 2, /* the stop flag: recorded, marked interrupted */
    PROBE_LEVEL_UNREACHABLE = 3, /* the server did not answer again within give_up_s */
    PROBE_LEVEL_FATAL = 4,       /* a non-ignorable error (recorded, marked partial) */
    PROBE_LEVEL_REFUSED = 5,     /* connect or statement preparation refused (no record) */
    PROBE_LEVEL_FAILED = 6       /* setup or the record could not be written (msg says which) */
};

/* A level's outcome, for the caller's ladder and messages. */
struct probe_level {
    unsigned threads;
    enum probe_level_status status;
    unsigned attempts; /* levels run (1 + re-measures) */
    int counts;        /* 1: the last record counts (no fault flag, transactions > 0) */
    double tps;        /* of the last attempt (kept ticks when calibrated); NAN when none */
    double latency_ms; /* its latency_pct percentile (latency_avg: its mean), ms; NAN when
                        * no event */
    const char *flags; /* the last record's fault flags, e.g. "stalled,reconnects"; "" */
    /* the last attempt's figures, for a curve measured in passes (advisor/passes.h) */
    double ci95_tps; /* its within-run 95 % half-width (batch means), tps; NAN when none */
    double kept_s;   /* its kept (measured) time, s */
    double cost_s;   /* wall time of the attempt, connecting to the end, s */
    int steady;      /* 1: calibrated and the precision was reached before max_time */
    const struct point *record; /* its record as written (also without --out); valid until
                                 * the next level or probe_session_free(); NULL when none */
};

/* What one level may change of the session's configuration (probe_session_level_with). */
struct probe_level_opts {
    double max_time_s;      /* calibrated: this level's most length, s; 0 = cfg->max_time_s
                             * (kept above cfg->min_time_s) */
    const json_t *interval; /* copied into the record as extra.interval (how its interval was
                             * made, docs/point-record.md); NULL = none */
};

struct probe_session;

/**
 * A session. Nothing is sent to the server yet.
 * @param err  "cannot open --out FILE: reason" or "out of memory", cap bytes
 * @return the session, or NULL. Free with probe_session_free().
 */
struct probe_session *probe_session_new(const struct probe_session_opts *o, char *err, size_t cap);

/** Close --out and free. NULL-safe. */
void probe_session_free(struct probe_session *s);

/** The message of the last failure (never the password). */
const char *probe_session_msg(const struct probe_session *s);

/** The server's error of the last failure to connect (errnum 0 when none). */
const struct myconn_error *probe_session_error(const struct probe_session *s);

/**
 * Connect once and ask the server its max_connections.
 * @return 0, or -(myconn class) (-MYCONN_RECONNECT: unreachable); msg and error say why.
 */
int probe_session_open(struct probe_session *s);

/** The server's max_connections (0 when unknown: open() not called or it failed). */
unsigned probe_session_max_connections(const struct probe_session *s);

/** sbtables_check(): 0, SBTABLES_REFUSED or -(myconn class); msg says why. */
int probe_session_check(struct probe_session *s);

/** sbtables_prepare() over up to `threads` connections: 0, SBTABLES_REFUSED or -(class). */
int probe_session_prepare(struct probe_session *s, unsigned threads);

/** sbtables_cleanup(): 0, SBTABLES_REFUSED or -(class). */
int probe_session_cleanup(struct probe_session *s);

/**
 * Measure one level of `threads` workers (1..4096) as described at the top of this file.
 * @param lv  filled; lv->flags points into the session (valid until the next level)
 * @return lv->status.
 */
enum probe_level_status probe_session_level(struct probe_session *s, unsigned threads,
                                            struct probe_level *lv);

/**
 * probe_session_level() with a level's own limit and extra.interval (lo may be NULL: as
 * probe_session_level()).
 * @return lv->status.
 */
enum probe_level_status probe_session_level_with(struct probe_session *s, unsigned threads,
                                                 const struct probe_level_opts *lo,
                                                 struct probe_level *lv);

/**
 * Append a record the caller built (e.g. a level pooled over replicates) to --out with the
 * session's target, config, tool and options (when p has none), and fsync it; nothing when the
 * session has no --out.
 * @return 0, or -1 (msg says why: out of memory, the write failed).
 */
int probe_session_write(struct probe_session *s, const struct point *p);

/**
 * The probe's defaults, the one source for `sizeup probe` (its option table's defaults equal
 * these: test_cli_help compares them field by field through probe_config_json) and for the
 * drivers (a study's probes): sysbench 1.0.20's workload options (oltp_opts_default), a
 * calibrated level (precision 2 %, min 5 s, max 60 s; time_s 0), the 95th percentile, ids drawn
 * from sysbench's "special" distribution (12 iterations, 1 % hot range, 75 % of draws in it),
 * seed 0 (the time), errors 1213, 1020 and 1205 restarting the transaction, prepared statements
 * auto, connect 5 s, statements 10 s, give up after 30 s, no interval lines, closed loop.
 * Connection targets (host, port, user, ...) are left NULL/0: the option files' then.
 * @param cfg  filled whole (no pointer it holds needs freeing)
 */
void probe_config_defaults(struct probe_config *cfg);

/**
 * The options object of a record for a configuration: the workload and run options as given
 * (sysbench's names), never the password.
 * @return a new reference, or NULL when out of memory.
 */
json_t *probe_config_json(const struct probe_config *cfg);

#endif
