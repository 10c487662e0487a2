//===- HloLiterals.cpp - HLO constant literals to DenseElementsAttr -------===//
//
// `constant({ {1, 2}, {3, 4} })`, `constant(-inf)`, `constant(true)`,
// complex `(re, im)` pairs. Numbers are parsed with APInt/APFloat (no
// exceptions, exact for every element type); the count of values must
// match the shape, so nothing is invented or dropped.
//
//===----------------------------------------------------------------------===//

#include "HloAttrs.h"
#include "HloEmitterImpl.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

using namespace mlir;
using namespace tessera::hlo;
using namespace tessera::hlo::detail;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

namespace {
/// Iterates the scalar values of an HLO literal (`{ {1, 2}, {3, 4} }`,
/// `1.5`, `-inf`, `(1, 2)` for complex), ignoring the brace structure.
class LiteralReader {
public:
  explicit LiteralReader(StringRef text) : text(text) {}
  /// Next scalar token; false at the end.
  bool next(StringRef &token, size_t &at) {
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '{' || c == '}' || c == ',' || c == ' ' || c == '\n' ||
          c == '\t' || c == '\r' || c == '(' || c == ')') {
        ++pos;
        continue;
      }
      if (size_t next = skipBlockComment(text, pos); next != pos) {
        pos = next;
        continue;
      }
      break;
    }
    if (pos >= text.size())
      return false;
    at = pos;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '{' || c == '}' || c == ',' || c == ' ' || c == '\n' ||
          c == '\t' || c == '\r' || c == '(' || c == ')')
        break;
      ++pos;
    }
    // A NaN with a payload, `nan(0x7f)`, is one token.
    StringRef word = text.slice(at, pos).ltrim("+-");
    if ((word == "nan" || word == "NaN") && pos < text.size() &&
        text[pos] == '(') {
      size_t close = text.find(')', pos);
      if (close != StringRef::npos)
        pos = close + 1;
    }
    token = text.slice(at, pos);
    return true;
  }

private:
  StringRef text;
  size_t pos = 0;
};
} // namespace

/// As XLA's parser: a literal of rank N nests its values exactly N braces
/// deep, and each brace group holds as many items as its dimension says
/// (`f32[2,2] constant({1, 2, 3, 4})` is not a literal of that shape, even
/// though the count of values matches). Returns the offset of the first
/// offence and sets `message`, or returns npos.
static size_t checkLiteralNesting(StringRef text, llvm::ArrayRef<int64_t> dims,
                                  std::string &message) {
  size_t rank = dims.size();
  // counts[d]: items seen so far in the open group at depth d.
  std::vector<int64_t> counts(rank + 1, 0);
  std::vector<size_t> opened(rank + 1, 0);
  size_t depth = 0;
  auto isDelimiter = [](char c) {
    return c == '{' || c == '}' || c == ',' || c == '(' || c == ')' ||
           c == ' ' || c == '\n' || c == '\t' || c == '\r';
  };
  for (size_t pos = 0; pos < text.size();) {
    if (size_t next = skipBlockComment(text, pos); next != pos) {
      pos = next;
      continue;
    }
    char c = text[pos];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ',') {
      ++pos;
      continue;
    }
    if (c == '{') {
      if (depth == rank) {
        message = "nests braces deeper than its rank " + std::to_string(rank);
        return pos;
      }
      ++counts[depth];
      opened[++depth] = pos;
      counts[depth] = 0;
      ++pos;
      continue;
    }
    if (c == '}') {
      if (depth == 0) {
        message = "has an unmatched '}'";
        return pos;
      }
      if (counts[depth] != dims[depth - 1]) {
        message = "has " + std::to_string(counts[depth]) +
                  " entries in dimension " + std::to_string(depth - 1) +
                  " here; its shape has " + std::to_string(dims[depth - 1]);
        return opened[depth];
      }
      --depth;
      ++pos;
      continue;
    }
    // A value: a number or word (`nan(0x7f)` included), or a complex
    // `(re, im)`, always at the innermost level.
    size_t at = pos;
    if (c == '(') {
      size_t close = text.find(')', pos);
      pos = close == StringRef::npos ? text.size() : close + 1;
    } else {
      while (pos < text.size() && !isDelimiter(text[pos]))
        ++pos;
      if (pos < text.size() && text[pos] == '(') {
        size_t close = text.find(')', pos);
        pos = close == StringRef::npos ? text.size() : close + 1;
      }
      if (pos == at) // a stray ')'
        ++pos;
    }
    if (depth != rank) {
      message = "has a value nested " + std::to_string(depth) +
                " braces deep; a literal of rank " + std::to_string(rank) +
                " nests each value " + std::to_string(rank) + " deep";
      return at;
    }
    ++counts[depth];
  }
  if (depth != 0) {
    message = "has an unclosed '{'";
    return opened[depth];
  }
  if (counts[0] != 1) {
    message = "is not one brace group of its shape";
    return 0;
  }
  return StringRef::npos;
}

