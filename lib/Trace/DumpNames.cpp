//===- DumpNames.cpp - File names of the TESSERA_FLAGS dumps --------------===//

#include "tessera/Trace/DumpNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace tessera {

std::string sanitizeFileComponent(StringRef name) {
  if (name.empty())
    return "unnamed";
  // A whitelist rather than a blacklist of separators: '.', '/', '\\', ':'
  // NUL and non-ASCII bytes all become '_'. Without '.', no result can be
  // "..", a hidden file, or add a field to the dot-separated dump name.
  std::string safe;
  safe.reserve(name.size());
  for (char c : name)
    safe.push_back(isAlnum(c) || c == '_' || c == '-' ? c : '_');
  if (safe.size() <= kMaxFileComponentLength)
    return safe;
  // Keep a readable prefix plus a hash of the *original* name, so two long
  // names sharing a prefix still get different files.
  std::string hash = utohexstr(xxh3_64bits(name), /*LowerCase=*/true);
  hash = std::string(16 - hash.size(), '0') + hash;
  safe.resize(kMaxFileComponentLength - hash.size() - 1);
  return safe + "_" + hash;
}

std::string dumpModulePrefix(int64_t moduleId) {
  return formatv("module_{0:d4}", moduleId).str();
}

std::string dumpNameBeforeOptimizations(int64_t moduleId,
                                        StringRef moduleName) {
  return dumpModulePrefix(moduleId) + "." + sanitizeFileComponent(moduleName) +
         ".before_optimizations.mlir";
}

std::string dumpNameAfterOptimizations(int64_t moduleId, StringRef moduleName,
                                       StringRef suffix) {
  return dumpModulePrefix(moduleId) + "." + sanitizeFileComponent(moduleName) +
         ".after_optimizations" + suffix.str();
}

std::string dumpNameForPass(int64_t moduleId, int64_t step, StringRef target,
                            StringRef afterPass, StringRef beforePass,
                            StringRef ext) {
  return formatv("{0}.{1:d4}.{2}.after_{3}.before_{4}.{5}",
                 dumpModulePrefix(moduleId), step,
                 sanitizeFileComponent(target),
                 sanitizeFileComponent(afterPass),
                 sanitizeFileComponent(beforePass), sanitizeFileComponent(ext))
      .str();
}

std::string dumpNameWithTimestamp(int64_t unixMicros, StringRef fileName) {
  return std::to_string(unixMicros) + "." + fileName.str();
}

} // namespace tessera
