/*
 * scores.h - per-server CPU benchmark scores as a cross-family transfer ratio (`sizeup predict
 * --scores FILE --transfer F=FROM:score[:BENCH.KIND]`); docs/predict.md "Across families" is
 * the user's page, docs/scores-format.md the file's.
 *
 * A score file (schema "sizeup.scores/1", JSON) lists per server one row per benchmark:
 * server (a catalog instance's name or id), family, vcpu, benchmark, single (the score with
 * one thread busy), all (with every vCPU busy), processor, date and source. The bundled
 * data/scores/aws-sparecores.json holds the Spare Cores inspector's stress-ng div16 and
 * Geekbench 6 runs of AWS families (scripts/make-scores.py, each row citing its file and
 * commit of SpareCores/sc-inspector-data). Its optional "calibration" array carries, per
 * BENCH.KIND, the relative error of a score transfer as `sizeup predict --calibrate-transfer`
 * measured it on a published table (advisor/transfercal.h).
 *
 * The per-core score of a server under BENCH.KIND: KIND "single" the single score; KIND "all"
 * the all score divided by the server's vCPUs (per-vCPU throughput with every vCPU busy, so
 * SMT siblings count as the halves they are). A server without a row of that benchmark takes
 * its family's median per-core score (the sizes of one family share a processor: catalog.h),
 * labelled as such; no row of the server nor of its family: NAN (the transfer is refused).
 *
 * Thread-safety: functions touch only their arguments.
 */
#ifndef SIZEUP_ADVISOR_SCORES_H
#define SIZEUP_ADVISOR_SCORES_H

#include <stddef.h>

/* The score file's schema (docs/scores-format.md). */
#define SCORES_SCHEMA "sizeup.scores/1"

struct score_row {
    char *server, *family, *benchmark, *processor, *date,
        *source;        /* owned; processor may be NULL */
    int vcpu;           /* > 0 */
    double single, all; /* the benchmark's scores (> 0; NAN when the file omits one) */
};

/* The calibrated relative error of a score transfer with one BENCH.KIND. */
struct score_cal {
    char *spec;       /* "geekbench6.all"; owned */
    double coverage;  /* the share of predicted peaks the error holds, e.g. 0.9 */
    double rel_error; /* |measured / predicted - 1| at that coverage (a conformal bound) */
    int pairs;        /* predicted sizes the bound came from */
    char *source;     /* what was predicted from what; owned, may be NULL */
};

struct score_table {
    char *file; /* owned */
    size_t n;
    struct score_row *rows; /* owned */
    size_t n_cal;
    struct score_cal *cal; /* owned */
};

/**
 * Read a score file.
 * @param path  the file (JSON, schema "sizeup.scores/1")
 * @param t     filled; free with score_table_destroy (emptied after a failure)
 * @param err   why it failed, strictly as every sizeup record (util/jsonread.h):
 *              "FILE:LINE:COL: $.scores[3].vcpu: ...", cap bytes
 * @return 0, or -1 (unreadable or over 64 MiB, not JSON, an unknown key, a row without
 *         server, benchmark or a vcpu in 1..2^20, a score that is not a positive number, a
 *         row with neither single nor all, a date not YYYY-MM-DD, a calibration entry without
 *         a BENCH.single/BENCH.all spec, coverage in (0, 1) or rel_error >= 0; out of memory).
 */
int score_table_load(const char *path, struct score_table *t, char *err, size_t cap);

/** Free what t owns. NULL-safe. */
void score_table_destroy(struct score_table *t);

/**
 * Split "BENCH.KIND" (KIND "single" or "all") at its last '.'.
 * @return 0, or -1 (no '.', KIND neither, BENCH empty or longer than bench_cap - 1).
 *         *all is 1 for "all".
 */
int score_spec_split(const char *spec, char *bench, size_t bench_cap, int *all);

/**
 * The per-core score of a server under spec (see the header comment).
 * @param name    the server's name (catalog instance name, else its id), may be NULL
 * @param family  its family, may be NULL
 * @param from_family  set to 1 when the family's median stood in for the server, else 0; may
 *                be NULL
 * @return the score (benchmark units per core, > 0), or NAN (bad spec, no row).
 */
double score_per_core(const struct score_table *t, const char *spec, const char *name,
                      const char *family, int *from_family);

/** The calibration entry of spec, or NULL. Borrowed from t. */
const struct score_cal *score_calibration(const struct score_table *t, const char *spec);

/** The spec of the calibration entry with the smallest rel_error, or NULL when the file has
 * none. Borrowed from t. */
const char *score_best_spec(const struct score_table *t);

#endif
