/*
 * cmd_observe.c - `sizeup observe`: sample a running server read-only every --interval for
 * --duration and write the sizeup.workload/1 record (workload.h, docs/workload-record.md):
 * throughput per interval and its percentiles, the statement mix and its sysbench
 * equivalent, running sessions, I/O per transaction, the data size and the probe table for the
 * working set. Progress on stderr; the record rewritten whole after every interval, so a
 * killed observation keeps what it sampled; a summary on stdout at the end.
 */
#include "cli.h"
#include "commands.h"
#include "conn_cli.h"
#include "observe_drive.h"
#include "outfile.h"
#include "stopflag.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct observe_cli {
    struct conn_cli cc;
    struct myconn_opts conn;
    struct myconn_where where; /* the files' values, from the first connection (conn borrows
                                * its strings) */
    int tls_status;            /* CLI_RUN, or the exit status of a TLS conflict */
    char target[300];          /* "host:port" as asked, for messages before a connection */
    double interval_s, duration_s, give_up_s, mysql_timeout_s;
    int until_interrupted;
    const char *out;
};

#define A(field) CLI_AT(struct observe_cli, field)
static const struct cli_opt observe_options[] = {
    CONN_CLI_OPTIONS(struct observe_cli, cc, conn),
    {"interval", 0, CLI_SECONDS, A(interval_s), .min = 1, .max = 3600, .dflt = "10s",
     .help = "length of one interval: the server's counters are read at its ends, running "
             "sessions "
             "10 times in it"},
    {"duration", 0, CLI_SECONDS, A(duration_s), .min = 1, .max = 31 * 86400.0, .dflt = "10m",
     .help = "how long to observe"},
    {"until-interrupted", 0, CLI_FLAG, A(until_interrupted),
     .help = "observe until SIGINT or SIGTERM (a busy-hour window), not --duration; the "
             "signal is then the normal end (exit 0)"},
    {"out", 'o', CLI_PATH, A(out), .dflt_doc = "the record to stdout at the end, no summary",
     .help = "the sizeup.workload/1 record, rewritten whole after every interval"},
    {"mysql-timeout", 0, CLI_SECONDS, A(mysql_timeout_s), .min = 1, .max = 3600, .dflt = "10s",
     .help = "read/write timeout of every statement"},
    {"give-up", 0, CLI_SECONDS, A(give_up_s), .min = 1, .max = 86400, .dflt = "60s",
     .help = "how long a lost server may take to answer again before the observation ends "
             "(exit 4, what was sampled kept)"},
    {0}};
#undef A

const struct cli_cmd cmd_observe_cli = {
    .name = "observe",
    .usage = "Usage: sizeup observe [OPTIONS] [-o WORKLOAD.json]",
    .description =
        "Sample a running MySQL-protocol server (MariaDB, MySQL) read-only and write what it\n"
        "carries as a sizeup.workload/1 record (docs/workload-record.md): transactions and\n"
        "queries per second per interval with mean, p50, p95, p99 and max, statements per\n"
        "second by class, running sessions, I/O per transaction, the buffer-pool hit ratio,\n"
        "the data size per schema, the mix of sysbench workloads that issues the same\n"
        "statements (with its residual) and a probe table size for the working set. Size for\n"
        "it with `sizeup rank --require WORKLOAD.json`.\n"
        "\n"
        "Only SHOW GLOBAL STATUS, SHOW GLOBAL VARIABLES and SELECTs of information_schema\n"
        "(TABLES; INNODB_METRICS when readable) are sent: nothing is written, created, locked\n"
        "or set, and no privilege beyond USAGE is needed (PROCESS for InnoDB's transaction\n"
        "counters). Transactions per second: InnoDB's own commit and rollback counters when\n"
        "they are on (innodb_monitor_enable = 'trx_%'), else COMMITs and ROLLBACKs plus the\n"
        "statements that ran in autocommit (the record names the rule).\n"
        "\n" CONN_CLI_DOC,
    .options = observe_options,
    .min_operands = 0,
    .max_operands = 0,
    .epilog = "Exit status: 0 done; 1 the server refused a statement or the record could not\n"
              "be written; 2 bad command line; 4 the server could not be reached, or went away\n"
              "and did not answer within --give-up (what was sampled is kept); 130 interrupted\n"
              "(SIGINT or SIGTERM without --until-interrupted; what was sampled is kept)."};

