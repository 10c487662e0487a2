//===- Recompute.cpp - tgraph-recompute -----------------------------------===//
//
// Recomputes cheap values next to their far uses instead of keeping them
// live in between (docs/memory.md, "Memory-saving options"). A copy is made
// only where each operand is live anyway (a parameter, a constant, or a
// value used there or later), so it never lengthens another live range.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/TGraph/IR/InstructionNames.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHRECOMPUTE
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
namespace tg = tessera::tgraph;

namespace {

/// Live for the whole program anyway: a parameter or a constant.
bool alwaysLive(Value v) {
  return isa<BlockArgument>(v) ||
         isa_and_nonnull<tg::ConstantOp>(v.getDefiningOp());
}

/// Worth recomputing: one op of vector work.
bool isCheap(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 || !isPure(op) ||
      op->getNumOperands() == 0 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  return op->hasTrait<OpTrait::Elementwise>() || isa<tg::BroadcastInDimOp>(op);
}

struct TGraphRecompute : tessera::impl::TGraphRecomputeBase<TGraphRecompute> {
  using Base::Base;

  void runOnOperation() override {
    if (distance <= 0)
      return;
    ModuleOp module = getOperation();
    int64_t values = 0, copies = 0;
    module.walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      Block &body = func.getBody().front();
      DenseMap<Operation *, int64_t> position;
      SmallVector<Operation *> candidates;
      for (Operation &op : body) {
        position[&op] = position.size();
        if (isCheap(&op))
          candidates.push_back(&op);
      }
      auto positionOf = [&](OpOperand &use) {
        Operation *user = body.findAncestorOpInBlock(*use.getOwner());
        return user ? position.lookup(user) : int64_t(-1);
      };
      // An operand that stays live to `at` anyway: recomputing there does
      // not lengthen its live range.
      auto liveAt = [&](Value v, int64_t at) {
        if (alwaysLive(v))
          return true;
        return llvm::any_of(
            v.getUses(), [&](OpOperand &use) { return positionOf(use) >= at; });
      };
      for (Operation *op : candidates) {
        // Uses by their op in the function's block (a use inside a region
        // counts at the op holding the region), in program order.
        SmallVector<std::pair<int64_t, OpOperand *>> uses;
        for (OpOperand &use : op->getResult(0).getUses())
          if (int64_t at = positionOf(use); at >= 0)
            uses.push_back({at, &use});
        llvm::stable_sort(uses,
                          [](auto &a, auto &b) { return a.first < b.first; });
        std::string name = tg::getInstructionName(op).str();
        int64_t served = position.lookup(op), made = 0;
        Value current = op->getResult(0);
        for (auto [at, use] : uses) {
          if (at - served > distance &&
              llvm::all_of(op->getOperands(),
                           [&](Value v) { return liveAt(v, at); })) {
            Operation *user = body.findAncestorOpInBlock(*use->getOwner());
            OpBuilder builder(user);
            Operation *copy = builder.clone(*op);
            position[copy] = at;
            std::string suffix = ".recompute" + std::to_string(++made);
            copy->setLoc(tg::renameInstruction(
                op->getLoc(), [&](StringRef n) { return (n + suffix).str(); }));
            copy->setAttr("tgraph.recomputes", builder.getStringAttr(name));
            current = copy->getResult(0);
            ++copies;
          }
          use->set(current);
          served = at;
        }
        values += made > 0;
        // Its first use was far too: the copies do all the work. (A value
        // that had no uses is left as it was.)
        if (made > 0 && op->use_empty())
          op->erase();
      }
    });
    if (copies == 0)
      return;
    Builder b(module.getContext());
    module->setAttr(
        "tgraph.recompute",
        b.getDictionaryAttr(
            {b.getNamedAttr("distance", b.getI64IntegerAttr(distance)),
             b.getNamedAttr("values", b.getI64IntegerAttr(values)),
             b.getNamedAttr("copies", b.getI64IntegerAttr(copies))}));
  }
};

} // namespace
