/* launcher.c - the client index and count of a level's share (launcher.h). */
#include "launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *process_getenv(const char *name, void *ctx)
{
    (void)ctx;
    return getenv(name);
}

/* A decimal integer in [0, max], the whole text: 0, or -1. */
static int parse_dec(const char *s, size_t len, unsigned long max, unsigned *out)
{
    unsigned long v = 0;
    if (len == 0 || len > 10)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    if (v > max)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static void one_client(struct launch_client *out)
{
    memset(out, 0, sizeof *out);
    out->source = LAUNCH_ONE;
    snprintf(out->what, sizeof out->what, "one client");
}

/* --client I/K or none. */
static int from_cli(const char *cli, struct launch_client *out, char *err, size_t cap)
{
    const char *slash = strchr(cli, '/');
    unsigned i, k;
    if (strcmp(cli, "none") == 0) {
        snprintf(out->what, sizeof out->what, "one client (--client none)");
        return 0;
    }
    if (!slash || parse_dec(cli, (size_t)(slash - cli), LAUNCH_MAX_CLIENTS, &i) ||
        parse_dec(slash + 1, strlen(slash + 1), LAUNCH_MAX_CLIENTS, &k) || k == 0 || i >= k) {
        snprintf(err, cap,
                 "--client takes I/K, this process's index I (0-based) below the count K "
                 "(1..%d), e.g. 0/2, or 'none', not '%s'",
                 LAUNCH_MAX_CLIENTS, cli);
        return -1;
    }
    out->index = i;
    out->count = k;
    out->source = LAUNCH_CLI;
    snprintf(out->what, sizeof out->what, "--client %u/%u", i, k);
    return 0;
}

/* One launcher's pair of variables: 1 when it applies (out filled), 0 when neither is set,
 * -1 on an error. */
static int from_pair(launch_getenv_fn ge, void *ctx, const char *index_var, const char *count_var,
                     const char *launcher, const char *hint, enum launch_source src,
                     struct launch_client *out, char *err, size_t cap)
{
    const char *is = ge(index_var, ctx), *ks = ge(count_var, ctx);
    unsigned i, k;
    if (!is && !ks)
        return 0;
    if (!is || !ks) {
        snprintf(err, cap, "%s=%s is set but %s is not: %s (or give --client I/K or none)",
                 is ? index_var : count_var, is ? is : ks, is ? count_var : index_var, hint);
        return -1;
    }
    if (parse_dec(is, strlen(is), LAUNCH_MAX_CLIENTS, &i)) {
        snprintf(err, cap, "%s=%s is not a client index (0..%d)", index_var, is,
                 LAUNCH_MAX_CLIENTS - 1);
        return -1;
    }
    if (parse_dec(ks, strlen(ks), LAUNCH_MAX_CLIENTS, &k) || k == 0) {
        snprintf(err, cap, "%s=%s is not a client count (1..%d)", count_var, ks,
                 LAUNCH_MAX_CLIENTS);
        return -1;
    }
    if (i >= k) {
        snprintf(err, cap, "%s=%u is not below %s=%u", index_var, i, count_var, k);
        return -1;
    }
    if (k > 1) {
        out->index = i;
        out->count = k;
        out->source = src;
    }
    snprintf(out->what, sizeof out->what, "%s%s (%s=%u, %s=%u)",
             k > 1 ? "" : "one client: ", launcher, index_var, i, count_var, k);
    return 1;
}

int launch_client_resolve(const char *cli, launch_getenv_fn getenv_fn, void *ctx,
                          struct launch_client *out, char *err, size_t cap)
{
    static const struct {
        const char *index_var, *count_var, *launcher, *hint;
        enum launch_source src;
    } pairs[] = {
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI",
         "mpirun sets both in every rank", LAUNCH_MPI},
        {"SLURM_PROCID", "SLURM_NTASKS", "Slurm", "srun sets both in every task", LAUNCH_SLURM},
        {"JOB_COMPLETION_INDEX", "SIZEUP_CLIENT_COUNT", "a Kubernetes Indexed Job",
         "set SIZEUP_CLIENT_COUNT to the Job's completions in its pod template", LAUNCH_K8S},
    };
    one_client(out);
    if (cap)
        err[0] = '\0';
    if (cli)
        return from_cli(cli, out, err, cap) ? (one_client(out), -1) : 0;
    if (!getenv_fn)
        getenv_fn = process_getenv;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        int rc = from_pair(getenv_fn, ctx, pairs[p].index_var, pairs[p].count_var,
                           pairs[p].launcher, pairs[p].hint, pairs[p].src, out, err, cap);
        if (rc < 0) {
            one_client(out);
            return -1;
        }
        if (rc > 0)
            return 0;
    }
    return 0;
}

/* n digits at s as a number: 0, or -1. */
static int digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

static int leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Hinnant's days_from_civil). */
static int64_t days_from_civil(int y, int m, int d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int launch_parse_rfc3339(const char *s, int64_t *out)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0;
    int64_t ns = 0, t;
    const char *p;
    if (strlen(s) < 20 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) || s[7] != '-' ||
        digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi) || s[16] != ':' ||
        digits(s + 17, 2, &sec))
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap(y)) || h > 23 ||
        mi > 59 || sec > 59) /* a leap second (:60) is refused: the clock never shows it */
        return -1;
    p = s + 19;
    if (*p == '.') {
        int nd = 0;
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        for (; *p >= '0' && *p <= '9'; p++, nd++)
            if (nd < 9)
                ns = ns * 10 + (*p - '0');
        for (; nd < 9; nd++)
            ns *= 10;
    }
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        sign = *p == '+' ? 1 : -1;
        if (digits(p + 1, 2, &oh) || p[3] != ':' || digits(p + 4, 2, &om) || oh > 23 || om > 59)
            return -1;
        p += 6;
    } else {
        return -1;
    }
    if (*p)
        return -1;
    t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
    t -= sign * (oh * 3600 + om * 60);
    if (t < 0 || t > INT64_MAX / 1000000000 - 1) /* before 1970, or past 2262 in int64 ns */
        return -1;
    *out = t * 1000000000 + ns;
    return 0;
}
