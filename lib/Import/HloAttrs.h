//===- HloAttrs.h - interpreting HLO attribute values -----------*- C++ -*-===//
//
// The parser keeps attribute values as raw text; these helpers read the
// value grammars XLA prints (`{1,0}`, `{[0:4:1],...}`, `1_2_0x0_0_1`,
// `window={size=3x3 ...}`, `replica_groups=[2,4]<=[8]`, `metadata={...}`,
// escaped strings, ...). Each reports a located error that names the
// attribute and what was expected.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOATTRS_H
#define TESSERA_LIB_IMPORT_HLOATTRS_H

#include "HloAst.h"
#include "HloParser.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>

namespace tessera::hlo {

/// If a `/* ... */` comment (XLA prints `/*index=N*/` inside values) starts
/// at `pos`, the position after it (the end of `text` when unclosed);
/// otherwise `pos`.
inline size_t skipBlockComment(llvm::StringRef text, size_t pos) {
  if (!text.substr(pos).starts_with("/*"))
    return pos;
  size_t close = text.find("*/", pos + 2);
  return close == llvm::StringRef::npos ? text.size() : close + 2;
}

/// Unescapes a C-escaped string literal as XLA prints it (`"a\"b\n\033"`);
/// `quoted` includes the quotes. Returns false on a malformed escape.
bool unescapeString(llvm::StringRef quoted, std::string &out);

/// A cursor over raw value text with located errors. Whitespace and
/// `/* */` comments between items are skipped.
class ValueCursor {
public:
  ValueCursor(llvm::StringRef text, DiagnosticSink &diags, llvm::StringRef what)
      : text(text), pos(0), diags(diags), what(what) {}

  void skipSpace();
  bool atEnd() {
    skipSpace();
    return pos >= text.size();
  }
  char peek() {
    skipSpace();
    return pos < text.size() ? text[pos] : '\0';
  }
  bool consumeIf(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }
  bool consumeIf(llvm::StringRef s) {
    skipSpace();
    if (!text.substr(pos).starts_with(s))
      return false;
    pos += s.size();
    return true;
  }
  bool expect(char c);
  bool parseInt(int64_t &value);
  /// Identifier-like word: [A-Za-z0-9_.$-]+ (also `%`-prefixed names,
  /// with the `%` dropped).
  bool parseWord(llvm::StringRef &word);
  bool parseString(std::string &value);
  /// A balanced `{...}`, `(...)`, `[...]`, string, or word, as raw text.
  bool skipValue(llvm::StringRef &raw);
  /// Reports `message` at the cursor, prefixed by what is being parsed.
  bool error(const llvm::Twine &message);
  bool errorAt(size_t at, const llvm::Twine &message);
  llvm::SMLoc loc() const {
    return llvm::SMLoc::getFromPointer(text.data() + pos);
  }
  size_t position() const { return pos; }
  llvm::StringRef getText() const { return text; }

private:
  llvm::StringRef text;
  size_t pos;
  DiagnosticSink &diags;
  llvm::StringRef what;
};

/// `{1,0}` (or `{}` / a bare `3`) as integers.
bool parseIntList(const Attr &attr, DiagnosticSink &diags,
                  llvm::SmallVectorImpl<int64_t> &out);
bool parseIntValue(const Attr &attr, DiagnosticSink &diags, int64_t &out);
bool parseFloatValue(const Attr &attr, DiagnosticSink &diags, double &out);
bool parseBoolValue(const Attr &attr, DiagnosticSink &diags, bool &out);
/// A quoted string (unescaped) or, for unquoted values, the raw text.
bool parseStringValue(const Attr &attr, DiagnosticSink &diags,
                      std::string &out);

/// `slice={[0:4:1], [2:8]}`.
bool parseSlice(const Attr &attr, DiagnosticSink &diags,
                llvm::SmallVectorImpl<int64_t> &start,
                llvm::SmallVectorImpl<int64_t> &limit,
                llvm::SmallVectorImpl<int64_t> &strides);

/// `padding=1_2_0x0_0_1` (low_high[_interior] per dimension).
bool parsePadding(const Attr &attr, DiagnosticSink &diags,
                  llvm::SmallVectorImpl<int64_t> &low,
                  llvm::SmallVectorImpl<int64_t> &high,
                  llvm::SmallVectorImpl<int64_t> &interior);

/// `window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=.. rhs_dilate=..
/// rhs_reversal=0x1}`; fields absent from the text stay empty.
struct Window {
  llvm::SmallVector<int64_t, 4> size, stride, padding, lhsDilate, rhsDilate;
  llvm::SmallVector<bool, 4> reversal;
};
bool parseWindow(const Attr &attr, DiagnosticSink &diags, Window &window);

/// `{{0,1},{2,3}}`, `{}`, or the iota form `[2,4]<=[8]` /
/// `[2,4]<=[4,2]T(1,0)`, expanded to explicit groups.
bool parseReplicaGroups(const Attr &attr, DiagnosticSink &diags,
                        std::vector<llvm::SmallVector<int64_t, 8>> &groups);

/// `source_target_pairs={{0,1},{1,0}}`, flattened.
bool parsePairs(const Attr &attr, DiagnosticSink &diags,
                llvm::SmallVectorImpl<int64_t> &flat);

/// `%name` or `name`.
bool parseComputationRef(const Attr &attr, DiagnosticSink &diags,
                         llvm::StringRef &name, llvm::SMLoc &loc);
/// `{%a, %b}`.
bool parseComputationList(
    const Attr &attr, DiagnosticSink &diags,
    llvm::SmallVectorImpl<std::pair<llvm::StringRef, llvm::SMLoc>> &names);

struct Metadata {
  std::string opType, opName, sourceFile;
  int64_t sourceLine = -1;
  int64_t stackFrameId = -1;
};
bool parseMetadata(const Attr &attr, DiagnosticSink &diags, Metadata &out);

/// `{key="value", other="x"}` as (key, value) pairs.
bool parseStringDict(
    const Attr &attr, DiagnosticSink &diags,
    llvm::SmallVectorImpl<std::pair<std::string, std::string>> &entries);

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOATTRS_H
