//===- HloLexer.h - tokens of XLA HLO text ----------------------*- C++ -*-===//
//
// Splits HLO text into tokens. Comments (`/* ... */`, including the
// `/*index=N*/` markers XLA prints in long tuples, and `// ...`) are skipped.
// Attribute values and constant literals are not tokenized here: the parser
// asks for them as raw, bracket-balanced text (`scanRawValue`,
// `scanBalancedUntilClose`) because their grammar depends on the attribute
// name, and that is easier to get right in a dedicated sub-parser.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_IMPORT_HLOLEXER_H
#define TESSERA_LIB_IMPORT_HLOLEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace tessera::hlo {

enum class TokKind {
  Eof,
  Error,      // a character that starts no token; text is that character
  Identifier, // names, opcodes, dtypes, keywords: [A-Za-z_][A-Za-z0-9_.-]*
  Name,       // %-prefixed name; text excludes the '%'
  Integer,    // [-]digits
  Float,      // anything else numeric
  String,     // "..." with escapes; text includes the quotes
  Equal,      // =
  Comma,      // ,
  Colon,      // :
  LParen,     // (
  RParen,     // )
  LBrace,     // {
  RBrace,     // }
  LSquare,    // [
  RSquare,    // ]
  Arrow,      // ->
  LessEqual,  // <=
  Question,   // ?
};

struct Token {
  TokKind kind = TokKind::Eof;
  llvm::StringRef text;
  /// For Name tokens: the `%` before `text` (errors point at it).
  bool hasPercent = false;

  bool is(TokKind k) const { return kind == k; }
  bool isIdent(llvm::StringRef s) const {
    return kind == TokKind::Identifier && text == s;
  }
  llvm::SMLoc loc() const {
    return llvm::SMLoc::getFromPointer(text.data() - (hasPercent ? 1 : 0));
  }
  /// One past the last character of the token in the buffer.
  const char *end() const { return text.data() + text.size(); }
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer)
      : buffer(buffer), cur(buffer.begin()) {}

  Token lex();

  /// Scans an attribute value starting right after the `=` just lexed: a
  /// string, or text with balanced (), [], {} that ends at a `,` or
  /// whitespace outside any bracket. Returns the raw text; `ok` is false if
  /// a bracket or string is not closed before the end of the buffer.
  llvm::StringRef scanRawValue(bool &ok);
  /// scanRawValue for a value that is a shape and a literal separated by a
  /// space, as XLA prints custom-call `literal=f32[2]{0} {1, 2}`: both
  /// parts (the literal is optional).
  llvm::StringRef scanShapedLiteral(bool &ok);

  /// Scans from right after an opening `(` to (not including) its matching
  /// `)`, honouring nested brackets and strings. The lexer is left at the
  /// `)`. Used for constant literals.
  llvm::StringRef scanBalancedUntilClose(bool &ok);

  /// True if the next character (at the lexer's position, with nothing
  /// skipped) is `c`. Used to tell `f32[`/`{layout` adjacency apart.
  bool nextCharIs(char c) const { return cur != buffer.end() && *cur == c; }

  const char *getPos() const { return cur; }
  const char *getBufferEnd() const { return buffer.end(); }

private:
  void skipWhitespaceAndComments();
  Token make(TokKind kind, const char *start) {
    return Token{kind, llvm::StringRef(start, cur - start)};
  }
  Token lexNumber(const char *start);
  Token lexString(const char *start);
  /// Skips a string body after its opening quote; false if unterminated.
  bool skipStringBody();

  llvm::StringRef buffer;
  const char *cur;
};

/// True for characters that may continue an identifier or name.
inline bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' || c == '$';
}

} // namespace tessera::hlo

#endif // TESSERA_LIB_IMPORT_HLOLEXER_H
