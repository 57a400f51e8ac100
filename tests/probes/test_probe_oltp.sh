#!/usr/bin/env bash
# Integration test of `sizeup probe` on the fixture's MariaDB: statements per transaction by
# type for every workload (SHOW GLOBAL STATUS Com_* deltas against sysbench's shapes,
# docs/reference/sysbench.md 2.2), prepare against Debian's sysbench 1.0.20 prepare
# (table definitions, row counts, value formats, k distribution), prepare's refusal to
# overwrite, cleanup's refusal to drop foreign tables, records per --threads level, and that
# the password never appears in any output.
. "$(dirname "$0")/probe_lib.sh"

drop_sbtest_tables
probe prepare --tables 2 --table-size 300 >"$TMPD/prep.out" 2>&1
check_eq "prepare exit" $? 0

# ---- statements per event: Com_* deltas (select update insert delete begin commit) -------
# Expected per event, docs/reference/sysbench.md 2.2 (defaults): read_write 14 selects, 2 updates, 1 insert,
# 1 delete, BEGIN, COMMIT; oltp_legacy the same as text queries; ...
# Before its first statement a run checks that the tables are sizeup's (probes/sbtables.h):
# SHOW statements and one SELECT on information_schema (the foreign keys), and again before and
# after each level (issue 27.9), and it takes the database's lock with one SELECT GET_LOCK(...)
# (probes/dblock.h, issue 27.8) and checks it still holds it before the level: one level,
# Com_select + 5.
N=25
while read -r w sel upd ins del beg com; do
    before=$(com_status)
    tables=2
    case $w in select_random_*) tables=1 ;; esac
    probe run --workload "$w" --tables $tables --table-size 300 --threads 1 --events $N \
        --time 0 >"$TMPD/run.out" 2>"$TMPD/run.err"
    rc=$?
    after=$(com_status)
    check_eq "$w exit" $rc 0
    read -r b1 b2 b3 b4 b5 b6 <<<"$before"
    read -r a1 a2 a3 a4 a5 a6 <<<"$after"
    check_eq "$w Com_select/update/insert/delete/begin/commit" \
        "$((a1 - b1)) $((a2 - b2)) $((a3 - b3)) $((a4 - b4)) $((a5 - b5)) $((a6 - b6))" \
        "$((sel * N + 5)) $((upd * N)) $((ins * N)) $((del * N)) $((beg * N)) $((com * N))"
    check_true "$w report has $N transactions" grep -Eq "transactions: +$N " "$TMPD/run.out"
done <<'SHAPES'
oltp_point_select      1 0 0 0 0 0
oltp_read_only        14 0 0 0 1 1
oltp_read_write       14 2 1 1 1 1
oltp_write_only        0 2 1 1 1 1
oltp_insert            0 0 1 0 0 0
oltp_update_index      0 1 0 0 0 0
oltp_update_non_index  0 1 0 0 0 0
oltp_delete            0 0 0 1 0 0
select_random_points   1 0 0 0 0 0
select_random_ranges   1 0 0 0 0 0
oltp_legacy           14 2 1 1 1 1
SHAPES

# read/write/other by result set / affected rows (docs/reference/sysbench.md 2.3): read_only = 14 r + 2 o
probe run --workload oltp_read_only --tables 2 --table-size 300 --events 10 --time 0 \
    >"$TMPD/ro.out" 2>/dev/null
check_true "read_only read: 140" grep -Eq "^ +read: +140$" "$TMPD/ro.out"
check_true "read_only other: 20" grep -Eq "^ +other: +20$" "$TMPD/ro.out"
check_true "read_only total: 160" grep -Eq "^ +total: +160$" "$TMPD/ro.out"
# --skip-trx drops BEGIN/COMMIT; --range-selects=off drops the 4 ranges (3 x 10 + the 4 of sizeup's
# own checks and lock, above: 5)
before=$(com_status)
probe run --workload oltp_read_write --tables 2 --table-size 300 --events 10 --time 0 \
    --skip-trx on --range-selects off --point-selects 3 >/dev/null 2>&1
after=$(com_status)
read -r b1 b2 b3 b4 b5 b6 <<<"$before"
read -r a1 a2 a3 a4 a5 a6 <<<"$after"
check_eq "read_write --skip-trx --range-selects off --point-selects 3" \
    "$((a1 - b1)) $((a2 - b2)) $((a3 - b3)) $((a4 - b4)) $((a5 - b5)) $((a6 - b6))" \
    "35 20 10 10 0 0"
# --db-ps-mode disable sends the same statements as text
before=$(sql "SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'" | cut -f2)
probe run --workload oltp_point_select --tables 2 --table-size 300 --events 10 --time 0 \
    --db-ps-mode disable >/dev/null 2>&1
