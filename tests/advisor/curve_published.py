#!/usr/bin/env python3
"""Every curve of every published table (data/published/*.csv), checked against the points
themselves (issue 11), with the rules written out here rather than read back from sizeup:

Levels: the points of one (target, workload) at one x are pooled: mean tps, and a 95 % half-width
from the curve's run-to-run noise (models/noise.h; the tables carry no within-run intervals): the
relative variance s^2 = sum over levels with r >= 2 of sum (x / mean - 1)^2, over nu = sum (r - 1);
every level's half-width t(0.975, nu) mean s / sqrt(r) (t from the standard table); unknown when
no level of the curve has replicates. Outlier levels (models/noise.h) first: while three or more
replicated levels are in, the one with the largest s_i^2 = ss_i / (r_i - 1) is left out of the
pool when s_i^2 over the rest's pooled variance (> 0, with >= 2 df) exceeds the F quantile
F(1 - 0.01 / k; r_i - 1, rest df), k the levels in; and a level whose s_i^2 over the pool's
exceeds F(1 - 0.01 / K; r_i - 1, nu) (K every replicated level) has the half-width
t(0.975, r_i - 1) mean s_i / sqrt(r_i) when that is wider (F and t from tests/tdist.py).
Noise of a level: its half-width when the curve's replicates gave one (it includes the
run-to-run noise), else 5 % of its mean. Two levels differ beyond the noise when
|X_a - X_b| > sqrt(e_a^2 + e_b^2).

Shape (the documented rule, models/shape.h), in order, b = the level with the most throughput:
  collapse  neighbours with log-log slope ln(X2/X1)/ln(x2/x1) < -2 and a drop > 3 x the noise
  falling   X_b - X_last beyond the noise, b the first level
  peaked    X_b - X_last beyond the noise, b later
  rising    X_last - X_(last-1) beyond the noise
  plateau   otherwise
  superlinear start: X_1 - (x_1/x_0) X_0 > sqrt(e_1^2 + (x_1/x_0)^2 e_0^2)

Checked per curve (`sizeup fit --json`): the shape and the superlinear start match; a peaked,
falling or collapsing curve reports a peak, and every reported peak lies between the measured
levels next to the best one (below the second level when the best is the first); no curve the
points show falling or collapsing is called a plateau; a model with R^2 < 0.9 and a largest
relative residual > 5 % is never presented as describing the points without saying so (either
"no model describes the points", or the point that is off named in the text).

Ranking invariants (`sizeup rank --json`, per table, workload and latency statistic the table
carries (avg also by Little's law R = N / X where it has no latency), at targets below, inside and
above the measured latency range), for every configuration that meets the target:
  1. the figure lies inside its own 95 % interval;
  2. it is never below a measured level that meets the target beyond that level's half-width
     (levels beyond a collapse excepted: nothing beyond a cliff is ranked); and when some level
     in range meets the target the configuration is ranked;
  3. it is never above the highest level mean unless labelled extrapolated;
  4. without --extrapolate nothing is extrapolated and the concurrency never exceeds the largest
     measured level; when every level meets the target the figure is the best level's.
"""
import collections
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tdist  # noqa: E402  (tests/tdist.py)

BIN = os.environ["SIZEUP_BIN"]
SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
TABLES = ["rds-idc-vs-cloud-4c16g.csv", "seekdb-4c8g-1c2g.csv", "monosql-scaleout-c5-2xlarge.csv",
          "klustron-3node-32c128g.csv", "klustron-tpcc-500wh.csv", "aws-ec2-oltp-ro-c5-c5a-c6g.csv"]
CATALOGS = ["data/catalogs/published.json", "data/catalogs/aws-us-east-1.json"]
T975 = {1: 12.7062, 2: 4.30265, 3: 3.18245, 4: 2.77645, 5: 2.57058, 6: 2.44691, 7: 2.36462,
        8: 2.30600, 9: 2.26216, 10: 2.22814, 11: 2.20099, 12: 2.17881, 13: 2.16037, 14: 2.14479,
        15: 2.13145, 16: 2.11991, 17: 2.10982, 18: 2.10092, 19: 2.09302, 20: 2.08596,
        21: 2.07961, 22: 2.07387, 23: 2.06866, 24: 2.06390, 25: 2.05954, 26: 2.05553,
        27: 2.05183, 28: 2.04841, 29: 2.04523, 30: 2.04227}
NOISE = 0.05
fails = 0
checked = collections.Counter()


def check(cond, what):
    global fails
    checked["checks"] += 1
    if not cond:
        fails += 1
        print("FAIL:", what)


def run(args):
    out = subprocess.run([BIN] + args, capture_output=True, text=True, cwd=SRC)
    return out


def import_points(table):
    out = run(["import", os.path.join("data/published", table)])
    check(out.returncode == 0, "%s: import exit %d: %s" % (table, out.returncode, out.stderr))
    return [json.loads(l) for l in out.stdout.splitlines()]


def statistic(p, stat):
    lat = p.get("latency_ms", {})
    return lat.get(stat)


