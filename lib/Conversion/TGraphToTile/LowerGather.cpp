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
// A large table with few positions (an embedding table of 50 columns on 8
// tiles) would be whole on one tile that way. Such a gather instead reads
// the table where it already is, split along the gathered rows: each tile
// holding part of it writes a partial result (the elements it holds, zeros
// elsewhere), and the partials are summed on the result's tiles, as a
// contraction split is.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"
#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"
#include "tessera/Dialect/TGraph/IR/HloTypes.h"

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
  SmallVector<NamedAttribute> gatherAttrs;
  if (gather)
    gatherAttrs = {
        builder.getNamedAttr("indexed_dims",
                             builder.getDenseI64ArrayAttr(whole)),
        builder.getNamedAttr("offset_dims", gather.getOffsetDimsAttr()),
        builder.getNamedAttr("collapsed_slice_dims",
                             gather.getCollapsedSliceDimsAttr()),
        builder.getNamedAttr("start_index_map", gather.getStartIndexMapAttr()),
        builder.getNamedAttr("index_vector_dim",
                             gather.getIndexVectorDimAttr()),
        builder.getNamedAttr("slice_sizes", gather.getSliceSizesAttr()),
        builder.getNamedAttr(
            "indices_shape",
            builder.getDenseI64ArrayAttr(
                cast<tile::BufferType>(indices.getType()).getShape()))};
  if (gather && lowerGatherInPlace(op, name, operand, indices, outType,
                                   gatherAttrs, plan))
    return true;
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
    emitComputeSet(loc, name, "gather", ins, out, gatherAttrs);
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

/// The bytes of `runs` (a mapping) on each of `numTiles` tiles, added to
/// `bytes`.
static void addTileBytes(ArrayRef<int64_t> runs, int64_t elementBytes,
                         SmallVectorImpl<int64_t> &bytes) {
  for (size_t r = 0; r + 3 < runs.size(); r += 4)
    for (int64_t t = runs[r]; t < runs[r + 1]; ++t)
      bytes[t] += runs[r + 2] * elementBytes;
}

