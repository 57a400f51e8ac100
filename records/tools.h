/*
 * tools.h - other benchmark tools' results as point records: BenchBase, HammerDB, go-tpc. Each
 * reader follows the format its tool's source writes (the commits named in each file's
 * comment); points carry source.kind "tool-output" and the tool in `tool`.
 *
 * BenchBase (benchbase.c): the `<bench>_<time>.summary.json` of a run (ResultWriter.writeSummary):
 *   "Benchmark Type" -> workload (lower case: tpcc, ycsb, ...), "terminals" -> threads,
 *   "Throughput (requests/second)" -> tps, "Goodput (requests/second)" -> extra.goodput_rps,
 *   "Measured Requests" -> transactions, "Elapsed Time (nanoseconds)" -> duration_s,
 *   "Latency Distribution" (microseconds: minimum, 25th, median, average, 75th, 90th, 95th,
 *   99th, maximum) -> latency_ms min, p25, p50, avg, p75, p90, p95, p99, max;
 *   "Start timestamp (milliseconds)" -> started_at; DBMS type and version, isolation,
 *   scalefactor, final state -> extra. A final state of ERROR marks the point incomplete.
 *
 * HammerDB (hammerdb.c): the TPROC-C output of the CLI or the GUI's log, "Vuser N:" prefixes
 *   taken off; one point per test ("autopilot" sequences give several): "N Active Virtual Users
 *   configured" (or "V VU * A AC = N Active Sessions configured") -> threads N; "TEST RESULT :
 *   System achieved N NOPM from M <db> TPM" (or "... M <db> TPM at N NOPM") -> extra.nopm,
 *   extra.tpm, tps = M / 60 (flag tps_from_tpm: the database's own transaction counter);
 *   "Timing test period of N in minutes" -> duration_s, "Beginning rampup time of N minutes" ->
 *   warmup_s; the xtprof "TRANSACTION RESPONSE TIMES" JSON -> extra.response_times, and NEWORD's
 *   min/avg/max/p50/p95/p99 as the point's latency. Workload tprocc.
 *
 * go-tpc (gotpc.c): `go-tpc tpcc run` plain output (tpcc/workload.go, pkg/measurement/hist.go):
 *   "[Summary] OP - Takes(s): T, Count: N, TPM: X, Sum(ms): .., Avg(ms): .., 50th(ms): ..,
 *   90th(ms): .., 95th(ms): .., 99th(ms): .., 99.9th(ms): .., Max(ms): .." per transaction type
 *   -> extra.transactions; NEW_ORDER's latency as the point's; "tpmC: X, tpmTotal: Y,
 *   efficiency: Z%" -> extra.tpmc, extra.tpm_total, tps = Y / 60 (flag tps_from_tpm_total;
 *   older go-tpc prints no tpmTotal: the sum of the summary TPMs); counts of the OP_ERR lines
 *   -> errors; "[Current]" blocks -> series. go-tpc prints no thread count: it comes from a
 *   command line echoed above the output (-T N, --threads N) or import's --threads. Workload
 *   tpcc.
 */
#ifndef SIZEUP_RECORDS_TOOLS_H
#define SIZEUP_RECORDS_TOOLS_H

#include "import_types.h"
#include "point.h"

#include <stddef.h>

/* Largest BenchBase summary read (a JSON document, read whole). */
#define BENCHBASE_MAX_BYTES ((size_t)16 * 1024 * 1024)

/** 1 when buf is a JSON object with BenchBase's "Benchmark Type" or "Latency Distribution". */
int benchbase_detect(const char *buf, size_t len, const char *path);
void *benchbase_open(struct import_src *src);
int benchbase_next(void *state, struct point *out);
void benchbase_close(void *state);

/** 1 when buf holds HammerDB's "TEST RESULT : System achieved" or "Active Virtual Users". */
int hammerdb_detect(const char *buf, size_t len, const char *path);
void *hammerdb_open(struct import_src *src);
int hammerdb_next(void *state, struct point *out);
void hammerdb_close(void *state);

/** 1 when buf holds go-tpc's "[Summary] X - Takes(s):" / "[Current] X - Takes(s):" lines. */
int gotpc_detect(const char *buf, size_t len, const char *path);
void *gotpc_open(struct import_src *src);
int gotpc_next(void *state, struct point *out);
void gotpc_close(void *state);

/*
 * Each *_open returns the reader's state, or NULL when out of memory; each *_next gives the next
 * point: 1, 0 at the end, or a negative IMPORT_E* code reported through import_diag; each
 * *_close frees the state (NULL-safe).
 */

#endif
