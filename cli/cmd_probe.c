/*
 * cmd_probe.c - `sizeup probe prepare|run|cleanup`: sysbench 1.0.20-compatible OLTP probes.
 *
 * Options carry sysbench's names (docs/reference/sysbench.md 3). The sysbench-layout report goes to
 * stdout, progress and errors to stderr, one sizeup.point/1 record per --threads level to --out
 * (appended, flushed and fsync'ed when the level ends).
 */
#include "append.h"
#include "cli.h"
#include "commands.h"
#include "conn_cli.h"
#include "curve.h"
#include "import.h"
#include "ladder.h"
#include "launcher.h"
#include "levelfile.h"
#include "limit.h"
#include "outlock.h"
#include "passes.h"
#include "point.h"
#include "probe.h"
#include "probe_curve.h"
#include "probe_drive.h"
#include "probe_tables.h"
#include "readfile.h"
#include "report.h"
#include "stopflag.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* --threads: a list of levels, or "auto" (the ladder). */
struct probe_threads {
    int auto_threads;
    long long v[LIMIT_LEVELS_MAX];
    size_t n;
};

struct probe_cli {
    struct probe_config cfg;
    struct probe_threads threads;
    struct conn_cli cc; /* the connection options besides cfg.conn (conn_cli.h) */
    const char *target, *config, *out;
    enum sbrand_dist dist;
    unsigned spec_iter, spec_pct, spec_res;
    double pareto_h;
    double report_interval_s; /* --report-interval, whole seconds */
    double mysql_timeout_s;   /* --mysql-timeout, whole seconds */
    struct ladder_opts ladder;
    struct slo slo;      /* --slo; target_s 0 when absent */
    int resume;          /* --resume */
    double give_up_s;    /* --give-up */
    unsigned remeasure;  /* --remeasure */
    unsigned replicates; /* --replicates */
    double budget_s;     /* --budget; 0 = levels x --max-time */

    /* several load generators (launcher.h) */
    const char *client;          /* --client; NULL when not given */
    const char *start_at;        /* --start-at */
    struct launch_client launch; /* this process's share, resolved for `run` */
    struct myconn_where where;   /* cmd_probe_from_record: what the connection resolved to (the
                                  * options point into it) */
    char *record_args;           /* cmd_probe_from_record: the argv texts the options point into
                                  * (owned) */
};

#define STR_(x) #x
#define STR(x) STR_(x)

static int parse_threads(const char *s, void *dest, char *err, size_t cap)
{
    struct probe_threads *t = dest, v;
    (void)err;
    (void)cap;
    memset(&v, 0, sizeof v);
    if (strcmp(s, "auto") == 0)
        v.auto_threads = 1;
    else if (units_parse_int_list(s, LIMIT_THREADS_MAX, v.v, LIMIT_LEVELS_MAX, &v.n) != 0)
        return -1;
    *t = v;
    return 0;
}

static int parse_ignore(const char *s, void *dest, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    return myconn_ignore_parse(s, dest);
}

static const struct cli_choice workloads[] = {{"oltp_read_write", OLTP_READ_WRITE},
                                              {"oltp_read_only", OLTP_READ_ONLY},
                                              {"oltp_write_only", OLTP_WRITE_ONLY},
                                              {"oltp_point_select", OLTP_POINT_SELECT},
                                              {"oltp_insert", OLTP_INSERT},
                                              {"oltp_update_index", OLTP_UPDATE_INDEX},
                                              {"oltp_update_non_index", OLTP_UPDATE_NON_INDEX},
                                              {"oltp_delete", OLTP_DELETE},
                                              {"select_random_points", OLTP_SELECT_RANDOM_POINTS},
                                              {"select_random_ranges", OLTP_SELECT_RANDOM_RANGES},
                                              {"oltp_legacy", OLTP_LEGACY},
                                              {NULL, 0}};

static const struct cli_choice rand_types[] = {{"special", SBRAND_SPECIAL},
                                               {"uniform", SBRAND_UNIFORM},
                                               {"gaussian", SBRAND_GAUSSIAN},
                                               {"pareto", SBRAND_PARETO},
                                               {NULL, 0}};

static const struct cli_choice ps_modes[] = {
    {"auto", MYCONN_PS_AUTO}, {"disable", MYCONN_PS_DISABLE}, {NULL, 0}};

