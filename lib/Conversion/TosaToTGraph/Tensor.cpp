//===- Tensor.cpp - tensor dialect ops ------------------------------------===//
//
// The tensor ops exports write beside TOSA: slices (BERT's pooler takes
// the first token with extract_slice), inserts, concat, reshapes, pad and
// empty destinations. tgraph keeps offsets, sizes and paddings as
// attributes, so they must be static or constants; anything computed at
// run time makes the op tgraph.unknown with the reason.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tessera::tosa_import;

namespace {

/// Offsets, sizes, strides or paddings as numbers: static values, and
/// dynamic ones whose operand is a constant.
FailureOr<SmallVector<int64_t>> staticValues(ArrayRef<OpFoldResult> mixed) {
  SmallVector<int64_t> out;
  for (OpFoldResult v : mixed) {
    std::optional<int64_t> c = getConstantIntValue(v);
    if (!c)
      return failure();
    out.push_back(*c);
  }
  return out;
}

/// The slice positions of `op` (extract_slice or insert_slice): offsets,
/// sizes, strides, and the limit of each dimension (one past the last
/// element taken, as tgraph.slice wants it).
struct SliceBox {
  SmallVector<int64_t> offsets, sizes, strides, limits;
};

template <typename OpTy> FailureOr<SliceBox> sliceBox(OpTy op, Emitter &e) {
  SliceBox box;
  FailureOr<SmallVector<int64_t>> offsets = staticValues(op.getMixedOffsets());
  FailureOr<SmallVector<int64_t>> sizes = staticValues(op.getMixedSizes());
  FailureOr<SmallVector<int64_t>> strides = staticValues(op.getMixedStrides());
  if (failed(offsets) || failed(sizes) || failed(strides)) {
    (void)e.fail(op->getName().getStringRef() +
                 ": offsets, sizes or strides computed at run time (tgraph "
                 "needs them as attributes)");
    return failure();
  }
  box.offsets = *offsets;
  box.sizes = *sizes;
  box.strides = *strides;
  for (auto [offset, size, stride] :
       llvm::zip(box.offsets, box.sizes, box.strides))
    box.limits.push_back(size == 0 ? offset : offset + (size - 1) * stride + 1);
  return box;
}

bool isIntOrFloat(Type t) { return isa<IntegerType, FloatType>(t); }

/// tgraph.slice takes the box; a rank-reducing extract_slice then drops
/// its unit dimensions with a reshape.
FailureOr<Value> extractSlice(tensor::ExtractSliceOp op,
                              tensor::ExtractSliceOp::Adaptor a, Emitter &e) {
  FailureOr<SliceBox> box = sliceBox(op, e);
  if (failed(box))
    return failure();
  auto type = op.getResultType();
  auto full = RankedTensorType::get(box->sizes, type.getElementType());
  Value slice = e.make<tg::SliceOp>(full, a.getSource(), box->offsets,
                                    box->limits, box->strides);
  return reshapeTo(e, slice, type.getShape());
}

/// With unit strides, a dynamic_update_slice at constant start indices
/// (in range, as insert_slice requires, so HLO's clamping never moves it).
/// With larger strides, the source is spread over the destination's shape
/// by interior padding, and a mask padded the same way selects it.
FailureOr<Value> insertSlice(tensor::InsertSliceOp op,
                             tensor::InsertSliceOp::Adaptor a, Emitter &e) {
  FailureOr<SliceBox> box = sliceBox(op, e);
  if (failed(box))
    return failure();
  auto type = op.getDestType();
  Type elt = type.getElementType();
  Value source = reshapeTo(e, a.getSource(), box->sizes);
  if (llvm::all_of(box->strides, [](int64_t s) { return s == 1; })) {
    auto index = RankedTensorType::get({}, e.rw.getI32Type());
    SmallVector<Value> starts;
    for (int64_t offset : box->offsets)
      starts.push_back(splat(e, index, e.rw.getI32IntegerAttr(offset)));
    return e.make<tg::DynamicUpdateSliceOp>(type, a.getDest(), source, starts)
        .getResult();
  }
  if (!type.hasStaticShape() || !isIntOrFloat(elt))
    return e.fail("tensor.insert_slice: a strided insert needs a static "
                  "integer or float destination");
  SmallVector<int64_t> high, interior;
  for (auto [d, limit] : llvm::enumerate(box->limits)) {
    high.push_back(type.getDimSize(d) - limit);
    interior.push_back(box->strides[d] - 1);
  }
  auto scalar = RankedTensorType::get({}, elt);
  Value zero = splat(e, scalar, numberAttr(elt, 0));
  Value spread =
      e.make<tg::PadOp>(type, source, zero, box->offsets, high, interior);
  Type i1 = e.rw.getI1Type();
  Value inside =
      splat(e, RankedTensorType::get(box->sizes, i1), e.rw.getBoolAttr(true));
  Value outside =
      splat(e, RankedTensorType::get({}, i1), e.rw.getBoolAttr(false));
  Value mask = e.make<tg::PadOp>(RankedTensorType::get(type.getShape(), i1),
                                 inside, outside, box->offsets, high, interior);
  return e.make<tg::SelectOp>(type, mask, spread, a.getDest()).getResult();
}

FailureOr<Value> concat(tensor::ConcatOp op, tensor::ConcatOp::Adaptor a,
                        Emitter &e) {
  return e
      .make<tg::ConcatenateOp>(op.getType(), a.getInputs(),
                               static_cast<uint64_t>(op.getDim()))
      .getResult();
}

/// expand_shape and collapse_shape keep the row-major order: a reshape.
template <typename OpTy>
FailureOr<Value> reshape(OpTy op, typename OpTy::Adaptor a, Emitter &e) {
  return e.make<tg::ReshapeOp>(op.getResultType(), a.getSrc()).getResult();
}

/// tgraph.pad takes the padding value as a 0-d tensor: the region must
/// yield a constant (what exports write; a value that depends on the
/// position or is computed at run time has no tgraph form).
FailureOr<Value> pad(tensor::PadOp op, tensor::PadOp::Adaptor a, Emitter &e) {
  FailureOr<SmallVector<int64_t>> low = staticValues(op.getMixedLowPad());
  FailureOr<SmallVector<int64_t>> high = staticValues(op.getMixedHighPad());
  if (failed(low) || failed(high))
    return e.fail("tensor.pad: padding amounts computed at run time (tgraph "
                  "needs them as attributes)");
  Value yielded = op.getConstantPaddingValue();
  TypedAttr value = yielded ? scalarConstant(yielded) : nullptr;
  if (!value)
    return e.fail("tensor.pad: the padding value is not a constant (it is "
                  "computed at run time or depends on the position)");
  Type elt = op.getResultType().getElementType();
  Value padValue = splat(e, RankedTensorType::get({}, elt), value);
  SmallVector<int64_t> interior(low->size(), 0);
  return e
      .make<tg::PadOp>(op.getResultType(), a.getSource(), padValue, *low, *high,
                       interior)
      .getResult();
}

/// tensor.empty's contents are undefined (exports use it as the
/// destination of inserts); zeros are one valid choice, and a fixed one
/// keeps the device and the reference interpreter in agreement.
FailureOr<Value> empty(tensor::EmptyOp op, tensor::EmptyOp::Adaptor,
                       Emitter &e) {
  auto type = op.getType();
  if (!type.hasStaticShape())
    return e.fail("tensor.empty with dynamic sizes (tgraph constants have "
                  "static shapes)");
  if (!isIntOrFloat(type.getElementType()))
    return e.fail("tensor.empty of a type other than integer or float");
  return splat(e, type, numberAttr(type.getElementType(), 0));
}

/// A constant scalar fills the tensor; a run-time scalar has no tgraph
/// form (tgraph has no scalar values).
FailureOr<Value> splatOp(tensor::SplatOp op, tensor::SplatOp::Adaptor a,
                         Emitter &e) {
  TypedAttr value = scalarConstant(a.getInput());
  if (!value)
    return e.fail("tensor.splat of a scalar computed at run time (tgraph "
                  "has no scalar values)");
  return splat(e, op.getType(), value);
}

} // namespace

void tessera::tosa_import::populateTensorPatterns(RewritePatternSet &p) {
  add<tensor::ExtractSliceOp>(p, extractSlice);
  add<tensor::InsertSliceOp>(p, insertSlice);
  add<tensor::ConcatOp>(p, concat);
  add<tensor::ExpandShapeOp>(p, reshape<tensor::ExpandShapeOp>);
  add<tensor::CollapseShapeOp>(p, reshape<tensor::CollapseShapeOp>);
  add<tensor::PadOp>(p, pad);
  add<tensor::EmptyOp>(p, empty);
  add<tensor::SplatOp>(p, splatOp);
}
