#!/usr/bin/env python3
"""calib_fixture.py COVERAGE.jsonl OUT.jsonl - real tick series of this host as a test fixture.

From the records of `bench/run-calib.sh --only coverage` (calibrated points measured in passes
and fixed runs, interleaved): one line per configuration (workload, threads) with the fixed
runs' tps (the reference: what independent reruns measured) and every calibrated replicate's
250 ms tick throughputs, in the order they were measured, with its start, its limit and its
wall time. tests/advisor/test_passes.c replays them through the within-run rule and the passes.
"""
import json
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    recs = [json.loads(l) for l in open(src) if l.strip()]
    bad = {"interrupted", "partial", "stalled", "reconnects"}
    cfgs = {}
    for p in recs:
        if p.get("incomplete") or bad & set(p.get("flags") or []):
            continue
        c = cfgs.setdefault((p["workload"], p["threads"]), {"fixed_tps": [], "runs": []})
        iv = (p.get("extra") or {}).get("interval") or {}
        if p["target"].startswith("fix-"):
            c["fixed_tps"].append(round(p["tps"], 3))
        elif iv.get("method") == "within_run":
            cal = p["extra"]["calibration"]
            c["runs"].append({"started_at": p["started_at"], "max_time_s": cal["max_time_s"],
                              "elapsed_s": round(cal["elapsed_s"], 3),
                              "ticks": [round(s["tps"], 1) for s in p["series"]]})
    with open(dst, "w") as f:
        for (w, th), c in sorted(cfgs.items()):
            c["runs"].sort(key=lambda r: r["started_at"])
            f.write(json.dumps({"workload": w, "threads": th, "tick_s": 0.25,
                                "source": "bench/run-calib.sh --only coverage on the 2-core build "
                                          "host, MariaDB 10.11 on 127.0.0.1:33188, 4 x 50000 rows",
                                "fixed_s": 60, "fixed_tps": c["fixed_tps"], "runs": c["runs"]}) + "\n")


if __name__ == "__main__":
    main()
