#!/usr/bin/env python3
"""Score transfer on the published AWS table (issue 26 item 6; docs/predict.md "Across
families with CPU scores").

Computed here from the sources, independently of sizeup: each size's measured peak (the highest
mean tps over its thread levels, runs averaged, from data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv)
and each instance's per-core score (data/scores/aws-sparecores.json: single, or all / vcpu).
Checked for every BENCH.KIND of the score file's calibration:

- `predict --calibrate-transfer --json` predicts each of c5, c5a, c6g from each other family
  (34 pairs: every measured size of a family from each of the two others), with the measured
  peak this script computes and the ratio of the target instance's score to the median score of
  the source family's sizes;
- the 95 % bound is the split-conformal order statistic (the ceil(0.95 (n+1))-th smallest
  |measured / predicted - 1|) of those pairs, and it equals the score file's calibration entry;
- the intervals `--transfer F=G:score:SPEC` states (predict --json ci95_tps at the peak level)
  contain the measured peaks at the rate the calibration claims: at least 95 % of the pairs
  minus a sampling slack of 2 binomial standard deviations (sqrt(0.95 x 0.05 / n)). In this
  sample the bound is the largest error, so every pair is inside: the check is that the
  interval sizeup states is no narrower than the calibrated one;
- a family without a score is said and not predicted;
- `rank --predict --transfer m6i=c5:score:SPEC --scores FILE` ranks the m6i sizes with intervals
  no narrower than the calibrated error (the ranking's 95 % interval holds the level's), and
  refuses a score rule without --scores (exit 2).
"""
import collections
import csv
import json
import math
import os
import statistics
import subprocess
import sys

SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
BIN = os.environ.get("SIZEUP_BIN", os.path.join(SRC, "build/sizeup"))
CSV = os.path.join(SRC, "data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv")
CAT = os.path.join(SRC, "data/catalogs/aws-us-east-1.json")
SCORES = os.path.join(SRC, "data/scores/aws-sparecores.json")
failed = 0


def check(cond, msg):
    global failed
    if not cond:
        failed += 1
        print("FAIL: " + msg)


