#!/usr/bin/env bash
# No temporary file after SIGINT or SIGTERM, in every writer (issue 12.7). util/outfile writes
# each output to FILE.tmp.XXXXXX beside it and renames it into place; a signal while the
# temporary exists must remove it. The signal is a real one, sent at the worst moment: the
# temporary is complete and about to be renamed (tests/util/sigshim.c, preloaded, calls
# kill(getpid(), SIG) from rename(2) and logs the temporary's path first). For each writer and
# each of SIGINT and SIGTERM:
#   - the process ends as by SIGINT for SIGINT and SIGTERM alike (status 130: SIGTERM is treated
#     as SIGINT, util/stopflag.h; the default action after the handler removed the temporaries),
#     or, for a command with a stop flag, exits 130;
#   - a temporary existed when the signal came (the shim logged it) and is gone; no *.tmp.*
#     file is left in the output's folder (nor in the catalog cache);
#   - the old output is unchanged (a command that ends by the signal never renamed).
# Writers: import -o, rank -o (text and --json), predict -o, report -o, catalog convert -o,
# catalog fetch -o and its cache (the cache's body is renamed first, then its meta, then the
# output: each is hit in turn), study's three outputs, and disk --out signalled mid-run (its stop flag: the records
# measured so far replace the file, whole, and no temporary is left).
set -u
: "${SIZEUP_BIN:?}" "${SIZEUP_SHIM:?}"
src=${SIZEUP_SOURCE_DIR:-$PWD}
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
check_eq() { if [ "$2" == "$3" ]; then ok; else bad "$1: got '$2', expected '$3'"; fi; }
check_true() { local w=$1; shift; if "$@"; then ok; else bad "$w"; fi; }
T=$(mktemp -d /tmp/signal-temps.XXXXXX)
http_pid=
trap '[ -n "$http_pid" ] && kill "$http_pid" 2>/dev/null; rm -rf "$T"' EXIT

csv=$src/data/published/rds-idc-vs-cloud-4c16g.csv
cat=$src/data/catalogs/published.json
signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; esac; }
temps_in() { find "$@" -name '*.tmp.*' 2>/dev/null | wc -l; }

# case NAME SIG AT OUT [DIRS...] -- ARGS...: run sizeup ARGS with the shim signalling at the
# AT-th rename of a temporary; OUT holds "old" before; DIRS are searched for temporaries
case_() {
    local name=$1 sig=$2 at=$3 out=$4
    shift 4
    local dirs=()
    while [ "$1" != -- ]; do dirs+=("$1"); shift; done
    shift
    local n log=$T/$name.$sig.log st
    n=$(signum "$sig")
    printf 'old\n' >"$out"
    rm -f "$log"
    LD_PRELOAD=$SIZEUP_SHIM SIGSHIM_SIGNAL=$n SIGSHIM_AT=$at SIGSHIM_LOG=$log \
        ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 \
        "$SIZEUP_BIN" "$@" >"$T/$name.$sig.out" 2>"$T/$name.$sig.err"
    st=$?
    check_eq "$name, SIG$sig: ended as by SIGINT (130)" "$st" 130
    check_true "$name, SIG$sig: a temporary existed when the signal came" test -s "$log"
    if [ -s "$log" ]; then
        check_true "$name, SIG$sig: that temporary ($(head -1 "$log")) is gone" \
            test ! -e "$(head -1 "$log")"
    fi
    check_eq "$name, SIG$sig: no temporary left" "$(temps_in "$(dirname "$out")" "${dirs[@]}")" 0
    check_eq "$name, SIG$sig: the old output is unchanged" "$(cat "$out")" old
}

for sig in INT TERM; do
    d=$T/$sig
    mkdir -p "$d"
    case_ import $sig 1 "$d/points.jsonl" -- import "$csv" -o "$d/points.jsonl"
    case_ rank $sig 1 "$d/rank.txt" -- rank --points "$csv" --catalog "$cat" --slo avg:20ms \
        -o "$d/rank.txt"
    case_ rank-json $sig 1 "$d/rank.jsonl" -- rank --points "$csv" --catalog "$cat" \
        --slo avg:20ms --json -o "$d/rank.jsonl"
    case_ predict $sig 1 "$d/pred.jsonl" -- predict \
        --points "$src/data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv" \
        --catalog "$src/data/catalogs/aws-us-east-1.json" --json -o "$d/pred.jsonl"
    case_ report $sig 1 "$d/report.html" -- report --points "$csv" --catalog "$cat" \
        --slo avg:20ms -o "$d/report.html"
    case_ convert $sig 1 "$d/ec2.json" -- catalog convert --from ec2instances \
        "$src/tests/catalogs/fixtures/ec2-instances.json" -o "$d/ec2.json" --as-of 2026-12-01
