//===- ConvolutionGridTest.cpp - convolution blocks on a tile grid --------===//
//
// A block's input boxes (halo, padding, groups), weight and output boxes,
// and the grid ranking's limits, on both presets.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/ConvolutionGrid.h"
#include "tessera/Target/Presets.h"
#include "tessera/Target/Target.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

using namespace tessera;

namespace {

/// A 2-D convolution: input, kernel and output shapes in `labels`' layout,
/// the same padding on both spatial dimensions, stride 1 unless given.
ConvShape makeShape(llvm::StringRef labels, llvm::ArrayRef<int64_t> in,
                    llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> out,
                    int64_t pad, int64_t featureGroups = 1,
                    int64_t batchGroups = 1, int64_t stride = 1) {
  ConvShape cs;
  std::string error;
  cs.dims = *tgraph::parseConvDimLabels(labels, error);
  cs.in.assign(in.begin(), in.end());
  cs.kernel.assign(kernel.begin(), kernel.end());
  cs.out.assign(out.begin(), out.end());
  for (size_t s = 0; s < cs.dims.input.spatial.size(); ++s)
    cs.window.push_back({in[cs.dims.input.spatial[s]],
                         kernel[cs.dims.kernel.spatial[s]], stride, pad, pad, 1,
                         1});
  cs.B = out[cs.dims.output.batchOrInput];
  cs.F = out[cs.dims.output.featureOrOutput];
  cs.Cg = kernel[cs.dims.kernel.batchOrInput];
  cs.featureGroups = featureGroups;
  cs.batchGroups = batchGroups;
  cs.groups = std::max(featureGroups, batchGroups);
  cs.perGroup = cs.F / cs.groups;
  return cs;
}

ConvGrid makeGrid(const ConvShape &cs, int64_t bk, int64_t bb, int64_t br,
                  int64_t bc, int64_t bf) {
  ConvGrid g;
  g.bk = bk, g.bb = bb, g.bs = {br, bc}, g.bf = bf;
  g.pk = (cs.Cg + bk - 1) / bk, g.pb = (cs.B + bb - 1) / bb,
  g.ps = {(cs.spatial(0) + br - 1) / br, (cs.spatial(1) + bc - 1) / bc},
  g.pf = (cs.F + bf - 1) / bf;
  return g;
}

TEST(ConvolutionGridTest, SameConvWindowsCarryTheHalo) {
  ConvShape cs = makeShape("b01f_01io->b01f", {1, 16, 16, 8}, {3, 3, 8, 16},
                           {1, 16, 16, 16}, 1);
  ConvGrid g = makeGrid(cs, 8, 1, 4, 16, 16);
  // Rows 4..7 read input rows 3..8; the first block starts at row 0 (row -1
  // is padding).
  llvm::SmallVector<Box, 1> mid = cs.inputBoxes(cs.block(g, 0, 0, {1, 0}, 0));
  ASSERT_EQ(mid.size(), 1u);
  EXPECT_EQ(mid[0].lo, (llvm::SmallVector<int64_t, 4>{0, 3, 0, 0}));
  EXPECT_EQ(mid[0].hi, (llvm::SmallVector<int64_t, 4>{1, 9, 16, 8}));
  Box first = cs.inputBoxes(cs.block(g, 0, 0, {0, 0}, 0))[0];
  EXPECT_EQ(first.lo[1], 0);
  EXPECT_EQ(first.hi[1], 5);
  EXPECT_EQ(cs.halo(g), (llvm::SmallVector<int64_t>{2, 0}));
  Box out = cs.outputBox(cs.block(g, 0, 0, {1, 0}, 0));
  EXPECT_EQ(out.numElements(), 4 * 16 * 16);
}

TEST(ConvolutionGridTest, DepthwiseBlocksFetchOnlyTheirFeatures) {
  ConvShape cs = makeShape("b01f_01io->b01f", {1, 16, 16, 32}, {3, 3, 1, 32},
                           {1, 16, 16, 32}, 1, /*featureGroups=*/32);
  ConvGrid g = makeGrid(cs, 1, 1, 2, 2, 4);
  ConvBlock b = cs.block(g, 0, 0, {1, 1}, 2); // features 8..11
  llvm::SmallVector<Box, 1> boxes = cs.inputBoxes(b);
  ASSERT_EQ(boxes.size(), 1u); // the 4 groups' features merge
  EXPECT_EQ(boxes[0].lo, (llvm::SmallVector<int64_t, 4>{0, 1, 1, 8}));
  EXPECT_EQ(boxes[0].hi, (llvm::SmallVector<int64_t, 4>{1, 5, 5, 12}));
  Box w = cs.weightBox(b);
  EXPECT_EQ(w.lo, (llvm::SmallVector<int64_t, 4>{0, 0, 0, 8}));
  EXPECT_EQ(w.hi, (llvm::SmallVector<int64_t, 4>{3, 3, 1, 12}));
}

TEST(ConvolutionGridTest, BatchGroupBlocksReadOneBoxPerGroup) {
  // 2 batch groups: output features 0..2 read input batches 0..1, 3..5
  // read 2..3.
  ConvShape cs = makeShape("b01f_01io->b01f", {4, 6, 6, 3}, {3, 3, 3, 6},
                           {2, 4, 4, 6}, 0, 1, /*batchGroups=*/2);
  ConvGrid g = makeGrid(cs, 3, 1, 4, 4, 6);
  llvm::SmallVector<Box, 1> boxes = cs.inputBoxes(cs.block(g, 0, 1, {0, 0}, 0));
  ASSERT_EQ(boxes.size(), 2u);
  EXPECT_EQ(boxes[0].lo[0], 1);
  EXPECT_EQ(boxes[0].hi[0], 2);
  EXPECT_EQ(boxes[1].lo[0], 3);
  EXPECT_EQ(boxes[1].hi[0], 4);
}

TEST(ConvolutionGridTest, GroupBoxesAreThePerGroupBoxesMerged) {
  // inputBoxes joins the groups' boxes without building one per group; it
  // must give what one box per group, merged, gives: for feature and batch
  // groups, slices that are and are not whole groups, every block.
  struct Case {
    ConvShape cs;
    int64_t bk, bb, bf;
  };
  std::vector<Case> cases = {
      {makeShape("b01f_01io->b01f", {1, 8, 8, 32}, {3, 3, 1, 32}, {1, 8, 8, 32},
                 1, /*featureGroups=*/32),
       1, 1, 4},
      {makeShape("b01f_01io->b01f", {1, 8, 8, 32}, {3, 3, 4, 32}, {1, 8, 8, 32},
                 1, /*featureGroups=*/8),
       2, 1, 8},
      {makeShape("b01f_01io->b01f", {1, 8, 8, 32}, {3, 3, 4, 32}, {1, 8, 8, 32},
                 1, /*featureGroups=*/8),
       4, 1, 12},
      {makeShape("b01f_01io->b01f", {8, 6, 6, 4}, {3, 3, 4, 8}, {2, 6, 6, 8}, 1,
                 1, /*batchGroups=*/4),
       4, 2, 4},
      {makeShape("b01f_01io->b01f", {8, 6, 6, 4}, {3, 3, 4, 8}, {2, 6, 6, 8}, 1,
                 1, /*batchGroups=*/4),
       4, 1, 6}};
  for (const Case &c : cases) {
    const ConvShape &cs = c.cs;
    ConvGrid g = makeGrid(cs, c.bk, c.bb, 3, 2, c.bf);
    for (int64_t kk = 0; kk < g.pk; ++kk)
      for (int64_t ib = 0; ib < g.pb; ++ib)
        for (int64_t jf = 0; jf < g.pf; ++jf) {
          ConvBlock b = cs.block(g, kk, ib, {1, 2}, jf);
          llvm::SmallVector<Box, 1> expected;
          for (int64_t grp = b.f0 / cs.perGroup;
               grp <= (b.f1 - 1) / cs.perGroup; ++grp) {
            Box box;
            box.lo.assign(cs.in.size(), 0);
            box.hi.assign(cs.in.begin(), cs.in.end());
            for (size_t s = 0; s < cs.window.size(); ++s)
              std::tie(box.lo[cs.dims.input.spatial[s]],
                       box.hi[cs.dims.input.spatial[s]]) =
                  cs.spatialRange(b, s);
            int64_t bo = cs.batchGroups > 1 ? grp * cs.B : 0;
            int64_t fo = cs.featureGroups > 1 ? grp * cs.Cg : 0;
            box.lo[cs.dims.input.batchOrInput] = bo + b.b0;
            box.hi[cs.dims.input.batchOrInput] = bo + b.b1;
            box.lo[cs.dims.input.featureOrOutput] = fo + b.c0;
            box.hi[cs.dims.input.featureOrOutput] = fo + b.c1;
            expected.push_back(box);
          }
          mergeAdjacentBoxes(expected);
          llvm::SmallVector<Box, 1> got = cs.inputBoxes(b);
          ASSERT_EQ(got.size(), expected.size());
          for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].lo, expected[i].lo);
            EXPECT_EQ(got[i].hi, expected[i].hi);
          }
        }
  }
}

