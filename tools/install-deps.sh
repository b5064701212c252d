#!/usr/bin/env bash
# Installs the Debian 12 packages vkppu builds, tests and runs its samples with.
# The bookworm-backports suite (for a lavapipe with ray queries) is enabled by
# reusing the URI of the machine's existing Debian apt source, so no mirror
# host name is written into the repository.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

debian_uri() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 stanza whose Suites include plain "bookworm"
    awk 'BEGIN{RS="";FS="\n"} /Suites:[^\n]*bookworm( |$|\n)/ && !/security/ {
           for (i=1;i<=NF;i++) if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/,"",$i); split($i,a," "); print a[1]; exit } }' "$f"
  done
  if [ -f /etc/apt/sources.list ]; then
    awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list
  fi
}

if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  uri=$(debian_uri | head -n 1)
  if [ -n "$uri" ]; then
    echo "deb $uri bookworm-backports main" | $SUDO tee /etc/apt/sources.list.d/vkppu-backports.list >/dev/null
  else
    echo "install-deps: no Debian bookworm apt source found; skipping backports" >&2
  fi
fi

export DEBIAN_FRONTEND=noninteractive
# llvm-19-dev: the SM translator (docs/jit.md) is built on LLVM's C API.
# xcb (+ MIT-SHM), Xlib and libX11-xcb: the driver presents to X11 windows
# (docs/wsi.md); xvfb and xauth (xvfb-run) give the tests an X server.
# strace: install.destdir_prefix_package checks that the installed tree runs
# without touching the source or build tree (docs/install.md).
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build pkg-config python3 clang clang-format \
  libvulkan-dev vulkan-tools vulkan-validationlayers spirv-headers \
  libvulkan-volk-dev glslang-tools spirv-tools libpng-dev zlib1g-dev xvfb xauth libclang-rt-14-dev \
  libxcb1-dev libxcb-shm0-dev libx11-dev libx11-xcb-dev llvm-19-dev strace >/dev/null
# lavapipe: prefer the backports build (it has ray queries); fall back to bookworm.
$SUDO apt-get install -y -qq --no-install-recommends -t bookworm-backports mesa-vulkan-drivers >/dev/null 2>&1 \
  || $SUDO apt-get install -y -qq --no-install-recommends mesa-vulkan-drivers >/dev/null
# Optional, for the benchmarks only: Embree 3, the CPU ray tracer
# bench_ao_model --embree compares the TTU model with (issue 21). Nothing
# builds or tests against it; a machine without it skips that column.
$SUDO apt-get install -y -qq --no-install-recommends libembree-dev >/dev/null \
  || echo "install-deps: libembree-dev not installed (bench_ao_model --embree is left out)" >&2
echo "install-deps: done"
