#!/usr/bin/env python3
"""sizeup rank --disks on the published IDC-versus-cloud table (issue 24.4): the measured cloud
configurations ranked on Huawei EVS types and sizes they were not measured on. Every figure is
checked against what it comes from, computed here from the CSV and the catalog, not from
sizeup's output:
  - each derived row is CONFIG@TYPE:SIZE, basis predicted, predicted_from [CONFIG], priced as
    the host plus SIZE GiB of TYPE at the catalog's price per GiB-month;
  - its throughput never passes the disk's ceiling: the type's IOPS at SIZE by the vendor rule
    (min(base + per_gib x SIZE, cap) in the catalog) over the I/Os per transaction the table
    shows at the configuration's best level (iops_avg / tps);
  - the knee: the size the text names is the smallest whose rule IOPS reach the IOPS it names
    (ios x the CPU ceiling), and past it more size gives the same throughput (1000 and 2000 GiB
    within 0.5 %), below it less;
  - a cross-check against a measurement the model did not see: cloud-local-ssd's demands on
    ESSD at 500 GiB against cloud-essd (the same 4 vCPU / 16 GB RDS class measured on ESSD at
    500 GiB): the measured peak lies inside the predicted interval;
  - what cannot be modelled is said (a network disk on the on-premises server, a type without a
    latency), bad choices are refused with exit 2."""
import csv
import json
import math
import re
import subprocess
import sys

BIN = sys.argv[1]
CSV = "data/published/rds-idc-vs-cloud-4c16g.csv"
CAT = "data/catalogs/published.json"
fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def run(*args):
    return subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--slo", "avg:50ms"]
                          + list(args), capture_output=True, text=True)


table = {}
with open(CSV) as f:
    for r in csv.DictReader(line for line in f if not line.startswith("#")):
        table.setdefault(r["target"], []).append(r)
cat = json.load(open(CAT))
disks = {d["id"]: d for d in cat["disks"]}


def rule_iops(disk, gib):
    r = disks[disk]["iops"]
    v = r.get("base", 0) + r.get("per_gib", 0) * gib
    return max(r.get("floor", 0), min(v, r.get("cap", math.inf)))


def ios_per_tx(config):
    best = max(table[config], key=lambda r: float(r["tps"]))
    return float(best["iops_avg"]) / float(best["tps"])


r = run("--disks", "huawei-evs-essd:100,200,500,1000,2000", "--json")
check(r.returncode == 0, "rank --disks exits 0 (%d: %s)" % (r.returncode, r.stderr[-300:]))
rows = {o["config"]: o for o in map(json.loads, r.stdout.splitlines()) if o.get("config")}
derived = [c for c in rows if "@" in c]
check(len(derived) == 3 * 5 - 2 and "cloud-ssd@huawei-evs-essd:500" not in rows,
      "3 cloud configurations x 5 sizes less ESSD at 500 GiB on the RDS class (cloud-essd, "
      "measured): %d rows" % len(derived))
for c in derived:
    base, rest = c.split("@")
    disk, gib = rest.split(":")
    gib = float(gib)
    o = rows[c]
    check(o["basis"] == "predicted" and o.get("predicted_from") == [base],
          "%s: basis predicted, predicted_from [%s]" % (c, base))
    if o["status"] != "met":
        continue
    ceiling = rule_iops(disk, gib) / ios_per_tx(base)
    check(o["tps"]["value"] <= ceiling * 1.001,
          "%s: %.1f tps within the disk's ceiling %.0f IOPS / %.2f I/Os = %.1f"
          % (c, o["tps"]["value"], rule_iops(disk, gib), ios_per_tx(base), ceiling))
    lo, hi = o["tps"]["ci95"]
    check(lo <= o["tps"]["value"] <= hi, "%s: the figure lies inside its interval" % c)
    check("disk_model" in o and ("%g GiB" % gib) in o["disk_model"],
          "%s: disk_model names the disk at its size" % c)

