#!/usr/bin/env bash
# Builds Tessera and runs it on a bundled example model (default: the MLP).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" tessera-opt tessera-translate tessera-compile \
  tessera-prof tessera-run
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

echo
echo "== tensor map summary after lowering to tiles"
"$bin/tessera-opt" "$model" -o /dev/null \
  --pass-pipeline='builtin.module(tgraph-check-compat,tgraph-to-tile{print-stats},tile-map-tensors{summary})'

echo
echo "== compile with profiling: events, dumps and a compile trace in ${build#"$root"/}/demo"
out="$build/demo"
rm -rf "$out" && mkdir -p "$out"
name=$(basename "$model" .hlo)
"$bin/tessera-compile" "$model" -o "$out/$name.tessera" --profiling \
  --dump_to="$out/dumps" --compile_trace="$out/compile-trace.json" \
  --report_directory="$out/reports" --save_vertex_graph="$out/vertex-graph" \
  --executable_cache_dir="$out/cache"
ls "$out" "$out/dumps" "$out/reports"/* "$out/vertex-graph"

echo
echo "== compile the same model again: the executable cache (filled by the compile"
echo "   above) has it, so nothing is compiled (docs/compile.md, \"Executable cache\")"
"$bin/tessera-compile" "$model" -o "$out/again.tessera" --enable_events \
  --executable_cache_dir="$out/cache"
"$bin/tessera-prof" "$out/again.tessera.events" events
cmp "$out/$name.tessera" "$out/again.tessera" &&
  echo "again.tessera is byte-identical to $name.tessera"

echo
echo "== run it 3 times on the model device, check it against the reference interpreter,"
echo "   and profile it: the cycle clock's step time and top ops, and a Chrome trace of"
echo "   the compile and the runs for ui.perfetto.dev (docs/execution.md)"
"$bin/tessera-run" "$out/$name.tessera" --runs=3 --check --profiling \
  --profile_execution=tile --report_directory="$out/reports" \
  --save_interval_report="$out/intervals" --trace_json="$out/trace.json"

echo
echo "== tessera-prof $name.tessera.events events (the compile's and the runs')"
"$bin/tessera-prof" "$out/$name.tessera.events" events

echo
echo "== memory: where the bytes of every tile go (docs/memory.md)"
cat "$out"/dumps/*-memory-usage-report.txt

echo
echo "== tessera-prof overview: the job, the step time, where it went, advice"
"$bin/tessera-prof" "$out/$name.tessera.events" overview

echo
echo "== tessera-prof html: one page of charts and tables, $(basename "$build")/demo/report.html"
"$bin/tessera-prof" "$out/$name.tessera.events" html -o "$out/report.html"