#define A(field) CLI_AT(struct probe_cli, field)
/* a count per transaction (sysbench's --point-selects and the like) */
#define PER_TRX(name, field, dfl, text)                                                            \
    {                                                                                              \
        name, 0, CLI_INT, A(cfg.oltp.field), .min = 0, .max = 1000000, .dflt = dfl, .help = text   \
    }
static const struct cli_opt probe_options[] = {
    {"workload", 0, CLI_CHOICE, A(cfg.oltp.workload), .choices = workloads,
     .dflt = "oltp_read_write", .help = "the sysbench 1.0.20 script to run"},
    CONN_CLI_OPTIONS(struct probe_cli, cc, cfg.conn),
    {"tables", 0, CLI_INT, A(cfg.oltp.tables), .min = LIMIT_TABLES_MIN, .max = LIMIT_TABLES_MAX,
     .dflt = "1", .help = "number of tables sbtest1..N"},
    {"table-size", 0, CLI_INT, A(cfg.oltp.table_size), .min = LIMIT_TABLE_SIZE_MIN,
     .max = LIMIT_TABLE_SIZE_MAX, .dflt = "10000", .help = "rows per table"},
    {"threads", 0, CLI_CUSTOM, A(threads), .arg_name = "LIST", .parse = parse_threads, .dflt = "1",
     .takes = "a list of up to " STR(LIMIT_LEVELS_MAX) " positive integers up to " STR(
         LIMIT_THREADS_MAX),
     .example = "1,2,4,8, or auto",
     .help = "client threads, or a list 1,2,4,8: one level (and one point) each, or 'auto': "
             "double from 1 until the throughput stops growing, then add levels near the knee"},
    {"time", 0, CLI_SECONDS, A(cfg.time_s), .min = LIMIT_TIME_MIN, .max = LIMIT_TIME_MAX,
     .dflt = "10s",
     .help = "fixed run time per level, 0 = no limit; without --time and --events a level is "
             "calibrated (--precision)"},
    {"precision", 0, CLI_FRACTION, A(cfg.precision), .arg_name = "PCT", .min = LIMIT_PRECISION_MIN,
     .max = LIMIT_PRECISION_MAX, .dflt = "2%",
     .help = "calibrated level: cut the warm-up (MSER-5) and stop once the 95 % interval of tps "
             "(20 batch means) is within PCT of the mean"},
    {"min-time", 0, CLI_SECONDS, A(cfg.min_time_s), .min = LIMIT_MIN_TIME_MIN,
     .max = LIMIT_MIN_TIME_MAX, .dflt = "5s", .help = "calibrated: never stop before"},
    {"max-time", 0, CLI_SECONDS, A(cfg.max_time_s), .min = LIMIT_MAX_TIME_MIN,
     .max = LIMIT_MAX_TIME_MAX, .dflt = "60s",
     .help = "calibrated: stop at the latest after, steady or not"},
    {"replicates", 0, CLI_INT, A(replicates), .min = 1, .max = PASSES_MAX_REPS, .dflt = "5",
     .help = "calibrated: the levels that decide the answer are measured again in shuffled "
             "passes, up to N replicates each, until their intervals (run-to-run noise "
             "included, and no narrower than the noise of the target's earlier levels in "
             "--out) reach the precision or the noise makes it unreachable; 1 = one pass "
             "(run-to-run noise unknown)"},
    {"budget", 0, CLI_SECONDS, A(budget_s), .min = 0.001, .max = 31536000,
     .dflt_doc = "levels x the max-time",
     .help = "calibrated: most time of all the curve's "
             "measurements"},
    {"max-threads", 0, CLI_INT, A(ladder.max_threads), .min = LIMIT_THREADS_MIN,
     .max = LIMIT_THREADS_MAX, .dflt = "64",
     .help = "--threads auto: largest level, capped by the server's max_connections - 1"},
    {"max-points", 0, CLI_INT, A(ladder.max_points), .min = LIMIT_MAX_POINTS_MIN,
     .max = LIMIT_MAX_POINTS_MAX, .dflt = "10", .help = "--threads auto: most levels"},
    {"max-latency", 0, CLI_MS, A(ladder.max_latency_ms), .min = 0.001, .max = 1e7,
     .dflt_doc = "4 times the --slo latency, else none",
     .help = "--threads auto: stop doubling once a level's latency (the --slo statistic, else "
             "the --percentile) passes it"},
    {"slo", 0, CLI_SLO, A(slo),
     .help = "--threads auto: latency target, e.g. p95:50ms or avg:20ms; doubling stops at 4 "
             "times it"},
    {"events", 0, CLI_INT, A(cfg.events), .min = 0, .max = 4.6e18, .dflt = "0",
     .help = "stop after N events, 0 = no limit"},
    {"rate", 0, CLI_REAL, A(cfg.rate), .arg_name = "TPS", .min = 0, .max = 1e9, .dflt = "0",
     .help = "open loop at this average rate (Poisson arrivals), latency from the intended "
             "start; 0 = closed loop"},
    {"report-interval", 0, CLI_SECONDS, A(report_interval_s), .min = 0, .max = 86400, .dflt = "0",
     .help = "intermediate lines every so many whole seconds, 0 = none"},
    {"percentile", 0, CLI_REAL, A(cfg.percentile), .arg_name = "P", .min = 0, .max = 100,
     .dflt = "95", .help = "latency percentile of the report, 0 disables"},
    {"rand-type", 0, CLI_CHOICE, A(dist), .choices = rand_types, .dflt = "special",
     .help = "random distribution of the ids, as sysbench 1.0.20 draws them"},
    {"rand-seed", 0, CLI_INT, A(cfg.rand_seed), .min = 0, .max = 4294967295.0, .dflt = "0",
     .help = "RNG seed, 0 = the current time"},
    {"rand-spec-iter", 0, CLI_INT, A(spec_iter), .min = 1, .max = 1000, .dflt = "12",
     .help = "special/gaussian iterations"},
    {"rand-spec-pct", 0, CLI_INT, A(spec_pct), .min = 1, .max = 100, .dflt = "1",
     .help = "special: hot range, % of ids"},
    {"rand-spec-res", 0, CLI_INT, A(spec_res), .min = 0, .max = 99, .dflt = "75",
     .help = "special: % of draws in it"},
    {"rand-pareto-h", 0, CLI_REAL, A(pareto_h), .arg_name = "H", .min = 1e-9, .max = 1 - 1e-9,
     .dflt = "0.2", .help = "pareto shape"},
    {"range-size", 0, CLI_INT, A(cfg.oltp.range_size), .min = 1, .max = 1000000000, .dflt = "100",
     .help = "rows per range SELECT"},
    PER_TRX("point-selects", point_selects, "10", "point SELECTs per transaction"),
    PER_TRX("simple-ranges", simple_ranges, "1", "simple ranges per transaction"),
    PER_TRX("sum-ranges", sum_ranges, "1", "SUM() ranges per transaction"),
    PER_TRX("order-ranges", order_ranges, "1", "ORDER BY ranges per transaction"),
    PER_TRX("distinct-ranges", distinct_ranges, "1", "DISTINCT ranges per transaction"),
    PER_TRX("index-updates", index_updates, "1", "index UPDATEs per transaction"),
    PER_TRX("non-index-updates", non_index_updates, "1", "non-index UPDATEs per transaction"),
    PER_TRX("delete-inserts", delete_inserts, "1", "DELETE+INSERT pairs per transaction"),
    {"range-selects", 0, CLI_BOOL, A(cfg.oltp.range_selects), .dflt = "on",
     .help = "range SELECTs"},
    {"random-points", 0, CLI_INT, A(cfg.oltp.random_points), .min = 1, .max = 1000, .dflt = "10",
     .help = "select_random_points: values in IN()"},
    {"number-of-ranges", 0, CLI_INT, A(cfg.oltp.number_of_ranges), .min = 1, .max = 1000,
     .dflt = "10", .help = "select_random_ranges: BETWEEN ranges"},
    {"delta", 0, CLI_INT, A(cfg.oltp.delta), .min = 0, .max = 1000000000, .dflt = "5",
     .help = "select_random_ranges: range size"},
    {"skip-trx", 0, CLI_BOOL, A(cfg.oltp.skip_trx), .dflt = "off",
     .help = "no BEGIN/COMMIT (autocommit)"},
    {"auto-inc", 0, CLI_BOOL, A(cfg.oltp.auto_inc), .dflt = "on", .help = "AUTO_INCREMENT id"},
    {"secondary", 0, CLI_BOOL, A(cfg.oltp.secondary), .dflt = "off",
     .help = "KEY xid instead of PRIMARY KEY"},
    {"create-secondary", 0, CLI_BOOL, A(cfg.oltp.create_secondary), .dflt = "on",
     .help = "create index k_N after the load"},
    {"mysql-storage-engine", 0, CLI_STRING, A(cfg.oltp.storage_engine), .dflt = "innodb",
     .help = "storage engine"},
    {"mysql-ignore-errors", 0, CLI_CUSTOM, A(cfg.conn.ignore), .arg_name = "LIST",
     .parse = parse_ignore, .dflt = "1213,1020,1205",
     .takes = "'all' or a comma-separated list of error numbers",
     .help = "errnos that restart the transaction, or 'all'"},
    {"db-ps-mode", 0, CLI_CHOICE, A(cfg.conn.ps_mode), .arg_name = "MODE", .choices = ps_modes,
     .dflt = "auto", .help = "server-side prepared statements"},
    {"target", 0, CLI_STRING, A(target),
     .dflt_doc = "the host connected to (localhost with a socket)",
     .help = "what is measured, in the records"},
    {"config", 0, CLI_STRING, A(config), .arg_name = "ID",
     .help = "catalog configuration id, in the records"},
    {"out", 'o', CLI_PATH, A(out), .help = "append one sizeup.point/1 record per level"},
    {"resume", 0, CLI_FLAG, A(resume),
     .help = "levels of this target and workload already in --out (complete ones) are taken "
             "from it, not measured again; the auto ladder goes on from them"},
    {"mysql-timeout", 0, CLI_SECONDS, A(mysql_timeout_s), .min = LIMIT_TIMEOUT_MIN,
     .max = LIMIT_TIMEOUT_MAX, .dflt = "10s",
     .help = "read/write timeout of every statement, whole seconds: a server that does not "
             "answer for this long loses the connection"},
    {"give-up", 0, CLI_SECONDS, A(give_up_s), .min = LIMIT_GIVE_UP_MIN, .max = LIMIT_GIVE_UP_MAX,
     .dflt = "30s",
     .help = "after a level that stalled, reconnected or lost the server: how long to wait for "
             "the server to answer again before giving up (exit 4); inside a level, how long a "
             "lost connection keeps reconnecting (the level's end comes first)"},
    {"remeasure", 0, CLI_INT, A(remeasure), .min = 0, .max = 10, .dflt = "1",
     .help = "a level flagged stalled, reconnects or partial is measured again, up to N times, "
             "once the server answers (every record is kept; flagged ones do not count)"},
    {"workers", 0, CLI_INT, A(cfg.workers), .min = LIMIT_THREADS_MIN, .max = LIMIT_THREADS_MAX,
     .dflt_doc = "online CPUs, at most one per connection",
     .help = "OS threads driving the --threads connections (each drives many; "
             "docs/load-generator.md)"},
    {"client", 0, CLI_STRING, A(client), .arg_name = "I/K",
     .dflt_doc = "from mpirun, srun or a Kubernetes Indexed Job when present, else one client",
     .help = "run share I (0-based) of a level measured by K load generators and write a part "
             "for sizeup merge; 'none' ignores the launcher's environment"},
    {"start-at", 0, CLI_STRING, A(start_at), .arg_name = "TIME",
     .help = "connect, then start measuring at this wall-clock time (RFC 3339, e.g. "
             "2026-12-01T10:00:00Z), the same on every client"},
    {0}};
