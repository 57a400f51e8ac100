/* test_study.c - loading and validating sizeup.study/1 files (tests/fixtures/study). */
#include "check.h"
#include "study.h"

#include <math.h>
#include <string.h>

#define FIX "tests/fixtures/study/"

int main(void)
{
    struct study s;
    char err[512];
    CHECK_INT_EQ(study_load(FIX "good.json", &s, err, sizeof err), 0);
    CHECK_STR_EQ(s.name, "idc vs cloud");
    CHECK_INT_EQ(s.n_cand, 2);
    if (s.n_cand == 2) {
        CHECK_STR_EQ(s.cand[0].config, "local-mariadb");
        CHECK_STR_EQ(s.cand[0].target, "lab");
        CHECK_INT_EQ(s.cand[0].probe, 1);
        CHECK_INT_EQ(s.cand[0].mysql.port, 33061);
        CHECK_STR_EQ(s.cand[0].mysql.password_file, FIX "pw.txt");
        CHECK_INT_EQ(s.cand[0].tables, 2);
        CHECK_INT_EQ(s.cand[0].table_size, 1000);
        CHECK_STR_EQ(s.cand[1].target, "idc-nvme");
        CHECK_INT_EQ(s.cand[1].probe, 0);
        CHECK_INT_EQ(s.cand[1].n_results, 1);
        CHECK_STR_EQ(s.cand[1].results[0],
                     FIX "../../../data/published/rds-idc-vs-cloud-4c16g.csv");
    }
    CHECK_INT_EQ(s.n_wl, 2);
    CHECK(s.n_wl == 2 && strcmp(s.wl[0].name, "oltp_read_write") == 0 && s.wl[0].weight == 0.7);
    CHECK_INT_EQ(s.ladder_auto, 0);
    CHECK(s.n_ladder == 3 && s.ladder[2] == 4);
    CHECK_NEAR(s.precision, 0.05, 1e-15);
    CHECK_NEAR(s.max_time_s, 15, 0);
    CHECK_NEAR(s.budget_s, 0, 0); /* not given: the default (study.h) */
    CHECK_STR_EQ(s.slo, "p95:50ms");
    CHECK_NEAR(s.required_tps, 2000, 0);
    CHECK_STR_EQ(s.output, FIX "out");
    study_destroy(&s);

    /* good.json with a UTF-8 byte order mark before it (as Windows editors save it) */
    CHECK_INT_EQ(study_load(FIX "bom.json", &s, err, sizeof err), 0);
    CHECK_STR_EQ(s.name, "idc vs cloud");
    CHECK_INT_EQ(s.n_cand, 2);
    study_destroy(&s);
    /* a curve's time budget: a duration with its unit; 0 is refused at its position */
    CHECK_INT_EQ(study_load(FIX "budget.json", &s, err, sizeof err), 0);
    CHECK_NEAR(s.budget_s, 120, 0);
    CHECK_INT_EQ(s.confirm, 1); /* the open-loop confirmation unless told (issue 28.4) */
    study_destroy(&s);
    CHECK_INT_EQ(study_load(FIX "no-confirm.json", &s, err, sizeof err), 0);
    CHECK_INT_EQ(s.confirm, 0);
    study_destroy(&s);
    /* from memory (fuzz/fuzz_study.c): the same reader, no file the text names opened */
    {
        static const char ok[] =
            "{\"schema\": \"sizeup.study/1\", \"candidates\": [{\"config\": \"idc-nvme\", "
            "\"results\": [\"t.csv\"]}], \"workloads\": {\"oltp_read_only\": 1}, \"slo\": "
            "\"p95:50ms\", \"catalogs\": [\"c.json\"], \"output\": \"out\"}";
        static const char req[] =
            "{\"schema\": \"sizeup.study/1\", \"candidates\": [{\"config\": \"idc-nvme\", "
            "\"results\": [\"t.csv\"]}], \"require\": \"w.json\", \"slo\": \"p95:50ms\", "
            "\"catalogs\": [\"c.json\"], \"output\": \"out\"}";
        CHECK_INT_EQ(study_load_text("mem/s.json", ok, sizeof ok - 1, &s, err, sizeof err), 0);
        CHECK_INT_EQ(s.n_cand, 1);
        CHECK_STR_EQ(s.output, "mem/out");
        study_destroy(&s);
        CHECK_INT_EQ(study_load_text("mem/s.json", req, sizeof req - 1, &s, err, sizeof err), -1);
        CHECK(strstr(err, "mem/s.json:1:") == err && strstr(err, "$.require: not read") != NULL);
        CHECK_INT_EQ(study_load_text("mem/s.json", "{", 1, &s, err, sizeof err), -1);
        CHECK(strncmp(err, "mem/s.json:", 11) == 0);
    }
    CHECK_INT_EQ(study_load(FIX "bad-confirm.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "bad-confirm.json:16:14: $.confirm: expected true or false") != NULL);
    CHECK_INT_EQ(study_load(FIX "bad-budget.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "bad-budget.json:15:13: $.budget: expected a duration in (0 s,") != NULL);
    /* one level (twice) is no curve: refused at load, not after probing (a break-it finding) */
    CHECK_INT_EQ(study_load(FIX "one-level.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "one-level.json:12:13: $.ladder: expected at least 2 different thread "
                      "counts") != NULL);
    CHECK_INT_EQ(study_load(FIX "unknown-key.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "unknown-key.json:7:13: $.ouptut") != NULL);
    /* the study's 18 keys are more than util/jsonread.h lists (JR_KEYS_LISTED_MAX) */
    CHECK(strstr(err, "unknown key 'ouptut' (misspelt?)") != NULL);
    CHECK_INT_EQ(study_load(FIX "both.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "both.json:4:5: $.candidates[0]") != NULL);
    CHECK_INT_EQ(study_load(FIX "missing.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "cannot open") != NULL);
    /* connection options from an option file (issue 19): the file resolved like the others,
     * a missing one refused at load with its position */
    CHECK_INT_EQ(study_load(FIX "optfile.json", &s, err, sizeof err), 0);
    CHECK_STR_EQ(s.cand[0].mysql.defaults_file, FIX "client.cnf");
    CHECK_STR_EQ(s.cand[0].mysql.group, "lab");
    CHECK(s.cand[0].mysql.host == NULL && s.cand[0].mysql.port == 0);
    study_destroy(&s);
    CHECK_INT_EQ(study_load(FIX "missing-optfile.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "missing-optfile.json:5:56: $.candidates[0].mysql.defaults_file") != NULL);
    CHECK(strstr(err, FIX "no-such.cnf: No such file or directory") != NULL);
    /* "require" (issue 25): the record tests/fixtures/workload/read-only-500.json has mix tps
     * p95 500 and oltp_read_only alone, probe data set 1 x 400000 rows: growth 2 and the
     * default headroom 0.3 ask 500 x 2 x 1.3 = 1300 tps; the candidate without a data set of
     * its own takes the record's, the one with "tables"/"table_size" keeps them */
    CHECK_INT_EQ(study_load(FIX "require.json", &s, err, sizeof err), 0);
    CHECK_NEAR(s.required_tps, 1300, 1e-9);
    CHECK_INT_EQ((long long)s.n_wl, 1);
    CHECK_STR_EQ(s.wl[0].name, "oltp_read_only");
    CHECK_NEAR(s.wl[0].weight, 1, 0);
    CHECK_INT_EQ(s.cand[0].tables, 1);
    CHECK_INT_EQ(s.cand[0].table_size, 400000);
    CHECK_INT_EQ(s.cand[1].tables, 2);
    CHECK_INT_EQ(s.cand[1].table_size, 1000);
    study_destroy(&s);
    CHECK_INT_EQ(study_load(FIX "require-and-workloads.json", &s, err, sizeof err), -1);
    CHECK(strstr(err, "$.workloads: \"require\" takes the workloads from the record") != NULL);
    CHECK_INT_EQ(study_load("tests/fixtures/bad/unknown.txt", &s, err, sizeof err), -1);
    CHECK(strstr(err, "unknown.txt:1:9: not valid JSON") != NULL);
    return check_report();
}
