//===- TGraphVerifiers.cpp - tgraph shape and attribute rules -------------===//
//
// The shape rules of HLO, so that a malformed import or hand-written test is
// rejected with a message that names the dimension or attribute at fault.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tessera::tgraph;

namespace {

RankedTensorType tensorOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}
RankedTensorType tensorOf(Type t) { return dyn_cast<RankedTensorType>(t); }

bool isScalar(Type t) {
  auto tensor = tensorOf(t);
  return tensor && tensor.getRank() == 0;
}

/// Two dimension sizes agree when equal or when either is dynamic.
bool dimsAgree(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

/// Checks that `dims` are distinct and within [0, rank).
LogicalResult verifyDimList(Operation *op, llvm::StringRef what,
                            llvm::ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << what << " dimension " << d
                               << " is out of range for rank " << rank;
    if (!seen.insert(d).second)
      return op->emitOpError() << what << " dimension " << d << " repeats";
  }
  return success();
}

LogicalResult verifyShape(Operation *op, RankedTensorType actual,
                          llvm::ArrayRef<int64_t> expected) {
  bool ok = actual.getRank() == static_cast<int64_t>(expected.size());
  for (size_t i = 0; ok && i < expected.size(); ++i)
    ok = dimsAgree(actual.getDimSize(i), expected[i]);
  if (ok)
    return success();
  InFlightDiagnostic diag = op->emitOpError("result shape ");
  diag << actual << " does not match the expected [";
  llvm::interleaveComma(expected, diag, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      diag << "?";
    else
      diag << d;
  });
  return diag << "]";
}

/// A region whose block takes `count` scalar tensors (reducers, comparators).
LogicalResult verifyScalarRegion(Operation *op, Region &region,
                                 llvm::StringRef what, unsigned count) {
  if (region.empty())
    return op->emitOpError() << what << " region is empty";
  Block &block = region.front();
  if (block.getNumArguments() != count)
    return op->emitOpError()
           << what << " region takes " << block.getNumArguments()
           << " arguments, expected " << count;
  for (BlockArgument arg : block.getArguments())
    if (!isScalar(arg.getType()))
      return op->emitOpError() << what << " region argument #"
                               << arg.getArgNumber() << " must be a 0-d tensor";
  if (block.empty() || !isa<ReturnOp>(block.back()))
    return op->emitOpError() << what << " region must end in tgraph.return";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Simple ops
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (getElided() == getValue().has_value())
    return emitOpError("needs exactly one of a value or the 'elided' marker");
  if (getValue() && getValue()->getType() != getType())
    return emitOpError("value type ")
           << getValue()->getType() << " differs from result type "
           << getType();
  return success();
}

LogicalResult IotaOp::verify() {
  int64_t rank = getType().getRank();
  if (getIotaDimension() < 0 || getIotaDimension() >= rank)
    return emitOpError("iota dimension ")
           << getIotaDimension() << " is out of range for rank " << rank;
  return success();
}

LogicalResult IsFiniteOp::verify() {
  auto in = getOperand().getType(), out = getType();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape must match the operand shape");
  if (!isa<FloatType>(in.getElementType()))
    return emitOpError("operand must have a floating-point element type");
  if (!out.getElementType().isInteger(1))
    return emitOpError("result must have element type i1");
  return success();
}

LogicalResult CompareOp::verify() {
  if (getLhs().getType() != getRhs().getType())
    return emitOpError("operands must have one type, got ")
           << getLhs().getType() << " and " << getRhs().getType();
  if (getType().getShape() != getLhs().getType().getShape())
    return emitOpError("result shape must match the operand shape");
  if (!getType().getElementType().isInteger(1))
    return emitOpError("result must have element type i1 (HLO pred)");
  if (auto type = getCompareType()) {
    if (!llvm::is_contained({"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"},
                            *type))
      return emitOpError("unknown compare_type '") << *type << "'";
  }
  return success();
}

LogicalResult SelectOp::verify() {
  if (getOnTrue().getType() != getOnFalse().getType() ||
      getOnTrue().getType() != getType())
    return emitOpError("both branches and the result must have one type");
  auto pred = getPred().getType();
  if (!pred.getElementType().isInteger(1))
    return emitOpError("predicate must have element type i1");
  if (pred.getRank() == 0)
    return success();
  auto result = tensorOf(getType());
  if (!result || result.getShape() != pred.getShape())
    return emitOpError("predicate must be a scalar or have the result's shape");
  return success();
}

