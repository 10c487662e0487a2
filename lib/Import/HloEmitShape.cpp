//===- HloEmitShape.cpp - HLO shape and data movement ops -----------------===//
//
// broadcast, reshape, transpose, reverse, static and dynamic slices,
// concatenate, pad and gather: ops that move elements without computing
// on them.
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

using namespace mlir;

namespace tessera::hlo::detail {
namespace {

/// Ops of one operand and the `dimensions={...}` list (broadcast,
/// transpose, reverse).
template <typename OpTy> Emitted withDims(InstrEmit &e) {
  llvm::SmallVector<int64_t, 4> dims;
  if (!arity(e, 1) || !requiredInts(e, "dimensions", dims))
    return failure();
  return e.emit<OpTy>(e.operands[0], dims);
}

Emitted slice(InstrEmit &e) {
  const Attr *a = required(e, "slice");
  llvm::SmallVector<int64_t, 4> start, limit, strides;
  if (!arity(e, 1) || !a || !parseSlice(*a, e.diags(), start, limit, strides))
    return failure();
  return e.emit<tg::SliceOp>(e.operands[0], start, limit, strides);
}

/// The start indices of a dynamic (update) slice as scalars. XLA still
/// takes the old form with all of them in one rank-1 operand
/// (`dynamic-slice(x, s32[2] i)`): it is split with a slice and a reshape
/// per dimension, built beside the instruction's op.
static llvm::SmallVector<Value, 4> scalarStarts(InstrEmit &e,
                                                ArrayRef<Value> starts) {
  llvm::SmallVector<Value, 4> out(starts.begin(), starts.end());
  if (starts.size() != 1)
    return out;
  auto vector = dyn_cast<RankedTensorType>(starts[0].getType());
  if (!vector || vector.getRank() != 1 || vector.isDynamicDim(0))
    return out;
  out.clear();
  auto one = RankedTensorType::get({1}, vector.getElementType());
  auto scalar = RankedTensorType::get({}, vector.getElementType());
  for (int64_t i = 0; i < vector.getDimSize(0); ++i) {
    auto piece = e.builder().create<tg::SliceOp>(
        e.loc, one, starts[0], llvm::ArrayRef<int64_t>{i},
        llvm::ArrayRef<int64_t>{i + 1}, llvm::ArrayRef<int64_t>{1});
    auto index = e.builder().create<tg::ReshapeOp>(e.loc, scalar, piece);
    e.helpers.push_back(piece);
    e.helpers.push_back(index);
    out.push_back(index);
  }
  return out;
}

Emitted dynamicSlice(InstrEmit &e) {
  if (e.operands.empty())
    return badArity(e, 2);
  llvm::SmallVector<int64_t, 4> sizes;
  if (!requiredInts(e, "dynamic_slice_sizes", sizes))
    return failure();
  return e.emit<tg::DynamicSliceOp>(
      e.operands[0], scalarStarts(e, e.operands.drop_front()), sizes);
}

Emitted dynamicUpdateSlice(InstrEmit &e) {
  if (e.operands.size() < 2)
    return badArity(e, 2);
  return e.emit<tg::DynamicUpdateSliceOp>(
      e.operands[0], e.operands[1], scalarStarts(e, e.operands.drop_front(2)));
}

Emitted concatenate(InstrEmit &e) {
  int64_t dim;
  if (!singleDim(e, "dimensions", dim))
    return failure();
  return e.emit<tg::ConcatenateOp>(e.operands, static_cast<uint64_t>(dim));
}

Emitted pad(InstrEmit &e) {
  const Attr *a = required(e, "padding");
  llvm::SmallVector<int64_t, 4> low, high, interior;
  if (!arity(e, 2) || !a || !parsePadding(*a, e.diags(), low, high, interior))
    return failure();
  return e.emit<tg::PadOp>(e.operands[0], e.operands[1], low, high, interior);
}

Emitted gather(InstrEmit &e) {
  llvm::SmallVector<int64_t, 4> offset, collapsed, startMap, sizes;
  llvm::SmallVector<int64_t, 4> operandBatch, indicesBatch;
  int64_t indexVectorDim;
  bool sorted = false;
  if (!arity(e, 2) || !requiredInts(e, "offset_dims", offset) ||
      !requiredInts(e, "collapsed_slice_dims", collapsed) ||
      !requiredInts(e, "start_index_map", startMap) ||
      !requiredInt(e, "index_vector_dim", indexVectorDim) ||
      !requiredInts(e, "slice_sizes", sizes) ||
      !optionalInts(e, "operand_batching_dims", operandBatch) ||
      !optionalInts(e, "start_indices_batching_dims", indicesBatch) ||
      !flag(e, "indices_are_sorted", sorted))
    return failure();
  // Batched gather is not modelled.
  if (!operandBatch.empty() || !indicesBatch.empty())
    return keepAsUnknown();
  return e.emit<tg::GatherOp>(e.operands[0], e.operands[1], offset, collapsed,
                              startMap, static_cast<uint64_t>(indexVectorDim),
                              sizes, sorted);
}

} // namespace

Emitted emitShape(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Broadcast:
    return withDims<tg::BroadcastInDimOp>(e);
  case Op::Reshape:
    return unaryOp<tg::ReshapeOp>(e);
  case Op::Transpose:
    return withDims<tg::TransposeOp>(e);
  case Op::Reverse:
    return withDims<tg::ReverseOp>(e);
  case Op::Slice:
    return slice(e);
  case Op::DynamicSlice:
    return dynamicSlice(e);
  case Op::DynamicUpdateSlice:
    return dynamicUpdateSlice(e);
  case Op::Concatenate:
    return concatenate(e);
  case Op::Pad:
    return pad(e);
  case Op::Gather:
    return gather(e);
  default:
    llvm_unreachable("not a shape opcode");
  }
}

} // namespace tessera::hlo::detail
