#!/usr/bin/env bash
# Builds Tessera and runs the benchmarks: the Google Benchmark micro
# benchmarks (printed), then bench/run.py, which writes BENCHMARKS.md.
# Arguments go to bench/run.py (e.g. --quick, --runs 5).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh" tessera-compile tessera-translate tessera-opt \
  TesseraPlugin tessera-microbench
"$build/bench/tessera-microbench" --benchmark_min_time=0.5
python3 "$root/bench/run.py" "$@"
