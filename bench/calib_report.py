#!/usr/bin/env python3
"""calib_report.py RESULTS_DIR FIXED_S SWEEP_S - the figures of bench/run-calib.sh.

calib_report.py --coverage RESULTS_DIR   the coverage figures (issue 14)
calib_report.py --time RESULTS_DIR       the time figures (issue 14)
"""
import json
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def elapsed(p):
    cal = (p.get("extra") or {}).get("calibration")
    return cal["elapsed_s"] if cal else p["duration_s"]


def fit_peak(fits):
    """Peak throughput of the fitted curve, else its ceiling (plateau)."""
    for f in fits:
        d = f.get("derived", {})
        if "peak" in d:
            return d["peak"]["y"]["value"], "peak at %.1f threads" % d["peak"]["x"]["value"], f
        if "ceiling" in d and d["ceiling"].get("value") is not None:
            return d["ceiling"]["value"], "ceiling (plateau)", f
    return None, "no fit", None


def method(p):
    return ((p.get("extra") or {}).get("interval") or {}).get("method")


def counts(p):
    bad = {"interrupted", "partial", "stalled", "reconnects"}
    return not p.get("incomplete") and not bad & set(p.get("flags") or [])


def pct(x):
    return "%.1f %%" % (100 * x)


def kind(p):
    """'cal' or 'fix': the target (now), or its prefix (cal-r1: files of before the floor)."""
    return p["target"].split("-")[0]


def label(p):
    """A point's round: target cal + config r3 (now), or target cal-r3 (before)."""
    return p["target"] + ("-" + p["config"] if p.get("config") else "")


def coverage(res):
    pts = load(res + "/coverage.jsonl")
    cfgs = sorted({(p["workload"], p["threads"]) for p in pts}, key=lambda c: (c[0], c[1]))
    n_in = n_all = n_in1 = n_all1 = 0
    sq, dfree, t_cal, t_fix, rtr, errs, rel, floors = 0.0, 0, 0.0, 0.0, [], [], [], []
    print("== coverage: calibrated points in passes vs the mean of fixed runs (the reference)")
    for w, th in cfgs:
        mine = [p for p in pts if p["workload"] == w and p["threads"] == th]
        fix = [p for p in mine if kind(p) == "fix" and counts(p)]
        lev = [p for p in mine if kind(p) == "cal" and method(p) == "replicates"]
        reps = [p for p in mine if kind(p) == "cal" and method(p) == "within_run"]
        if len(fix) < 2 or not lev:
            print("%-18s %2d thr: %d fixed runs, %d calibrated points: too few" % (w, th, len(fix), len(lev)))
            continue
        ref = statistics.mean(p["tps"] for p in fix)
        cv = statistics.stdev(p["tps"] for p in fix) / ref
        sq += sum((p["tps"] / ref - 1) ** 2 for p in fix)
        dfree += len(fix) - 1
        t_fix += sum(p["duration_s"] for p in fix)
        print("%-18s %2d thr: reference %9.1f tps = mean of %d fixed runs (CV %s)" % (w, th, ref, len(fix), pct(cv)))
        for p in lev:
            iv = p["extra"]["interval"]
            mine_reps = [q for q in reps if label(q) == label(p)]
            el = sum(elapsed(q) for q in mine_reps)
            t_cal += el
            e = p["tps"] / ref - 1
            inside = abs(p["tps"] - ref) <= p["ci95_tps"]
            n_in += inside
            n_all += 1
            errs.append(e)
            rel.append(p["ci95_tps"] / p["tps"])
            if "run_to_run_cv" in iv:
                rtr.append(iv["run_to_run_cv"])
            if "floor" in iv:
                floors.append((p["started_at"], iv["floor"], iv.get("noise")))
            print("    %s %9.1f tps  error %+6.1f %%  +/- %5.1f %% (95 %%, %d replicates, df %.1f)  %s  %.0f s"
                  % (label(p), p["tps"], 100 * e, 100 * p["ci95_tps"] / p["tps"], iv["replicates"],
                     iv["df"], "contains" if inside else "MISSES  ", el))
            # what one calibrated run said before (its within-run interval)
            first = next((q for q in mine_reps if q.get("ci95_tps") is not None and counts(q)), None)
            if first:
                n_all1 += 1
                n_in1 += abs(first["tps"] - ref) <= first["ci95_tps"]
    if n_all:
        print("intervals containing the reference: %d of %d = %s (goal >= 90 %%)" % (n_in, n_all, pct(n_in / n_all)))
        if n_all1:
            print("  (the first replicate's own within-run interval, as one calibrated run stated it "
                  "before: %d of %d = %s)" % (n_in1, n_all1, pct(n_in1 / n_all1)))
        print("median |error| %s, median stated half-width %s" % (pct(statistics.median(abs(e) for e in errs)),
                                                                 pct(statistics.median(rel))))
        print("time: calibrated points %.0f s in all (%.1f s each), fixed runs %.0f s (%.1f s each)"
              % (t_cal, t_cal / n_all, t_fix, t_fix / max(1, dfree + len(cfgs))))
    if dfree:
        print("noise floor: the fixed %.0f s runs' pooled run-to-run CV %s (%d df)"
              % (statistics.mean(p["duration_s"] for p in pts if kind(p) == "fix"),
                 pct((sq / dfree) ** 0.5), dfree))
    if floors:
        floors.sort(key=lambda f: f[0])
        last = floors[-1][1]
        print("noise floor: the server's, over its earlier replicated levels: %d of %d points had one; "
              "%d took its interval from it (wider than their own); at the last point CV %s, between "
              "runs %s (%d levels, %.0f df)"
              % (len(floors), n_all, sum(f[2] == "the server's noise floor" for f in floors),
                 pct(last["run_to_run_cv"]), pct(last["between_cv"]), last["levels"], last["df"]))
    if rtr:
        print("noise floor: the passes' run-to-run CV between replicates, median %s (range %s .. %s) over %d points"
              % (pct(statistics.median(rtr)), pct(min(rtr)), pct(max(rtr)), len(rtr)))


