//===- Allocator.h - per-tile offset assignment -------------------*- C++
//-*-===//
//
// Places the buffers of one tile at byte offsets so that no two buffers
// live at the same program point overlap: interval-graph colouring by
// best fit. Pure C++ on intervals (no MLIR), so it is unit-tested on
// thousands of random cases.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_ALLOCATOR_H
#define TESSERA_MEMORY_ALLOCATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::memory {

/// A buffer of `size` bytes live over program points [first, last].
struct LiveInterval {
  int64_t first = 0;
  int64_t last = 0;
  int64_t size = 0;
};

struct Allocation {
  std::vector<int64_t> offsets; ///< per interval, multiples of the alignment
  int64_t peak = 0;             ///< max over intervals of offset + aligned size
  int64_t lowerBound = 0;       ///< max over points of the aligned live bytes
  int64_t peakPoint = 0; ///< first point where the lower bound is reached
  /// Which of allocate's tries placed it (kAllocationTries for the
  /// searches after them).
  int tryNumber = 0;
};

/// The heuristic orders allocate tries in turn.
inline constexpr int kAllocationTries = 7;

/// `size` rounded up to `alignment` (a power of two).
int64_t alignTo(int64_t size, int64_t alignment);

/// The liveness lower bound of any allocation: the largest sum of aligned
/// sizes live at one point, and the first point reaching it.
std::pair<int64_t, int64_t> liveLowerBound(llvm::ArrayRef<LiveInterval> live,
                                           int64_t alignment);

/// Offsets for `live` (best fit, largest buffers first, trying a second
/// order when the first leaves gaps). Deterministic. Sizes are rounded up
/// to `alignment`; empty intervals (last < first) or sizes get offset 0 and
/// take no space.
/// `firstTry` (a tryNumber) is tried before the others; when it reaches the
/// lower bound it wins, and otherwise the tries go on as without it.
Allocation allocate(llvm::ArrayRef<LiveInterval> live, int64_t alignment,
                    int firstTry = 0);

/// An allocation of `live` at its lower bound that keeps the offsets of
/// `keep` (keep[i] >= 0), or nullopt when this finds none: for a tile that
/// holds almost what a tile placed before it holds, at almost the same
/// points, finished from that tile's offsets rather than started afresh.
/// The kept offsets must not overlap where their intervals meet in time;
/// one that would exceed the bound is dropped. The other non-empty
/// intervals are placed largest first, each at tryFirst[i] when that is
/// free, else in the tightest gap (best fit), each by a scan over the
/// placed ones: nullopt when they are more than `maxUnplaced`.
std::optional<Allocation> allocateAround(llvm::ArrayRef<LiveInterval> live,
                                         llvm::ArrayRef<int64_t> keep,
                                         llvm::ArrayRef<int64_t> tryFirst,
                                         int64_t alignment, size_t maxUnplaced);

/// Frees the storage `allocate` keeps on the calling thread for its next
/// call (an index sized for the largest list it placed: 25 MB at 100k
/// ops), once a caller has placed all its lists.
void releaseAllocatorStorage();

/// One greedy pass of `allocate`: the intervals `order` (non-empty ones) are
/// placed in that order, each in the tightest gap left by the placed
/// intervals it overlaps in time (best fit) or the lowest such gap (first
/// fit), else on top of them. Exposed so tests can compare it with a plain
/// scan over every placed interval.
Allocation placeInOrder(llvm::ArrayRef<LiveInterval> live,
                        llvm::ArrayRef<size_t> order, int64_t alignment,
                        bool firstFit);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_ALLOCATOR_H
