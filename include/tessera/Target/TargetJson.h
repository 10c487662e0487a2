//===- TargetJson.h - reading and writing target descriptions ---*- C++ -*-===//
//
// The JSON form of a TargetDescription (docs/targets.md). The parser never
// aborts: every problem becomes an llvm::Error whose message names the bad
// field by its JSON path, e.g. `ops.convolution.max_window: expected a
// non-negative integer, got "7"`; syntax errors carry line:column. Several
// problems are reported together, one per line.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TARGET_TARGETJSON_H
#define TESSERA_TARGET_TARGETJSON_H

#include "tessera/Target/Target.h"

#include "llvm/Support/Error.h"

#include <string>

namespace tessera {

/// Parses and validates a target description. `sourceName` (a file path or
/// "preset NAME") prefixes every error line.
llvm::Expected<TargetDescription> parseTarget(llvm::StringRef jsonText,
                                              llvm::StringRef sourceName);

/// Reads the file at `path` and parses it.
llvm::Expected<TargetDescription> parseTargetFile(llvm::StringRef path);

/// The canonical JSON text of `target` (2-space indent, fields in the
/// documented order, defaults written out). parseTarget(toJson(t)) == t.
std::string toJson(const TargetDescription &target);

} // namespace tessera

#endif // TESSERA_TARGET_TARGETJSON_H