LogicalResult ClampOp::verify() {
  auto x = getOperand().getType();
  for (Value bound : {getMin(), getMax()}) {
    auto t = tensorOf(bound);
    if (t.getElementType() != x.getElementType())
      return emitOpError("bounds must have the operand's element type");
    if (t.getRank() != 0 && t.getShape() != x.getShape())
      return emitOpError("bounds must be scalars or have the operand's shape");
  }
  if (getType() != x)
    return emitOpError("result type must equal the operand type");
  return success();
}

LogicalResult ConvertOp::verify() {
  if (getOperand().getType().getShape() != getType().getShape())
    return emitOpError("convert keeps the shape; got ")
           << getOperand().getType() << " -> " << getType();
  return success();
}

LogicalResult CollectivePermuteOp::verify() {
  if (getSourceTargetPairs().size() % 2 != 0)
    return emitOpError("source_target_pairs must hold (source, target) pairs");
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  auto in = getOperand().getType(), out = getType();
  llvm::ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (static_cast<int64_t>(dims.size()) != in.getRank())
    return emitOpError("needs one broadcast dimension per operand dimension (")
           << in.getRank() << "), got " << dims.size();
  if (failed(verifyDimList(*this, "broadcast", dims, out.getRank())))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t size = in.getDimSize(i);
    if (size != 1 && !dimsAgree(size, out.getDimSize(d)))
      return emitOpError("operand dimension ")
             << i << " of size " << size << " cannot broadcast to result "
             << "dimension " << d << " of size " << out.getDimSize(d);
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = getOperand().getType(), out = getType();
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("reshape changes the element count from ")
           << in.getNumElements() << " to " << out.getNumElements();
  if (in.getElementType() != out.getElementType())
    return emitOpError("reshape keeps the element type");
  return success();
}

LogicalResult TransposeOp::verify() {
  auto in = getOperand().getType();
  llvm::ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != in.getRank())
    return emitOpError("permutation has ")
           << perm.size() << " entries for rank " << in.getRank();
  if (failed(verifyDimList(*this, "permutation", perm, in.getRank())))
    return failure();
  llvm::SmallVector<int64_t> expected;
  for (int64_t p : perm)
    expected.push_back(in.getDimSize(p));
  return verifyShape(*this, getType(), expected);
}

LogicalResult ReverseOp::verify() {
  return verifyDimList(*this, "reverse", getDimensions(), getType().getRank());
}

LogicalResult SliceOp::verify() {
  auto in = getOperand().getType();
  auto start = getStartIndices(), limit = getLimitIndices();
  auto strides = getStrides();
  size_t rank = in.getRank();
  if (start.size() != rank || limit.size() != rank || strides.size() != rank)
    return emitOpError("start, limit and strides need one entry per "
                       "dimension (rank ")
           << rank << ")";
  llvm::SmallVector<int64_t> expected;
  for (size_t i = 0; i < rank; ++i) {
    int64_t dim = in.getDimSize(i);
    if (strides[i] <= 0)
      return emitOpError("stride of dimension ") << i << " must be positive";
    if (start[i] < 0 || start[i] > limit[i] ||
        (!ShapedType::isDynamic(dim) && limit[i] > dim))
      return emitOpError("slice [")
             << start[i] << ":" << limit[i] << "] of dimension " << i
             << " is outside [0:" << dim << "]";
    expected.push_back(llvm::divideCeil(limit[i] - start[i], strides[i]));
  }
  return verifyShape(*this, getType(), expected);
}

