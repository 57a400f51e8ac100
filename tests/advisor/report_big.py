#!/usr/bin/env python3
"""sizeup report of a big ranking (REPORT_MAX_ROWS, advisor/present/report_html.h): the published AWS
sysbench table predicted over the bundled AWS catalog with three gp3 sizes per instance (a
catalog the test builds, 143 x 4 configurations). The whole ranking, from rank --json, gives what
the page must say: its ranking table and its bar chart hold the first 200 rows in ranking order
and say how many there are in all; the price-age list has one item per date and source, each
naming at most 12 configurations and counting the rest, the counts adding up to the rows whose
price is older than 12 months (price_age_months in the JSON); the page parses. Run:
report_big.py SIZEUP SOURCE_DIR."""
import json, os, re, subprocess, sys, tempfile
from html.parser import HTMLParser

sizeup, src = sys.argv[1], sys.argv[2]
fails = 0


def check(what, cond):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond


with tempfile.TemporaryDirectory() as d:
    aws = json.load(open(os.path.join(src, "data/catalogs/aws-us-east-1.json")))
    gp3 = {"id": "t-gp3", "provider": "aws", "name": "EBS gp3", "size_gib": {"min": 1, "max": 16384},
           "iops": {"base": 3000, "cap": 3000}, "throughput_mb_s": {"base": 125, "cap": 125},
           "prices": {"per_gib_month": {"amount": 0.08, "currency": "USD", "source": "test",
                                        "as_of": "2024-07-01"}}, "source": "test"}
    cat = {"schema": "sizeup.catalog/1", "currency": "USD", "as_of": "2026-12-01", "disks": [gp3],
           "instances": aws["instances"], "configs": list(aws["configs"])}
    for inst in aws["instances"]:
        for k in (1, 2, 3):
            cat["configs"].append({"id": "%s-gp3-%d" % (inst["name"], 100 * k),
                                   "instance": inst["id"], "disk": "t-gp3", "size_gib": 100 * k})
    cpath = os.path.join(d, "cat.json")
    json.dump(cat, open(cpath, "w"))
    fams = sorted({i["family"] for i in aws["instances"]} - {"c5", "c5a", "c6g"})
    base = ["--points", os.path.join(src, "data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv"),
            "--catalog", cpath, "--slo", "p95:10ms", "--predict"]
    for f in fams:
        base += ["--transfer", "%s=c5:1" % f]
    env = dict(os.environ, SOURCE_DATE_EPOCH="1796515200")
    r = subprocess.run([sizeup, "rank"] + base + ["--json"], capture_output=True, text=True,
                       env=env)
    rows = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    n = len(rows)
    old = sum(1 for x in rows if (x.get("price_age_months") or 0) > 12)
    check("the ranking has more than 200 rows (%d), %d with prices older than 12 months"
          % (n, old), n > 200 and old > 12)
    out = os.path.join(d, "r.html")
    r = subprocess.run([sizeup, "report"] + base + ["-o", out], capture_output=True, text=True,
                       env=env)
    check("report exits 0 (%d: %s)" % (r.returncode, r.stderr.strip()[-200:]), r.returncode == 0)
    page = open(out, encoding="utf-8").read()
    HTMLParser().feed(page)
    table = page.split('<table class="ranking">', 1)[1].split("</table>", 1)[0]
    got = re.findall(r"<tr[^>]*><td>[^<]*</td><td class=\"l\">([^<]*)</td>", table)
    check("the ranking table: the first 200 configurations in ranking order (%d)" % len(got),
          got == [x["config"] for x in rows[:200]])
    bars = re.search(r'data-series="bars" data-points="(\d+)"', page)
    check("the bar chart: 200 bars (%s)" % (bars and bars.group(1)), bars and bars.group(1) == "200")
    said = page.count("The first 200 of %d configurations, in ranking order" % n)
    check("the cut tables say how many there are (%d times)" % said, said >= 3)
    ages = page.split("Prices older than 12 months", 1)[1].split("</ul>", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", ages)
    total = 0
    ok = True
    for it in items:
        names = it.split(": as of", 1)[0]
        m = re.search(r" and (\d+) more$", names)
        listed = names[: m.start()] if m else names
        k = len(listed.split(", "))
        ok &= k <= 12 and (m is None or k == 12)
        total += k + (int(m.group(1)) if m else 0)
    check("price ages: %d items, at most 12 names each, %d configurations in all (the JSON: %d)"
          % (len(items), total, old), ok and total == old and len(items) < 100)
sys.exit(1 if fails else 0)
