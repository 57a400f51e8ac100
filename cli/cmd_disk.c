/* cmd_disk.c - `sizeup disk --dir DIR`: random/sequential I/O and commit latency of a disk. */
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "disk_class.h"
#include "disk_drive.h"
#include "disk_report.h"
#include "outfile.h"
#include "point.h"
#include "stopflag.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DISK_MAX_DEPTHS 16

/* The tests to run, in order, each at most once. */
struct disk_test_list {
    int t[DISK_N_TESTS];
    size_t n;
};

struct disk_args {
    const char *dir, *out, *target;
    struct disk_test_list tests;
    unsigned depths[DISK_MAX_DEPTHS];
    size_t n_depths;
    long long size, block_size, seq_block_size;
    unsigned rwmixread;
    enum disk_sync_mode sync_mode;
    int direct, allow_buffered;
    double time_s, min_time_s, warmup_s, interval_s, precision;
};

/* --tests: a list of distinct test names (disk_test_parse). */
static int parse_tests(const char *s, void *dest, char *err, size_t cap)
{
    struct disk_test_list *l = dest, out = {{0}, 0};
    char buf[256], *save = NULL, *tok;
    (void)err;
    (void)cap;
    if (!*s || strlen(s) >= sizeof buf || s[strlen(s) - 1] == ',' || s[0] == ',' || strstr(s, ",,"))
        return -1; /* strtok_r would skip an empty item */
    snprintf(buf, sizeof buf, "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        enum disk_test t;
        if (disk_test_parse(tok, &t) != 0 || out.n >= DISK_N_TESTS)
            return -1;
        for (size_t i = 0; i < out.n; i++)
            if (out.t[i] == (int)t)
                return -1;
        out.t[out.n++] = (int)t;
    }
    *l = out;
    return 0;
}

static const struct cli_choice sync_modes[] = {
    {"fdatasync", DISK_SYNC_FDATASYNC}, {"fsync", DISK_SYNC_FSYNC}, {NULL, 0}};

#define A(field) CLI_AT(struct disk_args, field)
static const struct cli_opt disk_options[] = {
    {"dir", 'd', CLI_PATH, A(dir), .arg_name = "DIR",
     .help = "folder on the file system to measure (required); sizeup works in "
             "DIR/sizeup-disk.<pid>"},
    {"tests", 0, CLI_CUSTOM, A(tests), .arg_name = "LIST", .parse = parse_tests,
     .dflt = "randread,randwrite,randrw,seqread,seqwrite,fsync",
     .takes = "a list of distinct tests from randread, randwrite, randrw, seqread, seqwrite, "
              "fsync",
     .help = "the tests, in this order"},
    {"iodepth", 0, CLI_INT_LIST, CLI_LIST(struct disk_args, depths, n_depths), .arg_name = "LIST",
     .min = 1, .max = 1024, .dflt = "1,4,16,32",
     .takes = "a list of up to 16 queue depths in 1..1024", .example = "1,4,16,32",
     .help = "queue depths = I/O threads, each one test point"},
    {"size", 's', CLI_SIZE, A(size), .min = 1, .max = 1e15, .dflt = "1G", .takes = "a size > 0",
     .example = "1G or 512M", .help = "working set: one file of SIZE bytes, e.g. 512M, 4G"},
    {"block-size", 'b', CLI_SIZE, A(block_size), .min = 512, .max = 64 << 20, .dflt = "16K",
     .takes = "a multiple of 512 bytes up to 64M", .example = "16K",
     .help = "block of random I/O and of fsync writes (16K: the InnoDB page)"},
    {"seq-block-size", 0, CLI_SIZE, A(seq_block_size), .min = 512, .max = 64 << 20, .dflt = "1M",
     .takes = "a multiple of 512 bytes up to 64M", .example = "1M",
     .help = "block of seqread and seqwrite"},
    {"rwmixread", 0, CLI_INT, A(rwmixread), .min = 0, .max = 100, .dflt = "70",
     .takes = "a percentage 0..100", .help = "randrw: percent of reads"},
    {"fsync-mode", 0, CLI_CHOICE, A(sync_mode), .arg_name = "MODE", .choices = sync_modes,
     .dflt = "fdatasync", .help = "fsync test: the call after each write"},
    {"direct", 0, CLI_BOOL, A(direct), .optional = 1, .dflt = "on",
     .help = "O_DIRECT with aligned buffers, bypassing the page cache"},
    {"allow-buffered", 0, CLI_FLAG, A(allow_buffered),
     .help = "when the file system refuses O_DIRECT, measure buffered I/O (said in output and "
             "records)"},
    {"time", 't', CLI_SECONDS, A(time_s), .arg_name = "DUR", .min = 0, .max = 86400, .dflt = "30s",
     .help = "longest measured time per test and depth, after the warm-up"},
    {"min-time", 0, CLI_SECONDS, A(min_time_s), .arg_name = "DUR", .min = 0, .max = 86400,
     .dflt = "5s", .help = "shortest measured time before the precision stop"},
    {"warmup", 0, CLI_SECONDS, A(warmup_s), .arg_name = "DUR", .min = 0, .max = 86400, .dflt = "1s",
     .help = "time cut at the start of each test and depth, in whole intervals"},
    {"interval", 0, CLI_SECONDS, A(interval_s), .arg_name = "DUR", .min = 0, .max = 86400,
     .dflt = "1s", .help = "batch length of the warm-up cut and the precision stop"},
    {"precision", 0, CLI_FRACTION, A(precision), .dflt = "2%",
     .help = "stop early when the 95% CI of IOPS is within P of the mean"},
    {"out", 'o', CLI_PATH, A(out),
     .help = "write one sizeup.point/1 record per test and depth to FILE, replaced whole at the "
             "end (also when interrupted; a run that measured nothing leaves it as it was)"},
    {"target", 0, CLI_STRING, A(target), .dflt_doc = "the host name",
     .help = "target of the records"},
    {0}};
