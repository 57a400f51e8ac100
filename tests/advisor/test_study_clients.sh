#!/usr/bin/env bash
# A study candidate measured by several load generators (issue 18: "clients": K), against the
# fixture's MariaDB:
#   - "clients" is checked when the study is loaded: 1..64, at most the smallest level of a
#     ladder list, a probed candidate only; a bad value is refused with file:line:column, exit
#     3, before any connection or output folder;
#   - "clients": 2 over the ladder [2, 4]: each level is measured by two in-process clients (one
#     connection each at 2, two each at 4) that start together; their parts go to parts.jsonl
#     and results.jsonl gets one merged point per level, whose counts are the sums of its parts,
#     whose histogram is the bucket-by-bucket sum of theirs and whose percentiles are the
#     nearest-rank percentiles of that merged histogram (histogram.h: a bucket's midpoint,
#     clamped to [min, max]), not averages of the parts'; the server executed what the merged
#     points say (Com_select: one SELECT per oltp_point_select transaction);
#   - --resume measures nothing again.
. "$(dirname "$0")/../probes/probe_lib.sh"
root=$PWD

study() { # study FILE OUTPUT CLIENTS LADDER [CANDIDATE-KIND]
    local src
    src="\"mysql\": { \"host\": \"127.0.0.1\", \"port\": $SIZEUP_MYSQL_PORT,
                 \"user\": \"$SIZEUP_MYSQL_USER\", \"db\": \"$SIZEUP_MYSQL_DB\", \"password_file\": \"pw\" },"
    [ "${5:-}" = results ] && src='"results": ["none.jsonl"],'
    cat >"$1" <<JSON
{ "schema": "sizeup.study/1",
  "candidates": [
    { "config": "local-mariadb", "target": "lab", $src
      "tables": 2, "table_size": 500, "clients": $3 } ],
  "workloads": { "oltp_point_select": 1 },
  "ladder": $4, "max_time": "2s",
  "slo": "p99:50ms",
  "catalogs": ["$root/data/catalogs/local.json"],
  "output": "$2" }
JSON
}
tables() { sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='$SIZEUP_MYSQL_DB' AND TABLE_NAME LIKE 'sbtest%'"; }
conns() { sql "SHOW GLOBAL STATUS LIKE 'Connections'" | cut -f2; }
printf '%s\n' "$SIZEUP_MYSQL_PASSWORD" >"$TMPD/pw"
drop_sbtest_tables

# ---- "clients" checked at load ------------------------------------------------------------------
refused() { # refused WHAT CLIENTS LADDER KIND PATTERN
    local c0
    study "$TMPD/bad.json" bad "$2" "$3" "$4"
    c0=$(conns)
    "$SIZEUP_BIN" study "$TMPD/bad.json" >/dev/null 2>"$TMPD/bad.err"
    check_eq "$1: exit 3" $? 3
    check_true "$1: named with its position ($(cat "$TMPD/bad.err"))" grep -q "$5" "$TMPD/bad.err"
    check_eq "$1: no connection" "$(($(conns) - c0))" 1 # (the check's own)
    check_true "$1: no output folder" test ! -e "$TMPD/bad"
}
refused "more clients than the smallest level" 3 "[2, 4]" mysql \
    'bad.json:5:50: \$.candidates\[0\].clients: 3 clients cannot share a level of 2 threads (\$.ladder\[0\])'
refused "clients with the auto ladder" 2 '"auto"' mysql \
    'bad.json:5:50: \$.candidates\[0\].clients: 2 clients need a "ladder" list'
refused "no client" 0 "[2, 4]" mysql \
    'bad.json:5:50: \$.candidates\[0\].clients: expected an integer in \[1, 64\], got 0'
refused "65 clients" 65 "[100, 200]" mysql \
    'bad.json:5:50: \$.candidates\[0\].clients: expected an integer in \[1, 64\], got 65'
refused "clients of imported results" 2 "[2, 4]" results \
    'bad.json:4:50: \$.candidates\[0\].clients: "clients" is how many load generators'

# ---- two clients per level, merged -------------------------------------------------------------
study "$TMPD/two.json" two 2 "[2, 4]"
com0=$(com_status | cut -d' ' -f1)
"$SIZEUP_BIN" study "$TMPD/two.json" >"$TMPD/two.out" 2>"$TMPD/two.err"
rc=$?
com1=$(com_status | cut -d' ' -f1)
check_eq "two clients: the study ends well ($(tail -3 "$TMPD/two.err"))" $rc 0
check_eq "two clients: no table left" "$(tables)" 0
python3 - "$TMPD/two/parts.jsonl" "$TMPD/two/results.jsonl" "$((com1 - com0))" <<'PY' >"$TMPD/merged.txt" 2>&1
import json, math, sys
parts = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
pts = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
selects = int(sys.argv[3])
assert sorted(p["threads"] for p in pts) == [2, 4], [p["threads"] for p in pts]
assert len(parts) == 4, len(parts)

def width(lower):  # histogram.h: 128 linear buckets per power of two
    return 1 << (lower.bit_length() - 1 - 7)

def nearest_rank(h, q):  # hist_percentile: ceil(q/100 N), the bucket's midpoint in [min, max]
    x = q / 100.0 * h["count"]
    rank = max(1, min(h["count"], math.ceil(x - 1e-9 * max(x, 1.0))))
    cum = h["underflow"]
    assert cum < rank
    for lower, c in h["buckets"]:
        cum += c
        if cum >= rank:
            return min(max(lower + width(lower) // 2, h["min_ns"]), h["max_ns"]) / 1e6
    raise AssertionError("rank in the overflow")

tx = 0
for m in pts:
    n = m["threads"]
    ps = [p for p in parts if p["threads"] == n]
    assert len(ps) == 2 and sorted(p["client"]["index"] for p in ps) == [0, 1], ps
    assert len({p["client"]["start_at"] for p in ps}) == 1, "one gate for both clients"
    assert [p["client"]["threads"] for p in sorted(ps, key=lambda p: p["client"]["index"])] == \
        [n // 2, n - n // 2]
    assert "client" not in m and "partial" not in m.get("flags", []), m.get("flags")
    assert m["target"] == "lab" and m["config"] == "local-mariadb" and m["options"]["clients"] == 2
    assert m["extra"]["merge"]["parts"] == 2
    for key in ("transactions", "queries", "reads", "errors", "reconnects"):
        assert m[key] == sum(p[key] for p in ps), (key, m[key], [p[key] for p in ps])
    assert m["transactions"] > 0
    want = {}
    for p in ps:
        for lower, c in p["latency_histogram"]["buckets"]:
            want[lower] = want.get(lower, 0) + c
    h = m["latency_histogram"]
    assert {lo: c for lo, c in h["buckets"]} == want, "merged histogram = sum of the parts'"
    assert h["count"] == m["transactions"]
    for q in (50, 95, 99):
        got, exp = m["latency_ms"]["p%d" % q], nearest_rank(h, q)
        assert abs(got - exp) <= 1e-6, ("p%d" % q, got, exp)
    print("%d threads: %d = %s transactions, p95 %.4f ms (parts' p95 %s)" % (
        n, m["transactions"], " + ".join(str(p["transactions"]) for p in ps),
        m["latency_ms"]["p95"], ", ".join("%.4f" % p["latency_ms"]["p95"] for p in ps)))
    tx += m["transactions"]
# each transaction is one SELECT; each connection adds a few of its own (at most 8)
assert tx <= selects <= tx + 8 * 6 + 50, (tx, selects)
print("ok")
PY
check_eq "two clients: merged points add their parts up ($(cat "$TMPD/merged.txt"))" \
    "$(tail -1 "$TMPD/merged.txt")" ok
sed -n '1,2p' "$TMPD/merged.txt"

# ---- --resume measures nothing again -----------------------------------------------------------
n0=$(wc -l <"$TMPD/two/results.jsonl")
"$SIZEUP_BIN" study --resume "$TMPD/two.json" >/dev/null 2>"$TMPD/resume.err"
check_eq "resume: exit 0" $? 0
check_true "resume: nothing measured again" grep -q "every point already measured" "$TMPD/resume.err"
check_eq "resume: results unchanged" "$(wc -l <"$TMPD/two/results.jsonl")" "$n0"
finish
