/*
 * disk_class.h - a one-line verdict on what kind of disk the probes measured.
 *
 * Inputs: the median latency of 16 KiB random reads at queue depth 1, the random-read IOPS at
 * the deepest queue measured (32 by default) and the p99 latency of a durable commit (16 KiB
 * write + fdatasync). Rules, first match wins (figures for 16 KiB blocks; the "-class" suffix
 * means "behaves like", not "is"):
 *
 *   memory-class         read p50 < 8 us. Below any device round trip: the page cache or a
 *                        RAM disk served the reads (Optane-class media is ~10 us at 4 KiB).
 *   HDD-class            read p50 >= 2 ms and IOPS < 2,000. A 7,200 rpm disk's average
 *                        rotational delay alone is 4.17 ms (60 s / 7,200 / 2); with NCQ at
 *                        queue depth 32 it stays below a few hundred random IOPS.
 *   local NVMe-class     read p50 < 200 us and IOPS >= 40,000. 40,000 x 16 KiB = 625 MiB/s,
 *                        beyond what the SATA 6 Gb/s link carries (~ 550 MB/s after 8b/10b
 *                        coding, ~ 33,500 16-KiB IOPS), so only PCIe storage gets there.
 *   SATA SSD-class       read p50 < 300 us (and IOPS < 40,000 when measured): flash latency
 *                        behind a link that caps throughput.
 *   network block storage-class
 *                        everything else: read p50 of 0.3-2 ms (the network round trip of
 *                        EBS, ESSD, PD and SAN volumes), or >= 2 ms with more IOPS than a disk
 *                        head can give (throttled or congested network storage).
 * Without a deep-queue figure (iops NAN) the IOPS conditions are skipped: p50 < 200 us reads
 * as local NVMe-class only when iops is known, else as SATA SSD-class or faster.
 *
 * Commits (fsync p99):
 *   < 0.1 ms   write cache that need not be flushed (power-loss protected, or a layer that
 *              acknowledges flushes without waiting)
 *   < 1 ms     fast flush (enterprise flash)
 *   < 5 ms     moderate (network storage, or consumer flash flushing its cache)
 *   >= 5 ms    slow (rotational media, or congested storage)
 * A single committing session cannot exceed 1000 / p50 commits per second.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_PROBES_DISK_CLASS_H
#define SIZEUP_PROBES_DISK_CLASS_H

#include <stddef.h>

enum disk_class {
    DISK_CLASS_UNKNOWN, /* randread at queue depth 1 was not measured */
    DISK_CLASS_MEMORY,
    DISK_CLASS_HDD,
    DISK_CLASS_NVME,
    DISK_CLASS_SATA_SSD,
    DISK_CLASS_NETWORK
};

enum disk_commit_class {
    DISK_COMMIT_UNKNOWN, /* fsync was not measured */
    DISK_COMMIT_CACHED,
    DISK_COMMIT_FAST,
    DISK_COMMIT_MODERATE,
    DISK_COMMIT_SLOW
};

/* Thresholds of the rules above. */
#define DISK_CLASS_MEMORY_P50_MS 0.008
#define DISK_CLASS_NVME_P50_MS 0.2
#define DISK_CLASS_SATA_P50_MS 0.3
#define DISK_CLASS_HDD_P50_MS 2.0
#define DISK_CLASS_NVME_MIN_IOPS 40000.0
#define DISK_CLASS_HDD_MAX_IOPS 2000.0
#define DISK_COMMIT_CACHED_P99_MS 0.1
#define DISK_COMMIT_FAST_P99_MS 1.0
#define DISK_COMMIT_MODERATE_P99_MS 5.0

/**
 * Class of a disk.
 * @param read_qd1_p50_ms  p50 latency of randread at queue depth 1, ms; NAN when not measured
 * @param read_deep_iops   randread IOPS at the deepest queue measured (>= 16), NAN when none
 * @return the class (DISK_CLASS_UNKNOWN when read_qd1_p50_ms is NAN or negative).
 */
enum disk_class disk_class_of(double read_qd1_p50_ms, double read_deep_iops);

/** Name: "local NVMe-class", "network block storage-class", ...; "unclassified". */
const char *disk_class_name(enum disk_class c);

/** Commit class from the fsync test's p99 latency in ms (NAN: DISK_COMMIT_UNKNOWN). */
enum disk_commit_class disk_class_commit(double fsync_p99_ms);

/** Name: "cached", "fast", "moderate", "slow", "not measured". */
const char *disk_class_commit_name(enum disk_commit_class c);

#endif
