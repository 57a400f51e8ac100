#!/usr/bin/env python3
"""Where the IDC-versus-cloud decision flips, checked by re-ranking (advisor/decide/tco.h).

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

The power curve's load (advisor/rank/rank.h rank_row.load): idc-nvme's utilisation at the target is
X / X_peak (the utilisation law U = X D with X_max = 1 / D_max), X_peak being the table's best
idc-nvme level (1437 tps at 16 threads); its power is read on the server's SPECpower curve at
packing (0.7) x that, not at the catalog's cpu_load, and its cost per hour is every term of
docs/catalog-format.md computed here by hand from the catalog's figures at that load.
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


def fig(v):
    return v["value"] if isinstance(v, dict) and "value" in v else v["amount"] if isinstance(v, dict) else v


def idc_cost_by_hand(cat, load):
    """idc-nvme's cost per hour with the power curve read at load (docs/catalog-format.md)."""
    cf = [c for c in cat["configs"] if c["id"] == "idc-nvme"][0]
    sv = [x for x in cat["servers"] if x["id"] == cf["server"]][0]
    u = fig(sv["utilisation"])
    e = min(1, max(cf["slice"]["vcpu"] / sv["vcpu"], cf["slice"]["memory_gib"] / sv["memory_gib"]) / u)
    cap, life, maint = fig(sv["capital"]), fig(sv["amortisation_years"]), fig(sv["maintenance_rate"])
    pts = sv["power_curve"]["points"]

    def watts(x):
        for (x0, w0), (x1, w1) in zip(pts, pts[1:]):
            if x <= x1:
                return w0 + (x - x0) / (x1 - x0) * (w1 - w0)
        return pts[-1][1]
    h = cap * e / (life * 8760) + maint * cap * e / 8760
    h += watts(load) / 1000 * e * fig(sv["pue"]) * fig(sv["energy_per_kwh"])
    h += watts(1) / 1000 * fig(sv["colocation_per_kw_month"]) * e / 730
    h += sv.get("network_ports", 1) * fig(sv["network_per_port_month"]) * e / 730
    h += fig(sv["admin_cost_per_year"]) / fig(sv["servers_per_admin"]) * e / 8760
    assert "licence" not in sv and "storage_per_gib" not in sv and "staff_per_month" not in sv
    return h, u


def power_load_checks(base):
    peak = max(float(l.split(",")[4]) for l in open(CSV) if l.startswith("idc-nvme,"))
    for slo in ("avg:20ms", "avg:5ms"):
        p = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--slo", slo, "--json"],
                           capture_output=True, text=True)
        idc = [json.loads(l) for l in p.stdout.splitlines() if '"idc-nvme"' in l][0]
        rho = idc["tps"]["value"] / peak
        want, u = idc_cost_by_hand(base, 0.7 * rho)
        check(abs(idc["utilisation_at_target"] - rho) < 1e-9,
              "%s: utilisation at the target %s, expected X / X_peak = %s / %s = %s"
              % (slo, idc["utilisation_at_target"], idc["tps"]["value"], peak, rho))
        check(idc["power_load"]["basis"] == "measured" and
              abs(idc["power_load"]["value"] - u * rho) < 1e-9,
              "%s: power load %s, expected packing %s x %s" % (slo, idc["power_load"], u, rho))
        check(abs(idc["cost_per_hour"] - want) < 1e-9 * want,
              "%s: idc-nvme %s USD/h, by hand %s" % (slo, idc["cost_per_hour"], want))
        if slo == "avg:20ms":  # the operating point is the best level itself: rho = 1
            check(abs(rho - 1) < 1e-12 and abs(idc["power_load"]["value"] - 0.7) < 1e-12,
                  "avg:20ms: the curve read at the packing 0.7: %s" % idc["power_load"])
    # sizeup catalog cost measures nothing: the catalog's cpu_load
    p = subprocess.run([BIN, "catalog", "cost", "idc-nvme", "--catalog", CAT, "--json"],
                       capture_output=True, text=True)
    cc = json.loads(p.stdout)[0] if p.returncode == 0 else {}
    sv = [x for x in base["servers"] if x["id"] == "idc-xeon-gold-6148-2s"][0]
    check(abs(cc.get("per_hour", 0) - idc_cost_by_hand(base, fig(sv["cpu_load"]))[0]) < 1e-9,
          "catalog cost at the catalog's cpu_load: %s" % cc.get("per_hour"))


def main():
    base = json.load(open(CAT))
    power_load_checks(base)
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
