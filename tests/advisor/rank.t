# Transcript of `sizeup rank` (format: tests/transcript.sh).
# Figures from data/published/rds-idc-vs-cloud-4c16g.csv (measured avg latency: idc-nvme
# 11.14 ms at 16 threads, 22.38 ms at 32; cloud-ssd 13.33 ms at 1 thread) and
# data/catalogs/published.json; the ranking's arithmetic is checked by tests/advisor/test_rank.c
# and rank_published.py.

### help to stdout
$ rank --help
? 0
> Usage: sizeup rank --points FILE
> --slo=STAT:LATENCY
> --required-tps=N

# (its points twice would be replicates that agree exactly, an interval of zero width
# [1437, 1437]; idc-nvme keeps the interval of the file read once: its level's noise bound,
# 5 % of 1437 tps)
### the same file given twice is read once
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --points data/published/rds-idc-vs-cloud-4c16g.csv --catalog data/catalogs/published.json --slo avg:20ms
? 0
! the same file as data/published/rds-idc-vs-cloud-4c16g.csv, given before: read once
>    1 idc-nvme            1437 [1365, 1509]         16.0
>! [1437, 1437]

# a copy under another name is another file, but the same measurements: each point of the copy
# repeats one of the table's to the last bit (curve_same_measurement) and is left out, so
# idc-nvme's interval is the table's own, not the zero width of 18 replicates that agree
### the same points given twice under two names: counted once
$$ cp data/published/rds-idc-vs-cloud-4c16g.csv "$TRANSCRIPT_TMP/copy.csv"
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --points $TRANSCRIPT_TMP/copy.csv --catalog data/catalogs/published.json --slo avg:20ms
? 0
! copy.csv:8: idc-nvme / oltp_legacy: 9 points left out: the same measurement as data/published/rds-idc-vs-cloud-4c16g.csv:8
>    1 idc-nvme            1437 [1365, 1509]         16.0
>! [1437, 1437]

