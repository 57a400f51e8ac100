#!/usr/bin/env bash
# Start or stop a throwaway MariaDB server on 127.0.0.1 for sizeup's tests, fixtures and main job.
#
#   scripts/mariadb-server.sh start DIR [PORT]   create DIR (data, socket, log) and start the server
#   scripts/mariadb-server.sh stop DIR           stop it (DIR is kept; remove it yourself)
#   scripts/mariadb-server.sh status DIR         exit 0 when it answers
#
# SIZEUP_MARIADB_OPTS, when set, is appended to the server's options (a later option wins), e.g.
# "--innodb-buffer-pool-size=16M --innodb-flush-method=O_DIRECT" for an I/O-bound server.
#
# The server listens on 127.0.0.1:PORT (default 23061) and DIR/mysqld.sock only. It has a database
# `sbtest` and a user `sbtest` (password `sbtest`, host 127.0.0.1 and localhost) with all privileges on
# it, plus PROCESS and RELOAD for SHOW GLOBAL STATUS; root has no password over the socket.
# DIR/env is written with the shell variables the tests read (SIZEUP_MYSQL_HOST, _PORT, _SOCKET, ...).
set -euo pipefail
# root has no password over the socket: a MYSQL_PWD in the caller's environment (the sbtest
# password, as the benches and a user's shell set it) would make the client send it and be
# refused, and the server would start without its sbtest user
unset MYSQL_PWD

cmd=${1:-}
dir=${2:-}
port=${3:-23061}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop|status DIR [PORT]" >&2
    exit 2
fi

find_bin() {
    for b in "$@"; do
        if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return 0; fi
        for p in /usr/sbin /usr/bin /usr/local/sbin; do
            if [ -x "$p/$b" ]; then echo "$p/$b"; return 0; fi
        done
    done
    echo "mariadb-server.sh: none of $* found; install Debian's mariadb-server" >&2
    return 1
}

user=$(id -un)
sock="$dir/mysqld.sock"

case "$cmd" in
start)
    mysqld=$(find_bin mariadbd mysqld)
    installdb=$(find_bin mariadb-install-db mysql_install_db)
    client=$(find_bin mariadb mysql)
    admin=$(find_bin mariadb-admin mysqladmin)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    sock="$dir/mysqld.sock"
    if [ -S "$sock" ] && "$admin" --no-defaults --socket="$sock" -uroot ping >/dev/null 2>&1; then
        echo "mariadb-server.sh: already running on $sock"
        exit 0
    fi
    if [ ! -d "$dir/data/mysql" ]; then
        rm -rf "$dir/data"
        "$installdb" --no-defaults --datadir="$dir/data" --user="$user" \
            --auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1 || {
            echo "mariadb-server.sh: mariadb-install-db failed; see $dir/install.log" >&2
            tail -20 "$dir/install.log" >&2
            exit 1
        }
    fi
    "$mysqld" --no-defaults --datadir="$dir/data" --socket="$sock" --port="$port" \
        --bind-address=127.0.0.1 --pid-file="$dir/mysqld.pid" --log-error="$dir/error.log" \
        --user="$user" --innodb-buffer-pool-size=256M --innodb-log-file-size=128M \
        --innodb-flush-log-at-trx-commit=2 --max-connections=600 --skip-name-resolve \
        --performance-schema=OFF ${SIZEUP_MARIADB_OPTS:-} >"$dir/stdout.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 120); do
        if "$admin" --no-defaults --socket="$sock" -uroot ping >/dev/null 2>&1; then
            break
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "mariadb-server.sh: the server exited during start-up (port $port in use?); see $dir/error.log" >&2
            tail -5 "$dir/error.log" >&2 || true
            exit 1
        fi
        sleep 0.5
    done
    if ! "$admin" --no-defaults --socket="$sock" -uroot ping >/dev/null 2>&1; then
        echo "mariadb-server.sh: server did not start within 60 s; see $dir/error.log" >&2
        tail -20 "$dir/error.log" >&2 || true
        exit 1
    fi
    "$client" --no-defaults --socket="$sock" -uroot <<'SQL'
CREATE DATABASE IF NOT EXISTS sbtest;
CREATE USER IF NOT EXISTS 'sbtest'@'127.0.0.1' IDENTIFIED BY 'sbtest';
CREATE USER IF NOT EXISTS 'sbtest'@'localhost' IDENTIFIED BY 'sbtest';
GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'127.0.0.1';
GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'localhost';
GRANT PROCESS, RELOAD, CONNECTION ADMIN ON *.* TO 'sbtest'@'127.0.0.1';
GRANT PROCESS, RELOAD, CONNECTION ADMIN ON *.* TO 'sbtest'@'localhost';
FLUSH PRIVILEGES;
SQL
    cat >"$dir/env" <<ENV
SIZEUP_MYSQL_HOST=127.0.0.1
SIZEUP_MYSQL_PORT=$port
SIZEUP_MYSQL_SOCKET=$sock
SIZEUP_MYSQL_USER=sbtest
SIZEUP_MYSQL_PASSWORD=sbtest
SIZEUP_MYSQL_DB=sbtest
SIZEUP_MYSQL_DIR=$dir
ENV
    echo "mariadb-server.sh: running on 127.0.0.1:$port and $sock (datadir $dir/data)"
    ;;
stop)
    admin=$(find_bin mariadb-admin mysqladmin)
    if [ -S "$sock" ]; then
        "$admin" --no-defaults --socket="$sock" -uroot shutdown >/dev/null 2>&1 || true
    fi
    if [ -f "$dir/mysqld.pid" ]; then
        pid=$(cat "$dir/mysqld.pid" 2>/dev/null || true)
        for _ in $(seq 1 60); do
            [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    fi
    echo "mariadb-server.sh: stopped ($dir)"
    ;;
status)
    admin=$(find_bin mariadb-admin mysqladmin)
    "$admin" --no-defaults --socket="$sock" -uroot ping
    ;;
*)
    echo "usage: $0 start|stop|status DIR [PORT]" >&2
    exit 2
    ;;
esac
