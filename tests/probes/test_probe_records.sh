#!/usr/bin/env bash
# Records are never torn (issue 12.4): `probe run --out` and `disk --out` on a file system that
# fills up, here a 64 KiB tmpfs mounted for the test (root; a loop-mounted ext2 image when tmpfs
# cannot be mounted; skipped, exit 77, when neither can). With 4 KiB left:
#   - probe: the levels that fit are whole lines, the one that did not fit left nothing (the
#     file is truncated back), exit 1 naming the error; after space is freed, --resume keeps
#     the whole lines, measures only the missing levels and continues the file; `import` reads it;
#   - --resume on an empty --out starts fresh;
#   - disk: a failed write leaves no half file and no temporary behind.
. "$(dirname "$0")/probe_lib.sh"

MNT=$TMPD/mnt
mkdir -p "$MNT"
mounted=
cleanup_mount() { [ -n "$mounted" ] && umount "$MNT" 2>/dev/null; }
trap cleanup_mount EXIT
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k sizeup-test "$MNT" 2>/dev/null; then
    mounted=tmpfs
elif [ "$(id -u)" -eq 0 ] && command -v mke2fs >/dev/null &&
    dd if=/dev/zero of="$TMPD/fs.img" bs=1k count=256 status=none &&
    mke2fs -q -F -m 0 -N 16 "$TMPD/fs.img" >/dev/null 2>&1 &&
    mount -o loop "$TMPD/fs.img" "$MNT" 2>/dev/null; then
    mounted=loop
else
    echo "SKIP: cannot mount a small file system here (needs root)" >&2
    rm -rf "$TMPD"
    exit 77
fi
# fill_to BYTES: leave about BYTES free on the small file system
fill_to() {
    rm -f "$MNT/filler"
    local free
    free=$(df -B1 --output=avail "$MNT" | tail -1 | tr -d ' ')
    [ "$free" -gt "$1" ] && head -c $((free - $1)) /dev/zero >"$MNT/filler" 2>/dev/null
    sync
}
# whole FILE: every line is one complete sizeup.point/1 record, and the file ends with a newline
whole() {
    python3 - "$1" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read()
ok = data.endswith(b"\n") or data == b""
for line in data.split(b"\n")[:-1]:
    try:
        ok &= json.loads(line)["schema"] == "sizeup.point/1"
    except Exception:
        ok = False
sys.exit(0 if ok else 1)
PY
}
threads_of() { python3 -c 'import json,sys; print(",".join(str(json.loads(l)["threads"]) for l in open(sys.argv[1])))' "$1"; }
# counted FILE: the levels of the records that count (curve.h: complete, no outage flag), in order;
# on a loaded machine a level may be flagged (stalled) and measured again, so a file can hold
# more records than levels
counted() { python3 - "$1" <<'PY'
import json, sys
bad = {"interrupted", "partial", "stalled", "reconnects"}
print(",".join(str(p["threads"]) for p in map(json.loads, open(sys.argv[1]))
               if not p.get("incomplete") and not set(p.get("flags", [])) & bad))
PY
}

drop_sbtest_tables
probe prepare --tables 1 --table-size 200 >/dev/null 2>&1
check_eq "prepare" $? 0

# ---- probe --out on a full file system --------------------------------------------------------
fill_to 4096
probe run --workload oltp_point_select --tables 1 --table-size 200 --threads 1,2,3,4 --time 1 \
    --report-interval 1 --out "$MNT/points.jsonl" >"$TMPD/full.out" 2>"$TMPD/full.err"
check_eq "full file system: exit 1" $? 1
check_true "the error is named" grep -q "cannot write the record to $MNT/points.jsonl: .*No space left" "$TMPD/full.err"
check_true "every line is a whole record" whole "$MNT/points.jsonl"
n1=$(wc -l <"$MNT/points.jsonl")
c1=$(counted "$MNT/points.jsonl")
k1=$(tr ',' '\n' <<<"$c1" | grep -c .)
check_true "some levels fitted, not all ($n1 records, levels $c1 count)" test "$n1" -ge 1 -a "$k1" -lt 4
check_true "nothing of the level that did not fit" \
    test "$(wc -c <"$MNT/points.jsonl")" -eq "$(python3 -c 'import sys; print(sum(len(l) for l in open(sys.argv[1], "rb")))' "$MNT/points.jsonl")"
before=$(threads_of "$MNT/points.jsonl")

# ---- room again: --resume continues the file ------------------------------------------------
rm -f "$MNT/filler"
probe run --workload oltp_point_select --tables 1 --table-size 200 --threads 1,2,3,4 --time 1 \
    --out "$MNT/points.jsonl" --resume >"$TMPD/resume.out" 2>"$TMPD/resume.err"
check_eq "resume: exit 0" $? 0
check_true "resume: every line is a whole record" whole "$MNT/points.jsonl"
check_eq "resume: the levels kept, then the missing ones, each counted once" \
    "$(counted "$MNT/points.jsonl")" "1,2,3,4"
check_true "resume: the first lines are the ones written before ($before)" \
    grep -q "^$before" <<<"$(threads_of "$MNT/points.jsonl")"
check_eq "resume: levels taken from the file" "$(grep -c 'not measured again' "$TMPD/resume.err")" "$k1"
"$SIZEUP_BIN" import "$MNT/points.jsonl" >"$TMPD/imp.jsonl" 2>"$TMPD/imp.err"
check_eq "import reads the continued file" $? 0
n2=$(wc -l <"$MNT/points.jsonl")
check_eq "import keeps all $n2 records" "$(wc -l <"$TMPD/imp.jsonl")" "$n2"

# ---- --resume on an empty --out starts fresh ----------------------------------------------------
: >"$TMPD/empty.jsonl"
probe run --workload oltp_point_select --tables 1 --table-size 200 --threads 1 --time 1 \
    --out "$TMPD/empty.jsonl" --resume >/dev/null 2>"$TMPD/empty.err"
check_eq "resume on an empty --out: exit 0" $? 0
check_eq "resume on an empty --out: level 1 measured, counted once" "$(counted "$TMPD/empty.jsonl")" 1

# ---- disk --out: replaced whole, so a full file system leaves the old file -------------------
printf 'old contents\n' >"$MNT/disk.jsonl"
fill_to 1024
"$SIZEUP_BIN" disk --dir "$TMPD" --size 2M --tests randread --iodepth 1,2 --time 300ms \
    --min-time 300ms --warmup 100ms --interval 100ms --allow-buffered --out "$MNT/disk.jsonl" \
    >"$TMPD/disk.out" 2>"$TMPD/disk.err"
check_eq "disk on a full file system: exit 1" $? 1
check_eq "disk: the old file is as it was" "$(cat "$MNT/disk.jsonl")" "old contents"
check_eq "disk: no temporary left" "$(ls "$MNT" | grep -vc '^disk.jsonl$\|^filler$\|^points.jsonl$\|^points.jsonl.lock$')" 0

probe cleanup --tables 1 >/dev/null 2>&1
cleanup_mount # before finish removes $TMPD, which holds the mount point
mounted=
finish
