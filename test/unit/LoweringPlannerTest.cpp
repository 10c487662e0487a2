//===- LoweringPlannerTest.cpp - mapping planner and copy planning --------===//
//
// The planner's invariants, checked with the dialect's own verifier helper
// (MappingAttr::checkCovers): every element exactly once, nothing past the
// last tile, small tensors alone may sit on one tile, slices keep their
// source's layout.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/ElementCopies.h"
#include "tessera/Conversion/TGraphToTile/ExchangeRuns.h"
#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"
#include "tessera/Conversion/TGraphToTile/ReducePartials.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Target/Presets.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace tessera;
using tessera::tile::MappingAttr;

namespace {

class LoweringPlannerTest : public ::testing::Test {
protected:
  LoweringPlannerTest() { context.loadDialect<tile::TileDialect>(); }
  MappingAttr attr(llvm::ArrayRef<int64_t> runs) {
    return MappingAttr::get(&context, runs);
  }
  int64_t tilesHolding(const PlannedMapping &plan, int64_t numTiles) {
    int64_t n = 0;
    for (int64_t e : attr(plan.runs).elementsPerTile(numTiles))
      n += e > 0;
    return n;
  }
  mlir::MLIRContext context;
};

TEST_F(LoweringPlannerTest, LinearCoversEveryElementOnceOnBothPresets) {
  for (std::string name : {"tile-1472", "core-8"}) {
    llvm::Expected<TargetDescription> target = loadPreset(name);
    ASSERT_TRUE(static_cast<bool>(target))
        << llvm::toString(target.takeError());
    int64_t tiles = target->totalTiles();
    int64_t grain = mappingGrain(*target, "f32");
    for (int64_t n : {0, 1, 7, 16, 17, 100, 1000, 1471, 1472, 1473, 4096,
                      100003, 1 << 20}) {
      PlannedMapping plan = planLinear(n, tiles, grain);
      EXPECT_EQ(attr(plan.runs).checkCovers(n, tiles), "")
          << name << " n=" << n;
      EXPECT_FALSE(plan.why.empty());
      // Never a tensor of more than 16 elements on a single tile.
      if (n > kSingleTileMaxElements) {
        EXPECT_GE(tilesHolding(plan, tiles), 2) << name << " n=" << n;
      }
    }
  }
}

TEST_F(LoweringPlannerTest, LinearUsesTheGrain) {
  // 1,000 f32 with grain 64 over 16 tiles: 15 tiles of 64 and one of 40.
  PlannedMapping plan = planLinear(1000, 16, 64);
  EXPECT_EQ(plan.runs,
            (llvm::SmallVector<int64_t>{0, 15, 64, 0, 15, 16, 40, 960}));
  // core-8's 1,024-wide f32 vectors would put 100 elements on one tile: the
  // grain shrinks (and the reason says so).
  PlannedMapping small = planLinear(100, 8, 1024);
  EXPECT_EQ(attr(small.runs).checkCovers(100, 8), "");
  EXPECT_GE(tilesHolding(small, 8), 2);
  EXPECT_NE(small.why.find("reduced from 1024"), std::string::npos);
}

TEST_F(LoweringPlannerTest, LinearFromAnotherTileKeepsTheShares) {
  // The shares of the tile-0 mapping, moved: 1,000 with grain 64 take 16
  // of 21 tiles, here from tile 5 (and wrap when asked past the end).
  PlannedMapping plan = planLinear(1000, 21, 64, 5);
  EXPECT_EQ(plan.runs,
            (llvm::SmallVector<int64_t>{5, 20, 64, 0, 20, 21, 40, 960}));
  EXPECT_EQ(attr(plan.runs).checkCovers(1000, 21), "");
  EXPECT_NE(plan.why.find("from tile 5"), std::string::npos);
  PlannedMapping wrapped = planLinear(1000, 20, 64, 10);
  EXPECT_EQ(wrapped.runs, (llvm::SmallVector<int64_t>{10, 20, 64, 0, 0, 5, 64,
                                                      640, 5, 6, 40, 960}));
  EXPECT_EQ(attr(wrapped.runs).checkCovers(1000, 20), "");
  EXPECT_EQ(tilesHolding(wrapped, 20), 16);
  EXPECT_EQ(tilesUsed(wrapped.runs), 16);
  for (int64_t first = 0; first < 1472; first += 97)
    for (int64_t n : {1, 16, 17, 1000, 4096}) {
      PlannedMapping p = planLinear(n, 1472, 2, first);
      EXPECT_EQ(attr(p.runs).checkCovers(n, 1472), "")
          << "n=" << n << " first=" << first;
    }
}

TEST_F(LoweringPlannerTest, TileLoadPicksTheEmptiestTiles) {
  TileLoad load(8);
  // An empty chip: tile 0.
  EXPECT_EQ(load.leastLoadedStart(3), 0);
  // Tiles 0..3 hold 100 bytes each: a 2-tile tensor goes to 4..5.
  load.add({0, 4, 25, 0}, 4);
  EXPECT_EQ(load.on(3), 100);
  EXPECT_EQ(load.leastLoadedStart(2), 4);
  // A window never wraps past the last tile: 6..7 are emptiest for 2,
  // 5..7 for 3 (not 7, 0, 1).
  load.add({4, 5, 10, 0}, 4);
  EXPECT_EQ(load.leastLoadedStart(2), 5);
  EXPECT_EQ(load.leastLoadedStart(3), 5);
  // The whole chip starts on tile 0.
  EXPECT_EQ(load.leastLoadedStart(8), 0);
}

TEST_F(LoweringPlannerTest, TileLoadSumsEveryMappingAdded) {
  // Random mappings (runs partly past the last tile included), read back
  // after every few adds: each tile's bytes against a plain per-tile sum.
  std::mt19937_64 rng(67);
  for (int trial = 0; trial < 200; ++trial) {
    int64_t numTiles = 1 + rng() % 40;
    TileLoad load(numTiles);
    std::vector<int64_t> want(numTiles, 0);
    for (int add = 0; add < 12; ++add) {
      llvm::SmallVector<int64_t> runs;
      for (int r = 0, runsOf = 1 + rng() % 4; r < runsOf; ++r) {
        int64_t first = rng() % (numTiles + 3), tiles = rng() % 6;
        int64_t perTile = 1 + rng() % 9;
        runs.append({first, first + tiles, perTile, 0});
        for (int64_t t = first; t < first + tiles && t < numTiles; ++t)
          want[t] += perTile * 4;
      }
      load.add(runs, 4);
      if (rng() % 3 != 0)
        continue;
      for (int64_t t = 0; t < numTiles; ++t)
        ASSERT_EQ(load.on(t), want[t]) << "trial " << trial << " tile " << t;
    }
    for (int64_t t = 0; t < numTiles; ++t)
      ASSERT_EQ(load.on(t), want[t]) << "trial " << trial << " tile " << t;
  }
}

TEST_F(LoweringPlannerTest, ConstantOfSixteenPlusElementsIsNeverOnOneTile) {
  for (int64_t n = 17; n < 300; ++n) {
    EXPECT_GE(tilesHolding(planLinear(n, 1472, 2), 1472), 2) << n;
    EXPECT_GE(tilesHolding(planLinear(n, 8, 1024), 8), 2) << n;
  }
  // A one-tile target has no choice.
  EXPECT_EQ(planLinear(1000, 1, 2).runs,
            (llvm::SmallVector<int64_t>{0, 1, 1000, 0}));
}

TEST_F(LoweringPlannerTest, SameAsKeepsTheInputRuns) {
  PlannedMapping in = planLinear(1000, 16, 64);
  PlannedMapping out = planSameAs(in.runs, "operand 0");
  EXPECT_EQ(out.runs, in.runs);
  EXPECT_NE(out.why.find("operand 0"), std::string::npos);
}

TEST_F(LoweringPlannerTest, SliceOfTensorOver256TilesKeepsFourPerTile) {
  // 1,024 elements, 4 per tile over 256 tiles; the slice [512, 1024) follows
  // its source: tiles 128..255 keep 4 elements each, nothing moves tile.
  PlannedMapping src = planLinear(1024, 256, 4);
  ASSERT_EQ(src.runs, (llvm::SmallVector<int64_t>{0, 256, 4, 0}));
  std::optional<PlannedMapping> slice = planFollow(
      src.runs, "'x'", 512, [](int64_t i) { return 512 + i; }, 1024);
  ASSERT_TRUE(slice.has_value());
  EXPECT_EQ(slice->runs, (llvm::SmallVector<int64_t>{128, 256, 4, 0}));
  EXPECT_EQ(attr(slice->runs).checkCovers(512, 256), "");
  // A strided slice (every other element) keeps 2 per tile on every tile.
  std::optional<PlannedMapping> strided = planFollow(
      src.runs, "'x'", 512, [](int64_t i) { return 2 * i; }, 1024);
  ASSERT_TRUE(strided.has_value());
  EXPECT_EQ(strided->runs, (llvm::SmallVector<int64_t>{0, 256, 2, 0}));
}

TEST_F(LoweringPlannerTest, FollowGivesUpWhenTooFragmented) {
  PlannedMapping src = planLinear(1024, 256, 4);
  // A transpose of 32x32: neighbours come from different tiles.
  auto transposed = [](int64_t i) { return (i % 32) * 32 + i / 32; };
  EXPECT_FALSE(planFollow(src.runs, "'x'", 1024, transposed, 64).has_value());
}

TEST_F(LoweringPlannerTest, CompressIntervalsJoinsRegularTiles) {
  EXPECT_EQ(compressIntervals(
                {{{3, 0, 4}}, {{4, 4, 8}}, {{5, 8, 12}}, {{9, 12, 13}}}),
            (llvm::SmallVector<int64_t>{3, 6, 4, 0, 9, 10, 1, 12}));
}

TEST_F(LoweringPlannerTest, IdentityRelayoutIsOneRunPerRegularStretch) {
  // 1,024 elements from 4 per tile over 256 tiles to 8 per tile over 128:
  // every destination tile receives from two source tiles.
  PlannedMapping src = planLinear(1024, 256, 4), dst = planLinear(1024, 128, 8);
  auto copies = planElementCopies(
      {src.runs}, dst.runs, 1024,
      [](int64_t i) {
        return ElementSource{0, i};
      },
      1000);
  ASSERT_TRUE(copies.has_value());
  llvm::ArrayRef<int64_t> runs = (*copies)[0];
  // Copies alternate between tile 2k -> k and 2k+1 -> k; check that every
  // run reads held data, writes held places and moves each element once.
  int64_t moved = 0;
  MappingAttr s = attr(src.runs), d = attr(dst.runs);
  for (size_t r = 0; r < runs.size(); r += 8)
    for (int64_t k = 0; k < runs[r + 2]; ++k) {
      int64_t sb = runs[r + 4] + k * runs[r + 5];
      int64_t db = runs[r + 6] + k * runs[r + 7];
      EXPECT_TRUE(s.holds(runs[r] + k, sb, sb + runs[r + 3]));
      EXPECT_TRUE(d.holds(runs[r + 1] + k, db, db + runs[r + 3]));
      EXPECT_EQ(sb, db); // identity
      moved += runs[r + 3];
    }
  EXPECT_EQ(moved, 1024);
  // The same layout on both sides, shifted by one tile, is one run.
  llvm::SmallVector<int64_t> shifted = {1, 257, 4, 0};
  auto one = planElementCopies(
      {src.runs}, shifted, 1024,
      [](int64_t i) {
        return ElementSource{0, i};
      },
      1000);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ((*one)[0], (llvm::SmallVector<int64_t>{0, 1, 256, 4, 0, 4, 0, 4}));
}

TEST_F(LoweringPlannerTest, IdentityCopiesByIntervalMatchPerElementPlan) {
  // Interval-wise planning (any size) gives the per-element plan's runs.
  struct Case {
    int64_t n, srcTiles, srcGrain, dstTiles, dstGrain;
  };
  for (Case c : {Case{1024, 256, 4, 128, 8}, Case{1000, 1472, 2, 1472, 8},
                 Case{100003, 1472, 2, 8, 1024}, Case{17, 8, 16, 1472, 2}}) {
    PlannedMapping src = planLinear(c.n, c.srcTiles, c.srcGrain);
    PlannedMapping dst = planLinear(c.n, c.dstTiles, c.dstGrain);
    auto perElement = planElementCopies(
        {src.runs}, dst.runs, c.n,
        [](int64_t i) {
          return ElementSource{0, i};
        },
        1 << 20);
    ASSERT_TRUE(perElement.has_value());
    EXPECT_EQ(planIdentityCopies(src.runs, dst.runs), (*perElement)[0])
        << "n=" << c.n;
  }
  // 62.5M elements (bert's 2048x30522 logits) from grain 2 to grain 8.
  PlannedMapping big = planLinear(2048 * 30522, 1472, 2);
  PlannedMapping pred = planLinear(2048 * 30522, 1472, 8);
  llvm::SmallVector<int64_t> copies = planIdentityCopies(big.runs, pred.runs);
  int64_t moved = 0;
  for (size_t r = 0; r < copies.size(); r += 8)
    moved += copies[r + 2] * copies[r + 3];
  EXPECT_EQ(moved, 2048 * 30522);
  EXPECT_LT(copies.size() / 8, 4 * 1472u);
}

TEST_F(LoweringPlannerTest, CopyBudgetIsHonoured) {
  PlannedMapping src = planLinear(1024, 256, 4), dst = planLinear(1024, 128, 8);
  auto transposed = [](int64_t i) {
    return ElementSource{0, (i % 32) * 32 + i / 32};
  };
  EXPECT_FALSE(planElementCopies({src.runs}, dst.runs, 1024, transposed, 100));
  EXPECT_TRUE(planElementCopies({src.runs}, dst.runs, 1024, transposed, 2000));
}

TEST_F(LoweringPlannerTest, ViewCopiesMatchThePerElementPlan) {
  // A 32x24 -> 24x32 transpose, a broadcast (stride 0) and a reversal,
  // each as a view, against the same source function element by element.
  struct Case {
    llvm::SmallVector<int64_t> shape, strides;
    int64_t offset;
  };
  PlannedMapping src = planLinear(768, 37, 4);
  for (const Case &c : {Case{{24, 32}, {1, 24}, 0}, Case{{4, 768}, {0, 1}, 0},
                        Case{{768}, {-1}, 767}, Case{{6, 4}, {96, 2}, 5}}) {
    int64_t n = 1;
    for (int64_t size : c.shape)
      n *= size;
    PlannedMapping dst = planLinear(n, 23, 4);
    auto sourceOf = [&](int64_t i) {
      int64_t s = c.offset;
      for (int64_t d = c.shape.size() - 1; d >= 0; --d) {
        s += (i % c.shape[d]) * c.strides[d];
        i /= c.shape[d];
      }
      return ElementSource{0, s};
    };
    auto expected =
        planElementCopies({src.runs}, dst.runs, n, sourceOf, 1 << 20);
    auto view =
        viewCopyRuns(src.runs, dst.runs, c.shape, c.offset, c.strides, 1 << 20);
    ASSERT_TRUE(expected && view);
    EXPECT_EQ(*view, (*expected)[0]);
    EXPECT_FALSE(
        viewCopyRuns(src.runs, dst.runs, c.shape, c.offset, c.strides, 1));
  }
}

/// Random runs over [0, n): consecutive element ranges on random tiles of
/// `numTiles`, listed in a random order (a tile may hold several ranges).
static llvm::SmallVector<int64_t> randomRuns(std::mt19937_64 &rng, int64_t n,
                                             int64_t numTiles) {
  llvm::SmallVector<std::array<int64_t, 4>> runs;
  int64_t maxPerTile = 1 + rng() % 9;
  for (int64_t at = 0; at < n;) {
    int64_t perTile = std::min<int64_t>(n - at, 1 + rng() % maxPerTile);
    int64_t tiles = std::min<int64_t>((n - at) / perTile, 1 + rng() % 4);
    tiles = std::min(tiles, numTiles);
    int64_t first = rng() % (numTiles - tiles + 1);
    runs.push_back({first, first + tiles, perTile, at});
    at += tiles * perTile;
  }
  if (rng() % 2)
    std::shuffle(runs.begin(), runs.end(), rng);
  llvm::SmallVector<int64_t> flat;
  for (const auto &r : runs)
    flat.append(r.begin(), r.end());
  return flat;
}

TEST_F(LoweringPlannerTest, RandomViewCopiesMatchTheElementWalk) {
  // viewCopyRuns splits rows where intervals end; the element walk
  // (planElementCopies) is the reference, runs and budget alike, over
  // random views (transposes, broadcasts, reversals, slices, rows that
  // join), random mappings on both sides, sources that do not hold every
  // element read, and budgets from 1 run up.
  std::mt19937_64 rng(20261126);
  int64_t compared = 0, overBudget = 0, unmapped = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    int64_t rank = rng() % 5;
    llvm::SmallVector<int64_t> shape, strides;
    int64_t lo = 0, hi = 0;
    for (int64_t d = 0; d < rank; ++d) {
      shape.push_back(1 + rng() % 6);
      strides.push_back(static_cast<int64_t>(rng() % 13) - 4);
    }
    // Often a row-major block of a bigger source, whose rows join.
    if (rank > 0 && rng() % 3 == 0) {
      int64_t step = 1;
      for (int64_t d = rank - 1; d >= 0; --d) {
        strides[d] = step;
        step *= shape[d] + (rng() % 3 == 0 ? rng() % 3 : 0);
      }
    }
    for (int64_t d = 0; d < rank; ++d)
      (strides[d] < 0 ? lo : hi) += (shape[d] - 1) * strides[d];
    int64_t offset = -lo + rng() % 3;
    int64_t sourceSize = offset + hi + 1 + rng() % 3;
    // Now and then a source that stops short of what the view reads.
    if (rng() % 10 == 0)
      sourceSize = std::max<int64_t>(1, sourceSize - 1 - rng() % 3);
    int64_t n = 1;
    for (int64_t size : shape)
      n *= size;
    int64_t numTiles = 1 + rng() % 12;
    llvm::SmallVector<int64_t> srcRuns = randomRuns(rng, sourceSize, numTiles),
                               dstRuns = randomRuns(rng, n, numTiles);
    auto sourceOf = [&](int64_t i) {
      int64_t s = offset;
      for (int64_t d = rank - 1; d >= 0; --d) {
        s += (i % shape[d]) * strides[d];
        i /= shape[d];
      }
      return ElementSource{0, s};
    };
    int64_t maxRuns = rng() % 2 ? 1 << 20 : rng() % 8;
    auto expected = planElementCopies({srcRuns}, dstRuns, n, sourceOf, maxRuns);
    auto view = viewCopyRuns(srcRuns, dstRuns, shape, offset, strides, maxRuns);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " n=" << n);
    ASSERT_EQ(view.has_value(), expected.has_value());
    if (!expected) {
      if (planElementCopies({srcRuns}, dstRuns, n, sourceOf, 1 << 20))
        ++overBudget;
      else
        ++unmapped;
      continue;
    }
    EXPECT_EQ(*view, (*expected)[0]);
    ++compared;
  }
  // Each outcome was exercised.
  EXPECT_GT(compared, 1000);
  EXPECT_GT(overBudget, 100);
  EXPECT_GT(unmapped, 50);
}

