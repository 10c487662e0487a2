#!/usr/bin/env bash
# Builds Tessera and runs it on the bundled example model.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" tessera-opt tessera-translate
bin="$build/bin"
model=${1:-$root/examples/mlp.hlo}

echo "== tgraph module imported from ${model#$root/}"
"$bin/tessera-translate" --import-hlo "$model"

echo
echo "== op summary"
"$bin/tessera-opt" "$model" --pass-pipeline='builtin.module(tgraph-op-stats{per-op=false})' -o /dev/null
