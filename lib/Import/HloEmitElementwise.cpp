//===- HloEmitElementwise.cpp - elementwise HLO ops and generators --------===//
//
// Unary and binary arithmetic (one typed builder per opcode, looked up in
// a table), compare/select/clamp, element type conversions, and the ops
// that make values from attributes alone: constant, iota and rng.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using llvm::StringRef;

namespace tessera::hlo::detail {
namespace {

template <typename OpTy> Emitted binaryOp(InstrEmit &e) {
  if (!arity(e, 2))
    return failure();
  return e.emit<OpTy>(e.operands[0], e.operands[1]);
}

Emitted compare(InstrEmit &e) {
  if (!arity(e, 2))
    return failure();
  const Attr *a = required(e, "direction");
  if (!a)
    return failure();
  std::optional<tg::ComparisonDirection> dir =
      tg::symbolizeComparisonDirection(a->value);
  if (!dir)
    return e.fail(a->valueLoc(), "unknown comparison direction '" + a->value +
                                     "' (expected EQ, NE, GE, GT, LE or LT)");
  // FLOAT, TOTALORDER, SIGNED or UNSIGNED, kept as printed.
  StringAttr compareType;
  if (const Attr *t = e.attrs.take("type"))
    compareType = e.builder().getStringAttr(t->value);
  return e.emit<tg::CompareOp>(*dir, e.operands[0], e.operands[1], compareType);
}

Emitted reducePrecision(InstrEmit &e) {
  int64_t exponent, mantissa;
  if (!arity(e, 1) || !requiredInt(e, "exponent_bits", exponent) ||
      !requiredInt(e, "mantissa_bits", mantissa))
    return failure();
  // The op keeps 32-bit widths; a wider value would wrap silently.
  if (exponent < 1 || exponent > INT32_MAX)
    return e.fail(e.instr.loc, "exponent_bits must be from 1 to " +
                                   Twine(INT32_MAX) + ", got " +
                                   Twine(exponent));
  if (mantissa < 0 || mantissa > INT32_MAX)
    return e.fail(e.instr.loc, "mantissa_bits must be from 0 to " +
                                   Twine(INT32_MAX) + ", got " +
                                   Twine(mantissa));
  return e.emit<tg::ReducePrecisionOp>(e.operands[0],
                                       static_cast<uint32_t>(exponent),
                                       static_cast<uint32_t>(mantissa));
}

Emitted constant(InstrEmit &e) {
  if (!arity(e, 0))
    return failure();
  // Tuple-shaped literals have no tgraph form.
  auto tensor = dyn_cast<RankedTensorType>(e.resultType);
  if (!tensor)
    return keepAsUnknown();
  // Dumps elide large literals; the constant then keeps only its type.
  StringRef text = e.instr.literal.trim();
  if (text == "{...}" || text == "...")
    return e.emit<tg::ConstantOp>(ElementsAttr(), /*elided=*/true);
  Attribute value = e.literal(tensor);
  if (!value)
    return failure();
  return e.emit<tg::ConstantOp>(cast<ElementsAttr>(value), /*elided=*/false);
}

Emitted iota(InstrEmit &e) {
  int64_t dim;
  if (!arity(e, 0) || !requiredInt(e, "iota_dimension", dim))
    return failure();
  return e.emit<tg::IotaOp>(static_cast<uint64_t>(dim));
}

Emitted rng(InstrEmit &e) {
  if (!arity(e, 2))
    return failure();
  const Attr *a = required(e, "distribution");
  if (!a)
    return failure();
  auto dist = llvm::StringSwitch<std::optional<tg::RngDistribution>>(a->value)
                  .Case("rng_uniform", tg::RngDistribution::UNIFORM)
                  .Case("rng_normal", tg::RngDistribution::NORMAL)
                  .Default(std::nullopt);
  if (!dist)
    return e.fail(a->valueLoc(), "unknown rng distribution '" + a->value +
                                     "' (expected rng_uniform or rng_normal)");
  return e.emit<tg::RngOp>(*dist, e.operands[0], e.operands[1]);
}

} // namespace

ElementwiseBuilder unaryBuilder(StringRef opcode) {
  return llvm::StringSwitch<ElementwiseBuilder>(opcode)
      .Case("abs", unaryOp<tg::AbsOp>)
      .Case("negate", unaryOp<tg::NegOp>)
      .Case("exponential", unaryOp<tg::ExpOp>)
      .Case("exponential-minus-one", unaryOp<tg::Expm1Op>)
      .Case("log", unaryOp<tg::LogOp>)
      .Case("log-plus-one", unaryOp<tg::Log1pOp>)
      .Case("sqrt", unaryOp<tg::SqrtOp>)
      .Case("rsqrt", unaryOp<tg::RsqrtOp>)
      .Case("cbrt", unaryOp<tg::CbrtOp>)
      .Case("tanh", unaryOp<tg::TanhOp>)
      .Case("logistic", unaryOp<tg::LogisticOp>)
      .Case("sign", unaryOp<tg::SignOp>)
      .Case("floor", unaryOp<tg::FloorOp>)
      .Case("ceil", unaryOp<tg::CeilOp>)
      .Case("round-nearest-afz", unaryOp<tg::RoundOp>)
      .Case("round-nearest-even", unaryOp<tg::RoundEvenOp>)
      .Case("cosine", unaryOp<tg::CosOp>)
      .Case("sine", unaryOp<tg::SinOp>)
      .Case("tan", unaryOp<tg::TanOp>)
      .Case("erf", unaryOp<tg::ErfOp>)
      .Case("not", unaryOp<tg::NotOp>)
      .Case("popcnt", unaryOp<tg::PopcntOp>)
      .Case("count-leading-zeros", unaryOp<tg::ClzOp>)
      .Case("clz", unaryOp<tg::ClzOp>)
      .Case("copy", unaryOp<tg::CopyOp>)
      .Default(nullptr);
}

ElementwiseBuilder binaryBuilder(StringRef opcode) {
  return llvm::StringSwitch<ElementwiseBuilder>(opcode)
      .Case("add", binaryOp<tg::AddOp>)
      .Case("subtract", binaryOp<tg::SubOp>)
      .Case("multiply", binaryOp<tg::MulOp>)
      .Case("divide", binaryOp<tg::DivOp>)
      .Case("remainder", binaryOp<tg::RemOp>)
      .Case("power", binaryOp<tg::PowOp>)
      .Case("maximum", binaryOp<tg::MaxOp>)
      .Case("minimum", binaryOp<tg::MinOp>)
      .Case("and", binaryOp<tg::AndOp>)
      .Case("or", binaryOp<tg::OrOp>)
      .Case("xor", binaryOp<tg::XorOp>)
      .Case("shift-left", binaryOp<tg::ShlOp>)
      .Case("shift-right-arithmetic", binaryOp<tg::ShrAOp>)
      .Case("shift-right-logical", binaryOp<tg::ShrLOp>)
      .Case("atan2", binaryOp<tg::Atan2Op>)
      .Default(nullptr);
}

Emitted emitElementwise(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Unary:
    return unaryBuilder(e.instr.opcode)(e);
  case Op::Binary:
    return binaryBuilder(e.instr.opcode)(e);
  case Op::IsFinite:
    return unaryOp<tg::IsFiniteOp>(e);
  case Op::Compare:
    return compare(e);
  case Op::Select:
    if (!arity(e, 3))
      return failure();
    return e.emit<tg::SelectOp>(e.operands[0], e.operands[1], e.operands[2]);
  case Op::Clamp:
    if (!arity(e, 3))
      return failure();
    return e.emit<tg::ClampOp>(e.operands[0], e.operands[1], e.operands[2]);
  case Op::Convert:
    return unaryOp<tg::ConvertOp>(e);
  case Op::BitcastConvert:
    return unaryOp<tg::BitcastConvertOp>(e);
  case Op::Bitcast:
    return unaryOp<tg::BitcastOp>(e);
  case Op::ReducePrecision:
    return reducePrecision(e);
  default:
    llvm_unreachable("not an elementwise opcode");
  }
}

Emitted emitGenerator(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Constant:
    return constant(e);
  case Op::Iota:
    return iota(e);
  case Op::Rng:
    return rng(e);
  default:
    llvm_unreachable("not a generator opcode");
  }
}

} // namespace tessera::hlo::detail
