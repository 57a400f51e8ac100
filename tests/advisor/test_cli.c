/*
 * test_cli.c - the option tables of cli/cli.c (every type, defaults, misuse messages,
 * operands, the return convention) and the strict value parsers of util/units.c. Expected
 * values come from each type's grammar (cli.h, units.h): 64M = 64 * 2^20 bytes, 2% = 0.02.
 */
#include "check.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct t_opts {
    int flag, on, choice;
    unsigned count;
    long long big;
    double real, seconds, ms, fraction;
    long long size;
    unsigned list[4];
    size_t n_list;
    struct slo slo;
    const char *path, *name;
    const char *files[3];
    size_t n_files;
    int custom;
};

static int parse_even(const char *arg, void *dest, char *err, size_t cap)
{
    long long v;
    if (units_parse_int(arg, 0, 100, &v) != 0 || v % 2 != 0) {
        snprintf(err, cap, "'%s' is not an even number from 0 to 100", arg);
        return -1;
    }
    *(int *)dest = (int)v;
    return 0;
}

static const struct cli_choice t_choices[] = {{"red", 1}, {"green", 2}, {"blue", 3}, {NULL, 0}};

static const struct cli_opt t_table[] = {
    {"flag", 'f', CLI_FLAG, CLI_AT(struct t_opts, flag), .help = "a flag"},
    {"on", 0, CLI_BOOL, CLI_AT(struct t_opts, on), .optional = 1, .dflt = "off", .help = "b"},
    {"colour", 'c', CLI_CHOICE, CLI_AT(struct t_opts, choice), .choices = t_choices,
     .dflt = "green", .help = "a choice"},
    {"count", 'n', CLI_INT, CLI_AT(struct t_opts, count), .min = 0, .max = 4294967295.0,
     .dflt = "7", .help = "unsigned"},
    {"big", 0, CLI_INT, CLI_AT(struct t_opts, big), .min = -5, .max = 1e18, .help = "ll"},
    {"real", 0, CLI_REAL, CLI_AT(struct t_opts, real), .min = -1, .max = 1, .dflt = "0.5",
     .help = "r"},
    {"time", 't', CLI_SECONDS, CLI_AT(struct t_opts, seconds), .min = 0, .max = 86400,
     .dflt = "30s", .help = "s"},
    {"max-latency", 0, CLI_MS, CLI_AT(struct t_opts, ms), .min = 0.001, .max = 1e6, .help = "ms"},
    {"precision", 0, CLI_FRACTION, CLI_AT(struct t_opts, fraction), .dflt = "2%", .help = "p"},
    {"size", 's', CLI_SIZE, CLI_AT(struct t_opts, size), .min = 1, .max = 1e15, .dflt = "1G",
     .help = "z"},
    {"threads", 0, CLI_INT_LIST, CLI_LIST(struct t_opts, list, n_list), .min = 1, .max = 4096,
     .dflt = "1,2", .example = "1,2,4,8", .help = "l"},
    {"slo", 0, CLI_SLO, CLI_AT(struct t_opts, slo), .dflt = "p95:50ms", .help = "slo"},
    {"out", 'o', CLI_PATH, CLI_AT(struct t_opts, path), .help = "o"},
    {"target", 0, CLI_STRING, CLI_AT(struct t_opts, name), .dflt_doc = "the host name",
     .help = "t"},
    {"points", 0, CLI_PATH, CLI_LIST(struct t_opts, files, n_files), .help = "repeatable"},
    {"even", 0, CLI_CUSTOM, CLI_AT(struct t_opts, custom), .parse = parse_even, .help = "c"},
    {0}};

static const struct cli_cmd t_cmd = {.name = "test",
                                     .usage = "Usage: sizeup test [OPTIONS] A [B]",
                                     .description = "A test.",
                                     .options = t_table,
                                     .min_operands = 1,
                                     .max_operands = 2,
                                     .operands_hint = "name A"};

/* Run cli_parse on a command line (words separated by spaces) with stderr in err_text. */
static int run(const char *line, struct t_opts *o, struct cli_args *a, char *err_text, size_t cap)
{
    static char buf[1024], *argv[64]; /* the operands in *a point into buf */
    int argc = 0, rc, saved = dup(2);
    FILE *tmp = tmpfile();
    size_t got;
    snprintf(buf, sizeof buf, "test %s", line);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 63;
         w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    memset(o, 0, sizeof *o);
    fflush(stderr);
    dup2(fileno(tmp), 2);
    rc = cli_parse(&t_cmd, argc, argv, o, a);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    got = fread(err_text, 1, cap - 1, tmp);
    err_text[got] = '\0';
    fclose(tmp);
    return rc;
}

