//===- Elementwise.cpp - elementwise.*, iota, fill, branch-index ----------===//
//
// Elementwise vertices compute their tile's elements of the output from the
// same elements of the inputs, which the lowering laid out identically on
// the tile (in place); a scalar operand (listed in `scalar_operands`) is one
// replicated element per tile. Semantics are HLO's: integer division by
// zero gives -1, shifts past the width give 0 (or the sign), float max/min
// propagate NaN, convert saturates and sends NaN to 0, comparisons follow
// `compare_type` (TOTALORDER orders -NaN < -inf < ... < inf < NaN). 16-bit
// floats are computed in float and rounded to their type on store.
//
//===----------------------------------------------------------------------===//

#include "VertexLibrary.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace llvm;

namespace tessera::runtime {
namespace {

enum class Op {
  Abs, Neg, Exp, Expm1, Log, Log1p, Sqrt, Rsqrt, Cbrt, Tanh, Logistic, Sign,
  Floor, Ceil, RoundAfz, RoundEven, Cos, Sin, Tan, Erf, Not, Popcnt, Clz, Copy,
  IsFinite, Add, Sub, Mul, Div, Rem, Pow, Max, Min, And, Or, Xor, Shl, ShrA,
  ShrL, Atan2, Compare, Select, Clamp, Convert, ReducePrecision, Invalid
};

Op parseOp(StringRef name) {
  return StringSwitch<Op>(name)
      .Case("abs", Op::Abs)
      .Case("negate", Op::Neg)
      .Case("exponential", Op::Exp)
      .Case("exponential_minus_one", Op::Expm1)
      .Case("log", Op::Log)
      .Case("log_plus_one", Op::Log1p)
      .Case("sqrt", Op::Sqrt)
      .Case("rsqrt", Op::Rsqrt)
      .Case("cbrt", Op::Cbrt)
      .Case("tanh", Op::Tanh)
      .Case("logistic", Op::Logistic)
      .Case("sign", Op::Sign)
      .Case("floor", Op::Floor)
      .Case("ceil", Op::Ceil)
      .Case("round_nearest_afz", Op::RoundAfz)
      .Case("round_nearest_even", Op::RoundEven)
      .Case("cosine", Op::Cos)
      .Case("sine", Op::Sin)
      .Case("tan", Op::Tan)
      .Case("erf", Op::Erf)
      .Case("not", Op::Not)
      .Case("popcnt", Op::Popcnt)
      .Case("count_leading_zeros", Op::Clz)
      .Cases("copy", "optimization_barrier", Op::Copy)
      .Case("is_finite", Op::IsFinite)
      .Case("add", Op::Add)
      .Case("subtract", Op::Sub)
      .Case("multiply", Op::Mul)
      .Case("divide", Op::Div)
      .Case("remainder", Op::Rem)
      .Case("power", Op::Pow)
      .Case("maximum", Op::Max)
      .Case("minimum", Op::Min)
      .Case("and", Op::And)
      .Case("or", Op::Or)
      .Case("xor", Op::Xor)
      .Case("shift_left", Op::Shl)
      .Case("shift_right_arithmetic", Op::ShrA)
      .Case("shift_right_logical", Op::ShrL)
      .Case("atan2", Op::Atan2)
      .Case("compare", Op::Compare)
      .Case("select", Op::Select)
      .Case("clamp", Op::Clamp)
      .Case("convert", Op::Convert)
      .Case("reduce_precision", Op::ReducePrecision)
      .Default(Op::Invalid);
}

bool isUnary(Op op) { return op <= Op::IsFinite; }

template <typename T> inline ComputeT<T> ld(const T *p, int64_t i) {
  return static_cast<ComputeT<T>>(p[i]);
}

/// HLO's float max/min: NaN wins.
template <typename C> inline C fmaxNan(C a, C b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<C>::quiet_NaN()
                                        : (a > b ? a : b);
}
template <typename C> inline C fminNan(C a, C b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<C>::quiet_NaN()
                                        : (a < b ? a : b);
}

template <typename C> inline C unaryFloat(Op op, C x) {
  switch (op) {
  case Op::Abs:
    return std::fabs(x);
  case Op::Neg:
    return -x;
  case Op::Exp:
    return std::exp(x);
  case Op::Expm1:
    return std::expm1(x);
  case Op::Log:
    return std::log(x);
  case Op::Log1p:
    return std::log1p(x);
  case Op::Sqrt:
    return std::sqrt(x);
  case Op::Rsqrt:
    return C(1) / std::sqrt(x);
  case Op::Cbrt:
    return std::cbrt(x);
  case Op::Tanh:
    return std::tanh(x);
  case Op::Logistic:
    return C(1) / (C(1) + std::exp(-x));
  case Op::Sign:
    return std::isnan(x) ? x : x > 0 ? C(1) : x < 0 ? C(-1) : x;
  case Op::Floor:
    return std::floor(x);
  case Op::Ceil:
    return std::ceil(x);
  case Op::RoundAfz:
    return std::round(x);
  case Op::RoundEven:
    return std::nearbyint(x);
  case Op::Cos:
    return std::cos(x);
  case Op::Sin:
    return std::sin(x);
  case Op::Tan:
    return std::tan(x);
  case Op::Erf:
    return std::erf(x);
  default:
    return x;
  }
}

template <typename T> inline T unaryInt(Op op, T x, bool pred) {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = sizeof(T) * 8;
  switch (op) {
  case Op::Abs:
    if constexpr (std::is_signed_v<T>)
      return x < 0 ? T(U(0) - U(x)) : x;
    return x;
  case Op::Neg:
    return T(U(0) - U(x));
  case Op::Sign:
    if constexpr (std::is_signed_v<T>)
      return x > 0 ? T(1) : x < 0 ? T(-1) : T(0);
    return x > 0 ? T(1) : T(0);
  case Op::Not:
    return pred ? T(x == 0) : T(~U(x));
  case Op::Popcnt:
    return T(llvm::popcount(U(x)));
  case Op::Clz:
    return T(U(x) == 0 ? bits : llvm::countl_zero(U(x)));
  default:
    return x;
  }
}

template <typename T> inline T binaryInt(Op op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  constexpr U bits = sizeof(T) * 8;
  switch (op) {
  case Op::Add:
    return T(U(a) + U(b));
  case Op::Sub:
    return T(U(a) - U(b));
  case Op::Mul:
    return T(U(a) * U(b));
  case Op::Div:
    if (b == 0)
      return T(-1);
    if constexpr (std::is_signed_v<T>)
      if (a == std::numeric_limits<T>::min() && b == T(-1))
        return a;
    return T(a / b);
  case Op::Rem:
    if (b == 0)
      return a;
    if constexpr (std::is_signed_v<T>)
      if (a == std::numeric_limits<T>::min() && b == T(-1))
        return T(0);
    return T(a % b);
  case Op::Pow: {
    if constexpr (std::is_signed_v<T>)
      if (b < 0)
        return a == 1 ? T(1) : a == -1 ? ((b & 1) ? T(-1) : T(1)) : T(0);
    U result = 1, base = U(a);
    for (U e = U(b); e; e >>= 1) {
      if (e & 1)
        result *= base;
      base *= base;
    }
    return T(result);
  }
  case Op::Max:
    return a > b ? a : b;
  case Op::Min:
    return a < b ? a : b;
  case Op::And:
    return T(U(a) & U(b));
  case Op::Or:
    return T(U(a) | U(b));
  case Op::Xor:
    return T(U(a) ^ U(b));
  case Op::Shl:
    return U(b) >= bits ? T(0) : T(U(a) << U(b));
  case Op::ShrL:
    return U(b) >= bits ? T(0) : T(U(a) >> U(b));
  case Op::ShrA:
    if constexpr (std::is_signed_v<T>)
      return U(b) >= bits ? (a < 0 ? T(-1) : T(0)) : T(a >> U(b));
    return U(b) >= bits ? T(0) : T(a >> U(b));
  default:
    return a;
  }
}

template <typename C> inline C binaryFloat(Op op, C a, C b) {
  switch (op) {
  case Op::Add:
    return a + b;
  case Op::Sub:
    return a - b;
  case Op::Mul:
    return a * b;
  case Op::Div:
    return a / b;
  case Op::Rem:
    return std::fmod(a, b);
  case Op::Pow:
    return std::pow(a, b);
  case Op::Max:
    return fmaxNan(a, b);
  case Op::Min:
    return fminNan(a, b);
  case Op::Atan2:
    return std::atan2(a, b);
  default:
    return a;
  }
}

enum class Direction { EQ, NE, GE, GT, LE, LT };

/// The total order key of a float: the sign-magnitude bits made two's
/// complement, so integer order is -NaN < -inf < ... < -0 < 0 < ... < NaN.
template <typename C> inline int64_t totalOrderKey(C x) {
  if constexpr (sizeof(C) == 8) {
    int64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits < 0 ? std::numeric_limits<int64_t>::min() - bits - 1 : bits;
  } else {
    int32_t bits;
    float f = static_cast<float>(x);
    std::memcpy(&bits, &f, 4);
    return bits < 0 ? int64_t(std::numeric_limits<int32_t>::min()) - bits - 1
                    : bits;
  }
}

template <typename V> inline bool compareValues(Direction d, V a, V b) {
  switch (d) {
  case Direction::EQ:
    return a == b;
  case Direction::NE:
    return a != b;
  case Direction::GE:
    return a >= b;
  case Direction::GT:
    return a > b;
  case Direction::LE:
    return a <= b;
  case Direction::LT:
    return a < b;
  }
  return false;
}

/// Rounds `x` to a float of `exponentBits` / `mantissaBits` (HLO
/// reduce_precision), keeping its type: round the mantissa to nearest even,
/// then flush what over- or underflows the narrower exponent range.
template <typename C>
inline C reducePrecision(C x, int exponentBits, int mantissaBits) {
  using Bits = std::conditional_t<sizeof(C) == 8, uint64_t, uint32_t>;
  constexpr int srcMantissa = sizeof(C) == 8 ? 52 : 23;
  constexpr int srcExponent = sizeof(C) == 8 ? 11 : 8;
  Bits bits;
  std::memcpy(&bits, &x, sizeof(C));
  if (mantissaBits < srcMantissa) {
    int drop = srcMantissa - mantissaBits;
    Bits lastKept = Bits(1) << drop;
    Bits half = lastKept >> 1;
    Bits bias = half - 1 + ((bits >> drop) & 1);
    Bits rounded = (bits + bias) & ~(lastKept - 1);
    if (!std::isnan(x))
      bits = rounded;
  }
  if (exponentBits < srcExponent && !std::isnan(x)) {
    const Bits signMask = Bits(1) << (sizeof(C) * 8 - 1);
    const Bits expMask = ((Bits(1) << srcExponent) - 1) << srcMantissa;
    int64_t srcBias = (int64_t(1) << (srcExponent - 1)) - 1;
    int64_t dstBias = (int64_t(1) << (exponentBits - 1)) - 1;
    int64_t exp = int64_t((bits & expMask) >> srcMantissa) - srcBias;
    Bits sign = bits & signMask;
    if (exp > dstBias)
      bits = sign | expMask; // overflow: infinity
    else if (exp <= -dstBias)
      bits = sign; // underflow: zero
  }
  C out;
  std::memcpy(&out, &bits, sizeof(C));
  return out;
}

/// One operand of an elementwise vertex on a tile: a scalar reads element 0.
template <typename T> struct In {
  const T *p;
  int64_t step;
  ComputeT<T> operator[](int64_t i) const { return ld(p, i * step); }
};

class ElementwiseVertex : public Vertex {
public:
  Op op = Op::Invalid;
  DType inType = DType::F32, outType = DType::F32;
  std::vector<bool> scalar;
  Direction direction = Direction::EQ;
  bool totalOrder = false;
  int exponentBits = 8, mantissaBits = 23;

