//===- TGraphVerifiers.cpp - tgraph shape and attribute rules -------------===//
//
// The shape rules of HLO, so that a malformed import or hand-written test is
// rejected with a message that names the dimension or attribute at fault.
// This file: the shared helpers (VerifierUtils.h), elementwise, shape and
// contraction ops; TGraphRegionVerifiers.cpp: region, call and collective ops.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tessera::tgraph;
using namespace tessera::tgraph::detail;

namespace tessera::tgraph::detail {

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

/// Data-movement ops (broadcast, transpose, slices, concatenate) never
/// convert: the result keeps the operand's element type.
LogicalResult verifyKeepsElementType(Operation *op, RankedTensorType operand,
                                     RankedTensorType result) {
  if (operand.getElementType() == result.getElementType())
    return success();
  return op->emitOpError("result element type ")
         << result.getElementType() << " differs from the operand's ("
         << operand.getElementType() << ")";
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

/// The result of a region op over N inputs: the one tensor, or a tuple of N.
llvm::SmallVector<Type> flattenResult(Type result) {
  if (auto tuple = dyn_cast<TupleType>(result))
    return llvm::SmallVector<Type>(tuple.getTypes());
  return {result};
}

/// Checks that `region` returns exactly `types`.
LogicalResult verifyRegionReturns(Operation *op, Region &region,
                                  llvm::StringRef what, TypeRange types) {
  auto ret = cast<ReturnOp>(region.front().back());
  if (!llvm::equal(ret.getResults().getTypes(), types)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << what << " region must return (";
    llvm::interleaveComma(types, diag);
    return diag << ")";
  }
  return success();
}

/// Output size of one dimension of a windowed op (HLO's window shape rule):
/// dilate the base, pad it, then count the window positions at `stride`.
int64_t windowedSize(int64_t in, int64_t window, int64_t stride,
                     int64_t baseDilation, int64_t windowDilation,
                     int64_t padLow, int64_t padHigh) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  int64_t padded =
      (in == 0 ? 0 : (in - 1) * baseDilation + 1) + padLow + padHigh;
  int64_t dilatedWindow = (window - 1) * windowDilation + 1;
  return padded < dilatedWindow ? 0 : (padded - dilatedWindow) / stride + 1;
}

} // namespace tessera::tgraph::detail

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
  // I64Attr getters return uint64_t: read as signed so that -1 is reported
  // as -1, not as 18446744073709551615.
  int64_t rank = getType().getRank(), dim = getIotaDimension();
  if (dim < 0 || dim >= rank)
    return emitOpError("iota dimension ")
           << dim << " is out of range for rank " << rank;
  return success();
}

LogicalResult IsFiniteOp::verify() {
  // The shape rule is the Elementwise trait's, checked before this.
  auto in = getOperand().getType(), out = getType();
  if (!isa<FloatType>(in.getElementType()))
    return emitOpError("operand must have a floating-point element type");
  if (!out.getElementType().isInteger(1))
    return emitOpError("result must have element type i1");
  return success();
}

// Compare, is_finite and convert keep the shape by the Elementwise trait
// (checked before these verifiers), so they only check element types.
LogicalResult CompareOp::verify() {
  if (getLhs().getType() != getRhs().getType())
    return emitOpError("operands must have one type, got ")
           << getLhs().getType() << " and " << getRhs().getType();
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
  // AllTypesMatch<on_true, on_false, result> is checked before this.
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
  if (failed(verifyKeepsElementType(*this, in, out)))
    return failure();
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
  if (failed(verifyKeepsElementType(*this, in, getType())))
    return failure();
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
  if (failed(verifyKeepsElementType(*this, in, getType())))
    return failure();
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
  if (failed(verifyKeepsElementType(*this, in, getType())))
    return failure();
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
  if (failed(verifyKeepsElementType(*this, in, update)))
    return failure();
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
    return emitOpError("dimension ")
           << dim << " is out of range for rank " << rank;
  if (failed(verifyKeepsElementType(*this, first, getType())))
    return failure();
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
               << i << " has size " << t.getDimSize(d) << " in dimension " << d
               << ", expected " << first.getDimSize(d);
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
  if (getPaddingValue().getType().getElementType() != in.getElementType() ||
      getType().getElementType() != in.getElementType())
    return emitOpError("padding value and result must have the operand's "
                       "element type");
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
    int64_t size =
        lo[i] + hi[i] + d + std::max<int64_t>(d - 1, 0) * interior[i];
    if (size < 0)
      return emitOpError("padding makes dimension ") << i << " negative";
    expected.push_back(size);
  }
  return verifyShape(*this, getType(), expected);
}

