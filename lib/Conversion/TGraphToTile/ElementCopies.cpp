//===- ElementCopies.cpp - exchange runs from an index mapping ------------===//

#include "tessera/Conversion/TGraphToTile/ElementCopies.h"

#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <limits>

using namespace tessera;

std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
tessera::planElementCopies(llvm::ArrayRef<llvm::ArrayRef<int64_t>> sourceRuns,
                           llvm::ArrayRef<int64_t> destRuns,
                           int64_t numElements,
                           llvm::function_ref<ElementSource(int64_t)> sourceOf,
                           int64_t maxRuns) {
  llvm::SmallVector<TileLookup> sources;
  for (llvm::ArrayRef<int64_t> runs : sourceRuns)
    sources.emplace_back(runs);
  TileLookup dest(destRuns);
  CopyRunBuilder builder(sourceRuns.size(), maxRuns);
  for (int64_t i = 0; i < numElements; ++i) {
    auto [k, s] = sourceOf(i);
    if (k < 0 || k >= static_cast<int>(sources.size())) {
      if (!builder.flush())
        return std::nullopt;
      continue;
    }
    int64_t srcTile = sources[k].tileOf(s), dstTile = dest.tileOf(i);
    if (srcTile < 0 || dstTile < 0)
      return std::nullopt;
    if (!builder.add(k, srcTile, dstTile, s, i, 1))
      return std::nullopt;
  }
  if (!builder.flush())
    return std::nullopt;
  return builder.take();
}

std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
tessera::planSpanCopies(llvm::ArrayRef<llvm::ArrayRef<int64_t>> sourceRuns,
                        llvm::ArrayRef<int64_t> destRuns, int64_t numElements,
                        llvm::function_ref<SourceSpan(int64_t)> spanOf,
                        int64_t maxRuns) {
  llvm::SmallVector<TileLookup> sources;
  for (llvm::ArrayRef<int64_t> runs : sourceRuns)
    sources.emplace_back(runs);
  TileLookup dest(destRuns);
  CopyRunBuilder builder(sourceRuns.size(), maxRuns);
  for (int64_t i = 0; i < numElements;) {
    SourceSpan span = spanOf(i);
    int64_t left = std::min(std::max<int64_t>(span.length, 1), numElements - i);
    if (span.source < 0 || span.source >= static_cast<int>(sources.size())) {
      // One flush for the gap: the element walk flushes once per element,
      // and a flush of nothing pending does nothing.
      if (!builder.flush())
        return std::nullopt;
      i += left;
      continue;
    }
    // Pieces within one source and one dest interval, fed in dest order:
    // the runs the element walk would grow (CopyRunBuilder).
    int64_t s = span.element;
    while (left > 0) {
      int64_t srcTile, srcBegin, srcEnd, dstTile, dstBegin, dstEnd;
      if (!sources[span.source].locate(s, srcTile, srcBegin, srcEnd) ||
          !dest.locate(i, dstTile, dstBegin, dstEnd))
        return std::nullopt;
      int64_t length = std::min({left, srcEnd - s, dstEnd - i});
      if (!builder.add(span.source, srcTile, dstTile, s, i, length))
        return std::nullopt;
      s += length;
      i += length;
      left -= length;
    }
  }
  if (!builder.flush())
    return std::nullopt;
  return builder.take();
}

/// The per-tile intervals of a mapping in element order.
static llvm::SmallVector<std::array<int64_t, 3>>
sortedIntervals(llvm::ArrayRef<int64_t> runs) {
  llvm::SmallVector<std::array<int64_t, 3>> intervals; // begin, end, tile
  // Counted first: growing the list by doubling copied it log(n) times.
  size_t count = 0;
  for (size_t i = 0; i + 3 < runs.size(); i += 4)
    count += std::max<int64_t>(runs[i + 1] - runs[i], 0);
  intervals.reserve(count);
  for (size_t i = 0; i + 3 < runs.size(); i += 4)
    for (int64_t t = runs[i]; t < runs[i + 1]; ++t) {
      int64_t b = runs[i + 3] + (t - runs[i]) * runs[i + 2];
      intervals.push_back({b, b + runs[i + 2], t});
    }
  // Runs usually list intervals in element order already; std::sort, not
  // llvm::sort, which would qsort these trivially copyable arrays.
  if (!std::is_sorted(intervals.begin(), intervals.end()))
    std::sort(intervals.begin(), intervals.end());
  return intervals;
}

std::optional<llvm::SmallVector<int64_t>>
tessera::planIdentityCopies(llvm::ArrayRef<int64_t> sourceRuns,
                            llvm::ArrayRef<int64_t> destRuns, int64_t maxRuns) {
  auto src = sortedIntervals(sourceRuns), dst = sortedIntervals(destRuns);
  llvm::SmallVector<int64_t> copies;
  // Walk both interval lists in element order; every overlap is one copy.
  // Runs only grow, so the walk stops as soon as they exceed the budget.
  size_t i = 0, j = 0;
  while (i < src.size() && j < dst.size()) {
    int64_t begin = std::max(src[i][0], dst[j][0]);
    int64_t end = std::min(src[i][1], dst[j][1]);
    if (begin < end) {
      CopyRunBuilder::Pending p;
      p.source = 0;
      p.srcTile = src[i][2];
      p.dstTile = dst[j][2];
      p.srcElement = p.dstElement = begin;
      p.length = end - begin;
      CopyRunBuilder::appendCopy(copies, p);
      if (static_cast<int64_t>(copies.size() / 8) > maxRuns)
        return std::nullopt;
    }
    if (src[i][1] <= dst[j][1])
      ++i;
    else
      ++j;
  }
  return copies;
}

llvm::SmallVector<int64_t>
tessera::planIdentityCopies(llvm::ArrayRef<int64_t> sourceRuns,
                            llvm::ArrayRef<int64_t> destRuns) {
  return *planIdentityCopies(sourceRuns, destRuns,
                             std::numeric_limits<int64_t>::max());
}