  /// One operation per output element, at the width of the wider type.
  TileWork work(const ComputeRates &rates, int64_t, ArrayRef<TileOperand>,
                ArrayRef<TileOperand> outs) const override {
    int64_t n = outs[0].elements();
    int64_t width = std::min(rates.vectorWidth(inType),
                             rates.vectorWidth(outType));
    return {vectorCycles(n, width), n};
  }

  Error run(int64_t tile, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    int64_t n = outs[0].elements();
    for (size_t i = 0; i < ins.size(); ++i)
      if (!scalar[i] ? ins[i].elements() != n : ins[i].elements() < 1)
        return createStringError("tile " + Twine(tile) + ": input " +
                                 Twine(i) + " has " +
                                 Twine(ins[i].elements()) +
                                 " elements on the tile, the output " +
                                 Twine(n));
    switch (op) {
    case Op::Compare:
      return dispatchStorage(inType, [&](auto t) {
        using T = decltype(t);
        return runCompare<T>(ins, outs[0], n);
      });
    case Op::IsFinite:
      return dispatchStorage(inType, [&](auto t) {
        using T = decltype(t);
        In<T> x = operand<T>(ins, 0);
        uint8_t *out = outs[0].as<uint8_t>();
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_floating_point_v<ComputeT<T>>)
            out[i] = std::isfinite(x[i]);
          else
            out[i] = 1;
        }
        return Error::success();
      });
    case Op::Convert:
      return dispatchStorage(inType, [&](auto s) {
        using S = decltype(s);
        return dispatchStorage(outType, [&](auto t) {
          using T = decltype(t);
          return runConvert<S, T>(ins, outs[0], n);
        });
      });
    case Op::Select:
      return dispatchStorage(outType, [&](auto t) {
        using T = decltype(t);
        In<uint8_t> p = operand<uint8_t>(ins, 0);
        In<T> a = operand<T>(ins, 1), b = operand<T>(ins, 2);
        T *out = outs[0].as<T>();
        for (int64_t i = 0; i < n; ++i)
          out[i] = static_cast<T>(p[i] ? a[i] : b[i]);
        return Error::success();
      });
    default:
      return dispatchStorage(outType, [&](auto t) {
        using T = decltype(t);
        return runSameType<T>(ins, outs[0], n);
      });
    }
  }

private:
  template <typename T> In<T> operand(ArrayRef<TileOperand> ins, size_t i) const {
    return {ins[i].as<T>(), scalar[i] ? 0 : 1};
  }

