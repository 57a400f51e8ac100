#!/usr/bin/env bash
# run-study-import.sh [SIZEUP] [CANDIDATES] - a study of many import candidates sharing one table
# (issue 27.13: 1,000 candidates of one 9.8 MB CSV took 256 s, the file parsed once per
# candidate). Makes a table of CANDIDATES targets (default 200) x 26 workloads x 8 levels (about
# 1 MB at 200), a catalog and a study in a temporary folder, and prints the study's CPU and wall
# time and peak memory, with the machine's load. Compare two builds side by side with farm-bench:
#   farm-bench --vs 'bench/run-study-import.sh NEW' -- bench/run-study-import.sh OLD
set -eu
sizeup=${1:-build/sizeup}
n=${2:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" "$n" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
targets = ["t%04d" % i for i in range(n)]
rows = ["target,workload,threads,tps,avg_latency_ms"]
for w in ["oltp_read_write"] + ["w%02d" % i for i in range(25)]:
    for t in targets:
        for th in (1, 2, 4, 8, 16, 32, 64, 128):
            tps = 1000 * th / (1 + 0.05 * (th - 1))
            rows.append("%s,%s,%d,%.1f,%.3f" % (t, w, th, tps, th / tps * 1000))
open(d + "/big.csv", "w").write("\n".join(rows) + "\n")
price = {"pricing": "on-demand", "unit": "hour", "amount": 0.1, "currency": "USD",
         "source": "bench", "as_of": "2026-12-01"}
json.dump({"schema": "sizeup.catalog/1", "name": "bench", "currency": "USD", "as_of": "2026-12-01",
           "instances": [{"id": "i-" + t, "provider": "x", "name": "i-" + t, "vcpu": 4,
                          "memory_gib": 16, "prices": [price]} for t in targets],
           "configs": [{"id": t, "instance": "i-" + t} for t in targets]},
          open(d + "/cat.json", "w"))
json.dump({"schema": "sizeup.study/1", "name": "many",
           "candidates": [{"config": t, "target": t, "results": [d + "/big.csv"]} for t in targets],
           "workloads": {"oltp_read_write": 1}, "slo": "avg:50ms", "catalogs": [d + "/cat.json"],
           "output": d + "/out"}, open(d + "/study.json", "w"))
PY
echo "study of $n import candidates sharing one $(du -h "$tmp/big.csv" | cut -f1) table"
/usr/bin/time -f "%U s user, %S s sys, %e s wall, %M KiB peak" "$sizeup" study "$tmp/study.json" \
    >/dev/null 2>"$tmp/err" || { tail -3 "$tmp/err"; exit 1; }
tail -1 "$tmp/err"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
