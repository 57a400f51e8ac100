#!/usr/bin/env python3
"""The decision section of the Markdown and HTML reports (advisor/decide/decision.h), on the published
IDC-versus-cloud table (data/published/rds-idc-vs-cloud-4c16g.csv, data/catalogs/published.json).

At avg <= 20 ms, `sizeup rank --markdown` ends with "## Decision": the winner (on-premises
idc-nvme, 1437 tps: its best measured level, the table's 16-thread row) and the runner-up
(cloud-local-ssd) with the lead the JSON decision gives; the break-even line "on-premises
idc-nvme stays cheaper per tps than cloud-local-ssd unless ..." naming every estimated input
that has a break-even value in the JSON (the values tco_flip.py verifies by re-ranking just
short of and just past them), joined by ", or"; the inputs that never flip it; the span of the
sensitivity table; the like-for-like note (none of the four is highly available); the NPV of
the two over the 60-month default horizon; and the measured load of the power curve.
With cloud-local-ssd marked "ha": true the note says the comparison is not like for like, and
with --ha-standby 1 that a standby was priced. `sizeup report --markdown` carries the same
section, the HTML report the same items as a list (escaped). A latency target nothing meets
gives no decision section.
"""
from html import unescape as html_unescape
import copy
import json
import os
import re
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


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    check(p.returncode == 0, "%s: exit %d %s" % (" ".join(args), p.returncode, p.stderr[-400:]))
    return p.stdout


def fnum(v):
    return "%.0f" % v if 1e4 <= abs(v) < 1e15 else "%.4g" % v


def decision(md):
    if "\n## Decision\n" not in md:
        return []
    return [l[2:] for l in md.split("\n## Decision\n", 1)[1].splitlines() if l.startswith("- ")]


def item(items, lead):
    got = [i for i in items if i.startswith(lead)]
    check(len(got) == 1, "one item starting %r in %s" % (lead, items))
    return got[0] if got else ""


def main():
    base = ["--points", CSV, "--slo", "avg:20ms"]
    md = run("rank", "--markdown", "--catalog", CAT, *base)
    recs = [json.loads(l) for l in run("rank", "--json", "--catalog", CAT, *base).splitlines()]
    top = [r for r in recs if r["rank"] == 1][0]
    d = top["decision"]
    items = decision(md)
    peak = max(float(l.split(",")[4]) for l in open(CSV) if l.startswith("idc-nvme,"))
    w = item(items, "Winner: ")
    check(w.startswith("Winner: on-premises idc-nvme, %s tps at avg <= 20 ms for %.4g USD/h"
                       % (fnum(peak), top["cost_per_hour"])), "winner item: %r" % w)
    r = item(items, "Runner-up: ")
    check(r.startswith("Runner-up: cloud-local-ssd, ") and
          ("idc-nvme leads it %.3gx" % d["advantage"]) in r, "runner-up item: %r" % r)
    f = item(items, "Where it flips: ")
    check(f.startswith("Where it flips: on-premises idc-nvme stays cheaper per tps than "
                       "cloud-local-ssd unless (one estimate at a time) "), "flip item: %r" % f)
    flips = [i for i in d["inputs"] if i["break_even"] is not None]
    check(len(flips) >= 5, "%d break-even inputs" % len(flips))
    for i in flips:
        name = i["name"] + (" price" if i["name"] == "instance" else "")
        phrase = "%s's %s %s %s" % (i["config"], name,
                                    "exceeds" if i["break_even"] > i["value"] else "falls below",
                                    fnum(i["break_even"]))
        check(phrase in f, "flip item lacks %r" % phrase)
    check(f.count(", or ") == len(flips) - 1 and f.endswith("."), "joined by ', or': %r" % f)
    never = [i for i in d["inputs"] if i["break_even"] is None]
    if never:
        n = item(items, "Never flips it alone: ")
        for i in never:
            check("%s's %s" % (i["config"], i["name"]) in n, "never item lacks %s" % i["name"])
    lows = [min(i["advantage_low"], i["advantage_high"]) for i in d["inputs"] if "low" in i]
    highs = [max(i["advantage_low"], i["advantage_high"]) for i in d["inputs"] if "low" in i]
    s = item(items, "Sensitivity: ")
    check(("between %.3gx" % min(lows)) in s and ("and %.3gx" % max(highs)) in s,
          "sensitivity span %s-%s: %r" % (min(lows), max(highs), s))
    like = item(items, "Like for like: ")
    check("no configuration ranked is highly available" in like, "like item: %r" % like)
    h = item(items, "Over 60 months at 5 %/y")
    npv = [p for p in top["horizon"]["pricing"] if p["lowest"]][0]["npv"]
    check(("idc-nvme %.2f USD (owned, 1 purchase" % npv) in h, "horizon item %r, NPV %s" % (h, npv))
    pw = item(items, "Power: ")
    check("load %.3g" % top["power_load"]["value"] in pw and "measured" in pw, "power: %r" % pw)

    # like for like: an HA cloud configuration against a single server
    tmp = tempfile.mkdtemp(prefix="sizeup-decision-")
    cat = json.load(open(CAT))
    [c for c in cat["configs"] if c["id"] == "cloud-local-ssd"][0]["ha"] = True
    path = os.path.join(tmp, "ha.json")
    json.dump(cat, open(path, "w"))
    like = item(decision(run("rank", "--markdown", "--catalog", path, *base)), "Not like for like")
    check("highly available (a standby in the price): cloud-local-ssd; single machines: "
          "idc-nvme, cloud-essd, cloud-ssd" in like and "--ha-standby 1" in like,
          "not like for like: %r" % like)
    like = item(decision(run("rank", "--markdown", "--catalog", path, "--ha-standby", "1", *base)),
                "Like for like: ")
    check("a standby copy priced" in like and "(--ha-standby 1)" in like, "standby: %r" % like)

    # the report: the same section in Markdown, as a list in HTML
    rep = run("report", "--markdown", "--catalog", CAT, *base)
    check(decision(rep) == items, "report --markdown: the same decision")
    html_path = os.path.join(tmp, "r.html")
    run("report", "--catalog", CAT, *base, "-o", html_path)
    html = open(html_path).read()
    # one item a line; "Where it flips" lists its estimates one per line (a nested list): read
    # back as the sentence the text and Markdown print
    sec = html.split("<h2>Decision</h2>", 1)[-1].split("\n</ul>\n", 1)[0]
    lis = []
    for line in sec.splitlines():
        m = re.fullmatch(r"<li>(.*)</li>", line)
        if not m:
            continue
        x = m.group(1)
        if "<ul>" in x:
            head, inner = x.split(":<ul>", 1)
            x = head + " " + ", or ".join(re.findall(r"<li>(.*?)</li>", inner)) + "."
        lis.append(x)
    unesc = [html_unescape(x) for x in lis]
    check("<h2>Decision</h2>" in html and unesc == items, "HTML decision list: %s" % lis[:2])
    check(all("<=" not in x for x in lis), "HTML escaped")

    # nothing meets 1 ms: no decision
    check(decision(run("rank", "--markdown", "--catalog", CAT, "--points", CSV,
                       "--slo", "avg:1ms")) == [], "no decision when nothing meets the target")
    print("ok" if not fails else "%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
