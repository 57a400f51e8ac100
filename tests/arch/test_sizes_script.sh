#!/usr/bin/env bash
# test_sizes_script.sh - scripts/sizes.py --check fails on a tree with a file over 800 lines or a
# function over 120 lines, reports a --known break as known, fails on a stale --known, does not
# count a struct or an initializer as a function; and passes on a tree within the limits.
set -u
sizes=${1:?usage: test_sizes_script.sh scripts/sizes.py}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0 passed=0
expect() { # expect NAME STATUS PATTERN ARGS...
    local name=$1 want=$2 pat=$3; shift 3
    out=$(python3 "$sizes" --check "$@" "$t" 2>&1); st=$?
    if [ "$st" = "$want" ] && grep -qF -- "$pat" <<<"$out"; then passed=$((passed+1)); echo "ok   $name"
    else fail=$((fail+1)); echo "FAIL $name (exit $st)"; echo "$out" | tail -5; fi
}
body() { # body N: N lines of a function's body, braces included
    echo "{"; for ((i = 2; i < $1; i++)); do echo "    x++;"; done; echo "}"
}
mkdir -p "$t"/{util,records}
{ echo "static int x;"; echo "struct s {"; for i in $(seq 200); do echo "    int a$i;"; done; echo "};"
  echo "static const int tab[] = {"; for i in $(seq 200); do echo "    $i,"; done; echo "};"
  echo "static void small(int a,"; echo "                  int b)"; body 120; } > "$t/util/u.c"
expect "a tree within the limits" 0 "Limits: 0 broken"
{ echo "struct big *big_new(const char *name, int flags)"; body 121; } > "$t/records/r.c"
expect "a function of 121 lines" 1 "records/r.c: big_new() has 121 lines at line 1"
expect "a known break" 0 "known: records/r.c: big_new()" --known "records/r.c: big_new()"
rm "$t/records/r.c"
expect "a stale --known" 1 "STALE --known" --known "records/r.c: big_new()"
for i in $(seq 801); do echo "/* $i */"; done > "$t/records/long.h"
expect "a file of 801 lines" 1 "records/long.h: file has 801 lines (limit 800)"
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
