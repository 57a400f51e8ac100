#!/usr/bin/env python3
"""Check a `sizeup report` HTML page: it parses with html.parser, is self-contained (no
script, no external asset), and its SVG plots carry the expected series and point counts.

usage: check_report.py REPORT.html POINTS.csv

The expected counts come from the CSV (data/published/*.csv: one row per measured point, target
in column "target"): each configuration's throughput plot has a "measured" series with as many
points as its rows, its latency plot a "latency-measured" series with as many points as its rows
with an avg_latency_ms value, and both a "slo" marker; the bar chart has one bar per
configuration.
"""
import csv
import json
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "source", "wbr"}
SVG_EMPTY = {"line", "rect", "circle", "polyline", "polygon", "path"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.svgs = []  # list of (title, {series: points})
        self.cur = None
        self.in_title = False
        self.doctype = False

    def handle_decl(self, decl):
        if decl.lower() == "doctype html":
            self.doctype = True

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.errors.append("a <script> element")
        if tag in ("link", "img", "iframe", "object", "embed"):
            self.errors.append("an external-asset element <%s>" % tag)
        for k, v in attrs:
            if k in ("src", "href") or (v and "url(" in v):
                self.errors.append("an external reference %s=%r" % (k, v))
        if tag == "svg":
            self.cur = {"title": "", "series": {}}
            self.svgs.append(self.cur)
        if tag == "title" and self.cur is not None:
            self.in_title = True
        if tag == "g" and "data-series" in a and self.cur is not None:
            self.cur["series"][a["data-series"]] = int(a["data-points"])
            self.cur.setdefault("counted", {})[a["data-series"]] = 0
            self.cur["open"] = a["data-series"]
        if tag == "circle" and self.cur is not None and self.cur.get("open"):
            self.cur["counted"][self.cur["open"]] += 1
        if tag == "rect" and self.cur is not None and self.cur.get("open") == "bars":
            self.cur["counted"]["bars"] += 1
        if tag == "rect" and self.cur is not None and self.cur.get("open") == "tornado":
            self.cur["counted"]["tornado"] += 1
        if tag not in VOID and tag not in SVG_EMPTY:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and tag not in SVG_EMPTY:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID or tag in SVG_EMPTY:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, self.stack[-3:]))
            return
        self.stack.pop()
        if tag == "title":
            self.in_title = False
        if tag == "g" and self.cur is not None:
            self.cur["open"] = None
        if tag == "svg":
            self.cur = None

    def handle_data(self, data):
        if self.in_title and self.cur is not None and not self.cur["title"]:
            self.cur["title"] = data


def main():
    html_path, csv_path = sys.argv[1], sys.argv[2]
    # optional: the ranking's sizeup.ranking/1 records (rank --json): the tornado chart draws
    # each estimate of the decision that has a range, two bars (low, high) each
    ranged = None
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            rec = json.loads(line)
            if "decision" in rec:
                ranged = sum(1 for i in rec["decision"]["inputs"] if "low" in i)
    rows = [r for r in csv.DictReader(l for l in open(csv_path) if not l.startswith("#"))]
    by_target = {}
    for r in rows:
        t = by_target.setdefault(r["target"], [0, 0])
        t[0] += 1
        if r.get("avg_latency_ms"):
            t[1] += 1
    c = Checker()
    c.feed(open(html_path, encoding="utf-8").read())
    c.close()
    fails = list(c.errors)
    if not c.doctype:
        fails.append("no <!DOCTYPE html>")
    if c.stack:
        fails.append("unclosed elements: %s" % c.stack)
    checks = 0
    for target, (n, n_lat) in by_target.items():
        tp = [s for s in c.svgs if s["title"].startswith(target + " — ") and "throughput" in s["title"]]
        lp = [s for s in c.svgs if s["title"].startswith(target + " — ") and "latency" in s["title"]]
        if len(tp) != 1 or len(lp) != 1:
            fails.append("%s: %d throughput and %d latency plots, expected 1 and 1" % (target, len(tp), len(lp)))
            continue
        want = {"band": None, "fit": None, "measured": n, "slo": 1}
        for name, cnt in want.items():
            got = tp[0]["series"].get(name)
            if got is None:
                fails.append("%s throughput plot: no series %s" % (target, name))
            elif cnt is not None and got != cnt:
                fails.append("%s throughput plot: series %s has %d points, expected %d" % (target, name, got, cnt))
            elif name == "fit" and got < 10:
                fails.append("%s: fitted curve has only %d points" % (target, got))
        if tp[0]["counted"].get("measured") != n:
            fails.append("%s: %s measured circles drawn, expected %d" % (target, tp[0]["counted"].get("measured"), n))
        for name, cnt in {"latency-model": None, "latency-measured": n_lat, "slo-line": 1, "slo": 1}.items():
            got = lp[0]["series"].get(name)
            if got is None:
                fails.append("%s latency plot: no series %s" % (target, name))
            elif cnt is not None and got != cnt:
                fails.append("%s latency plot: series %s has %d points, expected %d" % (target, name, got, cnt))
        checks += 1
    bars = [s for s in c.svgs if "bars" in s["series"]]
    if len(bars) != 1 or bars[0]["series"]["bars"] != len(by_target) or bars[0]["counted"]["bars"] != len(by_target):
        fails.append("bar chart: expected one with %d bars" % len(by_target))
    tornado = [s for s in c.svgs if "tornado" in s["series"]]
    want_svgs = 2 * len(by_target) + 1 + (1 if ranged else 0)
    if ranged is not None:
        if ranged and (len(tornado) != 1 or tornado[0]["series"]["tornado"] != ranged
                       or tornado[0]["counted"]["tornado"] != 2 * ranged):
            fails.append("tornado chart: expected one with %d inputs (%d bars)" % (ranged, 2 * ranged))
    else:
        want_svgs += len(tornado)
    if len(c.svgs) != want_svgs:
        fails.append("%d SVGs, expected %d" % (len(c.svgs), want_svgs))
    for f in fails:
        print("FAIL:", f)
    print("%d configurations checked, %d SVGs, %d failures" % (checks, len(c.svgs), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
