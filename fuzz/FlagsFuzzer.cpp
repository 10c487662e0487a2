//===- FlagsFuzzer.cpp - TESSERA_FLAGS and flag files ---------------------===//
//
// The input is NUL-separated pieces: the first is the TESSERA_FLAGS text,
// the others the flag files it (and they) may name. Any name reads a piece
// (chosen from the name's bytes), so mutations that rename a file still
// reach one, and files naming each other are easy to reach.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "tessera/Trace/Flags.h"

#include "llvm/Support/Errc.h"

#include <string>
#include <vector>

using namespace llvm;

int tessera::fuzz::fuzzFlags(const uint8_t *data, size_t size) {
  SmallVector<StringRef> pieces;
  StringRef(reinterpret_cast<const char *>(data), size)
      .split(pieces, '\0', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  auto readFile = [&](StringRef path) -> Expected<std::string> {
    if (pieces.size() < 2)
      return createStringError(errc::no_such_file_or_directory, "no such file");
    unsigned sum = 0;
    for (char c : path)
      sum += static_cast<unsigned char>(c);
    return pieces[1 + sum % (pieces.size() - 1)].str();
  };
  Expected<TesseraFlags> flags =
      parseFlags(pieces.front(), "TESSERA_FLAGS", readFile);
  if (!flags) {
    consumeError(flags.takeError());
    return 0;
  }
  consumeError(validateFlags(*flags));

  // What parsed prints back (flagValueText, as --help-flags and the
  // compile report show it) and parses again to the same values.
  std::vector<std::string> args;
  for (const FlagInfo &flag : getFlagRegistry())
    if (flags->isSet(flag.name))
      args.push_back(
          ("--" + flag.name + "=" + flagValueText(*flags, flag)).str());
  Expected<TesseraFlags> again = parseFlagArgs(args, "printed", readFile);
  if (!again) {
    errs() << toString(again.takeError()) << "\n";
    propertyFailed("parsed flags do not parse again as printed");
  }
  for (const FlagInfo &flag : getFlagRegistry())
    if (flagValueText(*flags, flag) != flagValueText(*again, flag))
      propertyFailed("parsed flags print and parse to other values");
  return 0;
}
