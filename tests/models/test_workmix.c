/* test_workmix.c - observed statement rates as a mix of sysbench workloads (models/workmix.h),
 * against answers worked out here from sysbench 1.0.20's statement counts per transaction
 * (oltp_common.lua's defaults: 10 point selects, 4 ranges, 2 updates, 1 delete, 1 insert):
 *   - each workload alone at 100 tps: that workload at 100 tps, nothing else, no residual, and
 *     tps_status 100;
 *   - 500 point_select + 50 read_write tps at once: exactly those, tps_status 550 (the 500
 *     autocommit selects are transactions, the 50 x 18 statements inside COMMITs are not);
 *   - a workload at 0.5 % of the transactions (below WORKMIX_MIN_SHARE) is left out and the
 *     rest refitted: 1000 point_select + 5 write_only -> 1000 point_select, residual = the 25
 *     write-only statements of 1025;
 *   - autocommit UPDATEs, INSERTs, range SELECTs: the single-statement workloads, exactly, and
 *     with read_write at once; read_write alone is not split into the workloads it equals;
 *   - scanning SELECTs are no workload's: the residual;
 *   - rates a little off (an interval's edges) are read_write alone, not an exact fit of seven;
 *   - deadlock victims (ends without a COMMIT, each having run a prefix of its transaction, as
 *     sysbench's read_write does when its UPDATE deadlocks: 10 point, 4 range, 1 update) are
 *     transactions that ended, their statements no autocommit ones: 100 committed + 20 victims
 *     are 120 tps (without the victims named, heavily deadlocked: 1,839 committed + 1,179
 *     victims read as 4,197); with 500 autocommit point selects/s beside them, tps_status lies
 *     within the rule's stated bound A (n_max - n) of 620: n_max 18, n >= 14 when the mix's
 *     transactional workloads are read_only and read_write; a victim count above the ends or
 *     below 0 is refused;
 *   - a bad rate (NaN, negative) is refused. */
#include "check.h"
#include "workmix.h"

#include <math.h>
#include <string.h>

static void rates_of(const double tps[WM_N_WORKLOAD], double rate[WM_N_CLASS])
{
    for (int c = 0; c < WM_N_CLASS; c++) {
        rate[c] = 0;
        for (int w = 0; w < WM_N_WORKLOAD; w++)
            rate[c] += tps[w] * workmix_per_tx((enum workmix_workload)w, (enum workmix_class)c);
    }
}

