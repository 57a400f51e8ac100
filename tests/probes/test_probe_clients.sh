#!/usr/bin/env bash
# Several load generators, one point (issue 18), against the fixture's MariaDB on loopback:
#   - `mpirun -np 3 --oversubscribe sizeup probe run --threads 7 ...` (Debian's openmpi-bin):
#     each rank takes its share from OMPI_COMM_WORLD_RANK/_SIZE (launcher.h), 2 + 2 + 3
#     connections (floor((I+1) N / K) - floor(I N / K)), all start at one --start-at and append
#     a part to one --out; `sizeup merge` gives one point whose counts are the parts' sums, whose
#     histogram holds every part's latencies, and whose transactions are what the server
#     executed: Com_select grows by the transactions (one SELECT each, oltp_point_select) plus
#     the one information_schema SELECT each process makes (test_probe_oltp.sh);
#   - two processes of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX + SIZEUP_CLIENT_COUNT) and
#     of Slurm (SLURM_PROCID + SLURM_NTASKS), the same way; --client by hand overrides them;
#   - merge refuses a group with a part missing (exit 3, nothing written) and a point that is
#     not a part; a part must be one level of a fixed --time written to --out (exit 2).
. "$(dirname "$0")/probe_lib.sh"

command -v mpirun >/dev/null || { echo "FAIL: mpirun not installed (scripts/deps.sh installs openmpi-bin)" >&2; exit 1; }
root_flag=()
[ "$(id -u)" -eq 0 ] && root_flag=(--allow-run-as-root)
export MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS JOB_COMPLETION_INDEX \
    SIZEUP_CLIENT_COUNT

drop_sbtest_tables
probe prepare --tables 2 --table-size 500 >/dev/null 2>&1
check_eq "prepare" $? 0
PT=(--workload oltp_point_select --tables 2 --table-size 500)
start_in() { date -u -d "+$1 seconds" +%Y-%m-%dT%H:%M:%SZ; }

# parts_check FILE K N: K parts of one level N, indices 0..K-1 once each, shares as above,
# flagged partial, each with its histogram (count = its transactions), one start_at
parts_check() {
    python3 - "$@" <<'PY'
import json, sys
path, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ps = [json.loads(l) for l in open(path) if l.strip()]
assert len(ps) == k, "%d parts, expected %d" % (len(ps), k)
idx = sorted(p["client"]["index"] for p in ps)
assert idx == list(range(k)), idx
for p in ps:
    c = p["client"]
    i = c["index"]
    assert c["count"] == k and p["threads"] == n, (c, p["threads"])
    assert c["threads"] == (i + 1) * n // k - i * n // k, c
    assert "partial" in p["flags"], p["flags"]
    h = p["latency_histogram"]
    assert h["count"] == p["transactions"] > 0, (h["count"], p["transactions"])
    assert sum(b[1] for b in h["buckets"]) + h["underflow"] + h["overflow"] == h["count"]
    assert p["options"]["rand_seed"] == ps[0]["options"]["rand_seed"]
assert len({p["client"]["start_at"] for p in ps}) == 1
print("ok")
PY
}
# merged_check PARTS MERGED N: the merged point adds the parts up
merged_check() {
    python3 - "$@" <<'PY'
import json, sys
parts = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ms = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
n = int(sys.argv[3])
assert len(ms) == 1, len(ms)
m = ms[0]
assert m["threads"] == n and "client" not in m and "partial" not in m.get("flags", []), m
for key in ("transactions", "queries", "reads", "errors", "reconnects"):
    assert m[key] == sum(p[key] for p in parts), key
# the merged histogram: every part's buckets summed
want = {}
for p in parts:
    for lo, c in p["latency_histogram"]["buckets"]:
        want[lo] = want.get(lo, 0) + c
got = {lo: c for lo, c in m["latency_histogram"]["buckets"]}
assert got == want
assert m["latency_histogram"]["count"] == m["transactions"]
assert m["latency_ms"]["max"] == max(p["latency_ms"]["max"] for p in parts)
assert m["extra"]["merge"]["parts"] == len(parts)
# tps: each part's transactions over its own window, summed
tps = sum(p["transactions"] / p["duration_s"] for p in parts)
assert abs(m["tps"] - tps) <= 1e-6 * tps, (m["tps"], tps)
print(m["transactions"])
PY
}

