//===- NormalizePrecision.cpp - compute a type the target lacks in another ===//
//
// The rewrite changes types in place rather than wrapping each op in
// converts: values flow from op to op in the new type with no convert pairs
// to clean up, and ops with regions or callees (reduce, while, call) stay
// consistent because their bodies and callees change with them. Only
// values whose bits matter keep the old type, with converts around them:
// the entry's parameters and results (what the user feeds and reads) and
// opaque ops (custom calls, bitcasts, infeed/outfeed, unknown ops).
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::tgraph;

namespace {

/// bf16's exponent and mantissa widths: tgraph.reduce_precision to these
/// rounds an f32 or f16 value to the nearest bf16 value.
constexpr int32_t kBf16ExponentBits = 8;
constexpr int32_t kBf16MantissaBits = 7;

/// Ops whose element bits matter, or whose semantics are outside tgraph
/// (a library call, the host's feed): they keep the old type.
bool isOpaque(Operation *op) {
  if (isa<CustomCallOp, UnknownOp, BitcastConvertOp, InfeedOp, OutfeedOp>(op))
    return true;
  // Constant data that is not a plain dense array (a resource blob) is left
  // to the host's convert rather than decoded here.
  if (auto constant = dyn_cast<ConstantOp>(op))
    return constant.getValue() &&
           !isa<DenseFPElementsAttr>(*constant.getValue());
  return false;
}

/// Ops that only move or select values: on values already on the bf16 grid
/// their results are too, so the rounding policy does not round them.
bool onlyMovesData(Operation *op) {
  return llvm::StringSwitch<bool>(op->getName().stripDialect())
      .Cases("reshape", "transpose", "broadcast_in_dim", "slice",
             "dynamic_slice", "dynamic_update_slice", "concatenate", true)
      .Cases("pad", "gather", "copy", "reverse", "select", "bitcast", true)
      .Cases("get_tuple_element", "tuple", "maximum", "minimum", "negate",
             "abs", true)
      .Cases("constant", "iota", "convert", true)
      .Default(false);
}

class Normalizer {
public:
  Normalizer(ModuleOp module, func::FuncOp entry, Type from, Type to)
      : module(module), entry(entry), from(from), to(to) {}

  void run(bool roundEveryOp);
  PrecisionCounts counts;

private:
  /// `t` with every `from` element type (in tensors, tuples and function
  /// signatures) replaced by `to`.
  Type map(Type t) const;
  bool mentions(Type t) const { return map(t) != t; }
  int64_t bytesAdded(Type original) const;

  /// `v` as `type` (which differs from v's type only in from/to elements):
  /// a convert, or for a tuple a convert per leaf. New ops are placed on
  /// the host and tagged `kind`.
  Value castValue(OpBuilder &b, Location loc, Value v, Type type,
                  llvm::StringRef kind);
  /// Points every use of `v` that existed before the cast at its cast.
  void castUses(OpBuilder &b, Location loc, Value v, Type type,
                llvm::StringRef kind);
  Value round(OpBuilder &b, Location loc, Value v);
  /// The location of a boundary convert of `v` (a parameter or result).
  Location boundaryLoc(Value v, llvm::StringRef what);
  void convertConstant(ConstantOp constant);
  void fixConvert(ConvertOp convert, Type originalOperand, Type originalResult);

