//===- ReducePartials.h - where a reduction's partials go --------*- C++
//-*-===//
//
// A reduce is lowered as per-tile partials (one slot per output a tile's
// input elements contribute to) gathered on the tiles owning the outputs
// (LowerReduce.cpp). These helpers plan both layouts from the mappings and
// the shape alone, by intervals and blocks rather than element by element:
// a tile's elements are walked a block of trailing reduced dimensions at a
// time (one output per block), and the gathered order comes from two
// counting sorts rather than a comparison sort of every slot.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_REDUCEPARTIALS_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_REDUCEPARTIALS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera {

/// The outputs of the tiles holding input elements, tile after tile in one
/// array: listed tile tiles[k]'s are outputs[firstOf[k], firstOf[k + 1]).
/// One array, not a vector per tile: a reduce over 1,472 tiles made 1,472
/// small growing vectors, and at 100k ops their allocations grew faster
/// than the ops did. Only the tiles holding input elements are listed: a
/// reduce of a small tensor had walked the whole chip's tiles three times
/// over (a sixth of the lowering of the 10k-op graph's 870 reduces).
struct TileOutputs {
  std::vector<int64_t> outputs;
  std::vector<int64_t> tiles; ///< ascending, each with outputs
  std::vector<size_t> firstOf = {0};
  size_t numListed() const { return tiles.size(); }
  llvm::ArrayRef<int64_t> ofListed(size_t k) const {
    return llvm::ArrayRef<int64_t>(outputs).slice(firstOf[k],
                                                  firstOf[k + 1] - firstOf[k]);
  }
  /// Tile `tile`'s outputs (none when it holds no input element).
  llvm::ArrayRef<int64_t> of(int64_t tile) const;
};

/// For each tile of [0, numTiles) holding input elements, the outputs they
/// reduce into, each once, in the order the tile's elements (ascending)
/// first reach them. Input element i of `inShape` goes to output
/// sum_k c_k * outStrides[k], c_k its coordinates along the dimensions not
/// `reduced`, in order. Nullopt when `inRuns` do not map every element of
/// [0, prod(inShape)) exactly once on tiles below numTiles.
std::optional<TileOutputs>
partialOutputsPerTile(llvm::ArrayRef<int64_t> inRuns,
                      llvm::ArrayRef<int64_t> inShape,
                      llvm::ArrayRef<bool> reduced,
                      llvm::ArrayRef<int64_t> outStrides, int64_t numTiles);

/// One gathered partial: the tile owning its output, the output, the tile
/// its partial was made on, and that partial's slot in the partials buffer.
struct GatheredSlot {
  int64_t owner, output, tile, partial;
};

/// The gathered slots ordered by (owner, output, tile), partials numbered
/// tile-major from the `outputsOfTile` lists (outputs below
/// ownerOf.size()); `ownerOf` gives each output's owner, none negative.
std::vector<GatheredSlot> orderGatheredSlots(const TileOutputs &outputsOfTile,
                                             llvm::ArrayRef<int64_t> ownerOf);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_REDUCEPARTIALS_H
