/*
 * test_cli_help.c - every command's --help is rendered from its option table: for each
 * command and action that sizeup dispatches to (commands.c), `sizeup CMD --help` exits 0 on
 * stdout, starts with the table's usage, lists every option of the table, and prints each
 * default exactly as the table holds it ("(default: 1G)"). The tables themselves must pass
 * cli_check_table (every default parses with its option's own type).
 *
 * The expected text comes from the tables, not from a previous run of the command.
 */
#include "check.h"
#include "cli.h"
#include "cmd_catalog.h"
#include "commands.h"
#include "convert.h"
#include "fetch.h"
#include "limit.h"
#include "oltp.h"
#include "probe_types.h"
#include "session.h"
#include "units.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Commands whose options are still hand-written (none left: every command has a table; a new
 * one without would be listed here until it has). */
static const char *const pending[] = {NULL};

static int is_pending(const char *name)
{
    for (int i = 0; pending[i]; i++)
        if (strcmp(pending[i], name) == 0)
            return 1;
    return 0;
}

/* Run `sizeup WORDS... --help`; its stdout in a new string (free), its status in *rc. */
static char *help_of(char **words, int n, int *rc)
{
    char *argv[8], flag[] = "--help", prog[] = "sizeup", *text;
    int argc = 0, saved = dup(1);
    FILE *tmp = tmpfile();
    long len;
    argv[argc++] = prog;
    for (int i = 0; i < n; i++)
        argv[argc++] = words[i];
    argv[argc++] = flag;
    argv[argc] = NULL;
    fflush(stdout);
    dup2(fileno(tmp), 1);
    *rc = cmd_sizeup(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    len = ftell(tmp);
    rewind(tmp);
    text = calloc(1, (size_t)len + 1);
    if (text && fread(text, 1, (size_t)len, tmp) != (size_t)len)
        text[0] = '\0';
    fclose(tmp);
    return text;
}

/* An option's first line, as cli_help writes it: "  -x, --name" or "      --name" (its
 * wrapped text is indented past the labels). */
static int is_option_line(const char *line)
{
    return strncmp(line, "      --", 8) == 0 ||
           (strncmp(line, "  -", 3) == 0 && line[3] != '-' && strncmp(line + 4, ", --", 4) == 0);
}

/* The lines of help that describe --name, with runs of white space made one space; NULL when
 * no option line names it. */
static char *option_block(const char *help, const char *name)
{
    char want[128], *out;
    const char *p = help, *start = NULL, *end;
    size_t k = 0;
    snprintf(want, sizeof want, "--%s", name);
    for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        const char *q = p;
        if (!is_option_line(p))
            continue; /* a wrapped line of help text may start with "--name" too */
        while (*q == ' ')
            q++;
        if (*q == '-' && q[1] != '-' && q[1] && q[2] == ',')
            q += 4; /* "-o, " */
        if (strncmp(q, want, strlen(want)) == 0 && strchr("=[ \n", q[strlen(want)]) != NULL) {
            start = q;
            break;
        }
    }
    if (!start)
        return NULL;
    /* up to the next option line ("  -x, --" or "      --") or a blank line */
    end = strchr(start, '\n');
    while (end && end[1] && end[1] != '\n') {
        if (is_option_line(end + 1))
            break;
        end = strchr(end + 1, '\n');
    }
    if (!end)
        end = start + strlen(start);
    out = malloc((size_t)(end - start) + 1);
    for (const char *c = start; out && c < end; c++) {
        if (isspace((unsigned char)*c)) {
            if (k && out[k - 1] != ' ')
                out[k++] = ' ';
        } else {
            out[k++] = *c;
        }
    }
    if (out)
        out[k] = '\0';
    return out;
}

static int n_commands;

