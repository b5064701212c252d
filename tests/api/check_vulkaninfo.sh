#!/bin/sh
# Runs vulkaninfo with the Khronos validation layer forced on and checks that
# it exits 0, names the expected device, and that its output holds no
# validation message. The ICD comes from VK_ICD_FILENAMES (set by CTest).
#
# With --api-version=MAJOR.MINOR it also checks that the device's apiVersion
# (the "apiVersion = X.Y.Z" line of the device properties) is that version.
#
# usage: check_vulkaninfo.sh <vulkaninfo> <device-name> [--api-version=X.Y] [vulkaninfo args...]
set -u
vulkaninfo=$1
device_name=$2
shift 2
api_version=
case "${1:-}" in
--api-version=*)
  api_version=${1#--api-version=}
  shift
  ;;
esac

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
if [ -n "$api_version" ]; then
  # Both the full and the --summary output print "apiVersion = 1.2.239 ...".
  reported=$(sed -n -E 's/^[[:space:]]*apiVersion[[:space:]]*=[[:space:]]*([0-9]+\.[0-9]+)\..*/\1/p' "$out" | head -n 1)
  if [ "$reported" != "$api_version" ]; then
    echo "FAIL: vulkaninfo $* reports apiVersion \"$reported\", expected $api_version"
    status=1
  fi
fi
if grep -n -E 'VUID|Validation Error' "$out"; then
  echo "FAIL: validation messages in vulkaninfo $* output (above)"
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "--- last lines of vulkaninfo output ---"
  tail -n 40 "$out"
else
  echo "ok: vulkaninfo $* ($(wc -l <"$out") lines, names \"$device_name\"${api_version:+, apiVersion $api_version}, no validation messages)"
fi
exit "$status"
