//===- BufferShares.cpp - each buffer's bytes on each tile ----------------===//

#include "BufferShares.h"

#include "tessera/Memory/Allocator.h"
#include "tessera/Memory/Padding.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

/// The shares of `var` a mapping run at a time, when its runs hold
/// disjoint tiles in tile order (as the lowering's linear mappings do):
/// each tile then holds one interval, and they step by the run's elements
/// per tile. False, with nothing done, otherwise.
static bool sharesByRun(tile::VarOp var, int64_t numTiles,
                        const TargetDescription &target, BufferLiveness &buffer,
                        std::vector<int64_t> &slotsOf) {
  tile::MappingAttr mapping = var.getMapping();
  for (size_t i = 1, e = mapping.getNumRuns(); i < e; ++i)
    if (mapping.getRun(i).firstTile < mapping.getRun(i - 1).endTile)
      return false;
  tile::BufferType type = var.getType();
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

void tessera::memory::computeShares(tile::VarOp var, int64_t numTiles,
                                    const TargetDescription &target,
                                    BufferLiveness &buffer,
                                    ShareScratch &scratch) {
  if (sharesByRun(var, numTiles, target, buffer, scratch.slotsOf))
    return;
  auto &pieces = scratch.pieces, &bucketed = scratch.bucketed;
  auto &tileStart = scratch.tileStart;
  auto &intervals = scratch.intervals;
  auto &paddedOf = scratch.paddedOf;
  auto &pattern = scratch.pattern;
  tile::BufferType type = var.getType();
  // Intervals per tile (in element order within a tile), then padded
  // per tile. One sorted list, not a map of lists: a buffer spread
  // over every tile would otherwise cost a node per tile.
  pieces.clear();
  var.getMapping().forEachInterval([&](int64_t t, int64_t b, int64_t e) {
    if (t < numTiles)
      pieces.push_back({t, {b, e}});
  });
  // Most mappings list their tiles in order already; a long list out
  // of order is bucketed by tile (a comparison sort of every var's
  // pieces took 9% of bert's compile on tile-1472).
  auto byTile = [](const auto &x, const auto &y) { return x.first < y.first; };
  if (!std::is_sorted(pieces.begin(), pieces.end(), byTile)) {
    if (static_cast<int64_t>(pieces.size()) * 8 < numTiles) {
      std::stable_sort(pieces.begin(), pieces.end(), byTile);
    } else {
      tileStart.assign(numTiles + 1, 0);
      for (const auto &p : pieces)
        ++tileStart[p.first + 1];
      for (int64_t t = 0; t < numTiles; ++t)
        tileStart[t + 1] += tileStart[t];
      bucketed.resize(pieces.size());
      for (const auto &p : pieces)
        bucketed[tileStart[p.first]++] = p;
      pieces.swap(bucketed);
    }
  }
  // Tiles whose intervals are the same pattern shifted by a multiple
  // of the padding period pad alike: sized once per pattern.
  int64_t period = paddingPeriod(type.getShape(), target.layoutTile);
  int64_t total = type.getNumElements();
  paddedOf.clear();
  for (size_t k = 0; k < pieces.size();) {
    int64_t t = pieces[k].first;
    intervals.clear();
    for (; k < pieces.size() && pieces[k].first == t; ++k)
      intervals.push_back(pieces[k].second);
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
  }
  buffer.tiles.shrink_to_fit();
}
