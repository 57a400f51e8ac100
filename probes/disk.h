/*
 * disk.h - the disk probe engine: one test (randread, randwrite, randrw, seqread, seqwrite,
 * fsync) at one queue depth on one open file, measured into the shared latency histogram.
 *
 * Queue depth = threads. Each of `iodepth` worker threads issues synchronous pread/pwrite
 * (and fdatasync/fsync) one at a time, so the device sees up to `iodepth` requests in flight.
 * This is fio's psync engine with numjobs = iodepth (and iodepth = 1 per job). Why threads
 * and not io_uring or libaio: portable to every POSIX system and file system, no extra
 * dependency (liburing is not installed on the build hosts), and it is how a database with a
 * pool of I/O threads (InnoDB's innodb_read_io_threads / page cleaners) or many sessions
 * committing at once loads the disk.
 *
 * What each test does (block = cfg->block_size bytes, offsets block-aligned):
 *   randread   pread of a uniformly random block of the file
 *   randwrite  pwrite of a uniformly random block
 *   randrw     per I/O, a read with probability rwmixread/100, else a write (fio --rwmixread)
 *   seqread    pread of the next block of one shared sequential stream (the threads take
 *              consecutive blocks from an atomic cursor; the stream wraps at the file's end)
 *   seqwrite   pwrite of the next block of the shared stream
 *   fsync      pwrite of the next block of the shared stream, then fdatasync (or fsync): one
 *              durable commit, the redo-log path; its latency is write + sync. The file was
 *              written whole before, so commits overwrite allocated blocks, as a database
 *              overwrites its preallocated, circular redo log.
 * Written data is random (xoshiro256** per thread, filled at start) and each write stamps a
 * fresh random word into every 4 KiB of its buffer, so compressing or deduplicating storage
 * cannot shrink it (the idea of fio's scramble_buffers).
 *
 * Latency: clock_now_ns() around each I/O (around write + sync for fsync), recorded in the
 * worker's own histogram; there is no target rate, so the closed loop has no coordinated
 * omission to correct. Time is cut into batches (disk_stop.h): warm-up batches are dropped,
 * the rest are merged into the result, and the run stops early when the batch-means interval
 * of IOPS is within the asked precision.
 *
 * Thread-safety: disk_run() creates and joins its own threads; concurrent disk_run() calls
 * on different files are independent.
 */
#ifndef SIZEUP_PROBES_DISK_H
#define SIZEUP_PROBES_DISK_H

#include "histogram.h"

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum disk_test {
    DISK_RANDREAD,
    DISK_RANDWRITE,
    DISK_RANDRW,
    DISK_SEQREAD,
    DISK_SEQWRITE,
    DISK_FSYNC,
    DISK_N_TESTS
};

enum disk_sync_mode { DISK_SYNC_FDATASYNC, DISK_SYNC_FSYNC };

/* Return codes of disk_run(). */
enum {
    DISK_OK = 0,
    DISK_EINVAL = -1, /* configuration out of range (msg says which value) */
    DISK_ENOMEM = -2, /* buffer, histogram or thread could not be allocated */
    DISK_EIO = -3,    /* an I/O or sync call failed (msg has the call, offset and strerror) */
    DISK_EINTR = -4   /* *cfg->stop became non-zero: the point is incomplete */
};

/* Progress of a running test, passed to the progress callback once per batch. */
struct disk_progress {
    double elapsed_s;    /* since the test started, warm-up included */
    double batch_iops;   /* IOPS of the batch just ended */
    int warmup;          /* 1 while the batch was cut as warm-up */
    size_t kept_batches; /* batches kept so far */
    double rel_ci95;     /* half-width / mean of the kept batches so far; NAN when < 2 */
};