static LogicalResult verifyStartIndices(Operation *op, ValueRange indices,
                                        int64_t rank) {
  if (static_cast<int64_t>(indices.size()) != rank)
    return op->emitOpError("needs one start index per dimension (")
           << rank << "), got " << indices.size();
  for (Value index : indices) {
    auto t = tensorOf(index);
    if (t.getRank() != 0 || !isa<IntegerType>(t.getElementType()))
      return op->emitOpError("start indices must be integer scalars");
  }
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  auto in = getOperand().getType();
  if (failed(verifyStartIndices(*this, getStartIndices(), in.getRank())))
    return failure();
  auto sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != in.getRank())
    return emitOpError("needs one slice size per dimension");
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size < 0 || (!in.isDynamicDim(i) && size > in.getDimSize(i)))
      return emitOpError("slice size ")
             << size << " of dimension " << i << " exceeds the operand";
  return verifyShape(*this, getType(), sizes);
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto in = getOperand().getType(), update = getUpdate().getType();
  if (failed(verifyStartIndices(*this, getStartIndices(), in.getRank())))
    return failure();
  if (update.getRank() != in.getRank())
    return emitOpError("update rank must equal the operand rank");
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (!in.isDynamicDim(i) && !update.isDynamicDim(i) &&
        update.getDimSize(i) > in.getDimSize(i))
      return emitOpError("update dimension ") << i << " exceeds the operand";
  if (getType() != in)
    return emitOpError("result type must equal the operand type");
  return success();
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  auto first = tensorOf(getInputs().front());
  int64_t rank = first.getRank(), dim = getDimension();
  if (dim < 0 || dim >= rank)
    return emitOpError("dimension ") << dim << " is out of range for rank "
                                     << rank;
  llvm::SmallVector<int64_t> expected(first.getShape());
  expected[dim] = 0;
  for (auto [i, v] : llvm::enumerate(getInputs())) {
    auto t = tensorOf(v);
    if (t.getRank() != rank || t.getElementType() != first.getElementType())
      return emitOpError("input #") << i << " differs in rank or element type";
    for (int64_t d = 0; d < rank; ++d) {
      if (d == dim)
        continue;
      if (!dimsAgree(t.getDimSize(d), first.getDimSize(d)))
        return emitOpError("input #")
               << i << " has size " << t.getDimSize(d) << " in dimension "
               << d << ", expected " << first.getDimSize(d);
    }
    if (t.isDynamicDim(dim) || ShapedType::isDynamic(expected[dim]))
      expected[dim] = ShapedType::kDynamic;
    else
      expected[dim] += t.getDimSize(dim);
  }
  return verifyShape(*this, getType(), expected);
}

LogicalResult PadOp::verify() {
  auto in = getOperand().getType();
  if (!isScalar(getPaddingValue().getType()))
    return emitOpError("padding value must be a 0-d tensor");
  auto lo = getEdgePaddingLow(), hi = getEdgePaddingHigh();
  auto interior = getInteriorPadding();
  size_t rank = in.getRank();
  if (lo.size() != rank || hi.size() != rank || interior.size() != rank)
    return emitOpError("low, high and interior padding need one entry per "
                       "dimension (rank ")
           << rank << ")";
  llvm::SmallVector<int64_t> expected;
  for (size_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return emitOpError("interior padding of dimension ")
             << i << " is negative";
    int64_t d = in.getDimSize(i);
    if (ShapedType::isDynamic(d)) {
      expected.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t size = lo[i] + hi[i] + d + std::max<int64_t>(d - 1, 0) * interior[i];
    if (size < 0)
      return emitOpError("padding makes dimension ") << i << " negative";
    expected.push_back(size);
  }
  return verifyShape(*this, getType(), expected);
}

LogicalResult GatherOp::verify() {
  auto in = getOperand().getType();
  auto indices = getStartIndices().getType();
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOpError("start indices must be integers");
  if (getIndexVectorDim() < 0 || getIndexVectorDim() > indices.getRank())
    return emitOpError("index_vector_dim ")
           << getIndexVectorDim() << " is out of range";
  if (static_cast<int64_t>(getSliceSizes().size()) != in.getRank())
    return emitOpError("needs one slice size per operand dimension");
  if (failed(verifyDimList(*this, "collapsed slice", getCollapsedSliceDims(),
                           in.getRank())) ||
      failed(verifyDimList(*this, "start index map", getStartIndexMap(),
                           in.getRank())))
    return failure();
  for (int64_t d : getCollapsedSliceDims())
    if (getSliceSizes()[d] > 1)
      return emitOpError("collapsed dimension ")
             << d << " must have slice size 0 or 1";
  int64_t batchRank = indices.getRank() -
                      (getIndexVectorDim() < indices.getRank() ? 1 : 0);
  int64_t expectedRank = batchRank + getOffsetDims().size();
  if (getType().getRank() != expectedRank)
    return emitOpError("result rank ")
           << getType().getRank() << " should be " << expectedRank
           << " (batch dimensions + offset dimensions)";
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  auto lb = getLhsBatchingDimensions(), rb = getRhsBatchingDimensions();
  auto lc = getLhsContractingDimensions(), rc = getRhsContractingDimensions();
  if (lb.size() != rb.size())
    return emitOpError("lhs and rhs need as many batching dimensions");
  if (lc.size() != rc.size())
    return emitOpError("lhs and rhs need as many contracting dimensions");
  llvm::SmallVector<int64_t> lhsDims(lb), rhsDims(rb);
  lhsDims.append(lc.begin(), lc.end());
  rhsDims.append(rc.begin(), rc.end());
  if (failed(verifyDimList(*this, "lhs", lhsDims, lhs.getRank())) ||
      failed(verifyDimList(*this, "rhs", rhsDims, rhs.getRank())))
    return failure();
  for (auto [l, r] : llvm::zip(lhsDims, rhsDims))
    if (!dimsAgree(lhs.getDimSize(l), rhs.getDimSize(r)))
      return emitOpError("lhs dimension ")
             << l << " (size " << lhs.getDimSize(l) << ") and rhs dimension "
             << r << " (size " << rhs.getDimSize(r) << ") must agree";
  llvm::SmallVector<int64_t> expected;
  for (int64_t d : lb)
    expected.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!llvm::is_contained(lhsDims, d))
      expected.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!llvm::is_contained(rhsDims, d))
      expected.push_back(rhs.getDimSize(d));
  return verifyShape(*this, getType(), expected);
}