def levels(points, xkey, stat=None):
    """[(x, mean tps, half-width or None, mean latency of stat or None)] sorted by x."""
    g = collections.defaultdict(list)
    for p in points:
        g[p[xkey]].append(p)
    out = []
    rep = {}  # x -> (sum of squared relative deviations, df)
    for x in g:
        v = [p["tps"] for p in g[x]]
        check(all("ci95_tps" not in p for p in g[x]), "published points carry no ci95_tps")
        if len(v) >= 2:
            m = sum(v) / len(v)
            rep[x] = (sum((t / m - 1) ** 2 for t in v), len(v) - 1)
    inn = dict(rep)
    while len(inn) >= 3:
        w = max(inn, key=lambda x: inn[x][0] / inn[x][1])
        rest_ss = sum(a for x, (a, d) in inn.items() if x != w)
        rest_df = sum(d for x, (a, d) in inn.items() if x != w)
        if rest_ss <= 0 or rest_df < 2 or not (
                (inn[w][0] / inn[w][1]) / (rest_ss / rest_df) >
                tdist.f_quantile_upper(0.01 / len(inn), inn[w][1], rest_df)):
            break
        del inn[w]
    ss, nu = sum(a for a, d in inn.values()), sum(d for a, d in inn.values())
    s = math.sqrt(ss / nu) if nu else None
    for x in sorted(g):
        v = [p["tps"] for p in g[x]]
        r, m = len(v), sum(v) / len(v)
        h = T975[nu] * m * s / math.sqrt(r) if nu else None
        if nu and x in rep and s > 0:
            own = rep[x][0] / rep[x][1]
            if own / s ** 2 > tdist.f_quantile_upper(0.01 / len(rep), rep[x][1], nu) and own > s ** 2:
                h = tdist.t975(rep[x][1]) * m * math.sqrt(own / r)
        lat = None
        if stat:
            ls = [statistic(p, stat) for p in g[x] if statistic(p, stat) is not None]
            lat = sum(ls) / len(ls) if ls else None
        out.append((x, m, h, lat))
    return out


def noise(lv):
    # a half-width from pooled replicates includes the run-to-run noise: taken as it is;
    # without one, a single run's 5 % (models/shape.h)
    return lv[2] if lv[2] is not None else NOISE * lv[1]


def shape(L):
    m = len(L)
    d = lambda a, b: math.hypot(noise(L[a]), noise(L[b]))
    sup = False
    if m >= 2:
        r = L[1][0] / L[0][0]
        sup = L[1][1] - r * L[0][1] > math.hypot(noise(L[1]), r * noise(L[0]))
    if m == 1:
        return "single level", sup, None
    for i in range(m - 1):
        slope = math.log(L[i + 1][1] / L[i][1]) / math.log(L[i + 1][0] / L[i][0])
        if slope < -2 and L[i][1] - L[i + 1][1] > 3 * d(i, i + 1):
            return "collapse", sup, i
    b = max(range(m), key=lambda i: (L[i][1], -i))
    if L[b][1] - L[-1][1] > d(b, m - 1):
        return ("falling" if b == 0 else "peaked"), sup, None
    if L[-1][1] - L[-2][1] > d(m - 2, m - 1):
        return "rising", sup, None
    return "plateau", sup, None


def curves(points):
    c = collections.OrderedDict()
    for p in points:
        c.setdefault((p["target"], p["workload"]), []).append(p)
    return c


def xkey_of(pts):
    """The rank x axis: nodes when every point has >= 2 distinct node counts, else threads."""
    if all("nodes" in p for p in pts) and len({p["nodes"] for p in pts}) >= 2:
        return "nodes"
    return "threads"


# --- shapes and peaks: sizeup fit --json ------------------------------------------------------
for table in TABLES:
    pts = import_points(table)
    fit = run(["fit", "--json", os.path.join("data/published", table)])
    check(fit.returncode == 0, "%s: fit exit %d: %s" % (table, fit.returncode, fit.stderr))
    recs = {(r["target"], r["workload"]): r for r in map(json.loads, fit.stdout.splitlines())}
    for key, cp in curves(pts).items():
        L = levels(cp, "threads")
        cls, sup, _ = shape(L)
        rec = recs.get(key)
        check(rec is not None, "%s: %s / %s not fitted" % (table, *key))
        if rec is None:
            continue
        cv = rec["curve"]
        checked["curves"] += 1
        check(cv["shape"] == cls, "%s: %s / %s: shape %s, the points show %s" % (table, *key, cv["shape"], cls))
        check(cv["superlinear_start"] == sup, "%s: %s / %s: superlinear start %s, the points %s" % (table, *key, cv["superlinear_start"], sup))
        if cls in ("falling", "collapse"):
            check("plateau" not in cv["shape_text"], "%s: %s / %s: a %s curve called a plateau" % (table, *key, cls))
        b = max(range(len(L)), key=lambda i: (L[i][1], -i))
        lo = L[b - 1][0] if b > 0 else 0
        hi = L[b + 1][0] if b + 1 < len(L) else math.inf
        if cls in ("peaked", "falling", "collapse"):
            check(cv["peak"] is not None, "%s: %s / %s: a %s curve without a peak" % (table, *key, cls))
        if cv["peak"] is not None:
            x = cv["peak"]["x"]
            check(lo <= x <= hi, "%s: %s / %s: peak at %g outside [%g, %g] around the best level %g" % (table, *key, x, lo, hi, L[b][0]))
        if rec.get("model") is not None:
            worst = max(abs(r["resid"]) / r["y"] for r in rec["residuals"])
            if rec.get("r2") is not None and rec["r2"] < 0.9 and worst > 0.05:
                # said: either no model is used, or the text names the point that is off
                check((not cv["model_used"] and "no model describes" in cv["model_text"]) or
                      ("a single point is off by %.1f %%" % (100 * worst)) in cv["model_text"],
                      "%s: %s / %s: R^2 %.3f and a %.1f %% residual, not said" % (table, *key, rec["r2"], 100 * worst))


