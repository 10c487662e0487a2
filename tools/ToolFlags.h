//===- ToolFlags.h - TESSERA_FLAGS in a tool's main() -----------*- C++ -*-===//
//
// The tools' side of resolveFlags (include/tessera/Trace/Flags.h): the
// library returns errors; a tool prints them as "<tool>: error: ..." (one
// line per problem) and exits with status 1, like XLA, and prints every
// flag and exits with status 0 for --help. Header-only, for main()s.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_TOOLFLAGS_H
#define TESSERA_TOOLS_TOOLFLAGS_H

#include "tessera/Trace/Flags.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace tessera {

inline TesseraFlags resolveFlagsOrExit(llvm::StringRef tool,
                                       llvm::ArrayRef<std::string> cliArgs) {
  llvm::Expected<TesseraFlags> flags = resolveFlags(cliArgs);
  if (!flags) {
    llvm::SmallVector<llvm::StringRef> lines;
    std::string message = llvm::toString(flags.takeError());
    llvm::StringRef(message).split(lines, '\n');
    for (llvm::StringRef line : lines)
      llvm::errs() << tool << ": error: " << line << "\n";
    llvm::errs().flush();
    std::exit(1);
  }
  if (flags->helpRequested) {
    printFlagHelp(llvm::outs());
    llvm::outs().flush();
    std::exit(0);
  }
  return std::move(*flags);
}

} // namespace tessera

#endif // TESSERA_TOOLS_TOOLFLAGS_H
