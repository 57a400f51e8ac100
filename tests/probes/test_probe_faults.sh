#!/usr/bin/env bash
# Fault tests of `sizeup probe run`, each with its expected exit status and record:
# wrong password, unknown database, nothing listening, a connection KILLed from another
# session, a non-ignorable error mid-run, SIGINT, and on a second throwaway server started
# here ($SIZEUP_MYSQL_SCRIPT, port fixture+200 or a free one): the server killed mid-run, restarted mid-run,
# and TLS required by the server (require_secure_transport=ON with certificates made here).
. "$(dirname "$0")/probe_lib.sh"
: "${SIZEUP_MYSQL_SCRIPT:?}" "${SIZEUP_BUILD_DIR:?}"

P2=$(free_port $((SIZEUP_MYSQL_PORT + 200))) && [ -n "$P2" ] || { echo "FAIL: no port for the second server" >&2; exit 1; }
D2=$SIZEUP_BUILD_DIR/mariadb-faults
rec() { json_get "$1" "${2:-1}" "$3"; }
lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

drop_sbtest_tables
probe prepare --tables 1 --table-size 200 >/dev/null 2>&1

# ---- connection refused at the start: no record, exit 1 (refused) or 4 (unreachable) --------
MYSQL_PWD=wrong "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 --mysql-port "$SIZEUP_MYSQL_PORT" \
    --out "$TMPD/wrong.jsonl" --time 1 run >"$TMPD/o" 2>"$TMPD/e"
check_eq "wrong password exit" $? 1
check_true "wrong password: errno 1045 named" grep -q "error 1045" "$TMPD/e"
check_eq "wrong password: no record" "$(lines "$TMPD/wrong.jsonl")" 0
# as root over the socket (sbtest may only see sbtest.*, and would get 1044 instead)
env -u MYSQL_PWD "$SIZEUP_BIN" probe --mysql-socket "$SIZEUP_MYSQL_SOCKET" --mysql-user root \
    --mysql-db no_such_db --time 1 --out "$TMPD/nodb.jsonl" run >"$TMPD/o" 2>"$TMPD/e"
check_eq "unknown database exit" $? 1
check_true "unknown database: errno 1049 named" grep -q "error 1049" "$TMPD/e"
check_eq "unknown database: no record" "$(lines "$TMPD/nodb.jsonl")" 0
MYSQL_PWD=x "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 --mysql-port $((P2 + 1)) --time 1 run \
    >"$TMPD/o" 2>"$TMPD/e"
check_eq "nothing listening exit (unreachable)" $? 4
check_true "nothing listening: FATAL line as sysbench" \
    grep -q "^FATAL: unable to connect to MySQL server on host '127.0.0.1', port $((P2 + 1))" "$TMPD/o"

# ---- a connection KILLed from another session: reconnect (fresh handle), counted; the level is
# flagged `reconnects` (it does not count, curve.h) and measured again once, cleanly ---------
# (--remeasure 3: on a loaded machine a re-measure may itself be disturbed; the last must be clean)
probe --workload oltp_read_only --tables 1 --table-size 200 --threads 1 --time 3 --remeasure 3 \
    --out "$TMPD/kill.jsonl" run >"$TMPD/kill.out" 2>"$TMPD/kill.err" &
pid=$!
sleep 1.2
id=$(sql "SELECT ID FROM information_schema.PROCESSLIST WHERE USER='$SIZEUP_MYSQL_USER' AND DB='$SIZEUP_MYSQL_DB' AND ID <> CONNECTION_ID() LIMIT 1")
sql "KILL CONNECTION $id"
wait $pid
check_eq "KILL: exit" $? 0
check_eq "KILL: one reconnect, flagged, not partial" \
    "$(rec "$TMPD/kill.jsonl" 1 "p['reconnects'], p.get('flags', []), p['transactions'] > 0")" \
    "1 ['reconnects'] True"
