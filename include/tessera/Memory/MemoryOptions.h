//===- MemoryOptions.h - what memory-saving options saved --*- C++ -*-===//
//
// The memory report's `memory_options` section: for each memory-saving
// option the compile ran (docs/memory.md, "Memory-saving options"), what it
// did and what it saved, computed from the program's own liveness.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_MEMORYOPTIONS_H
#define TESSERA_MEMORY_MEMORYOPTIONS_H

#include "tessera/Memory/MemoryAnalysis.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::memory {

/// tgraph-recompute's effect. The saving is counterfactual: at the fullest
/// tile's peak point, the bytes its originals would hold there had each
/// stayed live to its copies' last use, less the copies live there. Being
/// measured at this program's peak, it is what that tile's peak would at
/// least grow by without the option (another point could peak higher).
struct RecomputeSaving {
  int64_t distance = 0, values = 0, copies = 0;
  int64_t tile = 0, point = 0;
  int64_t savedBytes = 0; ///< negative when the copies cost more there
};

/// The saving, or nullopt when the module the program is in was not
/// recomputed (no `tgraph.recompute` attribute).
std::optional<RecomputeSaving> computeRecomputeSaving(const MemoryAnalysis &a);

/// A dot laid out within the matmul budget (half a tile's usable bytes)
/// rather than on its fastest grid: a fitting grid or K in passes. From its
/// compute sets' `memory_fit` (tgraph-to-tile, LowerDot.cpp).
struct DotWithinBudget {
  std::string op; ///< the dot's instruction
  int64_t fastestBytes = 0, bytes = 0, budget = 0, passes = 1;
};

/// Every such dot of the program, in program order.
std::vector<DotWithinBudget> collectDotsWithinBudget(const MemoryAnalysis &a);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_MEMORYOPTIONS_H