FailureOr<ConvDimLabels>
tessera::tgraph::parseConvDimLabels(llvm::StringRef labels,
                                    std::string &error) {
  auto [operands, output] = labels.split("->");
  auto [input, kernel] = operands.split('_');
  if (output.empty() || kernel.empty()) {
    error = "dim_labels '" + labels.str() +
            "' must look like 'b01f_01io->b01f'";
    return failure();
  }
  ConvDimLabels result;
  auto parsePart = [&](llvm::StringRef part, char first, char second,
                       ConvDimPart &out) -> bool {
    llvm::SmallVector<int64_t> spatial(part.size(), -1);
    size_t numSpatial = 0;
    for (auto [pos, c] : llvm::enumerate(part)) {
      if (c == first && out.batchOrInput < 0) {
        out.batchOrInput = pos;
      } else if (c == second && out.featureOrOutput < 0) {
        out.featureOrOutput = pos;
      } else if (c >= '0' && c <= '9' &&
                 static_cast<size_t>(c - '0') < part.size() &&
                 spatial[c - '0'] < 0) {
        spatial[c - '0'] = pos;
        ++numSpatial;
      } else {
        error = "dim_labels part '" + part.str() + "' has unexpected or "
                "repeated label '" + std::string(1, c) + "'";
        return false;
      }
    }
    if (out.batchOrInput < 0 || out.featureOrOutput < 0 ||
        numSpatial + 2 != part.size()) {
      error = "dim_labels part '" + part.str() + "' needs '" +
              std::string(1, first) + "', '" + std::string(1, second) +
              "' and spatial dimensions 0.." +
              std::to_string(static_cast<int64_t>(part.size()) - 3);
      return false;
    }
    out.spatial.assign(spatial.begin(), spatial.begin() + numSpatial);
    return true;
  };
  if (!parsePart(input, 'b', 'f', result.input) ||
      !parsePart(kernel, 'i', 'o', result.kernel) ||
      !parsePart(output, 'b', 'f', result.output))
    return failure();
  if (result.input.spatial.size() != result.kernel.spatial.size() ||
      result.input.spatial.size() != result.output.spatial.size()) {
    error = "dim_labels '" + labels.str() +
            "' has different spatial ranks for input, kernel and output";
    return failure();
  }
  return result;
}

llvm::SmallVector<int64_t> ConvolutionOp::getWindowSizes() {
  std::string error;
  FailureOr<ConvDimLabels> dims = parseConvDimLabels(getDimLabels(), error);
  llvm::SmallVector<int64_t> sizes;
  if (failed(dims))
    return sizes;
  for (int64_t d : dims->kernel.spatial)
    sizes.push_back(getRhs().getType().getDimSize(d));
  return sizes;
}