#undef A

const struct cli_cmd cmd_disk_cli = {
    .name = "disk",
    .usage = "Usage: sizeup disk --dir DIR [OPTIONS]",
    .description =
        "Characterise a disk the way a database uses it: random reads and writes of 16 KiB pages\n"
        "(randread, randwrite, randrw 70/30), sequential 1 MiB transfers (seqread, seqwrite) and\n"
        "durable commits (fsync: a sequential 16 KiB write + fdatasync, latency per commit), each\n"
        "at every queue depth. A queue depth of N is N threads issuing synchronous pread/pwrite\n"
        "(fio's psync engine with numjobs=N): portable, no extra library, and how a database's\n"
        "I/O threads and committing sessions load a disk.\n"
        "\n"
        "sizeup creates DIR/sizeup-disk.<pid>, writes one file of --size random bytes there, and\n"
        "removes both at the end and on SIGINT or SIGTERM (exit 130 for both; the records "
        "measured\n"
        "so far are written). It refuses to run when that folder exists or the file system has\n"
        "less than --size + 16 MiB free. Each test and depth drops its warm-up, then runs until\n"
        "the 95% confidence interval of IOPS (batch means over --interval) is within\n"
        "--precision, but at least --min-time and at most --time. Output: a table (IOPS, MiB/s,\n"
        "latency min/avg/p50/p95/p99/max in ms) on stdout, progress on stderr, a closing summary\n"
        "that classifies the disk.",
    .options = disk_options,
    .max_operands = 0,
    .epilog = "Exit status: 0 done; 1 the directory cannot be used (missing, not a directory, no\n"
              "permission, not enough space, O_DIRECT refused) or an I/O error; 2 bad command\n"
              "line; 130 interrupted (SIGINT or SIGTERM)."};

/* The block of a test: seqread and seqwrite have their own. */
static uint32_t test_block(const struct disk_args *a, enum disk_test t)
{
    return (uint32_t)(t == DISK_SEQREAD || t == DISK_SEQWRITE ? a->seq_block_size : a->block_size);
}

/* bytes as the command line takes them: "16K", "1G", or plain bytes. */
static void format_size(char *buf, size_t len, long long bytes)
{
    if (bytes >= (1LL << 30) && bytes % (1LL << 30) == 0)
        snprintf(buf, len, "%lldG", bytes >> 30);
    else if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0)
        snprintf(buf, len, "%lldM", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%lldK", bytes >> 10);
    else
        snprintf(buf, len, "%lld", bytes);
}

