#!/usr/bin/env bash
# Installs what Tessera needs from Debian's packages. Idempotent and quiet:
# when everything is present it only runs dpkg-query and returns.
set -euo pipefail

PACKAGES=(
  g++ cmake ninja-build git python3 python3-protobuf
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libprotobuf-dev protobuf-compiler libabsl-dev nlohmann-json3-dev
  libsqlite3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libxtensor-dev libtbb-dev python3-numpy
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "tessera setup: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
