//===- BufferShares.h - each buffer's bytes on each tile --------*- C++ -*-===//
//
// The liveness's per-tile shares of one buffer: its elements, bytes and
// padded bytes on each tile its mapping puts elements on. A buffer's shares
// depend on its type, its mapping and the target alone, so the liveness
// computes them for many buffers at once, each thread with its own scratch.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_MEMORY_BUFFERSHARES_H
#define TESSERA_LIB_MEMORY_BUFFERSHARES_H

#include "tessera/Memory/Liveness.h"

#include "llvm/ADT/SmallVector.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::memory {

/// What computeShares reuses from one buffer to the next on one thread.
struct ShareScratch {
  /// A multiply-xor per number: llvm::hash_combine_range cost as much as
  /// the sizing it saved on patterns of many intervals.
  struct PatternHash {
    size_t operator()(const std::vector<int64_t> &key) const {
      uint64_t h = key.size();
      for (int64_t x : key)
        h = (h ^ static_cast<uint64_t>(x)) * 0x9E3779B97F4A7C15ull;
      return h ^ (h >> 29);
    }
  };
  /// The mapping's runs (their tiles cut at the tile count), the runs in
  /// order of first tile, those holding the current tile and those that
  /// start on it (forEachTileIntervals).
  std::vector<tile::MappingAttr::Run> runs;
  std::vector<uint32_t> byStart, starting;
  llvm::SmallVector<uint32_t> active;
  /// The current tile's intervals.
  llvm::SmallVector<std::pair<int64_t, int64_t>> intervals;
  /// A buffer's tile patterns (intervals less a multiple of the padding
  /// period) and their padded elements.
  std::unordered_map<std::vector<int64_t>, int64_t, PatternHash> paddedOf;
  std::vector<int64_t> pattern;
  /// Padded slots per phase of a run.
  std::vector<int64_t> slotsOf;
};

/// Fills `buffer.tiles`, `bytes` and `paddedBytes` with the shares of a
/// buffer of `type` and `mapping` (not an alias) on tiles below
/// `numTiles`; `buffer.elementBytes` must be set. Reads the attributes
/// only (any thread may).
void computeShares(tile::BufferType type, tile::MappingAttr mapping,
                   int64_t numTiles, const TargetDescription &target,
                   BufferLiveness &buffer, ShareScratch &scratch);

} // namespace tessera::memory

#endif // TESSERA_LIB_MEMORY_BUFFERSHARES_H