LogicalResult ConvolutionOp::verify() {
  std::string error;
  FailureOr<ConvDimLabels> dims = parseConvDimLabels(getDimLabels(), error);
  if (failed(dims))
    return emitOpError(error);
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  auto out = getType();
  size_t numSpatial = dims->input.spatial.size();
  size_t rank = numSpatial + 2;
  if (lhs.getRank() != static_cast<int64_t>(rank) ||
      rhs.getRank() != static_cast<int64_t>(rank) ||
      out.getRank() != static_cast<int64_t>(rank))
    return emitOpError("dim_labels describe rank ")
           << rank << " but the operands and result have ranks "
           << lhs.getRank() << ", " << rhs.getRank() << ", " << out.getRank();
  auto checkWindowAttr = [&](std::optional<llvm::ArrayRef<int64_t>> attr,
                             llvm::StringRef name,
                             size_t factor) -> LogicalResult {
    if (attr && attr->size() != numSpatial * factor)
      return emitOpError(name) << " needs " << numSpatial * factor
                               << " entries, got " << attr->size();
    return success();
  };
  if (failed(checkWindowAttr(getWindowStrides(), "window_strides", 1)) ||
      failed(checkWindowAttr(getPadding(), "padding", 2)) ||
      failed(checkWindowAttr(getLhsDilation(), "lhs_dilation", 1)) ||
      failed(checkWindowAttr(getRhsDilation(), "rhs_dilation", 1)))
    return failure();
  int64_t fgc = getFeatureGroupCount(), bgc = getBatchGroupCount();
  if (fgc < 1 || bgc < 1)
    return emitOpError("group counts must be positive");
  int64_t inFeatures = lhs.getDimSize(dims->input.featureOrOutput);
  int64_t kernelIn = rhs.getDimSize(dims->kernel.batchOrInput);
  if (!ShapedType::isDynamic(inFeatures) && !ShapedType::isDynamic(kernelIn) &&
      inFeatures != kernelIn * fgc)
    return emitOpError("input features (")
           << inFeatures << ") must equal kernel input features (" << kernelIn
           << ") x feature_group_count (" << fgc << ")";
  llvm::SmallVector<int64_t> expected(rank);
  int64_t batch = lhs.getDimSize(dims->input.batchOrInput);
  expected[dims->output.batchOrInput] =
      ShapedType::isDynamic(batch) ? batch : batch / bgc;
  expected[dims->output.featureOrOutput] =
      rhs.getDimSize(dims->kernel.featureOrOutput);
  for (size_t s = 0; s < numSpatial; ++s) {
    auto at = [&](std::optional<llvm::ArrayRef<int64_t>> attr, size_t i,
                  int64_t dflt) { return attr ? (*attr)[i] : dflt; };
    int64_t in = lhs.getDimSize(dims->input.spatial[s]);
    int64_t k = rhs.getDimSize(dims->kernel.spatial[s]);
    int64_t &o = expected[dims->output.spatial[s]];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k)) {
      o = ShapedType::kDynamic;
      continue;
    }
    int64_t stride = at(getWindowStrides(), s, 1);
    int64_t lhsDil = at(getLhsDilation(), s, 1);
    int64_t rhsDil = at(getRhsDilation(), s, 1);
    if (stride < 1 || lhsDil < 1 || rhsDil < 1)
      return emitOpError("strides and dilations must be positive");
    int64_t padded = (in - 1) * lhsDil + 1 + at(getPadding(), 2 * s, 0) +
                     at(getPadding(), 2 * s + 1, 0);
    int64_t window = (k - 1) * rhsDil + 1;
    o = padded < window ? 0 : (padded - window) / stride + 1;
  }
  return verifyShape(*this, out, expected);
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

/// The result of a region op over N inputs: the one tensor, or a tuple of N.
static llvm::SmallVector<Type> flattenResult(Type result) {
  if (auto tuple = dyn_cast<TupleType>(result))
    return llvm::SmallVector<Type>(tuple.getTypes());
  return {result};
}

LogicalResult ReduceOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getInitValues().size() != n)
    return emitOpError("needs N >= 1 inputs and as many init values, got ")
           << n << " and " << getInitValues().size();
  auto first = tensorOf(getInputs().front());
  for (Value v : getInputs())
    if (tensorOf(v).getShape() != first.getShape())
      return emitOpError("all inputs must have one shape");
  for (Value v : getInitValues())
    if (!isScalar(v.getType()))
      return emitOpError("init values must be 0-d tensors");
  if (failed(verifyDimList(*this, "reduce", getDimensions(), first.getRank())))
    return failure();
  llvm::SmallVector<int64_t> expected;
  for (int64_t d = 0; d < first.getRank(); ++d)
    if (!llvm::is_contained(getDimensions(), d))
      expected.push_back(first.getDimSize(d));
  llvm::SmallVector<Type> results = flattenResult(getType());
  if (results.size() != n)
    return emitOpError("result must hold ") << n << " tensors";
  for (Type t : results) {
    auto tensor = tensorOf(t);
    if (!tensor || failed(verifyShape(*this, tensor, expected)))
      return failure();
  }
  return verifyScalarRegion(*this, getBody(), "reducer", 2 * n);
}

