//===- MappingPlanner.cpp - linear / same-as / follow mappings ------------===//

#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "tessera/Target/Target.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tessera;

int64_t tessera::mappingGrain(const TargetDescription &target,
                              llvm::StringRef dtype) {
  int64_t width = target.vectorWidthFor(dtype);
  return width > 0 ? width : 1;
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// Moves runs that start on tile 0 to start on `first`, wrapping past the
/// last tile (a run crossing the end is cut in two).
static llvm::SmallVector<int64_t> rotateRuns(llvm::ArrayRef<int64_t> runs,
                                             int64_t first, int64_t numTiles) {
  llvm::SmallVector<int64_t> out;
  for (size_t r = 0; r + 3 < runs.size(); r += 4) {
    int64_t a = runs[r] + first, b = runs[r + 1] + first, n = runs[r + 2],
            s = runs[r + 3];
    if (a >= numTiles) {
      out.append({a - numTiles, b - numTiles, n, s});
    } else if (b <= numTiles) {
      out.append({a, b, n, s});
    } else {
      out.append({a, numTiles, n, s});
      out.append({0, b - numTiles, n, s + (numTiles - a) * n});
    }
  }
  return out;
}

PlannedMapping tessera::planLinear(int64_t numElements, int64_t numTiles,
                                   int64_t grain, int64_t firstTile) {
  if (firstTile > 0 && firstTile < numTiles) {
    PlannedMapping plan = planLinear(numElements, numTiles, grain);
    plan.runs = rotateRuns(plan.runs, firstTile, numTiles);
    plan.why += ", from tile " + std::to_string(firstTile);
    return plan;
  }
  PlannedMapping plan;
  if (numElements <= 0) {
    plan.why = "empty tensor";
    return plan;
  }
  numTiles = std::max<int64_t>(numTiles, 1);
  grain = std::max<int64_t>(grain, 1);
  if (numTiles == 1 || numElements <= kSingleTileMaxElements) {
    plan.runs = {0, 1, numElements, 0};
    plan.why = numTiles == 1 ? "linear: the target has one tile"
                             : "linear: small tensor (<= " +
                                   std::to_string(kSingleTileMaxElements) +
                                   " elements) on one tile";
    return plan;
  }
  // A wide vector unit (core-8: 1,024 f32) would put every tensor below a
  // vector on one tile; halve the grain until at least two tiles are used.
  int64_t requested = grain;
  int64_t perTile = roundUp(ceilDiv(numElements, numTiles), grain);
  while (perTile >= numElements && grain > 1) {
    grain = std::max<int64_t>(grain / 2, 1);
    perTile = roundUp(ceilDiv(numElements, numTiles), grain);
  }
  if (perTile >= numElements) // grain 1 and still one tile: cannot happen
    perTile = ceilDiv(numElements, 2); // with numTiles >= 2, kept for safety
  int64_t fullTiles = numElements / perTile;
  int64_t rest = numElements - fullTiles * perTile;
  plan.runs = {0, fullTiles, perTile, 0};
  if (rest > 0)
    plan.runs.append({fullTiles, fullTiles + 1, rest, fullTiles * perTile});
  int64_t used = fullTiles + (rest > 0 ? 1 : 0);
  plan.why = "linear: " + std::to_string(perTile) + " per tile (grain " +
             std::to_string(grain);
  if (grain != requested)
    plan.why += ", reduced from " + std::to_string(requested) +
                " to spread over more than one tile";
  plan.why += ") over " + std::to_string(used) + " tiles";
  return plan;
}

PlannedMapping tessera::planSameAs(llvm::ArrayRef<int64_t> inputRuns,
                                   llvm::StringRef inputName) {
  PlannedMapping plan;
  plan.runs.assign(inputRuns.begin(), inputRuns.end());
  plan.why = sameLayoutWhy(inputName);
  return plan;
}

std::string tessera::sameLayoutWhy(llvm::StringRef inputName) {
  return "in place: same layout as " + inputName.str();
}

llvm::SmallVector<int64_t>
tessera::compressIntervals(llvm::ArrayRef<std::array<int64_t, 3>> intervals) {
  llvm::SmallVector<int64_t> runs;
  for (const auto &[tile, begin, end] : intervals) {
    int64_t len = end - begin;
    if (len <= 0)
      continue;
    size_t n = runs.size();
    // Extend the last run when this interval is its natural next one.
    if (n >= 4 && runs[n - 3 + 0] == tile && runs[n - 2] == len &&
        runs[n - 1] + (runs[n - 3] - runs[n - 4]) * len == begin) {
      runs[n - 3] = tile + 1;
      continue;
    }
    runs.append({tile, tile + 1, len, begin});
  }
  return runs;
}

TileLookup::TileLookup(llvm::ArrayRef<int64_t> runs) {
  auto byBegin = [](const Segment &a, const Segment &b) {
    return a.begin < b.begin;
  };
  // A run's intervals are contiguous: one segment stands for all of them
  // when the runs are disjoint, so building and searching cost per run, not
  // per tile. Runs of empty intervals hold nothing and are left out (a
  // search that met one could miss the interval beginning where it does).
  bool disjoint = true;
  for (size_t i = 0; i + 3 < runs.size(); i += 4) {
    if (runs[i + 1] <= runs[i] || runs[i + 2] <= 0)
      continue;
    segments.push_back({runs[i + 3],
                        runs[i + 3] + (runs[i + 1] - runs[i]) * runs[i + 2],
                        runs[i + 2], runs[i]});
  }
  if (disjoint) {
    if (!std::is_sorted(segments.begin(), segments.end(), byBegin))
      llvm::sort(segments, byBegin);
    for (size_t i = 0; i + 1 < segments.size() && disjoint; ++i)
      disjoint = segments[i].end <= segments[i + 1].begin;
    if (disjoint)
      return;
  }
  // Otherwise each tile's interval on its own, sorted by first element.
  segments.clear();
  for (size_t i = 0; i + 3 < runs.size(); i += 4)
    for (int64_t t = runs[i]; t < runs[i + 1] && runs[i + 2] > 0; ++t) {
      int64_t b = runs[i + 3] + (t - runs[i]) * runs[i + 2];
      segments.push_back({b, b + runs[i + 2], runs[i + 2], t});
    }
  // Runs mostly list their intervals in element order already.
  if (!std::is_sorted(segments.begin(), segments.end(), byBegin))
    llvm::sort(segments, byBegin);
}

bool TileLookup::find(int64_t element, Interval &iv) const {
  const Segment *seg = nullptr;
  // Lookups mostly walk elements in order: try the last segment found and
  // its successor before searching.
  if (last < segments.size()) {
    const Segment &s = segments[last];
    if (element >= s.begin && element < s.end)
      seg = &s;
    else if (last + 1 < segments.size() && element >= s.end &&
             element >= segments[last + 1].begin &&
             element < segments[last + 1].end)
      seg = &segments[++last];
  }
  if (!seg) {
    auto it =
        llvm::upper_bound(segments, element, [](int64_t e, const Segment &s) {
          return e < s.begin;
        });
    if (it == segments.begin())
      return false;
    --it;
    if (element >= it->end)
      return false;
    last = it - segments.begin();
    seg = &*it;
  }
  int64_t k = (element - seg->begin) / seg->perTile;
  iv.begin = seg->begin + k * seg->perTile;
  iv.end = iv.begin + seg->perTile;
  iv.tile = seg->firstTile + k;
  return true;
}

std::optional<PlannedMapping>
tessera::planFollow(llvm::ArrayRef<int64_t> sourceRuns,
                    llvm::StringRef sourceName, int64_t numElements,
                    llvm::function_ref<int64_t(int64_t)> sourceIndex,
                    int64_t maxIntervals) {
  TileLookup lookup(sourceRuns);
  llvm::SmallVector<std::array<int64_t, 3>> intervals;
  for (int64_t i = 0; i < numElements; ++i) {
    int64_t tile = lookup.tileOf(sourceIndex(i));
    if (tile < 0)
      return std::nullopt;
    if (!intervals.empty() && intervals.back()[0] == tile &&
        intervals.back()[2] == i) {
      intervals.back()[2] = i + 1;
      continue;
    }
    if (static_cast<int64_t>(intervals.size()) >= maxIntervals)
      return std::nullopt;
    intervals.push_back({tile, i, i + 1});
  }
  PlannedMapping plan;
  plan.runs = compressIntervals(intervals);
  plan.why = "follows " + sourceName.str() +
             ": each element stays on the tile of its source element";
  return plan;
}

int64_t tessera::tilesUsed(llvm::ArrayRef<int64_t> runs) {
  llvm::SmallVector<std::pair<int64_t, int64_t>> ranges;
  for (size_t r = 0; r + 3 < runs.size(); r += 4)
    if (runs[r + 2] > 0 && runs[r + 1] > runs[r])
      ranges.push_back({runs[r], runs[r + 1]});
  llvm::sort(ranges);
  int64_t used = 0, end = 0;
  for (auto [a, b] : ranges) {
    used += std::max<int64_t>(0, b - std::max(a, end));
    end = std::max(end, b);
  }
  return used;
}

void TileLoad::add(llvm::ArrayRef<int64_t> runs, int64_t elementBytes) {
  int64_t n = bytes.size();
  for (size_t r = 0; r + 3 < runs.size(); r += 4) {
    int64_t first = std::max<int64_t>(runs[r], 0),
            end = std::min(runs[r + 1], n);
    if (first >= end)
      continue;
    pending[first] += runs[r + 2] * elementBytes;
    pending[end] -= runs[r + 2] * elementBytes;
    dirty = true;
  }
}

void TileLoad::settle() {
  if (!dirty)
    return;
  int64_t step = 0, n = bytes.size();
  for (int64_t t = 0; t < n; ++t) {
    bytes[t] += step += pending[t];
    pending[t] = 0;
  }
  pending[n] = 0;
  dirty = false;
}

int64_t TileLoad::leastLoadedStart(int64_t span) {
  settle();
  int64_t n = bytes.size();
  span = std::clamp<int64_t>(span, 1, n);
  // A sliding window over the tiles. It does not wrap past the last tile:
  // a compute set runs on a contiguous tile range, so a wrapped layout
  // would split every step over it in two.
  int64_t window = 0;
  for (int64_t t = 0; t < span; ++t)
    window += bytes[t];
  int64_t best = window, bestStart = 0;
  for (int64_t s = 1; s + span <= n; ++s) {
    window += bytes[s + span - 1] - bytes[s - 1];
    if (window < best)
      best = window, bestStart = s;
  }
  return bestStart;
}