### the IDC-versus-cloud table at avg <= 20 ms: four configurations ranked, idc-nvme first
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --catalog data/catalogs/published.json --slo avg:20ms
? 0
> target avg <= 20 ms; workload oltp_legacy; on-demand prices in USD
>    1 idc-nvme            1437 [1365, 1509]         16.0 0.09605
>    4 cloud-ssd
> note: idc-nvme: throughput peaks at 16 threads (measured)
> note: idc-nvme: power read on the server's curve at load 0.7 = X / X_peak (1437 / 1437 tps at the
> over 60 months (the owned servers' amortisation period) at 5 %/y, net present value:
> where it flips: idc-nvme leads cloud-local-ssd 6.14x at the catalog's figures; it stays
> idc-nvme servers_per_admin falls below 1.895 servers (now 20): 0.528 FTE per server
> never flips it: idc-nvme pue
= 60

### cloud-ssd never meets 10 ms: its latency at 1 thread is 13.33 ms; it ranks last
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:10ms
? 0
>    - cloud-ssd       never meets the target (13.33 ms at 1 thread already)
>    - cloud-essd      never meets the target (11.54 ms at 1 thread already)
>    2 cloud-local-ssd

### never met: the latency is the smallest measured level's, named (seekdb's point_select
# starts at 10 threads with p99 0.23 ms in the CSV, 1c2g's with 0.53 ms)
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_point_select --slo p99:0.1ms
? 0
>    - seekdb-4c8g never meets the target (0.23 ms at 10 threads already)
>    - seekdb-1c2g never meets the target (0.53 ms at 10 threads already)

### one JSON record per configuration
$ rank --json --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:100ms
? 0
= 4
> {"schema":"sizeup.ranking/1","rank":1,"config":"idc-nvme","status":"met"
> "binds":"peak"

### CSV: a header and one row per configuration
$ rank --csv --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms
? 0
= 5
> rank,config,status,tps,tps_lo,tps_hi,at,basis,cost_per_hour,currency

### Markdown
$ rank --markdown --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms
? 0
> | 1 | idc-nvme |

### a percentile the table does not carry: said per configuration, none ranked, exit 1 (nothing to rank)
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo p95:50ms
? 1
! nothing to rank: no configuration has the target's latency statistic measured
> no measured latency of the target's percentile

# (the configuration is one node, the curve measured 2 to 16: its own node count lies outside
# the curve, so nothing is sized; this case read "curve" in that message and passed as if nodes
# had been read from the curve)
### required throughput on the MonoSQL scale-out curve from a 1-node configuration: outside it
$ rank --points data/published/monosql-scaleout-c5-2xlarge.csv --workload oltp_point_select --slo p95:20ms --required-tps 100000
? 1
> required 100000 tps
> node count outside the measured scale-out curve (see --extrapolate)
! nothing to rank: no configuration carries 100000 tps at the target

### an unparseable SLO is misuse
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo p95:fast
? 2
! --slo: 'p95:fast' is not a latency target: expected avg or pNN (0 < NN < 100), a colon and a latency with its unit (us, ms or s), e.g. p95:50ms
! e.g. p95:50ms

### an SLO without a unit is misuse
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20
? 2
! --slo: 'avg:20' is not a latency target: give a unit, e.g. avg:20ms

### a --map to a configuration the catalog lacks: said, the others still ranked, exit 3
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms --map idc-nvme=no-such-config
? 3
! rds-idc-vs-cloud-4c16g.csv:8: target 'idc-nvme': configuration 'no-such-config' is not in the catalogs
> cloud-essd
>! idc-nvme

### a target mapped to two configurations is misuse (the first would win silently)
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --map idc-nvme=idc-nvme --map idc-nvme=cloud-essd
? 2
! target 'idc-nvme' is mapped to 'idc-nvme' and to 'cloud-essd': map it once

### a --map file with a bad line
$$ printf 'idc-nvme=idc-nvme\nnot a mapping\n' > "$TRANSCRIPT_TMP/map.txt"
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --map-file "$TRANSCRIPT_TMP/map.txt"
? 2
! map.txt:2: 'not a mapping' is not a mapping: expected TARGET=CONFIG-ID

### several workloads and no choice
$ rank --points data/published/seekdb-4c8g-1c2g.csv
? 1
! the points hold several workloads

### a pricing model the cloud instances lack: the on-premises server is still ranked
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms --pricing reserved-3y
? 3
>    1 idc-nvme
> no price for the pricing model
! has no reserved-3y price

### the horizon: whole months, at least one
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms --horizon 0.5m
? 2
! a horizon of 0.5 months: expected whole months from 1 to 1200 (100 y)

### the horizon and the discount rate: 3 years at 7 %
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms --horizon 3y --discount-rate 0.07
? 0
> over 36 months (--horizon) at 7 %/y, net present value:
>                        reserved-1y

### no points
$ rank --slo avg:20ms
? 2
! no points: give --points FILE

### a points file that does not exist
$ rank --points no-such-file.csv --slo avg:20ms
? 1
! no-such-file.csv

# issue 11: the figures below are the table's own rows (klustron-3node-32c128g.csv:
# oltp_read_write 3218.29 tps at 900 threads, p95 427.07 ms; 3095.1 at 600, p95 612.21 ms;
# oltp_write_only 2433.68 tps at 300 threads, p95 260.72 ms, then 264.01 at 600) and the
# recorded main-job results (tests/fixtures/rank/main-job-results.jsonl: 655, 3618, 2783, 2864,
# 2808 tps at 1, 2, 3, 4, 8 threads, p99 <= 5.4 ms).

### a ranking is never below a measured point that meets the target: 3218 tps at 900 threads
$ rank --points data/published/klustron-3node-32c128g.csv --workload oltp_read_write --slo p95:428ms
? 0
>    1 klustron-3x32c     3218 [
> 900.0
> meas
> meets the target at the largest measured level (900 threads); probe higher

### never beyond a collapse: oltp_write_only ranks its 300-thread level, 2434 tps
$ rank --points data/published/klustron-3node-32c128g.csv --workload oltp_write_only --slo p95:459ms
? 0
>    1 klustron-3x32c     2434 [
> throughput collapses between 300 and 600 threads (2,434 -> 264 tps): nothing
> beyond 300 is ranked

### a superlinear first step does not drag the answer to the first point: 3618 tps, measured
$ rank --points tests/fixtures/rank/main-job-results.jsonl --catalog data/catalogs/local.json --workload oltp_read_write --slo p99:50ms
? 0
>    1 local-mariadb     3618 [3528, 3709]          2.0
> meas

### met at every level: said, and no extrapolation unless asked
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_point_select --slo p99:50ms
? 0
> seekdb-4c8g: meets the target at every measured level; probe higher concurrency to find
> 400.0
>! % extrap

### --extrapolate=2: up to 2 x the largest measured level, labelled
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_point_select --slo p99:50ms --extrapolate 2
? 0
> 800.0
> extrap
> extrapolated to 800 threads, 2 x the largest measured (400), as --extrapolate=2

### --extrapolate takes a factor >= 1
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_point_select --extrapolate 0.5
? 2
! --extrapolate takes a factor from 1 to 1000

### a mix names the workload whose figure is not measured and takes the weakest basis
$ rank --points data/published/seekdb-4c8g-1c2g.csv --mix oltp_read_write:0.7,oltp_point_select:0.3 --slo p99:50ms
? 0
> seekdb-4c8g: oltp_read_write interpolated at
> oltp_point_select measured at 400
> threads, so the row is interpolated (the weakest basis, from

### how sure: P(best) by resampling within the intervals, the break-even price
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --catalog data/catalogs/published.json --slo avg:20ms
? 0
> how sure: P(best at avg <= 20 ms), 10000 draws within each 95 % interval (seed 42);
>      1 idc-nvme               100 %         -  first
> break-even: cloud-local-ssd overtakes idc-nvme at 0.03127 USD/h or less (now 0.192),

### --predict: two sizes per family of the published AWS table rank with the predicted sizes of the whole catalog
$$ grep -E '^(#|target,|c5\.xlarge,|c5\.12xlarge,|c5a\.xlarge,|c5a\.12xlarge,|c6g\.xlarge,|c6g\.12xlarge,)' data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv > "$TRANSCRIPT_TMP/two.csv"
$ rank --points $TRANSCRIPT_TMP/two.csv --catalog data/catalogs/aws-us-east-1.json --slo p95:10ms --predict
? 0
>    1 c6g.12xlarge
> pred
> note: c6g.16xlarge, c6g.4xlarge, c6g.2xlarge, c6g.large: predicted from c6g.xlarge, c6g.12xlarge
> probe next: c6g.16xlarge
> not ranked: 122 configurations of the catalogs neither measured nor predicted
> tied with the first within noise

### --predict in JSON: predicted rows say so and where they came from
$$ grep -E '^(#|target,|c5\.xlarge,|c5\.12xlarge,)' data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv > "$TRANSCRIPT_TMP/c5.csv"
$ rank --points $TRANSCRIPT_TMP/c5.csv --catalog data/catalogs/aws-us-east-1.json --slo p95:10ms --predict --json
? 0
> "config":"c5.9xlarge"
> "basis":"predicted","predicted_from":["c5.xlarge","c5.12xlarge"]
> "p_best":
> "break_even_cost_per_hour":
= 9

### a bad transfer rule with --predict
$ rank --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json --predict --transfer m5
? 2
! --transfer: 'm5' is not a transfer rule

### rank --suite: cost per run of the Klustron TPC-H timings on two configurations
$ rank --suite data/published/klustron-tpch-tpcds-queries.csv --workload tpch --map klustron-3x32c=klustron-3x-i3.8xlarge --json
? 0
= 2
> "suite":"tpch","rank":1,"rank_time":1,"config":"klustron-3x32c","target":"klustron-3x32c","basis":"measured","total_s":3997.49
> "config":"klustron-3x-i3.8xlarge","target":"klustron-3x32c","basis":"same_times","total_s":3997.49
> "cost_per_hour":7.488,"cost_per_run":8.3147792,

### rank --suite: a timed-out query ranks its run last
$ rank --suite tests/fixtures/suite/two-configs.md
? 0
> 3 cloud-ssd
> >=19.00
> Q3                         8.75                   7.20                 failed

### rank --suite and --points together is misuse
$ rank --suite tests/fixtures/suite/two-configs.md --points data/published/seekdb-4c8g-1c2g.csv
? 2
! give --points or --suite, not both

### a suite run that joins no configuration: the rest is ranked, exit 3
$$ printf 'target,query,seconds\nnowhere,Q1,2\nidc-nvme,Q1,3\n' > "$TRANSCRIPT_TMP/s.csv"
$ rank --suite "$TRANSCRIPT_TMP/s.csv"
? 3
! suite suite of nowhere joins no configuration
> idc-nvme

### suite timings are no points
$ fit data/published/klustron-tpch-tpcds-queries.csv
? 3
! query-suite timings (query and seconds), not points

# seekdb-4c8g's oltp_insert still rises at its largest level (400 threads, 41,418 tps in the
# table) and meets avg <= 1000 ms there: the answer is that level, and its peak lies beyond the
# data: the headroom is at least 41418 / 41418 - 1 = 0 (">=0%"), not the 9 % to an Amdahl
# asymptote nothing measured
### a curve still rising at its largest level: the headroom is a lower bound
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_insert --slo avg:1000ms
? 0
>    1 seekdb-4c8g    41418 [39347, 43489]      400.0
>   >=0% meas
> headrm >= : the curve still rises at its largest level
>! 9% meas

### the lower bound in the CSV: its last column
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_insert --slo avg:1000ms --csv
? 0
> cost_per_month,headroom_is_lower_bound
> 1,seekdb-4c8g,met,41418.19,39347.2805,43489.0995,400,measured,0.189,USD,219143.8624,0.001267559012,0,,,,,1

### ... and in the Markdown table, with its legend
$ rank --points data/published/seekdb-4c8g-1c2g.csv --workload oltp_insert --slo avg:1000ms --markdown
? 0
> | ≥ 0 % | measured |
> ≥ headroom: the curve still rises at its largest level

### a mix workload no point has is misuse, named with the closest one (issue 28.7: it ranked nothing, exit 0)
$ rank --points data/published/seekdb-4c8g-1c2g.csv --catalog data/catalogs/published.json --slo p99:50ms --mix oltp_read_write:0.7,oltp_pointselect:0.3
? 2
! no point has workload 'oltp_pointselect' (of the mix): did you mean 'oltp_point_select'?
! the points have: oltp_point_select, oltp_read_only, oltp_read_write
= 0

### report with the same typo writes no report
$$ rm -f "$TRANSCRIPT_TMP/r.html"
$ report --points data/published/seekdb-4c8g-1c2g.csv --catalog data/catalogs/published.json --slo p99:50ms --workload oltp_pointselect -o $TRANSCRIPT_TMP/r.html
? 2
! did you mean 'oltp_point_select'?

### --map onto a configuration with another disk says so (issue 24.6); the IOPS by the catalog's rules: local-nvme 165 x 500 GiB, Huawei EVS SSD 1800 + 50 x 500 GiB
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms --map idc-nvme=cloud-ssd
? 0
! note: --map idc-nvme=cloud-ssd: idc-nvme was measured on local-nvme at 500 GiB (82500 IOPS by its rule), cloud-ssd has huawei-evs-ssd at 500 GiB (26800 IOPS)
! sizeup predict --disk predicts it

### no map, no such note
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms
? 0
!! note: --map

# --require (issue 25): a sizeup.workload/1 record sizes the ranking. The fixture's mix tps
# p95 is 500 and its mix oltp_read_only alone, so --growth 2 asks 500 x 2 x (1 + 0.3) = 1300 tps
# of oltp_read_only; the published AWS table measures c5.large at 1308 tps (p95 <= 50 ms, 4
# threads), the cheapest configuration that carries it on one node.
### --require: the record's p95 x growth x (1 + headroom), at its mix
$ rank --require tests/fixtures/workload/read-only-500.json --growth 2 --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 0
! p95 500.0 tps x growth 2 x (1 + headroom 0.3) = 1300.0 tps of the mix oltp_read_only:1.000
> required 1300 tps
>    1 c5.large         1308

### --require-at max --headroom 0: 530 tps
$ rank --require tests/fixtures/workload/read-only-500.json --require-at max --headroom 0 --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 0
! max 530.0 tps x growth 1 x (1 + headroom 0) = 530.0 tps
> required 530 tps

### --require: a record without a field: file:line:col, exit 3
$ rank --require tests/fixtures/workload/missing-p95.json --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 3
! missing-p95.json:19:16: $.summary.mix_tps: missing required key 'p95'
= 0

### --require: an unknown schema version, exit 3
$ rank --require tests/fixtures/workload/version-2.json --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 3
! version-2.json:2:13: $.schema: unknown schema version 'sizeup.workload/2'
= 0

### --require: a points file is not a workload record, exit 3
$ rank --require tests/fixtures/rank/main-job-results.jsonl --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 3
! main-job-results.jsonl:1:12: $.schema: 'sizeup.point/1' is not a workload record
! measured points go to --points
= 0

### --require: a record of no load sizes nothing, exit 3
$ rank --require tests/fixtures/workload/no-load.json --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 3
! no load was observed (every interval's tps is 0): nothing to size for
= 0

### --require: a mix workload no point measures is named, nothing ranked, exit 3
$ rank --require tests/fixtures/workload/mixed-residual.json --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 3
! 15 % of them differ
! the observed load's mix has oltp_point_select (weight 0.250), which no point measures
= 0

### --require with --mix or --required-tps is misuse
$ rank --require tests/fixtures/workload/read-only-500.json --required-tps 100 --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv
? 2
! it excludes --mix, --workload and --required-tps

### --require-at: a statistic the record does not have is misuse
$ rank --require tests/fixtures/workload/read-only-500.json --require-at p42 --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv
? 2
! --require-at takes mean, p50, p95, p99 or max, not 'p42'

# a mix that leaves most statements unexplained (scanning SELECTs: 72 %) cannot be compared
# with sysbench curves: refused, nothing ranked
### --require: a record that is not a sysbench mix is refused, exit 3
$ rank --require tests/fixtures/workload/scans.json --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 3
! the nearest mix leaves 72 % of them unexplained
= 0

# the observed tps p95 (520) above the mix's (500): sized for the observed, 520 x 1.3 = 676;
# an observation that did not finish says so
### --require: never below the observed transactions; an unfinished record is named
$ rank --require tests/fixtures/workload/tps-above-mix.json --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 0
! p95 520.0 tps x growth 1 x (1 + headroom 0.3) = 676.0 tps
! the observed p95 tps (520.0) is above the mix's (500.0): sized for the observed
! the observation did not finish (ended: server gone); sized on the 600 s it counted
> required 676 tps

### --growth without --require is misuse
$ rank --growth 2 --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 2
! --growth, --headroom and --require-at size for a workload record: give --require FILE

# memory as a limit (issue 24.5): c5.xlarge and c5.2xlarge were measured with 6000 MiB of data
# in a 6144 MiB buffer pool (their server blocks): min(6000, 6144) = 6000 MiB = 5.9 GiB. c5.large
# has 4 GiB, 80 % of it 3.2 GiB: its data would not fit as it did on the measured sizes, so it
# is not predicted; c5.4xlarge (32 GiB) is
### rank --predict: a size whose memory cannot hold the measured buffer pool is not ranked
$ rank --points tests/fixtures/predict/pool-6000mib.jsonl --catalog data/catalogs/aws-us-east-1.json --predict --slo p95:10ms
? 0
> c5.4xlarge
>! c5.large 
> not ranked: 1 configuration too small in memory: 80 % of it cannot hold the 5.9 GiB buffer pool
> a measured size ran with (its data would not fit as it did there): c5.large

# c5.xlarge measured with a 6 GiB pool, c5.4xlarge with 24 GiB (100 GB of data each): c5.2xlarge
# (16 GiB, 12.8 usable) holds the smaller pool a measured size ran with, so it is predicted;
# c5.large (3.2 usable) holds neither
### rank --predict: the smallest measured pool is the bar, not the largest
$ rank --points tests/fixtures/predict/pool-6-and-24gib.jsonl --catalog data/catalogs/aws-us-east-1.json --predict --slo p95:10ms
? 0
> c5.2xlarge
> too small in memory: 80 % of it cannot hold the 6.0 GiB buffer pool
> a measured size ran with (its data would not fit as it did there): c5.large

### report: nothing carries the required load: written, said, exit 1
$ report --points data/published/rds-idc-vs-cloud-4c16g.csv --catalog data/catalogs/published.json --slo avg:20ms --required-tps 3000
? 1
> No configuration carries the required 3000 tps at avg &lt;= 20 ms.
! nothing to rank: no configuration carries 3000 tps at the target

# issue 28.10: points that report avg and p99 but carry their latency histogram: a p95 or p90
# target is read from the histogram by sysbench's rule (nmax = floor(N p / 100 + 0.5), the first
# bucket whose cumulative count reaches it). tests/fixtures/rank/histogram-only-p95.jsonl: at 1
# thread buckets 1 ms x 50, 2 ms x 40, 5 ms x 10 (N = 100): p95 = 5 ms, p90 = 2 ms; at 2 threads
# 2 ms x 60, 4 ms x 30, 8 ms x 10: p95 = 8 ms.
### a p95 target on points with only a histogram: derived, said, met between 1 and 2 threads
$ rank --points tests/fixtures/rank/histogram-only-p95.jsonl --catalog data/catalogs/local.json --slo p95:6ms
? 0
> 1 local-mariadb
> interp
> oltp_read_only p95 derived from the latency histogram of 2 of its 2 points
!! nothing to rank

### p90 from the same histograms: 2 ms at 1 thread already misses 1 ms
$ rank --points tests/fixtures/rank/histogram-only-p95.jsonl --catalog data/catalogs/local.json --slo p90:1ms
? 0
> never meets the target (2 ms at 1 thread already)

### a statistic nobody has: the message names the ones the points have
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo p95:50ms
? 1
! give one the points have: avg

# issue 28.17: a local probe (tests/fixtures/rank/measured-with.jsonl: its records' server_version
# 10.11.6-MariaDB-0+deb12u1, options 1 table x 10000 rows, mysql_host 127.0.0.1) ranked against a
# published table that says none of it: the ranking says the rows were not measured alike
### like for like? what each row's points say of how they were measured
$ rank --points tests/fixtures/rank/measured-with.jsonl --points data/published/seekdb-4c8g-1c2g.csv --catalog data/catalogs/published.json --catalog data/catalogs/local.json --workload oltp_point_select --slo p99:50ms
? 0
> like for like? the measured rows were not measured alike
> seekdb-4c8g, seekdb-1c2g: not stated (an imported table)
> local-mariadb: server 10.11.6-MariaDB-0+deb12u1; 1 x 10000 rows; client on the server's host

### rows measured alike (one table): no like-for-like block
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms
? 0
>! like for like?
