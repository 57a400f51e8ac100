/*
 * test_disk_engine.c - probes/disk (engine) and probes/disk_dir on real files.
 *
 * Expected values come from the definitions in disk.h / disk_stop.h: counts add up (reads +
 * writes = I/Os; one sync per commit), MiB/s = IOPS x block / 2^20, the stop rule ends after
 * exactly DISK_STOP_MIN_BATCHES kept batches when any precision is accepted and at --time when
 * none is, the warm-up is the whole batches before --warmup, and the randrw mix is a binomial
 * draw with p = rwmixread / 100 (4 standard deviations: sqrt(n p (1 - p))).
 */
#include "check.h"
#include "disk.h"
#include "disk_dir.h"
#include "disk_stop.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MS UINT64_C(1000000)

static struct disk_config base_config(int fd, uint64_t size, enum disk_test t, unsigned qd)
{
    struct disk_config c;
    memset(&c, 0, sizeof c);
    c.fd = fd;
    c.file_size = size;
    c.test = t;
    c.iodepth = qd;
    c.block_size = 16384;
    c.rwmixread = 70;
    c.sync_mode = DISK_SYNC_FDATASYNC;
    c.interval_ns = 50 * MS;
    c.warmup_ns = 50 * MS;
    c.min_time_ns = 250 * MS;
    c.max_time_ns = 250 * MS;
    c.precision = 0.02;
    c.seed = 42;
    return c;
}

/*
 * The stop rule of disk_stop.h, checked on the batches a run kept: every batch lasts at least
 * one interval; the run ended at the first batch count n where the measured time reached
 * --time, or reached --min-time with a precise interval; and no earlier count met either
 * condition.
 */
static int rule_ends_at(const struct disk_result *r, const struct disk_config *c, size_t n)
{
    double measured = r->batch_end_s[n - 1] - r->warmup_s;
    int any_io = 0;
    for (size_t i = 0; i < n; i++)
        any_io |= r->batch_iops[i] > 0;
    /* at --time, provided an I/O completed (a stalled device gets up to 60 s more) */
    if (measured >= (double)c->max_time_ns / 1e9 - 1e-6 && any_io)
        return 1;
    return measured >= (double)c->min_time_ns / 1e9 - 1e-6 &&
           disk_stop_precise(r->batch_iops, n, c->precision);
}

static void check_stop_rule(const struct disk_result *r, const struct disk_config *c)
{
    double iv = (double)c->interval_ns / 1e9, prev = r->warmup_s;
    int lengths_ok = 1, early = 0;
    CHECK(r->n_batches >= 1);
    if (r->n_batches < 1)
        return;
    for (size_t i = 0; i < r->n_batches; i++) {
        if (r->batch_end_s[i] - prev < iv - 1e-6)
            lengths_ok = 0;
        prev = r->batch_end_s[i];
    }
    CHECK(lengths_ok);
    CHECK(r->warmup_s >= (double)c->warmup_ns / 1e9 - 1e-6);
    CHECK_NEAR(r->batch_end_s[r->n_batches - 1], r->warmup_s + r->duration_s, 1e-6);
    CHECK(rule_ends_at(r, c, r->n_batches));
    for (size_t n = 1; n < r->n_batches; n++)
        early |= rule_ends_at(r, c, n);
    CHECK(!early);
}

static void test_counts(int fd, uint64_t size)
{
    struct disk_result r;
    struct disk_config c = base_config(fd, size, DISK_RANDRW, 2);
    disk_result_init(&r);
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    CHECK(r.ops > 0);
    CHECK_INT_EQ(r.reads + r.writes, r.ops);
    CHECK_INT_EQ(r.syncs, 0);
    CHECK_INT_EQ(r.hist.count, r.ops);
    CHECK_NEAR_REL(r.iops, (double)r.ops / r.duration_s, 1e-12);
    CHECK_NEAR_REL(r.read_mib_s, r.reads_ps * 16384.0 / 1048576.0, 1e-12);
    CHECK_NEAR_REL(r.written_mib_s, r.writes_ps * 16384.0 / 1048576.0, 1e-12);
    {
        double n = (double)r.ops, frac = (double)r.reads / n;
        CHECK(fabs(frac - 0.7) <= 4.0 * sqrt(0.7 * 0.3 / n));
    }
    check_stop_rule(&r, &c);
    /* 250 ms measured in batches of >= 50 ms: at most 5 kept */
    CHECK(r.n_batches <= 5);
    CHECK(r.hist.min_ns <= r.hist.max_ns);

    c = base_config(fd, size, DISK_FSYNC, 1);
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    CHECK(r.ops > 0);
    CHECK_INT_EQ(r.writes, r.ops);
    CHECK_INT_EQ(r.syncs, r.ops);
    CHECK_INT_EQ(r.reads, 0);
    CHECK_NEAR_REL(r.syncs_ps, r.iops, 1e-12);

    c = base_config(fd, size, DISK_SEQREAD, 3);
    c.block_size = 1 << 20;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    CHECK_INT_EQ(r.reads, r.ops);
    CHECK_NEAR_REL(r.read_mib_s, r.iops, 1e-12); /* 1 MiB blocks: MiB/s = IOPS */
    disk_result_destroy(&r);
}