LogicalResult GatherOp::verify() {
  auto in = getOperand().getType();
  auto indices = getStartIndices().getType();
  auto out = getType();
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOpError("start indices must be integers");
  if (out.getElementType() != in.getElementType())
    return emitOpError("result element type must equal the operand's");
  int64_t ivd = getIndexVectorDim(), indicesRank = indices.getRank();
  if (ivd < 0 || ivd > indicesRank)
    return emitOpError("index_vector_dim ")
           << ivd << " is out of range [0, " << indicesRank << "]";
  auto sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != in.getRank())
    return emitOpError("needs one slice size per operand dimension");
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size < 0 || (!in.isDynamicDim(i) && size > in.getDimSize(i)))
      return emitOpError("slice size ")
             << size << " of dimension " << i << " exceeds the operand";
  if (failed(verifyDimList(*this, "collapsed slice", getCollapsedSliceDims(),
                           in.getRank())) ||
      failed(verifyDimList(*this, "start index map", getStartIndexMap(),
                           in.getRank())))
    return failure();
  for (int64_t d : getCollapsedSliceDims())
    if (sizes[d] > 1)
      return emitOpError("collapsed dimension ")
             << d << " must have slice size 0 or 1";
  // index_vector_dim == rank means an implicit trailing index vector of 1.
  int64_t indexVectorSize = ivd < indicesRank ? indices.getDimSize(ivd) : 1;
  if (!ShapedType::isDynamic(indexVectorSize) &&
      static_cast<int64_t>(getStartIndexMap().size()) != indexVectorSize)
    return emitOpError("start_index_map has ")
           << getStartIndexMap().size() << " entries but the index vector has "
           << indexVectorSize;
  int64_t batchRank = indicesRank - (ivd < indicesRank ? 1 : 0);
  auto offsetDims = getOffsetDims();
  int64_t expectedRank = batchRank + offsetDims.size();
  if (out.getRank() != expectedRank)
    return emitOpError("result rank ")
           << out.getRank() << " should be " << expectedRank
           << " (batch dimensions + offset dimensions)";
  if (failed(verifyDimList(*this, "offset", offsetDims, expectedRank)))
    return failure();
  if (!llvm::is_sorted(offsetDims))
    return emitOpError("offset_dims must be sorted");
  if (offsetDims.size() + getCollapsedSliceDims().size() != sizes.size())
    return emitOpError("offset_dims (")
           << offsetDims.size() << ") and collapsed_slice_dims ("
           << getCollapsedSliceDims().size()
           << ") must together cover the operand rank " << sizes.size();
  // Result dimension i is the next offset (uncollapsed slice) size when i is
  // in offset_dims, else the next batch dimension of the indices.
  llvm::SmallVector<int64_t> expected;
  int64_t nextBatch = 0, nextSlice = 0;
  for (int64_t i = 0; i < expectedRank; ++i) {
    if (llvm::is_contained(offsetDims, i)) {
      while (llvm::is_contained(getCollapsedSliceDims(), nextSlice))
        ++nextSlice;
      expected.push_back(sizes[nextSlice++]);
    } else {
      if (nextBatch == ivd)
        ++nextBatch;
      expected.push_back(indices.getDimSize(nextBatch++));
    }
  }
  return verifyShape(*this, out, expected);
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
    error =
        "dim_labels '" + labels.str() + "' must look like 'b01f_01io->b01f'";
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
        error = "dim_labels part '" + part.str() +
                "' has unexpected or "
                "repeated label '" +
                std::string(1, c) + "'";
        return false;
      }
    }
    // The spatial labels must be exactly 0..n-1: "b02f" has two spatial
    // digits but no dimension 1, which would leave a hole in `spatial`.
    bool contiguous =
        llvm::all_of(llvm::ArrayRef(spatial).take_front(numSpatial),
                     [](int64_t pos) { return pos >= 0; });
    if (out.batchOrInput < 0 || out.featureOrOutput < 0 ||
        numSpatial + 2 != part.size() || !contiguous) {
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
  if (auto reversal = getWindowReversal();
      reversal && reversal->size() != numSpatial)
    return emitOpError("window_reversal needs ")
           << numSpatial << " entries, got " << reversal->size();
  int64_t fgc = getFeatureGroupCount(), bgc = getBatchGroupCount();
  if (fgc < 1 || bgc < 1)
    return emitOpError("group counts must be positive");
  if (fgc > 1 && bgc > 1)
    return emitOpError("feature_group_count and batch_group_count cannot "
                       "both exceed 1");
  // Groups split the output features (and, for batch groups, the batch)
  // evenly; HLO rejects any remainder.
  int64_t kernelOut = rhs.getDimSize(dims->kernel.featureOrOutput);
  int64_t groups = std::max(fgc, bgc);
  if (!ShapedType::isDynamic(kernelOut) && kernelOut % groups != 0)
    return emitOpError("kernel output features (")
           << kernelOut << ") must be a multiple of the group count (" << groups
           << ")";
  int64_t inBatch = lhs.getDimSize(dims->input.batchOrInput);
  if (!ShapedType::isDynamic(inBatch) && inBatch % bgc != 0)
    return emitOpError("input batch (")
           << inBatch << ") must be a multiple of batch_group_count (" << bgc
           << ")";
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

LogicalResult ReducePrecisionOp::verify() {
  // The attributes are 32-bit integers read back unsigned: a negative
  // width written in the IR reads as a huge one.
  auto exponent = static_cast<int32_t>(getExponentBits());
  auto mantissa = static_cast<int32_t>(getMantissaBits());
  if (exponent < 1)
    return emitOpError("exponent_bits must be at least 1, got ") << exponent;
  if (mantissa < 0)
    return emitOpError("mantissa_bits must not be negative, got ") << mantissa;
  return success();
}
