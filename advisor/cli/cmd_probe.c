/*
 * cmd_probe.c - `sizeup probe prepare|run|cleanup`: sysbench 1.0.20-compatible OLTP probes.
 *
 * Options carry sysbench's names (sysbench.md 3). The sysbench-layout report goes to stdout,
 * progress and errors to stderr, one sizeup.point/1 record per --threads level to --out
 * (appended, flushed and fsync'ed when the level ends).
 */
#include "cli.h"
#include "commands.h"
#include "curve.h"
#include "import.h"
#include "ladder.h"
#include "launcher.h"
#include "limit.h"
#include "passes.h"
#include "point.h"
#include "probe.h"
#include "probe_drive.h"
#include "report.h"
#include "sbtables.h"
#include "session.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SIZEUP_VERSION
#define SIZEUP_VERSION "0.0.0"
#endif

#define MAX_LEVELS 64 /* limit.h: LIMIT_LEVELS */

/* The stop flag set by SIGINT/SIGTERM: the one global the conventions allow. */
static atomic_int probe_stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&probe_stop_flag, 1);
}

enum {
    O_HOST = 256,
    O_PORT,
    O_SOCKET,
    O_USER,
    O_DB,
    O_PWFILE,
    O_DEFAULTS,
    O_SSL_MODE,
    O_SSL_CA,
    O_SSL_CERT,
    O_SSL_KEY,
    O_TABLES,
    O_TABLE_SIZE,
    O_THREADS,
    O_TIME,
    O_EVENTS,
    O_RATE,
    O_REPORT,
    O_PCT,
    O_RAND_TYPE,
    O_RAND_SEED,
    O_SPEC_ITER,
    O_SPEC_PCT,
    O_SPEC_RES,
    O_PARETO_H,
    O_RANGE_SIZE,
    O_POINT,
    O_SIMPLE,
    O_SUM,
    O_ORDER,
    O_DISTINCT,
    O_IDX,
    O_NONIDX,
    O_DELINS,
    O_RANGE_SELECTS,
    O_RANDOM_POINTS,
    O_NRANGES,
    O_DELTA,
    O_SKIP_TRX,
    O_AUTO_INC,
    O_SECONDARY,
    O_CREATE_SECONDARY,
    O_ENGINE,
    O_IGNORE,
    O_PS_MODE,
    O_WORKLOAD,
    O_TARGET,
    O_CONFIG,
    O_OUT,
    O_PRECISION,
    O_MIN_TIME,
    O_MAX_TIME,
    O_MAX_THREADS,
    O_MAX_POINTS,
    O_MAX_LATENCY,
    O_SLO,
    O_RESUME,
    O_TIMEOUT,
    O_GIVE_UP,
    O_REMEASURE,
    O_REPLICATES,
    O_BUDGET,
    O_WORKERS,
    O_CLIENT,
    O_START_AT
};

