#!/usr/bin/env bash
# Option files of `sizeup probe` (issue 19), read by MariaDB Connector/C as the MySQL clients
# read them, against the fixture server: host, port, user and password from a --defaults-file
# whose password is in an !include'd file; --mysql-port on the command line over the file's;
# ~/.my.cnf read by default and ignored with --no-defaults (HOME is a folder of the test's);
# the [sizeup] group; --defaults-extra-file; the password's order (--defaults-file, MYSQL_PWD,
# ~/.my.cnf); a missing --defaults-file is exit 2 naming it, a missing ~/.my.cnf nothing.
# Every case asserts the server's answer: a level measured (exit 0, a record with transactions)
# or the server's refusal (error 1045 with the user it saw). TLS from an option file is in
# test_probe_faults.sh, beside the server that requires it.
. "$(dirname "$0")/probe_lib.sh"

P=$SIZEUP_MYSQL_PORT
PW='Qx7-opt-files-31'
rootsql "CREATE USER IF NOT EXISTS 'optprobe'@'127.0.0.1' IDENTIFIED BY '$PW';
         GRANT ALL ON $SIZEUP_MYSQL_DB.* TO 'optprobe'@'127.0.0.1'"
drop_sbtest_tables
probe prepare --tables 1 --table-size 100 >/dev/null 2>&1
check_eq "prepare" $? 0

home=$TMPD/home empty=$TMPD/empty
mkdir -p "$home" "$empty"
n=0
# run NAME ENV... -- ARGS...: sizeup probe run (5 events of oltp_point_select) with the
# environment ENV (MYSQL_PWD unset unless given) and ARGS; its exit status in $rc, its
# stderr in $TMPD/NAME.err, its record in $TMPD/NAME.jsonl
run() {
    local name=$1 envs=()
    shift
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    env -u MYSQL_PWD HOME="$empty" "${envs[@]}" "$SIZEUP_BIN" probe --workload oltp_point_select \
        --tables 1 --table-size 100 --events 5 --time 0 --out "$TMPD/$name.jsonl" "$@" run \
        >"$TMPD/$name.out" 2>"$TMPD/$name.err"
    rc=$?
    n=$((n + 1))
}
measured() { json_get "$TMPD/$1.jsonl" 1 "p['transactions'] > 0"; }
refused_for() { grep -q "error 1045 .*Access denied for user '$2'" "$TMPD/$1.err"; }

# ---- host, port, user from the file, the password from an !include'd one ----------------------
printf '[client]\npassword=%s\n' "$PW" >"$TMPD/secret.cnf"
printf '# the connection\n[client]\nhost = 127.0.0.1\nport=%s\nuser=optprobe\n!include %s\n' \
    "$P" "$TMPD/secret.cnf" >"$TMPD/conn.cnf"
run include -- --defaults-file "$TMPD/conn.cnf"
check_eq "!include: exit" "$rc" 0
check_eq "!include: measured" "$(measured include)" True
check_eq "!include: the record says where (from the file)" \
    "$(json_get "$TMPD/include.jsonl" 1 "p['target'], p['options']['mysql_host'], p['options']['mysql_port'], p['options']['mysql_user']")" \
    "127.0.0.1 127.0.0.1 $P optprobe"
# the same file without the include: the server refuses optprobe without a password
grep -v '^!include' "$TMPD/conn.cnf" >"$TMPD/nopw.cnf"
run nopw -- --defaults-file "$TMPD/nopw.cnf"
check_eq "without the include: exit 1" "$rc" 1
check_true "without the include: the server refused optprobe" refused_for nopw optprobe

# ---- the command line overrides the file -----------------------------------------------------
# nothing listens on port 1: the file's port alone cannot reach the server
sed "s/^port=.*/port=1/" "$TMPD/conn.cnf" >"$TMPD/port1.cnf"
run port1 -- --defaults-file "$TMPD/port1.cnf"
check_eq "the file's port 1: unreachable (exit 4)" "$rc" 4
check_true "the file's port 1: the library's connect error" grep -Eq "error 200[23] " "$TMPD/port1.err"
run portcli -- --defaults-file "$TMPD/port1.cnf" --mysql-port "$P"
check_eq "--mysql-port over the file's: exit" "$rc" 0
check_eq "--mysql-port over the file's: measured, on that port" \
    "$(json_get "$TMPD/portcli.jsonl" 1 "p['transactions'] > 0 and p['options']['mysql_port'] == $P")" True
run usercli -- --defaults-file "$TMPD/conn.cnf" --mysql-user nobody_here
check_true "--mysql-user over the file's: the server saw nobody_here" refused_for usercli nobody_here

# ---- ~/.my.cnf: read by default, not with --no-defaults, its absence no error ------------------
printf '[client]\nhost=127.0.0.1\nport=%s\nuser=nosuchuser\npassword=wrong\n' "$P" >"$home/.my.cnf"
run home MYSQL_PWD="$SIZEUP_MYSQL_PASSWORD" HOME="$home" --
check_eq "~/.my.cnf read: exit 1" "$rc" 1
check_true "~/.my.cnf read: the server saw its user" refused_for home nosuchuser
run nodefaults MYSQL_PWD="$SIZEUP_MYSQL_PASSWORD" HOME="$home" -- --no-defaults \
    --mysql-host 127.0.0.1 --mysql-port "$P"
check_eq "--no-defaults: exit" "$rc" 0
check_eq "--no-defaults: measured as sizeup's default user" \
    "$(json_get "$TMPD/nodefaults.jsonl" 1 "p['transactions'] > 0 and p['options']['mysql_user'] == 'sbtest'")" True
