#!/usr/bin/env bash
# sizeup's main job (README.md, command 1): a sizing study on built-in defaults.
#
# Installs what is needed, builds, starts a throwaway MariaDB on 127.0.0.1 as an on-premises
# candidate (data/catalogs/local.json), probes it with calibrated short probes (oltp_read_write
# and oltp_point_select, auto thread ladder, measured in passes within the study's default budget
# of 1.5 x levels x max_time = 72 s per curve: about 2.5 minutes on a 2-core machine), adds the
# built-in published results of two Alibaba instance sizes (data/published/seekdb-4c8g-1c2g.csv)
# with the bundled catalogs, ranks everything by throughput per cost at p99 <= 50 ms, writes the
# HTML report, prints the ranking and the report's path, and stops the server. It then ranks the
# published IDC-vs-cloud table (the worked example of docs/examples.md) into a second report.
#
#   scripts/main.sh [OUTDIR]     (default OUTDIR: out/; env SIZEUP_MAIN_PORT, default 23090)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
outdir=${1:-out}
port=${SIZEUP_MAIN_PORT:-23090}
scripts/deps.sh
echo "== building sizeup" >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
sizeup=$root/build/sizeup
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
srv=$outdir/mariadb

echo "== starting a throwaway MariaDB on 127.0.0.1:$port ($srv)" >&2
scripts/mariadb-server.sh start "$srv" "$port" >&2
trap 'scripts/mariadb-server.sh stop "$srv" >&2' EXIT
printf 'sbtest\n' >"$outdir/mysql-password"
chmod 600 "$outdir/mysql-password"

cat >"$outdir/study.json" <<JSON
{
  "schema": "sizeup.study/1",
  "name": "local MariaDB vs two cloud instance sizes",
  "candidates": [
    { "config": "local-mariadb", "target": "local-mariadb",
      "mysql": { "host": "127.0.0.1", "port": $port, "user": "sbtest", "db": "sbtest",
                 "password_file": "mysql-password" },
      "tables": 4, "table_size": 10000 },
    { "config": "seekdb-4c8g", "results": ["$root/data/published/seekdb-4c8g-1c2g.csv"] },
    { "config": "seekdb-1c2g", "results": ["$root/data/published/seekdb-4c8g-1c2g.csv"] }
  ],
  "workloads": { "oltp_read_write": 0.7, "oltp_point_select": 0.3 },
  "ladder": "auto",
  "max_threads": 16,
  "max_points": 6,
  "precision": "5%",
  "max_time": "8s",
  "slo": "p99:50ms",
  "catalogs": ["$root/data/catalogs/published.json", "$root/data/catalogs/local.json"],
  "output": "study"
}
JSON
rm -rf "$outdir/study"
echo "== sizing study ($outdir/study.json)" >&2
"$sizeup" study "$outdir/study.json"

echo
echo "== the published IDC-vs-cloud table at avg <= 20 ms (docs/examples.md's worked example)"
"$sizeup" rank --points data/published/rds-idc-vs-cloud-4c16g.csv \
    --catalog data/catalogs/published.json --slo avg:20ms
"$sizeup" report --points data/published/rds-idc-vs-cloud-4c16g.csv \
    --catalog data/catalogs/published.json --slo avg:20ms -o "$outdir/idc-vs-cloud.html"
echo "report: $outdir/idc-vs-cloud.html"
