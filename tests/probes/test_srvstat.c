/* test_srvstat.c - the demand per transaction between two snapshots (probes/srvstat.h), on
 * snapshots written here: each expected figure is the delta / transactions worked out by hand. */
#include "check.h"
#include "srvstat.h"

#include <math.h>
#include <stdlib.h>

static void snap(struct srvstat_snap *s, double t, uint64_t base, double cpu)
{
    srvstat_init(s);
    s->ok = 1;
    s->t_mono_s = t;
    for (int i = 0; i < SRV_N_COUNTERS; i++) {
        s->v[i] = base * (uint64_t)(i + 1);
        s->have[i] = 1;
    }
    s->v[SRV_BP_READ_REQUESTS] = base * 100; /* 100 page requests a transaction, 2 misses */
    s->v[SRV_BP_READS] = base * 2;
    s->cpu_s = cpu;
    s->buffer_pool_bytes = 128.0 * 1048576;
    s->data_bytes = 3.0 * 1048576;
    s->named = calloc(2, sizeof *s->named);
    snprintf(s->named[0].name, sizeof s->named[0].name, "Com_select");
    s->named[0].value = base * 14;
    snprintf(s->named[1].name, sizeof s->named[1].name, "Com_show_status");
    s->named[1].value = base;
    s->n_named = 2;
}

int main(void)
{
    struct srvstat_snap a, b;
    struct point p;
    char buf[300];
    point_init(&p);
    /* 1000 transactions over 2 s; counter i (0-based) moved by 1000 x (i + 1) */
    snap(&a, 10, 1000, 5.0);
    snap(&b, 12, 2000, 6.5);
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 1);
    CHECK_NEAR(p.server.v[PSRV_WINDOW_S], 2, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_TRANSACTIONS], 1000, 0);
    CHECK_NEAR(p.server.v[PSRV_READS_PER_TX], 1 + SRV_DATA_READS, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_WRITES_PER_TX], 1 + SRV_DATA_WRITES, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_LOG_WRITES_PER_TX], 1 + SRV_LOG_WRITES, 1e-12);
    /* a server with Innodb_os_log_fsyncs counts the log's writes in Innodb_data_writes already:
     * reads 1 + writes 2 a transaction */
    CHECK_NEAR(p.server.v[PSRV_IOS_PER_TX], 3, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_READ_KIB_PER_TX], (1 + SRV_DATA_READ) / 1024.0, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_BP_REQUESTS_PER_TX], 100, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_BP_MISS_RATIO], 0.02, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_CPU_S_PER_TX], 1.5 / 1000, 1e-15);
    CHECK_NEAR(p.server.v[PSRV_IOPS], 1500, 1e-9); /* 3 I/Os x 500 tps */
    CHECK_NEAR(p.server.v[PSRV_BUFFER_POOL_MIB], 128, 0);
    CHECK_NEAR(p.server.v[PSRV_DATA_MIB], 3, 0);
    CHECK(p.server.per_tx && json_real_value(json_object_get(p.server.per_tx, "Com_select")) == 14);
    /* the snapshot's own SHOW GLOBAL STATUS is not the workload's */
    CHECK(json_object_get(p.server.per_tx, "Com_show_status") == NULL);
    CHECK(strcmp(srvstat_missing(&a, buf, sizeof buf), "") == 0);
    point_destroy(&p);
    point_init(&p);
    /* a counter the server does not have: its figures absent, never 0; named. Without
     * Innodb_os_log_fsyncs (MariaDB 10.8+) the redo log's writes (5 a transaction) are apart
     * from Innodb_data_writes and added */
    a.have[SRV_LOG_FSYNCS] = b.have[SRV_LOG_FSYNCS] = 0;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 1);
    CHECK(isnan(p.server.v[PSRV_LOG_FSYNCS_PER_TX]));
    CHECK_NEAR(p.server.v[PSRV_IOS_PER_TX], 8, 1e-12);
    CHECK_NEAR(p.server.v[PSRV_IOPS], 4000, 1e-9);
    point_destroy(&p);
    point_init(&p);
    a.have[SRV_LOG_WRITES] = 0;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 1);
    CHECK(isnan(p.server.v[PSRV_LOG_WRITES_PER_TX]));
    CHECK_NEAR(p.server.v[PSRV_IOS_PER_TX], 3, 1e-12);
    CHECK(strcmp(srvstat_missing(&a, buf, sizeof buf), "Innodb_os_log_fsyncs, Innodb_log_writes") ==
          0);
    point_destroy(&p);
    point_init(&p);
    /* the server restarted between the snapshots: no block at all, not negative rates */
    b.v[SRV_DATA_READS] = 5;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 0);
    CHECK(!point_has_server(&p));
    b.v[SRV_DATA_READS] = 2000 * (1 + SRV_DATA_READS);
    b.named[0].value = 3;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 0);
    /* no transaction, or a snapshot not read: nothing */
    b.named[0].value = 28000;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 0, 500, &p), 0);
    b.ok = 0;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 0);
    CHECK(!point_has_server(&p));
    /* CPU unknown on either side: left out */
    b.ok = 1;
    b.cpu_s = NAN;
    CHECK_INT_EQ(srvstat_demand(&a, &b, 1000, 500, &p), 1);
    CHECK(isnan(p.server.v[PSRV_CPU_S_PER_TX]));
    point_destroy(&p);
    srvstat_destroy(&a);
    srvstat_destroy(&b);
    return check_report();
}
