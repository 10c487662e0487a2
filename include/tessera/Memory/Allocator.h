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
};

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
Allocation allocate(llvm::ArrayRef<LiveInterval> live, int64_t alignment);

/// An allocation of `live` at its lower bound built from an allocation of
/// a list much like it (a neighbouring tile's), or nullopt when this finds
/// none. The intervals with an offset in `before` (before[i] >= 0) are
/// stacked in the order of those offsets, each at the highest end of the
/// ones stacked before it that it meets in time: the list before's layout,
/// its buffers' new sizes pushing up what sits on them (an allocation
/// stacked so needs no check: nothing is placed under what it meets).
/// The others (more than `maxUnplaced` of them: nullopt) go largest first
/// into the tightest gap (best fit), each by a scan over the list when
/// they are few, else through the index `allocate` uses.
std::optional<Allocation> allocateAround(llvm::ArrayRef<LiveInterval> live,
                                         llvm::ArrayRef<int64_t> before,
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
