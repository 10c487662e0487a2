//===- Allocator.cpp - per-tile best-fit offset assignment ----------------===//
//
// Greedy interval colouring: buffers are placed one by one, each in the
// tightest gap (best fit) left by the already-placed buffers whose live
// ranges overlap it, else on top of them. Largest-first is the order that
// wastes least on typical programs (a big buffer placed late would have to
// go on top of small ones); start order is optimal when live ranges nest
// like a stack. Other orders are tried while the peak is above the
// liveness lower bound, and the lowest peak wins (ties: the earlier order).
// A try stops as soon as its peak reaches the best one's (it cannot win),
// and none is made once a peak equals the bound.
// Tiles with many buffers get a bounded search that scales: the big
// buffers alone, a few dozen, under many randomized orders (cheap, as a
// placement costs O(buffers²)), then the small ones around them.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/Allocator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <random>
#include <tuple>

using namespace tessera::memory;

int64_t tessera::memory::alignTo(int64_t size, int64_t alignment) {
  if (alignment <= 1)
    return size;
  return (size + alignment - 1) & ~(alignment - 1);
}

static bool isEmpty(const LiveInterval &i) {
  return i.last < i.first || i.size <= 0;
}

/// Whether points in [lo, hi] are few enough, next to `n` intervals, to be
/// indexed by an array rather than sorted.
static bool denseSpan(int64_t lo, int64_t hi, size_t n) {
  return hi >= lo && hi - lo < 16 * static_cast<int64_t>(n) + 4096;
}

std::pair<int64_t, int64_t>
tessera::memory::liveLowerBound(llvm::ArrayRef<LiveInterval> live,
                                int64_t alignment) {
  // Sweep: +size at first, -size after last (ranges are inclusive). The
  // events of one point are summed before the running total is compared,
  // so the order of a point's ends and starts does not matter, and a point
  // without events cannot raise the total. This runs once per distinct
  // tile: when the points span a range not much wider than the intervals
  // are many (program points usually do), the deltas go in an array
  // indexed by point instead of being sorted.
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  size_t n = 0;
  for (const LiveInterval &i : live) {
    if (isEmpty(i))
      continue;
    lo = std::min(lo, i.first);
    hi = std::max(hi, i.last + 1);
    ++n;
  }
  int64_t current = 0, best = 0, bestPoint = 0;
  if (n == 0)
    return {best, bestPoint};
  if (denseSpan(lo, hi, n)) {
    std::vector<int64_t> delta(hi - lo + 1, 0);
    for (const LiveInterval &i : live) {
      if (isEmpty(i))
        continue;
      int64_t size = alignTo(i.size, alignment);
      delta[i.first - lo] += size;
      delta[i.last + 1 - lo] -= size;
    }
    for (int64_t p = 0, e = delta.size(); p < e; ++p) {
      current += delta[p];
      if (current > best)
        best = current, bestPoint = lo + p;
    }
    return {best, bestPoint};
  }
  std::vector<std::pair<int64_t, int64_t>> delta;
  delta.reserve(2 * n);
  for (const LiveInterval &i : live) {
    if (isEmpty(i))
      continue;
    int64_t size = alignTo(i.size, alignment);
    delta.push_back({i.first, size});
    delta.push_back({i.last + 1, -size});
  }
  llvm::sort(delta,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t k = 0; k < delta.size();) {
    int64_t point = delta[k].first;
    for (; k < delta.size() && delta[k].first == point; ++k)
      current += delta[k].second;
    if (current > best)
      best = current, bestPoint = point;
  }
  return {best, bestPoint};
}