static void test_table(void)
{
    struct t_opts o;
    struct cli_args a;
    char err[1024];

    CHECK_INT_EQ(cli_check_table(&t_cmd, err, sizeof err), 0);

    /* defaults from the table, in each type's grammar */
    CHECK_INT_EQ(run("A", &o, &a, err, sizeof err), CLI_RUN);
    CHECK_INT_EQ(o.flag, 0);
    CHECK_INT_EQ(o.on, 0);
    CHECK_INT_EQ(o.choice, 2);
    CHECK_INT_EQ(o.count, 7);
    CHECK_NEAR(o.real, 0.5, 0);
    CHECK_NEAR(o.seconds, 30, 0);
    CHECK_NEAR(o.fraction, 0.02, 1e-15);
    CHECK_INT_EQ(o.size, 1LL << 30);
    CHECK_INT_EQ(o.n_list, 2);
    CHECK_INT_EQ(o.list[1], 2);
    CHECK_NEAR(o.slo.pct, 95, 0);
    CHECK_NEAR(o.slo.target_s, 0.05, 1e-15);
    CHECK(o.name == NULL && o.path == NULL);
    CHECK_INT_EQ(a.argc, 1);
    CHECK(strcmp(a.argv[0], "A") == 0);
    CHECK_INT_EQ(cli_given(&t_cmd, &a, "size"), 0);

    /* every type given; options and operands mixed */
    CHECK_INT_EQ(run("-f --on -c blue A --count=4294967295 --big -5 --real -1 -t 2m "
                     "--max-latency 800us --precision 0.5 -s 64M --threads 4,8,16 --slo avg:1s "
                     "-o out.json B --target db1 --points p1 --points p2 --even 42",
                     &o, &a, err, sizeof err),
                 CLI_RUN);
    CHECK_INT_EQ(o.flag, 1);
    CHECK_INT_EQ(o.on, 1);
    CHECK_INT_EQ(o.choice, 3);
    CHECK(o.count == 4294967295u);
    CHECK_INT_EQ(o.big, -5);
    CHECK_NEAR(o.real, -1, 0);
    CHECK_NEAR(o.seconds, 120, 0);
    CHECK_NEAR_REL(o.ms, 0.8, 1e-12);
    CHECK_NEAR(o.fraction, 0.5, 0);
    CHECK_INT_EQ(o.size, 64LL << 20);
    CHECK_INT_EQ(o.n_list, 3);
    CHECK_INT_EQ(o.list[2], 16);
    CHECK_NEAR(o.slo.pct, 0, 0);
    CHECK_NEAR(o.slo.target_s, 1, 0);
    CHECK(o.path && strcmp(o.path, "out.json") == 0);
    CHECK(o.name && strcmp(o.name, "db1") == 0);
    CHECK_INT_EQ(o.n_files, 2);
    CHECK(o.n_files == 2 && strcmp(o.files[1], "p2") == 0);
    CHECK_INT_EQ(o.custom, 42);
    CHECK_INT_EQ(a.argc, 2);
    CHECK(a.argc == 2 && strcmp(a.argv[1], "B") == 0);
    CHECK_INT_EQ(cli_given(&t_cmd, &a, "size"), 1);
    CHECK_INT_EQ(cli_given(&t_cmd, &a, "no-such-option"), 0);
    CHECK(strcmp(err, "") == 0);
    if (*err)
        fprintf(stderr, "  got: %s", err);

    /* misuse: the message names the option, says what it takes, exit 2 */
    struct {
        const char *line, *msg;
    } bad[] = {
        {"A --threads 1,0", "sizeup: --threads takes a list of up to 4 positive integers up to "
                            "4096, e.g. 1,2,4,8, not '1,0'\nTry 'sizeup test --help'."},
        {"A --threads 1,2,3,4,5", "--threads takes a list of up to 4 positive integers"},
        {"A --threads", "sizeup: --threads takes a list of up to 4 positive integers up to 4096, "
                        "e.g. 1,2,4,8\nTry"},
        {"A --count -1", "--count takes an integer from 0 to 4294967295, e.g. 7, not '-1'"},
        {"A --big -6", "--big takes an integer >= -5, not '-6'"},
        {"A --real 1.5", "--real takes a number from -1 to 1, e.g. 0.5, not '1.5'"},
        {"A --time 2d", "--time takes a duration (unit ms, s, m or h; a bare number is seconds) up "
                        "to 86400s, e.g. 30s, not '2d'"},
        {"A --max-latency 50", "--max-latency: '50' is not a latency: give a unit, e.g. 50ms"},
        {"A --max-latency 2000s", "--max-latency takes a latency with its unit (us, ms or s) "
                                  "from 0.001ms to 1e+06ms, not '2000s'"},
        {"A --precision 0%", "--precision takes a percentage or a fraction in (0, 1]"},
        {"A --size 0", "--size takes a size in bytes (unit K, M, G or T) >= 1, e.g. 1G, not '0'"},
        {"A --slo p95:50", "--slo: 'p95:50' is not a latency target: give a unit, e.g. p95:50ms"},
        {"A --colour pink", "--colour takes red, green or blue, not 'pink'"},
        {"A --on=maybe", "--on takes on or off, not 'maybe'"},
        {"A --even 3", "--even: '3' is not an even number from 0 to 100"},
        {"A --points a --points b --points c --points d", "--points: at most 3 of them"},
        {"A --frob", "sizeup: unknown option '--frob'\nTry 'sizeup test --help'."},
        {"A -x", "unknown option '-x'"},
        {"", "sizeup: name A\nTry 'sizeup test --help'."},
        {"A B C", "unexpected argument 'C'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = run(bad[i].line, &o, &a, err, sizeof err);
        CHECK_INT_EQ(rc, SIZEUP_EXIT_USAGE);
        CHECK(strstr(err, bad[i].msg) != NULL);
        if (!strstr(err, bad[i].msg))
            fprintf(stderr, "  [%s] got: %s", bad[i].line, err);
    }

    /* a repeated single value: the last wins; a repeatable list restarts its default */
    CHECK_INT_EQ(run("A -t 1s -t 2s", &o, &a, err, sizeof err), CLI_RUN);
    CHECK_NEAR(o.seconds, 2, 0);
    /* "--" ends the options */
    CHECK_INT_EQ(run("-- -f", &o, &a, err, sizeof err), CLI_RUN);
    CHECK_INT_EQ(o.flag, 0);
    CHECK(a.argc == 1 && strcmp(a.argv[0], "-f") == 0);
}

/* A table whose default does not parse is refused by the check. */
static void test_bad_table(void)
{
    static const struct cli_opt bad_default[] = {
        {"slo", 0, CLI_SLO, CLI_AT(struct t_opts, slo), .dflt = "p95:50", .help = "x"}, {0}};
    static const struct cli_opt twice[] = {
        {"a", 'a', CLI_FLAG, CLI_AT(struct t_opts, flag), .help = "x"},
        {"b", 'a', CLI_FLAG, CLI_AT(struct t_opts, on), .help = "y"},
        {0}};
    struct cli_cmd c = {.name = "bad", .usage = "u", .options = bad_default};
    char err[256];
    CHECK_INT_EQ(cli_check_table(&c, err, sizeof err), -1);
    CHECK(strstr(err, "--slo: its default does not parse") != NULL);
    c.options = twice;
    CHECK_INT_EQ(cli_check_table(&c, err, sizeof err), -1);
    CHECK(strstr(err, "given twice") != NULL);
}

int main(void)
{
    long long i, list[8];
    double d;
    size_t n;
    CHECK(units_parse_int("42", 1, 100, &i) == 0 && i == 42);
    CHECK(units_parse_int("0", 1, 100, &i) == -1);
    CHECK(units_parse_int("4x", 1, 100, &i) == -1);
    CHECK(units_parse_int("", 1, 100, &i) == -1);
    CHECK(units_parse_int(" 4", 1, 100, &i) == -1);
    CHECK(units_parse_int("99999999999999999999", 1, 100, &i) == -1);
    CHECK(units_parse_double("2.5", 0, 10, &d) == 0 && d == 2.5);
    CHECK(units_parse_double("nan", 0, 10, &d) == -1);
    CHECK(units_parse_duration("10", &d) == 0 && d == 10);
    CHECK(units_parse_duration("10s", &d) == 0 && d == 10);
    CHECK(units_parse_duration("2m", &d) == 0 && d == 120);
    CHECK(units_parse_duration("500ms", &d) == 0 && d == 0.5);
    CHECK(units_parse_duration("1.5h", &d) == 0 && d == 5400);
    CHECK(units_parse_duration("-1s", &d) == -1);
    CHECK(units_parse_duration("10x", &d) == -1);
    CHECK(units_parse_duration("0x10", &d) == -1);
    CHECK(units_parse_size("64M", &i) == 0 && i == 64LL * 1024 * 1024);
    CHECK(units_parse_size("1GiB", &i) == 0 && i == 1024LL * 1024 * 1024);
    CHECK(units_parse_size("16k", &i) == 0 && i == 16384);
    CHECK(units_parse_size("4096", &i) == 0 && i == 4096);
    CHECK(units_parse_size("1.5K", &i) == 0 && i == 1536);
    CHECK(units_parse_size("1.3", &i) == -1);
    CHECK(units_parse_size("10P", &i) == -1);
    CHECK(units_parse_size("9999999T", &i) == -1);
    CHECK(units_parse_int_list("1,2,4,8", 1000, list, 8, &n) == 0 && n == 4 && list[3] == 8);
    CHECK(units_parse_int_list("1,,4", 1000, list, 8, &n) == -1);
    CHECK(units_parse_int_list("1,0", 1000, list, 8, &n) == -1);
    CHECK(units_parse_int_list("1,2,3,4,5,6,7,8,9", 1000, list, 8, &n) == -1);
    CHECK(units_parse_fraction("2%", &d) == 0 && d == 0.02);
    CHECK(units_parse_fraction("0.05", &d) == 0 && d == 0.05);
    CHECK(units_parse_fraction("0%", &d) == -1);
    CHECK(units_parse_fraction("150%", &d) == -1);
    test_table();
    test_bad_table();
    return check_report();
}
