#!/usr/bin/env bash
# Integration test of calibrated probe points and the --threads auto ladder (issue 5) on the
# fixture's MariaDB:
#   - a calibrated point (--precision 5 %, open loop at a Poisson rate so its variance is known
#     whatever the machine's load) ends before --max-time, steady, with the asked precision
#     recorded; every calibrated record is audited by calib_audit.py, an independent replay of
#     MSER-5 and the 20-batch-means interval from the record's series;
#   - --threads auto with --max-threads 4 measures 1, 2, 4 (doubling stops at --max-threads)
#     then a geometric midpoint 3 (the only gap left), writes one record per level, and
#     `sizeup fit` fits the curve (exit 0, a model line);
#   - in passes (advisor/plan/passes.h): every replicate says extra.interval.method within_run with
#     its pass; each level record (method replicates) pools exactly the file's replicates of its
#     level, its tps is their mean, its half-width at least the t(0.975, df) standard error of
#     their spread, and the fit reads one point per level.
#   - a precision below the noise floor (0.1 %): the limit message, and the time budget holds.
# The single calibrated points above run one pass (--replicates 1): they test the within-run rule.
. "$(dirname "$0")/probe_lib.sh"
here=$(dirname "$0")

drop_sbtest_tables
probe prepare --tables 1 --table-size 1000 >/dev/null 2>&1
check_eq "prepare exit" $? 0

# ---- a calibrated point ends early with the precision asked -----------------------------------
# Open loop at 1000 tps: arrivals are a Poisson process (probe.h), so the throughput of a tick
# does not depend on how loaded the shared machine is, and its mean is known: the rate. The
# relative standard error of the mean over T seconds is 1/sqrt(1000 T), so a 5 % half-width
# (t(0.975,19) = 2.09) needs T >= 1.75 s: the point must end long before --max-time 20.
probe run --workload oltp_point_select --tables 1 --table-size 1000 --threads 2 --rate 1000 \
    --precision 5% --min-time 2 --max-time 20 --remeasure 3 --replicates 1 --out "$TMPD/cal.jsonl" \
    >"$TMPD/cal.out" 2>"$TMPD/cal.err"
check_eq "calibrated run exit" $? 0
# (a level the machine's load stalled is flagged and measured again: the last record is checked)
check_true "calibrated record audits" python3 "$here/calib_audit.py" "$TMPD/cal.jsonl" "$(wc -l <"$TMPD/cal.jsonl")" 0.05 20
check_true "progress names the precision" grep -q "asked 5.00 %" "$TMPD/cal.err"
check_eq "steady" "$(json_get "$TMPD/cal.jsonl" "$(wc -l <"$TMPD/cal.jsonl")" 'p["steady"]')" True
check_eq "ended before --max-time" \
    "$(json_get "$TMPD/cal.jsonl" "$(wc -l <"$TMPD/cal.jsonl")" 'int(p["extra"]["calibration"]["elapsed_s"] < 20)')" 1
check_eq "ci95_tps within 5 % of tps" \
    "$(json_get "$TMPD/cal.jsonl" "$(wc -l <"$TMPD/cal.jsonl")" 'int(0 < p["ci95_tps"] <= 0.05 * p["tps"])')" 1
# the interval is about the rate: |tps - 1000| within 2 half-widths (~4 standard errors) plus
# 3 % for a stall of the loaded machine that shifts arrivals across the cut
check_eq "tps near the Poisson rate" \
    "$(json_get "$TMPD/cal.jsonl" "$(wc -l <"$TMPD/cal.jsonl")" 'int(abs(p["tps"] - 1000) <= 2 * p["ci95_tps"] + 30)')" 1
check_eq "precision in the options" "$(json_get "$TMPD/cal.jsonl" "$(wc -l <"$TMPD/cal.jsonl")" 'p["options"]["precision"]')" 0.05

# closed loop: on a loaded shared machine the precision may or may not be reached before
# --max-time; either way the record must tell the truth (steady false only at --max-time), which
# the audit checks
probe run --workload oltp_point_select --tables 1 --table-size 1000 --threads 1 \
    --precision 10% --min-time 1 --max-time 5 --remeasure 3 --replicates 1 \
    --out "$TMPD/closed.jsonl" \
    >"$TMPD/closed.out" 2>"$TMPD/closed.err"