after=$(sql "SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'" | cut -f2)
check_eq "ps-mode disable: no prepared executions" "$((after - before))" 0

# ---- open loop (--rate): Poisson arrivals at the asked rate, latency from the intended start --
# 150/s for 2 s: 300 arrivals expected, Poisson sd 17 -> [230, 370] is > 4 sd wide
probe run --workload oltp_point_select --tables 2 --table-size 300 --threads 2 --time 2 \
    --rate 150 --report-interval 1 --out "$TMPD/rate.jsonl" >"$TMPD/rate.out" 2>"$TMPD/rate.err"
check_eq "rate run exit" $? 0
check_eq "rate: events near 150/s x 2 s, rate and lag recorded" \
    "$(json_get "$TMPD/rate.jsonl" 1 "230 <= p['transactions'] <= 370, p['rate'], p['extra']['rate_lag_ms']['max'] >= p['extra']['rate_lag_ms']['avg'] >= 0")" \
    "True 150.0 True"
check_true "rate: header and queue lines as sysbench" \
    grep -q "^Target transaction rate: 150/sec" "$TMPD/rate.out"
check_true "rate: queue line" grep -Eq '^\[ 1s \] queue length: [0-9]+, concurrency: [0-9]+$' \
    "$TMPD/rate.out"
check_true "rate: lag on stderr" grep -q "start lag behind the intended start" "$TMPD/rate.err"
# no coordinated omission: the table is locked for 1 s in the middle of a 3 s run. Open loop at
# 100/s: ~100 arrivals wait for the lock, on average 0.5 s, i.e. ~1/3 of ~300 events take
# > 0.3 s with probability ~0.7 each -> p95 >= 300 ms. Closed loop with 2 threads: at most 2
# events wait (one per thread), so p95 stays far below.
# The stall starts once the level has run a second (its first report line): on a busy machine
# the run's own start (connect, lock, table checks) can take longer than a fixed sleep (CI once
# saw the stall end before the level began)
stall() {
    for _ in $(seq 1 300); do
        grep -q '^\[ 1s \]' "$1" 2>/dev/null && break
        sleep 0.1
    done
    sql "LOCK TABLES sbtest1 WRITE, sbtest2 WRITE; DO SLEEP(1); UNLOCK TABLES"
}
: >"$TMPD/co1.out"
stall "$TMPD/co1.out" &
probe run --workload oltp_point_select --tables 2 --table-size 300 --threads 2 --time 3 \
    --rate 100 --report-interval 1 --out "$TMPD/co.jsonl" >"$TMPD/co1.out" 2>&1
wait
: >"$TMPD/co2.out"
stall "$TMPD/co2.out" &
probe run --workload oltp_point_select --tables 2 --table-size 300 --threads 2 --time 3 \
    --report-interval 1 --out "$TMPD/co.jsonl" >"$TMPD/co2.out" 2>&1
wait
check_eq "open loop counts the stall for every queued event (p95 >= 300 ms)" \
    "$(json_get "$TMPD/co.jsonl" 1 "p['latency_ms']['p95'] >= 300 and p['latency_ms']['max'] >= 900")" True
check_eq "closed loop hides it (p95 < 100 ms, max still ~1 s)" \
    "$(json_get "$TMPD/co.jsonl" 2 "p['latency_ms']['p95'] < 100 and p['latency_ms']['max'] >= 900")" True

# ---- the client's own delay (issue 28.6) --------------------------------------------------
# 256 connections on one worker: every level records extra.load_generator.client_delay_ms, a
# lower bound of what the client added (0 <= avg <= max), taken out of the latencies (a
# transaction ends when the turn that reported its answer returned, so the mean latency is at
# most Little's law's N / X, which counts the client's time too, within 1 %), and the level is
# flagged client_delay exactly when avg is 10 % of the mean latency or more and at least 0.1 ms
# (probes/probe.h), whatever this machine measured
probe run --workload oltp_point_select --tables 2 --table-size 300 --threads 256 --workers 1 \
    --time 2 --out "$TMPD/cd.jsonl" >/dev/null 2>"$TMPD/cd.err"
