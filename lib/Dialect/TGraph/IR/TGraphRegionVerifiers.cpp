//===- TGraphRegionVerifiers.cpp - rules of region, call, collective ops --===//
//
// The ops that carry regions (reducers, comparators), refer to other
// computations, or talk across replicas; the simpler ops are in
// TGraphVerifiers.cpp, whose helpers (VerifierUtils.h) both files share.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tessera::tgraph;
using namespace tessera::tgraph::detail;

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

/// Inputs share one shape; init values are scalars of their element types.
static LogicalResult verifyInputsAndInits(Operation *op, ValueRange inputs,
                                          ValueRange inits) {
  size_t n = inputs.size();
  if (n == 0 || inits.size() != n)
    return op->emitOpError("needs N >= 1 inputs and as many init values, got ")
           << n << " and " << inits.size();
  auto first = tensorOf(inputs.front());
  for (auto [input, init] : llvm::zip(inputs, inits)) {
    auto in = tensorOf(input), iv = tensorOf(init);
    if (in.getShape() != first.getShape())
      return op->emitOpError("all inputs must have one shape");
    if (iv.getRank() != 0)
      return op->emitOpError("init values must be 0-d tensors");
    if (iv.getElementType() != in.getElementType())
      return op->emitOpError("init value type ")
             << iv << " does not match the input element type "
             << in.getElementType();
  }
  return success();
}

/// The result of a reduction over N inputs (reduce, reduce_window): one
/// tensor of the `expected` shape, or a tuple of N of them; and its reducer
/// region, which takes 2N scalars and returns the init values' types.
static LogicalResult verifyReductionResults(Operation *op, Type result,
                                            size_t n,
                                            llvm::ArrayRef<int64_t> expected,
                                            Region &body, TypeRange inits) {
  llvm::SmallVector<Type> results = flattenResult(result);
  if (results.size() != n)
    return op->emitOpError("result must hold ") << n << " tensors";
  for (Type t : results) {
    auto tensor = tensorOf(t);
    if (!tensor)
      return op->emitOpError("result must hold ") << n << " tensors";
    if (failed(verifyShape(op, tensor, expected)))
      return failure();
  }
  if (failed(verifyScalarRegion(op, body, "reducer", 2 * n)))
    return failure();
  return verifyRegionReturns(op, body, "reducer", inits);
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyInputsAndInits(*this, getInputs(), getInitValues())))
    return failure();
  size_t n = getInputs().size();
  auto first = tensorOf(getInputs().front());
  if (failed(verifyDimList(*this, "reduce", getDimensions(), first.getRank())))
    return failure();
  llvm::SmallVector<int64_t> expected;
  for (int64_t d = 0; d < first.getRank(); ++d)
    if (!llvm::is_contained(getDimensions(), d))
      expected.push_back(first.getDimSize(d));
  return verifyReductionResults(*this, getType(), n, expected, getBody(),
                                getInitValues().getTypes());
}

LogicalResult ReduceWindowOp::verify() {
  if (failed(verifyInputsAndInits(*this, getInputs(), getInitValues())))
    return failure();
  size_t n = getInputs().size();
  auto first = tensorOf(getInputs().front());
  int64_t rank = first.getRank();
  auto check = [&](std::optional<llvm::ArrayRef<int64_t>> attr,
                   llvm::StringRef name, int64_t factor) -> LogicalResult {
    if (attr && static_cast<int64_t>(attr->size()) != rank * factor)
      return emitOpError(name) << " needs " << rank * factor << " entries";
    if (attr && factor == 1 &&
        llvm::any_of(*attr, [](int64_t v) { return v < 1; }))
      return emitOpError(name) << " entries must be positive";
    return success();
  };
  if (failed(check(getWindowDimensions(), "window_dimensions", 1)) ||
      failed(check(getWindowStrides(), "window_strides", 1)) ||
      failed(check(getBaseDilations(), "base_dilations", 1)) ||
      failed(check(getWindowDilations(), "window_dilations", 1)) ||
      failed(check(getPadding(), "padding", 2)))
    return failure();
  auto at = [](std::optional<llvm::ArrayRef<int64_t>> attr, size_t i,
               int64_t dflt) { return attr ? (*attr)[i] : dflt; };
  llvm::SmallVector<int64_t> expected;
  for (int64_t d = 0; d < rank; ++d)
    expected.push_back(
        windowedSize(first.getDimSize(d), getWindowDimensions()[d],
                     at(getWindowStrides(), d, 1), at(getBaseDilations(), d, 1),
                     at(getWindowDilations(), d, 1), at(getPadding(), 2 * d, 0),
                     at(getPadding(), 2 * d + 1, 0)));
  return verifyReductionResults(*this, getType(), n, expected, getBody(),
                                getInitValues().getTypes());
}