  template <typename T>
  Error runSameType(ArrayRef<TileOperand> ins, const TileOperand &outOp,
                    int64_t n) const {
    using C = ComputeT<T>;
    T *out = outOp.as<T>();
    bool pred = outType == DType::Pred;
    if (op == Op::Clamp) {
      In<T> lo = operand<T>(ins, 0), x = operand<T>(ins, 1),
            hi = operand<T>(ins, 2);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<C>)
          out[i] = static_cast<T>(fminNan(fmaxNan(lo[i], x[i]), hi[i]));
        else
          out[i] = static_cast<T>(std::min(std::max(lo[i], x[i]), hi[i]));
      }
      return Error::success();
    }
    if (isUnary(op)) {
      In<T> x = operand<T>(ins, 0);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<C>) {
          out[i] = static_cast<T>(unaryFloat<C>(op, x[i]));
        } else {
          out[i] = unaryInt<T>(op, x[i], pred);
        }
      }
      return Error::success();
    }
    if (op == Op::ReducePrecision) {
      In<T> x = operand<T>(ins, 0);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<C>)
          out[i] = static_cast<T>(
              reducePrecision<C>(x[i], exponentBits, mantissaBits));
        else
          out[i] = static_cast<T>(x[i]);
      }
      return Error::success();
    }
    In<T> a = operand<T>(ins, 0), b = operand<T>(ins, 1);
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<C>)
        out[i] = static_cast<T>(binaryFloat<C>(op, a[i], b[i]));
      else
        out[i] = binaryInt<T>(op, a[i], b[i]);
    }
    return Error::success();
  }

  template <typename T>
  Error runCompare(ArrayRef<TileOperand> ins, const TileOperand &outOp,
                   int64_t n) const {
    using C = ComputeT<T>;
    In<T> a = operand<T>(ins, 0), b = operand<T>(ins, 1);
    uint8_t *out = outOp.as<uint8_t>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<C>) {
        if (totalOrder) {
          out[i] = compareValues(direction, totalOrderKey<C>(a[i]),
                                 totalOrderKey<C>(b[i]));
          continue;
        }
      }
      out[i] = compareValues<C>(direction, a[i], b[i]);
    }
    return Error::success();
  }

  template <typename S, typename T>
  Error runConvert(ArrayRef<TileOperand> ins, const TileOperand &outOp,
                   int64_t n) const {
    using CS = ComputeT<S>;
    In<S> x = operand<S>(ins, 0);
    T *out = outOp.as<T>();
    bool toPred = outType == DType::Pred;
    for (int64_t i = 0; i < n; ++i) {
      CS v = x[i];
      if (toPred) {
        out[i] = static_cast<T>(v != CS(0));
      } else if constexpr (std::is_floating_point_v<CS> &&
                           std::is_integral_v<T>) {
        // Float to integer: NaN is 0, out-of-range values saturate.
        if (std::isnan(v))
          out[i] = T(0);
        else if (v <= static_cast<CS>(std::numeric_limits<T>::min()))
          out[i] = std::numeric_limits<T>::min();
        else if (v >= static_cast<CS>(std::numeric_limits<T>::max()))
          out[i] = std::numeric_limits<T>::max();
        else
          out[i] = static_cast<T>(v);
      } else if constexpr (std::is_integral_v<CS> && std::is_integral_v<T>) {
        out[i] = static_cast<T>(v); // wraps, as HLO's convert
      } else {
        out[i] = static_cast<T>(static_cast<ComputeT<T>>(v));
      }
    }
    return Error::success();
  }
};

} // namespace

