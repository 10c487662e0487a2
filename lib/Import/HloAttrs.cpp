//===- HloAttrs.cpp - interpreting HLO attribute values -------------------===//

#include "HloAttrs.h"

using namespace tessera::hlo;
using llvm::SmallVectorImpl;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// Strings
//===----------------------------------------------------------------------===//

static int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

bool tessera::hlo::unescapeString(StringRef quoted, std::string &out) {
  out.clear();
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"')
    return false;
  StringRef body = quoted.drop_front().drop_back();
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (++i >= body.size())
      return false;
    c = body[i];
    switch (c) {
    case 'n':
      out.push_back('\n');
      break;
    case 't':
      out.push_back('\t');
      break;
    case 'r':
      out.push_back('\r');
      break;
    case '\\':
    case '"':
    case '\'':
    case '?':
      out.push_back(c);
      break;
    case 'x': {
      // \xHH (absl::CHexEscape); at most two hex digits.
      int value = 0, digits = 0;
      while (digits < 2 && i + 1 < body.size() && hexValue(body[i + 1]) >= 0) {
        value = value * 16 + hexValue(body[++i]);
        ++digits;
      }
      if (digits == 0)
        return false;
      out.push_back(static_cast<char>(value));
      break;
    }
    default:
      if (c >= '0' && c <= '7') {
        // Octal \NNN (absl::CEscape), one to three digits.
        int value = c - '0', digits = 1;
        while (digits < 3 && i + 1 < body.size() && body[i + 1] >= '0' &&
               body[i + 1] <= '7') {
          value = value * 8 + (body[++i] - '0');
          ++digits;
        }
        out.push_back(static_cast<char>(value & 0xff));
        break;
      }
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// ValueCursor
//===----------------------------------------------------------------------===//

void ValueCursor::skipSpace() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos;
      continue;
    }
    if (size_t next = skipBlockComment(text, pos); next != pos) {
      pos = next;
      continue;
    }
    return;
  }
}

bool ValueCursor::errorAt(size_t at, const Twine &message) {
  diags.error(llvm::SMLoc::getFromPointer(text.data() + at),
              "in " + what + ": " + message);
  return false;
}

bool ValueCursor::error(const Twine &message) {
  skipSpace();
  return errorAt(pos, message);
}

bool ValueCursor::expect(char c) {
  if (consumeIf(c))
    return true;
  if (atEnd())
    return error(Twine("expected '") + Twine(c) + "' before the end");
  return error(Twine("expected '") + Twine(c) + "', got '" + Twine(text[pos]) +
               "'");
}

bool ValueCursor::parseInt(int64_t &value) {
  skipSpace();
  size_t start = pos;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+'))
    ++pos;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
    ++pos;
  StringRef digits = text.slice(start, pos);
  if (digits.consume_front("+"), digits.getAsInteger(10, value)) {
    pos = start;
    return error("expected an integer");
  }
  return true;
}

bool ValueCursor::parseWord(StringRef &word) {
  skipSpace();
  size_t start = pos;
  if (pos < text.size() && text[pos] == '%')
    ++pos;
  size_t wordStart = pos;
  while (pos < text.size()) {
    char c = text[pos];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
              (c == '-' && !(pos + 1 < text.size() && text[pos + 1] == '>'));
    if (!ok)
      break;
    ++pos;
  }
  if (pos == wordStart) {
    pos = start;
    return error("expected a name");
  }
  word = text.slice(wordStart, pos);
  return true;
}

bool ValueCursor::parseString(std::string &value) {
  skipSpace();
  if (pos >= text.size() || text[pos] != '"')
    return error("expected a quoted string");
  size_t start = pos++;
  while (pos < text.size() && text[pos] != '"') {
    if (text[pos] == '\\')
      ++pos;
    ++pos;
  }
  if (pos >= text.size())
    return errorAt(start, "unterminated string");
  ++pos;
  if (!unescapeString(text.slice(start, pos), value))
    return errorAt(start, "bad escape sequence in string");
  return true;
}

bool ValueCursor::skipValue(StringRef &raw) {
  skipSpace();
  size_t start = pos;
  int depth = 0;
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '"') {
      ++pos;
      while (pos < text.size() && text[pos] != '"')
        pos += text[pos] == '\\' ? 2 : 1;
      if (pos >= text.size())
        return errorAt(start, "unterminated string");
      ++pos;
      continue;
    }
    if (c == '{' || c == '[' || c == '(') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ')') {
      if (depth == 0)
        break;
      --depth;
    } else if (depth == 0 && (c == ' ' || c == ',' || c == '\n')) {
      break;
    }
    ++pos;
  }
  if (depth != 0)
    return errorAt(start, "unbalanced brackets");
  raw = text.slice(start, pos);
  return true;
}