check_eq "client delay: the run exits 0" $? 0
check_eq "client delay: recorded, bounded, and flagged by its rule" True "$(json_get "$TMPD/cd.jsonl" 1 "(lambda d, lat, fl: 0 <= d['avg'] <= d['max'] and lat <= 1.01 * 256 / p['tps'] * 1e3 and (('client_delay' in fl) == (d['avg'] >= 0.1 * lat and d['avg'] >= 0.1)))(p['extra']['load_generator']['client_delay_ms'], p['latency_ms']['avg'], p.get('flags', []))")"
if json_get "$TMPD/cd.jsonl" 1 "'client_delay' in p.get('flags', [])" | grep -q True; then
    check_true "client delay: the progress says by how much" \
        grep -q "the client's own delay is .* ms of the .* ms mean latency" "$TMPD/cd.err"
fi

# ---- prepare refuses to overwrite --------------------------------------------------------
rows=$(sql "SELECT COUNT(*) FROM sbtest1")
probe prepare --tables 2 --table-size 300 >/dev/null 2>"$TMPD/err"
check_eq "second prepare exit" $? 1
check_true "second prepare says why" grep -q "sbtest1 already exists" "$TMPD/err"
check_eq "rows untouched" "$(sql "SELECT COUNT(*) FROM sbtest1")" "$rows"

# ---- records: one per --threads level, password never shown ------------------------------
rootsql "CREATE USER IF NOT EXISTS 'pwprobe'@'127.0.0.1' IDENTIFIED BY 'Zq9-unusual-77';
         GRANT ALL ON sbtest.* TO 'pwprobe'@'127.0.0.1'"
printf 'Zq9-unusual-77\n' >"$TMPD/pw"
printf '[mysqld]\npassword=wrong\n[client]\npassword = "Zq9-unusual-77"\n' >"$TMPD/my.cnf"
"$SIZEUP_BIN" probe --mysql-host 127.0.0.1 --mysql-port "$SIZEUP_MYSQL_PORT" \
    --mysql-user pwprobe --mysql-password-file "$TMPD/pw" --workload oltp_point_select \
    --tables 2 --table-size 300 --threads 1,2 --time 1 --report-interval 1 --target t1 \
    --config cfg-a --percentile 99 --out "$TMPD/points.jsonl" run >"$TMPD/o1" 2>"$TMPD/e1"
check_eq "password file run exit" $? 0
env -u MYSQL_PWD HOME=/nonexistent "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 \
    --mysql-port "$SIZEUP_MYSQL_PORT" --mysql-user pwprobe --defaults-file "$TMPD/my.cnf" \
    --workload oltp_point_select --tables 2 --table-size 300 --events 5 --time 0 run \
    >"$TMPD/o2" 2>"$TMPD/e2"
check_eq "option file [client] password exit" $? 0
MYSQL_PWD=Zq9-unusual-77 "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 \
    --mysql-port "$SIZEUP_MYSQL_PORT" --mysql-user pwprobe --workload oltp_point_select \
    --tables 2 --table-size 300 --events 5 --time 0 run >"$TMPD/o3" 2>"$TMPD/e3"
check_eq "MYSQL_PWD exit" $? 0
check_true "password nowhere in outputs or records" \
    bash -c "! grep -q 'Zq9-unusual' '$TMPD'/o? '$TMPD'/e? '$TMPD/points.jsonl'"
check_eq "two records" "$(wc -l <"$TMPD/points.jsonl")" 2
check_eq "record 1 threads/target/config/workload/kind" \
    "$(json_get "$TMPD/points.jsonl" 1 "p['threads'], p['target'], p['config'], p['workload'], p['source']['kind'], p['schema']")" \
    "1 t1 cfg-a oltp_point_select probe sizeup.point/1"
check_eq "record 2 threads" "$(json_get "$TMPD/points.jsonl" 2 "p['threads']")" 2
check_eq "record keys" \
    "$(json_get "$TMPD/points.jsonl" 2 "all(k in p['latency_ms'] for k in ('min','avg','max','sum','p50','p95','p99')) and p['transactions'] == p['reads'] and p['tool'].startswith('sizeup ') and p['client_cpu_s'] > 0 and p['server_version'] != '' and len(p['series']) >= 1 and p['latency_overflows'] == 0 and p['options']['threads'] == [1, 2] and 'password' not in json.dumps(p)")" \
    True
check_true "report layout: interval line" \
    grep -Eq '^\[ 1s \] thds: 2 tps: [0-9.]+ qps: [0-9.]+ \(r/w/o: [0-9.]+/0.00/0.00\) lat \(ms,99%\): [0-9.]+ err/s: 0.00 reconn/s: 0.00$' "$TMPD/o1"
check_true "report layout: percentile line" grep -Eq '^         99th percentile: +[0-9]+\.[0-9]{2}$' "$TMPD/o1"

