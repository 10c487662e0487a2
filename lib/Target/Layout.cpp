//===- Layout.cpp - how a tile stores its part of a buffer ----------------===//

#include "tessera/Target/Layout.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace tessera;

LayoutView tessera::layoutViewOf(llvm::ArrayRef<int64_t> shape,
                                 LayoutTile tile) {
  int64_t rowsUnit = std::max<int64_t>(1, tile.rows);
  int64_t colsUnit = std::max<int64_t>(1, tile.cols);
  auto up = [](int64_t x, int64_t unit) {
    return static_cast<int64_t>(llvm::alignTo(x, unit));
  };
  LayoutView view;
  view.parts.assign(shape.size(), LayoutView::Major);
  int64_t elements = 1;
  llvm::SmallVector<unsigned, 6> big; // dims above 1
  for (auto [k, d] : llvm::enumerate(shape)) {
    elements *= std::max<int64_t>(d, 0);
    if (d > 1)
      big.push_back(k);
  }
  if (elements == 0)
    return view;
  if (big.size() <= 1) {
    view.folded = true;
    for (unsigned k : big)
      view.parts[k] = LayoutView::Cols;
    view.paddedElements = up(elements, rowsUnit * colsUnit);
    return view;
  }
  // With one-row layout tiles, every dim in the columns is optimal: any view
  // is a multiple of the columns' unit, and this one is the least such.
  if (rowsUnit == 1) {
    for (unsigned k : big)
      view.parts[k] = LayoutView::Cols;
    view.paddedElements = up(elements, colsUnit);
    return view;
  }
  // Try every assignment of the dims above 1 to the three parts (3^k of
  // them; k is small, and beyond 6 only the shape's own order is tried:
  // major dims, then rows, then cols, each a contiguous run of dims).
  auto padded = [&](llvm::ArrayRef<LayoutView::Part> parts) {
    int64_t product[3] = {1, 1, 1};
    for (unsigned k : big)
      product[parts[k]] *= shape[k];
    return product[0] * up(product[1], rowsUnit) * up(product[2], colsUnit);
  };
  view.paddedElements = INT64_MAX;
  llvm::SmallVector<LayoutView::Part, 6> parts(shape.size(), LayoutView::Major);
  auto consider = [&] {
    int64_t p = padded(parts);
    if (p < view.paddedElements) {
      view.paddedElements = p;
      view.parts = parts;
    }
  };
  if (big.size() <= 6) {
    int64_t count = 1;
    for (size_t k = 0; k < big.size(); ++k)
      count *= 3;
    // Counting down from "all columns" breaks ties the same way every
    // time, towards dims in the columns.
    for (int64_t code = count; code-- > 0;) {
      int64_t c = code;
      for (size_t k = big.size(); k-- > 0; c /= 3)
        parts[big[k]] = static_cast<LayoutView::Part>(c % 3);
      consider();
    }
    return view;
  }
  for (size_t i = big.size() + 1; i-- > 0;)
    for (size_t j = i + 1; j-- > 0;) {
      for (size_t k = 0; k < big.size(); ++k)
        parts[big[k]] = k < j   ? LayoutView::Major
                        : k < i ? LayoutView::Rows
                                : LayoutView::Cols;
      consider();
    }
  return view;
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// layoutViewOf(box, layout).paddedElements, remembered: the liveness asks
/// for every (buffer, tile) share, and a buffer's tiles mostly hold boxes of
/// the same extents, whose best view is a search over up to 3^6 views. A
/// small direct-mapped cache per thread; the function is pure, so a hit
/// gives the same number.
static int64_t paddedBoxElements(llvm::ArrayRef<int64_t> box,
                                 LayoutTile layout) {
  // One-row layout tiles (tile-1472's [1, 4]): every view of the block is
  // its elements rounded up to the columns' unit (layoutViewOf), so there
  // is nothing to search or remember.
  if (layout.rows <= 1) {
    int64_t elements = 1;
    for (int64_t d : box)
      elements *= std::max<int64_t>(d, 0);
    return static_cast<int64_t>(
        llvm::alignTo(elements, std::max<int64_t>(1, layout.cols)));
  }
  struct Entry {
    llvm::SmallVector<int64_t, 6> box;
    LayoutTile layout;
    int64_t padded = -1;
  };
  static thread_local Entry cache[64];
  size_t hash =
      llvm::hash_combine(llvm::hash_combine_range(box.begin(), box.end()),
                         layout.rows, layout.cols);
  Entry &e = cache[hash % 64];
  if (e.padded >= 0 && e.layout == layout && llvm::ArrayRef(e.box) == box)
    return e.padded;
  e.box.assign(box.begin(), box.end());
  e.layout = layout;
  e.padded = layoutViewOf(box, layout).paddedElements;
  return e.padded;
}

/// The extents of the box the intervals fill, if they fill one exactly:
/// each interval's bounding box is taken per dimension (the dims below the
/// first one where its first and last element differ count as whole, which
/// over-approximates only pieces that are not boxes), and the union is a box
/// when its volume is the element count (intervals are disjoint).
static std::optional<llvm::SmallVector<int64_t, 6>>
boxOf(llvm::ArrayRef<int64_t> shape,
      llvm::ArrayRef<std::pair<int64_t, int64_t>> intervals) {
  size_t rank = shape.size();
  llvm::SmallVector<int64_t, 6> lo(rank, INT64_MAX), hi(rank, -1);
  // inner[d]: elements per step of dim d.
  llvm::SmallVector<int64_t, 6> inner(rank, 1);
  for (size_t d = rank; d-- > 1;)
    inner[d - 1] = inner[d] * shape[d];
  int64_t count = 0;
  for (auto [begin, end] : intervals) {
    if (end <= begin)
      continue;
    count += end - begin;
    // The first and last elements' indices, outer dims first; below the
    // first dim where they differ every dim counts as whole, so the
    // divisions (most of this function's time) stop there.
    int64_t first = begin, last = end - 1;
    size_t d = 0;
    for (; d < rank; ++d) {
      int64_t f = first / inner[d], l = last / inner[d];
      first -= f * inner[d];
      last -= l * inner[d];
      // Past the buffer's end (only dim 0 can be), unravelling wraps.
      if (f >= shape[d])
        f %= shape[d];
      if (l >= shape[d])
        l %= shape[d];
      lo[d] = std::min(lo[d], f);
      hi[d] = std::max(hi[d], l);
      if (f != l)
        break;
    }
    for (++d; d < rank; ++d) {
      lo[d] = 0;
      hi[d] = shape[d] - 1;
    }
  }
  if (count == 0)
    return std::nullopt;
  llvm::SmallVector<int64_t, 6> extents(rank);
  int64_t volume = 1;
  for (size_t d = 0; d < rank; ++d) {
    extents[d] = hi[d] - lo[d] + 1;
    volume *= extents[d];
  }
  if (volume != count)
    return std::nullopt;
  return extents;
}

int64_t tessera::paddedRunAsBoxes(llvm::ArrayRef<int64_t> shape,
                                  LayoutTile layout, int64_t begin,
                                  int64_t end) {
  // Up from `begin` to ever coarser boundaries, then down to `end`.
  size_t rank = shape.size();
  // unit[d]: elements per step of dim d; unit[-1] is the whole buffer.
  llvm::SmallVector<int64_t, 7> unit(rank + 1, 1);
  for (size_t d = rank; d-- > 0;)
    unit[d] = unit[d + 1] * shape[d];
  auto unitOf = [&](size_t d) { return unit[d + 1]; };
  int64_t slots = 0;
  llvm::SmallVector<int64_t, 6> extents;
  auto box = [&](size_t d, int64_t from, int64_t to) {
    extents.assign(rank, 1);
    extents[d] = (to - from) / unitOf(d);
    for (size_t k = d + 1; k < rank; ++k)
      extents[k] = shape[k];
    slots += paddedBoxElements(extents, layout);
  };
  int64_t cursor = begin;
  for (size_t d = rank; d-- > 0;) { // up
    int64_t boundary = ceilDiv(cursor, unit[d]) * unit[d];
    int64_t to = std::min(boundary, end - end % unitOf(d));
    if (to > cursor)
      box(d, cursor, to), cursor = to;
    if (cursor != boundary)
      break;
  }
  for (size_t d = 0; d < rank; ++d) { // down
    int64_t to = end - end % unitOf(d);
    if (to > cursor)
      box(d, cursor, to), cursor = to;
  }
  return slots;
}

/// Slots of the layout tiles of the buffer's two minor dims that the
/// intervals touch.
static int64_t
inLayoutTiles(llvm::ArrayRef<int64_t> shape, LayoutTile layout,
              llvm::ArrayRef<std::pair<int64_t, int64_t>> intervals) {
  // View the buffer as [outer, R, C]; a layout tile is identified by
  // (outer, row block, col block), numbered row-block-major so that the
  // layout tiles touched by consecutive rows form contiguous id ranges.
  int64_t rank = shape.size();
  int64_t cols = rank >= 1 ? std::max<int64_t>(shape[rank - 1], 0) : 1;
  int64_t rows = rank >= 2 ? std::max<int64_t>(shape[rank - 2], 0) : 1;
  if (rows == 0 || cols == 0)
    return 0;
  int64_t colBlocks = ceilDiv(cols, layout.cols);
  int64_t rowBlocks = ceilDiv(rows, layout.rows);
  auto rowBlockOf = [&](int64_t row) { // row over outer × R
    return (row / rows) * rowBlocks + (row % rows) / layout.rows;
  };
  // Layout-tile id ranges [begin, end) touched, then merged.
  llvm::SmallVector<std::pair<int64_t, int64_t>> ids;
  auto touchRow = [&](int64_t row, int64_t c0, int64_t c1) { // cols [c0, c1)
    int64_t base = rowBlockOf(row) * colBlocks;
    ids.push_back({base + c0 / layout.cols, base + ceilDiv(c1, layout.cols)});
  };
  for (auto [begin, end] : intervals) {
    if (end <= begin)
      continue;
    int64_t firstRow = begin / cols, lastRow = (end - 1) / cols;
    if (firstRow == lastRow) {
      touchRow(firstRow, begin % cols, (end - 1) % cols + 1);
      continue;
    }
    touchRow(firstRow, begin % cols, cols);
    touchRow(lastRow, 0, (end - 1) % cols + 1);
    // Full rows in between touch every col block of their row blocks, and
    // row blocks are monotonic in the row, so this is one id range.
    if (lastRow - firstRow >= 2)
      ids.push_back({rowBlockOf(firstRow + 1) * colBlocks,
                     (rowBlockOf(lastRow - 1) + 1) * colBlocks});
  }
  llvm::sort(ids);
  int64_t count = 0, cursor = INT64_MIN;
  for (auto [b, e] : ids) {
    b = std::max(b, cursor);
    if (e > b)
      count += e - b;
    cursor = std::max(cursor, e);
  }
  return count * layout.rows * layout.cols;
}

int64_t tessera::paddingPeriod(llvm::ArrayRef<int64_t> shape,
                               LayoutTile layout) {
  if (shape.empty() || layout.rows < 1 || layout.cols < 1)
    return 0;
  for (int64_t d : shape)
    if (d <= 0)
      return 0;
  // Rank 1: the one row's layout tiles are every `cols` elements. Rank 2: a
  // shift must keep the rows' layout-tile blocks (inLayoutTiles), so it is
  // whole blocks of layout.rows rows. Rank 3 and up: a step of dim 0 keeps
  // every other index, and the [rows, cols] planes with them; the boxes of
  // boxOf and paddedRunAsBoxes depend only on the indices below dim 0 and
  // on the differences along it.
  if (shape.size() == 1)
    return layout.cols;
  if (shape.size() == 2)
    return layout.rows * shape[1];
  int64_t step = 1;
  for (int64_t d : shape.drop_front())
    step *= d;
  return step;
}

int64_t tessera::paddedElementsOnTile(
    llvm::ArrayRef<int64_t> shape, LayoutTile layout,
    llvm::ArrayRef<std::pair<int64_t, int64_t>> intervals) {
  for (int64_t d : shape)
    if (d <= 0)
      return 0;
  // A tile keeps its part of a buffer densely (that is how the device holds
  // it). A part that is a box of the buffer is one block, stored in its
  // least-padded view.
  if (std::optional<llvm::SmallVector<int64_t, 6>> box =
          boxOf(shape, intervals))
    return paddedBoxElements(*box, layout);
  // Any other part is stored either as the boxes its runs are made of, or in
  // the buffer's own layout tiles, paying for each one it touches: whichever
  // takes fewer slots.
  int64_t asBoxes = 0;
  for (auto [begin, end] : intervals)
    if (end > begin)
      asBoxes += paddedRunAsBoxes(shape, layout, begin, end);
  return std::min(asBoxes, inLayoutTiles(shape, layout, intervals));
}
