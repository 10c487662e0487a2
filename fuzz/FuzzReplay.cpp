//===- FuzzReplay.cpp - Runs saved inputs through the fuzz targets --------===//
//
//   tessera-fuzz-replay TARGET FILE|FOLDER...
//
// Every file (folders: every file below them) goes through TARGET's fuzz
// function once, as libFuzzer would run it; a crash or a failed property
// stops the process. Built in every build, with any compiler, so the
// fuzz targets keep compiling and test/Fuzz replays the inputs that once
// crashed without the fuzz build (docs/fuzzing.md).
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;
using namespace tessera::fuzz;

namespace {
struct Target {
  StringRef name;
  int (*run)(const uint8_t *, size_t);
};
constexpr Target kTargets[] = {
    {"hlo", fuzzHlo},           {"mlir", fuzzMlir},
    {"target", fuzzTargetJson}, {"flags", fuzzFlags},
    {"events", fuzzEvents},     {"executable", fuzzExecutable},
    {"lowering", fuzzLowering},
};
} // namespace

/// `path`, or every regular file below it, sorted so runs are repeatable.
static std::vector<std::string> inputsOf(StringRef path) {
  if (!sys::fs::is_directory(path))
    return {path.str()};
  std::vector<std::string> files;
  std::error_code ec;
  for (sys::fs::recursive_directory_iterator it(path, ec), end;
       it != end && !ec; it.increment(ec))
    if (sys::fs::is_regular_file(it->path()))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
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

int main(int argc, char **argv) {
  if (argc < 3) {
    errs() << "usage: tessera-fuzz-replay TARGET FILE|FOLDER...\n";
    return 2;
  }
  const Target *target = nullptr;
  for (const Target &t : kTargets)
    if (t.name == argv[1])
      target = &t;
  if (!target) {
    errs() << "tessera-fuzz-replay: error: unknown target '" << argv[1]
           << "' (hlo, mlir, target, flags, events, executable)\n";
    return 2;
  }
  size_t count = 0;
  for (int i = 2; i < argc; ++i) {
    for (const std::string &file : inputsOf(argv[i])) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
          MemoryBuffer::getFile(file, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false);
      if (!buffer) {
        errs() << "tessera-fuzz-replay: error: cannot read '" << file
               << "': " << buffer.getError().message() << "\n";
        return 1;
      }
      StringRef bytes = (*buffer)->getBuffer();
      target->run(reinterpret_cast<const uint8_t *>(bytes.data()),
                  bytes.size());
      ++count;
    }
  }
  outs() << target->name << ": " << count << " inputs, no crash\n";
  return 0;
}
