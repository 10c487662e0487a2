//===- IndexedLayout.cpp - layouts for ops indexed at run time ------------===//

#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"

#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <vector>

using namespace tessera;

llvm::SmallVector<int64_t>
tessera::windowedDims(llvm::ArrayRef<int64_t> operandShape,
                      llvm::ArrayRef<int64_t> window) {
  llvm::SmallVector<int64_t> dims;
  for (auto [d, size] : llvm::enumerate(window))
    if (size < operandShape[d])
      dims.push_back(d);
  return dims;
}

WholeDimSplit::WholeDimSplit(llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int64_t> wholeDims)
    : shape(shape), positionStride(shape.size(), 0) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (llvm::is_contained(wholeDims, d)) {
      extent *= shape[d];
      continue;
    }
    positionStride[d] = positions;
    positions *= shape[d];
  }
}

int64_t WholeDimSplit::positionOf(llvm::ArrayRef<int64_t> coords) const {
  int64_t p = 0;
  for (auto [c, s] : llvm::zip(coords, positionStride))
    p += c * s;
  return p;
}

int64_t WholeDimSplit::positionOfElement(int64_t element) const {
  int64_t p = 0;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    int64_t n = std::max<int64_t>(shape[d], 1);
    p += (element % n) * positionStride[d];
    element /= n;
  }
  return p;
}

