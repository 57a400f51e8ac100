#!/usr/bin/env bash
# run-import-big.sh [SIZEUP] [REPORTS] - import one sysbench run with REPORTS intermediate
# reports (default 1,450,000, the size issue 27.12 met: 2.92 GB of memory and a 253 MB record
# that no reader takes). Makes the log (about 180 MB at the default) in a temporary folder from
# a real sysbench 1.0.20 run's header and summary (tests/fixtures/sysbench/oltp_read_write-2t.log),
# and prints the import's wall and CPU time, its peak memory, the record's size and its number
# of series entries, with the machine's load. Compare two builds side by side with farm-bench:
#   farm-bench --vs 'bench/run-import-big.sh NEW' -- bench/run-import-big.sh OLD
set -eu
sizeup=${1:-build/sizeup}
n=${2:-1450000}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$here/tests/fixtures/sysbench/oltp_read_write-2t.log" "$tmp/big.log" "$n" <<'PY'
import random, sys
src, out, n = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
random.seed(1)
pre = src[:src.index("[ 1s ]")]
last = src.rindex(" reconn/s: ")
post = src[src.index("\n", last) + 1:]
with open(out, "w") as f:
    f.write(pre)
    for i in range(1, n + 1):
        tps = 900 + random.random() * 50
        f.write("[ %ds ] thds: 2 tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,95%%): %.2f "
                "err/s: 0.00 reconn/s: 0.00\n" % (i, tps, tps * 20, tps * 14, tps * 4, tps * 2,
                                                  5 + random.random()))
    f.write(post)
PY
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(grep -c '^\[' "$tmp/big.log") reports, $(du -m "$tmp/big.log" | cut -f1) MB"
/usr/bin/time -f "import: %e s wall, %U s user, %S s sys, %M KiB peak" \
    "$sizeup" import "$tmp/big.log" --workload oltp_read_write -o "$tmp/p.jsonl" 2>&1 | grep "^import:"
python3 -c "import json,sys; p=json.loads(open(sys.argv[1]).readline()); print('record: %d bytes, %d series entries, series_step %s' % (len(open(sys.argv[1]).read()), len(p.get('series', [])), p.get('series_step', 1)))" "$tmp/p.jsonl"