#undef PER_TRX
#undef A

const struct cli_cmd cmd_probe_cli = {
    .name = "probe",
    .usage = "Usage: sizeup probe prepare|run|cleanup [OPTIONS]",
    .description =
        "sysbench 1.0.20-compatible OLTP probes over the MySQL protocol: same schema, statements,\n"
        "transaction shapes and random distributions; report in sysbench's layout on stdout.\n"
        "\n"
        "  prepare  create and load sbtest1..N (--tables, --table-size, over --threads\n"
        "           connections); each table is marked as sizeup's\n"
        "  run      measure each --threads level (or the auto ladder) and append its point to\n"
        "           --out\n"
        "  cleanup  drop the tables sizeup created\n"
        "\n" CONN_CLI_DOC,
    .options = probe_options,
    .min_operands = 1,
    .max_operands = 1,
    .operands_hint = "a command is required: prepare, run or cleanup",
    .epilog =
        "Exit status: 0 done; 1 a server error, a refused connection or a record that could\n"
        "not be written; 2 bad command line, or a missing --defaults-file; 3 --resume could\n"
        "not read --out; 4 the server could not be reached, or did not answer again within\n"
        "--give-up; 130 interrupted (SIGINT or SIGTERM, treated alike): what was measured is\n"
        "kept."};

