//===- ExecutableFuzzer.cpp - The runtime's executable loader -------------===//
//
// An input that starts with the executable's magic is a whole file: the
// container check (header, sizes, checksum) then the loader. Any other
// input is taken as the payload alone, the serialized Executable message,
// so that mutations reach the loader instead of failing the checksum;
// it is wrapped in a header and read back as tessera-run would read it.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "tessera/Runtime/ExecutableFile.h"
#include "tessera/Runtime/Program.h"

using namespace llvm;
using namespace tessera;
using namespace tessera::runtime;

static void load(exe::Executable executable) {
  Expected<std::unique_ptr<Program>> program =
      Program::load(std::move(executable), "fuzz.tessera");
  if (!program)
    consumeError(program.takeError());
}

int tessera::fuzz::fuzzExecutable(const uint8_t *data, size_t size) {
  StringRef bytes(reinterpret_cast<const char *>(data), size);
  if (bytes.starts_with("TSRAEXE\n")) {
    Expected<exe::Executable> decoded = decodeExecutable(bytes, "fuzz.tessera");
    if (!decoded) {
      consumeError(decoded.takeError());
      return 0;
    }
    load(std::move(*decoded));
    return 0;
  }
  exe::Executable payload;
  if (!payload.ParseFromArray(data, static_cast<int>(size)))
    return 0;
  // The compiler always writes its own version (decodeExecutable checks
  // it); a mutated one would stop every input before the loader.
  payload.set_format_version(kExecutableFormatVersion);
  Expected<std::string> file = encodeExecutable(payload);
  if (!file) {
    consumeError(file.takeError());
    return 0;
  }
  Expected<exe::Executable> decoded = decodeExecutable(*file, "fuzz.tessera");
  if (!decoded) {
    errs() << toString(decoded.takeError()) << "\n";
    propertyFailed("an encoded executable does not decode");
  }
  load(std::move(*decoded));
  return 0;
}
