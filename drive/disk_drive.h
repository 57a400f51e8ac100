/*
 * disk_drive.h - drive `sizeup disk` against a folder on a disk (probes/disk.h, disk_dir.h): check
 * the folder, create DIR/sizeup-disk.<pid> and write the working set, run each test at each
 * queue depth, remove the folder. What a finished test and depth measured is handed to the
 * caller's hook (its table row, its record); the command line prints and records, the driver
 * never exits.
 *
 * Order: disk_drive_check, then disk_drive_prepare, then disk_drive_run, and disk_drive_end in
 * every case (after a failed or skipped step too). Progress and errors go to progress as
 * today's "sizeup: ..." lines.
 *
 * Thread-safety: one drive per thread; the stop flag (util/stopflag.h) is read, not installed.
 */
#ifndef SIZEUP_DRIVE_DISK_DRIVE_H
#define SIZEUP_DRIVE_DISK_DRIVE_H

#include "disk.h"
#include "disk_dir.h"
#include "drive_status.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The working folder of one run. */
struct disk_drive {
    struct disk_dir *d; /* owned (NULL until checked): path, fs_type, direct, direct_refused,
                         * direct_errno for the caller's messages; freed by disk_drive_end */
    uint64_t file_size; /* the working set, bytes */
    FILE *progress;     /* progress and errors (stderr) */
    int tty;            /* 1: progress is a terminal, live lines ("\r") are drawn */
};

/* What one test at one queue depth measured, for the hook. */
struct disk_drive_point {
    enum disk_test test;
    unsigned qd;                   /* queue depth = threads */
    uint32_t block_size;           /* bytes per I/O */
    const char *started;           /* UTC start, "YYYY-MM-DDTHH:MM:SSZ" */
    const struct disk_result *res; /* borrowed for the call */
};

/* The tests of disk_drive_run and their settings (as `sizeup disk` names them). */
struct disk_drive_opts {
    const int *tests; /* enum disk_test values, in order, n_tests of them */
    size_t n_tests;
    const unsigned *depths; /* queue depths, n_depths of them */
    size_t n_depths;
    uint32_t block_size;     /* random I/O and fsync writes, bytes */
    uint32_t seq_block_size; /* seqread and seqwrite, bytes */
    unsigned rwmixread;      /* randrw: percent of reads */
    enum disk_sync_mode sync_mode;
    double time_s, min_time_s, warmup_s, interval_s; /* s */
    double precision;                                /* relative 95 % half-width of IOPS */
    /* called after each test and depth: nonzero stops the run with DRIVE_FAIL (the hook said
     * why) */
    int (*point)(void *arg, const struct disk_drive_point *p);
    void *arg;
};

/**
 * Check DIR for a working set of file_size bytes (disk_dir_check): dd is set up here, dd->d
 * allocated.
 * @return DRIVE_OK, or DRIVE_FAIL with "sizeup: REASON" on progress (memory, DIR missing, not a
 *         folder, no permission, not enough space).
 */
enum drive_status disk_drive_check(struct disk_drive *dd, const char *dir, uint64_t file_size,
                                   FILE *progress);

/**
 * Create the working folder, open its file (O_DIRECT when direct; buffered when refused and
 * allow_buffered) and write the working set (progress drawn when tty).
 * @return DRIVE_OK; DRIVE_FAIL (said on progress); DRIVE_INTERRUPTED (the stop flag while
 *         writing, nothing said).
 */
enum drive_status disk_drive_prepare(struct disk_drive *dd, int direct, int allow_buffered,
                                     int tty);

/**
 * Run each test of o at each depth, in order ("sizeup: TEST at queue depth N ..." on progress),
 * each handed to o->point.
 * @return DRIVE_OK; DRIVE_FAIL (an I/O error, said on progress, or o->point refused);
 *         DRIVE_INTERRUPTED (the stop flag: the unfinished point is not handed on).
 */
enum drive_status disk_drive_run(struct disk_drive *dd, const struct disk_drive_opts *o);

/**
 * Remove what was created (file, folder) and free dd->d. Safe after any step or none.
 * @return DRIVE_OK, or DRIVE_FAIL with "sizeup: REASON" on progress (unlink or rmdir failed).
 */
enum drive_status disk_drive_end(struct disk_drive *dd);

#endif
