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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace tessera::memory {

/// A tile's allocation. Tiles with the same requests (linear mappings
/// give many) share one list of offsets: copied per tile, the offsets were
/// the largest block of a 30k-op compile's peak (176 MB).
struct TileOffsets {
  std::shared_ptr<const std::vector<int64_t>> shared;
  int64_t peak = 0;       ///< Allocation::peak
  int64_t lowerBound = 0; ///< Allocation::lowerBound
  int64_t peakPoint = 0;  ///< Allocation::peakPoint
  /// The liveness self-check on this tile: the buffers live at peakPoint,
  /// summed directly, make lowerBound (the allocator's sweep).
  bool peakMatches = true;

  /// Offsets parallel to buffersOnTile[tile].
  llvm::ArrayRef<int64_t> offsets() const {
    return shared ? llvm::ArrayRef<int64_t>(*shared)
                  : llvm::ArrayRef<int64_t>();
  }
};

struct TileAllocation {
  TileOffsets allocation;
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

/// What the allocation came to over the tiles, computed once from the
/// analysis: tile-print-allocation, the memory report's summary and the
/// corpus conformance pins all read these numbers (formatting and rounding
/// stay with each report).
struct AllocationSummary {
  /// Tiles holding at least one buffer, and their bytes including gaps.
  int64_t usedTiles = 0, usedBytes = 0;
  /// Summed over the tiles: the allocator's peaks, the liveness lower
  /// bounds, and the bytes with and without gaps (program overheads in).
  int64_t totalPeak = 0, totalLowerBound = 0;
  int64_t totalIncludingGaps = 0, totalExcludingGaps = 0;
  /// The tile whose peak is furthest over its lower bound (the first such).
  int64_t worstTile = 0;
  double worstRatio = 1.0;
  /// The fullest tile including gaps among the used tiles, among all tiles
  /// (overheads count), and excluding gaps among all tiles; bytes are -1
  /// when there is no such tile.
  int64_t maxUsedTile = 0, maxUsedTileBytes = -1;
  int64_t maxTile = 0, maxTileBytes = -1;
  int64_t maxExcludingGapsTile = 0, maxExcludingGapsBytes = -1;
  int64_t tilesOutOfMemory = 0;

  int64_t meanUsedTileBytes() const {
    return usedTiles ? usedBytes / usedTiles : 0;
  }
};

AllocationSummary summarizeAllocation(const MemoryAnalysis &analysis);

/// Analyses `program` on `target`, taking the buffers' shares found in
/// `shares` (computeLiveness). `afterLiveness`, when given, runs between
/// the liveness and the allocation: the compile waits there for work it
/// ran beside the liveness, whose memory would otherwise meet the
/// allocation's indexes (Compiler.cpp).
MemoryAnalysis analyzeMemory(tile::ProgramOp program,
                             const TargetDescription &target,
                             ShareCache *shares = nullptr,
                             llvm::function_ref<void()> afterLiveness = {});

/// Analyses `program` on the target it names (`target "..."`), or on
/// `targetOverride` when that is not empty (a preset or a JSON file).
llvm::Expected<MemoryAnalysis>
analyzeMemory(tile::ProgramOp program, llvm::StringRef targetOverride = "");

/// The memory analysis of one tile.program in the form MLIR's analysis
/// manager keeps (constructed from the op): the memory passes ask for it
/// with getChildAnalysis, so in one pipeline liveness and allocation are
/// computed once and the later passes reuse them, for as long as the passes
/// in between preserve it (the memory passes change no IR and preserve
/// every analysis). The manager keys analyses by type only, and each pass
/// has its own `target` option, so the results are kept per target
/// override.
class ProgramMemoryAnalysis {
public:
  explicit ProgramMemoryAnalysis(mlir::Operation *op);

  /// The analysis on the program's target, or on `targetOverride` when that
  /// is not empty; computed on first use. Errors as analyzeMemory (they are
  /// not kept: asking again gives the same error).
  llvm::Expected<const MemoryAnalysis &>
  get(llvm::StringRef targetOverride = "");

private:
  tile::ProgramOp program;
  llvm::StringMap<std::unique_ptr<MemoryAnalysis>> byTarget;
};

} // namespace tessera::memory

#endif // TESSERA_MEMORY_MEMORYANALYSIS_H
