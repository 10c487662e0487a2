//===- Elementwise.cpp - TOSA elementwise ops -----------------------------===//
//
// Unary, binary (with TOSA's implicit broadcasting made explicit) and
// comparison ops, clamp, select, cast, identity and constants.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

/// Binary ops with TOSA's implicit broadcasting made explicit.
template <typename OpTy, typename TgOp>
FailureOr<Value> binary(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  auto shape = cast<RankedTensorType>(op.getType()).getShape();
  Value lhs = broadcastTo(e, a.getOperands()[0], shape);
  Value rhs = broadcastTo(e, a.getOperands()[1], shape);
  return e.make<TgOp>(op.getType(), lhs, rhs).getResult();
}

FailureOr<Value> mul(tosa::MulOp op, tosa::MulOp::Adaptor a, Emitter &e) {
  // TOSA's shift rounds the i32 product right by `shift` bits; only a zero
  // shift is a plain multiply.
  if (op.getShift() != 0)
    return e.fail("mul with shift = " + Twine(static_cast<int>(op.getShift())) +
                  " (rounding right shift of the product) has no tgraph "
                  "equivalent");
  return binary<tosa::MulOp, tg::MulOp>(op, a, e);
}

FailureOr<Value> shiftRight(tosa::ArithmeticRightShiftOp op,
                            tosa::ArithmeticRightShiftOp::Adaptor a,
                            Emitter &e) {
  if (op.getRound())
    return e.fail("arithmetic_right_shift with round = true has no tgraph "
                  "equivalent");
  return binary<tosa::ArithmeticRightShiftOp, tg::ShrAOp>(op, a, e);
}

template <typename OpTy, tg::ComparisonDirection Dir>
FailureOr<Value> compare(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  auto shape = cast<RankedTensorType>(op.getType()).getShape();
  Value lhs = broadcastTo(e, a.getOperands()[0], shape);
  Value rhs = broadcastTo(e, a.getOperands()[1], shape);
  return e.make<tg::CompareOp>(op.getType(), Dir, lhs, rhs, StringAttr())
      .getResult();
}

FailureOr<Value> reciprocal(tosa::ReciprocalOp op,
                            tosa::ReciprocalOp::Adaptor a, Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  if (!isa<FloatType>(type.getElementType()))
    return e.fail("integer reciprocal is a table lookup in TOSA");
  Value one = splat(e, type, numberAttr(type.getElementType(), 1.0));
  return e.make<tg::DivOp>(type, one, a.getInput1()).getResult();
}

/// clamp(min, x, max) with the bounds TOSA gives for the element type:
/// min_fp/max_fp for floats, min_int/max_int for integers.
FailureOr<Value> clamp(tosa::ClampOp op, tosa::ClampOp::Adaptor a, Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  Type elt = type.getElementType();
  auto scalar = RankedTensorType::get({}, elt);
  Attribute lo, hi;
  if (isa<FloatType>(elt)) {
    lo = FloatAttr::get(elt, op.getMinFp().convertToDouble());
    hi = FloatAttr::get(elt, op.getMaxFp().convertToDouble());
  } else {
    lo = IntegerAttr::get(elt, op.getMinInt());
    hi = IntegerAttr::get(elt, op.getMaxInt());
  }
  Value min = splat(e, scalar, lo), max = splat(e, scalar, hi);
  return e.make<tg::ClampOp>(type, min, a.getInput(), max).getResult();
}

FailureOr<Value> select(tosa::SelectOp op, tosa::SelectOp::Adaptor a,
                        Emitter &e) {
  auto shape = cast<RankedTensorType>(op.getType()).getShape();
  Value pred = broadcastTo(e, a.getPred(), shape);
  Value t = broadcastTo(e, a.getOnTrue(), shape);
  Value f = broadcastTo(e, a.getOnFalse(), shape);
  return e.make<tg::SelectOp>(op.getType(), pred, t, f).getResult();
}

FailureOr<Value> convertCast(tosa::CastOp op, tosa::CastOp::Adaptor a,
                             Emitter &e) {
  return e.make<tg::ConvertOp>(op.getType(), a.getInput()).getResult();
}