struct disk_config {
    int fd;             /* open file, O_RDWR (with O_DIRECT when direct I/O) */
    uint64_t file_size; /* bytes of fd to use, >= block_size */
    enum disk_test test;
    unsigned iodepth;              /* worker threads, 1..1024 */
    uint32_t block_size;           /* bytes per I/O, > 0, a multiple of 512 */
    unsigned rwmixread;            /* randrw: percent of reads, 0..100 */
    enum disk_sync_mode sync_mode; /* fsync test: fdatasync (default) or fsync */
    uint64_t interval_ns;          /* batch length, > 0 */
    uint64_t warmup_ns;            /* batches starting before this are dropped */
    uint64_t min_time_ns;          /* measured time before the precision stop may end the run */
    uint64_t max_time_ns;          /* measured time at which the run ends, >= interval_ns */
    double precision;              /* relative 95 % half-width of IOPS to stop early, (0, 1] */
    uint64_t seed;                 /* seeds the per-thread random generators */
    const atomic_int *stop;        /* non-zero: stop (the stop flag, stopflag.h); polled once per
                                      batch; may be NULL */
    void (*progress)(void *arg, const struct disk_progress *p); /* may be NULL */
    void *progress_arg;
};

struct disk_result {
    struct hist hist;      /* latency of every I/O (commit for fsync) in kept batches */
    struct hist sync_hist; /* fsync test: latency of the sync call alone (fio's "sync" figure) */
    uint64_t ops;          /* I/Os (commits for fsync) in kept batches */
    uint64_t reads, writes, syncs;
    double duration_s; /* measured time: sum of the kept batches' lengths */
    double warmup_s;   /* time of the dropped batches */
    double iops;       /* ops / duration_s */
    double reads_ps, writes_ps, syncs_ps;
    double read_mib_s, written_mib_s; /* reads_ps * block / 2^20, writes_ps * block / 2^20 */
    double ci95_iops;                 /* batch-means half-width of iops; NAN when < 2 batches */
    int steady;                       /* 1 when ci95_iops / (mean of the batch IOPS) <= precision */
    size_t n_batches;                 /* kept batches */
    double *batch_iops;               /* their IOPS (malloc; freed by disk_result_destroy) */
    double *batch_end_s;              /* end of each kept batch, seconds since the test started */
    double client_cpu_s;              /* user + system CPU time of this process during the test */
    double wall_s;                    /* wall time of the whole test, warm-up included */
    char msg[320];                    /* error detail when disk_run() fails */
};

/** Test name as on the command line: "randread", ..., "fsync". NULL for an invalid value. */
const char *disk_test_name(enum disk_test t);

/** Workload name of its point records: "disk_randread", ..., "disk_fsync". */
const char *disk_test_workload(enum disk_test t);

/**
 * Parse a test name (as disk_test_name returns).
 * @return 0 and *out set, or -1 when the name is unknown.
 */
int disk_test_parse(const char *name, enum disk_test *out);

/** 1 when the test reads, 1 when it writes (randrw does both). */
int disk_test_reads(enum disk_test t);
int disk_test_writes(enum disk_test t);

/** Name of a sync mode: "fdatasync" or "fsync". */
const char *disk_sync_mode_name(enum disk_sync_mode m);

/** Set an embedded result empty (no batches, NAN figures). Pair with disk_result_destroy(). */
void disk_result_init(struct disk_result *r);

/** Free what a result owns; leaves it initialised. NULL-safe. */
void disk_result_destroy(struct disk_result *r);

/**
 * Run one test at one queue depth on cfg->fd and fill out (initialised; old contents
 * destroyed). Blocks until the run ends: after max_time_ns of measured time, earlier by the
 * precision stop (disk_stop.h), or at the first batch boundary after *cfg->stop
 * becomes non-zero. When no I/O has completed by max_time_ns (a device stalled for longer
 * than the run), it goes on until one does, at most 60 s longer. SIGINT and SIGTERM are blocked in
 * the worker threads, so the caller's thread receives them and its batch sleep is cut short.
 *
 * @return DISK_OK; DISK_EINVAL (out->msg names the bad value); DISK_ENOMEM; DISK_EIO (an I/O
 *         call failed or returned a short count; out->msg has "pread at offset N: strerror"; or
 *         no I/O completed even 60 s past max_time_ns);
 *         DISK_EINTR (interrupted; out holds what was measured, not a finished point).
 */
int disk_run(const struct disk_config *cfg, struct disk_result *out);

/**
 * Fill buf with bytes from a xoshiro256** generator seeded by seed (splitmix64), so written
 * data is neither zero nor compressible.
 */
void disk_fill_random(void *buf, size_t len, uint64_t seed);

#endif
