#!/usr/bin/env python3
"""Check the error bars of a `sizeup report` page: in the throughput plot of CONFIG, one bar per
level of POINTS.jsonl (level records: each record's tps and ci95_tps are the level, as
advisor/curve/curve.h takes them), at the right coordinates.

usage: check_errorbars.py REPORT.html POINTS.jsonl CONFIG

The coordinates are computed here from the plot's own axes: the y grid lines and their tick
labels give the linear map of tps to pixels, the x grid lines and labels that of threads
(log2 when the axis label says "log scale"); a level's bar is a vertical <line class="bar"> at
x(threads) from y(tps - ci95) to y(tps + ci95), each end clipped to the axis range.
"""
import json
import math
import re
import sys


def fit(pairs):
    """Least-squares line through (u, pixel) pairs: pixel = a + b u."""
    n = len(pairs)
    mu = sum(u for u, _ in pairs) / n
    mp = sum(p for _, p in pairs) / n
    b = sum((u - mu) * (p - mp) for u, p in pairs) / sum((u - mu) ** 2 for u, _ in pairs)
    return mp - b * mu, b


def main():
    html, pts_path, config = sys.argv[1], sys.argv[2], sys.argv[3]
    page = open(html, encoding="utf-8").read()
    m = re.search(r"<svg[^>]*>\s*<title>%s — [^<]*: throughput</title>(.*?)</svg>" % re.escape(config),
                  page, re.S)
    fails = []
    if not m:
        print("FAIL: no throughput plot of %s" % config)
        return 1
    svg = m.group(1)
    logx = "(log scale)" in svg
    yt, xt = [], []
    for tag in re.finditer(r'<text class="tick" x="([-\d.]+)" y="([-\d.]+)" text-anchor="(end|middle)">([^<]*)</text>', svg):
        x, y, anchor, label = float(tag.group(1)), float(tag.group(2)), tag.group(3), tag.group(4)
        v = float(label.replace(",", "").replace("k", "e3").replace("M", "e6"))
        if anchor == "end":
            yt.append((v, y - 4))  # the label sits 4 px below its grid line
        else:
            xt.append((math.log2(v) if logx else v, x))
    ay, by = fit(yt)
    ax, bx = fit(xt)
    y_lo, y_hi = min(v for v, _ in yt), max(v for v, _ in yt)
    g = re.search(r'<g class="series s-errorbars" data-series="errorbars" data-points="(\d+)">(.*?)</g>', svg, re.S)
    if not g:
        print("FAIL: no errorbars series")
        return 1
    bars = [tuple(float(v) for v in b) for b in
            re.findall(r'<line class="bar" x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)">', g.group(2))]
    levels = [json.loads(l) for l in open(pts_path) if l.strip()]
    if int(g.group(1)) != len(levels) or len(bars) != len(levels):
        fails.append("%s bars (data-points %s), expected %d" % (len(bars), g.group(1), len(levels)))
    for p, b in zip(sorted(levels, key=lambda p: p["threads"]), bars):
        x = ax + bx * (math.log2(p["threads"]) if logx else p["threads"])
        lo = ay + by * max(p["tps"] - p["ci95_tps"], y_lo)
        hi = ay + by * min(p["tps"] + p["ci95_tps"], y_hi)
        want = (x, lo, x, hi)
        if any(abs(u - v) > 0.2 for u, v in zip(b, want)):
            fails.append("%d threads: bar %s, expected %s" % (p["threads"], b, tuple(round(v, 1) for v in want)))
    for f in fails:
        print("FAIL:", f)
    print("%s: %d error bars checked (%s x axis), %d failures" % (config, len(bars), "log2" if logx else "linear", len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