/* A whole number of seconds (the client library's and the report's unit). */
static int whole_seconds(const char *opt, double s, unsigned *out)
{
    if (s != floor(s))
        return cli_usage_error("probe", "--%s takes whole seconds, not %gs", opt, s);
    *out = (unsigned)s;
    return 0;
}

/* `run` as one of several load generators (launcher.h): this process's share from --client or
 * the launcher's environment, and what a part needs (one level of a fixed --time, so that the
 * clients' windows agree, at least one connection each, and a file for sizeup merge). */
static int client_share_check(struct probe_cli *pc, int time_given)
{
    char err[300];
    struct probe_config *cfg = &pc->cfg;
    if (launch_client_resolve(pc->client, NULL, NULL, &pc->launch, err, sizeof err))
        return cli_usage_error("probe", "%s", err);
    cfg->client_index = pc->launch.index;
    cfg->client_count = pc->launch.count;
    if (!cfg->client_count)
        return CLI_RUN;
    if (pc->threads.auto_threads || pc->threads.n != 1)
        return cli_usage_error("probe",
                               "%s: a part is one level: give --threads N (the level's "
                               "connections over all %u clients)",
                               pc->launch.what, cfg->client_count);
    if ((unsigned)pc->threads.v[0] < cfg->client_count)
        return cli_usage_error("probe", "%s: --threads %lld cannot be split over %u clients",
                               pc->launch.what, pc->threads.v[0], cfg->client_count);
    if (!time_given || cfg->time_s <= 0 || cfg->events)
        return cli_usage_error("probe",
                               "%s: a part needs --time SECONDS (not --events or a "
                               "calibrated level), so the clients' windows agree",
                               pc->launch.what);
    if (!pc->out)
        return cli_usage_error("probe", "%s: a part is for sizeup merge: give --out FILE",
                               pc->launch.what);
    return CLI_RUN;
}

