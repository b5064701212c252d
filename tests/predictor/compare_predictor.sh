#!/usr/bin/env bash
# Runs a Vulkan program twice on vkppu, with the TTU's intersection
# predictor off (VKPPU_HW_CONFIG=OFF_CONFIG) and on (ON_CONFIG), and
# requires every file it writes to be byte for byte the same: the
# predictor only serves rays whose result cannot change by skipping
# (docs/predictor.md). Each counter of NONZERO (comma separated, `-` for
# none) must be above 0 after the on run, so a sample that should use the
# predictor really did (ttu.predictor_lookups, _verified, ...).
#
#   compare_predictor.sh WORKDIR OFF_CONFIG ON_CONFIG NONZERO PROGRAM [ARG ...]
#
# An argument containing @OUT@ names an output: @OUT@ becomes the run's own
# directory. Exit 77 (skipped) passes through, e.g. without the scenes.
set -euo pipefail
work=$1 off_conf=$2 on_conf=$3 nonzero=$4
shift 4
rm -rf "$work"
mkdir -p "$work/off" "$work/on"

run() {
   local which=$1 conf=$2
   shift 2
   local args=()
   for a in "$@"; do
      args+=("${a//@OUT@/$work/$which}")
   done
   local status=0
   VKPPU_HW_CONFIG=$conf VKPPU_COUNTERS_FILE=$work/$which-counters.csv "${args[@]}" \
      >"$work/$which.log" 2>&1 || status=$?
   if [ "$status" -ne 0 ]; then
      cat "$work/$which.log"
      [ "$status" -eq 77 ] && exit 77
      echo "compare_predictor: the predictor-$which run failed (exit $status)"
      exit 1
   fi
}

run off "$off_conf" "$@"
run on "$on_conf" "$@"
cd "$work/off"
count=0
for f in $(find . -type f | sort); do
   if ! cmp -s "$f" "$work/on/$f"; then
      echo "compare_predictor: $f differs between predictor off and on"
      exit 1
   fi
   count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
   echo "compare_predictor: the program wrote no output"
   exit 1
fi
if [ "$(cd "$work/on" && find . -type f | wc -l)" -ne "$count" ]; then
   echo "compare_predictor: the predictor-on run wrote other files"
   exit 1
fi
counter() {
   sed -n "s/^$1,\([0-9]*\),.*/\1/p" "$work/on-counters.csv" 2>/dev/null || true
}
if [ "$nonzero" != - ]; then
   for c in ${nonzero//,/ }; do
      v=$(counter "${c//./\\.}")
      if [ "${v:-0}" -eq 0 ]; then
         echo "compare_predictor: $c is 0 after the predictor-on run"
         exit 1
      fi
   done
fi
echo "compare_predictor: lookups $(counter 'ttu\.predictor_lookups'), predicted $(counter 'ttu\.predictor_predicted')," \
   "verified $(counter 'ttu\.predictor_verified'), repacked warps" \
   "$(counter 'ttu\.predictor_repacked_warps'), cycles $(counter 'timing\.chip_cycles')"
echo "compare_predictor: $count file(s) identical with the predictor off and on"