namespace {

/// Perturbed orders tried on a tile whose heuristic orders all leave a gap,
/// and the exact search after them, run on tiles of at most
/// kRetryMaxBuffers buffers (50 more placements on a large tile would cost
/// more than the gap is worth); the search stops after kSearchBudget
/// placements.
constexpr int kRestarts = 24;
constexpr size_t kRetryMaxBuffers = 256;
constexpr int64_t kSearchBudget = 20000;
/// Big-first: the buffers of at least 1/16, 1/64, 1/256 of the lower bound
/// are "big" when there are at most kBigMaxBuffers of them; they get
/// kBigRestarts randomized orders (each with best and first fit).
constexpr int64_t kBigShares[] = {16, 64, 256};
constexpr size_t kBigMaxBuffers = 128;
constexpr int kBigRestarts = 2000;
/// allocateAround places up to this many unstacked intervals each by a
/// scan over the list; more go through the busy index (building it costs
/// about an add per stacked interval, a scan a pass over them).
constexpr size_t kScanRest = 64;

/// An address range [begin, end).
struct Range {
  int64_t begin, end;
};

/// Disjoint address ranges, sorted: the union of the ranges added. Most
/// unions are a few segments (packed buffers touch), so they are searched
/// from the front and kept inline, without a heap block of their own.
class RangeUnion {
public:
  /// Adds `r`; false when the union held it already.
  bool add(Range r) {
    // The first range ending at or after r.begin, then every range that
    // touches r merges into it.
    Range *begin = segments.begin(), *end = segments.end();
    Range *it = begin;
    if (end - begin > 8)
      it = std::lower_bound(begin, end, r, [](const Range &a, const Range &b) {
        return a.end < b.begin;
      });
    else
      while (it != end && it->end < r.begin)
        ++it;
    Range *last = it;
    while (last != end && last->begin <= r.end) {
      r.begin = std::min(r.begin, last->begin);
      r.end = std::max(r.end, last->end);
      ++last;
    }
    if (last == it) {
      segments.insert(it, r);
      return true;
    }
    if (last == it + 1 && it->begin <= r.begin && r.end <= it->end)
      return false;
    *it = r;
    if (last != it + 1)
      segments.erase(it + 1, last);
    return true;
  }
  void clear() { segments.clear(); }
  llvm::ArrayRef<Range> ranges() const { return segments; }

private:
  llvm::SmallVector<Range, 1> segments;
};

/// Each interval of `order` as a range of positions, [firstAt[i],
/// lastAt[i]]: the rank of its start among the distinct starts, and of the
/// last start at or before its end. Two live ranges meet iff the later
/// start is at most both ends, and that start is a start point, so
/// intervals meet iff their positions do, and there are no more positions
/// (returned) than intervals. Ranking every endpoint had about twice the
/// positions: in the busy index, a level more to walk on every placement,
/// and 1.4 times the time on ssd_mobilenet_v1's lists of short-lived
/// buffers, most of which now sit on one leaf. The ranks come from an
/// array over the span of points when it is narrow, else from sorting.
static size_t rankStarts(llvm::ArrayRef<LiveInterval> live,
                         llvm::ArrayRef<size_t> order,
                         std::vector<uint32_t> &firstAt,
                         std::vector<uint32_t> &lastAt) {
  firstAt.assign(live.size(), 0);
  lastAt.assign(live.size(), 0);
  if (order.empty())
    return 0;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i : order) {
    lo = std::min(lo, live[i].first);
    hi = std::max(hi, live[i].last);
  }
  size_t distinct = 0;
  if (denseSpan(lo, hi, order.size())) {
    std::vector<uint32_t> rank(hi - lo + 1, 0);
    for (size_t i : order)
      rank[live[i].first - lo] = 1;
    // rank[p]: the starts at or before p.
    for (uint32_t &r : rank) {
      distinct += r;
      r = distinct;
    }
    for (size_t i : order) {
      firstAt[i] = rank[live[i].first - lo] - 1;
      lastAt[i] = rank[live[i].last - lo] - 1;
    }
    return distinct;
  }
  std::vector<int64_t> points;
  for (size_t i : order)
    points.push_back(live[i].first);
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  for (size_t i : order) {
    firstAt[i] = llvm::lower_bound(points, live[i].first) - points.begin();
    lastAt[i] = llvm::upper_bound(points, live[i].last) - points.begin() - 1;
  }
  return points.size();
}

/// Calls f(level, node) on the nodes that decompose leaves [lo, end) of a
/// tree of `FanOut`-ths stored level by level, `levelSize[l]` nodes at
/// level l (the leaves first, the last node of a level with fewer
/// children): at each level the ones at the ends that are not a whole
/// group of siblings (a level's last group is whole however short), then
/// the groups' parents; at the top level, every one left in the range.
/// The busy index (a single root) and the stacking's skyline (a top level
/// of a few dozen nodes) walk their trees so.
template <size_t FanOut, typename F>
static void forEachCoveringNode(size_t lo, size_t end,
                                llvm::ArrayRef<size_t> levelSize, F f) {
  for (size_t level = 0; lo < end; ++level) {
    if (level + 1 == levelSize.size()) {
      for (; lo < end; ++lo)
        f(level, lo);
      return;
    }
    while (lo < end && lo % FanOut != 0)
      f(level, lo++);
    while (lo < end && end % FanOut != 0 && end != levelSize[level])
      f(level, --end);
    if (lo >= end)
      return;
    lo /= FanOut;
    end = (end + FanOut - 1) / FanOut;
  }
}

/// Where a buffer of `size` bytes goes, from the busy ranges it meets,
/// seen in address order: the tightest gap between them that holds it
/// (best fit) or the lowest (first fit), else on top of them all.
class GapFinder {
public:
  GapFinder(int64_t size, bool firstFit) : size(size), firstFit(firstFit) {}
  void busy(int64_t begin, int64_t end) {
    if (begin > cursor) {
      int64_t gap = begin - cursor;
      if (gap >= size && gap < bestGap && (!firstFit || bestOffset < 0))
        bestGap = gap, bestOffset = cursor;
    }
    cursor = std::max(cursor, end);
  }
  int64_t offset() const { return bestOffset >= 0 ? bestOffset : cursor; }

private:
  int64_t size;
  bool firstFit;
  int64_t bestOffset = -1, bestGap = INT64_MAX, cursor = 0;
};

