#!/usr/bin/env bash
# Registered only in a -DSIZEUP_TSAN=ON build: the probe engine under ThreadSanitizer runs a
# short closed-loop probe with report intervals, an open-loop (--rate) probe, a reconnect after
# a KILLed connection, and a frozen server (stall, cut); any ThreadSanitizer report fails it.
. "$(dirname "$0")/probe_lib.sh"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"

drop_sbtest_tables
probe prepare --tables 2 --table-size 200 --threads 2 >/dev/null 2>"$TMPD/prep.err"
check_eq "prepare (2 tables in parallel) under TSan" $? 0
probe run --workload oltp_read_write --tables 2 --table-size 200 --threads 4 --time 2 \
    --report-interval 1 >/dev/null 2>"$TMPD/e1"
check_eq "closed loop under TSan: exit" $? 0
probe run --workload oltp_point_select --tables 2 --table-size 200 --threads 3 --time 2 \
    --rate 300 --report-interval 1 >"$TMPD/o2" 2>"$TMPD/e2"
check_eq "open loop under TSan: exit" $? 0
check_true "open loop prints the queue line" grep -q "queue length: " "$TMPD/o2"
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 \
    --mysql-port "$SIZEUP_MYSQL_PORT" --workload oltp_read_only --tables 2 --table-size 200 \
    --threads 2 --time 3 run >/dev/null 2>"$TMPD/e3" &
pid=$!
sleep 1.5
for id in $(sql "SELECT ID FROM information_schema.PROCESSLIST WHERE USER='$SIZEUP_MYSQL_USER' AND DB='$SIZEUP_MYSQL_DB' AND ID <> CONNECTION_ID()"); do
    sql "KILL CONNECTION $id" 2>/dev/null
done
wait $pid
check_eq "reconnect under TSan: exit" $? 0
# a frozen server: the stall detection and the cut of waiting workers (sockets shut down by the
# aggregator) under TSan
mpid=$(cat "$SIZEUP_MYSQL_DIR/mysqld.pid")
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe "${PROBE_CONN[@]}" --workload oltp_read_only \
    --tables 2 --table-size 200 --threads 3 --time 5 --mysql-timeout 3 --remeasure 0 \
    --give-up 20 --out "$TMPD/stall.jsonl" run >/dev/null 2>"$TMPD/e4" &
pid=$!
sleep 1
kill -STOP "$mpid"
sleep 4
kill -CONT "$mpid"
wait $pid
check_eq "frozen server under TSan: exit 0" $? 0
check_eq "frozen server under TSan: flagged stalled" \
    "$(json_get "$TMPD/stall.jsonl" 1 "'stalled' in p['flags']")" True
check_true "no ThreadSanitizer report" bash -c "! grep -l ThreadSanitizer '$TMPD'/e* '$TMPD/prep.err'"
probe cleanup --tables 2 >/dev/null 2>&1
finish