# ---- prepare matches sysbench's --------------------------------------------------------------
rootsql "CREATE DATABASE IF NOT EXISTS sbref; GRANT ALL ON sbref.* TO '$SIZEUP_MYSQL_USER'@'127.0.0.1'"
probe cleanup --tables 2 >/dev/null 2>&1
sb() { sysbench oltp_read_write --mysql-host=127.0.0.1 --mysql-port="$SIZEUP_MYSQL_PORT" \
       --mysql-user="$SIZEUP_MYSQL_USER" --mysql-password="$SIZEUP_MYSQL_PASSWORD" \
       --mysql-db=sbref "$@"; }
for variant in "" "--auto-inc=off --create-secondary=off" "--secondary=on"; do
    sb --tables=2 --table-size=500 cleanup >/dev/null 2>&1
    sb --tables=2 --table-size=500 $variant prepare >"$TMPD/sb.out" 2>&1
    check_eq "sysbench prepare [$variant]" $? 0
    # shellcheck disable=SC2086
    probe prepare --tables 2 --table-size 500 ${variant//=/ } >"$TMPD/sz.out" 2>&1
    check_eq "sizeup prepare [$variant]" $? 0
    check_eq "progress lines [$variant]" "$(grep -c "'sbtest" "$TMPD/sz.out")" \
        "$(grep -c "'sbtest" "$TMPD/sb.out")"
    for t in sbtest1 sbtest2; do
        # the same definition, but for sizeup's mark (sbtables.h)
        check_eq "SHOW CREATE TABLE $t [$variant]" \
            "$(sql sbtest "SHOW CREATE TABLE $t" | cut -f2- | sed "s/ COMMENT='sizeup.sbtest\/1'\$//")" \
            "$(sql sbref "SHOW CREATE TABLE $t" | cut -f2-)"
        check_eq "$t carries sizeup's mark [$variant]" \
            "$(sql "SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='$t'")" \
            "sizeup.sbtest/1"
        for db in sbtest sbref; do
            check_eq "$db.$t rows, ids, formats [$variant]" \
                "$(sql "SELECT COUNT(*), MIN(id), MAX(id), COUNT(DISTINCT id),
                        SUM(c REGEXP '^([0-9]{11}-){9}[0-9]{11}\$'),
                        SUM(pad REGEXP '^([0-9]{11}-){4}[0-9]{11}\$'), MIN(k) >= 1, MAX(k) <= 500
                        FROM $db.$t")" "500	1	500	500	500	500	1	1"
            # k ~ special(1, 500): t = 499, 75 % of draws at 1 + [248.5025, 252.995) = 249..253
            # plus the Irwin-Hall branch's share there (~0.3 %): p ~ 0.753, sd over 500 rows 0.019;
            # the bounds are 4.5 sd either side (sysbench's own table reached 0.82 once)
            frac=$(sql "SELECT AVG(k BETWEEN 249 AND 253) FROM $db.$t")
            check_true "$db.$t k special shape ($frac)" \
                awk -v f="$frac" 'BEGIN { exit !(f > 0.665 && f < 0.84) }'
        done
    done
    probe cleanup --tables 2 >/dev/null 2>&1
done
sb --tables=2 --table-size=500 cleanup >/dev/null 2>&1
rootsql "DROP DATABASE IF EXISTS sbref"

# legacy schema (tests/include/oltp_legacy/common.lua): unsigned ints, MAX_ROWS
probe prepare --workload oltp_legacy --tables 1 --table-size 100 >/dev/null 2>&1
legacy=$(sql "SHOW CREATE TABLE sbtest1" | tr '\n' ' ')
check_true "legacy schema" grep -q "int(10) unsigned NOT NULL AUTO_INCREMENT.*MAX_ROWS=1000000" \
    <<<"$legacy"
probe cleanup --tables 1 >/dev/null 2>&1

# ---- cleanup drops only sizeup's tables, and nothing when a foreign one is in its range --------
probe prepare --tables 1 --table-size 10 >/dev/null 2>&1
sql "CREATE TABLE sbtest2 (id INT PRIMARY KEY, name VARCHAR(20))"
probe cleanup --tables 2 >"$TMPD/cl.out" 2>"$TMPD/cl.err"
check_eq "cleanup with a foreign table exit" $? 1
check_true "cleanup says why" grep -q "refusing to drop sbtest2" "$TMPD/cl.err"
check_eq "nothing dropped" \
    "$(sql "SELECT GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME LIKE 'sbtest%'")" \
    "sbtest1,sbtest2"
sql "DROP TABLE sbtest2"
probe cleanup --tables 2 >/dev/null 2>&1
check_eq "then cleanup drops sizeup's table" $? 0
rootsql "DROP USER IF EXISTS 'pwprobe'@'127.0.0.1'"
finish