bool isElementwiseOp(StringRef op) { return parseOp(op) != Op::Invalid; }

VertexResult createElementwise(const VertexSpec &spec, StringRef name) {
  auto v = std::make_unique<ElementwiseVertex>();
  v->op = parseOp(name);
  size_t arity = v->op == Op::Select || v->op == Op::Clamp ? 3
                 : isUnary(v->op) || v->op == Op::Convert ||
                         v->op == Op::ReducePrecision
                     ? 1
                     : 2;
  if (Error err = spec.expectOperands(arity, 1))
    return std::move(err);
  v->scalar.assign(arity, false);
  if (std::optional<std::vector<int64_t>> s = spec.getInts("scalar_operands"))
    for (int64_t i : *s) {
      if (i < 0 || i >= static_cast<int64_t>(arity))
        return spec.error("scalar_operands names operand " + Twine(i));
      v->scalar[i] = true;
    }
  v->outType = spec.out(0).dtype;
  v->inType = spec.in(v->op == Op::Select ? 1 : 0).dtype;
  switch (v->op) {
  case Op::Compare: {
    std::optional<std::string> dir = spec.getString("direction");
    auto d = StringSwitch<std::optional<Direction>>(dir.value_or(""))
                 .Case("EQ", Direction::EQ)
                 .Case("NE", Direction::NE)
                 .Case("GE", Direction::GE)
                 .Case("GT", Direction::GT)
                 .Case("LE", Direction::LE)
                 .Case("LT", Direction::LT)
                 .Default(std::nullopt);
    if (!d)
      return spec.error("compare needs a direction (EQ, NE, GE, GT, LE, LT)");
    v->direction = *d;
    v->totalOrder = spec.getString("compare_type") == "TOTALORDER";
    if (v->outType != DType::Pred || spec.in(1).dtype != v->inType)
      return spec.error("compare takes two inputs of one type to pred");
    break;
  }
  case Op::IsFinite:
    if (v->outType != DType::Pred)
      return spec.error("is_finite writes pred");
    break;
  case Op::Convert:
    break;
  case Op::Select:
    if (spec.in(0).dtype != DType::Pred || spec.in(1).dtype != v->outType ||
        spec.in(2).dtype != v->outType)
      return spec.error("select takes pred, T, T to T");
    break;
  case Op::ReducePrecision: {
    Expected<int64_t> e = spec.requireInt("exponent_bits");
    Expected<int64_t> m = spec.requireInt("mantissa_bits");
    if (!e)
      return e.takeError();
    if (!m)
      return m.takeError();
    // As the compiler's verifier: widths past the element type's own
    // (f32 with exponent_bits 15) change nothing and are valid.
    if (*e < 1 || *e > INT32_MAX || *m < 0 || *m > INT32_MAX)
      return spec.error("reduce_precision widths out of range: exponent_bits " +
                        Twine(*e) + ", mantissa_bits " + Twine(*m));
    v->exponentBits = static_cast<int>(*e);
    v->mantissaBits = static_cast<int>(*m);
    if (Error err = expectSameType(spec))
      return std::move(err);
    break;
  }
  default:
    if (Error err = expectSameType(spec))
      return std::move(err);
    bool isFloatType = isFloat(v->outType);
    bool floatOnly = (v->op >= Op::Exp && v->op <= Op::Erf &&
                      v->op != Op::Sign) ||
                     v->op == Op::Atan2;
    bool intOnly = v->op == Op::Not || v->op == Op::Popcnt ||
                   v->op == Op::Clz || v->op == Op::And || v->op == Op::Or ||
                   v->op == Op::Xor || v->op == Op::Shl || v->op == Op::ShrA ||
                   v->op == Op::ShrL;
    if ((floatOnly && !isFloatType) || (intOnly && isFloatType))
      return spec.error("'" + name + "' is not defined on " +
                        dtypeName(v->outType));
  }
  return std::unique_ptr<Vertex>(std::move(v));
}

