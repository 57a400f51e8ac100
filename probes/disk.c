/* disk.c - disk probe engine: worker threads issuing synchronous I/O (see disk.h). */
#include "disk.h"

#include "clock.h"
#include "disk_stop.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Alignment of I/O buffers: 4096 satisfies O_DIRECT on 512-byte and 4K-sector devices. */
#define DISK_BUF_ALIGN 4096
/* How much longer than max_time_ns a run waits for its first completed I/O: 60 s. */
#define DISK_STALL_GRACE_NS (UINT64_C(60) * CLOCK_NS_PER_S)
/* A fresh random word is stamped into every this many bytes of a write buffer. */
#define DISK_SCRAMBLE_STRIDE 4096

static const char *const test_names[DISK_N_TESTS] = {"randread", "randwrite", "randrw",
                                                     "seqread",  "seqwrite",  "fsync"};
static const char *const test_workloads[DISK_N_TESTS] = {"disk_randread", "disk_randwrite",
                                                         "disk_randrw",   "disk_seqread",
                                                         "disk_seqwrite", "disk_fsync"};

const char *disk_test_name(enum disk_test t)
{
    return (unsigned)t < DISK_N_TESTS ? test_names[t] : NULL;
}

const char *disk_test_workload(enum disk_test t)
{
    return (unsigned)t < DISK_N_TESTS ? test_workloads[t] : NULL;
}

int disk_test_parse(const char *name, enum disk_test *out)
{
    for (int i = 0; i < DISK_N_TESTS; i++)
        if (strcmp(name, test_names[i]) == 0) {
            *out = (enum disk_test)i;
            return 0;
        }
    return -1;
}

int disk_test_reads(enum disk_test t)
{
    return t == DISK_RANDREAD || t == DISK_RANDRW || t == DISK_SEQREAD;
}

int disk_test_writes(enum disk_test t)
{
    return t == DISK_RANDWRITE || t == DISK_RANDRW || t == DISK_SEQWRITE || t == DISK_FSYNC;
}

const char *disk_sync_mode_name(enum disk_sync_mode m)
{
    return m == DISK_SYNC_FSYNC ? "fsync" : "fdatasync";
}

/* xoshiro256** (Blackman & Vigna, 2018), seeded by splitmix64 (Steele et al., 2014). */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static void rng_seed(uint64_t s[4], uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        s[i] = splitmix64(&seed);
}

