#!/usr/bin/env bash
# sizeup's test command (README.md, .ci/run): install dependencies, then build and run the whole
# CTest suite twice: a normal build (gcc, -Werror) and an AddressSanitizer + UndefinedBehaviorSanitizer
# build (clang) that also builds the libFuzzer targets and runs each for a short time, and a
# ThreadSanitizer build (clang) that runs the probe engine's concurrency tests.
# Each build starts its own throwaway MariaDB server on 127.0.0.1 (CTest fixture `mariadb`).
# First, every tracked C source must be formatted as .clang-format says (clang-format 14).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}

echo "== format (clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1), .clang-format)"
git ls-files -z '*.c' '*.h' | xargs -0 clang-format --dry-run -Werror

echo "== build (normal)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIZEUP_TEST_MYSQL_PORT=23061 \
    -DSIZEUP_TEST_PG_PORT=23064 >/dev/null
cmake --build build -j"$jobs"
echo "== build (asan+ubsan, clang, fuzz targets)"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSIZEUP_SANITIZE=ON -DSIZEUP_FUZZ=ON \
    -DSIZEUP_TEST_MYSQL_PORT=23062 -DSIZEUP_TEST_PG_PORT=23065 >/dev/null
cmake --build build-asan -j"$jobs"

echo "== build (tsan, clang: the probe engine)"
CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DSIZEUP_TSAN=ON \
    -DSIZEUP_TEST_MYSQL_PORT=23063 -DSIZEUP_TEST_PG_PORT=23066 >/dev/null
cmake --build build-tsan -j"$jobs"

status=0
echo "== ctest (normal)"
ctest --test-dir build --output-on-failure -j"$jobs" || status=1
echo "== ctest (asan+ubsan)"
ctest --test-dir build-asan --output-on-failure -j"$jobs" || status=1
echo "== ctest (tsan: probe engine, histogram, RNG)"
ctest --test-dir build-tsan --output-on-failure -R 'test_probe_tsan|test_histogram|test_sbrand' \
    || status=1
exit $status
