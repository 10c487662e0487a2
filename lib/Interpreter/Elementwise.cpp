//===- Elementwise.cpp - Elementwise ops, as HLO defines them -------------===//
//
// Floats compute in double; integers in int64 and wrap to their width.
// HLO's edge cases are spelled out: integer division by zero gives -1 (all
// ones), INT_MIN / -1 gives INT_MIN and its remainder 0, shifts by the
// width or more give 0 (or the sign), float max/min propagate NaN,
// float-to-integer conversion truncates, saturates and sends NaN to 0.
//
//===----------------------------------------------------------------------===//

#include "Value.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
namespace tg = tessera::tgraph;

namespace tessera::interp {
namespace {

int bitsOf(DType d) { return d == DType::Pred ? 1 : int(dtypeBytes(d) * 8); }
uint64_t maskOf(DType d) {
  int bits = bitsOf(d);
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}
bool isUnsignedInt(DType d) { return d != DType::Pred && !isSigned(d) && !isFloat(d); }

double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}
double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}

llvm::Expected<double> unaryFloat(StringRef op, double x) {
  if (op == "abs")
    return std::fabs(x);
  if (op == "negate")
    return -x;
  if (op == "exponential")
    return std::exp(x);
  if (op == "exponential_minus_one")
    return std::expm1(x);
  if (op == "log")
    return std::log(x);
  if (op == "log_plus_one")
    return std::log1p(x);
  if (op == "sqrt")
    return std::sqrt(x);
  if (op == "rsqrt")
    return 1.0 / std::sqrt(x);
  if (op == "cbrt")
    return std::cbrt(x);
  if (op == "tanh")
    return std::tanh(x);
  if (op == "logistic")
    return 1.0 / (1.0 + std::exp(-x));
  if (op == "sign")
    return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
  if (op == "floor")
    return std::floor(x);
  if (op == "ceil")
    return std::ceil(x);
  if (op == "round_nearest_afz")
    return std::round(x);
  if (op == "round_nearest_even")
    return std::nearbyint(x);
  if (op == "cosine")
    return std::cos(x);
  if (op == "sine")
    return std::sin(x);
  if (op == "tan")
    return std::tan(x);
  if (op == "erf")
    return std::erf(x);
  if (op == "copy" || op == "optimization_barrier")
    return x;
  return llvm::createStringError("is not defined on floats");
}

llvm::Expected<int64_t> unaryInt(StringRef op, DType d, int64_t x) {
  uint64_t ux = uint64_t(x) & maskOf(d);
  if (op == "abs")
    return wrapInt(d, x < 0 ? int64_t(0 - uint64_t(x)) : x);
  if (op == "negate")
    return wrapInt(d, int64_t(0 - uint64_t(x)));
  if (op == "sign")
    return x > 0 ? 1 : x < 0 ? -1 : 0;
  if (op == "not")
    return d == DType::Pred ? int64_t(x == 0) : wrapInt(d, int64_t(~uint64_t(x)));
  if (op == "popcnt")
    return llvm::popcount(ux);
  if (op == "count_leading_zeros")
    return bitsOf(d) - (64 - llvm::countl_zero(ux));
  if (op == "copy" || op == "optimization_barrier")
    return x;
  return llvm::createStringError("is not defined on integers");
}

llvm::Expected<double> binaryFloat(StringRef op, double a, double b) {
  if (op == "add")
    return a + b;
  if (op == "subtract")
    return a - b;
  if (op == "multiply")
    return a * b;
  if (op == "divide")
    return a / b;
  if (op == "remainder")
    return std::fmod(a, b);
  if (op == "power")
    return std::pow(a, b);
  if (op == "maximum")
    return nanMax(a, b);
  if (op == "minimum")
    return nanMin(a, b);
  if (op == "atan2")
    return std::atan2(a, b);
  return llvm::createStringError("is not defined on floats");
}

