//===- LowerConvolution.cpp - convolution as blocked conv-partials --------===//
//
// convolution: the output cut into blocks (batch x rows x columns x output
// features, input features as a contraction split; ConvolutionGrid.h) on a
// grid of tiles; each tile receives its input window with the halo rows its
// block needs and its weight block, runs one conv-partial vertex, and a
// split contraction is summed like dot's K split.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Analysis/OpCost.h"
#include "tessera/Conversion/TGraphToTile/ConvolutionGrid.h"

#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <array>
#include <optional>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

namespace {
/// The planned buffers and copies of one grid.
struct ConvPlan {
  ConvGrid grid;
  BlockCopyPlan input, weights;
  SmallVector<std::array<int64_t, 3>> outIntervals;
  /// K split: partial blocks (tile-major) and their gathered copies.
  SmallVector<std::array<int64_t, 3>> partialIntervals, gatheredIntervals;
  SmallVector<int64_t> gatherCopies;
  /// Folds started on the lowering's FoldQueue, in place of the copies
  /// above (which are then empty).
  FoldQueue::Ticket inFold, inReplicaFold, weightFold, weightReplicaFold,
      gatherFold;
  int64_t numPartials = 0;
  /// The conv-partial's `input_boxes`: per grid tile, its box count and
  /// each box's lo and hi (the order its input block holds them).
  SmallVector<int64_t> inputBoxes;
};
} // namespace

/// A ConvPlan as the attributes the lowering emits. They are uniqued in the
/// context, which holds them anyway, so remembering one costs a few
/// pointers; a null copies attribute is an exchange not emitted.
struct tessera::lowering::ConvLowering {
  ConvGrid grid;
  int64_t inElements = 0, weightElements = 0, numPartials = 0;
  tile::MappingAttr in, weights, out, partials, gathered;
  ExchangeCopies inCopies, weightCopies, inReplicas, weightReplicas,
      gatherCopies;
  DenseI64ArrayAttr inputBoxes;

  ConvLowering(MLIRContext *ctx, const ConvPlan &plan)
      : grid(plan.grid), inElements(plan.input.numElements),
        weightElements(plan.weights.numElements),
        numPartials(plan.numPartials) {
    auto mapping = [&](ArrayRef<std::array<int64_t, 3>> intervals) {
      return tile::MappingAttr::get(ctx, compressIntervals(intervals));
    };
    auto array = [&](ArrayRef<int64_t> values) {
      return values.empty() ? DenseI64ArrayAttr()
                            : DenseI64ArrayAttr::get(ctx, values);
    };
    auto copies = [&](ArrayRef<int64_t> runs, ArrayRef<int64_t> strides,
                      FoldQueue::Ticket pending) {
      return ExchangeCopies{array(runs), array(strides), std::move(pending)};
    };
    in = mapping(plan.input.intervals);
    weights = mapping(plan.weights.intervals);
    out = mapping(plan.outIntervals);
    inCopies = copies(plan.input.copies, plan.input.copyStrides, plan.inFold);
    weightCopies =
        copies(plan.weights.copies, plan.weights.copyStrides, plan.weightFold);
    inReplicas = copies(plan.input.replicaCopies, {}, plan.inReplicaFold);
    weightReplicas =
        copies(plan.weights.replicaCopies, {}, plan.weightReplicaFold);
    inputBoxes = DenseI64ArrayAttr::get(ctx, plan.inputBoxes);
    if (grid.pk > 1) {
      partials = mapping(plan.partialIntervals);
      gathered = mapping(plan.gatheredIntervals);
      gatherCopies = copies(plan.gatherCopies, {}, plan.gatherFold);
    }
  }
};

