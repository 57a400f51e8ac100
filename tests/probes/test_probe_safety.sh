#!/usr/bin/env bash
# sizeup touches only the tables it created (issue 12.1, probes/sbtables.h), on the fixture's
# MariaDB:
#   - a user's own sbtest1 (other columns, 5,000 rows) and a sysbench-made sbtest2 (sysbench's
#     shape, no sizeup mark): every workload, prepare and cleanup refuse before any statement
#     touches them, naming each table and what differs; rows, CHECKSUM TABLE and the server's
#     DML counters are unchanged, and no record is written;
#   - the inspection does not open information_schema's own tables (a foreign-key query that
#     looked in every database did: one temporary table per information_schema table, some of
#     them Aria files, and a 10.11 fixture server crashed on that path, sbtables.c find_fks);
#   - a sizeup table altered by the user (an added column, a trigger) is refused too;
#   - a prepare interrupted between tables drops the tables it created (exit 130).
. "$(dirname "$0")/probe_lib.sh"

drop_sbtest_tables
rootsql "DROP DATABASE IF EXISTS sbscratch; CREATE DATABASE sbscratch;
         GRANT ALL ON sbscratch.* TO '$SIZEUP_MYSQL_USER'@'127.0.0.1'"

# the user's table, as in the issue: other columns, 5,000 rows
sql "CREATE TABLE sbtest1 (id INT PRIMARY KEY, name VARCHAR(40), amount INT)"
sql "INSERT INTO sbtest1 SELECT seq, CONCAT('customer ', seq), seq % 97 FROM seq_1_to_5000"
# a table made by sysbench itself (same shape as sizeup's, no mark), moved into sbtest
sysbench oltp_read_write --mysql-host=127.0.0.1 --mysql-port="$SIZEUP_MYSQL_PORT" \
    --mysql-user="$SIZEUP_MYSQL_USER" --mysql-password="$SIZEUP_MYSQL_PASSWORD" \
    --mysql-db=sbscratch --tables=2 --table-size=300 prepare >/dev/null 2>&1
check_eq "sysbench prepare" $? 0
sql "RENAME TABLE sbscratch.sbtest2 TO sbtest.sbtest2"
state() { sql "SELECT COUNT(*) FROM sbtest1; CHECKSUM TABLE sbtest1; SELECT COUNT(*) FROM sbtest2; CHECKSUM TABLE sbtest2" | tr '\n\t' '  '; }
dml() { sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_delete','Com_insert','Com_update','Com_drop_table','Com_stmt_execute','Com_alter_table')" | tr '\n\t' '  '; }
before=$(state)
check_true "the tables have their rows ($before)" grep -q "^5000 .* 300 " <<<"$before"
dml0=$(dml)

for w in oltp_point_select oltp_read_only oltp_read_write oltp_write_only oltp_insert \
    oltp_update_index oltp_update_non_index oltp_delete select_random_points \
    select_random_ranges oltp_legacy; do
    tables=2
    case $w in select_random_*) tables=1 ;; esac
    probe run --workload "$w" --tables $tables --table-size 300 --threads 1 --time 2 \
        --out "$TMPD/$w.jsonl" >"$TMPD/$w.out" 2>"$TMPD/$w.err"
    check_eq "$w refused: exit 1" $? 1
    check_true "$w names sbtest1 and its column" \
        grep -q "refusing to run on sbtest1 in database 'sbtest': its comment is '' .*column 2 is \`name\` varchar(40), sizeup's is \`k\` int" "$TMPD/$w.err"
    if [ $tables = 2 ]; then
        check_true "$w names sysbench's sbtest2 as unmarked" \
            grep -q "refusing to run on sbtest2 .*: its comment is '' where sizeup's tables carry 'sizeup.sbtest/1'" "$TMPD/$w.err"
    fi
    check_true "$w wrote no record" test ! -s "$TMPD/$w.jsonl"
    check_true "$w ran no level" bash -c "! grep -q 'Threads started' '$TMPD/$w.out'"
done
# a calibrated auto ladder is refused the same way
probe run --workload oltp_delete --tables 2 --table-size 300 --threads auto --max-threads 2 \
    --max-time 2 --min-time 1 >/dev/null 2>"$TMPD/auto.err"
check_eq "auto ladder refused: exit 1" $? 1
probe cleanup --tables 4 >"$TMPD/cl.out" 2>"$TMPD/cl.err"
check_eq "cleanup refused: exit 1" $? 1
check_true "cleanup names both tables" \
    bash -c "grep -q 'refusing to drop sbtest1' '$TMPD/cl.err' && grep -q 'refusing to drop sbtest2' '$TMPD/cl.err'"
check_true "cleanup says nothing was dropped" grep -q "Nothing was dropped" "$TMPD/cl.err"
probe prepare --tables 3 --table-size 100 >"$TMPD/pr.out" 2>"$TMPD/pr.err"
check_eq "prepare refused: exit 1" $? 1
check_true "prepare says sbtest1 is not sizeup's" \
    grep -q "sbtest1 already exists in database 'sbtest' and is not sizeup's" "$TMPD/pr.err"
check_eq "no sbtest3 created" \
    "$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='sbtest3'")" 0
check_eq "rows and checksums unchanged" "$(state)" "$before"
check_eq "no DELETE, INSERT, UPDATE, DROP, ALTER or prepared statement reached the server" \
    "$(dml)" "$dml0"

