//===- DotGrid.h - a dot's blocks on a tile grid ----------------*- C++ -*-===//
//
// The geometry the dot lowering plans with (LowerDot.cpp): the contraction
// as [B, M, K] x [B, K, N], grids of result blocks over tiles (K slices x
// batches x M blocks x N blocks), their estimated cycles and bytes on the
// fullest tile, the choice among exact-divisor, ragged and memory-fitting
// grids, and a long contraction cut into passes over time. Pure: it takes
// shapes and the target's matrix unit (docs/tile-dialect.md, "dot").
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_DOTGRID_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_DOTGRID_H

#include "tessera/Target/Target.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

/// The contraction as [B, M, K] x [B, K, N], and which sizes may be split.
struct DotShape {
  int64_t B, M, N, K;
  bool splitB, splitM, splitN, splitK;
};

/// What a grid's cost counts with: the matrix unit, the exchange's bytes
/// per cycle and the operands' element size.
struct DotCosts {
  const MatrixUnit &unit;
  int64_t bandwidth, elementBytes;
};

/// A pk x pb x pm x pn grid of [bb, bm, bn, bk] blocks, except that the
/// last block along M has `em` rows and the last along N `en` columns (a
/// ragged grid; em == bm and en == bn when the grid is of exact divisors).
/// K slices are outermost, so the tiles owning the result are the
/// contiguous range [0, pb·pm·pn).
struct DotGrid {
  int64_t pk = 1, pb = 1, pm = 1, pn = 1;
  int64_t bb = 1, bm = 1, bn = 1, bk = 1, em = 1, en = 1;
  bool ragged() const { return em != bm || en != bn; }
  int64_t owners() const { return pb * pm * pn; }
  int64_t tiles() const { return pk * owners(); }
  int64_t rows(int64_t i) const { return i + 1 < pm ? bm : em; }
  int64_t cols(int64_t j) const { return j + 1 < pn ? bn : en; }
  int64_t tileOf(int64_t kk, int64_t ib, int64_t i, int64_t j) const {
    return ((kk * pb + ib) * pm + i) * pn + j;
  }
  /// The slowest tile's cycles, roughly: its (largest) block's MACs padded
  /// to the matrix unit, plus receiving its operand blocks and, with a K
  /// split, the partials of its result block (at least 4 bytes each: 16-bit
  /// contractions keep f32 partials). Counting the exchange keeps blocks
  /// square-ish (a thin block computes as fast but receives more) and K
  /// splits where they save more than they gather.
  int64_t cost(const DotCosts &c) const;
  std::string describe() const;
  /// The bytes the dot holds on its fullest tile (a result block's owner)
  /// at the larger of its two phases: the operand blocks with the
  /// partials they make, then (K split) the gathered partials with the
  /// result block.
  int64_t bytesPerTile(int64_t elementBytes, int64_t resultBytes) const;
};

/// A contraction cut into passes that run one after another on the same
/// tiles, each over K / passes of it, summed as they go.
struct DotPasses {
  int64_t passes = 1;
  DotGrid grid;
  std::string fitted;
  int64_t bytes = 0;
};

/// The grid a dot of shape `s` gets on `numTiles` tiles: the fastest, exact
/// or ragged, unless its fullest tile holds more than `budget` bytes; then
/// the grid that fits, when it holds fewer (`fitted` says so, with both
/// figures). `fastestBytes`, if given, gets the fastest grid's fullest tile.
DotGrid chooseDotGrid(const DotShape &s, const DotCosts &costs,
                      int64_t numTiles, int64_t budget, int64_t resultBytes,
                      std::string &fitted, int64_t *fastestBytes = nullptr);

/// When even the grid that fits best overflows a tile (`onePassBytes` on
/// its fullest tile: every tile of a one-pass grid holds a block row and
/// column over K / pk, and pk is bounded by the tiles), K cut into passes
/// that run one after another on the same tiles: the fewest (an exact
/// divisor of K, at most 256: each pass costs four steps or more) whose grid,
/// with the running sum
/// (`partialBytes` an element), fits `budget`, else the count with the
/// fewest bytes if that is below one pass's. None when K cannot be split.
std::optional<DotPasses>
chooseDotPasses(const DotShape &s, const DotCosts &costs, int64_t numTiles,
                int64_t budget, int64_t partialBytes, int64_t onePassBytes);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_DOTGRID_H