TEST_F(LoweringPlannerTest, RandomSpanCopiesMatchTheElementWalk) {
  // planSpanCopies (pad and concatenate, a span per row piece) must give
  // the element walk's runs and budget verdicts: random segments of the
  // result from two sources or from nothing (padding), spans that end
  // anywhere inside a segment, random mappings, sources that stop short.
  std::mt19937_64 rng(20261127);
  int64_t compared = 0, failed = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    int64_t n = 1 + rng() % 200, numTiles = 1 + rng() % 12;
    struct Segment {
      int64_t begin, end;
      int source;
      int64_t element;
    };
    std::vector<Segment> segments;
    int64_t sizes[2] = {1 + static_cast<int64_t>(rng() % 150),
                        1 + static_cast<int64_t>(rng() % 150)};
    for (int64_t i = 0; i < n;) {
      int64_t len = std::min<int64_t>(n - i, 1 + rng() % 40);
      int source = static_cast<int>(rng() % 3) - 1;
      // Mostly inside the source; now and then past its end.
      int64_t element = source < 0
                            ? 0
                            : static_cast<int64_t>(rng() % sizes[source]) -
                                  (rng() % 8 == 0 ? 0 : len);
      segments.push_back({i, i + len, source, std::max<int64_t>(element, 0)});
      i += len;
    }
    auto segmentOf = [&](int64_t i) -> const Segment & {
      for (const Segment &s : segments)
        if (i < s.end)
          return s;
      return segments.back();
    };
    auto sourceOf = [&](int64_t i) {
      const Segment &s = segmentOf(i);
      return ElementSource{s.source, s.element + (i - s.begin)};
    };
    auto spanOf = [&](int64_t i) {
      const Segment &s = segmentOf(i);
      int64_t rest = s.end - i;
      return SourceSpan{s.source, s.element + (i - s.begin),
                        1 + static_cast<int64_t>(rng() % rest)};
    };
    llvm::SmallVector<int64_t> src0 = randomRuns(rng, sizes[0], numTiles),
                               src1 = randomRuns(rng, sizes[1], numTiles),
                               dst = randomRuns(rng, n, numTiles);
    int64_t maxRuns = rng() % 2 ? 1 << 20 : rng() % 8;
    auto expected = planElementCopies({src0, src1}, dst, n, sourceOf, maxRuns);
    auto spans = planSpanCopies({src0, src1}, dst, n, spanOf, maxRuns);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " n=" << n);
    ASSERT_EQ(spans.has_value(), expected.has_value());
    if (!expected) {
      ++failed;
      continue;
    }
    EXPECT_EQ(*spans, *expected);
    ++compared;
  }
  EXPECT_GT(compared, 500);
  EXPECT_GT(failed, 100);
}