done

# catalog fetch: an HTTP server of our own on a free port
mkdir -p "$T/www"
cp "$cat" "$T/www/published.json"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$T/www" && exec python3 -m http.server "$port" --bind 127.0.0.1) >/dev/null 2>&1 &
http_pid=$!
for _ in $(seq 1 100); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/published.json')" \
        2>/dev/null && break
    sleep 0.1
done
for sig in INT TERM; do
    for at in 1 2 3; do # the cache's body, its meta, then the output
        c=$T/cache-$sig-$at
        rm -rf "$c"
        case_ fetch-$at $sig $at "$T/$sig/fetched.json" "$c" -- catalog fetch \
            "http://127.0.0.1:$port/published.json" -o "$T/$sig/fetched.json" --cache-dir "$c"
    done
done

# study: its outputs (ranking.txt, ranking.jsonl, report.html, report.md) from imported
# candidates; the study may treat the signal as a stop (exit 130) or end as by SIGINT (130):
# either way, no temporary is left in its output folder
cat >"$T/study.json" <<JSON
{ "schema": "sizeup.study/1", "name": "signals",
  "candidates": [ { "config": "idc-nvme", "results": ["$csv"] },
                  { "config": "cloud-ssd", "results": ["$csv"] } ],
  "workloads": { "oltp_legacy": 1 }, "ladder": [1, 2, 4], "precision": "5%", "max_time": "15s",
  "slo": "avg:20ms", "catalogs": ["$cat"], "output": "study-out" }
JSON
for sig in INT TERM; do
    for at in 1 2 3 4; do
        rm -rf "$T/study-out" "$T/study.log"
        (cd "$T" && LD_PRELOAD=$SIZEUP_SHIM SIGSHIM_SIGNAL=$(signum $sig) SIGSHIM_AT=$at \
            SIGSHIM_LOG=$T/study.log ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 \
            "$SIZEUP_BIN" study study.json >"$T/study.out" 2>"$T/study.err")
        st=$?
        check_eq "study, SIG$sig at output $at: interrupted, exit 130" "$st" 130
        check_true "study, SIG$sig at output $at: a temporary existed when the signal came" \
            test -s "$T/study.log"
        check_eq "study, SIG$sig at output $at: no temporary left" "$(temps_in "$T/study-out")" 0
    done
done

# disk --out: signalled mid-run; its stop flag ends the run, the records so far replace the file
for sig in INT TERM; do
    out=$T/$sig/disk.jsonl
    printf 'old\n' >"$out"
    "$SIZEUP_BIN" disk --dir "$T" --size 4M --tests randread --iodepth 1,2,4 --time 1s \
        --min-time 1s --warmup 100ms --interval 100ms --allow-buffered --out "$out" \
        >"$T/disk.$sig.out" 2>"$T/disk.$sig.err" &
    pid=$!
    for _ in $(seq 1 600); do # until the first depth is done (its record is in the temporary)
        grep -q "queue depth 2" "$T/disk.$sig.err" && break
        sleep 0.05
    done
    check_eq "disk, SIG$sig: a temporary while it runs" "$(temps_in "$T/$sig")" 1
    kill -$sig $pid
    wait $pid
    st=$?
    check_eq "disk, SIG$sig: exit 130 (SIGTERM is treated as SIGINT)" $st 130
    check_eq "disk, SIG$sig: no temporary left" "$(temps_in "$T/$sig" "$T")" 0
    check_true "disk, SIG$sig: the records measured so far, whole" python3 -c '
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and len(lines) >= 2
for l in lines[:-1]:
    assert json.loads(l)["schema"] == "sizeup.point/1"' "$out"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
