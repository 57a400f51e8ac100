#!/usr/bin/env python3
"""Check a `sizeup report` HTML page: it parses with html.parser, is self-contained (no
script, no external asset), and its SVG plots carry the expected series and point counts.

usage: check_report.py REPORT.html POINTS.csv

The expected counts come from the CSV (data/published/*.csv: one row per measured point, target
in column "target"): each configuration's throughput plot has a "measured" series with as many
points as its rows, its latency plot a "latency-measured" series with as many points as its rows
with an avg_latency_ms value, and both a "slo" marker; the bar chart has one bar per
configuration, each met one with a whisker at its throughput's 95 % interval over its price (from
the ranking's JSON); the overlay of every candidate has a series per configuration with a point
per measured level.
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
        if tag == "line" and a.get("class") == "ebar" and "data-lo" in a and self.cur is not None:
            self.cur.setdefault("whiskers", []).append((float(a["data-lo"]), float(a["data-hi"])))
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
    ranking = []
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            rec = json.loads(line)
            if "decision" in rec:
                ranged = sum(1 for i in rec["decision"]["inputs"] if "low" in i)
            if "config" in rec:
                ranking.append(rec)
    rows = [r for r in csv.DictReader(l for l in open(csv_path) if not l.startswith("#"))]
    by_target = {}
    levels = {}
    for r in rows:
        t = by_target.setdefault(r["target"], [0, 0])
        t[0] += 1
        if r.get("avg_latency_ms"):
            t[1] += 1
        levels.setdefault(r["target"], set()).add(float(r["threads"]))
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
    # each bar's whisker is the throughput's 95 % interval at the row's price (the ranking's
    # JSON, in ranking order: rows that meet the target)
    if bars and ranking:
        met = [r for r in ranking if r["status"] == "met"]
        want = [(r["tps"]["ci95"][0] / r["cost_per_hour"], r["tps"]["ci95"][1] / r["cost_per_hour"])
                for r in met]
        got = bars[0].get("whiskers", [])
        if len(got) != len(want) or any(abs(g[0] - w[0]) > 1e-4 * w[0] or
                                        abs(g[1] - w[1]) > 1e-4 * w[1] for g, w in zip(got, want)):
            fails.append("bar whiskers %s, expected the 95 %% intervals / price %s" % (got, want))
        for r, (lo, hi) in zip(met, want):
            if not lo <= r["tps_per_cost"] <= hi:
                fails.append("%s: tps per cost %g outside its whisker [%g, %g]"
                             % (r["config"], r["tps_per_cost"], lo, hi))
    # the one sentence a manager acts on: the first row, its tps, its monthly cost (per hour x
    # 730), its headroom and P(best), from the ranking's JSON
    if ranking and ranking[0]["status"] == "met":
        top = ranking[0]
        html = open(html_path, encoding="utf-8").read()
        ans = html.split('<div class="answer">', 1)[-1].split("</div>", 1)[0]
        for want in ("<strong>Buy %s</strong>" % top["config"],
                     "%.2f %s/month" % (top["cost_per_hour"] * 730, top["currency"]),
                     "%.0f %% headroom to its peak" % (100 * top["headroom"]),
                     "P(best) %.0f %%" % (100 * top["p_best"])):
            if want not in ans:
                fails.append("the answer lacks %r: %r" % (want, ans))
    # every candidate on one axis: one series per configuration (up to 10), with a point per
    # measured level
    over = [s for s in c.svgs if s["title"].startswith("Throughput of every candidate")]
    if len(by_target) >= 2:
        cands = sorted(v for k, v in (over[0]["counted"].items() if over else []) if k.startswith("cand-"))
        want_c = sorted(len(v) for v in levels.values())[:10] if len(levels) <= 10 else None
        if len(over) != 1:
            fails.append("%d overlays of every candidate, expected 1" % len(over))
        elif want_c is not None and cands != want_c:
            fails.append("overlay: points per candidate %s, expected the levels %s" % (cands, want_c))
    tornado = [s for s in c.svgs if "tornado" in s["series"]]
    want_svgs = 2 * len(by_target) + 1 + (1 if ranged else 0) + (1 if len(by_target) >= 2 else 0)
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