static void test_stop_rule(int fd, uint64_t size)
{
    struct disk_result r;
    struct disk_config c = base_config(fd, size, DISK_RANDREAD, 1);
    disk_result_init(&r);
    /* any precision accepted: stops as soon as the rule allows, after DISK_STOP_MIN_BATCHES */
    c.interval_ns = 20 * MS;
    c.warmup_ns = 40 * MS; /* 2 batches cut */
    c.min_time_ns = 20 * MS;
    c.max_time_ns = 2000 * MS;
    c.precision = 1.0;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    check_stop_rule(&r, &c);
    CHECK(r.n_batches >= DISK_STOP_MIN_BATCHES);
    CHECK(!isnan(r.ci95_iops));
    {
        /* steady is the precision condition on the kept batches (disk_stop.h) */
        double mean, half;
        CHECK_INT_EQ(disk_stop_ci95(r.batch_iops, r.n_batches, &mean, &half), 0);
        CHECK_NEAR(half, r.ci95_iops, 1e-9 * mean);
        CHECK_INT_EQ(r.steady, half / mean <= c.precision);
    }
    /* --min-time holds it longer: at least 190 ms measured */
    c.min_time_ns = 200 * MS;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    check_stop_rule(&r, &c);
    CHECK(r.duration_s >= 0.19);
    /* no precision reachable: runs to --time */
    c.min_time_ns = 20 * MS;
    c.max_time_ns = 300 * MS;
    c.precision = 1e-12;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    check_stop_rule(&r, &c);
    CHECK(r.duration_s >= 0.29);
    CHECK_INT_EQ(r.steady, 0);
    /* warm-up 0: nothing cut */
    c.warmup_ns = 0;
    c.max_time_ns = 200 * MS;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_OK);
    check_stop_rule(&r, &c);
    CHECK_NEAR(r.warmup_s, 0.0, 1e-12);
    disk_result_destroy(&r);
}

static void test_errors(int fd, uint64_t size, const char *path)
{
    struct disk_result r;
    struct disk_config c = base_config(fd, size, DISK_RANDREAD, 1);
    atomic_int stop = 1;
    int ro;
    disk_result_init(&r);
    c.block_size = 1000;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_EINVAL);
    CHECK(strstr(r.msg, "block_size") != NULL);
    c = base_config(fd, 8192, DISK_RANDREAD, 1);
    CHECK_INT_EQ(disk_run(&c, &r), DISK_EINVAL);
    CHECK(strstr(r.msg, "smaller than the block size") != NULL);
    c = base_config(fd, size, DISK_RANDREAD, 0);
    CHECK_INT_EQ(disk_run(&c, &r), DISK_EINVAL);
    /* interrupted: ends at the first batch boundary */
    c = base_config(fd, size, DISK_RANDREAD, 2);
    c.stop = &stop;
    c.max_time_ns = 10000 * MS;
    CHECK_INT_EQ(disk_run(&c, &r), DISK_EINTR);
    CHECK(r.wall_s < 1.0);
    /* a write on a read-only descriptor fails with the call, offset and reason */
    ro = open(path, O_RDONLY);
    CHECK(ro >= 0);
    c = base_config(ro, size, DISK_RANDWRITE, 2);
    CHECK_INT_EQ(disk_run(&c, &r), DISK_EIO);
    CHECK(strstr(r.msg, "pwrite at offset") != NULL);
    CHECK(strstr(r.msg, "Bad file descriptor") != NULL);
    close(ro);
    disk_result_destroy(&r);
}

static void test_random_fill(void)
{
    static unsigned char a[65536], b[65536];
    double sum = 0;
    size_t zeros = 0;
    disk_fill_random(a, sizeof a, 1);
    disk_fill_random(b, sizeof b, 2);
    CHECK(memcmp(a, b, sizeof a) != 0);
    for (size_t i = 0; i < sizeof a; i++) {
        sum += a[i];
        zeros += a[i] == 0;
    }
    /* uniform bytes: mean 127.5, sd 73.9 / sqrt(65536) = 0.29; zeros ~ 65536/256 = 256 */
    CHECK_NEAR(sum / (double)sizeof a, 127.5, 4 * 0.29);
    CHECK(zeros < 400);
}

int main(void)
{
    const char *build = getenv("SIZEUP_BUILD_DIR");
    const char *dirs[2];
    dirs[0] = "/dev/shm";
    dirs[1] = build ? build : ".";
    test_random_fill();
    for (int i = 0; i < 2; i++) {
        struct disk_dir d;
        uint64_t size = 4u << 20;
        disk_dir_init(&d);
        CHECK_INT_EQ(disk_dir_check(&d, dirs[i], size), DISK_DIR_OK);
        CHECK_INT_EQ(disk_dir_create(&d, getpid()), DISK_DIR_OK);
        /* a second object may not take the same folder */
        {
            struct disk_dir d2;
            disk_dir_init(&d2);
            CHECK_INT_EQ(disk_dir_check(&d2, dirs[i], size), DISK_DIR_OK);
            CHECK_INT_EQ(disk_dir_create(&d2, getpid()), DISK_DIR_EEXIST);
            CHECK(strstr(d2.msg, "was not created by this run") != NULL);
            CHECK_INT_EQ(disk_dir_remove(&d2), DISK_DIR_OK);
            CHECK(access(d.path, F_OK) == 0);
        }
        CHECK_INT_EQ(disk_dir_open(&d, 1, 1), DISK_DIR_OK);
        CHECK_INT_EQ(disk_dir_fill(&d, size, 1u << 20, 7, NULL, NULL, NULL), DISK_DIR_OK);
        {
            struct stat st;
            CHECK(stat(d.data, &st) == 0 && (uint64_t)st.st_size == size);
        }
        test_counts(d.fd, size);
        if (i == 0)
            test_stop_rule(d.fd, size);
        test_errors(d.fd, size, d.data);
        CHECK_INT_EQ(disk_dir_remove(&d), DISK_DIR_OK);
        CHECK(access(d.path, F_OK) != 0);
    }
    return check_report();
}
