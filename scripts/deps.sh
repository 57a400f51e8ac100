#!/usr/bin/env bash
# Install what sizeup needs to build, test and run on Debian 12 (apt-get; sudo when not root).
# Installs only packages that are missing, so a second run costs a few dpkg queries.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-14-dev clang-format git binutils
      libmariadb-dev libgsl-dev libjansson-dev libcurl4-openssl-dev libsqlite3-dev
      mariadb-server mariadb-client sysbench fio python3 openssl chromium postgresql
      openmpi-bin python3-yaml)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
# Debian's mariadb-server and postgresql packages start system servers; sizeup's tests start
# their own (scripts/mariadb-server.sh, scripts/postgres-server.sh).
