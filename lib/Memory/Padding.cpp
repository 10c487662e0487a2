//===- Padding.cpp - layout-tile padding and matrix-unit fit --------------===//

#include "tessera/Memory/Padding.h"

#include "tessera/Target/TargetSchema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace tessera;
using namespace tessera::memory;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t tessera::memory::paddedElementsOnTile(
    llvm::ArrayRef<int64_t> shape, LayoutTile layout,
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

int64_t tessera::memory::elementBytes(llvm::StringRef dtype) {
  std::optional<int64_t> bytes = dtypeBytes(dtype);
  return bytes && *bytes > 0 ? *bytes : 1;
}
