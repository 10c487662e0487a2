//===- Liveness.cpp - per-tile live ranges of a tile program --------------===//

#include "tessera/Memory/Liveness.h"

#include "BufferShares.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Memory/Allocator.h"
#include "tessera/Memory/Padding.h"
#include "tessera/Memory/ShareCache.h"
#include "tessera/Support/Heap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Parallel.h"

#include <atomic>
#include <numeric>
#include <tuple>
#include <unordered_map>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

StringRef tessera::memory::categoryLabel(tile::Category category) {
  switch (category) {
  case tile::Category::Parameter:
    return "Parameter";
  case tile::Category::Output:
    return "Output";
  case tile::Category::Constant:
    return "Constant";
  case tile::Category::Temporary:
    return "Temporary";
  case tile::Category::Partials:
    return "Thread-local";
  }
  return "Temporary";
}

void TileShares::append(const TileBytes &share, int64_t tiles) {
  if (!runList.empty()) {
    Run &last = runList.back();
    if (last.endTile() == share.tile && last.elements == share.elements &&
        last.bytes == share.bytes && last.paddedBytes == share.paddedBytes &&
        last.first == share.first && last.last == share.last) {
      last.tiles += static_cast<int32_t>(tiles), count += tiles;
      return;
    }
  }
  Run run;
  run.firstTile = static_cast<int32_t>(share.tile);
  run.tiles = static_cast<int32_t>(tiles);
  run.first = static_cast<int32_t>(share.first);
  run.last = static_cast<int32_t>(share.last);
  run.elements = share.elements;
  run.bytes = share.bytes;
  run.paddedBytes = share.paddedBytes;
  runList.push_back(run);
  count += tiles;
}

size_t TileShares::firstRunReaching(int64_t tile) const {
  return llvm::partition_point(
             runList, [&](const Run &r) { return r.endTile() <= tile; }) -
         runList.begin();
}

int64_t TileShares::runOf(int64_t tile) const {
  size_t run = firstRunReaching(tile);
  return run < runList.size() && runList[run].firstTile <= tile
             ? static_cast<int64_t>(run)
             : -1;
}

namespace {

/// A reference to a buffer on the tiles [lo, hi) that hold it.
struct TileRef {
  int64_t point;
  bool write;
  int64_t lo, hi;
};

using TileRanges = std::vector<std::pair<int64_t, int64_t>>;

/// Tile ranges [lo, hi) made sorted and disjoint: overlapping or adjacent
/// ones merged. Many unsorted ranges over a narrow span of tiles (an
/// exchange's copies listed by destination, read by source) are merged by
/// counting their cover in an array over that span rather than sorted:
/// sorting them was a quarter of the liveness on mobilenetv2.
void mergeRanges(TileRanges &ranges, std::vector<int32_t> &cover) {
  if (!std::is_sorted(ranges.begin(), ranges.end())) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    bool nonEmpty = true;
    for (auto [b, e] : ranges) {
      lo = std::min(lo, b);
      hi = std::max(hi, e);
      nonEmpty &= b < e;
    }
    int64_t n = ranges.size();
    if (!nonEmpty || n < 16 || hi - lo > 16 * n) {
      llvm::sort(ranges);
    } else {
      // Every range is non-empty, so the tiles covered are exactly the
      // merged ranges (adjacent ones join as the count stays above 0).
      cover.assign(hi - lo + 1, 0);
      for (auto [b, e] : ranges)
        ++cover[b - lo], --cover[e - lo];
      ranges.clear();
      int64_t count = 0;
      for (int64_t t = 0; t <= hi - lo; ++t) {
        int64_t before = count;
        count += cover[t];
        if (before == 0 && count > 0)
          ranges.push_back({lo + t, 0});
        else if (before > 0 && count == 0)
          ranges.back().second = lo + t;
      }
      return;
    }
  }
  size_t out = 0;
  for (auto [lo, hi] : ranges) {
    if (out > 0 && lo <= ranges[out - 1].second)
      ranges[out - 1].second = std::max(ranges[out - 1].second, hi);
    else
      ranges[out++] = {lo, hi};
  }
  ranges.resize(out);
}

/// Appends the non-empty range [lo, hi) to `ranges`, joined to the last
/// one when it starts inside or right after it (copies listed in tile
/// order): the union is the same, and mergeRanges gets a short list.
void addRange(TileRanges &ranges, int64_t lo, int64_t hi) {
  if (!ranges.empty() && ranges.back().first <= lo &&
      lo <= ranges.back().second)
    ranges.back().second = std::max(ranges.back().second, hi);
  else
    ranges.push_back({lo, hi});
}

/// The union of two sorted, disjoint lists of ranges, the same way merged.
void unionRanges(const TileRanges &a, const TileRanges &b, TileRanges &out) {
  out.clear();
  auto add = [&](std::pair<int64_t, int64_t> r) {
    if (!out.empty() && r.first <= out.back().second)
      out.back().second = std::max(out.back().second, r.second);
    else
      out.push_back(r);
  };
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size())
    add(j == b.size() || (i < a.size() && a[i] <= b[j]) ? a[i++] : b[j++]);
}

