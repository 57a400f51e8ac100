#!/usr/bin/env bash
# bench/run-disk-vs-fio.sh - `sizeup disk` against fio (Debian's 3.33) on the same file system.
#
# Cases (16 KiB blocks, O_DIRECT, the same working-set size for both tools):
#   randread  qd 1 and qd 32   IOPS
#   randwrite qd 1             IOPS
#   fsync     qd 1             sequential 16 KiB write + fdatasync: commits/s, and the latency of
#                              the fdatasync call (fio's "sync" percentiles; sizeup's record has
#                              the same figure as extra.sync_latency_ms next to the whole commit)
# fio runs its psync engine with numjobs = queue depth on one shared file, which is what sizeup
# does (threads issuing pread/pwrite), with ramp_time = sizeup's warm-up and runtime = sizeup's
# measured time (--min-time = --time, so sizeup does not stop early). Offsets are uniform
# random with replacement in both (fio --norandommap), and writes overwrite a laid-out file
# (fio --overwrite=1; sizeup writes its file whole before measuring).
# The tools alternate (fio first in odd rounds, sizeup first in even ones) so a drift of the
# machine hits both alike. Goal: IOPS within +-10 % of fio; fsync p50/p95 within +-15 %.
#
# Usage: bench/run-disk-vs-fio.sh [--dir DIR] [--size SIZE] [--time SECONDS] [--rounds N]
#                                 [--sizeup BIN] [--keep FILE]
#   --dir     folder on the file system to measure (default: build/, the disk the build is on)
#   --size    working set of both tools, fio syntax (default 1G)
#   --time    measured seconds per case and tool (default 10), after 1 s of warm-up
#   --rounds  rounds of alternation (default 3); ratios are reported per round and as a median
#   --keep    also write the raw figures (TSV) to FILE
# Not a timed test: the machine may be shared, and fio's own round-to-round spread is printed
# as the noise floor.
set -euo pipefail

dir=build size=1G time_s=10 rounds=3 sizeup=build/sizeup keep=""
while [ $# -gt 0 ]; do
    case "$1" in
    --dir) dir=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --time) time_s=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --sizeup) sizeup=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "run-disk-vs-fio.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
command -v fio >/dev/null || { echo "run-disk-vs-fio.sh: fio is not installed" >&2; exit 1; }
[ -x "$sizeup" ] || { echo "run-disk-vs-fio.sh: $sizeup is not built" >&2; exit 1; }
[ -d "$dir" ] || { echo "run-disk-vs-fio.sh: $dir: no such directory" >&2; exit 1; }

work=$(cd "$dir" && pwd)/fio-vs-sizeup.$$
mkdir "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
raw=$work/raw.tsv
: >"$raw"

echo "fio: $(fio --version); sizeup: $("$sizeup" --version)"
echo "file system: $(df -T "$dir" | awk 'NR==2 {print $2, $1}'), working set $size, ${time_s}s per run, $rounds round(s)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPU(s)"

# fio CASE QD ROUND: one fio run, figures appended to $raw
run_fio() {
    local test=$1 qd=$2 round=$3 rw extra=()
    case "$test" in
    randread) rw=randread ;;
    randwrite) rw=randwrite ;;
    fsync) rw=write; extra=(--fdatasync=1) ;;
    esac
    fio --name="$test" --directory="$work" --filename=fio.data --size="$size" --bs=16k \
        --rw="$rw" "${extra[@]}" --ioengine=psync --direct=1 --numjobs="$qd" --thread \
        --group_reporting --norandommap --randrepeat=0 --overwrite=1 --time_based \
        --ramp_time=1 --runtime="$time_s" --output-format=json >"$work/fio.json" 2>"$work/fio.err"
    python3 - "$work/fio.json" "$test" "$qd" "$round" >>"$raw" <<'PY'
