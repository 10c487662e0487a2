#!/usr/bin/env bash
# Builds tessera-compile with ThreadSanitizer into build-tsan/ (or
# $TESSERA_TSAN_BUILD_DIR) and compiles models with several compile
# threads (--compile_threads=4), failing on the first data race reported
# (docs/limits.md, "Sanitizers"). Not part of CI: the build takes about
# twenty minutes on 2 cores.
#
#   bash scripts/tsan.sh [CORPUS_DIR]   # default: ../shared/corpus if present
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_TSAN_BUILD_DIR:-$root/build-tsan}
corpus=${1:-$root/../shared/corpus}
TESSERA_BUILD_DIR="$build" \
  TESSERA_CMAKE_ARGS="-DLLVM_USE_SANITIZER=Thread" \
  bash "$root/scripts/build.sh" tessera-compile
# A report exits the compile with 66, which stops this script.
export TSAN_OPTIONS=halt_on_error=1:exitcode=66:report_signal_unsafe=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
models=("$root/test/Compile/Inputs/convnet.mlir")
if [ -d "$corpus" ]; then
  models+=("$corpus"/hlo/*.hlo "$corpus"/tosa/*.mlir)
else
  echo "tsan.sh: no corpus at $corpus; compiling the test model only" >&2
fi
# Reports are built in tasks only when large (docs/compile.md, "Threads
# and memory"); no corpus model is, a generated 3,000-op graph is. Every
# model builds its reports beside the executable writer
# (--reports_alongside=always), which auto does only for large programs.
python3 "$root/bench/gen_hlo.py" --ops 3000 --mix mixed --width 64 --seq 16 \
  --image 4 -o "$out/generated.hlo" > /dev/null
models+=("$out/generated.hlo")
for model in "${models[@]}"; do
  echo "== $(basename "$model")"
  "$build/bin/tessera-compile" "$model" --target=tile-1472 \
    -o "$out/model.tessera" --compile_threads=4 --profiling \
    --report_directory="$out/reports" --reports_alongside=always
done
echo "tsan.sh: ${#models[@]} models compiled, no data race reported"