/* Parse the command line. @return CLI_RUN to go on, or an exit code. */
static int parse_args(int argc, char **argv, struct disk_args *a)
{
    struct cli_args args;
    int rc;

    memset(a, 0, sizeof *a);
    if ((rc = cli_parse(&cmd_disk_cli, argc, argv, a, &args)) != CLI_RUN)
        return rc;
    if (a->block_size % 512 != 0 || a->seq_block_size % 512 != 0) {
        int seq = a->block_size % 512 == 0;
        return cli_usage_error("disk",
                               "--%s takes a multiple of 512 bytes up to 64M, e.g. 16K, not "
                               "'%lld'",
                               seq ? "seq-block-size" : "block-size",
                               seq ? a->seq_block_size : a->block_size);
    }
    if (!a->dir)
        return cli_usage_error("disk", "--dir is required: the folder on the disk to measure");
    if (a->interval_s < 0.01)
        return cli_usage_error("disk", "--interval must be at least 10ms");
    if (a->time_s < a->interval_s)
        return cli_usage_error("disk", "--time must be at least one --interval (%gs)",
                               a->interval_s);
    if (a->min_time_s > a->time_s)
        return cli_usage_error("disk", "--min-time (%gs) is longer than --time (%gs)",
                               a->min_time_s, a->time_s);
    for (size_t i = 0; i < a->tests.n; i++) {
        enum disk_test t = (enum disk_test)a->tests.t[i];
        long long bs = test_block(a, t);
        if (a->size < bs) {
            char s1[32], s2[32];
            format_size(s1, sizeof s1, a->size);
            format_size(s2, sizeof s2, bs);
            return cli_usage_error("disk",
                                   "--size (%s) is smaller than the block size of %s (%s): the "
                                   "working set must hold at least one block",
                                   s1, disk_test_name(t), s2);
        }
    }
    return CLI_RUN;
}

