#!/usr/bin/env bash
# sizeup's test command (README.md, .ci/run): install dependencies, then build and run the whole
# CTest suite twice: a normal build (gcc, -Werror) and an AddressSanitizer + UndefinedBehaviorSanitizer
# build (clang) that also builds the libFuzzer targets and runs each for a short time.
# Each build starts its own throwaway MariaDB server on 127.0.0.1 (CTest fixture `mariadb`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}

echo "== build (normal)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIZEUP_TEST_MYSQL_PORT=33061 >/dev/null
cmake --build build -j"$jobs"
echo "== build (asan+ubsan, clang, fuzz targets)"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSIZEUP_SANITIZE=ON -DSIZEUP_FUZZ=ON \
    -DSIZEUP_TEST_MYSQL_PORT=33062 >/dev/null
cmake --build build-asan -j"$jobs"

status=0
echo "== ctest (normal)"
ctest --test-dir build --output-on-failure -j"$jobs" || status=1
echo "== ctest (asan+ubsan)"
ctest --test-dir build-asan --output-on-failure -j"$jobs" || status=1
exit $status
