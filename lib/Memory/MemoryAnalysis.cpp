//===- MemoryAnalysis.cpp - liveness, allocation and cost together --------===//

#include "tessera/Memory/MemoryAnalysis.h"

#include "tessera/Support/Heap.h"
#include "tessera/Target/Presets.h"

#include "llvm/Support/Parallel.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

int64_t MemoryAnalysis::tilesOutOfMemory() const {
  return llvm::count_if(
      tiles, [](const TileAllocation &t) { return t.outOfMemory(); });
}

AllocationSummary
tessera::memory::summarizeAllocation(const MemoryAnalysis &a) {
  AllocationSummary s;
  const ProgramLiveness &live = a.liveness;
  for (int64_t t = 0; t < static_cast<int64_t>(a.tiles.size()); ++t) {
    const TileAllocation &alloc = a.tiles[t];
    int64_t incl = alloc.includingGaps(), excl = alloc.excludingGaps();
    s.totalIncludingGaps += incl;
    s.totalExcludingGaps += excl;
    if (incl > s.maxTileBytes)
      s.maxTileBytes = incl, s.maxTile = t;
    if (excl > s.maxExcludingGapsBytes)
      s.maxExcludingGapsBytes = excl, s.maxExcludingGapsTile = t;
    if (alloc.outOfMemory())
      ++s.tilesOutOfMemory;
    if (t >= live.numTiles || live.buffersOnTile[t].empty())
      continue;
    ++s.usedTiles;
    s.usedBytes += incl;
    s.totalPeak += alloc.allocation.peak;
    s.totalLowerBound += alloc.allocation.lowerBound;
    if (alloc.allocation.lowerBound > 0) {
      double ratio = static_cast<double>(alloc.allocation.peak) /
                     alloc.allocation.lowerBound;
      if (ratio > s.worstRatio)
        s.worstRatio = ratio, s.worstTile = t;
    }
    if (incl > s.maxUsedTileBytes)
      s.maxUsedTileBytes = incl, s.maxUsedTile = t;
  }
  return s;
}

/// Buffers of a list that allocateTiles counts as large: the allocator's
/// index for one is 5 MB or more, and it keeps the index sized for the
/// largest list its thread placed.
static constexpr size_t kLargeList = 32768;
/// Threads placing large lists at once: each holds an index and scratch
/// for its list (30 MB for 139k buffers at 100k ops).
static constexpr size_t kLargeThreads = 2;
/// Small lists are placed in chains of kChainLists, each list from the
/// allocation of the one before it (see allocateTiles). Longer chains
/// start fewer lists from nothing; shorter ones share out better on
/// threads.
static constexpr size_t kChainLists = 16;
/// Buffers a list may hold that the list before it did not (or not over
/// the same points) for it to be built from that list's allocation at
/// first (see allocateTiles): each is placed by a scan over the list.
static constexpr size_t kMaxUnplaced = 64;
/// Stacking every buffer the list before held, whatever its points (see
/// allocateTiles), the list's other buffers may be up to this fraction of
/// it: they are placed through the allocator's busy index.
static constexpr size_t kMaxUnplacedShare = 4;