# the inspection's temporary tables: a few per table (SHOW COLUMNS, SHOW TRIGGERS, ...), never one
# per information_schema table (measured on 10.11: 80 per call before find_fks named the schemas)
tmp_tables() { sql "SHOW GLOBAL STATUS LIKE 'Created_tmp_tables'" | cut -f2; }
is_tables=$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='information_schema'")
t0=$(tmp_tables)
probe run --workload oltp_read_only --tables 2 --table-size 300 --time 1 >/dev/null 2>&1
probe cleanup --tables 2 >/dev/null 2>&1
t1=$(tmp_tables)
check_true "a refused run and cleanup made $((t1 - t0)) temporary tables, fewer than information_schema's $is_tables tables" \
    test $((t1 - t0)) -lt "$is_tables"

# ---- a sizeup table the user changed is not sizeup's any more ---------------------------------
sql "DROP TABLE sbtest1, sbtest2"
probe prepare --tables 1 --table-size 100 >/dev/null 2>&1
check_eq "prepare on a free database" $? 0
sql "ALTER TABLE sbtest1 ADD COLUMN note INT"
probe run --workload oltp_delete --tables 1 --table-size 100 --time 1 >/dev/null 2>"$TMPD/alt.err"
check_eq "an added column: run refused" $? 1
check_true "names the added column" grep -q "it has a column 5 \`note\` int(11)" "$TMPD/alt.err"
probe cleanup --tables 1 >/dev/null 2>"$TMPD/alt2.err"
check_eq "an added column: cleanup refused" $? 1
sql "ALTER TABLE sbtest1 DROP COLUMN note"
sql "CREATE TABLE sbscratch.audit (id INT)"
sql "CREATE TRIGGER sbtest1_del AFTER DELETE ON sbtest1 FOR EACH ROW INSERT INTO sbscratch.audit VALUES (OLD.id)"
probe run --workload oltp_delete --tables 1 --table-size 100 --time 1 >/dev/null 2>"$TMPD/trg.err"
check_eq "a trigger: run refused" $? 1
check_true "names the trigger" grep -q "it has a trigger \`sbtest1_del\`" "$TMPD/trg.err"
check_eq "the trigger never fired" "$(sql "SELECT COUNT(*) FROM sbscratch.audit")" 0
sql "DROP TRIGGER sbtest1_del"
probe cleanup --tables 1 >/dev/null 2>&1
check_eq "sizeup's table again: cleanup drops it" $? 0

# ---- an interrupted prepare leaves no table ----------------------------------------------------
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe "${PROBE_CONN[@]}" prepare --tables 4 --table-size 50000 --threads 1 \
    >/dev/null 2>"$TMPD/int.err" &
pid=$!
for _ in $(seq 1 300); do # until the first table is loaded (it then carries the final mark)
    [ "$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME LIKE 'sbtest%' AND TABLE_COMMENT='sizeup.sbtest/1'")" -ge 1 ] && break
    sleep 0.1
done
kill -INT $pid
wait $pid
check_eq "interrupted prepare: exit 130" $? 130
check_true "says it dropped what it created" grep -q "table(s) it had created were dropped" "$TMPD/int.err"
check_eq "interrupted prepare: no table left" \
    "$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME LIKE 'sbtest%'")" 0

# ---- a table swapped in while the run goes on (issue 27.9) -------------------------------------
# a user's sysbench-shaped table (no sizeup mark, 300 rows) is renamed into sbtest1's place during
# the first of two levels: the check after that level flags its record tables_changed and the run
# stops; the second level never runs on the user's table (a read-only workload, so the first level
# did not write it either: its CHECKSUM TABLE is unchanged)
drop_sbtest_tables
probe prepare --tables 1 --table-size 200 >/dev/null 2>&1
check_eq "swap: prepare" $? 0
sql "DROP TABLE IF EXISTS sbscratch.sbtest1"
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD sysbench oltp_read_only --mysql-host=127.0.0.1 \
    --mysql-port="$SIZEUP_MYSQL_PORT" --mysql-user="$SIZEUP_MYSQL_USER" \
    --mysql-password="$SIZEUP_MYSQL_PASSWORD" --mysql-db=sbscratch --tables=1 --table-size=300 \
    prepare >/dev/null 2>&1
check_eq "swap: the user's sysbench table" $? 0
usersum=$(sql "CHECKSUM TABLE sbscratch.sbtest1" | cut -f2)
probe run --workload oltp_read_only --tables 1 --table-size 200 --threads 1,2 --time 4 \
    --out "$TMPD/swap.jsonl" >"$TMPD/swap.out" 2>"$TMPD/swap.err" &
pid=$!
for _ in $(seq 1 100); do # until the first level runs
    grep -q "level 1/2" "$TMPD/swap.err" 2>/dev/null && break
    sleep 0.1
done
sleep 1.5
sql "RENAME TABLE sbtest1 TO sbscratch.sizeup_own, sbscratch.sbtest1 TO sbtest1"
wait $pid
check_eq "swap: the run stops with exit 1" $? 1
check_true "swap: says the tables changed after the level of 1 thread, naming sbtest1" \
    grep -q "the tables changed after the level of 1 thread: .*sbtest1.*flagged tables_changed, and the run stops" "$TMPD/swap.err"
check_eq "swap: one record, flagged tables_changed" \
    "$(python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(len(r), r[0]['threads'], 'tables_changed' in r[0].get('flags', []))" "$TMPD/swap.jsonl")" \
    "1 1 True"
check_true "swap: the second level never ran" bash -c "! grep -q 'level 2/2' '$TMPD/swap.err'"
check_eq "swap: the user's table unchanged" "$(sql "CHECKSUM TABLE sbtest1" | cut -f2)" "$usersum"
sql "DROP TABLE sbtest1; RENAME TABLE sbscratch.sizeup_own TO sbtest1"
probe cleanup --tables 1 >/dev/null 2>&1
check_eq "swap: sizeup's table back, cleanup drops it" $? 0

rootsql "DROP DATABASE IF EXISTS sbscratch"
finish
