#!/usr/bin/env bash
# sizeup rank --confirm against the test MariaDB (issue 28.4): a short curve probed, ranked at a
# latency target, and the first-ranked configuration run again open loop at the throughput its
# answer claims, on the server its records name. Checked against the ranking's own JSON and the
# open-loop record: the rate is the answer's tps, the connections max(4, 2 ceil(N)) for the
# answer's N threads, "held" exactly when the record's mean latency is within the target; and
# the refusals: imported points (nothing to run on), a mix, --confirm-out alone.
set -u
bin=${SIZEUP_BIN:?}
src=${SIZEUP_SOURCE_DIR:-.}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL: $1: expected '$2', got '$3'"; fi
}
export MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD
conn=(--mysql-host "$SIZEUP_MYSQL_HOST" --mysql-port "$SIZEUP_MYSQL_PORT" --mysql-user "$SIZEUP_MYSQL_USER"
      --mysql-db "$SIZEUP_MYSQL_DB")
cat=(--catalog "$src/data/catalogs/local.json" --map lab=local-mariadb)
"$bin" probe prepare "${conn[@]}" --tables 2 --table-size 500 >/dev/null 2>"$dir/prep.err"
check "prepare" 0 $?
"$bin" probe run "${conn[@]}" --workload oltp_point_select --tables 2 --table-size 500 \
    --threads 1,2 --time 2 --target lab --out "$dir/pts.jsonl" >/dev/null 2>"$dir/run.err"
check "probe run" 0 $?
"$bin" rank --points "$dir/pts.jsonl" "${cat[@]}" --slo avg:100ms --json >"$dir/rank.json" 2>/dev/null
"$bin" rank --points "$dir/pts.jsonl" "${cat[@]}" --slo avg:100ms --confirm \
    --confirm-out "$dir/conf.jsonl" >"$dir/rank.txt" 2>"$dir/rank.err"
check "rank --confirm exits 0" 0 $?
line=$(grep '^confirm: local-mariadb / oltp_point_select: ' "$dir/rank.txt")
check "one confirm line on stdout after the ranking" 1 "$(grep -c '^confirm:' "$dir/rank.txt")"
check "one open-loop record" 1 "$(wc -l <"$dir/conf.jsonl" | tr -d ' ')"
check "the record, the ranking and the line agree" True "$(python3 - "$dir/rank.json" "$dir/conf.jsonl" "$line" <<'PY'
import json, math, sys
row = next(json.loads(l) for l in open(sys.argv[1]) if l.strip())
rec = json.loads(open(sys.argv[2]).readline())
line = sys.argv[3]
tps, n = row["tps"]["value"], row["at"]
cf = rec["options"]["confirm"]
held = rec["latency_ms"]["avg"] <= 100
ok = (abs(rec["rate"] - tps) <= 1e-6 * tps and rec["threads"] == max(4, 2 * math.ceil(n))
      and abs(cf["closed_loop_tps"] - tps) <= 1e-6 * tps and cf["closed_loop_threads"] == n
      and ("open loop at %.1f tps" % tps) in line
      and (("the target held" in line) == held) and (("was NOT held" in line) == (not held))
      and rec["target"] == "lab" and rec.get("config") == "local-mariadb")
print(ok)
if not ok:
    print(row, rec, line, file=sys.stderr)
PY
)"
# imported points: no server to run them on, said, the ranking's exit status
"$bin" rank --points "$src/data/published/rds-idc-vs-cloud-4c16g.csv" --slo avg:20ms --confirm \
    >"$dir/imp.txt" 2>/dev/null
check "imported points: exit 0" 0 $?
check "imported points: said, not run" 1 "$(grep -c 'not run: its points were not measured by sizeup probe' "$dir/imp.txt")"
"$bin" rank --points "$dir/pts.jsonl" "${cat[@]}" --mix oltp_point_select:0.5,oltp_read_only:0.5 \
    --confirm >/dev/null 2>"$dir/mix.err"
check "a mix: exit 2" 2 $?
"$bin" rank --points "$dir/pts.jsonl" "${cat[@]}" --confirm-out "$dir/x.jsonl" >/dev/null 2>&1
check "--confirm-out alone: exit 2" 2 $?
check "--confirm-out alone: nothing written" 1 "$([ -e "$dir/x.jsonl" ] && echo 0 || echo 1)"
"$bin" probe cleanup "${conn[@]}" --tables 2 >/dev/null 2>&1
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
