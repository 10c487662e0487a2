//===- ConvolutionGrid.h - a convolution's blocks on a tile grid -*- C++
//-*-===//
//
// The geometry the convolution lowering plans with: the grid of output
// blocks over tiles (contraction slices x batch x rows x columns x output
// features), each block's input window (halo included), weight block and
// output box, and the ranking of candidate grids by estimated cycles.
// Pure: it takes shapes and a target description (docs/tile-dialect.md,
// "convolution").
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_CONVERSION_TGRAPHTOTILE_CONVOLUTIONGRID_H
#define TESSERA_CONVERSION_TGRAPHTOTILE_CONVOLUTIONGRID_H

#include "tessera/Dialect/TGraph/IR/TGraph.h"
#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"

#include <array>
#include <string>

namespace tessera {

struct TargetDescription;

/// The grid: pk contraction slices (outermost, so the tiles owning the
/// result are [0, owners)), pb batch blocks, ps[0] x ps[1] blocks of the
/// first two spatial dimensions (rows, columns), pf feature blocks
/// (innermost), and the block sizes.
struct ConvGrid {
  int64_t pk = 1, pb = 1, pf = 1;
  std::array<int64_t, 2> ps = {1, 1};
  int64_t bk = 1, bb = 1, bf = 1;
  std::array<int64_t, 2> bs = {1, 1};
  int64_t owners() const { return pb * ps[0] * ps[1] * pf; }
  int64_t tiles() const { return pk * owners(); }
  int64_t tileOf(int64_t kk, int64_t ib, int64_t ir, int64_t ic,
                 int64_t jf) const {
    return (((kk * pb + ib) * ps[0] + ir) * ps[1] + ic) * pf + jf;
  }
  std::string str() const {
    return std::to_string(pk) + "x" + std::to_string(pb) + "x" +
           std::to_string(ps[0]) + "x" + std::to_string(ps[1]) + "x" +
           std::to_string(pf);
  }
};

/// One block's ranges: output batches, rows and columns (the first two
/// spatial dimensions), output features, and the contraction slice of the
/// input features of a group.
struct ConvBlock {
  int64_t b0, b1;
  std::array<int64_t, 2> s0, s1;
  int64_t f0, f1, c0, c1;
};

/// The convolution's geometry, from its operands and attributes.
struct ConvShape {
  tgraph::ConvDimLabels dims;
  llvm::SmallVector<int64_t> in, kernel, out;
  /// One per spatial dimension, in the labels' order.
  llvm::SmallVector<WindowDim> window;
  /// Output batch and features, input features per group, the group counts
  /// (groups = the larger one) and output features per group.
  int64_t B = 1, F = 1, Cg = 1, groups = 1, featureGroups = 1, batchGroups = 1,
          perGroup = 1;

  /// Output size along split spatial dimension i (1 when there is none).
  int64_t spatial(size_t i) const {
    return i < window.size() ? out[dims.output.spatial[i]] : 1;
  }
  /// The block of grid position (kk, ib, (ir, ic), jf).
  ConvBlock block(const ConvGrid &g, int64_t kk, int64_t ib,
                  std::array<int64_t, 2> is, int64_t jf) const;
  /// The input range along spatial dimension s that the block reads, or
  /// one element when it reads only padding.
  std::pair<int64_t, int64_t> spatialRange(const ConvBlock &b, size_t s) const;
  /// The input boxes of a block: per group its outputs touch, the group's
  /// batches (batch groups) or input features (feature groups) of the
  /// contraction slice; neighbouring groups' boxes merge.
  llvm::SmallVector<Box, 1> inputBoxes(const ConvBlock &b) const;
  /// The weight block: every window position, the contraction slice of
  /// kernel input features and the block's output features.
  Box weightBox(const ConvBlock &b) const;
  /// The block's part of the output.
  Box outputBox(const ConvBlock &b) const;
  /// Input elements a block shares with the next one along each spatial
  /// dimension: the halo (0 where the dimension is not split).
  llvm::SmallVector<int64_t> halo(const ConvGrid &g) const;
};

/// The grid candidates in order of estimated cycles (matrix-unit passes of
/// a full block plus the exchange of its window, weights and partials), within
/// the copy budgets, the tile memory, and at most 4 output intervals per
/// tile of the chip (a result split into a run per pixel would make every
/// later re-layout of it expensive).
llvm::SmallVector<ConvGrid> rankConvGrids(const ConvShape &shape,
                                          const TargetDescription &target,
                                          int64_t numTiles,
                                          int64_t elementBytes);

} // namespace tessera

#endif // TESSERA_CONVERSION_TGRAPHTOTILE_CONVOLUTIONGRID_H