llvm::Expected<int64_t> binaryInt(StringRef op, DType d, int64_t a,
                                  int64_t b) {
  bool u = isUnsignedInt(d);
  int bits = bitsOf(d);
  uint64_t ua = uint64_t(a) & maskOf(d), ub = uint64_t(b) & maskOf(d);
  auto wrap = [&](uint64_t v) { return wrapInt(d, int64_t(v)); };
  int64_t minSigned = bits >= 64 ? std::numeric_limits<int64_t>::min()
                                 : -(int64_t(1) << (bits - 1));
  if (op == "add")
    return wrap(uint64_t(a) + uint64_t(b));
  if (op == "subtract")
    return wrap(uint64_t(a) - uint64_t(b));
  if (op == "multiply")
    return wrap(uint64_t(a) * uint64_t(b));
  if (op == "divide") {
    if (b == 0)
      return wrap(~uint64_t(0));
    if (u)
      return wrap(ua / ub);
    if (a == minSigned && b == -1)
      return a;
    return a / b;
  }
  if (op == "remainder") {
    if (b == 0)
      return a;
    if (u)
      return wrap(ua % ub);
    if (a == minSigned && b == -1)
      return 0;
    return a % b;
  }
  if (op == "power") {
    if (!u && b < 0)
      return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    uint64_t result = 1, base = uint64_t(a);
    for (uint64_t e = u ? ub : uint64_t(b); e; e >>= 1) {
      if (e & 1)
        result *= base;
      base *= base;
    }
    return wrap(result);
  }
  if (op == "maximum")
    return u ? (ua > ub ? a : b) : std::max(a, b);
  if (op == "minimum")
    return u ? (ua < ub ? a : b) : std::min(a, b);
  if (op == "and")
    return wrap(uint64_t(a) & uint64_t(b));
  if (op == "or")
    return wrap(uint64_t(a) | uint64_t(b));
  if (op == "xor")
    return wrap(uint64_t(a) ^ uint64_t(b));
  // Shift amounts read as unsigned: a negative one is past the width.
  if (op == "shift_left")
    return ub >= uint64_t(bits) ? 0 : wrap(ua << ub);
  if (op == "shift_right_logical")
    return ub >= uint64_t(bits) ? 0 : wrap(ua >> ub);
  if (op == "shift_right_arithmetic") {
    if (u)
      return ub >= uint64_t(bits) ? 0 : wrap(ua >> ub);
    return ub >= uint64_t(bits) ? (a < 0 ? -1 : 0) : a >> ub;
  }
  return llvm::createStringError("is not defined on integers");
}

/// Order of a float as HLO's TOTALORDER compares: -NaN < -inf < ... < -0 <
/// +0 < ... < inf < NaN.
int64_t totalOrderKey(double x) {
  int64_t bits;
  std::memcpy(&bits, &x, 8);
  return bits < 0 ? std::numeric_limits<int64_t>::min() - bits - 1 : bits;
}

template <typename V> bool compare(tg::ComparisonDirection d, V a, V b) {
  switch (d) {
  case tg::ComparisonDirection::EQ:
    return a == b;
  case tg::ComparisonDirection::NE:
    return a != b;
  case tg::ComparisonDirection::GE:
    return a >= b;
  case tg::ComparisonDirection::GT:
    return a > b;
  case tg::ComparisonDirection::LE:
    return a <= b;
  case tg::ComparisonDirection::LT:
    return a < b;
  }
  return false;
}

/// HLO reduce_precision on a double: round the mantissa to nearest even,
/// then overflow to infinity or flush to zero outside the exponent range.
double reducePrecision(double x, int exponentBits, int mantissaBits) {
  if (std::isnan(x))
    return x;
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  if (mantissaBits < 52) {
    int drop = 52 - mantissaBits;
    uint64_t lastKept = uint64_t(1) << drop;
    uint64_t half = lastKept >> 1;
    uint64_t bias = half - 1 + ((bits >> drop) & 1);
    bits = (bits + bias) & ~(lastKept - 1);
  }
  if (exponentBits < 11) {
    const uint64_t signMask = uint64_t(1) << 63;
    const uint64_t expMask = uint64_t(0x7ff) << 52;
    int64_t exp = int64_t((bits & expMask) >> 52) - 1023;
    int64_t maxExp = (int64_t(1) << (exponentBits - 1)) - 1;
    uint64_t sign = bits & signMask;
    if (exp > maxExp)
      bits = sign | expMask;
    else if (exp <= -maxExp)
      bits = sign;
  }
  double out;
  std::memcpy(&out, &bits, 8);
  return out;
}

