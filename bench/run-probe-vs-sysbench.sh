#!/usr/bin/env bash
# run-probe-vs-sysbench.sh - `sizeup probe` side by side with Debian's sysbench 1.0.20 on the
# same server and the same tables, runs alternating A/B (sysbench first in odd rounds, sizeup
# first in even rounds).
#
#   bench/run-probe-vs-sysbench.sh [--sizeup BIN] [--port N] [--time S] [--rounds R]
#                                  [--threads "1 4 16"] [--workloads "oltp_point_select ..."]
#                                  [--workers W] [--datadir DIR]
#
# Starts its own throwaway MariaDB (scripts/mariadb-server.sh) on 127.0.0.1:PORT (default
# 24308, datadir build/probe-bench-PORT of this checkout, removed at the end), prepares 4 tables
# x 10000 rows with `sizeup probe prepare` (sizeup runs only on tables that carry its mark,
# sbtables.h; they have sysbench's shape, so sysbench runs on the same tables), then for each
# workload and thread count runs both tools for TIME seconds (default 10) ROUNDS times
# (default 2) and prints, per configuration:
#   tps ratio       sizeup tps / sysbench tps (means over the rounds)
#   p95 ratio       sizeup p95 / sysbench p95 (means over the rounds)
#   cpu/1k ratio    client CPU seconds (user + system, /usr/bin/time) per 1000 transactions,
#                   sizeup / sysbench
#   usr/1k ratio    the user-space part alone (the rest is the kernel's: TCP and the context
#                   switch of every synchronous round trip, the same for both tools)
# Goals (issue 4): point_select tps ratio >= 1.10 with cpu/1k ratio <= 0.5; read_write tps
# ratio within 0.95 .. 1.05. On a shared machine the figures are noisy: run more rounds.
# --workers W is given to sizeup (its OS threads driving the connections; default: its own).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sizeup=$here/build/sizeup
port=24308
workers=()
dir=
dur=10
rounds=2
threads_list="1 4 16"
workloads="oltp_point_select oltp_read_write"
while [ $# -gt 0 ]; do
    case $1 in
    --sizeup) sizeup=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --time) dur=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads_list=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --workers) workers=(--workers "$2"); shift 2 ;;
    --datadir) dir=$2; shift 2 ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "run-probe-vs-sysbench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
command -v sysbench >/dev/null || { echo "sysbench is not installed" >&2; exit 1; }
[ -x "$sizeup" ] || { echo "no sizeup binary at $sizeup (build first, or --sizeup BIN)" >&2; exit 1; }
[ -n "$dir" ] || dir=$here/build/probe-bench-$port
[ ! -e "$dir" ] || { echo "run-probe-vs-sysbench.sh: $dir exists (another run, or a stale one: remove it)" >&2; exit 1; }
tmp=$(mktemp -d)
cleanup() {
    "$here/scripts/mariadb-server.sh" stop "$dir" >/dev/null 2>&1 || true
    rm -rf "$tmp" "$dir"
}
trap cleanup EXIT
"$here/scripts/mariadb-server.sh" start "$dir" "$port" >/dev/null
export MYSQL_PWD=sbtest
common=(--mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=sbtest --mysql-db=sbtest
        --tables=4 --table-size=10000)
szconn=(--no-defaults --mysql-host 127.0.0.1 --mysql-port "$port" --mysql-user sbtest
        --mysql-db sbtest --tables 4 --table-size 10000)
"$sizeup" probe "${szconn[@]}" --threads 4 prepare >/dev/null

