#!/usr/bin/env bash
# Installs what Tessera needs from Debian's packages. Idempotent and quiet:
# when everything is present it only runs dpkg-query and returns.
#   --fuzz     also clang-19 and its libFuzzer runtime, for scripts/fuzz.sh
#   --profile  also heaptrack, for the peak-RSS profiles of BENCHMARKS.md,
#              and valgrind, for bench/scaling_profile.py's callgrind counts
set -euo pipefail

PACKAGES=(
  g++ cmake ninja-build git python3 python3-protobuf chromium
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools
  libprotobuf-dev protobuf-compiler libabsl-dev nlohmann-json3-dev
  libsqlite3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libeigen3-dev libxtensor-dev libtbb-dev python3-numpy
  python3-cbor2 nodejs npm
  # tessera-compile's heap (CMakeLists.txt, TESSERA_JEMALLOC).
  libjemalloc-dev
  # LLVMSupport's link interface names zlib and zstd (the tools link LLVM
  # statically, docs/building.md); CMake needs their -dev files to resolve
  # it, though the linker keeps neither unless a tool calls it.
  zlib1g-dev libzstd-dev
)
if [[ "${1:-}" == "--fuzz" ]]; then
  PACKAGES+=(clang-19 libclang-rt-19-dev)
fi
if [[ "${1:-}" == "--profile" ]]; then
  PACKAGES+=(heaptrack valgrind)
fi

# A name is present when a package of that name is installed, or when an
# installed package provides it (a nodejs built elsewhere provides npm and
# conflicts with Debian's).
installed=" $(dpkg-query -W -f='${db:Status-Abbrev}${Package} ${Provides}\n' 2>/dev/null |
  awk '/^ii /{sub(/^ii +/, ""); gsub(/ *\([^)]*\)/, ""); gsub(/,/, " "); print}' |
  tr '\n' ' ') "
missing=()
for p in "${PACKAGES[@]}"; do
  [[ "$installed" == *" $p "* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "tessera setup: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
