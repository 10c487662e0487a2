//===- AllocationReport.h - liveness and allocation reports -----*- C++ -*-===//
//
// The reports of tile-liveness and tile-print-allocation, formatted from a
// MemoryAnalysis (per-tile rows computed once, then written as text or
// JSON) and the AllocationSummary; docs/memory.md, "Liveness" and
// "Allocation".
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_ALLOCATIONREPORT_H
#define TESSERA_MEMORY_ALLOCATIONREPORT_H

#include "tessera/Memory/MemoryAnalysis.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace tessera::memory {

/// A tile that holds buffers, as liveness sees it.
struct TileLivenessRow {
  int64_t tile = 0;
  int64_t maxLive = 0;    ///< the liveness lower bound of its allocation
  int64_t peakPoint = 0;  ///< where it is reached
  int64_t alwaysLive = 0; ///< overheads and always-live buffers
  int64_t overheads = 0;
};

std::vector<TileLivenessRow> tileLivenessRows(const MemoryAnalysis &analysis);

/// tile-liveness: every buffer's live range, each tile's row, the check.
nlohmann::ordered_json livenessReportJson(const MemoryAnalysis &analysis);
void writeLivenessText(const MemoryAnalysis &analysis, llvm::raw_ostream &os);

/// tile-print-allocation: each tile's peak, lower bound and gaps (and with
/// `offsets` every buffer's offset), and the summary over the tiles.
nlohmann::ordered_json allocationReportJson(const MemoryAnalysis &analysis,
                                            bool offsets);
void writeAllocationText(const MemoryAnalysis &analysis, bool offsets,
                         llvm::raw_ostream &os);
/// One line: the figures the corpus conformance test pins.
void writeAllocationSummaryLine(const MemoryAnalysis &analysis,
                                llvm::raw_ostream &os);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_ALLOCATIONREPORT_H
