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

namespace tg = tessera::tgraph;

/// Creates ops at the TOSA op's location (so they keep its NameLoc) and
/// remembers them: when the result does not verify, they are erased again
/// and the TOSA op becomes tgraph.unknown.
struct Emitter {
  mlir::PatternRewriter &rw;
  mlir::Location loc;
  llvm::SmallVector<mlir::Operation *> created;
  std::string reason;

  /// Helper ops of a named TOSA op are named "<name>.<opcode>" (as HLO
  /// names instructions); the op that replaces the TOSA result gets the
  /// TOSA op's own location, hence its name, in convertOrUnknown.
  template <typename OpTy, typename... Args> OpTy make(Args &&...args) {
    mlir::Location at = loc;
    if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
      at = mlir::NameLoc::get(
          mlir::StringAttr::get(loc.getContext(),
                                name.getName().strref() + "." +
                                    OpTy::getOperationName().drop_front(7)),
          name.getChildLoc());
    auto op = rw.create<OpTy>(at, std::forward<Args>(args)...);
    created.push_back(op);
    return op;
  }
  mlir::FailureOr<mlir::Value> fail(const llvm::Twine &why) {
    reason = why.str();
    return mlir::failure();
  }
};

inline mlir::RankedTensorType rankedOf(mlir::Value v) {
  return llvm::dyn_cast<mlir::RankedTensorType>(v.getType());
}

/// A constant filled with one value, of any shape (0-d for scalars).
/// A dense attribute needs a static shape: for a dynamic one, a 0-d
/// constant is broadcast to it instead.
inline mlir::Value splat(Emitter &e, mlir::RankedTensorType type,
                         mlir::Attribute element) {
  if (!type.hasStaticShape()) {
    mlir::Value scalar = splat(
        e, mlir::RankedTensorType::get({}, type.getElementType()), element);
    return e.make<tg::BroadcastInDimOp>(type, scalar,
                                        llvm::ArrayRef<int64_t>{});
  }
  return e.make<tg::ConstantOp>(type,
                                mlir::DenseElementsAttr::get(type, element),
                                /*elided=*/false);
}

inline mlir::Attribute numberAttr(mlir::Type elt, double value) {
  if (llvm::isa<mlir::FloatType>(elt))
    return mlir::FloatAttr::get(elt, value);
  return mlir::IntegerAttr::get(elt, static_cast<int64_t>(value));
}

/// The identity of max (lowest) or min (highest) for an element type.
inline mlir::Attribute extremeAttr(mlir::Type elt, bool lowest) {
  if (auto f = llvm::dyn_cast<mlir::FloatType>(elt))
    return mlir::FloatAttr::get(
        elt, llvm::APFloat::getInf(f.getFloatSemantics(), lowest));
  unsigned width = elt.getIntOrFloatBitWidth();
  bool isUnsigned = elt.isUnsignedInteger() || width == 1;
  llvm::APInt v = isUnsigned ? (lowest ? llvm::APInt::getMinValue(width)
                                       : llvm::APInt::getMaxValue(width))
                             : (lowest ? llvm::APInt::getSignedMinValue(width)
                                       : llvm::APInt::getSignedMaxValue(width));
  return mlir::IntegerAttr::get(elt, v);
}

/// TOSA broadcasts implicitly between operands of equal rank (size-1
/// dimensions stretch); tgraph, like HLO, wants an explicit broadcast.
/// Lower-rank operands (older TOSA) align with the trailing dimensions.
inline mlir::Value broadcastTo(Emitter &e, mlir::Value v,
                               llvm::ArrayRef<int64_t> shape) {
  auto type = rankedOf(v);
  if (type.getShape() == shape)
    return v;
  int64_t offset = static_cast<int64_t>(shape.size()) - type.getRank();
  llvm::SmallVector<int64_t> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(d + offset);
  auto to = mlir::RankedTensorType::get(shape, type.getElementType());
  return e.make<tg::BroadcastInDimOp>(to, v, dims);
}

inline mlir::Value reshapeTo(Emitter &e, mlir::Value v,
                             llvm::ArrayRef<int64_t> shape) {
  auto type = rankedOf(v);
  if (type.getShape() == shape)
    return v;
  return e.make<tg::ReshapeOp>(
      mlir::RankedTensorType::get(shape, type.getElementType()), v);
}

/// Fills a reducer region: two 0-d tensors in, `BinOp` of them out.
template <typename BinOp>
void buildReducer(Emitter &e, mlir::Region &region, mlir::Type elt) {
  mlir::OpBuilder::InsertionGuard guard(e.rw);
  auto scalar = mlir::RankedTensorType::get({}, elt);
  mlir::Block *block =
      e.rw.createBlock(&region, region.end(), {scalar, scalar}, {e.loc, e.loc});
  mlir::Value r = e.rw.create<BinOp>(e.loc, scalar, block->getArgument(0),
                                     block->getArgument(1));
  e.rw.create<tg::ReturnOp>(e.loc, mlir::ValueRange{r});
}