  ModuleOp module;
  func::FuncOp entry;
  Type from, to;
};

Type Normalizer::map(Type t) const {
  if (t == from)
    return to;
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.getElementType() == from ? tensor.clone(to) : t;
  if (auto tuple = dyn_cast<TupleType>(t)) {
    SmallVector<Type> types =
        llvm::map_to_vector(tuple.getTypes(), [&](Type e) { return map(e); });
    return TupleType::get(t.getContext(), types);
  }
  if (auto fn = dyn_cast<FunctionType>(t)) {
    SmallVector<Type> inputs =
        llvm::map_to_vector(fn.getInputs(), [&](Type e) { return map(e); });
    SmallVector<Type> results =
        llvm::map_to_vector(fn.getResults(), [&](Type e) { return map(e); });
    return FunctionType::get(t.getContext(), inputs, results);
  }
  return t;
}

int64_t Normalizer::bytesAdded(Type original) const {
  int64_t extra =
      (to.getIntOrFloatBitWidth() - from.getIntOrFloatBitWidth()) / 8;
  if (auto tensor = dyn_cast<RankedTensorType>(original))
    return tensor.getElementType() == from && tensor.hasStaticShape()
               ? tensor.getNumElements() * extra
               : 0;
  if (auto tuple = dyn_cast<TupleType>(original)) {
    int64_t sum = 0;
    for (Type e : tuple.getTypes())
      sum += bytesAdded(e);
    return sum;
  }
  return 0;
}

Value Normalizer::castValue(OpBuilder &b, Location loc, Value v, Type type,
                            llvm::StringRef kind) {
  if (v.getType() == type)
    return v;
  auto tag = [&](Operation *op) {
    op->setAttr(kNormalizationAttr, b.getStringAttr(kind));
    op->setAttr(kDeviceAttr, b.getStringAttr("host"));
  };
  if (auto tuple = dyn_cast<TupleType>(type)) {
    auto source = cast<TupleType>(v.getType());
    SmallVector<Value> leaves;
    for (auto [i, leafType] : llvm::enumerate(tuple.getTypes())) {
      auto element = b.create<GetTupleElementOp>(
          loc, source.getType(i), v, b.getI64IntegerAttr(int64_t(i)));
      tag(element);
      leaves.push_back(castValue(b, loc, element, leafType, kind));
    }
    auto built = b.create<TupleOp>(loc, type, leaves);
    tag(built);
    return built;
  }
  auto convert = b.create<ConvertOp>(loc, type, v);
  tag(convert);
  ++counts.converts;
  return convert;
}

void Normalizer::castUses(OpBuilder &b, Location loc, Value v, Type type,
                          llvm::StringRef kind) {
  SmallVector<OpOperand *> uses =
      llvm::map_to_vector(v.getUses(), [](OpOperand &u) { return &u; });
  Value replacement = castValue(b, loc, v, type, kind);
  for (OpOperand *use : uses)
    use->set(replacement);
}

Location Normalizer::boundaryLoc(Value v, llvm::StringRef what) {
  // Named after the value, so the compatibility report lists
  // "x.to_f32" and "add.7.to_bf16", not anonymous converts.
  std::string name;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto named = dyn_cast<NameLoc>(arg.getLoc());
    name = named ? named.getName().str()
                 : (what + std::to_string(arg.getArgNumber())).str();
  } else {
    name = getInstructionName(v.getDefiningOp()).str();
    if (name.empty())
      name = what.str();
  }
  // Parameters arrive in the old type and become the new one; results go
  // back.
  Type target = isa<BlockArgument>(v) ? to : from;
  std::string suffix;
  llvm::raw_string_ostream os(suffix);
  os << ".to_" << target;
  return NameLoc::get(StringAttr::get(v.getContext(), name + suffix),
                      v.getLoc());
}

Value Normalizer::round(OpBuilder &b, Location loc, Value v) {
  auto rounded = b.create<ReducePrecisionOp>(
      loc, v.getType(), v, b.getI32IntegerAttr(kBf16ExponentBits),
      b.getI32IntegerAttr(kBf16MantissaBits));
  rounded->setAttr(kNormalizationAttr, b.getStringAttr("rounding"));
  ++counts.roundings;
  counts.bytesAdded +=
      bytesAdded(cast<RankedTensorType>(v.getType()).clone(from));
  return rounded;
}

