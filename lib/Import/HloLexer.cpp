//===- HloLexer.cpp - tokens of XLA HLO text ------------------------------===//

#include "HloLexer.h"

using namespace tessera::hlo;

static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

void Lexer::skipWhitespaceAndComments() {
  const char *end = buffer.end();
  while (cur != end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++cur;
      continue;
    }
    if (c == '/' && cur + 1 != end && cur[1] == '*') {
      // An unterminated block comment swallows the rest of the file; the
      // parser then reports "unexpected end of file" where it expected
      // something, which is the useful place.
      const char *close = nullptr;
      for (const char *p = cur + 2; p + 1 < end; ++p)
        if (p[0] == '*' && p[1] == '/') {
          close = p;
          break;
        }
      cur = close ? close + 2 : end;
      continue;
    }
    if (c == '/' && cur + 1 != end && cur[1] == '/') {
      while (cur != end && *cur != '\n')
        ++cur;
      continue;
    }
    return;
  }
}

bool Lexer::skipStringBody() {
  const char *end = buffer.end();
  while (cur != end) {
    char c = *cur++;
    if (c == '\\') {
      if (cur == end)
        return false;
      ++cur;
      continue;
    }
    if (c == '"')
      return true;
  }
  return false;
}

Token Lexer::lexString(const char *start) {
  if (!skipStringBody()) {
    // Report the unterminated string at its opening quote.
    cur = buffer.end();
    return Token{TokKind::Error, llvm::StringRef(start, 1)};
  }
  return make(TokKind::String, start);
}

Token Lexer::lexNumber(const char *start) {
  // Integers and the float spellings XLA prints (1e-12, -0.5, 1.5e+10).
  bool isFloat = false;
  if (*cur == '-' || *cur == '+')
    ++cur;
  while (cur != buffer.end() && isDigit(*cur))
    ++cur;
  if (cur != buffer.end() && *cur == '.') {
    isFloat = true;
    ++cur;
    while (cur != buffer.end() && isDigit(*cur))
      ++cur;
  }
  if (cur != buffer.end() && (*cur == 'e' || *cur == 'E')) {
    const char *save = cur++;
    if (cur != buffer.end() && (*cur == '-' || *cur == '+'))
      ++cur;
    if (cur != buffer.end() && isDigit(*cur)) {
      isFloat = true;
      while (cur != buffer.end() && isDigit(*cur))
        ++cur;
    } else {
      cur = save;
    }
  }
  return make(isFloat ? TokKind::Float : TokKind::Integer, start);
}

Token Lexer::lex() {
  skipWhitespaceAndComments();
  const char *start = cur;
  const char *end = buffer.end();
  if (cur == end)
    return Token{TokKind::Eof, llvm::StringRef(end, 0)};
  char c = *cur++;
  switch (c) {
  case '=':
    return make(TokKind::Equal, start);
  case ',':
    return make(TokKind::Comma, start);
  case ':':
    return make(TokKind::Colon, start);
  case '(':
    return make(TokKind::LParen, start);
  case ')':
    return make(TokKind::RParen, start);
  case '{':
    return make(TokKind::LBrace, start);
  case '}':
    return make(TokKind::RBrace, start);
  case '[':
    return make(TokKind::LSquare, start);
  case ']':
    return make(TokKind::RSquare, start);
  case '?':
    return make(TokKind::Question, start);
  case '"':
    return lexString(start);
  case '<':
    if (cur != end && *cur == '=') {
      ++cur;
      return make(TokKind::LessEqual, start);
    }
    return make(TokKind::Error, start);
  case '-':
    if (cur != end && *cur == '>') {
      ++cur;
      return make(TokKind::Arrow, start);
    }
    if (cur != end && isDigit(*cur)) {
      cur = start;
      return lexNumber(start);
    }
    return make(TokKind::Error, start);
  case '%': {
    // `%name`: XLA's names are [A-Za-z0-9_.-]; keep going on those.
    while (cur != end && isNameChar(*cur) &&
           !(*cur == '-' && cur + 1 != end && cur[1] == '>'))
      ++cur;
    Token tok = make(TokKind::Name, start);
    tok.text = tok.text.drop_front();
    tok.hasPercent = true;
    if (tok.text.empty())
      return Token{TokKind::Error, llvm::StringRef(start, 1)};
    return tok;
  }
  default:
    break;
  }
  if (isDigit(c)) {
    cur = start;
    return lexNumber(start);
  }
  if (isIdentStart(c)) {
    while (cur != end && isNameChar(*cur) &&
           !(*cur == '-' && cur + 1 != end && cur[1] == '>'))
      ++cur;
    return make(TokKind::Identifier, start);
  }
  return make(TokKind::Error, start);
}

llvm::StringRef Lexer::scanRawValue(bool &ok) {
  ok = true;
  const char *start = cur;
  const char *end = buffer.end();
  if (cur != end && *cur == '"') {
    ++cur;
    ok = skipStringBody();
    return llvm::StringRef(start, cur - start);
  }
  int depth = 0;
  while (cur != end) {
    char c = *cur;
    if (c == '"') {
      ++cur;
      if (!skipStringBody()) {
        ok = false;
        break;
      }
      continue;
    }
    if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      if (depth == 0)
        break;
      --depth;
    } else if (depth == 0 &&
               (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      break;
    }
    ++cur;
  }
  if (depth != 0)
    ok = false;
  return llvm::StringRef(start, cur - start);
}

llvm::StringRef Lexer::scanShapedLiteral(bool &ok) {
  const char *start = cur;
  llvm::StringRef shape = scanRawValue(ok);
  if (!ok)
    return shape;
  const char *afterShape = cur;
  while (cur != buffer.end() && (*cur == ' ' || *cur == '\t'))
    ++cur;
  // The next attribute, the end of the line or of the operand list: no
  // literal follows.
  if (cur == buffer.end() || *cur == ',' || *cur == '\n' || *cur == '\r' ||
      *cur == ')' || *cur == '}') {
    cur = afterShape;
    return shape;
  }
  scanRawValue(ok);
  return llvm::StringRef(start, cur - start);
}

llvm::StringRef Lexer::scanBalancedUntilClose(bool &ok) {
  const char *start = cur;
  const char *end = buffer.end();
  int depth = 0;
  ok = false;
  while (cur != end) {
    char c = *cur;
    if (c == '"') {
      ++cur;
      if (!skipStringBody())
        break;
      continue;
    }
    if (c == '/' && cur + 1 != end && cur[1] == '*') {
      // Comments inside literals (`/*index=5*/`) may contain brackets.
      const char *p = cur + 2;
      while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
        ++p;
      cur = p + 1 < end ? p + 2 : end;
      continue;
    }
    if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      if (depth == 0) {
        ok = c == ')';
        break;
      }
      --depth;
    }
    ++cur;
  }
  return llvm::StringRef(start, cur - start);
}
