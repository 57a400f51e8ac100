/*
 * diskpred.h - the curve of a measured workload on a disk it was not measured on
 * (`sizeup predict --disk`): the server as a closed queueing network (models/mva.h) of a CPU
 * station with the configuration's vCPUs, a disk station with the disk's profile and a delay
 * for everything else, parameterised by the demands the points measured.
 *
 * From the measured curve (one target and workload; advisor/curve.h's rules decide which
 * points count and pool replicates into levels):
 *   - the level of the highest mean throughput (where the bottleneck's demand is best seen)
 *     gives the demands: the CPU's, from the server block's cpu_s_per_tx (a probe on the
 *     server's host) or else from a table's extra.cpu_peak_pct as cpu_peak_pct / 100 x vCPUs /
 *     tps (the utilisation law); the disk's I/Os per transaction, the server block's
 *     ios_per_tx (a probe's counters, or a table's IOPS column / tps);
 *   - the probed disk's profile (IOPS limit L0, latency s0 of one I/O) gives its demand
 *     ios x s0; the delay Z (network, locks, the client) is what the calibration level leaves:
 *     the Z >= 0 with which the network gives that level's measured throughput (bisection; 0
 *     when the demands alone already explain it). The calibration level is the one of the most
 *     tps per thread, where a transaction's own time is least disturbed by others (the
 *     smallest level, unless a superlinear first step, a 1-thread level slowed by wake-ups on
 *     an idle host, makes the next one faster per thread).
 * On a disk of profile (L, s) the disk station is c = L s servers of service time s (at most L
 * IOPS; one I/O alone takes s; Seidmann's split takes a c that is not whole) with demand ios x
 * s. A disk with L s < 1 cannot be parallel servers of latency s (one I/O at a time would
 * already pass L): its limit is a throttle (a cloud disk's QoS, a blkio cgroup), which adds
 * nothing below the limit and holds the rate to it above; it is a delay of ios x s with the
 * throughput capped at L / ios (the asymptotic bound, Lazowska et al. 1984 ch. 5). Each level's
 * prediction names the resource that binds (the station of highest utilisation X D / c):
 * "disk-bound: L IOPS / ios I/Os per transaction = L / ios tps" or "CPU-bound: vCPUs / D_cpu".
 *
 * The interval of a predicted tps is +/- DISKPRED_REL95 of it: the largest |error| of the
 * published validation (tests/models/test_mva_idc.c: the IDC-versus-cloud study's three cloud
 * disks predicted from idc-nvme at every level from 2 to 128 threads: 32.3 %, cloud-local-ssd at
 * 16 threads), rounded up, so it covers every level that validation saw. Wide, as the data are:
 * the median error is 10.8 %, but a disk whose I/Os per transaction differ from the probed
 * one's (cloud-local-ssd did 20.9 I/Os a transaction at 16 threads where idc-nvme did 17.2) is
 * off by more, and the knee of the curve (16-32 threads) is where MVA's mean values are least
 * exact.
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_DISKPRED_H
#define SIZEUP_ADVISOR_DISKPRED_H

#include "catalog.h"
#include "point.h"

#include <stddef.h>
#include <stdio.h>

/* Most disks one prediction compares, and most measured levels of the curve modelled. */
#define DISKPRED_MAX_DISKS 64
#define DISKPRED_MAX_LEVELS 64
#define DISKPRED_MAX_THREADS 100000

/* diskpred_profile_parse's return when a sizeup disk file cannot be used (exit 3). */
#define DISKPRED_BAD_FILE (-3)

/* diskpred_base_build's return when the figures given contradict the points (exit 2). */
#define DISKPRED_CONTRADICTS (-2)

/* A resource binds at a level when it is at least this busy (the knee of the curve). */
#define DISKPRED_BINDS_UTIL 0.8

/* Relative 95 % half-width of a predicted tps (see above). */
#define DISKPRED_REL95 0.33

/* One disk: its IOPS limit and the latency of one I/O on a transaction's path. */
struct diskpred_profile {
    char id[64];       /* what the predicted points are named (their target) */
    double iops;       /* limit, I/Os per second, > 0 */
    double latency_ms; /* one I/O, ms, > 0 */
    char source[160];  /* where the figures come from ("stated", "ESSD PL1 at 500 GiB", ...) */
};

/**
 * Parse a profile: "ID=IOPS@LATENCY" (e.g. "essd=22653@0.51ms"; LATENCY with its unit us, ms
 * or s, slo_parse_latency's rule, at most 10 s), "ID=DISK:SIZE@LATENCY" with a disk type of cat
 * at SIZE GiB, whose IOPS come from the type's rule (catalogs/disk_perf.h; "ID=DISK:SIZE"
 * alone takes the type's latency_ms from cat when it gives one), or
 * "ID=@FILE[@LATENCY]" from a `sizeup disk --out` file: the most I/Os per second of its
 * randread test (else randrw, else randwrite: an OLTP workload reads more than it writes) and
 * that test's median latency at queue depth 1 (its mean when it has no median), or the latency
 * stated (a throttled device's mean QD-1 latency is its limit's 1 / L, not the device's). A
 * latency is required: no figure is made up. The ID (what the predicted points are named) has
 * no space, quote or control character.
 * @param cat  catalog for the DISK form; may be NULL (then that form is refused)
 * @return 0; DISKPRED_BAD_FILE when the FILE of ID=@FILE cannot be used (not a regular file,
 *         no random-I/O test, the records of two disks, a bad record: err says which); or -1 for
 *         a spec that is misused, with err ("'essd=22653' has no latency: ...", "no disk type 'x'
 * in the catalogs", "size 5 GiB is outside ESSD PL1's 20-65536 GiB", a file that is not a regular
 * file, holds no random-I/O test or the records of two disks).
 */
