#!/usr/bin/env python3
"""calib_audit.py FILE LINE PRECISION MAX_TIME - audit one calibrated sizeup.point/1 record.

Replays the stopping rule from the record's own series (the fine ticks) with an independent
implementation of the published formulas: MSER-5 (White, Cobb & Spratt 2000: batch means of 5
ticks, MSER(d) = sum_{j>d} (Z_j - mean)^2 / (k - d)^2, minimised over d <= k/2, ties to the
smaller d; the cut is kept at k/2 too, where the level is not steady) and the 20-batch-means 95 %
half-width (Schmeiser 1982; t quantiles from the table of Student's t).
Prints one line per failed check and exits 1 when any failed."""
import json
import math
import sys

# t(0.975, df) for df = 9..19, Student's t table
T975 = {9: 2.262157163, 10: 2.228138852, 11: 2.200985160, 12: 2.178812830, 13: 2.160368656,
        14: 2.144786688, 15: 2.131449546, 16: 2.119905299, 17: 2.109815578, 18: 2.100922040,
        19: 2.093024054}


def mser(x, m):
    k = len(x) // m
    z = [sum(x[j * m:(j + 1) * m]) / m for j in range(k)]
    best, best_d = math.inf, 0
    for d in range(0, k // 2 + 1):
        kept = z[d:]
        if len(kept) < 2:
            continue
        mu = sum(kept) / len(kept)
        v = sum((a - mu) ** 2 for a in kept) / len(kept) ** 2
        if v < best - 1e-12 * max(1.0, abs(best)) or best == math.inf:
            best, best_d = v, d
    return best_d * m, best_d < k // 2


def batch_means(x):
    b = 20 if len(x) >= 20 else len(x)
    ln = len(x) // b
    skip = len(x) - b * ln
    z = [sum(x[skip + j * ln: skip + (j + 1) * ln]) / ln for j in range(b)]
    mu = sum(z) / b
    s2 = sum((a - mu) ** 2 for a in z) / (b - 1)
    return mu, T975[b - 1] * math.sqrt(s2 / b)


def main():
    path, line, precision, max_time = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    p = [json.loads(l) for l in open(path) if l.strip()][line - 1]
    c = p["extra"]["calibration"]
    fails = []
    # a replicate of a curve measured in passes may have been given a shorter limit
    # (advisor/passes.h): never longer than --max-time; it is audited against its own limit
    if c["max_time_s"] > max_time + 1e-9:
        fails.append("the record's max_time_s %g above --max-time %g" % (c["max_time_s"], max_time))
    max_time = min(max_time, c["max_time_s"])

    def check(what, cond):
        if not cond:
            fails.append(what)

    tps = [iv["tps"] for iv in p["series"]]
    tick = c["tick_s"]
    check("series holds every tick", len(tps) == c["ticks"])
    check("precision recorded", abs(c["precision"] - precision) < 1e-12 and
          abs(p["options"]["precision"] - precision) < 1e-12)
    # the cut MSER chose, also at the boundary k/2 (then the level is not steady)
    cut, warm_over = mser(tps, 5) if len(tps) >= 10 else (0, False)
    check("cut %d = independent MSER-5 %d" % (c["cut_ticks"], cut), c["cut_ticks"] == cut)
    check("warmup_s is the cut ticks' time", abs(p["warmup_s"] - cut * tick) < 0.5 * tick + 0.2)
    check("duration_s is the kept ticks' time",
          abs(p["duration_s"] - (len(tps) - cut) * tick) < 0.05 * len(tps) * tick + 0.5)
    check("tps = transactions / duration_s",
          abs(p["tps"] * p["duration_s"] - p["transactions"]) <= 1 + 1e-9 * p["transactions"])
    check("kept transactions <= whole run", p["transactions"] <= c["run_transactions"])
    kept = tps[cut:]
    if len(kept) >= 10:
        mu, half = batch_means(kept)
        check("ci95_tps %.3f = independent batch means %.3f" % (p["ci95_tps"], half),
              abs(p["ci95_tps"] - half) <= 1e-6 * max(1.0, half))
        rel = half / mu
        if p["steady"]:
            check("steady with rel95 %.4f <= precision" % rel, rel <= precision + 1e-12)
            check("steady before max_time", c["elapsed_s"] < max_time + 1)
    if not p["steady"]:
        check("not steady only at max_time", len(tps) * tick >= max_time - 1e-9)
    for f in fails:
        print("FAIL: " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
