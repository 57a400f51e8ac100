/*
 * test_disk_cli.c - `sizeup disk` end to end on real directories: the disk the tests run on
 * (a folder under the build tree), tmpfs (/dev/shm), and, when this process may mount file
 * systems (root with CAP_SYS_ADMIN), ramfs (refuses O_DIRECT), a 1 MiB tmpfs (no space) and a
 * read-only bind mount.
 *
 * Expected values are the definitions of the record (point.h, disk_report.h): tps =
 * transactions / duration_s, MiB/s = ops/s x block / 2^20, latency min <= p50 <= p95 <= p99
 * <= max, one record per test and depth in the order asked; and the contract of the working
 * folder (disk_dir.h): DIR/sizeup-disk.<pid> is gone after the run, after an error and after
 * SIGINT (exit 130), and a folder of that name made by someone else is left alone.
 */
#include "check.h"
#include "point.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *bin;
static char work[256]; /* scratch folder under the build tree */

struct proc {
    pid_t pid;
    char out[600], err[600];
};

/* Start sizeup with argv (argv[0] ignored); stdout/stderr to files. as_uid >= 0: drop to it. */
static int spawn(struct proc *p, char *const argv[], long as_uid, const char *pre_mkdir_parent)
{
    static int n;
    snprintf(p->out, sizeof p->out, "%s/run%d.out", work, n);
    snprintf(p->err, sizeof p->err, "%s/run%d.err", work, n++);
    p->pid = fork();
    if (p->pid < 0)
        return -1;
    if (p->pid == 0) {
        int fo = open(p->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(p->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char **args = (char **)argv;
        if (fo < 0 || fe < 0)
            _exit(126);
        dup2(fo, 1);
        dup2(fe, 2);
        if (pre_mkdir_parent) {
            /* someone else's folder with the very name sizeup will want: ours after exec */
            char path[700], keep[720];
            snprintf(path, sizeof path, "%s/sizeup-disk.%ld", pre_mkdir_parent, (long)getpid());
            snprintf(keep, sizeof keep, "%s/keep", path);
            if (mkdir(path, 0700) != 0 || close(open(keep, O_WRONLY | O_CREAT, 0600)) != 0)
                _exit(125);
        }
        if (as_uid >= 0 && (setgid((gid_t)as_uid) != 0 || setuid((uid_t)as_uid) != 0))
            _exit(124);
        args[0] = (char *)bin;
        execv(bin, args);
        _exit(127);
    }
    return 0;
}

static int wait_status(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int run(struct proc *p, char *const argv[])
{
    if (spawn(p, argv, -1, NULL) != 0)
        return -1;
    return wait_status(p->pid);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc((size_t)n + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = '\0';
    fclose(f);
    return buf;
}

static int file_has(const char *path, const char *text)
{
    char *s = slurp(path);
    int r = s && strstr(s, text) != NULL;
    if (!r)
        fprintf(stderr, "    %s lacks \"%s\"; it holds:\n%s\n", path, text, s ? s : "");
    free(s);
    return r;
}

/* file_has without the complaint: for polling a file that is still being written. */
static int err_has(const char *path, const char *text)
{
    char *s = slurp(path);
    int r = s && strstr(s, text) != NULL;
    free(s);
    return r;
}

/* 1 when DIR/sizeup-disk.<pid> does not exist. */
static int folder_gone(const char *dir, pid_t pid)
{
    char path[700];
    snprintf(path, sizeof path, "%s/sizeup-disk.%ld", dir, (long)pid);
    return access(path, F_OK) != 0 && errno == ENOENT;
}

static size_t count_lines(const char *path)
{
    char *s = slurp(path);
    size_t n = 0;
    for (char *c = s; c && *c; c++)
        n += *c == '\n';
    free(s);
    return n;
}

static const char *const all_tests[6] = {"randread", "randwrite", "randrw",
                                         "seqread",  "seqwrite",  "fsync"};

/* Read the records and check each against the definitions; expect n_tests x 2 depths. */
static void check_records(const char *path, size_t n_expected, int expect_direct)
{
    FILE *f = fopen(path, "r");
    struct point_reader *r;
    struct point p;
    struct point_error err;
    size_t n = 0;
    int rc;
    CHECK(f != NULL);
    if (!f)
        return;
    r = point_reader_new(f, path);
    point_init(&p);
    while ((rc = point_reader_next(r, &p, &err)) == 1) {
        char want[64];
        const char *test = all_tests[(n / 2) % 6];
        double bs, mib = 1048576.0;
        json_t *o = p.options;
        snprintf(want, sizeof want, "disk_%s", test);
        CHECK_STR_EQ(p.workload, want);
        CHECK_STR_EQ(p.target, "test-host");
        CHECK_INT_EQ(p.threads, n % 2 == 0 ? 1 : 2);
        CHECK_INT_EQ(p.source_kind, POINT_SRC_PROBE);
        CHECK(p.tool && strncmp(p.tool, "sizeup ", 7) == 0);
        CHECK(p.started_at && strlen(p.started_at) == 20);
        CHECK(p.transactions > 0 && p.tps > 0 && p.duration_s > 0);
        CHECK_NEAR_REL(p.tps, (double)p.transactions / p.duration_s, 1e-6);
        CHECK(o && json_is_integer(json_object_get(o, "block_size")));
        bs = (double)json_integer_value(json_object_get(o, "block_size"));
        CHECK_NEAR(bs, strncmp(test, "seq", 3) == 0 ? 1048576.0 : 16384.0, 0);
        CHECK_NEAR_REL(p.io.read_mib_s, p.io.reads_ps * bs / mib, 1e-6);
        CHECK_NEAR_REL(p.io.written_mib_s, p.io.writes_ps * bs / mib, 1e-6);
        CHECK_NEAR_REL((p.io.reads_ps + p.io.writes_ps) * bs / mib, p.tps * bs / mib, 1e-6);
        CHECK_INT_EQ(p.reads + p.writes, p.transactions);
        if (strcmp(test, "fsync") == 0) {
            /* each commit's latency includes its sync's: every quantile is ordered so */
            json_t *sl = p.extra ? json_object_get(p.extra, "sync_latency_ms") : NULL;
            CHECK(sl != NULL);
            CHECK(json_real_value(json_object_get(sl, "p50")) <= point_percentile(&p, 50));
            CHECK(json_real_value(json_object_get(sl, "p99")) <= point_percentile(&p, 99));
            CHECK(json_real_value(json_object_get(sl, "min")) <= p.latency_ms.min);
            CHECK_INT_EQ(p.other, p.writes);
            CHECK_NEAR_REL(p.io.fsyncs_ps, p.tps, 1e-6);
        } else {
            CHECK_INT_EQ(p.other, 0);
        }
        if (strstr(test, "read") && !strstr(test, "rw"))
            CHECK_INT_EQ(p.writes, 0);
        if (strstr(test, "write") || strcmp(test, "fsync") == 0)
            CHECK_INT_EQ(p.reads, 0);
        {
            double p50 = point_percentile(&p, 50), p95 = point_percentile(&p, 95),
                   p99 = point_percentile(&p, 99);
            CHECK(p.latency_ms.min > 0);
            CHECK(p.latency_ms.min <= p50 && p50 <= p95 && p95 <= p99 && p99 <= p.latency_ms.max);
            CHECK(p.latency_ms.min <= p.latency_ms.avg && p.latency_ms.avg <= p.latency_ms.max);
        }
        CHECK_INT_EQ(p.latency_overflows, 0);
        CHECK(p.n_series >= 1);
        /* the interval needs two batches (a busy machine may stretch one batch over --time) */
        if (p.n_series >= 2) {
            CHECK(p.steady == 0 || p.steady == 1);
            CHECK(!isnan(p.ci95_tps));
        } else {
            CHECK(p.steady == -1);
            CHECK(isnan(p.ci95_tps));
        }
        /* direct I/O as the record says: flag and option agree */
        CHECK_INT_EQ(json_is_true(json_object_get(o, "direct")), !point_has_flag(&p, "buffered"));
        if (expect_direct >= 0)
            CHECK_INT_EQ(json_is_true(json_object_get(o, "direct")), expect_direct);
        CHECK_INT_EQ(json_is_true(json_object_get(o, "direct_refused")),
                     point_has_flag(&p, "o_direct_refused"));
        n++;
    }
    CHECK_INT_EQ(rc, 0);
    CHECK_INT_EQ(n, n_expected);
    point_destroy(&p);
    point_reader_free(r);
    fclose(f);
}

/* Table rows on stdout: MiB/s = IOPS x block / 2^20 within the printed rounding. */
static void check_table(const char *path, size_t n_rows)
{
    char *s = slurp(path), *line, *save = NULL;
    size_t rows = 0;
    for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char test[32];
        unsigned qd;
        double iops, mib_s, bs;
        if (sscanf(line, "%31s %u %lf %lf", test, &qd, &iops, &mib_s) != 4)
            continue;
        bs = strncmp(test, "seq", 3) == 0 ? 1048576.0 : 16384.0;
        /* IOPS printed to 0.1, MiB/s to 0.01 */
        CHECK_NEAR(mib_s, iops * bs / 1048576.0, 0.005 + 0.05 * bs / 1048576.0 + 1e-9);
        CHECK(iops > 0);
        rows++;
    }
    CHECK_INT_EQ(rows, n_rows);
    free(s);
}

static char *const *args_of(const char *line)
{
    /* split a space-separated argument line (no quoting needed in these tests) */
    static char buf[2048];
    static char *argv[64];
    int n = 1;
    snprintf(buf, sizeof buf, "%s", line);
    argv[0] = (char *)"sizeup";
    for (char *t = strtok(buf, " "); t && n < 63; t = strtok(NULL, " "))
        argv[n++] = t;
    argv[n] = NULL;
    return argv;
}

#define QUICK "--size 8M --time 300ms --min-time 300ms --warmup 100ms --interval 100ms"

static void test_full_run(const char *dir, const char *extra, int expect_direct)
{
    struct proc p;
    char line[4096], out[600];
    int st;
    snprintf(out, sizeof out, "%s/points-%d.jsonl", work, expect_direct);
    {
        /* --out is replaced whole: a record of an earlier run is gone afterwards */
        FILE *f = fopen(out, "w");
        CHECK(f != NULL);
        if (f) {
            fputs("{\"stale\":true}\n", f);
            fclose(f);
        }
    }
    snprintf(line, sizeof line,
             "disk --dir %s " QUICK " --iodepth 1,2 --target test-host --out %s %s", dir, out,
             extra);
    st = run(&p, args_of(line));
    CHECK_INT_EQ(st, 0);
    if (st != 0)
        fprintf(stderr, "%s", slurp(p.err));
    check_records(out, 12, expect_direct);
    CHECK_INT_EQ(count_lines(out), 12);
    CHECK(!err_has(out, "stale"));
    check_table(p.out, 12);
    CHECK(file_has(p.out, "Summary:"));
    CHECK(file_has(p.out, "  disk: "));
    CHECK(file_has(p.err, "12 record(s) written to"));
    CHECK(folder_gone(dir, p.pid));
}

static void test_sigint(void)
{
    struct proc p;
    char line[4096], out[600];
    int st, waited = 0;
    /* interrupted after the first record: that record is kept, whole (--out is replaced at
     * the end, so the second depth's progress line on stderr says the first one is done) */
    snprintf(out, sizeof out, "%s/sigint.jsonl", work);
    unlink(out);
    snprintf(line, sizeof line,
             "disk --dir %s --size 8M --time 1s --min-time 1s --warmup 100ms --interval 100ms "
             "--iodepth 1,2 --target test-host --out %s",
             work, out);
    CHECK(spawn(&p, args_of(line), -1, NULL) == 0);
    while (!err_has(p.err, "randread at queue depth 2") && waited < 30000) {
        usleep(10000);
        waited += 10;
    }
    CHECK(err_has(p.err, "randread at queue depth 2"));
    kill(p.pid, SIGINT);
    st = wait_status(p.pid);
    CHECK_INT_EQ(st, 130);
    CHECK(folder_gone(work, p.pid));
    CHECK(file_has(p.err, "interrupted"));
    {
        char *s = slurp(out);
        size_t len = strlen(s);
        CHECK(len > 0 && s[len - 1] == '\n');
        free(s);
    }
    CHECK(count_lines(out) >= 1);
    check_records(out, count_lines(out), -1);

    /* interrupted while the working set is written: nothing measured, folder gone */
    snprintf(line, sizeof line, "disk --dir %s --size 256M --time 1s --min-time 1s", work);
    CHECK(spawn(&p, args_of(line), -1, NULL) == 0);
    {
        char path[700];
        snprintf(path, sizeof path, "%s/sizeup-disk.%ld", work, (long)p.pid);
        for (waited = 0; access(path, F_OK) != 0 && waited < 10000; waited += 1)
            usleep(1000);
    }
    kill(p.pid, SIGINT);
    st = wait_status(p.pid);
    CHECK_INT_EQ(st, 130);
    CHECK(folder_gone(work, p.pid));
}

static int sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_bad_dirs(int can_mount)
{
    struct proc p;
    char line[4096], dir[600], cmd[4096];
    struct statvfs vfs;
    int st;

    snprintf(line, sizeof line, "disk --dir %s/no-such-dir " QUICK, work);
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "no-such-dir: no such directory"));

    snprintf(line, sizeof line, "disk --dir %s " QUICK, p.out); /* a file, not a folder */
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "not a directory"));

    /* no permission: a folder this user may not write. As root, DAC does not apply, so the
     * run drops to the user nobody (65534); otherwise the folder is made mode 0500. */
    snprintf(dir, sizeof dir, "%s/locked", work);
    mkdir(dir, 0755);
    snprintf(line, sizeof line, "disk --dir %s " QUICK, dir);
    if (geteuid() == 0) {
        CHECK(spawn(&p, args_of(line), 65534, NULL) == 0);
        st = wait_status(p.pid);
    } else {
        chmod(dir, 0500);
        st = run(&p, args_of(line));
    }
    CHECK_INT_EQ(st, 1);
    CHECK(file_has(p.err, "cannot create files there: Permission denied"));
    CHECK(folder_gone(dir, p.pid));
    chmod(dir, 0755);
    rmdir(dir);

    /* not enough space: a working set larger than what is free */
    CHECK(statvfs(work, &vfs) == 0);
    snprintf(line, sizeof line, "disk --dir %s --size %lluM --time 1s --min-time 1s", work,
             (unsigned long long)((uint64_t)vfs.f_bavail * vfs.f_frsize / 1048576 + 1024));
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "not enough free space"));
    CHECK(folder_gone(work, p.pid));

    /* someone else's sizeup-disk.<pid>: refused, left as it was */
    snprintf(line, sizeof line, "disk --dir %s " QUICK, work);
    CHECK(spawn(&p, args_of(line), -1, work) == 0);
    CHECK_INT_EQ(wait_status(p.pid), 1);
    CHECK(file_has(p.err, "exists already and was not created by this run"));
    snprintf(cmd, sizeof cmd, "%s/sizeup-disk.%ld/keep", work, (long)p.pid);
    CHECK(access(cmd, F_OK) == 0);
    unlink(cmd);
    snprintf(cmd, sizeof cmd, "%s/sizeup-disk.%ld", work, (long)p.pid);
    rmdir(cmd);

    /* an output file that cannot be written: error before anything is created */
    snprintf(line, sizeof line, "disk --dir %s " QUICK " --out %s/no-such-dir/p.jsonl", work, work);
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "cannot write"));
    CHECK(folder_gone(work, p.pid));

    if (!can_mount) {
        printf("note: cannot mount here (not root with CAP_SYS_ADMIN): the tiny-tmpfs, "
               "read-only and ramfs (O_DIRECT refused) cases did not run\n");
        return;
    }
    /* a 1 MiB tmpfs */
    snprintf(dir, sizeof dir, "%s/tiny", work);
    mkdir(dir, 0755);
    snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=1m sizeup-test %s", dir);
    CHECK_INT_EQ(sh(cmd), 0);
    snprintf(line, sizeof line, "disk --dir %s --size 4M --time 1s --min-time 1s", dir);
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "not enough free space"));
    CHECK(file_has(p.err, "has 1.0 MiB free"));
    CHECK(folder_gone(dir, p.pid));
    snprintf(cmd, sizeof cmd, "umount %s", dir);
    CHECK_INT_EQ(sh(cmd), 0);

    /* a read-only bind mount */
    snprintf(cmd, sizeof cmd, "mount --bind %s %s && mount -o remount,ro,bind %s", work, dir, dir);
    CHECK_INT_EQ(sh(cmd), 0);
    snprintf(line, sizeof line, "disk --dir %s " QUICK, dir);
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "Read-only file system"));
    snprintf(cmd, sizeof cmd, "umount %s", dir);
    CHECK_INT_EQ(sh(cmd), 0);

    /* ramfs refuses O_DIRECT: an error, or buffered I/O with --allow-buffered, said loudly */
    snprintf(cmd, sizeof cmd, "mount -t ramfs sizeup-test %s", dir);
    CHECK_INT_EQ(sh(cmd), 0);
    snprintf(line, sizeof line, "disk --dir %s " QUICK, dir);
    CHECK_INT_EQ(run(&p, args_of(line)), 1);
    CHECK(file_has(p.err, "refuses O_DIRECT"));
    CHECK(file_has(p.err, "--allow-buffered"));
    CHECK(folder_gone(dir, p.pid));
    {
        char out[600];
        snprintf(out, sizeof out, "%s/ramfs.jsonl", work);
        unlink(out);
        snprintf(line, sizeof line,
                 "disk --dir %s " QUICK " --tests randread,fsync --iodepth 1 --allow-buffered "
                 "--target test-host --out %s",
                 dir, out);
        CHECK_INT_EQ(run(&p, args_of(line)), 0);
        CHECK(file_has(p.out, "note: the file system refused O_DIRECT"));
        CHECK(file_has(p.out, "buffered I/O"));
        CHECK(file_has(p.err, "refused O_DIRECT"));
        CHECK(file_has(out, "\"flags\":[\"buffered\",\"o_direct_refused\"]"));
        CHECK(file_has(out, "\"direct\":false"));
        CHECK_INT_EQ(count_lines(out), 2);
        CHECK(folder_gone(dir, p.pid));
    }
    snprintf(cmd, sizeof cmd, "umount %s", dir);
    CHECK_INT_EQ(sh(cmd), 0);
    rmdir(dir);
}

