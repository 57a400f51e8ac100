#!/usr/bin/env bash
# test_arch_script.sh - scripts/arch.py --check fails on a tree that breaks the rule: records
# including a probes header, a circle of includes, <mysql.h> outside probes/*.c, a stale
# --known, an advisor concern including one above it, the driver in the command line's place,
# a header fronting a second .c it does not name;
# and passes on a tree that keeps it.
set -u
arch=${1:?usage: test_arch_script.sh scripts/arch.py}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0 passed=0
expect() { # expect NAME STATUS PATTERN ARGS...
    local name=$1 want=$2 pat=$3; shift 3
    out=$(python3 "$arch" --check "$@" "$t" 2>&1); st=$?
    if [ "$st" = "$want" ] && grep -qF -- "$pat" <<<"$out"; then passed=$((passed+1)); echo "ok   $name"
    else fail=$((fail+1)); echo "FAIL $name (exit $st)"; echo "$out" | tail -5; fi
}
mkdir -p "$t"/{util,records,probes,models,catalogs,advisor/curve,advisor/rank,advisor/present,drive,cli}
echo '#include "u.h"' > "$t/records/r.c"; : > "$t/records/r.h"; : > "$t/util/u.h"
echo '#include "r.h"' > "$t/probes/p.c"; : > "$t/probes/p.h"
expect "a tree that keeps the rule" 0 "Rules: 0 broken"
echo '#include "p.h"' >> "$t/records/r.c"
expect "records including probes" 1 "records may not depend on probes"
sed -i '$d' "$t/records/r.c"
echo '#include "b.h"' > "$t/advisor/rank/a.h"; echo '#include "a.h"' > "$t/advisor/rank/b.h"
expect "a circle of includes" 1 "include circle: advisor/rank/a <-> advisor/rank/b"
expect "a known break" 0 "known: include circle" --known "include circle: advisor/rank/a"
rm "$t/advisor/rank/a.h" "$t/advisor/rank/b.h"
expect "a stale --known" 1 "STALE --known" --known "include circle: advisor/rank/a"
: > "$t/advisor/curve/k.h"; : > "$t/advisor/present/w.h"
echo '#include "k.h"' > "$t/advisor/rank/s.c"
expect "rank on curve" 0 "Rules: 0 broken"
echo '#include "w.h"' >> "$t/advisor/rank/s.c"
expect "rank including present" 1 "advisor/rank may not depend on advisor/present"
rm "$t/advisor/rank/s.c"
: > "$t/drive/d.h"; echo '#include "d.h"' > "$t/advisor/rank/s.c"
expect "advisor including the driver" 1 "advisor/rank may not depend on drive"
rm "$t/advisor/rank/s.c"
echo '#include "d.h"' > "$t/cli/c.c"; echo '#include "p.h"' > "$t/drive/d.c"
expect "cli over drive over probes" 0 "Rules: 0 broken"
printf '/* f.h */\nint f_one(void);\nint f_two(void);\n' > "$t/advisor/rank/f.h"
printf '#include "f.h"\nint f_one(void)\n{\n    return 1;\n}\n' > "$t/advisor/rank/f.c"
printf '#include "f.h"\nint f_two(void)\n{\n    return 2;\n}\n' > "$t/advisor/rank/f_more.c"
expect "a header fronting a file it does not name" 1 "advisor/rank/f.h declares functions of advisor/rank/f_more.c"
printf '/* f.h: fronts f.c and f_more.c */\nint f_one(void);\nint f_two(void);\n' > "$t/advisor/rank/f.h"
expect "a header that names the files it fronts" 0 "Rules: 0 broken"
rm "$t/advisor/rank/f.h" "$t/advisor/rank/f.c" "$t/advisor/rank/f_more.c"
echo '#include <mysql.h>' > "$t/cli/c.c"
expect "<mysql.h> outside probes" 1 "cli/c.c includes <mysql.h>"
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
