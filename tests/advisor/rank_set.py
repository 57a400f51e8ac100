#!/usr/bin/env python3
"""--set CONFIG.INPUT=VALUE[:LOW..HIGH]: your own cost inputs (catalogs/setinput.h), checked by hand.

On data/catalogs/published.json and the published IDC-versus-cloud table
(data/published/rds-idc-vs-cloud-4c16g.csv, avg <= 20 ms):

- `catalog cost idc-nvme --set idc-nvme.capital=18000:15000..22000`: the capital and maintenance
  terms are docs/catalog-format.md's formulas with 18000, computed here from the catalog's own
  figures (the slice's share e = max(4/80, 16/384) / utilisation, the life, the maintenance
  rate); the input says set, its new range, and its source "set on the command line". Without a
  range the catalog's is kept (12000 keeps 5000 to 15000). An instance price (cloud-essd.instance,
  USD per hour) and a disk's per_gib_month (500 GiB / 730 h) likewise, in the catalog's unit.
- `rank --json --set`: idc-nvme's cost per hour moves by (18000 - 10000) x e x (1 / (life x 8760)
  + maintenance / 8760); the ranking record names the input set (inputs_set) and the decision's
  capital input carries the new range and "set"; the text's note says "set on the command line".
- A catalog whose capital is no estimate (estimate false, no range) gives no capital break-even;
  with --set idc-nvme.capital=10000:5000..15000 it does, and the value is the one where the
  winner's cost, linear in capital, reaches the ranking's own break-even price; the advantage
  at the range's ends is A x c0 / c(v).
- A study: the study file's "set" prices as rank --set does (its source "set in the study file"),
  and a --set on the study's command line replaces it.
- Refused, exit 2 naming it, nothing on stdout and no study output folder: a value outside the
  input's stated range, an unknown configuration, an unknown input name, a value outside the
  values the input can take, a range that does not hold the value, text that is not
  CONFIG.INPUT=VALUE, the same figure set twice; in a study file: exit 3 with its position.
"""
import copy
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


def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True)


def cost_json(config, *sets, cat=CAT):
    args = ["catalog", "cost", config, "--catalog", cat, "--json"]
    for s in sets:
        args += ["--set", s]
    p = run(*args)
    check(p.returncode == 0, "catalog cost %s exit %d: %s" % (sets, p.returncode, p.stderr))
    return json.loads(p.stdout)[0] if p.returncode == 0 else {}


def term(c, name):
    return [t for t in c.get("terms", []) if t["name"] == name][0]["per_hour"]


def inp(c, name):
    return [i for i in c.get("inputs", []) if i["name"] == name][0]


def rank_json(*extra, cat=CAT):
    p = run("rank", "--json", "--points", CSV, "--catalog", cat, "--slo", "avg:20ms", *extra)
    check(p.returncode == 0, "rank %s exit %d: %s" % (extra, p.returncode, p.stderr))
    return {r["config"]: r for r in (json.loads(l) for l in p.stdout.splitlines() if l.strip())}