LogicalResult SelectAndScatterOp::verify() {
  auto operand = getOperand().getType();
  if (getType() != operand)
    return emitOpError("result type must equal the operand type");
  auto init = getInitValue().getType();
  if (init.getRank() != 0 ||
      init.getElementType() != getSource().getType().getElementType())
    return emitOpError("init value must be a 0-d tensor of the source's "
                       "element type");
  int64_t rank = operand.getRank();
  for (auto [attr, name, factor] :
       {std::make_tuple(getWindowDimensions(), "window_dimensions", 1),
        std::make_tuple(getWindowStrides(), "window_strides", 1),
        std::make_tuple(getPadding(), "padding", 2)})
    if (attr && static_cast<int64_t>(attr->size()) != rank * factor)
      return emitOpError(name) << " needs " << rank * factor << " entries";
  // The source holds one value per window position: the shape a
  // reduce_window with the same window would produce.
  auto at = [](std::optional<llvm::ArrayRef<int64_t>> attr, size_t i,
               int64_t dflt) { return attr ? (*attr)[i] : dflt; };
  llvm::SmallVector<int64_t> expected;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t stride = at(getWindowStrides(), d, 1);
    if (stride < 1 || at(getWindowDimensions(), d, 1) < 1)
      return emitOpError("window sizes and strides must be positive");
    expected.push_back(windowedSize(
        operand.getDimSize(d), at(getWindowDimensions(), d, 1), stride, 1, 1,
        at(getPadding(), 2 * d, 0), at(getPadding(), 2 * d + 1, 0)));
  }
  auto source = getSource().getType();
  bool ok = source.getRank() == rank;
  for (int64_t d = 0; ok && d < rank; ++d)
    ok = dimsAgree(source.getDimSize(d), expected[d]);
  if (!ok) {
    InFlightDiagnostic diag = emitOpError("source shape ")
                              << source << " does not match the window "
                              << "positions [";
    llvm::interleaveComma(expected, diag);
    return diag << "]";
  }
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyScalarRegion(*this, getSelect(), "select", 2)) ||
      failed(verifyRegionReturns(*this, getSelect(), "select", pred)) ||
      failed(verifyScalarRegion(*this, getScatter(), "scatter", 2)))
    return failure();
  return verifyRegionReturns(*this, getScatter(), "scatter", init);
}