bool Lowerer::lowerGatherInPlace(Operation *op, StringRef name, Value table,
                                 Value indices, RankedTensorType outType,
                                 ArrayRef<NamedAttribute> attrs,
                                 const std::optional<PositionedPlan> &plan) {
  Type elt = outType.getElementType();
  if (elt.isInteger(1))
    return false; // no sum of predicates
  int64_t bytes = bytesOfElement(elt);
  int64_t outElements = outType.getNumElements();
  int64_t tableElements = elementsOf(table);
  int64_t indexElements = elementsOf(indices);
  SmallVector<int64_t> tiles;
  SmallVector<int64_t> perTile =
      table.getDefiningOp<tile::VarOp>().getMapping().elementsPerTile(numTiles);
  for (int64_t t = 0; t < numTiles; ++t)
    if (perTile[t] > 0)
      tiles.push_back(t);
  int64_t p = tiles.size();
  // Every tile of the table writes a whole partial result: worth it only
  // while those stay within the table's own size.
  if (p < 2 || outElements == 0 || p * outElements > tableElements)
    return false;
  int64_t indexBytes =
      indexElements *
      bytesOfElement(
          cast<tile::BufferType>(indices.getType()).getElementType());
  // The worst tile either way: here the table's share, a partial result and
  // the indices, then the result's share of the p slots of each output;
  // split, the re-laid table, the result and the indices.
  int64_t inPlace = 0;
  for (int64_t t : tiles)
    inPlace = std::max(inPlace,
                       perTile[t] * bytes + outElements * bytes + indexBytes);
  // Per-tile counts only: planBalancedLinear would also fix the start of
  // every later tensor of this size, so it waits for the decision.
  int64_t grain = mappingGrain(target, hloDtypeName(outType.getElementType()));
  SmallVector<int64_t> outBytes(numTiles, 0);
  addTileBytes(planLinear(outElements, numTiles, grain).runs, (p + 1) * bytes,
               outBytes);
  inPlace = std::max(inPlace, *llvm::max_element(outBytes));
  if (plan) {
    SmallVector<int64_t> split(numTiles, 0);
    addTileBytes(plan->runs[0], bytes, split);
    addTileBytes(plan->runs[1], bytes, split);
    for (int64_t t : plan->tiles)
      split[t] += indexBytes;
    // Keep the split unless this halves its worst tile.
    if (2 * inPlace > *llvm::max_element(split))
      return false;
  } else if (inPlace > target.usableBytesPerTile()) {
    return false;
  }

  PlannedMapping outPlan = planBalancedLinear(outElements, grain);
  Location loc = op->getLoc();
  std::string why = "gathered where the table is: each of its " +
                    std::to_string(p) +
                    " tiles writes a partial result, summed on the result's "
                    "tiles";
  PositionedPlan rep;
  rep.tiles = tiles;
  rep.replicateCopies =
      planReplicateCopies(runsOf(indices), indexElements, tiles);
  Value indicesRep = replicateIndices(loc, name, indices, rep);
  // Partials: a whole result per table tile, slice i on tiles[i].
  SmallVector<std::array<int64_t, 3>> partialIntervals;
  for (auto [i, t] : llvm::enumerate(tiles))
    partialIntervals.push_back(
        {t, int64_t(i) * outElements, int64_t(i + 1) * outElements});
  SmallVector<int64_t> partialShape = {p};
  partialShape.append(outType.getShape().begin(), outType.getShape().end());
  Value partials = makeVar(
      loc, (name + ".partials").str(), tile::Category::Partials,
      {compressIntervals(partialIntervals), why}, partialShape, elt, name);
  SmallVector<NamedAttribute> partialAttrs(attrs);
  partialAttrs.push_back(
      builder.getNamedAttr("partial", builder.getUnitAttr()));
  emitComputeSet(loc, (name + ".partial").str(), "gather",
                 ValueRange{table, indicesRep}, partials, partialAttrs);
  // Each result tile gathers the p slices of its elements, slice-major.
  Value out = makeVar(loc, name, resultCategory(op->getResult(0)),
                      {outPlan.runs, outPlan.why + "; " + why},
                      outType.getShape(), elt, name);
  buffers[op->getResult(0)] = {out};
  SmallVector<std::array<int64_t, 3>> outIntervals;
  tile::MappingAttr::get(builder.getContext(), outPlan.runs)
      .forEachInterval([&](int64_t t, int64_t b, int64_t e) {
        outIntervals.push_back({t, b, e});
      });
  llvm::sort(outIntervals);
  std::vector<CopyPiece> pieces;
  SmallVector<std::array<int64_t, 3>> gatheredIntervals;
  int64_t gathered = 0;
  for (size_t i = 0; i < outIntervals.size();) {
    int64_t owner = outIntervals[i][0], begin = gathered;
    size_t end = i;
    while (end < outIntervals.size() && outIntervals[end][0] == owner)
      ++end;
    for (int64_t s = 0; s < p; ++s)
      for (size_t j = i; j < end; ++j) {
        int64_t b = outIntervals[j][1], len = outIntervals[j][2] - b;
        pieces.push_back({tiles[s], owner, len, s * outElements + b, gathered});
        gathered += len;
      }
    gatheredIntervals.push_back({owner, begin, gathered});
    i = end;
  }
  Value slots =
      makeVar(loc, (name + ".gathered").str(), tile::Category::Partials,
              {compressIntervals(gatheredIntervals),
               "the " + std::to_string(p) +
                   " partial results of each result element on its tile"},
              {gathered}, elt, name);
  SmallVector<int64_t> strided;
  SmallVector<int64_t> copies = foldCopyPieces(pieces, &strided);
  emitExchange(loc, (name + ".gather").str(), partials, slots, copies, strided);
  emitComputeSet(loc, name, "reduce.add", slots, out,
                 builder.getNamedAttr("partials_per_output",
                                      builder.getI64IntegerAttr(p)));
  return true;
}
