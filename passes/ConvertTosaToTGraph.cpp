//===- ConvertTosaToTGraph.cpp - convert-tosa-to-tgraph -------------------===//
//
// Imports TOSA as exporters write it (the TFLite converter, torch-to-TOSA
// tools: TOSA with math, arith, tensor ops and func.call beside it) into
// tgraph with the pattern families of lib/Conversion/TosaToTGraph; see
// docs/tosa-import.md for the mapping and what becomes tgraph.unknown.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TosaToTGraph.h"
#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace tessera {
#define GEN_PASS_DEF_CONVERTTOSATOTGRAPH
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;
namespace tg = tessera::tgraph;

namespace {

/// A PatternRewriter for the driver below (its constructor is protected).
struct ImportRewriter : PatternRewriter {
  explicit ImportRewriter(MLIRContext *ctx) : PatternRewriter(ctx) {}
};

struct ConvertTosaToTGraphPass
    : public tessera::impl::ConvertTosaToTGraphBase<ConvertTosaToTGraphPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // tgraph holds ranked tensors only: an unranked value is an input error
    // with a location, not something to guess a shape for.
    WalkResult walk = module.walk([](Operation *op) {
      if (!isImportedOp(op))
        return WalkResult::advance();
      SmallVector<Type> types(op->getOperandTypes());
      llvm::append_range(types, op->getResultTypes());
      for (Type t : types)
        if (isa<UnrankedTensorType>(t)) {
          op->emitError("convert-tosa-to-tgraph: unranked tensor ")
              << t << " is not supported; run shape inference first";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    // Each imported op (TOSA, and math / arith / tensor ops on tensors),
    // producers first, goes through the pattern set once. No
    // dialect-conversion or greedy driver: both fold ops first (log of exp,
    // reshape of reshape, ...), and the import must keep the graph the
    // framework wrote. Ops nested in an imported op's region go with it.
    DenseSet<Operation *> before;
    module.walk([&](tg::ConstantOp c) { before.insert(c); });
    SmallVector<Operation *> imported;
    SmallVector<func::CallOp> calls;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isImportedOp(op))
        return WalkResult::advance();
      if (auto call = dyn_cast<func::CallOp>(op))
        calls.push_back(call);
      else
        imported.push_back(op);
      return WalkResult::skip();
    });
    RewritePatternSet patterns(&getContext());
    populateTosaToTGraphPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    PatternApplicator applicator(frozen);
    applicator.applyDefaultCostModel();
    ImportRewriter rewriter(&getContext());
    for (Operation *op : imported) {
      rewriter.setInsertionPoint(op);
      if (failed(applicator.matchAndRewrite(op, rewriter))) {
        // Unreachable: UnknownPattern matches every imported op.
        op->emitError("convert-tosa-to-tgraph: no pattern applied");
        return signalPassFailure();
      }
    }
    // Calls last: inlining copies a callee's body, which is tgraph by now.
    importCalls(calls, rewriter);
    bool changed = !imported.empty() || !calls.empty();

    SmallVector<tg::ConstantOp> created;
    module.walk([&](tg::ConstantOp c) {
      if (!before.contains(c))
        created.push_back(c);
    });
    // Constants that only fed attributes (transpose perms, pad paddings)
    // are dead now; they would inflate op counts and memory reports. Only
    // constants this pass created go: tgraph input is left as it was.
    for (tg::ConstantOp c : created)
      if (c->use_empty())
        c->erase();
    changed |= eraseDeadScalarOps(module);
    // A module that was tgraph already (every HLO import) is left as it
    // was: saying so spares the pass manager verifying it again, which
    // was nine tenths of this pass on a 100k-op graph.
    if (!changed)
      markAllAnalysesPreserved();
  }

  /// Scalar math / arith / tensor ops (index constants of slices, a pad's
  /// value, a run-time scalar folded into a tgraph.unknown) have served
  /// their purpose once the tensor ops that read them are imported. Users
  /// come after their producers in a block, so one walk backwards removes
  /// whole dead chains. One still in use (a scalar the function returns)
  /// cannot be imported, since tgraph holds no scalars: it stays, with a
  /// warning, and the module does not run.
  static bool eraseDeadScalarOps(ModuleOp module) {
    SmallVector<Operation *> scalarOps;
    module.walk([&](Operation *op) {
      if (isa<math::MathDialect, arith::ArithDialect, tensor::TensorDialect>(
              op->getDialect()) &&
          !isImportedOp(op))
        scalarOps.push_back(op);
    });
    SetVector<Operation *> kept;
    for (Operation *op : llvm::reverse(scalarOps)) {
      if (isOpTriviallyDead(op))
        op->erase();
      else
        kept.insert(op);
    }
    // One warning per chain: at the op whose scalar leaves it.
    for (Operation *op : llvm::reverse(kept))
      for (Operation *user : op->getUsers())
        if (!kept.contains(user)) {
          op->emitWarning("convert-tosa-to-tgraph: '")
              << op->getName() << "' has a scalar result still used by '"
              << user->getName()
              << "'; tgraph holds tensors only, so it is not imported";
          break;
        }
    // Whether any was erased.
    return kept.size() < scalarOps.size();
  }
};

} // namespace
