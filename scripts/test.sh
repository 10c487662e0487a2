#!/usr/bin/env bash
# Builds everything, installs the trace clients, and runs every test (lit
# suite + GoogleTest units) under ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
bash "$root/scripts/build.sh"
# The trace clients that test/TraceClients loads traces with (npm packages).
bash "$root/scripts/trace-clients.sh"
cd "$build"
ctest --output-on-failure