def time_figures(res):
    """Each --threads auto curve (time-auto.C.jsonl) against the fixed sweeps (time-fixed.jsonl,
    targets fixedC); time-wall.txt holds "C t0 t1 t2" per curve (curve from t0 to t1, its sweep
    from t1 to t2)."""
    fixed = load(res + "/time-fixed.jsonl")
    walls = {}
    try:
        lines = open(res + "/time-wall.txt").read().splitlines()
    except OSError:
        lines = []
    for i, line in enumerate(lines, 1):
        try:
            c, t0, t1, t2 = line.split()
            walls[c] = (float(t0), float(t1), float(t2))
        except ValueError:
            print("time-wall.txt:%d: expected 'curve t0 t1 t2', got %r: curve left out" % (i, line))
    if not walls or not fixed:
        print("== time: no records")
        return
    ref = {}
    for p in fixed:
        if counts(p) and p.get("tps"):
            ref.setdefault(p["threads"], []).append(p["tps"])
    print("== time: oltp_read_write --threads auto in passes vs the same levels as fixed %s runs"
          % ("%.0f s" % fixed[0]["duration_s"]))
    print("   (reference: the mean of every fixed run of the level, one per sweep, the sweeps "
          "minutes apart)")
    inside = n = within5 = n_levels = 0
    t_auto = t_sweep = 0.0
    rtr = []
    for c in sorted(walls, key=int):
        auto = load(res + "/time-auto.%s.jsonl" % c)
        t0, t1, t2 = walls[c]
        levels = {p["threads"]: p for p in auto if method(p) == "replicates"}
        for p in auto:
            if method(p) != "replicates" and p["threads"] not in levels and counts(p):
                levels[p["threads"]] = p
        reps = [p for p in auto if method(p) == "within_run"]
        swept = len({p["threads"] for p in auto})
        print("curve %s: %d levels, %d replicates, %.0f s; its sweep %d x %.0f s runs %.0f s: "
              "ratio %.3f" % (c, len(levels), len(reps), t1 - t0, swept,
                              fixed[0]["duration_s"], t2 - t1, (t1 - t0) / (t2 - t1)))
        t_auto += t1 - t0
        t_sweep += t2 - t1
        for th in sorted(levels):
            p = levels[th]
            iv = (p.get("extra") or {}).get("interval") or {}
            h = p.get("ci95_tps")
            f = ref.get(th)
            m = statistics.mean(f) if f else None
            ok = m is not None and h is not None and abs(p["tps"] - m) <= h
            if m is not None and h is not None:
                n += 1
                inside += ok
            n_levels += 1
            within5 += h is not None and h / p["tps"] <= 0.05 + 1e-9
            print("  %3d threads: %9.1f tps +/- %s (%s, %s replicates)   reference %s (%d runs)  "
                  "error %s   %s"
                  % (th, p["tps"], pct(h / p["tps"]) if h else "?",
                     iv.get("noise", iv.get("method", "?")), iv.get("replicates", 1),
                     "%9.1f" % m if m else "-", len(f or []),
                     "%+.1f %%" % (100 * (p["tps"] - m) / m) if m else "-",
                     "contains" if ok else "misses" if m else ""))
        cv = [((p.get("extra") or {}).get("interval") or {}).get("run_to_run_cv") for p in auto]
        cv = [x for x in cv if x is not None]
        if cv:
            rtr.append(cv[-1])
    print("levels within +/- 5 %%: %d of %d; intervals containing the reference: %d of %d"
          % (within5, n_levels, inside, n))
    print("time (wall): %d curves %.0f s, their sweeps %.0f s: ratio %.3f (goal <= 0.3)"
          % (len(walls), t_auto, t_sweep, t_auto / t_sweep if t_sweep else float("nan")))
    spread = [statistics.stdev(v) / statistics.mean(v) for v in ref.values() if len(v) >= 2]
    if spread:
        print("noise floor: the fixed runs of a level differ by a CV of median %s (%d levels)"
              % (pct(statistics.median(spread)), len(spread)))
    if rtr:
        print("noise floor: each curve's passes said run-to-run CV between replicates %s"
              % ", ".join(pct(x) for x in rtr))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--coverage":
        coverage(sys.argv[2])
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--time":
        time_figures(sys.argv[2])
        return
    res, fixed_s, sweep_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    pts = load(res + "/points.jsonl")
    errs, floor, t_cal, t_fix = [], [], 0.0, 0.0
    print("== calibrated points vs fixed %.0f s runs (reference: mean of the fixed runs)" % fixed_s)
    for w in ("oltp_point_select", "oltp_read_write"):
        for th in (4, 16):
            fix = [p for p in pts if p["workload"] == w and p["threads"] == th and p["target"] == "fix"]
            cal = [p for p in pts if p["workload"] == w and p["threads"] == th and p["target"] == "cal"]
            if not fix or not cal:
                continue
            ref = statistics.mean(p["tps"] for p in fix)
            spread = (max(p["tps"] for p in fix) - min(p["tps"] for p in fix)) / ref
            print("%-18s %2d thr: fixed %9.1f tps (n=%d, max-min %.1f %%)" % (w, th, ref, len(fix), 100 * spread))
            for p in cal:
                e = p["tps"] / ref - 1
                errs.append(e)
                c = p["extra"]["calibration"]
                print("    calibrated %9.1f tps  error %+6.1f %%  +/- %5.1f %% (95 %%)  %s  "
                      "warm-up %.2f s  kept %.1f s  elapsed %.1f s"
                      % (p["tps"], 100 * e, 100 * (c["rel95"] or float("nan")),
                         "steady" if p.get("steady") else "NOT steady", p["warmup_s"],
                         p["duration_s"], c["elapsed_s"]))
                t_cal += elapsed(p)
            t_fix += sum(elapsed(p) for p in fix)
            # noise floor: each fixed run against the mean of the other fixed runs
            for i, p in enumerate(fix):
                others = [q["tps"] for j, q in enumerate(fix) if j != i]
                if others:
                    floor.append(p["tps"] / statistics.mean(others) - 1)
    if errs:
        print("median |tps error| %.2f %% over %d calibrated points (goal <= 3 %%)"
              % (100 * statistics.median(abs(e) for e in errs), len(errs)))
        if floor:
            print("noise floor: median |fixed run / mean of the other fixed runs - 1| %.2f %% "
                  "over %d fixed runs" % (100 * statistics.median(abs(e) for e in floor), len(floor)))
        steady = [p for p in pts if p["target"] == "cal" and p.get("steady")]
        print("calibrated points steady (precision reached before --max-time): %d of %d"
              % (len(steady), len(errs)))
        print("time ratio calibrated/fixed %.3f (%.0f s / %.0f s; goal <= 0.15)"
              % (t_cal / t_fix, t_cal, t_fix))
    auto, dense = load(res + "/auto.jsonl"), load(res + "/dense.jsonl")
    if auto and dense:
        ta, td = sum(elapsed(p) for p in auto), sum(elapsed(p) for p in dense)
        print("== ladder --threads auto vs dense fixed sweep (oltp_read_write)")
        print("auto levels: %s" % ", ".join("%d:%.0f%s" % (p["threads"], p["tps"], "" if p.get("steady") else "*")
                                             for p in auto))
        print("   (* = not steady: stopped at --max-time)")
        print("dense levels: %s" % ", ".join("%d:%.0f" % (p["threads"], p["tps"]) for p in dense))
        print("time: auto %.0f s, dense %.0f s (%d x %.0f s): ratio %.3f; against a sweep of %d x 60 s: %.3f"
              % (ta, td, len(dense), sweep_s, ta / td, len(dense), ta / (60 * len(dense))))
        pa, wa, _ = fit_peak(load(res + "/auto.fit.jsonl"))
        pd, wd, _ = fit_peak(load(res + "/dense.fit.jsonl"))
        ma, md = max(p["tps"] for p in auto), max(p["tps"] for p in dense)
        if pa and pd:
            print("fitted peak throughput: auto %.1f (%s), dense %.1f (%s): difference %+.1f %%"
                  % (pa, wa, pd, wd, 100 * (pa / pd - 1)))
        print("highest measured tps: auto %.1f, dense %.1f: difference %+.1f %%" % (ma, md, 100 * (ma / md - 1)))


if __name__ == "__main__":
    main()