/// Calls f(first, length, position, step) for every innermost row of
/// `shape` in row-major order: the row's elements first .. first+length-1
/// have positions position, position+step, ...; the position is the dot
/// product of the element's coordinates with `strides`, kept incrementally
/// (no division per element). Stops when f returns false: a caller that
/// has its answer after a few rows (a layout already known unusable) must
/// not pay for the rest of a table of millions of elements.
template <typename F>
static void walkRows(llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<int64_t> strides, F f) {
  int64_t rank = shape.size(), n = 1;
  for (int64_t s : shape)
    n *= s;
  if (n == 0)
    return;
  if (rank == 0) {
    f(0, 1, 0, 0);
    return;
  }
  int64_t inner = shape[rank - 1], innerStride = strides[rank - 1];
  llvm::SmallVector<int64_t> index(rank - 1, 0);
  int64_t base = 0;
  for (int64_t e = 0; e < n; e += inner) {
    if (!f(e, inner, base, innerStride))
      return;
    for (int64_t d = rank - 2; d >= 0; --d) {
      base += strides[d];
      if (++index[d] < shape[d])
        break;
      base -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

std::optional<llvm::SmallVector<int64_t>>
tessera::positionTiles(llvm::ArrayRef<int64_t> runs,
                       const WholeDimSplit &split) {
  // Intervals in element order: begin, end, tile.
  llvm::SmallVector<std::array<int64_t, 3>> intervals;
  for (size_t r = 0; r + 3 < runs.size(); r += 4)
    for (int64_t t = runs[r]; t < runs[r + 1]; ++t) {
      int64_t b = runs[r + 3] + (t - runs[r]) * runs[r + 2];
      intervals.push_back({b, b + runs[r + 2], t});
    }
  std::sort(intervals.begin(), intervals.end());
  llvm::SmallVector<int64_t> tiles(split.numPositions(), -1);
  size_t j = 0;
  bool consistent = true;
  walkRows(split.getShape(), split.strides(),
           [&](int64_t first, int64_t length, int64_t position, int64_t step) {
             for (int64_t e = first; e < first + length;
                  ++e, position += step) {
               while (j < intervals.size() && e >= intervals[j][1])
                 ++j;
               int64_t t = j < intervals.size() ? intervals[j][2] : -1;
               if (tiles[position] >= 0 && tiles[position] != t) {
                 consistent = false;
                 return false;
               }
               tiles[position] = t;
             }
             return true;
           });
  if (!consistent || llvm::is_contained(tiles, -1))
    return std::nullopt;
  return tiles;
}

std::optional<llvm::SmallVector<int64_t>> tessera::runsForPositions(
    llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> positionStrides,
    llvm::ArrayRef<int64_t> tileOfPosition, int64_t maxIntervals) {
  llvm::SmallVector<std::array<int64_t, 3>> intervals;
  // Extends the last interval by [first, end) on tile t, or starts one.
  auto add = [&](int64_t t, int64_t first, int64_t end) {
    if (!intervals.empty() && intervals.back()[0] == t)
      intervals.back()[2] = end;
    else if (int64_t(intervals.size()) == maxIntervals)
      return false;
    else
      intervals.push_back({t, first, end});
    return true;
  };
  // sameFrom[p]: how many positions from p on share p's tile. A row whose
  // positions advance by one then costs an interval, not an element, per
  // tile it crosses (a table of millions of elements on a few tiles).
  int64_t numPositions = tileOfPosition.size();
  std::vector<int64_t> sameFrom(numPositions, 1);
  for (int64_t p = numPositions - 2; p >= 0; --p)
    if (tileOfPosition[p] == tileOfPosition[p + 1])
      sameFrom[p] = sameFrom[p + 1] + 1;
  bool over = false;
  walkRows(shape, positionStrides,
           [&](int64_t first, int64_t length, int64_t position, int64_t step) {
             int64_t end = first + length;
             for (int64_t e = first; e < end;) {
               // A row along a dimension that does not move the position is
               // on one tile.
               int64_t same = step == 0 ? end - e
                              : step == 1
                                  ? std::min(sameFrom[position], end - e)
                                  : 1;
               if (!add(tileOfPosition[position], e, e + same)) {
                 over = true;
                 return false;
               }
               e += same;
               position += same * step;
             }
             return true;
           });
  if (over)
    return std::nullopt;
  return compressIntervals(intervals);
}

/// Appends one copy, folding it into the last run when it continues that
/// run on the next source and destination tiles with the same strides.
static void appendFolded(llvm::SmallVector<int64_t> &runs, int64_t srcTile,
                         int64_t dstTile, int64_t length, int64_t srcElement,
                         int64_t dstElement) {
  size_t n = runs.size();
  if (n >= 8) {
    int64_t *r = &runs[n - 8];
    int64_t count = r[2];
    if (r[3] == length && srcTile == r[0] + count && dstTile == r[1] + count) {
      if (count == 1) {
        r[5] = srcElement - r[4];
        r[7] = dstElement - r[6];
        r[2] = 2;
        return;
      }
      if (srcElement == r[4] + count * r[5] &&
          dstElement == r[6] + count * r[7]) {
        r[2] = count + 1;
        return;
      }
    }
  }
  runs.append({srcTile, dstTile, 1, length, srcElement, 0, dstElement, 0});
}

llvm::SmallVector<int64_t>
tessera::planReplicateCopies(llvm::ArrayRef<int64_t> sourceRuns,
                             int64_t numElements,
                             llvm::ArrayRef<int64_t> destTiles) {
  // Source intervals in element order: begin, end, tile.
  llvm::SmallVector<std::array<int64_t, 3>> src;
  for (size_t r = 0; r + 3 < sourceRuns.size(); r += 4)
    for (int64_t t = sourceRuns[r]; t < sourceRuns[r + 1]; ++t) {
      int64_t b = sourceRuns[r + 3] + (t - sourceRuns[r]) * sourceRuns[r + 2];
      if (sourceRuns[r + 2] > 0)
        src.push_back({b, b + sourceRuns[r + 2], t});
    }
  std::sort(src.begin(), src.end());
  llvm::SmallVector<int64_t> copies;
  int64_t numSrc = src.size(), numDst = destTiles.size();
  // Walk the (destination, source interval) grid diagonal by diagonal: along
  // a diagonal both tiles advance together, which is what a run can fold.
  for (int64_t d = -(numSrc - 1); d < numDst; ++d)
    for (int64_t j = std::max<int64_t>(0, -d); j < numSrc && j + d < numDst;
         ++j) {
      int64_t i = j + d;
      auto [begin, end, tile] = src[j];
      appendFolded(copies, tile, destTiles[i], end - begin, begin,
                   i * numElements + begin);
    }
  return copies;
}
