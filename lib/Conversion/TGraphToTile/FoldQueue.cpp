//===- FoldQueue.cpp - copy folds on other threads ------------------------===//

#include "tessera/Conversion/TGraphToTile/FoldQueue.h"

#include <cassert>
#include <chrono>

using namespace tessera;

FoldQueue::FoldQueue(unsigned threads, size_t maxPendingPieces)
    : pool(llvm::hardware_concurrency(threads)),
      maxPendingPieces(maxPendingPieces) {}

FoldQueue::~FoldQueue() { pool.wait(); }

FoldQueue::Ticket FoldQueue::start(std::vector<CopyPiece> pieces,
                                   bool strided) {
  assert(!pieces.empty() && "a fold of no pieces has no exchange");
  size_t n = pieces.size();
  while (!pending.empty() && done(pending.front().first)) {
    pendingPieces -= pending.front().second;
    pending.pop_front();
  }
  auto fold = std::make_shared<Fold>();
  fold->pieces = std::move(pieces);
  fold->strided = strided;
  // Over the budget this thread folds it: the lowering makes pieces faster
  // than they fold, and a model's pieces together are far more than one
  // convolution's.
  if (!pending.empty() && pendingPieces + n > maxPendingPieces) {
    run(*fold);
    std::promise<void> ready;
    ready.set_value();
    fold->done = ready.get_future().share();
    return fold;
  }
  // The task holds a plain pointer: the fold's future keeps the task, so
  // a ticket in it would keep the fold forever. `pending` keeps the fold
  // until the task is seen done (the destructor waits for all first).
  Fold *f = fold.get();
  fold->done = pool.async([f] { run(*f); });
  pending.emplace_back(fold, n);
  pendingPieces += n;
  return fold;
}

void FoldQueue::run(Fold &fold) {
  llvm::SmallVector<int64_t> runs, strides;
  runs = foldCopyPieces(fold.pieces, fold.strided ? &strides : nullptr);
  // Kept until the lowering takes them, perhaps after many more folds: at
  // their size, not the run per piece the fold reserved.
  fold.runs.assign(runs.begin(), runs.end());
  fold.strides.assign(strides.begin(), strides.end());
  // Only the runs are read from here on.
  fold.pieces = std::vector<CopyPiece>();
}

FoldQueue::Fold &FoldQueue::wait(const Ticket &ticket) {
  ticket->done.wait();
  return *ticket;
}

bool FoldQueue::done(const Ticket &ticket) {
  return ticket->done.wait_for(std::chrono::seconds(0)) ==
         std::future_status::ready;
}