/* What the option table does not set: sysbench's defaults of the library, the ladder's, the
 * connection's handshake limit. */
static void probe_cli_init(struct probe_cli *pc)
{
    memset(pc, 0, sizeof *pc);
    probe_config_defaults(&pc->cfg); /* the table's defaults below say the same (test_cli_help) */
    pc->ladder = ladder_opts_default();
}

/* Parse the command line into pc; @return CLI_RUN, or the exit status (--help, misuse). */
static int parse_args(int argc, char **argv, struct probe_cli *pc, const char **command)
{
    struct probe_config *cfg = &pc->cfg;
    struct cli_args a;
    char msg[200];
    int rc;
    if ((rc = cli_parse(&cmd_probe_cli, argc, argv, pc, &a)) != CLI_RUN)
        return rc;
    *command = a.argv[0];
    if (strcmp(*command, "prepare") && strcmp(*command, "run") && strcmp(*command, "cleanup"))
        return cli_usage_error("probe", "unknown command '%s' (prepare, run or cleanup)", *command);
    if ((rc = conn_cli_check("probe", &cmd_probe_cli, &a, &cfg->conn, &pc->cc)) != CLI_RUN)
        return rc;
    cfg->give_up_s = pc->give_up_s; /* a connection's reconnects inside a level stop there too */
    if (whole_seconds("mysql-timeout", pc->mysql_timeout_s, &cfg->conn.timeout_s) ||
        whole_seconds("report-interval", pc->report_interval_s, &cfg->report_interval_s))
        return SIZEUP_EXIT_USAGE;
    if (sbrand_params_init(&cfg->rand, pc->dist, pc->spec_iter, pc->spec_pct, pc->spec_res,
                           pc->pareto_h))
        return cli_usage_error("probe", "invalid --rand-spec-* or --rand-pareto-h value");
    if (oltp_opts_check(&cfg->oltp, msg, sizeof msg))
        return cli_usage_error("probe", "%s", msg);
    if (pc->slo.target_s > 0 && !cli_given(&cmd_probe_cli, &a, "max-latency"))
        pc->ladder.max_latency_ms = ladder_latency_bound_ms(&pc->slo);
    if (cli_given(&cmd_probe_cli, &a, "precision") &&
        (cli_given(&cmd_probe_cli, &a, "time") || cli_given(&cmd_probe_cli, &a, "events")))
        return cli_usage_error("probe", "--precision calibrates the run length; it excludes "
                                        "--time and --events");
    if (!cli_given(&cmd_probe_cli, &a, "time") && !cfg->events) /* calibrated */
        cfg->time_s = 0;
    else
        cfg->precision = 0;
    if (cfg->precision > 0 && !(cfg->min_time_s < cfg->max_time_s))
        return cli_usage_error("probe", "--min-time (%g s) must be below --max-time (%g s)",
                               cfg->min_time_s, cfg->max_time_s);
    if (cfg->time_s == 0 && cfg->events == 0 && cfg->precision == 0 && strcmp(*command, "run") == 0)
        return cli_usage_error("probe", "--time 0 needs --events N (an endless run measures "
                                        "nothing)");
    if (pc->start_at && launch_parse_rfc3339(pc->start_at, &cfg->start_at_unix_ns))
        return cli_usage_error("probe",
                               "--start-at takes an RFC 3339 time, e.g. 2026-12-01T10:00:00Z, "
                               "not '%s'",
                               pc->start_at);
    if (strcmp(*command, "run") == 0)
        return client_share_check(pc, cli_given(&cmd_probe_cli, &a, "time"));
    return CLI_RUN;
}

