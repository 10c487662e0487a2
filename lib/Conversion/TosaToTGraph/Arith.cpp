//===- Arith.cpp - arith dialect ops on tensors ---------------------------===//
//
// Tensor constants and elementwise arith ops, as exports write them beside
// TOSA (scale factors, epsilons, masks). tgraph's integers are signed
// where it matters (divide, compare, convert), so arith's unsigned
// operations are either rewritten exactly (unsigned compare, zero
// extension) or kept as tgraph.unknown with the reason. Scalar arith ops
// are not rewritten: the tensor ops that use them read them as constants.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

using Dir = tg::ComparisonDirection;

FailureOr<Value> constant(arith::ConstantOp op, arith::ConstantOp::Adaptor,
                          Emitter &e) {
  auto value = dyn_cast<ElementsAttr>(op.getValue());
  if (!value)
    return e.fail("arith.constant: the value is not an elements attribute");
  return importConstant(e, cast<RankedTensorType>(op.getType()), value);
}

/// arith's binary ops take operands of the result's type: no broadcast.
template <typename OpTy, typename TgOp>
FailureOr<Value> binary(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  return e.make<TgOp>(op.getType(), a.getLhs(), a.getRhs()).getResult();
}

FailureOr<Value> negf(arith::NegFOp op, arith::NegFOp::Adaptor a, Emitter &e) {
  return e.make<tg::NegOp>(op.getType(), a.getOperand()).getResult();
}

Value compare(Emitter &e, Type type, Dir dir, Value lhs, Value rhs) {
  return e.make<tg::CompareOp>(type, dir, lhs, rhs, StringAttr());
}

Value logicalNot(Emitter &e, Type type, Value v) {
  return e.make<tg::NotOp>(type, v);
}

/// tgraph's float compare is ordered except NE (true when either side is
/// NaN), as in HLO. The other unordered predicates are the negation of the
/// ordered opposite (x ugt y = not (x ole y)); `one` is lt or gt, `ord`
/// compares each side with itself. Separate statements keep the order of
/// the built ops fixed (argument evaluation order is unspecified).
FailureOr<Value> cmpf(arith::CmpFOp op, arith::CmpFOp::Adaptor a, Emitter &e) {
  Type type = op.getType();
  Value l = a.getLhs(), r = a.getRhs();
  auto orderedUnequal = [&] {
    Value lt = compare(e, type, Dir::LT, l, r);
    Value gt = compare(e, type, Dir::GT, l, r);
    return e.make<tg::OrOp>(type, lt, gt).getResult();
  };
  auto ordered = [&] {
    Value lhsNumber = compare(e, type, Dir::EQ, l, l);
    Value rhsNumber = compare(e, type, Dir::EQ, r, r);
    return e.make<tg::AndOp>(type, lhsNumber, rhsNumber).getResult();
  };
  auto constantPred = [&](bool value) {
    return splat(e, cast<RankedTensorType>(type), e.rw.getBoolAttr(value));
  };
  using P = arith::CmpFPredicate;
  switch (op.getPredicate()) {
  case P::OEQ:
    return compare(e, type, Dir::EQ, l, r);
  case P::OGT:
    return compare(e, type, Dir::GT, l, r);
  case P::OGE:
    return compare(e, type, Dir::GE, l, r);
  case P::OLT:
    return compare(e, type, Dir::LT, l, r);
  case P::OLE:
    return compare(e, type, Dir::LE, l, r);
  case P::UNE:
    return compare(e, type, Dir::NE, l, r);
  case P::UGT:
    return logicalNot(e, type, compare(e, type, Dir::LE, l, r));
  case P::UGE:
    return logicalNot(e, type, compare(e, type, Dir::LT, l, r));
  case P::ULT:
    return logicalNot(e, type, compare(e, type, Dir::GE, l, r));
  case P::ULE:
    return logicalNot(e, type, compare(e, type, Dir::GT, l, r));
  case P::ONE:
    return orderedUnequal();
  case P::UEQ:
    return logicalNot(e, type, orderedUnequal());
  case P::ORD:
    return ordered();
  case P::UNO:
    return logicalNot(e, type, ordered());
  case P::AlwaysFalse:
    return constantPred(false);
  case P::AlwaysTrue:
    return constantPred(true);
  }
  return e.fail("arith.cmpf: unknown predicate");
}

