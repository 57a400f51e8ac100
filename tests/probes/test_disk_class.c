/*
 * test_disk_class.c - probes/disk_class: the documented rules (disk_class.h) on both sides
 * of every threshold, and on figures typical of each kind of disk.
 *
 * Typical figures (16 KiB random reads): a 7,200 rpm HDD waits 4.17 ms of average rotation
 * (60 s / 7200 / 2) plus a seek, ~ 150 IOPS at qd 1, a few hundred at qd 32; a SATA SSD is
 * capped near 550 MB/s (~ 33,500 16-KiB IOPS); AWS documents gp3 volumes at 3,000 baseline
 * IOPS with "single-digit millisecond" latency; a datacenter NVMe drive reads 16 KiB in
 * ~ 0.1 ms and passes 100,000 IOPS at depth 32.
 */
#include "check.h"
#include "disk_class.h"

#include <math.h>

static void test_typical(void)
{
    CHECK_INT_EQ(disk_class_of(0.004, 900000), DISK_CLASS_MEMORY);
    CHECK_INT_EQ(disk_class_of(4.17 + 4.0, 400), DISK_CLASS_HDD);
    CHECK_INT_EQ(disk_class_of(0.18, 33500), DISK_CLASS_SATA_SSD);
    CHECK_INT_EQ(disk_class_of(0.6, 3000), DISK_CLASS_NETWORK);
    CHECK_INT_EQ(disk_class_of(0.1, 150000), DISK_CLASS_NVME);
}

static void test_thresholds(void)
{
    CHECK_INT_EQ(disk_class_of(NAN, 1000), DISK_CLASS_UNKNOWN);
    CHECK_INT_EQ(disk_class_of(-1, 1000), DISK_CLASS_UNKNOWN);
    /* memory below 8 us */
    CHECK_INT_EQ(disk_class_of(0.0079, NAN), DISK_CLASS_MEMORY);
    CHECK_INT_EQ(disk_class_of(0.008, NAN), DISK_CLASS_SATA_SSD);
    /* NVMe: p50 < 0.2 ms and >= 40,000 IOPS; without a deep-queue figure, not NVMe */
    CHECK_INT_EQ(disk_class_of(0.199, 40000), DISK_CLASS_NVME);
    CHECK_INT_EQ(disk_class_of(0.199, 39999), DISK_CLASS_SATA_SSD);
    CHECK_INT_EQ(disk_class_of(0.2, 40000), DISK_CLASS_SATA_SSD);
    CHECK_INT_EQ(disk_class_of(0.1, NAN), DISK_CLASS_SATA_SSD);
    /* SATA below 0.3 ms, network from 0.3 ms */
    CHECK_INT_EQ(disk_class_of(0.299, 20000), DISK_CLASS_SATA_SSD);
    CHECK_INT_EQ(disk_class_of(0.3, 20000), DISK_CLASS_NETWORK);
    CHECK_INT_EQ(disk_class_of(1.999, 500), DISK_CLASS_NETWORK);
    /* HDD from 2 ms unless the IOPS rule it out */
    CHECK_INT_EQ(disk_class_of(2.0, 1999), DISK_CLASS_HDD);
    CHECK_INT_EQ(disk_class_of(2.0, 2000), DISK_CLASS_NETWORK);
    CHECK_INT_EQ(disk_class_of(8.0, NAN), DISK_CLASS_HDD);
}

static void test_commit(void)
{
    CHECK_INT_EQ(disk_class_commit(NAN), DISK_COMMIT_UNKNOWN);
    CHECK_INT_EQ(disk_class_commit(0.05), DISK_COMMIT_CACHED);
    CHECK_INT_EQ(disk_class_commit(0.1), DISK_COMMIT_FAST);
    CHECK_INT_EQ(disk_class_commit(0.999), DISK_COMMIT_FAST);
    CHECK_INT_EQ(disk_class_commit(1.0), DISK_COMMIT_MODERATE);
    CHECK_INT_EQ(disk_class_commit(4.99), DISK_COMMIT_MODERATE);
    CHECK_INT_EQ(disk_class_commit(5.0), DISK_COMMIT_SLOW);
    /* 8.3 ms: one rotation of a 7,200 rpm disk, the floor of a commit without a write cache */
    CHECK_INT_EQ(disk_class_commit(8.33), DISK_COMMIT_SLOW);
    CHECK_STR_EQ(disk_class_name(DISK_CLASS_NVME), "local NVMe-class");
    CHECK_STR_EQ(disk_class_name(DISK_CLASS_NETWORK), "network block storage-class");
    CHECK_STR_EQ(disk_class_name(DISK_CLASS_SATA_SSD), "SATA SSD-class");
    CHECK_STR_EQ(disk_class_name(DISK_CLASS_HDD), "HDD-class");
    CHECK_STR_EQ(disk_class_commit_name(DISK_COMMIT_UNKNOWN), "not measured");
}

int main(void)
{
    test_typical();
    test_thresholds();
    test_commit();
    return check_report();
}
