//===- JsonBuild.h - Report objects built member by member ------*- C++ -*-===//
//
// Reports are nlohmann::ordered_json objects built once and written at
// once. nlohmann's two usual ways of building one are slow for that:
//
//  - an object literal, {{"k", v}, ...}, makes a two-element array per
//    member (a heap block and a key string each), copies every value out
//    of its initializer list, and searches the keys before each member;
//  - object["k"] = v on an ordered_json searches every key before it.
//
// The keys of a report object are distinct by construction, so these
// append each member in place, in the order given: the same object, the
// same bytes when written, without the searches and copies (a small
// model's memory report was malloc-bound: issue 16).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_SUPPORT_JSONBUILD_H
#define TESSERA_SUPPORT_JSONBUILD_H

#include <nlohmann/json.hpp>

#include <cassert>
#include <utility>
#include <vector>

namespace tessera::json_build {

/// Appends `key`: `value` to `object` (an object without `key`).
template <typename Json, typename Value>
void put(Json &object, const char *key, Value &&value) {
  auto &members = object.template get_ref<typename Json::object_t &>();
  assert(object.find(key) == object.end() && "a key is appended twice");
  members.emplace_back(key, Json(std::forward<Value>(value)));
}

namespace detail {
template <typename Json> void putAll(Json &) {}
template <typename Pairs> void addAll(Pairs &) {}
template <typename Pairs, typename Value, typename... Rest>
void addAll(Pairs &pairs, const char *key, Value &&value, Rest &&...rest) {
  pairs.emplace_back(key, std::forward<Value>(value));
  addAll(pairs, std::forward<Rest>(rest)...);
}
template <typename Json, typename Value, typename... Rest>
void putAll(Json &object, const char *key, Value &&value, Rest &&...rest) {
  put(object, key, std::forward<Value>(value));
  putAll(object, std::forward<Rest>(rest)...);
}
} // namespace detail

/// An object of the members given as key, value, key, value, ... in that
/// order (keys distinct): what {{key, value}, ...} gives.
template <typename Json, typename... Members>
Json object(Members &&...members) {
  static_assert(sizeof...(Members) % 2 == 0, "keys and values in pairs");
  Json j = Json::object();
  j.template get_ref<typename Json::object_t &>().reserve(sizeof...(Members) /
                                                          2);
  detail::putAll(j, std::forward<Members>(members)...);
  return j;
}

/// The members given as key, value, ... as (key, value) pairs in order,
/// each value made in place: an object's members before it is an object
/// (or a table's row; see ReportForms.h's Fields).
template <typename Json, typename... Members>
std::vector<std::pair<const char *, Json>> pairs(Members &&...members) {
  static_assert(sizeof...(Members) % 2 == 0, "keys and values in pairs");
  std::vector<std::pair<const char *, Json>> out;
  out.reserve(sizeof...(Members) / 2);
  detail::addAll(out, std::forward<Members>(members)...);
  return out;
}

/// An array of the values given, in order: what Json::array({...}) gives,
/// without copying them out of an initializer list.
template <typename Json, typename... Values> Json array(Values &&...values) {
  Json j = Json::array();
  auto &elements = j.template get_ref<typename Json::array_t &>();
  elements.reserve(sizeof...(Values));
  (elements.emplace_back(std::forward<Values>(values)), ...);
  return j;
}

} // namespace tessera::json_build

#endif // TESSERA_SUPPORT_JSONBUILD_H
