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

### the IDC-versus-cloud table at avg <= 20 ms: four configurations ranked, idc-nvme first
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --catalog data/catalogs/published.json --slo avg:20ms
? 0
> target avg <= 20 ms; workload oltp_legacy; on-demand prices in USD
>    1 idc-nvme
> 0.02636
>    4 cloud-ssd
= 10

### cloud-ssd never meets 10 ms: its latency at 1 thread is 13.33 ms; it ranks last
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:10ms
? 0
>    - cloud-ssd       never meets the target (13.33 ms at 1 thread already)
>    - cloud-essd      never meets the target (11.54 ms at 1 thread already)
>    2 cloud-local-ssd

### one JSON record per configuration
$ rank --json --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:100ms
? 0
= 4
> {"schema":"sizeup.ranking/1","rank":1,"config":"idc-nvme","status":"met"
> "capped_at_peak":true

### CSV: a header and one row per configuration
$ rank --csv --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms
? 0
= 5
> rank,config,status,tps,tps_lo,tps_hi,at,basis,cost_per_hour,currency

### Markdown
$ rank --markdown --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms
? 0
> | 1 | idc-nvme |

### a percentile the table does not carry: said per configuration, none ranked
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo p95:50ms
? 0
> no measured latency of the target's percentile

### required throughput on the MonoSQL scale-out curve: nodes from the measured curve
$ rank --points data/published/monosql-scaleout-c5-2xlarge.csv --workload oltp_point_select --slo p95:20ms --required-tps 100000
? 0
> required 100000 tps
> curve

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
$ rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms --pricing reserved-1y
? 3
>    1 idc-nvme
> no price for the pricing model
! has no reserved-1y price

### no points
$ rank --slo avg:20ms
? 2
! no points: give --points FILE

### a points file that does not exist
$ rank --points no-such-file.csv --slo avg:20ms
? 1
! no-such-file.csv
