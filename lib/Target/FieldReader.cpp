//===- FieldReader.cpp - typed, path-naming reads of JSON values ----------===//

#include "FieldReader.h"

#include "tessera/Target/TargetSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <limits>

using namespace tessera;
using namespace tessera::target_detail;
using llvm::StringRef;

/// A short rendering of a JSON value for "got ..." messages.
std::string target_detail::describe(const Json &value) {
  std::string text = value.dump();
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  if (value.is_object())
    return "an object " + text;
  if (value.is_array())
    return "an array " + text;
  return text;
}

std::optional<int64_t> target_detail::readInt(const Json &value, StringRef path,
                                              int64_t min, Diagnostics &diag,
                                              int64_t max) {
  StringRef expected = min > 0 ? "expected a positive integer"
                               : "expected a non-negative integer";
  std::optional<int64_t> result;
  if (value.is_number_integer() && !value.is_number_unsigned()) {
    result = value.get<int64_t>();
  } else if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      result = static_cast<int64_t>(u);
  } else if (value.is_number_float()) {
    // Range first: converting an out-of-range double to int64 is undefined.
    double d = value.get<double>();
    if (d < 9.2e18 && d > -9.2e18 &&
        d == static_cast<double>(static_cast<int64_t>(d)))
      result = static_cast<int64_t>(d);
  }
  if (!result || *result < min) {
    diag.error(path, expected + ", got " + describe(value));
    return std::nullopt;
  }
  if (*result > max) {
    diag.error(path, "at most " + std::to_string(max) + " is supported, got " +
                         describe(value));
    return std::nullopt;
  }
  return result;
}

std::optional<bool> target_detail::readBool(const Json &value, StringRef path,
                                            Diagnostics &diag) {
  if (!value.is_boolean()) {
    diag.error(path, "expected true or false, got " + describe(value));
    return std::nullopt;
  }
  return value.get<bool>();
}

std::optional<std::string> target_detail::readString(const Json &value,
                                                     StringRef path,
                                                     Diagnostics &diag) {
  if (!value.is_string()) {
    diag.error(path, "expected a string, got " + describe(value));
    return std::nullopt;
  }
  return value.get<std::string>();
}

/// Reads a list of distinct non-empty strings. `check` validates each name
/// and returns an error message, or "" when the name is fine.
std::optional<std::vector<std::string>>
target_detail::readNameList(const Json &value, StringRef path, bool allowEmpty,
                            llvm::function_ref<std::string(StringRef)> check,
                            Diagnostics &diag) {
  if (!value.is_array()) {
    diag.error(path, "expected an array of strings, got " + describe(value));
    return std::nullopt;
  }
  if (value.empty() && !allowEmpty) {
    diag.error(path, "expected a non-empty array of strings");
    return std::nullopt;
  }
  std::vector<std::string> names;
  bool ok = true;
  for (size_t i = 0; i < value.size(); ++i) {
    std::string elementPath = indexPath(path, i);
    const Json &element = value[i];
    if (!element.is_string() || element.get<std::string>().empty()) {
      diag.error(elementPath,
                 "expected a non-empty string, got " + describe(element));
      ok = false;
      continue;
    }
    std::string name = element.get<std::string>();
    if (llvm::is_contained(names, name)) {
      diag.error(elementPath, "'" + name + "' is listed twice");
      ok = false;
      continue;
    }
    std::string problem = check(name);
    if (!problem.empty()) {
      diag.error(elementPath, problem);
      ok = false;
      continue;
    }
    names.push_back(std::move(name));
  }
  if (!ok)
    return std::nullopt;
  return names;
}

std::string
target_detail::unknownNameMessage(StringRef what, StringRef name,
                                  llvm::ArrayRef<StringRef> candidates) {
  std::string message = ("unknown " + what + " '" + name + "'").str();
  if (std::optional<std::string> match = closestMatch(name, candidates))
    message += "; did you mean '" + *match + "'?";
  return message;
}

void ObjectReader::rejectUnknownKeys() {
  llvm::SmallVector<StringRef> candidates(known.begin(), known.end());
  for (auto it = object->begin(); it != object->end(); ++it) {
    if (llvm::is_contained(known, it.key()))
      continue;
    std::string message = "unknown field";
    if (std::optional<std::string> match = closestMatch(it.key(), candidates))
      message += "; did you mean '" + *match + "'?";
    diag.error(pathOf(it.key()), message);
  }
}
