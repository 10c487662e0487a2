#!/usr/bin/env bash
# Builds everything and runs every test (lit suite + GoogleTest units) under ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure
