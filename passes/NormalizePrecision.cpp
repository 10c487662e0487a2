//===- NormalizePrecision.cpp - tgraph-normalize-precision ----------------===//
//
// Resolves the target and the entry function, then hands the module to
// the rewrite in lib/Dialect/TGraph/Transforms.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/TGraph/Transforms/NormalizePrecision.h"
#include "PassTarget.h"
#include "tessera/Conversion/TGraphToTile/TGraphToTile.h"
#include "tessera/Passes.h"
#include "tessera/Target/Presets.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHNORMALIZEPRECISION
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

struct TGraphNormalizePrecisionPass
    : TargetPass<TGraphNormalizePrecisionPass,
                 tessera::impl::TGraphNormalizePrecisionBase> {
  using TargetPass::TargetPass;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Nothing to normalize leaves the module as it was, and the pass
    // manager need not verify it again (most of this pass's time on a
    // large graph without bf16).
    if (policy == PrecisionPolicy::Keep || !holdsBFloat16(module))
      return markAllAnalysesPreserved();
    func::FuncOp entry = findEntryFunction(module);
    if (!entry)
      return signalPassFailure();
    llvm::StringRef destination =
        policy == PrecisionPolicy::Bf16ToF16 ? "f16" : "f32";
    bool hasDestination = target.supportsDtype(destination);
    normalizePrecision(module, entry, policy, target.supportsDtype("bf16"),
                       hasDestination);
    if (!hasDestination && !target.supportsDtype("bf16") &&
        holdsBFloat16(module))
      // Said once, at the module: every bf16 op stays incompatible.
      // (At its location, not the op, so the diagnostic does not print the
      // whole module.)
      emitWarning(module.getLoc())
          << "tgraph-normalize-precision: policy "
          << precisionPolicyName(policy) << " computes in " << destination
          << ", which " << target.name << " lacks; bf16 ops stay as they are";
  }
};

} // namespace