/// Places the shares of every tile whose shares change (sharesChange);
/// the others take the tile before's in analyzeMemory.
///
/// Linear mappings give many tiles the same buffers with the same sizes
/// and ranges: each distinct request list (ProgramLiveness::listFirstTile,
/// found by the liveness) is allocated once, its requests read from its
/// first tile; the allocation was a fifth of a convolution model's compile
/// (mobilenetv2: 588 lists of ~700 intervals, 2.0 G instructions).
/// Neighbouring lists mostly differ in a few requests, so each small list
/// is first built from the allocation of the list before it
/// (allocateAround: its buffers stacked in the order of their offsets
/// there), and allocated afresh only when that misses the lower bound:
/// 1,168 of ssd_mobilenet_v1's 1,189 lists after a chain's first, whose
/// memory analysis on one thread took 0.48 times as long. The small lists
/// go in chains of kChainLists, the large ones in kLargeThreads chains, a
/// chain on one thread in order, the chains on --compile_threads threads:
/// a list's offsets depend on its chain alone, not on the threads.
///
/// `alongside` (the cost model, which needs the liveness but not the
/// offsets) runs on one of the threads once the large lists are placed
/// and before the small ones: the small lists even out the threads' ends,
/// and the cost model's step table (36 MB at 100k ops) is not held while
/// two threads hold the index of a large list each (30 MB each for 139k
/// buffers).
static void allocateTiles(const ProgramLiveness &live, int64_t alignment,
                          std::vector<TileAllocation> &tiles,
                          llvm::function_ref<void()> alongside) {
  const std::vector<int64_t> &lists = live.listFirstTile;
  std::vector<TileOffsets> placed(lists.size());
  std::vector<size_t> large, small;
  for (size_t i = 0; i < lists.size(); ++i)
    (live.buffersOnTile[lists[i]].size() >= kLargeList ? large : small)
        .push_back(i);
  // The last list a chain placed: its buffers, requests and offsets.
  struct Previous {
    llvm::ArrayRef<uint32_t> ids;
    std::vector<LiveInterval> requests;
    std::shared_ptr<const std::vector<int64_t>> offsets;
  };
  // Places list `i`; with `previous`, from the allocation of the list
  // before it in its chain first (allocateAround), and then records it
  // there.
  auto placeList = [&](size_t i, Previous *previous) {
    int64_t tile = lists[i];
    llvm::ArrayRef<uint32_t> ids = live.buffersOnTile[tile];
    size_t n = ids.size();
    std::vector<LiveInterval> requests;
    requests.reserve(n);
    for (size_t k = 0; k < n; ++k) {
      TileBytes share = live.shareOn(tile, k);
      requests.push_back({share.first, share.last, share.paddedBytes});
    }
    std::optional<Allocation> a;
    if (previous && previous->offsets) {
      // A buffer the list before held over the same points is stacked
      // in its place there (both lists are in buffer order); the others
      // are placed around them. When that leaves more than kMaxUnplaced,
      // every buffer the list before held is stacked, its points changed
      // or not: the stacking pushes up what it then meets. Tried first,
      // that reached the bound on fewer of resnet18's lists (1,183 of
      // 1,355 against 1,316); tried second, it builds 17 more of the
      // 10k-op graph's 23 lists after a chain's first, and 22 of the
      // 100k-op graph's 24 large ones (at 3 to 12 ms each against 15 to
      // 27 afresh).
      std::vector<int64_t> before(n, -1);
      auto stack = [&](bool samePoints, size_t maxUnplaced) {
        size_t unplaced = 0;
        for (size_t k = 0, j = 0; k < n && unplaced <= maxUnplaced; ++k) {
          while (j < previous->ids.size() && previous->ids[j] < ids[k])
            ++j;
          bool held = j < previous->ids.size() && previous->ids[j] == ids[k];
          if (held && samePoints &&
              (previous->requests[j].first != requests[k].first ||
               previous->requests[j].last != requests[k].last))
            held = false;
          before[k] = held ? (*previous->offsets)[j] : -1;
          unplaced += !held;
        }
        return unplaced <= maxUnplaced;
      };
      if (stack(/*samePoints=*/true, kMaxUnplaced))
        a = allocateAround(requests, before, alignment, kMaxUnplaced);
      else if (stack(/*samePoints=*/false, n / kMaxUnplacedShare))
        a = allocateAround(requests, before, alignment, n / kMaxUnplacedShare);
    }
    if (!a)
      a = allocate(requests, alignment);
    TileOffsets &out = placed[i];
    // The liveness's self-check of the tile's peak, here because the
    // allocator sweeps the list for its lower bound anyway (a sweep per
    // list in the liveness too was a tenth of its time, on one thread).
    int64_t atPeak = 0;
    for (const LiveInterval &r : requests)
      if (r.first <= a->peakPoint && a->peakPoint <= r.last && r.size > 0)
        atPeak += alignTo(r.size, alignment);
    out.peakMatches = atPeak == a->lowerBound;
    out.shared =
        std::make_shared<const std::vector<int64_t>>(std::move(a->offsets));
    out.peak = a->peak;
    out.lowerBound = a->lowerBound;
    out.peakPoint = a->peakPoint;
    if (previous) {
      previous->ids = ids;
      previous->requests = std::move(requests);
      previous->offsets = out.shared;
    }
  };
  // The large lists' chains first, on at most kLargeThreads threads; then,
  // once their indexes are freed, the cost model on one thread and the
  // small lists' chains on whichever thread is free next.
  // A chain's lists are placed in order on one thread, and which thread
  // places a chain does not change its offsets.
  std::atomic<size_t> nextLarge{0}, nextChain{0};
  std::atomic<bool> costTaken{false};
  // Places the `c`th chain of `chainLists` lists of `of`, in order.
  auto placeChain = [&](llvm::ArrayRef<size_t> of, size_t chainLists,
                        size_t c) {
    Previous previous;
    for (size_t k = c * chainLists;
         k < std::min(of.size(), (c + 1) * chainLists); ++k)
      placeList(of[k], &previous);
  };
  // The large lists in kLargeThreads chains: by that constant, not by the
  // threads there are, so that their offsets do not depend on those.
  size_t largeChainLists = (large.size() + kLargeThreads - 1) / kLargeThreads;
  size_t largeChains =
      large.empty() ? 0
                    : (large.size() + largeChainLists - 1) / largeChainLists;
  auto placeLarge = [&] {
    for (size_t c; (c = nextLarge++) < largeChains;)
      placeChain(large, largeChainLists, c);
    // This thread's index is sized for a large list.
    releaseAllocatorStorage();
  };
  size_t chains = (small.size() + kChainLists - 1) / kChainLists;
  auto placeSmall = [&] {
    if (!costTaken.exchange(true))
      alongside();
    for (size_t c; (c = nextChain++) < chains;)
      placeChain(small, kChainLists, c);
  };
  // Runs `work` on `threads` threads, this one among them. The helper
  // threads are this call's own and end with it: the allocator keeps an
  // index sized for the largest list per thread, which in a pool that
  // outlived the call stayed resident with the thread's glibc arena
  // (+20 MB at 30k ops).
  size_t cores = llvm::parallel::strategy.compute_thread_count();
  auto onThreads = [](size_t threads, auto &&work) {
    if (threads <= 1) {
      work();
      return;
    }
    llvm::StdThreadPool pool(llvm::hardware_concurrency(threads - 1));
    for (size_t t = 1; t < threads; ++t)
      pool.async([&work] { work(); });
    work();
    pool.wait();
  };
  if (!large.empty()) {
    onThreads(std::min({cores, kLargeThreads, largeChains}), placeLarge);
    // The freed indexes' pages, given back before the cost model's table
    // is allocated: the heap would keep them resident (glibc's: they are
    // below the mmap threshold), and the table does not fit in them.
    releaseFreedHeap();
  }
  onThreads(std::min(cores, chains + 1), placeSmall);
  // The helper threads' storage ended with them; this thread's would stay
  // through the rest of the compile.
  releaseAllocatorStorage();
  // What the helper threads freed may be in arenas of their own, which
  // the main thread's later allocations do not reuse, and the index's
  // pages are free: given back here, or they stay resident through the
  // rest of the compile (20 MB at 30k ops).
  releaseFreedHeap();
  for (auto [t, i] : live.listOfTile)
    tiles[t].allocation = placed[i];
}

