/* test_mva_idc.c - issue 24's validation on the published IDC-versus-cloud study
 * (data/published/rds-idc-vs-cloud-4c16g.csv, read from the project's root, or argv[1]), through
 * the code `sizeup predict --disk` runs: the table imported (records/import.h), idc-nvme's curve
 * modelled (advisor/rank/diskpred.h: CPU = cpu_peak_pct / 100 x 4 / tps and 17.2 I/Os a transaction
 * at its 16-thread level) and each cloud disk predicted from a profile written here from the
 * table: its IOPS limit the disk's largest iops_max, its latency from its own 1-thread level,
 * s = (1 / X(1) - D_cpu) / ios (so that level is calibration, not validation). Checked against
 * the table's measured tps at every level from 2 to 128 threads: the median |error| is at most
 * 15 % (the goal), each disk's predicted plateau (at 128 threads) within 10 % of its
 * measured best (the IOPS limit is the table's own, so this checks the model's shape, not an
 * independent limit), and every level's |error| within DISKPRED_REL95, the interval the
 * predicted records state. The idc-nvme profile itself: 82,500 IOPS (the catalog's local-nvme
 * rule at 500 GiB) and the latency its own 1-thread level gives. */
#include "check.h"
#include "diskpred.h"
#include "import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double measured(const struct point_list *pts, const char *t, long threads)
{
    for (size_t i = 0; i < pts->n; i++)
        if (strcmp(pts->items[i].target, t) == 0 && pts->items[i].threads == threads)
            return pts->items[i].tps;
    return NAN;
}

static double extra_num(const struct point_list *pts, const char *t, long threads, const char *k)
{
    for (size_t i = 0; i < pts->n; i++)
        if (strcmp(pts->items[i].target, t) == 0 && pts->items[i].threads == threads)
            return json_number_value(json_object_get(pts->items[i].extra, k));
    return NAN;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    static const char *const disks[] = {"cloud-local-ssd", "cloud-essd", "cloud-ssd"};
    static const double levels[] = {2, 4, 16, 32, 64, 128};
    const char *path = argc > 1 ? argv[1] : "data/published/rds-idc-vs-cloud-4c16g.csv";
    struct point_list pts;
    struct import_report rep;
    struct diskpred_profile nvme = {"nvme", 82500, 0, "test"};
    struct diskpred_base b;
    struct diskpred_level lv[6];
    double dcpu, ios, errs[64], med;
    char err[320];
    int ne = 0;
    point_list_init(&pts);
    CHECK(import_file(path, NULL, &pts, &rep) >= 0);
    CHECK_INT_EQ(pts.n, 36);
    if (pts.n != 36)
        return check_report();
    dcpu = extra_num(&pts, "idc-nvme", 16, "cpu_peak_pct") / 100 * 4 / 1437;
    ios = 24722.0 / 1437;
    nvme.latency_ms = 1e3 * (1 / measured(&pts, "idc-nvme", 1) - dcpu) / ios;
    CHECK_INT_EQ(diskpred_base_build(&pts, "idc-nvme", NULL, 4, &nvme, &b, err, sizeof err), 0);
    CHECK_NEAR(b.ios, ios, 1e-12);
    CHECK_NEAR(b.cpu_s_measured, dcpu, 1e-15);
    CHECK_NEAR(b.at_threads, 16, 0);
    printf("idc-nvme: CPU %.4f ms measured, %.4f ms modelled; %.2f I/Os a transaction\n",
           1e3 * b.cpu_s_measured, 1e3 * b.cpu_s, b.ios);
    for (int d = 0; d < 3; d++) {
        struct diskpred_profile p;
        double lim = 0, best = 0;
        memset(&p, 0, sizeof p);
        snprintf(p.id, sizeof p.id, "%s", disks[d]);
        for (size_t i = 0; i < pts.n; i++)
            if (strcmp(pts.items[i].target, disks[d]) == 0) {
                lim = fmax(lim, json_number_value(json_object_get(pts.items[i].extra, "iops_max")));
                best = fmax(best, pts.items[i].tps);
            }
        p.iops = lim;
        p.latency_ms = 1e3 * (1 / measured(&pts, disks[d], 1) - b.cpu_s) / b.ios;
        CHECK(p.latency_ms > 0);
        CHECK_INT_EQ(diskpred_curve(&b, &p, levels, 6, lv, err, sizeof err), 0);
        for (int i = 0; i < 6; i++) {
            double m = measured(&pts, disks[d], (long)levels[i]), e = lv[i].tps / m - 1;
            errs[ne++] = fabs(e);
            printf("%-16s %3g threads: predicted %6.0f measured %6.0f (%+.1f %%) binds %s\n",
                   disks[d], levels[i], lv[i].tps, m, 100 * e, diskpred_binds_name(lv[i].binds));
            CHECK(lv[i].lo <= lv[i].tps && lv[i].tps <= lv[i].hi);
        }
        printf("%-16s plateau: predicted %.0f, measured best %.0f\n", disks[d], lv[5].tps, best);
        CHECK(fabs(lv[5].tps / best - 1) <= 0.10);
        CHECK(lv[5].binds == DISKPRED_DISK);
    }
    qsort(errs, (size_t)ne, sizeof errs[0], cmp);
    med = (errs[ne / 2 - 1] + errs[ne / 2]) / 2;
    printf("median |error| %.1f %% over %d levels; largest %.1f %%; the stated interval +/- %.0f "
           "%%\n",
           100 * med, ne, 100 * errs[ne - 1], 100 * DISKPRED_REL95);
    CHECK_INT_EQ(ne, 18);
    CHECK(med <= 0.15);
    CHECK(errs[ne - 1] <= DISKPRED_REL95);
    point_list_destroy(&pts);
    return check_report();
}
