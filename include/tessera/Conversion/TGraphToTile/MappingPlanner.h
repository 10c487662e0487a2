//===- MappingPlanner.h - where each tensor's elements live ------*- C++
//-*-===//
//
// The mapping planner chooses a tile mapping for every buffer the lowering
// creates. Its functions are pure: they take sizes and other mappings and
// return the flat runs of a #tile.mapping (first tile, end tile, elements per
// tile, first element) together with a `why` string that the lowering
// records on the tile.var, so a user can ask why a tensor sits where it sits.
//
// Policies (docs/tile-dialect.md, "Mapping policy"):
//  - linear: consecutive elements, a grain from the target's vector width per
//    tile, spread over as many tiles as useful;
//  - same as input: an in-place elementwise result takes its operand's runs;
//  - follow: each result element goes to the tile holding the source
//    element it is copied from (slices keep their source's layout).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_MAPPINGPLANNER_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_MAPPINGPLANNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

struct TargetDescription;

/// A planned mapping: flat #tile.mapping runs and the reason for them.
struct PlannedMapping {
  llvm::SmallVector<int64_t> runs;
  std::string why;
};

/// Tensors of at most this many elements may sit on one tile; larger ones are
/// always spread over at least two tiles when the target has more than one
/// (the IPU rule: a single tile must not serialise a whole tensor).
inline constexpr int64_t kSingleTileMaxElements = 16;

/// The mapping grain for `dtype` (HLO name) on `target`: the vector width, so
/// every tile's share fills whole vectors; 1 when the target gives none.
int64_t mappingGrain(const TargetDescription &target, llvm::StringRef dtype);

/// Linear mapping of `numElements` over tiles [0, numTiles): each tile gets
/// ceil(n / numTiles) rounded up to `grain`, the last used tile the rest. The
/// grain is halved as long as it would put a tensor of more than
/// kSingleTileMaxElements elements on a single tile. With `firstTile`, the
/// same shares start on that tile and wrap past the last one to tile 0.
PlannedMapping planLinear(int64_t numElements, int64_t numTiles, int64_t grain,
                          int64_t firstTile = 0);

/// Number of distinct tiles a mapping's runs use.
int64_t tilesUsed(llvm::ArrayRef<int64_t> runs);

/// The bytes the mappings planned so far put on each tile: a running load,
/// blind to liveness, that tells a tensor covering only part of the chip
/// where the chip is emptiest, so small tensors, tables and host-exchange
/// buffers do not all start on tile 0.
class TileLoad {
public:
  explicit TileLoad(int64_t numTiles)
      : bytes(std::max<int64_t>(numTiles, 1)), pending(bytes.size() + 1) {}
  /// Adds a mapping of elements of `elementBytes` bytes.
  void add(llvm::ArrayRef<int64_t> runs, int64_t elementBytes);
  /// The first of `span` consecutive tiles (not wrapping past the last
  /// tile) holding the fewest bytes together; ties go to the lowest tile,
  /// so an empty chip gives tile 0.
  int64_t leastLoadedStart(int64_t span);
  int64_t on(int64_t tile) {
    settle();
    return bytes[tile];
  }

private:
  /// Adds the pending steps into `bytes`.
  void settle();
  llvm::SmallVector<int64_t> bytes;
  /// Each tile's change in the running sum of the mappings added since the
  /// last read: two steps a run, whatever its tiles. The lowering adds
  /// every buffer it makes (a buffer over the whole chip was 1,472
  /// additions, 4% of the 10k-op graph's compile) and reads only for a
  /// balanced tensor of a size it has not placed yet.
  llvm::SmallVector<int64_t> pending;
  bool dirty = false;
};

/// An in-place result: the runs of its operand `inputName`.
PlannedMapping planSameAs(llvm::ArrayRef<int64_t> inputRuns,
                          llvm::StringRef inputName);
/// planSameAs's `why`, for a result that takes its operand's mapping
/// attribute as it is.
std::string sameLayoutWhy(llvm::StringRef inputName);

/// Compresses per-tile element intervals (tile, begin, end), listed in
/// element order, into runs: consecutive intervals on consecutive tiles with
/// the same length become one run.
llvm::SmallVector<int64_t>
compressIntervals(llvm::ArrayRef<std::array<int64_t, 3>> intervals);

/// Finds which tile holds each element of a mapping (binary search over its
/// runs, then the tile by division); -1 for an unmapped element.
class TileLookup {
public:
  explicit TileLookup(llvm::ArrayRef<int64_t> runs);
  int64_t tileOf(int64_t element) const {
    Interval iv;
    return find(element, iv) ? iv.tile : -1;
  }
  /// End (exclusive) of the interval holding `element` on its tile.
  int64_t intervalEnd(int64_t element) const {
    Interval iv;
    return find(element, iv) ? iv.end : element;
  }
  /// The tile holding `element` and its interval there [begin, end), in one
  /// search; false for an unmapped element.
  bool locate(int64_t element, int64_t &tile, int64_t &begin,
              int64_t &end) const {
    Interval iv;
    if (!find(element, iv))
      return false;
    tile = iv.tile;
    begin = iv.begin;
    end = iv.end;
    return true;
  }

private:
  struct Interval {
    int64_t begin, end, tile;
  };
  /// Elements [begin, end) on tiles firstTile, firstTile + 1, ..., perTile
  /// (> 0) each: a run of the mapping, or one tile's interval when runs
  /// overlap (then each interval is looked up alone, as a mapping that is
  /// not one-to-one needs).
  struct Segment {
    int64_t begin, end, perTile, firstTile;
  };
  bool find(int64_t element, Interval &iv) const;
  llvm::SmallVector<Segment> segments;
  /// The segment of the previous lookup (a hint, not state that matters).
  mutable size_t last = 0;
};

/// A result that follows its source: result element i goes to the tile that
/// holds source element `sourceIndex(i)` (the slice/reverse policy, so the
/// copy stays on each tile). Nullopt when that would take more than
/// `maxIntervals` per-tile intervals (a fragmented layout is worse than an
/// exchange into a linear one).
std::optional<PlannedMapping>
planFollow(llvm::ArrayRef<int64_t> sourceRuns, llvm::StringRef sourceName,
           int64_t numElements,
           llvm::function_ref<int64_t(int64_t)> sourceIndex,
           int64_t maxIntervals);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_MAPPINGPLANNER_H