LogicalResult ReduceWindowOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getInitValues().size() != n)
    return emitOpError("needs N >= 1 inputs and as many init values");
  int64_t rank = tensorOf(getInputs().front()).getRank();
  auto check = [&](std::optional<llvm::ArrayRef<int64_t>> attr,
                   llvm::StringRef name, int64_t factor) -> LogicalResult {
    if (attr && static_cast<int64_t>(attr->size()) != rank * factor)
      return emitOpError(name) << " needs " << rank * factor << " entries";
    return success();
  };
  if (failed(check(getWindowDimensions(), "window_dimensions", 1)) ||
      failed(check(getWindowStrides(), "window_strides", 1)) ||
      failed(check(getBaseDilations(), "base_dilations", 1)) ||
      failed(check(getWindowDilations(), "window_dilations", 1)) ||
      failed(check(getPadding(), "padding", 2)))
    return failure();
  if (flattenResult(getType()).size() != n)
    return emitOpError("result must hold ") << n << " tensors";
  return verifyScalarRegion(*this, getBody(), "reducer", 2 * n);
}

LogicalResult SelectAndScatterOp::verify() {
  if (getType() != getOperand().getType())
    return emitOpError("result type must equal the operand type");
  if (failed(verifyScalarRegion(*this, getSelect(), "select", 2)))
    return failure();
  return verifyScalarRegion(*this, getScatter(), "scatter", 2);
}

LogicalResult ScatterOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getUpdates().size() != n)
    return emitOpError("needs N >= 1 inputs and as many updates");
  if (flattenResult(getType()).size() != n)
    return emitOpError("result must hold ") << n << " tensors";
  return verifyScalarRegion(*this, getUpdateComputation(), "update", 2 * n);
}

LogicalResult SortOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("needs at least one input");
  auto first = tensorOf(getInputs().front());
  for (Value v : getInputs())
    if (tensorOf(v).getShape() != first.getShape())
      return emitOpError("all inputs must have one shape");
  if (getDimension() < 0 || getDimension() >= first.getRank())
    return emitOpError("sort dimension ")
           << getDimension() << " is out of range for rank "
           << first.getRank();
  if (flattenResult(getType()).size() != n)
    return emitOpError("result must hold ") << n << " tensors";
  return verifyScalarRegion(*this, getComparator(), "comparator", 2 * n);
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
    return emitOpError("index ") << index << " is out of range for a tuple of "
                                 << tuple.size();
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
  if (index.getElementType().isInteger(1) && getBranches().size() != 2)
    return emitOpError("an i1 predicate selects between exactly two branches");
  return success();
}

LogicalResult ConditionalOp::verifySymbolUses(SymbolTableCollection &table) {
  for (auto [branch, operand] :
       llvm::zip(getBranches(), getBranchOperands()))
    if (failed(verifyCallee(*this, table, cast<FlatSymbolRefAttr>(branch),
                            operand.getType(),
                            getOperation()->getResultTypes())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

static LogicalResult verifyBatchNorm(Operation *op, ValueRange inputs,
                                     size_t expected, int64_t featureIndex) {
  if (inputs.size() != expected)
    return op->emitOpError("takes ")
           << expected << " operands, got " << inputs.size();
  int64_t rank = tensorOf(inputs.front()).getRank();
  if (featureIndex < 0 || featureIndex >= rank)
    return op->emitOpError("feature_index ")
           << featureIndex << " is out of range for rank " << rank;
  return success();
}

LogicalResult BatchNormTrainingOp::verify() {
  return verifyBatchNorm(*this, getInputs(), 3, getFeatureIndex());
}
LogicalResult BatchNormInferenceOp::verify() {
  return verifyBatchNorm(*this, getInputs(), 5, getFeatureIndex());
}
LogicalResult BatchNormGradOp::verify() {
  return verifyBatchNorm(*this, getInputs(), 5, getFeatureIndex());
}
