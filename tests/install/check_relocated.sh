#!/bin/sh
# Runs vulkaninfo and a sample with the profiler layer from an installed
# tree only (issue 30): the tree check_install.sh staged is copied to a
# fresh folder outside the source and build trees (a path the install never
# named, so the manifests' relative library paths are what finds the
# libraries), the loader is pointed at the copy's manifests alone
# (VK_ICD_FILENAMES/VK_DRIVER_FILES, VK_LAYER_PATH, not VK_ADD_LAYER_PATH),
# and, where a mount namespace can be had (root, or unprivileged user
# namespaces), the source and build trees are hidden under empty tmpfs
# mounts while the programs run. Then:
#   * no RPATH/RUNPATH of an installed binary or the copied sample, and no
#     library ldd resolves, lies in the source or build tree;
#   * vulkaninfo --summary names vkppu and lists VK_LAYER_VKPPU_profiler,
#     with no loader error;
#   * compute_mandelbrot (copied out of the build tree) runs on vkppu with
#     VK_INSTANCE_LAYERS=VK_LAYER_VKPPU_profiler, writes its PNG, and the
#     profiler writes counters.csv (a row per submit), counters.json and
#     trace.json into VKPPU_PROFILER_DIR;
#   * with strace available, no process opened, stat'ed or executed any path
#     in the source or build tree, apart from the sample's own SPIR-V file
#     (its path is compiled into the sample, so it is put back at that path
#     inside the hidden tree; the driver and layer get nothing there);
#     without strace, LD_DEBUG=libs shows no library searched or loaded there.
#
# VKPPU_INSTALL_TEST_NO_NAMESPACE=1 skips the hiding (as on a machine with
# no namespaces), VKPPU_INSTALL_TEST_NO_STRACE=1 the strace check (as on a
# machine without strace), to try the other checks alone.
#
# usage: check_relocated.sh BUILD_DIR SOURCE_DIR INSTALLED_PREFIX_DIR LIBDIR
set -u
build=$(cd "$1" && pwd -P)
src=$(cd "$2" && pwd -P)
root=$3
libdir=$4
status=0
fail() {
  echo "FAIL: $*"
  status=1
}
under() { # under PATH DIR: PATH is DIR or lies in it
  case "$1" in "$2" | "$2"/*) return 0 ;; esac
  return 1
}

# Outside the source and build trees, whatever TMPDIR says.
base=${TMPDIR:-/tmp}
if under "$(cd "$base" && pwd -P)" "$src" || under "$(cd "$base" && pwd -P)" "$build"; then
  base=/tmp
fi
moved=$(mktemp -d "$base/vkppu-relocated.XXXXXX") || {
  echo "FAIL: mktemp"
  exit 1
}
moved=$(cd "$moved" && pwd -P)
trap 'rm -rf "$moved"' EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$moved"
cp -a "$root" "$moved/vkppu" || {
  echo "FAIL: copying the installed tree"
  exit 1
}
prefix=$moved/vkppu
mkdir -p "$moved/app" "$moved/out"
sample=$build/samples/compute_mandelbrot/compute_mandelbrot
spv=$build/samples/compute_mandelbrot/mandelbrot.spv
cp "$sample" "$moved/app/" && cp "$spv" "$moved/app/" || {
  echo "FAIL: copying the sample out of the build tree"
  exit 1
}

# Static: nothing installed (or the sample) names the trees to find libraries.
for f in "$prefix/$libdir/libvulkan_vkppu.so" "$prefix/$libdir/libVkLayer_vkppu_profiler.so" \
  "$prefix"/bin/* "$moved/app/compute_mandelbrot"; do
  if command -v readelf >/dev/null; then
    rp=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p')
    for p in $(echo "$rp" | tr ':' ' '); do
      if under "$p" "$src" || under "$p" "$build"; then
        fail "$f has RPATH/RUNPATH $p in the source or build tree"
      fi
    done
  fi
  deps=$(ldd "$f" 2>&1) || fail "ldd $f: $deps"
  echo "$deps" | grep -q "not found" && fail "$f: a library is not found: $(echo "$deps" | grep 'not found')"
  echo "$deps" | grep -Fq -e "$src/" -e "$build/" &&
    fail "$f loads a library from the source or build tree: $(echo "$deps" | grep -F -e "$src/" -e "$build/")"
done

# The programs, with a clean environment: only the copy's manifests.
# Without strace, the dynamic linker's own trace (LD_DEBUG=libs) still shows
# every library loaded, the dlopen'ed driver and layer included.
tracer=
lddebug=
if [ "${VKPPU_INSTALL_TEST_NO_STRACE:-0}" != 1 ] && command -v strace >/dev/null &&
  strace -f -qq -o /dev/null true 2>/dev/null; then
  tracer="strace -f -qq -e trace=%file,%process -o"
else
  lddebug="LD_DEBUG=libs LD_DEBUG_OUTPUT=$moved/out/lddebug"
fi
cat >"$moved/run.sh" <<EOF
#!/bin/sh
# Written by check_relocated.sh; runs with the source and build trees hidden
# when a mount namespace was available.
cd "$moved" || exit 1
icd=$prefix/share/vulkan/icd.d/vkppu_icd.json
rc=0
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$moved" $lddebug \\
  VK_ICD_FILENAMES=\$icd VK_DRIVER_FILES=\$icd \\
  VK_LAYER_PATH=$prefix/share/vulkan/explicit_layer.d \\
  VK_INSTANCE_LAYERS=VK_LAYER_VKPPU_profiler VKPPU_PROFILER_DIR=$moved/out/profile-vulkaninfo \\
  timeout 60 ${tracer:+$tracer $moved/out/strace-vulkaninfo.txt} vulkaninfo --summary \\
  >$moved/out/vulkaninfo.txt 2>&1 || rc=1
echo "vulkaninfo exit: \$rc" >>$moved/out/vulkaninfo.txt
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$moved" $lddebug \\
  VK_ICD_FILENAMES=\$icd VK_DRIVER_FILES=\$icd \\
  VK_LAYER_PATH=$prefix/share/vulkan/explicit_layer.d \\
  VK_INSTANCE_LAYERS=VK_LAYER_VKPPU_profiler VKPPU_PROFILER_DIR=$moved/out/profile \\
  timeout 90 ${tracer:+$tracer $moved/out/strace-sample.txt} $moved/app/compute_mandelbrot \\
  --width 96 --height 64 --iterations 64 --output $moved/out/mandelbrot.png \\
  >$moved/out/sample.txt 2>&1 || rc=\$((rc | 2))
exit \$rc
EOF

# Hide the trees: an empty tmpfs over each (the build tree may lie outside
# the source tree), then the sample's SPIR-V alone at its compiled-in path.
hide="mount -t tmpfs -o size=1m,mode=0755 vkppu-hidden '$src'"
under "$build" "$src" || hide="$hide && mount -t tmpfs -o size=1m,mode=0755 vkppu-hidden '$build'"
hide="$hide && mkdir -p '$(dirname "$spv")' && cp '$moved/app/mandelbrot.spv' '$spv'"
hide="$hide && [ ! -e '$build/CMakeCache.txt' ] && [ ! -e '$src/CMakeLists.txt' ]"
hidden=
[ "${VKPPU_INSTALL_TEST_NO_NAMESPACE:-0}" = 1 ] && echo "VKPPU_INSTALL_TEST_NO_NAMESPACE=1: not hiding the trees"
[ "${VKPPU_INSTALL_TEST_NO_NAMESPACE:-0}" = 1 ] ||
for ns in "unshare --mount --propagation private" "unshare --user --map-root-user --mount --propagation private"; do
  if $ns sh -c "cd / && $hide" 2>/dev/null; then
    hidden=$ns
    break
  fi
done
if [ -n "$hidden" ]; then
  echo "running from $prefix with $src and $build hidden ($hidden)"
  (cd / && $hidden sh -c "$hide && exec sh '$moved/run.sh'")
  rc=$?
else
  echo "no mount namespace here: running from $prefix with the trees in place;" \
    "${tracer:+strace checks what is opened}${lddebug:+LD_DEBUG=libs checks what is loaded}"
  (cd / && sh "$moved/run.sh")
  rc=$?
fi
[ $((rc & 1)) -eq 0 ] || {
  tail -20 "$moved/out/vulkaninfo.txt"
  fail "vulkaninfo from the relocated tree"
}
[ $((rc & 2)) -eq 0 ] || {
  tail -20 "$moved/out/sample.txt"
  fail "compute_mandelbrot from the relocated tree"
}

out=$moved/out/vulkaninfo.txt
grep -Eq "driverName *= *vkppu" "$out" || fail "vulkaninfo lists no device with driverName vkppu (relocated tree)"
grep -Eq "^[[:space:]]*VK_LAYER_VKPPU_profiler[[:space:]]+vkppu profiler" "$out" || fail "vulkaninfo does not list the profiler layer (relocated tree)"
if grep -q "ERROR" "$out"; then
  grep "ERROR" "$out" | head -5
  fail "loader errors with the relocated manifests"
fi
[ -s "$moved/out/mandelbrot.png" ] || fail "the sample wrote no PNG"
prof=$moved/out/profile
for f in counters.csv counters.json trace.json; do
  [ -s "$prof/$f" ] || fail "the profiler wrote no $f (VKPPU_PROFILER_DIR=$prof)"
done
rows=0
[ -f "$prof/counters.csv" ] && rows=$(($(wc -l <"$prof/counters.csv") - 1))
[ "$rows" -ge 1 ] || fail "counters.csv has no row"
if command -v python3 >/dev/null; then
  for f in counters.json trace.json; do
    [ -f "$prof/$f" ] && ! python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$prof/$f" 2>/dev/null &&
      fail "$f does not parse"
  done
fi

# Which paths in the trees were touched (strace), the sample's SPIR-V aside.
if [ -n "$tracer" ]; then
  for t in "$moved"/out/strace-*.txt; do
    [ -f "$t" ] || { fail "strace wrote no log"; continue; }
    hits=$(grep -F -e "\"$src/" -e "\"$src\"" -e "\"$build/" -e "\"$build\"" "$t" | grep -Fv "\"$spv\"" | head -5)
    [ -z "$hits" ] || fail "$(basename "$t"): paths in the source or build tree were used:
$hits"
  done
  checked="strace: nothing in the trees opened"
else
  n=0
  for t in "$moved"/out/lddebug.*; do
    [ -f "$t" ] || continue
    n=$((n + 1))
    hits=$(grep -F -e "$src/" -e "$build/" "$t" | head -5)
    [ -z "$hits" ] || fail "$(basename "$t"): libraries searched or loaded in the source or build tree:
$hits"
  done
  [ "$n" -gt 0 ] || fail "LD_DEBUG wrote no trace"
  checked="no strace; LD_DEBUG=libs: no library from the trees"
fi
if [ "$status" -eq 0 ]; then
  how="trees not hidden"
  [ -z "$hidden" ] || how="trees hidden"
  echo "ok: relocated tree ($prefix, $how, $checked):" \
    "vulkaninfo lists vkppu and VK_LAYER_VKPPU_profiler; compute_mandelbrot ran with the layer," \
    "counters.csv has $rows row(s)"
else
  rm -rf "$prefix" "$moved/app"
  echo "relocated run logs: $moved/out (kept)"
  trap - EXIT
fi
exit "$status"