/// The copies of one grid; nullopt when over the run budget. With `folds`,
/// the large folds are started there, when their pieces alone show they
/// keep to the budget (a fold makes at most a run per piece); the rest are
/// folded here.
static std::optional<ConvPlan> planGrid(const ConvShape &cs, const ConvGrid &g,
                                        ArrayRef<int64_t> inRuns,
                                        ArrayRef<int64_t> kernelRuns,
                                        FoldQueue *folds) {
  ConvPlan plan;
  plan.grid = g;
  SmallVector<TileBlock> inBlocks, wBlocks;
  inBlocks.reserve(g.tiles());
  wBlocks.reserve(g.tiles());
  std::vector<std::array<int64_t, 3>> outSpans; // begin, end, tile
  // Without groups a block's input window does not depend on its output
  // features: computed once for the pf blocks that share it.
  SmallVector<Box, 1> sharedIn;
  for (int64_t kk = 0; kk < g.pk; ++kk)
    for (int64_t ib = 0; ib < g.pb; ++ib)
      for (int64_t ir = 0; ir < g.ps[0]; ++ir)
        for (int64_t ic = 0; ic < g.ps[1]; ++ic)
          for (int64_t jf = 0; jf < g.pf; ++jf) {
            int64_t t = g.tileOf(kk, ib, ir, ic, jf);
            ConvBlock b = cs.block(g, kk, ib, {ir, ic}, jf);
            if (cs.groups > 1 || jf == 0)
              sharedIn = cs.inputBoxes(b);
            inBlocks.push_back({t, sharedIn});
            plan.inputBoxes.push_back(inBlocks.back().boxes.size());
            for (const Box &box : inBlocks.back().boxes) {
              plan.inputBoxes.append(box.lo.begin(), box.lo.end());
              plan.inputBoxes.append(box.hi.begin(), box.hi.end());
            }
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
  // Gathered here: on several threads the others are folding (the queue's
  // and, for its large folds, the executor's), and a task for the weights'
  // pieces only competed with them.
  std::optional<BlockCopyPieces> w =
      gatherBlockCopies(cs.kernel, kernelRuns, wBlocks, kMaxWindowPieces);
  std::optional<BlockCopyPieces> in =
      gatherBlockCopies(cs.in, inRuns, inBlocks, kMaxWindowPieces);
  if (!in || !w)
    return std::nullopt;
  plan.outIntervals = tileIntervals(outSpans);
  // With a K split, the pk slices of owner o's block go to o, slice after
  // slice.
  std::vector<CopyPiece> gatherPieces;
  if (g.pk > 1) {
    int64_t gathered = 0;
    for (int64_t o = 0; o < g.owners(); ++o) {
      int64_t size = plan.partialIntervals[o][2] - plan.partialIntervals[o][1];
      int64_t begin = gathered;
      for (int64_t kk = 0; kk < g.pk; ++kk) {
        const auto &src = plan.partialIntervals[kk * g.owners() + o];
        gatherPieces.push_back({src[0], o, size, src[1], gathered});
        gathered += size;
      }
      plan.gatheredIntervals.push_back({o, begin, gathered});
    }
  }
  if (folds && in->maxFoldedRuns() <= kMaxCopyRuns &&
      w->maxFoldedRuns() <= kMaxCopyRuns &&
      static_cast<int64_t>(gatherPieces.size()) <= kMaxCopyRuns) {
    // Within the budget whatever the folds make: the large ones go to the
    // queue, and the plan holds their tickets.
    auto fold = [&](std::vector<CopyPiece> &pieces,
                    SmallVectorImpl<int64_t> &runs,
                    SmallVectorImpl<int64_t> *strides) -> FoldQueue::Ticket {
      if (pieces.size() >= kFoldLaterPieces)
        return folds->start(std::move(pieces), strides != nullptr);
      runs = foldCopyPieces(pieces, strides);
      return nullptr;
    };
    plan.input = std::move(in->plan);
    plan.weights = std::move(w->plan);
    plan.inFold = fold(in->pieces, plan.input.copies, &plan.input.copyStrides);
    plan.inReplicaFold = fold(in->replicas, plan.input.replicaCopies, nullptr);
    plan.weightFold =
        fold(w->pieces, plan.weights.copies, &plan.weights.copyStrides);
    plan.weightReplicaFold =
        fold(w->replicas, plan.weights.replicaCopies, nullptr);
    plan.gatherFold = fold(gatherPieces, plan.gatherCopies, nullptr);
    return plan;
  }
  // Folded here, the weights' on another thread meanwhile.
  std::optional<BlockCopyPlan> inPlan, wPlan;
  {
    llvm::parallel::TaskGroup group;
    group.spawn([&] { wPlan = foldBlockCopies(std::move(*w), kMaxCopyRuns); });
    inPlan = foldBlockCopies(std::move(*in), kMaxCopyRuns);
  }
  if (!inPlan || !wPlan)
    return std::nullopt;
  plan.input = std::move(*inPlan);
  plan.weights = std::move(*wPlan);
  if (g.pk == 1)
    return plan;
  plan.gatherCopies = foldCopyPieces(gatherPieces);
  if (static_cast<int64_t>(plan.gatherCopies.size() / 8) > kMaxCopyRuns)
    return std::nullopt;
  return plan;
}

/// convolution as conv-partial vertices on a grid of output blocks. The
/// grid (k slices x batch x rows x columns x output features) is chosen by
/// estimated cycles among splits down to the matrix unit; each tile receives
/// its input window (the rows its output rows read, halo included, padding
/// left out) and its weight block by exchange. Feature-grouped (depthwise)
/// blocks fetch only their groups' input features. A split contraction is
/// gathered on the owning tiles and summed by a reduce.add compute set.
bool Lowerer::lowerConvolution(Operation *op, StringRef name,
                               std::string &detail) {
  auto conv = dyn_cast<tg::ConvolutionOp>(op);
  if (!conv)
    return false;
  RankedTensorType outType = bufferableTensor(conv.getType());
  Value lhs = singleBuffer(buffers, conv.getLhs()),
        rhs = singleBuffer(buffers, conv.getRhs());
  if (!outType || !lhs || !rhs)
    return false;
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
  // A plan depends on the operands' layouts (their mappings, uniqued: the
  // addresses name the runs), the three types, the window and the labels,
  // and the tiles it is planned over; nothing else of the op.
  int64_t groupsAndTiles[] = {cs.featureGroups, cs.batchGroups, numTiles};
  std::string key = planKey(
      {lhs.getDefiningOp<tile::VarOp>().getMapping().getAsOpaquePointer(),
       rhs.getDefiningOp<tile::VarOp>().getMapping().getAsOpaquePointer(),
       lt.getAsOpaquePointer(), rt.getAsOpaquePointer(),
       outType.getAsOpaquePointer(),
       conv.getDimLabelsAttr().getAsOpaquePointer(),
       conv.getWindowReversalAttr().getAsOpaquePointer()},
      {strides, padding, lhsDil, rhsDil, groupsAndTiles});
  RememberedConvPlan entry;
  if (auto it = convPlans.find(key); it != convPlans.end()) {
    entry = it->second;
  } else {
    int64_t bytes = elementBytes(lt.getElementType());
    SmallVector<ConvGrid> grids = rankConvGrids(cs, target, numTiles, bytes);
    std::optional<ConvPlan> planned;
    // The best few grids by estimate; a later one may fold into fewer runs.
    for (size_t i = 0; i < grids.size() && i < 3 && !planned; ++i)
      planned = planGrid(cs, grids[i], runsOf(lhs), runsOf(rhs), folds.get());
    entry.noGrid = grids.empty();
    if (planned)
      entry.plan =
          std::make_shared<const ConvLowering>(builder.getContext(), *planned);
    // Bounded, though an entry is small: a model with many distinct
    // convolutions keeps the latest.
    if (convPlans.size() >= kMaxConvPlans)
      convPlans.clear();
    convPlans.try_emplace(key, entry);
  }
  if (!entry.plan) {
    detail = entry.noGrid
                 ? "no blocking fits the tile memory and the copy budget of " +
                       std::to_string(kMaxWindowCopyElements) + " elements"
                 : "needs more than " + std::to_string(kMaxCopyRuns) +
                       " exchange copy runs for its blocks";
    return false;
  }
  const ConvLowering &plan = *entry.plan;
  const ConvGrid &g = plan.grid;
  const MatrixUnit &mu = target.matrixUnit;
  std::string grid = g.str();
  Location loc = op->getLoc();
  Value inBlocks =
      makeVar(loc, (name + ".in").str(), tile::Category::Temporary, plan.in,
              "convolution input windows (halo rows included), one per tile "
              "of the " +
                  grid + " (k x batch x rows x columns x features) grid",
              {plan.inElements}, lt.getElementType(), name);
  Value wBlocks = makeVar(
      loc, (name + ".weights").str(), tile::Category::Temporary, plan.weights,
      "convolution weight blocks, one per tile of the " + grid + " grid",
      {plan.weightElements}, rt.getElementType(), name);
  Value out =
      makeVar(loc, name, resultCategory(conv.getResult()), plan.out,
              "convolution result in " + std::to_string(g.bb) + "x" +
                  std::to_string(g.bs[0]) + "x" + std::to_string(g.bs[1]) +
                  "x" + std::to_string(g.bf) +
                  " (batch x rows x columns x features) blocks "
                  "on the " +
                  grid + " grid (matrix unit " + std::to_string(mu.m) + "x" +
                  std::to_string(mu.n) + "x" + std::to_string(mu.k) + ")",
              outType.getShape(), elt, name);
  buffers[conv.getResult()] = {out};
  emitExchange(loc, (name + ".in").str(), lhs, inBlocks, plan.inCopies);
  emitExchange(loc, (name + ".weights").str(), rhs, wBlocks, plan.weightCopies);
  emitExchange(loc, (name + ".in.replicate").str(), inBlocks, inBlocks,
               plan.inReplicas);
  emitExchange(loc, (name + ".weights.replicate").str(), wBlocks, wBlocks,
               plan.weightReplicas);
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
      builder.getNamedAttr("halo", builder.getDenseI64ArrayAttr(cs.halo(g))),
      builder.getNamedAttr("input_boxes", plan.inputBoxes),
      builder.getNamedAttr("input_shape", builder.getDenseI64ArrayAttr(cs.in)),
      builder.getNamedAttr("kernel_shape",
                           builder.getDenseI64ArrayAttr(cs.kernel)),
      builder.getNamedAttr("output_shape",
                           builder.getDenseI64ArrayAttr(cs.out))};
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
              plan.partials, "convolution partial sums, one block per tile",
              {plan.numPartials}, partialsType(elt), name);
  Value gathered = makeVar(
      loc, (name + ".gathered").str(), tile::Category::Partials, plan.gathered,
      "the " + std::to_string(g.pk) +
          " input-feature-slice partials of each block on its owning tile",
      {plan.numPartials}, partialsType(elt), name);
  emitComputeSet(loc, (name + ".partial").str(), "conv-partial",
                 ValueRange{inBlocks, wBlocks}, partials, attrs);
  emitExchange(loc, (name + ".gather").str(), partials, gathered,
               plan.gatherCopies);
  emitComputeSet(loc, name, "reduce.add", gathered, out,
                 builder.getNamedAttr("partials_per_output",
                                      builder.getI64IntegerAttr(g.pk)));
  return true;
}