def run(*args):
    r = subprocess.run([BIN, "predict", "--points", CSV, "--catalog", CAT, "--scores", SCORES,
                        *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


by = collections.defaultdict(lambda: collections.defaultdict(list))
with open(CSV) as f:
    for row in csv.DictReader(l for l in f if not l.startswith("#")):
        by[row["target"]][int(row["threads"])].append(float(row["tps"]))
peak = {t: max(statistics.mean(v) for v in lv.values()) for t, lv in by.items()}
fam_of = lambda t: t.split(".")[0]
sc = json.load(open(SCORES))


def per_core(server, spec):
    bench, kind = spec.rsplit(".", 1)
    for r in sc["scores"]:
        if r["server"] == server and r["benchmark"] == bench:
            return r["single"] if kind == "single" else r["all"] / r["vcpu"]
    return None


for cal in sc["calibration"]:
    spec = cal["spec"]
    rc, out, err = run("--calibrate-transfer", spec, "--json")
    check(rc == 0, f"{spec}: exit {rc}: {err}")
    res = json.loads(out)
    pairs = res["pairs"]
    check({(p["config"], p["from"]) for p in pairs} ==
          {(t, g) for t in peak for g in {fam_of(x) for x in peak} if g != fam_of(t)},
          f"{spec}: pairs are every measured size from each other family")
    check(len(pairs) == 34, f"{spec}: {len(pairs)} pairs, expected 34")
    for p in pairs:
        check(abs(p["measured_peak"] - peak[p["config"]]) <= 1e-6 * peak[p["config"]],
              f"{spec} {p['config']}: measured peak {p['measured_peak']} != {peak[p['config']]}")
        src = sorted(per_core(t, spec) for t in peak if fam_of(t) == p["from"])
        ratio = per_core(p["config"], spec) / statistics.median(src)
        check(abs(p["ratio"] - ratio) <= 1e-9 * ratio, f"{spec} {p['config']} from {p['from']}: "
              f"ratio {p['ratio']} != {ratio}")
        check(abs(p["error"] - abs(peak[p["config"]] / p["predicted_peak"] - 1)) < 1e-9,
              f"{spec} {p['config']}: error")
    errs = sorted(abs(peak[p["config"]] / p["predicted_peak"] - 1) for p in pairs)
    k = math.ceil(0.95 * (len(errs) + 1))
    bound = errs[k - 1] if k <= len(errs) else None
    check(bound is not None and abs(res["rel_error"] - bound) < 1e-9,
          f"{spec}: bound {res['rel_error']} != {bound}")
    check(abs(cal["rel_error"] - bound) < 5e-4 and cal["coverage"] == 0.95,
          f"{spec}: the score file's calibration {cal['rel_error']} is not the measured {bound}")

    # the stated intervals: every pair as the user would run it, F from G through the scores
    inside = n = 0
    for p in pairs:
        sub = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"xfer-{os.getpid()}.csv")
        with open(CSV) as fi, open(sub, "w") as fo:
            for l in fi:
                if l.startswith("#") or l.startswith("target,") or fam_of(l.split(",")[0]) == p["from"]:
                    fo.write(l)
        r = subprocess.run([BIN, "predict", "--points", sub, "--catalog", CAT, "--scores", SCORES,
                            "--transfer", f"{p['family']}={p['from']}:score:{spec}", "--json",
                            "--threads", ",".join(str(x) for x in sorted(by[p["config"]]))],
                           capture_output=True, text=True)
        os.unlink(sub)
        recs = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
        mine = [x for x in recs if x.get("config", x.get("target")) == p["config"]]
        check(mine, f"{spec} {p['config']} from {p['from']}: not predicted ({r.stderr.strip()})")
        if not mine:
            continue
        top = max(mine, key=lambda x: x["tps"])
        tr = top["extra"]["prediction"]["transfer"]
        check(tr["ratio_source"] == "score" and tr["score"] == spec and
              abs(tr["ratio_error"] - cal["rel_error"]) < 1e-12,
              f"{spec} {p['config']}: transfer block {tr}")
        check(top["ci95_tps"] >= cal["rel_error"] * top["tps"] * (1 - 1e-9),
              f"{spec} {p['config']}: interval {top['ci95_tps']} narrower than the calibration")
        n += 1
        inside += abs(peak[p["config"]] - top["tps"]) <= top["ci95_tps"]
    slack = 2 * math.sqrt(0.95 * 0.05 / max(n, 1))
    check(n == 34 and inside / n >= 0.95 - slack,
          f"{spec}: {inside} of {n} measured peaks inside the stated intervals, "
          f"below {0.95 - slack:.3f}")
    print(f"{spec}: bound {bound:.3f}; {inside} of {n} measured peaks inside the stated intervals")

rc, out, err = run("--transfer", "r5=c5:score:geekbench6.single")
check("r5.large (oltp_read_only): not predicted: the score transfer has no CPU score" in out,
      "a family without a score is said, not predicted")
# rank: the same rule through the ranking pipeline
spec = "geekbench6.single"
cal = next(c for c in sc["calibration"] if c["spec"] == spec)
r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--predict", "--transfer",
                    f"m6i=c5:score:{spec}", "--scores", SCORES, "--slo", "p95:50ms", "--json"],
                   capture_output=True, text=True)
rows = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
m6i = [x for x in rows if x["config"].startswith("m6i.") and x.get("status") == "met"]
check(r.returncode == 0 and m6i, f"rank --scores: exit {r.returncode}, m6i rows {len(m6i)}: "
      f"{r.stderr.strip()[:300]}")
for x in m6i:
    v, (lo, hi) = x["tps"]["value"], x["tps"]["ci95"]
    check(v - lo >= cal["rel_error"] * v * (1 - 1e-6) and hi - v >= cal["rel_error"] * v * (1 - 1e-6),
          f"rank: {x['config']} interval [{lo}, {hi}] narrower than +/-"
          f"{cal['rel_error']:.3f} x {v}")