/// First/last references of one buffer while walking the schedule.
struct Refs {
  int64_t firstDef = INT64_MAX, firstUse = INT64_MAX, lastRef = -1;
  void def(int64_t p) {
    firstDef = std::min(firstDef, p);
    lastRef = std::max(lastRef, p);
  }
  void use(int64_t p) {
    firstUse = std::min(firstUse, p);
    lastRef = std::max(lastRef, p);
  }
  bool operator==(const Refs &o) const {
    return firstDef == o.firstDef && firstUse == o.firstUse &&
           lastRef == o.lastRef;
  }
};

/// The distinct request lists of the changed tiles (listFirstTile): a
/// tile's list is found by a hash of its requests among the lists before,
/// and confirmed request by request. The lists are not kept as keys
/// (24 bytes per share: 12 MB of a 30k-op compile's peak): a candidate
/// is confirmed against the shares of its first tile, read again, or
/// against a copy of one of the last few lists seen, as a tile that
/// repeats a list mostly repeats one of those (the lowering lays tensors
/// out in a few patterns, repeated along the chip), and a copy is read in
/// order where shareOn reaches each buffer's runs through the buffer table
/// (at 100k ops that walk, 7 M shares for 133 changed tiles, missing the
/// caches, grew 45x for 10x the ops).
class ShareListIndex {
public:
  explicit ShareListIndex(ProgramLiveness &live) : live(live) {}

  /// The list of `tile` (with `shares`), appended to listFirstTile when it
  /// is new.
  uint32_t find(int64_t tile, llvm::ArrayRef<ShareRequest> shares) {
    llvm::SmallVector<uint32_t, 1> &candidates = byHash[hash(shares)];
    auto found = llvm::find_if(candidates, [&](uint32_t i) {
      auto copy =
          llvm::find_if(recent, [&](const Recent &r) { return r.list == i; });
      return copy != recent.end() ? sameAsCopy(*copy, shares)
                                  : sameAsTile(live.listFirstTile[i], shares);
    });
    bool isNew = found == candidates.end();
    uint32_t list = isNew ? live.listFirstTile.size() : *found;
    if (isNew) {
      candidates.push_back(list);
      live.listFirstTile.push_back(tile);
    }
    remember(list, shares);
    return list;
  }

private:
  static bool sameRequest(const ShareRequest &a, const ShareRequest &b) {
    return a.first == b.first && a.last == b.last &&
           a.paddedBytes == b.paddedBytes;
  }
  /// A multiply-xor mix per field: hash_combine's three-field step was a
  /// twentieth of a 100k-op compile's memory analysis, and a collision
  /// costs only a comparison.
  static uint64_t hash(llvm::ArrayRef<ShareRequest> shares) {
    auto mix = [](uint64_t h, int64_t v) {
      h = (h ^ static_cast<uint64_t>(v)) * 0x9e3779b97f4a7c15ULL;
      return h ^ (h >> 29);
    };
    uint64_t h = shares.size();
    for (const ShareRequest &share : shares)
      h = mix(mix(mix(h, share.first), share.last), share.paddedBytes);
    return h;
  }

  struct Recent {
    uint32_t list;
    std::vector<ShareRequest> requests;
  };
  static bool sameAsCopy(const Recent &copy,
                         llvm::ArrayRef<ShareRequest> shares) {
    if (copy.requests.size() != shares.size())
      return false;
    for (auto [request, share] : llvm::zip_equal(copy.requests, shares))
      if (!sameRequest(share, request))
        return false;
    return true;
  }
  bool sameAsTile(int64_t tile, llvm::ArrayRef<ShareRequest> shares) const {
    if (live.buffersOnTile[tile].size() != shares.size())
      return false;
    for (auto [i, share] : llvm::enumerate(shares)) {
      TileBytes other = live.shareOn(tile, i);
      // Its first and last came from a run's int32 fields (TileShares).
      if (!sameRequest(share,
                       {static_cast<int32_t>(other.first),
                        static_cast<int32_t>(other.last), other.paddedBytes}))
        return false;
    }
    return true;
  }
  /// Makes `list` the most recent copy; the oldest copy's storage is
  /// reused.
  void remember(uint32_t list, llvm::ArrayRef<ShareRequest> shares) {
    auto copy =
        llvm::find_if(recent, [&](const Recent &r) { return r.list == list; });
    if (copy != recent.end()) {
      std::rotate(copy, copy + 1, recent.end());
      return;
    }
    if (recent.size() == kRecent)
      std::rotate(recent.begin(), recent.begin() + 1, recent.end());
    else
      recent.emplace_back();
    Recent &last = recent.back();
    last.list = list;
    last.requests.assign(shares.begin(), shares.end());
  }

  static constexpr size_t kRecent = 4;
  ProgramLiveness &live;
  /// Per hash, the lists that have it.
  llvm::DenseMap<uint64_t, llvm::SmallVector<uint32_t, 1>> byHash;
  /// The last kRecent lists seen, the most recent last.
  std::vector<Recent> recent;
};

