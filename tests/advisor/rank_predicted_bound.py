#!/usr/bin/env python3
"""A predicted curve that still climbs where its levels stop has a lower-bound peak (issue 28.5:
c5.24xlarge, 96 vCPUs predicted from c5.xlarge and c5.12xlarge to the 128 threads they were
measured at, read as a plateau with no headroom). For every predicted row of rank --predict on
data/examples/aws-two-sizes-per-family.csv, the rule is checked against the predicted points
themselves (sizeup predict --json, the curve the row is built from): headroom_is_lower_bound is
true exactly when the last level's tps is more than 5 % above the level before, or the row's
own workload says the curve rises."""
import json
import subprocess
import sys

BIN = sys.argv[1]
PTS = "data/examples/aws-two-sizes-per-family.csv"
CAT = "data/catalogs/aws-us-east-1.json"
fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


pred = {}
out = subprocess.run([BIN, "predict", "--points", PTS, "--catalog", CAT, "--json"],
                     capture_output=True, text=True).stdout
for o in map(json.loads, out.splitlines()):
    pred.setdefault(o["target"], {})[o["threads"]] = o["tps"]
out = subprocess.run([BIN, "rank", "--points", PTS, "--catalog", CAT, "--slo", "p95:10ms",
                      "--predict", "--json"], capture_output=True, text=True).stdout
rows = [o for o in map(json.loads, out.splitlines()) if o.get("basis") == "predicted"
        and o.get("status") == "met"]
check(len(rows) >= 10, "predicted rows that meet the target: %d" % len(rows))
seen_bound = 0
for o in rows:
    lv = pred.get(o["config"])
    if not lv or len(lv) < 2:
        continue
    n = sorted(lv)
    climbs = lv[n[-1]] > 1.05 * lv[n[-2]]
    rising = o["workloads"][0]["shape"] == "rising"
    want = climbs or rising
    seen_bound += want
    check(o["headroom_is_lower_bound"] == want,
          "%s: last levels %.0f -> %.0f tps (%+.1f %%): headroom lower bound %s"
          % (o["config"], lv[n[-2]], lv[n[-1]], 100 * (lv[n[-1]] / lv[n[-2]] - 1), want))
check(seen_bound >= 3, "some predicted rows stop while climbing (%d)" % seen_bound)
print("%d failure(s)" % len(fails))
sys.exit(1 if fails else 0)
