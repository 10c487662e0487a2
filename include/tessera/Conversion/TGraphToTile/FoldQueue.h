//===- FoldQueue.h - copy folds on other threads ----------------*- C++ -*-===//
//
// Folding a convolution's copy pieces into exchange runs (foldCopyPieces)
// is most of the time its lowering takes, and nothing but the pieces goes
// into it: the rest of the lowering needs only to know that the exchange
// exists. So the lowering hands large folds to a FoldQueue, which runs
// them on threads of its own while the lowering goes on, and gives each
// exchange its runs at the end. A fold is a function of its pieces alone,
// so the runs, and the program, are the same whatever the threads.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_FOLDQUEUE_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_FOLDQUEUE_H

#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"

#include "llvm/Support/ThreadPool.h"

#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <vector>

namespace tessera {

/// Copy folds in flight on `threads` threads of their own, started in
/// order. The pieces waiting or being folded are bounded: a fold started
/// past `maxPendingPieces` is folded at once, on the caller's thread.
class FoldQueue {
public:
  /// One fold: foldCopyPieces of `pieces`, with the strided forms when
  /// `strided`. Its `runs` and `strides` are valid once `wait` returns.
  struct Fold {
    std::vector<CopyPiece> pieces;
    bool strided = false;
    /// Vectors, not SmallVectors: whoever takes them frees them by
    /// assigning an empty one (a SmallVector keeps its heap block).
    std::vector<int64_t> runs, strides;
    std::shared_future<void> done;
  };
  using Ticket = std::shared_ptr<Fold>;

  FoldQueue(unsigned threads, size_t maxPendingPieces);
  /// Waits for the folds still running (they hold no references outside
  /// their tickets).
  ~FoldQueue();

  /// Starts folding `pieces` (not empty: a fold of none has no exchange).
  Ticket start(std::vector<CopyPiece> pieces, bool strided);
  /// `ticket`'s fold, finished (its runs and strides may be taken). A
  /// fold no queue thread has begun is folded by the caller: LLVM's pool
  /// runs a task on whichever thread first waits for it.
  static Fold &wait(const Ticket &ticket);
  /// Whether `ticket`'s fold has finished.
  static bool done(const Ticket &ticket);

private:
  static void run(Fold &fold);

  llvm::StdThreadPool pool;
  size_t maxPendingPieces;
  /// Started folds not yet seen finished, oldest first, and their pieces.
  std::deque<std::pair<Ticket, size_t>> pending;
  size_t pendingPieces = 0;
};

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_FOLDQUEUE_H
