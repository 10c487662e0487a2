#!/usr/bin/env bash
# Builds Tessera and runs it on a bundled example model (default: the MLP).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" tessera-opt tessera-translate
bin="$build/bin"
model=${1:-$root/examples/mlp.hlo}

echo "== tgraph module imported from ${model#"$root"/}"
"$bin/tessera-translate" --import-hlo "$model"

echo
echo "== op summary"
"$bin/tessera-opt" "$model" -o /dev/null \
  --pass-pipeline='builtin.module(tgraph-op-stats{format=text})'

echo
echo "== compatibility with the default target"
"$bin/tessera-opt" "$model" -o /dev/null \
  --pass-pipeline='builtin.module(tgraph-check-compat{print=text})'
