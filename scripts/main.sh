#!/usr/bin/env bash
# sizeup's main job (README.md, command 1): install what is needed, build, and run a sizing study
# on the built-in defaults. Today the study imports the built-in published benchmark results
# (data/published) into point records and summarises every curve; later steps (fit, rank, report)
# join in as they land.
#
#   scripts/main.sh [OUTDIR]     (default OUTDIR: out/)
set -euo pipefail
cd "$(dirname "$0")/.."
outdir=${1:-out}
scripts/deps.sh
echo "== building sizeup" >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p "$outdir"
sizeup=build/advisor/sizeup
echo "== importing the built-in published results (data/published/*.csv)" >&2
"$sizeup" import -o "$outdir/published.jsonl" data/published/*.csv
echo "== curves in the built-in published results" >&2
"$sizeup" import --summary "$outdir/published.jsonl"
echo "points: $outdir/published.jsonl" >&2
