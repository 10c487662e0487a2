//===- Layout.h - how a tile stores its part of a buffer ---*- C++ -*-===//
//
// A tile keeps its part of a buffer densely, in whole layout tiles of the
// target ([rows, cols]). This is the rule for how many element slots that
// takes: the least-padded view of a block, and of a part that is not one.
// The memory analysis sizes buffers with it and the lowering plans linear
// mappings with it. See docs/targets.md and docs/memory.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TARGET_LAYOUT_H
#define TESSERA_TARGET_LAYOUT_H

#include "tessera/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>

namespace tessera {

/// How a dense block is stored in layout tiles: each of its dims goes to
/// the layout tile's rows, its columns or the major (outer) part, and the
/// dims of each part are merged, so the block is [major, rows, cols] with
/// rows and cols rounded up to the layout tile's. The compiler picks the
/// view that pads least for each block, as XLA's TPU layout assignment picks
/// a dim order per array (the producer writes the block in that order). A
/// vector (at most one dim above 1) is instead folded row by row into whole
/// layout tiles, as a vector register file holds it. See docs/targets.md.
struct LayoutView {
  enum Part : uint8_t { Major, Rows, Cols };
  /// One entry per dim of the block.
  llvm::SmallVector<Part, 6> parts;
  bool folded = false;
  int64_t paddedElements = 0;
};

/// The least-padded view of a block of `shape` (negative dims count as 0).
LayoutView layoutViewOf(llvm::ArrayRef<int64_t> shape, LayoutTile tile);

/// Element slots a tile stores for the element intervals [begin, end) (in
/// row-major order of `shape`) it holds. When they fill a box of the buffer
/// (a range of each dim), the tile stores that block in its least-padded
/// LayoutView; otherwise as the boxes of its runs (paddedRunAsBoxes) or in
/// the buffer's own layout tiles of its two minor dims (rank 0 and 1 are
/// [1, 1] and [1, n]), paying for each one they touch — whichever is less.
/// Intervals may come in any order and may be adjacent.
int64_t
paddedElementsOnTile(llvm::ArrayRef<int64_t> shape, LayoutTile layout,
                     llvm::ArrayRef<std::pair<int64_t, int64_t>> intervals);

/// A shift, in elements, that leaves paddedElementsOnTile unchanged: moving
/// every interval of a part by a multiple of it (staying inside the
/// buffer) moves its box, its runs' boxes and the layout tiles it touches
/// by whole steps of the buffer's outer dims (rank 2: by whole rows of
/// layout tiles). A tile's share of a buffer can thus be sized once per
/// distinct pattern of intervals. 0 when there is none (rank 0, a dim
/// under 1).
int64_t paddingPeriod(llvm::ArrayRef<int64_t> shape, LayoutTile layout);

/// Element slots of the run [begin, end) of a buffer of `shape` (all dims
/// positive) stored as the boxes it is made of, each in its least-padded
/// LayoutView: a run of a row-major buffer is at most 2 × rank - 1 boxes.
int64_t paddedRunAsBoxes(llvm::ArrayRef<int64_t> shape, LayoutTile layout,
                         int64_t begin, int64_t end);

} // namespace tessera

#endif // TESSERA_TARGET_LAYOUT_H
