//===- Liveness.h - per-tile live ranges of a tile program --------*- C++
//-*-===//
//
// For every buffer of a tile program: where its bytes are (per tile, padded
// to the layout tile and the alignment), when they are live (the program
// points [first def, last use], stretched over loops that carry them), and
// which steps wrote it. For every tile: the always-live program overheads
// (vertex code and state, exchange code, control code, stack) estimated
// from the target. For the chip: live bytes per program point, checked
// against a direct sum of the live buffers. See docs/memory.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_MEMORY_LIVENESS_H
#define TESSERA_MEMORY_LIVENESS_H

#include "tessera/Memory/Schedule.h"
#include "tessera/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::memory {

class ShareCache;

/// A buffer's share of one tile.
struct TileBytes {
  int64_t tile = 0;
  int64_t elements = 0;
  int64_t bytes = 0;       ///< elements × element size
  int64_t paddedBytes = 0; ///< whole layout tiles, rounded to the alignment
  int64_t first = 0;       ///< live range on this tile
  int64_t last = -1;       ///< (last < first: never live here)

  bool isLive() const { return first <= last; }
  bool liveAt(int64_t point) const { return first <= point && point <= last; }
};

/// What a share asks of its tile's allocation: its live range there and
/// its padded bytes, in 16 bytes (a TileBytes is 48: gathered for each of
/// a large graph's changed tiles, those missed the caches).
struct ShareRequest {
  int32_t first = 0;
  int32_t last = -1;
  int64_t paddedBytes = 0;
};

/// A buffer's shares of its tiles, in tile order, held as runs of
/// consecutive tiles whose shares differ only in the tile. Most buffers are
/// spread evenly over many tiles: a share per (buffer, tile) was the
/// largest table of a large compile's memory (7.4 M shares, 351 MB, for a
/// 10k-op graph on 1,472 tiles). Iterating yields one TileBytes per tile,
/// by value.
class TileShares {
public:
  /// Tiles [firstTile, firstTile + tiles), each with the same share.
  struct Run {
    int32_t firstTile = 0;
    int32_t tiles = 0;
    int32_t first = 0; ///< live range on each of these tiles
    int32_t last = -1;
    int64_t elements = 0;
    int64_t bytes = 0;
    int64_t paddedBytes = 0;

    int64_t endTile() const { return int64_t(firstTile) + tiles; }
    bool isLive() const { return first <= last; }
    /// Live at `point` on each of its tiles (TileBytes::liveAt of each).
    bool liveAt(int64_t point) const { return first <= point && point <= last; }
    /// The share of tile `tile` of the run.
    TileBytes on(int64_t tile) const {
      return {tile, elements, bytes, paddedBytes, first, last};
    }
  };

  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = TileBytes;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = TileBytes;

    iterator(const Run *run, int32_t k) : run(run), k(k) {}
    TileBytes operator*() const { return run->on(run->firstTile + k); }
    iterator &operator++() {
      if (++k == run->tiles)
        ++run, k = 0;
      return *this;
    }
    bool operator==(const iterator &o) const {
      return run == o.run && k == o.k;
    }
    bool operator!=(const iterator &o) const { return !(*this == o); }

  private:
    const Run *run;
    int32_t k;
  };

  iterator begin() const { return {runList.data(), 0}; }
  iterator end() const { return {runList.data() + runList.size(), 0}; }
  /// Shares (tiles), not runs.
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const std::vector<Run> &runs() const { return runList; }
  std::vector<Run> &runs() { return runList; }

  /// Appends the share of a tile after the last one: it extends the last
  /// run when it follows that run's tiles with an equal share.
  void push_back(const TileBytes &share) { append(share, 1); }
  /// Appends the share of `tiles` tiles from `share.tile` on, all alike:
  /// as many push_backs of it, tile by tile.
  void append(const TileBytes &share, int64_t tiles);
  void reserve(size_t runs) { runList.reserve(runs); }
  void shrink_to_fit() { runList.shrink_to_fit(); }
  void clear() { runList.clear(), count = 0; }
  /// The first run with a tile at or after `tile` (runs().size() when
  /// none): a binary search, the runs being in tile order.
  size_t firstRunReaching(int64_t tile) const;
  /// The run holding `tile`, or -1: a binary search.
  int64_t runOf(int64_t tile) const;

