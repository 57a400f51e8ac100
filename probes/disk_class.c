/* disk_class.c - disk and commit classes from three figures (rules in disk_class.h). */
#include "disk_class.h"

#include <math.h>

enum disk_class disk_class_of(double read_qd1_p50_ms, double read_deep_iops)
{
    double p50 = read_qd1_p50_ms, iops = read_deep_iops;
    int known = !isnan(iops);
    if (isnan(p50) || p50 < 0.0)
        return DISK_CLASS_UNKNOWN;
    if (p50 < DISK_CLASS_MEMORY_P50_MS)
        return DISK_CLASS_MEMORY;
    if (p50 >= DISK_CLASS_HDD_P50_MS)
        return known && iops >= DISK_CLASS_HDD_MAX_IOPS ? DISK_CLASS_NETWORK : DISK_CLASS_HDD;
    if (p50 < DISK_CLASS_NVME_P50_MS && known && iops >= DISK_CLASS_NVME_MIN_IOPS)
        return DISK_CLASS_NVME;
    if (p50 < DISK_CLASS_SATA_P50_MS)
        return DISK_CLASS_SATA_SSD;
    return DISK_CLASS_NETWORK;
}

const char *disk_class_name(enum disk_class c)
{
    switch (c) {
    case DISK_CLASS_MEMORY:
        return "memory-class (page cache or RAM disk, not a device)";
    case DISK_CLASS_HDD:
        return "HDD-class";
    case DISK_CLASS_NVME:
        return "local NVMe-class";
    case DISK_CLASS_SATA_SSD:
        return "SATA SSD-class";
    case DISK_CLASS_NETWORK:
        return "network block storage-class";
    case DISK_CLASS_UNKNOWN:
        break;
    }
    return "unclassified";
}

enum disk_commit_class disk_class_commit(double fsync_p99_ms)
{
    if (isnan(fsync_p99_ms) || fsync_p99_ms < 0.0)
        return DISK_COMMIT_UNKNOWN;
    if (fsync_p99_ms < DISK_COMMIT_CACHED_P99_MS)
        return DISK_COMMIT_CACHED;
    if (fsync_p99_ms < DISK_COMMIT_FAST_P99_MS)
        return DISK_COMMIT_FAST;
    if (fsync_p99_ms < DISK_COMMIT_MODERATE_P99_MS)
        return DISK_COMMIT_MODERATE;
    return DISK_COMMIT_SLOW;
}

const char *disk_class_commit_name(enum disk_commit_class c)
{
    switch (c) {
    case DISK_COMMIT_CACHED:
        return "cached (flushes cost nothing: power-loss protected or not flushed)";
    case DISK_COMMIT_FAST:
        return "fast";
    case DISK_COMMIT_MODERATE:
        return "moderate";
    case DISK_COMMIT_SLOW:
        return "slow";
    case DISK_COMMIT_UNKNOWN:
        break;
    }
    return "not measured";
}
