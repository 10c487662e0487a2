//===- TGraphToTile.cpp - tgraph-to-tile ----------------------------------===//
//
// Lowers the entry function of a checked module to a tile.program; the work
// is in lib/Conversion/TGraphToTile (TGraphToTile.cpp), so tools can call it directly.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/TGraphToTile.h"
#include "tessera/Passes.h"
#include "tessera/Target/Presets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera {
#define GEN_PASS_DEF_TGRAPHTOTILE
#include "Passes.h.inc"
} // namespace tessera

using namespace mlir;
using namespace tessera;

namespace {

struct TGraphToTilePass
    : public tessera::impl::TGraphToTileBase<TGraphToTilePass> {
  using TGraphToTileBase::TGraphToTileBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The target: the option, else the one tgraph-check-compat recorded (its
    // verdicts are only meaningful for that target).
    std::string name = targetName;
    if (name.empty())
      if (auto attr = module->getAttrOfType<StringAttr>("tgraph.target"))
        name = attr.getValue().str();
    if (name.empty()) {
      module.emitError("tgraph-to-tile: no target; run tgraph-check-compat "
                       "first or pass target=NAME");
      return signalPassFailure();
    }
    llvm::Expected<TargetDescription> target = resolveTarget(name);
    if (!target) {
      module.emitError("tgraph-to-tile: ")
          << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    TileLoweringStats stats;
    if (failed(lowerEntryToTile(module, *target, &stats)))
      return signalPassFailure();
    if (printStats) {
      llvm::raw_ostream &os = llvm::outs();
      os << "tgraph-to-tile on " << target->name << ": tiles used "
         << stats.tilesUsed << ", vars " << stats.vars << ", compute sets "
         << stats.computeSets << ", exchanges " << stats.exchanges << ", syncs "
         << stats.syncs << ", host copies " << stats.hostCopies
         << ", host_compute " << stats.hostComputes;
      for (const auto &[reason, count] : stats.hostReasons)
        os << " [" << reason << ": " << count << "]";
      os << "\n";
      if (!stats.notLowered.empty()) {
        os << "  not lowered:";
        for (const auto &[op, count] : stats.notLowered)
          os << " " << op << "=" << count;
        os << "\n";
      }
    }
  }
};

} // namespace
