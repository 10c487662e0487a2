//===- JsonWriter.cpp - Report JSON text, quickly -------------------------===//

#include "tessera/Trace/JsonWriter.h"

#include <charconv>
#include <cmath>
#include <memory>

using Json = nlohmann::ordered_json;

namespace {

/// Whether `s` is written between quotes as it is: printable ASCII without
/// a quote or a backslash. Anything else (escapes, UTF-8, bytes to
/// replace) is left to nlohmann.
bool isPlain(const std::string &s) {
  for (unsigned char c : s)
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
      return false;
  return true;
}

class Writer {
public:
  Writer(std::string &out, int indent)
      : out(out), pretty(indent >= 0), step(indent < 0 ? 0 : indent) {}

  void value(const Json &v, unsigned current) {
    switch (v.type()) {
    case Json::value_t::null:
      out += "null";
      return;
    case Json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
      number(v.get<Json::number_integer_t>());
      return;
    case Json::value_t::number_unsigned:
      number(v.get<Json::number_unsigned_t>());
      return;
    case Json::value_t::number_float: {
      double x = v.get<double>();
      if (!std::isfinite(x)) {
        out += "null";
        return;
      }
      // nlohmann's own shortest round-trip form (Grisu2), as its dump.
      char buffer[64];
      char *end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, x);
      out.append(buffer, end);
      return;
    }
    case Json::value_t::string:
      string(v.get_ref<const std::string &>());
      return;
    case Json::value_t::array:
    case Json::value_t::object:
      container(v, current);
      return;
    default: // binary and discarded: as nlohmann writes them
      serializer().dump(v, pretty, false, step, current);
      return;
    }
  }

private:
  template <typename T> void number(T n) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, n);
    out.append(buffer, result.ptr);
  }

  void string(const std::string &s) {
    if (!isPlain(s)) {
      serializer().dump(Json(s), false, false, 0, 0);
      return;
    }
    out += '"';
    out += s;
    out += '"';
  }

  /// A line break and `n` spaces.
  void indent(unsigned n) {
    out += '\n';
    out.append(n, ' ');
  }

  /// An array or an object: nlohmann's layout for both, members with
  /// their keys.
  void container(const Json &v, unsigned current) {
    bool isObject = v.is_object();
    if (v.empty()) {
      out += isObject ? "{}" : "[]";
      return;
    }
    out += isObject ? '{' : '[';
    unsigned inner = current + step;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it != v.begin())
        out += ',';
      if (pretty)
        indent(inner);
      if (isObject) {
        string(it.key());
        out += pretty ? ": " : ":";
      }
      value(it.value(), inner);
    }
    if (pretty)
      indent(current);
    out += isObject ? '}' : ']';
  }

  using Serializer = nlohmann::detail::serializer<Json>;
  /// nlohmann's serializer over `out`, made on first use.
  Serializer &serializer() {
    if (!fallback)
      fallback = std::make_unique<Serializer>(
          nlohmann::detail::output_adapter<char, std::string>(out), ' ',
          Json::error_handler_t::replace);
    return *fallback;
  }

  std::string &out;
  bool pretty;
  unsigned step;
  std::unique_ptr<Serializer> fallback;
};

} // namespace

void tessera::appendJson(const Json &value, int indent, std::string &out) {
  Writer(out, indent).value(value, 0);
}

std::string tessera::dumpJson(const Json &value, int indent) {
  std::string out;
  appendJson(value, indent, out);
  return out;
}