/* One member of a record's options object as `--name=value` for the probe's option table (its
 * key with '-' for '_'), into buf; 0, or -1 when the table has no such option or the value is
 * not a scalar (nested objects, the thread list, a client's share: not a configuration). */
static int record_arg(const char *key, const json_t *v, char *buf, size_t cap)
{
    static const char *const skip[] = {"threads", "client", "start-at", "out", "resume", NULL};
    char name[64];
    const struct cli_opt *o;
    size_t k;
    for (k = 0; key[k] && k + 1 < sizeof name; k++)
        name[k] = key[k] == '_' ? '-' : key[k];
    name[k] = '\0';
    for (size_t i = 0; skip[i]; i++)
        if (strcmp(name, skip[i]) == 0)
            return -1;
    for (o = cmd_probe_cli.options; o->name && strcmp(o->name, name) != 0; o++)
        ;
    if (!o->name)
        return -1;
    if (json_is_string(v))
        return snprintf(buf, cap, "--%s=%s", name, json_string_value(v)) < (int)cap ? 0 : -1;
    if (json_is_boolean(v))
        return snprintf(buf, cap, "--%s=%s", name, json_is_true(v) ? "on" : "off") < (int)cap ? 0
                                                                                              : -1;
    if (!json_is_number(v))
        return -1;
    switch (o->type) {
    case CLI_SECONDS:
        snprintf(buf, cap, "--%s=%.17gs", name, json_number_value(v));
        break;
    case CLI_FRACTION:
        snprintf(buf, cap, "--%s=%.17g", name, json_number_value(v));
        break;
    default:
        if (json_is_integer(v))
            snprintf(buf, cap, "--%s=%lld", name, (long long)json_integer_value(v));
        else
            snprintf(buf, cap, "--%s=%.17g", name, json_number_value(v));
    }
    return 0;
}

struct probe_cli *cmd_probe_from_record(const json_t *options)
{
    enum { MAX_ARGS = 96, ARG_LEN = 320 };
    char *argv[MAX_ARGS + 3];
    char probe[] = "probe", run[] = "run";
    const char *key, *command = NULL;
    const json_t *v;
    struct probe_cli *pc;
    int argc = 0;
    if (!json_is_object(options) || !(pc = malloc(sizeof *pc)))
        return NULL;
    probe_cli_init(pc);
    if (!(pc->record_args = malloc(MAX_ARGS * ARG_LEN))) {
        free(pc);
        return NULL;
    }
    argv[argc++] = probe;
    json_object_foreach((json_t *)options, key, v)
    {
        if (argc - 1 >= MAX_ARGS)
            break;
        char *arg = pc->record_args + (size_t)(argc - 1) * ARG_LEN;
        if (record_arg(key, v, arg, ARG_LEN) == 0)
            argv[argc++] = arg;
    }
    argv[argc++] = run;
    argv[argc] = NULL;
    if (parse_args(argc, argv, pc, &command) != CLI_RUN ||
        conn_cli_open(&pc->cfg.conn, &pc->cc, &pc->where) != CLI_RUN) {
        cmd_probe_record_free(pc);
        return NULL;
    }
    pc->cfg.out = NULL;
    pc->cfg.progress = stderr;
    pc->cfg.stop = stopflag_get();
    return pc;
}

const struct probe_config *cmd_probe_record_config(const struct probe_cli *pc)
{
    return &pc->cfg;
}

void cmd_probe_record_free(struct probe_cli *pc)
{
    if (!pc)
        return;
    conn_cli_close(&pc->cc);
    free(pc->record_args);
    free(pc);
}

int cmd_probe_config_default(struct probe_config *cfg)
{
    struct probe_cli pc;
    const char *command = NULL;
    char probe[] = "probe", prepare[] = "prepare";
    char *argv[] = {probe, prepare, NULL};
    probe_cli_init(&pc);
    if (parse_args(2, argv, &pc, &command) != CLI_RUN)
        return -1;
    *cfg = pc.cfg;
    return 0;
}

