//===- MemoryAnalysis.cpp - liveness, allocation and cost together --------===//

#include "tessera/Memory/MemoryAnalysis.h"

#include "tessera/Target/Presets.h"

#include "llvm/ADT/Hashing.h"

#include <unordered_map>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

int64_t MemoryAnalysis::tilesOutOfMemory() const {
  return llvm::count_if(
      tiles, [](const TileAllocation &t) { return t.outOfMemory(); });
}

AllocationSummary
tessera::memory::summarizeAllocation(const MemoryAnalysis &a) {
  AllocationSummary s;
  const ProgramLiveness &live = a.liveness;
  for (int64_t t = 0; t < static_cast<int64_t>(a.tiles.size()); ++t) {
    const TileAllocation &alloc = a.tiles[t];
    int64_t incl = alloc.includingGaps(), excl = alloc.excludingGaps();
    s.totalIncludingGaps += incl;
    s.totalExcludingGaps += excl;
    if (incl > s.maxTileBytes)
      s.maxTileBytes = incl, s.maxTile = t;
    if (excl > s.maxExcludingGapsBytes)
      s.maxExcludingGapsBytes = excl, s.maxExcludingGapsTile = t;
    if (alloc.outOfMemory())
      ++s.tilesOutOfMemory;
    if (t >= live.numTiles || live.buffersOnTile[t].empty())
      continue;
    ++s.usedTiles;
    s.usedBytes += incl;
    s.totalPeak += alloc.allocation.peak;
    s.totalLowerBound += alloc.allocation.lowerBound;
    if (alloc.allocation.lowerBound > 0) {
      double ratio = static_cast<double>(alloc.allocation.peak) /
                     alloc.allocation.lowerBound;
      if (ratio > s.worstRatio)
        s.worstRatio = ratio, s.worstTile = t;
    }
    if (incl > s.maxUsedTileBytes)
      s.maxUsedTileBytes = incl, s.maxUsedTile = t;
  }
  return s;
}

MemoryAnalysis tessera::memory::analyzeMemory(tile::ProgramOp program,
                                              const TargetDescription &target) {
  MemoryAnalysis result;
  result.target = target;
  result.program = program.getSymName().str();
  if (auto entry = program->getAttrOfType<FlatSymbolRefAttr>("entry"))
    result.entry = entry.getValue().str();
  result.liveness = computeLiveness(program, target);
  const ProgramLiveness &live = result.liveness;

  // Linear mappings give many tiles the same buffers with the same sizes
  // and ranges: allocate each distinct request list once. Hashed, not
  // ordered: the lists of neighbouring tiles share long prefixes, which
  // made each comparison of an ordered map walk most of both lists.
  struct KeyHash {
    size_t operator()(const std::vector<int64_t> &key) const {
      return llvm::hash_combine_range(key.begin(), key.end());
    }
  };
  std::unordered_map<std::vector<int64_t>, TileOffsets, KeyHash> cache;
  result.tiles.resize(live.numTiles);
  std::vector<LiveInterval> requests;
  live.forEachChangedTile([&](int64_t t, llvm::ArrayRef<TileBytes> shares) {
    requests.clear();
    std::vector<int64_t> key;
    key.reserve(3 * shares.size());
    for (const TileBytes &share : shares) {
      LiveInterval i{share.first, share.last, share.paddedBytes};
      requests.push_back(i);
      key.insert(key.end(), {i.first, i.last, i.size});
    }
    auto [it, inserted] = cache.try_emplace(std::move(key));
    if (inserted) {
      Allocation a = allocate(requests, target.alignmentBytes);
      it->second.shared =
          std::make_shared<const std::vector<int64_t>>(std::move(a.offsets));
      it->second.peak = a.peak;
      it->second.lowerBound = a.lowerBound;
      it->second.peakPoint = a.peakPoint;
    }
    result.tiles[t].allocation = it->second;
  });
  for (int64_t t = 0; t < live.numTiles; ++t) {
    TileAllocation &tile = result.tiles[t];
    // The same requests as the tile before: the entry it found.
    if (live.sameSharesAsPrevious(t))
      tile.allocation = result.tiles[t - 1].allocation;
    tile.overheads = live.overheads[t].total();
    tile.capacity = target.sramBytesPerTile;
  }
  result.cost = estimateCost(live, target);
  return result;
}

ProgramMemoryAnalysis::ProgramMemoryAnalysis(Operation *op)
    : program(cast<tile::ProgramOp>(op)) {}

llvm::Expected<const MemoryAnalysis &>
ProgramMemoryAnalysis::get(llvm::StringRef targetOverride) {
  std::unique_ptr<MemoryAnalysis> &slot = byTarget[targetOverride];
  if (!slot) {
    llvm::Expected<MemoryAnalysis> analysis =
        analyzeMemory(program, targetOverride);
    if (!analysis) {
      byTarget.erase(targetOverride);
      return analysis.takeError();
    }
    slot = std::make_unique<MemoryAnalysis>(std::move(*analysis));
  }
  return *slot;
}

llvm::Expected<MemoryAnalysis>
tessera::memory::analyzeMemory(tile::ProgramOp program,
                               llvm::StringRef targetOverride) {
  llvm::Expected<TargetDescription> target = resolveTarget(
      targetOverride.empty() ? program.getTarget() : targetOverride);
  if (!target)
    return target.takeError();
  if (target->totalTiles() < int64_t(program.getTiles()))
    return llvm::createStringError(
        "program @" + program.getSymName().str() + " has " +
        std::to_string(program.getTiles()) + " tiles but target '" +
        target->name + "' has " + std::to_string(target->totalTiles()));
  return analyzeMemory(program, *target);
}
