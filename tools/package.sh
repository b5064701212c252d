#!/usr/bin/env bash
# Builds the release tree and the Debian package of vkppu (docs/install.md):
# build/vkppu_<version>_<arch>.deb, with the ICD, the profiler layer, their
# manifests, the command-line tools and the docs under /usr.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh release
(cd build && cpack -G DEB)
ls -1 build/*.deb
