#!/usr/bin/env bash
# run-rank.sh [BUILD_DIR] - time `sizeup rank`'s ranking step.
#
# Prints (1) bench_rank: 100,000 configurations x 1 workload ranked from curves fitted
# beforehand (and again with each configuration fitting its own curve first), and (2) the
# wall time of `sizeup rank` end to end on the IDC-versus-cloud table (import, fit, rank, print).
# Build first: cmake -S . -B build && cmake --build build -j2
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bench=$build/bench/bench_rank
sizeup=$build/sizeup
for f in "$bench" "$sizeup"; do
    [ -x "$f" ] || { echo "run-rank.sh: $f not built (cmake --build $build)" >&2; exit 2; }
done
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
cd "$root"
echo "== bench_rank: ${BENCH_RANK_CONFIGS:-100000} configurations"
"${pin[@]}" "$bench" "${BENCH_RANK_CONFIGS:-100000}" 1000
echo "== bench_rank: 5,000 configurations"
"${pin[@]}" "$bench" 5000 1000 0 | sed -n 2p
echo "== sizeup rank on data/published/rds-idc-vs-cloud-4c16g.csv, 20 runs"
TIMEFORMAT='%R'
t=$( { time (for _ in $(seq 20); do
    "${pin[@]}" "$sizeup" rank --points data/published/rds-idc-vs-cloud-4c16g.csv --slo avg:20ms >/dev/null
done) ; } 2>&1 )
echo "$t" | awk '{ printf "sizeup rank (4 configurations, end to end): %.1f ms wall per run\n", $1 * 1000 / 20 }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows the figures)"
