#!/usr/bin/env bash
# run-calib.sh - calibrated short probe points and the --threads auto ladder against fixed runs
# (issue 5). Not a test: it prints figures.
#
#   bench/run-calib.sh [--sizeup BIN] [--port N] [--dir DIR] [--reps R] [--fixed S]
#                      [--sweep-time S] [--max-points N] [--tables N] [--table-size N]
#                      [--only points|ladder|coverage|time|precision] [--rounds N]
#                      [--fixed-rounds N] [--precision P] [--replicates N] [--time-curves C]
#
# Starts its own throwaway MariaDB (scripts/mariadb-server.sh) on 127.0.0.1:PORT (default 23114,
# datadir DIR, default /tmp/calib-bench), prepares TABLES x TABLE_SIZE rows (4 x 50000), then:
#
# 1. points: for oltp_point_select and oltp_read_write at 4 and 16 threads, R repetitions
#    (default 3) of a calibrated point (default --precision 2%, --min-time 5, --max-time 60) and
#    a fixed --time S run (default 60), alternated (calibrated first in odd repetitions, fixed
#    first in even ones). Prints per configuration the mean fixed tps (the reference), the
#    fixed runs' own spread, each calibrated tps with its error against the reference, the
#    recorded 95 % half-width and steady flag; then over all configurations the median |error|
#    and the time ratio (sum of calibrated elapsed / sum of fixed elapsed).
#    Goal: median |error| <= 3 % at a time ratio <= 0.15.
# 2. ladder: oltp_read_write with --threads auto (default precision, --max-points N, default 8)
#    against a dense fixed sweep 1,2,3,4,6,8,12,16,24,32,48,64 of --sweep-time S each (default
#    20); both curves go through `sizeup fit`; prints the time ratio (ladder elapsed / sweep
#    elapsed, and against a sweep of 60 s levels) and the difference in fitted peak (or
#    ceiling) throughput and in the highest measured tps.
#
# 3. coverage (issue 14; --only coverage, or precision = coverage then time): for
#    oltp_point_select and oltp_read_write at 2, 4 and 16 threads, N rounds (--rounds, default 6);
#    each round measures every configuration once as a calibrated point in passes (one level,
#    --precision P, default 5 %, --replicates R, default 5: its record is the level pooled over
#    its replicates, run-to-run noise included) and, in --fixed-rounds of them (default 4, spread
#    over the rounds), once as a fixed --time S run (default 60), calibrated and fixed first in
#    alternate rounds, so the reference (the mean of a configuration's fixed runs) spans the same
#    time as its calibrated points. The calibrated points share one target (the round is their
#    --config), so each point's interval is no narrower than the server's noise floor over the
#    levels measured before it in the file, as `probe run --out` does for a user's earlier runs.
#    Prints for each configuration the reference, the fixed runs'
#    CV, each calibrated point's error and stated 95 % half-width and whether it contains the
#    reference; then the fraction of intervals that contain it (goal >= 90 %) and the noise floor
#    (the fixed runs' pooled CV, and what the passes said). `uptime` is logged before every round.
# 4. time (--only time, or precision): --time-curves C times (default 2): oltp_read_write
#    --threads auto --max-points 6 at --precision P in passes (a fresh --out and target each: the
#    curve alone, no earlier levels), then the same levels as a sweep of fixed --time S runs.
#    Prints each curve's time ratio (its wall time / its sweep's) and the ratio over all curves
#    (goal <= 0.3), each level's interval and whether it contains the reference: the mean of
#    every fixed run of that level in the sweeps (up to C of them, minutes apart).
#
# The records are left in DIR/*.jsonl for auditing. On a shared, loaded machine throughput
# drifts with the neighbours' load: the figures carry that noise (say so when quoting them).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sizeup=$here/build/sizeup
port=23114
dir=/tmp/calib-bench
reps=3
fixed=60
sweep_time=20
max_points=8
tables=4
table_size=50000
only=
rounds=6
fixed_rounds=4
precision=5%
replicates=5
time_curves=2
while [ $# -gt 0 ]; do
    case $1 in
    --sizeup) sizeup=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --fixed) fixed=$2; shift 2 ;;
    --sweep-time) sweep_time=$2; shift 2 ;;
    --max-points) max_points=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
    --table-size) table_size=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --fixed-rounds) fixed_rounds=$2; shift 2 ;;
    --precision) precision=$2; shift 2 ;;
    --replicates) replicates=$2; shift 2 ;;
    --time-curves) time_curves=$2; shift 2 ;;
    -h|--help) sed -n '2,49p' "$0"; exit 0 ;;
    *) echo "run-calib.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
