//===- LowerSort.cpp - sort on tiles --------------------------------------===//
//
// Every row along the sort dimension is whole on one tile and the rows are
// split over tiles (IndexedLayout.h with the sort dimension kept whole);
// all operands (keys, then values) get that one layout, so a `sort` vertex
// on each tile sorts its rows and permutes the values with them. The
// results keep the split.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

/// The direction of a comparator that is one compare of the first two
/// arguments (the keys), as the vertex applies it to (a, b); "" when the
/// comparator is anything else.
static std::string comparatorDirection(Region &body) {
  if (!body.hasOneBlock())
    return "";
  Block &block = body.front();
  auto ret = dyn_cast<tg::ReturnOp>(block.getTerminator());
  if (block.getNumArguments() < 2 || !ret || ret.getNumOperands() != 1 ||
      block.getOperations().size() != 2)
    return "";
  auto cmp = dyn_cast<tg::CompareOp>(block.front());
  if (!cmp || ret.getOperand(0) != cmp.getResult())
    return "";
  tg::ComparisonDirection dir = cmp.getComparisonDirection();
  Value a = block.getArgument(0), b = block.getArgument(1);
  if (cmp.getLhs() == a && cmp.getRhs() == b)
    return tg::stringifyComparisonDirection(dir).str();
  if (cmp.getLhs() != b || cmp.getRhs() != a)
    return "";
  // compare(b, a) is compare(a, b) with the operands swapped.
  switch (dir) {
  case tg::ComparisonDirection::LT:
    return "GT";
  case tg::ComparisonDirection::LE:
    return "GE";
  case tg::ComparisonDirection::GT:
    return "LT";
  case tg::ComparisonDirection::GE:
    return "LE";
  default:
    return tg::stringifyComparisonDirection(dir).str();
  }
}

bool Lowerer::lowerSort(Operation *op, StringRef name, std::string &detail) {
  auto sort = dyn_cast<tg::SortOp>(op);
  if (!sort)
    return false;
  // The sort vertex applies one direction to the keys; any other
  // comparator runs on the host, where the interpreter evaluates its body.
  std::string direction = comparatorDirection(sort.getComparator());
  if (direction.empty()) {
    detail = "a comparator other than one compare of the keys";
    return false;
  }
  SmallVector<Value> inputs;
  for (Value v : sort.getInputs()) {
    Value input = singleBuffer(buffers, v);
    if (!input)
      return false;
    inputs.push_back(input);
  }
  SmallVector<Type> leaves;
  flattenLeaves(sort.getType(), leaves);
  if (leaves.size() != inputs.size() ||
      llvm::any_of(leaves, [](Type t) { return !bufferableTensor(t); }))
    return false;
  auto firstType = cast<tile::BufferType>(inputs[0].getType());
  ArrayRef<int64_t> shape = firstType.getShape();
  int64_t dim = sort.getDimension();
  SmallVector<int64_t> whole = {dim};
  WholeDimSplit split(shape, whole);
  SmallVector<int64_t> strides(split.strides());
  // Inputs first (bufs[0] decides whether the keys can stay in place),
  // then one result per input.
  SmallVector<PositionedBuffer> bufs;
  for (int copy = 0; copy < 2; ++copy)
    for (Value in : inputs)
      bufs.push_back(
          {copy == 0 ? in : Value(), SmallVector<int64_t>(shape),
           bytesOfElement(
               cast<tile::BufferType>(in.getType()).getElementType()),
           strides});
  std::optional<PositionedPlan> plan =
      planPositioned(split, whole, bufs, Value(), detail);
  if (!plan)
    return false;

  Location loc = op->getLoc();
  size_t n = inputs.size();
  SmallVector<Value> ins, outs;
  for (auto [i, in] : llvm::enumerate(inputs))
    ins.push_back(
        placePositioned(loc, (name + ".in" + Twine(i)).str(), in, *plan, i));
  for (auto [i, in] : llvm::enumerate(inputs)) {
    auto type = cast<tile::BufferType>(in.getType());
    outs.push_back(
        makeVar(loc, n == 1 ? name.str() : (name + "." + Twine(i)).str(),
                resultCategory(sort.getResult()),
                {plan->runs[n + i],
                 "rows along dim " + std::to_string(dim) +
                     " whole per tile, like the sort's input: " + plan->why},
                type.getShape(), type.getElementType(), name));
  }
  buffers[sort.getResult()] = outs;
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("dimension", sort.getDimensionAttr()),
      builder.getNamedAttr("num_operands", builder.getI64IntegerAttr(n))};
  attrs.push_back(
      builder.getNamedAttr("direction", builder.getStringAttr(direction)));
  if (sort.getIsStable())
    attrs.push_back(builder.getNamedAttr("is_stable", builder.getUnitAttr()));
  emitComputeSet(loc, name, "sort", ins, outs, attrs);
  return true;
}
