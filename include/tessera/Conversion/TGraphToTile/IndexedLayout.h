//===- IndexedLayout.h - layouts for ops indexed at run time -----*- C++
//-*-===//
//
// gather, scatter, dynamic_slice, dynamic_update_slice and sort read or
// write elements chosen at run time, so no exchange pattern can depend on
// where the data goes. They are lowered the way embedding-lookup libraries
// on tile machines do it: the dimensions indexed at run time are kept whole
// on every tile and the other dimensions are split over tiles, so each tile
// can compute its part of the result from its own data once it has a copy
// of the indices.
//
// A *position* is an element's row-major index over the dimensions that are
// split (the "whole" dimensions left out); all elements of one position live
// on one tile. These helpers are pure: positions, mappings built from a
// position -> tile assignment, and the exchange runs that replicate a small
// buffer (the indices) on many tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_INDEXEDLAYOUT_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_INDEXEDLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace tessera {

/// The dimensions an op indexed at run time keeps whole: those where its
/// window (gather slice, scatter / update window, dynamic-slice sizes) is
/// smaller than the operand, so a run-time start can move it. Elsewhere the
/// start clamps to 0 and the window is the whole dimension.
llvm::SmallVector<int64_t> windowedDims(llvm::ArrayRef<int64_t> operandShape,
                                        llvm::ArrayRef<int64_t> window);

/// Positions of a tensor whose `wholeDims` stay whole on each tile.
class WholeDimSplit {
public:
  WholeDimSplit(llvm::ArrayRef<int64_t> shape,
                llvm::ArrayRef<int64_t> wholeDims);
  /// Number of positions: the product of the split dimensions' sizes.
  int64_t numPositions() const { return positions; }
  /// Elements per position: the product of the whole dimensions' sizes.
  int64_t wholeExtent() const { return extent; }
  /// The position of the element with coordinates `coords` (coordinates
  /// along whole dimensions are ignored).
  int64_t positionOf(llvm::ArrayRef<int64_t> coords) const;
  /// The position of row-major element `element`.
  int64_t positionOfElement(int64_t element) const;
  /// Per dimension: its stride in the position index (0 for whole ones).
  llvm::ArrayRef<int64_t> strides() const { return positionStride; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }

private:
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<int64_t> positionStride;
  int64_t positions = 1, extent = 1;
};

/// The tile of each position under an existing mapping (`runs`) of a tensor
/// with `split`'s shape, or nullopt when some position's elements are on
/// more than one tile (the layout cannot be used in place).
std::optional<llvm::SmallVector<int64_t>>
positionTiles(llvm::ArrayRef<int64_t> runs, const WholeDimSplit &split);

/// Runs of the mapping that puts each element of a buffer of `shape` on
/// `tileOfPosition[position]`, where the element's position is the dot
/// product of its coordinates with `positionStrides` (a buffer other than
/// the split tensor, e.g. a gather result, has its own strides; 0 for a
/// dimension that does not move the position). Consecutive elements on one
/// tile form one interval, equal intervals on consecutive tiles one run.
/// Nullopt when that takes more than `maxIntervals` per-tile intervals (a
/// layout too fragmented to use), found as soon as the budget is passed.
/// A row whose positions advance by 0 or 1 costs one step per tile it
/// crosses, any other one step per element; no division per element.
std::optional<llvm::SmallVector<int64_t>>
runsForPositions(llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> positionStrides,
                 llvm::ArrayRef<int64_t> tileOfPosition, int64_t maxIntervals);

/// Exchange runs (tile.exchange's eight-integer format) that give tile
/// `destTiles[i]` a whole copy of a `numElements`-element source buffer
/// mapped by `sourceRuns`, stored at elements [i·n, (i+1)·n) of the
/// destination. Each source interval is sent to every destination; copies
/// on the same diagonal (source tile and destination tile both advancing by
/// one, strides constant) fold into one run, so replicating a linearly
/// mapped buffer on D consecutive tiles takes about D + S runs for S source
/// tiles, not D·S.
llvm::SmallVector<int64_t>
planReplicateCopies(llvm::ArrayRef<int64_t> sourceRuns, int64_t numElements,
                    llvm::ArrayRef<int64_t> destTiles);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_INDEXEDLAYOUT_H