/// The address ranges of the buffers placed so far, found by live range.
/// A placement needs only the union of the ranges of the placed buffers
/// whose live range meets its own (best and first fit look at the gaps of
/// that union, in address order), so instead of scanning every placed
/// buffer (O(buffers) a placement, O(buffers²) a tile), the ranges are kept
/// in a segment tree over the tile's distinct live-range starts, as
/// unions: at each node, `cover` merges the buffers live over all of the
/// node's points (the node is one of the O(log) that decompose their live
/// range) and `below` those with such a node in its subtree. A query's live
/// range decomposes into O(log) nodes: the buffers meeting it are `below`
/// those nodes or `cover` one of their ancestors. Unions over many points
/// merge into few segments (packed buffers touch), so a placement costs
/// O(log points) short lists; the result is the scan's, offset for offset.
///
/// The tree is kFanOut-ary. Most buffers live over a few points (85% of
/// ssd_mobilenet_v1's over at most four of a list's ~400): in a binary
/// tree such a buffer's add and query walked some ten ancestors' unions
/// each, in an 8-ary one four; a long-lived buffer's decomposition has
/// more nodes a level, but few buffers are long-lived. The allocation of
/// the convolution models' lists took 0.6 to 0.85 times as long
/// (ssd_mobilenet_v1 0.8–0.85, resnet18 and mobilenetv2 0.6, the 10k-op
/// graph 0.6), with the same offsets.
class BusyIndex {
public:
  BusyIndex() = default;
  BusyIndex(llvm::ArrayRef<LiveInterval> live, llvm::ArrayRef<size_t> order) {
    reset(live, order);
  }

  /// Rebuilds the index, empty, for another tile. The unions' storage is
  /// kept: a compile allocates hundreds of distinct tiles, and growing
  /// thousands of small vectors again for each was a fair part of the time.
  void reset(llvm::ArrayRef<LiveInterval> live, llvm::ArrayRef<size_t> order) {
    // A live range as positions (rankStarts): a leaf per distinct start.
    size_t distinct = rankStarts(live, order, firstIndex, lastIndex);
    // One leaf per distinct start, levels of kFanOut-ths above them (the
    // last node of a level may have fewer children), stored level by
    // level: a tile of 100 k buffers held 50 MB of nodes when the leaves
    // were rounded up to a power of two.
    levelStart.clear();
    levelSize.clear();
    size_t total = 0;
    for (size_t count = std::max<size_t>(distinct, 1);;
         count = (count + kFanOut - 1) / kFanOut) {
      levelStart.push_back(total);
      levelSize.push_back(count);
      total += count;
      if (count == 1)
        break;
    }
    numNodes = total;
    if (nodes.size() < numNodes)
      nodes.resize(numNodes);
    stamp.assign(numNodes, 0);
    visit = 0;
    clear();
  }

  void clear() {
    for (size_t n = 0; n < numNodes; ++n) {
      nodes[n].cover.clear();
      nodes[n].below.clear();
    }
  }

  /// Records that interval `i` (of the constructor's `live`) is at `r`.
  void add(size_t i, Range r) {
    ++visit;
    forEachNode(i, [&](size_t level, size_t pos) {
      // A leaf's `below` would be its `cover`: leaves keep only that. A
      // node's `below` holds its children's: once one held `r` already, so
      // do the nodes above it.
      if (!nodes[levelStart[level] + pos].cover.add(r) && level == 0)
        return;
      size_t k = level, p = pos;
      if (level == 0)
        k = 1, p = pos / kFanOut;
      for (; k < levelStart.size(); ++k, p /= kFanOut) {
        size_t n = levelStart[k] + p;
        if (stamp[n] == visit)
          break;
        stamp[n] = visit;
        if (!nodes[n].below.add(r))
          break;
      }
    });
  }

  /// The union of the ranges of the placed intervals live at some point of
  /// interval `i`: disjoint, in address order. Merged as they are
  /// gathered (a few segments; packed buffers touch) rather than gathered
  /// and sorted: the sort of a long-lived buffer's dozens of ranges was a
  /// fifth of the allocation of ssd_mobilenet_v1's and bert's lists.
  void overlapping(size_t i, RangeUnion &out) {
    out.clear();
    ++visit;
    forEachNode(i, [&](size_t level, size_t pos) {
      const Node &node = nodes[levelStart[level] + pos];
      for (const Range &r : (level == 0 ? node.cover : node.below).ranges())
        out.add(r);
      for (size_t k = level + 1, p = pos / kFanOut; k < levelStart.size();
           ++k, p /= kFanOut) {
        size_t n = levelStart[k] + p;
        if (stamp[n] == visit)
          break;
        stamp[n] = visit;
        for (const Range &r : nodes[n].cover.ranges())
          out.add(r);
      }
    });
  }

private:
  /// Children per node: 8 placed the corpus' lists faster than 2, 4 or 16
  /// (16 won on lists of thousands of points, lost on lists of large
  /// buffers).
  static constexpr size_t kFanOut = 8;

