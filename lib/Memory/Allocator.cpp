//===- Allocator.cpp - per-tile best-fit offset assignment ----------------===//
//
// Greedy interval colouring: buffers are placed one by one, each in the
// tightest gap (best fit) left by the already-placed buffers whose live
// ranges overlap it, else on top of them. Largest-first is the order that
// wastes least on typical programs (a big buffer placed late would have to
// go on top of small ones); start order is optimal when live ranges nest
// like a stack. Both are tried when the first leaves a gap above the
// liveness lower bound, and the lower peak wins (ties: the first).
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/Allocator.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace tessera::memory;

int64_t tessera::memory::alignTo(int64_t size, int64_t alignment) {
  if (alignment <= 1)
    return size;
  return (size + alignment - 1) & ~(alignment - 1);
}

static bool isEmpty(const LiveInterval &i) {
  return i.last < i.first || i.size <= 0;
}

std::pair<int64_t, int64_t>
tessera::memory::liveLowerBound(llvm::ArrayRef<LiveInterval> live,
                                int64_t alignment) {
  // Sweep: +size at first, -size after last; ends before starts at a tie
  // point cannot happen because ranges are inclusive (the -size event is at
  // last + 1).
  std::map<int64_t, int64_t> delta;
  for (const LiveInterval &i : live) {
    if (isEmpty(i))
      continue;
    int64_t size = alignTo(i.size, alignment);
    delta[i.first] += size;
    delta[i.last + 1] -= size;
  }
  int64_t current = 0, best = 0, bestPoint = 0;
  for (auto [point, d] : delta) {
    current += d;
    if (current > best)
      best = current, bestPoint = point;
  }
  return {best, bestPoint};
}

namespace {

struct Placed {
  int64_t first, last, offset, end;
};

/// Best fit of `order` in that order.
Allocation place(llvm::ArrayRef<LiveInterval> live,
                 llvm::ArrayRef<size_t> order, int64_t alignment) {
  Allocation result;
  result.offsets.assign(live.size(), 0);
  std::vector<Placed> placed;
  placed.reserve(order.size());
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (size_t index : order) {
    const LiveInterval &want = live[index];
    int64_t size = alignTo(want.size, alignment);
    busy.clear();
    for (const Placed &p : placed)
      if (p.first <= want.last && want.first <= p.last)
        busy.push_back({p.offset, p.end});
    llvm::sort(busy);
    // Walk the gaps between the (possibly overlapping) busy ranges.
    int64_t bestOffset = -1, bestGap = INT64_MAX, cursor = 0;
    for (auto [begin, end] : busy) {
      if (begin > cursor) {
        int64_t gap = begin - cursor;
        if (gap >= size && gap < bestGap)
          bestGap = gap, bestOffset = cursor;
      }
      cursor = std::max(cursor, end);
    }
    int64_t offset = bestOffset >= 0 ? bestOffset : cursor;
    result.offsets[index] = offset;
    placed.push_back({want.first, want.last, offset, offset + size});
    result.peak = std::max(result.peak, offset + size);
  }
  return result;
}

} // namespace

Allocation tessera::memory::allocate(llvm::ArrayRef<LiveInterval> live,
                                     int64_t alignment) {
  std::vector<size_t> order;
  for (size_t i = 0; i < live.size(); ++i)
    if (!isEmpty(live[i]))
      order.push_back(i);
  auto [bound, boundPoint] = liveLowerBound(live, alignment);

  // Largest first; ties by start, then index, so the result is stable.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    int64_t sa = alignTo(live[a].size, alignment),
            sb = alignTo(live[b].size, alignment);
    if (sa != sb)
      return sa > sb;
    return live[a].first < live[b].first;
  });
  Allocation best = place(live, order, alignment);
  if (best.peak > bound) {
    // Start order, longest first among equal starts.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (live[a].first != live[b].first)
        return live[a].first < live[b].first;
      return live[a].last > live[b].last;
    });
    Allocation byStart = place(live, order, alignment);
    if (byStart.peak < best.peak)
      best = std::move(byStart);
  }
  best.lowerBound = bound;
  best.peakPoint = boundPoint;
  return best;
}