private:
  std::vector<Run> runList;
  size_t count = 0;
};

struct BufferLiveness {
  mutable tile::VarOp var; // op handles are not const-correct
  std::string dtype;       ///< HLO name, e.g. "f32"
  int64_t elementBytes = 0;
  int64_t first = 0;          ///< first program point it is live at
  int64_t last = -1;          ///< last one (last < first: never live)
  bool alwaysLive = false;    ///< constant or resident parameter
  bool hostExchanged = false; ///< infed or outfed
  int32_t aliasOf = -1; ///< buffer whose storage it shares (reshape), or -1
  std::vector<int64_t> writers; ///< program points of the steps writing it
  TileShares tiles;             ///< tiles holding it; empty for an alias
  int64_t bytes = 0;            ///< Σ tiles' bytes
  int64_t paddedBytes = 0;      ///< Σ tiles' padded bytes

  bool isLive() const { return first <= last; }
  bool liveAt(int64_t point) const { return first <= point && point <= last; }
};

/// Program bytes on one tile besides its buffers, all always live.
struct TileOverheads {
  int64_t vertexCode = 0;   ///< per distinct vertex kind run on the tile
  int64_t vertexState = 0;  ///< per vertex instance on the tile
  int64_t exchangeCode = 0; ///< code and descriptors per exchange it joins
  int64_t controlCode = 0;  ///< the target's reserved code bytes
  int64_t stack = 0;        ///< the target's reserved stack bytes
  int64_t total() const {
    return vertexCode + vertexState + exchangeCode + controlCode + stack;
  }
};

/// The result of comparing the incremental live-byte sweep with a direct
/// sum over the buffers live at a point.
struct LivenessCheck {
  int64_t pointsChecked = 0;
  int64_t mismatches = 0;
  std::string firstMismatch; ///< "" when none

  /// Counts a mismatch; the first one is named.
  void mismatch(std::string what) {
    if (mismatches++ == 0)
      firstMismatch = std::move(what);
  }
};

/// Per tile, a list of buffer indices. Neighbouring tiles of a linear
/// mapping hold the same buffers, so tiles with the same list share it:
/// one list per tile was 4 bytes per (tile, buffer), 88 MB of a 30k-op
/// compile's peak.
class TileBufferLists {
public:
  using List = std::shared_ptr<const std::vector<uint32_t>>;
  llvm::ArrayRef<uint32_t> operator[](int64_t tile) const {
    return lists[tile] ? llvm::ArrayRef<uint32_t>(*lists[tile])
                       : llvm::ArrayRef<uint32_t>();
  }
  size_t size() const { return lists.size(); }
  /// Tiles' lists, in tile order; a tile may take the previous one's.
  void push_back(List list) { lists.push_back(std::move(list)); }

private:
  std::vector<List> lists;
};

