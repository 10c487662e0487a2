#!/usr/bin/env bash
# Configures (once) and builds Tessera into build/ with Ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
build=${TESSERA_BUILD_DIR:-$root/build}
# ccache, when installed, makes rebuilds in several clones or worktrees cheap.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# TESSERA_CMAKE_ARGS: more configure options for a new build folder
# (scripts/sanitize.sh passes the sanitizer switch this way).
read -r -a extra <<< "${TESSERA_CMAKE_ARGS:-}"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" "${launcher[@]}" "${extra[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DTESSERA_CORPUS_DIR="$root/../shared/corpus" >/dev/null
fi
# Arguments, if any, are target names.
cmake --build "$build" ${1:+--target "$@"}
