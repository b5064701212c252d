#!/usr/bin/env bash
# Runs a Vulkan program twice on vkppu, in functional mode (VKPPU_HW_CONFIG
# unset) and in timing mode (VKPPU_HW_CONFIG=TIMING_CONFIG: a file, or a
# preset with overrides such as "desktop,gpu.mode=timing"), and requires every
# file it writes to be byte for byte the same (docs/timing.md: results are
# bit-identical in both modes).
#
#   compare_modes.sh WORKDIR TIMING_CONFIG PROGRAM [ARG ...]
#
# An argument containing @OUT@ names an output: @OUT@ becomes the run's own
# directory. Exit 77 (skipped) passes through, e.g. without the scenes.
set -euo pipefail
work=$1 conf=$2
shift 2
rm -rf "$work"
mkdir -p "$work/functional" "$work/timing"

run() {
   local mode=$1
   shift
   local args=()
   for a in "$@"; do
      args+=("${a//@OUT@/$work/$mode}")
   done
   local status=0
   if [ "$mode" = timing ]; then
      VKPPU_HW_CONFIG=$conf VKPPU_COUNTERS_FILE=$work/timing-counters.csv "${args[@]}" \
         >"$work/$mode.log" 2>&1 || status=$?
   else
      env -u VKPPU_HW_CONFIG "${args[@]}" >"$work/$mode.log" 2>&1 || status=$?
   fi
   if [ "$status" -ne 0 ]; then
      cat "$work/$mode.log"
      [ "$status" -eq 77 ] && exit 77
      echo "compare_modes: the $mode run failed (exit $status)"
      exit 1
   fi
}

run functional "$@"
run timing "$@"
cd "$work/functional"
count=0
for f in $(find . -type f | sort); do
   if ! cmp -s "$f" "$work/timing/$f"; then
      echo "compare_modes: $f differs between functional and timing mode"
      exit 1
   fi
   count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
   echo "compare_modes: the program wrote no output"
   exit 1
fi
if [ "$(cd "$work/timing" && find . -type f | wc -l)" -ne "$count" ]; then
   echo "compare_modes: the timing run wrote other files"
   exit 1
fi
# The second run must really have been timed: it counted cycles.
cycles=$(sed -n 's/^timing\.chip_cycles,\([0-9]*\),.*/\1/p' "$work/timing-counters.csv" 2>/dev/null || true)
if [ -z "$cycles" ] || [ "$cycles" -eq 0 ]; then
   echo "compare_modes: the timing run counted no cycles (timing.chip_cycles)"
   exit 1
fi
echo "compare_modes: timing mode ran $cycles chip cycles"
echo "compare_modes: $count file(s) identical in functional and timing mode"
