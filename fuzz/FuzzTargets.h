//===- FuzzTargets.h - The fuzz targets' entry points ------------*- C++
//-*-===//
//
// One function per input a user hands the tools (docs/fuzzing.md). Each
// takes arbitrary bytes, runs them through the same code the tools run, and
// returns normally whatever the bytes are: a crash, a sanitizer report, a
// hang or an unbounded allocation is a bug. Where the code promises more
// than "no crash" (a target that parses prints back to itself), the target
// checks that too and traps when it does not hold.
//
// The same functions are linked two ways: into one libFuzzer binary each
// (FuzzEntry.cpp, TESSERA_FUZZ=ON, clang) and into tessera-fuzz-replay
// (FuzzReplay.cpp, every build), which runs saved inputs through them so
// the targets keep compiling and the inputs that once crashed keep passing.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FUZZ_FUZZTARGETS_H
#define TESSERA_FUZZ_FUZZTARGETS_H

#include <cstddef>
#include <cstdint>

namespace tessera::fuzz {

/// XLA HLO text through the importer (parse, emit, verify).
int fuzzHlo(const uint8_t *data, size_t size);
/// MLIR text (tgraph, tile, TOSA and the dialects beside it) through the
/// nesting check and MLIR's parser, which verifies.
int fuzzMlir(const uint8_t *data, size_t size);
/// A target description (JSON); what parses must print and parse back
/// to the same description.
int fuzzTargetJson(const uint8_t *data, size_t size);
/// TESSERA_FLAGS text and the flag files it names (the input's NUL-separated
/// pieces); what parses must print and parse back to the same values.
int fuzzFlags(const uint8_t *data, size_t size);
/// An event file: the whole-file parser and the streaming reader must agree,
/// and every event must describe and extract without a crash.
int fuzzEvents(const uint8_t *data, size_t size);
/// An executable: the container check, then the payload (the input itself
/// when it is not a container) through the runtime's loader.
int fuzzExecutable(const uint8_t *data, size_t size);

/// A model that imports (XLA HLO text, or MLIR: tgraph, TOSA), compiled
/// (core-8 or tile-1472), run on the model device, and checked: every op
/// against the reference interpreter, and the allocator's storage against
/// storage of every buffer's own.
int fuzzLowering(const uint8_t *data, size_t size);

/// Stops the process so the fuzzer records the input: a property the code
/// promises does not hold.
[[noreturn]] void propertyFailed(const char *what);

} // namespace tessera::fuzz

#endif // TESSERA_FUZZ_FUZZTARGETS_H
