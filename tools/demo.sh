#!/usr/bin/env bash
# The main job: builds vkppu and runs real Vulkan programs on it through the
# Khronos loader: vulkaninfo, then the transfer benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh release
export VK_ICD_FILENAMES=$PWD/vk_icd.json VK_DRIVER_FILES=$PWD/vk_icd.json
echo "== vulkaninfo --summary (our driver through the Khronos loader)"
vulkaninfo --summary
echo "== transfer_bench (copy engine, recording rate, submit latency)"
build/samples/transfer_bench/transfer_bench "$@"