check_eq "KILL: measured again until clean" \
    "$(rec "$TMPD/kill.jsonl" "$(lines "$TMPD/kill.jsonl")" "p['threads'], p['reconnects'], p.get('flags', []), p['transactions'] > 0")" \
    "1 0 [] True"
check_true "KILL: report counts it" grep -Eq "^    reconnects: +1 " "$TMPD/kill.out"

# ---- an ignorable error (1205 lock wait timeout, in the default list): the transaction is
# re-run and counted; with 1205 not in --mysql-ignore-errors it is fatal, as in sysbench --------
rootsql "SET GLOBAL innodb_lock_wait_timeout = 1"
hold() { sleep 0.5; sql "BEGIN; UPDATE sbtest1 SET pad = pad WHERE id BETWEEN 1 AND 200; DO SLEEP(2.5); ROLLBACK"; }
hold &
probe --workload oltp_update_index --tables 1 --table-size 200 --threads 1 --time 4 \
    --out "$TMPD/ign.jsonl" run >"$TMPD/ign.out" 2>"$TMPD/ign.err"
check_eq "ignorable 1205: exit" $? 0
wait
check_eq "ignorable 1205: errors counted, level complete" \
    "$(rec "$TMPD/ign.jsonl" 1 "p['errors'] >= 1, p.get('flags', []), p['transactions'] > 0")" \
    "True [] True"
hold &
probe --workload oltp_update_index --tables 1 --table-size 200 --threads 1 --time 4 \
    --mysql-ignore-errors 1213 run >"$TMPD/ign2.out" 2>"$TMPD/ign2.err"
check_eq "1205 not ignored: exit 1" $? 1
wait
check_true "1205 not ignored: FATAL line" \
    grep -q "^FATAL: mysql_stmt_execute() returned error 1205 " "$TMPD/ign2.out"
rootsql "SET GLOBAL innodb_lock_wait_timeout = DEFAULT"

# ---- a non-ignorable error mid-run: FATAL as sysbench, record kept and flagged, exit 1 ------
probe --workload oltp_point_select --tables 1 --table-size 200 --threads 2 --time 5 \
    --out "$TMPD/fatal.jsonl" run >"$TMPD/fatal.out" 2>"$TMPD/fatal.err" &
pid=$!
sleep 1.2
sql "DROP TABLE sbtest1"
wait $pid
check_eq "fatal error exit" $? 1
check_true "fatal: sysbench's FATAL line" \
    grep -q "^FATAL: mysql_stmt_execute() returned error 1146 .* for query 'SELECT c FROM sbtest1 WHERE id=?'" "$TMPD/fatal.out"
check_eq "fatal: record flagged" \
    "$(rec "$TMPD/fatal.jsonl" 1 "'fatal_error' in p['flags'] and 'partial' in p['flags'] and p['transactions'] > 0")" True

# ---- SIGINT: the level so far is written, marked interrupted, exit 130 ---------------------
probe prepare --tables 1 --table-size 200 >/dev/null 2>&1
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 \
    --mysql-port "$SIZEUP_MYSQL_PORT" --workload oltp_point_select --tables 1 --table-size 200 \
    --threads 2,4 --time 20 --out "$TMPD/int.jsonl" run >"$TMPD/int.out" 2>"$TMPD/int.err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
check_eq "SIGINT exit" $? 130
check_eq "SIGINT: one record, interrupted, short" \
    "$(rec "$TMPD/int.jsonl" 1 "p['threads'], p['flags'], p['incomplete'], p['transactions'] > 0, p['duration_s'] < 10")" \
    "2 ['interrupted'] True True True"
check_eq "SIGINT: no second level" "$(lines "$TMPD/int.jsonl")" 1
probe cleanup --tables 1 >/dev/null 2>&1