/// Float to integer as HLO converts: truncate, saturate, NaN to 0.
int64_t floatToInt(DType to, double v) {
  if (to == DType::Pred)
    return v != 0;
  if (std::isnan(v))
    return 0;
  v = std::trunc(v);
  if (to == DType::U64) {
    if (v <= 0)
      return 0;
    if (v >= 18446744073709551615.0)
      return int64_t(~uint64_t(0));
    return int64_t(uint64_t(v));
  }
  int bits = bitsOf(to);
  double lo = isSigned(to) ? -std::ldexp(1.0, bits - 1) : 0;
  double hi = isSigned(to) ? std::ldexp(1.0, bits - 1) - 1
                           : std::ldexp(1.0, bits) - 1;
  if (v <= lo)
    return int64_t(lo);
  if (v >= hi)
    return bits == 64 ? std::numeric_limits<int64_t>::max() : int64_t(hi);
  return int64_t(v);
}

double intToFloat(DType from, int64_t v) {
  return from == DType::U64 ? double(uint64_t(v)) : double(v);
}

/// Element `k` of an operand that is broadcast when it is a scalar.
int64_t at(const Tensor &t, int64_t k) { return t.size() == 1 ? 0 : k; }

} // namespace

bool isFastReducer(StringRef mnemonic) {
  return llvm::is_contained({"add", "multiply", "maximum", "minimum", "and",
                             "or", "xor"},
                            mnemonic);
}

double reduceFloat(StringRef mnemonic, double a, double b) {
  return *binaryFloat(mnemonic, a, b);
}

int64_t reduceInt(StringRef mnemonic, DType dtype, int64_t a, int64_t b) {
  return *binaryInt(mnemonic, dtype, a, b);
}

