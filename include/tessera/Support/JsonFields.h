//===- JsonFields.h - Reading report JSON that may not be ours --*- C++ -*-===//
//
// Reports come back from event files written by other versions, or by
// hand: a field may be missing or of another type. nlohmann's const
// operator[] on a missing key is undefined behaviour, and with exceptions
// off a type mismatch aborts, so readers of report JSON go through these:
// a missing or mistyped field reads as null, 0, "" or an empty array.
// For nlohmann::json and nlohmann::ordered_json alike.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_JSONFIELDS_H
#define TESSERA_SUPPORT_JSONFIELDS_H

#include <cstdint>
#include <string>

namespace tessera::json_fields {

/// `j[key]`, or null when `j` is not an object or has no `key`.
template <typename Json> const Json &field(const Json &j, const char *key) {
  static const Json null;
  if (!j.is_object())
    return null;
  auto it = j.find(key);
  return it == j.end() ? null : *it;
}

/// `j[key]` when it is an array, else an empty one.
template <typename Json> const Json &listAt(const Json &j, const char *key) {
  static const Json empty = Json::array();
  const Json &v = field(j, key);
  return v.is_array() ? v : empty;
}

template <typename Json> int64_t asInt(const Json &v) {
  if (v.is_number_integer())
    return v.template get<int64_t>();
  return v.is_number_float() ? static_cast<int64_t>(v.template get<double>())
                             : 0;
}

template <typename Json> std::string asString(const Json &v) {
  return v.is_string() ? v.template get<std::string>() : std::string();
}

template <typename Json> int64_t intAt(const Json &j, const char *key) {
  return asInt(field(j, key));
}

template <typename Json> std::string stringAt(const Json &j, const char *key) {
  return asString(field(j, key));
}

template <typename Json> bool flagAt(const Json &j, const char *key) {
  const Json &v = field(j, key);
  return v.is_boolean() && v.template get<bool>();
}

template <typename Json>
double realAt(const Json &j, const char *key, double otherwise) {
  const Json &v = field(j, key);
  return v.is_number() ? v.template get<double>() : otherwise;
}

} // namespace tessera::json_fields

#endif // TESSERA_SUPPORT_JSONFIELDS_H
