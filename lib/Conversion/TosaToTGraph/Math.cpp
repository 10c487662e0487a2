//===- Math.cpp - math dialect ops on tensors -----------------------------===//
//
// Elementwise math ops as TOSA exports carry them beside TOSA (torch-to-TOSA
// tools write GELU as math.erf). Each maps to the tgraph op of the same
// meaning, or to an exact combination of tgraph ops; the ones tgraph cannot
// express exactly get a reason that says why.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

/// math ops take operands of the result's shape: no broadcast to add.
template <typename OpTy, typename TgOp>
FailureOr<Value> binary(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  return e.make<TgOp>(op.getType(), a.getOperands()[0], a.getOperands()[1])
      .getResult();
}

/// atan(x) = atan2(x, 1) for every x, infinities and NaN included.
FailureOr<Value> atan(math::AtanOp op, math::AtanOp::Adaptor a, Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  Value one = splat(e, type, numberAttr(type.getElementType(), 1.0));
  return e.make<tg::Atan2Op>(type, a.getOperand(), one).getResult();
}

/// trunc(x) rounds toward zero: ceil below zero, floor elsewhere. Signed
/// zeros and NaN come out as math.trunc gives them (ceil(-0.5) = -0.0).
FailureOr<Value> trunc(math::TruncOp op, math::TruncOp::Adaptor a, Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  Value x = a.getOperand();
  Value zero = splat(e, type, numberAttr(type.getElementType(), 0.0));
  auto predType = RankedTensorType::get(type.getShape(), e.rw.getI1Type());
  Value negative = e.make<tg::CompareOp>(predType, tg::ComparisonDirection::LT,
                                         x, zero, StringAttr());
  Value up = e.make<tg::CeilOp>(type, x);
  Value down = e.make<tg::FloorOp>(type, x);
  return e.make<tg::SelectOp>(type, negative, up, down).getResult();
}

} // namespace

void tessera::tosa_import::populateMathPatterns(RewritePatternSet &p) {
  add<math::AbsFOp>(p, unary<math::AbsFOp, tg::AbsOp>);
  add<math::AbsIOp>(p, unary<math::AbsIOp, tg::AbsOp>);
  add<math::CeilOp>(p, unary<math::CeilOp, tg::CeilOp>);
  add<math::FloorOp>(p, unary<math::FloorOp, tg::FloorOp>);
  add<math::RoundOp>(p, unary<math::RoundOp, tg::RoundOp>);
  add<math::RoundEvenOp>(p, unary<math::RoundEvenOp, tg::RoundEvenOp>);
  add<math::TruncOp>(p, trunc);
  add<math::ErfOp>(p, unary<math::ErfOp, tg::ErfOp>);
  add<math::ExpOp>(p, unary<math::ExpOp, tg::ExpOp>);
  add<math::ExpM1Op>(p, unary<math::ExpM1Op, tg::Expm1Op>);
  add<math::LogOp>(p, unary<math::LogOp, tg::LogOp>);
  add<math::Log1pOp>(p, unary<math::Log1pOp, tg::Log1pOp>);
  add<math::SqrtOp>(p, unary<math::SqrtOp, tg::SqrtOp>);
  add<math::RsqrtOp>(p, unary<math::RsqrtOp, tg::RsqrtOp>);
  add<math::CbrtOp>(p, unary<math::CbrtOp, tg::CbrtOp>);
  add<math::TanhOp>(p, unary<math::TanhOp, tg::TanhOp>);
  add<math::SinOp>(p, unary<math::SinOp, tg::SinOp>);
  add<math::CosOp>(p, unary<math::CosOp, tg::CosOp>);
  add<math::TanOp>(p, unary<math::TanOp, tg::TanOp>);
  add<math::AtanOp>(p, atan);
  add<math::CountLeadingZerosOp>(p,
                                 unary<math::CountLeadingZerosOp, tg::ClzOp>);
  add<math::CtPopOp>(p, unary<math::CtPopOp, tg::PopcntOp>);
  add<math::Atan2Op>(p, binary<math::Atan2Op, tg::Atan2Op>);
  add<math::PowFOp>(p, binary<math::PowFOp, tg::PowOp>);

  // Ops with no exact tgraph form: kept as tgraph.unknown, with the reason.
  // addUnsupported puts the op name in front of each reason.
  addUnsupported(p, "math.exp2",
                 "no tgraph op; exp(x * ln 2) rounds differently");
  addUnsupported(p, "math.log2",
                 "no tgraph op; log(x) / ln 2 rounds differently");
  addUnsupported(p, "math.log10",
                 "no tgraph op; log(x) / ln 10 rounds differently");
  addUnsupported(p, "math.fma",
                 "rounds once; tgraph's multiply then add rounds twice");
  for (StringRef name : {"math.acos", "math.asin", "math.acosh", "math.asinh",
                         "math.atanh", "math.cosh", "math.sinh"})
    addUnsupported(p, name,
                   "no tgraph op for this inverse or hyperbolic function "
                   "(tgraph has sine, cosine, tan, atan2 and tanh)");
}