# more size buys nothing past the knee; less below it
for base in ("cloud-essd", "cloud-ssd", "cloud-local-ssd"):
    t = {g: rows.get("%s@huawei-evs-essd:%d" % (base, g)) for g in (100, 200, 1000, 2000)}
    got = {g: o["tps"]["value"] for g, o in t.items() if o and o["status"] == "met"}
    check(1000 in got and 2000 in got and abs(got[1000] / got[2000] - 1) < 0.005,
          "%s: past the knee, 1000 and 2000 GiB give the same throughput (%s)" % (base, got))
    check(got.get(100, 0) < got.get(200, 0) < got.get(1000, math.inf),
          "%s: below the knee more size gives more (%s)" % (base, got))

# the knee, from the rule
r = run("--disks", "huawei-evs-essd")
text = r.stdout
knees = re.findall(r"huawei-evs-essd on (\S+) \(oltp_legacy\): disk-bound below (\d+) GiB,\n"
                   r"    where it reaches (\d+) IOPS", text)
check(len(knees) == 3, "a knee line per cloud configuration (%d)" % len(knees))
for base, s, need in knees:
    s, need = int(s), int(need)
    check(rule_iops("huawei-evs-essd", s) >= need - 1 and
          rule_iops("huawei-evs-essd", s - 1) < need,
          "%s: %d GiB is the smallest size whose rule IOPS (%.0f) reach %d"
          % (base, s, rule_iops("huawei-evs-essd", s), need))
    sizes = sorted(int(m) for m in re.findall(re.escape(base) + r"@huawei-evs-essd:(\d+) ", text))
    check(sizes and max(sizes) <= math.ceil(s / 10) * 10,
          "%s: the default sizes stop at the knee rounded up to 10 GiB (%s)" % (base, sizes))

# a measurement the model did not see
r = run("--disks", "huawei-evs-essd:500", "--json", "--slo", "avg:1000ms")
rows = {o["config"]: o for o in map(json.loads, r.stdout.splitlines()) if o.get("config")}
o = rows.get("cloud-local-ssd@huawei-evs-essd:500")
measured = max(float(x["tps"]) for x in table["cloud-essd"])
check(o is not None and o["tps"]["ci95"][0] <= measured <= o["tps"]["ci95"][1],
      "cloud-local-ssd on ESSD 500 GiB: predicted %s covers cloud-essd's measured %.0f tps"
      % (o and o["tps"], measured))

# what cannot be modelled, and bad choices
r = run("--disks", "huawei-evs-essd:500")
check("not for idc-nvme (a network disk on an on-premises server)" in r.stderr,
      "the on-premises server gets no network disk, and it is said")
r = run("--disks", "huawei-evs-essd:500", "--disks-from", "idc-nvme")
check(r.returncode == 3 and "no measured configuration could be modelled" in r.stderr and
      "idc-nvme" in r.stdout, "nothing modelled: said, the measured ones ranked, exit 3")
r = run("--disks", "huawei-evs-essd", "--disks-from", "cloud-essd", "--markdown")
check("> disks (rank --disks" in r.stdout and "disk-bound below 416 GiB" in r.stdout,
      "--markdown carries each type's knee too")
r = run("--disks", "nosuch")
check(r.returncode == 2 and "no disk type 'nosuch'" in r.stderr and "huawei-evs-essd" in r.stderr,
      "an unknown type: exit 2 naming the types there are")
r = run("--disks", "huawei-evs-essd:abc")
check(r.returncode == 2 and "the size 'abc' is not a number of GiB" in r.stderr,
      "a size that is not a number: exit 2")
r = run("--disks", "huawei-evs-essd:5")
check(r.returncode == 2 and "--disks huawei-evs-essd: 5 GiB is outside its 10-32768 GiB" in r.stderr,
      "a size outside the type's range: exit 2 naming the range")
r = run("--disks", "huawei-evs-essd:0x10")
check(r.returncode == 2, "a size in hex is not a number of GiB: exit 2")
r = run("--disks", "huawei-evs-essd:100", "--disks", "huawei-evs-essd:200@5ms")
check(r.returncode == 2 and "given twice" in r.stderr, "one type twice: exit 2")
r = run("--disks", "local-nvme:100")
check(r.returncode == 2 and "a local disk comes with its host" in r.stderr,
      "a local disk type is no --disks choice: exit 2")
