//===- TargetFuzzer.cpp - Target descriptions (JSON) ----------------------===//

#include "FuzzTargets.h"

#include "tessera/Target/TargetJson.h"

int tessera::fuzz::fuzzTargetJson(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<TargetDescription> target = parseTarget(text, "fuzz.json");
  if (!target) {
    llvm::consumeError(target.takeError());
    return 0;
  }
  // docs/targets.md: the canonical JSON of a valid target parses back to it.
  std::string printed = toJson(*target);
  llvm::Expected<TargetDescription> again = parseTarget(printed, "printed");
  if (!again) {
    llvm::errs() << llvm::toString(again.takeError()) << "\n";
    propertyFailed("a valid target's JSON does not parse");
  }
  if (!(*again == *target))
    propertyFailed("a valid target's JSON parses to another target");
  return 0;
}
