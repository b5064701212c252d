#!/bin/sh
# The Debian package on the system itself (issue 30): apt-get installs the
# .deb check_install.sh built, the loader must find the driver and the
# profiler layer with no environment variable (vulkaninfo --summary names
# vkppu and lists VK_LAYER_VKPPU_profiler; VK_INSTANCE_LAYERS alone turns the
# layer on, the loader loading the package's library), then apt-get remove must leave none of
# the package's files behind (dpkg -L, captured before the removal).
#
# It installs into /usr, so it runs only as root on a Debian system with apt
# and without vkppu already installed (it never touches an installation it
# did not make); otherwise it prints why and exits 0. Whatever happens after
# the install, the package is purged on the way out.
#
# usage: check_deb.sh DEB_DIR WORK_DIR
set -u
debdir=$1
work=$2
skip() {
  echo "SKIP: $* (the package was not installed)"
  exit 0
}
[ "$(id -u)" = 0 ] || skip "not root"
command -v apt-get >/dev/null && command -v dpkg >/dev/null && command -v dpkg-query >/dev/null ||
  skip "no apt-get/dpkg here"
[ -f /etc/debian_version ] || skip "not a Debian system"
command -v vulkaninfo >/dev/null || skip "no vulkaninfo"
st=$(dpkg-query -W -f='${Status}' vkppu 2>/dev/null || true)
case "$st" in
  "" | *not-installed) ;;
  *) skip "vkppu is already known to dpkg ($st); not touching it" ;;
esac
deb=$(ls "$debdir"/vkppu_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || {
  echo "FAIL: no vkppu_*.deb in $debdir"
  exit 1
}
# A file of the package already on the system (an earlier cmake --install
# to /usr, say) would be overwritten and then removed: leave such a system alone.
clash=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -n 's|^\./|/|p' | grep -v '/$' |
  while read -r f; do [ -e "$f" ] && echo "$f"; done | head -3)
[ -z "$clash" ] || skip "files of the package exist already: $clash"

rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"
status=0
fail() {
  echo "FAIL: $*"
  status=1
}
# apt's download sandbox user must be able to read the file.
cp "$deb" "$work/" && chmod 644 "$work/$(basename "$deb")"
deb=$work/$(basename "$deb")

apt_opts="-y -q -o DPkg::Lock::Timeout=60 -o Dpkg::Use-Pty=0"
export DEBIAN_FRONTEND=noninteractive
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then
    st=$(dpkg-query -W -f='${Status}' vkppu 2>/dev/null || true)
    case "$st" in
      "" | *not-installed) ;;
      *)
        echo "purging vkppu ($st)"
        timeout 120 apt-get purge $apt_opts vkppu >>"$work/apt.log" 2>&1 ||
          timeout 60 dpkg --purge vkppu >>"$work/apt.log" 2>&1 ||
          echo "WARNING: vkppu could not be purged; run: dpkg --purge vkppu"
        ;;
    esac
  fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

start=$(date +%s)
installed=1
if ! timeout 150 apt-get install $apt_opts --no-install-recommends "$deb" >"$work/apt.log" 2>&1; then
  tail -20 "$work/apt.log"
  fail "apt-get install $deb"
  exit 1
fi
dpkg -L vkppu >"$work/files.txt" || fail "dpkg -L vkppu"
echo "installed $(basename "$deb") ($(wc -l <"$work/files.txt") paths) in $(($(date +%s) - start)) s"

# No variable at all: the loader's default search must find both manifests.
out=$work/vulkaninfo.txt
env -u VK_ICD_FILENAMES -u VK_DRIVER_FILES -u VK_ADD_DRIVER_FILES -u VK_LAYER_PATH \
  -u VK_ADD_LAYER_PATH -u VK_INSTANCE_LAYERS -u VK_LOADER_LAYERS_ENABLE -u VKPPU_HW_CONFIG \
  timeout 60 vulkaninfo --summary >"$out" 2>&1 || fail "vulkaninfo --summary (exit $?)"