/* The records' options: the command line's and what the folder turned out to be. */
static json_t *make_options(const struct disk_args *a, const struct disk_dir *d, uint64_t file_size)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    if (json_object_set_new(o, "dir", point_json_string(a->dir)) ||
        json_object_set_new(o, "fs_type", json_string(d->fs_type)) ||
        json_object_set_new(o, "size", json_integer((json_int_t)file_size)) ||
        json_object_set_new(o, "direct", json_boolean(d->direct)) ||
        json_object_set_new(o, "direct_requested", json_boolean(a->direct)) ||
        json_object_set_new(o, "direct_refused", json_boolean(d->direct_refused)) ||
        json_object_set_new(o, "engine", json_string("psync threads")) ||
        json_object_set_new(o, "fsync_mode", json_string(disk_sync_mode_name(a->sync_mode))) ||
        json_object_set_new(o, "rwmixread", json_integer(a->rwmixread)) ||
        json_object_set_new(o, "time_s", json_real(a->time_s)) ||
        json_object_set_new(o, "min_time_s", json_real(a->min_time_s)) ||
        json_object_set_new(o, "warmup_s", json_real(a->warmup_s)) ||
        json_object_set_new(o, "interval_s", json_real(a->interval_s)) ||
        json_object_set_new(o, "precision", json_real(a->precision))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Figures the summary needs, gathered as points finish. */
struct summary {
    double read_qd1_p50_ms;
    double deep_iops;
    unsigned deep_qd;
    double fsync_p50_ms, fsync_p99_ms;
    unsigned fsync_qd;
};

/* The p-th percentile of h in ms; NAN when it has none. */
static double pct_ms(const struct hist *h, double p)
{
    uint64_t v;
    int rc = hist_percentile(h, p, &v);
    return rc == HIST_OK || rc == HIST_BELOW_RANGE ? clock_ns_to_ms(v) : NAN;
}

/* What the summary needs of one finished test and depth. */
static void summary_add(struct summary *s, enum disk_test t, unsigned qd,
                        const struct disk_result *r)
{
    if (t == DISK_RANDREAD && qd == 1)
        s->read_qd1_p50_ms = pct_ms(&r->hist, 50);
    if (t == DISK_RANDREAD && qd >= 16 && qd > s->deep_qd) {
        s->deep_qd = qd;
        s->deep_iops = r->iops;
    }
    if (t == DISK_FSYNC && (s->fsync_qd == 0 || qd < s->fsync_qd)) {
        s->fsync_qd = qd;
        s->fsync_p50_ms = pct_ms(&r->hist, 50);
        s->fsync_p99_ms = pct_ms(&r->hist, 99);
    }
}

/* The closing summary on stdout: the disk's class and what one session commits. */
static void summary_print(const struct summary *s, const struct disk_args *a)
{
    enum disk_class dc = disk_class_of(s->read_qd1_p50_ms, s->deep_iops);
    printf("\nSummary:\n");
    if (!isnan(s->read_qd1_p50_ms))
        printf("  random read at qd 1:  p50 %.3f ms\n", s->read_qd1_p50_ms);
    else
        printf("  random read at qd 1:  not measured (needs randread with iodepth 1)\n");
    if (s->deep_qd)
        printf("  random read at qd %u: %.0f IOPS\n", s->deep_qd, s->deep_iops);
    else
        printf("  random read at qd >= 16: not measured\n");
    if (s->fsync_qd)
        printf("  commit (%lld-byte write + %s) at qd %u: p50 %.3f ms, p99 %.3f ms; one session "
               "commits at most %.0f times per second\n",
               a->block_size, disk_sync_mode_name(a->sync_mode), s->fsync_qd, s->fsync_p50_ms,
               s->fsync_p99_ms, s->fsync_p50_ms > 0 ? 1000.0 / s->fsync_p50_ms : 0.0);
    else
        printf("  commit: not measured (needs the fsync test)\n");
    printf("  disk: %s\n", disk_class_name(dc));
    printf("  commits: %s\n", disk_class_commit_name(disk_class_commit(s->fsync_p99_ms)));
    printf("  (thresholds: NVMe read p50 < 0.2 ms and >= 40000 IOPS at qd >= 16; SATA SSD p50 < "
           "0.3 ms; HDD p50 >= 2 ms and < 2000 IOPS; network block storage otherwise; commit "
           "p99 < 0.1 / 1 / 5 ms: cached / fast / moderate, else slow)\n");
}

/* One run's output: the table, the summary's figures, the records. */
struct disk_out {
    const struct disk_args *a;
    struct disk_report_info info;
    struct summary sum;
    struct outfile of;
    FILE *out;        /* of.f with --out, else NULL */
    size_t n_records; /* records written to it */
};

/* disk_drive's hook after each test and depth: its row of the table, its summary figures, its
 * record. @return 0, or -1 when the record could not be made or written (said on stderr). */
static int on_point(void *arg, const struct disk_drive_point *pt)
{
    struct disk_out *o = arg;
    struct point p;
    struct point_error perr;
    int rc = 0;
    disk_report_row(stdout, pt->test, pt->qd, pt->block_size, pt->res);
    fflush(stdout);
    summary_add(&o->sum, pt->test, pt->qd, pt->res);
    point_init(&p);
    if (o->out) {
        if (disk_report_point(&p, &o->info, pt->test, pt->qd, pt->block_size, pt->started,
                              pt->res) != POINT_OK) {
            fprintf(stderr, "sizeup: out of memory\n");
            rc = -1;
        } else if (point_write(o->out, &p, &perr) != POINT_OK || fflush(o->out) != 0) {
            fprintf(stderr, "sizeup: %s: %s\n", o->a->out, perr.msg);
            rc = -1;
        } else {
            o->n_records++;
        }
    }
    point_destroy(&p);
    return rc;
}

/* The opening lines on stdout: the folder, its file system, the kind of I/O, the table's
 * header. */
static void print_header(const struct disk_args *a, const struct disk_dir *d, uint64_t file_size)
{
    printf("sizeup disk: %s (%s), working set %.1f MiB, %s\n", a->dir, d->fs_type,
           (double)file_size / 1048576.0,
           d->direct ? "direct I/O (O_DIRECT)" : "buffered I/O (page cache)");
    if (d->direct_refused) {
        printf("note: the file system refused O_DIRECT (%s); measured buffered I/O because of "
               "--allow-buffered: the page cache may serve reads and absorb writes\n",
               strerror(d->direct_errno));
        fprintf(stderr, "sizeup: warning: %s (%s) refused O_DIRECT; measuring buffered I/O\n",
                a->dir, d->fs_type);
    } else if (!d->direct) {
        printf("note: --direct=off: buffered I/O; the page cache may serve reads and absorb "
               "writes\n");
    }
    disk_report_header(stdout);
    fflush(stdout);
}

/* Measure every test at every depth in the prepared folder: the header, the rows, the
 * summary. @return the exit status so far (SIZEUP_EXIT_OK also when interrupted). */
static int measure(struct disk_drive *dd, const struct disk_args *a, struct disk_out *o,
                   const char *tool)
{
    struct disk_drive_opts r;
    json_t *options = make_options(a, dd->d, dd->file_size);
    enum drive_status st;
    if (!options) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    o->info.target = a->target;
    o->info.tool = tool;
    o->info.options = options;
    o->info.direct = dd->d->direct;
    o->info.direct_refused = dd->d->direct_refused;
    print_header(a, dd->d, dd->file_size);
    memset(&r, 0, sizeof r);
    r.tests = a->tests.t;
    r.n_tests = a->tests.n;
    r.depths = a->depths;
    r.n_depths = a->n_depths;
    r.block_size = (uint32_t)a->block_size;
    r.seq_block_size = (uint32_t)a->seq_block_size;
    r.rwmixread = a->rwmixread;
    r.sync_mode = a->sync_mode;
    r.time_s = a->time_s;
    r.min_time_s = a->min_time_s;
    r.warmup_s = a->warmup_s;
    r.interval_s = a->interval_s;
    r.precision = a->precision;
    r.point = on_point;
    r.arg = o;
    st = disk_drive_run(dd, &r);
    json_decref(options);
    if (st == DRIVE_FAIL)
        return SIZEUP_EXIT_FAIL;
    if (!stopflag_signal())
        summary_print(&o->sum, a);
    return SIZEUP_EXIT_OK;
}

/* The records measured so far replace --out, also when interrupted or after an error; the end
 * said. @return the exit status. */
static int finish(struct disk_out *o, int status)
{
    char errbuf[512];
    if (o->out && o->n_records == 0) {
        outfile_abort(&o->of);
        fprintf(stderr, "sizeup: nothing was measured; %s is left as it was\n", o->a->out);
    } else if (o->out && outfile_commit(&o->of, errbuf, sizeof errbuf) != 0) {
        fprintf(stderr, "sizeup: %s\n", errbuf);
        if (status == SIZEUP_EXIT_OK)
            status = SIZEUP_EXIT_FAIL;
    } else if (o->out) {
        fprintf(stderr, "sizeup: %zu record(s) written to %s\n", o->n_records, o->a->out);
    }
    stopflag_restore();
    if (stopflag_signal()) {
        fprintf(stderr, "sizeup: interrupted (%s); the working folder was removed\n",
                stopflag_name(stopflag_signal()));
        status = stopflag_exit_status();
    }
    return status;
}

/* The working set's size: --size in whole 4 KiB sectors, so O_DIRECT can write every byte of
 * the file, and at least the largest block of the tests. */
static uint64_t working_set(const struct disk_args *a)
{
    uint64_t file_size, max_bs = 4096;
    for (size_t i = 0; i < a->tests.n; i++) {
        uint32_t bs = test_block(a, (enum disk_test)a->tests.t[i]);
        if (bs > max_bs)
            max_bs = bs;
    }
    file_size = (uint64_t)a->size / 4096 * 4096;
    return file_size < max_bs ? max_bs : file_size;
}

int cmd_disk(int argc, char **argv)
{
    struct disk_args a;
    struct disk_drive dd;
    struct disk_out o;
    char host[256], tool[64], errbuf[512];
    enum drive_status st;
    int rc, status = SIZEUP_EXIT_OK;

    if ((rc = parse_args(argc, argv, &a)) != CLI_RUN)
        return rc;
    if (!a.target) {
        if (gethostname(host, sizeof host) != 0 || !host[0])
            snprintf(host, sizeof host, "localhost");
        host[sizeof host - 1] = '\0';
        a.target = host;
    }
    snprintf(tool, sizeof tool, "sizeup %s", SIZEUP_VERSION);
    memset(&o, 0, sizeof o);
    o.a = &a;
    o.sum = (struct summary){NAN, NAN, 0, NAN, NAN, 0};
    if (stopflag_install() != 0) {
        fprintf(stderr, "sizeup: cannot handle SIGINT/SIGTERM: %s\n", strerror(errno));
        return SIZEUP_EXIT_FAIL;
    }
    if (disk_drive_check(&dd, a.dir, working_set(&a), stderr) != DRIVE_OK) {
        status = SIZEUP_EXIT_FAIL;
    } else if (a.out && outfile_open(&o.of, a.out, errbuf, sizeof errbuf) != 0) {
        fprintf(stderr, "sizeup: %s\n", errbuf);
        status = SIZEUP_EXIT_FAIL;
    } else {
        o.out = a.out ? o.of.f : NULL;
        st = disk_drive_prepare(&dd, a.direct, a.allow_buffered, isatty(STDERR_FILENO));
        if (st == DRIVE_FAIL)
            status = SIZEUP_EXIT_FAIL;
        else if (st == DRIVE_OK)
            status = measure(&dd, &a, &o, tool);
    }
    if (disk_drive_end(&dd) != DRIVE_OK && status == SIZEUP_EXIT_OK)
        status = SIZEUP_EXIT_FAIL;
    return finish(&o, status);
}
