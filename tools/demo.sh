#!/usr/bin/env bash
# The main job: builds vkppu and runs real Vulkan programs on it through the
# Khronos loader: vulkaninfo, the transfer benchmark (arguments go to it, e.g.
# --quick) and a compute sample that writes out/mandelbrot.png.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh release
export VK_ICD_FILENAMES=$PWD/vk_icd.json VK_DRIVER_FILES=$PWD/vk_icd.json
echo "== vulkaninfo --summary (our driver through the Khronos loader)"
vulkaninfo --summary
echo "== transfer_bench (copy engine, recording rate, submit latency)"
build/samples/transfer_bench/transfer_bench "$@"
echo "== compute_mandelbrot (SPIR-V compiled to the PPU ISA, run on the modeled SMs)"
mkdir -p out
build/samples/compute_mandelbrot/compute_mandelbrot --width 512 --height 512 --iterations 200 \
  --output out/mandelbrot.png
