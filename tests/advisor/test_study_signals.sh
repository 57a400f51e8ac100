#!/usr/bin/env bash
# sizeup study and signals (issue 12.5, 12.6; issue 13: a study probes in-process), against the
# fixture's MariaDB:
#   - SIGTERM and SIGINT sent to the study's pid alone while a level is measured: exit 130, no
#     child process at any moment (sampled with pgrep -P all along the run), the interrupted
#     level's record marked interrupted, the sbtest tables dropped (information_schema), and
#     `study --resume` afterwards measures every level once and none twice (complete records
#     counted per level);
#   - `sizeup probe run` under SIGTERM: exit 130, the level's record marked interrupted;
#   - checked at load, before any connection (the server's Connections counter does not move)
#     and before any table: a latency target without its unit ("p95:50") and a ladder level
#     above the probe's limit ([5000]), each named with file:line:column; "avg:20ms" is a good
#     target and an auto-ladder study runs with it.
. "$(dirname "$0")/../probes/probe_lib.sh"
root=$PWD

study() { # study FILE LADDER OUTPUT SLO [MAX_TIME]
    cat >"$1" <<JSON
{ "schema": "sizeup.study/1",
  "candidates": [
    { "config": "local-mariadb", "target": "lab",
      "mysql": { "host": "127.0.0.1", "port": $SIZEUP_MYSQL_PORT,
                 "user": "$SIZEUP_MYSQL_USER", "db": "$SIZEUP_MYSQL_DB", "password_file": "pw" },
      "tables": 2, "table_size": 1000 } ],
  "workloads": { "oltp_point_select": 1 },
  "ladder": $2, "max_threads": 2, "max_points": 2,
  "precision": "1%", "max_time": "${5:-6s}",
  "slo": "$4",
  "catalogs": ["$root/data/catalogs/local.json"],
  "output": "$3" }
JSON
}
# children PID: a line "pid command" per child process of PID. In a sanitizer build LeakSanitizer
# checks for leaks at exit from a tracer it clones off the process (no exec: the same command
# line): that clone is not a process the study started and is left out there; a child gone
# before its command line is read counts only in a normal build.
children() {
    local c cmd self
    self=$(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline")
    for c in $(pgrep -P "$1"); do
        cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$c/cmdline")
        if [ "${SIZEUP_SANITIZED:-0}" = 1 ] && { [ -z "$cmd" ] || [ "$cmd" = "$self" ]; }; then
            continue
        fi
        echo "$c ${cmd:-(gone)}"
    done
}
tables() { sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='$SIZEUP_MYSQL_DB' AND TABLE_NAME LIKE 'sbtest%'"; }
connections() { sql "SHOW GLOBAL STATUS LIKE 'Connections'" | cut -f2; }
records() { # records FILE: one line per first-pass record of target lab: "threads complete|interrupted|other"
    # (a calibrated curve is measured in passes, advisor/plan/passes.h: later passes measure levels
    # again on purpose and the level records pool them; the first pass measures each level once)
    python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    p = json.loads(line)
    iv = (p.get("extra") or {}).get("interval") or {}
    if p["target"] != "lab" or iv.get("method") == "replicates" or iv.get("pass", 1) != 1:
        continue
    flags = set(p.get("flags", []))
    kind = ("interrupted" if "interrupted" in flags else
            "other" if p.get("incomplete") or flags & {"partial", "stalled", "reconnects"} else
            "complete")
    print(p["threads"], kind)
PY
}
printf '%s\n' "$SIZEUP_MYSQL_PASSWORD" >"$TMPD/pw"
drop_sbtest_tables

# ---- a signal to the study's pid in the middle of a level -------------------------------------
for sig in TERM INT; do
    out=$TMPD/out-$sig
    study "$TMPD/s-$sig.json" "[1, 2, 3]" "out-$sig" "p99:50ms"
    "$SIZEUP_BIN" study "$TMPD/s-$sig.json" >"$TMPD/run-$sig.out" 2>"$TMPD/run-$sig.err" &
    pid=$!
    : >"$TMPD/children-$sig"
    ( while kill -0 "$pid" 2>/dev/null; do children "$pid" >>"$TMPD/children-$sig"; sleep 0.05; done ) &
    watcher=$!
    # the first level written (measured again when flagged), then well inside the second
    # (a level takes 3 to 6 s)
    for _ in $(seq 1 600); do
        grep -q 'level 2/3' "$TMPD/run-$sig.err" && break
        sleep 0.05
    done
    sleep 1
    check_eq "SIG$sig: the study was measuring level 2" "$(grep -c 'level 2/3' "$TMPD/run-$sig.err")" 1
    check_eq "SIG$sig: level 2 had not ended" "$(records "$out/results.jsonl" | grep -c '^2 ')" 0
    kill -"$sig" "$pid"
    wait "$pid"
    check_eq "SIG$sig: exit 130" $? 130
    wait "$watcher"
    check_eq "SIG$sig: no child process at any moment ($(head -c 300 "$TMPD/children-$sig" | tr "\n" ";"))" "$(wc -l <"$TMPD/children-$sig")" 0
    check_true "SIG$sig: says how to resume" grep -q "interrupted (SIG$sig).*study --resume" "$TMPD/run-$sig.err"
    check_eq "SIG$sig: the last record is level 2's, marked interrupted" \
        "$(records "$out/results.jsonl" | tail -1)" "2 interrupted"
    check_eq "SIG$sig: one record marked interrupted" \
        "$(records "$out/results.jsonl" | grep -c interrupted)" 1
    had1=$(records "$out/results.jsonl" | grep -c '^1 complete')
    check_eq "SIG$sig: the tables are dropped" "$(tables)" 0
    "$SIZEUP_BIN" study --resume "$TMPD/s-$sig.json" >"$TMPD/resume-$sig.out" 2>"$TMPD/resume-$sig.err"
    check_eq "SIG$sig: the resumed study exits 0" $? 0
    check_eq "SIG$sig: after --resume each level has one complete record" \
        "$(records "$out/results.jsonl" | grep complete | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" \
        "1x1 2x1 3x1 "
    if [ "$had1" -eq 1 ]; then
        check_eq "SIG$sig: level 1 was not measured again" \
            "$(grep -c 'level 1/3' "$TMPD/resume-$sig.err") $(grep -c '1 threads: already in' "$TMPD/resume-$sig.err")" "0 1"
    fi
    check_eq "SIG$sig: the resumed study left no table" "$(tables)" 0
done

# ---- sizeup probe: SIGTERM is SIGINT too ---------------------------------------------------------
probe prepare --tables 1 --table-size 200 >/dev/null 2>&1
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe "${PROBE_CONN[@]}" --workload oltp_point_select \
    --tables 1 --table-size 200 --threads 2,4 --time 20 --out "$TMPD/term.jsonl" run \
    >"$TMPD/term.out" 2>"$TMPD/term.err" &
pid=$!
sleep 1.5
kill -TERM "$pid"
wait "$pid"
check_eq "probe under SIGTERM: exit 130" $? 130
check_eq "probe under SIGTERM: one record, marked interrupted" \
    "$(json_get "$TMPD/term.jsonl" 1 "p['threads'], p['flags'], p['duration_s'] < 10")" "2 ['interrupted'] True"
check_eq "probe under SIGTERM: no second level" "$(wc -l <"$TMPD/term.jsonl")" 1
probe cleanup --tables 1 >/dev/null 2>&1
check_eq "probe under SIGTERM: cleaned up afterwards" "$(tables)" 0

# ---- checked at load, before any connection ---------------------------------------------------
study "$TMPD/bare.json" '"auto"' bare "p95:50"
c0=$(connections)
"$SIZEUP_BIN" study "$TMPD/bare.json" >/dev/null 2>"$TMPD/bare.err"
check_eq "slo without a unit: exit 3" $? 3
c1=$(connections)
check_true "slo without a unit: file:line:col and the hint" \
    grep -q "bare.json:10:10: \$.slo: 'p95:50' is not a latency target: give a unit, e.g. p95:50ms" "$TMPD/bare.err"
check_eq "slo without a unit: no connection to the server (only this test's own)" "$((c1 - c0))" 1
check_true "slo without a unit: no output folder" test ! -e "$TMPD/bare"

study "$TMPD/big.json" "[5000]" big "p95:50ms"
c0=$(connections)
"$SIZEUP_BIN" study "$TMPD/big.json" >/dev/null 2>"$TMPD/big.err"
check_eq "ladder [5000]: exit 3" $? 3
c1=$(connections)
check_true "ladder [5000]: file:line:col and the limit" \
    grep -q "big.json:8:14: \$.ladder\[0\]: expected a thread count in \[1, 4096\] (client threads of one level)" "$TMPD/big.err"
check_eq "ladder [5000]: no connection to the server (only this test's own)" "$((c1 - c0))" 1
check_eq "ladder [5000]: no table" "$(tables)" 0

# ---- avg:20ms is a latency target, the auto ladder runs with it -------------------------------
study "$TMPD/avg.json" '"auto"' avg "avg:20ms" "2s"
"$SIZEUP_BIN" study "$TMPD/avg.json" >"$TMPD/avg.out" 2>"$TMPD/avg.err"
check_eq "avg:20ms: exit 0" $? 0
check_eq "avg:20ms: the auto ladder's levels, each complete" \
    "$(records "$TMPD/avg/results.jsonl" | tr '\n' ' ')" "1 complete 2 complete "
check_eq "avg:20ms: the records carry the target" \
    "$(json_get "$TMPD/avg/results.jsonl" 1 'p["options"]["slo"]')" "{'statistic': 'avg', 'latency_ms': 20.0}"
check_true "avg:20ms: ranked at the target" grep -q "ranking .* at avg:20ms" "$TMPD/avg.err"
check_eq "avg:20ms: no table left" "$(tables)" 0
finish