TEST_F(LoweringPlannerTest, TileLookupFindsEachElementsInterval) {
  // TileLookup searches runs and divides; every element's tile and interval
  // must be those of the one interval holding it, whatever the run order,
  // with empty runs, runs of zero-length intervals (which hold nothing, and
  // must not hide the interval that begins where they do) and elements no
  // run maps.
  std::mt19937_64 rng(20261128);
  for (int trial = 0; trial < 500; ++trial) {
    llvm::SmallVector<std::array<int64_t, 4>> runList;
    int64_t element = 0, tile = 0;
    int64_t numRuns = 1 + rng() % 8;
    for (int64_t r = 0; r < numRuns; ++r) {
      element += rng() % 3; // a gap now and then: unmapped elements
      int64_t tiles = rng() % 5, perTile = rng() % 6 == 0 ? 0 : 1 + rng() % 7;
      runList.push_back({tile, tile + tiles, perTile, element});
      element += tiles * perTile;
      tile += tiles + rng() % 2;
    }
    std::shuffle(runList.begin(), runList.end(), rng);
    llvm::SmallVector<int64_t> runs;
    for (const auto &r : runList)
      runs.append(r.begin(), r.end());
    TileLookup lookup(runs);
    for (int64_t e = 0; e <= element; ++e) {
      int64_t wantTile = -1, wantBegin = 0, wantEnd = 0;
      for (const auto &r : runList)
        for (int64_t t = r[0]; t < r[1]; ++t) {
          int64_t b = r[3] + (t - r[0]) * r[2];
          if (e >= b && e < b + r[2])
            wantTile = t, wantBegin = b, wantEnd = b + r[2];
        }
      int64_t gotTile = -7, gotBegin = -7, gotEnd = -7;
      bool found = lookup.locate(e, gotTile, gotBegin, gotEnd);
      SCOPED_TRACE(::testing::Message()
                   << "trial " << trial << " element " << e);
      ASSERT_EQ(found, wantTile >= 0);
      EXPECT_EQ(lookup.tileOf(e), wantTile);
      if (!found)
        continue;
      EXPECT_EQ(gotTile, wantTile);
      EXPECT_EQ(gotBegin, wantBegin);
      EXPECT_EQ(gotEnd, wantEnd);
      EXPECT_EQ(lookup.intervalEnd(e), wantEnd);
    }
  }
}

