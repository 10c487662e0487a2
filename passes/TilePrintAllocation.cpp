//===- TilePrintAllocation.cpp - tile-print-allocation --------------------===//
//
// Assigns every buffer an offset on each tile it lives on (best fit with
// the target's alignment) and prints per tile the allocated peak, the
// liveness lower bound and the gaps; a tile that does not fit is marked
// with how much it is over, and allocation goes on (docs/memory.md,
// "Allocation"; the report is tessera/Memory/AllocationReport.h's). The
// offsets are printed, not attached: the IR is unchanged, hence "print" in
// the name.
//
//===----------------------------------------------------------------------===//

#include "MemoryPass.h"

#include "tessera/Memory/AllocationReport.h"
#include "tessera/Passes.h"

namespace tessera {
#define GEN_PASS_DEF_TILEPRINTALLOCATION
#include "Passes.h.inc"
} // namespace tessera

using namespace tessera;
using namespace tessera::memory;

namespace {

struct TilePrintAllocationPass
    : MemoryReportPass<TilePrintAllocationPass, impl::TilePrintAllocationBase> {
  using MemoryReportPass::MemoryReportPass;

  mlir::LogicalResult writeReport(tile::ProgramOp, const MemoryAnalysis &a,
                                  llvm::raw_ostream &os) {
    if (print == PrintFormat::Summary)
      writeAllocationSummaryLine(a, os);
    else if (print == PrintFormat::Json)
      writeJsonReport(allocationReportJson(a, offsets), os);
    else
      writeAllocationText(a, offsets, os);
    return mlir::success();
  }
};

} // namespace