class LivenessBuilder {
public:
  LivenessBuilder(tile::ProgramOp program, const TargetDescription &target,
                  ShareCache *shares)
      : program(program), target(target), shares(shares) {}

  ProgramLiveness build();

private:
  void collectBuffers();
  void collectRefs();
  /// The tiles an exchange reads the source on and writes the destination on.
  /// (Sorted, disjoint tile ranges.)
  void exchangeTiles(tile::ExchangeOp ex, TileRanges &senders,
                     TileRanges &receivers);
  void computeRanges();
  void computeOverheads();
  void computeChipCurves();

  /// The buffer a value is (through aliases: the storage it uses).
  int32_t bufferOf(Value v) {
    auto it = indexOf.find(v);
    return it == indexOf.end() ? -1 : it->second;
  }
  int32_t storageOf(int32_t b) {
    while (b >= 0 && result.buffers[b].aliasOf >= 0)
      b = result.buffers[b].aliasOf;
    return b;
  }

  tile::ProgramOp program;
  const TargetDescription &target;
  ShareCache *shares;
  ProgramLiveness result;
  /// Live range of references `r`; `firstDef` may come from elsewhere (an
  /// alias is written through its storage).
  std::pair<int64_t, int64_t> rangeOf(const Refs &r, int64_t firstDef,
                                      tile::Category category) const;

  llvm::DenseMap<Value, int32_t> indexOf;
  std::vector<Refs> refs; ///< per buffer, through aliases
  /// The point ranges of the tile.repeat steps, innermost first (inner
  /// loops come later in pre-order).
  std::vector<std::pair<int64_t, int64_t>> loops;
  /// Per buffer (its storage), the references and the tiles they touch:
  /// a list per buffer rather than Refs per (buffer, tile), which held as
  /// much memory as the shares themselves.
  std::vector<std::vector<TileRef>> tileRefs;
  /// Per tile (and one past the last), the change in exchange code bytes
  /// from the tile before: each exchange counts once on each tile that
  /// sends or receives in it. Summed while the references are collected,
  /// so each exchange's tiles are found once.
  std::vector<int64_t> exchangeDelta;
  std::vector<int32_t> cover; ///< mergeRanges' scratch
  /// A listed exchange's tiles depend on its copies alone (uniqued
  /// attributes: their addresses name them), which a model's repeated ops
  /// share: found once per distinct copies.
  llvm::DenseMap<std::pair<const void *, const void *>,
                 std::pair<TileRanges, TileRanges>>
      listedTiles;
  static constexpr size_t kMaxListedTiles = 4096;
};

} // namespace

/// Buffers whose shares collectBuffers computes on several threads: below
/// this, handing them out costs more than it saves. (Few buffers may still
/// be much work: bert's 200 or so spread over every tile. The model of
/// compile-threads.test has 17.)
static constexpr size_t kParallelShares = 16;

void LivenessBuilder::collectBuffers() {
  llvm::DenseMap<Operation *, int32_t> byVar;
  // The first var of each (type, mapping).
  llvm::DenseMap<std::pair<const void *, const void *>, int32_t> byLayout;
  // Counted first: the vector grown by doubling held up to twice the
  // buffers' 160 bytes each (38 MB at 100 k ops).
  size_t vars = 0;
  program.walk([&](tile::VarOp) { ++vars; });
  result.buffers.reserve(vars);
  // The buffers whose shares are computed, and those that copy an earlier
  // buffer's (index, twin).
  std::vector<int32_t> computed;
  std::vector<std::pair<int32_t, int32_t>> twins;
  program.walk([&](tile::VarOp var) {
    int32_t index = result.buffers.size();
    BufferLiveness buffer;
    buffer.var = var;
    tile::BufferType type = var.getType();
    buffer.dtype = hloDtypeName(type.getElementType());
    buffer.elementBytes = elementBytes(buffer.dtype);
    if (Value alias = var.getAlias()) {
      auto it = byVar.find(alias.getDefiningOp());
      if (it != byVar.end())
        buffer.aliasOf = it->second;
    }
    // Vars of one type and mapping (attributes and types are uniqued) have
    // the same shares: an elementwise chain's values mostly do.
    if (buffer.aliasOf < 0) {
      int32_t twin = byLayout
                         .try_emplace({type.getAsOpaquePointer(),
                                       var.getMapping().getAsOpaquePointer()},
                                      index)
                         .first->second;
      if (twin != index)
        twins.push_back({index, twin});
      else
        computed.push_back(index);
    }
    byVar.try_emplace(var, index);
    indexOf[var.getResult()] = index;
    result.buffers.push_back(std::move(buffer));
  });
  // Each buffer's shares depend on its type, mapping and the target only
  // (they read the IR, change nothing): computed on LLVM's parallel
  // executor, each thread with scratch of its own taking the next buffer,
  // the largest first. Contiguous slices of buffers in program order left
  // bert_small_train's two largest (61 of its 81 ms of shares) to one
  // thread while the others had finished.
  // Those worked out during the lowering are taken first (ShareCache.h).
  if (shares)
    llvm::erase_if(computed, [&](int32_t i) {
      BufferLiveness &buffer = result.buffers[i];
      return shares->take(buffer.var.getType(), buffer.var.getMapping(),
                          result.numTiles, buffer);
    });
  std::atomic<size_t> next{0};
  auto work = [&](size_t) {
    ShareScratch scratch;
    for (size_t i; (i = next++) < computed.size();) {
      BufferLiveness &buffer = result.buffers[computed[i]];
      computeShares(buffer.var.getType(), buffer.var.getMapping(),
                    result.numTiles, target, buffer, scratch);
    }
  };
  unsigned threads = llvm::parallel::strategy.compute_thread_count();
  if (computed.size() >= kParallelShares && threads > 1) {
    llvm::stable_sort(computed, [&](int32_t a, int32_t b) {
      return result.buffers[a].var.getType().getNumElements() >
             result.buffers[b].var.getType().getNumElements();
    });
    llvm::parallelFor(0, threads, work);
  } else {
    work(0);
  }
  for (auto [index, twin] : twins) {
    BufferLiveness &buffer = result.buffers[index];
    const BufferLiveness &first = result.buffers[twin];
    buffer.tiles = first.tiles;
    buffer.bytes = first.bytes;
    buffer.paddedBytes = first.paddedBytes;
  }
  refs.assign(result.buffers.size(), Refs());
}