//===----------------------------------------------------------------------===//
// Simple values
//===----------------------------------------------------------------------===//

static std::string attrWhat(const Attr &attr) {
  return "attribute '" + attr.name.str() + "'";
}

/// Integers separated by `sep` until `close` (not consumed).
static bool parseIntsUntil(ValueCursor &cur, char close, char sep,
                           SmallVectorImpl<int64_t> &out) {
  if (cur.peek() == close)
    return true;
  while (true) {
    int64_t v;
    if (!cur.parseInt(v))
      return false;
    out.push_back(v);
    if (!cur.consumeIf(sep))
      return true;
  }
}

static bool finish(ValueCursor &cur) {
  if (!cur.atEnd())
    return cur.error("unexpected text '" +
                     cur.getText().substr(cur.position()) + "'");
  return true;
}

bool tessera::hlo::parseIntList(const Attr &attr, DiagnosticSink &diags,
                                SmallVectorImpl<int64_t> &out) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.consumeIf('{')) {
    int64_t v;
    if (!cur.parseInt(v))
      return cur.error("expected '{' and a list of integers");
    out.push_back(v);
    return finish(cur);
  }
  return parseIntsUntil(cur, '}', ',', out) && cur.expect('}') && finish(cur);
}

bool tessera::hlo::parseIntValue(const Attr &attr, DiagnosticSink &diags,
                                 int64_t &out) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  return cur.parseInt(out) && finish(cur);
}

bool tessera::hlo::parseFloatValue(const Attr &attr, DiagnosticSink &diags,
                                   double &out) {
  if (attr.value.getAsDouble(out)) {
    diags.error(attr.valueLoc(), "in " + attrWhat(attr) +
                                     ": expected a number, got '" + attr.value +
                                     "'");
    return false;
  }
  return true;
}

bool tessera::hlo::parseBoolValue(const Attr &attr, DiagnosticSink &diags,
                                  bool &out) {
  if (attr.value == "true" || attr.value == "false") {
    out = attr.value == "true";
    return true;
  }
  diags.error(attr.valueLoc(), "in " + attrWhat(attr) +
                                   ": expected 'true' or 'false', got '" +
                                   attr.value + "'");
  return false;
}

bool tessera::hlo::parseStringValue(const Attr &attr, DiagnosticSink &diags,
                                    std::string &out) {
  if (!attr.value.starts_with("\"")) {
    out = attr.value.str();
    return true;
  }
  if (!unescapeString(attr.value, out)) {
    diags.error(attr.valueLoc(),
                "in " + attrWhat(attr) + ": bad escape sequence in string");
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Structured values
//===----------------------------------------------------------------------===//

bool tessera::hlo::parseSlice(const Attr &attr, DiagnosticSink &diags,
                              SmallVectorImpl<int64_t> &start,
                              SmallVectorImpl<int64_t> &limit,
                              SmallVectorImpl<int64_t> &strides) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.expect('{'))
    return false;
  if (cur.consumeIf('}'))
    return finish(cur);
  while (true) {
    int64_t a, b, s = 1;
    if (!cur.expect('[') || !cur.parseInt(a) || !cur.expect(':') ||
        !cur.parseInt(b))
      return false;
    if (cur.consumeIf(':') && !cur.parseInt(s))
      return false;
    if (!cur.expect(']'))
      return false;
    start.push_back(a);
    limit.push_back(b);
    strides.push_back(s);
    if (cur.consumeIf(','))
      continue;
    return cur.expect('}') && finish(cur);
  }
}

/// `a_b[_c]x...`: one group of 2 or 3 integers per dimension.
static bool parsePaddingText(ValueCursor &cur, SmallVectorImpl<int64_t> &low,
                             SmallVectorImpl<int64_t> &high,
                             SmallVectorImpl<int64_t> *interior) {
  while (true) {
    int64_t lo, hi;
    if (!cur.parseInt(lo) || !cur.expect('_') || !cur.parseInt(hi))
      return false;
    low.push_back(lo);
    high.push_back(hi);
    int64_t in = 0;
    if (cur.peek() == '_') {
      if (!interior)
        return cur.error("window padding takes low_high per dimension");
      cur.consumeIf('_');
      if (!cur.parseInt(in))
        return false;
    }
    if (interior)
      interior->push_back(in);
    if (!cur.consumeIf('x'))
      return true;
  }
}

