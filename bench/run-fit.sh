#!/usr/bin/env bash
# run-fit.sh [BUILD_DIR] - fit throughput of models/ on one core.
#
# Prints (1) USL fits per second for a large batch of synthetic 8-point curves (bench_fit,
# one thread, pinned to one CPU with taskset when available), (2) the time bench_fit needs to
# fit every curve of the published tables (auto selection: USL + Amdahl + piecewise), and
# (3) the wall time of `sizeup fit` over all published tables, end to end (import, fit, print).
# Build first: cmake -S . -B build && cmake --build build -j2
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
curves=${BENCH_FIT_CURVES:-200000}
bench=$build/bench/bench_fit
sizeup=$build/sizeup
for f in "$bench" "$sizeup"; do
    [ -x "$f" ] || { echo "run-fit.sh: $f not built (cmake --build $build)" >&2; exit 2; }
done
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
cd "$root"
echo "== bench_fit: $curves synthetic curves, then the published tables"
"${pin[@]}" "$bench" "$curves" data/published/*.csv
echo "== sizeup fit over every published table (import + fit + text output), 20 runs"
TIMEFORMAT='%R %U %S'
t=$( { time (for _ in $(seq 20); do
    "${pin[@]}" "$sizeup" fit data/published/*.csv >/dev/null 2>&1 || true
done) ; } 2>&1 )
echo "$t" | awk '{ printf "sizeup fit data/published/*.csv: %.1f ms CPU (user+sys), %.1f ms wall per run\n", ($2 + $3) * 1000 / 20, $1 * 1000 / 20 }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows the figures)"
