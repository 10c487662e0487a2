//===- FlagValidate.cpp - Rules between TESSERA_FLAGS flags ---------------===//
//
// Single flags are checked while parsing; the rules here relate flags to each
// other, so they run once on the final (environment + command line) flags.
// Each message says what conflicts and how to fix it.
//
//===----------------------------------------------------------------------===//

#include "tessera/Trace/Flags.h"

#include "absl/strings/str_join.h"

#include "llvm/Support/Errc.h"

using namespace llvm;

namespace tessera {

Error validateFlags(const TesseraFlags &flags) {
  std::vector<std::string> errors;
  if (flags.profiling && flags.enableEvents)
    errors.push_back(
        "--profiling and --enable_events are mutually exclusive: --profiling "
        "writes compile reports and events, --enable_events writes events "
        "with empty reports; give only one of them");
  if (flags.profileExecution != "none" && !flags.profiling)
    errors.push_back("--profile_execution=" + flags.profileExecution +
                     " requires --profiling");
  // Options that shape reports mean nothing without them; only complain when
  // the user set one explicitly (the defaults are always present).
  for (StringRef name : {"report_directory", "report_format"})
    if (flags.isSet(name) && !flags.profiling)
      errors.push_back(("--" + name + " requires --profiling").str());
  if (flags.isSet("report_every_nth_execution") &&
      flags.profileExecution == "none")
    errors.push_back("--report_every_nth_execution requires "
                     "--profile_execution=device|chip|tile");
  if (flags.serializedGraph && !flags.profiling && !flags.enableEvents)
    errors.push_back("--serialized_graph puts the program into the "
                     "COMPILE_END event: it requires --profiling or "
                     "--enable_events");
  // The bound means nothing without a cache; a lone bound is a mistake
  // (the folder flag forgotten or misspelt), not a request.
  if (flags.isSet("executable_cache_max_bytes") &&
      flags.executableCacheDir.empty())
    errors.push_back("--executable_cache_max_bytes requires "
                     "--executable_cache_dir");
  if (errors.empty())
    return Error::success();
  return createStringError(errc::invalid_argument, "%s",
                           absl::StrJoin(errors, "\n").c_str());
}

} // namespace tessera