static const struct cli_option probe_options[] = {
    {"workload", required_argument, O_WORKLOAD, "NAME",
     "oltp_read_write (default), oltp_read_only, oltp_write_only, oltp_point_select, "
     "oltp_insert, oltp_update_index, oltp_update_non_index, oltp_delete, "
     "select_random_points, select_random_ranges, oltp_legacy"},
    {"mysql-host", required_argument, O_HOST, "HOST", "server host [localhost]"},
    {"mysql-port", required_argument, O_PORT, "N", "server TCP port [3306]"},
    {"mysql-socket", required_argument, O_SOCKET, "PATH", "Unix socket (then host is localhost)"},
    {"mysql-user", required_argument, O_USER, "NAME", "user [sbtest]"},
    {"mysql-db", required_argument, O_DB, "NAME", "database [sbtest]"},
    {"mysql-password-file", required_argument, O_PWFILE, "FILE",
     "read the password from the first line of FILE (else the [client] section of "
     "--defaults-file, else MYSQL_PWD, else ~/.my.cnf); never printed or stored"},
    {"defaults-file", required_argument, O_DEFAULTS, "FILE", "option file [~/.my.cnf]"},
    {"mysql-ssl-mode", required_argument, O_SSL_MODE, "MODE",
     "DISABLED (default), PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY"},
    {"mysql-ssl-ca", required_argument, O_SSL_CA, "FILE", "CA certificate (PEM)"},
    {"mysql-ssl-cert", required_argument, O_SSL_CERT, "FILE", "client certificate (PEM)"},
    {"mysql-ssl-key", required_argument, O_SSL_KEY, "FILE", "client key (PEM)"},
    {"tables", required_argument, O_TABLES, "N", "number of tables sbtest1..N [1]"},
    {"table-size", required_argument, O_TABLE_SIZE, "N", "rows per table [10000]"},
    {"threads", required_argument, O_THREADS, "LIST",
     "client threads, or a list 1,2,4,8: one level (and one point) each, or 'auto': double "
     "from 1 until the throughput stops growing, then add levels near the knee [1]"},
    {"time", required_argument, O_TIME, "SECONDS",
     "fixed run time per level, 0 = no limit (without --time, --events or --precision a level "
     "is calibrated)"},
    {"precision", required_argument, O_PRECISION, "PCT",
     "calibrated level: cut the warm-up (MSER-5) and stop once the 95 % interval of tps "
     "(20 batch means) is within PCT of the mean [2%]"},
    {"min-time", required_argument, O_MIN_TIME, "SECONDS", "calibrated: never stop before [5]"},
    {"max-time", required_argument, O_MAX_TIME, "SECONDS",
     "calibrated: stop at the latest after, not steady then [60]"},
    {"replicates", required_argument, O_REPLICATES, "N",
     "calibrated: the levels that decide the answer are measured again in shuffled passes, up "
     "to N replicates each, until their intervals (run-to-run noise included) reach --precision "
     "or the noise makes it unreachable; 1 = one pass (run-to-run noise unknown) [5]"},
    {"budget", required_argument, O_BUDGET, "SECONDS",
     "calibrated: most time of all the curve's measurements [levels x --max-time]"},
    {"max-threads", required_argument, O_MAX_THREADS, "N",
     "--threads auto: largest level, capped by the server's max_connections - 1 [64]"},
    {"max-points", required_argument, O_MAX_POINTS, "N", "--threads auto: most levels [10]"},
    {"max-latency", required_argument, O_MAX_LATENCY, "MS",
     "--threads auto: stop doubling once the --percentile latency passes MS milliseconds"},
    {"slo", required_argument, O_SLO, "pP:MS",
     "--threads auto: latency target, e.g. p95:50ms; doubling stops at 4x it"},
    {"events", required_argument, O_EVENTS, "N", "stop after N events, 0 = no limit [0]"},
    {"rate", required_argument, O_RATE, "TPS",
     "open loop at this average rate (Poisson arrivals), latency from the intended start [0]"},
    {"report-interval", required_argument, O_REPORT, "SECONDS", "intermediate lines every N s [0]"},
    {"percentile", required_argument, O_PCT, "P", "latency percentile, 0 disables [95]"},
    {"rand-type", required_argument, O_RAND_TYPE, "NAME",
     "special (default, as 1.0.20), uniform, gaussian, pareto"},
    {"rand-seed", required_argument, O_RAND_SEED, "N", "RNG seed, 0 = current time [0]"},
    {"rand-spec-iter", required_argument, O_SPEC_ITER, "N", "special/gaussian iterations [12]"},
    {"rand-spec-pct", required_argument, O_SPEC_PCT, "N", "special: hot range, % of ids [1]"},
    {"rand-spec-res", required_argument, O_SPEC_RES, "N", "special: % of draws in it [75]"},
    {"rand-pareto-h", required_argument, O_PARETO_H, "H", "pareto shape [0.2]"},
    {"range-size", required_argument, O_RANGE_SIZE, "N", "rows per range SELECT [100]"},
    {"point-selects", required_argument, O_POINT, "N", "point SELECTs per transaction [10]"},
    {"simple-ranges", required_argument, O_SIMPLE, "N", "simple ranges per transaction [1]"},
    {"sum-ranges", required_argument, O_SUM, "N", "SUM() ranges per transaction [1]"},
    {"order-ranges", required_argument, O_ORDER, "N", "ORDER BY ranges per transaction [1]"},
    {"distinct-ranges", required_argument, O_DISTINCT, "N", "DISTINCT ranges per transaction [1]"},
    {"index-updates", required_argument, O_IDX, "N", "index UPDATEs per transaction [1]"},
    {"non-index-updates", required_argument, O_NONIDX, "N",
     "non-index UPDATEs per transaction [1]"},
    {"delete-inserts", required_argument, O_DELINS, "N", "DELETE+INSERT pairs per transaction [1]"},
    {"range-selects", required_argument, O_RANGE_SELECTS, "on|off", "range SELECTs [on]"},
    {"random-points", required_argument, O_RANDOM_POINTS, "N",
     "select_random_points: values in IN() [10]"},
    {"number-of-ranges", required_argument, O_NRANGES, "N",
     "select_random_ranges: BETWEEN ranges [10]"},
    {"delta", required_argument, O_DELTA, "N", "select_random_ranges: range size [5]"},
    {"skip-trx", required_argument, O_SKIP_TRX, "on|off", "no BEGIN/COMMIT (autocommit) [off]"},
    {"auto-inc", required_argument, O_AUTO_INC, "on|off", "AUTO_INCREMENT id [on]"},
    {"secondary", required_argument, O_SECONDARY, "on|off", "KEY xid instead of PRIMARY KEY [off]"},
    {"create-secondary", required_argument, O_CREATE_SECONDARY, "on|off",
     "create index k_N after the load [on]"},
    {"mysql-storage-engine", required_argument, O_ENGINE, "NAME", "storage engine [innodb]"},
    {"mysql-ignore-errors", required_argument, O_IGNORE, "LIST",
     "errnos that restart the transaction, or 'all' [1213,1020,1205]"},
    {"db-ps-mode", required_argument, O_PS_MODE, "auto|disable",
     "server-side prepared statements [auto]"},
    {"target", required_argument, O_TARGET, "NAME", "what is measured, in the records [host]"},
    {"config", required_argument, O_CONFIG, "ID", "catalog configuration id, in the records"},
    {"out", required_argument, O_OUT, "FILE", "append one sizeup.point/1 record per level"},
    {"resume", no_argument, O_RESUME, NULL,
     "levels of this target and workload already in --out (complete ones) are taken from it, "
     "not measured again; the auto ladder goes on from them"},
    {"mysql-timeout", required_argument, O_TIMEOUT, "SECONDS",
     "read/write timeout of every statement: a server that does not answer for this long "
     "loses the connection [10]"},
    {"give-up", required_argument, O_GIVE_UP, "SECONDS",
     "after a level that stalled, reconnected or lost the server: how long to wait for the "
     "server to answer again before giving up (exit 4) [30]"},
    {"remeasure", required_argument, O_REMEASURE, "N",
     "a level flagged stalled, reconnects or partial is measured again, up to N times, once the "
     "server answers (every record is kept; flagged ones do not count) [1]"},
    {"workers", required_argument, O_WORKERS, "N",
     "OS threads driving the --threads connections (each drives many; docs/load-generator.md) "
     "[online CPUs, at most one per connection]"},
    {"client", required_argument, O_CLIENT, "I/K",
     "run share I (0-based) of a level measured by K load generators and write a part for "
     "sizeup merge; 'none' ignores the launcher's environment [from mpirun, srun or a Kubernetes "
     "Indexed Job when present, else one client]"},
    {"start-at", required_argument, O_START_AT, "TIME",
     "connect, then start measuring at this wall-clock time (RFC 3339, e.g. "
     "2026-12-01T10:00:00Z), the same on every client"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL}};