bool tessera::hlo::parsePadding(const Attr &attr, DiagnosticSink &diags,
                                SmallVectorImpl<int64_t> &low,
                                SmallVectorImpl<int64_t> &high,
                                SmallVectorImpl<int64_t> &interior) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (cur.atEnd())
    return true;
  return parsePaddingText(cur, low, high, &interior) && finish(cur);
}

/// `3x3` (or a single `3`).
static bool parseXList(ValueCursor &cur, SmallVectorImpl<int64_t> &out) {
  while (true) {
    int64_t v;
    if (!cur.parseInt(v))
      return false;
    out.push_back(v);
    if (!cur.consumeIf('x'))
      return true;
  }
}

bool tessera::hlo::parseWindow(const Attr &attr, DiagnosticSink &diags,
                               Window &window) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.expect('{'))
    return false;
  while (!cur.consumeIf('}')) {
    if (cur.atEnd())
      return cur.error("expected '}' closing the window");
    size_t keyPos = cur.position();
    StringRef key;
    if (!cur.parseWord(key) || !cur.expect('='))
      return false;
    bool ok;
    if (key == "size") {
      ok = parseXList(cur, window.size);
    } else if (key == "stride") {
      ok = parseXList(cur, window.stride);
    } else if (key == "lhs_dilate") {
      ok = parseXList(cur, window.lhsDilate);
    } else if (key == "rhs_dilate") {
      ok = parseXList(cur, window.rhsDilate);
    } else if (key == "pad") {
      llvm::SmallVector<int64_t, 4> lo, hi;
      ok = parsePaddingText(cur, lo, hi, nullptr);
      for (size_t i = 0; ok && i < lo.size(); ++i) {
        window.padding.push_back(lo[i]);
        window.padding.push_back(hi[i]);
      }
    } else if (key == "rhs_reversal") {
      llvm::SmallVector<int64_t, 4> flags;
      ok = parseXList(cur, flags);
      for (int64_t f : flags)
        window.reversal.push_back(f != 0);
    } else {
      return cur.errorAt(keyPos, "unknown window field '" + key +
                                     "' (expected size, stride, pad, "
                                     "lhs_dilate, rhs_dilate or rhs_reversal)");
    }
    if (!ok)
      return false;
  }
  return finish(cur);
}

/// Expands the iota replica-group form `[G,S]<=[d0,...]T(p...)`.
static bool
parseIotaGroups(ValueCursor &cur,
                std::vector<llvm::SmallVector<int64_t, 8>> &groups) {
  llvm::SmallVector<int64_t, 4> tile, reshape, perm;
  if (!cur.expect('[') || !parseIntsUntil(cur, ']', ',', tile) ||
      !cur.expect(']') || !cur.consumeIf("<=") || !cur.expect('[') ||
      !parseIntsUntil(cur, ']', ',', reshape) || !cur.expect(']'))
    return cur.error("expected an iota replica group list like [2,4]<=[8]");
  if (cur.consumeIf('T')) {
    if (!cur.expect('(') || !parseIntsUntil(cur, ')', ',', perm) ||
        !cur.expect(')'))
      return false;
  }
  if (tile.size() != 2)
    return cur.error("iota replica groups need [groups,group_size]");
  int64_t total = 1;
  for (int64_t d : reshape) {
    if (d <= 0 || total > (int64_t(1) << 24) / d)
      return cur.error("iota replica group dimensions must be positive and "
                       "small");
    total *= d;
  }
  if (tile[0] <= 0 || tile[1] <= 0 || tile[0] * tile[1] != total)
    return cur.error("iota replica groups [" + Twine(tile[0]) + "," +
                     Twine(tile[1]) + "] do not cover " + Twine(total) +
                     " devices");
  size_t rank = reshape.size();
  if (perm.empty())
    for (size_t i = 0; i < rank; ++i)
      perm.push_back(i);
  if (perm.size() != rank)
    return cur.error("iota transpose needs one entry per reshape dimension");
  llvm::SmallVector<bool, 4> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p])
      return cur.error("iota transpose is not a permutation");
    seen[p] = true;
  }
  // Element j of the transposed array: its multi-index in the transposed
  // shape, mapped back to the original (row-major) position.
  llvm::SmallVector<int64_t, 4> tshape, strides(rank, 1);
  for (int64_t p : perm)
    tshape.push_back(reshape[p]);
  for (int64_t i = static_cast<int64_t>(rank) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * reshape[i + 1];
  groups.assign(tile[0], {});
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t j = 0; j < total; ++j) {
    int64_t value = 0;
    for (size_t i = 0; i < rank; ++i)
      value += idx[i] * strides[perm[i]];
    groups[j / tile[1]].push_back(value);
    for (int64_t i = static_cast<int64_t>(rank) - 1; i >= 0; --i) {
      if (++idx[i] < tshape[i])
        break;
      idx[i] = 0;
    }
  }
  return true;
}