print(f"rank --scores: {len(m6i)} m6i rows, each interval at least +/-{cal['rel_error']:.3f}")
# the text says how those rows were predicted (they read like same-family predictions before)
r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--predict", "--transfer",
                    f"m6i=c5:score:{spec}", "--scores", SCORES, "--slo", "p95:50ms"],
                   capture_output=True, text=True)
want = ("across families: m6i predicted from c5's measured sizes by the ratio of CPU scores\n"
        f"  ({spec}); each row's interval is at least +/-{100 * cal['rel_error']:.1f} %")
check(r.stdout.count(want) == 1, f"rank: the transfer note, once: {want!r} not in the text")
r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--predict", "--transfer",
                    "m6i=c5:score", "--slo", "p95:50ms"], capture_output=True, text=True)
check(r.returncode == 2 and "give --scores FILE" in r.stderr,
      f"rank: a score rule without --scores: exit {r.returncode}, {r.stderr.strip()[:200]}")
# a bad score file: exit 3 with FILE:LINE:COL and the JSON path, nothing ranked
import tempfile
good = json.load(open(SCORES))
cases = [("vcpu 0", lambda d: d["scores"][3].__setitem__("vcpu", 0), "$.scores[3].vcpu"),
         ("unknown key", lambda d: d["scores"][2].__setitem__("colour", "x"),
          "$.scores[2].colour: unknown key"),
         ("coverage 1.5", lambda d: d["calibration"][0].__setitem__("coverage", 1.5),
          "$.calibration[0].coverage"),
         ("a score of 0", lambda d: d["scores"][0].__setitem__("single", 0), "$.scores[0].single"),
         ("another schema", lambda d: d.__setitem__("schema", "sizeup.point/1"), "$.schema"),
         ("a score of 1e308", lambda d: d["scores"][1].__setitem__("single", 1e308),
          "$.scores[1].single"),
         ("a row twice", lambda d: d["scores"].append(dict(d["scores"][0])),
          "$.scores[%d]: a second row of server" % len(good["scores"]))]
for name, edit, want in cases:
    d = json.loads(json.dumps(good))
    edit(d)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fo:
        json.dump(d, fo, indent=1)
    r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--predict", "--transfer",
                        "m6i=c5:score", "--scores", fo.name, "--slo", "p95:50ms"],
                       capture_output=True, text=True)
    os.unlink(fo.name)
    line = [l for l in r.stderr.splitlines() if fo.name in l]
    check(r.returncode == 3 and line and want in line[0] and
          line[0].startswith("sizeup: " + fo.name + ":") and r.stdout == "",
          f"bad score file ({name}): exit {r.returncode}, {line[:1]}")
print(f"bad score files: {len(cases)} refused with their position")

# misuse: exit 2 naming it (a typo'd family was silently unused; an unknown benchmark
# calibrated nothing and exited 0)
misuse = [(["rank", "--points", CSV, "--catalog", CAT, "--predict", "--transfer", "m6i=zz9:score",
            "--scores", SCORES], "no instance of family 'zz9'"),
          (["predict", "--points", CSV, "--catalog", CAT, "--transfer", "zz8=c5:0.9"],
           "no instance of family 'zz8'"),
          (["rank", "--points", CSV, "--catalog", CAT, "--predict", "--scores", SCORES],
           "the scores would change nothing"),
          (["predict", "--points", CSV, "--catalog", CAT, "--scores", SCORES,
            "--calibrate-transfer", "foo.single"], "no single-core scores of benchmark 'foo'"),
          (["predict", "--points", CSV, "--catalog", CAT, "--scores", SCORES,
            "--calibrate-transfer", "geekbench6"], "takes BENCH.single or BENCH.all")]
for args, want in misuse:
    r = subprocess.run([BIN, *args], capture_output=True, text=True)
    check(r.returncode == 2 and want in r.stderr and r.stdout == "",
          f"{' '.join(args[:1] + args[-2:])}: exit {r.returncode}, {r.stderr.strip()[:200]}")
print(f"misuse: {len(misuse)} refused, exit 2")
sys.exit(1 if failed else 0)
