#!/usr/bin/env bash
# sizeup report: the HTML page of the IDC-versus-cloud table parses and carries the expected SVG
# series and point counts (check_report.py, counts from the CSV), each level's error bar at its
# coordinates (check_errorbars.py); with /usr/bin/chromium present,
# a headless screenshot is a non-empty PNG and the page logs no console message.
set -u
bin=${SIZEUP_BIN:?}
src=${SIZEUP_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
csv="$src/data/published/rds-idc-vs-cloud-4c16g.csv"

"$bin" report --points "$csv" --catalog "$src/data/catalogs/published.json" --slo avg:20ms \
    -o "$tmp/report.html" || { echo "FAIL: sizeup report exited $?"; exit 1; }
"$bin" rank --points "$csv" --catalog "$src/data/catalogs/published.json" --slo avg:20ms \
    --json > "$tmp/ranking.jsonl" || { echo "FAIL: sizeup rank --json exited $?"; exit 1; }
python3 "$src/tests/advisor/check_report.py" "$tmp/report.html" "$csv" "$tmp/ranking.jsonl" || fail=1

# --predict: predicted configurations are drawn dashed (series "predicted", hollow
# "predicted-points"), measured ones as before; the page says how sure the ranking is
aws="$src/data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv"
grep -E '^(#|target,|c5\.xlarge,|c5\.12xlarge,|c6g\.xlarge,|c6g\.12xlarge,)' "$aws" >"$tmp/two.csv"
"$bin" report --points "$tmp/two.csv" --catalog "$src/data/catalogs/aws-us-east-1.json" \
    --slo p95:10ms --predict -o "$tmp/pred.html" || { echo "FAIL: report --predict exited $?"; fail=1; }
python3 - "$tmp/pred.html" <<'PY' || fail=1
import re, sys
html = open(sys.argv[1]).read()
measured = {"c5.xlarge", "c5.12xlarge", "c6g.xlarge", "c6g.12xlarge"}
plots = re.findall(r"<title>([^<]+) — oltp_read_only: throughput</title>(.*?)</svg>", html, re.S)
bad = 0
for name, body in plots:
    series = set(re.findall(r'data-series="([^"]+)"', body))
    want = {"fit", "measured"} if name in measured else {"predicted", "predicted-points"}
    if not want <= series or (name not in measured and "measured" in series):
        print("FAIL: %s plot series %s" % (name, sorted(series)))
        bad = 1
if len(plots) < 12 or not measured <= {n for n, _ in plots}:
    print("FAIL: %d throughput plots" % len(plots))
    bad = 1
for text in ("How sure", "Break-even:", "Probe next:", "stroke-dasharray:7 4"):
    if text not in html:
        print("FAIL: no %r in the page" % text)
        bad = 1
print("ok   report --predict: %d plots, predicted ones dashed" % len(plots) if not bad else "")
sys.exit(bad)
PY

# error bars: each level's 95 % interval drawn at its coordinates (check_errorbars.py computes
# them from the plot's own axes); level records of the probe's passes, taken as recorded; a linear
# x axis (1..16 threads) and a log2 one (1..64, the last interval clipped at 0 tps)
for top in 16 64; do
    python3 - "$tmp/eb$top.jsonl" "$top" <<'PY'
import json, sys
levels = [(1, 1000, 40), (2, 1900, 95), (4, 3500, 200), (8, 5200, 260), (16, 5600, 700),
          (32, 5400, 900), (64, 4000, 4500)]
with open(sys.argv[1], "w") as f:
    for th, tps, h in levels:
        if th > int(sys.argv[2]):
            break
        f.write(json.dumps({"schema": "sizeup.point/1", "target": "lab", "config": "local-mariadb",
                            "workload": "oltp_read_write", "threads": th, "tps": tps, "ci95_tps": h,
                            "latency_ms": {"avg": th * 1e3 / tps, "p95": 2 * th * 1e3 / tps},
                            "extra": {"interval": {"method": "replicates", "replicates": 3, "df": 4,
                                                   "pooled": []}},
                            "source": {"kind": "probe"}}) + "\n")
PY
    "$bin" report --points "$tmp/eb$top.jsonl" --catalog "$src/data/catalogs/local.json" \
        --slo p95:20ms -o "$tmp/eb$top.html" || { echo "FAIL: report of eb$top exited $?"; fail=1; }
    python3 "$src/tests/advisor/check_errorbars.py" "$tmp/eb$top.html" "$tmp/eb$top.jsonl" \
        local-mariadb || fail=1
done
grep -q "log2 x axis" <(python3 "$src/tests/advisor/check_errorbars.py" "$tmp/eb64.html" \
    "$tmp/eb64.jsonl" local-mariadb) || { echo "FAIL: the 64-thread plot is not log2"; fail=1; }

# Markdown summary
"$bin" report --markdown --points "$csv" --slo avg:100ms >"$tmp/report.md" || fail=1
grep -q '^| 1 | idc-nvme |' "$tmp/report.md" || { echo "FAIL: markdown lacks the ranking"; fail=1; }

# a failed write leaves no file
"$bin" report --points "$csv" --slo avg:20ms -o "$tmp/no-such-dir/r.html" 2>"$tmp/err" && fail=1
grep -q 'no-such-dir' "$tmp/err" || { echo "FAIL: no error for an unwritable -o"; fail=1; }

if [ -x /usr/bin/chromium ]; then
    mkdir "$tmp/profile"
    timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --hide-scrollbars \
        --window-size=1200,2400 --screenshot="$tmp/shot.png" "file://$tmp/report.html" \
        >"$tmp/chromium.out" 2>"$tmp/chromium.err"
    size=$(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0)
    if [ "$size" -lt 20000 ]; then
        echo "FAIL: screenshot is $size bytes"; cat "$tmp/chromium.err" | tail -5; fail=1
    else
        echo "ok   screenshot $size bytes"
    fi
    if grep -E 'CONSOLE|Failed to load resource|Uncaught' "$tmp/chromium.err"; then
        echo "FAIL: console messages above"; fail=1
    else
        echo "ok   no console messages"
    fi
    [ -n "${SIZEUP_REPORT_SHOT:-}" ] && cp "$tmp/shot.png" "$SIZEUP_REPORT_SHOT"
else
    echo "skip: /usr/bin/chromium not installed (screenshot check)"
fi
[ $fail = 0 ] && echo "report: all checks passed"
exit $fail
