//===- DataMovement.cpp - TOSA shape and reduction ops --------------------===//
//
// Reshape, transpose, slice, concat, pad, tile, gather, and the reductions
// (reduce_*, argmax), which restore TOSA's kept dimension.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

FailureOr<Value> reshape(tosa::ReshapeOp op, tosa::ReshapeOp::Adaptor a,
                         Emitter &e) {
  return e.make<tg::ReshapeOp>(op.getType(), a.getInput1()).getResult();
}

FailureOr<Value> transpose(tosa::TransposeOp op, tosa::TransposeOp::Adaptor a,
                           Emitter &e) {
  FailureOr<SmallVector<int64_t>> perms = constInts(op.getPerms());
  if (failed(perms))
    return e.fail("transpose perms are not a constant");
  return e.make<tg::TransposeOp>(op.getType(), a.getInput1(), *perms)
      .getResult();
}

FailureOr<Value> slice(tosa::SliceOp op, tosa::SliceOp::Adaptor a, Emitter &e) {
  SmallVector<int64_t> limit;
  for (auto [start, size] : llvm::zip(op.getStart(), op.getSize()))
    limit.push_back(start + size);
  SmallVector<int64_t> strides(limit.size(), 1);
  return e
      .make<tg::SliceOp>(op.getType(), a.getInput(), op.getStart(), limit,
                         strides)
      .getResult();
}

FailureOr<Value> concat(tosa::ConcatOp op, tosa::ConcatOp::Adaptor a,
                        Emitter &e) {
  return e
      .make<tg::ConcatenateOp>(op.getType(), a.getInput1(),
                               static_cast<uint64_t>(op.getAxis()))
      .getResult();
}

FailureOr<Value> pad(tosa::PadOp op, tosa::PadOp::Adaptor a, Emitter &e) {
  FailureOr<SmallVector<int64_t>> pads = constInts(op.getPadding());
  auto type = rankedOf(a.getInput1());
  if (failed(pads) || static_cast<int64_t>(pads->size()) != 2 * type.getRank())
    return e.fail("pad paddings are not a constant [rank, 2] tensor");
  SmallVector<int64_t> low, high, interior(type.getRank(), 0);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    low.push_back((*pads)[2 * d]);
    high.push_back((*pads)[2 * d + 1]);
  }
  auto scalar = RankedTensorType::get({}, type.getElementType());
  Value padValue = a.getPadConst()
                       ? reshapeTo(e, a.getPadConst(), {})
                       : splat(e, scalar, numberAttr(type.getElementType(), 0));
  return e
      .make<tg::PadOp>(op.getType(), a.getInput1(), padValue, low, high,
                       interior)
      .getResult();
}

/// tile: broadcast [d0, d1] to [m0, d0, m1, d1], then reshape to
/// [m0*d0, m1*d1] — the row-major order of repeated copies.
FailureOr<Value> tile(tosa::TileOp op, tosa::TileOp::Adaptor a, Emitter &e) {
  auto type = rankedOf(a.getInput1());
  ArrayRef<int64_t> multiples = op.getMultiples();
  if (static_cast<int64_t>(multiples.size()) != type.getRank())
    return e.fail("tile multiples do not match the input rank");
  SmallVector<int64_t> wide, dims;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    wide.push_back(multiples[d]);
    wide.push_back(type.getDimSize(d));
    dims.push_back(2 * d + 1);
  }
  Value b = e.make<tg::BroadcastInDimOp>(
      RankedTensorType::get(wide, type.getElementType()), a.getInput1(), dims);
  return e.make<tg::ReshapeOp>(op.getType(), b).getResult();
}

/// gather values[N,K,C] at indices[N,W]: HLO gather with the batch index
/// made explicit, start indices [N,W,2] = (iota over N, index).
FailureOr<Value> gather(tosa::GatherOp op, tosa::GatherOp::Adaptor a,
                        Emitter &e) {
  auto values = rankedOf(a.getValues());
  auto indices = rankedOf(a.getIndices());
  int64_t n = indices.getDimSize(0), w = indices.getDimSize(1);
  Type idx = indices.getElementType();
  auto column = RankedTensorType::get({n, w, 1}, idx);
  Value batch = e.make<tg::IotaOp>(column, static_cast<uint64_t>(0));
  Value index = reshapeTo(e, a.getIndices(), {n, w, 1});
  Value starts = e.make<tg::ConcatenateOp>(
      RankedTensorType::get({n, w, 2}, idx), ValueRange{batch, index},
      static_cast<uint64_t>(2));
  SmallVector<int64_t> sizes = {1, 1, values.getDimSize(2)};
  return e
      .make<tg::GatherOp>(op.getType(), a.getValues(), starts,
                          ArrayRef<int64_t>{2}, ArrayRef<int64_t>{0, 1},
                          ArrayRef<int64_t>{0, 1}, static_cast<uint64_t>(2),
                          sizes, false)
      .getResult();
}

//===----------------------------------------------------------------------===//
// Reductions: tgraph.reduce drops the axis, TOSA keeps it with size 1.
//===----------------------------------------------------------------------===//

