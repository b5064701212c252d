#!/usr/bin/env bash
# Runs the libFuzzer target of the SPIR-V front end for a bounded time,
# seeded with the glslang-compiled test corpus. Usage: tools/fuzz.sh [seconds]
# (default 60). Builds only what the target needs, with clang, in
# build-fuzz/. A crash, sanitizer report or leak fails the run and leaves the
# reproducer in build-fuzz/fuzz-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
jobs=$(nproc 2>/dev/null || echo 2)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=clang cmake -S . -B build-fuzz "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build-fuzz -j "$jobs" --target spirv_fuzz_parse
corpus=build-fuzz/fuzz-corpus
mkdir -p "$corpus" build-fuzz/fuzz-artifacts
log=build-fuzz/fuzz.log
status=0
build-fuzz/tests/spirv/spirv_fuzz_parse -max_total_time="$seconds" -seed=1 -print_final_stats=1 \
  -artifact_prefix=build-fuzz/fuzz-artifacts/ "$corpus" build-fuzz/tests/spirv/shaders \
  >"$log" 2>&1 || status=$?
grep -E "DONE|stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY|Test unit written" "$log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$log"
  echo "fuzz: spirv_fuzz_parse failed (exit $status); see $log"
fi
exit "$status"
