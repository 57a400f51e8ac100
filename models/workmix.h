/*
 * workmix.h - a server's observed statement rates as a mix of sysbench's OLTP workloads, and
 * its transactions per second when only the status counters are known: how `sizeup observe`
 * turns what a production server does into the --mix weights and the throughput a sizing asks
 * of measured sysbench curves.
 *
 * The classes are what MariaDB's and MySQL's status counters tell apart without
 * performance_schema: point, range and scanning SELECTs (Select_range counts a SELECT whose first
 * table is read by a range, Select_scan and Select_full_join one that reads a whole table),
 * INSERTs, UPDATEs, DELETEs and transaction ends (COMMIT + ROLLBACK). A transaction of each
 * workload issues, with sysbench 1.0.20's defaults (oltp_common.lua: point_selects 10,
 * simple/sum/order/distinct_ranges 1 each, index_updates 1, non_index_updates 1,
 * delete_inserts 1; the single-statement scripts run without BEGIN):
 *                          point  range  scan  insert  update  delete  end
 *   oltp_point_select        1      0     0      0       0       0      0
 *   oltp_read_only          10      4     0      0       0       0      1
 *   oltp_read_write         10      4     0      1       2       1      1
 *   oltp_write_only          0      0     0      1       2       1      1
 *   oltp_insert              0      0     0      1       0       0      0
 *   oltp_update_non_index    0      0     0      0       1       0      0
 *   oltp_delete              0      0     0      0       0       1      0
 *   select_random_ranges     0      1     0      0       0       0      0
 * (checked against MariaDB 10.11's counters under sysbench 1.0.20 in tests/probes/observe.py).
 * No workload scans: scanning SELECTs are always in the residual. oltp_update_index issues the
 * same one UPDATE as oltp_update_non_index; the counters cannot tell them apart, and the mix
 * names the latter. The columns are not all independent (oltp_read_write = oltp_read_only +
 * 2 oltp_update_non_index + oltp_delete + oltp_insert, and = oltp_write_only + 10
 * oltp_point_select + 4 select_random_ranges, class by class): of the mixes that fit equally
 * well, the one of fewest workloads is taken.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_MODELS_WORKMIX_H
#define SIZEUP_MODELS_WORKMIX_H

enum workmix_class {
    WM_POINT,  /* point SELECTs: Com_select - Select_range - scans (less the observer's own) */
    WM_RANGE,  /* range SELECTs: Select_range */
    WM_SCAN,   /* SELECTs that read a whole table: Select_scan + Select_full_join (less the
                  observer's own statements, one Select_scan each) */
    WM_INSERT, /* Com_insert + Com_insert_select + Com_replace + Com_replace_select */
    WM_UPDATE, /* Com_update + Com_update_multi */
    WM_DELETE, /* Com_delete + Com_delete_multi */
    WM_END,    /* Com_commit + Com_rollback + Com_xa_commit + Com_xa_rollback */
    WM_N_CLASS
};

enum workmix_workload {
    WM_POINT_SELECT,
    WM_READ_ONLY,
    WM_READ_WRITE,
    WM_WRITE_ONLY,
    WM_INSERT_ONLY,      /* oltp_insert */
    WM_UPDATE_NON_INDEX, /* oltp_update_non_index (or oltp_update_index: the same statement) */
    WM_DELETE_ONLY,      /* oltp_delete */
    WM_RANDOM_RANGES,    /* select_random_ranges */
    WM_N_WORKLOAD
};

/* A workload whose share of the mix's transactions would be below this is left out and the
 * others refitted: a mix does not ask for curves of a workload that is noise in it. */
#define WORKMIX_MIN_SHARE 0.01
/* A mix that leaves at most this much more of the statements unexplained than the best one (a
 * share of the statements observed) is as good: the fewest-workload one of them is taken. */
#define WORKMIX_NOISE 0.02

/** "point_select", "range_select", "scan_select", "insert", "update", "delete", "end". */
const char *workmix_class_name(enum workmix_class c);

/** sysbench's script names: "oltp_point_select", "oltp_read_only", ... */
const char *workmix_workload_name(enum workmix_workload w);

/** Statements of class c in one transaction of workload w (the table above). */
double workmix_per_tx(enum workmix_workload w, enum workmix_class c);

/** Statements (every class but end) in one transaction of w. */
double workmix_statements_per_tx(enum workmix_workload w);

struct workmix {
    double tps[WM_N_WORKLOAD]; /* transactions/s of each workload (>= 0) */
    double total_tps;          /* their sum: the mix's throughput in sysbench transactions */
    double fitted[WM_N_CLASS]; /* statements/s of each class the mix issues */
    double residual;           /* sum |fitted - observed| / sum observed over the classes:
                                * the share of the statements the mix does not explain
                                * (0 when nothing was observed) */
};

/**
 * The non-negative least-squares mix of the workloads whose statement rates are nearest the
 * observed ones (sum of squared differences over the classes; every subset of workloads is
 * solved and the best one whose rates are all >= 0 and whose shares are all >= WORKMIX_MIN_SHARE
 * is kept; of the subsets whose share of unexplained statements is within WORKMIX_NOISE of the
 * best, the one of fewest workloads, then the one of least squares). Units: statements per second
 * in, transactions per second out (any common time unit works).
 * @param rate  observed statements/s of each class (finite, >= 0)
 * @return 0, or -1 for a bad rate (m zeroed).
 */
int workmix_fit(const double rate[WM_N_CLASS], struct workmix *m);

/**
 * Transactions per second from the status counters alone (no transaction counter of the engine
 * readable): explicit transactions (ends, E) plus the statements that ran outside them in
 * autocommit. Statements inside the explicit transactions are E x n, n the statements per
 * transaction of the mix's transactional workloads (those with an end: read_only 14, read_write
 * 18, write_only 4, weighted by their rates; when the mix has none, every statement is taken to
 * be inside one), capped at the statements observed S. A deadlock's victim (A of the ends: the
 * engine rolled it back, with no COMMIT or ROLLBACK sent) ran some of its statements, and a
 * client that retries runs them again; its partial statements make the mix read it as a shorter
 * transaction plus autocommit statements (sysbench's read_write victims, 10 point, 4 range and
 * one UPDATE each, fit exactly as read_only + oltp_update_non_index). So each victim is taken to
 * hold up to n_max statements, the most in one transaction of the mix's transactional workloads:
 *     tps = S                                         when E = 0
 *     tps = E + S - min(S, E n + A (n_max - n))       otherwise
 * Exact for sysbench's workloads and any mix of them, with or without victims of one workload;
 * beside autocommit statements, victims may hide up to A (n_max - n) of them. For another
 * application it counts an autocommit statement as a transaction and a transaction by its end.
 * @param rate     as workmix_fit's; rate[WM_END] includes the victims
 * @param aborted  the deadlock victims in the same unit (Innodb_deadlocks), 0 when unknown
 * @param m        workmix_fit's mix of the same rates
 * @return tps (>= 0), or NAN for a bad rate or aborted outside [0, rate[WM_END]].
 */
double workmix_tps_status(const double rate[WM_N_CLASS], double aborted, const struct workmix *m);

#endif
