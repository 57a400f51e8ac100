#!/usr/bin/env python3
"""calib_report.py RESULTS_DIR FIXED_S SWEEP_S - the figures of bench/run-calib.sh."""
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


def main():
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