LogicalResult ScatterOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getUpdates().size() != n)
    return emitOpError("needs N >= 1 inputs and as many updates");
  llvm::SmallVector<Type> results = flattenResult(getType());
  if (!llvm::equal(results, getInputs().getTypes()))
    return emitOpError("result must have the input types");
  auto operand = tensorOf(getInputs().front());
  auto update = tensorOf(getUpdates().front());
  for (auto [input, upd] : llvm::zip(getInputs(), getUpdates())) {
    if (tensorOf(input).getShape() != operand.getShape() ||
        tensorOf(upd).getShape() != update.getShape())
      return emitOpError("all inputs and all updates must have one shape");
    if (tensorOf(upd).getElementType() != tensorOf(input).getElementType())
      return emitOpError("updates must have their input's element type");
  }
  auto indices = getScatterIndices().getType();
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOpError("scatter indices must be integers");
  int64_t ivd = getIndexVectorDim(), indicesRank = indices.getRank();
  if (ivd < 0 || ivd > indicesRank)
    return emitOpError("index_vector_dim ")
           << ivd << " is out of range [0, " << indicesRank << "]";
  auto windowDims = getUpdateWindowDims();
  auto inserted = getInsertedWindowDims();
  auto toOperand = getScatterDimsToOperandDims();
  int64_t scatterRank = indicesRank - (ivd < indicesRank ? 1 : 0);
  if (update.getRank() != scatterRank + static_cast<int64_t>(windowDims.size()))
    return emitOpError("update rank ")
           << update.getRank() << " should be " << scatterRank
           << " scatter dimensions + " << windowDims.size()
           << " update_window_dims";
  if (failed(verifyDimList(*this, "update window", windowDims,
                           update.getRank())) ||
      failed(verifyDimList(*this, "inserted window", inserted,
                           operand.getRank())) ||
      failed(verifyDimList(*this, "scatter-to-operand", toOperand,
                           operand.getRank())))
    return failure();
  if (!llvm::is_sorted(windowDims))
    return emitOpError("update_window_dims must be sorted");
  if (static_cast<int64_t>(windowDims.size() + inserted.size()) !=
      operand.getRank())
    return emitOpError("update_window_dims (")
           << windowDims.size() << ") and inserted_window_dims ("
           << inserted.size() << ") must together cover the operand rank "
           << operand.getRank();
  int64_t indexVectorSize = ivd < indicesRank ? indices.getDimSize(ivd) : 1;
  if (!ShapedType::isDynamic(indexVectorSize) &&
      static_cast<int64_t>(toOperand.size()) != indexVectorSize)
    return emitOpError("scatter_dims_to_operand_dims has ")
           << toOperand.size() << " entries but the index vector has "
           << indexVectorSize;
  // Each update window dimension maps, in order, to an operand dimension
  // that is not inserted, and must fit in it.
  int64_t operandDim = 0;
  for (int64_t w : windowDims) {
    while (llvm::is_contained(inserted, operandDim))
      ++operandDim;
    int64_t u = update.getDimSize(w), o = operand.getDimSize(operandDim++);
    if (!ShapedType::isDynamic(u) && !ShapedType::isDynamic(o) && u > o)
      return emitOpError("update window dimension ")
             << w << " (size " << u << ") exceeds operand dimension "
             << operandDim - 1 << " (size " << o << ")";
  }
  if (failed(
          verifyScalarRegion(*this, getUpdateComputation(), "update", 2 * n)))
    return failure();
  llvm::SmallVector<Type> scalars;
  for (Value v : getInputs())
    scalars.push_back(RankedTensorType::get({}, tensorOf(v).getElementType()));
  return verifyRegionReturns(*this, getUpdateComputation(), "update", scalars);
}

LogicalResult SortOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("needs at least one input");
  auto first = tensorOf(getInputs().front());
  for (Value v : getInputs())
    if (tensorOf(v).getShape() != first.getShape())
      return emitOpError("all inputs must have one shape");
  int64_t dim = getDimension();
  if (dim < 0 || dim >= first.getRank())
    return emitOpError("sort dimension ")
           << dim << " is out of range for rank " << first.getRank();
  if (!llvm::equal(flattenResult(getType()), getInputs().getTypes()))
    return emitOpError("result must have the input types (a tuple when "
                       "there are several)");
  if (failed(verifyScalarRegion(*this, getComparator(), "comparator", 2 * n)))
    return failure();
  // The comparator sees two elements of each input, in input order.
  Block &block = getComparator().front();
  for (auto [i, v] : llvm::enumerate(getInputs())) {
    Type element = tensorOf(v).getElementType();
    for (unsigned j : {2 * i, 2 * i + 1})
      if (tensorOf(block.getArgument(j).getType()).getElementType() != element)
        return emitOpError("comparator argument #")
               << j << " must have element type " << element;
  }
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  return verifyRegionReturns(*this, getComparator(), "comparator", pred);
}

