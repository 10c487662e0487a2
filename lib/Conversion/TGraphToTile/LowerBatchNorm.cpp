//===- LowerBatchNorm.cpp - batch norm as per-feature statistics ----------===//
//
// batch_norm_{inference,training,grad} normalise over every dimension but
// the feature one. The operand stays where it is (moving it would cost all
// its elements); what moves is one value per (tile, feature) pair, as in
// LowerReduce.cpp:
//
//  - slots: every tile holding operand elements gets one slot per feature
//    it holds (tile-major), the layout of per-tile statistics and of the
//    per-feature values each tile needs;
//  - statistics (training, grad): a compute set writes per-slot partial
//    sums, an exchange gathers them on the tiles owning each feature, and a
//    compute set reduces them (`batch-norm.moments`: mean and variance;
//    `reduce.add`: the grad's scale and offset gradients);
//  - per-feature vectors computed here (mean, variance, gradients) sit on
//    the tile holding each feature's first element when that does not
//    crowd a tile (so most slots move on-tile), else linear; per-feature
//    vectors are broadcast to the slots by exchange;
//  - the normalise / grad compute set runs on the operand's tiles, in
//    place (the result takes the operand's layout).
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Conversion/TGraphToTile/ElementCopies.h"

#include <array>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

namespace {
/// One slot per (tile, feature) pair of an operand's elements.
struct FeatureSlots {
  PlannedMapping plan;
  SmallVector<int64_t> feature, tile; // per slot
  int64_t size() const { return feature.size(); }
};
} // namespace

static FeatureSlots planSlots(Value x, int64_t featureDim, int64_t numTiles) {
  auto type = cast<tile::BufferType>(x.getType());
  int64_t n = type.getNumElements();
  int64_t numFeatures = type.getShape()[featureDim];
  int64_t stride = stridesOf(type.getShape())[featureDim];
  TileLookup lookup(runsOf(x));
  SmallVector<SmallVector<int64_t>> featuresOf(numTiles);
  SmallVector<llvm::DenseSet<int64_t>> seen(numTiles);
  for (int64_t i = 0; i < n;) {
    int64_t t = lookup.tileOf(i), end = lookup.intervalEnd(i);
    int64_t last = -1;
    for (; i < end; ++i) {
      int64_t f = (i / stride) % numFeatures;
      if (f != last && seen[t].insert(f).second)
        featuresOf[t].push_back(f);
      last = f;
    }
  }
  FeatureSlots slots;
  SmallVector<std::array<int64_t, 3>> intervals;
  for (int64_t t = 0; t < numTiles; ++t) {
    if (featuresOf[t].empty())
      continue;
    llvm::sort(featuresOf[t]);
    intervals.push_back(
        {t, slots.size(), slots.size() + int64_t(featuresOf[t].size())});
    for (int64_t f : featuresOf[t]) {
      slots.feature.push_back(f);
      slots.tile.push_back(t);
    }
  }
  slots.plan = {compressIntervals(intervals),
                "one slot per (tile, feature) of the operand's elements"};
  return slots;
}

/// The most elements any one tile holds under `runs`.
static int64_t maxPerTile(ArrayRef<int64_t> runs, int64_t numTiles) {
  SmallVector<int64_t> perTile(numTiles, 0);
  for (size_t r = 0; r + 3 < runs.size(); r += 4)
    for (int64_t t = runs[r]; t < runs[r + 1]; ++t)
      perTile[t] += runs[r + 2];
  return *llvm::max_element(perTile);
}

/// The layout of per-feature vectors (statistics, and the slots' sources):
/// each feature on the tile holding its first operand element, so most
/// slots are gathered and broadcast on-tile (features along a dimension
/// the operand is spread over, as in bert's [1, 2048, 16]). Linear over
/// the features instead when that would crowd a tile more than linear
/// does (features in the innermost dimension all start on one tile).
static PlannedMapping planFeatures(Value x, int64_t featureDim,
                                   const TargetDescription &target,
                                   int64_t numTiles) {
  auto type = cast<tile::BufferType>(x.getType());
  int64_t numFeatures = type.getShape()[featureDim];
  int64_t stride = stridesOf(type.getShape())[featureDim];
  PlannedMapping linear =
      planLinear(numFeatures, numTiles,
                 mappingGrain(target, hloDtypeName(type.getElementType())));
  linear.why = "per-feature vector: " + linear.why;
  std::optional<PlannedMapping> follow = planFollow(
      runsOf(x), "'" + x.getDefiningOp<tile::VarOp>().getName().str() + "'",
      numFeatures, [&](int64_t f) { return f * stride; }, 4 * numTiles);
  if (!follow ||
      maxPerTile(follow->runs, numTiles) > maxPerTile(linear.runs, numTiles))
    return linear;
  follow->why = "per-feature vector " + follow->why;
  return *follow;
}