static const char usage[] = "Usage: sizeup probe prepare|run|cleanup [OPTIONS]";
static const char description[] =
    "sysbench 1.0.20-compatible OLTP probes over the MySQL protocol: same schema, statements,\n"
    "transaction shapes and random distributions; report in sysbench's layout on stdout.";

struct probe_cli {
    struct probe_config cfg;
    long long threads[MAX_LEVELS];
    size_t n_threads;
    const char *pwfile, *defaults_file, *target, *config, *out, *ignore_text;
    char *password;   /* owned, wiped and freed at the end */
    int auto_threads; /* --threads auto */
    int time_given;   /* --time on the command line */
    int precision_given;
    struct ladder_opts ladder;
    double slo_pct, slo_ms; /* --slo; 0 when absent */
    int resume;             /* --resume */
    double give_up_s;       /* --give-up */
    unsigned remeasure;     /* --remeasure */
    unsigned replicates;    /* --replicates */
    double budget_s;        /* --budget; 0 = levels x --max-time */

    /* several load generators (launcher.h) */
    const char *client;          /* --client; NULL when not given */
    const char *start_at;        /* --start-at */
    struct launch_client launch; /* this process's share, resolved for `run` */
};

static int parse_bool(const char *s, int *out)
{
    if (!s || !strcasecmp(s, "on") || !strcasecmp(s, "true") || !strcmp(s, "1") ||
        !strcasecmp(s, "yes")) {
        *out = 1;
        return 0;
    }
    if (!strcasecmp(s, "off") || !strcasecmp(s, "false") || !strcmp(s, "0") ||
        !strcasecmp(s, "no")) {
        *out = 0;
        return 0;
    }
    return -1;
}

