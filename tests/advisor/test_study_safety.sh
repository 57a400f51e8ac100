#!/usr/bin/env bash
# sizeup study never leaves tables behind and never harms the target (issue 12.1, 12.6), against
# the fixture's MariaDB:
#   - limits are checked when the study is loaded (limit.h, the probe's own table): a ladder
#     level above the probe's thread limit is refused with file:line:column, before any table;
#   - a level that fails after prepare (a user without UPDATE/DELETE privileges) ends that
#     candidate, and its tables are dropped again;
#   - a user's own sbtest1 on the candidate: the study refuses it and leaves it as it was.
. "$(dirname "$0")/../probes/probe_lib.sh"
root=$PWD

study() { # study FILE LADDER OUTPUT USER PWFILE [WORKLOADS]
    local wl=${6:-'{ "oltp_point_select": 1 }'}
    cat >"$1" <<JSON
{ "schema": "sizeup.study/1",
  "candidates": [
    { "config": "local-mariadb", "target": "lab",
      "mysql": { "host": "127.0.0.1", "port": $SIZEUP_MYSQL_PORT,
                 "user": "$4", "db": "$SIZEUP_MYSQL_DB", "password_file": "$5" },
      "tables": 2, "table_size": 500 } ],
  "workloads": $wl,
  "ladder": $2, "precision": "20%", "max_time": "2s",
  "slo": "p99:50ms",
  "catalogs": ["$root/data/catalogs/local.json"],
  "output": "$3" }
JSON
}
tables() { sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='$SIZEUP_MYSQL_DB' AND TABLE_NAME LIKE 'sbtest%'"; }
printf '%s\n' "$SIZEUP_MYSQL_PASSWORD" >"$TMPD/pw"
drop_sbtest_tables

# ---- limits at load ----------------------------------------------------------------------------
study "$TMPD/big.json" "[1, 5000]" big "$SIZEUP_MYSQL_USER" pw
"$SIZEUP_BIN" study "$TMPD/big.json" >/dev/null 2>"$TMPD/big.err"
check_eq "ladder level above the probe's limit: exit 3" $? 3
check_true "named with its position and the limit" \
    grep -q "big.json:8:17: \$.ladder\[1\]: expected a thread count in \[1, 4096\]" "$TMPD/big.err"
check_eq "no table created" "$(tables)" 0
check_true "no output folder" test ! -e "$TMPD/big"

# ---- a level fails after prepare: the tables are dropped again --------------------------------
rootsql "CREATE USER IF NOT EXISTS 'sbnoupd'@'127.0.0.1' IDENTIFIED BY 'noupd';
         GRANT SELECT, INSERT, CREATE, DROP, INDEX, ALTER ON $SIZEUP_MYSQL_DB.* TO 'sbnoupd'@'127.0.0.1'"
printf 'noupd\n' >"$TMPD/pw2"
study "$TMPD/noupd.json" "[1, 2]" noupd sbnoupd pw2 '{ "oltp_read_write": 1 }'
"$SIZEUP_BIN" study "$TMPD/noupd.json" >"$TMPD/noupd.out" 2>"$TMPD/noupd.err"
check_eq "a failing level: the study fails (exit 1)" $? 1
check_true "the failure is named" grep -q "going on with the other candidates" "$TMPD/noupd.err"
check_eq "a failing level: no table left" "$(tables)" 0
rootsql "DROP USER IF EXISTS 'sbnoupd'@'127.0.0.1'"

# ---- a user's table on the candidate is left as it was ----------------------------------------
sql "CREATE TABLE sbtest1 (id INT PRIMARY KEY, name VARCHAR(40), amount INT)"
sql "INSERT INTO sbtest1 SELECT seq, CONCAT('customer ', seq), seq FROM seq_1_to_5000"
sum0=$(sql "CHECKSUM TABLE sbtest1" | cut -f2)
study "$TMPD/foreign.json" "[1, 2]" foreign "$SIZEUP_MYSQL_USER" pw
"$SIZEUP_BIN" study "$TMPD/foreign.json" >"$TMPD/foreign.out" 2>"$TMPD/foreign.err"
check_true "a user's sbtest1: the study does not end well ($?)" test $? -ne 0
check_true "a user's sbtest1: named" grep -q "sbtest1 .* is not sizeup's\|refusing to drop sbtest1" "$TMPD/foreign.err" "$TMPD/foreign/probe.log"
check_eq "a user's sbtest1: its rows and checksum unchanged" \
    "$(sql "SELECT COUNT(*) FROM sbtest1") $(sql "CHECKSUM TABLE sbtest1" | cut -f2)" "5000 $sum0"
check_eq "a user's sbtest1: nothing else created" "$(tables)" 1
sql "DROP TABLE sbtest1"
finish
