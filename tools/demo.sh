#!/usr/bin/env bash
# The main job: builds vkppu and runs real Vulkan programs on it through the
# Khronos loader: vulkaninfo, the transfer benchmark (arguments go to it, e.g.
# --quick), a compute sample that writes out/mandelbrot.png, a textured
# plane sampled through the texture unit (out/texture_checkerboard.png), ray-query AO on
# the PPU model below the API, ray-query shadows (out/shadows_*.png), a rasterized scene
# with ray-query shadows presented headless (out/hybrid_shadows.png), the AO sample on
# lavapipe (out/ao_lavapipe.png) and finally through Vulkan on vkppu at 1024x1024
# (out/ao_vkppu.png; its path is the last line printed).
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
echo "== texture_checkerboard (images, blits, trilinear sampling through the texture unit)"
build/samples/texture_checkerboard/texture_checkerboard --width 512 --height 384 \
  --output out/texture_checkerboard.png --repeat 3
echo "== ray-query ambient occlusion on the PPU model (below the Vulkan API: the BVH builder,"
echo "   the shader compiler and the TTU, without the driver)"
build/tests/raytrace/bench_ao_model --width 256 --height 256 --threads 2 cornell_tiny teapot
echo "== ray-query hard shadows through Vulkan on vkppu (a light circling the scene, 4 frames)"
build/samples/rq_shadows/rq_shadows --width 512 --height 384 --frames 4 --benchmark \
  --output out/shadows.png
echo "== hybrid frame on vkppu: the scene rasterized, shadows traced by ray queries in the fragment"
echo "   shader, 30 frames presented to a headless swapchain (frame rate; last frame as PNG)"
build/samples/hybrid_shadows/hybrid_shadows --width 320 --height 240 --frames 30 \
  --output out/hybrid_shadows.png
echo "== the AO program as a plain Vulkan sample on lavapipe (a second implementation)"
VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.json VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json \
  build/samples/rq_ambient_occlusion/rq_ambient_occlusion --width 512 --height 512 --output out/ao_lavapipe.png \
  || echo "(lavapipe without VK_KHR_ray_query here: skipped)"
build/samples/rq_ambient_occlusion/rq_ambient_occlusion --scene teapot --width 256 --height 256 \
  --benchmark --compact --output out/ao_teapot_vkppu.png \
  || { status=$?; [ "$status" -eq 77 ] || exit "$status"; echo "(no scenes folder: teapot skipped)"; }
echo "== the AO sample through Vulkan on vkppu, 1024x1024, 4 AO rays a pixel (VK_KHR_ray_query)"
# The default scene is cornell_tiny, or the built-in procedural one without ../shared/scenes.
build/samples/rq_ambient_occlusion/rq_ambient_occlusion --benchmark --output out/ao_vkppu.png
echo "== done: the ambient-occlusion image is $PWD/out/ao_vkppu.png"
