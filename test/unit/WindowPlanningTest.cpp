//===- WindowPlanningTest.cpp - halo windows and block copies -------------===//
//
// The input window of an output block (halo, padding, strides, dilations),
// box spans, diagonal folding of copy pieces (on one thread or several;
// forms left unfolded never change the runs kept) and replicated block
// plans.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"
#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "llvm/Support/Parallel.h"
#include "llvm/Support/Threading.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

using namespace tessera;

namespace {

using Range = std::pair<int64_t, int64_t>;

WindowDim dim(int64_t input, int64_t window, int64_t stride, int64_t padLow,
              int64_t padHigh, int64_t base = 1, int64_t windowDil = 1) {
  return {input, window, stride, padLow, padHigh, base, windowDil};
}

TEST(WindowPlanningTest, SamePaddedRowBlocksShareTwoHaloRows) {
  WindowDim d = dim(16, 3, 1, 1, 1);
  // Row -1 is padding: the first block starts at input row 0.
  EXPECT_EQ(windowInputRange(d, 0, 4), Range(0, 5));
  EXPECT_EQ(windowInputRange(d, 4, 8), Range(3, 9));
  // Row 16 is padding: the last block ends at the input's end.
  EXPECT_EQ(windowInputRange(d, 12, 16), Range(11, 16));
}

TEST(WindowPlanningTest, StridedWindowsShareOneRow) {
  WindowDim d = dim(16, 3, 2, 0, 1);
  EXPECT_EQ(windowInputRange(d, 0, 1), Range(0, 3));
  EXPECT_EQ(windowInputRange(d, 1, 2), Range(2, 5));
  EXPECT_EQ(windowInputRange(d, 7, 8), Range(14, 16));
  // A 1x1 stride-2 window reads every other row of its range.
  EXPECT_EQ(windowInputRange(dim(14, 1, 2, 0, 0), 0, 7), Range(0, 13));
}

TEST(WindowPlanningTest, NegativePaddingCrops) {
  EXPECT_EQ(windowInputRange(dim(8, 1, 1, -2, -2), 0, 2), Range(2, 4));
}

TEST(WindowPlanningTest, DilationsScaleTheWindow) {
  // Transposed convolution: input dilated by 2 (7 positions), padded by 2.
  WindowDim t = dim(4, 3, 1, 2, 2, /*base=*/2);
  EXPECT_EQ(windowInputRange(t, 0, 1), Range(0, 1));
  // Output 1 reads dilated positions -1..1: input 0 and the hole after it.
  EXPECT_EQ(windowInputRange(t, 1, 2), Range(0, 1));
  EXPECT_EQ(windowInputRange(t, 2, 3), Range(0, 2));
  EXPECT_EQ(windowInputRange(t, 0, 9), Range(0, 4));
  // Atrous: a 3-tap window dilated by 2 spans 5 rows.
  EXPECT_EQ(windowInputRange(dim(16, 3, 1, 2, 2, 1, 2), 4, 6), Range(2, 8));
}

TEST(WindowPlanningTest, BlockInPaddingReadsNothing) {
  Range r = windowInputRange(dim(4, 1, 1, 3, 0), 0, 2);
  EXPECT_GE(r.first, r.second);
}

TEST(WindowPlanningTest, BoxSpansAreRowMajorAndMaximal) {
  std::vector<Range> spans;
  auto collect = [&](int64_t o, int64_t n) { spans.push_back({o, n}); };
  // Rows 1..2 of each of 2 planes of 4x6: two spans of 12.
  forEachBoxSpan({2, 4, 6}, {0, 1, 0}, {2, 3, 6}, collect);
  EXPECT_EQ(spans, (std::vector<Range>{{6, 12}, {30, 12}}));
  EXPECT_EQ(boxSpanCount({2, 4, 6}, {0, 1, 0}, {2, 3, 6}), 2);
  spans.clear();
  forEachBoxSpan({2, 4, 6}, {0, 0, 0}, {2, 4, 6}, collect);
  EXPECT_EQ(spans, (std::vector<Range>{{0, 48}}));
  spans.clear();
  forEachBoxSpan({2, 4, 6}, {0, 0, 2}, {1, 2, 4}, collect);
  EXPECT_EQ(spans, (std::vector<Range>{{2, 2}, {8, 2}}));
  EXPECT_EQ(boxSpanCount({2, 4, 6}, {0, 0, 2}, {1, 2, 4}), 2);
  spans.clear();
  forEachBoxSpan({2, 4, 6}, {0, 2, 0}, {2, 2, 6}, collect);
  EXPECT_TRUE(spans.empty());
}

TEST(WindowPlanningTest, AdjacentGroupBoxesMerge) {
  llvm::SmallVector<Box> boxes = {
      {{0, 0, 0}, {1, 4, 2}}, {{0, 0, 2}, {1, 4, 4}}, {{0, 0, 6}, {1, 4, 8}}};
  mergeAdjacentBoxes(boxes);
  ASSERT_EQ(boxes.size(), 2u);
  EXPECT_EQ(boxes[0].hi[2], 4);
  EXPECT_EQ(boxes[1].lo[2], 6);
  EXPECT_EQ(boxes[0].numElements() + boxes[1].numElements(), 24);
}

TEST(WindowPlanningTest, SpansJoinIntoTileIntervals) {
  std::vector<std::array<int64_t, 3>> spans = {
      {8, 12, 1}, {0, 4, 0}, {4, 8, 0}, {12, 16, 0}};
  EXPECT_EQ(tileIntervals(spans), (llvm::SmallVector<std::array<int64_t, 3>>{
                                      {0, 0, 8}, {1, 8, 12}, {0, 12, 16}}));
}

TEST(WindowPlanningTest, DiagonalPiecesFoldIntoOneRun) {
  // Source tiles 0..3 each send their 4 elements to tiles 10..13.
  std::vector<CopyPiece> pieces;
  for (int64_t s = 3; s >= 0; --s)
    pieces.push_back({s, 10 + s, 4, 4 * s, 4 * s});
  EXPECT_EQ(foldCopyPieces(pieces),
            (llvm::SmallVector<int64_t>{0, 10, 4, 4, 0, 4, 0, 4}));
  // One tile to three: a run per destination (the source tile is fixed).
  std::vector<CopyPiece> fan = {
      {0, 1, 8, 0, 8}, {0, 2, 8, 0, 16}, {0, 3, 8, 0, 24}};
  EXPECT_EQ(foldCopyPieces(fan).size(), 3u * 8);
  // Strides change: the run stops there.
  std::vector<CopyPiece> uneven = {
      {0, 0, 2, 0, 0}, {1, 1, 2, 4, 2}, {2, 2, 2, 9, 4}};
  EXPECT_EQ(foldCopyPieces(uneven),
            (llvm::SmallVector<int64_t>{0, 0, 2, 2, 0, 4, 0, 2, 2, 2, 1, 2, 9,
                                        0, 4, 0}));
}

// The fold keys pieces by 32-bit fields when they fit and by 64-bit ones
// when an element offset does not (one 2^30 elements or more up):
// the same pieces far up a buffer fold into the same runs, shifted.
TEST(WindowPlanningTest, PiecesFarUpABufferFoldAlike) {
  constexpr int64_t kFar = int64_t(1) << 33;
  std::vector<CopyPiece> near, far;
  for (int64_t row = 0; row < 300; ++row) {
    CopyPiece p = {row / 2, 9 + row % 3, 2, 8 * row + 2, 2 * row};
    near.push_back(p);
    p.srcElement += kFar;
    p.dstElement += kFar;
    far.push_back(p);
  }
  for (bool strided : {false, true}) {
    std::vector<CopyPiece> a = near, b = far;
    llvm::SmallVector<int64_t> sa, sb;
    llvm::SmallVector<int64_t> ra = foldCopyPieces(a, strided ? &sa : nullptr);
    llvm::SmallVector<int64_t> rb = foldCopyPieces(b, strided ? &sb : nullptr);
    ASSERT_EQ(ra.size(), rb.size());
    ASSERT_FALSE(ra.empty());
    for (size_t i = 0; i < ra.size(); ++i)
      EXPECT_EQ(rb[i], ra[i] + (i % 8 == 4 || i % 8 == 6 ? kFar : 0))
          << "run field " << i;
    EXPECT_EQ(sa, sb);
  }
}

TEST(WindowPlanningTest, StridedPiecesFoldIntoOneRun) {
  // Columns 2..3 of an 8x8 row-major source, two rows per tile on tiles
  // 0..3 (16 elements each), into one block on tile 9: a piece per row.
  std::vector<CopyPiece> pieces;
  for (int64_t row = 0; row < 8; ++row)
    pieces.push_back({row / 2, 9, 2, 8 * row + 2, 2 * row});
  std::vector<CopyPiece> plain = pieces;
  EXPECT_EQ(foldCopyPieces(plain).size(), 8u * 8);
  // Strided: each tile's two rows are one copy (chunks of 2, 8 apart in the
  // source, 2 in the dest), and the four tiles one run into tile 9 (tile
  // steps 1 and 0).
  llvm::SmallVector<int64_t> strided;
  EXPECT_EQ(foldCopyPieces(pieces, &strided),
            (llvm::SmallVector<int64_t>{0, 9, 4, 4, 2, 16, 0, 4}));
  EXPECT_EQ(strided, (llvm::SmallVector<int64_t>{2, 8, 2, 1, 0}));
  // Nothing to gain: the plain form, no strides.
  std::vector<CopyPiece> diagonal = {{0, 1, 4, 0, 0}, {1, 2, 4, 4, 4}};
  EXPECT_EQ(foldCopyPieces(diagonal, &strided),
            (llvm::SmallVector<int64_t>{0, 1, 2, 4, 0, 4, 0, 4}));
  EXPECT_TRUE(strided.empty());
}

TEST(WindowPlanningTest, ManyPiecesFoldAlikeOnOneThreadOrSeveral) {
  // Enough pieces for the forms to be folded on several threads: columns
  // 2..3 of a 4096x8 source, two rows per tile on tiles 0..2047, into one
  // block on tile 3000, listed in a shuffled order.
  std::vector<CopyPiece> pieces;
  for (int64_t row = 0; row < 4096; ++row)
    pieces.push_back({row / 2, 3000, 2, 8 * row + 2, 2 * row});
  std::shuffle(pieces.begin(), pieces.end(), std::mt19937(3));
  auto fold = [&](unsigned threads) {
    llvm::parallel::strategy = llvm::hardware_concurrency(threads);
    std::vector<CopyPiece> copy = pieces;
    llvm::SmallVector<int64_t> strided;
    llvm::SmallVector<int64_t> runs = foldCopyPieces(copy, &strided);
    return std::make_tuple(runs, strided, copy);
  };
  llvm::ThreadPoolStrategy saved = llvm::parallel::strategy;
  auto [runs, strided, reordered] = fold(1);
  EXPECT_EQ(runs, (llvm::SmallVector<int64_t>{0, 3000, 2048, 4, 2, 16, 0, 4}));
  EXPECT_EQ(strided, (llvm::SmallVector<int64_t>{2, 8, 2, 1, 0}));
  auto [parallelRuns, parallelStrided, parallelReordered] = fold(2);
  llvm::parallel::strategy = saved;
  EXPECT_EQ(parallelRuns, runs);
  EXPECT_EQ(parallelStrided, strided);
  // The plain form's order is what callers see, on any thread count.
  ASSERT_EQ(parallelReordered.size(), reordered.size());
  for (size_t i = 0; i < reordered.size(); ++i)
    EXPECT_EQ(parallelReordered[i].srcElement, reordered[i].srcElement);
}

namespace {

/// Every element copy (source tile, source element, destination tile,
/// destination element) that `runs` make, sorted; `strided` as
/// foldCopyPieces gives it (empty: contiguous runs, tile steps 1).
std::vector<std::array<int64_t, 4>> copiesOf(llvm::ArrayRef<int64_t> runs,
                                             llvm::ArrayRef<int64_t> strided) {
  std::vector<std::array<int64_t, 4>> copies;
  for (size_t r = 0; r < runs.size() / 8; ++r) {
    const int64_t *x = runs.data() + 8 * r;
    int64_t chunk = x[3], srcChunk = 0, dstChunk = 0, srcStep = 1, dstStep = 1;
    if (!strided.empty()) {
      const int64_t *f = strided.data() + 5 * r;
      chunk = f[0], srcChunk = f[1], dstChunk = f[2], srcStep = f[3],
      dstStep = f[4];
    }
    for (int64_t k = 0; k < x[2]; ++k)
      for (int64_t e = 0; e < x[3]; ++e)
        copies.push_back({x[0] + k * srcStep,
                          x[4] + k * x[5] + e / chunk * srcChunk + e % chunk,
                          x[1] + k * dstStep,
                          x[6] + k * x[7] + e / chunk * dstChunk + e % chunk});
  }
  llvm::sort(copies);
  return copies;
}

} // namespace

TEST(WindowPlanningTest, FoldedFormsMoveEveryElementAndKeepTheFewestRuns) {
  // Random mixes of the patterns convolution copies take (tiles fanning
  // into one, one into many, diagonals, rows at a stride, stray pieces).
  // Whatever forms the fold skips, the runs move each element once, are
  // never more than the plain form's and, on a tie, are the plain form.
  std::mt19937_64 rng(1127);
  int stridedWins = 0, plainTies = 0;
  for (int c = 0; c < 1500; ++c) {
    std::vector<CopyPiece> pieces;
    int64_t dstNext = 0;
    for (int pattern = 0, patterns = 1 + rng() % 3; pattern < patterns;
         ++pattern) {
      int64_t k = 1 + rng() % 24, len = 1 + rng() % 4, rows = 1 + rng() % 3;
      int64_t s0 = rng() % 64, d0 = rng() % 64, gap = rng() % 3;
      int64_t kind = rng() % 4;
      for (int64_t i = 0; i < k; ++i)
        for (int64_t row = 0; row < rows; ++row) {
          int64_t src = kind == 1 ? s0 : s0 + i;
          int64_t dst = kind == 0 ? d0 : kind == 3 ? rng() % 64 : d0 + i;
          pieces.push_back(
              {src, dst, len, 8 * row + (kind == 3 ? 0 : 2), dstNext});
          dstNext += len + gap * (rng() % 2);
        }
    }
    std::shuffle(pieces.begin(), pieces.end(), rng);
    std::vector<CopyPiece> plainPieces = pieces;
    llvm::SmallVector<int64_t> plain = foldCopyPieces(plainPieces);
    std::vector<CopyPiece> stridedPieces = pieces;
    llvm::SmallVector<int64_t> strided;
    llvm::SmallVector<int64_t> runs = foldCopyPieces(stridedPieces, &strided);
    llvm::SmallVector<int64_t> onePerPiece;
    for (const CopyPiece &p : pieces)
      onePerPiece.append({p.srcTile, p.dstTile, 1, p.length, p.srcElement, 0,
                          p.dstElement, 0});
    EXPECT_EQ(copiesOf(runs, strided), copiesOf(onePerPiece, {}))
        << "case " << c;
    ASSERT_LE(runs.size(), plain.size()) << "case " << c;
    if (runs.size() == plain.size()) {
      ++plainTies;
      EXPECT_TRUE(strided.empty()) << "case " << c << ": a tie keeps plain";
    } else {
      ++stridedWins;
    }
  }
  // Both outcomes occur, or the checks above prove little.
  EXPECT_GT(stridedWins, 100);
  EXPECT_GT(plainTies, 100);
}

TEST(WindowPlanningTest, ReplicatedBlocksAreCopiedOnceFromTheSource) {
  // A 4x4 source, 8 elements per tile on tiles 0 and 1.
  llvm::SmallVector<int64_t> source = {0, 2, 8, 0};
  llvm::SmallVector<TileBlock> blocks = {
      {0, {Box{{0, 0}, {2, 4}}}},
      {1, {Box{{0, 0}, {2, 4}}}}, // same window: a replica of tile 0's
      {2, {Box{{1, 0}, {3, 4}}}}, // a halo window over both source tiles
  };
  std::optional<BlockCopyPlan> plan =
      planBlockCopies({4, 4}, source, blocks, 100, 100);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->numElements, 24);
  EXPECT_EQ(plan->numPrimaries, 2);
  EXPECT_EQ(compressIntervals(plan->intervals),
            (llvm::SmallVector<int64_t>{0, 3, 8, 0}));
  EXPECT_EQ(plan->replicaCopies,
            (llvm::SmallVector<int64_t>{0, 1, 1, 8, 0, 0, 8, 0}));
  // Tile 0's block in one copy; tile 2's rows 1 and 2 from both tiles.
  int64_t moved = 0;
  for (size_t i = 0; i < plan->copies.size(); i += 8)
    moved += plan->copies[i + 2] * plan->copies[i + 3];
  EXPECT_EQ(moved, 16);
  // Tile 2's rows come from consecutive source tiles into one: one strided
  // run (tile steps 1, 0) instead of two.
  EXPECT_EQ(plan->copies, (llvm::SmallVector<int64_t>{0, 0, 1, 8, 0, 0, 0, 0, 0,
                                                      2, 2, 4, 4, 4, 16, 4}));
  EXPECT_EQ(plan->copyStrides,
            (llvm::SmallVector<int64_t>{8, 0, 0, 1, 1, 4, 0, 0, 1, 0}));
  // Over the run budget: no plan.
  EXPECT_FALSE(planBlockCopies({4, 4}, source, blocks, 100, 2));
}

} // namespace
