#!/usr/bin/env python3
"""calib_audit.py FILE LINE PRECISION MAX_TIME - audit one calibrated sizeup.point/1 record.

Replays the stopping rule from the record's own series (the fine ticks) with an independent
implementation of the published formulas: MSER-5 (White, Cobb & Spratt 2000: batch means of 5
ticks, MSER(d) = sum_{j>d} (Z_j - mean)^2 / (k - d)^2, minimised over d <= k/2, ties to the
smaller d; the cut is kept at k/2 too, where the level is not steady) and the 20-batch-means 95 %
half-width (Schmeiser 1982; t quantiles from the table of Student's t).

--max-time is a wall-clock limit (probes/probe.h): a tick the loaded machine delayed past the
next one is one longer tick (the missed ones are skipped, as sysbench does), and a tick the limit
cuts short is left out of the series. So the replay takes the ticks' times from the series (t,
the nominal end of each tick on the 0.25 s grid; its measured end lies between it and the next
tick's t), never their number times the tick.
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
    # (advisor/plan/passes.h): never longer than --max-time; it is audited against its own limit
    if c["max_time_s"] > max_time + 1e-9:
        fails.append("the record's max_time_s %g above --max-time %g" % (c["max_time_s"], max_time))
    max_time = min(max_time, c["max_time_s"])

    def check(what, cond):
        if not cond:
            fails.append(what)

    tps = [iv["tps"] for iv in p["series"]]
    ends = [iv["t"] for iv in p["series"]]
    tick = c["tick_s"]
    elapsed = c["elapsed_s"]
    check("series holds every tick", len(tps) == c["ticks"])
    check("ticks end on the %g s grid, increasing" % tick,
          all(abs(t / tick - round(t / tick)) < 1e-6 for t in ends) and
          all(a < b for a, b in zip(ends, ends[1:])) and (not ends or ends[0] >= tick - 1e-9))
    check("the last tick ends within the run", not ends or ends[-1] <= elapsed + 1e-6)
    check("precision recorded", abs(c["precision"] - precision) < 1e-12 and
          abs(p["options"]["precision"] - precision) < 1e-12)
    # the cut MSER chose, also at the boundary k/2 (then the level is not steady)
    cut, warm_over = mser(tps, 5) if len(tps) >= 10 else (0, False)
    check("cut %d = independent MSER-5 %d" % (c["cut_ticks"], cut), c["cut_ticks"] == cut)
    # the cut ticks' time is the measured end of the last cut tick: at or after its nominal end,
    # before the next tick's
    if cut == 0:
        check("warmup_s 0 without a cut", abs(p["warmup_s"]) < 1e-9)
    elif cut < len(ends):
        check("warmup_s %g is the cut ticks' time [%g, %g)" % (p["warmup_s"], ends[cut - 1], ends[cut]),
              ends[cut - 1] - 1e-6 <= p["warmup_s"] < ends[cut] + 1e-6)
    # the kept ticks' time: from there to the measured end of the last tick (at or after its
    # nominal end, within the run)
    if ends:
        lo, hi = ends[-1] - p["warmup_s"], elapsed - p["warmup_s"]
        check("duration_s %g is the kept ticks' time [%g, %g]" % (p["duration_s"], lo, hi),
              lo - 1e-6 <= p["duration_s"] <= hi + 1e-6)
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
            check("steady before max_time", elapsed < max_time + 1)
    if not p["steady"]:
        # stopped at the limit: by the ticks counted (calib.h) or by the wall clock (probe.h),
        # both after max_time of the run
        check("not steady only at max_time (elapsed %g)" % elapsed, elapsed >= max_time - 1e-6)
    for f in fails:
        print("FAIL: " + f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
