//===- MemoryPaddingTest.cpp - layout-tile padding per tile ---------------===//

#include "tessera/Memory/Padding.h"

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

TEST(MemoryPadding, SplitsCountEveryLayoutTileOnce) {
  // Cutting a buffer into intervals on one tile (any order, adjacent)
  // touches the same layout tiles as the whole; across tiles, each part
  // pays for the layout tiles it touches.
  std::mt19937_64 rng(5);
  for (int c = 0; c < 2000; ++c) {
    LayoutTile layout{int64_t(1 + rng() % 8), int64_t(1 + rng() % 16)};
    llvm::SmallVector<int64_t> shape = {int64_t(1 + rng() % 5),
                                        int64_t(1 + rng() % 20),
                                        int64_t(1 + rng() % 40)};
    int64_t n = elementsOf(shape);
    llvm::SmallVector<std::pair<int64_t, int64_t>> parts;
    for (int64_t begin = 0; begin < n;) {
      int64_t end = std::min(n, begin + 1 + int64_t(rng() % 50));
      parts.push_back({begin, end});
      begin = end;
    }
    std::shuffle(parts.begin(), parts.end(), rng);
    int64_t whole = paddedElementsOnTile(shape, layout, {{0, n}});
    EXPECT_EQ(paddedElementsOnTile(shape, layout, parts), whole);
    int64_t separately = 0;
    for (auto part : parts)
      separately += paddedElementsOnTile(shape, layout, {part});
    EXPECT_GE(separately, whole);
    // Brute force: the distinct layout tiles the elements fall in.
    int64_t rows = shape[1], cols = shape[2];
    std::set<std::tuple<int64_t, int64_t, int64_t>> touched;
    for (int64_t e = 0; e < n; ++e)
      touched.insert({e / (rows * cols), (e / cols) % rows / layout.rows,
                      e % cols / layout.cols});
    auto [b, e] = parts.front();
    std::set<std::tuple<int64_t, int64_t, int64_t>> mine;
    for (int64_t x = b; x < e; ++x)
      mine.insert({x / (rows * cols), (x / cols) % rows / layout.rows,
                   x % cols / layout.cols});
    EXPECT_EQ(paddedElementsOnTile(shape, layout, {parts.front()}),
              int64_t(mine.size()) * layout.rows * layout.cols);
    EXPECT_EQ(whole, int64_t(touched.size()) * layout.rows * layout.cols);
  }
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
