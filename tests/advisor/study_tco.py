#!/usr/bin/env python3
"""A study's horizon, discount rate, like for like and where its decision flips (advisor/decide/tco.h).

A study of imported candidates only (no server: the four configurations of the published
IDC-versus-cloud table, data/published/rds-idc-vs-cloud-4c16g.csv, priced by
data/catalogs/published.json) with "horizon": "3y", "discount_rate": 0.07 must give in
OUTPUT/ranking.jsonl the same horizon (36 months at 7 %), NPVs, decision (winner, runner-up,
advantage, every estimated input's break-even value and sensitivity) as `sizeup rank` given the
same points and --horizon 3y --discount-rate 0.07; its ranking.txt prints the horizon table
and the break-even line, its report.html the section with the tornado chart, its report.md the decision section
(advisor/decide/decision.h) with the study's horizon. "ha_standby": 1
prices a standby copy of every configuration that is not highly available, as --ha-standby 1
(idc-nvme's cost per hour doubles). A horizon shorter than a month, a rate above 1 and a
negative standby count are refused at load with file:line:col and exit 3 (bad input, as every
error of a study file), before anything is written.
The NPV arithmetic itself is checked by hand in tests/catalogs/test_cost.c.
"""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.environ["SIZEUP_BIN"]
SRC = os.path.abspath(os.environ.get("SIZEUP_SOURCE_DIR", "."))
CSV = os.path.join(SRC, "data/published/rds-idc-vs-cloud-4c16g.csv")
CAT = os.path.join(SRC, "data/catalogs/published.json")
CONFIGS = ("idc-nvme", "cloud-local-ssd", "cloud-essd", "cloud-ssd")
fails = 0


def check(cond, what):
    global fails
    if not cond:
        fails += 1
        print("FAIL:", what)


def study_text(out, extra):
    """The study file, one key per line (the error positions below count on it)."""
    lines = ['{', '  "schema": "sizeup.study/1",', '  "candidates": [']
    for i, c in enumerate(CONFIGS):
        lines.append('    {"config": "%s", "results": ["%s"]}%s' % (c, CSV, "," if i < 3 else ""))
    lines += ['  ],', '  "workloads": {"oltp_legacy": 1},', '  "slo": "avg:20ms",',
              '  "catalogs": ["%s"],' % CAT]
    for k, v in extra:
        lines.append('  "%s": %s,' % (k, json.dumps(v)))
    lines += ['  "output": "%s"' % out, '}']
    return "\n".join(lines) + "\n"


def run_study(tmp, name, extra):
    path = os.path.join(tmp, name + ".json")
    out = os.path.join(tmp, name + "-out")
    open(path, "w").write(study_text(out, extra))
    p = subprocess.run([BIN, "study", path], capture_output=True, text=True, cwd=tmp)
    return p, path, out


def ranking(out):
    return [json.loads(l) for l in open(os.path.join(out, "ranking.jsonl")) if l.strip()]


