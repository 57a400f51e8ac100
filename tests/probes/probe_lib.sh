# probe_lib.sh - helpers of the probe integration tests (sourced). Needs the SIZEUP_MYSQL_*
# variables of the `mariadb` CTest fixture and SIZEUP_BIN.
set -u
: "${SIZEUP_BIN:?}" "${SIZEUP_MYSQL_PORT:?}" "${SIZEUP_MYSQL_SOCKET:?}"
passed=0 failed=0
client=$(command -v mariadb || command -v mysql)
TMPD=$(mktemp -d /tmp/probe-test.XXXXXX)

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
# check_eq WHAT ACTUAL EXPECTED
check_eq() { if [ "$2" == "$3" ]; then ok; else bad "$1: got '$2', expected '$3'"; fi; }
# check_true WHAT COMMAND...
check_true() { local w=$1; shift; if "$@"; then ok; else bad "$w"; fi; }
finish() {
    rm -rf "$TMPD"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

# free_port PORT: PORT when nothing on 127.0.0.1 has it, else the next free port above it (a test
# that starts a second server must never talk to somebody else's server on a taken port). The
# ports stay below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768 by default):
# a port in it can be taken between two starts of the same server by any client's outgoing
# connection, or by a reconnecting probe's own connect to the stopped server (TCP self-connect),
# which made test_probe_faults' restarts fail with "Address already in use" in CI.
free_port() {
    python3 - "$1" <<'PY'
import socket, sys
def free(p):
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", p))
        return s.getsockname()[1]
    except OSError:
        return None
    finally:
        s.close()
try:
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except (OSError, ValueError, IndexError):
    low = 32768
first = int(sys.argv[1])
for p in range(first, first + 200):
    if p >= low:
        break
    if free(p):
        print(p)
        sys.exit(0)
# none below the range (a first port at or above it, e.g. an old build folder's cached
# SIZEUP_TEST_MYSQL_PORT): a port the kernel has free, said, rather than no server at all
p = free(0)
sys.stderr.write("free_port: no free port from %d below the ephemeral range (%d): using %s, "
                 "which a client's connection may take between two starts\n" % (first, low, p))
print(p)
PY
}

# sql [DB] QUERY: as sbtest over TCP on the fixture server; tab-separated, no headers
sql() {
    local db=$SIZEUP_MYSQL_DB q=$1
    if [ $# -eq 2 ]; then db=$1 q=$2; fi
    MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$client" --no-defaults -N -B -h127.0.0.1 \
        -P"$SIZEUP_MYSQL_PORT" -u"$SIZEUP_MYSQL_USER" "$db" -e "$q"
}
# rootsql QUERY: as root over the fixture's socket
rootsql() { env -u MYSQL_PWD "$client" --no-defaults -N -B -S "$SIZEUP_MYSQL_SOCKET" -uroot -e "$1"; }

# drop_sbtest_tables [DB]: start from a database without sbtest* tables (whoever made them)
drop_sbtest_tables() {
    local db=${1:-$SIZEUP_MYSQL_DB} t
    for t in $(sql "$db" "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA='$db' AND TABLE_NAME LIKE 'sbtest%'"); do
        sql "$db" "DROP TABLE \`$t\`"
    done
}

# the connection options of the fixture server, for a probe started with & whose pid is needed
# (a shell function run with & would be a subshell, and it would receive the signal)
PROBE_CONN=(--mysql-host 127.0.0.1 --mysql-port "$SIZEUP_MYSQL_PORT" --mysql-user "$SIZEUP_MYSQL_USER"
            --mysql-db "$SIZEUP_MYSQL_DB")
# probe ARGS...: sizeup probe against the fixture server
probe() { MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe --mysql-host 127.0.0.1 \
          --mysql-port "$SIZEUP_MYSQL_PORT" --mysql-user "$SIZEUP_MYSQL_USER" \
          --mysql-db "$SIZEUP_MYSQL_DB" "$@"; }

# com_status: "select update insert delete begin commit" counters, space-separated
com_status() {
    sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select','Com_update','Com_insert',
         'Com_delete','Com_begin','Com_commit')" |
        awk '{v[$1]=$2} END {print v["Com_select"], v["Com_update"], v["Com_insert"],
             v["Com_delete"], v["Com_begin"], v["Com_commit"]}'
}

# json_get FILE LINE EXPR: evaluate a Python expression on record number LINE (1-based), as `p`
json_get() { python3 -c "import json,sys; p=[json.loads(l) for l in open(sys.argv[1]) if l.strip()][int(sys.argv[2])-1]; print($3)" "$1" "$2"; }
