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
#include "limit.h"
#include "point.h"
#include "probe.h"
#include "report.h"
#include "sbtables.h"

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
    O_RESUME
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
                           {O_MAX_POINTS, LIMIT_MAX_POINTS}};
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
    return 0;
}

static json_t *options_json(const struct probe_cli *pc)
{
    const struct probe_config *c = &pc->cfg;
    const struct oltp_opts *o = &c->oltp;
    static const char *const ssl[] = {"DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA",
                                      "VERIFY_IDENTITY"};
    json_t *th = json_array();
    json_t *j;
    if (pc->auto_threads) {
        json_decref(th);
        th = json_string("auto");
    } else {
        for (size_t i = 0; i < pc->n_threads; i++)
            json_array_append_new(th, json_integer(pc->threads[i]));
    }
    j = json_pack("{s:s,s:I,s:I,s:o,s:f,s:I,s:f,s:I,s:f,s:s,s:I,s:I,s:I,s:I,s:f}", "workload",
                  oltp_workload_name(o->workload), "tables", (json_int_t)o->tables, "table_size",
                  (json_int_t)o->table_size, "threads", th, "time", c->time_s, "events",
                  (json_int_t)c->events, "rate", c->rate, "report_interval",
                  (json_int_t)c->report_interval_s, "percentile", c->percentile, "rand_type",
                  sbrand_dist_name(c->rand.dist), "rand_seed", (json_int_t)c->rand_seed,
                  "rand_spec_iter", (json_int_t)c->rand.iter, "rand_spec_pct",
                  (json_int_t)c->rand.pct, "rand_spec_res", (json_int_t)c->rand.res,
                  "rand_pareto_h", c->rand.pareto_h);
    if (!j)
        return NULL;
    json_object_update_new(
        j, json_pack(
               "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:b,s:b,s:b,s:b,s:b,s:s}", "range_size",
               (json_int_t)o->range_size, "point_selects", (json_int_t)o->point_selects,
               "simple_ranges", (json_int_t)o->simple_ranges, "sum_ranges",
               (json_int_t)o->sum_ranges, "order_ranges", (json_int_t)o->order_ranges,
               "distinct_ranges", (json_int_t)o->distinct_ranges, "index_updates",
               (json_int_t)o->index_updates, "non_index_updates", (json_int_t)o->non_index_updates,
               "delete_inserts", (json_int_t)o->delete_inserts, "range_selects", o->range_selects,
               "skip_trx", o->skip_trx, "auto_inc", o->auto_inc, "secondary", o->secondary,
               "create_secondary", o->create_secondary, "mysql_storage_engine", o->storage_engine));
    if (o->workload == OLTP_SELECT_RANDOM_POINTS)
        json_object_set_new(j, "random_points", json_integer(o->random_points));
    if (o->workload == OLTP_SELECT_RANDOM_RANGES) {
        json_object_set_new(j, "number_of_ranges", json_integer(o->number_of_ranges));
        json_object_set_new(j, "delta", json_integer(o->delta));
    }
    json_object_set_new(j, "mysql_ignore_errors",
                        json_string(pc->ignore_text ? pc->ignore_text : "1213,1020,1205"));
    json_object_set_new(j, "db_ps_mode",
                        json_string(c->conn.ps_mode == MYCONN_PS_AUTO ? "auto" : "disable"));
    json_object_set_new(j, "mysql_host",
                        c->conn.socket ? json_string("localhost") : json_string(c->conn.host));
    if (c->conn.socket)
        json_object_set_new(j, "mysql_socket", json_string(c->conn.socket));
    else
        json_object_set_new(j, "mysql_port", json_integer(c->conn.port));
    json_object_set_new(j, "mysql_user", json_string(c->conn.user));
    json_object_set_new(j, "mysql_db", json_string(c->conn.db));
    json_object_set_new(j, "mysql_ssl_mode", json_string(ssl[c->conn.ssl_mode]));
    if (c->precision > 0) {
        json_object_del(j, "time");
        json_object_set_new(j, "precision", json_real(c->precision));
        json_object_set_new(j, "min_time", json_real(c->min_time_s));
        json_object_set_new(j, "max_time", json_real(c->max_time_s));
    }
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

static int is_unreachable(unsigned e)
{
    return e == 2002 || e == 2003 || e == 2005 || e == 2006 || e == 2013 || e == 2055;
}

/* sysbench's FATAL lines on stdout, sizeup's message on stderr. */
static void print_connect_failure(const struct probe_cli *pc, const struct myconn_error *e)
{
    if (strcmp(e->func, "mysql_real_connect") == 0)
        printf("FATAL: unable to connect to MySQL server on host '%s', port %u, "
               "aborting...\nFATAL: error %u: %s\n",
               pc->cfg.conn.socket ? "localhost" : pc->cfg.conn.host, pc->cfg.conn.port, e->errnum,
               e->msg);
    else
        printf("FATAL: %s() returned error %u (%s)\nFATAL: Thread initialization "
               "failed!\n",
               e->func, e->errnum, e->msg);
    fflush(stdout);
    fprintf(stderr, "sizeup: cannot connect or prepare statements: error %u (SQLSTATE %s): %s\n",
            e->errnum, e->sqlstate, e->msg);
}

static int write_point(const struct probe_cli *pc, FILE *out, const struct probe_result *r)
{
    struct point p;
    struct point_error err;
    int rc;
    point_init(&p);
    rc = probe_fill_point(&pc->cfg, r, &p);
    if (!rc)
        rc = point_set_str(&p.target, pc->target);
    if (!rc && pc->config)
        rc = point_set_str(&p.config, pc->config);
    if (!rc)
        rc = point_set_str(&p.tool, "sizeup " SIZEUP_VERSION);
    if (!rc) {
        p.options = options_json(pc);
        rc = p.options ? point_write(out, &p, &err) : POINT_ENOMEM;
        if (rc == POINT_OK && fsync(fileno(out)) != 0 && errno != EINVAL) {
            snprintf(err.msg, sizeof err.msg, "fsync: %s", strerror(errno));
            rc = POINT_EIO;
        }
        if (rc != POINT_OK)
            fprintf(stderr, "sizeup: cannot write the record to %s: %s\n", pc->out,
                    rc == POINT_ENOMEM ? "out of memory" : err.msg);
    }
    point_destroy(&p);
    return rc;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *level_kind(const struct probe_config *c)
{
    return c->precision > 0 ? "calibrated" : c->time_s > 0 ? "time-limited" : "event-limited";
}

/* Throughput of a level: of the kept ticks when calibrated, else of the whole run. */
static double level_tps(const struct probe_result *r)
{
    if (r->calibrated)
        return r->kept_s > 0 ? (double)r->kept.events / r->kept_s : 0.0;
    return r->elapsed_s > 0 ? (double)r->tot.events / r->elapsed_s : 0.0;
}

/* --threads auto: cap --max-threads by the server's max_connections - 1 (one left for the
 * operator). When the server cannot be asked, the cap stays; the first level says why. */
static void cap_max_threads(struct probe_cli *pc)
{
    struct myconn c;
    MYSQL_RES *res;
    MYSQL_ROW row;
    memset(&c, 0, sizeof c);
    if (myconn_connect(&c, &pc->cfg.conn) != 0)
        return;
    if (mysql_query(c.mysql, "SELECT @@max_connections") == 0 &&
        (res = mysql_store_result(c.mysql)) != NULL) {
        long long mc;
        if ((row = mysql_fetch_row(res)) != NULL && row[0] &&
            units_parse_int(row[0], 1, 1000000, &mc) == 0 && mc >= 2 &&
            (unsigned long long)(mc - 1) < pc->ladder.max_threads) {
            fprintf(stderr,
                    "sizeup probe: --max-threads %u capped at %lld (max_connections "
                    "%lld - 1)\n",
                    pc->ladder.max_threads, mc - 1, mc);
            pc->ladder.max_threads = (unsigned)(mc - 1);
        }
        mysql_free_result(res);
    }
    myconn_close(&c);
}

/* --resume: the point of this target, workload and level in done that counts (curve.h's
 * rule), or NULL. */
static const struct point *measured_before(const struct probe_cli *pc,
                                           const struct point_list *done, unsigned threads)
{
    const struct point *p =
        curve_find_point(done, pc->target, oltp_workload_name(pc->cfg.oltp.workload), threads);
    return p && !isnan(p->tps) ? p : NULL;
}

static int run_levels(struct probe_cli *pc)
{
    FILE *out = NULL;
    int exit_code = SIZEUP_EXIT_OK;
    struct ladder lad;
    struct usl_workspace *ws = NULL;
    double start_s = mono_s();
    int told_doubling = 0;
    struct point_list done;
    struct stat st;
    point_list_init(&done);
    if (pc->resume && pc->out && stat(pc->out, &st) == 0 && st.st_size > 0) {
        /* (an empty or missing --out: nothing measured yet, a fresh start) */
        struct import_report rep;
        if (import_file(pc->out, NULL, &done, &rep) < 0) {
            fprintf(stderr, "sizeup: --resume: %s\n", rep.msg);
            return SIZEUP_EXIT_INPUT;
        }
    }
    { /* every table the run touches is sizeup's, before any statement touches one */
        char msg[2048];
        struct myconn_error err;
        int rc;
        memset(&err, 0, sizeof err);
        rc = sbtables_check(&pc->cfg, msg, sizeof msg, &err);
        if (rc < 0 && err.errnum) {
            print_connect_failure(pc, &err);
            point_list_destroy(&done);
            return is_unreachable(err.errnum) ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
        }
        if (rc != 0) {
            fprintf(stderr, "sizeup: %s\n", msg);
            point_list_destroy(&done);
            return rc == -MYCONN_RECONNECT ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
        }
    }
    if (pc->out) {
        out = fopen(pc->out, "a");
        if (!out) {
            fprintf(stderr, "sizeup: --out %s: %s\n", pc->out, strerror(errno));
            return SIZEUP_EXIT_FAIL;
        }
    }
    if (pc->auto_threads) {
        cap_max_threads(pc);
        ladder_init(&lad, &pc->ladder); /* options validated by parse_args */
        ws = usl_workspace_new();
        if (!ws) {
            fprintf(stderr, "sizeup: out of memory\n");
            if (out)
                fclose(out);
            return SIZEUP_EXIT_FAIL;
        }
    }
    for (size_t i = 0;; i++) {
        struct probe_result r;
        unsigned threads;
        uint64_t p95 = 0;
        if (pc->auto_threads) {
            threads = ladder_next(&lad, ws);
            if (lad.phase != LADDER_DOUBLING && !told_doubling) {
                fprintf(stderr, "sizeup probe: ladder: doubling ends: %s\n", lad.doubling_why);
                told_doubling = 1;
            }
            fprintf(stderr, "sizeup probe: ladder: %s%s\n", threads ? "" : "done: ", lad.why);
            if (!threads)
                break;
        } else {
            if (i >= pc->n_threads)
                break;
            threads = (unsigned)pc->threads[i];
        }
        {
            const struct point *before = pc->resume ? measured_before(pc, &done, threads) : NULL;
            if (before) {
                double pct = pc->slo_ms > 0           ? pc->slo_pct
                             : pc->cfg.percentile > 0 ? pc->cfg.percentile
                                                      : 95;
                fprintf(stderr,
                        "sizeup probe: %u threads: already in %s (%.2f tps), not measured "
                        "again\n",
                        threads, pc->out, before->tps);
                if (pc->auto_threads)
                    ladder_add(&lad, threads, before->tps, point_percentile(before, pct));
                continue;
            }
        }
        if (pc->auto_threads)
            fprintf(stderr,
                    "sizeup probe: level %zu (auto, at most %zu): %s, %u thread%s, %s, "
                    "elapsed %.0f s\n",
                    i + 1, pc->ladder.max_points, oltp_workload_name(pc->cfg.oltp.workload),
                    threads, threads == 1 ? "" : "s", level_kind(&pc->cfg), mono_s() - start_s);
        else
            fprintf(stderr, "sizeup probe: level %zu/%zu: %s, %u thread%s, %s\n", i + 1,
                    pc->n_threads, oltp_workload_name(pc->cfg.oltp.workload), threads,
                    threads == 1 ? "" : "s", level_kind(&pc->cfg));
        if (probe_run(&pc->cfg, threads, &r) != 0) {
            fprintf(stderr, "sizeup: %s\n", r.err.msg);
            probe_result_destroy(&r);
            exit_code = SIZEUP_EXIT_FAIL;
            break;
        }
        if (r.end == PROBE_END_CONNECT) {
            print_connect_failure(pc, &r.err);
            exit_code = is_unreachable(r.err.errnum) ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
            probe_result_destroy(&r);
            break;
        }
        if (r.end == PROBE_END_FATAL) {
            printf("FATAL: %s() returned error %u (%s) for query '%s'\n",
                   r.err.func[0] ? r.err.func : "mysql_stmt_execute", r.err.errnum, r.err.msg,
                   r.err_sql);
            fflush(stdout);
        } else {
            report_summary(stdout, &r, pc->cfg.percentile);
        }
        if (out && write_point(pc, out, &r) != POINT_OK)
            exit_code = SIZEUP_EXIT_FAIL;
        if (r.hist)
            hist_percentile(r.calibrated ? r.kept_hist : r.hist, 95, &p95);
        if (r.calibrated)
            fprintf(stderr,
                    "sizeup probe: %u threads: %.2f tps +/- %.2f %% (95 %%, asked %.2f %%), %s; "
                    "warm-up %.2f s cut, %.2f s kept of %.2f s; elapsed %.0f s\n",
                    threads, r.kept_s > 0 ? (double)r.kept.events / r.kept_s : 0.0, 100 * r.rel95,
                    100 * pc->cfg.precision,
                    r.steady ? "steady" : "NOT steady (stopped at --max-time or earlier)",
                    r.warmup_s, r.kept_s, r.elapsed_s, mono_s() - start_s);
        fprintf(stderr,
                "sizeup probe: %u threads: %.2f tps, p95 %.2f ms, %lu errors, %lu reconnects, "
                "client CPU %.2f s%s%s\n",
                threads, level_tps(&r), (double)p95 / 1e6,
                (unsigned long)(r.calibrated ? r.kept.errors : r.tot.errors),
                (unsigned long)r.tot.reconnects, r.client_cpu_s, out ? " -> " : "",
                out ? pc->out : "");
        if (pc->auto_threads) {
            uint64_t lat = 0;
            const struct hist *h = r.calibrated ? r.kept_hist : r.hist;
            double pct = pc->slo_ms > 0           ? pc->slo_pct
                         : pc->cfg.percentile > 0 ? pc->cfg.percentile
                                                  : 95;
            struct point lp;
            int counts;
            if (h && h->count)
                hist_percentile(h, pct, &lat);
            /* a level whose point does not count (curve.h's rule) is recorded, not fitted */
            point_init(&lp);
            counts = probe_fill_point(&pc->cfg, &r, &lp) == 0 && curve_point_counts(&lp);
            point_destroy(&lp);
            ladder_add(&lad, threads, counts ? level_tps(&r) : NAN,
                       h && h->count ? (double)lat / 1e6 : NAN);
        }
        if (pc->cfg.rate > 0)
            fprintf(stderr,
                    "sizeup probe: open loop at %.0f/s: start lag behind the intended start "
                    "avg %.3f ms, max %.3f ms (included in the latencies)\n",
                    pc->cfg.rate, r.lag_avg_ms, r.lag_max_ms);
        if (r.end == PROBE_END_INTERRUPTED) {
            fprintf(stderr, "sizeup: interrupted; the level so far was written, marked "
                            "interrupted\n");
            exit_code = SIZEUP_EXIT_INTERRUPTED;
        } else if (r.end == PROBE_END_PARTIAL) {
            fprintf(stderr,
                    "sizeup: the server stayed unreachable (last error %u: %s); the level's "
                    "point is marked partial and later levels were not run\n",
                    r.err.errnum, r.err.msg);
            exit_code = SIZEUP_EXIT_UNREACHABLE;
        } else if (r.end == PROBE_END_FATAL) {
            fprintf(stderr,
                    "sizeup: fatal error %u (SQLSTATE %s): %s; the level's point is marked "
                    "partial\n",
                    r.err.errnum, r.err.sqlstate, r.err.msg);
            exit_code = SIZEUP_EXIT_FAIL;
        }
        probe_result_destroy(&r);
        if (exit_code != SIZEUP_EXIT_OK)
            break;
    }
    usl_workspace_free(ws);
    point_list_destroy(&done);
    if (out && fclose(out) != 0) {
        fprintf(stderr, "sizeup: --out %s: %s\n", pc->out, strerror(errno));
        exit_code = SIZEUP_EXIT_FAIL;
    }
    return exit_code;
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
