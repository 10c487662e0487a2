//===- HloEmitRegions.cpp - HLO ops with reducer/comparator regions -------===//
//
// reduce, reduce-window, select-and-scatter, scatter and sort. The
// computation each names (`to_apply=`, `select=`, `scatter=`) is emitted
// inside the op's region; the op is created first, then its regions are
// filled (see withRegion).
//
//===----------------------------------------------------------------------===//

#include "HloEmitOps.h"

using namespace mlir;
using llvm::Twine;

namespace tessera::hlo::detail {
namespace {

/// reduce and reduce-window take N inputs, then N init values.
bool inputsAndInits(InstrEmit &e) {
  if (e.operands.size() >= 2 && e.operands.size() % 2 == 0)
    return true;
  return e.error(e.instr.opcodeLoc,
                 "'" + e.instr.opcode +
                     "' takes N inputs and N init values, got " +
                     Twine(e.operands.size()) + " operands");
}

Emitted reduce(InstrEmit &e) {
  if (!inputsAndInits(e))
    return failure();
  size_t n = e.operands.size() / 2;
  llvm::SmallVector<int64_t, 4> dims;
  if (!requiredInts(e, "dimensions", dims))
    return failure();
  auto op = e.create<tg::ReduceOp>(e.operands.take_front(n),
                                   e.operands.drop_front(n), dims);
  return withRegion(e, op, op.getBody(), "to_apply");
}

Emitted reduceWindow(InstrEmit &e) {
  if (!inputsAndInits(e))
    return failure();
  size_t n = e.operands.size() / 2;
  // As in XLA the window is optional: none is the empty window, which only
  // a scalar reduce-window has (the verifier says so for any other).
  Window window;
  if (const Attr *w = e.attrs.take("window"))
    if (!parseWindow(*w, e.diags(), window))
      return failure();
  auto op = e.create<tg::ReduceWindowOp>(
      e.operands.take_front(n), e.operands.drop_front(n), window.size,
      optionalI64s(e, window.stride), optionalI64s(e, window.lhsDilate),
      optionalI64s(e, window.rhsDilate), optionalI64s(e, window.padding));
  return withRegion(e, op, op.getBody(), "to_apply");
}

Emitted selectAndScatter(InstrEmit &e) {
  if (!arity(e, 3))
    return failure();
  // Without a window the op keeps none of its fields; with one, the
  // dimensions are kept even when the window lists no size.
  DenseI64ArrayAttr dims, strides, padding;
  if (const Attr *w = e.attrs.take("window")) {
    Window window;
    if (!parseWindow(*w, e.diags(), window))
      return failure();
    dims = e.builder().getDenseI64ArrayAttr(window.size);
    strides = optionalI64s(e, window.stride);
    padding = optionalI64s(e, window.padding);
  }
  auto op = e.create<tg::SelectAndScatterOp>(
      e.operands[0], e.operands[1], e.operands[2], dims, strides, padding);
  if (!e.region(op.getSelect(), "select"))
    return discard(op);
  return withRegion(e, op, op.getScatter(), "scatter");
}

Emitted scatter(InstrEmit &e) {
  if (e.operands.size() < 3 || e.operands.size() % 2 == 0)
    return e.fail(e.instr.opcodeLoc,
                  "'scatter' takes N inputs, the indices and N updates (an odd "
                  "number >= 3), got " +
                      Twine(e.operands.size()));
  llvm::SmallVector<int64_t, 4> window, inserted, toOperand;
  llvm::SmallVector<int64_t, 4> inputBatch, indicesBatch;
  int64_t indexVectorDim;
  bool sorted = false, unique = false;
  if (!requiredInts(e, "update_window_dims", window) ||
      !requiredInts(e, "inserted_window_dims", inserted) ||
      !requiredInts(e, "scatter_dims_to_operand_dims", toOperand) ||
      !requiredInt(e, "index_vector_dim", indexVectorDim) ||
      !optionalInts(e, "input_batching_dims", inputBatch) ||
      !optionalInts(e, "scatter_indices_batching_dims", indicesBatch) ||
      !flag(e, "indices_are_sorted", sorted) ||
      !flag(e, "unique_indices", unique))
    return failure();
  // Batched scatter is not modelled.
  if (!inputBatch.empty() || !indicesBatch.empty())
    return keepAsUnknown();
  size_t n = (e.operands.size() - 1) / 2;
  auto op = e.create<tg::ScatterOp>(
      e.operands.take_front(n), e.operands[n], e.operands.drop_front(n + 1),
      window, inserted, toOperand, static_cast<uint64_t>(indexVectorDim),
      sorted, unique);
  return withRegion(e, op, op.getUpdateComputation(), "to_apply");
}

Emitted sort(InstrEmit &e) {
  if (e.operands.empty())
    return badArity(e, 1);
  int64_t dim;
  bool stable = false;
  if (!singleDim(e, "dimensions", dim) || !flag(e, "is_stable", stable))
    return failure();
  auto op =
      e.create<tg::SortOp>(e.operands, static_cast<uint64_t>(dim), stable);
  return withRegion(e, op, op.getComparator(), "to_apply");
}

} // namespace

Emitted emitRegionOp(Op kind, InstrEmit &e) {
  switch (kind) {
  case Op::Reduce:
    return reduce(e);
  case Op::ReduceWindow:
    return reduceWindow(e);
  case Op::SelectAndScatter:
    return selectAndScatter(e);
  case Op::Scatter:
    return scatter(e);
  case Op::Sort:
    return sort(e);
  default:
    llvm_unreachable("not an opcode with regions");
  }
}

} // namespace tessera::hlo::detail