static int parse_uint(const char *s, long long min, long long max, unsigned *out)
{
    long long v;
    if (units_parse_int(s, min, max, &v))
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* An unsigned within a limit of limit.h (the study reads the same table). */
static int parse_limited(const char *s, enum limit_id id, unsigned *out)
{
    const struct limit *l = limit_get(id);
    return parse_uint(s, (long long)l->min, (long long)l->max, out);
}

/* A duration within a limit of limit.h. */
static int parse_limited_s(const char *s, enum limit_id id, double *out)
{
    double v;
    if (units_parse_duration(s, &v) || !limit_ok(id, v))
        return -1;
    *out = v;
    return 0;
}

static void strip_eol(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* Password from --mysql-password-file: its first line. */
static int read_password_file(const char *path, char **out)
{
    char buf[1024];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sizeup: --mysql-password-file %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!fgets(buf, sizeof buf, f))
        buf[0] = '\0';
    fclose(f);
    strip_eol(buf);
    *out = strdup(buf);
    memset(buf, 0, sizeof buf);
    return *out ? 0 : -1;
}

/* The password= line of the [client] section of a MySQL option file. Missing optional file:
 * 0 with *out NULL. */
static int read_option_file(const char *path, int required, char **out)
{
    char line[1024];
    int in_client = 0;
    long lineno = 0;
    FILE *f = fopen(path, "r");
    *out = NULL;
    if (!f) {
        if (!required && errno == ENOENT)
            return 0;
        fprintf(stderr, "sizeup: --defaults-file %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char *p = line, *eq, *v;
        size_t n;
        lineno++;
        strip_eol(line);
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == ';' || *p == '\0')
            continue;
        if (*p == '[') {
            char *end = strchr(p, ']');
            if (!end) {
                fprintf(stderr, "sizeup: %s:%ld: expected ']' to close the section name\n", path,
                        lineno);
                fclose(f);
                free(*out);
                *out = NULL;
                return -1;
            }
            *end = '\0';
            in_client = strcmp(p + 1, "client") == 0;
            continue;
        }
        if (!in_client || strncmp(p, "password", 8) != 0)
            continue;
        eq = p + 8;
        while (*eq == ' ' || *eq == '\t')
            eq++;
        if (*eq != '=')
            continue;
        v = eq + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        n = strlen(v);
        while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
            v[--n] = '\0';
        if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
            v[n - 1] = '\0';
            v++;
        }
        free(*out);
        *out = strdup(v);
    }
    memset(line, 0, sizeof line);
    fclose(f);
    return 0;
}

static int resolve_password(struct probe_cli *pc)
{
    const char *env = getenv("MYSQL_PWD");
    /* explicit options first, then the environment, then ~/.my.cnf */
    if (pc->pwfile)
        return read_password_file(pc->pwfile, &pc->password);
    if (pc->defaults_file)
        return read_option_file(pc->defaults_file, 1, &pc->password);
    if (env) {
        pc->password = strdup(env);
        return pc->password ? 0 : -1;
    }
    if (getenv("HOME")) {
        char path[4096];
        snprintf(path, sizeof path, "%s/.my.cnf", getenv("HOME"));
        return read_option_file(path, 0, &pc->password);
    }
    return 0;
}

/* --slo pP:MS, e.g. p95:50ms or p99.9:0.2s (a bare number is milliseconds). */
static int parse_slo(const char *s, double *pct, double *ms)
{
    char buf[64];
    const char *colon = strchr(s, ':');
    size_t n;
    if ((s[0] != 'p' && s[0] != 'P') || !colon || (n = (size_t)(colon - s - 1)) == 0 ||
        n >= sizeof buf)
        return -1;
    memcpy(buf, s + 1, n);
    buf[n] = '\0';
    if (units_parse_double(buf, 1e-9, 100, pct) || units_parse_duration(colon + 1, ms) || *ms <= 0)
        return -1;
    if (!strpbrk(colon + 1, "smh"))
        return 0; /* already milliseconds */
    *ms *= 1e3;
    return 0;
}

/* `run` as one of several load generators (launcher.h): this process's share from --client or
 * the launcher's environment, and what a part needs (one level of a fixed --time, so that the
 * clients' windows agree, at least one connection each, and a file for sizeup merge). */
static int client_share_check(struct probe_cli *pc)
{
    char err[300];
    struct probe_config *cfg = &pc->cfg;
    if (launch_client_resolve(pc->client, NULL, NULL, &pc->launch, err, sizeof err))
        return cli_usage_error("probe", "%s", err);
    cfg->client_index = pc->launch.index;
    cfg->client_count = pc->launch.count;
    if (!cfg->client_count)
        return 0;
    if (pc->auto_threads || pc->n_threads != 1)
        return cli_usage_error("probe",
                               "%s: a part is one level: give --threads N (the level's "
                               "connections over all %u clients)",
                               pc->launch.what, cfg->client_count);
    if ((unsigned)pc->threads[0] < cfg->client_count)
        return cli_usage_error("probe", "%s: --threads %lld cannot be split over %u clients",
                               pc->launch.what, pc->threads[0], cfg->client_count);
    if (!pc->time_given || cfg->time_s <= 0 || cfg->events)
        return cli_usage_error("probe",
                               "%s: a part needs --time SECONDS (not --events or a "
                               "calibrated level), so the clients' windows agree",
                               pc->launch.what);
    if (!pc->out)
        return cli_usage_error("probe", "%s: a part is for sizeup merge: give --out FILE",
                               pc->launch.what);
    return 0;
}