FailureOr<Value> identity(tosa::IdentityOp, tosa::IdentityOp::Adaptor a,
                          Emitter &) {
  return a.getInput1();
}

FailureOr<Value> constant(tosa::ConstOp op, tosa::ConstOp::Adaptor,
                          Emitter &e) {
  return importConstant(e, cast<RankedTensorType>(op.getType()), op.getValue());
}

} // namespace

void tessera::tosa_import::populateElementwisePatterns(RewritePatternSet &p) {
  using CD = tg::ComparisonDirection;
  add<tosa::ConstOp>(p, constant);
  add<tosa::IdentityOp>(p, identity);
  add<tosa::CastOp>(p, convertCast);
  add<tosa::SelectOp>(p, select);
  add<tosa::ClampOp>(p, clamp);
  add<tosa::ReciprocalOp>(p, reciprocal);
  // Unary elementwise.
  add<tosa::AbsOp>(p, unary<tosa::AbsOp, tg::AbsOp>);
  add<tosa::NegateOp>(p, unary<tosa::NegateOp, tg::NegOp>);
  add<tosa::ExpOp>(p, unary<tosa::ExpOp, tg::ExpOp>);
  add<tosa::LogOp>(p, unary<tosa::LogOp, tg::LogOp>);
  add<tosa::FloorOp>(p, unary<tosa::FloorOp, tg::FloorOp>);
  add<tosa::CeilOp>(p, unary<tosa::CeilOp, tg::CeilOp>);
  add<tosa::RsqrtOp>(p, unary<tosa::RsqrtOp, tg::RsqrtOp>);
  add<tosa::TanhOp>(p, unary<tosa::TanhOp, tg::TanhOp>);
  add<tosa::SigmoidOp>(p, unary<tosa::SigmoidOp, tg::LogisticOp>);
  add<tosa::ErfOp>(p, unary<tosa::ErfOp, tg::ErfOp>);
  add<tosa::ClzOp>(p, unary<tosa::ClzOp, tg::ClzOp>);
  add<tosa::BitwiseNotOp>(p, unary<tosa::BitwiseNotOp, tg::NotOp>);
  add<tosa::LogicalNotOp>(p, unary<tosa::LogicalNotOp, tg::NotOp>);
  // Binary elementwise.
  add<tosa::AddOp>(p, binary<tosa::AddOp, tg::AddOp>);
  add<tosa::SubOp>(p, binary<tosa::SubOp, tg::SubOp>);
  add<tosa::MulOp>(p, mul);
  add<tosa::IntDivOp>(p, binary<tosa::IntDivOp, tg::DivOp>);
  add<tosa::PowOp>(p, binary<tosa::PowOp, tg::PowOp>);
  add<tosa::MaximumOp>(p, binary<tosa::MaximumOp, tg::MaxOp>);
  add<tosa::MinimumOp>(p, binary<tosa::MinimumOp, tg::MinOp>);
  add<tosa::BitwiseAndOp>(p, binary<tosa::BitwiseAndOp, tg::AndOp>);
  add<tosa::BitwiseOrOp>(p, binary<tosa::BitwiseOrOp, tg::OrOp>);
  add<tosa::BitwiseXorOp>(p, binary<tosa::BitwiseXorOp, tg::XorOp>);
  add<tosa::LogicalAndOp>(p, binary<tosa::LogicalAndOp, tg::AndOp>);
  add<tosa::LogicalOrOp>(p, binary<tosa::LogicalOrOp, tg::OrOp>);
  add<tosa::LogicalXorOp>(p, binary<tosa::LogicalXorOp, tg::XorOp>);
  add<tosa::LogicalLeftShiftOp>(p, binary<tosa::LogicalLeftShiftOp, tg::ShlOp>);
  add<tosa::LogicalRightShiftOp>(p,
                                 binary<tosa::LogicalRightShiftOp, tg::ShrLOp>);
  add<tosa::ArithmeticRightShiftOp>(p, shiftRight);
  add<tosa::GreaterOp>(p, compare<tosa::GreaterOp, CD::GT>);
  add<tosa::GreaterEqualOp>(p, compare<tosa::GreaterEqualOp, CD::GE>);
  add<tosa::EqualOp>(p, compare<tosa::EqualOp, CD::EQ>);
}