"$here/scripts/mariadb-server.sh" start "$dir" "$port" >&2
export MYSQL_PWD=sbtest
trap '"$here/scripts/mariadb-server.sh" stop "$dir" >&2 || true' EXIT
conn=(--mysql-host 127.0.0.1 --mysql-port "$port" --tables "$tables" --table-size "$table_size")
"$sizeup" probe "${conn[@]}" cleanup >/dev/null
"$sizeup" probe "${conn[@]}" --threads "$tables" prepare >/dev/null
res=$dir/results
mkdir -p "$res"
rm -f "$res"/*.jsonl

load() { echo "run-calib: load $(uptime) ($1)" >>"$res/load.log"; }

if [ "$only" = coverage ] || [ "$only" = precision ]; then
    load "coverage start"
    for round in $(seq 1 "$rounds"); do
        load "round $round"
        # the fixed runs: fixed_rounds of the rounds, spread evenly over them
        fix_now=$(python3 -c "import sys; n, f, r = map(int, sys.argv[1:]); \
print(int(any(round(1 + i * (n - 1) / max(f - 1, 1)) == r for i in range(f))))" \
            "$rounds" "$fixed_rounds" "$round")
        for w in oltp_point_select oltp_read_write; do
            for t in 2 4 16; do
                if [ $((round % 2)) -eq 1 ]; then order="cal fix"; else order="fix cal"; fi
                for kind in $order; do
                    [ "$kind" = fix ] && [ "$fix_now" = 0 ] && continue
                    if [ "$kind" = cal ]; then
                        opt=(--precision "$precision" --replicates "$replicates")
                    else
                        opt=(--time "$fixed")
                    fi
                    echo "run-calib: round $round $w $t threads $kind ($(date -u +%T))" >&2
                    # one target for the server's calibrated points (their earlier level
                    # records in the file are its noise floor, advisor/plan/passes.h), the round in
                    # --config
                    "$sizeup" probe "${conn[@]}" --workload "$w" --threads "$t" "${opt[@]}" \
                        --target "$kind" --config "r$round" --out "$res/coverage.jsonl" run \
                        >/dev/null 2>>"$res/coverage.$w.$t.$kind.log"
                done
            done
        done
    done
    load "coverage end"
    python3 "$here/bench/calib_report.py" --coverage "$res" || true
    [ "$only" = coverage ] && exit 0
fi
if [ "$only" = time ] || [ "$only" = precision ]; then
    rm -f "$res"/time-auto.* "$res"/time-fixed.* "$res/time-wall.txt"
    # a curve or sweep that fails ends the loop; the curves measured so far are still reported
    for c in $(seq 1 "$time_curves"); do
        load "time: curve $c start"
        echo "run-calib: time: curve $c: --threads auto, 6 levels, --precision $precision" \
            "($(date -u +%T))" >&2
        t0=$(date +%s.%N)
        if ! "$sizeup" probe "${conn[@]}" --workload oltp_read_write --threads auto \
            --max-points 6 --precision "$precision" --replicates "$replicates" \
            --target "auto$c" --out "$res/time-auto.$c.jsonl" run \
            >/dev/null 2>>"$res/time-auto.$c.log"; then
            echo "run-calib: time: curve $c failed (see $res/time-auto.$c.log)" >&2
            break
        fi
        t1=$(date +%s.%N)
        levels=$(python3 -c "import json, sys; print(','.join(sorted({str(json.loads(l)['threads'])
    for l in open(sys.argv[1]) if l.strip()}, key=int)))" "$res/time-auto.$c.jsonl")
        if [ -z "$levels" ]; then
            echo "run-calib: time: curve $c wrote no records" >&2
            break
        fi
        load "time: curve $c: fixed levels $levels"
        echo "run-calib: time: curve $c: fixed $fixed s levels $levels ($(date -u +%T))" >&2
        if ! "$sizeup" probe "${conn[@]}" --workload oltp_read_write --threads "$levels" \
            --time "$fixed" --target "fixed$c" --out "$res/time-fixed.jsonl" run \
            >/dev/null 2>>"$res/time-fixed.log"; then
            echo "run-calib: time: the sweep of curve $c failed (see $res/time-fixed.log)" >&2
            break
        fi
        t2=$(date +%s.%N)
        echo "$c $t0 $t1 $t2" >>"$res/time-wall.txt"
    done
    load "time end"
    python3 "$here/bench/calib_report.py" --time "$res" || true
    exit 0
fi

[ "$only" = ladder ] && reps=0
for rep in $(seq 1 "$reps"); do
    for w in oltp_point_select oltp_read_write; do
        for t in 4 16; do
            if [ $((rep % 2)) -eq 1 ]; then order="cal fix"; else order="fix cal"; fi
            for kind in $order; do
                if [ "$kind" = cal ]; then opt=(); else opt=(--time "$fixed"); fi
                echo "run-calib: rep $rep $w $t threads $kind ($(date -u +%T))" >&2
                "$sizeup" probe "${conn[@]}" --workload "$w" --threads "$t" "${opt[@]}" \
                    --target "$kind" --out "$res/points.jsonl" run >/dev/null 2>>"$res/stderr.log"
            done
        done
    done
done

if [ "$only" = points ]; then
    python3 "$here/bench/calib_report.py" "$res" "$fixed" "$sweep_time"
    exit 0
fi
echo "run-calib: ladder --threads auto ($(date -u +%T))" >&2
"$sizeup" probe "${conn[@]}" --workload oltp_read_write --threads auto \
    --max-points "$max_points" --target auto --out "$res/auto.jsonl" run \
    >/dev/null 2>>"$res/stderr.log"
echo "run-calib: dense sweep, $sweep_time s per level ($(date -u +%T))" >&2
"$sizeup" probe "${conn[@]}" --workload oltp_read_write --threads 1,2,3,4,6,8,12,16,24,32,48,64 \
    --time "$sweep_time" --target dense --out "$res/dense.jsonl" run \
    >/dev/null 2>>"$res/stderr.log"
"$sizeup" fit --json "$res/auto.jsonl" >"$res/auto.fit.jsonl" || true
"$sizeup" fit --json "$res/dense.jsonl" >"$res/dense.fit.jsonl" || true
"$sizeup" fit "$res/auto.jsonl" "$res/dense.jsonl" >"$res/fit.txt" 2>&1 || true

python3 "$here/bench/calib_report.py" "$res" "$fixed" "$sweep_time"
