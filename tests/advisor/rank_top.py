#!/usr/bin/env python3
"""rank --top (the text and Markdown tables of a big ranking): the published AWS sysbench table
predicted over the bundled AWS catalog. The whole ranking, from --json (every row, each with its
status), gives what the tables must say: with --top 5 the text table shows the first 5 of them
in the JSON's order and says how many more there are and how many of those are ranked; the
Markdown table the same; --top 0 shows every row; --csv holds every row whatever --top says;
a ranking within the default (1000 rows) says nothing of more rows. Run: rank_top.py SIZEUP
SOURCE_DIR."""
import csv, io, json, os, re, subprocess, sys

sizeup, src = sys.argv[1], sys.argv[2]
fails = 0


def check(what, cond):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond


base = [sizeup, "rank", "--points", os.path.join(src, "data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv"),
        "--catalog", os.path.join(src, "data/catalogs/aws-us-east-1.json"), "--slo", "p95:10ms",
        "--predict"]


def run(*args):
    r = subprocess.run(base + list(args), capture_output=True, text=True)
    check("rank %s exits 0 (%d: %s)" % (" ".join(args), r.returncode, r.stderr.strip()[-200:]),
          r.returncode == 0)
    return r.stdout


rows = [json.loads(l) for l in run("--json").splitlines() if l.strip()]
n = len(rows)
met_after = sum(r["status"] == "met" for r in rows[5:])
check("the ranking has more than 5 rows (%d)" % n, n > 5)
order = [r["config"] for r in rows]

text = run("--top", "5")
lines = text.splitlines()
head = next(i for i, l in enumerate(lines) if l.startswith("rank config"))
end = next(i for i, l in enumerate(lines) if l.startswith("... "))
shown = [l.split()[1] for l in lines[head + 1:end]]
check("text --top 5: the table holds the first 5 configurations of the ranking %s" % shown,
      shown == order[:5])
m = re.search(r"\.\.\. (\d+) more configurations not shown \((\d+) of them ranked\)",
              text)
check("text --top 5: says %s more, %s of them ranked (the JSON: %d, %d)"
      % (m and m.group(1), m and m.group(2), n - 5, met_after),
      m is not None and int(m.group(1)) == n - 5 and int(m.group(2)) == met_after)

md = run("--top", "5", "--markdown")
md_rows = [l for l in md.splitlines() if l.startswith("| ") and not l.startswith("| rank")]
check("markdown --top 5: 5 table rows (%d)" % len(md_rows), len(md_rows) == 5)
check("markdown --top 5: says how many more", "... %d more configurations not shown (%d of them ranked"
      % (n - 5, met_after) in md)

every = run("--top", "0")
check("text --top 0: every configuration, no 'more' line",
      all(re.search(r"^ *\S+ +%s " % re.escape(c), every, re.M) for c in order)
      and "more configurations not shown" not in every)
check("text, default: %d rows are within 1000, no 'more' line" % n,
      n > 1000 or "more configurations not shown" not in run())
c = list(csv.reader(io.StringIO(run("--top", "5", "--csv"))))
check("csv --top 5: every row (%d of %d)" % (len(c) - 1, n), len(c) - 1 == n)
sys.exit(1 if fails else 0)
