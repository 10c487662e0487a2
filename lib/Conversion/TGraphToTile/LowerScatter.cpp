//===- LowerScatter.cpp - scatter and dynamic_update_slice on tiles -------===//
//
// The mirror of LowerGather.cpp: the operand keeps every dimension where the
// update window is smaller than the dimension whole on each tile and is
// split over the others; each update element goes (by exchange) to the tile
// of the position it lands on, whatever the run-time index; the indices are
// replicated on every tile; a `scatter.<combiner>` or
// `dynamic-update-slice` vertex writes its tile's part of the result (the
// operand there, combined with the updates whose window covers it). The
// result keeps the operand's split.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

/// The combiner of an update_computation with arguments (current, update):
/// "assign" when it returns the update, the op name when it is one of
/// add/multiply/maximum/minimum of the two arguments, "" otherwise.
static std::string scatterCombiner(Region &body) {
  if (!body.hasOneBlock())
    return "";
  Block &block = body.front();
  auto ret = dyn_cast<tg::ReturnOp>(block.getTerminator());
  if (block.getNumArguments() != 2 || !ret || ret.getNumOperands() != 1)
    return "";
  if (ret.getOperand(0) == block.getArgument(1) &&
      block.getOperations().size() == 1)
    return "assign";
  if (block.getOperations().size() != 2)
    return "";
  Operation &op = block.front();
  if (!isa<tg::AddOp, tg::MulOp, tg::MaxOp, tg::MinOp>(op) ||
      ret.getOperand(0) != op.getResult(0))
    return "";
  // All four are commutative: either argument order is the same combiner.
  DenseSet<Value> operands(op.operand_begin(), op.operand_end());
  if (!operands.contains(block.getArgument(0)) ||
      !operands.contains(block.getArgument(1)))
    return "";
  return op.getName().stripDialect().str();
}

bool Lowerer::lowerScatter(Operation *op, StringRef name, std::string &detail) {
  auto scatter = dyn_cast<tg::ScatterOp>(op);
  auto dus = dyn_cast<tg::DynamicUpdateSliceOp>(op);
  if (!scatter && !dus)
    return false;
  std::string combiner = "update";
  if (scatter) {
    if (scatter.getInputs().size() != 1) {
      detail = std::to_string(scatter.getInputs().size()) +
               " inputs: only single-input scatter is lowered";
      return false;
    }
    combiner = scatterCombiner(scatter.getUpdateComputation());
    if (combiner.empty()) {
      detail = "update_computation is not add, multiply, maximum, minimum "
               "or assign (returning the update)";
      return false;
    }
  }
  RankedTensorType outType = bufferableTensor(op->getResult(0).getType());
  Value operand = singleBuffer(buffers, scatter ? scatter.getInputs()[0]
                                                : dus.getOperand());
  Value updates = singleBuffer(buffers, scatter ? scatter.getUpdates()[0]
                                                : dus.getUpdate());
  if (!outType || !operand || !updates)
    return false;
  if (elementsOf(updates) == 0) {
    detail = "no update elements";
    return false;
  }
  ArrayRef<int64_t> shape =
      cast<tile::BufferType>(operand.getType()).getShape();
  ArrayRef<int64_t> updateShape =
      cast<tile::BufferType>(updates.getType()).getShape();
  // The update window in operand dims, and the operand dim of each update
  // window dim.
  SmallVector<int64_t> window(shape.size(), 1);
  SmallVector<int64_t> updateDimOf(shape.size(), -1);
  Value indices;
  SmallVector<Value> starts;
  if (scatter) {
    indices = singleBuffer(buffers, scatter.getScatterIndices());
    if (!indices)
      return false;
    ArrayRef<int64_t> windowDims = scatter.getUpdateWindowDims();
    int64_t k = 0;
    for (int64_t d = 0; d < int64_t(shape.size()); ++d)
      if (!llvm::is_contained(scatter.getInsertedWindowDims(), d)) {
        updateDimOf[d] = windowDims[k++];
        window[d] = updateShape[updateDimOf[d]];
      }
  } else {
    for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
      updateDimOf[d] = d;
      window[d] = updateShape[d];
    }
    for (Value s : dus.getStartIndices()) {
      starts.push_back(singleBuffer(buffers, s));
      if (!starts.back() || elementsOf(starts.back()) != 1)
        return false;
    }
  }
  SmallVector<int64_t> whole = windowedDims(shape, window);
  WholeDimSplit split(shape, whole);
  Type elt = outType.getElementType();
  int64_t bytes = bytesOfElement(elt);
  // An update element's position: its operand coordinates outside the
  // indexed dims, where the window covers the whole dim from 0.
  SmallVector<int64_t> updateStrides(updateShape.size(), 0);
  for (auto [d, ud] : llvm::enumerate(updateDimOf))
    if (ud >= 0)
      updateStrides[ud] = split.strides()[d];
  SmallVector<int64_t> strides(split.strides());
  SmallVector<PositionedBuffer> bufs = {
      {operand, SmallVector<int64_t>(shape), bytes, strides},
      {Value(), SmallVector<int64_t>(shape), bytes, strides},
      {updates, SmallVector<int64_t>(updateShape), bytes, updateStrides}};
  std::optional<PositionedPlan> plan =
      planPositioned(split, whole, bufs, indices, detail);
  if (!plan)
    return false;

  Location loc = op->getLoc();
  Value laid =
      placePositioned(loc, (name + ".operand").str(), operand, *plan, 0);
  Value out = makeVar(loc, name, resultCategory(op->getResult(0)),
                      {plan->runs[1], "split like its operand: " + plan->why},
                      outType.getShape(), elt, name);
  buffers[op->getResult(0)] = {out};
  Value laidUpdates =
      placePositioned(loc, (name + ".updates").str(), updates, *plan, 2);
  SmallVector<NamedAttribute> attrs = {builder.getNamedAttr(
      "indexed_dims", builder.getDenseI64ArrayAttr(whole))};
  if (scatter) {
    Value idx = replicateIndices(loc, name, indices, *plan);
    attrs.append(
        {builder.getNamedAttr("update_window_dims",
                              scatter.getUpdateWindowDimsAttr()),
         builder.getNamedAttr("inserted_window_dims",
                              scatter.getInsertedWindowDimsAttr()),
         builder.getNamedAttr("scatter_dims_to_operand_dims",
                              scatter.getScatterDimsToOperandDimsAttr()),
         builder.getNamedAttr("index_vector_dim",
                              scatter.getIndexVectorDimAttr()),
         builder.getNamedAttr(
             "indices_shape",
             builder.getDenseI64ArrayAttr(
                 cast<tile::BufferType>(indices.getType()).getShape()))});
    emitComputeSet(loc, name, "scatter." + combiner,
                   ValueRange{laid, idx, laidUpdates}, out, attrs);
    return true;
  }
  SmallVector<Value> ins = {laid, laidUpdates};
  SmallVector<int64_t> scalarOperands;
  for (int64_t d : whole) {
    scalarOperands.push_back(ins.size());
    ins.push_back(replicateScalar(loc, name, starts[d], out));
  }
  attrs.push_back(builder.getNamedAttr(
      "scalar_operands", builder.getDenseI64ArrayAttr(scalarOperands)));
  emitComputeSet(loc, name, "dynamic-update-slice", ins, out, attrs);
  return true;
}