/* b bytes for people: "512 B", "1.5 GiB". */
static void human_bytes(double b, char *buf, size_t cap)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    while (b >= 1024 && i < 5) {
        b /= 1024;
        i++;
    }
    snprintf(buf, cap, i ? "%.1f %s" : "%.0f %s", b, u[i]);
}

/* The summary on stdout (with -o FILE). */
static void print_summary(const struct observe_cli *oc, const struct workload *w)
{
    struct workload_summary s;
    char b1[32], b2[32];
    if (workload_summarise(w, &s) != 0)
        return;
    printf("sizeup observe: %s:%u (%s), %.0f s in %zu interval%s of %g s, %zu left out%s\n",
           w->host, w->port, w->version, s.seconds, s.counted, s.counted == 1 ? "" : "s",
           w->interval_s, s.excluded, w->complete ? "" : " (incomplete)");
    if (!s.counted) {
        printf("  no interval was counted: nothing to size for\n");
        return;
    }
    printf("  %-20s mean %.1f  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f  (%s rule)\n", "tps",
           s.tps.mean, s.tps.p50, s.tps.p95, s.tps.p99, s.tps.max, w->tps_rule);
    if (s.aborted > 0 && s.transactions > 0)
        printf("  %-20s %.0f of %.0f transactions (%.1f %%): rolled back by InnoDB, counted "
               "as ended; their partial statements may read as other workloads in the mix\n",
               "deadlock victims", s.aborted, s.transactions, 100 * s.aborted / s.transactions);
    printf("  %-20s mean %.1f  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f\n", "qps", s.qps.mean,
           s.qps.p50, s.qps.p95, s.qps.p99, s.qps.max);
    if (w->n_sessions)
        printf("  %-20s mean %.1f  p95 %.1f  max %.0f\n", "sessions running", s.sessions_mean,
               s.sessions_p95, s.sessions_max);
    else
        printf("  %-20s - (no sample: the observation ended before the first)\n",
               "sessions running");
    printf("  %-20s", "mix");
    for (int k = 0; k < WM_N_WORKLOAD; k++)
        if (s.weight[k] > 0)
            printf(" %s %.1f %%", workmix_workload_name((enum workmix_workload)k),
                   100 * s.weight[k]);
    printf("  (residual %.1f %% of statements)\n", 100 * s.mix.residual);
    printf("  %-20s mean %.1f  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f\n", "mix tps", s.mix_tps.mean,
           s.mix_tps.p50, s.mix_tps.p95, s.mix_tps.p99, s.mix_tps.max);
    if (isfinite(s.ios_per_tx))
        printf("  %-20s %.2f I/Os (%.2f reads, %.2f writes), %.2f fsyncs, hit ratio %.2f %%\n",
               "per transaction", s.ios_per_tx, s.reads_per_tx, s.writes_per_tx, s.fsyncs_per_tx,
               100 * s.bp_hit_ratio);
    if (isfinite(s.data_bytes)) {
        human_bytes(s.data_bytes, b1, sizeof b1);
        printf("  %-20s %s in %zu schema%s\n", "data", b1, w->n_schemas,
               w->n_schemas == 1 ? "" : "s");
    }
    human_bytes(isfinite(s.working_set_bytes) ? s.working_set_bytes : 0, b2, sizeof b2);
    printf("  %-20s --tables=%ld --table-size=%ld (working set %s)\n", "probe with", s.probe_tables,
           s.probe_table_size, b2);
    printf("  %-20s sizeup rank --require %s --points POINTS\n", "size for it", oc->out);
}

/* observe_drive's hook after the first connection: the option files as it read them (one
 * login in all, conn_cli.h) kept in oc->where, which oc->conn borrows from; TLS conflicts
 * refused with oc->tls_status set. */
static int connected(void *arg, const struct myconn *c, struct myconn_where *where)
{
    struct observe_cli *oc = arg;
    oc->tls_status = conn_cli_connected(c, &oc->conn, &oc->cc, &oc->where);
    *where = oc->where;
    return oc->tls_status != CLI_RUN;
}