  /// Calls `f(level, position)` on the nodes that decompose interval `i`'s
  /// live range (forEachCoveringNode).
  template <typename F> void forEachNode(size_t i, F f) {
    forEachCoveringNode<kFanOut>(firstIndex[i], lastIndex[i] + 1, levelSize, f);
  }

  /// Per interval, its first and last leaf (see reset).
  std::vector<uint32_t> firstIndex, lastIndex;
  /// Where each level's nodes begin in `nodes`, and how many it has; the
  /// leaves are level 0, the root the last level.
  llvm::SmallVector<size_t, 8> levelStart, levelSize;
  size_t numNodes = 0;
  /// A node's two unions side by side: a placement visits a dozen nodes of
  /// a tree that outgrows the caches on large tiles.
  struct Node {
    RangeUnion cover, below;
  };
  std::vector<Node> nodes; ///< the tree, level by level (see levelStart)
  /// The nodes visited by the current add or query (ancestors are shared).
  std::vector<uint64_t> stamp;
  uint64_t visit = 0;
};

/// Places `order` in that order, each in the tightest gap that fits (best
/// fit) or the lowest one (first fit), reusing `index` (built for `live`),
/// around the buffers `fixed` already placed at `seed`'s offsets (the
/// result keeps them; its peak counts them). Gives up as soon as the peak
/// reaches `stopAt`: every caller keeps a try only when it beats the best
/// peak so far, and a peak never comes down as buffers are added, so the
/// rest of a try that has reached it is wasted (the result then has a peak
/// of at least `stopAt` and offsets that mean nothing).
Allocation place(llvm::ArrayRef<LiveInterval> live,
                 llvm::ArrayRef<size_t> order, int64_t alignment, bool firstFit,
                 BusyIndex &index, int64_t stopAt = INT64_MAX,
                 llvm::ArrayRef<size_t> fixed = {},
                 const Allocation *seed = nullptr) {
  Allocation result;
  result.offsets.assign(live.size(), 0);
  index.clear();
  for (size_t i : fixed) {
    int64_t offset = seed->offsets[i];
    int64_t size = alignTo(live[i].size, alignment);
    result.offsets[i] = offset;
    index.add(i, {offset, offset + size});
    result.peak = std::max(result.peak, offset + size);
  }
  RangeUnion busy;
  for (size_t i : order) {
    const LiveInterval &want = live[i];
    int64_t size = alignTo(want.size, alignment);
    // Walk the gaps between the busy ranges.
    index.overlapping(i, busy);
    GapFinder gaps(size, firstFit);
    for (const Range &r : busy.ranges())
      gaps.busy(r.begin, r.end);
    int64_t offset = gaps.offset();
    result.offsets[i] = offset;
    result.peak = std::max(result.peak, offset + size);
    if (result.peak >= stopAt)
      break;
    index.add(i, {offset, offset + size});
  }
  return result;
}

/// Depth-first search, in start order, for offsets that keep every buffer
/// below `limit`: each buffer tries the bottom and the top of every gap
/// between the buffers already placed that it overlaps. Exact when it
/// finishes; gives up after `budget` placements.
class BoundedSearch {
public:
  BoundedSearch(llvm::ArrayRef<LiveInterval> live, std::vector<size_t> order,
                int64_t alignment, int64_t limit, int64_t budget)
      : live(live), order(std::move(order)), alignment(alignment), limit(limit),
        budget(budget), offsets(live.size(), 0) {}

  std::optional<std::vector<int64_t>> run() {
    if (place(0))
      return offsets;
    return std::nullopt;
  }

private:
  bool place(size_t k) {
    if (k == order.size())
      return true;
    if (--budget < 0)
      return false;
    const LiveInterval &want = live[order[k]];
    int64_t size = alignTo(want.size, alignment);
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t j = 0; j < k; ++j) {
      const LiveInterval &other = live[order[j]];
      if (other.first <= want.last && want.first <= other.last)
        busy.push_back({offsets[order[j]],
                        offsets[order[j]] + alignTo(other.size, alignment)});
    }
    llvm::sort(busy);
    busy.push_back({limit, limit});
    std::vector<int64_t> candidates;
    int64_t cursor = 0;
    for (auto [begin, end] : busy) {
      if (begin - cursor >= size) {
        candidates.push_back(cursor);
        int64_t top = (begin - size) & ~(alignment - 1);
        if (top != cursor)
          candidates.push_back(top);
      }
      cursor = std::max(cursor, end);
    }
    for (int64_t offset : candidates) {
      offsets[order[k]] = offset;
      if (place(k + 1))
        return true;
      if (budget < 0)
        return false;
    }
    return false;
  }

  llvm::ArrayRef<LiveInterval> live;
  std::vector<size_t> order;
  int64_t alignment, limit, budget;
  std::vector<int64_t> offsets;
};

