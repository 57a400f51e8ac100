/* sysbench_tests.c - the parts of sysbench's output that belong to its non-OLTP tests: fileio
 * (1.0 and 1.1 blocks, and the legacy 0.4/0.5 counts) and memory. Part of the sysbench_log
 * parser; the shared state is in sysbench_log_int.h. */
#include "sblex.h"
#include "sysbench_log_int.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

int sblog_fileops_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double x;
    double *dst = NULL;
    if ((v = sblex_after(t, "reads/s:")))
        dst = &p->io.reads_ps;
    else if ((v = sblex_after(t, "writes/s:")))
        dst = &p->io.writes_ps;
    else if ((v = sblex_after(t, "fsyncs/s:")))
        dst = &p->io.fsyncs_ps;
    if (!dst)
        return IMPORT_OK;
    if (sblex_num(&v, &x) || !sblex_at_end(v))
        return sblog_bad_line(ps, "\"reads/s: X\"", raw);
    *dst = x;
    ps->run.has_summary = 1;
    return IMPORT_OK;
}

/* fileio "Throughput:" (1.0: "read, MiB/s: X"; 1.1: "read:  IOPS=X X MiB/s (X MB/s)"). */
int sblog_filethru_line(struct parser *ps, const char *t, const char *raw)
{
    struct point *p = &ps->run.p;
    const char *v;
    double iops, mib, mb;
    if ((v = sblex_after(t, "read, MiB/s:"))) {
        if (sblex_num(&v, &p->io.read_mib_s) || !sblex_at_end(v))
            return sblog_bad_line(ps, "\"read, MiB/s: X\"", raw);
    } else if ((v = sblex_after(t, "written, MiB/s:"))) {
        if (sblex_num(&v, &p->io.written_mib_s) || !sblex_at_end(v))
            return sblog_bad_line(ps, "\"written, MiB/s: X\"", raw);
    } else if ((v = sblex_after(t, "read:")) || (v = sblex_after(t, "write:"))) {
        int is_read = t[4] == ':';
        if (sblex_lit(&v, "IOPS=") || sblex_num(&v, &iops) || sblex_num(&v, &mib) ||
            sblex_lit(&v, "MiB/s (") || sblex_num(&v, &mb) || sblex_lit(&v, "MB/s)"))
            return sblog_bad_line(ps, "\"read: IOPS=X X MiB/s (X MB/s)\"", raw);
        if (is_read) {
            p->io.reads_ps = iops;
            p->io.read_mib_s = mib;
        } else {
            p->io.writes_ps = iops;
            p->io.written_mib_s = mib;
        }
        ps->run.has_summary = 1;
    } else if ((v = sblex_after(t, "fsync:"))) {
        if (sblex_lit(&v, "IOPS=") || sblex_num(&v, &p->io.fsyncs_ps))
            return sblog_bad_line(ps, "\"fsync: IOPS=X\"", raw);
    }
    return IMPORT_OK;
}

/* Legacy (0.4, 0.5) fileio summary: "Operations performed:  N Read, N Write, N Other = N Total",
 * "Read XMb  Written YMb  Total transferred ZMb  (RMb/sec)", "R Requests/sec executed". The
 * counts are turned into rates in finish_point, once the total time is known. */
int sblog_legacy_fileio_line(struct parser *ps, const char *t, int *rc)
{
    struct point *p = &ps->run.p;
    const char *v;
    *rc = IMPORT_OK;
    if ((v = sblex_after(t, "Operations performed:"))) {
        int64_t rd, wr, ot, tot;
        const char *m = v;
        double rate;
        if (sblex_count(&m, &tot) == 0 && sblex_lit(&m, "(") == 0) {
            /* 0.4 / 0.5 memory: "Operations performed: N (X ops/sec)" */
            if (sblex_num(&m, &rate) || sblex_lit(&m, "ops/sec)") || !sblex_at_end(m)) {
                *rc = sblog_bad_line(ps, "\"Operations performed: N (X ops/sec)\"", t);
            } else {
                p->transactions = tot;
                p->tps = rate;
                ps->run.has_summary = 1;
                if (!ps->run.workload_hint)
                    ps->run.workload_hint = "memory";
            }
            return 1;
        }
        if (sblex_count(&v, &rd) || (sblex_lit(&v, "Read,") && sblex_lit(&v, "reads,")) ||
            sblex_count(&v, &wr) || (sblex_lit(&v, "Write,") && sblex_lit(&v, "writes,")) ||
            sblex_count(&v, &ot) || sblex_lit(&v, "Other =") || sblex_count(&v, &tot) ||
            sblex_lit(&v, "Total"))
            *rc = sblog_bad_line(
                ps, "\"Operations performed:  N Read, N Write, N Other = N Total\"", t);
        else if (sblog_set_extra(p, "ops_read", json_integer(rd)) ||
                 sblog_set_extra(p, "ops_write", json_integer(wr)) ||
                 sblog_set_extra(p, "ops_other", json_integer(ot)))
            *rc = IMPORT_ENOMEM;
        ps->run.has_summary = 1;
        return 1;
    }
    if ((v = sblex_after(t, "Read ")) && isdigit((unsigned char)*v)) {
        double rmib, wmib;
        v = t + 4;
        if (sblex_size_mib(&v, &rmib) || sblex_lit(&v, "Written") || sblex_size_mib(&v, &wmib))
            *rc = sblog_bad_line(ps, "\"Read XMb  Written YMb  Total transferred ...\"", t);
        else if (sblog_set_extra(p, "read_mib", json_real(rmib)) ||
                 sblog_set_extra(p, "written_mib", json_real(wmib)))
            *rc = IMPORT_ENOMEM;
        return 1;
    }
    v = t;
    if (isdigit((unsigned char)*v) && strstr(v, "Requests/sec executed")) {
        double x;
        if (sblex_num(&v, &x) || sblex_lit(&v, "Requests/sec executed") || !sblex_at_end(v))
            *rc = sblog_bad_line(ps, "\"X Requests/sec executed\"", t);
        else if (sblog_set_extra(p, "requests_ps", json_real(x)))
            *rc = IMPORT_ENOMEM;
        return 1;
    }
    return 0;
}

/* memory: "Total operations: N (X per second)" and "X MiB transferred (Y MiB/sec)" (1.0), or
 * "X MB transferred (Y MB/sec)" (0.4, 0.5: MB there is 1024 * 1024 bytes, sb_memory.c) */
int sblog_memory_line(struct parser *ps, const char *t, int *rc)
{
    struct point *p = &ps->run.p;
    const char *v;
    double mib, rate;
    *rc = IMPORT_OK;
    if ((v = sblex_after(t, "Total operations:"))) {
        int64_t n;
        if (sblex_count_rate(v, &n, &rate))
            *rc = sblog_bad_line(ps, "\"Total operations: N (X per second)\"", t);
        else {
            p->transactions = n;
            p->tps = rate;
            ps->run.has_summary = 1;
        }
        return 1;
    }
    v = t;
    if (isdigit((unsigned char)*v) && sblex_num(&v, &mib) == 0 &&
        (sblex_lit(&v, "MiB transferred (") == 0 || sblex_lit(&v, "MB transferred (") == 0)) {
        if (sblex_num(&v, &rate) || (sblex_lit(&v, "MiB/sec)") && sblex_lit(&v, "MB/sec)")))
            *rc = sblog_bad_line(ps, "\"X MiB transferred (Y MiB/sec)\"", t);
        else
            *rc = sblog_set_extra(p, "memory_mib_s", json_real(rate)) ? IMPORT_ENOMEM : 0;
        return 1;
    }
    return 0;
}