void LivenessBuilder::exchangeTiles(tile::ExchangeOp ex, TileRanges &senders,
                                    TileRanges &receivers) {
  senders.clear();
  receivers.clear();
  // A view exchange lists no copies: every tile holding part of the source
  // may send, every tile holding part of the destination receives. (The
  // model device found the need: without it a view's source was freed
  // before the view read it.)
  if (ex.isView()) {
    for (auto [v, ranges] : {std::make_pair(ex.getSource(), &senders),
                             std::make_pair(ex.getDest(), &receivers)}) {
      int32_t b = bufferOf(v);
      if (b < 0)
        continue;
      // The runs are in tile order and disjoint: merged as they come (a
      // buffer of a run per tile gave a view a list as long as the tiles).
      for (const TileShares::Run &run :
           result.buffers[storageOf(b)].tiles.runs()) {
        if (!ranges->empty() && run.firstTile <= ranges->back().second)
          ranges->back().second =
              std::max<int64_t>(ranges->back().second, run.endTile());
        else
          ranges->push_back({run.firstTile, run.endTile()});
      }
    }
    return;
  }
  std::pair<const void *, const void *> key = {
      ex.getCopiesAttr().getAsOpaquePointer(),
      ex.getStridedAttr().getAsOpaquePointer()};
  if (auto it = listedTiles.find(key); it != listedTiles.end()) {
    senders = it->second.first;
    receivers = it->second.second;
    return;
  }
  // A copy run's tiles step by 0 or 1 (the verifier sees to it): one tile,
  // or `count` consecutive ones. The attributes are read once, not per run.
  llvm::ArrayRef<int64_t> copies = ex.getCopyRuns();
  std::optional<llvm::ArrayRef<int64_t>> strided = ex.getStrided();
  constexpr size_t R = tile::ExchangeOp::kRunSize;
  constexpr size_t S = tile::ExchangeOp::kStridedSize;
  for (size_t i = 0, e = copies.size() / R; i < e; ++i) {
    int64_t srcTile = copies[R * i], dstTile = copies[R * i + 1];
    int64_t count = copies[R * i + 2];
    if (count <= 0)
      continue;
    int64_t srcStep = strided ? (*strided)[S * i + 3] : 1;
    int64_t dstStep = strided ? (*strided)[S * i + 4] : 1;
    addRange(senders, srcTile, srcStep ? srcTile + count : srcTile + 1);
    addRange(receivers, dstTile, dstStep ? dstTile + count : dstTile + 1);
  }
  mergeRanges(senders, cover);
  mergeRanges(receivers, cover);
  // Bounded: a model's one-off exchanges would otherwise all stay.
  if (listedTiles.size() >= kMaxListedTiles)
    listedTiles.clear();
  listedTiles.try_emplace(key, senders, receivers);
}