/// The orders a tile's buffers are tried in, by number (kOrders of them):
/// 0 largest first (aligned size, then start), 1 start order (then the
/// longest), 2 longest-lived first (then the largest), 3 largest area
/// (bytes × points) first. Ties keep the order's previous order. The keys
/// are computed once and the order radix-sorted by them: comparison sorts
/// of a tile's buffers by three keys (the position last, for stability)
/// were a tenth of a convolution graph's compile, more than the placing.
class Orders {
public:
  static constexpr int kOrders = 4;

  Orders(llvm::ArrayRef<LiveInterval> live, int64_t alignment)
      : live(live), aligned(live.size()), duration(live.size()) {
    for (size_t i = 0; i < live.size(); ++i) {
      aligned[i] = alignTo(live[i].size, alignment);
      duration[i] = live[i].last - live[i].first + 1;
    }
  }

  void sort(int which, std::vector<size_t> &order) const {
    size_t n = order.size();
    first.resize(n);
    second.resize(n);
    for (size_t k = 0; k < n; ++k) {
      size_t i = order[k];
      switch (which) {
      case 0: // largest first, then by start
        first[k] = -aligned[i], second[k] = live[i].first;
        break;
      case 1: // by start, then the longest
        first[k] = live[i].first, second[k] = -live[i].last;
        break;
      case 2: // longest-lived first, then the largest
        first[k] = -duration[i], second[k] = -live[i].size;
        break;
      default: // largest area first
        first[k] = -live[i].size * duration[i], second[k] = 0;
        break;
      }
    }
    // Positions in `order`, stably by the second key and then by the first
    // (least significant first): ties on both keep `order`'s order.
    perm.resize(n);
    for (size_t k = 0; k < n; ++k)
      perm[k] = k;
    stableSortBy(second);
    stableSortBy(first);
    sorted.resize(n);
    for (size_t k = 0; k < n; ++k)
      sorted[k] = order[perm[k]];
    order.swap(sorted);
  }

private:
  /// Sorts `perm` stably by key[perm[k]]: LSD radix over the keys' offsets
  /// from their minimum, as many digits as their range needs.
  void stableSortBy(const std::vector<int64_t> &key) const {
    size_t n = perm.size();
    if (n < 2)
      return;
    // Few keys: a merge sort costs less than clearing the buckets.
    if (n < 256) {
      std::stable_sort(perm.begin(), perm.end(),
                       [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
      return;
    }
    int64_t lo = *std::min_element(key.begin(), key.end());
    uint64_t range = 0;
    for (int64_t v : key)
      range = std::max(range, static_cast<uint64_t>(v) - lo);
    // Digits of 11 bits for long lists; of 8 for a tile's few hundred
    // buffers, where clearing and summing 2k buckets per digit cost more
    // than the keys (ssd_mobilenet_v1's 1,269 lists of ~420 buffers).
    unsigned bits = n < 4096 ? 8 : 11;
    uint64_t mask = (uint64_t(1) << bits) - 1;
    count.resize(mask + 2);
    spare.resize(n);
    for (unsigned shift = 0; shift < 64 && (range >> shift) != 0;
         shift += bits) {
      auto digit = [&](uint32_t p) {
        return ((static_cast<uint64_t>(key[p]) - lo) >> shift) & mask;
      };
      std::fill(count.begin(), count.end(), 0);
      for (uint32_t p : perm)
        ++count[digit(p) + 1];
      for (size_t b = 1; b < count.size(); ++b)
        count[b] += count[b - 1];
      for (uint32_t p : perm)
        spare[count[digit(p)]++] = p;
      perm.swap(spare);
    }
  }

  llvm::ArrayRef<LiveInterval> live;
  std::vector<int64_t> aligned, duration;
  /// Scratch, kept between sorts.
  mutable std::vector<int64_t> first, second;
  mutable std::vector<uint32_t> perm, spare, count;
  mutable std::vector<size_t> sorted;
};

/// Big buffers first, for tiles where every order leaves a gap: a few dozen
/// big buffers decide the peak, and placing them alone is cheap enough to
/// try many orders — sizes (largest first), start points (time order) and
/// durations (longest first) in turn, each scaled by a random factor after
/// its first try so neighbours in the order swap. The best placement of
/// the big ones is kept and the small ones go around it in each of
/// `orders`. Lowers `best` when that does better.
void bigFirst(llvm::ArrayRef<LiveInterval> live, llvm::ArrayRef<size_t> all,
              int64_t alignment, int64_t bound, const Orders &orders,
              Allocation &best) {
  std::mt19937_64 rng(all.size());
  std::vector<double> key(live.size());
  // Within 1/1024 of a bound is as good as it: the search stops there
  // rather than spend its whole budget on the last few bytes.
  auto closeTo = [](int64_t peak, int64_t target) {
    return peak <= target + target / 1024;
  };
  for (int64_t share : kBigShares) {
    if (closeTo(best.peak, bound))
      return;
    std::vector<size_t> big, small;
    for (size_t i : all)
      (alignTo(live[i].size, alignment) * share >= bound ? big : small)
          .push_back(i);
    if (big.size() < 2 || big.size() > kBigMaxBuffers)
      continue;
    // The big ones as a problem of their own (placing a subset of `live`
    // would clear offsets for all of it on every try).
    std::vector<LiveInterval> bigLive;
    for (size_t i : big)
      bigLive.push_back(live[i]);
    int64_t bigBound = liveLowerBound(bigLive, alignment).first;
    std::vector<size_t> subOrder(big.size());
    for (size_t j = 0; j < big.size(); ++j)
      subOrder[j] = j;
    BusyIndex bigIndex(bigLive, subOrder);
    Allocation bestSub;
    bestSub.peak = INT64_MAX;
    for (int attempt = 0;
         attempt < kBigRestarts && !closeTo(bestSub.peak, bigBound);
         ++attempt) {
      int family = attempt % 3;
      for (size_t j : subOrder) {
        double noise =
            attempt < 3 ? 0 : std::uniform_real_distribution<>(0, 1)(rng);
        const LiveInterval &b = bigLive[j];
        if (family == 0)
          key[j] = alignTo(b.size, alignment) * (1 + noise);
        else if (family == 1)
          key[j] = -static_cast<double>(b.first) + noise * 20 * (attempt % 7);
        else
          key[j] = static_cast<double>(b.last - b.first + 1) * (1 + noise);
      }
      std::stable_sort(subOrder.begin(), subOrder.end(),
                       [&](size_t a, size_t b) { return key[a] > key[b]; });
      for (bool firstFit : {false, true}) {
        Allocation other = place(bigLive, subOrder, alignment, firstFit,
                                 bigIndex, bestSub.peak);
        if (other.peak < bestSub.peak)
          bestSub = std::move(other);
      }
    }
    Allocation bestBig;
    bestBig.offsets.assign(live.size(), 0);
    for (size_t j = 0; j < big.size(); ++j)
      bestBig.offsets[big[j]] = bestSub.offsets[j];
    BusyIndex allIndex(live, all);
    for (int which = 0; which < Orders::kOrders; ++which) {
      if (closeTo(best.peak, bound))
        return;
      orders.sort(which, small);
      for (bool firstFit : {false, true}) {
        Allocation other = place(live, small, alignment, firstFit, allIndex,
                                 best.peak, big, &bestBig);
        if (other.peak < best.peak)
          best = std::move(other);
      }
    }
  }
}

} // namespace

Allocation tessera::memory::placeInOrder(llvm::ArrayRef<LiveInterval> live,
                                         llvm::ArrayRef<size_t> order,
                                         int64_t alignment, bool firstFit) {
  BusyIndex index(live, order);
  return place(live, order, alignment, firstFit, index);
}

/// The calling thread's index (see allocate).
static BusyIndex &threadIndex() {
  static thread_local BusyIndex index;
  return index;
}

/// Sorts `order` stably by offsets[i] (non-negative multiples of
/// `alignment`): least significant digit first, 6 to 11 bits a digit, as
/// many as the largest offset needs. Comparison sorts of the lists' intervals
/// by offset were a third of allocateAround on ssd_mobilenet_v1.
static void sortByOffset(std::vector<size_t> &order,
                         llvm::ArrayRef<int64_t> offsets, int64_t alignment) {
  if (order.size() < 2)
    return;
  unsigned shift = 0;
  while (alignment > 1 && (alignment & 1) == 0)
    alignment >>= 1, ++shift;
  uint64_t top = 0;
  for (size_t i : order)
    top = std::max(top, static_cast<uint64_t>(offsets[i]) >> shift);
  // Digits of about log2(n) bits, 6 to 11: a list of a few hundred
  // intervals spent more on clearing and summing 2,048 counts a digit
  // than on its intervals.
  unsigned bits = std::clamp<unsigned>(llvm::Log2_64(order.size()), 6, 11);
  size_t buckets = size_t(1) << bits;
  std::vector<size_t> spare(order.size());
  std::vector<uint32_t> count(buckets + 1);
  for (unsigned at = 0; at < 64 && (top >> at) != 0; at += bits) {
    auto digit = [&](size_t i) {
      return ((static_cast<uint64_t>(offsets[i]) >> shift) >> at) &
             (buckets - 1);
    };
    std::fill(count.begin(), count.end(), 0);
    for (size_t i : order)
      ++count[digit(i) + 1];
    for (size_t b = 1; b <= buckets; ++b)
      count[b] += count[b - 1];
    for (size_t i : order)
      spare[count[digit(i)]++] = i;
    order.swap(spare);
  }
}

namespace {
/// Per position, the highest end of the intervals stacked there so far:
/// an interval stacked on positions [lo, hi] goes at their highest end,
/// which its own end then exceeds everywhere there (so raising is taking
/// the maximum). A tree of kFanOut-ths over the positions, up to a level
/// of at most kTopNodes: a node keeps the highest end under it (`top`)
/// and the end raised over all of it (`whole`). [lo, hi] decomposes into
/// O(kFanOut) nodes a level; an interval over a few positions reads them
/// one by one, a long-lived one whole nodes. With two levels only, the 1,450
/// intervals living through a 100k-op graph's large lists walked 8,000 blocks
/// each, and stacking such a list took 3 times as long as allocating it afresh.
class Skyline {
public:
  explicit Skyline(size_t positions) {
    for (size_t count = positions;; count = (count + kFanOut - 1) / kFanOut) {
      levelSize.push_back(count);
      top.emplace_back(count, 0);
      whole.emplace_back(count, 0);
      if (count <= kTopNodes)
        break;
    }
  }