MemoryAnalysis tessera::memory::analyzeMemory(
    tile::ProgramOp program, const TargetDescription &target,
    ShareCache *shares, llvm::function_ref<void()> afterLiveness) {
  MemoryAnalysis result;
  result.target = target;
  result.program = program.getSymName().str();
  if (auto entry = program->getAttrOfType<FlatSymbolRefAttr>("entry"))
    result.entry = entry.getValue().str();
  result.liveness = computeLiveness(program, target, shares);
  if (afterLiveness)
    afterLiveness();
  const ProgramLiveness &live = result.liveness;

  result.tiles.resize(live.numTiles);
  // The cost model reads the program and the liveness; the allocation
  // only the liveness, so nothing else reads or changes the IR meanwhile.
  allocateTiles(live, target.alignmentBytes, result.tiles,
                [&] { result.cost = estimateCost(live, target); });
  LivenessCheck &check = result.liveness.check;
  for (int64_t t = 0; t < live.numTiles; ++t) {
    TileAllocation &tile = result.tiles[t];
    // The same requests as the tile before: the entry it found.
    if (live.sameSharesAsPrevious(t))
      tile.allocation = result.tiles[t - 1].allocation;
    tile.overheads = live.overheads[t].total();
    tile.capacity = target.sramBytesPerTile;
    // The liveness self-check's per-tile part (see allocateTiles), on
    // every tile holding buffers.
    if (live.buffersOnTile[t].empty())
      continue;
    ++check.pointsChecked;
    if (!tile.allocation.peakMatches)
      check.mismatch("tile " + std::to_string(t) + " at point " +
                     std::to_string(tile.allocation.peakPoint));
  }
  return result;
}

ProgramMemoryAnalysis::ProgramMemoryAnalysis(Operation *op)
    : program(cast<tile::ProgramOp>(op)) {}

llvm::Expected<const MemoryAnalysis &>
ProgramMemoryAnalysis::get(llvm::StringRef targetOverride) {
  std::unique_ptr<MemoryAnalysis> &slot = byTarget[targetOverride];
  if (!slot) {
    llvm::Expected<MemoryAnalysis> analysis =
        analyzeMemory(program, targetOverride);
    if (!analysis) {
      byTarget.erase(targetOverride);
      return analysis.takeError();
    }
    slot = std::make_unique<MemoryAnalysis>(std::move(*analysis));
  }
  return *slot;
}

llvm::Expected<MemoryAnalysis>
tessera::memory::analyzeMemory(tile::ProgramOp program,
                               llvm::StringRef targetOverride) {
  llvm::Expected<TargetDescription> target = resolveTarget(
      targetOverride.empty() ? program.getTarget() : targetOverride);
  if (!target)
    return target.takeError();
  if (target->totalTiles() < int64_t(program.getTiles()))
    return llvm::createStringError(
        "program @" + program.getSymName().str() + " has " +
        std::to_string(program.getTiles()) + " tiles but target '" +
        target->name + "' has " + std::to_string(target->totalTiles()));
  return analyzeMemory(program, *target);
}