void LivenessBuilder::collectRefs() {
  tileRefs.resize(result.buffers.size());
  const std::vector<std::pair<int64_t, int64_t>> everywhere = {
      {0, result.numTiles}};
  TileRanges senders, receivers, both;
  int64_t numTiles = result.numTiles;
  exchangeDelta.assign(numTiles + 1, 0);
  const ProgramOverheads &o = target.overheads;
  for (const Step &step : result.schedule.steps) {
    int64_t p = step.point;
    // Records a read or write of `v` at p: on the buffer (and the aliases
    // it goes through) as a whole, and on the tiles of its storage in
    // `onTiles` (sorted, disjoint ranges).
    auto ref = [&](Value v, bool write,
                   llvm::ArrayRef<std::pair<int64_t, int64_t>> onTiles) {
      int32_t b = bufferOf(v);
      if (b < 0)
        return;
      int32_t root = storageOf(b);
      if (write)
        result.buffers[root].writers.push_back(p);
      for (int32_t a = b; a >= 0; a = result.buffers[a].aliasOf)
        write ? refs[a].def(p) : refs[a].use(p);
      for (auto [lo, hi] : onTiles)
        tileRefs[root].push_back({p, write, lo, hi});
    };
    auto use = [&](Value v) { ref(v, false, everywhere); };
    auto def = [&](Value v) { ref(v, true, everywhere); };
    Operation *op = step.op;
    if (auto cs = dyn_cast<tile::ComputeSetOp>(op)) {
      // A vertex touches only its own tile's elements.
      std::pair<int64_t, int64_t> range = {cs.getFirstTile(), cs.getEndTile()};
      for (Value v : cs.getIns())
        ref(v, false, range);
      for (Value v : cs.getOuts())
        ref(v, true, range);
    } else if (auto ex = dyn_cast<tile::ExchangeOp>(op)) {
      // Only the tiles that send read the source; only those that receive
      // write the destination.
      exchangeTiles(ex, senders, receivers);
      ref(ex.getSource(), false, senders);
      ref(ex.getDest(), true, receivers);
      // Its code, once per tile that sends or receives in it.
      unionRanges(senders, receivers, both);
      for (auto [lo, hi] : both) {
        lo = std::clamp<int64_t>(lo, 0, numTiles);
        hi = std::clamp<int64_t>(hi, 0, numTiles);
        exchangeDelta[lo] += o.exchangeCodeBytes + o.exchangeStateBytes;
        exchangeDelta[hi] -= o.exchangeCodeBytes + o.exchangeStateBytes;
      }
    } else if (auto copy = dyn_cast<tile::HostCopyOp>(op)) {
      int32_t b = storageOf(bufferOf(copy.getBuffer()));
      if (b >= 0)
        result.buffers[b].hostExchanged = true;
      if (copy.getDirection() == tile::HostDirection::Infeed)
        def(copy.getBuffer());
      else
        use(copy.getBuffer());
    } else if (auto host = dyn_cast<tile::HostComputeOp>(op)) {
      llvm::for_each(host.getIns(), use);
      llvm::for_each(host.getOuts(), def);
    } else if (auto c = dyn_cast<tile::CollectiveOp>(op)) {
      // Every tile holding the source sends, every tile of the dest
      // receives (the chips' links reach them all).
      use(c.getSource());
      def(c.getDest());
    } else if (auto repeat = dyn_cast<tile::RepeatOp>(op)) {
      use(repeat.getCondition());
    } else if (auto ifOp = dyn_cast<tile::IfOp>(op)) {
      use(ifOp.getPredicate());
    }
  }
  // A step writing several operands that share storage counts once.
  for (BufferLiveness &buffer : result.buffers)
    buffer.writers.erase(
        std::unique(buffer.writers.begin(), buffer.writers.end()),
        buffer.writers.end());
}

/// The live range of references `r` of a buffer of `category` (on one tile
/// or as a whole), with the rules of docs/memory.md: from the first write
/// (or point 0 if read first), to the last reference (an output: to the
/// end), stretched over loops it crosses or carries a value around.
std::pair<int64_t, int64_t>
LivenessBuilder::rangeOf(const Refs &r, int64_t firstDef,
                         tile::Category category) const {
  int64_t lastPoint = result.numPoints() - 1;
  if (r.lastRef < 0)
    return {0, -1};
  int64_t first = firstDef <= r.firstUse ? std::min(r.firstDef, r.firstUse) : 0;
  int64_t last = category == tile::Category::Output ? lastPoint : r.lastRef;
  for (auto [lo, hi] : loops) {
    bool overlaps = first <= hi && lo <= last;
    bool inside = lo <= first && last <= hi;
    bool carried = inside && r.firstUse < r.firstDef && r.firstUse > lo;
    if ((overlaps && !inside) || carried) {
      first = std::min(first, lo);
      last = std::max(last, hi);
    }
  }
  return {first, last};
}