# run_one TOOL WORKLOAD THREADS -> "tps p95_ms transactions cpu_s user_s"
run_one() {
    local tool=$1 w=$2 t=$3 out=$tmp/out err=$tmp/time
    if [ "$tool" = sysbench ]; then
        /usr/bin/time -f "%U %S" -o "$err" sysbench "$w" "${common[@]}" --mysql-password=sbtest \
            --threads="$t" --time="$dur" run >"$out" 2>/dev/null
    else
        /usr/bin/time -f "%U %S" -o "$err" "$sizeup" probe --workload "$w" "${szconn[@]}" \
            ${workers[@]+"${workers[@]}"} --threads "$t" --time "$dur" run >"$out" 2>/dev/null
    fi
    awk -v cpu="$(awk '{print $1 + $2}' "$err")" -v usr="$(awk '{print $1}' "$err")" '
        /^    transactions:/ { tx = $2; gsub(/\(/, "", $3); tps = $3 }
        /95th percentile:/ { p95 = $3 }
        END { printf "%s %s %s %s %s\n", tps, p95, tx, cpu, usr }' "$out"
}

printf '%-18s %3s | %10s %10s %6s | %8s %8s %6s | %8s %8s %6s | %8s %8s %6s\n' workload thr \
    "sizeup tps" "sysb tps" ratio "sz p95" "sb p95" ratio "sz cpu/k" "sb cpu/k" ratio \
    "sz usr/k" "sb usr/k" ratio
for w in $workloads; do
    for t in $threads_list; do
        declare -A sum=()
        for k in sz_tps sb_tps sz_p95 sb_p95 sz_tx sb_tx sz_cpu sb_cpu sz_usr sb_usr; do
            sum[$k]=0
        done
        for r in $(seq 1 "$rounds"); do
            if [ $((r % 2)) -eq 1 ]; then order="sysbench sizeup"; else order="sizeup sysbench"; fi
            for tool in $order; do
                read -r tps p95 tx cpu usr <<<"$(run_one "$tool" "$w" "$t")"
                p=sz; [ "$tool" = sysbench ] && p=sb
                sum[${p}_tps]=$(awk -v a="${sum[${p}_tps]}" -v b="$tps" 'BEGIN{print a+b}')
                sum[${p}_p95]=$(awk -v a="${sum[${p}_p95]}" -v b="$p95" 'BEGIN{print a+b}')
                sum[${p}_tx]=$(awk -v a="${sum[${p}_tx]}" -v b="$tx" 'BEGIN{print a+b}')
                sum[${p}_cpu]=$(awk -v a="${sum[${p}_cpu]}" -v b="$cpu" 'BEGIN{print a+b}')
                sum[${p}_usr]=$(awk -v a="${sum[${p}_usr]}" -v b="$usr" 'BEGIN{print a+b}')
                echo "  round $r $tool $w $t: tps $tps p95 $p95 ms tx $tx cpu $cpu s (user $usr s)" >&2
            done
        done
        awk -v w="$w" -v t="$t" -v n="$rounds" -v a="${sum[sz_tps]}" -v b="${sum[sb_tps]}" \
            -v c="${sum[sz_p95]}" -v d="${sum[sb_p95]}" -v e="${sum[sz_cpu]}" -v f="${sum[sz_tx]}" \
            -v g="${sum[sb_cpu]}" -v h="${sum[sb_tx]}" -v zu="${sum[sz_usr]}" \
            -v bu="${sum[sb_usr]}" 'BEGIN {
            zc = 1000 * e / f; bc = 1000 * g / h; zuk = 1000 * zu / f; buk = 1000 * bu / h
            printf "%-18s %3d | %10.1f %10.1f %6.3f | %8.2f %8.2f %6.3f | %8.3f %8.3f %6.3f | %8.4f %8.4f %6.3f\n",
                   w, t, a / n, b / n, a / b, c / n, d / n, (d > 0 ? c / d : 0), zc, bc,
                   (bc > 0 ? zc / bc : 0), zuk, buk, (buk > 0 ? zuk / buk : 0) }'
        unset sum
    done
done
"$sizeup" probe "${szconn[@]}" cleanup >/dev/null
echo "(means of $rounds alternating rounds of ${dur} s; machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
