/*
 * srvstat.h - the database server's own counters around a level: what the server did per
 * transaction (physical reads and writes, fsyncs, bytes, buffer-pool misses, CPU seconds), the
 * demand a queueing model of the server needs to say what another disk or size would do.
 *
 * A snapshot is read on a connection of its own, opened and closed for the purpose (at most
 * SRVSTAT_TIMEOUT_S for the connection and for each statement), with
 * statements that need no privilege beyond USAGE and count in no Com_* but Com_show_*:
 *   - SHOW GLOBAL STATUS: the Innodb_* counters below, every Com_* and Handler_* counter and
 *     Innodb_rows_*;
 *   - SHOW GLOBAL VARIABLES WHERE Variable_name IN ('innodb_buffer_pool_size', 'pid_file',
 *     'hostname');
 *   - SHOW TABLE STATUS LIKE 'sbtest%' in the probe's database: data + index length.
 * The server's CPU time is read from /proc/PID/stat (utime + stime, USER_HZ ticks) only when the
 * server runs on this host: its hostname is this host's, its pid file is readable here and the
 * process it names is a mariadbd or mysqld. Otherwise the CPU figure is left out.
 *
 * The demand between two snapshots divides each counter's delta by the transactions the level
 * completed between them (MariaDB's counters: Innodb_data_reads/_writes are read and write
 * requests to the data files, _fsyncs their fsync() calls, Innodb_log_writes the redo log's
 * writes and Innodb_os_log_fsyncs its fsync() calls (MariaDB 10.8 and later have no such counter),
 * Innodb_data_read/_written and Innodb_os_log_written bytes, Innodb_buffer_pool_read_requests
 * logical page reads and Innodb_buffer_pool_reads those that went to disk; see the MariaDB
 * Knowledge Base, "InnoDB Status Variables"). The window covers the level's connection set-up and
 * wind-down too (no InnoDB I/O of their own) and the server's background work in that time
 * (page flushing of earlier levels' writes): the figures are the level's demand as the server
 * saw it, not an attribution per statement. Another client's load on the same server in the
 * window is counted too (the caller says so where it knows).
 *
 * A counter the server does not have (another MySQL-protocol engine) is not in the snapshot;
 * every figure that needs it is left out, never written as 0, and srvstat_missing() names it.
 *
 * Thread-safety: call from one thread; snapshots are plain data owned by the caller.
 */
#ifndef SIZEUP_PROBES_SRVSTAT_H
#define SIZEUP_PROBES_SRVSTAT_H

#include "mysql_conn.h"
#include "point.h"

#include <stddef.h>
#include <stdint.h>

/* Seconds a snapshot's connection and each of its statements may take: a frozen server gives
 * no snapshot rather than holding the probe. */
#define SRVSTAT_TIMEOUT_S 3

/* The fixed counters a snapshot keeps (order of srvstat_counter_names()). */
enum srvstat_counter {
    SRV_DATA_READS,
    SRV_DATA_WRITES,
    SRV_DATA_FSYNCS,
    SRV_LOG_FSYNCS,
    SRV_LOG_WRITES,
    SRV_DATA_READ,
    SRV_DATA_WRITTEN,
    SRV_LOG_WRITTEN,
    SRV_BP_READ_REQUESTS,
    SRV_BP_READS,
    SRV_N_COUNTERS
};

/* A named counter of the per-transaction map (Com_*, Handler_*, Innodb_rows_*). */
struct srvstat_named {
    char name[64];
    uint64_t value;
};

struct srvstat_snap {
    int ok;                             /* 1: read; 0: not (the other fields are absent) */
    double t_mono_s;                    /* CLOCK_MONOTONIC when the status was read, s */
    uint64_t v[SRV_N_COUNTERS];         /* the fixed counters */
    unsigned char have[SRV_N_COUNTERS]; /* 1: the server has the counter */
    struct srvstat_named *named;        /* Com_*, Handler_*, Innodb_rows_* (owned) */
    size_t n_named;
    double cpu_s;             /* the server process's user + system CPU, s; NAN: unknown */
    double buffer_pool_bytes; /* innodb_buffer_pool_size; NAN: unknown */
    double data_bytes;        /* data + index length of the sbtest tables; NAN: unknown */
    char cpu_why[160];        /* why cpu_s is unknown ("" when known) */
};

/** A status counter's text as uint64 into *out. @return 0, or -1 when it is not a plain
 *  decimal (empty, negative, beyond 2^64 - 1, trailing text). */
int srvstat_parse_u64(const char *v, uint64_t *out);

/** The SHOW GLOBAL STATUS name of each fixed counter ("Innodb_data_reads", ...). */
const char *srvstat_counter_name(enum srvstat_counter c);

/** Zero a snapshot (absent figures NAN). No allocation. */
void srvstat_init(struct srvstat_snap *s);

/** Free what a snapshot owns; leaves it initialised. NULL-safe. */
void srvstat_destroy(struct srvstat_snap *s);

/**
 * Read a snapshot (s initialised; its old contents are freed) on a new connection made with o.
 * @param with_sizes  1: also read the buffer pool size and the tables' size (the first snapshot
 *                    of a level); 0: the counters and the CPU only
 * @param err         why it failed (cap bytes), or ""
 * @return 0 (s->ok = 1), or -1 when the server could not be reached or refused SHOW GLOBAL
 *         STATUS (s->ok = 0, err says why). The sizes are best-effort: a refused SHOW TABLE
 *         STATUS or SHOW GLOBAL VARIABLES leaves them (and the CPU) unknown, not the counters.
 */
int srvstat_read(const struct myconn_opts *o, int with_sizes, struct srvstat_snap *s, char *err,
                 size_t cap);

/**
 * The demand per transaction between two snapshots into p's server block (docs/point-record.md
 * "The server block"): window_s, transactions, reads/writes/fsyncs/KiB per transaction,
 * ios_per_tx (data reads + data writes, + redo log writes where Innodb_data_writes leaves them
 * out: a server without Innodb_os_log_fsyncs, MariaDB 10.8 and later, whose redo log was
 * rewritten then; MySQL and older MariaDB count the log's writes in Innodb_data_writes, an
 * assumption from their source, and there the term is not added), the buffer-pool miss ratio (reads
 * / read requests; left out when no read request was made), cpu_s_per_tx (both snapshots' CPU
 * known), iops (ios_per_tx x tps), io_mb_s (bytes read + written x tps / 10^6), buffer_pool_mib and
 * data_mib (from a), per_tx (every named counter that moved), from "SHOW GLOBAL STATUS". A counter
 * that went backwards (the server restarted between the snapshots) gives no block at all.
 * @param transactions  transactions completed between the snapshots (> 0)
 * @param tps           the level's throughput, to turn per-transaction figures into rates
 * @return 1 when a block was written, 0 when none could be (a snapshot missing, no
 *         transaction, a counter reset), POINT_ENOMEM.
 */
int srvstat_demand(const struct srvstat_snap *a, const struct srvstat_snap *b,
                   uint64_t transactions, double tps, struct point *p);

/**
 * The fixed counters the snapshot lacks, as "Innodb_data_fsyncs, Innodb_os_log_fsyncs" into buf
 * ("" when it has them all). @return buf.
 */
const char *srvstat_missing(const struct srvstat_snap *s, char *buf, size_t cap);

#endif