r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--catalog",
                    "data/catalogs/batch.json", "--slo", "avg:100ms", "--disks", "aws-io2",
                    "--disks-from", "cloud-essd"], capture_output=True, text=True)
check("aws-io2: it gives no IOPS without provisioned IOPS" in r.stderr and
      "aws-io2 on cloud-essd" not in r.stdout and "@aws-io2" not in r.stdout,
      "io2 (all IOPS provisioned): said, no knee, no row")

# more size never gives less, at a tight target too (the rows are the model's own curve,
# interpolated, never refitted: a fit within the points' wide intervals reordered them)
for slo in ("avg:12ms", "avg:20ms", "avg:50ms"):
    r = run("--slo", slo, "--disks", "huawei-evs-essd:10,20,50,100,200,300,400,500,1000",
            "--disks", "huawei-evs-ssd:10,20,100,300", "--json")
    rows = {o["config"]: o for o in map(json.loads, r.stdout.splitlines()) if o.get("config")}
    for base in ("cloud-essd", "cloud-ssd", "cloud-local-ssd"):
        for disk in ("huawei-evs-essd", "huawei-evs-ssd"):
            got = sorted((float(c.split(":")[-1]), o["tps"]["value"] if o["status"] == "met" else 0)
                         for c, o in rows.items() if c.startswith(base + "@" + disk + ":"))
            check(all(b[1] >= a[1] * (1 - 1e-9) for a, b in zip(got, got[1:])),
                  "%s %s on %s: tps never falls as the size grows %s" % (slo, disk, base, got))
r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--catalog",
                    "data/catalogs/batch.json", "--slo", "avg:50ms", "--disks",
                    "huawei-gpssd:100"], capture_output=True, text=True)
check("--disks huawei-gpssd: the catalogs give no latency_ms for it" in r.stderr and
      "@huawei-gpssd" not in r.stdout, "a type without a latency: said, nothing made up")

# the report: an overlay per measured configuration, each disk labelled with what binds there
# (200 GiB: 11,800 IOPS / 17 I/Os = 694 tps, below the CPU's 1,329: disk-bound)
import os
import tempfile
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "r.html")
    r = subprocess.run([BIN, "report", "--points", CSV, "--catalog", CAT, "--slo", "avg:100ms",
                        "--disks", "huawei-evs-essd:200,420", "--disks-from", "cloud-essd",
                        "-o", out], capture_output=True, text=True)
    h = open(out).read() if os.path.exists(out) else ""
    check(r.returncode == 0 and "<h2>Disks</h2>" in h and "cloud-essd on other disks" in h and
          "essd:200 GiB disk-bound" in h and "essd:420 GiB CPU-bound" in h,
          "report --disks: the overlay, each disk labelled with what binds")

# issue 26.3: the report lists the prices older than --max-price-age too (today 2026-12-06 by
# SOURCE_DATE_EPOCH; the Huawei RDS rows rest on a 2024-02-21 figure: 33 months)
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "r.html")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1796515200")
    subprocess.run([BIN, "report", "--points", CSV, "--catalog", CAT, "--slo", "avg:100ms",
                    "-o", out], capture_output=True, text=True, env=env)
    h = open(out).read() if os.path.exists(out) else ""
    check("Prices older than 12 months" in h and "cloud-essd</li>" not in h and
          "as of 2024-02-21, 33 months old" in h,
          "report: the prices older than 12 months, with date and age")

# a price dated after today (today 2020-09-13 here, before every price of the catalog) is said
env = dict(os.environ, SOURCE_DATE_EPOCH="1600000000")
r = subprocess.run([BIN, "rank", "--points", CSV, "--catalog", CAT, "--slo", "avg:20ms"],
                   capture_output=True, text=True, env=env)
check("prices dated after today (2020-09-13)" in r.stdout and "idc-nvme: as of 2022-05-31" in r.stdout,
      "prices dated after today are said, with their dates")

print("%d failure(s)" % len(fails))
sys.exit(1 if fails else 0)
