//===- EnvFlags.cpp - TESSERA_FLAGS from the environment, once ------------===//

#include "tessera/Trace/Flags.h"

#include "absl/strings/str_replace.h"

#include <cstdlib>

using namespace llvm;

namespace tessera {

static EnvFlags parseEnvironment() {
  EnvFlags result;
  const char *text = std::getenv("TESSERA_FLAGS");
  if (!text)
    return result;
  Expected<TesseraFlags> flags = parseFlags(text, "TESSERA_FLAGS");
  if (!flags)
    result.error = toString(flags.takeError());
  else
    result.flags = std::move(*flags);
  return result;
}

const EnvFlags &getEnvFlags() {
  // A function-local static: parsed on first use, once, thread-safely.
  static const EnvFlags flags = parseEnvironment();
  return flags;
}

/// Prints `message` (one problem per line) and exits with status 1.
[[noreturn]] static void exitWithError(StringRef toolName,
                                       const std::string &message) {
  errs() << toolName << ": error: "
         << absl::StrReplaceAll(message,
                                {{"\n", "\n" + toolName.str() + ": error: "}})
         << "\n";
  errs().flush();
  std::exit(1);
}

TesseraFlags resolveFlagsOrExit(StringRef toolName,
                                ArrayRef<std::string> cliArgs) {
  const EnvFlags &env = getEnvFlags();
  std::string errors = env.error;
  Expected<TesseraFlags> cli = parseFlagArgs(cliArgs);
  if (!cli)
    errors += (errors.empty() ? "" : "\n") + toString(cli.takeError());
  if (!errors.empty())
    exitWithError(toolName, errors);

  TesseraFlags merged = mergeFlags(env.flags, *cli);
  if (merged.helpRequested) {
    printFlagHelp(outs());
    outs().flush();
    std::exit(0);
  }
  // The rules between flags apply to the merged result: --profile_execution
  // in the environment is fine when --profiling comes from the command line.
  if (Error err = validateFlags(merged)) {
    std::string origin = cliArgs.empty() ? "TESSERA_FLAGS" : "flags";
    exitWithError(toolName,
                  origin + ": " +
                      absl::StrReplaceAll(toString(std::move(err)),
                                          {{"\n", "\n" + origin + ": "}}));
  }
  return merged;
}

const TesseraFlags &getTesseraFlagsOrExit(StringRef toolName) {
  static const TesseraFlags flags = resolveFlagsOrExit(toolName, {});
  return flags;
}

} // namespace tessera