//===----------------------------------------------------------------------===//
// Tuples and calls
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::verify() {
  if (!llvm::equal(getType().getTypes(), getInputs().getTypes()))
    return emitOpError("result tuple type must list the operand types");
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tuple = cast<TupleType>(getOperand().getType());
  int64_t index = getIndex();
  if (index < 0 || index >= static_cast<int64_t>(tuple.size()))
    return emitOpError("index ")
           << index << " is out of range for a tuple of " << tuple.size();
  if (tuple.getType(index) != getType())
    return emitOpError("result type ")
           << getType() << " differs from tuple element " << index << " ("
           << tuple.getType(index) << ")";
  return success();
}

/// Checks that `callee` names a function taking `args` and returning
/// `results` (when given).
static LogicalResult verifyCallee(Operation *op, SymbolTableCollection &table,
                                  FlatSymbolRefAttr callee, TypeRange args,
                                  std::optional<TypeRange> results) {
  auto fn = table.lookupNearestSymbolFrom<func::FuncOp>(op, callee);
  if (!fn)
    return op->emitOpError("references undefined computation ") << callee;
  FunctionType type = fn.getFunctionType();
  if (!llvm::equal(type.getInputs(), args))
    return op->emitOpError("operand types do not match the parameters of ")
           << callee;
  if (results && !llvm::equal(type.getResults(), *results))
    return op->emitOpError("result types do not match the results of ")
           << callee;
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCallee(*this, table, getCalleeAttr(), getInputs().getTypes(),
                      getOperation()->getResultTypes());
}

LogicalResult FusionOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCallee(*this, table, getCalleeAttr(), getInputs().getTypes(),
                      getOperation()->getResultTypes());
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &table) {
  Type state = getType();
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyCallee(*this, table, getConditionAttr(), state,
                          TypeRange(pred))))
    return failure();
  return verifyCallee(*this, table, getBodyAttr(), state, TypeRange(state));
}

LogicalResult ConditionalOp::verify() {
  auto index = getBranchIndex().getType();
  if (index.getRank() != 0 || !isa<IntegerType>(index.getElementType()))
    return emitOpError("branch index must be a 0-d integer or i1 tensor");
  if (getBranches().size() != getBranchOperands().size())
    return emitOpError("needs one operand per branch, got ")
           << getBranches().size() << " branches and "
           << getBranchOperands().size() << " operands";
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  if (index.getElementType().isInteger(1) && getBranches().size() != 2)
    return emitOpError("an i1 predicate selects between exactly two branches");
  return success();
}

