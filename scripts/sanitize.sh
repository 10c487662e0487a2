#!/usr/bin/env bash
# Builds Tessera with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ (or $TESSERA_ASAN_BUILD_DIR) and runs the whole test suite
# there (docs/limits.md, "Sanitizers"). Not part of CI: on 2 cores the
# build takes about half an hour and the suite runs 3-4x slower.
#
#   bash scripts/sanitize.sh            # build and run every test
#   bash scripts/sanitize.sh -R lit     # extra arguments go to ctest
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSERA_ASAN_BUILD_DIR:-$root/build-asan}
# LLVM_USE_SANITIZER is HandleLLVMOptions' switch: it adds -fsanitize=...
# (and the flags that keep UBSan's vptr check off, which needs RTTI that
# Debian's LLVM is built without) to every target of ours.
TESSERA_BUILD_DIR="$build" \
  TESSERA_CMAKE_ARGS="-DLLVM_USE_SANITIZER=Address;Undefined" \
  bash "$root/scripts/build.sh"
TESSERA_BUILD_DIR="$build" bash "$root/scripts/trace-clients.sh"
# Leaks are not errors: MLIR and llvm::cl keep process-lifetime objects on
# purpose. Any other report stops the process with a non-zero exit, which
# fails its test. The plugin test loads our library into the stock
# (uninstrumented) mlir-opt, so the runtime cannot come first there.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs when
# its header is compiled with ASan (our code) and unpoisons each allocation
# in its inline Allocate -- which Debian's uninstrumented libMLIR compiled
# without the unpoisoning, so every MLIRContext would report a false
# use-after-poison. (The allocator's own poisoning cannot work across that
# boundary anyway; the instrumentation of our code is unaffected.)
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:verify_asan_link_order=0:allow_user_poisoning=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
cd "$build"
ctest --output-on-failure "$@"