TEST_F(LoweringPlannerTest, ViewCopiesOfLongRowsMatchTheElementWalk) {
  // Blocks of a row-major matrix over 1,472 tiles (a dot operand's view):
  // long rows that split at the tiles' ends.
  PlannedMapping src = planLinear(96 * 200, 1472, 2, 300);
  for (int64_t grain : {1, 2, 8, 64}) {
    llvm::SmallVector<int64_t> shape = {3, 32, 40}, strides = {40, 200, 1};
    PlannedMapping dst = planLinear(3 * 32 * 40, 1472, grain);
    auto sourceOf = [&](int64_t i) {
      return ElementSource{0,
                           17 + (i / 1280) * 40 + (i / 40 % 32) * 200 + i % 40};
    };
    auto expected =
        planElementCopies({src.runs}, dst.runs, 3840, sourceOf, 1 << 20);
    auto view = viewCopyRuns(src.runs, dst.runs, shape, 17, strides, 1 << 20);
    ASSERT_TRUE(expected && view);
    EXPECT_EQ(*view, (*expected)[0]) << "grain " << grain;
  }
}

/// Each tile's outputs of a reduction in first-reached order, element by
/// element: the reference for partialOutputsPerTile.
static llvm::SmallVector<std::vector<int64_t>>
outputsByElementWalk(llvm::ArrayRef<int64_t> runs,
                     llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<bool> reduced,
                     llvm::ArrayRef<int64_t> outStrides, int64_t numTiles) {
  int64_t rank = shape.size(), n = 1, kept = outStrides.size();
  for (int64_t size : shape)
    n *= size;
  TileLookup lookup(runs);
  llvm::SmallVector<std::vector<int64_t>> expected(numTiles);
  for (int64_t i = 0; i < n; ++i) {
    int64_t o = 0, rest = i;
    for (int64_t d = rank - 1, k = kept - 1; d >= 0; --d) {
      if (!reduced[d])
        o += (rest % shape[d]) * outStrides[k--];
      rest /= shape[d];
    }
    std::vector<int64_t> &mine = expected[lookup.tileOf(i)];
    if (std::find(mine.begin(), mine.end(), o) == mine.end())
      mine.push_back(o);
  }
  return expected;
}

