#!/usr/bin/env bash
# Configures (once) and builds Tessera into build/ with Ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
build=${TESSERA_BUILD_DIR:-$root/build}
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DTESSERA_CORPUS_DIR="$root/../shared/corpus" >/dev/null
fi
# Arguments, if any, are target names.
cmake --build "$build" ${1:+--target "$@"}