TEST(ConvolutionGridTest, RankedGridsFitTheTargetOnBothPresets) {
  ConvShape cs = makeShape("b01f_o01i->b01f", {1, 56, 56, 64}, {64, 3, 3, 64},
                           {1, 56, 56, 64}, 1);
  for (std::string name : {"tile-1472", "core-8"}) {
    llvm::Expected<TargetDescription> target = loadPreset(name);
    ASSERT_TRUE(static_cast<bool>(target)) << name;
    int64_t tiles = target->totalTiles();
    llvm::SmallVector<ConvGrid> grids = rankConvGrids(cs, *target, tiles, 4);
    ASSERT_FALSE(grids.empty()) << name;
    int64_t memory = target->sramBytesPerTile -
                     target->reservedBytesPerTile.code -
                     target->reservedBytesPerTile.stack;
    for (const ConvGrid &g : grids) {
      EXPECT_LE(g.tiles(), tiles) << name;
      ConvBlock b = cs.block(g, 0, 0, {0, 0}, 0);
      int64_t in = 0;
      for (const Box &box : cs.inputBoxes(b))
        in += box.numElements();
      EXPECT_LE(
          (in + cs.weightBox(b).numElements() + cs.outputBox(b).numElements()) *
              4,
          memory)
          << name << " grid " << g.str();
    }
    // The best grid uses the chip: every tile on core-8, hundreds on
    // tile-1472.
    EXPECT_GE(grids.front().tiles(), name == "core-8" ? 8 : 256) << name;
  }
}

} // namespace