/* The records' options: the configuration's, the thread list or the ladder's. */
static json_t *options_json(const struct probe_cli *pc)
{
    json_t *j = probe_config_json(&pc->cfg), *th;
    if (!j)
        return NULL;
    if (pc->threads.auto_threads) {
        th = json_string("auto");
    } else {
        th = json_array();
        for (size_t i = 0; i < pc->threads.n; i++)
            json_array_append_new(th, json_integer(pc->threads.v[i]));
    }
    json_object_set_new(j, "threads", th);
    if (pc->cfg.workers)
        json_object_set_new(j, "workers", json_integer(pc->cfg.workers));
    if (pc->cfg.client_count) {
        char share[32];
        snprintf(share, sizeof share, "%u/%u", pc->cfg.client_index, pc->cfg.client_count);
        json_object_set_new(j, "client", json_string(share));
    }
    if (pc->start_at)
        json_object_set_new(j, "start_at", json_string(pc->start_at));
    if (pc->threads.auto_threads) {
        json_object_set_new(j, "max_threads", json_integer(pc->ladder.max_threads));
        json_object_set_new(j, "max_points", json_integer((json_int_t)pc->ladder.max_points));
        if (pc->ladder.max_latency_ms > 0)
            json_object_set_new(j, "max_latency_ms", json_real(pc->ladder.max_latency_ms));
        if (pc->slo.target_s > 0 && pc->slo.pct > 0)
            json_object_set_new(j, "slo",
                                json_pack("{s:f,s:f}", "percentile", pc->slo.pct, "latency_ms",
                                          pc->slo.target_s * 1e3));
        else if (pc->slo.target_s > 0)
            json_object_set_new(
                j, "slo",
                json_pack("{s:s,s:f}", "statistic", "avg", "latency_ms", pc->slo.target_s * 1e3));
    }
    return j;
}

static int run_levels_locked(struct probe_cli *pc);

/* probe run: one writer of --out at a time (util/outlock.h), from before it is read to after
 * the older level records are removed. The parts of one level measured by several clients
 * (--client I/K) append to one --out together, each a whole line at a time, and never rewrite
 * it: they take no lock. */
static int run_levels(struct probe_cli *pc)
{
    char err[800];
    int fd = -1, rc;
    if (pc->out && strcmp(pc->out, "-") != 0 && pc->cfg.client_count == 0 &&
        (fd = outlock_take(pc->out, err, sizeof err)) < 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        return SIZEUP_EXIT_FAIL;
    }
    rc = run_levels_locked(pc);
    outlock_release(fd);
    return rc;
}

