//===- ConvolutionGrid.cpp - a convolution's blocks on a tile grid --------===//

#include "tessera/Conversion/TGraphToTile/ConvolutionGrid.h"

#include "tessera/Target/Target.h"

#include <algorithm>
#include <set>
#include <tuple>

using namespace tessera;
using llvm::SmallVector;

namespace {

/// Powers of two up to `max`, and `max` itself.
SmallVector<int64_t> splitCandidates(int64_t max) {
  SmallVector<int64_t> c;
  for (int64_t p = 1; p < max; p *= 2)
    c.push_back(p);
  c.push_back(std::max<int64_t>(max, 1));
  return c;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace

ConvBlock ConvShape::block(const ConvGrid &g, int64_t kk, int64_t ib,
                           std::array<int64_t, 2> is, int64_t jf) const {
  ConvBlock b;
  b.b0 = ib * g.bb, b.b1 = std::min(B, (ib + 1) * g.bb);
  for (size_t i = 0; i < 2; ++i) {
    b.s0[i] = is[i] * g.bs[i];
    b.s1[i] = std::min(spatial(i), (is[i] + 1) * g.bs[i]);
  }
  b.f0 = jf * g.bf, b.f1 = std::min(F, (jf + 1) * g.bf);
  b.c0 = kk * g.bk, b.c1 = std::min(Cg, (kk + 1) * g.bk);
  return b;
}

std::pair<int64_t, int64_t> ConvShape::spatialRange(const ConvBlock &b,
                                                    size_t s) const {
  auto [lo, hi] = s < 2 ? windowInputRange(window[s], b.s0[s], b.s1[s])
                        : windowInputRange(window[s], 0, spatial(s));
  // A block reading only padding still gets one element, so every vertex
  // has its operands on its tile.
  if (lo >= hi) {
    lo = std::clamp<int64_t>(lo, 0, window[s].inputSize - 1);
    hi = lo + 1;
  }
  return {lo, hi};
}

SmallVector<Box, 1> ConvShape::inputBoxes(const ConvBlock &b) const {
  Box base;
  base.lo.assign(in.size(), 0);
  base.hi.assign(in.begin(), in.end());
  for (size_t s = 0; s < window.size(); ++s)
    std::tie(base.lo[dims.input.spatial[s]], base.hi[dims.input.spatial[s]]) =
        spatialRange(b, s);
  // The boxes of groups [first, last]: the batches (batch groups) or input
  // features (feature groups) of the slice, from first's to last's.
  auto groupsBox = [&](int64_t first, int64_t last) {
    Box box = base;
    int64_t bo = batchGroups > 1 ? B : 0, fo = featureGroups > 1 ? Cg : 0;
    box.lo[dims.input.batchOrInput] = first * bo + b.b0;
    box.hi[dims.input.batchOrInput] = last * bo + b.b1;
    box.lo[dims.input.featureOrOutput] = first * fo + b.c0;
    box.hi[dims.input.featureOrOutput] = last * fo + b.c1;
    return box;
  };
  int64_t firstGroup = b.f0 / perGroup, lastGroup = (b.f1 - 1) / perGroup;
  // Neighbouring groups' boxes differ in the grouped dimension only, and
  // touch exactly when the slice is the whole group there; then they join
  // into one box (what mergeAdjacentBoxes makes of them, without building
  // one box per group: a depthwise block has a group per feature).
  bool oneGroupedDim = (batchGroups > 1) != (featureGroups > 1);
  bool wholeGroup = batchGroups > 1 ? b.b1 - b.b0 == B : b.c1 - b.c0 == Cg;
  if (firstGroup == lastGroup || (oneGroupedDim && wholeGroup))
    return {groupsBox(firstGroup, lastGroup)};
  SmallVector<Box, 1> boxes;
  for (int64_t g = firstGroup; g <= lastGroup; ++g)
    boxes.push_back(groupsBox(g, g));
  mergeAdjacentBoxes(boxes);
  return boxes;
}

Box ConvShape::weightBox(const ConvBlock &b) const {
  Box box;
  box.lo.assign(kernel.size(), 0);
  box.hi.assign(kernel.begin(), kernel.end());
  box.lo[dims.kernel.batchOrInput] = b.c0;
  box.hi[dims.kernel.batchOrInput] = b.c1;
  box.lo[dims.kernel.featureOrOutput] = b.f0;
  box.hi[dims.kernel.featureOrOutput] = b.f1;
  return box;
}

Box ConvShape::outputBox(const ConvBlock &b) const {
  Box box;
  box.lo.assign(out.size(), 0);
  box.hi.assign(out.begin(), out.end());
  box.lo[dims.output.batchOrInput] = b.b0;
  box.hi[dims.output.batchOrInput] = b.b1;
  box.lo[dims.output.featureOrOutput] = b.f0;
  box.hi[dims.output.featureOrOutput] = b.f1;
  for (size_t i = 0; i < 2 && i < window.size(); ++i) {
    box.lo[dims.output.spatial[i]] = b.s0[i];
    box.hi[dims.output.spatial[i]] = b.s1[i];
  }
  return box;
}

SmallVector<int64_t> ConvShape::halo(const ConvGrid &g) const {
  SmallVector<int64_t> h(window.size(), 0);
  for (size_t i = 0; i < 2 && i < window.size(); ++i) {
    if (g.ps[i] < 2)
      continue;
    int64_t b = g.bs[i];
    int64_t firstEnd = windowInputRange(window[i], 0, b).second;
    int64_t secondBegin =
        windowInputRange(window[i], b, std::min(spatial(i), 2 * b)).first;
    h[i] = std::max<int64_t>(0, firstEnd - secondBegin);
  }
  return h;
}

SmallVector<ConvGrid> tessera::rankConvGrids(const ConvShape &cs,
                                             const TargetDescription &target,
                                             int64_t numTiles, int64_t bytes) {
  const MatrixUnit &mu = target.matrixUnit;
  int64_t um = std::max<int64_t>(mu.m, 1), un = std::max<int64_t>(mu.n, 1),
          uk = std::max<int64_t>(mu.k, 1);
  int64_t bandwidth =
      std::max<int64_t>(target.exchange.bandwidthBytesPerCycle, 1);
  int64_t memory = target.sramBytesPerTile - target.reservedBytesPerTile.code -
                   target.reservedBytesPerTile.stack;
  int64_t windowSize = 1, pixels = 1;
  for (size_t s = 0; s < cs.window.size(); ++s) {
    windowSize *= cs.window[s].window;
    pixels *= cs.spatial(s);
  }
  int64_t outTotal = 1;
  for (int64_t d : cs.out)
    outTotal *= d;
  // Blocks of at least the unit's m pixels, n features, k input features.
  int64_t maxPixelBlocks = ceilDiv(pixels, um);
  int64_t maxPf = ceilDiv(cs.F, un);
  int64_t maxPk = cs.featureGroups == 1 ? ceilDiv(cs.Cg, uk) : 1;
  struct Ranked {
    int64_t cycles;
    ConvGrid grid;
  };
  SmallVector<Ranked> ranked;
  std::set<std::array<int64_t, 5>> seen; // block sizes already ranked
  auto consider = [&](ConvGrid g) {
    g.pb = ceilDiv(cs.B, g.bb), g.pf = ceilDiv(cs.F, g.bf),
    g.pk = ceilDiv(cs.Cg, g.bk);
    for (size_t i = 0; i < 2; ++i)
      g.ps[i] = ceilDiv(cs.spatial(i), g.bs[i]);
    if (g.tiles() > numTiles || g.ps[0] * g.ps[1] > maxPixelBlocks)
      return;
    if (!seen.insert({g.bb, g.bs[0], g.bs[1], g.bf, g.bk}).second)
      return;
    // A full block away from the edges stands for all of them.
    ConvBlock b = cs.block(
        g, 0, 0,
        {std::min<int64_t>(1, g.ps[0] - 1), std::min<int64_t>(1, g.ps[1] - 1)},
        0);
    int64_t inElems = 0, inSpans = 0;
    for (const Box &box : cs.inputBoxes(b)) {
      inElems += box.numElements();
      inSpans += boxSpanCount(cs.in, box.lo, box.hi);
    }
    Box w = cs.weightBox(b);
    int64_t wElems = w.numElements(),
            wSpans = boxSpanCount(cs.kernel, w.lo, w.hi);
    Box o = cs.outputBox(b);
    int64_t outElems = o.numElements();
    int64_t partialElems = g.pk > 1 ? g.pk * outElems : 0;
    // Distinct blocks are planned from the source piece by piece; replicas
    // are one copy each, so only distinct blocks count against the budgets
    // (the exchange volume of replicas is in the cycle estimate).
    int64_t distinctIn = cs.groups == 1 ? g.tiles() / g.pf : g.tiles();
    int64_t distinctW = g.pk * g.pf;
    if (distinctIn * inElems + distinctW * wElems + g.pk * outTotal >
            kMaxWindowCopyElements ||
        distinctIn * inSpans + distinctW * wSpans > kMaxWindowPieces ||
        g.owners() * boxSpanCount(cs.out, o.lo, o.hi) > 4 * numTiles)
      return;
    if (memory > 0 && (inElems + wElems + outElems +
                       (g.pk > 1 ? partialElems + outElems : 0)) *
                              bytes >
                          memory)
      return;
    int64_t bf = b.f1 - b.f0, bk = b.c1 - b.c0;
    int64_t blockPixels = outElems / bf; // batch x pixels: the unit's m
    int64_t compute;
    if (cs.groups == 1) {
      compute = ceilDiv(blockPixels, um) * ceilDiv(bf, un) *
                ceilDiv(bk * windowSize, uk);
    } else {
      int64_t groupsTouched = (b.f1 - 1) / cs.perGroup - b.f0 / cs.perGroup + 1;
      compute = groupsTouched * ceilDiv(blockPixels, um) *
                ceilDiv(std::min(bf, cs.perGroup), un) *
                ceilDiv(cs.Cg * windowSize, uk);
    }
    int64_t exchange = (inElems + wElems + partialElems) * bytes / bandwidth +
                       (inSpans + wSpans) * kCyclesPerPiece;
    ranked.push_back({compute + exchange, g});
  };
  for (int64_t pb : splitCandidates(std::min(cs.B, numTiles)))
    for (int64_t pr : splitCandidates(std::min(cs.spatial(0), maxPixelBlocks)))
      for (int64_t pc :
           splitCandidates(std::min(cs.spatial(1), maxPixelBlocks)))
        for (int64_t pf : splitCandidates(maxPf))
          for (int64_t pk : splitCandidates(maxPk)) {
            ConvGrid g;
            g.bb = ceilDiv(cs.B, pb), g.bf = ceilDiv(cs.F, pf),
            g.bk = ceilDiv(cs.Cg, pk);
            g.bs = {ceilDiv(cs.spatial(0), pr), ceilDiv(cs.spatial(1), pc)};
            consider(g);
          }
  llvm::stable_sort(ranked, [](const Ranked &a, const Ranked &b) {
    return std::make_pair(a.cycles, a.grid.tiles()) <
           std::make_pair(b.cycles, b.grid.tiles());
  });
  SmallVector<ConvGrid> grids;
  for (const Ranked &r : ranked)
    grids.push_back(r.grid);
  return grids;
}