/// partialOutputsPerTile's outputs, tile by tile, against the element walk.
static void expectOutputsOfElementWalk(llvm::ArrayRef<int64_t> runs,
                                       llvm::ArrayRef<int64_t> shape,
                                       llvm::ArrayRef<bool> reduced,
                                       llvm::ArrayRef<int64_t> outStrides,
                                       int64_t numTiles) {
  auto outputs =
      partialOutputsPerTile(runs, shape, reduced, outStrides, numTiles);
  ASSERT_TRUE(outputs.has_value());
  // The listed tiles: ascending, on the chip, each with outputs.
  ASSERT_EQ(outputs->firstOf.size(), outputs->tiles.size() + 1);
  for (size_t k = 0; k < outputs->numListed(); ++k) {
    ASSERT_TRUE(outputs->tiles[k] >= 0 && outputs->tiles[k] < numTiles);
    ASSERT_TRUE(k == 0 || outputs->tiles[k - 1] < outputs->tiles[k]);
    ASSERT_FALSE(outputs->ofListed(k).empty());
  }
  llvm::SmallVector<std::vector<int64_t>> expected =
      outputsByElementWalk(runs, shape, reduced, outStrides, numTiles);
  for (int64_t t = 0; t < numTiles; ++t)
    ASSERT_EQ(
        std::vector<int64_t>(outputs->of(t).begin(), outputs->of(t).end()),
        expected[t])
        << "tile " << t;
}