static int parse_args(int argc, char **argv, struct probe_cli *pc, const char **command)
{
    struct option longs[80];
    char shorts[16];
    struct probe_config *cfg = &pc->cfg;
    enum sbrand_dist dist = SBRAND_SPECIAL;
    unsigned iter = 12, spct = 1, sres = 75;
    double pareto_h = 0.2;
    int c;
    cli_build_getopt(probe_options, longs, sizeof longs / sizeof longs[0], shorts, sizeof shorts);
    optind = 0; /* full re-initialisation: the dispatcher before stopped at the first operand */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const char *a = optarg;
        int bad = 0, b;
        long long ll;
        double d;
        switch (c) {
        case 'h':
            cli_print_help(usage, description, probe_options);
            return -1;
        case O_WORKLOAD:
            if (oltp_workload_parse(a, &cfg->oltp.workload))
                return cli_usage_error("probe", "--workload: unknown workload '%s'", a);
            break;
        case O_HOST:
            cfg->conn.host = a;
            break;
        case O_PORT:
            bad = parse_limited(a, LIMIT_PORT, &cfg->conn.port);
            break;
        case O_SOCKET:
            cfg->conn.socket = a;
            break;
        case O_USER:
            cfg->conn.user = a;
            break;
        case O_DB:
            cfg->conn.db = a;
            break;
        case O_PWFILE:
            pc->pwfile = a;
            break;
        case O_DEFAULTS:
            pc->defaults_file = a;
            break;
        case O_SSL_MODE:
            if (myconn_ssl_mode_parse(a, &cfg->conn.ssl_mode))
                return cli_usage_error("probe", "--mysql-ssl-mode takes DISABLED, PREFERRED, "
                                                "REQUIRED, VERIFY_CA or VERIFY_IDENTITY");
            break;
        case O_SSL_CA:
            cfg->conn.ssl_ca = a;
            break;
        case O_SSL_CERT:
            cfg->conn.ssl_cert = a;
            break;
        case O_SSL_KEY:
            cfg->conn.ssl_key = a;
            break;
        case O_TABLES:
            bad = parse_limited(a, LIMIT_TABLES, &cfg->oltp.tables);
            break;
        case O_TABLE_SIZE:
            bad = parse_limited(a, LIMIT_TABLE_SIZE, &cfg->oltp.table_size);
            break;
        case O_THREADS:
            pc->auto_threads = strcmp(a, "auto") == 0;
            if (pc->auto_threads)
                break;
            if (units_parse_int_list(a, (long long)limit_get(LIMIT_THREADS)->max, pc->threads,
                                     MAX_LEVELS, &pc->n_threads))
                return cli_usage_error("probe",
                                       "--threads takes a list of up to %d positive integers "
                                       "up to %g, e.g. 1,2,4,8",
                                       MAX_LEVELS, limit_get(LIMIT_THREADS)->max);
            break;
        case O_TIME:
            bad = parse_limited_s(a, LIMIT_TIME, &cfg->time_s);
            pc->time_given = 1;
            break;
        case O_PRECISION:
            bad = units_parse_fraction(a, &cfg->precision) ||
                  !limit_ok(LIMIT_PRECISION, cfg->precision);
            pc->precision_given = 1;
            break;
        case O_MIN_TIME:
            bad = parse_limited_s(a, LIMIT_MIN_TIME, &cfg->min_time_s);
            break;
        case O_MAX_TIME:
            bad = parse_limited_s(a, LIMIT_MAX_TIME, &cfg->max_time_s);
            break;
        case O_MAX_THREADS:
            bad = parse_limited(a, LIMIT_THREADS, &pc->ladder.max_threads);
            break;
        case O_MAX_POINTS:
            bad = units_parse_int(a, (long long)limit_get(LIMIT_MAX_POINTS)->min,
                                  (long long)limit_get(LIMIT_MAX_POINTS)->max, &ll);
            pc->ladder.max_points = (size_t)ll;
            break;
        case O_MAX_LATENCY:
            bad = units_parse_duration(a, &d) || d <= 0;
            /* a bare number is milliseconds here: "50" and "50ms" mean the same */
            pc->ladder.max_latency_ms = strpbrk(a, "smh") ? d * 1e3 : d;
            break;
        case O_SLO:
            bad = parse_slo(a, &pc->slo_pct, &pc->slo_ms);
            break;
        case O_RESUME:
            pc->resume = 1;
            break;
        case O_TIMEOUT:
            bad = parse_limited(a, LIMIT_TIMEOUT, &cfg->conn.timeout_s);
            break;
        case O_GIVE_UP:
            bad = parse_limited_s(a, LIMIT_GIVE_UP, &pc->give_up_s);
            break;
        case O_REMEASURE:
            bad = parse_uint(a, 0, 10, &pc->remeasure);
            break;
        case O_REPLICATES:
            bad = parse_uint(a, 1, PASSES_MAX_REPS, &pc->replicates);
            break;
        case O_BUDGET:
            bad = units_parse_duration(a, &pc->budget_s) || !(pc->budget_s > 0);
            break;
        case O_EVENTS:
            bad = units_parse_int(a, 0, (long long)1 << 62, &ll);
            cfg->events = (uint64_t)ll;
            break;
        case O_RATE:
            bad = units_parse_double(a, 0, 1e9, &cfg->rate);
            break;
        case O_REPORT:
            bad = parse_uint(a, 0, 86400, &cfg->report_interval_s);
            break;
        case O_PCT:
            bad = units_parse_double(a, 0, 100, &d);
            cfg->percentile = d;
            break;
        case O_RAND_TYPE:
            if (sbrand_dist_parse(a, &dist))
                return cli_usage_error("probe", "--rand-type takes special, uniform, gaussian "
                                                "or pareto");
            break;
        case O_RAND_SEED:
            bad = parse_uint(a, 0, 4294967295LL, &cfg->rand_seed);
            break;
        case O_SPEC_ITER:
            bad = parse_uint(a, 1, 1000, &iter);
            break;
        case O_SPEC_PCT:
            bad = parse_uint(a, 1, 100, &spct);
            break;
        case O_SPEC_RES:
            bad = parse_uint(a, 0, 99, &sres);
            break;
        case O_PARETO_H:
            bad = units_parse_double(a, 1e-9, 1 - 1e-9, &pareto_h);
            break;
        case O_RANGE_SIZE:
            bad = parse_uint(a, 1, 1000000000, &cfg->oltp.range_size);
            break;
        case O_POINT:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.point_selects);
            break;
        case O_SIMPLE:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.simple_ranges);
            break;
        case O_SUM:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.sum_ranges);
            break;
        case O_ORDER:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.order_ranges);
            break;
        case O_DISTINCT:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.distinct_ranges);
            break;
        case O_IDX:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.index_updates);
            break;
        case O_NONIDX:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.non_index_updates);
            break;
        case O_DELINS:
            bad = parse_uint(a, 0, 1000000, &cfg->oltp.delete_inserts);
            break;
        case O_RANDOM_POINTS:
            bad = parse_uint(a, 1, 1000, &cfg->oltp.random_points);
            break;
        case O_NRANGES:
            bad = parse_uint(a, 1, 1000, &cfg->oltp.number_of_ranges);
            break;
        case O_DELTA:
            bad = parse_uint(a, 0, 1000000000, &cfg->oltp.delta);
            break;
        case O_RANGE_SELECTS:
            bad = parse_bool(a, &b);
            cfg->oltp.range_selects = b;
            break;
        case O_SKIP_TRX:
            bad = parse_bool(a, &b);
            cfg->oltp.skip_trx = b;
            break;
        case O_AUTO_INC:
            bad = parse_bool(a, &b);
            cfg->oltp.auto_inc = b;
            break;
        case O_SECONDARY:
            bad = parse_bool(a, &b);
            cfg->oltp.secondary = b;
            break;
        case O_CREATE_SECONDARY:
            bad = parse_bool(a, &b);
            cfg->oltp.create_secondary = b;
            break;
        case O_ENGINE:
            cfg->oltp.storage_engine = a;
            break;
        case O_IGNORE:
            pc->ignore_text = a;
            if (myconn_ignore_parse(a, &cfg->conn.ignore))
                return cli_usage_error("probe", "--mysql-ignore-errors takes 'all' or a "
                                                "comma-separated list of error numbers, e.g. "
                                                "1213,1020,1205");
            break;
        case O_PS_MODE:
            if (strcmp(a, "auto") == 0)
                cfg->conn.ps_mode = MYCONN_PS_AUTO;
            else if (strcmp(a, "disable") == 0)
                cfg->conn.ps_mode = MYCONN_PS_DISABLE;
            else
                return cli_usage_error("probe", "--db-ps-mode takes auto or disable");
            break;
        case O_TARGET:
            pc->target = a;
            break;
        case O_CONFIG:
            pc->config = a;
            break;
        case O_OUT:
            pc->out = a;
            break;
        case O_WORKERS:
            bad = parse_limited(a, LIMIT_THREADS, &cfg->workers);
            break;
        case O_CLIENT:
            pc->client = a;
            break;
        case O_START_AT:
            if (launch_parse_rfc3339(a, &cfg->start_at_unix_ns))
                return cli_usage_error("probe",
                                       "--start-at takes an RFC 3339 time, e.g. "
                                       "2026-12-01T10:00:00Z, not '%s'",
                                       a);
            pc->start_at = a;
            break;
        default:
            return cli_getopt_error("probe", c, argv);
        }
        if (bad) {
            static const struct {
                int opt;
                enum limit_id id;
            } limited[] = {{O_PORT, LIMIT_PORT},
                           {O_TABLES, LIMIT_TABLES},
                           {O_TABLE_SIZE, LIMIT_TABLE_SIZE},
                           {O_TIME, LIMIT_TIME},
                           {O_PRECISION, LIMIT_PRECISION},
                           {O_MIN_TIME, LIMIT_MIN_TIME},
                           {O_MAX_TIME, LIMIT_MAX_TIME},
                           {O_MAX_THREADS, LIMIT_THREADS},
                           {O_WORKERS, LIMIT_THREADS},
                           {O_MAX_POINTS, LIMIT_MAX_POINTS},
                           {O_TIMEOUT, LIMIT_TIMEOUT},
                           {O_GIVE_UP, LIMIT_GIVE_UP}};
            const char *name = "?";
            char range[160] = "";
            for (const struct cli_option *o = probe_options; o->name; o++)
                if (o->val == c)
                    name = o->name;
            for (size_t k = 0; k < sizeof limited / sizeof limited[0]; k++)
                if (limited[k].opt == c) {
                    const struct limit *l = limit_get(limited[k].id);
                    snprintf(range, sizeof range, " (%g..%g%s%s: %s)", l->min, l->max,
                             l->unit[0] ? " " : "", l->unit, l->what);
                }
            return cli_usage_error("probe", "--%s: invalid value '%s'%s", name, a ? a : "", range);
        }
    }
    if (optind >= argc)
        return cli_usage_error("probe", "a command is required: prepare, run or cleanup");
    *command = argv[optind];
    if (strcmp(*command, "prepare") && strcmp(*command, "run") && strcmp(*command, "cleanup"))
        return cli_usage_error("probe", "unknown command '%s' (prepare, run or cleanup)", *command);
    if (optind + 1 < argc)
        return cli_usage_error("probe", "unexpected argument '%s'", argv[optind + 1]);
    if (sbrand_params_init(&cfg->rand, dist, iter, spct, sres, pareto_h))
        return cli_usage_error("probe", "invalid --rand-spec-* or --rand-pareto-h value");
    {
        char msg[200];
        if (oltp_opts_check(&cfg->oltp, msg, sizeof msg))
            return cli_usage_error("probe", "%s", msg);
    }
    if (pc->slo_ms > 0 && pc->ladder.max_latency_ms == 0)
        pc->ladder.max_latency_ms = 4 * pc->slo_ms;
    if (pc->precision_given && (pc->time_given || cfg->events))
        return cli_usage_error("probe", "--precision calibrates the run length; it excludes "
                                        "--time and --events");
    if (!pc->time_given && !cfg->events) { /* calibrated */
        if (!pc->precision_given)
            cfg->precision = 0.02;
        cfg->time_s = 0;
    } else {
        cfg->precision = 0;
    }
    if (cfg->precision > 0 && !(cfg->min_time_s < cfg->max_time_s))
        return cli_usage_error("probe", "--min-time (%g s) must be below --max-time (%g s)",
                               cfg->min_time_s, cfg->max_time_s);
    if (cfg->precision > 0 && cfg->report_interval_s &&
        fmod((double)cfg->report_interval_s, PROBE_TICK_S) != 0)
        return cli_usage_error("probe", "--report-interval must be whole seconds");
    if (cfg->time_s == 0 && cfg->events == 0 && cfg->precision == 0 && strcmp(*command, "run") == 0)
        return cli_usage_error("probe", "--time 0 needs --events N (an endless run measures "
                                        "nothing)");
    if (strcmp(*command, "run") == 0)
        return client_share_check(pc);
    return 0;
}

