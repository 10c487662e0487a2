//===- WindowPlanning.h - halo windows and block copies ----------*- C++
//-*-===//
//
// Pure helpers for lowering windowed ops (convolution, reduce_window) onto a
// grid of tiles: which input elements a block of outputs reads (its window,
// halo included), the row-major contiguous spans of a box of a tensor, and
// exchange copy runs built from per-block copy pieces.
//
// Copy pieces are folded "diagonally": an exchange run moves `count` copies
// whose source and destination tiles both advance by one, so a block that is
// replicated to many tiles (a weight block for every row block) folds into
// one run per (tile distance, offset pattern) instead of one per copy.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_WINDOWPLANNING_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_WINDOWPLANNING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tessera {

class TileLookup;

/// Budgets of one windowed op's plan: elements and copy pieces (before
/// folding) of the distinct blocks planned from the source; replicas of a
/// block cost one copy each and are not counted.
inline constexpr int64_t kMaxWindowCopyElements = int64_t(1) << 22;
inline constexpr int64_t kMaxWindowPieces = int64_t(1) << 20;
/// Exchange cycles the grid choice charges per contiguous piece a tile
/// receives, so it prefers unfragmented windows.
inline constexpr int64_t kCyclesPerPiece = 4;

/// One windowed dimension, in HLO terms: output o reads the positions
/// o·stride + j·windowDilation (j < window) of the input dilated by
/// baseDilation and padded by padLow / padHigh (negative padding crops).
struct WindowDim {
  int64_t inputSize = 1;
  int64_t window = 1;
  int64_t stride = 1;
  int64_t padLow = 0;
  int64_t padHigh = 0;
  int64_t baseDilation = 1;
  int64_t windowDilation = 1;
};

/// The input index range [first, end) that outputs [out0, out1) read along
/// `dim`: the block's window including its halo (the rows it shares with
/// neighbouring blocks). Positions in padding, and holes of a dilated input
/// at the ends, are not part of it. Empty (first >= end) when the block
/// reads only padding.
std::pair<int64_t, int64_t> windowInputRange(const WindowDim &dim, int64_t out0,
                                             int64_t out1);

/// Calls fn(offset, length) for each maximal contiguous span of the box
/// [lo, hi) of a row-major tensor of `shape`, in row-major order (so the
/// spans, concatenated, are the box in row-major order). Nothing for an
/// empty box.
void forEachBoxSpan(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> lo,
                    llvm::ArrayRef<int64_t> hi,
                    llvm::function_ref<void(int64_t, int64_t)> fn);

/// The number of spans forEachBoxSpan would produce.
int64_t boxSpanCount(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> lo,
                     llvm::ArrayRef<int64_t> hi);

/// The per-tile intervals (tile, begin, end), in element order, of a
/// buffer whose spans (begin, end, tile) are given in any order: spans that
/// meet on one tile are joined. Sorts `spans`.
llvm::SmallVector<std::array<int64_t, 3>>
tileIntervals(std::vector<std::array<int64_t, 3>> &spans);

/// One copy: `length` elements from srcElement (on srcTile) to dstElement
/// (on dstTile); contiguous, or with chunk > 0, length / chunk chunks of
/// `chunk` elements, srcChunkStride / dstChunkStride apart (a strided
/// tile.exchange run, see `strided`).
struct CopyPiece {
  int64_t srcTile, dstTile, length, srcElement, dstElement;
  int64_t chunk = 0, srcChunkStride = 0, dstChunkStride = 0;
};

/// Appends the pieces copying source elements [srcStart, srcStart + length)
/// to destination elements from dstStart on dstTile, split where the source
/// mapping changes tile or interval. False when an element is not mapped.
bool appendSpanPieces(const TileLookup &source, int64_t dstTile,
                      int64_t srcStart, int64_t dstStart, int64_t length,
                      std::vector<CopyPiece> &pieces);