void LivenessBuilder::computeRanges() {
  int64_t lastPoint = result.numPoints() - 1;
  for (auto it = result.schedule.steps.rbegin();
       it != result.schedule.steps.rend(); ++it)
    if (it->kind == StepKind::Repeat)
      loops.push_back({it->point, it->endPoint});
  // The buffer at hand's tile cuts and the references between them.
  std::vector<int64_t> cuts;
  std::vector<Refs> segments;
  for (auto [b, buffer] : llvm::enumerate(result.buffers)) {
    tile::Category category = buffer.var.getCategory();
    if (category == tile::Category::Constant ||
        category == tile::Category::Parameter) {
      // Loaded with the program / kept resident: live everywhere.
      buffer.alwaysLive = true;
      buffer.first = 0;
      buffer.last = lastPoint;
      for (TileShares::Run &run : buffer.tiles.runs())
        run.first = 0, run.last = static_cast<int32_t>(lastPoint);
      std::vector<TileRef>().swap(tileRefs[b]);
      continue;
    }
    if (buffer.aliasOf >= 0) {
      // An alias's own range, for reports; an alias is written through its
      // storage. Its bytes are its storage's, whose per-tile references
      // include the alias's.
      int64_t firstDef =
          std::min(refs[b].firstDef, refs[storageOf(b)].firstDef);
      std::tie(buffer.first, buffer.last) =
          rangeOf(refs[b], firstDef, category);
      continue;
    }
    // Per tile; the buffer's range is their union. The runs are split
    // where the tiles' ranges differ.
    buffer.first = lastPoint + 1;
    buffer.last = -1;
    if (buffer.tiles.empty()) {
      buffer.first = 0;
      std::vector<TileRef>().swap(tileRefs[b]);
      continue;
    }
    int64_t lo = buffer.tiles.runs().front().firstTile;
    int64_t hi = buffer.tiles.runs().back().endTile();
    // The tiles cut where a reference's tile range begins or ends: between
    // two cuts every tile has the same references. The references are
    // gathered per segment, not per tile: a step over every tile of a
    // buffer spread across the chip made this loop tiles x references.
    cuts.assign({lo, hi});
    for (const TileRef &r : tileRefs[b])
      if (std::max(r.lo, lo) < std::min(r.hi, hi))
        cuts.insert(cuts.end(), {std::max(r.lo, lo), std::min(r.hi, hi)});
    llvm::sort(cuts);
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    segments.assign(cuts.size() - 1, Refs());
    for (const TileRef &r : tileRefs[b]) {
      if (std::max(r.lo, lo) >= std::min(r.hi, hi))
        continue;
      size_t s = llvm::lower_bound(cuts, std::max(r.lo, lo)) - cuts.begin();
      size_t e = llvm::lower_bound(cuts, std::min(r.hi, hi)) - cuts.begin();
      for (; s < e; ++s)
        r.write ? segments[s].def(r.point) : segments[s].use(r.point);
    }
    std::vector<TileRef>().swap(tileRefs[b]);
    TileShares split;
    for (const TileShares::Run &run : buffer.tiles.runs()) {
      int64_t t = run.firstTile, end = run.endTile();
      size_t i = llvm::upper_bound(cuts, t) - cuts.begin() - 1;
      while (t < end) {
        // Neighbouring tiles with the same references get the same range
        // (most do: a step touches a range of tiles): one piece of the run.
        const Refs &r = segments[i];
        int64_t next = std::min(end, cuts[i + 1]);
        while (next < end && segments[i + 1] == r)
          next = std::min(end, cuts[++i + 1]);
        TileBytes share = run.on(t);
        std::tie(share.first, share.last) = rangeOf(r, r.firstDef, category);
        if (share.isLive()) {
          buffer.first = std::min(buffer.first, share.first);
          buffer.last = std::max(buffer.last, share.last);
        }
        split.append(share, next - t);
        t = next;
        if (t < end)
          ++i;
      }
    }
    split.shrink_to_fit();
    buffer.tiles = std::move(split);
    if (buffer.last < 0)
      buffer.first = 0;
  }
  // Each buffer's live runs joined into tile segments, as events: where
  // a segment starts and where it ends. A sweep over the tiles then keeps
  // the list of buffers present, and a tile without events shares its
  // neighbour's list.
  int64_t numTiles = result.numTiles;
  std::vector<std::vector<uint32_t>> startAt(numTiles + 1), endAt(numTiles + 1);
  result.sharesChange.assign(numTiles + 1, false);
  result.sharesChange[0] = true;
  for (auto [b, buffer] : llvm::enumerate(result.buffers)) {
    if (buffer.aliasOf >= 0)
      continue;
    for (const TileShares::Run &run : buffer.tiles.runs()) {
      if (!run.isLive())
        continue;
      result.sharesChange[run.firstTile] = true;
      result.sharesChange[run.endTile()] = true;
    }
    int64_t begin = -1, end = -1;
    auto flush = [&, b = b] {
      if (begin < end) {
        startAt[begin].push_back(b);
        endAt[end].push_back(b);
      }
    };
    for (const TileShares::Run &run : buffer.tiles.runs()) {
      if (!run.isLive())
        continue;
      if (run.firstTile != end) {
        flush();
        begin = run.firstTile;
      }
      end = run.endTile();
    }
    flush();
  }
  TileBufferLists::List current =
      std::make_shared<const std::vector<uint32_t>>();
  std::vector<char> gone(result.buffers.size(), 0);
  for (int64_t t = 0; t < numTiles; ++t) {
    if (!startAt[t].empty() || !endAt[t].empty()) {
      // Both in buffer order (pushed so); the merge keeps the list so.
      for (uint32_t b : endAt[t])
        gone[b] = 1;
      auto next = std::make_shared<std::vector<uint32_t>>();
      next->reserve(current->size() + startAt[t].size() - endAt[t].size());
      auto add = startAt[t].begin(), addEnd = startAt[t].end();
      for (uint32_t b : *current) {
        if (gone[b])
          continue;
        for (; add != addEnd && *add < b; ++add)
          next->push_back(*add);
        next->push_back(b);
      }
      next->insert(next->end(), add, addEnd);
      for (uint32_t b : endAt[t])
        gone[b] = 0;
      current = std::move(next);
      std::vector<uint32_t>().swap(startAt[t]);
    }
    result.buffersOnTile.push_back(current);
  }
  result.sharesChange.resize(numTiles);
}