struct ProgramLiveness {
  int64_t numTiles = 0;
  Schedule schedule;
  std::vector<BufferLiveness> buffers;  ///< in program order of the vars
  std::vector<TileOverheads> overheads; ///< per tile
  /// Per tile, the buffers (indices) live on it, alias-free, ascending.
  TileBufferLists buffersOnTile;
  /// Per tile, whether a live share starts or ends there (always at tile
  /// 0). A tile without one holds the same buffers with the same shares as
  /// the tile before it, so per-tile work on the shares (the allocation,
  /// the peak check) is done once per run of such tiles: linear mappings
  /// leave few changes (134 of 1,472 tiles for a 10k-op graph), and a
  /// walk over every (tile, buffer) pair was the part of the compile that
  /// grew faster than the graph, its cache misses growing with it.
  std::vector<bool> sharesChange;
  /// The distinct request lists of the tiles sharesChange marks, each
  /// known by the first tile that has it. Two tiles have one list when
  /// their shares, in buffersOnTile order, ask for the same live ranges
  /// and padded bytes: the allocation places each list once, and the
  /// self-check checks its peak once (see docs/memory.md).
  std::vector<int64_t> listFirstTile;
  /// Per tile sharesChange marks, in tile order: (tile, its list).
  std::vector<std::pair<int64_t, uint32_t>> listOfTile;
  /// Per program point, the buffers' bytes live on the whole chip.
  std::vector<int64_t> chipLivePadded, chipLiveBytes;
  LivenessCheck check;

  /// (tile, buffer) pairs of buffersOnTile: the per-tile work of the
  /// reports, which decides whether they are built in tasks or alongside.
  int64_t numShares() const {
    int64_t shares = 0;
    for (int64_t t = 0; t < numTiles; ++t)
      shares += buffersOnTile[t].size();
    return shares;
  }
  /// Program points (at least 1: a program without steps has point 0).
  int64_t numPoints() const {
    return std::max<int64_t>(1, schedule.numPoints());
  }
  /// Live buffer bytes of `tile` at every point (padded or not).
  std::vector<int64_t> tileCurve(int64_t tile, bool padded) const;
  /// The buffers live on `tile` at `point`, in buffer order.
  std::vector<uint32_t> liveOn(int64_t tile, int64_t point) const;
  /// Whether `tile` holds the same buffers with the same shares as the
  /// tile before it (see sharesChange).
  bool sameSharesAsPrevious(int64_t tile) const {
    return tile > 0 && !sharesChange[tile];
  }
  /// Per tile, the first tile of its stretch: the tiles after it that hold
  /// the same buffers with the same shares (sameSharesAsPrevious) share its
  /// allocation, so what depends on those alone is worked out once there.
  std::vector<int64_t> stretchStarts() const;
  /// Calls `fn(tile, requests)` on each tile that sharesChange marks, in
  /// tile order, with the requests of buffersOnTile[tile]'s shares in its
  /// order. One sweep over the buffers' runs keeps each buffer's current
  /// request in one array, so a tile's are gathered from there rather than
  /// found in every buffer's own runs (shareOn), whose cache misses made
  /// that walk grow faster than the graph.
  void forEachChangedTile(
      llvm::function_ref<void(int64_t, llvm::ArrayRef<ShareRequest>)> fn) const;
  /// The share of buffer `b` on `tile` (none if none): a binary search.
  std::optional<TileBytes> share(uint32_t b, int64_t tile) const;
  /// The share of the `i`-th buffer of buffersOnTile[tile]. Most buffers
  /// are one run (found at once), the rest a few (a short binary search):
  /// a run index per (tile, buffer) saved no time worth its memory.
  TileBytes shareOn(int64_t tile, size_t i) const {
    const std::vector<TileShares::Run> &runs =
        buffers[buffersOnTile[tile][i]].tiles.runs();
    if (runs.size() == 1)
      return runs.front().on(tile);
    return runs[buffers[buffersOnTile[tile][i]].tiles.runOf(tile)].on(tile);
  }
};

/// Liveness of `program` on `target` (whose tile count must cover the
/// program's `tiles`). Buffers' shares found in `shares` are taken from
/// there rather than computed.
ProgramLiveness computeLiveness(tile::ProgramOp program,
                                const TargetDescription &target,
                                ShareCache *shares = nullptr);

/// "Parameter", "Output", "Constant", "Temporary", "Thread-local" (the
/// per-tile partial sums of a split reduction).
llvm::StringRef categoryLabel(tile::Category category);

} // namespace tessera::memory

#endif // TESSERA_MEMORY_LIVENESS_H
