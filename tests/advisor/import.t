# Transcripts of `sizeup import` (tests/transcript.sh format).

### help goes to stdout, exit 0
$ import --help
? 0
> Usage: sizeup import [OPTIONS] FILE...
> --workload=NAME

### help through `sizeup help import`
$ help import
? 0
> Usage: sizeup import

### no files is misuse
$ import
? 2
! sizeup: no input files
! Try 'sizeup import --help'.

### unknown option
$ import --bogus data/published/seekdb-4c8g-1c2g.csv
? 2
! unknown option '--bogus'

### bad --format value
$ import --format xml data/published/seekdb-4c8g-1c2g.csv
? 2
! --format takes auto, sysbench, csv, tsv, markdown, gnuplot, pgbench, benchbase, hammerdb, go-tpc or points

### every published row becomes one record
$ import data/published/klustron-3node-32c128g.csv data/published/klustron-tpcc-500wh.csv data/published/monosql-scaleout-c5-2xlarge.csv data/published/rds-idc-vs-cloud-4c16g.csv data/published/seekdb-4c8g-1c2g.csv
? 0
= 142
> {"schema":"sizeup.point/1","target":"idc-nvme","config":null,"workload":"oltp_legacy","threads":16,"tps":1437.0,"qps":28734.0,"latency_ms":{"avg":11.14}
! imported 142 point(s) from 5 of 5 file(s)

### a bad file is reported with its line; the good file is still imported; exit 3
$ import tests/fixtures/bad/missing-cell.csv data/published/seekdb-4c8g-1c2g.csv
? 3
= 54
! tests/fixtures/bad/missing-cell.csv:3: expected 4 cells as in the header (line 1), found 3
>! host-a

### a non-numeric cell names its column
$ import tests/fixtures/bad/nonnumeric.csv
? 3
= 0
! nonnumeric.csv:3: column "tps": expected a number >= 0, found "fast"

### an empty file
$ import tests/fixtures/bad/empty.log
? 3
= 0
! empty.log: the file is empty

### an unknown format
$ import tests/fixtures/bad/unknown.txt
? 3
= 0
! unknown.txt:1: not a format sizeup reads

### a missing file
$ import tests/fixtures/bad/no-such-file.log
? 3
! no-such-file.log: cannot open: No such file or directory

### a sysbench run that ended in FATAL gives no record
$ import tests/fixtures/sysbench/fatal-read_write.log
? 3
= 0
! fatal-read_write.log:15: sysbench reported a fatal error

### a killed run is imported from its intervals, marked incomplete, exit 3
$ import tests/fixtures/sysbench/killed-read_write.log
? 3
= 1
> "incomplete":true
! warning: the run ends after 3 intermediate report(s) without its summary

### a sweep logged into one file gives one record per run
$ import --workload oltp_read_write --target lab tests/fixtures/sysbench/sweep-rw.log
? 0
= 4
> "target":"lab","config":null,"workload":"oltp_read_write","threads":8,"duration_s":3.0136,"transactions":4252

### -o writes the good records only (replaced whole), read back as points
$ import -o $TRANSCRIPT_TMP/pts.jsonl tests/fixtures/bad/corrupt-summary.log data/published/monosql-scaleout-c5-2xlarge.csv
? 3
= 0
! corrupt-summary.log:24: expected "transactions: N (X per sec.)"

### the file written above reads back through the points path
$ import --format points $TRANSCRIPT_TMP/pts.jsonl
? 0
= 12
> "nodes":16

### when nothing is imported, an existing output file is left as it was
$$ echo keep > $TRANSCRIPT_TMP/keep.jsonl
$ import -o $TRANSCRIPT_TMP/keep.jsonl tests/fixtures/bad/empty.log
? 3
! is left as it was

### the file above still holds its line (checked by the set-up line)
$$ grep -qx keep $TRANSCRIPT_TMP/keep.jsonl
$ --version
? 0

### -o through a symbolic link replaces the file it names, and keeps the link
$$ rm -f $TRANSCRIPT_TMP/real.jsonl $TRANSCRIPT_TMP/link.jsonl && touch $TRANSCRIPT_TMP/real.jsonl && chmod 0644 $TRANSCRIPT_TMP/real.jsonl && ln -s real.jsonl $TRANSCRIPT_TMP/link.jsonl
$ import -o $TRANSCRIPT_TMP/link.jsonl data/published/monosql-scaleout-c5-2xlarge.csv
? 0

### the link still points at a file of 12 records with its old mode
$$ test -L $TRANSCRIPT_TMP/link.jsonl && test "$(stat -c %a $TRANSCRIPT_TMP/real.jsonl)" = 644
$ import $TRANSCRIPT_TMP/link.jsonl
? 0
= 12

### -o /dev/stdout writes to stdout
$ import -o /dev/stdout data/published/monosql-scaleout-c5-2xlarge.csv
? 0
= 12

### an unwritable output is an error, exit 1
$ import -o /nonexistent-dir/x.jsonl data/published/seekdb-4c8g-1c2g.csv
? 1
! cannot write /nonexistent-dir/x.jsonl

### summary of the built-in tables
$ import --summary data/published/rds-idc-vs-cloud-4c16g.csv
? 0
> target               workload               points      x range     peak tps     at x   latency ms
> idc-nvme             oltp_legacy                 9      t 1-512      1437.00       16    avg 11.14
> cloud-essd           oltp_legacy                 9      t 1-512      1329.00      512   avg 385.31

### options may follow the files (getopt permutes after the top-level dispatch)
$ import data/published/rds-idc-vs-cloud-4c16g.csv --summary
? 0
> idc-nvme

### a failed run among good ones is left out, the others kept, the line named; exit 3
$ import tests/fixtures/sysbench/suite-cpu-memory-fileio-mutex-threads.log
? 3
= 4
! suite-cpu-memory-fileio-mutex-threads.log:77: sysbench reported a fatal error: FATAL: Can't open file
! this run is left out, the other runs of the file are kept
> "workload":"mutex"

### a summary pasted without its header: the thread count is inferred, and said
$ import tests/fixtures/sysbench/summary-only-oltp_read_write.log
? 0
= 1
! its thread count 2 was inferred from total number of events / events (avg/stddev) avg = 8735 / 4367.5000
> "threads":2,

### runs pasted into a Markdown document (indented, fenced, quoted)
$ import tests/fixtures/sysbench/pasted-oltp_read_write.md --summary
? 0
> pasted-oltp_read_write oltp_read_write             4        t 1-8      1759.77        2     p95 1.55

### a gnuplot file with one column per server
$ import tests/fixtures/tables/sweep-2-servers.dat --workload oltp_read_write --summary
? 0
> mysql57              oltp_read_write             5       t 1-16      4388.10       16            -
> mysql80              oltp_read_write             4        t 1-8      4190.00        8            -

### pgbench output: clients as threads, its tps
$ import tests/fixtures/pgbench/tpcb-2c-progress-r.txt
? 0
= 1
> "workload":"pgbench_tpcb","threads":2,
> "tps":2376.688599

### a pgbench run that failed among good ones
$ import tests/fixtures/pgbench/sweep-clients.txt
? 3
= 2
! sweep-clients.txt:17: pgbench failed: pgbench: error: could not open file "missing.sql"

### BenchBase, HammerDB and go-tpc results
$ import tests/fixtures/tools/tpcc_2025-11-20_10-15-30.summary.json tests/fixtures/tools/hammerdb-tprocc-autopilot.log tests/fixtures/tools/gotpc-tpcc-16t.log
? 0
= 4
> "tool":"BenchBase"
> "workload":"tprocc","threads":8,
> "tool":"go-tpc"
! imported 4 point(s) from 3 of 3 file(s)

### go-tpc without its command line: the thread count is asked for
$$ grep -v '^\$' tests/fixtures/tools/gotpc-tpcc-16t.log > "$TRANSCRIPT_TMP/gotpc.log"
$ import "$TRANSCRIPT_TMP/gotpc.log"
? 3
! go-tpc prints no thread count: give --threads N

### ... and --threads gives it
$$ grep -v '^\$' tests/fixtures/tools/gotpc-tpcc-16t.log > "$TRANSCRIPT_TMP/gotpc.log"
$ import --threads 16 "$TRANSCRIPT_TMP/gotpc.log"
? 0
> "threads":16,

### query-suite timings become sizeup.suite/1 records
$ import data/published/klustron-tpch-tpcds-queries.csv
? 0
= 2
> {"schema":"sizeup.suite/1","target":"klustron-3x32c","config":null,"suite":"tpch","queries":[{"query":"Q1","seconds":15.8,"result":"succ"}
> "total_s":2964.76,"n_queries":99,"n_failed":0
! imported 2 suite run(s) from 1 of 1 file(s)

### ... and are not mixed with points in one output
$ import data/published/klustron-tpch-tpcds-queries.csv data/published/seekdb-4c8g-1c2g.csv
? 3
= 2
! query-suite timings go to different outputs

### a table that names no workload: its points are 'unknown', and the import says how to name it (issue 28.8)
$$ printf 'threads,tps\n1,100\n2,190\n' > "$TRANSCRIPT_TMP/bench.csv"
$ import $TRANSCRIPT_TMP/bench.csv
? 0
> "workload":"unknown"
! note: neither the file nor its name says which workload ran
! name it with --workload NAME

### named with --workload: no note
$ import --workload oltp_read_write $TRANSCRIPT_TMP/bench.csv
? 0
> "workload":"oltp_read_write"
!! neither the file nor its name

### a workload name longer than 63 bytes is refused at its line (issue 27.6: rank truncated it)
$$ printf 'target,workload,threads,tps\na,%070d,1,100\n' 0 > "$TRANSCRIPT_TMP/long.csv"
$ import $TRANSCRIPT_TMP/long.csv
? 3
! long.csv:2: a workload name of 70 bytes
! at most 63; shorten it
= 0

# issue 28.11: figures of one run that cannot all be true are flagged and said. The avg of
# 95.79 ms with p99 14.73 ms and max 160 ms: 99 % of the events at or below 14.73 ms and the
# rest at or below 160 ms allow an avg of at most 0.99 x 14.73 + 0.01 x 160 = 16.18 ms
### an impossible avg is flagged impossible_latency, with the bound it breaks
$ import tests/fixtures/bad/impossible-avg-oltp_read_only.log
? 0
! latencies that cannot all be true: avg 95.79 ms above what p99 14.73 ms and max 160 ms allow
! avg <= 16.18 ms
! left out of fits and rankings
> "flags":["impossible_latency"]

# histogram-rate-p99.log with its first bucket 20 counts short: 614 against 634 transactions
### a histogram that does not add up to the run is flagged histogram_mismatch
$ import tests/fixtures/bad/histogram-short-oltp_point_select.log
? 0
! the latency histogram counts 614 events, the run 634 transactions
> "histogram_mismatch"

### a flagged point does not count: fit has no curve of it
$ fit tests/fixtures/bad/impossible-avg-oltp_read_only.log
? 3
! 1 point left out (impossible_latency): figures that contradict each other
