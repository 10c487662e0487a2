//===- BufferShares.cpp - each buffer's bytes on each tile ----------------===//

#include "BufferShares.h"

#include "tessera/Memory/Allocator.h"
#include "tessera/Memory/Padding.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <numeric>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

/// The shares of a buffer a mapping run at a time, when its runs hold
/// disjoint tiles in tile order (as the lowering's linear mappings do):
/// each tile then holds one interval, and they step by the run's elements
/// per tile. False, with nothing done, otherwise.
static bool sharesByRun(tile::BufferType type, tile::MappingAttr mapping,
                        int64_t numTiles, const TargetDescription &target,
                        BufferLiveness &buffer, std::vector<int64_t> &slotsOf) {
  for (size_t i = 1, e = mapping.getNumRuns(); i < e; ++i)
    if (mapping.getRun(i).firstTile < mapping.getRun(i - 1).endTile)
      return false;
  llvm::ArrayRef<int64_t> shape = type.getShape();
  int64_t period = paddingPeriod(shape, target.layoutTile);
  int64_t total = type.getNumElements();
  for (size_t i = 0, e = mapping.getNumRuns(); i < e; ++i) {
    tile::MappingAttr::Run run = mapping.getRun(i);
    int64_t tiles = std::min(run.endTile, numTiles) - run.firstTile;
    if (tiles <= 0)
      continue;
    int64_t n = run.perTile;
    // Tile k of the run holds [s + k·n, s + (k + 1)·n): tiles `cycle`
    // apart hold the same interval shifted by a multiple of the period,
    // and pad alike (paddingPeriod).
    int64_t cycle = period > 0
                        ? std::min(tiles, period / std::gcd(n % period, period))
                        : tiles;
    slotsOf.assign(cycle, -1);
    TileBytes share;
    share.elements = n;
    share.bytes = n * buffer.elementBytes;
    for (int64_t k = 0; k < tiles; ++k) {
      int64_t begin = run.firstElement + k * n, end = begin + n;
      bool inside = 0 <= begin && end <= total;
      int64_t slots = period > 0 && inside ? slotsOf[k % cycle] : -1;
      if (slots < 0) {
        std::pair<int64_t, int64_t> interval = {begin, end};
        slots = paddedElementsOnTile(shape, target.layoutTile, interval);
        if (period > 0 && inside)
          slotsOf[k % cycle] = slots;
      }
      share.tile = run.firstTile + k;
      share.paddedBytes =
          alignTo(slots * buffer.elementBytes, target.alignmentBytes);
      buffer.bytes += share.bytes;
      buffer.paddedBytes += share.paddedBytes;
      buffer.tiles.push_back(share);
    }
  }
  buffer.tiles.shrink_to_fit();
  return true;
}

/// Calls `fn(tile)` on each tile below `numTiles` that `mapping` puts
/// elements on, in tile order, with the tile's intervals in
/// `scratch.intervals` in the order forEachInterval lists them (by run).
/// A sweep over the tiles that keeps the runs holding the current one:
/// listing every interval and then bucketing them by tile wrote two arrays
/// of them, which each thread faulted in afresh (334k intervals, 16 MB, for
/// each of bert_small_train's two largest buffers).
template <typename F>
static void forEachTileIntervals(tile::MappingAttr mapping, int64_t numTiles,
                                 ShareScratch &scratch, F fn) {
  auto &runs = scratch.runs;
  auto &byStart = scratch.byStart, &starting = scratch.starting;
  auto &active = scratch.active;
  runs.clear();
  byStart.clear();
  for (size_t i = 0, e = mapping.getNumRuns(); i < e; ++i) {
    tile::MappingAttr::Run run = mapping.getRun(i);
    run.endTile = std::min(run.endTile, numTiles);
    if (run.firstTile < run.endTile)
      byStart.push_back(runs.size());
    runs.push_back(run);
  }
  llvm::stable_sort(byStart, [&](uint32_t a, uint32_t b) {
    return runs[a].firstTile < runs[b].firstTile;
  });
  // The runs holding tile t, by run number (forEachInterval's order).
  active.clear();
  size_t k = 0;
  for (int64_t t = 0;; ++t) {
    if (active.empty()) {
      if (k == byStart.size())
        return;
      t = std::max(t, runs[byStart[k]].firstTile);
    }
    // The runs starting on t: byStart holds runs of one first tile in run
    // order (a stable sort of runs listed in order), so these come sorted.
    starting.clear();
    for (; k < byStart.size() && runs[byStart[k]].firstTile <= t; ++k)
      starting.push_back(byStart[k]);
    if (!starting.empty()) {
      assert(llvm::is_sorted(starting) && "runs of one first tile in order");
      size_t held = active.size();
      active.append(starting.begin(), starting.end());
      std::inplace_merge(active.begin(), active.begin() + held, active.end());
    }
    scratch.intervals.clear();
    for (uint32_t i : active) {
      const tile::MappingAttr::Run &run = runs[i];
      int64_t begin = run.firstElement + (t - run.firstTile) * run.perTile;
      scratch.intervals.push_back({begin, begin + run.perTile});
    }
    fn(t);
    llvm::erase_if(active,
                   [&](uint32_t i) { return runs[i].endTile <= t + 1; });
  }
}

void tessera::memory::computeShares(tile::BufferType type,
                                    tile::MappingAttr mapping, int64_t numTiles,
                                    const TargetDescription &target,
                                    BufferLiveness &buffer,
                                    ShareScratch &scratch) {
  if (sharesByRun(type, mapping, numTiles, target, buffer, scratch.slotsOf))
    return;
  auto &intervals = scratch.intervals;
  auto &paddedOf = scratch.paddedOf;
  auto &pattern = scratch.pattern;
  // Tiles whose intervals are the same pattern shifted by a multiple
  // of the padding period pad alike: sized once per pattern.
  int64_t period = paddingPeriod(type.getShape(), target.layoutTile);
  int64_t total = type.getNumElements();
  paddedOf.clear();
  // Intervals per tile, in tile order, then padded per tile.
  forEachTileIntervals(mapping, numTiles, scratch, [&](int64_t t) {
    TileBytes share;
    share.tile = t;
    bool inside = true;
    for (auto [b, e] : intervals) {
      share.elements += e - b;
      inside &= 0 <= b && b <= e && e <= total;
    }
    share.bytes = share.elements * buffer.elementBytes;
    int64_t *padded = nullptr;
    if (period > 0 && inside) {
      int64_t base = intervals.front().first / period * period;
      pattern.clear();
      for (auto [b, e] : intervals)
        pattern.insert(pattern.end(), {b - base, e - base});
      if (paddedOf.size() > 4096)
        paddedOf.clear();
      auto [it, inserted] = paddedOf.try_emplace(pattern, -1);
      padded = &it->second;
    }
    if (!padded || *padded < 0) {
      int64_t slots =
          paddedElementsOnTile(type.getShape(), target.layoutTile, intervals);
      if (padded)
        *padded = slots;
      share.paddedBytes =
          alignTo(slots * buffer.elementBytes, target.alignmentBytes);
    } else {
      share.paddedBytes =
          alignTo(*padded * buffer.elementBytes, target.alignmentBytes);
    }
    buffer.bytes += share.bytes;
    buffer.paddedBytes += share.paddedBytes;
    buffer.tiles.push_back(share);
  });
  buffer.tiles.shrink_to_fit();
}
