#!/usr/bin/env bash
# test_cli_calls.sh - the command line talks to no server and no disk (issue 29.1): of the
# functions the probes library defines, the cli library's objects call only those on the
# allow-list below (options, configuration, names, clocks, the disk report's formatting); every
# connection, statement, lock, table or disk I/O goes through drive/. Checked with nm: a probes
# symbol the cli archive leaves undefined is a call into the probes.
#
# Then the same check is run on BAD_CLI (an archive whose object calls obs_connect) and must
# fail, so a check that sees nothing cannot pass.
#
# Usage: test_cli_calls.sh CLI_LIBRARY.a PROBES_LIBRARY.a BAD_CLI.a
set -u
cli=$1 probes=$2 bad=$3
fail=0 passed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# What cli may call from probes: whole names, as extended regular expressions.
allowed='^(probe_config_defaults|probe_config_json|oltp_opts_check|oltp_workload_name'
allowed+='|sbrand_params_init'
allowed+='|myconn_ignore_parse|myconn_library_init|myconn_library_end|myconn_defaults_[a-z_]+'
allowed+='|myconn_resolve|myconn_where_of'
allowed+='|disk_[a-z_]+_name|disk_[a-z_]+_parse'
allowed+='|disk_class_of|disk_class_commit'      # the disk's class from figures (no I/O)
allowed+='|disk_report_header|disk_report_row|disk_report_point' # printing what was measured
allowed+='|clock_[a-z_0-9]+)$'

defined=$(nm -g --defined-only "$probes" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDRB]$/ {print $3}' |
          sort -u)
if echo "$defined" | grep -qx 'obs_connect' && echo "$defined" | grep -qx 'disk_run'; then
    ok "$(basename "$probes") defines $(echo "$defined" | wc -l) functions and data (obs_connect, disk_run among them)"
else
    bad "$(basename "$probes"): nm does not show obs_connect and disk_run defined: the check sees nothing"
fi

# calls LIB: "SYMBOL OBJECT" for each probes symbol LIB's objects leave undefined
calls() {
    nm -A -u "$1" 2>/dev/null | sed -E 's/^[^:]*:([^:]*):.* U (.*)$/\2 \1/' | sort -u |
        while read -r sym obj; do
            if echo "$defined" | grep -qxF "$sym"; then echo "$sym $obj"; fi
        done
}

# check LIB: 0 when every call into the probes is allowed; else the others listed
check() {
    local c n
    c=$(calls "$1")
    n=$(echo "$c" | grep -c . )
    echo "  $(basename "$1") calls $n probes functions"
    forbidden=$(echo "$c" | grep . | awk '{print $1}' | grep -vE "$allowed" | sort -u)
    if [ -n "$forbidden" ]; then
        echo "$c" | grep -E "^($(echo "$forbidden" | paste -sd'|')) " | sed 's/^/  forbidden: /'
        return 1
    fi
    return 0
}

if check "$cli"; then ok "$(basename "$cli") calls nothing of the probes that talks to a server or a disk"
else bad "$(basename "$cli") calls probes functions that talk to a server or a disk (move them to drive/)"; fi
if check "$bad" > /dev/null; then bad "$(basename "$bad") calls obs_connect and the check passed it"
else ok "$(basename "$bad") calls obs_connect: the check fails it"; fi
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