/* The levels of probe run, --out (if any) held for this run. */
static int run_levels_locked(struct probe_cli *pc)
{
    struct probe_session_opts so;
    struct probe_drive_opts d;
    struct point_list done;
    struct stat st;
    char err[600];
    json_t *opts;
    int rc, opened;
    /* the latency target, whose statistic the ladder bounds: --slo, else the --percentile
     * (else p95) with no target */
    struct slo slo = pc->slo.target_s > 0
                         ? pc->slo
                         : (struct slo){pc->cfg.percentile > 0 ? pc->cfg.percentile : 95, 0};
    point_list_init(&done);
    if (pc->out && pc->resume) {
        /* a torn last record (power loss) is set aside, not a reason to stop (issue 27.11) */
        char msg[900];
        if (append_cut_torn(pc->out, msg, sizeof msg) != 0 && msg[0])
            fprintf(stderr, "sizeup probe: warning: %s\n", msg);
    }
    if (pc->out && (pc->resume || pc->cfg.precision > 0) && stat(pc->out, &st) == 0 &&
        st.st_size > 0) {
        /* (an empty or missing --out: nothing measured yet, a fresh start) what --out already
         * holds: the levels --resume takes, and the server's earlier replicates (the noise
         * floor of levels measured in passes, probe_drive.h) */
        struct import_report rep;
        if (import_file(pc->out, NULL, &done, &rep) < 0) {
            if (pc->resume) {
                fprintf(stderr, "sizeup: --resume: %s\n", rep.msg);
                point_list_destroy(&done);
                return SIZEUP_EXIT_INPUT;
            }
            if (pc->cfg.precision > 0)
                fprintf(stderr,
                        "sizeup probe: warning: %s; its earlier replicates are not used for the "
                        "noise floor\n",
                        rep.msg);
            point_list_destroy(&done);
            point_list_init(&done);
        }
    }
    if (!(opts = options_json(pc))) {
        fprintf(stderr, "sizeup: out of memory\n");
        point_list_destroy(&done);
        return SIZEUP_EXIT_FAIL;
    }
    memset(&so, 0, sizeof so);
    so.cfg = &pc->cfg;
    so.target = pc->target;
    so.config = pc->config;
    so.tool = "sizeup " SIZEUP_VERSION;
    so.out_path = pc->out;
    so.options = opts;
    so.give_up_s = pc->give_up_s;
    so.remeasure = pc->remeasure;
    so.latency = slo;
    so.recheck_tables = 1;
    memset(&d, 0, sizeof d);
    d.target = pc->target;
    d.workload = oltp_workload_name(pc->cfg.oltp.workload);
    d.auto_threads = pc->threads.auto_threads;
    d.threads = pc->threads.v;
    d.n_threads = pc->threads.n;
    d.ladder = pc->ladder;
    d.done = pc->resume ? &done : NULL;
    d.history = &done;
    d.done_name = pc->out;
    d.slo = slo;
    /* this database's probe tables for this run alone; the parts of a multi-client level
     * leave it to their launcher (probes/dblock.h) */
    d.lock_conn = pc->cfg.client_count ? NULL : &pc->cfg.conn;
    d.progress = stderr;
    /* calibrated: in passes (advisor/passes.h) */
    probe_drive_passes(&d, &pc->cfg,
                       pc->threads.auto_threads ? pc->ladder.max_points : pc->threads.n,
                       pc->replicates, pc->budget_s);
    rc = cli_exit_of_drive(probe_curve_run(&so, &d, NULL, &opened, stderr));
    /* resumed in passes: the new level records pool the replicates the older ones did, and
     * more; the older ones go (levelfile.h) */
    if (opened && d.passes && pc->resume && pc->out && done.n > 0) {
        long n = levelfile_keep_newest(pc->out, d.target, d.workload, err, sizeof err);
        if (n < 0)
            fprintf(stderr, "sizeup probe: warning: %s; older level records may be left\n", err);
        else if (n > 0)
            fprintf(stderr,
                    "sizeup probe: %ld older level record%s removed from %s (the new ones pool "
                    "their replicates)\n",
                    n, n == 1 ? "" : "s", pc->out);
    }
    json_decref(opts);
    point_list_destroy(&done);
    return rc;
}

int cmd_probe(int argc, char **argv)
{
    struct probe_cli pc;
    struct myconn_where where;
    const char *command = NULL;
    int rc;

    probe_cli_init(&pc);
    rc = parse_args(argc, argv, &pc, &command);
    if (rc != CLI_RUN)
        return rc;
    pc.cfg.out = stdout;
    pc.cfg.progress = stderr;
    pc.cfg.progress_live = isatty(STDERR_FILENO);
    /* SIGINT and SIGTERM alike stop the level after the events in flight (stopflag.h) */
    pc.cfg.stop = stopflag_get();
    if ((rc = conn_cli_open(&pc.cfg.conn, &pc.cc, &where)) != CLI_RUN) {
        /* the reason is on stderr */
    } else if (stopflag_install() != 0) {
        fprintf(stderr, "sizeup: cannot handle SIGINT/SIGTERM: %s\n", strerror(errno));
        rc = SIZEUP_EXIT_FAIL;
    } else if (strcmp(command, "run") == 0) {
        if (!pc.target)
            pc.target = pc.cfg.conn.host; /* "localhost" with a socket */
        if (pc.cfg.client_count)
            fprintf(stderr, "sizeup probe: client %u of %u: %s\n", pc.cfg.client_index + 1,
                    pc.cfg.client_count, pc.launch.what);
        rc = run_levels(&pc);
    } else {
        unsigned threads = 1;
        for (size_t i = 0; i < pc.threads.n; i++)
            if ((unsigned)pc.threads.v[i] > threads)
                threads = (unsigned)pc.threads.v[i];
        /* this database's probe tables for this run alone (probes/dblock.h) */
        rc = cli_exit_of_drive(probe_tables_run(
            &pc.cfg, strcmp(command, "prepare") == 0 ? PROBE_TABLES_PREPARE : PROBE_TABLES_CLEANUP,
            threads, SIZEUP_VERSION, stderr));
    }
    stopflag_restore();
    conn_cli_close(&pc.cc);
    return rc;
}
