//===- Patterns.h - shared pieces of the TOSA import ------------*- C++ -*-===//
//
// Private to lib/Conversion/TosaToTGraph: the Emitter every family builds
// with, small builders (splats, explicit broadcasts, reducer regions), and
// FamilyPattern, which verifies what a family built and falls back to
// tgraph.unknown. Each family file adds its patterns with populate*().
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TOSATOTGRAPH_PATTERNS_H
#define TESSERA_CONVERSION_TOSATOTGRAPH_PATTERNS_H

#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace tessera::tosa_import {

using namespace mlir;
namespace tg = tessera::tgraph;

/// Creates ops at the TOSA op's location (so they keep its NameLoc) and
/// remembers them: when the result does not verify, they are erased again
/// and the TOSA op becomes tgraph.unknown.
struct Emitter {
  PatternRewriter &rw;
  Location loc;
  SmallVector<Operation *> created;
  std::string reason;

  /// Helper ops of a named TOSA op are named "<name>.<opcode>" (as HLO
  /// names instructions); the op that replaces the TOSA result gets the
  /// TOSA op's own location, hence its name, in convertOrUnknown.
  template <typename OpTy, typename... Args> OpTy make(Args &&...args) {
    Location at = loc;
    if (auto name = dyn_cast<NameLoc>(loc))
      at = NameLoc::get(
          StringAttr::get(loc.getContext(),
                          name.getName().strref() + "." +
                              OpTy::getOperationName().drop_front(7)),
          name.getChildLoc());
    auto op = rw.create<OpTy>(at, std::forward<Args>(args)...);
    created.push_back(op);
    return op;
  }
  FailureOr<Value> fail(const Twine &why) {
    reason = why.str();
    return failure();
  }
};

inline RankedTensorType rankedOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// A constant filled with one value, of any shape (0-d for scalars).
/// A dense attribute needs a static shape: for a dynamic one, a 0-d
/// constant is broadcast to it instead.
inline Value splat(Emitter &e, RankedTensorType type, Attribute element) {
  if (!type.hasStaticShape()) {
    Value scalar =
        splat(e, RankedTensorType::get({}, type.getElementType()), element);
    return e.make<tg::BroadcastInDimOp>(type, scalar, ArrayRef<int64_t>{});
  }
  return e.make<tg::ConstantOp>(type, DenseElementsAttr::get(type, element),
                                /*elided=*/false);
}

inline Attribute numberAttr(Type elt, double value) {
  if (isa<FloatType>(elt))
    return FloatAttr::get(elt, value);
  return IntegerAttr::get(elt, static_cast<int64_t>(value));
}

/// The identity of max (lowest) or min (highest) for an element type.
inline Attribute extremeAttr(Type elt, bool lowest) {
  if (auto f = dyn_cast<FloatType>(elt))
    return FloatAttr::get(elt, APFloat::getInf(f.getFloatSemantics(), lowest));
  unsigned width = elt.getIntOrFloatBitWidth();
  bool isUnsigned = elt.isUnsignedInteger() || width == 1;
  APInt v = isUnsigned ? (lowest ? APInt::getMinValue(width)
                                 : APInt::getMaxValue(width))
                       : (lowest ? APInt::getSignedMinValue(width)
                                 : APInt::getSignedMaxValue(width));
  return IntegerAttr::get(elt, v);
}

/// TOSA broadcasts implicitly between operands of equal rank (size-1
/// dimensions stretch); tgraph, like HLO, wants an explicit broadcast.
/// Lower-rank operands (older TOSA) align with the trailing dimensions.
inline Value broadcastTo(Emitter &e, Value v, ArrayRef<int64_t> shape) {
  auto type = rankedOf(v);
  if (type.getShape() == shape)
    return v;
  int64_t offset = static_cast<int64_t>(shape.size()) - type.getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(d + offset);
  auto to = RankedTensorType::get(shape, type.getElementType());
  return e.make<tg::BroadcastInDimOp>(to, v, dims);
}

inline Value reshapeTo(Emitter &e, Value v, ArrayRef<int64_t> shape) {
  auto type = rankedOf(v);
  if (type.getShape() == shape)
    return v;
  return e.make<tg::ReshapeOp>(
      RankedTensorType::get(shape, type.getElementType()), v);
}

/// Fills a reducer region: two 0-d tensors in, `BinOp` of them out.
template <typename BinOp>
void buildReducer(Emitter &e, Region &region, Type elt) {
  OpBuilder::InsertionGuard guard(e.rw);
  auto scalar = RankedTensorType::get({}, elt);
  Block *block =
      e.rw.createBlock(&region, region.end(), {scalar, scalar}, {e.loc, e.loc});
  Value r = e.rw.create<BinOp>(e.loc, scalar, block->getArgument(0),
                               block->getArgument(1));
  e.rw.create<tg::ReturnOp>(e.loc, ValueRange{r});
}

/// Integer contents of a constant operand (transpose perms, pad paddings).
/// The TOSA op may already be converted; its attribute is still readable.
inline FailureOr<SmallVector<int64_t>> constInts(Value v) {
  Operation *def = v.getDefiningOp();
  ElementsAttr attr;
  if (auto c = dyn_cast_or_null<tosa::ConstOp>(def))
    attr = c.getValue();
  else if (auto c = dyn_cast_or_null<tg::ConstantOp>(def))
    attr = c.getValue().value_or(nullptr);
  auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr);
  if (!dense)
    return failure();
  SmallVector<int64_t> out;
  for (const APInt &i : dense.getValues<APInt>())
    out.push_back(i.getSExtValue());
  return out;
}

inline DenseI64ArrayAttr i64s(Emitter &e, ArrayRef<int64_t> values) {
  return e.rw.getDenseI64ArrayAttr(values);
}

/// Verifies what a family built; on success the TOSA op is replaced, else
/// the new ops are erased and the TOSA op becomes tgraph.unknown with the
/// reason. Quantized ops become tgraph.unknown before `convert` runs.
LogicalResult
convertOrUnknown(Operation *op, ValueRange operands, PatternRewriter &rw,
                 function_ref<FailureOr<Value>(Emitter &)> convert);

/// One pattern per TOSA op (family member): `Fn` builds the tgraph form.
template <typename OpTy> struct FamilyPattern : OpRewritePattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using Fn = FailureOr<Value> (*)(OpTy, Adaptor, Emitter &);
  FamilyPattern(MLIRContext *ctx, Fn fn)
      : OpRewritePattern<OpTy>(ctx, /*benefit=*/2), fn(fn) {}
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    // Producers are converted first, so the operands are tgraph values.
    Adaptor adaptor(op->getOperands(), op);
    return convertOrUnknown(op, op->getOperands(), rw,
                            [&](Emitter &e) { return fn(op, adaptor, e); });
  }
  Fn fn;
};

template <typename OpTy>
void add(RewritePatternSet &patterns, typename FamilyPattern<OpTy>::Fn fn) {
  patterns.add<FamilyPattern<OpTy>>(patterns.getContext(), fn);
}

void populateElementwisePatterns(RewritePatternSet &patterns);
void populateDataMovementPatterns(RewritePatternSet &patterns);
void populateNnPatterns(RewritePatternSet &patterns);
void populateResizePatterns(RewritePatternSet &patterns);
void populateRescalePatterns(RewritePatternSet &patterns);

} // namespace tessera::tosa_import

#endif // TESSERA_CONVERSION_TOSATOTGRAPH_PATTERNS_H
