//===- FoldQueueTest.cpp - copy folds on other threads --------------------===//
//
// A fold started on the FoldQueue gives the runs foldCopyPieces gives in
// place, whether a worker folded it or the caller did (over the pending
// budget); planBlockCopies is its gather and fold halves one after the
// other, and a gather's piece count bounds the runs its fold makes.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/FoldQueue.h"
#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace tessera;

namespace {

/// Pieces as a convolution's copies come: runs of tiles fanning in, out
/// and along diagonals, rows at a stride, shuffled.
std::vector<CopyPiece> randomPieces(std::mt19937_64 &rng, int64_t scale) {
  std::vector<CopyPiece> pieces;
  int64_t dstNext = 0;
  for (int pattern = 0, patterns = 1 + rng() % 3; pattern < patterns;
       ++pattern) {
    int64_t k = 1 + rng() % scale, len = 1 + rng() % 4, rows = 1 + rng() % 3;
    int64_t s0 = rng() % 64, d0 = rng() % 64, kind = rng() % 4;
    for (int64_t i = 0; i < k; ++i)
      for (int64_t row = 0; row < rows; ++row) {
        int64_t src = kind == 1 ? s0 : s0 + i;
        int64_t dst = kind == 0 ? d0 : kind == 3 ? rng() % 64 : d0 + i;
        pieces.push_back({src, dst, len, 8 * row + 2, dstNext});
        dstNext += len + rng() % 2;
      }
  }
  std::shuffle(pieces.begin(), pieces.end(), rng);
  return pieces;
}

TEST(FoldQueueTest, QueuedFoldsGiveTheRunsOfFoldsInPlace) {
  // On one worker and on three; with a pending budget small enough that
  // many folds are done by the caller instead.
  for (auto [threads, budget] : {std::pair<unsigned, size_t>{1, 64},
                                 {3, 64},
                                 {1, size_t(1) << 20},
                                 {3, size_t(1) << 20}}) {
    std::mt19937_64 rng(threads * 31 + budget);
    std::vector<std::vector<CopyPiece>> inputs;
    std::vector<FoldQueue::Ticket> tickets;
    std::vector<bool> strided;
    {
      FoldQueue queue(threads, budget);
      for (int c = 0; c < 200; ++c) {
        inputs.push_back(randomPieces(rng, c % 10 == 0 ? 600 : 24));
        strided.push_back(c % 2 == 0);
        tickets.push_back(queue.start(inputs.back(), strided.back()));
      }
      // Every other ticket is dropped unread: its fold still ends before
      // the queue does.
      for (size_t c = 1; c < tickets.size(); c += 2)
        tickets[c].reset();
      for (size_t c = 0; c < tickets.size(); c += 2) {
        const FoldQueue::Fold &fold = FoldQueue::wait(tickets[c]);
        EXPECT_TRUE(FoldQueue::done(tickets[c]));
        std::vector<CopyPiece> pieces = inputs[c];
        llvm::SmallVector<int64_t> strides;
        llvm::SmallVector<int64_t> runs =
            foldCopyPieces(pieces, strided[c] ? &strides : nullptr);
        EXPECT_EQ(llvm::ArrayRef(fold.runs), llvm::ArrayRef(runs))
            << "fold " << c << " on " << threads;
        EXPECT_EQ(llvm::ArrayRef(fold.strides), llvm::ArrayRef(strides))
            << "fold " << c << " on " << threads;
        EXPECT_TRUE(fold.pieces.empty()) << "pieces freed once folded";
      }
    }
  }
}

TEST(FoldQueueTest, GatherThenFoldIsPlanBlockCopies) {
  // A 6x4 source over three tiles, blocks with halos and a replica.
  llvm::SmallVector<int64_t> source = {0, 3, 8, 0};
  llvm::SmallVector<TileBlock> blocks = {
      {0, {Box{{0, 0}, {3, 4}}}},
      {1, {Box{{2, 0}, {5, 4}}}},
      {2, {Box{{0, 0}, {3, 4}}}}, // tile 0's window again: a replica
      {3, {Box{{4, 1}, {6, 3}}}},
  };
  std::optional<BlockCopyPlan> whole =
      planBlockCopies({6, 4}, source, blocks, 100, 100);
  ASSERT_TRUE(whole);
  std::optional<BlockCopyPieces> gathered =
      gatherBlockCopies({6, 4}, source, blocks, 100);
  ASSERT_TRUE(gathered);
  EXPECT_TRUE(gathered->plan.copies.empty());
  EXPECT_EQ(gathered->plan.intervals, whole->intervals);
  EXPECT_EQ(gathered->plan.numElements, whole->numElements);
  EXPECT_EQ(gathered->replicas.size(), 1u);
  int64_t bound = gathered->maxFoldedRuns();
  std::optional<BlockCopyPlan> folded = foldBlockCopies(*gathered, 100);
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->copies, whole->copies);
  EXPECT_EQ(folded->copyStrides, whole->copyStrides);
  EXPECT_EQ(folded->replicaCopies, whole->replicaCopies);
  EXPECT_LE(int64_t((folded->copies.size() + folded->replicaCopies.size()) / 8),
            bound);
  // The halo windows cut across source tiles: more pieces than blocks.
  EXPECT_GT(bound, 4);
  // Over the piece budget nothing is gathered; over the run budget
  // nothing is folded.
  EXPECT_FALSE(gatherBlockCopies({6, 4}, source, blocks, 2));
  EXPECT_FALSE(foldBlockCopies(*gathered, 1));
}

} // namespace