def rank_json(*extra):
    p = subprocess.run([BIN, "rank", "--json", "--points", CSV, "--catalog", CAT, "--slo",
                        "avg:20ms", *extra], capture_output=True, text=True)
    check(p.returncode == 0, "rank exit %d: %s" % (p.returncode, p.stderr))
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def close(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return a == b


def main():
    tmp = tempfile.mkdtemp(prefix="sizeup-study-tco-")
    p, path, out = run_study(tmp, "s", [("horizon", "3y"), ("discount_rate", 0.07)])
    check(p.returncode == 0, "study exit %d: %s" % (p.returncode, p.stderr[-800:]))
    got = {r["config"]: r for r in ranking(out)}
    want = {r["config"]: r for r in rank_json("--horizon", "3y", "--discount-rate", "0.07")}
    check(set(got) == set(CONFIGS), "study ranks %s" % sorted(got))
    top = [r for r in got.values() if r.get("rank") == 1]
    check(len(top) == 1 and top[0]["config"] == "idc-nvme", "idc-nvme first")
    for c in CONFIGS:
        g, w = got.get(c, {}), want[c]
        check(g.get("horizon", {}).get("months") == 36 and
              close(g.get("horizon", {}).get("discount_rate"), 0.07),
              "%s: horizon %s, expected 36 months at 0.07" % (c, g.get("horizon")))
        for key in ("horizon", "decision", "cost_per_hour", "break_even_cost_per_hour",
                    "power_load", "utilisation_at_target"):
            check(close(g.get(key), w.get(key)),
                  "%s: study %s %s, rank gives %s" % (c, key, g.get(key), w.get(key)))
    d = top[0].get("decision", {}) if top else {}
    check(d.get("against") == "cloud-local-ssd" and d.get("advantage", 0) > 1,
          "decision against %s, advantage %s" % (d.get("against"), d.get("advantage")))
    check(sum(1 for i in d.get("inputs", []) if i.get("break_even") is not None) >= 5,
          "at least 5 break-even values")
    txt = open(os.path.join(out, "ranking.txt")).read()
    check("over 36 months (--horizon) at 7 %/y, net present value:" in txt, "ranking.txt horizon")
    check("where it flips: idc-nvme leads cloud-local-ssd" in txt, "ranking.txt break-even line")
    check("sensitivity: idc-nvme's lead" in txt, "ranking.txt sensitivity")
    check(txt in p.stdout, "the study prints its ranking.txt")
    md = open(os.path.join(out, "report.md")).read()
    check("\n## Decision\n" in md and "- Where it flips: on-premises idc-nvme stays cheaper per "
          "tps than cloud-local-ssd unless" in md and "- Over 36 months at 7 %/y" in md,
          "report.md has the decision section with the study's horizon")
    html = open(os.path.join(out, "report.html")).read()
    check("Cost over time and where the decision flips" in html and "<svg" in html,
          "report.html has the horizon and tornado section")

    # like for like: a standby copy for every configuration that is not HA
    p, path, out = run_study(tmp, "sb", [("ha_standby", 1)])
    check(p.returncode == 0, "study ha_standby exit %d: %s" % (p.returncode, p.stderr[-800:]))
    sb = {r["config"]: r for r in ranking(out)}
    base = {r["config"]: r for r in rank_json()}
    check(close(sb["idc-nvme"]["cost_per_hour"], 2 * base["idc-nvme"]["cost_per_hour"]) and
          sb["idc-nvme"]["standby_added"] == 1,
          "ha_standby 1 doubles idc-nvme: %s vs %s" % (sb["idc-nvme"]["cost_per_hour"],
                                                      base["idc-nvme"]["cost_per_hour"]))
    # the default horizon: the owned server's amortisation period, 60 months at 5 %
    check(sb["idc-nvme"]["horizon"]["months"] == 60 and
          close(sb["idc-nvme"]["horizon"]["discount_rate"], 0.05), "default horizon")

    # bad values: refused at load with the file's position, nothing written
    n_cand = len(CONFIGS)
    line = 3 + n_cand + 1 + 3 + 1  # '{', schema, candidates, the candidates, ']', 3 keys
    for key, val, col, what in (("horizon", "0.5m", 14, "expected whole months"),
                                ("horizon", "3x", 14, "is not a horizon"),
                                ("discount_rate", 2, 20, "an annual rate from 0 to 1"),
                                ("ha_standby", -1, 17, "standby copies from 0 to 100")):
        p, path, out = run_study(tmp, "bad", [(key, val)])
        where = "%s:%d:%d: $.%s:" % (path, line, col, key)
        check(p.returncode == 3 and where in p.stderr and what in p.stderr,
              "%s %r: exit %d, stderr %r (expected %r ... %r)" % (key, val, p.returncode,
                                                                  p.stderr, where, what))
        check(not os.path.exists(out), "%s %r: the output folder was created" % (key, val))
    print("ok" if not fails else "%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