llvm::Expected<Value> evalElementwise(Operation *op, ArrayRef<Value> operands,
                                      const Options &options) {
  Type resultType = op->getResult(0).getType();
  StringRef name = op->getName().stripDialect();

  if (auto sel = dyn_cast<tg::SelectOp>(op)) {
    if (!operands[1].isTensor()) {
      // Tuples select whole: the predicate is a scalar.
      return operands[0].t().i[0] ? operands[1] : operands[2];
    }
  }
  if (isa<tg::OptimizationBarrierOp>(op))
    return operands[0];

  llvm::Expected<DType> d = dtypeOfTensor(op, resultType);
  if (!d)
    return d.takeError();
  auto type = cast<RankedTensorType>(resultType);
  std::optional<int64_t> n = checkedNumElements(type.getShape());
  if (!n || *n > options.maxElements)
    return opError(op, "the result is larger than the interpreter's limit");
  Tensor out(*d, type.getShape());
  for (const Value &v : operands)
    if (!v.isTensor() || (v.t().size() != *n && v.t().size() != 1))
      return opError(op, "an operand's shape does not match the result's");
  const Tensor &x = operands[0].t();
  auto fail = [&](llvm::Error err) {
    return opError(op, llvm::toString(std::move(err)) + " (" +
                           dtypeName(x.dtype) + ")");
  };

  if (auto cmp = dyn_cast<tg::CompareOp>(op)) {
    const Tensor &y = operands[1].t();
    tg::ComparisonDirection dir = cmp.getComparisonDirection();
    bool total = cmp.getCompareType() && *cmp.getCompareType() == "TOTALORDER";
    bool u = isUnsignedInt(x.dtype);
    for (int64_t k = 0; k < *n; ++k) {
      int64_t i = at(x, k), j = at(y, k);
      bool r;
      if (x.isFloat())
        r = total ? compare(dir, totalOrderKey(x.f[i]), totalOrderKey(y.f[j]))
                  : compare(dir, x.f[i], y.f[j]);
      else if (u)
        r = compare(dir, uint64_t(x.i[i]), uint64_t(y.i[j]));
      else
        r = compare(dir, x.i[i], y.i[j]);
      out.i[k] = r;
    }
    return Value::of(std::move(out));
  }
  if (isa<tg::SelectOp>(op)) {
    const Tensor &p = operands[0].t(), &a = operands[1].t(),
                 &b = operands[2].t();
    for (int64_t k = 0; k < *n; ++k)
      out.copyFrom(k, p.i[at(p, k)] ? a : b, k);
    return Value::of(std::move(out));
  }
  if (isa<tg::ClampOp>(op)) {
    const Tensor &lo = operands[0].t(), &v = operands[1].t(),
                 &hi = operands[2].t();
    bool u = isUnsignedInt(*d);
    for (int64_t k = 0; k < *n; ++k) {
      if (out.isFloat()) {
        out.f[k] = nanMin(nanMax(lo.f[at(lo, k)], v.f[k]), hi.f[at(hi, k)]);
      } else if (u) {
        uint64_t r = std::min(std::max(uint64_t(lo.i[at(lo, k)]),
                                       uint64_t(v.i[k])),
                              uint64_t(hi.i[at(hi, k)]));
        out.i[k] = int64_t(r);
      } else {
        out.i[k] = std::min(std::max(lo.i[at(lo, k)], v.i[k]),
                            hi.i[at(hi, k)]);
      }
    }
    normalize(out, options);
    return Value::of(std::move(out));
  }
  if (isa<tg::ConvertOp>(op)) {
    for (int64_t k = 0; k < *n; ++k) {
      if (out.isFloat())
        out.f[k] = x.isFloat() ? x.f[k] : intToFloat(x.dtype, x.i[k]);
      else
        out.i[k] = x.isFloat() ? floatToInt(*d, x.f[k]) : x.i[k];
    }
    if (out.dtype == DType::Pred && !x.isFloat())
      for (int64_t &v : out.i)
        v = v != 0;
    normalize(out, options);
    return Value::of(std::move(out));
  }
  if (isa<tg::BitcastConvertOp>(op)) {
    // Reinterpret the stored bits: f32 must be rounded to f32 first.
    Options exact = options;
    exact.computeInF64 = false;
    HostTensor h = toHost(x, exact);
    if (dtypeBytes(h.dtype) != dtypeBytes(*d) || h.numElements() != *n)
      return opError(op, "converts between element types of different widths");
    h.dtype = *d;
    h.shape.assign(type.getShape().begin(), type.getShape().end());
    return Value::of(fromHost(h));
  }
  if (auto rp = dyn_cast<tg::ReducePrecisionOp>(op)) {
    for (int64_t k = 0; k < *n; ++k)
      out.f[k] = reducePrecision(x.f[k], rp.getExponentBits(),
                                 rp.getMantissaBits());
    normalize(out, options);
    return Value::of(std::move(out));
  }
  if (isa<tg::IsFiniteOp>(op)) {
    for (int64_t k = 0; k < *n; ++k)
      out.i[k] = x.isFloat() ? std::isfinite(x.f[k]) : 1;
    return Value::of(std::move(out));
  }

  if (operands.size() == 1) {
    for (int64_t k = 0; k < *n; ++k) {
      if (x.isFloat()) {
        llvm::Expected<double> r = unaryFloat(name, x.f[at(x, k)]);
        if (!r)
          return fail(r.takeError());
        out.f[k] = *r;
      } else {
        llvm::Expected<int64_t> r = unaryInt(name, x.dtype, x.i[at(x, k)]);
        if (!r)
          return fail(r.takeError());
        out.i[k] = *r;
      }
    }
    normalize(out, options);
    return Value::of(std::move(out));
  }
  if (operands.size() == 2) {
    const Tensor &y = operands[1].t();
    for (int64_t k = 0; k < *n; ++k) {
      if (x.isFloat()) {
        llvm::Expected<double> r = binaryFloat(name, x.f[at(x, k)], y.f[at(y, k)]);
        if (!r)
          return fail(r.takeError());
        out.f[k] = *r;
      } else {
        llvm::Expected<int64_t> r =
            binaryInt(name, x.dtype, x.i[at(x, k)], y.i[at(y, k)]);
        if (!r)
          return fail(r.takeError());
        out.i[k] = *r;
      }
    }
    normalize(out, options);
    return Value::of(std::move(out));
  }
  return opError(op, "is not an elementwise op the interpreter knows");
}

} // namespace tessera::interp
