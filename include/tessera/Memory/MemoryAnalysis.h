//===- MemoryAnalysis.h - liveness, allocation and cost together -*- C++
//-*-===//
//
// One call that runs the memory library on a tile program: liveness, the
// per-tile allocation (which never stops at a tile that overflows: it marks
// it and goes on), and the cost estimate. Reports (MemoryReport.h) are built
// from its result.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_MEMORYANALYSIS_H
#define TESSERA_MEMORY_MEMORYANALYSIS_H

#include "tessera/Memory/Allocator.h"
#include "tessera/Memory/CostModel.h"
#include "tessera/Memory/Liveness.h"

#include "llvm/Support/Error.h"

namespace tessera::memory {

struct TileAllocation {
  Allocation allocation; ///< offsets parallel to buffersOnTile[tile]
  int64_t overheads = 0; ///< always-live program bytes (TileOverheads)
  int64_t capacity = 0;  ///< the tile's SRAM

  int64_t includingGaps() const { return overheads + allocation.peak; }
  int64_t excludingGaps() const { return overheads + allocation.lowerBound; }
  int64_t gaps() const { return allocation.peak - allocation.lowerBound; }
  int64_t overBy() const {
    return std::max<int64_t>(0, includingGaps() - capacity);
  }
  bool outOfMemory() const { return overBy() > 0; }
};

struct MemoryAnalysis {
  TargetDescription target;
  std::string program; ///< the program's symbol
  std::string entry;   ///< the function it was lowered from ("" if none)
  ProgramLiveness liveness;
  std::vector<TileAllocation> tiles;
  ProgramCost cost;

  int64_t tilesOutOfMemory() const;
};

/// Analyses `program` on `target`.
MemoryAnalysis analyzeMemory(tile::ProgramOp program,
                             const TargetDescription &target);

/// Analyses `program` on the target it names (`target "..."`), or on
/// `targetOverride` when that is not empty (a preset or a JSON file).
llvm::Expected<MemoryAnalysis>
analyzeMemory(tile::ProgramOp program, llvm::StringRef targetOverride = "");

/// Analyses every tile.program under `root` (see analyzeMemory) and hands
/// each analysis to `fn`, which returns failure after emitting its own
/// error; a program that cannot be analysed gets a located error. Fails if
/// any program or `fn` did: the memory passes' shared driver.
mlir::LogicalResult forEachProgramAnalysis(
    mlir::Operation *root, llvm::StringRef targetOverride,
    llvm::function_ref<mlir::LogicalResult(tile::ProgramOp,
                                           const MemoryAnalysis &)>
        fn);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_MEMORYANALYSIS_H
