//===- LowerGather.cpp - gather and dynamic_slice on tiles ----------------===//
//
// The operand is laid out with every dimension whose slice is smaller than
// the dimension (the ones a run-time index can move in) whole on each tile
// and the others split; each tile gets every index (gather: the whole index
// buffer; dynamic_slice: one copy of each start scalar) and a `gather` /
// `dynamic-slice` vertex writes the result elements of its positions. The
// result follows the split: a result element sits where the operand
// elements it can come from are.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

bool Lowerer::lowerGather(Operation *op, StringRef name, std::string &detail) {
  auto gather = dyn_cast<tg::GatherOp>(op);
  auto slice = dyn_cast<tg::DynamicSliceOp>(op);
  if (!gather && !slice)
    return false;
  RankedTensorType outType = bufferableTensor(op->getResult(0).getType());
  Value operand = singleBuffer(buffers, op->getOperand(0));
  if (!outType || !operand)
    return false;
  auto operandType = cast<tile::BufferType>(operand.getType());
  ArrayRef<int64_t> shape = operandType.getShape();
  ArrayRef<int64_t> outShape = outType.getShape();
  ArrayRef<int64_t> window =
      gather ? gather.getSliceSizes() : slice.getSliceSizes();
  SmallVector<int64_t> whole = windowedDims(shape, window);
  WholeDimSplit split(shape, whole);
  Type elt = outType.getElementType();
  int64_t bytes = bytesOfElement(elt);

  // A result element's position: the window coordinates it reads outside
  // the indexed dims, which are the operand coordinates there.
  SmallVector<int64_t> resultStrides(outShape.size(), 0);
  Value indices;
  SmallVector<Value> starts;
  if (gather) {
    indices = singleBuffer(buffers, gather.getStartIndices());
    if (!indices)
      return false;
    // Offset dims, in order, are the operand dims not collapsed.
    ArrayRef<int64_t> offsetDims = gather.getOffsetDims();
    int64_t k = 0;
    for (int64_t d = 0; d < int64_t(shape.size()); ++d)
      if (!llvm::is_contained(gather.getCollapsedSliceDims(), d))
        resultStrides[offsetDims[k++]] = split.strides()[d];
  } else {
    for (Value s : slice.getStartIndices()) {
      starts.push_back(singleBuffer(buffers, s));
      if (!starts.back() || elementsOf(starts.back()) != 1)
        return false;
    }
    resultStrides.assign(split.strides().begin(), split.strides().end());
  }
  SmallVector<PositionedBuffer> bufs = {
      {operand, SmallVector<int64_t>(shape), bytes,
       SmallVector<int64_t>(split.strides())},
      {Value(), SmallVector<int64_t>(outShape), bytes, resultStrides}};
  std::optional<PositionedPlan> plan =
      planPositioned(split, whole, bufs, indices, detail);
  if (!plan)
    return false;

  Location loc = op->getLoc();
  Value laid =
      placePositioned(loc, (name + ".operand").str(), operand, *plan, 0);
  Value out = makeVar(loc, name, resultCategory(op->getResult(0)),
                      {plan->runs[1], "split like its operand: " + plan->why},
                      outShape, elt, name);
  buffers[op->getResult(0)] = {out};
  SmallVector<Value> ins = {laid};
  SmallVector<NamedAttribute> attrs = {builder.getNamedAttr(
      "indexed_dims", builder.getDenseI64ArrayAttr(whole))};
  if (gather) {
    ins.push_back(replicateIndices(loc, name, indices, *plan));
    attrs.append(
        {builder.getNamedAttr("offset_dims", gather.getOffsetDimsAttr()),
         builder.getNamedAttr("collapsed_slice_dims",
                              gather.getCollapsedSliceDimsAttr()),
         builder.getNamedAttr("start_index_map", gather.getStartIndexMapAttr()),
         builder.getNamedAttr("index_vector_dim",
                              gather.getIndexVectorDimAttr()),
         builder.getNamedAttr("slice_sizes", gather.getSliceSizesAttr()),
         builder.getNamedAttr(
             "indices_shape",
             builder.getDenseI64ArrayAttr(
                 cast<tile::BufferType>(indices.getType()).getShape()))});
    emitComputeSet(loc, name, "gather", ins, out, attrs);
    return true;
  }
  // Only the indexed dims' starts matter: elsewhere they clamp to 0.
  SmallVector<int64_t> scalarOperands;
  for (int64_t d : whole) {
    scalarOperands.push_back(ins.size());
    ins.push_back(replicateScalar(loc, name, starts[d], out));
  }
  attrs.append(
      {builder.getNamedAttr("slice_sizes", slice.getSliceSizesAttr()),
       builder.getNamedAttr("scalar_operands",
                            builder.getDenseI64ArrayAttr(scalarOperands))});
  emitComputeSet(loc, name, "dynamic-slice", ins, out, attrs);
  return true;
}
