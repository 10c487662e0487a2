//===- IndexedLayoutTest.cpp - layouts for ops indexed at run time --------===//
//
// Positions of a tensor with some dims whole per tile, mappings built from a
// position -> tile assignment, the in-place test on an existing mapping, and
// the exchange runs that replicate an index buffer (simulated copy by copy).
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <random>

using namespace tessera;

namespace {

TEST(IndexedLayoutTest, WindowedDimsAreThoseTheWindowDoesNotSpan) {
  // An embedding lookup's [1, 64] slice of a [1000, 64] table moves in dim 0.
  EXPECT_EQ(windowedDims({1000, 64}, {1, 64}), (llvm::SmallVector<int64_t>{0}));
  EXPECT_EQ(windowedDims({4, 1, 8}, {1, 1, 2}),
            (llvm::SmallVector<int64_t>{0, 2}));
  EXPECT_TRUE(windowedDims({4, 8}, {4, 8}).empty());
}

TEST(IndexedLayoutTest, PositionsSkipWholeDims) {
  WholeDimSplit split({4, 3, 5}, {1});
  EXPECT_EQ(split.numPositions(), 20);
  EXPECT_EQ(split.wholeExtent(), 3);
  EXPECT_EQ(split.positionOf({2, 1, 4}), 14);
  EXPECT_EQ(split.positionOf({2, 0, 4}), 14);
  // Element by element, the same as from coordinates.
  for (int64_t e = 0; e < 60; ++e)
    EXPECT_EQ(split.positionOfElement(e),
              split.positionOf({e / 15, (e / 5) % 3, e % 5}));
}

TEST(IndexedLayoutTest, PositionTilesAcceptsOnlyWholeRowsPerTile) {
  WholeDimSplit rows({4, 6}, {1});
  // 6 per tile: each row on one tile.
  auto tiles = positionTiles({0, 4, 6, 0}, rows);
  ASSERT_TRUE(tiles.has_value());
  EXPECT_EQ(*tiles, (llvm::SmallVector<int64_t>{0, 1, 2, 3}));
  // 4 per tile: row 0 is on tiles 0 and 1.
  EXPECT_FALSE(positionTiles({0, 6, 4, 0}, rows).has_value());
}

TEST(IndexedLayoutTest, RunsForPositionsSplitsColumns) {
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect>();
  // [3, 4] with rows whole: the 4 columns are positions, 2 per tile.
  WholeDimSplit split({3, 4}, {0});
  llvm::SmallVector<int64_t> tileOf = {0, 0, 1, 1};
  auto runs = runsForPositions({3, 4}, split.strides(), tileOf, 100);
  ASSERT_TRUE(runs.has_value());
  EXPECT_EQ(*runs,
            (llvm::SmallVector<int64_t>{0, 2, 2, 0, 0, 2, 2, 4, 0, 2, 2, 8}));
  EXPECT_EQ(tile::MappingAttr::get(&context, *runs).checkCovers(12, 2), "");
  TileLookup lookup(*runs);
  for (int64_t e = 0; e < 12; ++e)
    EXPECT_EQ(lookup.tileOf(e), tileOf[e % 4]) << "element " << e;
  // Six intervals are needed; a budget of five gives up.
  EXPECT_FALSE(runsForPositions({3, 4}, split.strides(), tileOf, 5));
  // Another buffer's own strides: a [2, 4] result whose dim 1 is the column.
  auto result = runsForPositions({2, 4}, {0, 1}, tileOf, 100);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(*result, (llvm::SmallVector<int64_t>{0, 2, 2, 0, 0, 2, 2, 4}));
}

TEST(IndexedLayoutTest, RunsForPositionsMatchesAnElementWalk) {
  // Rows whose positions advance by 0, 1 or more, on chunked and scattered
  // assignments, against the per-element definition: consecutive elements
  // on one tile form an interval.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int64_t rank = 1 + rng() % 3;
    llvm::SmallVector<int64_t> shape, whole;
    for (int64_t d = 0; d < rank; ++d) {
      shape.push_back(1 + rng() % 6);
      if (rng() % 2)
        whole.push_back(d);
    }
    WholeDimSplit split(shape, whole);
    int64_t positions = split.numPositions();
    llvm::SmallVector<int64_t> tileOf(positions);
    int64_t chunk = 1 + rng() % 4;
    bool scattered = rng() % 3 == 0;
    for (int64_t p = 0; p < positions; ++p)
      tileOf[p] = scattered ? int64_t(rng() % 3) : p / chunk;
    llvm::SmallVector<std::array<int64_t, 3>> expected;
    int64_t elements = 1;
    for (int64_t size : shape)
      elements *= size;
    for (int64_t e = 0; e < elements; ++e) {
      int64_t t = tileOf[split.positionOfElement(e)];
      if (!expected.empty() && expected.back()[0] == t)
        expected.back()[2] = e + 1;
      else
        expected.push_back({t, e, e + 1});
    }
    int64_t needed = expected.size();
    auto runs = runsForPositions(shape, split.strides(), tileOf, needed);
    ASSERT_TRUE(runs.has_value()) << "trial " << trial;
    EXPECT_EQ(*runs, compressIntervals(expected)) << "trial " << trial;
    // One interval short of what the mapping needs: nullopt.
    EXPECT_FALSE(runsForPositions(shape, split.strides(), tileOf, needed - 1))
        << "trial " << trial;
  }
}

