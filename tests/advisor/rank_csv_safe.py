#!/usr/bin/env python3
"""rank --csv with hostile names (issue 27.4): the published IDC-versus-cloud table and catalog,
with target and configuration renamed to a formula holding a comma and quotes. Read back with
Python's csv module (RFC 4180), every row has the header's number of fields and no cell starts
with a formula character (OWASP's CSV-injection rule: = + - @ tab CR); the hostile name reads
back as itself behind one apostrophe. Run: rank_csv_safe.py SIZEUP SOURCE_DIR."""
import csv, io, os, subprocess, sys, tempfile

sizeup, src = sys.argv[1], sys.argv[2]
evil = '=HYPERLINK("http://x","a,b")'
fails = 0
def check(what, cond):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond

with tempfile.TemporaryDirectory() as d:
    cat = open(os.path.join(src, "data/catalogs/published.json")).read()
    cat = cat.replace('"id": "idc-nvme"', '"id": ' + __import__("json").dumps(evil))
    table = open(os.path.join(src, "data/published/rds-idc-vs-cloud-4c16g.csv")).read()
    table = table.replace("\nidc-nvme,", "\n" + '"' + evil.replace('"', '""') + '",')
    open(os.path.join(d, "cat.json"), "w").write(cat)
    open(os.path.join(d, "t.csv"), "w").write(table)
    r = subprocess.run([sizeup, "rank", "--points", os.path.join(d, "t.csv"), "--catalog",
                        os.path.join(d, "cat.json"), "--slo", "avg:20ms", "--csv"],
                       capture_output=True, text=True)
    check(f"rank --csv exit 0 (got {r.returncode}: {r.stderr.strip()[:200]})", r.returncode == 0)
    rows = list(csv.reader(io.StringIO(r.stdout)))
    check("a header and 4 configurations", len(rows) == 5)
    for row in rows:
        check(f"{len(row)} fields = the header's {len(rows[0])}", len(row) == len(rows[0]))
        for cell in row:
            if cell and cell[0] in "=+@\t\r" or (cell[:1] == "-" and not cell[1:2].isdigit()):
                check(f"cell {cell!r} starts with a formula character", False)
    names = [row[1] for row in rows[1:]]
    check(f"the hostile id reads back as itself behind an apostrophe ({names})",
          "'" + evil in names)
sys.exit(1 if fails else 0)