void LivenessBuilder::computeOverheads() {
  const ProgramOverheads &o = target.overheads;
  int64_t numTiles = result.numTiles;
  result.overheads.assign(numTiles, TileOverheads());
  // Compute sets and exchanges cover tile ranges: per vertex kind its
  // ranges, and the vertex state and exchange code as difference arrays,
  // rather than a walk over every tile of every step.
  llvm::StringMap<std::vector<std::pair<int64_t, int64_t>>> kindRanges;
  std::vector<int64_t> stateDelta(numTiles + 1, 0);
  for (const Step &step : result.schedule.steps) {
    if (auto cs = dyn_cast<tile::ComputeSetOp>(step.op)) {
      int64_t first = std::min<int64_t>(cs.getFirstTile(), numTiles);
      int64_t end = std::min<int64_t>(cs.getEndTile(), numTiles);
      if (first >= end)
        continue;
      kindRanges[cs.getKind()].push_back({first, end});
      stateDelta[first] += cs.getVerticesPerTile() * o.vertexStateBytes;
      stateDelta[end] -= cs.getVerticesPerTile() * o.vertexStateBytes;
    }
  }
  // Distinct kinds per tile: each kind's ranges merged, then counted once
  // per tile they cover.
  std::vector<int64_t> kindDelta(numTiles + 1, 0);
  for (auto &entry : kindRanges) {
    std::vector<std::pair<int64_t, int64_t>> &ranges = entry.second;
    llvm::sort(ranges);
    int64_t begin = ranges.front().first, end = ranges.front().second;
    for (auto [b, e] : ranges) {
      if (b > end) {
        ++kindDelta[begin], --kindDelta[end];
        begin = b;
      }
      end = std::max(end, e);
    }
    ++kindDelta[begin], --kindDelta[end];
  }
  int64_t kinds = 0, state = 0, exchange = 0;
  for (int64_t t = 0; t < numTiles; ++t) {
    TileOverheads &tile = result.overheads[t];
    kinds += kindDelta[t];
    state += stateDelta[t];
    exchange += exchangeDelta[t];
    tile.vertexCode = kinds * o.vertexCodeBytes;
    tile.vertexState = state;
    tile.exchangeCode = exchange;
    tile.controlCode = target.reservedBytesPerTile.code;
    tile.stack = target.reservedBytesPerTile.stack;
  }
}

void LivenessBuilder::computeChipCurves() {
  int64_t points = result.numPoints();
  std::vector<int64_t> padded(points + 1, 0), plain(points + 1, 0);
  int64_t shares = 0;
  for (const BufferLiveness &b : result.buffers)
    for (const TileShares::Run &run : b.tiles.runs()) {
      if (b.aliasOf >= 0 || !run.isLive())
        continue;
      shares += run.tiles;
      padded[run.first] += run.paddedBytes * run.tiles;
      padded[run.last + 1] -= run.paddedBytes * run.tiles;
      plain[run.first] += run.bytes * run.tiles;
      plain[run.last + 1] -= run.bytes * run.tiles;
    }
  result.chipLivePadded.assign(points, 0);
  result.chipLiveBytes.assign(points, 0);
  int64_t runPadded = 0, runPlain = 0;
  for (int64_t p = 0; p < points; ++p) {
    runPadded += padded[p];
    runPlain += plain[p];
    result.chipLivePadded[p] = runPadded;
    result.chipLiveBytes[p] = runPlain;
  }

  // The self-check: the sweep against a direct sum of the live buffers, at
  // every point when that is cheap (else at every k-th point). Each tile's
  // is made at its peak by the allocation (allocateTiles).
  LivenessCheck &check = result.check;
  int64_t stride = std::max<int64_t>(1, points * shares / 50000000);
  for (int64_t p = 0; p < points; p += stride) {
    int64_t sumPadded = 0, sumPlain = 0;
    for (const BufferLiveness &b : result.buffers)
      if (b.aliasOf < 0)
        for (const TileShares::Run &run : b.tiles.runs())
          if (run.liveAt(p))
            sumPadded += run.paddedBytes * run.tiles,
                sumPlain += run.bytes * run.tiles;
    ++check.pointsChecked;
    if (sumPadded != result.chipLivePadded[p] ||
        sumPlain != result.chipLiveBytes[p])
      check.mismatch("chip at point " + std::to_string(p));
  }
  // Each distinct request list of the changed tiles, for the allocation,
  // which also checks each tile's peak (allocateTiles: it sweeps each
  // list for its lower bound anyway, on several threads).
  ShareListIndex lists(result);
  result.listFirstTile.clear();
  result.listOfTile.clear();
  result.forEachChangedTile(
      [&](int64_t t, llvm::ArrayRef<ShareRequest> requests) {
        result.listOfTile.push_back({t, lists.find(t, requests)});
      });
}