# --- ranking invariants: sizeup rank --json ---------------------------------------------------
def rank(table, workload, slo, extra=()):
    args = ["rank", "--json", "--points", os.path.join("data/published", table), "--workload", workload, "--slo", slo]
    for c in CATALOGS:
        args += ["--catalog", c]
    out = run(args + list(extra))
    check(out.returncode in (0, 3), "%s %s %s: rank exit %d: %s" % (table, workload, slo, out.returncode, out.stderr))
    return [json.loads(l) for l in out.stdout.splitlines()]


for table in TABLES:
    pts = import_points(table)
    by_wl = collections.defaultdict(list)
    for p in pts:
        by_wl[p["workload"]].append(p)
    for wl, wpts in by_wl.items():
        stats = [s for s in ("avg", "p95", "p99") if any(statistic(p, s) is not None for p in wpts)]
        little = not stats
        if little:
            stats = ["avg"]
        for stat in stats:
            per_target = {}
            lats = []
            for key, cp in curves(wpts).items():
                xk = xkey_of(cp)
                L = levels(cp, xk, None if little else stat)
                if little:
                    L = [(x, m, h, x / m * 1e3) for x, m, h, _ in L]
                per_target[key[0]] = (xk, L)
                lats += [l[3] for l in L if l[3] is not None]
            if not lats:
                continue
            lo, hi = min(lats), max(lats)
            targets = [lo * 0.5, math.sqrt(lo * hi), lo + 0.25 * (hi - lo), lo + 0.75 * (hi - lo), hi * 2]
            for t in targets:
                slo = "%s:%.6gms" % (stat, t)
                for r in rank(table, wl, slo):
                    cfg = r["config"]
                    if cfg not in per_target:
                        continue
                    xk, L = per_target[cfg]
                    cls, _, col = shape(L)
                    in_range = L[: col + 1] if cls == "collapse" else L
                    ok = [l for l in in_range if l[3] is not None and l[3] <= t]
                    checked["rows"] += 1
                    what = "%s %s %s %s" % (table, wl, slo, cfg)
                    if r["status"] == "met":
                        tps = r["tps"]["value"]
                        ci = r["tps"].get("ci95")
                        check(ci is not None and ci[0] <= tps <= ci[1], "%s: %g outside its interval %s" % (what, tps, ci))
                    if xk == "nodes":
                        # a scale-out row is read at the configuration's node count: the level
                        # there when it was measured
                        lv = [l for l in L if l[0] == r["nodes"]]
                        if r["status"] == "met" and lv:
                            check(abs(r["tps"]["value"] - lv[0][1]) <= 1e-9 * lv[0][1], "%s: not the level at %d nodes" % (what, r["nodes"]))
                        continue
                    if ok:
                        check(r["status"] == "met", "%s: a level meets the target, status %s" % (what, r["status"]))
                    if r["status"] != "met":
                        continue
                    for x, m, h, _ in ok:
                        hw = h if h is not None else NOISE * m
                        check(tps >= m - hw - 1e-9 * m, "%s: %g below the level %g at %s %g (+/- %g) that meets the target" % (what, tps, m, xk, x, hw))
                    top = max(l[1] for l in L)
                    check(r["basis"] == "extrapolated" or tps <= top * (1 + 1e-9), "%s: %g above the highest level %g and not extrapolated" % (what, tps, top))
                    check(r["basis"] != "extrapolated", "%s: extrapolated without --extrapolate" % what)
                    check(r["at"] <= L[-1][0] * (1 + 1e-12), "%s: at %g past the largest level %g" % (what, r["at"], L[-1][0]))
                    if len(ok) == len(L):
                        best = max(l[1] for l in L)
                        check(abs(tps - best) <= 1e-9 * best, "%s: every level meets the target, %g is not the best %g" % (what, tps, best))

print("%d curves, %d ranked rows, %d checks, %d failed" % (checked["curves"], checked["rows"], checked["checks"], fails))
sys.exit(1 if fails else 0)
