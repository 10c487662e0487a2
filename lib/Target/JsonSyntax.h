//===- JsonSyntax.h - JSON text to a DOM, without exceptions ----*- C++ -*-===//
//
// Internal to TesseraTarget. nlohmann::json aborts on malformed input when
// exceptions are off (as they are in LLVM-built targets), and its
// non-throwing parse only says "discarded". This reader goes through the SAX
// interface instead, so a syntax error keeps its line and column, and a
// duplicate key (which nlohmann would silently overwrite) is an error that
// names its path.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_TARGET_JSONSYNTAX_H
#define TESSERA_LIB_TARGET_JSONSYNTAX_H

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace tessera {
namespace target_detail {

/// Objects keep their keys in file order, so a description round-trips with
/// its ops in the order the author wrote them.
using Json = nlohmann::ordered_json;

/// Parses `text`. On failure returns nullopt and sets `error` to
/// "SOURCE:LINE:COL: message" (syntax) or "SOURCE: PATH: duplicate key 'K'".
std::optional<Json> parseJsonText(llvm::StringRef text,
                                  llvm::StringRef sourceName,
                                  std::string &error);

/// The JSON path of `key` inside the object at `parent` ("a.b", or
/// `a["odd key"]` when the key is not a plain identifier).
std::string childPath(llvm::StringRef parent, llvm::StringRef key);
/// The JSON path of element `index` of the array at `parent` ("a[2]").
std::string indexPath(llvm::StringRef parent, size_t index);

} // namespace target_detail
} // namespace tessera

#endif // TESSERA_LIB_TARGET_JSONSYNTAX_H
