#!/usr/bin/env bash
# A study whose server stops answering, then answers again (issue 12.2, 12.6), on the fixture's
# MariaDB frozen with SIGSTOP and thawed with SIGCONT (a trap thaws it whatever happens; the
# fixture is this test's alone: RESOURCE_LOCK mariadb):
#   - frozen during a level, thawed while the probe waits for it (within the study's 30 s
#     give-up): the level is flagged stalled, measured again once the server answers, the study
#     ranks and exits 0, and the sbtest tables are dropped;
#   - frozen past the give-up: the probe stops (exit 4 for the candidate: "server unreachable"),
#     the study waits for the server to drop the tables; thawed then, the tables are dropped, the
#     other candidate is ranked, and the study exits 4 as documented (a candidate server could not
#     be reached).
# The waits poll for the study's own messages with generous bounds; no timing is asserted.
. "$(dirname "$0")/../probes/probe_lib.sh"
: "${SIZEUP_MYSQL_DIR:?}"
root=$PWD
mpid=$(cat "$SIZEUP_MYSQL_DIR/mysqld.pid")
thaw() { kill -CONT "$mpid" 2>/dev/null; }
trap thaw EXIT

study() { # study FILE OUTPUT
    cat >"$1" <<JSON
{ "schema": "sizeup.study/1",
  "candidates": [
    { "config": "local-mariadb", "target": "lab",
      "mysql": { "host": "127.0.0.1", "port": $SIZEUP_MYSQL_PORT,
                 "user": "$SIZEUP_MYSQL_USER", "db": "$SIZEUP_MYSQL_DB", "password_file": "pw" },
      "tables": 2, "table_size": 1000 },
    { "config": "seekdb-1c2g", "results": ["$root/data/published/seekdb-4c8g-1c2g.csv"] } ],
  "workloads": { "oltp_point_select": 1 },
  "ladder": [1, 2], "precision": "1%", "max_time": "4s",
  "slo": "p99:50ms",
  "catalogs": ["$root/data/catalogs/published.json", "$root/data/catalogs/local.json"],
  "output": "$2" }
JSON
}
tables() { sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='$SIZEUP_MYSQL_DB' AND TABLE_NAME LIKE 'sbtest%'"; }
# wait_for FILE PATTERN [TENTHS]: until grep finds PATTERN in FILE (default bound 120 s)
wait_for() {
    for _ in $(seq 1 "${3:-1200}"); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
flagged() { # flagged FILE: the records of target lab flagged stalled
    python3 -c '
import json, sys
print(sum(1 for l in open(sys.argv[1]) if json.loads(l)["target"] == "lab" and "stalled" in json.loads(l).get("flags", [])))' "$1"
}
printf '%s\n' "$SIZEUP_MYSQL_PASSWORD" >"$TMPD/pw"
drop_sbtest_tables
cd "$TMPD" || exit 1

# ---- frozen, thawed while the probe waits for the server ---------------------------------------
study a.json out-a
"$SIZEUP_BIN" study a.json >a.out 2>a.err &
pid=$!
check_true "a: a level started" wait_for a.err 'level 1/'
sleep 0.5
kill -STOP "$mpid"
check_true "a: the probe waits for the server" wait_for a.err 'waiting up to 30 s for the server to answer'
thaw
wait "$pid"
rc=$?
check_eq "a: thawed within the give-up: exit 0" $rc 0
[ $rc -eq 0 ] || tail -n 8 a.err >&2
check_true "a: a level flagged stalled" test "$(flagged out-a/results.jsonl)" -ge 1
check_true "a: the level measured again, the curve ranked" grep -q "local-mariadb" a.out
check_eq "a: the tables are dropped" "$(tables)" 0

# ---- frozen past the give-up, thawed while the study waits to drop the tables ------------------
study b.json out-b
"$SIZEUP_BIN" study b.json >b.out 2>b.err &
pid=$!
check_true "b: a level started" wait_for b.err 'level 1/'
sleep 0.5
kill -STOP "$mpid"
check_true "b: the study waits to drop the tables" wait_for b.err 'waiting up to 30 s to drop the tables'
thaw
wait "$pid"
rc=$?
check_eq "b: a candidate unreachable: exit 4" $rc 4
[ $rc -eq 4 ] || tail -n 8 b.err b.out >&2
check_true "b: the candidate's probe said unreachable" \
    grep -q "local-mariadb.*the probe ended: server unreachable\|lab.*the probe ended: server unreachable" b.err
check_true "b: the level flagged stalled" test "$(flagged out-b/results.jsonl)" -ge 1
check_true "b: the other candidate is ranked" grep -q "seekdb-1c2g" b.out
check_eq "b: the tables are dropped once the server answers" "$(tables)" 0
check_true "b: no message that tables may be left" bash -c '! grep -q "may be left on the server" b.err'

cd "$root" || exit 1
finish