static bool parseFloatToken(StringRef token, const llvm::fltSemantics &sem,
                            llvm::APFloat &out, bool *overflow = nullptr) {
  bool negative = token.starts_with("-");
  StringRef body = token;
  if (negative || body.starts_with("+"))
    body = body.drop_front();
  if (body == "inf" || body == "INF" || body == "infinity") {
    out = llvm::APFloat::getInf(sem, negative);
    return true;
  }
  if (body.starts_with("nan") || body.starts_with("NaN")) {
    StringRef payload = body.drop_front(3);
    if (payload.empty()) {
      out = llvm::APFloat::getQNaN(sem, negative);
      return true;
    }
    // nan(0x...): the payload's bits in the significand, as XLA prints a
    // NaN that is not the canonical one.
    uint64_t bits;
    if (!payload.consume_front("(") || !payload.consume_back(")") ||
        !payload.consume_front("0x") || payload.getAsInteger(16, bits) ||
        bits == 0)
      return false;
    llvm::APInt p(64, bits);
    out = llvm::APFloat::getQNaN(sem, negative, &p);
    return true;
  }
  out = llvm::APFloat(sem);
  auto status =
      out.convertFromString(token, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return false;
  }
  // A finite literal past the type's range would silently become an
  // infinity; XLA's parser rejects it.
  if (*status & llvm::APFloat::opOverflow) {
    if (overflow)
      *overflow = true;
    return false;
  }
  return true;
}

static bool parseIntToken(StringRef token, unsigned width, bool isUnsigned,
                          llvm::APInt &out) {
  bool negative = token.starts_with("-");
  StringRef digits = negative ? token.drop_front() : token;
  if (digits.empty())
    return false;
  llvm::APInt magnitude;
  if (digits.getAsInteger(10, magnitude))
    return false;
  // Bits needed, counting a sign bit for signed types. A negative value of
  // an unsigned type wraps (XLA takes `u64[] constant(-1)` as all ones).
  unsigned needed = magnitude.getActiveBits();
  if (!isUnsigned && width > 1) {
    bool minValue = negative && magnitude.isPowerOf2() &&
                    magnitude.getActiveBits() == width;
    if (needed > width - 1 && !minValue)
      return false;
  } else if (needed > width) {
    return false;
  }
  out = magnitude.zextOrTrunc(width);
  if (negative)
    out.negate();
  return true;
}

