//===- LegalizeForTarget.cpp - tgraph-legalize-for-target -----------------===//
//
// Exact rewrites that fit ops to the target's per-op limits and to the
// vertex library. The plans come from lib/Analysis (DotBatchFold.h,
// MixedOperands.h), where the compatibility checker reads them too, so the
// checker calls compatible exactly what this pass fixes.
//
//===----------------------------------------------------------------------===//

#include "PassTarget.h"
#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/DotBatchFold.h"
#include "tessera/Analysis/MixedOperands.h"
#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Dialect/TGraph/IR/InstructionNames.h"
#include "tessera/Passes.h"
#include "tessera/Target/Presets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHLEGALIZEFORTARGET
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
namespace tg = tessera::tgraph;

namespace {

/// `loc` with `.suffix` appended to its instruction name, so the ops a
/// rewrite adds read as parts of the op they replace.
Location suffixed(Location loc, StringRef suffix) {
  return tgraph::renameInstruction(
      loc, [&](StringRef name) { return (name + "." + suffix).str(); });
}

/// Gives `to` the framework names and placement of `from`, the op it is
/// part of the rewrite of.
void copyFrameworkAttrs(Operation *from, Operation *to) {
  for (StringRef name : {StringRef(tg::kOpNameAttr), StringRef(tg::kOpTypeAttr),
                         StringRef(kDeviceAttr), StringRef("tgraph.sharding"),
                         StringRef("tgraph.frontend_attributes")})
    if (Attribute value = from->getAttr(name))
      to->setAttr(name, value);
}

/// Records what a rewrite did on `op` (the compatibility checker's note),
/// after what an earlier one did.
void noteRewrite(Operation *op, const Twine &what) {
  std::string text = what.str();
  if (auto before = op->getAttrOfType<StringAttr>(kRewrittenAttr))
    text = (before.getValue() + "; " + text).str();
  op->setAttr(kRewrittenAttr, StringAttr::get(op->getContext(), text));
}

/// Converts the narrower operand of a dot_general or convolution of two
/// float types to the type both are computed in (mixedOperandType).
void widenOperands(Operation *op, FloatType common) {
  OpBuilder builder(op);
  SmallVector<std::string> done;
  std::string widened = hloDtypeName(common);
  static constexpr StringRef kRoles[] = {"lhs", "rhs"};
  for (auto [i, role] : llvm::enumerate(kRoles)) {
    Value v = op->getOperand(i);
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() == common)
      continue;
    auto convert = builder.create<tg::ConvertOp>(
        suffixed(op->getLoc(), (role + "_to_" + widened).str()),
        type.clone(common), v);
    copyFrameworkAttrs(op, convert);
    op->setOperand(i, convert.getResult());
    done.push_back((role + " converted from " +
                    hloDtypeName(type.getElementType()) + " to " + widened)
                       .str());
  }
  noteRewrite(op, llvm::join(done, " and ") +
                      " (the matrix unit takes both operands in one type)");
}

/// Applies a DotBatchFold to one dot_general.
class BatchFolder {
public:
  BatchFolder(tg::DotGeneralOp dot, const DotBatchFold &fold)
      : dot(dot), fold(fold), builder(dot) {}

