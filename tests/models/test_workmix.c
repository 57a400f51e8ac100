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
        CHECK_NEAR(workmix_tps_status(rate, &m), 100, 1e-9);
    }

    memset(tps, 0, sizeof tps);
    tps[WM_POINT_SELECT] = 500;
    tps[WM_READ_WRITE] = 50;
    rates_of(tps, rate);
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_POINT_SELECT], 500, 1e-9);
    CHECK_NEAR(m.tps[WM_READ_WRITE], 50, 1e-9);
    CHECK_NEAR(m.tps[WM_READ_ONLY] + m.tps[WM_WRITE_ONLY], 0, 1e-9);
    CHECK_NEAR(workmix_tps_status(rate, &m), 550, 1e-9);

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
    CHECK_NEAR(workmix_tps_status(rate, &m), 100, 1e-12);

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
    CHECK_NEAR(workmix_tps_status(rate, &m), 350, 1e-9);

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
    CHECK_NEAR(workmix_tps_status(rate, &m), 200, 1e-9);

    /* scanning SELECTs belong to no workload: 256 scans/s beside 100 point selects/s leave the
     * scans as the residual, 256 of 356 statements */
    memset(rate, 0, sizeof rate);
    rate[WM_SCAN] = 256;
    rate[WM_POINT] = 100;
    CHECK_INT_EQ(workmix_fit(rate, &m), 0);
    CHECK_NEAR(m.tps[WM_POINT_SELECT], 100, 1e-9);
    CHECK_NEAR(m.residual, 256.0 / 356.0, 1e-12);

    rate[WM_POINT] = NAN;
    CHECK_INT_EQ(workmix_fit(rate, &m), -1);
    CHECK(isnan(workmix_tps_status(rate, &m)));
    rate[WM_POINT] = -1;
    CHECK_INT_EQ(workmix_fit(rate, &m), -1);
    return check_report();
}