bool tessera::hlo::parseReplicaGroups(
    const Attr &attr, DiagnosticSink &diags,
    std::vector<llvm::SmallVector<int64_t, 8>> &groups) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (cur.peek() == '[')
    return parseIotaGroups(cur, groups) && finish(cur);
  if (!cur.expect('{'))
    return false;
  if (cur.consumeIf('}'))
    return finish(cur);
  while (true) {
    groups.emplace_back();
    if (!cur.expect('{') || !parseIntsUntil(cur, '}', ',', groups.back()) ||
        !cur.expect('}'))
      return false;
    if (cur.consumeIf(','))
      continue;
    return cur.expect('}') && finish(cur);
  }
}

bool tessera::hlo::parsePairs(const Attr &attr, DiagnosticSink &diags,
                              SmallVectorImpl<int64_t> &flat) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.expect('{'))
    return false;
  if (cur.consumeIf('}'))
    return finish(cur);
  while (true) {
    int64_t a, b;
    if (!cur.expect('{') || !cur.parseInt(a) || !cur.expect(',') ||
        !cur.parseInt(b) || !cur.expect('}'))
      return false;
    flat.push_back(a);
    flat.push_back(b);
    if (cur.consumeIf(','))
      continue;
    return cur.expect('}') && finish(cur);
  }
}

bool tessera::hlo::parseComputationRef(const Attr &attr, DiagnosticSink &diags,
                                       StringRef &name, llvm::SMLoc &loc) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  cur.skipSpace();
  loc = cur.loc();
  return cur.parseWord(name) && finish(cur);
}

bool tessera::hlo::parseComputationList(
    const Attr &attr, DiagnosticSink &diags,
    SmallVectorImpl<std::pair<StringRef, llvm::SMLoc>> &names) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.expect('{'))
    return false;
  if (cur.consumeIf('}'))
    return finish(cur);
  while (true) {
    cur.skipSpace();
    llvm::SMLoc loc = cur.loc();
    StringRef name;
    if (!cur.parseWord(name))
      return false;
    names.push_back({name, loc});
    if (cur.consumeIf(','))
      continue;
    return cur.expect('}') && finish(cur);
  }
}

bool tessera::hlo::parseMetadata(const Attr &attr, DiagnosticSink &diags,
                                 Metadata &out) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.expect('{'))
    return false;
  while (!cur.consumeIf('}')) {
    if (cur.atEnd())
      return cur.error("expected '}' closing the metadata");
    // XLA's printer separates the entries with spaces; its parser also
    // takes commas between them.
    if (cur.consumeIf(','))
      continue;
    StringRef key;
    if (!cur.parseWord(key) || !cur.expect('='))
      return false;
    if (key == "op_type") {
      if (!cur.parseString(out.opType))
        return false;
    } else if (key == "op_name") {
      if (!cur.parseString(out.opName))
        return false;
    } else if (key == "source_file") {
      if (!cur.parseString(out.sourceFile))
        return false;
    } else if (key == "source_line") {
      if (!cur.parseInt(out.sourceLine))
        return false;
    } else if (key == "stack_frame_id") {
      if (!cur.parseInt(out.stackFrameId))
        return false;
    } else {
      // deduplicated_name, source_end_line, profile_type, ... are not used.
      StringRef ignored;
      if (!cur.skipValue(ignored))
        return false;
    }
  }
  return finish(cur);
}

bool tessera::hlo::parseStringDict(
    const Attr &attr, DiagnosticSink &diags,
    SmallVectorImpl<std::pair<std::string, std::string>> &entries) {
  std::string what = attrWhat(attr);
  ValueCursor cur(attr.value, diags, what);
  if (!cur.expect('{'))
    return false;
  if (cur.consumeIf('}'))
    return finish(cur);
  while (true) {
    std::string key, value;
    if (cur.peek() == '"') {
      if (!cur.parseString(key))
        return false;
    } else {
      StringRef word;
      if (!cur.parseWord(word))
        return false;
      key = word.str();
    }
    if (!cur.expect('='))
      return false;
    if (cur.peek() == '"') {
      if (!cur.parseString(value))
        return false;
    } else {
      StringRef raw;
      if (!cur.skipValue(raw))
        return false;
      value = raw.str();
    }
    entries.push_back({std::move(key), std::move(value)});
    if (cur.consumeIf(','))
      continue;
    return cur.expect('}') && finish(cur);
  }
}