  void run() {
    SmallVector<int64_t> lc(dot.getLhsContractingDimensions()),
        rc(dot.getRhsContractingDimensions());
    int64_t lb, rb;
    Value lhs =
        collapse(dot.getLhs(), dot.getLhsBatchingDimensions(), lc, lb, "lhs");
    Value rhs =
        collapse(dot.getRhs(), dot.getRhsBatchingDimensions(), rc, rb, "rhs");
    // The result starts with the batching dimensions, in pairing order:
    // the same order the operands' merged dimension enumerates them in.
    auto outType = cast<RankedTensorType>(dot.getType());
    size_t batch = dot.getLhsBatchingDimensions().size();
    SmallVector<int64_t> shape = {1};
    for (auto [d, size] : llvm::enumerate(outType.getShape()))
      if (d < batch)
        shape[0] *= size;
      else
        shape.push_back(size);
    auto folded = builder.create<tg::DotGeneralOp>(
        dot.getLoc(), RankedTensorType::get(shape, outType.getElementType()),
        lhs, rhs, ArrayRef<int64_t>{lb}, ArrayRef<int64_t>{rb}, lc, rc);
    for (NamedAttribute a : dot->getDiscardableAttrs())
      if (a.getName() != kCompatAttr && a.getName() != "tgraph.layout" &&
          a.getName() != "tgraph.dynamic_bounds")
        folded->setAttr(a.getName(), a.getValue());
    noteRewrite(folded, fold.describe(dot));
    Value result = helper<tg::ReshapeOp>("result_reshape", outType, folded);
    // The result has the original shape, so its layout still applies.
    if (Attribute layout = dot->getAttr("tgraph.layout"))
      result.getDefiningOp()->setAttr("tgraph.layout", layout);
    dot.replaceAllUsesWith(result);
    dot.erase();
  }

private:
  /// An op of the rewrite other than the dot: named after the dot, with
  /// its framework names and placement.
  template <typename OpTy, typename... Args>
  Value helper(StringRef role, Type type, Args &&...args) {
    auto op = builder.create<OpTy>(suffixed(dot.getLoc(), role), type,
                                   std::forward<Args>(args)...);
    copyFrameworkAttrs(dot, op);
    return op.getResult();
  }

  /// `v` with its dimensions `group` (in pairing order) merged into one, at
  /// `merged`; `contracting` (dimensions of `v`) are renumbered to match.
  Value collapse(Value v, ArrayRef<int64_t> group,
                 SmallVectorImpl<int64_t> &contracting, int64_t &merged,
                 StringRef role) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t rank = type.getRank(), n = group.size();
    int64_t first = group.empty() ? 0 : group.front();
    if (!isAdjacentRun(group)) {
      // Batching dimensions first, in pairing order; the others keep their
      // order, so the result's free dimensions do too.
      SmallVector<int64_t> perm(group), position(rank), shape;
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(group, d))
          perm.push_back(d);
      for (auto [i, d] : llvm::enumerate(perm)) {
        position[d] = i;
        shape.push_back(type.getDimSize(d));
      }
      type = RankedTensorType::get(shape, type.getElementType());
      v = helper<tg::TransposeOp>((role + "_transpose").str(), type, v, perm);
      for (int64_t &d : contracting)
        d = position[d];
      first = 0;
    }
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      if (d < first || d >= first + n)
        shape.push_back(type.getDimSize(d));
      else if (d == first)
        shape.push_back(type.getDimSize(d));
      else
        shape.back() *= type.getDimSize(d);
    }
    v = helper<tg::ReshapeOp>(
        (role + "_reshape").str(),
        RankedTensorType::get(shape, type.getElementType()), v);
    for (int64_t &d : contracting)
      if (d >= first + n)
        d -= n - 1;
    merged = first;
    return v;
  }

  tg::DotGeneralOp dot;
  const DotBatchFold &fold;
  OpBuilder builder;
};

struct TGraphLegalizeForTargetPass
    : TargetPass<TGraphLegalizeForTargetPass,
                 tessera::impl::TGraphLegalizeForTargetBase> {
  using TargetPass::TargetPass;

  void runOnOperation() override {
    const OpConstraint *constraint = target.opConstraint("dot_general");
    SmallVector<std::pair<Operation *, FloatType>> mixed;
    SmallVector<std::pair<tg::DotGeneralOp, DotBatchFold>> folds;
    getOperation().walk([&](Operation *op) {
      if (!isAssessedOp(op))
        return;
      if (FloatType common = mixedOperandType(op))
        mixed.push_back({op, common});
      if (auto dot = dyn_cast<tg::DotGeneralOp>(op); dot && constraint)
        if (std::optional<DotBatchFold> fold =
                planDotBatchFold(dot, *constraint))
          folds.push_back({dot, *fold});
    });
    // Operand types first (a fold's plan does not depend on them): a dot
    // that is folded too reads the converts.
    for (auto [op, common] : mixed)
      widenOperands(op, common);
    for (auto &[dot, fold] : folds)
      BatchFolder(dot, fold).run();
    // Without a rewrite the module is as it was, and the pass manager need
    // not verify it again.
    if (mixed.empty() && folds.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