grep -Eq "driverName *= *vkppu" "$out" || fail "vulkaninfo --summary lists no device with driverName vkppu, with no variable set"
grep -Eq "^[[:space:]]*VK_LAYER_VKPPU_profiler[[:space:]]+vkppu profiler" "$out" || fail "vulkaninfo --summary does not list VK_LAYER_VKPPU_profiler"
grep -i "vkppu" "$out" | grep -i "error" && fail "loader errors about vkppu"

# VK_INSTANCE_LAYERS alone (no layer path) turns the installed layer on: the
# loader reports loading it from the package's library.
env -u VK_ICD_FILENAMES -u VK_DRIVER_FILES -u VK_ADD_DRIVER_FILES -u VK_LAYER_PATH \
  -u VK_ADD_LAYER_PATH -u VKPPU_HW_CONFIG \
  VK_INSTANCE_LAYERS=VK_LAYER_VKPPU_profiler VKPPU_PROFILER_DIR="$work/profile" VK_LOADER_DEBUG=layer \
  timeout 60 vulkaninfo --summary >"$work/vulkaninfo-layer.txt" 2>&1 ||
  fail "vulkaninfo with VK_INSTANCE_LAYERS=VK_LAYER_VKPPU_profiler (exit $?)"
# The library the loader inserted must be the package's (the manifest names
# it relative to itself: /usr/share/vulkan/explicit_layer.d/../../../lib/...).
layerlib=$(grep '/libVkLayer_vkppu_profiler\.so$' "$work/files.txt" | head -1)
loaded=$(sed -n 's/.*Insert instance layer "VK_LAYER_VKPPU_profiler" (\(.*\))$/\1/p' \
  "$work/vulkaninfo-layer.txt" | head -1)
if [ -z "$loaded" ]; then
  fail "the loader did not insert VK_LAYER_VKPPU_profiler, enabled by name only"
elif [ -z "$layerlib" ] || [ "$(realpath "$loaded")" != "$(realpath "$layerlib")" ]; then
  fail "the loader inserted the layer from $loaded, not the package's ${layerlib:-(none listed by dpkg -L)}"
fi
# vulkaninfo creates a device on vkppu: the layer writes its (empty) files.
for f in counters.csv counters.json trace.json; do
  [ -s "$work/profile/$f" ] || fail "the profiler layer wrote no $f into VKPPU_PROFILER_DIR"
done

# Remove, then nothing of the package may remain.
if ! timeout 120 apt-get remove $apt_opts vkppu >>"$work/apt.log" 2>&1; then
  tail -20 "$work/apt.log"
  fail "apt-get remove vkppu"
fi
# CPack's ldconfig postrm keeps the package in dpkg's "config-files" state
# until a purge; that is a database entry, not a file, as long as the
# package has no conffiles.
st=$(dpkg-query -W -f='${Status}' vkppu 2>/dev/null || true)
case "$st" in
  "" | *not-installed) ;;
  *config-files)
    conf=$(dpkg-query -W -f='${Conffiles}' vkppu 2>/dev/null || true)
    [ -z "$conf" ] || fail "after apt-get remove, conffiles are kept: $conf"
    ;;
  *) fail "after apt-get remove, dpkg still has vkppu: $st" ;;
esac
files=0
left=0
while read -r f; do
  [ -d "$f" ] && continue # directories shared with other packages stay
  files=$((files + 1))
  if [ -e "$f" ] || [ -L "$f" ]; then
    left=$((left + 1))
    [ "$left" -le 5 ] && echo "left behind: $f"
  fi
done <"$work/files.txt"
[ "$left" -eq 0 ] || fail "$left of the package's $files files are left after apt-get remove"
# Directories of our own (any path naming vkppu) go too.
ours=$(grep -i vkppu "$work/files.txt" | while read -r d; do [ -d "$d" ] && echo "$d"; done)
[ -z "$ours" ] || fail "directories left after apt-get remove: $ours"
[ "$files" -gt 0 ] || fail "dpkg -L listed no file"

if [ "$status" -eq 0 ]; then
  echo "ok: apt-get install ./$(basename "$deb"); vulkaninfo finds vkppu and VK_LAYER_VKPPU_profiler" \
    "with no variable; the layer runs by name; apt-get remove leaves none of $files files" \
    "($(($(date +%s) - start)) s)"
fi
exit "$status"
