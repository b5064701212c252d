#!/bin/sh
# Installs the build tree the way a packager does (a prefix chosen at
# install time, under DESTDIR), checks every installed file, runs vulkaninfo
# through the installed manifests (driver and profiler layer), each tool's
# --help, runs vulkaninfo and a sample with the profiler layer from a copy of
# the installed tree with the source and build trees hidden
# (check_relocated.sh), then removes what install_manifest.txt lists and checks that
# nothing is left; last, builds the Debian package and checks its contents
# and dependencies.
#
# usage: check_install.sh BUILD_DIR WORK_DIR SOURCE_DIR
set -u
build=$1
work=$2
src=${3:-$(cd "$(dirname "$0")/../.." && pwd)}
rm -rf "$work"
mkdir -p "$work"
stage=$work/stage
prefix=/opt/vkppu-test
root=$stage$prefix
status=0
fail() {
  echo "FAIL: $*"
  status=1
}

if ! DESTDIR=$stage cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
  cat "$work/install.log"
  fail "cmake --install"
  exit 1
fi
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
[ -n "$libdir" ] || libdir=lib
for f in "$libdir/libvulkan_vkppu.so" "$libdir/libVkLayer_vkppu_profiler.so" \
  share/vulkan/icd.d/vkppu_icd.json share/vulkan/explicit_layer.d/VkLayer_vkppu_profiler.json \
  bin/ppu-config bin/ppu-counters bin/ppu-disasm share/doc/vkppu/README.md \
  share/doc/vkppu/profiler.md; do
  [ -e "$root/$f" ] || fail "$prefix/$f not installed"
done
# Nothing outside the prefix (the old rules wrote to /usr/local whatever
# the prefix said).
outside=$(cd "$stage" && find . -type f | grep -v "^\.$prefix/" || true)
[ -z "$outside" ] || fail "files outside the prefix: $outside"

for tool in ppu-config ppu-counters ppu-disasm; do
  "$root/bin/$tool" --help >/dev/null 2>&1 || fail "$tool --help"
done

out=$work/vulkaninfo.txt
VK_ICD_FILENAMES=$root/share/vulkan/icd.d/vkppu_icd.json \
  VK_DRIVER_FILES=$root/share/vulkan/icd.d/vkppu_icd.json \
  VK_ADD_LAYER_PATH=$root/share/vulkan/explicit_layer.d \
  VK_INSTANCE_LAYERS=VK_LAYER_VKPPU_profiler VKPPU_PROFILER_DIR=$work/profile \
  timeout 120 vulkaninfo --summary >"$out" 2>&1 || fail "vulkaninfo through the installed manifests"
grep -Eq "driverName *= *vkppu" "$out" || fail "vulkaninfo lists no vkppu device through the installed ICD manifest"
grep -Eq "^[[:space:]]*VK_LAYER_VKPPU_profiler[[:space:]]+vkppu profiler" "$out" || fail "the installed layer manifest is not found"
if grep -q "ERROR" "$out"; then
  grep "ERROR" "$out" | head -5
  fail "loader errors with the installed manifests"
fi

# The installed tree alone, moved away from the prefix it was installed for,
# with the source and build trees out of reach: vulkaninfo and a sample with
# the profiler layer (check_relocated.sh).
sh "$(dirname "$0")/check_relocated.sh" "$build" "$src" "$root" "$libdir" || fail "the relocated installed tree"

# Uninstall: every file the install wrote, then no file may remain.
while read -r f || [ -n "$f" ]; do rm -f "$stage$f"; done <"$build/install_manifest.txt"
left=$(find "$stage" -type f | head -5)
[ -z "$left" ] || fail "left after removing install_manifest.txt's files: $left"

# The Debian package.
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
  (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
    { tail -20 "$work/cpack.log"; fail "cpack -G DEB"; }
  deb=$(ls "$work"/pkg/*.deb 2>/dev/null | head -1)
  if [ -n "$deb" ]; then
    contents=$(dpkg-deb -c "$deb")
    for f in libvulkan_vkppu.so libVkLayer_vkppu_profiler.so icd.d/vkppu_icd.json \
      explicit_layer.d/VkLayer_vkppu_profiler.json bin/ppu-config; do
      echo "$contents" | grep -q "$f" || fail "the package lacks $f"
    done
    depends=$(dpkg-deb -f "$deb" Depends)
    for d in libvulkan1 libpng16-16 libc6; do
      echo "$depends" | grep -q "$d" || fail "the package does not depend on $d ($depends)"
    done
    echo "package: $(basename "$deb"), Depends: $depends"
  else
    fail "no .deb written"
  fi
fi
[ "$status" -eq 0 ] && echo "ok: install under DESTDIR with --prefix $prefix, vulkaninfo through it, uninstall, package"
exit "$status"
