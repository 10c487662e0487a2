//===- MemoryPaddingTest.cpp - layout-tile padding per tile ---------------===//

#include "tessera/Memory/Padding.h"
#include "tessera/Target/Layout.h"

#include "tessera/Target/Presets.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

using namespace tessera;
using namespace tessera::memory;

namespace {

int64_t elementsOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

TEST(MemoryPadding, WorkedExample) {
  // [3, 16] on [8, 128]: one layout tile, 1,024 slots for 48 elements.
  EXPECT_EQ(paddedElementsOnTile({3, 16}, {8, 128}, {{0, 48}}), 1024);
  EXPECT_EQ(paddedElementsOnTile({3, 16}, {1, 4}, {{0, 48}}), 48);
}

TEST(MemoryPadding, WholeBufferMatchesTheTargetRule) {
  // A buffer held whole by one tile pads exactly as paddedSize says, for
  // random shapes of rank 0 to 4 on random layout tiles.
  std::mt19937_64 rng(11);
  TargetDescription target;
  for (int c = 0; c < 3000; ++c) {
    target.layoutTile = {int64_t(1 + rng() % 9), int64_t(1 + rng() % 130)};
    llvm::SmallVector<int64_t> shape;
    for (size_t r = rng() % 5; r > 0; --r)
      shape.push_back(1 + rng() % 40);
    int64_t n = elementsOf(shape);
    EXPECT_EQ(paddedElementsOnTile(shape, target.layoutTile, {{0, n}}),
              target.paddedSize(shape, 4).paddedElements)
        << "case " << c;
  }
}

/// The classic rule: the shape's own two minor dims rounded up.
int64_t minorDimsRule(llvm::ArrayRef<int64_t> shape, LayoutTile layout) {
  int64_t rank = shape.size();
  int64_t cols = rank >= 1 ? shape[rank - 1] : 1;
  int64_t rows = rank >= 2 ? shape[rank - 2] : 1;
  int64_t outer = elementsOf(shape) / std::max<int64_t>(1, rows * cols);
  auto up = [](int64_t x, int64_t m) { return (x + m - 1) / m * m; };
  return outer * up(rows, layout.rows) * up(cols, layout.cols);
}

TEST(MemoryPadding, LayoutViews) {
  LayoutTile core8{8, 128};
  // An OIHW conv kernel's block pads nothing: [64, 512 x 3 x 3].
  LayoutView kernel = layoutViewOf({64, 512, 3, 3}, core8);
  EXPECT_EQ(kernel.paddedElements, 64 * 512 * 9);
  // An NCHW activation block: [8 x 1, 56 x 56] pads 3136 to 3200 columns.
  EXPECT_EQ(layoutViewOf({1, 8, 56, 56}, core8).paddedElements, 8 * 3200);
  // A minor dim of 2 goes to the rows with the 1363: [1363 x 2, 128].
  EXPECT_EQ(layoutViewOf({1363, 128, 2}, core8).paddedElements, 2728 * 128);
  // Dims may be reordered: [3 x 3, 64 x 64] is exact but for rows 9 -> 16;
  // [64, 64 x 3 x 3] pads 576 to 640 columns and is the least.
  EXPECT_EQ(layoutViewOf({64, 64, 3, 3}, core8).paddedElements, 64 * 640);
  EXPECT_EQ(layoutViewOf({3, 3, 8, 128}, core8).paddedElements, 9 * 1024);
  // Vectors and scalars fold into whole layout tiles.
  LayoutView vector = layoutViewOf({1, 512, 1}, core8);
  EXPECT_TRUE(vector.folded);
  EXPECT_EQ(vector.paddedElements, 1024);
  EXPECT_EQ(layoutViewOf({}, core8).paddedElements, 1024);
  EXPECT_EQ(layoutViewOf({1025}, core8).paddedElements, 2048);
  // The worked example keeps its figure; ties go towards dims in the
  // columns.
  LayoutView example = layoutViewOf({3, 16}, core8);
  EXPECT_EQ(example.paddedElements, 1024);
  EXPECT_EQ(example.parts[1], LayoutView::Cols);
  // Past six dims above 1 only the shape's own order is tried.
  EXPECT_EQ(layoutViewOf({2, 2, 2, 2, 2, 2, 2, 128}, core8).paddedElements,
            128 * 128);
  EXPECT_EQ(layoutViewOf({0, 7}, core8).paddedElements, 0);
}

TEST(MemoryPadding, ViewsNeverPadMoreThanTheMinorDims) {
  // The shape's own [outer, rows, cols] is one of the candidate views, so
  // the chosen one is never worse, and never below the element count.
  std::mt19937_64 rng(3);
  for (int c = 0; c < 3000; ++c) {
    LayoutTile layout{int64_t(1 + rng() % 9), int64_t(1 + rng() % 130)};
    llvm::SmallVector<int64_t> shape;
    for (size_t r = rng() % 5; r > 0; --r)
      shape.push_back(1 + rng() % 40);
    int64_t padded = layoutViewOf(shape, layout).paddedElements;
    EXPECT_LE(padded, minorDimsRule(shape, layout)) << "case " << c;
    EXPECT_GE(padded, elementsOf(shape)) << "case " << c;
  }
}

TEST(MemoryPadding, BoxesPadAsBlocksOfTheirOwn) {
  // A tile holding a box of the buffer, cut into its row intervals in any
  // order, pads as a buffer of the box's shape.
  std::mt19937_64 rng(7);
  for (int c = 0; c < 2000; ++c) {
    LayoutTile layout{int64_t(1 + rng() % 8), int64_t(1 + rng() % 16)};
    llvm::SmallVector<int64_t> shape = {int64_t(1 + rng() % 5),
                                        int64_t(1 + rng() % 20),
                                        int64_t(1 + rng() % 40)};
    llvm::SmallVector<int64_t> lo, extent;
    for (int64_t d : shape) {
      lo.push_back(rng() % d);
      extent.push_back(1 + rng() % (d - lo.back()));
    }
    llvm::SmallVector<std::pair<int64_t, int64_t>> rows;
    for (int64_t a = lo[0]; a < lo[0] + extent[0]; ++a)
      for (int64_t b = lo[1]; b < lo[1] + extent[1]; ++b) {
        int64_t begin = (a * shape[1] + b) * shape[2] + lo[2];
        rows.push_back({begin, begin + extent[2]});
      }
    std::shuffle(rows.begin(), rows.end(), rng);
    EXPECT_EQ(paddedElementsOnTile(shape, layout, rows),
              layoutViewOf(extent, layout).paddedElements)
        << "case " << c;
  }
}

TEST(MemoryPadding, RunsAreCutIntoBoxes) {
  // On a one-element layout tile a run's boxes hold exactly its elements:
  // they cover it without overlap.
  std::mt19937_64 rng(9);
  for (int c = 0; c < 3000; ++c) {
    llvm::SmallVector<int64_t> shape;
    for (size_t r = 1 + rng() % 4; r > 0; --r)
      shape.push_back(1 + rng() % 9);
    int64_t n = elementsOf(shape);
    int64_t b = rng() % n, e = b + 1 + rng() % (n - b);
    EXPECT_EQ(paddedRunAsBoxes(shape, {1, 1}, b, e), e - b) << "case " << c;
  }
  // 8 + 8/9 rows of a [64, 576] matrix on core-8: a [8, 576] box (8 x 640
  // slots) and a [512] vector (1,024), not the 10 layout tiles it touches.
  llvm::SmallVector<int64_t> matrix = {64, 576};
  EXPECT_EQ(paddedRunAsBoxes(matrix, {8, 128}, 0, 5120), 6144);
  EXPECT_EQ(paddedElementsOnTile(matrix, {8, 128}, {{0, 5120}}), 6144);
}

TEST(MemoryPadding, RaggedPiecesPayNoMoreThanTheLayoutTilesTheyTouch) {
  // A piece that is not a box is stored as its runs' boxes or in the
  // buffer's own layout tiles, never in more than the layout tiles any of
  // its elements falls in (brute force).
  std::mt19937_64 rng(5);
  int ragged = 0;
  for (int c = 0; c < 2000; ++c) {
    LayoutTile layout{int64_t(1 + rng() % 8), int64_t(1 + rng() % 16)};
    llvm::SmallVector<int64_t> shape = {int64_t(1 + rng() % 5),
                                        int64_t(2 + rng() % 20),
                                        int64_t(2 + rng() % 40)};
    int64_t n = elementsOf(shape), rows = shape[1], cols = shape[2];
    // One interval over more than a row, cut short at either end: never
    // a box (whole rows would be one).
    int64_t b = rng() % (n - cols), e = b + cols + 1 + rng() % (n - b - cols);
    if (b % cols == 0 && e % cols == 0)
      continue;
    std::set<std::tuple<int64_t, int64_t, int64_t>> touched;
    for (int64_t x = b; x < e; ++x)
      touched.insert({x / (rows * cols), (x / cols) % rows / layout.rows,
                      x % cols / layout.cols});
    // Split it into pieces given in any order: the same layout tiles.
    llvm::SmallVector<std::pair<int64_t, int64_t>> parts;
    for (int64_t begin = b; begin < e;) {
      int64_t end = std::min(e, begin + 1 + int64_t(rng() % 50));
      parts.push_back({begin, end});
      begin = end;
    }
    std::shuffle(parts.begin(), parts.end(), rng);
    int64_t expected = int64_t(touched.size()) * layout.rows * layout.cols;
    ++ragged;
    int64_t padded = paddedElementsOnTile(shape, layout, parts);
    EXPECT_LE(padded, expected) << "case " << c;
    EXPECT_GE(padded, e - b) << "case " << c;
  }
  EXPECT_GT(ragged, 1000);
}

TEST(MemoryPadding, ShiftsByThePeriodPadAlike) {
  // The liveness sizes a pattern of intervals once per tile pattern: any
  // part moved by a multiple of paddingPeriod (inside the buffer) must
  // take the same slots, boxes, runs and ragged pieces alike.
  std::mt19937_64 rng(11);
  int shifted = 0;
  for (int c = 0; c < 4000; ++c) {
    LayoutTile layout{int64_t(1 + rng() % 8), int64_t(1 + rng() % 16)};
    size_t rank = 1 + rng() % 4;
    llvm::SmallVector<int64_t> shape;
    for (size_t d = 0; d < rank; ++d)
      shape.push_back(int64_t(1 + rng() % (d == 0 ? 40 : 12)));
    int64_t n = elementsOf(shape);
    int64_t period = paddingPeriod(shape, layout);
    ASSERT_GT(period, 0) << "case " << c;
    // A few disjoint intervals in a window, in any order.
    int64_t window = 1 + rng() % n;
    llvm::SmallVector<std::pair<int64_t, int64_t>> parts;
    for (int64_t at = rng() % window; at < window && parts.size() < 4;) {
      int64_t end = std::min(window, at + 1 + int64_t(rng() % 30));
      parts.push_back({at, end});
      at = end + int64_t(rng() % 8);
    }
    if (parts.empty())
      continue;
    std::shuffle(parts.begin(), parts.end(), rng);
    int64_t room = (n - window) / period;
    if (room == 0)
      continue;
    int64_t by = (1 + int64_t(rng() % room)) * period;
    llvm::SmallVector<std::pair<int64_t, int64_t>> moved;
    for (auto [b, e] : parts)
      moved.push_back({b + by, e + by});
    ++shifted;
    EXPECT_EQ(paddedElementsOnTile(shape, layout, moved),
              paddedElementsOnTile(shape, layout, parts))
        << "case " << c << ", shift " << by;
  }
  EXPECT_GT(shifted, 1000);
  EXPECT_EQ(paddingPeriod({}, {8, 128}), 0);
  EXPECT_EQ(paddingPeriod({4, 0}, {8, 128}), 0);
}

TEST(MemoryPadding, MatrixUnitFit) {
  MatrixUnit unit{8, 128, 128, {"f32"}};
  MatmulFit f = matmulFit(1, 3, 16, 128, unit);
  EXPECT_EQ(f.m.describe(), "padded 3→8");
  EXPECT_EQ(f.n.describe(), "padded 16→128");
  EXPECT_EQ(f.k.describe(), "exact fit");
  EXPECT_EQ(f.usefulMacs(), 6144);
  EXPECT_EQ(f.paddedMacs(), 131072);
  EXPECT_NEAR(f.utilization(), 48.0 / 1024, 1e-12);
  EXPECT_EQ(matmulFit(2, 0, 4, 4, unit).utilization(), 1.0);
}

TEST(MemoryPadding, PresetsAlign) {
  for (llvm::StringRef name : presetNames()) {
    llvm::Expected<TargetDescription> t = loadPreset(name);
    ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
    EXPECT_GT(t->alignmentBytes, 0);
    EXPECT_EQ(t->alignmentBytes & (t->alignmentBytes - 1), 0) << name.str();
  }
}

} // namespace
