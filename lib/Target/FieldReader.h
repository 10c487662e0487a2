//===- FieldReader.h - typed, path-naming reads of JSON values -*- C++ -*-===//
//
// Internal to TesseraTarget. The generic half of validation: read a JSON
// value as a given type, and on a mismatch record "PATH: expected ..., got
// ..." instead of failing. TargetParser.cpp holds the target-specific rules.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_TARGET_FIELDREADER_H
#define TESSERA_LIB_TARGET_FIELDREADER_H

#include "JsonSyntax.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tessera {
namespace target_detail {

/// Collects "PATH: message" lines.
class Diagnostics {
public:
  void error(llvm::StringRef path, const llvm::Twine &message) {
    lines.push_back(
        ((path.empty() ? llvm::StringRef("target") : path) + ": " + message)
            .str());
  }
  bool empty() const { return lines.empty(); }
  size_t count() const { return lines.size(); }
  llvm::Error take(llvm::StringRef sourceName) {
    std::string text;
    for (const std::string &line : lines)
      text += (sourceName + ": " + line + "\n").str();
    text.pop_back();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
  }

private:
  std::vector<std::string> lines;
};

/// A short rendering of a JSON value for "got ..." messages.
std::string describe(const Json &value);

/// Reads an integer >= `min` (0 or 1) and <= `max`. Integral floats such as
/// 1.33e9 are accepted so large rates can be written in exponent form.
std::optional<int64_t>
readInt(const Json &value, llvm::StringRef path, int64_t min,
        Diagnostics &diag,
        int64_t max = std::numeric_limits<int64_t>::max());
std::optional<bool> readBool(const Json &value, llvm::StringRef path,
                             Diagnostics &diag);
std::optional<std::string> readString(const Json &value, llvm::StringRef path,
                                      Diagnostics &diag);

/// Reads a list of distinct non-empty strings. `check` validates each name
/// and returns an error message, or "" when the name is fine.
std::optional<std::vector<std::string>>
readNameList(const Json &value, llvm::StringRef path, bool allowEmpty,
             llvm::function_ref<std::string(llvm::StringRef)> check,
             Diagnostics &diag);

/// "unknown WHAT 'NAME'", plus a "did you mean" when a candidate is close.
std::string unknownNameMessage(llvm::StringRef what, llvm::StringRef name,
                               llvm::ArrayRef<llvm::StringRef> candidates);

/// Reads the fields of one JSON object and afterwards rejects the keys no
/// one asked for, suggesting the closest known key.
class ObjectReader {
public:
  /// Null when `value` is not an object (the error is recorded).
  static std::optional<ObjectReader> open(const Json &value, std::string path,
                                          Diagnostics &diag) {
    if (!value.is_object()) {
      diag.error(path, "expected an object, got " + describe(value));
      return std::nullopt;
    }
    return ObjectReader(value, std::move(path), diag);
  }

  const std::string &path() const { return objectPath; }
  std::string pathOf(llvm::StringRef key) const {
    return childPath(objectPath, key);
  }

  /// The value of `key`, or null when absent (an error if `required`).
  const Json *field(llvm::StringRef key, bool required) {
    known.push_back(key.str());
    auto it = object->find(key.str());
    if (it == object->end()) {
      if (required)
        diag.error(pathOf(key), "required field is missing");
      return nullptr;
    }
    return &*it;
  }

  std::optional<int64_t>
  intField(llvm::StringRef key, bool required, int64_t min,
           int64_t max = std::numeric_limits<int64_t>::max()) {
    const Json *value = field(key, required);
    return value ? readInt(*value, pathOf(key), min, diag, max)
                 : std::nullopt;
  }

  /// Reads an optional integer into `out`, leaving its default when absent.
  void optionalInt(llvm::StringRef key, int64_t min, int64_t &out) {
    if (std::optional<int64_t> v = intField(key, /*required=*/false, min))
      out = *v;
  }

  /// Reports every key of the object that no field() call asked for.
  void rejectUnknownKeys();

private:
  ObjectReader(const Json &object, std::string path, Diagnostics &diag)
      : object(&object), objectPath(std::move(path)), diag(diag) {}

  const Json *object;
  std::string objectPath;
  Diagnostics &diag;
  std::vector<std::string> known;
};

} // namespace target_detail
} // namespace tessera

#endif // TESSERA_LIB_TARGET_FIELDREADER_H