static uint64_t rng_next(uint64_t s[4])
{
    uint64_t result = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* Uniform integer in [0, n): 53 random bits scaled (bias < n / 2^53, nil for any file). */
static uint64_t rng_below(uint64_t s[4], uint64_t n)
{
    uint64_t v = (uint64_t)((double)(rng_next(s) >> 11) * 0x1.0p-53 * (double)n);
    return v < n ? v : n - 1;
}

void disk_fill_random(void *buf, size_t len, uint64_t seed)
{
    uint64_t s[4];
    unsigned char *p = buf;
    rng_seed(s, seed);
    while (len >= 8) {
        uint64_t v = rng_next(s);
        memcpy(p, &v, 8);
        p += 8;
        len -= 8;
    }
    if (len) {
        uint64_t v = rng_next(s);
        memcpy(p, &v, len);
    }
}

struct run;

/* One worker thread: its histogram and counters, read by the aggregator under lock. */
struct worker {
    struct hist hist; /* 64-byte aligned, so no two workers share a cache line */
    struct hist sync_hist;
    pthread_mutex_t lock;
    uint64_t ops, reads, writes, syncs;
    uint64_t rng[4];
    unsigned char *buf;
    struct run *run;
    pthread_t tid;
    int started;
};

struct run {
    const struct disk_config *cfg;
    uint64_t n_blocks;
    atomic_int stop;
    atomic_int failed;
    atomic_uint_fast64_t cursor; /* next block of the shared sequential stream */
    pthread_mutex_t err_lock;
    char err[256];
};

static void run_fail(struct run *r, const char *call, uint64_t off, ssize_t got, size_t want,
                     int err)
{
    pthread_mutex_lock(&r->err_lock);
    if (!atomic_load(&r->failed)) {
        if (got >= 0 && (size_t)got != want)
            snprintf(r->err, sizeof r->err, "%s at offset %llu: %zd of %zu bytes", call,
                     (unsigned long long)off, got, want);
        else
            snprintf(r->err, sizeof r->err, "%s at offset %llu: %s", call, (unsigned long long)off,
                     strerror(err));
        atomic_store(&r->failed, 1);
    }
    pthread_mutex_unlock(&r->err_lock);
    atomic_store(&r->stop, 1);
}

/* Stamp a fresh random word into every DISK_SCRAMBLE_STRIDE bytes of a write buffer. */
static void scramble(unsigned char *buf, size_t len, uint64_t s[4])
{
    for (size_t i = 0; i + 8 <= len; i += DISK_SCRAMBLE_STRIDE) {
        uint64_t v = rng_next(s);
        memcpy(buf + i, &v, 8);
    }
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct run *r = w->run;
    const struct disk_config *cfg = r->cfg;
    size_t bs = cfg->block_size;
    enum disk_test t = cfg->test;

    while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
        int is_read, synced = 0;
        uint64_t block, off, t0, t1, ts = 0;
        ssize_t n;
        if (t == DISK_SEQREAD || t == DISK_SEQWRITE || t == DISK_FSYNC)
            block = atomic_fetch_add_explicit(&r->cursor, 1, memory_order_relaxed) % r->n_blocks;
        else
            block = rng_below(w->rng, r->n_blocks);
        off = block * bs;
        if (t == DISK_RANDRW)
            is_read = rng_below(w->rng, 100) < cfg->rwmixread;
        else
            is_read = disk_test_reads(t);
        if (!is_read)
            scramble(w->buf, bs, w->rng);

        t0 = clock_now_ns();
        n = is_read ? pread(cfg->fd, w->buf, bs, (off_t)off)
                    : pwrite(cfg->fd, w->buf, bs, (off_t)off);
        if (n != (ssize_t)bs) {
            run_fail(r, is_read ? "pread" : "pwrite", off, n, bs, errno);
            break;
        }
        if (t == DISK_FSYNC) {
            int rc;
            ts = clock_now_ns();
            rc = cfg->sync_mode == DISK_SYNC_FSYNC ? fsync(cfg->fd) : fdatasync(cfg->fd);
            if (rc != 0) {
                run_fail(r, disk_sync_mode_name(cfg->sync_mode), off, -1, 0, errno);
                break;
            }
            synced = 1;
        }
        t1 = clock_now_ns();

        pthread_mutex_lock(&w->lock);
        hist_record(&w->hist, t1 - t0);
        if (synced)
            hist_record(&w->sync_hist, t1 - ts);
        w->ops++;
        if (is_read)
            w->reads++;
        else
            w->writes++;
        w->syncs += (uint64_t)synced;
        pthread_mutex_unlock(&w->lock);
    }
    return NULL;
}

void disk_result_init(struct disk_result *r)
{
    memset(r, 0, sizeof *r);
    hist_reset(&r->hist);
    hist_reset(&r->sync_hist);
    r->duration_s = r->warmup_s = r->iops = NAN;
    r->reads_ps = r->writes_ps = r->syncs_ps = NAN;
    r->read_mib_s = r->written_mib_s = r->ci95_iops = NAN;
    r->client_cpu_s = r->wall_s = NAN;
}

void disk_result_destroy(struct disk_result *r)
{
    if (!r)
        return;
    free(r->batch_iops);
    free(r->batch_end_s);
    disk_result_init(r);
}