namespace {
/// The planned movement of one batch-norm op, computed before anything is
/// emitted so an op over budget leaves no trace.
struct BatchNormPlan {
  FeatureSlots slots;
  PlannedMapping features; ///< per-feature vectors: linear
  PlannedMapping gathered; ///< slots regrouped on each feature's owner
  SmallVector<int64_t> gatherCopies;
  /// Copies broadcasting a per-feature vector of each layout to the slots.
  SmallVector<std::pair<SmallVector<int64_t>, SmallVector<int64_t>>> bcast;
};
} // namespace

/// Copies broadcasting a per-feature vector with `runs` to the slots.
static const SmallVector<int64_t> *broadcastCopies(BatchNormPlan &plan,
                                                   ArrayRef<int64_t> runs) {
  for (auto &[r, copies] : plan.bcast)
    if (ArrayRef<int64_t>(r) == runs)
      return &copies;
  auto copies = planElementCopies(
      {runs}, plan.slots.plan.runs, plan.slots.size(),
      [&](int64_t s) {
        return ElementSource{0, plan.slots.feature[s]};
      },
      kMaxCopyRuns);
  if (!copies)
    return nullptr;
  plan.bcast.push_back({SmallVector<int64_t>(runs), (*copies)[0]});
  return &plan.bcast.back().second;
}

