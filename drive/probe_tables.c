/*
 * probe_tables.c - prepare or clean up sysbench's tables under the database's lock
 * (probe_tables.h).
 */
#include "probe_tables.h"

#include "dblock.h"
#include "sbtables.h"
#include "stopflag.h"

#include <stdio.h>

/* This database's probe tables for this run alone (probes/dblock.h). @return DRIVE_OK, or how it
 * failed with the reason on err. */
static enum drive_status take_lock(const struct probe_config *cfg, struct dblock *lock, FILE *err)
{
    char msg[1024];
    int r = dblock_acquire(lock, &cfg->conn, msg, sizeof msg);
    if (r == 0) {
        if (msg[0])
            fprintf(err, "sizeup probe: note: %s\n", msg);
        return DRIVE_OK;
    }
    fprintf(err, "sizeup: %s\n", msg);
    return r == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
}

enum drive_status probe_tables_run(const struct probe_config *cfg, enum probe_tables_op op,
                                   unsigned threads, const char *version, FILE *err)
{
    struct dblock lock = {0};
    const char *name = op == PROBE_TABLES_PREPARE ? "prepare" : "cleanup";
    char msg[4096];
    enum drive_status st;
    int r;
    if ((st = take_lock(cfg, &lock, err)) != DRIVE_OK) {
        dblock_release(&lock);
        return st; /* another run holds this database's tables; the reason is on err */
    }
    fprintf(cfg->out, "sizeup %s (sysbench 1.0.20-compatible report)\n\n", version);
    if (op == PROBE_TABLES_PREPARE)
        r = sbtables_prepare(cfg, threads, msg, sizeof msg);
    else
        r = sbtables_cleanup(cfg, msg, sizeof msg);
    fflush(cfg->out);
    if (r != 0)
        fprintf(err, "sizeup: %s: %s\n", name, msg);
    st = r == 0 ? DRIVE_OK : r == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
    if (stopflag_signal())
        st = DRIVE_INTERRUPTED;
    dblock_release(&lock);
    return st;
}