static void check_command(const struct cli_cmd *cmd, char **words, int n)
{
    char err[256], *help, want[512];
    int rc;
    n_commands++;
    CHECK_INT_EQ(cli_check_table(cmd, err, sizeof err), 0);
    if (cli_check_table(cmd, err, sizeof err) != 0)
        fprintf(stderr, "  %s\n", err);
    help = help_of(words, n, &rc);
    CHECK_INT_EQ(rc, SIZEUP_EXIT_OK);
    CHECK(help && strncmp(help, cmd->usage, strlen(cmd->usage)) == 0);
    for (const struct cli_opt *o = cmd->options; help && o && o->name; o++) {
        char *block = option_block(help, o->name);
        const char *dflt = cli_default_text(o);
        CHECK(block != NULL);
        if (!block) {
            fprintf(stderr, "  sizeup %s --help does not list --%s\n", cmd->name, o->name);
            continue;
        }
        if (dflt) {
            snprintf(want, sizeof want, "default: %s)", dflt);
            CHECK(strstr(block, want) != NULL);
            if (!strstr(block, want))
                fprintf(stderr, "  sizeup %s --help: --%s does not say '%s': %s\n", cmd->name,
                        o->name, want, block);
        } else {
            /* no default in the table: none invented in the text either */
            CHECK(strstr(block, "(default") == NULL);
        }
        free(block);
    }
    if (help) {
        char *block = option_block(help, "help");
        CHECK(block != NULL);
        free(block);
    }
    free(help);
    for (const struct cli_sub *s = cmd->subs; s && s->name; s++) {
        words[n] = (char *)s->name;
        if (strcmp(s->name, "help") == 0)
            continue;
        if (!s->cli) {
            CHECK(is_pending(s->name));
            if (!is_pending(s->name))
                fprintf(stderr, "  sizeup %s %s has no option table\n", cmd->name, s->name);
            continue;
        }
        CHECK(strcmp(s->cli->name, n ? "" : s->name) == 0 || strstr(s->cli->name, s->name));
        check_command(s->cli, words, n + 1);
    }
}

/* catalog fetch and convert start from the catalogs library's defaults and apply their
 * tables' defaults over them: both must say the same, or --help would lie to one side. */
static void check_library_defaults(void)
{
    struct cat_fetch_options lib, cli;
    struct cat_convert_options clib, ccli;
    cat_fetch_options_default(&lib);
    CHECK_INT_EQ(cmd_catalog_fetch_defaults(&cli), 0);
    CHECK_INT_EQ(cli.timeout_ms, lib.timeout_ms);
    CHECK_INT_EQ(cli.connect_timeout_ms, lib.connect_timeout_ms);
    CHECK_INT_EQ(cli.max_retries, lib.max_retries);
    CHECK_INT_EQ(cli.backoff_initial_ms, lib.backoff_initial_ms);
    CHECK_INT_EQ(cli.backoff_max_ms, lib.backoff_max_ms);
    CHECK_INT_EQ(cli.max_bytes, lib.max_bytes);
    CHECK_INT_EQ(cli.follow_pages, lib.follow_pages);
    CHECK_INT_EQ(cli.retry_not_found, lib.retry_not_found);
    CHECK(cli.cache_dir == lib.cache_dir);
    cat_convert_options_default(&clib);
    CHECK_INT_EQ(cmd_catalog_convert_defaults(&ccli), 0);
    CHECK_INT_EQ(ccli.pricings, clib.pricings);
    CHECK(strcmp(ccli.offering, clib.offering) == 0);
    CHECK(strcmp(ccli.purchase, clib.purchase) == 0);
}

/* probe's table takes the ranges of limit.h (a study is checked against the same table) and
 * names the workloads as the probes library does. */
static void check_probe_table(void)
{
    static const struct {
        const char *opt;
        enum limit_id id;
    } lim[] = {{"tables", LIMIT_TABLES},       {"table-size", LIMIT_TABLE_SIZE},
               {"max-threads", LIMIT_THREADS}, {"max-points", LIMIT_MAX_POINTS},
               {"max-time", LIMIT_MAX_TIME},   {"min-time", LIMIT_MIN_TIME},
               {"time", LIMIT_TIME},           {"precision", LIMIT_PRECISION},
               {"mysql-port", LIMIT_PORT},     {"mysql-timeout", LIMIT_TIMEOUT},
               {"give-up", LIMIT_GIVE_UP}};
    size_t found = 0;
    for (const struct cli_opt *o = cmd_probe_cli.options; o->name; o++) {
        for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
            if (strcmp(o->name, lim[i].opt) == 0) {
                const struct limit *l = limit_get(lim[i].id);
                found++;
                CHECK(o->min == l->min && o->max == l->max);
                if (o->min != l->min || o->max != l->max)
                    fprintf(stderr, "  probe --%s: %g..%g, limit.h %s: %g..%g\n", o->name, o->min,
                            o->max, l->name, l->min, l->max);
            }
        if (strcmp(o->name, "workload") == 0) {
            size_t n = 0;
            for (const struct cli_choice *c = o->choices; c->name; c++, n++) {
                enum oltp_workload w;
                CHECK_INT_EQ(oltp_workload_parse(c->name, &w), 0);
                CHECK_INT_EQ((int)w, c->value);
                CHECK(strcmp(oltp_workload_name(w), c->name) == 0);
            }
            CHECK_INT_EQ((int)n, OLTP_N_WORKLOADS);
        }
    }
    CHECK_INT_EQ((int)found, (int)(sizeof lim / sizeof lim[0]));
}

