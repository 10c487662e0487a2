#!/usr/bin/env bash
# Installs the trace clients that test/TraceClients loads traces with
# (test/TraceClients/package-lock.json: Chrome DevTools' trace engine and
# speedscope) into BUILD/trace-clients with `npm ci`. Idempotent and quiet:
# when that lock file is already installed it only compares two checksums.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_BUILD_DIR:-$root/build}
src=$root/test/TraceClients
dest=$build/trace-clients

want=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)
if [[ -d "$dest/node_modules" && "$(cat "$dest/.installed" 2>/dev/null)" == "$want" ]]; then
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "trace-clients: npm is missing (scripts/setup.sh installs Debian's nodejs and npm)" >&2
  exit 1
fi
echo "trace-clients: installing the trace clients into $dest" >&2
mkdir -p "$dest"
rm -f "$dest/.installed"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
# npm ci installs exactly the lock file (removing any node_modules first) and
# fails when package.json and the lock file disagree. No install scripts run.
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
echo "$want" > "$dest/.installed"
