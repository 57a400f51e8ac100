/*
 * study.h - the sizeup.study/1 file: the input of a whole sizing study (docs/study.md).
 *
 *   {
 *     "schema": "sizeup.study/1",
 *     "name": "idc-vs-cloud",                       optional, for the report's title
 *     "candidates": [                               at least one
 *       { "config": "local-mariadb",                catalog configuration id (required)
 *         "target": "lab-db1",                      optional; default: the config id
 *         "mysql": { "host": "127.0.0.1", "port": 3306, "socket": null,
 *                    "user": "sbtest", "db": "sbtest",
 *                    "password_file": "secret.txt",   probe this server (password from the
 *                                                     file, else MYSQL_PWD; never in the study)
 *                    "defaults_file": "my.cnf",     and/or an option file, read alone as by
 *                    "group": "lab" }               probe --defaults-file (must exist), its
 *                                                   group besides [client] (default sizeup)
 *         "tables": 4, "table_size": 10000,         probe data set (defaults 4 x 10000)
         "clients": 2 },                           load generators per level (default 1):
                                                   K in-process clients, connections split
                                                   evenly, parts merged (study_clients.h);
                                                   1..64, needs a ladder list whose every
                                                   level is >= K
 *       { "config": "idc-nvme",
 *         "results": ["data/published/rds-idc-vs-cloud-4c16g.csv"] }  or import results
 *     ],
 *     "workloads": { "oltp_read_write": 0.7, "oltp_point_select": 0.3 },   weights > 0
 *     "ladder": "auto" | [1, 2, 4, 8],              default "auto"
 *     "max_threads": 32,                            auto ladder's limit (default 32)
 *     "max_points": 10,                             auto ladder's most levels (default 10)
 *     "precision": "2%",                            calibration precision (default 2%)
 *     "max_time": "20s",                            per point (default 20s)
 *     "budget": "90s",                              most probing time of one curve (its
 *                                                   replicates, passes.h; default
 *                                                   STUDY_BUDGET_FACTOR x levels x max_time)
 *     "slo": "p95:50ms",                            latency target (required; slo.h:
 *                                                   avg|pNN:VALUE with us, ms or s)
 *     "required_tps": 5000,                         optional
 *     "require": "busy-hour.json",                  optional, instead of "workloads" and
 *     "require_at": "p95", "growth": 2,             "required_tps": a sizeup.workload/1 record
 *     "headroom": 0.3,                              (sizeup observe) gives the mix, the
 *                                                   required tps (as rank --require: its
 *                                                   require_at statistic x growth x (1 +
 *                                                   headroom); defaults p95, 1, 0.3) and the
 *                                                   data set of candidates that name none
 *     "pricing": "on-demand",                       optional
 *     "horizon": "3y",                              optional, as rank --horizon (default:
 *                                                   the owned servers' amortisation period)
 *     "discount_rate": 0.05,                        optional, as rank --discount-rate
 *     "ha_standby": 1,                              optional, as rank --ha-standby (0)
 *     "catalogs": ["data/catalogs/published.json"], at least one (file or URL)
 *     "set": ["idc-nvme.capital=18000"],            optional, as rank --set (your own cost
 *                                                   inputs, catalogs/setinput.h)
 *     "output": "out/study"                         folder: results.jsonl, ranking, report
 *   }
 *
 * Relative paths are relative to the study file's folder. Unknown keys are errors (a misspelt
 * key would otherwise be silently ignored).
 */
#ifndef SIZEUP_ADVISOR_STUDY_H
#define SIZEUP_ADVISOR_STUDY_H

#include "slo.h"

#include <stddef.h>

#define STUDY_SCHEMA "sizeup.study/1"
#define STUDY_MAX_LADDER 64           /* limit.h: LIMIT_LEVELS */
#define STUDY_MAX_CLIENTS 64          /* a candidate's "clients": in-process load generators */
#define STUDY_MAX_BUDGET_S 31536000.0 /* a year, as probe --budget */
/* The default budget of a curve: this many times levels x max_time. The first pass alone may
 * take levels x max_time; the rest gives the deciding levels (passes.h) the replicates that
 * measure the run-to-run noise (with 1, no level had a second replicate on a loaded host). */
#define STUDY_BUDGET_FACTOR 1.5