int main(void)
{
    const char *build = getenv("SIZEUP_BUILD_DIR");
    char cmd[4096], probe_dir[700];
    int can_mount;
    bin = getenv("SIZEUP_BIN");
    if (!bin || !build) {
        fprintf(stderr, "SIZEUP_BIN and SIZEUP_BUILD_DIR must be set (run through ctest)\n");
        return 1;
    }
    snprintf(work, sizeof work, "%s/test-disk-cli.%ld", build, (long)getpid());
    CHECK(mkdir(work, 0755) == 0);
    /* can this process mount? (root with CAP_SYS_ADMIN, as on the build hosts) */
    snprintf(probe_dir, sizeof probe_dir, "%s/mount-probe", work);
    mkdir(probe_dir, 0755);
    snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=1m sizeup-test %s 2>/dev/null && umount %s",
             probe_dir, probe_dir);
    can_mount = geteuid() == 0 && sh(cmd) == 0;
    rmdir(probe_dir);

    test_full_run(work, "", 1);
    test_full_run("/dev/shm", "--allow-buffered", -1);
    test_sigint();
    test_bad_dirs(can_mount);

    snprintf(cmd, sizeof cmd, "rm -rf %s", work);
    CHECK_INT_EQ(sh(cmd), 0);
    return check_report();
}
