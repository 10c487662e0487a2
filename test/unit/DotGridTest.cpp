//===- DotGridTest.cpp - dot blocks on a tile grid, and K in passes -------===//
//
// When no grid of one pass fits a tile, K is cut into the fewest passes
// (an exact divisor of K) whose grid fits the budget; a contraction that
// cannot be split, or whose K has no divisor to cut it by, gets none.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/DotGrid.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {

/// small-16's matrix unit and exchange (test/Lowering/Inputs/small-16.json).
const MatrixUnit &unit() {
  static MatrixUnit u{4, 4, 4, {"f32"}};
  return u;
}

DotShape shape(int64_t m, int64_t k, int64_t n, bool splitK = true) {
  return DotShape{1, m, n, k, true, true, true, splitK};
}

constexpr int64_t kTiles = 16, kBudget = 32768, kF32 = 4;

/// The one-pass grid's bytes on its fullest tile, as the lowering asks.
int64_t onePass(const DotShape &s) {
  std::string fitted;
  DotCosts c{unit(), 4, kF32};
  return chooseDotGrid(s, c, kTiles, kBudget, kF32, fitted)
      .bytesPerTile(kF32, kF32);
}

TEST(DotGridTest, LongContractionTakesTheFewestPassesThatFit) {
  DotShape s = shape(128, 384, 128);
  DotCosts c{unit(), 4, kF32};
  int64_t one = onePass(s);
  EXPECT_GT(one, 2 * kBudget); // more than the whole tile
  std::optional<DotPasses> p =
      chooseDotPasses(s, c, kTiles, kBudget, kF32, one);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->passes, 4);
  EXPECT_EQ(384 % p->passes, 0);
  EXPECT_LE(p->bytes, kBudget);
  // Fewer passes would not fit: 2 and 3 are divisors of 384 too.
  EXPECT_EQ(p->grid.bk * p->grid.pk, 384 / 4);
}

TEST(DotGridTest, NoPassesWithoutASplittableK) {
  DotCosts c{unit(), 4, kF32};
  DotShape s = shape(128, 384, 128, /*splitK=*/false);
  EXPECT_FALSE(chooseDotPasses(s, c, kTiles, kBudget, kF32, onePass(s)));
  // K = 1: nothing to cut.
  DotShape k1 = shape(128, 1, 128);
  EXPECT_FALSE(chooseDotPasses(k1, c, kTiles, kBudget, kF32, onePass(k1)));
}

TEST(DotGridTest, PrimeKFallsBackToItselfOrNone) {
  // 389 is prime: the only cut is 389 passes of 1, beyond the limit.
  DotCosts c{unit(), 4, kF32};
  DotShape s = shape(128, 389, 128);
  EXPECT_FALSE(chooseDotPasses(s, c, kTiles, kBudget, kF32, onePass(s)));
}

} // namespace