# ---- a second server of our own -------------------------------------------------------------
p2() { MYSQL_PWD=sbtest "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 --mysql-port "$P2" "$@"; }
"$SIZEUP_MYSQL_SCRIPT" start "$D2" "$P2" >/dev/null || bad "second server did not start"
p2 cleanup --tables 1 >/dev/null 2>&1
p2 prepare --tables 1 --table-size 200 >/dev/null 2>&1
check_eq "second server prepare" $? 0

# killed mid-run: the workers cannot reconnect before the level ends (or it stalls), marked partial;
# the server does not come back within --give-up: exit 4
p2 --workload oltp_point_select --table-size 200 --threads 2 --time 4 --out "$TMPD/down.jsonl" \
    --give-up 2 run >"$TMPD/down.out" 2>"$TMPD/down.err" &
pid=$!
sleep 1.5
kill -9 "$(cat "$D2/mysqld.pid")"
wait $pid
check_eq "server killed: exit 4" $? 4
check_eq "server killed: record partial" \
    "$(rec "$TMPD/down.jsonl" 1 "'partial' in p['flags'] and 'server_unreachable' in p['flags'] and p['incomplete'] and p['transactions'] > 0")" True
check_true "server killed: clear message" grep -q "the server did not answer within 2 s" "$TMPD/down.err"
check_eq "server killed: one record" "$(lines "$TMPD/down.jsonl")" 1

# a calibrated level killed mid-run: its end comes from the aggregator (--max-time) while the
# connections still wait to reconnect; the level is partial (it used to be written unflagged, its
# last second at 0 tps, bench/run-faults.sh), and the server staying down gives exit 4
"$SIZEUP_MYSQL_SCRIPT" start "$D2" "$P2" >/dev/null || bad "second server did not restart"
p2 --workload oltp_point_select --table-size 200 --threads 2 --precision 0.1% --min-time 1 \
    --max-time 3 --replicates 1 --out "$TMPD/cdown.jsonl" --give-up 2 run \
    >"$TMPD/cdown.out" 2>"$TMPD/cdown.err" &
pid=$!
sleep 1.5
kill -9 "$(cat "$D2/mysqld.pid")"
wait $pid
check_eq "calibrated level, server killed: exit 4" $? 4
check_eq "calibrated level, server killed: record partial" \
    "$(rec "$TMPD/cdown.jsonl" 1 "'partial' in p.get('flags', []) and p.get('incomplete', False) and p['transactions'] > 0")" True

# restarted mid-run: fresh handles reconnect with backoff; the level is flagged (reconnects, and
# stalled when the restart took 2 s or more), measured again once the server answers, exit 0
"$SIZEUP_MYSQL_SCRIPT" start "$D2" "$P2" >/dev/null || bad "second server did not restart"
p2 --workload oltp_read_write --table-size 200 --threads 2 --time 5 --out "$TMPD/restart.jsonl" \
    --remeasure 3 run >"$TMPD/restart.out" 2>"$TMPD/restart.err" &
pid=$!
sleep 1.5
"$SIZEUP_MYSQL_SCRIPT" stop "$D2" >/dev/null
"$SIZEUP_MYSQL_SCRIPT" start "$D2" "$P2" >/dev/null
wait $pid
check_eq "server restarted: exit 0" $? 0
check_eq "server restarted: the first record reconnected and is flagged" \
    "$(rec "$TMPD/restart.jsonl" 1 "p['reconnects'] >= 1 or 'partial' in p['flags'], bool(set(p['flags']) & {'reconnects', 'stalled', 'partial'}), p['transactions'] > 0")" \
    "True True True"
check_eq "server restarted: measured again until clean" \
    "$(rec "$TMPD/restart.jsonl" "$(lines "$TMPD/restart.jsonl")" "p['threads'], p.get('flags', []), p['transactions'] > 0")" \
    "2 [] True"
"$SIZEUP_MYSQL_SCRIPT" stop "$D2" >/dev/null

# TLS required by the server: certificates from openssl, mariadbd with
# require_secure_transport=ON on the same datadir
if command -v openssl >/dev/null; then
    c=$TMPD/tls
    mkdir -p "$c"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sizeup test CA" \
        -keyout "$c/ca-key.pem" -out "$c/ca.pem" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$c/server-key.pem" \
        -out "$c/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=IP:127.0.0.1\n' >"$c/ext"
    openssl x509 -req -in "$c/server.csr" -CA "$c/ca.pem" -CAkey "$c/ca-key.pem" \
        -CAcreateserial -days 2 -extfile "$c/ext" -out "$c/server.pem" >/dev/null 2>&1
    mysqld=$(command -v mariadbd || echo /usr/sbin/mariadbd)
    "$mysqld" --no-defaults --datadir="$D2/data" --socket="$D2/mysqld.sock" --port="$P2" \
        --bind-address=127.0.0.1 --pid-file="$D2/mysqld.pid" --log-error="$D2/error.log" \
        --user="$(id -un)" --innodb-buffer-pool-size=64M --skip-name-resolve \
        --performance-schema=OFF --ssl-ca="$c/ca.pem" --ssl-cert="$c/server.pem" \
        --ssl-key="$c/server-key.pem" --require-secure-transport=ON >/dev/null 2>&1 &
    for _ in $(seq 1 60); do
        "$SIZEUP_MYSQL_SCRIPT" status "$D2" >/dev/null 2>&1 && break
        sleep 0.5
    done
    p2 --workload oltp_point_select --table-size 200 --time 1 --mysql-ssl-mode DISABLED \
        --out "$TMPD/tls0.jsonl" run >"$TMPD/tls0.out" 2>"$TMPD/tls0.err"
    check_eq "TLS required, client DISABLED: exit 1" $? 1
    # MariaDB 10.11 refuses a plain connection under require_secure_transport with 1045
    # (access denied); MySQL and later MariaDB send 3159 / 4036. The same credentials pass
    # with TLS below, so the transport is what was refused.
    check_true "TLS required: the server's refusal named" \
        grep -Eq "error (1045|3159|4036) " "$TMPD/tls0.err"
    check_eq "TLS refused: no record" "$(lines "$TMPD/tls0.jsonl")" 0
    for mode in REQUIRED VERIFY_CA VERIFY_IDENTITY; do
        p2 --workload oltp_point_select --table-size 200 --time 1 --mysql-ssl-mode $mode \
            --mysql-ssl-ca "$c/ca.pem" --out "$TMPD/tls1.jsonl" run >"$TMPD/tls1.out" \
            2>"$TMPD/tls1.err"
        check_eq "TLS required, client $mode: exit 0" $? 0
    done
    check_eq "TLS: records written, mode kept" \
        "$(rec "$TMPD/tls1.jsonl" 3 "p['options']['mysql_ssl_mode'], p['transactions'] > 0")" \
        "VERIFY_IDENTITY True"
    # a CA that did not sign the server's certificate is rejected under VERIFY_CA
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=other CA" \
        -keyout "$c/o-key.pem" -out "$c/other.pem" >/dev/null 2>&1
    p2 --workload oltp_point_select --table-size 200 --time 1 --mysql-ssl-mode VERIFY_CA \
        --mysql-ssl-ca "$c/other.pem" run >/dev/null 2>"$TMPD/tls2.err"
    check_eq "TLS VERIFY_CA with a foreign CA: exit 1" $? 1
    # TLS from an option file (issue 19), read by Connector/C: with the password there too and
    # no MYSQL_PWD; the server requires TLS, so a measured level proves it was used
    printf '[client]\nhost=127.0.0.1\nport=%s\nuser=sbtest\npassword=sbtest\n[sizeup]\nssl-ca=%s\nssl-verify-server-cert=1\n' \
        "$P2" "$c/ca.pem" >"$TMPD/tls.cnf"
    env -u MYSQL_PWD "$SIZEUP_BIN" probe --defaults-file "$TMPD/tls.cnf" --workload oltp_point_select \
        --table-size 200 --time 1 --out "$TMPD/tlsf.jsonl" run >/dev/null 2>"$TMPD/tlsf.err"
    check_eq "TLS from an option file: exit 0" $? 0
    check_eq "TLS from an option file: measured" "$(rec "$TMPD/tlsf.jsonl" 1 "p['transactions'] > 0")" True
    # the file's CA is the one used: a foreign one fails the handshake it verifies
    sed "s|ssl-ca=.*|ssl-ca=$c/other.pem|" "$TMPD/tls.cnf" >"$TMPD/tls-other.cnf"
    env -u MYSQL_PWD "$SIZEUP_BIN" probe --defaults-file "$TMPD/tls-other.cnf" \
        --workload oltp_point_select --table-size 200 --time 1 run >/dev/null 2>"$TMPD/tlsf2.err"
    check_eq "TLS from an option file, a foreign CA: exit 1" $? 1
    check_true "TLS from an option file, a foreign CA: the library's TLS error" \
        grep -Eqi "error 2026 .*(certificate|tls|ssl)" "$TMPD/tlsf2.err"
    # a --mysql-ssl-ca that a file's ssl-ca would replace is refused, not silently lost
    env -u MYSQL_PWD "$SIZEUP_BIN" probe --defaults-file "$TMPD/tls.cnf" --mysql-ssl-mode VERIFY_CA \
        --mysql-ssl-ca "$c/other.pem" --time 1 run >/dev/null 2>"$TMPD/tlsf3.err"
    check_eq "--mysql-ssl-ca under a file's ssl-ca: exit 2" $? 2
    check_true "--mysql-ssl-ca under a file's ssl-ca: said" grep -q "^sizeup: --mysql-ssl-ca: an option file sets it too" "$TMPD/tlsf3.err"
    # --mysql-ssl-mode DISABLED on the command line while the file turns TLS on: refused, since
    # the connections would use TLS whatever the command line said
    env -u MYSQL_PWD "$SIZEUP_BIN" probe --defaults-file "$TMPD/tls.cnf" --mysql-ssl-mode DISABLED \
        --time 1 run >/dev/null 2>"$TMPD/tlsf4.err"
    check_eq "--mysql-ssl-mode DISABLED under a file's ssl-ca: exit 2" $? 2
    check_true "--mysql-ssl-mode DISABLED under a file's ssl-ca: said" \
        grep -q "^sizeup: --mysql-ssl-mode DISABLED: an option file turns TLS on" "$TMPD/tlsf4.err"
    # ... also when the file's only TLS key is ssl-verify-server-cert
    grep -v '^ssl-ca=' "$TMPD/tls.cnf" >"$TMPD/tls-verify.cnf"
    env -u MYSQL_PWD "$SIZEUP_BIN" probe --defaults-file "$TMPD/tls-verify.cnf" \
        --mysql-ssl-mode DISABLED --time 1 run >/dev/null 2>"$TMPD/tlsf5.err"
    check_eq "--mysql-ssl-mode DISABLED under a file's ssl-verify-server-cert: exit 2" $? 2
    # a mode that asks for TLS itself is no conflict with the file's CA: it connects
    env -u MYSQL_PWD "$SIZEUP_BIN" probe --defaults-file "$TMPD/tls.cnf" --mysql-ssl-mode VERIFY_CA \
        --workload oltp_point_select --table-size 200 --time 1 run >/dev/null 2>"$TMPD/tlsf6.err"
    check_eq "--mysql-ssl-mode VERIFY_CA with a file's ssl-ca: exit 0" $? 0
    p2 cleanup --tables 1 --mysql-ssl-mode REQUIRED >/dev/null 2>&1
    "$SIZEUP_MYSQL_SCRIPT" stop "$D2" >/dev/null
else
    echo "SKIP: TLS case: openssl is not installed, certificates cannot be made" >&2
    "$SIZEUP_MYSQL_SCRIPT" start "$D2" "$P2" >/dev/null && p2 cleanup --tables 1 >/dev/null 2>&1
    "$SIZEUP_MYSQL_SCRIPT" stop "$D2" >/dev/null
fi
finish