/* The probe's defaults have one source, probes/ (probe_config_defaults), which a study's probes
 * start from; the option table's defaults, the ones --help prints, must say the same: every
 * field of the record's options object, and the fields that object leaves out. */
static const char *probe_dflt(const char *name)
{
    for (const struct cli_opt *o = cmd_probe_cli.options; o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o->dflt;
    return NULL;
}

static void check_probe_defaults(void)
{
    static const char *seconds[] = {"time", "min-time", "max-time", "give-up", "mysql-timeout"};
    struct probe_config cfg;
    double want[5];
    double pct = -1;
    long long tables = -1;
    struct probe_config lib;
    json_t *a, *b;
    CHECK_INT_EQ(cmd_probe_config_default(&cfg), 0);
    probe_config_defaults(&lib);
    a = probe_config_json(&cfg);
    b = probe_config_json(&lib);
    CHECK(a && b && json_equal(a, b));
    if (a && b && !json_equal(a, b)) {
        char *ta = json_dumps(a, JSON_SORT_KEYS), *tb = json_dumps(b, JSON_SORT_KEYS);
        fprintf(stderr, "option table: %s\nprobes/:      %s\n", ta ? ta : "?", tb ? tb : "?");
        free(ta);
        free(tb);
    }
    json_decref(a);
    json_decref(b);
    CHECK(cfg.precision == lib.precision && cfg.time_s == lib.time_s);
    CHECK(cfg.conn.connect_timeout_s == lib.conn.connect_timeout_s);
    CHECK(cfg.conn.timeout_s == lib.conn.timeout_s && cfg.give_up_s == lib.give_up_s);
    CHECK(memcmp(&cfg.rand, &lib.rand, sizeof cfg.rand) == 0);
    CHECK(memcmp(&cfg.conn.ignore, &lib.conn.ignore, sizeof cfg.conn.ignore) == 0);
    CHECK(cfg.conn.ps_mode == lib.conn.ps_mode && cfg.report_interval_s == lib.report_interval_s);
    for (size_t i = 0; i < 5; i++) {
        const char *d = probe_dflt(seconds[i]);
        CHECK(d != NULL);
        want[i] = NAN;
        if (d)
            CHECK_INT_EQ(units_parse_duration(d, &want[i]), 0);
    }
    CHECK(cfg.time_s == 0); /* no --time: a calibrated level */
    CHECK(cfg.min_time_s == want[1]);
    CHECK(cfg.max_time_s == want[2]);
    CHECK(cfg.give_up_s == want[3]);
    CHECK((double)cfg.conn.timeout_s == want[4]);
    CHECK(probe_dflt("percentile") &&
          units_parse_double(probe_dflt("percentile"), 0, 100, &pct) == 0);
    CHECK(cfg.percentile == pct);
    CHECK(probe_dflt("tables") && units_parse_int(probe_dflt("tables"), 1, 1 << 20, &tables) == 0);
    CHECK_INT_EQ((long long)cfg.oltp.tables, tables);
}

int main(void)
{
    check_probe_table();
    check_library_defaults();
    check_probe_defaults();
    char *words[8];
    check_command(&sizeup_cli, words, 0);
    printf("%d command tables checked\n", n_commands);
    CHECK(n_commands >= 2);
    return check_report();
}
