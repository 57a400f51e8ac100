#!/usr/bin/env bash
# bench/run-faults.sh - the fault campaign of issue 12 (not in CI: it takes minutes).
#
#   bench/run-faults.sh [--minutes M] [--seed S] [--port P] [--dir DIR] [--build BUILD]
#
# Starts a throwaway MariaDB of its own (scripts/mariadb-server.sh, DIR/mariadb, port P, default
# 24008), then for M minutes (default 10) measures against it in turns: `sizeup probe run
# --threads auto` (prepare, run, cleanup; short calibrated levels) and `sizeup study` (an auto
# ladder; the study prepares and drops its tables itself), while an injector with a fixed seed
# (S, default 1: the same faults in the same order at the same gaps) injects at random moments
#   kill9     kill -9 of mysqld, then a restart (the window ends once it answers again),
#   stop      SIGSTOP of mysqld for 2-6 s, then SIGCONT (the window: from kill -STOP's return
#             to just before kill -CONT, when the server was surely stopped),
#   killconn  KILL CONNECTION of a random connection of the probe's user (PROCESSLIST),
# logging each fault's window [start, end] in Unix ns to DIR/run/faults.log (a kill's and a
# stop's moments stamped next to the kill, without a fork). At the end it checks
# (bench/faults_check.py): every line of every results file is a whole record; no point that a
# fault hit (running, by its extra.window, when the fault began) is unflagged (stalled,
# reconnects, interrupted, partial, or incomplete); a level record pools no flagged replicate;
# and, found along the way, no
# sbtest table is left on the server after each cleanup and no process the script started is
# left behind (pgrep -P). It prints the faults injected by kind, the points kept and flagged and
# the violations, and exits 1 when there was any. The server is stopped at the end (always).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
minutes=10 seed=1 port=24008 dir=$root/out/faults build=$root/build
while [ $# -gt 0 ]; do
    case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h | --help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-faults.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
bin=$build/sizeup
[ -x "$bin" ] || { echo "run-faults.sh: $bin not built" >&2; exit 2; }
client=$(command -v mariadb || command -v mysql) || { echo "run-faults.sh: no mariadb client" >&2; exit 2; }
srv=$dir/mariadb
run=$dir/run
rm -rf "$run"
mkdir -p "$run"
: >"$run/faults.log"
: >"$run/violations.log"
printf 'sbtest\n' >"$run/pw"

server() { "$root/scripts/mariadb-server.sh" "$@" >>"$run/server.log" 2>&1; }
rootsql() { "$client" --no-defaults -N -B -S "$srv/mysqld.sock" -uroot -e "$1" 2>/dev/null; }
answers() { rootsql "SELECT 1" >/dev/null; }
now_ns() { date +%s%N; }
# the wall clock now, ns, without a fork (bash 5's EPOCHREALTIME; else date): a fault's moments are
# taken right next to its kill, since a forked `date` on a loaded host came 150 ms after the
# SIGCONT it stamped (a level the thawed server let in then looked frozen)
if [ -n "${EPOCHREALTIME:-}" ]; then
    stamp() { local t=$EPOCHREALTIME; t=${t/[.,]/}; printf -v "$1" '%s000' "$t"; }
else
    stamp() { printf -v "$1" '%s' "$(date +%s%N)"; }
fi
violation() { echo "$*" >>"$run/violations.log"; echo "run-faults: VIOLATION: $*" >&2; }
# wait_answer SECONDS: until the server answers (a fault may be under way)
wait_answer() {
    local until=$(($(date +%s) + $1))
    while [ "$(date +%s)" -lt "$until" ]; do
        answers && return 0
        sleep 0.5
    done
    return 1
}
tables_left() {
    rootsql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME LIKE 'sbtest%'"
}

injector=
cleanup_all() {
    [ -n "$injector" ] && kill "$injector" 2>/dev/null && wait "$injector" 2>/dev/null
    [ -f "$srv/mysqld.pid" ] && kill -CONT "$(cat "$srv/mysqld.pid")" 2>/dev/null
    server stop "$srv"
}
trap cleanup_all EXIT
trap 'exit 130' INT TERM

server start "$srv" "$port" || { echo "run-faults.sh: the server did not start; see $run/server.log" >&2; exit 1; }
end_ns=$(($(now_ns) + minutes * 60 * 1000000000))

# ---- the injector ---------------------------------------------------------------------------
# (sleeps are waited for, so that SIGTERM from the script ends the injector at once)
nap_pid=
nap() { sleep "$1" & nap_pid=$!; wait "$nap_pid"; nap_pid=; }
inject() {
    trap 'kill $nap_pid 2>/dev/null; exit 0' TERM
    RANDOM=$seed
    local pid s e k d ids n id
    while :; do
        # a gap of 4.0-15.9 s between faults
        nap "$((4 + RANDOM % 12)).$((RANDOM % 10))"
        [ "$(now_ns)" -lt "$end_ns" ] || break
        pid=$(cat "$srv/mysqld.pid" 2>/dev/null)
        k=$((RANDOM % 3))
        d=$((2 + RANDOM % 5))
        n=$RANDOM
        case $k in
        0)
            stamp s
            kill -9 "$pid"
            while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
            server start "$srv" "$port"
            e=$(now_ns)
            echo "kill9 $s $e pid=$pid" >>"$run/faults.log"
            ;;
        1)
            # the TERM trap runs between commands: SIGCONT is sent before leaving
            trap 'kill $nap_pid 2>/dev/null; kill -CONT "$pid" 2>/dev/null; exit 0' TERM
            # the window is when the server was surely stopped: from kill -STOP's return to
            # just before kill -CONT (no level can start before the SIGCONT: it needs answers)
            kill -STOP "$pid"
            stamp s
            nap "$d"
            stamp e
            kill -CONT "$pid"
            trap 'kill $nap_pid 2>/dev/null; exit 0' TERM
            echo "stop $s $e ${d}s" >>"$run/faults.log"
            ;;
        2)
            ids=($(rootsql "SELECT ID FROM information_schema.PROCESSLIST WHERE USER='sbtest' AND ID <> CONNECTION_ID() ORDER BY ID"))
            if [ "${#ids[@]}" -eq 0 ]; then
                echo "killconn: no connection of sbtest at $(now_ns)" >>"$run/injector.log"
                continue
            fi
            id=${ids[$((n % ${#ids[@]}))]}
            s=$(now_ns)
            if rootsql "KILL CONNECTION $id"; then
                e=$(now_ns)
                echo "killconn $s $e id=$id of=${#ids[@]}" >>"$run/faults.log"
            else
                echo "killconn: KILL $id failed at $s (the connection ended first)" >>"$run/injector.log"
            fi
            ;;
        esac
    done
}
inject &
injector=$!

# ---- the measurements -------------------------------------------------------------------------
probe() { MYSQL_PWD=sbtest "$bin" probe --mysql-host 127.0.0.1 --mysql-port "$port" \
          --mysql-user sbtest --mysql-db sbtest "$@"; }
# orphans: the script's children are the injector and nothing else between the steps
orphans() {
    local c bad=
    for c in $(pgrep -P $$); do
        [ "$c" = "$injector" ] && continue
        [ -d "/proc/$c" ] || continue
        bad="$bad $c($(tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null))"
    done
    [ -z "$bad" ] || violation "after $1: processes left:$bad"
}
i=0
while [ "$(now_ns)" -lt "$end_ns" ]; do
    i=$((i + 1))
    if [ $((i % 2)) -eq 1 ]; then
        out=$run/probe-$i.jsonl
        wait_answer 60 || { violation "iteration $i: the server does not answer for 60 s"; break; }
        probe cleanup --tables 2 >>"$run/probe-$i.log" 2>&1
        probe prepare --tables 2 --table-size 2000 >>"$run/probe-$i.log" 2>&1
        prc=$?
        rc=-
        if [ $prc -eq 0 ]; then
            probe run --workload oltp_read_write --tables 2 --table-size 2000 --threads auto \
                --max-threads 8 --max-points 5 --precision 5% --min-time 1 --max-time 3 \
                --replicates 2 --budget 40 --give-up 20 --mysql-timeout 5 --remeasure 2 \
                --out "$out" >"$run/probe-$i.out" 2>>"$run/probe-$i.log"
            rc=$?
        fi
        # cleanup until it succeeds (a fault may be under way)
        for _ in 1 2 3 4 5 6; do
            wait_answer 60 && probe cleanup --tables 2 >>"$run/probe-$i.log" 2>&1 && break
            sleep 2
        done
        wait_answer 60
        left=$(tables_left)
        [ "$left" = 0 ] || violation "iteration $i (probe): $left sbtest table(s) left after cleanup"
        echo "run-faults: $i probe: prepare $prc, run $rc, tables left ${left:-?}" >&2
    else
        cat >"$run/study-$i.json" <<JSON
{ "schema": "sizeup.study/1",
  "candidates": [
    { "config": "local-mariadb", "target": "faults",
      "mysql": { "host": "127.0.0.1", "port": $port, "user": "sbtest", "db": "sbtest",
                 "password_file": "$run/pw" },
      "tables": 2, "table_size": 2000 } ],
  "workloads": { "oltp_point_select": 1 },
  "ladder": "auto", "max_threads": 8, "max_points": 4,
  "precision": "5%", "max_time": "3s",
  "slo": "p99:50ms",
  "catalogs": ["$root/data/catalogs/local.json"],
  "output": "$run/study-$i" }
JSON
        "$bin" study "$run/study-$i.json" >"$run/study-$i.out" 2>"$run/study-$i.log"
        rc=$?
        # the study drops its tables on every path (waiting up to 30 s for the server)
        wait_answer 60
        left=$(tables_left)
        [ "$left" = 0 ] || violation "iteration $i (study, exit $rc): $left sbtest table(s) left after the study"
        echo "run-faults: $i study: exit $rc, tables left ${left:-?}" >&2
        # leave nothing for the next turn, whatever happened
        [ "$left" = 0 ] || probe cleanup --tables 2 >>"$run/study-$i.log" 2>&1
    fi
    orphans "iteration $i"
done

kill "$injector" 2>/dev/null
wait "$injector" 2>/dev/null
injector=
sleep 0.2
orphans "the campaign"
echo "run-faults: $i iterations in $minutes min, seed $seed; load: $(uptime | sed 's/.*load average/load average/')"
python3 "$root/bench/faults_check.py" "$run"
