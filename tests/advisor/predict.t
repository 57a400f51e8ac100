# Transcript of `sizeup predict` (format: tests/transcript.sh). Figures come from
# data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv and data/catalogs/aws-us-east-1.json; the
# model's arithmetic is checked by tests/models/test_hwscale.c and predict_published.py.

### help to stdout
$ predict --help
? 0
> Usage: sizeup predict --points FILE
> --transfer=F=FROM:R
> --validate

### points are required
$ predict --catalog data/catalogs/aws-us-east-1.json
? 2
! no points: give --points FILE

### a transfer rule without a ratio is misuse
$ predict --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json --transfer m5=c5
? 2
! --transfer: 'm5=c5' is not a transfer rule: expected FAMILY=FROM:RATIO

### the published AWS table against the AWS catalog: the c5 sizes it lacks are predicted
$ predict --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json
? 0
> 4 configurations predicted from 17 measured (400 points), 122 not predicted
> family c5 (oltp_read_only): leave-one-out error
> c5.9xlarge         36
> c5.24xlarge        96
> probe one size of family m5 (oltp_read_only): m5.large, m5.xlarge
> probe one size of family t4g (oltp_read_only): t4g.large, t4g.medium, t4g.small

### leave-one-out: every measured size from the others; the worst c5 case has another processor
$ predict --points data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv --catalog data/catalogs/aws-us-east-1.json --validate --slo p95:10ms
? 0
> tps at p95 <= 10 ms
> family c5a, oltp_read_only
> worst case c5.12xlarge: above the measured sizes;
> its processor (Intel Xeon Platinum 8275L) is not the others' (Intel Xeon Platinum 8124M)

### one measured size of a family: predicted, with the stated wide interval
$ predict --points tests/fixtures/predict/one-size-c5a.csv --catalog data/catalogs/aws-us-east-1.json
? 0
> family c5a (oltp_read_only): one measured size, interval +/-35 % assumed
> c5a.16xlarge       64
> one size  c5a.xlarge

### ... and nothing to leave out in the validation
$ predict --points tests/fixtures/predict/one-size-c5a.csv --catalog data/catalogs/aws-us-east-1.json --validate
? 0
> one measured size (c5a.xlarge): nothing to leave out; predictions from it carry

### an instance without vCPU is not predicted; a point of a configuration missing from the catalog is reported (exit 3)
$ predict --points tests/fixtures/predict/unknown-config.csv --catalog tests/fixtures/predict/no-vcpu.json
? 3
> c5.xlarge (oltp_read_only): not predicted: its instance has no vcpu in the catalog
> probe one size of family m5 (oltp_read_only): m5.large
! unknown-config.csv:11: target 'c5.huge': configuration 'c5.huge' is not in the catalogs
! tests/fixtures/predict/no-vcpu.json:7:3: instance 'c5xl' (family c5, measured) has no vcpu: its configurations are not predicted

### an instance of a measured family without vCPU alone is bad input (exit 3), named where it is
$ predict --points tests/fixtures/predict/c5-large.csv --catalog tests/fixtures/predict/no-vcpu.json
? 3
> c5.xlarge (oltp_read_only): not predicted: its instance has no vcpu in the catalog
! tests/fixtures/predict/no-vcpu.json:7:3: instance 'c5xl' (family c5, measured) has no vcpu

### ... and measured, it predicts nothing (a note, where it is)
$ predict --points tests/fixtures/predict/unknown-config.csv --catalog tests/fixtures/predict/no-vcpu.json --map c5.huge=c5.xlarge
? 0
! note: tests/fixtures/predict/no-vcpu.json:7:3: instance 'c5xl' has no vcpu: c5.xlarge is measured but predicts nothing

### a transfer across families is labelled, with its ratio
$ predict --points tests/fixtures/predict/unknown-config.csv --catalog tests/fixtures/predict/no-vcpu.json --transfer m5=c5:1.1 --json
? 3
> "transfer":{"from_family":"c5","ratio":1.1,"ratio_source":"given"}
> "basis":"predicted","predicted_from":["c5.large"]
= 8

### a clock transfer needs both clocks
$ predict --points tests/fixtures/predict/unknown-config.csv --catalog tests/fixtures/predict/no-vcpu.json --transfer m5=c5:clock
? 3
> m5.large (oltp_read_only): not predicted: the clock transfer needs clock_ghz of both families

### nothing to predict from: no point joins a configuration of the catalog
$ predict --points tests/fixtures/predict/unknown-config.csv --catalog data/catalogs/local.json
? 1
! nothing to predict from

# issue 28.14: a --transfer ...:clock family whose instances lack clock_ghz (aws-us-east-1.json:
# m5.24xlarge, m5.metal, m6i.24xlarge, m6i.32xlarge, m6i.metal) is said so, not listed under
# "probe one size of" (its family is named by the transfer)
### a clock transfer without clock_ghz names the configurations, not their families
$ rank --points data/examples/aws-two-sizes-per-family.csv --catalog data/catalogs/aws-us-east-1.json --slo p95:10ms --predict --transfer m5=c5:clock --transfer m6i=c5:clock
? 0
> not ranked: 5 configurations of a --transfer ...:clock family without clock_ghz
> m5.24xlarge, m5.metal, m6i.24xlarge, m6i.32xlarge, m6i.metal
>! m5, m6a
>! m6g, m6i,
