#!/usr/bin/env python3
"""Where the IDC-versus-cloud decision flips, checked by re-ranking (advisor/tco.h).

On the published IDC-versus-cloud table (data/published/rds-idc-vs-cloud-4c16g.csv) with
data/catalogs/published.json at avg <= 20 ms, `sizeup rank --json` gives on its rank-1 record
the break-even value of every estimated input of the winner's and the runner-up's cost. For each
input with a break-even value, a copy of the catalog with that input set just short of it
(0.1 % nearer the catalog's value) must keep the winner first, and a copy with it set just past
it (0.1 % beyond) must put the runner-up first: the order flips between the two.

Like for like: with the cloud-local-ssd configuration marked "ha": true (its price includes a
standby), the ranking says it is not like for like; with --ha-standby 1 every configuration that
is not highly available is priced with one standby copy: idc-nvme's cost per hour doubles
(a copy costs what the configuration costs; to the JSON's 10 digits), the row is marked +sb and the records say
standby_added 1 and like_for_like true.

The horizon: the default is the owned server's amortisation period (5 years: 60 months);
--horizon 3y gives 36.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

BIN = os.environ["SIZEUP_BIN"]
SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
CSV = os.path.join(SRC, "data/published/rds-idc-vs-cloud-4c16g.csv")
CAT = os.path.join(SRC, "data/catalogs/published.json")
fails = 0


def check(cond, what):
    global fails
    if not cond:
        fails += 1
        print("FAIL:", what)


def rank(cat_path, *extra):
    p = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", cat_path, "--slo", "avg:20ms",
                        *extra], capture_output=True, text=True)
    return p


def records(cat_path, *extra):
    p = rank(cat_path, "--json", *extra)
    if p.returncode != 0:
        print(p.stderr)
    check(p.returncode == 0, "rank --json exit %d" % p.returncode)
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def first(recs):
    return [r["config"] for r in recs if r.get("rank") == 1][0]


def set_input(cat, config_id, name, value):
    """Set input `name` of configuration config_id's cost to value (dropping its range)."""
    cf = [c for c in cat["configs"] if c["id"] == config_id][0]
    if "server" in cf:
        s = [x for x in cat["servers"] if x["id"] == cf["server"]][0]
        v = s[name]
        if isinstance(v, dict):
            v.pop("low", None)
            v.pop("high", None)
            v["value" if "value" in v else "amount"] = value
        else:
            s[name] = value
        return
    inst = [x for x in cat["instances"] if x["id"] == cf["instance"]][0]
    if name == "instance":
        p = [x for x in inst["prices"] if x["pricing"] == "on-demand"][0]
        p.pop("low", None)
        p.pop("high", None)
        p["amount"] = value
        return
    if name.startswith("disk "):
        key = {"disk per_gib_month": "per_gib_month"}[name]
        d = [x for x in cat["disks"] if x["id"] == cf["disk"]][0]
        d["prices"][key].pop("low", None)
        d["prices"][key].pop("high", None)
        d["prices"][key]["amount"] = value
        return
    raise KeyError(name)