/* The records' options: the configuration's, the thread list or the ladder's. */
static json_t *options_json(const struct probe_cli *pc)
{
    json_t *j = probe_config_json(&pc->cfg), *th;
    if (!j)
        return NULL;
    if (pc->auto_threads) {
        th = json_string("auto");
    } else {
        th = json_array();
        for (size_t i = 0; i < pc->n_threads; i++)
            json_array_append_new(th, json_integer(pc->threads[i]));
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
    if (pc->auto_threads) {
        json_object_set_new(j, "max_threads", json_integer(pc->ladder.max_threads));
        json_object_set_new(j, "max_points", json_integer((json_int_t)pc->ladder.max_points));
        if (pc->ladder.max_latency_ms > 0)
            json_object_set_new(j, "max_latency_ms", json_real(pc->ladder.max_latency_ms));
        if (pc->slo_ms > 0)
            json_object_set_new(
                j, "slo",
                json_pack("{s:f,s:f}", "percentile", pc->slo_pct, "latency_ms", pc->slo_ms));
    }
    return j;
}

static int run_levels(struct probe_cli *pc)
{
    struct probe_session_opts so;
    struct probe_drive_opts d;
    struct probe_session *s;
    struct point_list done;
    struct stat st;
    char err[600];
    json_t *opts;
    int rc;
    double pct = pc->slo_ms > 0 ? pc->slo_pct : pc->cfg.percentile > 0 ? pc->cfg.percentile : 95;
    point_list_init(&done);
    if (pc->resume && pc->out && stat(pc->out, &st) == 0 && st.st_size > 0) {
        /* (an empty or missing --out: nothing measured yet, a fresh start) */
        struct import_report rep;
        if (import_file(pc->out, NULL, &done, &rep) < 0) {
            fprintf(stderr, "sizeup: --resume: %s\n", rep.msg);
            point_list_destroy(&done);
            return SIZEUP_EXIT_INPUT;
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
    so.latency_pct = pct;
    s = probe_session_new(&so, err, sizeof err);
    if (!s) {
        fprintf(stderr, "sizeup: %s\n", err);
        json_decref(opts);
        point_list_destroy(&done);
        return SIZEUP_EXIT_FAIL;
    }
    memset(&d, 0, sizeof d);
    d.target = pc->target;
    d.workload = oltp_workload_name(pc->cfg.oltp.workload);
    d.auto_threads = pc->auto_threads;
    d.threads = pc->threads;
    d.n_threads = pc->n_threads;
    d.ladder = pc->ladder;
    d.done = pc->resume ? &done : NULL;
    d.done_name = pc->out;
    d.latency_pct = pct;
    d.progress = stderr;
    /* calibrated: in passes (advisor/passes.h) */
    probe_drive_passes(&d, &pc->cfg, pc->auto_threads ? pc->ladder.max_points : pc->n_threads,
                       pc->replicates, pc->budget_s, pc->slo_pct, pc->slo_ms);
    rc = probe_drive(s, &d, NULL);
    probe_session_free(s);
    json_decref(opts);
    point_list_destroy(&done);
    return rc;
}

int cmd_probe(int argc, char **argv)
{
    struct probe_cli pc;
    struct sigaction sa, old_int, old_term;
    const char *command = NULL;
    char msg[4096];
    int rc;

    memset(&pc, 0, sizeof pc);
    oltp_opts_default(&pc.cfg.oltp);
    pc.cfg.conn.host = "localhost";
    pc.cfg.conn.port = 3306;
    pc.cfg.conn.user = "sbtest";
    pc.cfg.conn.db = "sbtest";
    pc.cfg.conn.ssl_mode = MYCONN_SSL_DISABLED;
    pc.cfg.conn.connect_timeout_s = 5;
    pc.cfg.conn.timeout_s = 10;
    pc.give_up_s = 30;
    pc.remeasure = 1;
    pc.replicates = 5;
    myconn_ignore_parse("1213,1020,1205", &pc.cfg.conn.ignore);
    pc.cfg.time_s = 10;
    pc.cfg.min_time_s = 5;
    pc.cfg.max_time_s = 60;
    pc.ladder = ladder_opts_default();
    pc.cfg.percentile = 95;
    pc.cfg.give_up_s = 30;
    pc.threads[0] = 1;
    pc.n_threads = 1;

    rc = parse_args(argc, argv, &pc, &command);
    if (rc == -1)
        return SIZEUP_EXIT_OK; /* --help */
    if (rc)
        return rc;
    if (!pc.target)
        pc.target = pc.cfg.conn.socket ? "localhost" : pc.cfg.conn.host;
    if (resolve_password(&pc))
        return SIZEUP_EXIT_USAGE;
    pc.cfg.conn.password = pc.password;
    pc.cfg.out = stdout;
    pc.cfg.progress = stderr;
    pc.cfg.progress_live = isatty(fileno(stderr));
    atomic_store(&probe_stop_flag, 0);
    pc.cfg.stop = &probe_stop_flag;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    if (myconn_library_init()) {
        fprintf(stderr, "sizeup: cannot initialise the MySQL client library\n");
        rc = SIZEUP_EXIT_FAIL;
    } else if (strcmp(command, "run") == 0) {
        if (pc.cfg.client_count)
            fprintf(stderr, "sizeup probe: client %u of %u: %s\n", pc.cfg.client_index + 1,
                    pc.cfg.client_count, pc.launch.what);
        rc = run_levels(&pc);
    } else {
        int r;
        unsigned threads = 1;
        for (size_t i = 0; i < pc.n_threads; i++)
            if ((unsigned)pc.threads[i] > threads)
                threads = (unsigned)pc.threads[i];
        if (strcmp(command, "prepare") == 0) {
            printf("sizeup %s (sysbench 1.0.20-compatible report)\n\n", SIZEUP_VERSION);
            r = sbtables_prepare(&pc.cfg, threads, msg, sizeof msg);
        } else {
            printf("sizeup %s (sysbench 1.0.20-compatible report)\n\n", SIZEUP_VERSION);
            r = sbtables_cleanup(&pc.cfg, msg, sizeof msg);
        }
        fflush(stdout);
        if (r != 0)
            fprintf(stderr, "sizeup: %s: %s\n", command, msg);
        rc = r == 0                   ? SIZEUP_EXIT_OK
             : r == -MYCONN_RECONNECT ? SIZEUP_EXIT_UNREACHABLE
                                      : SIZEUP_EXIT_FAIL;
        if (atomic_load(&probe_stop_flag))
            rc = SIZEUP_EXIT_INTERRUPTED;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (pc.password) {
        memset(pc.password, 0, strlen(pc.password));
        free(pc.password);
    }
    mysql_library_end();
    return rc;
}
