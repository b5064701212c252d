#!/bin/sh
# Runs vulkaninfo with the Khronos validation layer forced on and checks that
# it exits 0, names the expected device, and that its output holds no
# validation message. The ICD comes from VK_ICD_FILENAMES (set by CTest).
#
# usage: check_vulkaninfo.sh <vulkaninfo> <device-name> [vulkaninfo args...]
set -u
vulkaninfo=$1
device_name=$2
shift 2

out=$(mktemp)
trap 'rm -f "$out"' EXIT

VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$vulkaninfo" "$@" >"$out" 2>&1
rc=$?

status=0
if [ "$rc" -ne 0 ]; then
  echo "FAIL: vulkaninfo $* exited with status $rc"
  status=1
fi
if ! grep -q -i -F -- "$device_name" "$out"; then
  echo "FAIL: vulkaninfo $* output does not name the device \"$device_name\""
  status=1
fi
if grep -n -E 'VUID|Validation Error' "$out"; then
  echo "FAIL: validation messages in vulkaninfo $* output (above)"
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "--- last lines of vulkaninfo output ---"
  tail -n 40 "$out"
else
  echo "ok: vulkaninfo $* ($(wc -l <"$out") lines, names \"$device_name\", no validation messages)"
fi
exit "$status"