check_eq "closed-loop calibrated run exit" $? 0
check_true "closed-loop record audits" python3 "$here/calib_audit.py" "$TMPD/closed.jsonl" "$(wc -l <"$TMPD/closed.jsonl")" 0.1 5

# ---- --threads auto with a small --max-threads -------------------------------------------------
probe run --workload oltp_point_select --tables 1 --table-size 1000 --threads auto \
    --max-threads 4 --precision 10% --min-time 1 --max-time 3 --target ladder \
    --out "$TMPD/auto.jsonl" >"$TMPD/auto.out" 2>"$TMPD/auto.err"
check_eq "auto run exit" $? 0
# a level the machine's load disturbed (flagged stalled, probes/probe.h) is measured again and
# does not count: the checks below are on the records that count (advisor/curve/curve.h's rule)
# (the first pass's replicates are the ladder's levels; later passes measure deciding ones again)
counting=$(python3 -c '
import json, sys
for i, l in enumerate(open(sys.argv[1]), 1):
    p = json.loads(l)
    iv = p.get("extra", {}).get("interval", {})
    if iv.get("method") == "within_run" and not p.get("incomplete") and not set(p.get("flags", [])) & {"interrupted", "partial", "stalled", "reconnects"}:
        print(i, p["threads"], iv["pass"])' "$TMPD/auto.jsonl")
levels=$(awk '$3 == 1 {print $2}' <<<"$counting" | paste -sd,)
# after 1, 2, 4 the refining step takes the midpoint 3, unless the fit of three points noisy on a
# loaded machine already has a narrow interval: then the ladder must say so
if [ "$levels" = "1,2,4" ]; then
    check_true "auto levels 1,2,4: the ladder says its interval is narrow" \
        grep -q "ladder: done: .*narrow" "$TMPD/auto.err"
else
    check_eq "auto levels" "$levels" "1,2,4,3"
fi
n_levels=$(awk -F, '{print NF}' <<<"$levels")
check_true "doubling ended on --max-threads" grep -q "doubling ends: reached --max-threads 4" "$TMPD/auto.err"
while read -r i _ _; do
    check_true "auto record $i audits" python3 "$here/calib_audit.py" "$TMPD/auto.jsonl" "$i" 0.1 3
    check_eq "auto record $i options" "$(json_get "$TMPD/auto.jsonl" "$i" 'p["options"]["threads"]')" auto
done <<<"$counting"
"$SIZEUP_BIN" fit "$TMPD/auto.jsonl" >"$TMPD/fit.out" 2>"$TMPD/fit.err"
check_eq "sizeup fit on the ladder exit" $? 0
check_true "fit names a model" grep -Eq "model +(usl|amdahl|piecewise)" "$TMPD/fit.out"
check_true "fit reads $n_levels points" grep -q "$n_levels points, threads 1-4" "$TMPD/fit.out"

check_true "passes: level records pool the file's replicates" python3 -c '
import json, math, sys
from statistics import mean
sys.path.insert(0, sys.argv[2])
from tdist import t975
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad = {"interrupted", "partial", "stalled", "reconnects"}
reps = [p for p in recs if p["extra"]["interval"]["method"] == "within_run"
        and not p.get("incomplete") and not bad & set(p.get("flags", []))]
levels = [p for p in recs if p["extra"]["interval"]["method"] == "replicates"]
fails = []
def need(cond, what):
    if not cond:
        fails.append(what)
# a level record is written for every level once anything is pooled (probe_drive.c)
need(len(levels) == len({p["threads"] for p in reps}) > 0,
     "%d level records for %d levels" % (len(levels), len({p["threads"] for p in reps})))
for p in reps:
    iv = p["extra"]["interval"]
    need(iv["replicates"] == 1 and iv["pass"] >= 1, "replicate %s: replicates/pass" % p["started_at"])
for lv in levels:
    iv = lv["extra"]["interval"]
    th = lv["threads"]
    mine = [p for p in reps if p["threads"] == th]
    keys = sorted((e["started_at"], e["tps"]) for e in iv["pooled"])
    need(keys == sorted((p["started_at"], p["tps"]) for p in mine), "%d threads: pooled list" % th)
    need(iv["replicates"] == len(mine) == len(iv["pooled"]), "%d threads: replicate count" % th)
    need(abs(lv["tps"] - mean(p["tps"] for p in mine)) <= 1e-9 * lv["tps"], "%d threads: mean" % th)
    # the half-width from the recorded parts (models/noise.h v_i): t(0.975, df) mean
    # sqrt(max(between_cv^2 + wbar^2, run_to_run_cv^2, within_cv^2) / r), wbar^2 the mean of
    # (se / mean)^2 of the replicates,
    # se = ci95 / t(0.975, 19) (probe_drive.c takes 19 batch-means df); df is Satterthwaite s,
    # real and possibly below 1 when one level is pooled: t from tests/tdist.py, not a table
    w2 = mean((e.get("ci95_tps", 0) / t975(19) / lv["tps"]) ** 2 for e in iv["pooled"])
    # (models/noise.c searches t below 1 df up to 1e15: an interval of no use either way)
    v = max(iv["between_cv"] ** 2 + w2, iv["run_to_run_cv"] ** 2, iv["within_cv"] ** 2)
    want = min(t975(iv["df"]), 1e15) * lv["tps"] * math.sqrt(v / len(mine))
    need(abs(lv["ci95_tps"] - want) <= 1e-6 * want,
         "%d threads: ci95_tps %r, from its parts %r (df %r)" % (th, lv["ci95_tps"], want, iv["df"]))
    need(lv["ci95_tps"] > 0 and iv["noise"] == "pooled between runs", "%d threads: noise" % th)
for f in fails:
    print("level records:", f)
for lv in levels if fails else []:
    print("level record interval:", json.dumps({k: v for k, v in lv["extra"]["interval"].items() if k != "rule"}))
sys.exit(1 if fails else 0)' "$TMPD/auto.jsonl" "$here/.."
check_true "passes: the noise floor on progress" grep -q "run-to-run noise on this server" "$TMPD/auto.err"
# a first curve on a target has no floor: the probe says what its intervals cannot see
check_true "passes: no floor before, said" grep -Eq \
    "noise floor: none known before on ladder: .* this curve's [0-9]+ s of replicates, not slower drift" \
    "$TMPD/auto.err"

# ---- a precision below the noise floor: said plainly, and the time budget holds ----------------
start=$(date +%s.%N)
probe run --workload oltp_point_select --tables 1 --table-size 1000 --threads 1,2 \
    --precision 0.1% --replicates 3 --min-time 1 --max-time 3 --budget 30 --target floor \
    --out "$TMPD/floor.jsonl" >"$TMPD/floor.out" 2>"$TMPD/floor.err"
check_eq "below the noise floor: exit 0" $? 0
took=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
check_true "below the noise floor: the limit said" grep -Eq \
    "asked 0.1 %; run-to-run noise on this server is about [0-9.]+ %: the best attainable is about [0-9.]+ %" \
    "$TMPD/floor.err"
# the budget: no replicate starts that would pass it (one may overrun its estimate by its
# connecting and winding down: 10 s of slack on the loaded machine)
check_true "below the noise floor: within --budget 30 s ($took s)" \
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 40 else 1)" "$took"
# and none shorter than the least run with a within-run interval (probes/calib.h:
# CALIB_MIN_BATCHES 10 ticks of 0.25 s = 2.5 s), though --min-time 1 would allow it
check_true "below the noise floor: replicates after the first pass of 2.5 to 3 s" python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
later = [p for p in recs if p["extra"]["interval"].get("pass", 1) > 1]
sys.exit(0 if later and all(2.5 <= p["extra"]["calibration"]["max_time_s"] <= 3
                            for p in later) else 1)' "$TMPD/floor.jsonl"

probe cleanup --tables 1 >/dev/null 2>&1
finish
