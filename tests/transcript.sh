#!/usr/bin/env bash
# Run a command-line transcript: tests as data (in the manner of jq's tests/*.test).
#
# A transcript file holds cases. Each case:
#   ### name                   starts a case
#   $ ARGS                     the sizeup command line (shell words; globs and quotes work),
#                              run from the project root as "$SIZEUP_BIN" ARGS
#   ? N                        expected exit status (required)
#   > TEXT                     stdout contains TEXT (a literal substring)
#   >! TEXT                    stdout does not contain TEXT
#   ! TEXT                     stderr contains TEXT
#   !! TEXT                    stderr does not contain TEXT
#   = N                        stdout has exactly N lines
#   >>>                        the lines up to <<< are exactly stdout
#   $$ SHELL                   a shell command run before the case's command (set-up)
# Lines starting with "#" (but not "###") and blank lines are ignored.
# Prints one line per case and "N passed, M failed"; exits 1 when any case failed.
set -u
file=${1:?usage: transcript.sh FILE}
bin=${SIZEUP_BIN:?SIZEUP_BIN must name the sizeup binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TRANSCRIPT_TMP="$tmp"
# today is 2026-12-06 for every case (util/today.h: the age of a price does not depend on the day
# the suite runs)
export SOURCE_DATE_EPOCH=1796515200
passed=0 failed=0
name="" args="" want_status="" checks=() exact="" in_exact=0 setup=()

fail() { echo "  FAIL [$name]: $*"; ok=0; }

run_case() {
    [ -z "$name" ] && return
    ok=1
    for s in "${setup[@]+"${setup[@]}"}"; do
        bash -c "$s" >/dev/null 2>"$tmp/setup.err" || { fail "set-up failed: $s: $(cat "$tmp/setup.err")"; }
    done
    eval "set -- $args"
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    if [ -z "$want_status" ]; then fail "no '? N' line"; fi
    if [ -n "$want_status" ] && [ "$status" != "$want_status" ]; then
        fail "exit status $status, expected $want_status"
    fi
    for c in "${checks[@]+"${checks[@]}"}"; do
        kind=${c%%$'\t'*}
        text=${c#*$'\t'}
        case "$kind" in
        out) grep -qF -- "$text" "$tmp/out" || fail "stdout lacks: $text" ;;
        notout) grep -qF -- "$text" "$tmp/out" && fail "stdout has: $text" ;;
        err) grep -qF -- "$text" "$tmp/err" || fail "stderr lacks: $text" ;;
        noterr) grep -qF -- "$text" "$tmp/err" && fail "stderr has: $text" ;;
        lines) n=$(wc -l <"$tmp/out"); [ "$n" -eq "$text" ] || fail "stdout has $n lines, expected $text" ;;
        esac
    done
    if [ -n "$exact" ]; then
        printf '%s' "$exact" >"$tmp/exact"
        if ! cmp -s "$tmp/exact" "$tmp/out"; then
            fail "stdout differs:"
            diff "$tmp/exact" "$tmp/out" | head -20 | sed 's/^/    /'
        fi
    fi
    if [ $ok = 1 ]; then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "  command: sizeup $args"
        echo "  stderr:"; head -10 "$tmp/err" | sed 's/^/    /'
    fi
}

while IFS= read -r line || [ -n "$line" ]; do
    if [ $in_exact = 1 ]; then
        if [ "$line" = "<<<" ]; then in_exact=0; else exact+="$line"$'\n'; fi
        continue
    fi
    case "$line" in
    "### "*) run_case; name=${line#\#\#\# }; args=""; want_status=""; checks=(); exact=""; setup=() ;;
    "\$\$ "*) setup+=("${line#\$\$ }") ;;
    "\$ "*) args=${line#\$ } ;;
    "\$") args="" ;;
    "? "*) want_status=${line#\? } ;;
    ">! "*) checks+=("notout"$'\t'"${line#>! }") ;;
    "> "*) checks+=("out"$'\t'"${line#> }") ;;
    "!! "*) checks+=("noterr"$'\t'"${line#!! }") ;;
    "! "*) checks+=("err"$'\t'"${line#! }") ;;
    "= "*) checks+=("lines"$'\t'"${line#= }") ;;
    ">>>") in_exact=1 ;;
    "#"* | "") ;;
    *) echo "transcript.sh: $file: cannot read line: $line" >&2; exit 2 ;;
    esac
done <"$file"
run_case
echo "$passed passed, $failed failed"
[ $failed = 0 ] && [ $passed -gt 0 ]