struct study_mysql {
    char *host, *socket, *user, *db, *password_file; /* NULL when not given */
    char *defaults_file; /* option file, read alone (probe --defaults-file); resolved, checked */
    char *group;         /* option-file group besides [client] (probe --defaults-group) */
    int port;            /* 0: the option files', else 3306 */
};

struct study_candidate {
    char *config; /* catalog configuration id */
    char *target; /* name of its curves (default: config) */
    int probe;    /* 1: mysql given, probe it; 0: import results */
    struct study_mysql mysql;
    long tables, table_size;
    int data_set_given; /* "tables" or "table_size" was in the file (else "require"'s apply) */
    long clients;       /* load generators per level: 1 (default), or K merged (probe only) */
    char **results;     /* files to import (paths resolved), n_results of them */
    size_t n_results;
};

struct study_workload {
    char *name;
    double weight;
};

struct study {
    char *path; /* the study file */
    char *dir;  /* its folder, for relative paths */
    char *name;
    struct study_candidate *cand;
    size_t n_cand;
    struct study_workload *wl;
    size_t n_wl;
    int ladder_auto;
    long ladder[STUDY_MAX_LADDER];
    size_t n_ladder;
    long max_threads;
    long max_points;
    double precision; /* relative, e.g. 0.02 */
    double max_time_s;
    double budget_s;      /* most probing time of one curve, s; 0: the default (above) */
    char *slo;            /* as written, e.g. "p95:50ms" */
    struct slo target;    /* slo parsed (slo.h), checked at load */
    double required_tps;  /* NAN when not given */
    char *pricing;        /* NULL: on-demand */
    int horizon_months;   /* 0: the owned servers' amortisation period (advisor/tco.h) */
    double discount_rate; /* annual, [0, 1]; default TCO_DEFAULT_RATE */
    int ha_standby;       /* standby copies for configurations that are not HA, [0, 100] */
    int confirm;          /* 1 (default; "confirm": false turns it off): each probed candidate
                             runs open loop at the rate its answer claims (issue 28.4) */
    char **catalogs;      /* paths resolved, or URLs */
    size_t n_catalogs;
    char **sets; /* "set": CONFIG.INPUT=VALUE[:LOW..HIGH] as written, syntax checked at load
                    (catalogs/setinput.h cat_set_parse); applied with the catalogs */
    size_t n_sets;
    char *output;            /* folder, resolved */
    char *require;           /* "require": the workload record, resolved; NULL when not given */
    char require_at[8];      /* its statistic ("p95") */
    double require_base_tps; /* that statistic of the record's tps (the larger of the mix's and
                                the observed), before growth and headroom */
    double require_growth, require_headroom, require_residual;
    char *text; /* the file's text, for study_fail_at's positions */
    size_t len;
    int no_files; /* 1: loaded by study_load_text: a "require" record it names is not opened */
};

/**
 * Load and validate a study file.
 * @param path  the sizeup.study/1 file
 * @param out   filled on success; free with study_destroy()
 * @param err   "file:line:column: what is wrong, what was expected", cap bytes
 * @return 0, or -1 (nothing to free).
 */
int study_load(const char *path, struct study *out, char *err, size_t cap);

/**
 * study_load of a text held in memory, name standing for its file in messages and as the base
 * of its relative paths; nothing it names is opened (a "require" record is refused: "not
 * read"), so that arbitrary input reads no file (fuzz/fuzz_study.c). text need not be
 * NUL-terminated; it is copied. Same returns; err names `name`.
 */
int study_load_text(const char *name, const char *text, size_t len, struct study *out, char *err,
                    size_t cap);

/**
 * An error about a loaded study at a JSON path of its file, for the checks the caller makes
 * after study_load and before any work (a workload the probe does not know, a configuration
 * missing from the catalogs, a password file that cannot be read): "FILE:LINE:COL: $.path:
 * <formatted text>" (util/jsonread.h), the position of the value at that path.
 * @param jpath  e.g. "$.candidates[1].config", "$.workloads.oltp_x"
 * @param err    the message, cap bytes
 * @return -1, for `return study_fail_at(...)`.
 */
int study_fail_at(const struct study *s, const char *jpath, char *err, size_t cap, const char *fmt,
                  ...) __attribute__((format(printf, 5, 6)));

/** Free what a loaded study owns. NULL-safe. */
void study_destroy(struct study *s);

#endif