ProgramLiveness LivenessBuilder::build() {
  result.numTiles = program.getTiles();
  result.schedule = buildSchedule(program);
  collectBuffers();
  collectRefs();
  computeRanges();
  computeOverheads();
  // What only the steps before needed goes before the check, whose pass
  // over the tiles' shares holds copies of the largest lists: freeing
  // these tables first lowered the 100k-op compile's peak by 10 MB.
  // Their pages go back too: jemalloc keeps freed pages for seconds, and
  // the check and the allocation's indexes grew past them (403 → 378 MB at
  // 100k ops).
  indexOf = decltype(indexOf)();
  refs = decltype(refs)();
  tileRefs = decltype(tileRefs)();
  exchangeDelta = decltype(exchangeDelta)();
  listedTiles = decltype(listedTiles)();
  releaseFreedHeap();
  computeChipCurves();
  return std::move(result);
}

ProgramLiveness
tessera::memory::computeLiveness(tile::ProgramOp program,
                                 const TargetDescription &target,
                                 ShareCache *shares) {
  return LivenessBuilder(program, target, shares).build();
}

std::vector<int64_t> ProgramLiveness::stretchStarts() const {
  std::vector<int64_t> start(numTiles);
  for (int64_t t = 0; t < numTiles; ++t)
    start[t] = sameSharesAsPrevious(t) ? start[t - 1] : t;
  return start;
}

std::vector<int64_t> ProgramLiveness::tileCurve(int64_t tile,
                                                bool padded) const {
  int64_t points = numPoints();
  std::vector<int64_t> curve(points + 1, 0);
  for (size_t i = 0, e = buffersOnTile[tile].size(); i < e; ++i) {
    TileBytes s = shareOn(tile, i);
    int64_t bytes = padded ? s.paddedBytes : s.bytes;
    curve[s.first] += bytes;
    curve[s.last + 1] -= bytes;
  }
  curve.pop_back();
  for (int64_t p = 1; p < points; ++p)
    curve[p] += curve[p - 1];
  return curve;
}

std::vector<uint32_t> ProgramLiveness::liveOn(int64_t tile,
                                              int64_t point) const {
  std::vector<uint32_t> live;
  for (size_t i = 0, e = buffersOnTile[tile].size(); i < e; ++i)
    if (shareOn(tile, i).liveAt(point))
      live.push_back(buffersOnTile[tile][i]);
  return live;
}

void ProgramLiveness::forEachChangedTile(
    llvm::function_ref<void(int64_t, llvm::ArrayRef<ShareRequest>)> fn) const {
  // The live runs by first tile (a counting sort), as (buffer, run).
  std::vector<uint32_t> startOf(numTiles + 1, 0);
  for (const BufferLiveness &buffer : buffers)
    if (buffer.aliasOf < 0)
      for (const TileShares::Run &run : buffer.tiles.runs())
        if (run.isLive())
          ++startOf[run.firstTile + 1];
  for (int64_t t = 0; t < numTiles; ++t)
    startOf[t + 1] += startOf[t];
  std::vector<std::pair<uint32_t, uint32_t>> starts(startOf[numTiles]);
  std::vector<uint32_t> next(startOf.begin(), startOf.end() - 1);
  for (auto [b, buffer] : llvm::enumerate(buffers))
    if (buffer.aliasOf < 0)
      for (auto [r, run] : llvm::enumerate(buffer.tiles.runs()))
        if (run.isLive())
          starts[next[run.firstTile]++] = {static_cast<uint32_t>(b),
                                           static_cast<uint32_t>(r)};
  // Each buffer's request on the tile at hand (a run's tiles ask the
  // same): set where a run starts; a buffer whose run ended is off the
  // tile's list.
  std::vector<ShareRequest> current(buffers.size());
  std::vector<ShareRequest> requests;
  for (int64_t t = 0; t < numTiles; ++t) {
    for (uint32_t k = startOf[t]; k < startOf[t + 1]; ++k) {
      const TileShares::Run &run =
          buffers[starts[k].first].tiles.runs()[starts[k].second];
      current[starts[k].first] = {run.first, run.last, run.paddedBytes};
    }
    if (!sharesChange[t])
      continue;
    llvm::ArrayRef<uint32_t> onTile = buffersOnTile[t];
    requests.resize(onTile.size());
    for (size_t i = 0; i < onTile.size(); ++i)
      requests[i] = current[onTile[i]];
    fn(t, requests);
  }
}

std::optional<TileBytes> ProgramLiveness::share(uint32_t b,
                                                int64_t tile) const {
  const TileShares &tiles = buffers[b].tiles;
  int64_t run = tiles.runOf(tile);
  if (run < 0)
    return std::nullopt;
  return tiles.runs()[run].on(tile);
}