Attribute Emitter::convertLiteral(const Instruction &instr,
                                  RankedTensorType type) {
  auto fail = [&](size_t at, const Twine &message) -> Attribute {
    error(SMLoc::getFromPointer(instr.literal.data() + at), message);
    return Attribute();
  };
  if (!type.hasStaticShape())
    return fail(0, "constant '" + instr.name + "' has a dynamic shape");
  int64_t count = type.getNumElements();
  if (type.getRank() > 0) {
    std::string why;
    size_t bad = checkLiteralNesting(instr.literal, type.getShape(), why);
    if (bad != StringRef::npos)
      return fail(bad, "constant '" + instr.name + "' " + why);
  }
  // Never trust the shape for allocation sizes: a hostile `f32[1000000000]`
  // with a short literal must fail on the count check, not in reserve().
  size_t reserveCount =
      std::min<size_t>(count < 0 ? 0 : count, instr.literal.size() / 2 + 1);
  Type element = type.getElementType();
  LiteralReader reader(instr.literal);
  StringRef token;
  size_t at = 0;
  int64_t seen = 0;
  auto tooMany = [&]() {
    return fail(at, "constant '" + instr.name +
                        "' has more values than its "
                        "shape holds (" +
                        Twine(count) + ")");
  };
  auto tooFew = [&]() {
    return fail(0, "constant '" + instr.name + "' has " + Twine(seen) +
                       " values but its shape holds " + Twine(count));
  };

  if (element.isInteger(1)) {
    llvm::SmallVector<bool> values;
    values.reserve(reserveCount);
    while (reader.next(token, at)) {
      if (++seen > count)
        return tooMany();
      if (token == "true" || token == "1")
        values.push_back(true);
      else if (token == "false" || token == "0")
        values.push_back(false);
      else
        return fail(at, "expected 'true' or 'false' in pred constant, got '" +
                            token + "'");
    }
    if (seen != count)
      return tooFew();
    return DenseElementsAttr::get(type, values);
  }
  if (auto intType = dyn_cast<IntegerType>(element)) {
    std::vector<llvm::APInt> values;
    values.reserve(reserveCount);
    while (reader.next(token, at)) {
      if (++seen > count)
        return tooMany();
      llvm::APInt v;
      if (!parseIntToken(token, intType.getWidth(), intType.isUnsigned(), v))
        return fail(at, "expected an integer that fits " +
                            Twine(intType.isUnsigned() ? "u" : "s") +
                            Twine(intType.getWidth()) + ", got '" + token +
                            "'");
      values.push_back(std::move(v));
    }
    if (seen != count)
      return tooFew();
    return DenseElementsAttr::get(type, values);
  }
  if (auto floatType = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    std::vector<llvm::APFloat> values;
    values.reserve(reserveCount);
    while (reader.next(token, at)) {
      if (++seen > count)
        return tooMany();
      llvm::APFloat v(sem);
      bool overflow = false;
      if (!parseFloatToken(token, sem, v, &overflow))
        return overflow
                   ? fail(at, "value '" + token + "' is out of the range of " +
                                  hloDtypeName(floatType))
                   : fail(at, "expected a floating-point value, got '" + token +
                                  "'");
      values.push_back(std::move(v));
    }
    if (seen != count)
      return tooFew();
    return DenseElementsAttr::get(type, values);
  }
  if (auto complexType = dyn_cast<ComplexType>(element)) {
    const llvm::fltSemantics &sem =
        cast<FloatType>(complexType.getElementType()).getFloatSemantics();
    std::vector<std::complex<llvm::APFloat>> values;
    values.reserve(reserveCount);
    while (reader.next(token, at)) {
      llvm::APFloat re(sem), im(sem);
      if (!parseFloatToken(token, sem, re))
        return fail(at, "expected the real part of a complex value, got '" +
                            token + "'");
      if (!reader.next(token, at) || !parseFloatToken(token, sem, im))
        return fail(at, "expected the imaginary part of a complex value");
      if (++seen > count)
        return tooMany();
      values.emplace_back(re, im);
    }
    if (seen != count)
      return tooFew();
    return DenseElementsAttr::get(type, values);
  }
  return fail(0, "constants of element type " + Twine(instr.shape.dtype) +
                     " are not supported");
}
