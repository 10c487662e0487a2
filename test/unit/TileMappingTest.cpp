//===- TileMappingTest.cpp - #tile.mapping queries ------------------------===//

#include "tessera/Analysis/Tile/TensorMap.h"
#include "tessera/Dialect/Tile/IR/MappingTiles.h"
#include "tessera/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using tessera::tile::MappingAttr;
using tessera::tile::TileDialect;

namespace {

class TileMappingTest : public ::testing::Test {
protected:
  TileMappingTest() { context.loadDialect<TileDialect>(); }
  MappingAttr mapping(llvm::ArrayRef<int64_t> runs) {
    return MappingAttr::get(&context, runs);
  }
  MLIRContext context;
};

TEST_F(TileMappingTest, GrainRunCoversBufferExactly) {
  // 1,000 elements, grain 64: 15 full tiles and one of 40.
  MappingAttr m = mapping({0, 15, 64, 0, 15, 16, 40, 960});
  EXPECT_EQ(m.getNumMappedElements(), 1000);
  EXPECT_EQ(m.checkCovers(1000, 16), "");
  llvm::SmallVector<int64_t> perTile = m.elementsPerTile(16);
  EXPECT_EQ(perTile[0], 64);
  EXPECT_EQ(perTile[14], 64);
  EXPECT_EQ(perTile[15], 40);
  EXPECT_TRUE(m.holds(15, 960, 1000));
  EXPECT_FALSE(m.holds(15, 959, 961));
  EXPECT_TRUE(m.hasElementsOn(3));
  EXPECT_FALSE(m.hasElementsOn(16));
}

TEST_F(TileMappingTest, CoverageProblemsAreNamed) {
  EXPECT_EQ(mapping({0, 2, 4, 0}).checkCovers(16, 4),
            "elements [8, 16) are not mapped to any tile");
  EXPECT_EQ(mapping({0, 2, 4, 0, 2, 4, 4, 4}).checkCovers(12, 4),
            "element 4 is mapped twice (run 1)");
  EXPECT_EQ(mapping({0, 2, 4, 4}).checkCovers(12, 4),
            "elements [0, 4) are not mapped to any tile");
  EXPECT_EQ(mapping({0, 5, 2, 0}).checkCovers(10, 4),
            "mapping run 0 reaches tile 4 but the program has 4 tiles");
}

TEST_F(TileMappingTest, HoldsSpansAdjacentRunsOnOneTile) {
  // Tile 3 holds [0, 4) from one run and [4, 6) from another.
  MappingAttr m = mapping({3, 4, 4, 0, 3, 4, 2, 4, 0, 1, 2, 6});
  EXPECT_EQ(m.checkCovers(8, 4), "");
  EXPECT_TRUE(m.holds(3, 2, 6));
  EXPECT_FALSE(m.holds(3, 2, 7));
  EXPECT_EQ(m.elementsPerTile(4)[3], 6);
  int64_t intervals = 0;
  m.forEachInterval([&](int64_t tile, int64_t begin, int64_t end) {
    ++intervals;
    EXPECT_LT(begin, end);
    EXPECT_TRUE(m.holds(tile, begin, end));
  });
  EXPECT_EQ(intervals, 3);
}

} // namespace

TEST_F(TileMappingTest, TilesWithElementsAreThoseElementsPerTileCounts) {
  // tilesWithElements works on runs; it must name exactly the tiles that
  // elementsPerTile counts elements on, for runs in any order, overlapping,
  // touching, empty, of zero-length intervals, past the last tile, and with
  // negative lengths (counts that cancel).
  std::mt19937_64 rng(20261126);
  for (int trial = 0; trial < 2000; ++trial) {
    int64_t numTiles = 1 + rng() % 20;
    llvm::SmallVector<int64_t> runs;
    for (int64_t r = 0, n = rng() % 6; r < n; ++r) {
      int64_t first = rng() % (numTiles + 3);
      int64_t end = first + rng() % 6;
      int64_t perTile = static_cast<int64_t>(rng() % 5) - (rng() % 8 == 0);
      runs.append({first, end, perTile, static_cast<int64_t>(rng() % 50)});
    }
    MappingAttr m = mapping(runs);
    llvm::SmallVector<int64_t> perTile = m.elementsPerTile(numTiles);
    llvm::SmallVector<std::pair<int64_t, int64_t>> expected;
    for (int64_t t = 0; t < numTiles; ++t)
      if (perTile[t] > 0) {
        if (!expected.empty() && expected.back().second == t)
          expected.back().second = t + 1;
        else
          expected.push_back({t, t + 1});
      }
    EXPECT_EQ(tilesWithElements(m, numTiles), expected) << "trial " << trial;
  }
}

TEST_F(TileMappingTest, TensorMapTilesFromRunsMatchThePerTileCounts) {
  // Random mappings of 1-6 runs over 40 tiles: disjoint, touching,
  // sharing tiles (counts add up), past the program's tiles, or empty.
  // The tensor map's tiles from the runs must be the per-tile counts'.
  std::mt19937 rng(7);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int shared = 0, disjoint = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    llvm::SmallVector<int64_t> runs;
    std::vector<int> covering(50, 0);
    int64_t tile = pick(0, 3), element = 0;
    for (int64_t r = 0, n = pick(1, 6); r < n; ++r) {
      int64_t first = pick(0, 1) ? tile : pick(0, 44);
      int64_t end = first + pick(0, 8), each = pick(0, 2) ? 4 : pick(0, 5);
      runs.append({first, end, each, element});
      element += (end - first) * each;
      tile = end + pick(0, 1);
      for (int64_t t = first; t < end && t < 40; ++t)
        covering[t] += each > 0;
    }
    (llvm::any_of(covering, [](int c) { return c > 1; }) ? shared : disjoint)++;
    MappingAttr m = mapping(runs);
    llvm::SmallVector<int64_t> perTile = m.elementsPerTile(40);
    for (tessera::TensorMapFormat format :
         {tessera::TensorMapFormat::Runs, tessera::TensorMapFormat::Tiles})
      ASSERT_EQ(tessera::tensorTiles(m, 40, format).dump(),
                tessera::tensorTiles(perTile, format).dump())
          << "trial " << trial;
  }
  // Both paths were taken often.
  EXPECT_GT(shared, 200);
  EXPECT_GT(disjoint, 200);
}