/// Integer contents of a constant operand (transpose perms, pad paddings).
/// The TOSA op may already be converted; its attribute is still readable.
inline mlir::FailureOr<llvm::SmallVector<int64_t>> constInts(mlir::Value v) {
  mlir::Operation *def = v.getDefiningOp();
  mlir::ElementsAttr attr;
  if (auto c = llvm::dyn_cast_or_null<mlir::tosa::ConstOp>(def))
    attr = c.getValue();
  else if (auto c = llvm::dyn_cast_or_null<tg::ConstantOp>(def))
    attr = c.getValue().value_or(nullptr);
  auto dense = llvm::dyn_cast_or_null<mlir::DenseIntElementsAttr>(attr);
  if (!dense)
    return mlir::failure();
  llvm::SmallVector<int64_t> out;
  for (const llvm::APInt &i : dense.getValues<llvm::APInt>())
    out.push_back(i.getSExtValue());
  return out;
}

inline mlir::DenseI64ArrayAttr i64s(Emitter &e,
                                    llvm::ArrayRef<int64_t> values) {
  return e.rw.getDenseI64ArrayAttr(values);
}

/// A one-operand op whose result has the source op's type, as `TgOp`
/// (TOSA's and math's unary elementwise ops).
template <typename OpTy, typename TgOp>
mlir::FailureOr<mlir::Value> unary(OpTy op, typename OpTy::Adaptor a,
                                   Emitter &e) {
  return e.make<TgOp>(op.getType(), a.getOperands()[0]).getResult();
}

/// Verifies what a family built; on success the TOSA op is replaced, else
/// the new ops are erased and the TOSA op becomes tgraph.unknown with the
/// reason. Quantized ops become tgraph.unknown before `convert` runs.
mlir::LogicalResult convertOrUnknown(
    mlir::Operation *op, mlir::ValueRange operands, mlir::PatternRewriter &rw,
    llvm::function_ref<mlir::FailureOr<mlir::Value>(Emitter &)> convert);

/// Replaces `op` with tgraph.unknown carrying `reason` (see Common.cpp).
void replaceWithUnknown(mlir::Operation *op, mlir::ValueRange operands,
                        mlir::PatternRewriter &rw, llvm::StringRef reason);

/// One pattern per TOSA op (family member): `Fn` builds the tgraph form.
template <typename OpTy> struct FamilyPattern : mlir::OpRewritePattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using Fn = mlir::FailureOr<mlir::Value> (*)(OpTy, Adaptor, Emitter &);
  FamilyPattern(mlir::MLIRContext *ctx, Fn fn)
      : mlir::OpRewritePattern<OpTy>(ctx, /*benefit=*/2), fn(fn) {}
  mlir::LogicalResult
  matchAndRewrite(OpTy op, mlir::PatternRewriter &rw) const override {
    // Producers are converted first, so the operands are tgraph values.
    Adaptor adaptor(op->getOperands(), op);
    return convertOrUnknown(op, op->getOperands(), rw,
                            [&](Emitter &e) { return fn(op, adaptor, e); });
  }
  Fn fn;
};

template <typename OpTy>
void add(mlir::RewritePatternSet &patterns,
         typename FamilyPattern<OpTy>::Fn fn) {
  patterns.add<FamilyPattern<OpTy>>(patterns.getContext(), fn);
}

/// An op tgraph cannot express on purpose: it becomes tgraph.unknown with
/// the reason "<op name>: <why>" (more precise than the catch-all's).
void addUnsupported(mlir::RewritePatternSet &patterns, llvm::StringRef opName,
                    llvm::StringRef why);

/// A constant with the value a framework wrote. `dense_resource<__elided__>`
/// (how MLIR prints weights it left out) keeps the type and the elided
/// marker, never invented data.
mlir::Value importConstant(Emitter &e, mlir::RankedTensorType type,
                           mlir::ElementsAttr value);

/// The value of a scalar constant (arith.constant of an integer, index or
/// float type), or null when `v` is computed at run time.
mlir::TypedAttr scalarConstant(mlir::Value v);

void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns);
void populateNnPatterns(mlir::RewritePatternSet &patterns);
void populateResizePatterns(mlir::RewritePatternSet &patterns);
void populateRescalePatterns(mlir::RewritePatternSet &patterns);
// The dialects TOSA exports carry beside TOSA (Math.cpp, Arith.cpp,
// Tensor.cpp).
void populateMathPatterns(mlir::RewritePatternSet &patterns);
void populateArithPatterns(mlir::RewritePatternSet &patterns);
void populateTensorPatterns(mlir::RewritePatternSet &patterns);

} // namespace tessera::tosa_import

#endif // TESSERA_CONVERSION_TOSATOTGRAPH_PATTERNS_H