/// tgraph compares signless integers as signed. An unsigned compare is the
/// signed compare of both sides with the sign bit flipped (x ^ INT_MIN),
/// which maps 0..2^n-1 onto INT_MIN..INT_MAX in order.
FailureOr<Value> cmpi(arith::CmpIOp op, arith::CmpIOp::Adaptor a, Emitter &e) {
  Type type = op.getType();
  Value l = a.getLhs(), r = a.getRhs();
  auto operandType = cast<RankedTensorType>(l.getType());
  auto elt = dyn_cast<IntegerType>(operandType.getElementType());
  // The other element type cmpi takes is index.
  if (!elt)
    return e.fail("arith.cmpi on index elements: tgraph has no index type");
  using P = arith::CmpIPredicate;
  P pred = op.getPredicate();
  if (pred == P::eq)
    return compare(e, type, Dir::EQ, l, r);
  if (pred == P::ne)
    return compare(e, type, Dir::NE, l, r);
  // On i1, arith orders true (-1) below false when signed; tgraph's
  // predicates are 0 and 1.
  if (elt.getWidth() == 1)
    return e.fail("arith.cmpi " + arith::stringifyCmpIPredicate(pred) +
                  " on i1 is not imported (tgraph orders i1 as 0 < 1)");
  bool isUnsigned =
      pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge;
  if (isUnsigned) {
    Value signBit = splat(
        e, operandType,
        e.rw.getIntegerAttr(elt, llvm::APInt::getSignMask(elt.getWidth())));
    l = e.make<tg::XorOp>(operandType, l, signBit);
    r = e.make<tg::XorOp>(operandType, r, signBit);
  }
  Dir dir = Dir::LT;
  if (pred == P::sle || pred == P::ule)
    dir = Dir::LE;
  else if (pred == P::sgt || pred == P::ugt)
    dir = Dir::GT;
  else if (pred == P::sge || pred == P::uge)
    dir = Dir::GE;
  return compare(e, type, dir, l, r);
}

/// A scalar i1 condition (one choice for the whole tensor) must be a
/// constant: tgraph has no scalar values, only 0-d tensors.
FailureOr<Value> select(arith::SelectOp op, arith::SelectOp::Adaptor a,
                        Emitter &e) {
  Value cond = a.getCondition();
  if (!isa<RankedTensorType>(cond.getType())) {
    TypedAttr value = scalarConstant(cond);
    if (!value)
      return e.fail("arith.select: the scalar i1 condition is computed at "
                    "run time (tgraph has no scalar values)");
    cond = splat(e, RankedTensorType::get({}, e.rw.getI1Type()), value);
  }
  return e
      .make<tg::SelectOp>(op.getType(), cond, a.getTrueValue(),
                          a.getFalseValue())
      .getResult();
}

bool isI1(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType().isInteger(1);
}

/// Casts whose meaning is tgraph's convert (round to nearest even, truncate
/// toward zero, sign-extend, wrap). A signed i1 source is -1 for true, where
/// convert gives 1: it becomes a select between -1 and 0.
template <typename OpTy>
FailureOr<Value> convert(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  Value in = a.getIn();
  if constexpr (std::is_same_v<OpTy, arith::ExtSIOp> ||
                std::is_same_v<OpTy, arith::SIToFPOp>) {
    if (isI1(in)) {
      Type elt = type.getElementType();
      Value minusOne = splat(e, type, numberAttr(elt, -1.0));
      Value zero = splat(e, type, numberAttr(elt, 0.0));
      return e.make<tg::SelectOp>(type, in, minusOne, zero).getResult();
    }
  }
  return e.make<tg::ConvertOp>(type, in).getResult();
}

/// trunci keeps the low bits; to i1 that is the lowest bit, where
/// convert would test for nonzero.
FailureOr<Value> trunci(arith::TruncIOp op, arith::TruncIOp::Adaptor a,
                        Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  if (!type.getElementType().isInteger(1))
    return e.make<tg::ConvertOp>(type, a.getIn()).getResult();
  auto inType = cast<RankedTensorType>(a.getIn().getType());
  Value one = splat(e, inType, numberAttr(inType.getElementType(), 1));
  Value zero = splat(e, inType, numberAttr(inType.getElementType(), 0));
  Value low = e.make<tg::AndOp>(inType, a.getIn(), one);
  return compare(e, type, Dir::NE, low, zero);
}

/// Zero extension to `type`'s integer element type: tgraph's convert
/// sign-extends a signless source, so the extended bits are masked off.
Value zeroExtend(Emitter &e, Value in, RankedTensorType type) {
  Value wide = e.make<tg::ConvertOp>(type, in);
  if (isI1(in))
    return wide;
  unsigned width = cast<RankedTensorType>(in.getType())
                       .getElementType()
                       .getIntOrFloatBitWidth();
  auto elt = cast<IntegerType>(type.getElementType());
  Value mask = splat(e, type,
                     e.rw.getIntegerAttr(elt, llvm::APInt::getLowBitsSet(
                                                  elt.getWidth(), width)));
  return e.make<tg::AndOp>(type, wide, mask);
}

FailureOr<Value> extui(arith::ExtUIOp op, arith::ExtUIOp::Adaptor a,
                       Emitter &e) {
  return zeroExtend(e, a.getIn(), cast<RankedTensorType>(op.getType()));
}