int diskpred_profile_parse(const char *spec, const struct cat_catalog *cat,
                           struct diskpred_profile *out, char *err, size_t cap);

/* The model of one measured curve. */
struct diskpred_base {
    char target[128], workload[128];
    unsigned vcpus;
    double cpu_s;          /* CPU demand of a transaction, s, as modelled (see above) */
    double cpu_s_measured; /* the points' own figure; cpu_s is more when it was raised so that
                              the probed disk gives the measured best level */
    double ios;            /* I/Os per transaction */
    double z_s;            /* the delay, s */
    double at_threads;     /* the level the demands were read at */
    double at_tps;         /* its mean tps */
    const char *cpu_from;  /* "the server's CPU time (cpu_s_per_tx)" or "cpu_peak_pct" */
    struct diskpred_profile probed; /* as modelled: its iops lowered when the host's CPU was
                                       measured not to bind (a table's cpu_peak_pct below
                                       DISKPRED_BINDS_UTIL) yet the profile gives more than the
                                       best level: the disk delivered less than its figure */
    double probed_iops_rule;        /* the probed disk's IOPS as given */
    size_t cal;                     /* the level the delay is fitted at: the most tps per thread */
    double levels[DISKPRED_MAX_LEVELS]; /* the measured levels' threads (ascending) */
    double tps[DISKPRED_MAX_LEVELS];    /* their mean tps */
    size_t n_levels;
};

/**
 * Build the model of target's curve of workload (NULL: the target's only workload) from pts.
 * @param vcpus   the configuration's vCPUs (> 0)
 * @param probed  the profile of the disk the points were measured on
 * Predicted points (basis predicted) are never modelled from. The utilisation law must hold at
 * the best level: CPU demand x tps <= vcpus and I/Os x tps <= the probed disk's IOPS (5 %
 * slack). When the host's CPU was measured less than DISKPRED_BINDS_UTIL busy there (a table's
 * cpu_peak_pct, the whole host) and the model on the probed disk gives more than the measured
 * best level, the disk delivered less than its figure: probed.iops is lowered until the model
 * gives that level (probed_iops_rule keeps the figure given).
 * When the model on the probed disk gives more than the measured best level (the CPUs
 * did other work too), the CPU demand is raised until it gives that level (cpu_s_measured
 * keeps the points' own), so that no prediction on a disk that does not bind passes what the
 * server was measured to do.
 * @return 0; DISKPRED_CONTRADICTS when vcpus or the probed disk contradict the points (err
 *         says which figure); or -1 with err naming what is missing ("no measured point of
 *         target 'x' counts (the points have: ...)", "no I/Os per transaction ...", "no CPU
 *         demand: ...", "curves of 2 workloads (a, b): give --workload").
 */
int diskpred_base_build(const struct point_list *pts, const char *target, const char *workload,
                        unsigned vcpus, const struct diskpred_profile *probed,
                        struct diskpred_base *out, char *err, size_t cap);

/* What limits a predicted level. */
enum diskpred_binds { DISKPRED_NONE, DISKPRED_CPU, DISKPRED_DISK };

/* One predicted level. */
struct diskpred_level {
    double threads, tps, lo, hi; /* tps and its 95 % interval, +/- DISKPRED_REL95 */
    double latency_ms;           /* mean response time N / X */
    enum diskpred_binds binds;   /* the busiest station when at least DISKPRED_BINDS_UTIL busy */
    double util;                 /* the busiest station's utilisation, 0..1 */
    double disk_share;           /* share of the response time spent at the disk, 0..1 */
    double cpu_share;            /* at the CPU, 0..1 (the rest: the delay) */
};

/** "disk", "cpu" or "none". */
const char *diskpred_binds_name(enum diskpred_binds b);

/**
 * Predict the curve on a disk at threads[0..n-1] (each >= 1, at most 100000).
 * @return 0, or -1 for a bad argument (err says which).
 */
int diskpred_curve(const struct diskpred_base *b, const struct diskpred_profile *d,
                   const double *threads, size_t n, struct diskpred_level *out, char *err,
                   size_t cap);

/** The throughput ceiling on d and what sets it: "disk-bound: 22,653 IOPS / 17.2 I/Os per
 *  transaction = 1,317 tps" or "CPU-bound: 4 vCPUs / 2.73 ms = 1,467 tps". @return buf. */
const char *diskpred_ceiling_text(const struct diskpred_base *b, const struct diskpred_profile *d,
                                  char *buf, size_t cap);

/**
 * Fill p (initialised) as the predicted point of one level on d: target d->id, the workload,
 * threads, tps, ci95_tps, latency_ms.avg, "basis": "predicted", predicted_from the measured
 * target, the server block's ios_per_tx and iops, extra.prediction {method, disk, cpu_ms,
 * ios_per_tx, delay_ms, binds, from_level}. @return POINT_OK or POINT_ENOMEM.
 */
int diskpred_fill_point(const struct diskpred_base *b, const struct diskpred_profile *d,
                        const struct diskpred_level *lv, struct point *p);

#endif