def main():
    base = json.load(open(CAT))
    tmp = tempfile.mkdtemp(prefix="sizeup-tco-")
    recs = records(CAT)
    top = [r for r in recs if r.get("rank") == 1][0]
    d = top["decision"]
    winner, runner = top["config"], d["against"]
    check(winner == "idc-nvme" and runner == "cloud-local-ssd", "winner %s, runner-up %s" % (winner, runner))
    check(d["like_for_like"] is True, "published.json is like for like (no HA configuration)")
    check(d["advantage"] > 1, "advantage %s > 1" % d["advantage"])
    flipped = 0
    for inp in d["inputs"]:
        be = inp["break_even"]
        if be is None:
            continue
        v0 = inp["value"]
        toward = 1 if be > v0 else -1
        for side, f in (("short of", 1 - 1e-3 * toward), ("past", 1 + 1e-3 * toward)):
            val = be * f if be > 0 else be + 1e-3 * toward
            cat = copy.deepcopy(base)
            set_input(cat, inp["config"], inp["name"], val)
            path = os.path.join(tmp, "cat.json")
            json.dump(cat, open(path, "w"))
            got = first(records(path))
            want = winner if side == "short of" else runner
            check(got == want, "%s %s at %g (%s the break-even %g): %s first, expected %s"
                  % (inp["config"], inp["name"], val, side, be, got, want))
        flipped += 1
    check(flipped >= 5, "%d inputs with a break-even value, expected at least 5" % flipped)
    # the runner-up's instance break-even is the break-even price of the how-sure block
    runner_rec = [r for r in recs if r["config"] == runner][0]
    be_inst = [i for i in d["inputs"] if i["config"] == runner and i["name"] == "instance"]
    check(len(be_inst) == 1 and abs(be_inst[0]["break_even"] - runner_rec["break_even_cost_per_hour"])
          < 1e-6 * runner_rec["break_even_cost_per_hour"],
          "runner-up instance break-even %s = its break_even_cost_per_hour %s"
          % (be_inst and be_inst[0]["break_even"], runner_rec.get("break_even_cost_per_hour")))
    # sensitivity: each ranged input's advantage at low and high, the catalog's value between
    for inp in d["inputs"]:
        if "low" in inp:
            lo, hi = inp["advantage_low"], inp["advantage_high"]
            check(min(lo, hi) - 1e-9 <= d["advantage"] <= max(lo, hi) + 1e-9,
                  "%s: advantage %g not between %g and %g" % (inp["name"], d["advantage"], lo, hi))

    # like for like
    cat = copy.deepcopy(base)
    [c for c in cat["configs"] if c["id"] == "cloud-local-ssd"][0]["ha"] = True
    path = os.path.join(tmp, "ha.json")
    json.dump(cat, open(path, "w"))
    p = rank(path)
    check(p.returncode == 0 and "not like for like" in p.stdout and "--ha-standby 1" in p.stdout,
          "an HA cloud configuration against a single server is flagged: %s" % p.stdout[-600:])
    recs_ha = records(path)
    top_ha = [r for r in recs_ha if r.get("rank") == 1][0]
    check(top_ha["decision"]["like_for_like"] is False, "JSON like_for_like false")
    recs_sb = records(path, "--ha-standby", "1")
    by = {r["config"]: r for r in recs_sb}
    by0 = {r["config"]: r for r in recs_ha}
    check(abs(by["idc-nvme"]["cost_per_hour"] - 2 * by0["idc-nvme"]["cost_per_hour"]) < 1e-9 * by["idc-nvme"]["cost_per_hour"],
          "a standby doubles idc-nvme: %s vs %s" % (by["idc-nvme"]["cost_per_hour"], by0["idc-nvme"]["cost_per_hour"]))
    check(by["idc-nvme"]["standby_added"] == 1 and by["idc-nvme"]["ha"] is True, "standby_added 1")
    check(by["cloud-local-ssd"]["standby_added"] == 0 and
          by["cloud-local-ssd"]["cost_per_hour"] == by0["cloud-local-ssd"]["cost_per_hour"],
          "the HA configuration keeps its price")
    top_sb = [r for r in recs_sb if r.get("rank") == 1][0]
    check(top_sb["decision"]["like_for_like"] is True, "like for like with the standby")
    p = rank(path, "--ha-standby", "1")
    check("+sb" in p.stdout and "not like for like" not in p.stdout, "+sb marks the rows")

    # the horizon
    check(top["horizon"]["months"] == 60, "default horizon %s months" % top["horizon"]["months"])
    top3 = [r for r in records(CAT, "--horizon", "3y") if r.get("rank") == 1][0]
    check(top3["horizon"]["months"] == 36, "--horizon 3y: %s months" % top3["horizon"]["months"])
    for bad in ("0.5m", "0y", "3x", "2.5m"):
        p = rank(CAT, "--horizon", bad)
        check(p.returncode == 2 and "horizon" in p.stderr, "--horizon %s refused: %s" % (bad, p.stderr))
    print("ok" if not fails else "%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