# ---- mpirun -np 3 -----------------------------------------------------------------------------
# flagged FILE: the fault flags its records carry (a part the server stalled, on a loaded host,
# ends early with events cut: it is measured again, here by running the three ranks again)
flagged() { python3 -c 'import json,sys; print(",".join(sorted({f for l in open(sys.argv[1]) if l.strip() for f in json.loads(l).get("flags", []) if f in ("stalled", "reconnects")})))' "$1"; }
for attempt in 1 2 3; do
    rm -f "$TMPD/mpi.jsonl"
    b_sel=$(sql "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
    timeout 120 mpirun "${root_flag[@]}" --oversubscribe -np 3 \
        env MYSQL_PWD="$SIZEUP_MYSQL_PASSWORD" "$SIZEUP_BIN" probe "${PROBE_CONN[@]}" "${PT[@]}" \
        --threads 7 --time 2 --remeasure 0 --start-at "$(start_in 3)" --out "$TMPD/mpi.jsonl" \
        run >"$TMPD/mpi.out" 2>"$TMPD/mpi.err"
    rc=$?
    a_sel=$(sql "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
    f=$(flagged "$TMPD/mpi.jsonl")
    [ -z "$f" ] && break
    echo "note: attempt $attempt: a part is flagged $f (the host is loaded): running again" >&2
done
check_eq "mpirun -np 3: exit" $rc 0
check_eq "mpirun: three parts, 2 + 2 + 3 connections" "$(parts_check "$TMPD/mpi.jsonl" 3 7)" ok
check_eq "mpirun: each rank says where its share came from" \
    "$(grep -c 'Open MPI (OMPI_COMM_WORLD_RANK=[012], OMPI_COMM_WORLD_SIZE=3)' "$TMPD/mpi.err")" 3
"$SIZEUP_BIN" merge "$TMPD/mpi.jsonl" -o "$TMPD/mpi-point.jsonl" 2>"$TMPD/merge.err"
check_eq "merge exit" $? 0
[ -s "$TMPD/merge.err" ] && cat "$TMPD/merge.err" >&2
tx=$(merged_check "$TMPD/mpi.jsonl" "$TMPD/mpi-point.jsonl" 7)
check_true "merged point adds the parts up ($tx)" test "$tx" -gt 0
# each process checks its tables at start and before and after its level (one SELECT each,
# probes/sbtables.h, issue 27.9); a part takes no database lock (its launcher's, dblock.h)
check_eq "Com_select grew by the merged transactions + 3 per process" "$((a_sel - b_sel))" \
    "$((tx + 9))"
check_true "the merged point is a point import reads" \
    "$SIZEUP_BIN" import "$TMPD/mpi-point.jsonl" -o "$TMPD/imported.jsonl" 2>/dev/null

# ---- two parts missing one: refused, nothing written --------------------------------------------
head -n 2 "$TMPD/mpi.jsonl" >"$TMPD/two.jsonl"
"$SIZEUP_BIN" merge "$TMPD/two.jsonl" -o "$TMPD/none.jsonl" 2>"$TMPD/refused.err"
check_eq "merge of 2 of 3 parts: exit 3" $? 3
check_true "refused: nothing written" test ! -e "$TMPD/none.jsonl"
check_true "refused: the reason names the missing part" grep -q "client" "$TMPD/refused.err"
"$SIZEUP_BIN" merge "$TMPD/mpi-point.jsonl" 2>"$TMPD/notpart.err" >/dev/null
check_eq "merge of a point that is not a part: exit 3" $? 3

# ---- a Kubernetes Indexed Job's two pods, and Slurm's two tasks --------------------------------
# run_pair NAME VAR_INDEX VAR_COUNT: two processes with the launcher's variables set
run_pair() {
    local name=$1 iv=$2 kv=$3 at pids=() i
    at=$(start_in 2)
    for i in 0 1; do
        env "$iv=$i" "$kv=2" "$SIZEUP_BIN" probe "${PROBE_CONN[@]}" "${PT[@]}" --threads 4 \
            --time 1 --remeasure 0 --start-at "$at" --out "$TMPD/$name.jsonl" run >/dev/null \
            2>"$TMPD/$name.$i.err" &
        pids+=($!)
    done
    local rc=0
    for i in "${pids[@]}"; do wait "$i" || rc=$?; done
    return $rc
}
run_pair k8s JOB_COMPLETION_INDEX SIZEUP_CLIENT_COUNT
check_eq "Indexed Job: both pods exit 0" $? 0
check_eq "Indexed Job: two parts" "$(parts_check "$TMPD/k8s.jsonl" 2 4)" ok
check_true "Indexed Job: named" grep -q "a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=1, SIZEUP_CLIENT_COUNT=2)" "$TMPD/k8s.1.err"
"$SIZEUP_BIN" merge "$TMPD/k8s.jsonl" -o "$TMPD/k8s-point.jsonl" 2>/dev/null
check_eq "Indexed Job: merge exit" $? 0
check_true "Indexed Job: merged" test "$(merged_check "$TMPD/k8s.jsonl" "$TMPD/k8s-point.jsonl" 4)" -gt 0
run_pair slurm SLURM_PROCID SLURM_NTASKS
check_eq "Slurm: both tasks exit 0" $? 0
check_eq "Slurm: two parts" "$(parts_check "$TMPD/slurm.jsonl" 2 4)" ok
check_true "Slurm: named" grep -q "Slurm (SLURM_PROCID=0, SLURM_NTASKS=2)" "$TMPD/slurm.0.err"

# ---- --client by hand beats the environment; none ignores it ----------------------------------
SLURM_PROCID=1 SLURM_NTASKS=2 probe run "${PT[@]}" --threads 3 --time 1 --client 2/3 \
    --out "$TMPD/hand.jsonl" >/dev/null 2>"$TMPD/hand.err"
check_eq "--client 2/3 under Slurm's variables: exit" $? 0
check_eq "--client 2/3: the part is client 2 of 3, one connection" \
    "$(json_get "$TMPD/hand.jsonl" 1 "p['client']['index'], p['client']['count'], p['client']['threads']")" \
    "2 3 1"
SLURM_PROCID=1 SLURM_NTASKS=2 probe run "${PT[@]}" --threads 2 --time 1 --client none \
    --out "$TMPD/none.jsonl" >/dev/null 2>&1
check_eq "--client none: a whole point" "$(json_get "$TMPD/none.jsonl" 1 "'client' in p, p['threads']")" \
    "False 2"

# ---- what a part needs ------------------------------------------------------------------------
probe run "${PT[@]}" --threads 1,2 --time 1 --client 0/2 --out "$TMPD/x.jsonl" 2>"$TMPD/e1" >/dev/null
check_eq "a part of two levels: exit 2" $? 2
probe run "${PT[@]}" --threads 4 --client 0/2 --out "$TMPD/x.jsonl" 2>"$TMPD/e2" >/dev/null
check_eq "a calibrated part: exit 2" $? 2
probe run "${PT[@]}" --threads 4 --time 1 --client 0/2 2>"$TMPD/e3" >/dev/null
check_eq "a part without --out: exit 2" $? 2
probe run "${PT[@]}" --threads 1 --time 1 --client 0/2 --out "$TMPD/x.jsonl" 2>"$TMPD/e4" >/dev/null
check_eq "1 connection over 2 clients: exit 2" $? 2
JOB_COMPLETION_INDEX=0 probe run "${PT[@]}" --threads 2 --time 1 --out "$TMPD/x.jsonl" \
    2>"$TMPD/e5" >/dev/null
check_eq "JOB_COMPLETION_INDEX without SIZEUP_CLIENT_COUNT: exit 2" $? 2
check_true "... says what to set" grep -q "set SIZEUP_CLIENT_COUNT" "$TMPD/e5"
check_true "no record from a refused command line" test ! -e "$TMPD/x.jsonl"

probe cleanup --tables 2 >/dev/null 2>&1
finish