  int64_t highest(size_t lo, size_t hi) const {
    int64_t result = 0;
    forEachCoveringNode<kFanOut>(lo, hi + 1, levelSize,
                                 [&](size_t level, size_t node) {
                                   result = std::max(result, top[level][node]);
                                 });
    // The ends raised over all of a node holding lo or hi.
    for (size_t level = 0; level < top.size();
         ++level, lo /= kFanOut, hi /= kFanOut)
      result = std::max({result, whole[level][lo], whole[level][hi]});
    return result;
  }

  void raise(size_t lo, size_t hi, int64_t end) {
    forEachCoveringNode<kFanOut>(
        lo, hi + 1, levelSize, [&](size_t level, size_t node) {
          top[level][node] = std::max(top[level][node], end);
          whole[level][node] = std::max(whole[level][node], end);
        });
    for (size_t level = 0; level < top.size();
         ++level, lo /= kFanOut, hi /= kFanOut) {
      top[level][lo] = std::max(top[level][lo], end);
      top[level][hi] = std::max(top[level][hi], end);
    }
  }

private:
  static constexpr size_t kFanOut = 16;
  /// The top level has at most this many nodes, read one by one: a list
  /// of a few hundred positions then has two levels, its intervals no
  /// more nodes to read and raise than with blocks alone.
  static constexpr size_t kTopNodes = 64;