LogicalResult ConditionalOp::verifySymbolUses(SymbolTableCollection &table) {
  for (auto [branch, operand] : llvm::zip(getBranches(), getBranchOperands()))
    if (failed(verifyCallee(*this, table, cast<FlatSymbolRefAttr>(branch),
                            operand.getType(),
                            getOperation()->getResultTypes())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verify() {
  // Each operand is reduced on its own with the same two-scalar reducer.
  if (!llvm::equal(flattenResult(getType()), getInputs().getTypes()))
    return emitOpError("result must have the input types (a tuple when "
                       "there are several)");
  if (failed(verifyScalarRegion(*this, getComputation(), "reducer", 2)))
    return failure();
  Type element = getComputation().front().getArgument(0).getType();
  return verifyRegionReturns(*this, getComputation(), "reducer", element);
}

/// all_gather grows `dim` by the group size, reduce_scatter shrinks it: the
/// larger of the two sizes there is a multiple of the smaller, and every
/// other dimension is unchanged.
static LogicalResult verifyShardedDim(Operation *op, RankedTensorType small,
                                      RankedTensorType large, int64_t dim) {
  if (small.getRank() != large.getRank())
    return op->emitOpError("operand and result ranks differ");
  if (dim < 0 || dim >= small.getRank())
    return op->emitOpError("dimension ")
           << dim << " is out of range for rank " << small.getRank();
  for (int64_t d = 0; d < small.getRank(); ++d) {
    int64_t s = small.getDimSize(d), l = large.getDimSize(d);
    if (ShapedType::isDynamic(s) || ShapedType::isDynamic(l))
      continue;
    if (d != dim && s != l)
      return op->emitOpError("dimension ")
             << d << " differs between operand and result";
    if (d == dim && (s == 0 ? l != 0 : l % s != 0))
      return op->emitOpError("dimension ")
             << d << " of size " << l << " is not a multiple of " << s;
  }
  return success();
}

LogicalResult AllGatherOp::verify() {
  if (failed(verifyKeepsElementType(*this, getOperand().getType(), getType())))
    return failure();
  return verifyShardedDim(*this, getOperand().getType(), getType(),
                          getAllGatherDim());
}

LogicalResult AllToAllOp::verify() {
  int64_t rank = getType().getRank();
  int64_t dim = static_cast<int64_t>(getDimension());
  if (dim < 0 || dim >= std::max<int64_t>(rank, 1))
    return emitOpError("dimension ")
           << getDimension() << " is outside a tensor of rank " << rank;
  return success();
}

LogicalResult ReduceScatterOp::verify() {
  if (failed(
          verifyKeepsElementType(*this, getOperand().getType(), getType())) ||
      failed(verifyShardedDim(*this, getType(), getOperand().getType(),
                              getScatterDimension())) ||
      failed(verifyScalarRegion(*this, getComputation(), "reducer", 2)))
    return failure();
  auto scalar =
      RankedTensorType::get({}, getOperand().getType().getElementType());
  return verifyRegionReturns(*this, getComputation(), "reducer", scalar);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// HLO's batch norm operands: the operand, then per-feature vectors (scale,
/// offset, mean, variance: rank 1, one element per feature), except at
/// `gradIndex` (batch_norm_grad's grad_output, shaped like the operand).
/// Training and grad return (operand, feature vector, feature vector).
static LogicalResult verifyBatchNorm(Operation *op, ValueRange inputs,
                                     size_t expected, int64_t featureIndex,
                                     bool returnsTuple,
                                     std::optional<size_t> gradIndex) {
  if (inputs.size() != expected)
    return op->emitOpError("takes ")
           << expected << " operands, got " << inputs.size();
  auto operand = tensorOf(inputs.front());
  int64_t rank = operand.getRank();
  if (featureIndex < 0 || featureIndex >= rank)
    return op->emitOpError("feature_index ")
           << featureIndex << " is out of range for rank " << rank;
  auto feature = RankedTensorType::get({operand.getDimSize(featureIndex)},
                                       operand.getElementType());
  for (size_t i = 1; i < inputs.size(); ++i) {
    auto t = tensorOf(inputs[i]);
    if (gradIndex && i == *gradIndex) {
      if (t != operand)
        return op->emitOpError("operand #")
               << i << " must have the operand's type " << operand;
      continue;
    }
    if (t.getRank() != 1 || t.getElementType() != feature.getElementType() ||
        !dimsAgree(t.getDimSize(0), feature.getDimSize(0)))
      return op->emitOpError("operand #")
             << i << " must be a per-feature vector " << feature << ", got "
             << t;
  }
  Type result = op->getResult(0).getType();
  Type want =
      returnsTuple
          ? Type(TupleType::get(op->getContext(), {operand, feature, feature}))
          : Type(operand);
  if (result != want)
    return op->emitOpError("result must be ") << want;
  return success();
}

LogicalResult BatchNormTrainingOp::verify() {
  return verifyBatchNorm(*this, getInputs(), 3, getFeatureIndex(),
                         /*returnsTuple=*/true, std::nullopt);
}
LogicalResult BatchNormInferenceOp::verify() {
  return verifyBatchNorm(*this, getInputs(), 5, getFeatureIndex(),
                         /*returnsTuple=*/false, std::nullopt);
}
LogicalResult BatchNormGradOp::verify() {
  return verifyBatchNorm(*this, getInputs(), 5, getFeatureIndex(),
                         /*returnsTuple=*/true, /*gradIndex=*/4);
}