void Normalizer::convertConstant(ConstantOp constant) {
  if (!constant.getValue())
    return; // elided: only the type changes
  // Anything but a dense float array was left opaque (isOpaque).
  auto dense = cast<DenseFPElementsAttr>(*constant.getValue());
  if (dense.getElementType() != from)
    return;
  const llvm::fltSemantics &semantics = cast<FloatType>(to).getFloatSemantics();
  // bf16 to f32 is exact; to f16 it may overflow or lose subnormals, which
  // that policy's documentation accepts.
  DenseElementsAttr converted = dense.mapValues(to, [&](const APFloat &v) {
    APFloat w = v;
    bool lost = false;
    w.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return w.bitcastToAPInt();
  });
  constant.setValueAttr(converted);
}

void Normalizer::fixConvert(ConvertOp convert, Type originalOperand,
                            Type originalResult) {
  auto elementOf = [](Type t) {
    return cast<RankedTensorType>(t).getElementType();
  };
  OpBuilder b(convert);
  Value operand = convert.getOperand();
  bool toOld = elementOf(originalResult) == from;
  bool fromOld = elementOf(originalOperand) == from;
  if (toOld && !fromOld) {
    // The model rounds to bf16 here: keep that rounding point.
    if (isa<FloatType>(elementOf(operand.getType()))) {
      // Round first, then convert: a float operand is rounded once.
      Value rounded = round(b, convert.getLoc(), operand);
      convert.getOperandMutable().assign(rounded);
    } else {
      // An integer is converted, then rounded (possibly twice, in rare
      // ties: docs/compat.md).
      b.setInsertionPointAfter(convert);
      Value rounded = round(b, convert.getLoc(), convert.getResult());
      convert.getResult().replaceAllUsesExcept(rounded,
                                               rounded.getDefiningOp());
    }
  }
  if (convert.getOperand().getType() == convert.getType()) {
    convert.getResult().replaceAllUsesWith(convert.getOperand());
    convert.erase();
  }
}

void Normalizer::run(bool roundEveryOp) {
  // What each op looked like before, for the fix-ups after the rewrite.
  DenseMap<Operation *, SmallVector<Type>> operandTypes, resultTypes;
  SmallVector<Operation *> changed;
  bool any = false;
  module.walk([&](Operation *op) {
    if (!isa_and_nonnull<TGraphDialect>(op->getDialect()))
      return;
    bool touches =
        llvm::any_of(op->getOperandTypes(),
                     [&](Type t) { return mentions(t); }) ||
        llvm::any_of(op->getResultTypes(), [&](Type t) { return mentions(t); });
    if (!touches)
      return;
    any = true;
    operandTypes[op] = llvm::to_vector(op->getOperandTypes());
    resultTypes[op] = llvm::to_vector(op->getResultTypes());
    changed.push_back(op);
  });
  if (!any)
    return;

  // Retype every value but the entry's parameters and opaque ops' results.
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn != entry)
      fn.setType(cast<FunctionType>(map(fn.getFunctionType())));
    fn.walk([&](Block *block) {
      if (fn == entry && block == &entry.front())
        return;
      for (BlockArgument arg : block->getArguments())
        arg.setType(map(arg.getType()));
    });
  }
  for (Operation *op : changed) {
    if (isOpaque(op))
      continue;
    for (OpResult r : op->getResults())
      r.setType(map(r.getType()));
    if (auto constant = dyn_cast<ConstantOp>(op))
      convertConstant(constant);
    // The model's converts are not counted: they disappear or round.
    if (isAssessedOp(op) && !isa<ConvertOp>(op)) {
      ++counts.ops;
      for (Type t : resultTypes[op])
        counts.bytesAdded += bytesAdded(t);
    }
  }

  // The entry's parameters: converted on the host as they arrive.
  OpBuilder b(module.getContext());
  b.setInsertionPointToStart(&entry.front());
  for (BlockArgument arg : entry.getArguments())
    if (mentions(arg.getType()) && !arg.use_empty()) {
      counts.bytesAdded += bytesAdded(arg.getType());
      castUses(b, boundaryLoc(arg, "parameter"), arg, map(arg.getType()),
               "boundary");
    }
  // Its results: converted back before they are returned.
  entry.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    for (auto [operand, type] :
         llvm::zip_equal(ret->getOpOperands(), entry.getResultTypes()))
      operand.set(castValue(b, boundaryLoc(operand.get(), "result"),
                            operand.get(), type, "boundary"));
  });

  for (Operation *op : changed) {
    if (isOpaque(op)) {
      // Its operands come back to the old type; its results go on in the
      // new one.
      b.setInsertionPoint(op);
      for (auto [operand, type] :
           llvm::zip_equal(op->getOpOperands(), operandTypes[op]))
        operand.set(castValue(b, op->getLoc(), operand.get(), type, "opaque"));
      b.setInsertionPointAfter(op);
      for (OpResult r : op->getResults())
        if (mentions(r.getType()))
          castUses(b, op->getLoc(), r, map(r.getType()), "opaque");
      continue;
    }
    if (auto convert = dyn_cast<ConvertOp>(op)) {
      fixConvert(convert, operandTypes[op][0], resultTypes[op][0]);
      continue;
    }
    // Rounding after each op that computes, at function level only: a
    // reducer body's steps are the device's accumulation, not rounded.
    if (!roundEveryOp || !isAssessedOp(op) || onlyMovesData(op) ||
        op->getNumResults() != 1)
      continue;
    auto original = dyn_cast<RankedTensorType>(resultTypes[op][0]);
    if (!original || original.getElementType() != from)
      continue;
    b.setInsertionPointAfter(op);
    Value rounded = round(b, op->getLoc(), op->getResult(0));
    op->getResult(0).replaceAllUsesExcept(rounded, rounded.getDefiningOp());
  }
}

} // namespace