template <typename OpTy, typename TgOp>
FailureOr<Value> reduce(OpTy op, typename OpTy::Adaptor a, Emitter &e,
                        Attribute init) {
  auto type = rankedOf(a.getInput());
  int64_t axis = op.getAxis();
  if (axis < 0 || axis >= type.getRank())
    return e.fail("reduce axis out of range");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != axis)
      shape.push_back(type.getDimSize(d));
  Type elt = type.getElementType();
  Value initValue = splat(e, RankedTensorType::get({}, elt), init);
  auto reduced = e.make<tg::ReduceOp>(
      RankedTensorType::get(shape, elt), ValueRange{a.getInput()},
      ValueRange{initValue}, ArrayRef<int64_t>{axis});
  buildReducer<TgOp>(e, reduced.getBody(), elt);
  return reshapeTo(e, reduced, cast<RankedTensorType>(op.getType()).getShape());
}

template <typename OpTy, typename TgOp, int Kind>
FailureOr<Value> reduceFamily(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  Type elt = rankedOf(a.getInput()).getElementType();
  // Kind: 0 sum/any (0), 1 prod/all (1), 2 max (lowest), 3 min (highest).
  Attribute init = Kind == 0   ? numberAttr(elt, 0)
                   : Kind == 1 ? numberAttr(elt, 1)
                               : extremeAttr(elt, /*lowest=*/Kind == 2);
  return reduce<OpTy, TgOp>(op, a, e, init);
}

/// argmax: a two-operand reduce over (value, iota index) that keeps the
/// larger value, and on ties the smaller index (TOSA returns the first
/// maximum); the index half of the result tuple is the answer.
FailureOr<Value> argmax(tosa::ArgMaxOp op, tosa::ArgMaxOp::Adaptor a,
                        Emitter &e) {
  auto type = rankedOf(a.getInput());
  auto outType = cast<RankedTensorType>(op.getType());
  int64_t axis = op.getAxis();
  if (axis < 0 || axis >= type.getRank())
    return e.fail("argmax axis out of range");
  Type elt = type.getElementType(), idx = outType.getElementType();
  auto vs = RankedTensorType::get({}, elt), is = RankedTensorType::get({}, idx);
  Value index = e.make<tg::IotaOp>(RankedTensorType::get(type.getShape(), idx),
                                   static_cast<uint64_t>(axis));
  Value initV = splat(e, vs, extremeAttr(elt, /*lowest=*/true));
  Value initI = splat(e, is, numberAttr(idx, 0));
  auto valuesType = RankedTensorType::get(outType.getShape(), elt);
  auto reduce = e.make<tg::ReduceOp>(
      TupleType::get(e.rw.getContext(), {valuesType, outType}),
      ValueRange{a.getInput(), index}, ValueRange{initV, initI},
      ArrayRef<int64_t>{axis});
  {
    OpBuilder::InsertionGuard guard(e.rw);
    Block *b = e.rw.createBlock(&reduce.getBody(), {}, {vs, is, vs, is},
                                {e.loc, e.loc, e.loc, e.loc});
    Value accV = b->getArgument(0), accI = b->getArgument(1);
    Value v = b->getArgument(2), i = b->getArgument(3);
    auto pred = RankedTensorType::get({}, e.rw.getI1Type());
    auto cmp = [&](tg::ComparisonDirection dir, Value l, Value r) -> Value {
      return e.rw.create<tg::CompareOp>(e.loc, pred, dir, l, r, StringAttr());
    };
    Value greater = cmp(tg::ComparisonDirection::GT, v, accV);
    // Separate statements: argument evaluation order is unspecified.
    Value equal = cmp(tg::ComparisonDirection::EQ, v, accV);
    Value first = cmp(tg::ComparisonDirection::LT, i, accI);
    Value tie = e.rw.create<tg::AndOp>(e.loc, pred, equal, first);
    Value take = e.rw.create<tg::OrOp>(e.loc, pred, greater, tie);
    Value newV = e.rw.create<tg::SelectOp>(e.loc, vs, take, v, accV);
    Value newI = e.rw.create<tg::SelectOp>(e.loc, is, take, i, accI);
    e.rw.create<tg::ReturnOp>(e.loc, ValueRange{newV, newI});
  }
  return e
      .make<tg::GetTupleElementOp>(outType, reduce, static_cast<uint64_t>(1))
      .getResult();
}

} // namespace

void tessera::tosa_import::populateDataMovementPatterns(RewritePatternSet &p) {
  // Reductions.
  add<tosa::ReduceSumOp>(p, reduceFamily<tosa::ReduceSumOp, tg::AddOp, 0>);
  add<tosa::ReduceProdOp>(p, reduceFamily<tosa::ReduceProdOp, tg::MulOp, 1>);
  add<tosa::ReduceMaxOp>(p, reduceFamily<tosa::ReduceMaxOp, tg::MaxOp, 2>);
  add<tosa::ReduceMinOp>(p, reduceFamily<tosa::ReduceMinOp, tg::MinOp, 3>);
  add<tosa::ReduceAnyOp>(p, reduceFamily<tosa::ReduceAnyOp, tg::OrOp, 0>);
  add<tosa::ReduceAllOp>(p, reduceFamily<tosa::ReduceAllOp, tg::AndOp, 1>);
  add<tosa::ArgMaxOp>(p, argmax);
  // Shapes and data movement.
  add<tosa::ReshapeOp>(p, reshape);
  add<tosa::TransposeOp>(p, transpose);
  add<tosa::SliceOp>(p, slice);
  add<tosa::ConcatOp>(p, concat);
  add<tosa::PadOp>(p, pad);
  add<tosa::TileOp>(p, tile);
  add<tosa::GatherOp>(p, gather);
}