static const char *check_config(const struct disk_config *c)
{
    if (c->fd < 0)
        return "fd: not an open file";
    if ((unsigned)c->test >= DISK_N_TESTS)
        return "test: unknown";
    if (c->iodepth < 1 || c->iodepth > 1024)
        return "iodepth: expected 1..1024";
    if (c->block_size == 0 || c->block_size % 512 != 0)
        return "block_size: expected a positive multiple of 512";
    if (c->file_size < c->block_size)
        return "file_size: smaller than the block size";
    if (c->rwmixread > 100)
        return "rwmixread: expected 0..100";
    if (c->interval_ns == 0)
        return "interval_ns: expected > 0";
    if (c->max_time_ns < c->interval_ns)
        return "max_time_ns: shorter than one interval";
    if (!(c->precision > 0.0 && c->precision <= 1.0))
        return "precision: expected (0, 1]";
    return NULL;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return NAN;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Counters of one batch, taken from every worker. */
struct batch {
    uint64_t ops, reads, writes, syncs;
};

static void collect(struct worker *ws, unsigned n, struct hist *into, struct hist *sync_into,
                    struct batch *b)
{
    memset(b, 0, sizeof *b);
    for (unsigned i = 0; i < n; i++) {
        struct worker *w = &ws[i];
        pthread_mutex_lock(&w->lock);
        hist_merge(into, &w->hist);
        hist_reset(&w->hist);
        hist_merge(sync_into, &w->sync_hist);
        hist_reset(&w->sync_hist);
        b->ops += w->ops;
        b->reads += w->reads;
        b->writes += w->writes;
        b->syncs += w->syncs;
        w->ops = w->reads = w->writes = w->syncs = 0;
        pthread_mutex_unlock(&w->lock);
    }
}

/* Grow the per-batch arrays to hold n values. */
static int reserve_batches(struct disk_result *out, size_t *cap, size_t n)
{
    double *a, *b;
    size_t c = *cap ? *cap * 2 : 64;
    if (n <= *cap)
        return 0;
    a = realloc(out->batch_iops, c * sizeof *a);
    if (!a)
        return -1;
    out->batch_iops = a;
    b = realloc(out->batch_end_s, c * sizeof *b);
    if (!b)
        return -1;
    out->batch_end_s = b;
    *cap = c;
    return 0;
}

static void stop_workers(struct run *r, struct worker *ws, unsigned n)
{
    atomic_store(&r->stop, 1);
    for (unsigned i = 0; i < n; i++)
        if (ws[i].started)
            pthread_join(ws[i].tid, NULL);
}

static void free_workers(struct worker *ws, unsigned n)
{
    if (!ws)
        return;
    for (unsigned i = 0; i < n; i++) {
        free(ws[i].buf);
        pthread_mutex_destroy(&ws[i].lock);
    }
    free(ws);
}

/* Set up the iodepth workers: histograms, lock, seed and an aligned buffer of random bytes
 * each. Every worker's lock is set up, even after a failure (free_workers destroys them all).
 * DISK_OK, or DISK_ENOMEM with out->msg said. */
static int init_workers(struct run *r, struct worker *ws, struct disk_result *out)
{
    const struct disk_config *cfg = r->cfg;
    int rc = DISK_OK;
    for (unsigned i = 0; i < cfg->iodepth; i++) {
        struct worker *w = &ws[i];
        void *buf = NULL;
        hist_reset(&w->hist);
        hist_reset(&w->sync_hist);
        pthread_mutex_init(&w->lock, NULL);
        w->run = r;
        rng_seed(w->rng, cfg->seed * 1000003u + i);
        if (posix_memalign(&buf, DISK_BUF_ALIGN, cfg->block_size) != 0) {
            snprintf(out->msg, sizeof out->msg, "out of memory for a %u-byte I/O buffer",
                     cfg->block_size);
            rc = DISK_ENOMEM;
        } else {
            w->buf = buf;
            disk_fill_random(w->buf, cfg->block_size, rng_next(w->rng));
        }
    }
    return rc;
}

/* The run's clock, ns: its start, the end of the last batch, the time measured and warmed. */
struct span {
    uint64_t start, prev, measured_ns, warm_ns;
};

/* Start the workers (when rc is DISK_OK) with SIGINT/SIGTERM blocked: workers never take them,
 * the caller's thread does and wakes from its sleep. The process CPU (*cpu0) and the clock
 * (sp->start, sp->prev) are read just before the first thread starts. rc, or DISK_ENOMEM with
 * out->msg said when a thread could not start (those started are marked so). */
static int start_workers(struct worker *ws, const struct disk_config *cfg, int rc, double *cpu0,
                         struct span *sp, struct disk_result *out)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    *cpu0 = cpu_seconds();
    sp->start = sp->prev = clock_now_ns();
    for (unsigned i = 0; i < cfg->iodepth && rc == DISK_OK; i++) {
        if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
            snprintf(out->msg, sizeof out->msg, "cannot start I/O thread %u of %u", i + 1,
                     cfg->iodepth);
            rc = DISK_ENOMEM;
        } else {
            ws[i].started = 1;
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* Add a measured batch to out: its histograms, counters, IOPS (pg->batch_iops) and end time
 * (pg->elapsed_s). 0, or -1 out of memory for the batch arrays (*cap their room). */
static int keep_batch(struct disk_result *out, size_t *cap, const struct hist *bh,
                      const struct hist *bs, const struct batch *b, const struct disk_progress *pg)
{
    if (reserve_batches(out, cap, out->n_batches + 1) != 0)
        return -1;
    hist_merge(&out->hist, bh);
    hist_merge(&out->sync_hist, bs);
    out->ops += b->ops;
    out->reads += b->reads;
    out->writes += b->writes;
    out->syncs += b->syncs;
    out->batch_iops[out->n_batches] = pg->batch_iops;
    out->batch_end_s[out->n_batches] = pg->elapsed_s;
    out->n_batches++;
    return 0;
}

/* The 95 % half-width of the kept batches' mean IOPS over that mean, NAN when unknown. */
static double kept_rel_ci95(const struct disk_result *out)
{
    double mean, half;
    if (disk_stop_ci95(out->batch_iops, out->n_batches, &mean, &half) == 0 && mean > 0)
        return half / mean;
    return NAN;
}

/* 1 when the measurement ends after a kept batch: its time is up, or it is precise enough. */
static int measured_enough(const struct disk_config *cfg, const struct disk_result *out,
                           uint64_t measured_ns)
{
    /* every batch lasts >= interval_ns, so n batches measure >= n intervals */
    /* a stalled device (seconds for one I/O on a busy host) may leave a short run with no
     * completion: it goes on until one completes, at most DISK_STALL_GRACE_NS longer */
    if (measured_ns >= cfg->max_time_ns &&
        (out->ops > 0 || measured_ns >= cfg->max_time_ns + DISK_STALL_GRACE_NS))
        return 1;
    return measured_ns >= cfg->min_time_ns &&
           disk_stop_precise(out->batch_iops, out->n_batches, cfg->precision);
}

/* The batches of a started run, one per interval, until it ends: the warm-up's time into
 * sp->warm_ns, the kept batches into out and their time into sp->measured_ns, each batch's
 * progress to cfg->progress. DISK_OK (the run ended), DISK_EIO (a worker failed; out->msg),
 * DISK_EINTR (the stop flag) or DISK_ENOMEM (out->msg). */
static int measure(struct run *r, struct worker *ws, struct hist *batch_hist,
                   struct hist *batch_sync, struct span *sp, struct disk_result *out)
{
    const struct disk_config *cfg = r->cfg;
    size_t cap = 0;
    for (;;) {
        struct batch b;
        struct disk_progress pg;
        uint64_t now, len;
        int warm;
        /* each batch lasts at least one interval from the end of the previous one: a late
         * wake-up (busy machine) makes one batch longer, never a run of short catch-up ones */
        while (clock_sleep_until_ns(sp->prev + cfg->interval_ns) != 0)
            if (cfg->stop && atomic_load(cfg->stop))
                break;
        now = clock_now_ns();
        hist_reset(batch_hist);
        hist_reset(batch_sync);
        collect(ws, cfg->iodepth, batch_hist, batch_sync, &b);
        len = now - sp->prev;
        sp->prev = now;
        if (atomic_load(&r->failed)) {
            snprintf(out->msg, sizeof out->msg, "%s", r->err);
            return DISK_EIO;
        }
        if (cfg->stop && atomic_load(cfg->stop))
            return DISK_EINTR;
        warm = sp->warm_ns < cfg->warmup_ns;
        pg.elapsed_s = clock_ns_to_s(now - sp->start);
        pg.batch_iops = len ? (double)b.ops / clock_ns_to_s(len) : 0.0;
        pg.warmup = warm;
        if (warm) {
            sp->warm_ns += len;
        } else {
            if (keep_batch(out, &cap, batch_hist, batch_sync, &b, &pg) != 0) {
                snprintf(out->msg, sizeof out->msg, "out of memory for batch figures");
                return DISK_ENOMEM;
            }
            sp->measured_ns += len;
        }
        pg.kept_batches = out->n_batches;
        pg.rel_ci95 = kept_rel_ci95(out);
        if (cfg->progress)
            cfg->progress(cfg->progress_arg, &pg);
        if (!warm && measured_enough(cfg, out, sp->measured_ns))
            return DISK_OK;
    }
}

/* The run's rates from its totals over measured_ns (> 0), and its interval and steadiness. */
static void run_rates(const struct disk_config *cfg, struct disk_result *out)
{
    double d = out->duration_s, mib = (double)cfg->block_size / 1048576.0, mean, half;
    out->iops = (double)out->ops / d;
    out->reads_ps = (double)out->reads / d;
    out->writes_ps = (double)out->writes / d;
    out->syncs_ps = (double)out->syncs / d;
    out->read_mib_s = out->reads_ps * mib;
    out->written_mib_s = out->writes_ps * mib;
    if (disk_stop_ci95(out->batch_iops, out->n_batches, &mean, &half) == 0 && !isnan(half)) {
        out->ci95_iops = half;
        out->steady = mean > 0 && half / mean <= cfg->precision;
    }
}

int disk_run(const struct disk_config *cfg, struct disk_result *out)
{
    struct run r;
    struct worker *ws = NULL;
    struct hist *batch_hist = NULL, *batch_sync = NULL;
    struct span sp = {0, 0, 0, 0};
    double cpu0;
    const char *bad;
    int rc;
    void *mem = NULL;

    disk_result_destroy(out);
    if ((bad = check_config(cfg)) != NULL) {
        snprintf(out->msg, sizeof out->msg, "invalid disk probe configuration: %s", bad);
        return DISK_EINVAL;
    }
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    r.n_blocks = cfg->file_size / cfg->block_size;
    atomic_init(&r.stop, 0);
    atomic_init(&r.failed, 0);
    atomic_init(&r.cursor, 0);
    pthread_mutex_init(&r.err_lock, NULL);

    batch_hist = hist_new();
    batch_sync = hist_new();
    if (batch_hist && batch_sync && posix_memalign(&mem, 64, cfg->iodepth * sizeof *ws) == 0) {
        ws = mem;
        memset(ws, 0, cfg->iodepth * sizeof *ws);
    }
    if (!ws) {
        hist_free(batch_hist);
        hist_free(batch_sync);
        pthread_mutex_destroy(&r.err_lock);
        snprintf(out->msg, sizeof out->msg, "out of memory for %u workers", cfg->iodepth);
        return DISK_ENOMEM;
    }
    rc = init_workers(&r, ws, out);
    rc = start_workers(ws, cfg, rc, &cpu0, &sp, out);
    if (rc == DISK_OK)
        rc = measure(&r, ws, batch_hist, batch_sync, &sp, out);
    stop_workers(&r, ws, cfg->iodepth);
    out->client_cpu_s = cpu_seconds() - cpu0;
    out->wall_s = clock_ns_to_s(clock_now_ns() - sp.start);
    free_workers(ws, cfg->iodepth);
    hist_free(batch_hist);
    hist_free(batch_sync);
    pthread_mutex_destroy(&r.err_lock);

    out->duration_s = clock_ns_to_s(sp.measured_ns);
    out->warmup_s = clock_ns_to_s(sp.warm_ns);
    if (rc == DISK_OK && out->ops == 0) {
        snprintf(out->msg, sizeof out->msg,
                 "no I/O completed in %.1f s of measurement: the device stalled", out->duration_s);
        rc = DISK_EIO;
    }
    if (sp.measured_ns > 0)
        run_rates(cfg, out);
    return rc;
}
