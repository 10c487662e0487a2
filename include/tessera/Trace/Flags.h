//===- Flags.h - TESSERA_FLAGS: registry, parsing, merging -------*- C++
//-*-===//
//
// TESSERA_FLAGS is parsed like XLA_FLAGS: whitespace-separated --name=value
// entries (values may be quoted), bools as --name or --name=true|false|1|0,
// and a token not starting with '-' names a file of more flags. The flags
// themselves are listed once, in Flags.def.
//
// Parsing is a pure function (parseFlags) so it is testable; getEnvFlags()
// parses the environment once per process and caches the result. Command-line
// flags use the same parser and win over the environment (mergeFlags).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_FLAGS_H
#define TESSERA_TRACE_FLAGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace tessera {

enum class FlagType { Bool, Int, String, Enum };
enum class FlagGroup { Dump, Report, Compile, Runtime };

struct TesseraFlags;

/// Registry entry of one flag.
struct FlagInfo {
  llvm::StringRef name;
  FlagType type;
  FlagGroup group;
  /// Default in the text form accepted on the command line.
  llvm::StringRef defaultValue;
  /// Placeholder shown in help ("DIR", "N"); empty for bools.
  llvm::StringRef metavar;
  llvm::StringRef help;
  /// Enum choices separated by '|'.
  llvm::StringRef choices;
  /// Smallest accepted value of an Int flag.
  int64_t minValue = 0;
  /// String flags holding a regular expression, checked when parsed.
  bool isRegex = false;

  bool *boolField(TesseraFlags &flags) const;
  int64_t *intField(TesseraFlags &flags) const;
  std::string *stringField(TesseraFlags &flags) const;
  const bool *boolField(const TesseraFlags &flags) const;
  const int64_t *intField(const TesseraFlags &flags) const;
  const std::string *stringField(const TesseraFlags &flags) const;
};

/// Every flag, in Flags.def order.
llvm::ArrayRef<FlagInfo> getFlagRegistry();
/// The registry entry named `name` (without dashes), or null.
const FlagInfo *findFlag(llvm::StringRef name);
/// Names of registered flags close to `name` (edit distance), best first.
std::vector<std::string> suggestFlags(llvm::StringRef name);

/// Parsed flag values; a default-constructed object holds every default.
struct TesseraFlags {
#define BOOL_FLAG(G, N, FIELD, DEFAULT, H) bool FIELD = DEFAULT;
#define INT_FLAG(G, N, FIELD, DEFAULT, MIN, MV, H) int64_t FIELD = DEFAULT;
#define STRING_FLAG(G, N, FIELD, DEFAULT, MV, H) std::string FIELD = DEFAULT;
#define REGEX_FLAG(G, N, FIELD, MV, H) std::string FIELD;
#define ENUM_FLAG(G, N, FIELD, DEFAULT, CHOICES, H) std::string FIELD = DEFAULT;
#include "tessera/Trace/Flags.def"

  /// Names of the flags given explicitly (merging needs to know them).
  std::set<std::string> explicitlySet;
  /// --help was given: the caller prints printFlagHelp and stops.
  bool helpRequested = false;

  bool isSet(llvm::StringRef name) const {
    return explicitlySet.count(name.str()) != 0;
  }
  /// MLIR text is dumped when asked for, or when no dump format is given.
  bool dumpsText() const { return dumpAsText || (!dumpAsDot && !dumpAsProto); }
};

/// Current value of `flag` in `flags`, in command-line text form.
std::string flagValueText(const TesseraFlags &flags, const FlagInfo &flag);

/// Reads a flag file; the default reads the file system.
using FlagFileReader =
    llvm::function_ref<llvm::Expected<std::string>(llvm::StringRef path)>;

/// Parses `text` (a TESSERA_FLAGS value) on top of `flags`. `origin` names
/// the source in messages ("TESSERA_FLAGS", "command line"). Every problem
/// found is reported, one per line, in the returned error; `flags` is then
/// partially updated and should be discarded.
llvm::Error parseFlagsInto(llvm::StringRef text, llvm::StringRef origin,
                           TesseraFlags &flags,
                           FlagFileReader readFile = nullptr);

/// Parses `text` on top of the defaults.
llvm::Expected<TesseraFlags>
parseFlags(llvm::StringRef text, llvm::StringRef origin = "TESSERA_FLAGS",
           FlagFileReader readFile = nullptr);

/// Parses already-split arguments (argv entries) on top of the defaults.
llvm::Expected<TesseraFlags>
parseFlagArgs(llvm::ArrayRef<std::string> args,
              llvm::StringRef origin = "command line",
              FlagFileReader readFile = nullptr);

/// `env` overridden by every flag given explicitly in `cli`.
TesseraFlags mergeFlags(const TesseraFlags &env, const TesseraFlags &cli);

/// Checks the rules between flags (profiling vs enable_events, ...). Run it
/// on the final, merged flags.
llvm::Error validateFlags(const TesseraFlags &flags);

/// Prints every flag with its default and help.
void printFlagHelp(llvm::raw_ostream &os);

/// The environment's flags, parsed once per process (cached). Not validated:
/// the rules between flags apply to the final flags, after command-line flags
/// are merged in (see resolveFlags).
struct EnvFlags {
  TesseraFlags flags;
  /// Empty when TESSERA_FLAGS parsed cleanly (or is unset).
  std::string error;
};
const EnvFlags &getEnvFlags();

/// TESSERA_FLAGS merged with the command-line flag arguments `cliArgs`
/// (which win), then validated. An error holds one problem per line, each
/// naming where it comes from ("TESSERA_FLAGS: ...", "flags: ..."). With
/// --help the flags come back with helpRequested set and unvalidated. The
/// tools print and exit (tools/ToolFlags.h); a library never exits.
llvm::Expected<TesseraFlags> resolveFlags(llvm::ArrayRef<std::string> cliArgs);

} // namespace tessera

#endif // TESSERA_TRACE_FLAGS_H
