#!/usr/bin/env bash
# issue 27.2: a process that holds a password writes no core dump. A server that accepts and
# never answers keeps `sizeup probe run --mysql-password-file` (and `sizeup observe` with
# MYSQL_PWD) waiting in the handshake with the password in memory; SIGABRT then would dump core.
# The control: `sleep` killed the same way in the same folder must dump core, else this system
# writes no core files here (core_pattern piped, limits) and the test says so and skips (77).
set -u
BIN=${SIZEUP_BIN:?}
tmp=$(mktemp -d)
trap 'kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
ulimit -c unlimited 2>/dev/null || { echo "skipped: cannot raise the core size limit"; exit 77; }
secret="hunter2-$$-core-secret"
printf '%s\n' "$secret" > pw
# a TCP server that accepts and says nothing
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
' > port &
srv=$!
for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
port=$(cat port)

sleep 30 &
ctl=$!
sleep 0.3
kill -ABRT $ctl
wait $ctl 2>/dev/null
if ! ls core* >/dev/null 2>&1; then
    echo "skipped: this system writes no core file here (core_pattern: $(cat /proc/sys/kernel/core_pattern))"
    exit 77
fi
rm -f core*
fail=0
check() { # NAME CMD...: start it, let it hold the password, SIGABRT it, look for a core
    local name=$1; shift
    "$@" >out.txt 2>err.txt &
    local pid=$!
    sleep 1.5
    kill -ABRT $pid 2>/dev/null
    wait $pid 2>/dev/null
    if ls core* >/dev/null 2>&1; then
        if grep -a -q "$secret" core*; then
            echo "FAIL $name: a core file holds the password"
        else
            echo "FAIL $name: a core file was written"
        fi
        fail=1
        rm -f core*
    else
        echo "ok   $name: no core file"
    fi
    if grep -q "$secret" out.txt err.txt; then
        echo "FAIL $name: the password is in its output"
        fail=1
    fi
}
check "probe run --mysql-password-file" "$BIN" probe run --no-defaults --mysql-host=127.0.0.1 \
    --mysql-port="$port" --mysql-password-file=pw --threads 1 --time 1 --give-up 30s
check "observe with MYSQL_PWD" env MYSQL_PWD="$secret" "$BIN" observe --no-defaults \
    --mysql-host=127.0.0.1 --mysql-port="$port" --duration 30s -o w.json
exit $fail