/// uitofp goes through i64, where every unsigned value below 2^63 is
/// non-negative, so the signed convert to float is exact.
FailureOr<Value> uitofp(arith::UIToFPOp op, arith::UIToFPOp::Adaptor a,
                        Emitter &e) {
  auto type = cast<RankedTensorType>(op.getType());
  auto inType = cast<RankedTensorType>(a.getIn().getType());
  if (isI1(a.getIn()))
    return e.make<tg::ConvertOp>(type, a.getIn()).getResult();
  if (inType.getElementType().getIntOrFloatBitWidth() >= 64)
    return e.fail("arith.uitofp from a 64-bit integer: tgraph converts it "
                  "as signed");
  auto wide = RankedTensorType::get(inType.getShape(), e.rw.getI64Type());
  Value extended = zeroExtend(e, a.getIn(), wide);
  return e.make<tg::ConvertOp>(type, extended).getResult();
}

FailureOr<Value> bitcast(arith::BitcastOp op, arith::BitcastOp::Adaptor a,
                         Emitter &e) {
  return e.make<tg::BitcastConvertOp>(op.getType(), a.getIn()).getResult();
}

} // namespace

void tessera::tosa_import::populateArithPatterns(RewritePatternSet &p) {
  add<arith::ConstantOp>(p, constant);
  add<arith::AddFOp>(p, binary<arith::AddFOp, tg::AddOp>);
  add<arith::AddIOp>(p, binary<arith::AddIOp, tg::AddOp>);
  add<arith::SubFOp>(p, binary<arith::SubFOp, tg::SubOp>);
  add<arith::SubIOp>(p, binary<arith::SubIOp, tg::SubOp>);
  add<arith::MulFOp>(p, binary<arith::MulFOp, tg::MulOp>);
  add<arith::MulIOp>(p, binary<arith::MulIOp, tg::MulOp>);
  add<arith::DivFOp>(p, binary<arith::DivFOp, tg::DivOp>);
  // Both truncate toward zero; arith leaves division by zero undefined.
  add<arith::DivSIOp>(p, binary<arith::DivSIOp, tg::DivOp>);
  // fmod and C's %: the remainder takes the dividend's sign.
  add<arith::RemFOp>(p, binary<arith::RemFOp, tg::RemOp>);
  add<arith::RemSIOp>(p, binary<arith::RemSIOp, tg::RemOp>);
  // maximumf / minimumf propagate NaN, as tgraph's maximum / minimum do.
  add<arith::MaximumFOp>(p, binary<arith::MaximumFOp, tg::MaxOp>);
  add<arith::MinimumFOp>(p, binary<arith::MinimumFOp, tg::MinOp>);
  add<arith::MaxSIOp>(p, binary<arith::MaxSIOp, tg::MaxOp>);
  add<arith::MinSIOp>(p, binary<arith::MinSIOp, tg::MinOp>);
  add<arith::AndIOp>(p, binary<arith::AndIOp, tg::AndOp>);
  add<arith::OrIOp>(p, binary<arith::OrIOp, tg::OrOp>);
  add<arith::XOrIOp>(p, binary<arith::XOrIOp, tg::XorOp>);
  add<arith::ShLIOp>(p, binary<arith::ShLIOp, tg::ShlOp>);
  add<arith::ShRSIOp>(p, binary<arith::ShRSIOp, tg::ShrAOp>);
  add<arith::ShRUIOp>(p, binary<arith::ShRUIOp, tg::ShrLOp>);
  add<arith::NegFOp>(p, negf);
  add<arith::CmpFOp>(p, cmpf);
  add<arith::CmpIOp>(p, cmpi);
  add<arith::SelectOp>(p, select);
  add<arith::ExtFOp>(p, convert<arith::ExtFOp>);
  add<arith::TruncFOp>(p, convert<arith::TruncFOp>);
  add<arith::ExtSIOp>(p, convert<arith::ExtSIOp>);
  add<arith::SIToFPOp>(p, convert<arith::SIToFPOp>);
  add<arith::FPToSIOp>(p, convert<arith::FPToSIOp>);
  add<arith::TruncIOp>(p, trunci);
  add<arith::ExtUIOp>(p, extui);
  add<arith::UIToFPOp>(p, uitofp);
  add<arith::BitcastOp>(p, bitcast);

  // addUnsupported puts the op name in front of each reason.
  constexpr StringLiteral asSigned =
      "tgraph reads signless integers as signed here; no exact rewrite";
  for (StringRef name : {"arith.divui", "arith.remui", "arith.maxui",
                         "arith.minui", "arith.ceildivui", "arith.fptoui"})
    addUnsupported(p, name, asSigned);
  addUnsupported(p, "arith.ceildivsi", "no tgraph op rounds a quotient up");
  addUnsupported(p, "arith.floordivsi", "no tgraph op rounds a quotient down");
  for (StringRef name : {"arith.maxnumf", "arith.minnumf"})
    addUnsupported(p, name,
                   "ignores NaN operands; tgraph's maximum / minimum "
                   "propagate them");
  for (StringRef name : {"arith.index_cast", "arith.index_castui"})
    addUnsupported(p, name, "tgraph has no index element type");
  for (StringRef name :
       {"arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended"})
    addUnsupported(p, name,
                   "has two results (value and overflow / high half); "
                   "tgraph has no widening arithmetic");
}