import json, sys
path, test, qd, rnd = sys.argv[1:]
job = json.load(open(path))["jobs"][0]
side = job["read"] if test == "randread" else job["write"]
p50 = p95 = "nan"
if test == "fsync":
    pct = job["sync"]["lat_ns"]["percentile"]
    p50, p95 = pct["50.000000"] / 1e6, pct["95.000000"] / 1e6
print("fio", test, qd, rnd, side["iops"], p50, p95, sep="\t")
PY
}

# sizeup CASE QD ROUND
run_sizeup() {
    local test=$1 qd=$2 round=$3
    rm -f "$work/sizeup.jsonl"
    "$sizeup" disk --dir "$work" --size "$size" --tests "$test" --iodepth "$qd" \
        --time "${time_s}s" --min-time "${time_s}s" --warmup 1s --interval 1s \
        --target bench --out "$work/sizeup.jsonl" >"$work/sizeup.out" 2>"$work/sizeup.err"
    python3 - "$work/sizeup.jsonl" "$test" "$qd" "$round" >>"$raw" <<'PY'
import json, sys
path, test, qd, rnd = sys.argv[1:]
rec = json.loads(open(path).read().splitlines()[-1])
p50 = p95 = "nan"
if test == "fsync":
    sl = rec["extra"]["sync_latency_ms"]
    p50, p95 = sl["p50"], sl["p95"]
print("sizeup", test, qd, rnd, rec["tps"], p50, p95, sep="\t")
PY
}

cases=("randread 1" "randread 32" "randwrite 1" "fsync 1")
for ((r = 1; r <= rounds; r++)); do
    for c in "${cases[@]}"; do
        set -- $c
        echo "round $r: $1 qd $2" >&2
        if ((r % 2 == 1)); then
            run_fio "$1" "$2" "$r"
            run_sizeup "$1" "$2" "$r"
        else
            run_sizeup "$1" "$2" "$r"
            run_fio "$1" "$2" "$r"
        fi
    done
done
[ -n "$keep" ] && cp "$raw" "$keep"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$raw" <<'PY'
import math, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
data = {}
for tool, test, qd, rnd, iops, p50, p95 in rows:
    data.setdefault((test, int(qd)), {}).setdefault(int(rnd), {})[tool] = (
        float(iops), float(p50), float(p95))

def verdict(ratio, tol):
    return "ok" if abs(ratio - 1) <= tol else "OUT"

print()
print("%-10s %3s %5s %12s %12s %7s" % ("case", "qd", "round", "fio", "sizeup", "ratio"))
summary = []
for (test, qd), per in data.items():
    metrics = [("IOPS", 0, 0.10)]
    if test == "fsync":
        metrics = [("commits/s", 0, 0.10), ("sync p50 ms", 1, 0.15), ("sync p95 ms", 2, 0.15)]
    for name, i, tol in metrics:
        ratios, fio_vals = [], []
        for rnd in sorted(per):
            f, s = per[rnd].get("fio"), per[rnd].get("sizeup")
            if not f or not s:
                continue
            ratio = s[i] / f[i]
            ratios.append(ratio)
            fio_vals.append(f[i])
            print("%-10s %3d %5d %12.3f %12.3f %7.3f  %s" % (test, qd, rnd, f[i], s[i], ratio, name))
        if ratios:
            med = statistics.median(ratios)
            spread = (max(fio_vals) / min(fio_vals) - 1) if len(fio_vals) > 1 else float("nan")
            summary.append((test, qd, name, med, min(ratios), max(ratios), spread, tol))
print()
print("%-10s %3s %-12s %8s %15s %12s %6s" % ("case", "qd", "figure", "median", "range", "fio spread", "goal"))
for test, qd, name, med, lo, hi, spread, tol in summary:
    print("%-10s %3d %-12s %8.3f %7.3f-%-7.3f %11.1f%% %3s %s" % (
        test, qd, name, med, lo, hi, 100 * spread, "+-%d%%" % round(tol * 100), verdict(med, tol)))
print("\nratio = sizeup / fio; 'fio spread' = max/min - 1 of fio's own figure across rounds (noise).")
PY
