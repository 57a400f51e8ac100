/* test_launcher.c - the client index and count from --client and the launchers' environments
 * (advisor/plan/launcher.c), and --start-at's RFC 3339 times. The variables are the launchers'
 * documented ones: Open MPI's mpirun(1) "OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE", Slurm's
 * srun(1) "SLURM_PROCID / SLURM_NTASKS", Kubernetes' Indexed Job "JOB_COMPLETION_INDEX"; the
 * epoch seconds come from GNU date (`date -u -d 2026-12-01T10:00:00Z +%s` = 1796119200) and
 * from libc's timegm. */
#include "check.h"
#include "launcher.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

/* A fake environment: NULL-terminated name, value pairs. */
static const char *fake_env(const char *name, void *ctx)
{
    const char *const *kv = ctx;
    for (; kv[0]; kv += 2)
        if (strcmp(kv[0], name) == 0)
            return kv[1];
    return NULL;
}

static int resolve(const char *cli, const char *const *env, struct launch_client *c, char *err,
                   size_t cap)
{
    return launch_client_resolve(cli, fake_env, (void *)env, c, err, cap);
}

static void test_sources(void)
{
    struct launch_client c;
    char err[200];
    const char *none[] = {NULL};
    const char *mpi[] = {"OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "3", NULL};
    const char *slurm[] = {"SLURM_PROCID", "1", "SLURM_NTASKS", "4", NULL};
    const char *k8s[] = {"JOB_COMPLETION_INDEX", "5", "SIZEUP_CLIENT_COUNT", "8", NULL};
    const char *mpi_in_slurm[] = {"SLURM_PROCID",
                                  "0",
                                  "SLURM_NTASKS",
                                  "2",
                                  "OMPI_COMM_WORLD_RANK",
                                  "3",
                                  "OMPI_COMM_WORLD_SIZE",
                                  "4",
                                  NULL};
    const char *srun_in_job[] = {"JOB_COMPLETION_INDEX",
                                 "1",
                                 "SIZEUP_CLIENT_COUNT",
                                 "2",
                                 "SLURM_PROCID",
                                 "0",
                                 "SLURM_NTASKS",
                                 "3",
                                 NULL};
    const char *np1[] = {"OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "1", NULL};

    CHECK_INT_EQ(resolve(NULL, none, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.count, 0);
    CHECK_INT_EQ(c.source, LAUNCH_ONE);

    CHECK_INT_EQ(resolve(NULL, mpi, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.index, 2);
    CHECK_INT_EQ(c.count, 3);
    CHECK_INT_EQ(c.source, LAUNCH_MPI);
    CHECK(strstr(c.what, "OMPI_COMM_WORLD_RANK=2") != NULL);

    CHECK_INT_EQ(resolve(NULL, slurm, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.index, 1);
    CHECK_INT_EQ(c.count, 4);
    CHECK_INT_EQ(c.source, LAUNCH_SLURM);

    CHECK_INT_EQ(resolve(NULL, k8s, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.index, 5);
    CHECK_INT_EQ(c.count, 8);
    CHECK_INT_EQ(c.source, LAUNCH_K8S);

    /* precedence: the innermost launcher (mpirun inside Slurm; srun inside an Indexed Job) */
    CHECK_INT_EQ(resolve(NULL, mpi_in_slurm, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.source, LAUNCH_MPI);
    CHECK_INT_EQ(c.index, 3);
    CHECK_INT_EQ(c.count, 4);
    CHECK_INT_EQ(resolve(NULL, srun_in_job, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.source, LAUNCH_SLURM);
    CHECK_INT_EQ(c.count, 3);

    /* --client by hand beats every launcher; none ignores them */
    CHECK_INT_EQ(resolve("1/2", mpi, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.source, LAUNCH_CLI);
    CHECK_INT_EQ(c.index, 1);
    CHECK_INT_EQ(c.count, 2);
    CHECK_INT_EQ(resolve("none", k8s, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.count, 0);
    CHECK_INT_EQ(resolve("0/1", none, &c, err, sizeof err), 0); /* a part of one, by hand */
    CHECK_INT_EQ(c.count, 1);

    /* a launcher of one process: one client, not a part */
    CHECK_INT_EQ(resolve(NULL, np1, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.count, 0);
    CHECK_INT_EQ(c.source, LAUNCH_ONE);
}

static void test_errors(void)
{
    struct launch_client c;
    char err[200];
    const char *half_k8s[] = {"JOB_COMPLETION_INDEX", "0", NULL};
    const char *half_slurm[] = {"SLURM_NTASKS", "4", NULL};
    const char *beyond[] = {"SLURM_PROCID", "7", "SLURM_NTASKS", "4", NULL};
    const char *zero[] = {"OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "0", NULL};
    const char *text[] = {"JOB_COMPLETION_INDEX", "x1", "SIZEUP_CLIENT_COUNT", "2", NULL};
    const char *neg[] = {"SLURM_PROCID", "-1", "SLURM_NTASKS", "2", NULL};
    const char *none[] = {NULL};
    static const char *const bad_cli[] = {"2/2", "1/0",  "a/2",  "1/",     "/2",
                                          "12",  "1/2x", "-1/2", "0/4097", ""};

    CHECK_INT_EQ(resolve(NULL, half_k8s, &c, err, sizeof err), -1);
    CHECK(strstr(err, "JOB_COMPLETION_INDEX=0 is set but SIZEUP_CLIENT_COUNT is not") != NULL);
    CHECK_INT_EQ(c.count, 0);
    CHECK_INT_EQ(resolve(NULL, half_slurm, &c, err, sizeof err), -1);
    CHECK(strstr(err, "SLURM_NTASKS=4 is set but SLURM_PROCID is not") != NULL);
    CHECK_INT_EQ(resolve(NULL, beyond, &c, err, sizeof err), -1);
    CHECK(strstr(err, "SLURM_PROCID=7 is not below SLURM_NTASKS=4") != NULL);
    CHECK_INT_EQ(resolve(NULL, zero, &c, err, sizeof err), -1);
    CHECK(strstr(err, "OMPI_COMM_WORLD_SIZE=0") != NULL);
    CHECK_INT_EQ(resolve(NULL, text, &c, err, sizeof err), -1);
    CHECK(strstr(err, "JOB_COMPLETION_INDEX=x1") != NULL);
    CHECK_INT_EQ(resolve(NULL, neg, &c, err, sizeof err), -1);
    CHECK(strstr(err, "SLURM_PROCID=-1") != NULL);
    for (size_t i = 0; i < sizeof bad_cli / sizeof bad_cli[0]; i++) {
        CHECK_INT_EQ(resolve(bad_cli[i], none, &c, err, sizeof err), -1);
        CHECK(strstr(err, "--client takes I/K") != NULL);
        CHECK_INT_EQ(c.count, 0);
    }
    /* "4095/4096" is the largest share */
    CHECK_INT_EQ(resolve("4095/4096", none, &c, err, sizeof err), 0);
    CHECK_INT_EQ(c.index, 4095);
}

static void test_rfc3339(void)
{
    int64_t t;
    static const char *const bad[] = {"2026-12-01T10:00:00",
                                      "2026-12-01 10:00Z",
                                      "2026-13-01T10:00:00Z",
                                      "2026-02-29T10:00:00Z",
                                      "2026-12-01T24:00:00Z",
                                      "2026-12-01T10:00:60Z",
                                      "2026-12-01T10:00:00.Z",
                                      "2026-12-01T10:00:00+0100",
                                      "2026-12-01T10:00:00Zx",
                                      "+30s",
                                      ""};
    CHECK_INT_EQ(launch_parse_rfc3339("2026-12-01T10:00:00Z", &t), 0);
    CHECK_INT_EQ(t, 1796119200LL * 1000000000);
    /* GNU date: 2024-02-29T23:59:59.5+05:30 = 1709231399.5 */
    CHECK_INT_EQ(launch_parse_rfc3339("2024-02-29T23:59:59.5+05:30", &t), 0);
    CHECK_INT_EQ(t, 1709231399LL * 1000000000 + 500000000);
    CHECK_INT_EQ(launch_parse_rfc3339("2024-02-29t18:29:59.500000000001z", &t), 0);
    CHECK_INT_EQ(t, 1709231399LL * 1000000000 + 500000000);
    CHECK_INT_EQ(launch_parse_rfc3339("1970-01-01T00:00:00-01:00", &t), 0);
    CHECK_INT_EQ(t, 3600LL * 1000000000);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_INT_EQ(launch_parse_rfc3339(bad[i], &t), -1);
    /* against libc's timegm over a spread of dates, leap years included */
    for (int y = 1970; y <= 2261; y += 7)
        for (int m = 1; m <= 12; m += 1) {
            struct tm tm;
            char s[40];
            memset(&tm, 0, sizeof tm);
            tm.tm_year = y - 1900;
            tm.tm_mon = m - 1;
            tm.tm_mday =
                m == 2 ? 28 + ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0) : 30 - (m == 4);
            tm.tm_hour = (y + m) % 24;
            tm.tm_min = (y * m) % 60;
            tm.tm_sec = (y + 3 * m) % 60;
            snprintf(s, sizeof s, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
            CHECK_INT_EQ(launch_parse_rfc3339(s, &t), 0);
            CHECK_INT_EQ(t, (int64_t)timegm(&tm) * 1000000000);
        }
}

int main(void)
{
    test_sources();
    test_errors();
    test_rfc3339();
    return check_report();
}
