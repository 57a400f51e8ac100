#!/usr/bin/env bash
# One writer of a results file at a time (issue 27.7, util/outlock.h): two `probe run` on one
# --out lost records (one replaced the file while the other appended to the old inode).
#   - a second run on the same --out is refused at once (exit 1), naming the holder's pid, and
#     writes nothing; the first run's records are all there;
#   - once the first has ended, a run on the same --out goes on;
#   - a run killed with SIGKILL holds no lock: the next run goes on.
. "$(dirname "$0")/probe_lib.sh"
drop_sbtest_tables
probe prepare --tables 1 --table-size 1000 >/dev/null 2>&1
check_eq "prepare" $? 0
out=$TMPD/out.jsonl
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe run "${PROBE_CONN[@]}" --tables 1 \
    --table-size 1000 --workload oltp_point_select --threads 1,2 --time 2 --out "$out" \
    >/dev/null 2>"$TMPD/first.err" &
first=$!
for _ in $(seq 1 100); do grep -q "level 1/" "$TMPD/first.err" 2>/dev/null && break; sleep 0.1; done
probe run --tables 1 --table-size 1000 --workload oltp_point_select --threads 4 --time 1 \
    --out "$out" >/dev/null 2>"$TMPD/second.err"
check_eq "a second writer is refused" $? 1
check_true "and told who holds it" grep -q "is being written by another run (pid $first: sizeup probe run " "$TMPD/second.err"
check_eq "the lock file holds no data (a nearly full file system keeps its room)" "$(stat -c %s "$out.lock")" 0
wait "$first"
check_eq "the first run ends well" $? 0
check_eq "the first run's 2 levels are all in --out, none of the second's" \
    "$(python3 -c 'import json,sys; print(",".join(str(json.loads(l)["threads"]) for l in open(sys.argv[1])))' "$out")" "1,2"
probe run --tables 1 --table-size 1000 --workload oltp_point_select --threads 4 --time 1 \
    --out "$out" >/dev/null 2>&1
check_eq "after it, the next run goes on" $? 0
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe run "${PROBE_CONN[@]}" --tables 1 \
    --table-size 1000 --workload oltp_point_select --threads 1 --time 5 --out "$out" \
    >/dev/null 2>&1 &
killed=$!
sleep 1
kill -KILL "$killed"
wait "$killed" 2>/dev/null
probe run --tables 1 --table-size 1000 --workload oltp_point_select --threads 1 --time 1 \
    --out "$out" >/dev/null 2>&1
check_eq "a run killed with SIGKILL holds no lock" $? 0

# one run per database (issue 27.8, probes/dblock.h): a second run on the same database but
# another --out, and a cleanup that would drop the tables under the first, are refused naming
# the server's lock and the holder's connection; the first run's levels are all there
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe run "${PROBE_CONN[@]}" --tables 1 \
    --table-size 1000 --workload oltp_point_select --threads 1,2 --time 2 --out "$TMPD/db1.jsonl" \
    >/dev/null 2>"$TMPD/db1.err" &
first=$!
for _ in $(seq 1 100); do grep -q "level 1/" "$TMPD/db1.err" 2>/dev/null && break; sleep 0.1; done
probe run --tables 1 --table-size 1000 --workload oltp_point_select --threads 1 --time 1 \
    --out "$TMPD/db2.jsonl" >/dev/null 2>"$TMPD/db2.err"
check_eq "a second run on the same database is refused" $? 1
check_true "and told which lock and whose connection" \
    grep -q "another sizeup run holds the probe tables of database '$SIZEUP_MYSQL_DB' (the server's lock 'sizeup.sbtest/$SIZEUP_MYSQL_DB', connection [0-9]* (user $SIZEUP_MYSQL_USER" "$TMPD/db2.err"
check_true "it wrote nothing" test ! -s "$TMPD/db2.jsonl"
probe cleanup --tables 1 >/dev/null 2>"$TMPD/dbc.err"
check_eq "a cleanup under a running probe is refused" $? 1
check_eq "and the table is still there" \
    "$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='$SIZEUP_MYSQL_DB' AND TABLE_NAME='sbtest1'")" 1
wait "$first"
check_eq "the first run ends well, both levels written" "$? $(wc -l <"$TMPD/db1.jsonl")" "0 2"
probe cleanup --tables 1 >/dev/null 2>&1
check_eq "after it, a cleanup goes on" $? 0

# the lock outlives its connection's end (helper's break-it pass: after a server restart or an
# idle timeout the lock was gone and a second run got in unseen): killed between levels, it is
# taken again before the next level, and said
probe prepare --tables 1 --table-size 1000 >/dev/null 2>&1
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe run "${PROBE_CONN[@]}" --tables 1 \
    --table-size 1000 --workload oltp_point_select --threads 1,1,1 --time 2 \
    --out "$TMPD/kl.jsonl" >/dev/null 2>"$TMPD/kl.err" &
first=$!
for _ in $(seq 1 100); do grep -q "level 1/" "$TMPD/kl.err" 2>/dev/null && break; sleep 0.1; done
holder=$(rootsql "SELECT IS_USED_LOCK('sizeup.sbtest/$SIZEUP_MYSQL_DB')")
rootsql "KILL $holder"
wait "$first"
check_eq "the run whose lock connection was killed goes on, 3 levels" \
    "$? $(wc -l <"$TMPD/kl.jsonl")" "0 3"
check_true "and says the lock was taken again" grep -q "lock was lost .* and is taken again" "$TMPD/kl.err"

# databases whose names share their first 50 characters have locks of their own (a name over 50
# characters is its first 17, '#' and its MD5): two runs go side by side
long=$(printf 'a%.0s' $(seq 1 55))
for d in "${long}1" "${long}2"; do
    rootsql "CREATE DATABASE IF NOT EXISTS \`$d\`; GRANT ALL ON \`$d\`.* TO '$SIZEUP_MYSQL_USER'@'127.0.0.1'"
    probe prepare --mysql-db "$d" --tables 1 --table-size 500 >/dev/null 2>&1
done
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe run "${PROBE_CONN[@]}" --mysql-db "${long}1" \
    --tables 1 --table-size 500 --workload oltp_point_select --threads 1 --time 3 \
    >/dev/null 2>"$TMPD/l1.err" &
first=$!
for _ in $(seq 1 100); do grep -q "level 1/" "$TMPD/l1.err" 2>/dev/null && break; sleep 0.1; done
probe run --mysql-db "${long}2" --tables 1 --table-size 500 --workload oltp_point_select \
    --threads 1 --time 1 >/dev/null 2>"$TMPD/l2.err"
check_eq "a run on another database of the same 50-character prefix goes on" $? 0
wait "$first"
check_eq "and so does the first" $? 0
for d in "${long}1" "${long}2"; do rootsql "DROP DATABASE \`$d\`"; done

drop_sbtest_tables
finish