  /// Per level, from the positions up: its nodes, the highest end under a
  /// node, and the end raised over the whole of it.
  llvm::SmallVector<size_t, 8> levelSize;
  std::vector<std::vector<int64_t>> top, whole;
};
} // namespace

std::optional<Allocation>
tessera::memory::allocateAround(llvm::ArrayRef<LiveInterval> live,
                                llvm::ArrayRef<int64_t> before,
                                int64_t alignment, size_t maxUnplaced) {
  assert(before.size() == live.size() && "an entry per interval");
  auto [bound, boundPoint] = liveLowerBound(live, alignment);
  Allocation result;
  result.offsets.assign(live.size(), 0);
  std::vector<size_t> stacked, rest;
  stacked.reserve(live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    if (isEmpty(live[i]))
      continue;
    if (before[i] < 0) {
      if (rest.size() == maxUnplaced)
        return std::nullopt;
      rest.push_back(i);
      continue;
    }
    stacked.push_back(i);
  }
  // By offset before, ties by index (the list is in index order).
  sortByOffset(stacked, before, alignment);
  // Intervals meet iff their positions do (rankStarts).
  std::vector<uint32_t> firstAt, lastAt;
  size_t positions = rankStarts(live, stacked, firstAt, lastAt);
  Skyline skyline(std::max<size_t>(positions, 1));
  for (size_t i : stacked) {
    size_t first = firstAt[i], last = lastAt[i];
    int64_t offset = skyline.highest(first, last);
    int64_t end = offset + alignTo(live[i].size, alignment);
    // Over the bound: this try cannot reach it.
    if (end > bound)
      return std::nullopt;
    result.offsets[i] = offset;
    result.peak = std::max(result.peak, end);
    skyline.raise(first, last, end);
  }
  // The rest into the gaps, largest first (ties by index).
  llvm::sort(rest, [&](size_t a, size_t b) {
    int64_t x = alignTo(live[a].size, alignment),
            y = alignTo(live[b].size, alignment);
    return x != y ? x > y : a < b;
  });
  if (rest.size() > kScanRest) {
    // Many: by the busy index, around the stacked ones at their offsets
    // (place() with them fixed), stopping at the first end over the bound.
    std::vector<size_t> all(stacked);
    all.insert(all.end(), rest.begin(), rest.end());
    BusyIndex &index = threadIndex();
    index.reset(live, all);
    Allocation placed = place(live, rest, alignment, /*firstFit=*/false, index,
                              bound + 1, stacked, &result);
    if (placed.peak > bound)
      return std::nullopt;
    result.offsets = std::move(placed.offsets);
    result.peak = placed.peak;
  } else {
    // A few: each by a scan over the placed intervals in offset order.
    std::vector<size_t> &placed = stacked;
    auto byOffset = [&](size_t a, size_t b) {
      return result.offsets[a] < result.offsets[b];
    };
    if (!rest.empty())
      sortByOffset(placed, result.offsets, alignment);
    for (size_t i : rest) {
      const LiveInterval &want = live[i];
      int64_t size = alignTo(want.size, alignment);
      GapFinder gaps(size, /*firstFit=*/false);
      for (size_t k : placed)
        if (live[k].first <= want.last && want.first <= live[k].last)
          gaps.busy(result.offsets[k],
                    result.offsets[k] + alignTo(live[k].size, alignment));
      int64_t offset = gaps.offset();
      if (offset + size > bound)
        return std::nullopt;
      result.offsets[i] = offset;
      result.peak = std::max(result.peak, offset + size);
      placed.insert(llvm::lower_bound(placed, i, byOffset), i);
    }
  }
  result.lowerBound = bound;
  result.peakPoint = boundPoint;
  return result;
}

void tessera::memory::releaseAllocatorStorage() { threadIndex() = BusyIndex(); }

Allocation tessera::memory::allocate(llvm::ArrayRef<LiveInterval> live,
                                     int64_t alignment) {
  std::vector<size_t> order;
  for (size_t i = 0; i < live.size(); ++i)
    if (!isEmpty(live[i]))
      order.push_back(i);
  auto [bound, boundPoint] = liveLowerBound(live, alignment);

  // Largest first; ties by start, then index, so the result is stable.
  Orders orders(live, alignment);
  orders.sort(0, order);
  // Every order places the same buffers: one index serves them all, and
  // one per thread serves every tile (keeping its storage).
  BusyIndex &index = threadIndex();
  index.reset(live, order);
  Allocation best = place(live, order, alignment, /*firstFit=*/false, index);
  // Other orders, only while a gap is left: start order (optimal for
  // stack-like nesting), longest-lived first, and largest area (bytes ×
  // points) first, each with best and first fit (first fit packs
  // long-lived buffers at the bottom, leaving one free run above them).
  // The first try reaching the lowest peak wins.
  //
  // Each order is sorted from the one before it (a stable sort: ties keep
  // that order), in this fixed chain whatever the tries' sequence, so an
  // order's ties do not depend on which tries ran. The tries go by how
  // often they reach the bound: over the corpus and the generated models,
  // every list the first order leaves short that any of these reaches was
  // reached by longest-lived first with best fit, but for 12 lists of
  // mobilenetv2 (start order); tried second rather than fourth, it spared
  // the two start-order placements of 495 of mobilenetv2's 588 lists and
  // 887 of resnet18's 1,448.
  static constexpr std::pair<int, bool> kTries[] = {
      {2, false}, {1, false}, {1, true}, {2, true}, {3, false}, {3, true}};
  std::vector<size_t> chain[Orders::kOrders];
  int sortedUpTo = 0;
  auto sortedBy = [&](int which) -> const std::vector<size_t> & {
    for (; sortedUpTo < which; ++sortedUpTo) {
      chain[sortedUpTo + 1] = sortedUpTo == 0 ? order : chain[sortedUpTo];
      orders.sort(sortedUpTo + 1, chain[sortedUpTo + 1]);
    }
    return which == 0 ? order : chain[which];
  };
  for (auto [which, firstFit] : kTries) {
    // At the bound nothing can do better, and a tie keeps the first.
    if (best.peak == bound)
      break;
    Allocation other =
        place(live, sortedBy(which), alignment, firstFit, index, best.peak);
    if (other.peak < best.peak)
      best = std::move(other);
  }
  // What follows starts from the last order of the chain, as when the
  // orders were tried in the chain's sequence. (At the bound nothing
  // follows.)
  if (best.peak > bound)
    order = std::move(chain[Orders::kOrders - 1]);
  // Still a gap: the big buffers first, under many orders.
  bigFirst(live, order, alignment, bound, orders, best);
  // Still a gap: perturbed largest-first orders (sizes scaled by a random
  // factor in [1, 2), so similar sizes swap), from a fixed seed so the
  // result is deterministic.
  std::mt19937_64 rng(order.size());
  std::vector<double> key(live.size());
  bool retry = order.size() <= kRetryMaxBuffers;
  for (int attempt = 0; retry && attempt < kRestarts && best.peak > bound;
       ++attempt) {
    for (size_t i : order)
      key[i] =
          live[i].size * (1.0 + std::uniform_real_distribution<>(0, 1)(rng));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return key[a] > key[b]; });
    for (bool firstFit : {false, true}) {
      Allocation other =
          place(live, order, alignment, firstFit, index, best.peak);
      if (other.peak < best.peak)
        best = std::move(other);
      // At the bound nothing can do better, and a tie keeps the first.
      if (best.peak == bound)
        break;
    }
  }
  // Still a gap: search for an allocation at the bound itself.
  if (retry && best.peak > bound) {
    orders.sort(1, order);
    if (std::optional<std::vector<int64_t>> offsets =
            BoundedSearch(live, order, std::max<int64_t>(alignment, 1), bound,
                          kSearchBudget)
                .run()) {
      best.offsets = std::move(*offsets);
      best.peak = bound;
    }
  }
  best.lowerBound = bound;
  best.peakPoint = boundPoint;
  return best;
}