int cmd_observe(int argc, char **argv)
{
    struct observe_cli oc;
    struct observe_drive_opts d;
    struct cli_args a;
    struct myconn_where where;
    struct workload w;
    time_t now;
    struct tm tm;
    int rc, status;
    memset(&oc, 0, sizeof oc);
    oc.conn.connect_timeout_s = 5;
    oc.cc.connect_first = 1; /* one login: the first connection reads the option files */
    oc.tls_status = CLI_RUN;
    if ((rc = cli_parse(&cmd_observe_cli, argc, argv, &oc, &a)) != CLI_RUN)
        return rc;
    if ((rc = conn_cli_check("observe", &cmd_observe_cli, &a, &oc.conn, &oc.cc)) != CLI_RUN)
        return rc;
    if (oc.until_interrupted && cli_given(&cmd_observe_cli, &a, "duration"))
        return cli_usage_error("observe", "--until-interrupted observes until a signal: it "
                                          "excludes --duration");
    if (oc.interval_s > oc.duration_s && !oc.until_interrupted)
        return cli_usage_error("observe", "--interval %g s is longer than --duration %g s",
                               oc.interval_s, oc.duration_s);
    if (!oc.until_interrupted && oc.duration_s / oc.interval_s > OBSERVE_MAX_INTERVALS)
        return cli_usage_error("observe",
                               "--duration %g s in intervals of %g s is %.0f intervals; one record "
                               "holds at most %d: a longer --interval",
                               oc.duration_s, oc.interval_s, oc.duration_s / oc.interval_s,
                               OBSERVE_MAX_INTERVALS);
    oc.conn.timeout_s = (unsigned)ceil(oc.mysql_timeout_s);
    if (!oc.conn.db)
        oc.conn.db = ""; /* no default database: observing needs none */
    workload_init(&w);
    w.interval_s = oc.interval_s;
    now = time(NULL);
    gmtime_r(&now, &tm);
    strftime(w.started, sizeof w.started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    /* the record's file must be writable before anything is observed: an hour of sampling
     * must not end in "cannot write" */
    if (oc.out && strcmp(oc.out, "-") != 0) {
        struct outfile probe_out;
        char err[512];
        if (outfile_open(&probe_out, oc.out, err, sizeof err) != 0) {
            fprintf(stderr, "sizeup: %s\n", err);
            return SIZEUP_EXIT_USAGE;
        }
        outfile_abort(&probe_out);
    }
    if ((rc = conn_cli_open(&oc.conn, &oc.cc, &where)) != CLI_RUN) {
        conn_cli_close(&oc.cc);
        return rc;
    }
    /* where the connection goes, as far as the command line says (the files may say more) */
    if (oc.conn.socket)
        snprintf(oc.target, sizeof oc.target, "localhost (%s)", oc.conn.socket);
    else
        snprintf(oc.target, sizeof oc.target, "%s:%u",
                 oc.conn.host ? oc.conn.host : "the option files' host",
                 oc.conn.port ? oc.conn.port : MYCONN_DEFAULT_PORT);
    snprintf(w.host, sizeof w.host, "%s", oc.conn.host ? oc.conn.host : "localhost");
    w.port = oc.conn.port;
    if (stopflag_install() != 0) {
        fprintf(stderr, "sizeup: cannot handle SIGINT/SIGTERM: %s\n", strerror(errno));
        conn_cli_close(&oc.cc);
        return SIZEUP_EXIT_FAIL;
    }
    memset(&d, 0, sizeof d);
    d.conn = &oc.conn;
    d.target = oc.target;
    d.interval_s = oc.interval_s;
    d.duration_s = oc.duration_s;
    d.give_up_s = oc.give_up_s;
    d.until_interrupted = oc.until_interrupted;
    d.out = oc.out;
    d.version = SIZEUP_VERSION;
    d.progress = stderr;
    d.connected = connected;
    d.arg = &oc;
    status = cli_exit_of_drive(observe_drive(&d, &w));
    if (oc.tls_status != CLI_RUN)
        status = oc.tls_status; /* said on stderr */
    stopflag_restore();
    if (w.n || status == SIZEUP_EXIT_OK || status == SIZEUP_EXIT_INTERRUPTED) {
        if (observe_drive_write(&d, &w) != 0) {
            if (status == SIZEUP_EXIT_OK)
                status = SIZEUP_EXIT_FAIL;
        } else if (oc.out && strcmp(oc.out, "-") != 0) {
            print_summary(&oc, &w);
        }
    }
    workload_destroy(&w);
    conn_cli_close(&oc.cc);
    return status;
}