bool Lowerer::lowerBatchNorm(Operation *op, StringRef name,
                             std::string &detail) {
  if (!isa<tg::BatchNormTrainingOp, tg::BatchNormInferenceOp,
           tg::BatchNormGradOp>(op))
    return false;
  int64_t featureDim = op->getAttrOfType<IntegerAttr>("feature_index").getInt();
  SmallVector<Value> ins;
  for (Value v : op->getOperands()) {
    SmallVector<Value> b = buffers.lookup(v);
    if (b.size() != 1 || !b[0])
      return false;
    ins.push_back(b[0]);
  }
  Value x = ins[0];
  auto xType = cast<tile::BufferType>(x.getType());
  int64_t n = xType.getNumElements();
  if (featureDim < 0 || featureDim >= xType.getRank())
    return false;
  int64_t numFeatures = xType.getShape()[featureDim];
  // Per-feature operands: all but x (and the grad's output gradient, last).
  bool isGrad = isa<tg::BatchNormGradOp>(op);
  for (size_t i = 1; i < ins.size() - (isGrad ? 1 : 0); ++i)
    if (elementsOf(ins[i]) != numFeatures)
      return false;
  if (n == 0 || numFeatures == 0) {
    detail = "empty operand";
    return false;
  }
  if (n > kMaxCopyElements) {
    detail = "more than " + std::to_string(kMaxCopyElements) +
             " operand elements for exact slot planning";
    return false;
  }
  SmallVector<Type> leaves;
  flattenLeaves(op->getResult(0).getType(), leaves);
  if (llvm::any_of(leaves, [](Type t) { return !bufferableTensor(t); }))
    return false;

  // Plan: slots, per-feature layout, gather and broadcast copies.
  BatchNormPlan plan;
  plan.slots = planSlots(x, featureDim, numTiles);
  Type elt = xType.getElementType();
  plan.features = planFeatures(x, featureDim, target, numTiles);
  TileLookup owner(plan.features.runs);
  // Each slot's owner looked up once, not twice per comparison. The keys
  // are distinct, so the order is the sort's whatever the algorithm.
  std::vector<int64_t> order(plan.slots.size()), ownerOfSlot(order.size());
  for (int64_t s = 0; s < plan.slots.size(); ++s) {
    order[s] = s;
    ownerOfSlot[s] = owner.tileOf(plan.slots.feature[s]);
  }
  auto key = [&](int64_t s) {
    return std::make_tuple(ownerOfSlot[s], plan.slots.feature[s],
                           plan.slots.tile[s]);
  };
  llvm::sort(order, [&](int64_t a, int64_t b) { return key(a) < key(b); });
  SmallVector<std::array<int64_t, 3>> gIntervals;
  for (auto [g, s] : llvm::enumerate(order)) {
    int64_t t = ownerOfSlot[s];
    if (!gIntervals.empty() && gIntervals.back()[0] == t)
      gIntervals.back()[2] = g + 1;
    else
      gIntervals.push_back({t, int64_t(g), int64_t(g) + 1});
  }
  plan.gathered = {compressIntervals(gIntervals),
                   "per-slot statistics gathered on each feature's owner"};
  if (!isa<tg::BatchNormInferenceOp>(op)) {
    auto copies = planElementCopies(
        {plan.slots.plan.runs}, plan.gathered.runs, plan.slots.size(),
        [&](int64_t g) {
          return ElementSource{0, order[g]};
        },
        kMaxCopyRuns);
    if (!copies) {
      detail = "needs more than " + std::to_string(kMaxCopyRuns) +
               " exchange copy runs for its statistics";
      return false;
    }
    plan.gatherCopies = (*copies)[0];
  }
  // Every per-feature vector broadcast to the slots: the inputs' layouts
  // and the linear one of vectors computed here.
  for (size_t i = 1; i < ins.size() - (isGrad ? 1 : 0); ++i)
    if (!broadcastCopies(plan, runsOf(ins[i]))) {
      detail = "needs more than " + std::to_string(kMaxCopyRuns) +
               " exchange copy runs to broadcast a per-feature operand";
      return false;
    }
  if (!broadcastCopies(plan, plan.features.runs)) {
    detail = "needs more than " + std::to_string(kMaxCopyRuns) +
             " exchange copy runs to broadcast a per-feature value";
    return false;
  }
  std::optional<SmallVector<int64_t>> dyCopies;
  if (isGrad && runsOf(ins.back()) != runsOf(x))
    dyCopies = planIdentityCopies(runsOf(ins.back()), runsOf(x));

  // Emit.
  Location loc = op->getLoc();
  tile::Category category = resultCategory(op->getResult(0));
  int64_t nSlots = plan.slots.size();
  auto slotVar = [&](StringRef suffix) {
    return makeVar(loc, (name + "." + suffix).str(), tile::Category::Partials,
                   plan.slots.plan, {nSlots}, elt, name);
  };
  auto toSlots = [&](Value vec, StringRef what) {
    std::string suffix = (what + ".slots").str();
    Value s = slotVar(suffix);
    emitExchange(loc, (name + "." + suffix).str(), vec, s,
                 *broadcastCopies(plan, runsOf(vec)));
    return s;
  };
  auto gather = [&](Value partials, StringRef suffix) {
    Value g =
        makeVar(loc, (name + "." + suffix).str(), tile::Category::Partials,
                plan.gathered, {nSlots}, elt, name);
    emitExchange(loc, (name + "." + suffix).str(), partials, g,
                 plan.gatherCopies);
    return g;
  };
  auto featureVar = [&](StringRef what) {
    return makeVar(loc, (name + "." + what).str(), category, plan.features,
                   {numFeatures}, elt, name);
  };
  auto sameAsX = [&]() {
    return makeVar(
        loc, name, category,
        planSameAs(runsOf(x),
                   "operand 0 ('" +
                       x.getDefiningOp<tile::VarOp>().getName().str() + "')"),
        xType.getShape(), elt, name);
  };
  // Slots per feature, run-length coded ([count, features]...): how the
  // moments and gradient sums find each feature's gathered slots, which
  // sit on its owner in feature order.
  SmallVector<int64_t> perFeature(numFeatures, 0), runs;
  for (int64_t f : plan.slots.feature)
    ++perFeature[f];
  for (int64_t c : perFeature) {
    if (runs.empty() || runs[runs.size() - 2] != c)
      runs.append({c, 0});
    ++runs.back();
  }
  auto slotRuns = builder.getNamedAttr("partials_per_output_runs",
                                       builder.getDenseI64ArrayAttr(runs));
  auto fdim = builder.getNamedAttr("feature_index",
                                   builder.getI64IntegerAttr(featureDim));
  auto eps = builder.getNamedAttr("epsilon", op->getAttr("epsilon"));
  auto count =
      builder.getNamedAttr("count", builder.getI64IntegerAttr(n / numFeatures));

  if (isa<tg::BatchNormInferenceOp>(op)) {
    // (x, scale, offset, mean, variance) -> y
    Value y = sameAsX();
    buffers[op->getResult(0)] = {y};
    SmallVector<Value> vecs{x};
    const char *suffixes[] = {"scale", "offset", "mean", "variance"};
    for (int i = 0; i < 4; ++i)
      vecs.push_back(toSlots(ins[i + 1], suffixes[i]));
    emitComputeSet(loc, name, "batch-norm.normalise", vecs, y, {fdim, eps});
    return true;
  }
  if (isa<tg::BatchNormTrainingOp>(op)) {
    // (x, scale, offset) -> (y, mean, variance)
    Value y = sameAsX(), mean = featureVar("mean"),
          var = featureVar("variance");
    buffers[op->getResult(0)] = {y, mean, var};
    Value sum = slotVar("sum"), squares = slotVar("squares");
    emitComputeSet(loc, (name + ".statistics").str(), "batch-norm.statistics",
                   x, ValueRange{sum, squares}, fdim);
    Value gSum = gather(sum, "sum.gathered");
    Value gSquares = gather(squares, "squares.gathered");
    emitComputeSet(loc, (name + ".moments").str(), "batch-norm.moments",
                   ValueRange{gSum, gSquares}, ValueRange{mean, var},
                   {count, slotRuns});
    SmallVector<Value> vecs{x, toSlots(ins[1], "scale"),
                            toSlots(ins[2], "offset"), toSlots(mean, "mean"),
                            toSlots(var, "variance")};
    emitComputeSet(loc, name, "batch-norm.normalise", vecs, y, {fdim, eps});
    return true;
  }
  // grad: (x, scale, mean, variance, dy) -> (dx, dscale, doffset), with
  // dscale = sum(dy * xhat), doffset = sum(dy) per feature.
  Value dx = sameAsX(), dScale = featureVar("grad-scale"),
        dOffset = featureVar("grad-offset");
  buffers[op->getResult(0)] = {dx, dScale, dOffset};
  Value dy = ins[4];
  if (dyCopies) {
    Value tmp = makeVar(loc, (name + ".in4").str(), tile::Category::Temporary,
                        planSameAs(runsOf(x), "operand 0 of " + name.str()),
                        xType.getShape(), elt, "");
    emitExchange(loc, (name + ".in4").str(), dy, tmp, *dyCopies);
    dy = tmp;
  }
  Value meanS = toSlots(ins[2], "mean"), varS = toSlots(ins[3], "variance");
  Value sumDy = slotVar("sum"), sumDyXhat = slotVar("sum-xhat");
  emitComputeSet(loc, (name + ".statistics").str(),
                 "batch-norm.grad-statistics", ValueRange{x, dy, meanS, varS},
                 ValueRange{sumDy, sumDyXhat}, {fdim, eps});
  Value gSumDy = gather(sumDy, "sum.gathered");
  Value gSumDyXhat = gather(sumDyXhat, "sum-xhat.gathered");
  emitComputeSet(loc, (name + ".offset").str(), "reduce.add", gSumDy, dOffset,
                 slotRuns);
  emitComputeSet(loc, (name + ".scale").str(), "reduce.add", gSumDyXhat,
                 dScale, slotRuns);
  SmallVector<Value> vecs{x,
                          dy,
                          meanS,
                          varS,
                          toSlots(ins[1], "scale"),
                          toSlots(dScale, "grad-scale"),
                          toSlots(dOffset, "grad-offset")};
  emitComputeSet(loc, name, "batch-norm.grad", vecs, dx, {fdim, eps, count});
  return true;
}