/// tile.exchange copy runs (src tile, dst tile, count, elements, src
/// element, src stride, dst element, dst stride) moving every piece exactly
/// once. Pieces with the same tile distance and length on consecutive
/// source tiles are paired in element order and become one run while their
/// element strides stay constant. May reorder `pieces`.
///
/// With `strided`, two more forms are tried and the one with fewest runs
/// kept: pieces between one tile pair that repeat at constant element
/// strides become one strided piece (a weight block's rows), and runs may
/// also fold pieces from consecutive source tiles into one destination tile
/// or the reverse (tile steps 1, 0 and 0, 1). When a strided form wins,
/// `strided` gets each run's (chunk, src chunk stride, dst chunk stride, src
/// tile step, dst tile step); else it stays empty. Ties keep the plain
/// form. A form is not folded when its tile lines (each run stays on one)
/// are more than another form's runs.
llvm::SmallVector<int64_t>
foldCopyPieces(std::vector<CopyPiece> &pieces,
               llvm::SmallVectorImpl<int64_t> *strided = nullptr);

/// A box of a tensor: [lo[d], hi[d]) along each dimension d.
struct Box {
  llvm::SmallVector<int64_t, 4> lo, hi;
  int64_t numElements() const;
};

/// Merges consecutive boxes that differ in one dimension only and touch
/// there (the windows of neighbouring groups of a grouped convolution).
void mergeAdjacentBoxes(llvm::SmallVectorImpl<Box> &boxes);

/// A buffer of blocks, one per tile: its per-tile intervals (tile, begin,
/// end), in element order, its size, and the exchange runs filling it:
/// `copies` from the source into the first block of each distinct content,
/// then `replicaCopies` within the buffer from that block to the others
/// with the same boxes (one contiguous copy per replica, so replicating a
/// block costs a run per tile at most, not one per source piece).
struct BlockCopyPlan {
  llvm::SmallVector<std::array<int64_t, 3>> intervals;
  int64_t numElements = 0;
  llvm::SmallVector<int64_t> copies, replicaCopies;
  /// The `strided` integers of `copies` (empty when not strided).
  llvm::SmallVector<int64_t> copyStrides;
  int64_t numPrimaries = 0;
};

/// One tile's block: the boxes of the source it receives, laid out one after
/// another, each in row-major order.
struct TileBlock {
  int64_t tile;
  llvm::SmallVector<Box, 1> boxes;
};

/// Plans the blocks buffer of `blocks` (in tile order) copied from a source
/// of `sourceShape` mapped by `sourceRuns`. Nullopt when more than
/// `maxPieces` copy pieces or `maxRuns` folded runs (of both exchanges)
/// would be needed, or a source element is not mapped. The same as
/// gatherBlockCopies then foldBlockCopies.
std::optional<BlockCopyPlan> planBlockCopies(
    llvm::ArrayRef<int64_t> sourceShape, llvm::ArrayRef<int64_t> sourceRuns,
    llvm::ArrayRef<TileBlock> blocks, int64_t maxPieces, int64_t maxRuns);

/// planBlockCopies up to its folds: the plan's intervals, element count
/// and primaries (its copies left empty), and the pieces and replica
/// copies that fold into them. The folds are most of the work and need
/// nothing else, so a caller may run them elsewhere (the lowering does, on
/// another thread).
struct BlockCopyPieces {
  BlockCopyPlan plan;
  std::vector<CopyPiece> pieces, replicas;
  /// At most this many runs come of the folds: a fold never makes more
  /// runs than it has pieces.
  int64_t maxFoldedRuns() const {
    return static_cast<int64_t>(pieces.size() + replicas.size());
  }
};
std::optional<BlockCopyPieces>
gatherBlockCopies(llvm::ArrayRef<int64_t> sourceShape,
                  llvm::ArrayRef<int64_t> sourceRuns,
                  llvm::ArrayRef<TileBlock> blocks, int64_t maxPieces);
/// Folds gathered pieces into the plan's copies and replica copies;
/// nullopt when they come to more than `maxRuns` runs.
std::optional<BlockCopyPlan> foldBlockCopies(BlockCopyPieces gathered,
                                             int64_t maxRuns);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_WINDOWPLANNING_H
