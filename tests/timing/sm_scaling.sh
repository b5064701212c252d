#!/usr/bin/env bash
# Issue 31: the timing mode scales across SMs like a GPU. Runs a Vulkan
# program on vkppu in timing mode on the desktop preset with 1, 8, 16 and 72
# SMs (gpu.gpcs x gpu.tpcs_per_gpc x gpu.sms_per_tpc) and requires
#   - chip cycles at 8 SMs < 0.3 x those at 1 SM (independent rays on
#     different SMs overlap; the old model took 0.98 x on AO sibenik 64x64,
#     every miss waiting behind the furthest booking on the chip),
#   - 72 SMs no slower than 16,
#   - the same output whatever the SM count, and the same cycles twice.
#
#   sm_scaling.sh WORKDIR PROGRAM [ARG ...]
#
# An argument containing @OUT@ names an output: @OUT@ becomes the run's own
# directory. Exit 77 (skipped) passes through, e.g. without the scenes.
set -euo pipefail
work=$1
shift
rm -rf "$work"
mkdir -p "$work"

# run NAME GPCS TPCS_PER_GPC SMS_PER_TPC: prints the run's chip cycles.
run() {
   local name=$1 out=$work/$1
   mkdir -p "$out"
   local args=()
   for a in "${@:5}"; do
      args+=("${a//@OUT@/$out}")
   done
   local status=0
   VKPPU_HW_CONFIG=desktop,gpu.mode=timing,gpu.timing_progress=false,gpu.gpcs=$2,gpu.tpcs_per_gpc=$3,gpu.sms_per_tpc=$4 \
      VKPPU_COUNTERS_FILE=$work/$name-counters.csv "${args[@]}" >"$work/$name.log" 2>&1 ||
      status=$?
   if [ "$status" -ne 0 ]; then
      cat "$work/$name.log" >&2
      [ "$status" -eq 77 ] && exit 77
      echo "sm_scaling: the $name run failed (exit $status)" >&2
      exit 1
   fi
   local cycles
   cycles=$(sed -n 's/^timing\.chip_cycles,\([0-9]*\),.*/\1/p' "$work/$name-counters.csv")
   if [ -z "$cycles" ] || [ "$cycles" -eq 0 ]; then
      echo "sm_scaling: the $name run counted no cycles" >&2
      exit 1
   fi
   echo "$cycles"
}

c1=$(run sm1 1 1 1 "$@")
c8=$(run sm8 2 2 2 "$@")
c8again=$(run sm8again 2 2 2 "$@")
c16=$(run sm16 2 4 2 "$@")
c72=$(run sm72 6 6 2 "$@")
echo "sm_scaling: chip cycles 1 SM $c1, 8 SMs $c8, 16 SMs $c16, 72 SMs $c72"
status=0
for n in sm8 sm8again sm16 sm72; do
   if ! diff -r "$work/sm1" "$work/$n" >/dev/null; then
      echo "sm_scaling: the output of $n differs from that of sm1"
      status=1
   fi
done
if [ "$c8" -ne "$c8again" ]; then
   echo "sm_scaling: 8 SMs took $c8 cycles, then $c8again: not deterministic"
   status=1
fi
if [ $((c8 * 10)) -ge $((c1 * 3)) ]; then
   echo "sm_scaling: 8 SMs take $c8 cycles, not under 0.3 x the $c1 of 1 SM"
   status=1
fi
if [ "$c72" -gt "$c16" ]; then
   echo "sm_scaling: 72 SMs take $c72 cycles, more than the $c16 of 16 SMs"
   status=1
fi
exit $status
