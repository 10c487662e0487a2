#!/usr/bin/env bash
# Memory analysis over the shared corpus: per model and preset, the
# allocator's peak over the liveness lower bound, max / mean tile bytes,
# tiles out of memory, and the wall time of each memory pass on the lowered
# program (MLIR's --mlir-timing; the lowering and the verifier, which
# the analysis passes do not need as they leave the IR unchanged, are not
# timed).
#
# Usage: bash bench/memory-corpus.sh [BUILD_DIR] [CORPUS_DIR]
# Results go to stdout; BENCHMARKS.md quotes them.
set -euo pipefail
build=${1:-build}
corpus=${2:-../shared/corpus}
opt="$build/bin/tessera-opt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$corpus"/hlo/*.hlo; do
  for t in tile-1472 core-8; do
    name="$(basename "$f") on $t"
    "$opt" "$f" --tgraph-check-compat=target=$t --tgraph-to-tile \
      -o "$tmp/lowered.mlir"
    echo "$name: $("$opt" "$tmp/lowered.mlir" --tile-print-allocation=print=summary -o /dev/null)"
    "$opt" "$tmp/lowered.mlir" --verify-each=false \
      --tile-liveness --tile-print-allocation --tile-padding \
      --tile-memory-report=format=json --mlir-timing -o /dev/null \
      2>"$tmp/timing" >/dev/null
    awk '/Tile(Liveness|PrintAllocation|Padding|MemoryReport)$/ {
           printf "  %s %s s\n", $NF, $1 }' "$tmp/timing"
  done
done