def main():
    cat = json.load(open(CAT))
    server = [s for s in cat["servers"] if s["id"] == "idc-xeon-gold-6148-2s"][0]
    cf = [c for c in cat["configs"] if c["id"] == "idc-nvme"][0]
    u = server["utilisation"]["value"]
    e = min(1.0, max(cf["slice"]["vcpu"] / server["vcpu"],
                     cf["slice"]["memory_gib"] / server["memory_gib"]) / u)
    life = server["amortisation_years"]["value"]
    maint = server["maintenance_rate"]["value"]
    c0 = server["capital"]["amount"]
    per_capital = e * (1 / (life * 8760) + maint / 8760)  # cost per hour per unit of capital

    # catalog cost: the terms by hand
    c = cost_json("idc-nvme", "idc-nvme.capital=18000:15000..22000")
    base = cost_json("idc-nvme")
    check(close(term(c, "capital"), 18000 * e / (life * 8760)),
          "capital term %s, by hand %s" % (term(c, "capital"), 18000 * e / (life * 8760)))
    check(close(term(c, "maintenance"), maint * 18000 * e / 8760), "maintenance term")
    check(close(c["per_hour"] - base["per_hour"], (18000 - c0) * per_capital),
          "total moves by (18000 - %g) x %g" % (c0, per_capital))
    i = inp(c, "capital")
    check(i.get("set") is True and i["value"] == 18000 and i.get("low") == 15000 and
          i.get("high") == 22000 and i.get("estimate") is False and
          i.get("source", "").startswith("set on the command line: idc-nvme.capital=18000"),
          "capital input %s" % i)
    i = inp(cost_json("idc-nvme", "idc-nvme.capital=12000"), "capital")
    check(i["value"] == 12000 and i.get("low") == server["capital"]["low"] and
          i.get("high") == server["capital"]["high"], "the catalog's range kept: %s" % i)
    p = run("catalog", "cost", "idc-nvme", "--catalog", CAT, "--set", "idc-nvme.capital=12000")
    check("capital                  12000 USD  [set, range 5000 to 15000]" in p.stdout and
          "the catalog's figure was 10000 USD, range 5000 to 15000, an estimate" in p.stdout,
          "catalog cost text says the input is set and what the catalog had:\n" + p.stdout)
    # an instance price and a disk price, in the catalog's units (USD per hour, per GiB-month)
    essd = [x for x in cat["configs"] if x["id"] == "cloud-essd"][0]
    inst = [x for x in cat["instances"] if x["id"] == essd["instance"]][0]
    od = [x for x in inst["prices"] if x["pricing"] == "on-demand"][0]
    check(od["unit"] == "hour" and od["currency"] == cat["currency"], "instance priced per hour")
    c = cost_json("cloud-essd", "cloud-essd.instance=0.15:0.1..0.3",
                  "cloud-essd.per_gib_month=0.2:0.1..0.4")
    check(close(term(c, "instance"), 0.15), "instance term %s, set 0.15/h" % term(c, "instance"))
    check(close(term(c, "disk capacity"), essd["size_gib"] * 0.2 / 730),
          "disk term %s, by hand %s" % (term(c, "disk capacity"), essd["size_gib"] * 0.2 / 730))
    check(close(c["per_hour"], 0.15 + essd["size_gib"] * 0.2 / 730), "cloud-essd total")

    # rank: the cost, the record, the note
    got = rank_json("--set", "idc-nvme.capital=18000:15000..22000")
    ref = rank_json()
    check(close(got["idc-nvme"]["cost_per_hour"] - ref["idc-nvme"]["cost_per_hour"],
                (18000 - c0) * per_capital), "rank: idc-nvme's cost per hour moves by hand")
    s = got["idc-nvme"].get("inputs_set", [])
    check(len(s) == 1 and s[0]["name"] == "capital" and s[0]["value"] == 18000 and
          s[0]["low"] == 15000 and s[0]["high"] == 22000 and
          s[0]["source"] == "set on the command line: idc-nvme.capital=18000:15000..22000",
          "inputs_set %s" % s)
    check(all("inputs_set" not in got[k] for k in CONFIGS[1:]), "only idc-nvme has inputs set")
    d = [x for x in got["idc-nvme"].get("decision", {}).get("inputs", [])
         if x["config"] == "idc-nvme" and x["name"] == "capital"]
    check(len(d) == 1 and d[0].get("set") is True and d[0]["low"] == 15000 and
          d[0]["high"] == 22000 and d[0]["value"] == 18000, "decision capital %s" % d)
    p = run("rank", "--points", CSV, "--catalog", CAT, "--slo", "avg:20ms", "--set",
            "idc-nvme.capital=18000:15000..22000")
    check("note: idc-nvme: capital 18000 USD, range 15000 to 22000: set on the command line:" in
          p.stdout, "rank's note says the input was set on the command line")

    # a capital that is no estimate: no break-even, until --set puts it in question
    tmp = tempfile.mkdtemp(prefix="sizeup-rank-set-")
    plain = copy.deepcopy(cat)
    sv = [s for s in plain["servers"] if s["id"] == "idc-xeon-gold-6148-2s"][0]
    for k in ("low", "high", "note"):
        sv["capital"].pop(k, None)
    sv["capital"]["estimate"] = False
    plain_path = os.path.join(tmp, "plain.json")
    json.dump(plain, open(plain_path, "w"))
    r = rank_json(cat=plain_path)["idc-nvme"]
    check(not [x for x in r["decision"]["inputs"] if x["name"] == "capital"],
          "a capital that is no estimate has no break-even")
    r = rank_json("--set", "idc-nvme.capital=10000:5000..15000", cat=plain_path)["idc-nvme"]
    d = [x for x in r["decision"]["inputs"] if x["config"] == "idc-nvme" and x["name"] == "capital"]
    check(len(d) == 1 and d[0].get("set") is True, "--set puts capital in the break-even: %s" % d)
    if d:
        cw, adv, be = r["cost_per_hour"], r["decision"]["advantage"], r["break_even_cost_per_hour"]
        want = 10000 + (be - cw) / per_capital  # the capital where the cost reaches the break-even
        check(close(d[0]["break_even"], want, 1e-6),
              "capital break-even %s, by hand %s" % (d[0]["break_even"], want))
        for end, key in ((5000, "advantage_low"), (15000, "advantage_high")):
            a = adv * cw / (cw + (end - 10000) * per_capital)
            check(close(d[0][key], a, 1e-9), "%s %s, by hand %s" % (key, d[0][key], a))

    # the set figure said in every form of the ranking (rank --markdown left it out)
    for fmt in ([], ["--markdown"], ["--json"]):
        p = run("rank", "--points", CSV, "--catalog", CAT, "--slo", "avg:20ms", "--set",
                "idc-nvme.capital=12000", *fmt)
        check(p.returncode == 0 and "idc-nvme.capital=12000" in p.stdout,
              "rank %s says the set figure" % fmt)

    # a catalog's licence (issue 26.2) in both reports' inputs and in catalog cost
    lic = copy.deepcopy(cat)
    lic["licence"] = "CC BY 4.0 <test>"
    lic_path = os.path.join(tmp, "lic.json")
    json.dump(lic, open(lic_path, "w"))
    for fmt, want in (([], "(licence CC BY 4.0 &lt;test&gt;)"),
                      (["--markdown"], "(licence CC BY 4.0 &lt;test>)")):
        out = os.path.join(tmp, "r" + str(len(fmt)))
        p = run("report", "--points", CSV, "--catalog", lic_path, "--slo", "avg:20ms", "-o", out,
                *fmt)
        check(p.returncode == 0 and want in open(out).read(), "report %s: %s" % (fmt, want))
    for bad in ("a\nb", ""):
        lic["licence"] = bad
        json.dump(lic, open(lic_path + ".bad", "w"))
        p = run("catalog", "check", lic_path + ".bad")
        check(p.returncode == 3 and "$.licence: a licence is one line" in p.stderr,
              "licence %r refused: exit %d %s" % (bad, p.returncode, p.stderr))
    p = run("catalog", "cost", "idc-nvme", "--catalog", lic_path)
    check(p.stdout.endswith("\nlicence of %s: CC BY 4.0 <test>\n" % lic_path), "catalog cost licence")

    # a study: the file's "set", and --set on its command line replacing it
    def study(name, sets, *cli):
        path = os.path.join(tmp, name + ".json")
        out = os.path.join(tmp, name + "-out")
        lines = ['{', '  "schema": "sizeup.study/1",', '  "candidates": [']
        for k, c in enumerate(CONFIGS):
            lines.append('    {"config": "%s", "results": ["%s"]}%s' % (c, CSV, "," if k < 3 else ""))
        lines += ['  ],', '  "workloads": {"oltp_legacy": 1},', '  "slo": "avg:20ms",',
                  '  "catalogs": ["%s"],' % CAT, '  "set": %s,' % json.dumps(sets),
                  '  "output": "%s"' % out, '}']
        open(path, "w").write("\n".join(lines) + "\n")
        p = run("study", *cli, path)
        rows = {}
        if os.path.exists(os.path.join(out, "ranking.jsonl")):
            rows = {x["config"]: x for x in map(json.loads, open(os.path.join(out, "ranking.jsonl")))}
        return p, path, out, rows

    p, _, _, rows = study("s1", ["idc-nvme.capital=12000"])
    want = rank_json("--set", "idc-nvme.capital=12000")
    check(p.returncode == 0 and close(rows.get("idc-nvme", {}).get("cost_per_hour"),
                                      want["idc-nvme"]["cost_per_hour"]),
          "study \"set\" prices as rank --set: %s" % p.stderr[-400:])
    s = rows.get("idc-nvme", {}).get("inputs_set", [{}])
    check(s[0].get("source") == "set in the study file: idc-nvme.capital=12000", "study source %s" % s)
    p, _, _, rows = study("s2", ["idc-nvme.capital=12000"], "--set", "idc-nvme.capital=14000")
    s = rows.get("idc-nvme", {}).get("inputs_set", [{}])
    check(p.returncode == 0 and s[0].get("value") == 14000 and
          s[0].get("source") == "set on the command line: idc-nvme.capital=14000",
          "the study's --set replaces its file's: %s" % s)
    p, path, out, _ = study("s3", ["nosuch.capital=1"])
    check(p.returncode == 3 and "$.set[0]" in p.stderr and "nosuch" in p.stderr and
          not os.path.exists(out), "a study file's unknown configuration: exit %d %s" %
          (p.returncode, p.stderr))
    p, path, out, _ = study("s4", ["idc-nvme.capital"])
    check(p.returncode == 3 and "$.set[0]" in p.stderr and not os.path.exists(out),
          "a study file's setting without a value: exit %d %s" % (p.returncode, p.stderr))

    # refused: exit 2, naming it; nothing written
    bad = (("idc-nvme.capital=18000", ["idc-nvme.capital", "5000 to 15000"]),
           ("nosuch.capital=1", ['"nosuch"']),
           ("idc-nvme.capitol=1", ['"capitol"', "capital, amortisation_years"]),
           ("idc-nvme.pue=0.5:0.5..2", ["pue", "1 to 5"]),
           ("idc-nvme.capital=12000:13000..15000", ["does not hold the value"]),
           ("idc-nvme.capital=abc", ["'abc' is not a number"]),
           ("idc-nvme.capital=0x2710", ["'0x2710' is not a number"]),
           ("idc-nvme=5", ["CONFIG.INPUT"]),
           ("idc-nvme.capital=1e999", ["is not a number"]),
           # an instance free of charge: no throughput per cost (it printed -nan and inf)
           ("cloud-essd.instance=0", ["instance's price must be above 0"]))
    for arg, names in bad:
        for cmd in (["catalog", "cost", "idc-nvme", "--catalog", CAT],
                    ["rank", "--points", CSV, "--catalog", CAT, "--slo", "avg:20ms"]):
            p = run(*cmd, "--set", arg)
            check(p.returncode == 2 and all(n in p.stderr for n in names) and arg in p.stderr and
                  p.stdout == "", "%s --set %s: exit %d, stderr %r (want %s)" %
                  (cmd[0], arg, p.returncode, p.stderr, names))
        p, path, out, _ = study("bad", [], "--set", arg)
        check(p.returncode == 2 and all(n in p.stderr for n in names) and not os.path.exists(out),
              "study --set %s: exit %d %r" % (arg, p.returncode, p.stderr))
    # one figure set twice (capital is the server's: the same figure for every slice of it)
    p = run("catalog", "cost", "idc-nvme", "--catalog", CAT, "--set", "idc-nvme.capital=12000",
            "--set", "idc-nvme.capital=13000")
    check(p.returncode == 2 and "set it once" in p.stderr, "twice: %s" % p.stderr)

    if fails:
        print("%d check(s) failed" % fails)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