namespace {
/// iota: element e of the output holds its coordinate along `dimension`.
class IotaVertex : public Vertex {
public:
  int64_t stride = 1, size = 1;
  Error run(int64_t, ArrayRef<TileOperand>,
            ArrayRef<TileOperand> outs) const override {
    const TileOperand &out = outs[0];
    return dispatchStorage(out.buffer->dtype, [&](auto t) {
      using T = decltype(t);
      T *p = out.as<T>();
      for (const Interval &iv : out.share->intervals)
        for (int64_t e = iv.begin; e < iv.end; ++e)
          p[iv.local + e - iv.begin] =
              static_cast<T>(static_cast<ComputeT<T>>((e / stride) % size));
      return Error::success();
    });
  }
};

/// fill: every element of the tile's output is the scalar input.
class FillVertex : public Vertex {
public:
  Error run(int64_t, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    int64_t eb = outs[0].buffer->elementBytes;
    for (int64_t i = 0; i < outs[0].elements(); ++i)
      std::memcpy(outs[0].data + i * eb, ins[0].data, eb);
    return Error::success();
  }
};

/// branch-index.equals: pred = (the s32 branch index == `index`).
class BranchIndexVertex : public Vertex {
public:
  int64_t index = 0;
  Error run(int64_t, ArrayRef<TileOperand> ins,
            ArrayRef<TileOperand> outs) const override {
    HostTensor v(ins[0].buffer->dtype, {});
    std::memcpy(v.bytes.data(), ins[0].data, v.bytes.size());
    *outs[0].data = v.getInt(0) == index;
    return Error::success();
  }
};
} // namespace