llvm::StringRef tessera::precisionPolicyName(PrecisionPolicy policy) {
  switch (policy) {
  case PrecisionPolicy::Keep:
    return "keep";
  case PrecisionPolicy::Bf16ToF32:
    return "bf16-to-f32";
  case PrecisionPolicy::Bf16ToF32Round:
    return "bf16-to-f32-round";
  case PrecisionPolicy::Bf16ToF16:
    return "bf16-to-f16";
  }
  llvm_unreachable("unknown precision policy");
}

/// bf16 itself, or a tensor or tuple holding it.
static bool isBFloat16Type(Type t) {
  if (auto tuple = dyn_cast<TupleType>(t))
    return llvm::any_of(tuple.getTypes(), isBFloat16Type);
  return isa<BFloat16Type>(getElementTypeOrSelf(t));
}

bool tessera::holdsBFloat16(Operation *root) {
  return root
      ->walk([](Operation *op) {
        return llvm::any_of(op->getOperandTypes(), isBFloat16Type) ||
                       llvm::any_of(op->getResultTypes(), isBFloat16Type)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

PrecisionCounts tessera::normalizePrecision(ModuleOp module, func::FuncOp entry,
                                            PrecisionPolicy policy,
                                            bool hasSource,
                                            bool hasDestination) {
  if (policy == PrecisionPolicy::Keep || hasSource || !hasDestination)
    return PrecisionCounts{};
  MLIRContext *ctx = module.getContext();
  Type from = BFloat16Type::get(ctx);
  Type to = policy == PrecisionPolicy::Bf16ToF16 ? Type(Float16Type::get(ctx))
                                                 : Type(Float32Type::get(ctx));
  Normalizer normalizer(module, entry, from, to);
  normalizer.run(policy == PrecisionPolicy::Bf16ToF32Round);
  const PrecisionCounts &c = normalizer.counts;
  if (c.ops || c.converts)
    module->setAttr(kPrecisionAttr,
                    PrecisionAttr::get(ctx, precisionPolicyName(policy), from,
                                       to, c.ops, c.converts, c.roundings,
                                       c.bytesAdded));
  return c;
}