TEST_F(LoweringPlannerTest, ReducePartialsMatchAnElementWalk) {
  // Block by block against element by element: random shapes, reduced
  // dimensions and input mappings; each tile's outputs in first-reached
  // order, then the gathered slots against a plain sort by (owner, output,
  // tile).
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 2000; ++trial) {
    int64_t rank = rng() % 5, numTiles = 1 + rng() % 12, n = 1;
    llvm::SmallVector<int64_t> shape, keptShape;
    llvm::SmallVector<bool> reduced;
    for (int64_t d = 0; d < rank; ++d) {
      shape.push_back(1 + rng() % 6);
      reduced.push_back(rng() % 2);
      n *= shape.back();
      if (!reduced.back())
        keptShape.push_back(shape.back());
    }
    llvm::SmallVector<int64_t> outStrides(keptShape.size(), 1);
    for (int64_t k = static_cast<int64_t>(keptShape.size()) - 2; k >= 0; --k)
      outStrides[k] = outStrides[k + 1] * keptShape[k + 1];
    int64_t nOut = 1;
    for (int64_t size : keptShape)
      nOut *= size;
    llvm::SmallVector<int64_t> runs = randomRuns(rng, n, numTiles);
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    expectOutputsOfElementWalk(runs, shape, reduced, outStrides, numTiles);
    if (HasFatalFailure())
      return;
    auto outputs =
        partialOutputsPerTile(runs, shape, reduced, outStrides, numTiles);
    llvm::SmallVector<std::vector<int64_t>> expected =
        outputsByElementWalk(runs, shape, reduced, outStrides, numTiles);
    // Owners: any tile, several outputs each.
    std::vector<int64_t> ownerOf(nOut);
    for (int64_t &owner : ownerOf)
      owner = rng() % numTiles;
    std::vector<GatheredSlot> want;
    int64_t partial = 0;
    for (int64_t t = 0; t < numTiles; ++t)
      for (int64_t o : expected[t])
        want.push_back({ownerOf[o], o, t, partial++});
    std::sort(want.begin(), want.end(), [](const auto &a, const auto &b) {
      return std::tie(a.owner, a.output, a.tile) <
             std::tie(b.owner, b.output, b.tile);
    });
    std::vector<GatheredSlot> got = orderGatheredSlots(*outputs, ownerOf);
    ASSERT_EQ(got.size(), want.size());
    for (size_t g = 0; g < got.size(); ++g) {
      EXPECT_EQ(got[g].owner, want[g].owner);
      EXPECT_EQ(got[g].output, want[g].output);
      EXPECT_EQ(got[g].tile, want[g].tile);
      EXPECT_EQ(got[g].partial, want[g].partial);
    }
  }
  // A mapping with a gap or past the tiles is refused.
  EXPECT_FALSE(
      partialOutputsPerTile({0, 1, 4, 0, 1, 2, 4, 5}, {9}, {true}, {}, 2));
  EXPECT_FALSE(partialOutputsPerTile({0, 3, 3, 0}, {9}, {true}, {}, 2));
}