VertexResult createIota(const VertexSpec &spec) {
  if (Error err = spec.expectOperands(0, 1))
    return std::move(err);
  Expected<int64_t> dim = spec.requireInt("dimension");
  if (!dim)
    return dim.takeError();
  const std::vector<int64_t> &shape = spec.out(0).shape;
  if (*dim < 0 || *dim >= static_cast<int64_t>(shape.size()))
    return spec.error("dimension " + Twine(*dim) + " is outside the output");
  auto v = std::make_unique<IotaVertex>();
  v->stride = rowMajorStrides(shape)[*dim];
  v->size = shape[*dim];
  return std::unique_ptr<Vertex>(std::move(v));
}

VertexResult createFill(const VertexSpec &spec) {
  if (Error err = spec.expectOperands(1, 1))
    return std::move(err);
  if (Error err = expectSameType(spec))
    return std::move(err);
  return std::unique_ptr<Vertex>(std::make_unique<FillVertex>());
}

VertexResult createBranchIndexEquals(const VertexSpec &spec) {
  if (Error err = spec.expectOperands(1, 1))
    return std::move(err);
  Expected<int64_t> index = spec.requireInt("index");
  if (!index)
    return index.takeError();
  if (spec.in(0).numElements != 1 || spec.out(0).numElements != 1 ||
      spec.out(0).dtype != DType::Pred || isFloat(spec.in(0).dtype))
    return spec.error("takes one integer element to one pred");
  auto v = std::make_unique<BranchIndexVertex>();
  v->index = *index;
  return std::unique_ptr<Vertex>(std::move(v));
}

} // namespace tessera::runtime
