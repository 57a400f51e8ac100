#!/usr/bin/env bash
# Start or stop a throwaway PostgreSQL server on 127.0.0.1 for sizeup's pgbench tests and fixtures
# (Debian's postgresql package; pgbench comes with it).
#
#   scripts/postgres-server.sh start DIR [PORT]   create DIR (data, socket, log) and start the server
#   scripts/postgres-server.sh stop DIR           stop it (DIR is kept; remove it yourself)
#   scripts/postgres-server.sh status DIR         exit 0 when it answers
#
# The server listens on 127.0.0.1:PORT (default 23064) and a socket in DIR only, trusts local
# connections (it holds nothing but pgbench's tables) and has a database `bench`. PostgreSQL does
# not run as root: as root the server runs as the `postgres` user the package creates (DIR is
# handed to it). DIR/env is written with the shell variables the tests read (SIZEUP_PG_HOST,
# _PORT, _USER, _DB, _BIN).
set -euo pipefail

cmd=${1:-}
dir=${2:-}
port=${3:-23064}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop|status DIR [PORT]" >&2
    exit 2
fi

bindir() {
    local b
    b=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [ -z "$b" ] || [ ! -x "$b/initdb" ]; then
        echo "postgres-server.sh: no /usr/lib/postgresql/*/bin/initdb; install Debian's postgresql" >&2
        return 1
    fi
    echo "$b"
}

# Run a server program as the user that owns DIR (postgres when we are root).
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

bin=$(bindir)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
user=$([ "$(id -u)" -eq 0 ] && echo postgres || id -un)

case "$cmd" in
start)
    if as_owner "$bin/pg_isready" -q -h "$dir" -p "$port" 2>/dev/null; then
        echo "postgres-server.sh: already running on $dir port $port"
        exit 0
    fi
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        rm -rf "$dir/data"
        as_owner "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --no-sync -E UTF8 \
            --locale=C >"$dir/initdb.log" 2>&1 || {
            echo "postgres-server.sh: initdb failed; see $dir/initdb.log" >&2
            tail -20 "$dir/initdb.log" >&2
            exit 1
        }
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=100 -c shared_buffers=64MB" \
        start >/dev/null || {
        echo "postgres-server.sh: the server did not start (port $port in use?); see $dir/server.log" >&2
        tail -20 "$dir/server.log" >&2 || true
        exit 1
    }
    as_owner "$bin/psql" -h "$dir" -p "$port" -U "$user" -d postgres -qtAc \
        "SELECT 1 FROM pg_database WHERE datname = 'bench'" | grep -q 1 ||
        as_owner "$bin/createdb" -h "$dir" -p "$port" -U "$user" bench
    cat >"$dir/env" <<ENV
SIZEUP_PG_HOST=127.0.0.1
SIZEUP_PG_PORT=$port
SIZEUP_PG_USER=$user
SIZEUP_PG_DB=bench
SIZEUP_PG_BIN=$bin
SIZEUP_PG_DIR=$dir
ENV
    echo "postgres-server.sh: running on 127.0.0.1:$port (data $dir/data, user $user, database bench)"
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
    fi
    echo "postgres-server.sh: stopped ($dir)"
    ;;
status)
    as_owner "$bin/pg_isready" -h "$dir" -p "$port"
    ;;
*)
    echo "usage: $0 start|stop|status DIR [PORT]" >&2
    exit 2
    ;;
esac
