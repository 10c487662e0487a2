//===- Presets.h - built-in targets and --target resolution -----*- C++ -*-===//
//
// Built-in targets are JSON text compiled into the library (from
// lib/Target/presets/*.json), so they go through the same parser and
// validation as a user's file and can be printed, edited and passed back.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TARGET_PRESETS_H
#define TESSERA_TARGET_PRESETS_H

#include "tessera/Target/Target.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace tessera {

/// The preset used when no --target is given.
llvm::StringRef defaultTargetName();

/// Names of the built-in presets, in a stable order.
std::vector<llvm::StringRef> presetNames();

/// The embedded JSON text of preset `name`, or nullopt.
std::optional<llvm::StringRef> presetJson(llvm::StringRef name);

/// Parses preset `name`; an unknown name is an error listing the presets.
llvm::Expected<TargetDescription> loadPreset(llvm::StringRef name);

/// What `--target=X` means everywhere: X is a preset name, or else a path to
/// a JSON file (anything containing '/' or ending in ".json" is always taken
/// as a path). An unknown name is an error that lists the presets and
/// suggests a close match.
llvm::Expected<TargetDescription> resolveTarget(llvm::StringRef nameOrPath);

} // namespace tessera

#endif // TESSERA_TARGET_PRESETS_H
