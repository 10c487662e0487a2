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

Expected<TesseraFlags> resolveFlags(ArrayRef<std::string> cliArgs) {
  const EnvFlags &env = getEnvFlags();
  std::string errors = env.error;
  Expected<TesseraFlags> cli = parseFlagArgs(cliArgs);
  if (!cli)
    errors += (errors.empty() ? "" : "\n") + toString(cli.takeError());
  if (!errors.empty())
    return createStringError(inconvertibleErrorCode(), errors);

  TesseraFlags merged = mergeFlags(env.flags, *cli);
  if (merged.helpRequested)
    return merged;
  // The rules between flags apply to the merged result: --profile_execution
  // in the environment is fine when --profiling comes from the command line.
  if (Error err = validateFlags(merged)) {
    std::string origin = cliArgs.empty() ? "TESSERA_FLAGS" : "flags";
    return createStringError(
        inconvertibleErrorCode(),
        origin + ": " +
            absl::StrReplaceAll(toString(std::move(err)),
                                {{"\n", "\n" + origin + ": "}}));
  }
  return merged;
}

} // namespace tessera
