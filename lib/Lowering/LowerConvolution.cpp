//===- LowerConvolution.cpp - convolution as blocked conv-partials --------===//
//
// convolution: the output cut into blocks (batch x rows of the first
// spatial dimension x output features, input features as a contraction
// split) on a grid of tiles; each tile receives its input window with the
// halo rows its block needs and its weight block, runs one conv-partial
// vertex, and a split contraction is summed like dot's K split.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/OpCost.h"
#include "tessera/Lowering/WindowPlanning.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

namespace {

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
  tg::ConvDimLabels dims;
  SmallVector<int64_t> in, kernel, out;
  SmallVector<WindowDim> window;
  int64_t B, F, Cg, groups, featureGroups, batchGroups, perGroup;

  /// Output size along split spatial dimension i (1 when there is none).
  int64_t spatial(size_t i) const {
    return i < window.size() ? out[dims.output.spatial[i]] : 1;
  }

  ConvBlock block(const ConvGrid &g, int64_t kk, int64_t ib,
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

  /// The input range along spatial dimension s that the block reads;
  /// a block reading only padding still gets one element, so every vertex
  /// has its operands on its tile.
  std::pair<int64_t, int64_t> spatialRange(const ConvBlock &b, size_t s) const {
    auto [lo, hi] = s < 2 ? windowInputRange(window[s], b.s0[s], b.s1[s])
                          : windowInputRange(window[s], 0, spatial(s));
    if (lo >= hi) {
      lo = std::clamp<int64_t>(lo, 0, window[s].inputSize - 1);
      hi = lo + 1;
    }
    return {lo, hi};
  }

  /// The input boxes of a block: per group its outputs touch, the group's
  /// batches (batch groups) or input features (feature groups) of the
  /// contraction slice; neighbouring groups' boxes merge.
  SmallVector<Box, 1> inputBoxes(const ConvBlock &b) const {
    Box base;
    base.lo.assign(in.size(), 0);
    base.hi.assign(in.begin(), in.end());
    for (size_t s = 0; s < window.size(); ++s)
      std::tie(base.lo[dims.input.spatial[s]], base.hi[dims.input.spatial[s]]) =
          spatialRange(b, s);
    SmallVector<Box, 1> boxes;
    for (int64_t g = b.f0 / perGroup; g <= (b.f1 - 1) / perGroup; ++g) {
      Box box = base;
      int64_t bo = batchGroups > 1 ? g * B : 0;
      int64_t fo = featureGroups > 1 ? g * Cg : 0;
      box.lo[dims.input.batchOrInput] = bo + b.b0;
      box.hi[dims.input.batchOrInput] = bo + b.b1;
      box.lo[dims.input.featureOrOutput] = fo + b.c0;
      box.hi[dims.input.featureOrOutput] = fo + b.c1;
      boxes.push_back(box);
    }
    mergeAdjacentBoxes(boxes);
    return boxes;
  }

  /// The weight block: every window position, the contraction slice of
  /// kernel input features and the block's output features.
  Box weightBox(const ConvBlock &b) const {
    Box box;
    box.lo.assign(kernel.size(), 0);
    box.hi.assign(kernel.begin(), kernel.end());
    box.lo[dims.kernel.batchOrInput] = b.c0;
    box.hi[dims.kernel.batchOrInput] = b.c1;
    box.lo[dims.kernel.featureOrOutput] = b.f0;
    box.hi[dims.kernel.featureOrOutput] = b.f1;
    return box;
  }

  /// The block's part of the output.
  Box outputBox(const ConvBlock &b) const {
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

  /// Input elements a block shares with the next one along each spatial
  /// dimension: the halo (0 where the dimension is not split).
  SmallVector<int64_t> halo(const ConvGrid &g) const {
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
};

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

/// The grid candidates in order of estimated cycles (matrix-unit passes of
/// a full block plus the exchange of its window, weights and partials), within
/// the copy budgets, the tile memory, and at most 4 output intervals per
/// tile of the chip (a result split into a run per pixel would make every
/// later re-layout of it expensive).
static SmallVector<ConvGrid> rankGrids(const ConvShape &cs,
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

namespace {
/// The planned buffers and copies of one grid.
struct ConvPlan {
  ConvGrid grid;
  BlockCopyPlan input, weights;
  SmallVector<std::array<int64_t, 3>> outIntervals;
  /// K split: partial blocks (tile-major) and their gathered copies.
  SmallVector<std::array<int64_t, 3>> partialIntervals, gatheredIntervals;
  SmallVector<int64_t> gatherCopies;
  int64_t numPartials = 0;
};
} // namespace

/// The copies of one grid; nullopt when over the run budget.
static std::optional<ConvPlan> planGrid(const ConvShape &cs, const ConvGrid &g,
                                        ArrayRef<int64_t> inRuns,
                                        ArrayRef<int64_t> kernelRuns) {
  ConvPlan plan;
  plan.grid = g;
  SmallVector<TileBlock> inBlocks, wBlocks;
  std::vector<std::array<int64_t, 3>> outSpans; // begin, end, tile
  for (int64_t kk = 0; kk < g.pk; ++kk)
    for (int64_t ib = 0; ib < g.pb; ++ib)
      for (int64_t ir = 0; ir < g.ps[0]; ++ir)
        for (int64_t ic = 0; ic < g.ps[1]; ++ic)
          for (int64_t jf = 0; jf < g.pf; ++jf) {
            int64_t t = g.tileOf(kk, ib, ir, ic, jf);
            ConvBlock b = cs.block(g, kk, ib, {ir, ic}, jf);
            inBlocks.push_back({t, cs.inputBoxes(b)});
            wBlocks.push_back({t, {cs.weightBox(b)}});
            Box o = cs.outputBox(b);
            if (kk == 0)
              forEachBoxSpan(cs.out, o.lo, o.hi, [&](int64_t off, int64_t len) {
                outSpans.push_back({off, off + len, t});
              });
            plan.partialIntervals.push_back(
                {t, plan.numPartials, plan.numPartials + o.numElements()});
            plan.numPartials += o.numElements();
          }
  std::optional<BlockCopyPlan> in =
      planBlockCopies(cs.in, inRuns, inBlocks, kMaxWindowPieces, kMaxCopyRuns);
  std::optional<BlockCopyPlan> w = planBlockCopies(
      cs.kernel, kernelRuns, wBlocks, kMaxWindowPieces, kMaxCopyRuns);
  if (!in || !w)
    return std::nullopt;
  plan.input = std::move(*in);
  plan.weights = std::move(*w);
  llvm::sort(outSpans);
  for (auto [begin, end, t] : outSpans) {
    if (!plan.outIntervals.empty() && plan.outIntervals.back()[0] == t &&
        plan.outIntervals.back()[2] == begin)
      plan.outIntervals.back()[2] = end;
    else
      plan.outIntervals.push_back({t, begin, end});
  }
  if (g.pk == 1)
    return plan;
  // The pk slices of owner o's block go to o, slice after slice.
  std::vector<CopyPiece> pieces;
  int64_t gathered = 0;
  for (int64_t o = 0; o < g.owners(); ++o) {
    int64_t size = plan.partialIntervals[o][2] - plan.partialIntervals[o][1];
    int64_t begin = gathered;
    for (int64_t kk = 0; kk < g.pk; ++kk) {
      const auto &src = plan.partialIntervals[kk * g.owners() + o];
      pieces.push_back({src[0], o, size, src[1], gathered});
      gathered += size;
    }
    plan.gatheredIntervals.push_back({o, begin, gathered});
  }
  plan.gatherCopies = foldCopyPieces(pieces);
  if (static_cast<int64_t>(plan.gatherCopies.size() / 8) > kMaxCopyRuns)
    return std::nullopt;
  return plan;
}

/// convolution as conv-partial vertices on a grid of output blocks. The
/// grid (k slices x batch x rows x output features) is chosen by estimated
/// cycles among splits down to the matrix unit; each tile receives its input
/// window (the rows its output rows read, halo included, padding left out)
/// and its weight block by exchange. Feature-grouped (depthwise) blocks
/// fetch only their groups' input features. A split contraction is gathered
/// on the owning tiles and summed by a reduce.add compute set.
bool Lowerer::lowerConvolution(Operation *op, StringRef name,
                               std::string &detail) {
  auto conv = dyn_cast<tg::ConvolutionOp>(op);
  if (!conv)
    return false;
  RankedTensorType outType = bufferableTensor(conv.getType());
  auto lhsIt = buffers.find(conv.getLhs()), rhsIt = buffers.find(conv.getRhs());
  if (!outType || lhsIt == buffers.end() || rhsIt == buffers.end() ||
      lhsIt->second.size() != 1 || rhsIt->second.size() != 1 ||
      !lhsIt->second[0] || !rhsIt->second[0])
    return false;
  Value lhs = lhsIt->second[0], rhs = rhsIt->second[0];
  std::string error;
  FailureOr<tg::ConvDimLabels> dims =
      tg::parseConvDimLabels(conv.getDimLabels(), error);
  if (failed(dims))
    return false;
  ConvShape cs;
  cs.dims = *dims;
  auto lt = cast<tile::BufferType>(lhs.getType());
  auto rt = cast<tile::BufferType>(rhs.getType());
  cs.in.assign(lt.getShape().begin(), lt.getShape().end());
  cs.kernel.assign(rt.getShape().begin(), rt.getShape().end());
  cs.out.assign(outType.getShape().begin(), outType.getShape().end());
  auto at = [](std::optional<ArrayRef<int64_t>> attr, size_t i, int64_t dflt) {
    return attr ? (*attr)[i] : dflt;
  };
  SmallVector<int64_t> strides, padding, lhsDil, rhsDil;
  for (size_t s = 0; s < cs.dims.input.spatial.size(); ++s) {
    WindowDim w;
    w.inputSize = cs.in[cs.dims.input.spatial[s]];
    w.window = cs.kernel[cs.dims.kernel.spatial[s]];
    w.stride = at(conv.getWindowStrides(), s, 1);
    w.padLow = at(conv.getPadding(), 2 * s, 0);
    w.padHigh = at(conv.getPadding(), 2 * s + 1, 0);
    w.baseDilation = at(conv.getLhsDilation(), s, 1);
    w.windowDilation = at(conv.getRhsDilation(), s, 1);
    cs.window.push_back(w);
    strides.push_back(w.stride);
    padding.append({w.padLow, w.padHigh});
    lhsDil.push_back(w.baseDilation);
    rhsDil.push_back(w.windowDilation);
  }
  cs.B = cs.out[cs.dims.output.batchOrInput];
  cs.F = cs.out[cs.dims.output.featureOrOutput];
  cs.Cg = cs.kernel[cs.dims.kernel.batchOrInput];
  cs.featureGroups = conv.getFeatureGroupCount();
  cs.batchGroups = conv.getBatchGroupCount();
  cs.groups = std::max(cs.featureGroups, cs.batchGroups);
  if (outType.getNumElements() == 0 || cs.Cg == 0 || elementsOf(lhs) == 0 ||
      elementsOf(rhs) == 0) {
    detail = "empty convolution";
    return false;
  }
  cs.perGroup = cs.F / cs.groups;
  if (outType.getNumElements() > kMaxCopyElements) {
    detail = "more than " + std::to_string(kMaxCopyElements) +
             " output elements for exact block planning";
    return false;
  }
  Type elt = outType.getElementType();
  int64_t bytes = elementBytes(lt.getElementType());
  SmallVector<ConvGrid> grids = rankGrids(cs, target, numTiles, bytes);
  std::optional<ConvPlan> plan;
  // The best few grids by estimate; a later one may fold into fewer runs.
  for (size_t i = 0; i < grids.size() && i < 3 && !plan; ++i)
    plan = planGrid(cs, grids[i], runsOf(lhs), runsOf(rhs));
  if (!plan) {
    detail = grids.empty()
                 ? "no blocking fits the tile memory and the copy budget of " +
                       std::to_string(kMaxWindowCopyElements) + " elements"
                 : "needs more than " + std::to_string(kMaxCopyRuns) +
                       " exchange copy runs for its blocks";
    return false;
  }
  const ConvGrid &g = plan->grid;
  const MatrixUnit &mu = target.matrixUnit;
  std::string grid = g.str();
  Location loc = op->getLoc();
  PlannedMapping inPlan{compressIntervals(plan->input.intervals),
                        "convolution input windows (halo rows included), "
                        "one per tile of the " +
                            grid +
                            " (k x batch x rows x columns x features) grid"};
  PlannedMapping wPlan{compressIntervals(plan->weights.intervals),
                       "convolution weight blocks, one per tile of the " +
                           grid + " grid"};
  PlannedMapping outPlan{
      compressIntervals(plan->outIntervals),
      "convolution result in " + std::to_string(g.bb) + "x" +
          std::to_string(g.bs[0]) + "x" + std::to_string(g.bs[1]) + "x" +
          std::to_string(g.bf) +
          " (batch x rows x columns x features) blocks "
          "on the " +
          grid + " grid (matrix unit " + std::to_string(mu.m) + "x" +
          std::to_string(mu.n) + "x" + std::to_string(mu.k) + ")"};
  Value inBlocks =
      makeVar(loc, (name + ".in").str(), tile::Category::Temporary, inPlan,
              {plan->input.numElements}, lt.getElementType(), name);
  Value wBlocks =
      makeVar(loc, (name + ".weights").str(), tile::Category::Temporary, wPlan,
              {plan->weights.numElements}, rt.getElementType(), name);
  Value out = makeVar(loc, name, resultCategory(conv.getResult()), outPlan,
                      outType.getShape(), elt, name);
  buffers[conv.getResult()] = {out};
  emitExchange(loc, (name + ".in").str(), lhs, inBlocks, plan->input.copies);
  emitExchange(loc, (name + ".weights").str(), rhs, wBlocks,
               plan->weights.copies);
  emitExchange(loc, (name + ".in.replicate").str(), inBlocks, inBlocks,
               plan->input.replicaCopies);
  emitExchange(loc, (name + ".weights.replicate").str(), wBlocks, wBlocks,
               plan->weights.replicaCopies);
  int64_t windowSize = 1;
  for (const WindowDim &w : cs.window)
    windowSize *= w.window;
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("grid", builder.getDenseI64ArrayAttr(
                                       {g.pk, g.pb, g.ps[0], g.ps[1], g.pf})),
      builder.getNamedAttr("block", builder.getDenseI64ArrayAttr(
                                        {g.bb, g.bs[0], g.bs[1], g.bf, g.bk})),
      builder.getNamedAttr(
          "flops", builder.getI64IntegerAttr(2 * outType.getNumElements() *
                                             cs.Cg * windowSize)),
      builder.getNamedAttr("dim_labels", conv.getDimLabelsAttr()),
      builder.getNamedAttr("window_strides",
                           builder.getDenseI64ArrayAttr(strides)),
      builder.getNamedAttr("padding", builder.getDenseI64ArrayAttr(padding)),
      builder.getNamedAttr("lhs_dilation",
                           builder.getDenseI64ArrayAttr(lhsDil)),
      builder.getNamedAttr("rhs_dilation",
                           builder.getDenseI64ArrayAttr(rhsDil)),
      builder.getNamedAttr("halo", builder.getDenseI64ArrayAttr(cs.halo(g)))};
  if (cs.featureGroups > 1)
    attrs.push_back(builder.getNamedAttr(
        "feature_group_count", builder.getI64IntegerAttr(cs.featureGroups)));
  if (cs.batchGroups > 1)
    attrs.push_back(builder.getNamedAttr(
        "batch_group_count", builder.getI64IntegerAttr(cs.batchGroups)));
  if (auto reversal = conv.getWindowReversalAttr())
    attrs.push_back(builder.getNamedAttr("window_reversal", reversal));
  if (g.pk == 1) {
    emitComputeSet(loc, name, "conv-partial", ValueRange{inBlocks, wBlocks},
                   out, attrs);
    return true;
  }
  Value partials =
      makeVar(loc, (name + ".partials").str(), tile::Category::Partials,
              {compressIntervals(plan->partialIntervals),
               "convolution partial sums, one block per tile"},
              {plan->numPartials}, elt, name);
  Value gathered = makeVar(
      loc, (name + ".gathered").str(), tile::Category::Partials,
      {compressIntervals(plan->gatheredIntervals),
       "the " + std::to_string(g.pk) +
           " input-feature-slice partials of each block on its owning tile"},
      {plan->numPartials}, elt, name);
  emitComputeSet(loc, (name + ".partial").str(), "conv-partial",
                 ValueRange{inBlocks, wBlocks}, partials, attrs);
  emitExchange(loc, (name + ".gather").str(), partials, gathered,
               plan->gatherCopies);
  emitComputeSet(loc, name, "reduce.add", gathered, out,
                 builder.getNamedAttr("partials_per_output",
                                      builder.getI64IntegerAttr(g.pk)));
  return true;
}