TEST_F(LoweringPlannerTest, ReducePartialsOfColumnBlocksMatchAnElementWalk) {
  // A sum over the leading dimensions (a bias gradient) of a matrix whose
  // tiles hold column blocks, row after row: each tile reaches its block's
  // outputs on the first row and none after. Blocks of uneven widths, a
  // block that moves by a column every few rows, rows spread over the
  // leading dimensions of a rank-3 shape, and a kept middle dimension
  // (outputs a stride apart).
  for (auto [rows, cols, width, drift] : {std::array<int64_t, 4>{40, 23, 5, 0},
                                          {40, 23, 5, 3},
                                          {12, 7, 3, 0},
                                          {64, 30, 30, 0}}) {
    SCOPED_TRACE(::testing::Message() << rows << "x" << cols << " blocks of "
                                      << width << ", drift " << drift);
    int64_t blocks = (cols + width - 1) / width;
    llvm::SmallVector<int64_t> runs;
    for (int64_t r = 0; r < rows; ++r) {
      // Column c of row r on tile (c + shift) / width (the last block may
      // be narrower), shifted by a column every `drift` rows.
      int64_t shift = drift ? (r / drift) % width : 0;
      for (int64_t c = 0; c < cols;) {
        int64_t block = (c + shift) / width;
        int64_t end = std::min(cols, (block + 1) * width - shift);
        runs.append({block, block + 1, end - c, r * cols + c});
        c = end;
      }
    }
    int64_t numTiles = blocks + 1;
    expectOutputsOfElementWalk(runs, {rows, cols}, {true, false}, {1},
                               numTiles);
    expectOutputsOfElementWalk(runs, {4, rows / 4, cols}, {true, true, false},
                               {1}, numTiles);
    expectOutputsOfElementWalk(runs, {4, rows / 4, cols}, {true, false, false},
                               {cols, 1}, numTiles);
    expectOutputsOfElementWalk(runs, {4, rows / 4, cols}, {false, true, false},
                               {cols, 1}, numTiles);
  }
}

} // namespace