int main(void)
{
    double rate[WM_N_CLASS], tps[WM_N_WORKLOAD];
    struct workmix m;

    /* the statement counts of the table */
    CHECK_NEAR(workmix_statements_per_tx(WM_POINT_SELECT), 1, 0);
    CHECK_NEAR(workmix_statements_per_tx(WM_READ_ONLY), 14, 0);
    CHECK_NEAR(workmix_statements_per_tx(WM_READ_WRITE), 18, 0);
    CHECK_NEAR(workmix_statements_per_tx(WM_WRITE_ONLY), 4, 0);
    CHECK_NEAR(workmix_statements_per_tx(WM_INSERT_ONLY), 1, 0);
    CHECK_STR_EQ(workmix_workload_name(WM_READ_WRITE), "oltp_read_write");

    for (int w = 0; w < WM_N_WORKLOAD; w++) {
        memset(tps, 0, sizeof tps);
        tps[w] = 100;
        rates_of(tps, rate);
        CHECK_INT_EQ(workmix_fit(rate, &m), 0);
        for (int k = 0; k < WM_N_WORKLOAD; k++)
            CHECK_NEAR(m.tps[k], k == w ? 100 : 0, 1e-9);
        CHECK_NEAR(m.total_tps, 100, 1e-9);
        CHECK_NEAR(m.residual, 0, 1e-12);
        CHECK_NEAR(workmix_tps_status(rate, 0, &m), 100, 1e-9);
    }

    memset(tps, 0, sizeof tps);
    tps[WM_POINT_SELECT] = 500;
    tps[WM_READ_WRITE] = 50;
    rates_of(tps, rate);
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_POINT_SELECT], 500, 1e-9);
    CHECK_NEAR(m.tps[WM_READ_WRITE], 50, 1e-9);
    CHECK_NEAR(m.tps[WM_READ_ONLY] + m.tps[WM_WRITE_ONLY], 0, 1e-9);
    CHECK_NEAR(workmix_tps_status(rate, 0, &m), 550, 1e-9);

    memset(tps, 0, sizeof tps);
    tps[WM_POINT_SELECT] = 1000;
    tps[WM_WRITE_ONLY] = 5;
    rates_of(tps, rate);
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_POINT_SELECT], 1000, 1e-9);
    CHECK_NEAR(m.tps[WM_WRITE_ONLY], 0, 0);
    CHECK_NEAR(m.residual, 25.0 / 1025.0, 1e-12);

    /* autocommit UPDATEs only: oltp_update_non_index, one UPDATE a transaction, exactly */
    memset(rate, 0, sizeof rate);
    rate[WM_UPDATE] = 100;
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_UPDATE_NON_INDEX], 100, 1e-9);
    CHECK_NEAR(m.total_tps, 100, 1e-9);
    CHECK_NEAR(m.residual, 0, 1e-12);
    CHECK_NEAR(workmix_tps_status(rate, 0, &m), 100, 1e-12);

    /* oltp_read_write at 50 tps with oltp_insert at 300 at once (the break-it case that the four
     * OLTP workloads read as 1.9x the transactions): both exactly, tps 350 */
    memset(tps, 0, sizeof tps);
    tps[WM_READ_WRITE] = 50;
    tps[WM_INSERT_ONLY] = 300;
    rates_of(tps, rate);
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_READ_WRITE], 50, 1e-9);
    CHECK_NEAR(m.tps[WM_INSERT_ONLY], 300, 1e-9);
    CHECK_NEAR(m.residual, 0, 1e-12);
    CHECK_NEAR(workmix_tps_status(rate, 0, &m), 350, 1e-9);

    /* oltp_read_write alone also equals read_only + 2 update + delete + insert, class by class:
     * the single workload is taken */
    memset(tps, 0, sizeof tps);
    tps[WM_READ_WRITE] = 80;
    rates_of(tps, rate);
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_READ_WRITE], 80, 1e-9);
    CHECK_NEAR(m.total_tps, 80, 1e-9);

    /* oltp_read_write at 137 tps seen through an interval's edges (statements of transactions
     * open at its ends counted, their COMMITs not): 1376 point, 546 range, 137 insert, 272
     * update, 136 delete, 137 ends against 1370 / 548 / 137 / 274 / 137 / 137 exactly. Seven
     * workloads fit any seven rates exactly; read_write alone leaves 11 of 2604 statements
     * (0.4 %), within WORKMIX_NOISE: it is taken, not a seven-workload mix of 1,497 tps */
    {
        double r[WM_N_CLASS] = {1376, 546, 0, 137, 272, 136, 137};
        CHECK_INT_EQ(workmix_fit(r, &m), 0);
        CHECK(m.tps[WM_READ_WRITE] > 130 && m.tps[WM_READ_WRITE] < 140);
        CHECK_NEAR(m.total_tps, m.tps[WM_READ_WRITE], 1e-9);
    }

    /* select_random_ranges: one range SELECT, autocommit */
    memset(rate, 0, sizeof rate);
    rate[WM_RANGE] = 200;
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_RANDOM_RANGES], 200, 1e-9);
    CHECK_NEAR(workmix_tps_status(rate, 0, &m), 200, 1e-9);

    /* scanning SELECTs belong to no workload: 256 scans/s beside 100 point selects/s leave the
     * scans as the residual, 256 of 356 statements */
    memset(rate, 0, sizeof rate);
    rate[WM_SCAN] = 256;
    rate[WM_POINT] = 100;
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_POINT_SELECT], 100, 1e-9);
    CHECK_NEAR(m.residual, 256.0 / 356.0, 1e-12);

    /* deadlock victims: 100 read_write committed, 20 rolled back after 10 point, 4 range and
     * one UPDATE each */
    {
        double r[WM_N_CLASS] = {1000 + 200, 400 + 80, 0, 100, 200 + 20, 100, 100 + 20}, t;
        double h[WM_N_CLASS] = {18390 + 11790, 7356 + 4716, 0, 1839, 3678 + 1179, 1839, 3018};
        CHECK_INT_EQ(workmix_fit(r, &m), 0);
        CHECK_NEAR(workmix_tps_status(r, 20, &m), 120, 1e-9);
        CHECK_INT_EQ(workmix_fit(h, &m), 0);
        CHECK_NEAR(workmix_tps_status(h, 1179, &m), 3018, 1e-6);
        CHECK(workmix_tps_status(h, 0, &m) > 4000);
        r[WM_POINT] += 500;
        CHECK_INT_EQ(workmix_fit(r, &m), 0);
        CHECK(m.tps[WM_WRITE_ONLY] == 0);
        t = workmix_tps_status(r, 20, &m);
        CHECK(t >= 620 - 20 * (18 - 14) - 1e-9 && t <= 620 + 1e-9);
        CHECK(isnan(workmix_tps_status(r, 121, &m)));
        CHECK(isnan(workmix_tps_status(r, -1, &m)));
    }

    rate[WM_POINT] = NAN;
    CHECK_INT_EQ(workmix_fit(rate, &m), -1);
    CHECK(isnan(workmix_tps_status(rate, 0, &m)));
    rate[WM_POINT] = -1;
    CHECK_INT_EQ(workmix_fit(rate, &m), -1);
    return check_report();
}
