#!/usr/bin/env bash
# --max-time is a wall-clock limit of a calibrated level (issue 12.2, probes/probe.h), on the
# fixture's MariaDB: a closed-loop calibrated level (--max-time 6, a precision it cannot reach)
# whose process is stopped twice for 0.8 s (SIGSTOP/SIGCONT of the probe itself: the aggregator
# misses its ticks, as on a loaded machine, deterministically). The level must still end by its
# limit: its record's elapsed_s at most --max-time + 0.9 s (three ticks and a little for the aggregator's
# wake-up and the events in flight). Counting ticks instead (the missed ones are skipped, so 1.6 s
# of wall time count for two ticks) ran such a level to the connections' own backstop,
# --max-time + 4 ticks = 7 s. The record must also audit (calib_audit.py: an independent replay
# of MSER-5 and 20 batch means from its series, with the ticks' times taken from the series) and
# a level not steady must have run its whole --max-time.
# A stop of 0.8 s stays below PROBE_SILENCE_FLAG_S (1.2 s, the server answering nobody as the
# probe saw it); if the loaded machine stretches it, the level is flagged stalled (and ends at once
# past PROBE_STALL_S, 2 s) and is measured again: every record is checked against the limit, the
# unflagged ones audited.
. "$(dirname "$0")/probe_lib.sh"
here=$(dirname "$0")

drop_sbtest_tables
probe prepare --tables 1 --table-size 1000 >/dev/null 2>&1
check_eq "prepare exit" $? 0

start=$(date +%s.%N)
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe "${PROBE_CONN[@]}" run \
    --workload oltp_point_select --tables 1 --table-size 1000 --threads 2 --precision 0.1% \
    --min-time 1 --max-time 6 --replicates 1 --remeasure 2 --out "$TMPD/d.jsonl" \
    >"$TMPD/d.out" 2>"$TMPD/d.err" &
pid=$!
thaw() { kill -CONT "$pid" 2>/dev/null; }
trap thaw EXIT
sleep 1
kill -STOP "$pid"
sleep 0.8
thaw
sleep 1.2
kill -STOP "$pid"
sleep 0.8
thaw
wait "$pid"
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
check_eq "run exit" $rc 0
n=$(wc -l <"$TMPD/d.jsonl")
check_true "records written ($n)" test "$n" -ge 1
# the command: each level within its limit + 3 s (connecting, the report, a loaded machine)
check_true "the command took at most $n x (6 + 3) s ($took s)" \
    test "$(echo "$took <= $n * (6 + 3)" | bc)" = 1
for i in $(seq 1 "$n"); do
    check_eq "record $i: elapsed_s within --max-time 6 + 0.9 s" \
        "$(json_get "$TMPD/d.jsonl" "$i" 'p["extra"]["calibration"]["elapsed_s"] <= 6.9 or p["extra"]["calibration"]["elapsed_s"]')" True
    if [ "$(json_get "$TMPD/d.jsonl" "$i" 'bool(p.get("flags"))')" = False ]; then
        check_true "record $i audits" python3 "$here/calib_audit.py" "$TMPD/d.jsonl" "$i" 0.001 6
    fi
done
# the first level ran across both stops: its series lacks the missed ticks, yet it ran its limit
# (unless a stop stretched to a stall ended it)
check_eq "record 1: ticks missed, the limit run" \
    "$(json_get "$TMPD/d.jsonl" 1 '(p["extra"]["calibration"]["ticks"] < 24 and p["extra"]["calibration"]["elapsed_s"] >= 6) or p["extra"].get("faults", {}).get("longest_silence_s", 0) >= 2')" True

probe cleanup --tables 1 >/dev/null 2>&1
finish
