//===- FuzzEntry.cpp - libFuzzer's entry point for one target -------------===//
//
// Compiled once per fuzzer binary with TESSERA_FUZZ_ENTRY naming its target
// (fuzz/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return tessera::fuzz::TESSERA_FUZZ_ENTRY(data, size);
}

// Under AddressSanitizer (the fuzz build), the settings scripts/sanitize.sh
// gives the test suite, built in so the binary behaves the same however it
// is run: LLVM's BumpPtrAllocator poisons memory that Debian's
// uninstrumented libMLIR hands out without unpoisoning (every MLIRContext
// would be a false report), and MLIR keeps process-lifetime objects on
// purpose. Defined beside main so every binary links it.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0";
}
