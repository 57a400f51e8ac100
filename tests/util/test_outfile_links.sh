#!/usr/bin/env bash
# util/outfile.h with a link to a pipe, as /dev/stdout is when stdout is a pipe: `-o` through such
# a link writes into the pipe and leaves the link a link. (Before, realpath could not resolve
# /proc/self/fd/1 -> pipe:[N], the path was taken for a new file, and a temporary renamed over
# it replaced the link: run as root, `sizeup import -o /dev/stdout F | jq` replaced the system's
# /dev/stdout with a regular file.) The test uses a link of its own, never /dev/stdout.
set -u
BIN=${SIZEUP_BIN:?}
SRC=${SIZEUP_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s /proc/self/fd/1 "$tmp/out"
fail=0
n=$("$BIN" import -o "$tmp/out" "$SRC/data/published/monosql-scaleout-c5-2xlarge.csv" 2>/dev/null | wc -l)
want=$(grep -c '^[^#]' "$SRC/data/published/monosql-scaleout-c5-2xlarge.csv")
want=$((want - 1)) # the header row
if [ "$n" -eq "$want" ]; then echo "ok   $n records through the link into the pipe"; else
    echo "FAIL $n records through the link into the pipe, expected $want"; fail=1; fi
if [ -L "$tmp/out" ] && [ "$(readlink "$tmp/out")" = /proc/self/fd/1 ]; then
    echo "ok   the link is still a link"; else
    echo "FAIL the link was replaced: $(ls -la "$tmp/out")"; fail=1; fi
if ls "$tmp"/out.tmp.* >/dev/null 2>&1; then echo "FAIL a temporary file was left"; fail=1; fi
# a link to a file that does not exist yet: the file is created, the link stays
ln -s made.jsonl "$tmp/dangling"
"$BIN" import -o "$tmp/dangling" "$SRC/data/published/monosql-scaleout-c5-2xlarge.csv" 2>/dev/null
if [ -L "$tmp/dangling" ] && [ "$(wc -l < "$tmp/made.jsonl")" -eq "$want" ]; then
    echo "ok   a dangling link: its file made, the link kept"; else
    echo "FAIL a dangling link: $(ls -la "$tmp")"; fail=1; fi
# a link to this process's own stdout, which the shell opened to append: written through, the
# old lines kept (replacing the file it names would lose them)
printf 'OLD\n' > "$tmp/log.txt"
"$BIN" import -o "$tmp/out" "$SRC/data/published/monosql-scaleout-c5-2xlarge.csv" \
    >>"$tmp/log.txt" 2>/dev/null
if [ "$(head -1 "$tmp/log.txt")" = OLD ] && [ "$(wc -l < "$tmp/log.txt")" -eq $((want + 1)) ]; then
    echo "ok   through a link to stdout opened for append: old line kept, $want records after it"
else
    echo "FAIL through a link to stdout opened for append: $(head -c 200 "$tmp/log.txt")"
    fail=1
fi
# links that loop: refused, both kept
ln -s lb "$tmp/la"
ln -s la "$tmp/lb"
if "$BIN" import -o "$tmp/la" "$SRC/data/published/monosql-scaleout-c5-2xlarge.csv" 2>/dev/null; then
    echo "FAIL links that loop: accepted"; fail=1
elif [ -L "$tmp/la" ] && [ -L "$tmp/lb" ]; then
    echo "ok   links that loop: refused, both kept"
else
    echo "FAIL links that loop: a link was replaced"; fail=1
fi
exit $fail
