/*
 * disk_drive.c - `sizeup disk`'s working folder and its tests (disk_drive.h).
 */
#include "disk_drive.h"

#include "clock.h"
#include "stopflag.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum drive_status disk_drive_check(struct disk_drive *dd, const char *dir, uint64_t file_size,
                                   FILE *progress)
{
    memset(dd, 0, sizeof *dd);
    dd->file_size = file_size;
    dd->progress = progress;
    dd->d = malloc(sizeof *dd->d);
    if (!dd->d) {
        fprintf(progress, "sizeup: out of memory\n");
        return DRIVE_FAIL;
    }
    disk_dir_init(dd->d);
    if (disk_dir_check(dd->d, dir, file_size) != DISK_DIR_OK) {
        fprintf(progress, "sizeup: %s\n", dd->d->msg);
        return DRIVE_FAIL;
    }
    return DRIVE_OK;
}

/* The live line of a running test, on a terminal. */
struct progress_ctx {
    FILE *f;
    int tty;
    const char *test;
    unsigned qd;
};

/* disk_run's progress: the batch's IOPS and the interval so far, redrawn in place. */
static void on_progress(void *arg, const struct disk_progress *p)
{
    const struct progress_ctx *c = arg;
    if (!c->tty)
        return;
    fprintf(c->f, "\r  %s qd %u: %5.1f s %s%10.1f IOPS", c->test, c->qd, p->elapsed_s,
            p->warmup ? "(warm-up) " : "", p->batch_iops);
    if (!isnan(p->rel_ci95))
        fprintf(c->f, ", ci %.1f%%   ", 100.0 * p->rel_ci95);
    else
        fprintf(c->f, "             ");
    fflush(c->f);
}

/* disk_dir_fill's progress: the share written, redrawn in place. */
static void on_fill(void *arg, uint64_t done, uint64_t total)
{
    const struct progress_ctx *c = arg;
    if (c->tty)
        fprintf(c->f, "\rsizeup: writing the working set: %3.0f%%",
                100.0 * (double)done / (double)total);
}

enum drive_status disk_drive_prepare(struct disk_drive *dd, int direct, int allow_buffered, int tty)
{
    struct disk_dir *d = dd->d;
    struct progress_ctx pc = {dd->progress, tty, NULL, 0};
    int rc;
    dd->tty = tty;
    if (disk_dir_create(d, getpid()) != DISK_DIR_OK ||
        disk_dir_open(d, direct, allow_buffered) != DISK_DIR_OK) {
        fprintf(dd->progress, "sizeup: %s\n", d->msg);
        return DRIVE_FAIL;
    }
    fprintf(dd->progress, "sizeup: writing the %.1f MiB working set in %s\n",
            (double)dd->file_size / 1048576.0, d->path);
    rc = disk_dir_fill(d, dd->file_size, 1u << 20, clock_now_ns() ^ (uint64_t)getpid(),
                       stopflag_get(), on_fill, &pc);
    if (tty)
        fprintf(dd->progress, "\n");
    if (rc == DISK_DIR_EINTR)
        return DRIVE_INTERRUPTED;
    if (rc != DISK_DIR_OK) {
        fprintf(dd->progress, "sizeup: %s\n", d->msg);
        return DRIVE_FAIL;
    }
    return DRIVE_OK;
}

/* The block of a test: seqread and seqwrite have their own. */
static uint32_t test_block(const struct disk_drive_opts *o, enum disk_test t)
{
    return t == DISK_SEQREAD || t == DISK_SEQWRITE ? o->seq_block_size : o->block_size;
}

/* The UTC time now, "YYYY-MM-DDTHH:MM:SSZ". */
static void utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The i-th test at the j-th depth: run, handed to o->point. @return DRIVE_OK, DRIVE_FAIL (said)
 * or DRIVE_INTERRUPTED. */
static enum drive_status one_point(struct disk_drive *dd, const struct disk_drive_opts *o, size_t i,
                                   size_t j)
{
    enum disk_test t = (enum disk_test)o->tests[i];
    struct progress_ctx pc = {dd->progress, dd->tty, disk_test_name(t), o->depths[j]};
    struct disk_config cfg;
    struct disk_result res;
    struct disk_drive_point p;
    char started[32];
    int rc;
    memset(&cfg, 0, sizeof cfg);
    cfg.fd = dd->d->fd;
    cfg.file_size = dd->file_size;
    cfg.test = t;
    cfg.iodepth = pc.qd;
    cfg.block_size = test_block(o, t);
    cfg.rwmixread = o->rwmixread;
    cfg.sync_mode = o->sync_mode;
    cfg.interval_ns = (uint64_t)(o->interval_s * 1e9);
    cfg.warmup_ns = (uint64_t)(o->warmup_s * 1e9);
    cfg.min_time_ns = (uint64_t)(o->min_time_s * 1e9);
    cfg.max_time_ns = (uint64_t)(o->time_s * 1e9);
    cfg.precision = o->precision;
    cfg.seed = clock_now_ns() + i * 131 + j;
    cfg.stop = stopflag_get();
    cfg.progress = on_progress;
    cfg.progress_arg = &pc;

    fprintf(dd->progress, "sizeup: %s at queue depth %u ...\n", disk_test_name(t), pc.qd);
    utc_now(started, sizeof started);
    disk_result_init(&res);
    rc = disk_run(&cfg, &res);
    if (dd->tty)
        fprintf(dd->progress, "\n");
    if (rc == DISK_EINTR) {
        disk_result_destroy(&res);
        return DRIVE_INTERRUPTED;
    }
    if (rc != DISK_OK) {
        fprintf(dd->progress, "sizeup: %s at queue depth %u in %s: %s\n", disk_test_name(t), pc.qd,
                dd->d->path, res.msg);
        disk_result_destroy(&res);
        return DRIVE_FAIL;
    }
    p.test = t;
    p.qd = pc.qd;
    p.block_size = cfg.block_size;
    p.started = started;
    p.res = &res;
    rc = o->point ? o->point(o->arg, &p) : 0;
    disk_result_destroy(&res);
    return rc != 0 ? DRIVE_FAIL : DRIVE_OK;
}

enum drive_status disk_drive_run(struct disk_drive *dd, const struct disk_drive_opts *o)
{
    enum drive_status st = DRIVE_OK;
    for (size_t i = 0; i < o->n_tests && !stopflag_signal() && st == DRIVE_OK; i++)
        for (size_t j = 0; j < o->n_depths && !stopflag_signal(); j++) {
            st = one_point(dd, o, i, j);
            if (st == DRIVE_INTERRUPTED)
                st = DRIVE_OK; /* the next test is not started: the stop flag is up */
            if (st != DRIVE_OK)
                break;
        }
    if (st == DRIVE_OK && stopflag_signal())
        return DRIVE_INTERRUPTED;
    return st;
}

enum drive_status disk_drive_end(struct disk_drive *dd)
{
    enum drive_status st = DRIVE_OK;
    if (dd->d && disk_dir_remove(dd->d) != DISK_DIR_OK) {
        fprintf(dd->progress, "sizeup: %s\n", dd->d->msg);
        st = DRIVE_FAIL;
    }
    free(dd->d);
    dd->d = NULL;
    return st;
}
