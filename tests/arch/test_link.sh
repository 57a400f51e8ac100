#!/usr/bin/env bash
# test_link.sh - only `sizeup probe` (and study, through it) needs libmariadb: the sizeup binary
# has it (ldd), the test binaries of records, models and catalogs and the benches do not, and
# the libraries that fit, rank, report and import run on (records, models, catalogs, advisor,
# util) reference no mysql_* symbol (nm), while the probes library does (so the check can fail).
#
# Usage: test_link.sh SIZEUP -- BINARY... -- LIBRARY.a... -- PROBES_LIBRARY.a
set -u
fail=0 passed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

sizeup=$1; shift; [ "$1" = "--" ] && shift
bins=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do bins+=("$1"); shift; done; shift
libs=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do libs+=("$1"); shift; done; shift
probes=$1

if ldd "$sizeup" | grep -q 'libmariadb'; then ok "sizeup links libmariadb (for probe)"
else bad "sizeup does not link libmariadb: probe could not work"; fi
for b in "${bins[@]}"; do
    if ldd "$b" | grep -q 'libmariadb'; then bad "$(basename "$b") links libmariadb"
    else ok "$(basename "$b") does not link libmariadb"; fi
done
for l in "${libs[@]}"; do
    n=$(nm -A "$l" 2>/dev/null | grep -cE ' [UTtDdBb] mysql_')
    if [ "$n" -eq 0 ]; then ok "$(basename "$l") references no mysql_* symbol"
    else bad "$(basename "$l") references $n mysql_* symbols:"; nm -A "$l" | grep -E ' U mysql_' | head -5; fi
done
n=$(nm -A "$probes" 2>/dev/null | grep -cE ' U mysql_')
if [ "$n" -gt 0 ]; then ok "$(basename "$probes") calls libmariadb ($n references): the check sees them"
else bad "$(basename "$probes") references no mysql_* symbol: nm does not see what it should"; fi
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