/// Applies replicate copies and checks each destination copy is complete,
/// read from the tile holding it and written to its own tile.
static void checkReplication(llvm::ArrayRef<int64_t> sourceRuns, int64_t n,
                             llvm::ArrayRef<int64_t> destTiles,
                             llvm::ArrayRef<int64_t> copies) {
  TileLookup source(sourceRuns);
  std::vector<int64_t> written(n * destTiles.size(), -1);
  ASSERT_EQ(copies.size() % 8, 0u);
  for (size_t r = 0; r < copies.size(); r += 8)
    for (int64_t k = 0; k < copies[r + 2]; ++k)
      for (int64_t i = 0; i < copies[r + 3]; ++i) {
        int64_t src = copies[r + 4] + k * copies[r + 5] + i;
        int64_t dst = copies[r + 6] + k * copies[r + 7] + i;
        ASSERT_EQ(source.tileOf(src), copies[r] + k);
        ASSERT_LT(dst, int64_t(written.size()));
        ASSERT_EQ(destTiles[dst / n], copies[r + 1] + k);
        ASSERT_EQ(written[dst], -1) << "element " << dst << " written twice";
        written[dst] = src;
      }
  for (size_t d = 0; d < written.size(); ++d)
    ASSERT_EQ(written[d], int64_t(d % n)) << "destination element " << d;
}

TEST(IndexedLayoutTest, ReplicateFoldsAlongDiagonals) {
  // 128 indices, 2 per tile over 64 tiles, onto 100 consecutive tiles.
  llvm::SmallVector<int64_t> source = {0, 64, 2, 0};
  llvm::SmallVector<int64_t> dest;
  for (int64_t t = 0; t < 100; ++t)
    dest.push_back(t);
  auto copies = planReplicateCopies(source, 128, dest);
  checkReplication(source, 128, dest, copies);
  // One run per diagonal: 64 + 100 - 1, not 64 x 100.
  EXPECT_EQ(copies.size() / 8, 163u);
}

TEST(IndexedLayoutTest, ReplicateHandlesIrregularSourcesAndDestinations) {
  // A ragged source (3 per tile, then 1) onto scattered tiles.
  llvm::SmallVector<int64_t> source = {0, 3, 3, 0, 3, 4, 1, 9};
  llvm::SmallVector<int64_t> dest = {2, 5, 6, 7, 11};
  checkReplication(source, 10, dest, planReplicateCopies(source, 10, dest));
  // A scalar on one tile: one run per destination.
  auto scalar = planReplicateCopies({4, 5, 1, 0}, 1, dest);
  checkReplication({4, 5, 1, 0}, 1, dest, scalar);
  EXPECT_EQ(scalar.size() / 8, dest.size());
}

} // namespace
