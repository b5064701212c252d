#!/usr/bin/env bash
# Configures and builds one build tree. Usage: tools/build.sh [release|asan]
#   release -> build/       (the tree vk_icd.json points at)
#   asan    -> build-asan/  (AddressSanitizer + UndefinedBehaviorSanitizer)
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
jobs=$(nproc 2>/dev/null || echo 2)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
case "$kind" in
  release) dir=build; opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  asan) dir=build-asan; opts=(-DCMAKE_BUILD_TYPE=Debug -DVKPPU_SANITIZE=ON) ;;
  *) echo "usage: $0 [release|asan]" >&2; exit 2 ;;
esac
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" "${gen[@]}" "${opts[@]}" >/dev/null
fi
cmake --build "$dir" -j "$jobs"
