//===- JsonSyntax.cpp - JSON text to a DOM, without exceptions ------------===//

#include "JsonSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <vector>

using namespace tessera;
using namespace tessera::target_detail;
using llvm::StringRef;

std::string target_detail::childPath(StringRef parent, StringRef key) {
  bool plain = !key.empty() && llvm::all_of(key, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '-';
  });
  if (!plain)
    return (parent + "[\"" + key + "\"]").str();
  if (parent.empty())
    return key.str();
  return (parent + "." + key).str();
}

std::string target_detail::indexPath(StringRef parent, size_t index) {
  return (parent + "[" + llvm::Twine(index) + "]").str();
}

namespace {
/// Forwards every event to nlohmann's DOM builder, and on the way keeps the
/// path of the current value and the keys seen in each open object.
class CheckingSax {
public:
  using Dom = nlohmann::detail::json_sax_dom_parser<Json>;
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  CheckingSax(Json &result, StringRef text)
      : dom(result, /*allow_exceptions=*/false), text(text) {}

  bool null() { return value(), dom.null(); }
  bool boolean(bool v) { return value(), dom.boolean(v); }
  bool number_integer(number_integer_t v) {
    return value(), dom.number_integer(v);
  }
  bool number_unsigned(number_unsigned_t v) {
    return value(), dom.number_unsigned(v);
  }
  bool number_float(number_float_t v, const string_t &s) {
    return value(), dom.number_float(v, s);
  }
  bool string(string_t &v) { return value(), dom.string(v); }
  bool binary(binary_t &v) { return value(), dom.binary(v); }

  bool start_object(std::size_t n) {
    return open(/*isObject=*/true) && dom.start_object(n);
  }
  bool key(string_t &k) {
    Frame &frame = frames.back();
    if (!frame.keys.insert(k).second) {
      error = frame.path.empty()
                  ? ("duplicate key '" + k + "' at the top level")
                  : (frame.path + ": duplicate key '" + k + "'");
      return false;
    }
    frame.pendingKey = k;
    return dom.key(k);
  }
  bool end_object() {
    frames.pop_back();
    return dom.end_object();
  }
  bool start_array(std::size_t n) {
    return open(/*isObject=*/false) && dom.start_array(n);
  }
  bool end_array() {
    frames.pop_back();
    return dom.end_array();
  }

  bool parse_error(std::size_t position, const std::string &,
                   const nlohmann::detail::exception &ex) {
    // nlohmann's message starts "[json.exception.parse_error.101] parse
    // error at line L, column C: "; keep what follows and compute L:C from
    // the byte position ourselves.
    StringRef what(ex.what());
    size_t column = what.find("column ");
    size_t colon =
        column == StringRef::npos ? StringRef::npos : what.find(": ", column);
    StringRef detail =
        colon == StringRef::npos ? what : what.drop_front(colon + 2);
    StringRef before = text.take_front(std::min(position, text.size()));
    size_t line = 1 + before.count('\n');
    size_t lastNewline = before.rfind('\n');
    size_t col = lastNewline == StringRef::npos
                     ? before.size()
                     : before.size() - lastNewline - 1;
    // `position` is one past the offending character.
    isSyntaxError = true;
    error = (llvm::Twine(line) + ":" + llvm::Twine(std::max<size_t>(col, 1)) +
             ": " + detail)
                .str();
    return false;
  }

  std::string error;
  /// Syntax errors start with LINE:COL; duplicate keys with a path.
  bool isSyntaxError = false;

private:
  struct Frame {
    bool isObject;
    std::string path;
    std::set<std::string> keys;
    std::string pendingKey;
    size_t nextIndex = 0;
  };

  /// The path of the value about to be read, in the innermost container.
  std::string currentPath() {
    if (frames.empty())
      return "";
    Frame &frame = frames.back();
    if (frame.isObject)
      return childPath(frame.path, frame.pendingKey);
    return indexPath(frame.path, frame.nextIndex++);
  }
  void value() { (void)currentPath(); }
  /// Containers nest at most kMaxDepth deep: a target is a few levels, and
  /// each frame keeps its path, so a hostile file nested 10^5 deep would
  /// cost memory quadratic in the depth (docs/limits.md).
  static constexpr size_t kMaxDepth = 64;
  bool open(bool isObject) {
    std::string path = currentPath();
    if (frames.size() >= kMaxDepth) {
      error = (path.size() > 80 ? path.substr(0, 80) + "..." : path) +
              ": nested more than " + std::to_string(kMaxDepth) +
              " levels deep";
      return false;
    }
    frames.push_back(Frame{isObject, std::move(path), {}, {}, 0});
    return true;
  }

  Dom dom;
  StringRef text;
  std::vector<Frame> frames;
};
} // namespace

std::optional<Json> target_detail::parseJsonText(StringRef text,
                                                 StringRef sourceName,
                                                 std::string &error) {
  Json result;
  CheckingSax sax(result, text);
  bool ok = Json::sax_parse(text.begin(), text.end(), &sax,
                            nlohmann::detail::input_format_t::json,
                            /*strict=*/true, /*ignore_comments=*/false);
  if (!ok) {
    error = (sourceName + (sax.isSyntaxError ? ":" : ": ") +
             (sax.error.empty() ? "malformed JSON" : sax.error))
                .str();
    return std::nullopt;
  }
  return result;
}