run nohome MYSQL_PWD="$SIZEUP_MYSQL_PASSWORD" -- --mysql-host 127.0.0.1 --mysql-port "$P"
check_eq "no ~/.my.cnf: exit 0" "$rc" 0
check_eq "no ~/.my.cnf: measured" "$(measured nohome)" True

# ---- the password's order: --defaults-file, MYSQL_PWD, ~/.my.cnf -------------------------------
printf '[client]\npassword=wrong\n' >"$home/.my.cnf"
run pwdhome MYSQL_PWD="$PW" HOME="$home" -- --mysql-host 127.0.0.1 --mysql-port "$P" \
    --mysql-user optprobe
check_eq "MYSQL_PWD before ~/.my.cnf: exit" "$rc" 0
run homepw HOME="$home" -- --mysql-host 127.0.0.1 --mysql-port "$P" --mysql-user optprobe
check_true "~/.my.cnf's password without MYSQL_PWD: refused" refused_for homepw optprobe
printf '[client]\npassword=wrong\n' >"$TMPD/wrongpw.cnf"
run filepw MYSQL_PWD="$PW" -- --defaults-file "$TMPD/wrongpw.cnf" --mysql-host 127.0.0.1 \
    --mysql-port "$P" --mysql-user optprobe
check_true "--defaults-file's password before MYSQL_PWD: refused" refused_for filepw optprobe
printf '[client]\nhost=127.0.0.1\n' >"$TMPD/nopass.cnf"
run filenopw MYSQL_PWD="$PW" -- --defaults-file "$TMPD/nopass.cnf" --mysql-port "$P" \
    --mysql-user optprobe
check_eq "a --defaults-file without a password: MYSQL_PWD (exit 0)" "$rc" 0

# ---- groups: [sizeup] read, [mysqld] and others not --------------------------------------------
printf '[mysqld]\npassword=wrong\n[client]\nhost=127.0.0.1\nport=%s\nuser=optprobe\n[sizeup]\npassword="%s"\n[other]\nuser=nobody_here\n' \
    "$P" "$PW" >"$TMPD/groups.cnf"
run group -- --defaults-file "$TMPD/groups.cnf"
check_eq "[sizeup] group: exit" "$rc" 0
check_eq "[sizeup] group: measured" "$(measured group)" True
run group2 -- --defaults-file "$TMPD/groups.cnf" --defaults-group other
check_true "--defaults-group other: its user, and not [sizeup]'s password" refused_for group2 nobody_here

# ---- --defaults-extra-file: also that file ---------------------------------------------------
printf '[client]\npassword=%s\n' "$PW" >"$TMPD/extra.cnf"
printf '[client]\nhost=127.0.0.1\nport=%s\nuser=optprobe\n' "$P" >"$home/.my.cnf"
run extra HOME="$home" -- --defaults-extra-file "$TMPD/extra.cnf"
check_eq "--defaults-extra-file with ~/.my.cnf: exit" "$rc" 0
check_eq "--defaults-extra-file with ~/.my.cnf: measured" "$(measured extra)" True
run noextra HOME="$home" --
check_true "without it: refused (no password)" refused_for noextra optprobe
check_true "--defaults-extra-file: its private folder removed" \
    bash -c "! ls -d '${TMPDIR:-/tmp}'/sizeup-cnf.* 2>/dev/null | grep -q ."
# a run killed with SIGKILL leaves its folder (issue 27.3): the next run removes the folders of
# runs that are gone (their pid in the name) holding only their my.cnf, and nothing else
tmpd=$TMPD/tmp
mkdir -p "$tmpd"
dead=$(sh -c 'echo $$') # a process that has ended
for d in "sizeup-cnf.$dead.stale_1" "sizeup-cnf.$$.alive_1" "sizeup-cnf.$dead.other_1"; do
    mkdir -p "$tmpd/$d" && printf '!include /nowhere\n' >"$tmpd/$d/my.cnf"
done
: >"$tmpd/sizeup-cnf.$dead.other_1/notes.txt"
run sweep HOME="$home" TMPDIR="$tmpd" -- --defaults-extra-file "$TMPD/extra.cnf"
check_eq "a stale --defaults-extra-file folder: the run works" "$rc" 0
check_true "the gone run's folder is removed" test ! -e "$tmpd/sizeup-cnf.$dead.stale_1"
check_true "a live run's folder is kept" test -e "$tmpd/sizeup-cnf.$$.alive_1/my.cnf"
check_true "a folder holding more than its my.cnf is kept" test -e "$tmpd/sizeup-cnf.$dead.other_1/notes.txt"
check_eq "and this run's own is gone at its end" "$(ls "$tmpd" | grep -c "^sizeup-cnf\.[0-9]*\.[A-Za-z0-9]\{6\}$")" 0

# ---- missing files -------------------------------------------------------------------------------
run missing -- --defaults-file "$TMPD/no-such.cnf"
check_eq "missing --defaults-file: exit 2" "$rc" 2
check_true "missing --defaults-file: named" grep -q "no-such.cnf: No such file or directory" "$TMPD/missing.err"
check_eq "missing --defaults-file: no record" "$(test -s "$TMPD/missing.jsonl" && echo yes || echo no)" no
run missingx -- --defaults-extra-file "$TMPD/no-such-extra.cnf"
check_eq "missing --defaults-extra-file: exit 2" "$rc" 2
check_true "missing --defaults-extra-file: named" grep -q "no-such-extra.cnf: No such file" "$TMPD/missingx.err"

# ---- the password nowhere ------------------------------------------------------------------------
check_true "password in no output and no record" \
    bash -c "! grep -rq -- '$PW' '$TMPD'/*.out '$TMPD'/*.err '$TMPD'/*.jsonl"
check_eq "cases run" "$n" 19

probe cleanup --tables 1 >/dev/null 2>&1
rootsql "DROP USER IF EXISTS 'optprobe'@'127.0.0.1'"
finish
