#!/usr/bin/env python3
"""sizeup predict end to end on a closed-form family: every size's curve is
X_v(N) = A v^B g(N / v), g(u) = u / (1 + S (u - 1) + K u (u - 1)) (a USL in threads per vCPU,
so a USL in N whose parameters are closed-form functions of v; tests/models/test_hwscale.c),
measured on 2, 4, 8, 16 and 32 vCPU at N = u v, one run per level, with the mean latency of
Little's law N / X and p95 = 1.5 x the mean.

Through the command line (points CSV, catalog JSON, curve.h's levels, predict.c's families,
the JSON records): the sizes of 12 and 24 vCPU (between measured sizes) and 64 vCPU (above
them) predicted at their own N = u v match the closed form to 1 %, their latencies follow
(avg = N / X, p95 = 1.5 N / X, to 1 %), and leave-one-out finds every measured size within 1 %
(the sizes of 2 and 32 vCPU are extrapolated from the others).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
BIN = os.environ.get("SIZEUP_BIN", os.path.join(SRC, "build/sizeup"))
A, B, S, K = 650.0, 0.95, 0.04, 0.02
U = [0.5, 1, 1.5, 2, 3, 4, 6, 8]
MEASURED = [2, 4, 8, 16, 32]
PREDICTED = [12, 24, 64]
failed = 0


def check(cond, msg):
    global failed
    if not cond:
        failed += 1
        print("FAIL: " + msg)


def x(v, n):
    u = n / v
    return A * v ** B * u / (1 + S * (u - 1) + K * u * (u - 1))


def name(v):
    return "syn.%dx" % v


tmp = tempfile.mkdtemp()
pts = os.path.join(tmp, "syn.csv")
cat = os.path.join(tmp, "syn.json")
with open(pts, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["target", "workload", "threads", "tps", "avg_latency_ms", "p95_ms"])
    for v in MEASURED:
        for u in U:
            n = int(round(u * v))
            t = x(v, n)
            w.writerow([name(v), "syn_ro", n, "%.6f" % t, "%.9f" % (1e3 * n / t),
                        "%.9f" % (1.5e3 * n / t)])
price = {"pricing": "on-demand", "unit": "hour", "amount": 0.1, "currency": "USD",
         "source": "synthetic", "as_of": "2026-12-01"}
doc = {"schema": "sizeup.catalog/1", "currency": "USD", "as_of": "2026-12-01",
       "instances": [{"id": name(v), "provider": "aws", "name": name(v), "family": "syn",
                      "vcpu": v, "prices": [dict(price, amount=0.05 * v)]}
                     for v in MEASURED + PREDICTED],
       "configs": [{"id": name(v), "instance": name(v)} for v in MEASURED + PREDICTED]}
json.dump(doc, open(cat, "w"))

for v in PREDICTED:
    ns = [int(round(u * v)) for u in U]
    r = subprocess.run([BIN, "predict", "--points", pts, "--catalog", cat, "--json",
                        "--threads", ",".join(str(n) for n in ns)],
                       capture_output=True, text=True)
    check(r.returncode == 0, "predict exit %d: %s" % (r.returncode, r.stderr))
    got = {}
    for line in r.stdout.splitlines():
        p = json.loads(line)
        if p["config"] == name(v):
            got[p["threads"]] = p
    check(sorted(got) == ns, "%s: levels %s" % (name(v), sorted(got)))
    worst = 0
    for n in ns:
        if n not in got:
            continue
        p, want = got[n], x(v, n)
        e = abs(p["tps"] / want - 1)
        worst = max(worst, e)
        check(e <= 0.01, "%s at %d threads: %.2f tps, closed form %.2f" % (name(v), n, p["tps"], want))
        check(p["basis"] == "predicted", "basis")
        lat = p["latency_ms"]
        check(abs(lat["avg"] / (1e3 * n / p["tps"]) - 1) <= 0.01, "%s avg latency" % name(v))
        check(abs(lat["p95"] / (1.5e3 * n / p["tps"]) - 1) <= 0.01, "%s p95 latency" % name(v))
    print("%s (%d vCPU): %d levels, worst |error| %.3f %%" % (name(v), v, len(got), 100 * worst))

r = subprocess.run([BIN, "predict", "--points", pts, "--catalog", cat, "--validate", "--json",
                    "--slo", "avg:50ms"], capture_output=True, text=True)
check(r.returncode == 0, "validate exit %d: %s" % (r.returncode, r.stderr))
for line in r.stdout.splitlines():
    g = json.loads(line)
    check(len(g["sizes"]) == len(MEASURED), "every size left out once")
    for s in g["sizes"]:
        check(abs(s["peak_error"]) <= 0.01, "leave-one-out %s: %+.4f" % (s["config"], s["peak_error"]))
    print("leave-one-out: worst |peak error| %.3f %%" % (100 * g["peak_worst"]))
for f in (pts, cat):
    os.unlink(f)
os.rmdir(tmp)
print("ok" if not failed else "%d failed" % failed)
sys.exit(1 if failed else 0)
