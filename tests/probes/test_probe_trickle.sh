#!/usr/bin/env bash
# A server that answers a trickle (issue 27.14, "Faults under load"): a server thawed from
# SIGSTOP on a loaded host answered 0-46 tps for a stretch of a level that ran at 3,832 tps; a
# few answers a second reset the silence (PROBE_SILENCE_FLAG_S), so the level went unflagged and
# counted. Here the fixture's server is held to 2 ms of CPU every 500 ms (a cgroup v1 `cpu`
# quota, or v2 `cpu.max`) for 2.5 s of a calibrated level: it answers twice a second, never
# silent for 1.2 s, at a few % of its rate. The level must be flagged `stalled` by its
# near-silence (extra.faults.near_silence_s >= 1.2 s) and measured again until clean. Skipped
# (77) where no cgroup's CPU quota can be set (not root, a read-only cgroup file system).
. "$(dirname "$0")/probe_lib.sh"

pid=$(cat "$SIZEUP_MYSQL_DIR/mysqld.pid" 2>/dev/null) || { echo "FAIL: no fixture server pid" >&2; exit 1; }
cg= home=
if [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    home=/sys/fs/cgroup/cpu$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ {print $3; exit}' "/proc/$pid/cgroup")
    cg=/sys/fs/cgroup/cpu/sizeup-trickle-$$
    mkdir "$cg" 2>/dev/null && echo 500000 >"$cg/cpu.cfs_period_us" &&
        echo 2000 >"$cg/cpu.cfs_quota_us" 2>/dev/null || cg=
elif [ -e /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    home=/sys/fs/cgroup$(awk -F: '$1 == "0" {print $3; exit}' "/proc/$pid/cgroup")
    cg=/sys/fs/cgroup/sizeup-trickle-$$
    mkdir "$cg" 2>/dev/null && echo "2000 500000" >"$cg/cpu.max" 2>/dev/null || cg=
fi
if [ -z "$cg" ] || [ ! -w "$home/cgroup.procs" ]; then
    [ -n "$cg" ] && rmdir "$cg" 2>/dev/null
    echo "SKIP: no cgroup CPU quota can be set here (root and a writable cgroup fs are needed)"
    rm -rf "$TMPD"
    exit 77
fi
release() { echo "$pid" >"$home/cgroup.procs"; }
trap 'release 2>/dev/null; rmdir "$cg" 2>/dev/null' EXIT

drop_sbtest_tables
probe prepare --tables 1 --table-size 1000 >/dev/null 2>&1
check_eq "prepare" $? 0
selects() { rootsql "SHOW GLOBAL STATUS LIKE 'Com_select'" | awk '{print $2}'; }

# a calibrated level that cannot be steady (0.1 %) of at most 6 s; once it runs (Com_select
# moves) and has run 1.2 s more, the server gets its trickle for 2.5 s
s0=$(selects)
MYSQL_PWD=$SIZEUP_MYSQL_PASSWORD "$SIZEUP_BIN" probe run "${PROBE_CONN[@]}" --tables 1 \
    --table-size 1000 --workload oltp_point_select --threads 2 --precision 0.1% --min-time 1 \
    --max-time 6 --mysql-timeout 5 --give-up 30 --remeasure 3 --out "$TMPD/t.jsonl" \
    >"$TMPD/t.out" 2>"$TMPD/t.err" &
probe_pid=$!
for _ in $(seq 1 300); do
    [ "$(($(selects) - s0))" -gt 200 ] && break
    sleep 0.1
done
sleep 1.2
echo "$pid" >"$cg/cgroup.procs"
check_eq "the server is held to its quota" "$(grep -c "$pid" "$cg/cgroup.procs")" 1
sleep 2.5
release
wait "$probe_pid"
check_eq "a trickle: exit 0" $? 0
rec() { json_get "$TMPD/t.jsonl" "$1" "$2"; }
# the figures, for whoever reads a failure
echo "record 1: $(rec 1 "p.get('flags'), (p['extra'].get('faults') or {}), [round(t['tps']) for t in p.get('series', [])]")"
check_eq "a trickle: the level is flagged stalled by its near-silence" \
    "$(rec 1 "'stalled' in p.get('flags', []), (p['extra'].get('faults') or {}).get('near_silence_s', 0) >= 1.2")" \
    "True True"
check_eq "a trickle: measured again until clean" \
    "$(rec "$(wc -l <"$TMPD/t.jsonl")" "p['threads'], p.get('flags', []), p['transactions'] > 0")" \
    "2 [] True"
check_true "a trickle: says it measures again" grep -q "flagged (stalled); waiting up to 30 s" "$TMPD/t.err"
probe cleanup --tables 1 >/dev/null 2>&1
finish
