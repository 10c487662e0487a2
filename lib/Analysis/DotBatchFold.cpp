//===- DotBatchFold.cpp - fitting dot_general to max_batch_dims -----------===//

#include "tessera/Analysis/DotBatchFold.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tessera;

bool tessera::isAdjacentRun(llvm::ArrayRef<int64_t> dims) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return false;
  return true;
}

static std::string dimList(llvm::ArrayRef<int64_t> dims) {
  return "[" +
         llvm::join(
             llvm::map_range(dims, [](int64_t d) { return std::to_string(d); }),
             ", ") +
         "]";
}

std::string DotBatchFold::describe(tgraph::DotGeneralOp dot) const {
  std::string how = "by reshapes";
  if (transposeLhs || transposeRhs)
    how = std::string("by a transpose of the ") +
          (transposeLhs && transposeRhs ? "lhs and rhs"
           : transposeLhs               ? "lhs"
                                        : "rhs") +
          " and reshapes";
  return "batching dimensions " + dimList(dot.getLhsBatchingDimensions()) +
         " x " + dimList(dot.getRhsBatchingDimensions()) +
         " collapsed into one " + how +
         ", to fit max_batch_dims = " + std::to_string(maxBatchDims);
}

std::optional<DotBatchFold>
tessera::planDotBatchFold(tgraph::DotGeneralOp dot,
                          const OpConstraint &constraint) {
  std::optional<int64_t> limit = constraint.limit("max_batch_dims");
  size_t batch = dot.getLhsBatchingDimensions().size();
  // One batching dimension is what the collapse leads to; a target that
  // takes none needs the batch split into separate dots instead.
  if (!limit || *limit < 1 || static_cast<int64_t>(batch) <= *limit)
    return std::nullopt;
  // Reshapes need static shapes.
  for (Type t : {dot.getLhs().getType(), dot.getRhs().getType(), dot.getType()})
    if (!cast<RankedTensorType>(t).hasStaticShape())
      return std::nullopt;
  DotBatchFold fold;
  fold.maxBatchDims = *limit;
  fold.transposeLhs = !isAdjacentRun(dot.getLhsBatchingDimensions());
  fold.transposeRhs = !isAdjacentRun(dot.getRhsBatchingDimensions());
  return fold;
}
