//===- TGraphToTile.cpp - tgraph @main -> tile.program
//---------------------===//
//
// Walks the entry function in order and emits, per op, buffers (tile.var
// with a planned mapping) and steps. The step order is the op order; a
// tile.sync is placed before any step that reads a buffer written since the
// last sync, which is exactly "between steps that depend on each other".
//
// This file holds the driver, buffers and steps, and the small families:
//  - parameters, constants, iota, outputs;
//  - elementwise (unary, binary, compare, select, clamp, convert, ...):
//    in place on the layout of a same-size operand, other operands
//    exchanged into that layout, scalars replicated one per tile;
//  - reshape / bitcast: a new buffer with the same mapping (no movement);
//  - tuple / get_tuple_element / after_all: bookkeeping only;
//  - host_compute for incompatible, host-placed and not-lowered ops.
// Larger families have their own files: LowerDataMovement.cpp (broadcast,
// transpose, reverse, slice, concatenate, pad), LowerReduce.cpp,
// LowerDot.cpp, LowerConvolution.cpp, LowerReduceWindow.cpp,
// LowerControlFlow.cpp (while, conditional, call; nested computations come
// back through lowerBlock), LowerCollectives.cpp, LowerBatchNorm.cpp, and for
// ops indexed at run time LowerIndexed.cpp with LowerGather.cpp,
// LowerScatter.cpp, LowerSort.cpp. Each returns false having emitted nothing
// when it cannot lower an op, which then goes to the host as "not-lowered".
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Conversion/TGraphToTile/ElementCopies.h"
#include "tessera/Conversion/TGraphToTile/ExchangeRuns.h"
#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"
#include "tessera/Dialect/TGraph/IR/CollectiveGroups.h"
#include "tessera/Dialect/Tile/IR/MappingTiles.h"
#include "tessera/Target/Layout.h"

#include "llvm/Support/Parallel.h"

#include <initializer_list>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

//===----------------------------------------------------------------------===//
// Shared helpers (Lowerer.h)
//===----------------------------------------------------------------------===//

namespace tessera::lowering {

/// Tensor leaves of a type, in tuple order: tokens have none, tuples recurse.
void flattenLeaves(Type type, SmallVectorImpl<Type> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type t : tuple.getTypes())
      flattenLeaves(t, leaves);
    return;
  }
  if (isa<TensorType>(type))
    leaves.push_back(type);
}

int64_t numLeaves(Type type) {
  SmallVector<Type> leaves;
  flattenLeaves(type, leaves);
  return leaves.size();
}

Type partialsType(Type elt) {
  if (elt.isF16() || elt.isBF16())
    return Float32Type::get(elt.getContext());
  return elt;
}

/// Static-shape ranked tensors get buffers; anything else stays on the host.
RankedTensorType bufferableTensor(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.hasStaticShape() ? t : RankedTensorType();
}

ArrayRef<int64_t> runsOf(Value buffer) {
  return buffer.getDefiningOp<tile::VarOp>().getMapping().getRuns();
}

int64_t elementsOf(Value buffer) {
  return cast<tile::BufferType>(buffer.getType()).getNumElements();
}

/// Row-major strides of a shape.
Value singleBuffer(const DenseMap<Value, SmallVector<Value>> &buffers,
                   Value value) {
  auto it = buffers.find(value);
  if (it == buffers.end() || it->second.size() != 1)
    return Value();
  return it->second[0];
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

void unravel(int64_t index, ArrayRef<int64_t> shape,
             SmallVectorImpl<int64_t> &out) {
  out.resize(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    int64_t n = std::max<int64_t>(shape[d], 1);
    out[d] = index % n;
    index /= n;
  }
}

void RowMajorCursor::moveTo(int64_t index, SmallVectorImpl<int64_t> &coords) {
  if (index == last + 1 && coords.size() == shape.size()) {
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
  } else {
    unravel(index, shape, coords);
  }
  last = index;
}

} // namespace tessera::lowering

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

std::string Lowerer::uniqueName(StringRef base) {
  int64_t &n = names[base];
  std::string name = n == 0 ? base.str() : (base + "." + Twine(n)).str();
  ++n;
  return name;
}

Value Lowerer::makeVar(Location loc, StringRef name, tile::Category category,
                       const PlannedMapping &plan, ArrayRef<int64_t> shape,
                       Type elementType, StringRef hlo) {
  return makeVar(loc, name, category,
                 tile::MappingAttr::get(builder.getContext(), plan.runs),
                 plan.why, shape, elementType, hlo);
}

Value Lowerer::makeVar(Location loc, StringRef name, tile::Category category,
                       tile::MappingAttr mapping, StringRef why,
                       ArrayRef<int64_t> shape, Type elementType,
                       StringRef hlo) {
  MLIRContext *ctx = builder.getContext();
  auto type = tile::BufferType::get(ctx, shape, elementType);
  // Buffers are static: inside a repeat / if, declare them before the
  // outermost one, so every step of the program can name them.
  OpBuilder::InsertionGuard guard(builder);
  if (varAnchor)
    builder.setInsertionPoint(varAnchor);
  auto var = builder.create<tile::VarOp>(
      loc, type, builder.getStringAttr(uniqueName(name)),
      tile::CategoryAttr::get(ctx, category), mapping);
  if (!hlo.empty())
    var.setHlo(hlo);
  var.setWhy(why);
  if (currentChip != 0)
    bufferChip[var.getResult()] = currentChip;
  if (madeBuffer)
    madeBuffer(type, mapping, numTiles);
  load().add(mapping.getRuns(), bytesOfElement(elementType));
  ++stats->vars;
  return var.getResult();
}

PlannedMapping Lowerer::planBalancedLinear(int64_t numElements, int64_t grain) {
  PlannedMapping plan = planLinear(numElements, numTiles, grain);
  int64_t used = tilesUsed(plan.runs);
  if (used == 0 || used >= numTiles)
    return plan;
  auto [it, inserted] =
      linearStarts.try_emplace({currentChip, numElements}, 0);
  if (inserted)
    it->second = load().leastLoadedStart(used);
  // Another grain may take more tiles from the same start: keep them below
  // the last tile rather than wrap (a compute set is one tile range).
  int64_t first = std::min(it->second, numTiles - used);
  if (first == 0)
    return plan;
  plan = planLinear(numElements, numTiles, grain, first);
  plan.why += " (the least loaded tiles)";
  return plan;
}

int64_t Lowerer::kernelGrain(Value graphValue, int64_t grain) const {
  auto type = graphValue ? dyn_cast<RankedTensorType>(graphValue.getType())
                         : RankedTensorType();
  if (!type || type.getRank() == 0 || !type.hasStaticShape())
    return grain;
  bool kernel = llvm::any_of(graphValue.getUses(), [](OpOperand &use) {
    return isa<tg::ConvolutionOp>(use.getOwner()) &&
           use.getOperandNumber() == 1;
  });
  int64_t row = type.getShape().back(), n = type.getNumElements();
  if (!kernel || row <= 0 || n <= row)
    return grain;
  int64_t rowGrain = std::lcm(std::max<int64_t>(grain, 1), row);
  int64_t even = (n + numTiles - 1) / numTiles;
  int64_t perTile = (even + rowGrain - 1) / rowGrain * rowGrain;
  // A small kernel spread thinly (a few dozen elements a tile) may take a
  // whole row a tile: what that adds is small next to a tile's memory.
  int64_t bytes = bytesOfElement(type.getElementType());
  bool small = perTile * bytes <= target.usableBytesPerTile() / 64;
  return perTile <= 2 * even || small ? rowGrain : grain;
}

int64_t Lowerer::linearGrain(Value graphValue, ArrayRef<int64_t> shape,
                             int64_t grain) const {
  int64_t kernel = kernelGrain(graphValue, grain);
  if (kernel != grain || target.layoutTile.rows <= 1 || shape.size() < 2 ||
      llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return kernel;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  if (n <= kSingleTileMaxElements)
    return grain;
  // Slots the parts of planLinear(g) take, summed over the tiles.
  auto slots = [&](int64_t g) {
    PlannedMapping plan = planLinear(n, numTiles, g);
    int64_t total = 0;
    for (size_t r = 0; r + 3 < plan.runs.size(); r += 4)
      for (int64_t t = plan.runs[r]; t < plan.runs[r + 1]; ++t) {
        int64_t begin =
            plan.runs[r + 3] + (t - plan.runs[r]) * plan.runs[r + 2];
        total += paddedElementsOnTile(shape, target.layoutTile,
                                      {{begin, begin + plan.runs[r + 2]}});
      }
    return total;
  };
  int64_t even = (n + numTiles - 1) / numTiles;
  int64_t best = grain, bestSlots = slots(grain);
  for (size_t d = 1; d < shape.size(); ++d) {
    int64_t unit = 1;
    for (int64_t e : shape.drop_front(d))
      unit *= e;
    if (unit > even || (even + unit - 1) / unit * unit > even + even / 4)
      continue;
    if (int64_t s = slots(unit); s < bestSlots)
      best = unit, bestSlots = s;
  }
  return best;
}

Value Lowerer::makeLinearVar(Location loc, StringRef name,
                             tile::Category category, RankedTensorType type,
                             StringRef hlo, Value graphValue) {
  int64_t grain =
      linearGrain(graphValue, type.getShape(),
                  mappingGrain(target, hloDtypeName(type.getElementType())));
  return makeVar(loc, name, category,
                 planBalancedLinear(type.getNumElements(), grain),
                 type.getShape(), type.getElementType(), hlo);
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

void Lowerer::syncBeforeReading(ValueRange reads) {
  if (llvm::none_of(reads,
                    [&](Value v) { return dirty.contains(storageOf(v)); }))
    return;
  builder.create<tile::SyncOp>(builder.getUnknownLoc());
  ++stats->syncs;
  dirty.clear();
  computeDirty.clear();
}

ArrayRef<std::pair<int64_t, int64_t>>
Lowerer::tileRangesOf(tile::MappingAttr mapping) {
  auto [it, fresh] = tileRanges.try_emplace(mapping);
  if (fresh) {
    SmallVector<std::pair<int64_t, int64_t>> ranges =
        tile::tilesWithElements(mapping, numTiles);
    it->second.assign(ranges.begin(), ranges.end());
  }
  return it->second;
}

SmallVector<std::pair<int64_t, int64_t>>
Lowerer::commonTileRanges(ValueRange buffers) {
  // The intersection of each buffer's tile ranges (computed from its runs,
  // not tile by tile), kept maximal and in tile order.
  SmallVector<std::pair<int64_t, int64_t>> ranges = {{0, numTiles}};
  if (numTiles <= 0)
    ranges.clear();
  for (Value b : buffers) {
    ArrayRef<std::pair<int64_t, int64_t>> mine =
        tileRangesOf(b.getDefiningOp<tile::VarOp>().getMapping());
    SmallVector<std::pair<int64_t, int64_t>> both;
    for (size_t i = 0, j = 0; i < ranges.size() && j < mine.size();) {
      int64_t first = std::max(ranges[i].first, mine[j].first),
              end = std::min(ranges[i].second, mine[j].second);
      if (first < end)
        both.push_back({first, end});
      if (ranges[i].second < mine[j].second)
        ++i;
      else
        ++j;
    }
    ranges = std::move(both);
  }
  return ranges;
}

void Lowerer::emitComputeSet(Location loc, StringRef name, StringRef kind,
                             ValueRange ins, ValueRange outs,
                             ArrayRef<NamedAttribute> attrs) {
  SmallVector<Value> all(ins);
  all.append(outs.begin(), outs.end());
  // Outputs too: a fill followed by a compute set into the same buffer, or
  // an exchange still writing it, must finish first.
  syncBeforeReading(all);
  for (auto [first, end] : commonTileRanges(all)) {
    auto cs = builder.create<tile::ComputeSetOp>(
        loc, builder.getStringAttr(name), builder.getStringAttr(kind),
        builder.getI64IntegerAttr(first), builder.getI64IntegerAttr(end),
        builder.getI64IntegerAttr(1), ins, outs);
    for (NamedAttribute a : attrs)
      cs->setAttr(a.getName(), a.getValue());
    ++stats->computeSets;
  }
  for (Value v : outs) {
    dirty.insert(v);
    computeDirty.insert(v);
  }
}

void Lowerer::emitExchange(Location loc, StringRef name, Value src, Value dst,
                           DenseI64ArrayAttr copies,
                           DenseI64ArrayAttr strided) {
  if (copies && !copies.empty())
    createExchange(loc, name, src, dst, copies, {}, {}, strided);
}

void Lowerer::emitExchange(Location loc, StringRef name, Value src, Value dst,
                           ArrayRef<int64_t> copies,
                           ArrayRef<int64_t> strided) {
  if (copies.empty())
    return;
  createExchange(loc, name, src, dst, builder.getDenseI64ArrayAttr(copies), {},
                 {},
                 strided.empty() ? DenseI64ArrayAttr()
                                 : builder.getDenseI64ArrayAttr(strided));
}

std::string
tessera::lowering::planKey(ArrayRef<const void *> pointers,
                           std::initializer_list<ArrayRef<int64_t>> numbers) {
  std::string key(reinterpret_cast<const char *>(pointers.data()),
                  pointers.size() * sizeof(const void *));
  for (ArrayRef<int64_t> part : numbers)
    key.append(reinterpret_cast<const char *>(part.data()),
               part.size() * sizeof(int64_t));
  return key;
}

void Lowerer::emitViewExchange(Location loc, StringRef name, Value src,
                               Value dst, int64_t offset,
                               ArrayRef<int64_t> strides, int64_t listUpTo) {
  int64_t n = elementsOf(dst);
  if (n == 0)
    return;
  // Listed copies show the traffic; they are kept while compact (a few per
  // tile), which an element walk over a modest buffer can tell.
  if (n <= listUpTo) {
    tile::MappingAttr srcMapping =
        src.getDefiningOp<tile::VarOp>().getMapping();
    tile::MappingAttr dstMapping =
        dst.getDefiningOp<tile::VarOp>().getMapping();
    int64_t maxRuns = 4 * numTiles;
    std::string key = planKey({srcMapping.getAsOpaquePointer(),
                               dstMapping.getAsOpaquePointer(),
                               dst.getType().getAsOpaquePointer()},
                              {maxRuns, offset, strides});
    auto [it, fresh] = viewCopies.try_emplace(key);
    if (fresh) {
      if (auto copies =
              viewCopyRuns(srcMapping.getRuns(), dstMapping.getRuns(),
                           cast<tile::BufferType>(dst.getType()).getShape(),
                           offset, strides, maxRuns))
        it->second = builder.getDenseI64ArrayAttr(*copies);
    }
    if (DenseI64ArrayAttr copies = it->second)
      return emitExchange(loc, name, src, dst, copies);
  }
  createExchange(loc, name, src, dst, {}, builder.getDenseI64ArrayAttr(strides),
                 builder.getI64IntegerAttr(offset));
}

void Lowerer::emitExchange(Location loc, StringRef name, Value src, Value dst,
                           const ExchangeCopies &copies) {
  if (!copies.pending)
    return emitExchange(loc, name, src, dst, copies.copies, copies.strided);
  if (auto it = harvested.find(copies.pending.get()); it != harvested.end())
    return emitExchange(loc, name, src, dst, it->second.copies,
                        it->second.strided);
  // Nothing the lowering does next reads an exchange's copies: only that
  // it writes `dst` (the syncs), which it does whatever its runs.
  foldedLater.emplace_back(createExchange(loc, name, src, dst, {}, {}, {}),
                           copies.pending);
  harvestFolds(/*all=*/false);
}

const Lowerer::HarvestedFold &
Lowerer::harvest(const FoldQueue::Ticket &ticket) {
  auto [it, fresh] = harvested.try_emplace(ticket.get());
  if (fresh) {
    FoldQueue::Fold &fold = FoldQueue::wait(ticket);
    it->second.fold = ticket;
    it->second.copies = builder.getDenseI64ArrayAttr(fold.runs);
    if (!fold.strides.empty())
      it->second.strided = builder.getDenseI64ArrayAttr(fold.strides);
    // The context holds them now: the runs would only add to the peak
    // (the plan remembered for later convolutions keeps the fold).
    fold.runs = std::vector<int64_t>();
    fold.strides = std::vector<int64_t>();
  }
  return it->second;
}

void Lowerer::harvestFolds(bool all) {
  while (!foldedLater.empty() &&
         (all || FoldQueue::done(foldedLater.front().second))) {
    auto [op, ticket] = foldedLater.front();
    foldedLater.pop_front();
    const HarvestedFold &h = harvest(ticket);
    op.setCopiesAttr(h.copies);
    if (h.strided)
      op.setStridedAttr(h.strided);
  }
}

tile::ExchangeOp
Lowerer::createExchange(Location loc, StringRef name, Value src, Value dst,
                        DenseI64ArrayAttr copies, DenseI64ArrayAttr viewStrides,
                        IntegerAttr viewOffset, DenseI64ArrayAttr strided) {
  SmallVector<Value> reads{src};
  if (computeDirty.contains(dst))
    reads.push_back(dst);
  syncBeforeReading(reads);
  auto exchange = builder.create<tile::ExchangeOp>(
      loc, name, src, dst, copies, strided, viewStrides, viewOffset);
  ++stats->exchanges;
  dirty.insert(dst);
  return exchange;
}

void Lowerer::emitHostCopy(Location loc, tile::HostDirection direction,
                           Value buffer) {
  if (direction == tile::HostDirection::Outfeed)
    syncBeforeReading(buffer);
  builder.create<tile::HostCopyOp>(
      loc, tile::HostDirectionAttr::get(builder.getContext(), direction),
      buffer);
  ++stats->hostCopies;
  if (direction == tile::HostDirection::Infeed)
    dirty.insert(buffer);
}

/// A scalar operand of an elementwise op: one copy of it on every tile of
/// `like`, so each vertex reads its own (the exchange format moves data
/// from consecutive source tiles, so a broadcast from one tile is one run
/// per destination tile: O(tiles), not O(elements)).
Value Lowerer::replicateScalar(Location loc, StringRef name, Value scalar,
                               Value like) {
  tile::MappingAttr scalarMapping =
      scalar.getDefiningOp<tile::VarOp>().getMapping();
  tile::MappingAttr likeMapping =
      like.getDefiningOp<tile::VarOp>().getMapping();
  auto [it, fresh] = replications.try_emplace(
      {scalarMapping.getAsOpaquePointer(), likeMapping.getAsOpaquePointer()});
  Replication &r = it->second;
  if (fresh) {
    SmallVector<int64_t> perTile = likeMapping.elementsPerTile(numTiles);
    SmallVector<std::array<int64_t, 3>> intervals;
    for (int64_t t = 0; t < numTiles; ++t)
      if (perTile[t] > 0)
        intervals.push_back(
            {t, int64_t(intervals.size()), int64_t(intervals.size()) + 1});
    int64_t srcTile = TileLookup(scalarMapping.getRuns()).tileOf(0);
    // A copy per tile, folded: to a range of tiles, one strided run (the
    // source tile fixed, each next tile its next element) rather than a
    // run per tile, which every later step (the verifier, the liveness,
    // the cost model, the executable) read again per broadcast.
    std::vector<CopyPiece> pieces;
    for (auto [i, iv] : llvm::enumerate(intervals))
      pieces.push_back({srcTile, iv[0], 1, 0, int64_t(i)});
    SmallVector<int64_t> strided;
    SmallVector<int64_t> copies = foldCopyPieces(pieces, &strided);
    r.mapping = tile::MappingAttr::get(builder.getContext(),
                                       compressIntervals(intervals));
    r.copies = copies.empty() ? DenseI64ArrayAttr()
                              : builder.getDenseI64ArrayAttr(copies);
    r.strided = strided.empty() ? DenseI64ArrayAttr()
                                : builder.getDenseI64ArrayAttr(strided);
    r.count = intervals.size();
  }
  // Copied out: the map may grow (and move its entries) before use.
  Replication here = r;
  if (replications.size() >= kMaxReplications)
    replications.clear();
  auto scalarType = cast<tile::BufferType>(scalar.getType());
  Value rep = makeVar(loc, (name + ".scalar").str(), tile::Category::Temporary,
                      here.mapping,
                      "scalar replicated: one copy per tile of its consumer",
                      {here.count}, scalarType.getElementType(), "");
  emitExchange(loc, (name + ".bcast").str(), scalar, rep, here.copies,
               here.strided);
  return rep;
}

std::optional<DenseI64ArrayAttr>
Lowerer::relayoutCopies(Value buffer, tile::MappingAttr target,
                        int64_t maxRuns) {
  tile::MappingAttr source = buffer.getDefiningOp<tile::VarOp>().getMapping();
  if (source == target)
    return DenseI64ArrayAttr();
  // Mappings are uniqued: their addresses name their runs.
  std::string key = planKey(
      {source.getAsOpaquePointer(), target.getAsOpaquePointer()}, {maxRuns});
  auto it = relayouts.find(key);
  if (it != relayouts.end())
    return it->second;
  std::optional<DenseI64ArrayAttr> copies;
  if (std::optional<SmallVector<int64_t>> planned =
          planIdentityCopies(source.getRuns(), target.getRuns(), maxRuns))
    copies = planned->empty() ? DenseI64ArrayAttr()
                              : builder.getDenseI64ArrayAttr(*planned);
  // Bounded, though an entry is a few pointers: a model with many
  // distinct re-layouts keeps the latest.
  if (relayouts.size() >= kMaxRelayouts)
    relayouts.clear();
  relayouts.try_emplace(key, copies);
  return copies;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

IntegerAttr Lowerer::opId(Operation *op) {
  // An op lowered twice (a computation inlined at two calls) keeps its
  // first id.
  auto id = op->getAttrOfType<IntegerAttr>(kOpIdAttr);
  if (!id) {
    id = builder.getI64IntegerAttr(nextOpId++);
    op->setAttr(kOpIdAttr, id);
  }
  return id;
}

void Lowerer::lowerOnHost(Operation *op, StringRef name, StringRef reason,
                          StringRef detail) {
  Location loc = op->getLoc();
  SmallVector<Value> ins;
  for (Value operand : op->getOperands())
    for (Value b : buffers.lookup(operand))
      if (b)
        ins.push_back(b);
  DenseSet<Value> outfed;
  for (Value b : ins)
    if (outfed.insert(b).second)
      emitHostCopy(loc, tile::HostDirection::Outfeed, b);
  SmallVector<Value> outs;
  for (Value result : op->getResults()) {
    SmallVector<Type> leaves;
    flattenLeaves(result.getType(), leaves);
    SmallVector<Value> &bufs = buffers[result];
    for (Type leaf : leaves) {
      RankedTensorType t = bufferableTensor(leaf);
      Value b = t ? makeLinearVar(loc, name, resultCategory(result), t, name)
                  : Value();
      bufs.push_back(b);
      if (b)
        outs.push_back(b);
    }
  }
  auto hc = builder.create<tile::HostComputeOp>(
      loc, builder.getStringAttr(name),
      builder.getStringAttr(op->getName().getStringRef()),
      builder.getStringAttr(reason), ins, outs);
  if (!detail.empty())
    hc->setAttr("detail", builder.getStringAttr(detail));
  // The host evaluates the tgraph op itself.
  hc->setAttr("op_id", opId(op));
  ++stats->hostComputes;
  ++stats->hostReasons[reason.str()];
  if (reason == "not-lowered")
    ++stats->notLowered[op->getName().getStringRef().str()];
  for (Value b : outs)
    emitHostCopy(loc, tile::HostDirection::Infeed, b);
}

bool Lowerer::lowerHostTransfer(Operation *op, StringRef name) {
  // An infeed's data arrives in fresh buffers; an outfeed sends its
  // operand's buffers. Tokens only order them, which program order does.
  if (auto infeed = dyn_cast<tg::InfeedOp>(op)) {
    SmallVector<Type> leaves;
    flattenLeaves(infeed.getType(), leaves);
    SmallVector<RankedTensorType> types;
    for (Type leaf : leaves) {
      types.push_back(bufferableTensor(leaf));
      if (!types.back())
        return false;
    }
    SmallVector<Value> &bufs = buffers[infeed.getResult()];
    for (RankedTensorType t : types) {
      bufs.push_back(makeLinearVar(
          op->getLoc(), name, resultCategory(infeed.getResult()), t, name));
      emitHostCopy(op->getLoc(), tile::HostDirection::Infeed, bufs.back());
    }
    return true;
  }
  if (auto outfeed = dyn_cast<tg::OutfeedOp>(op)) {
    auto it = buffers.find(outfeed.getOperand());
    if (it == buffers.end() ||
        numLeaves(outfeed.getOperand().getType()) !=
            int64_t(it->second.size()) ||
        llvm::is_contained(it->second, Value()))
      return false;
    for (Value b : it->second)
      emitHostCopy(op->getLoc(), tile::HostDirection::Outfeed, b);
    buffers[outfeed.getResult()] = {};
    return true;
  }
  return false;
}

bool Lowerer::lowerBookkeeping(Operation *op) {
  if (auto tuple = dyn_cast<tg::TupleOp>(op)) {
    SmallVector<Value> leaves;
    for (Value in : tuple.getInputs()) {
      auto it = buffers.find(in);
      if (it == buffers.end())
        return false;
      leaves.append(it->second);
    }
    buffers[tuple.getResult()] = leaves;
    return true;
  }
  if (auto gte = dyn_cast<tg::GetTupleElementOp>(op)) {
    auto tupleType = cast<TupleType>(gte.getOperand().getType());
    int64_t index = gte.getIndex();
    if (index < 0 || index >= int64_t(tupleType.size()))
      return false;
    int64_t offset = 0;
    for (int64_t i = 0; i < index; ++i)
      offset += numLeaves(tupleType.getType(i));
    int64_t count = numLeaves(tupleType.getType(index));
    auto it = buffers.find(gte.getOperand());
    if (it == buffers.end() || int64_t(it->second.size()) < offset + count)
      return false;
    buffers[gte.getResult()] =
        SmallVector<Value>(ArrayRef<Value>(it->second).slice(offset, count));
    return true;
  }
  if (isa<tg::AfterAllOp>(op)) {
    buffers[op->getResult(0)] = {};
    return true;
  }
  return false;
}

/// Ops computed element by element: same-shape operands (scalars allowed
/// where HLO allows them: select's predicate, clamp's bounds).
static bool isElementwiseFamily(Operation *op) {
  if (isa<tg::SelectOp, tg::ClampOp, tg::ReducePrecisionOp>(op))
    return true;
  if (isa<tg::BitcastConvertOp>(op))
    return false; // may change the shape when widths differ
  return op->hasTrait<OpTrait::Elementwise>();
}

bool Lowerer::lowerElementwise(Operation *op, StringRef name) {
  if (op->getNumResults() != 1)
    return false;
  RankedTensorType outType = bufferableTensor(op->getResult(0).getType());
  if (!outType)
    return false;
  int64_t n = outType.getNumElements();
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    Value operand = singleBuffer(buffers, v);
    if (!operand)
      return false;
    int64_t m = elementsOf(operand);
    if (m != n && m != 1)
      return false;
    operands.push_back(operand);
  }
  // In place: the result takes the layout of its first full-size operand, so
  // a chain of elementwise ops moves no data. Other full-size operands are
  // exchanged into that layout; the copies are planned before anything is
  // emitted, so an op over budget leaves no trace but its host_compute.
  Location loc = op->getLoc();
  Value like;
  for (Value v : operands)
    if (elementsOf(v) == n) {
      like = v;
      break;
    }
  // The result's mapping: the operand's it takes the place of (already an
  // attribute: nothing to plan or unique again), else a balanced linear one.
  tile::MappingAttr mapping;
  std::string why;
  if (like) {
    mapping = like.getDefiningOp<tile::VarOp>().getMapping();
    why = sameLayoutWhy(
        "operand " +
        std::to_string(llvm::find(operands, like) - operands.begin()) + " ('" +
        like.getDefiningOp<tile::VarOp>().getName().str() + "')");
  } else {
    PlannedMapping plan = planBalancedLinear(
        n, linearGrain(
               op->getResult(0), outType.getShape(),
               mappingGrain(target, hloDtypeName(outType.getElementType()))));
    mapping = tile::MappingAttr::get(builder.getContext(), plan.runs);
    why = plan.why;
  }
  // Per operand: its re-layout copies (null when the layouts agree);
  // nullopt for a scalar, and for an operand whose re-layout would list
  // more copies than tiles (it moves as an identity view).
  SmallVector<std::optional<DenseI64ArrayAttr>> copies;
  SmallVector<bool> relayoutByView;
  for (Value v : operands) {
    copies.emplace_back();
    relayoutByView.push_back(false);
    if (elementsOf(v) == n) {
      copies.back() = relayoutCopies(v, mapping, 4 * numTiles);
      relayoutByView.back() = !copies.back();
    }
  }
  Value out = makeVar(loc, name, resultCategory(op->getResult(0)), mapping, why,
                      outType.getShape(), outType.getElementType(), name);
  buffers[op->getResult(0)] = {out};
  if (n == 0)
    return true;
  SmallVector<Value> ins;
  SmallVector<int64_t> scalarOperands;
  for (auto [i, v] : llvm::enumerate(operands)) {
    if (!copies[i] && !relayoutByView[i]) {
      ins.push_back(replicateScalar(loc, name, v, out));
      scalarOperands.push_back(i);
    } else if (copies[i] && !*copies[i]) {
      ins.push_back(v);
    } else {
      auto type = cast<tile::BufferType>(v.getType());
      Value tmp = makeVar(
          loc, (name + ".in" + Twine(i)).str(), tile::Category::Temporary,
          mapping, sameLayoutWhy("the output of " + name.str()),
          type.getShape(), type.getElementType(), "");
      if (copies[i])
        emitExchange(loc, (name + ".in" + Twine(i)).str(), v, tmp, *copies[i]);
      else
        emitViewExchange(loc, (name + ".in" + Twine(i)).str(), v, tmp, 0,
                         stridesOf(type.getShape()));
      ins.push_back(tmp);
    }
  }
  SmallVector<NamedAttribute> attrs;
  if (!scalarOperands.empty())
    attrs.push_back(builder.getNamedAttr(
        "scalar_operands", builder.getDenseI64ArrayAttr(scalarOperands)));
  if (auto cmp = dyn_cast<tg::CompareOp>(op)) {
    attrs.push_back(builder.getNamedAttr(
        "direction", builder.getStringAttr(tg::stringifyComparisonDirection(
                         cmp.getComparisonDirection()))));
    if (cmp.getCompareTypeAttr())
      attrs.push_back(
          builder.getNamedAttr("compare_type", cmp.getCompareTypeAttr()));
  }
  if (auto rp = dyn_cast<tg::ReducePrecisionOp>(op)) {
    attrs.push_back(builder.getNamedAttr(
        "exponent_bits", builder.getI64IntegerAttr(rp.getExponentBits())));
    attrs.push_back(builder.getNamedAttr(
        "mantissa_bits", builder.getI64IntegerAttr(rp.getMantissaBits())));
  }
  std::string kind = ("elementwise." + op->getName().stripDialect()).str();
  emitComputeSet(loc, name, kind, ins, out, attrs);
  return true;
}

/// reshape and same-size bitcasts keep the row-major element order, so the
/// result is the operand's elements under another shape: a new buffer with
/// the same mapping, aliasing the operand's var, and no data movement.
bool Lowerer::lowerAlias(Operation *op, StringRef name) {
  if (!isa<tg::ReshapeOp, tg::BitcastOp>(op))
    return false;
  RankedTensorType outType = bufferableTensor(op->getResult(0).getType());
  Value in = singleBuffer(buffers, op->getOperand(0));
  if (!outType || !in || elementsOf(in) != outType.getNumElements())
    return false;
  auto inVar = in.getDefiningOp<tile::VarOp>();
  // Never an output itself: a returned alias gets an output copy at the end
  // (lowerOutputs), so the aliased buffer is not outfed under two names.
  Value out = makeVar(op->getLoc(), name, tile::Category::Temporary,
                      planSameAs(runsOf(in), "'" + inVar.getName().str() +
                                                 "' (reshape, no movement)"),
                      outType.getShape(), outType.getElementType(), name);
  out.getDefiningOp<tile::VarOp>().getAliasMutable().assign(in);
  aliasStorage[out] = storageOf(in);
  buffers[op->getResult(0)] = {out};
  return true;
}

void Lowerer::lowerOp(Operation *op, StringRef name) {
  if (std::optional<CompatVerdict> v = getVerdict(op)) {
    if (v->status == CompatStatus::Incompatible)
      return lowerOnHost(op, name, v->reason, v->detail);
    if (v->status == CompatStatus::NotAssessed)
      return lowerOnHost(op, name, "placed-on-host", v->reason);
  }
  if (lowerBookkeeping(op) || lowerHostTransfer(op, name))
    return;
  Location loc = op->getLoc();
  if (auto c = dyn_cast<tg::ConstantOp>(op)) {
    // A computation lowered again (a loop condition, a second call) reuses
    // its constants' buffers: they are never written.
    if (buffers.count(c.getResult()))
      return;
    if (RankedTensorType t = bufferableTensor(c.getType())) {
      // A small constant equal to one already on this chip (models repeat
      // 0, 1 and their epsilons hundreds of times) shares its storage, as
      // XLA's CSE would merge them: on core-8 each would take a 4 KiB
      // layout tile, all on the one tile small tensors start on.
      Attribute value = c.getValueAttr();
      bool shareable = value && t.getNumElements() <= kSingleTileMaxElements &&
                       !returned.contains(c.getResult());
      if (shareable) {
        auto [it, inserted] =
            smallConstants.try_emplace({currentChip, value}, Value());
        if (!inserted) {
          Value first = it->second;
          auto firstVar = first.getDefiningOp<tile::VarOp>();
          Value out =
              makeVar(loc, name, tile::Category::Constant,
                      planSameAs(runsOf(first), "'" + firstVar.getName().str() +
                                                    "' (the same constant)"),
                      t.getShape(), t.getElementType(), name);
          auto var = out.getDefiningOp<tile::VarOp>();
          var.getAliasMutable().assign(first);
          var.setValueAttr(c.getValueAttr());
          aliasStorage[out] = storageOf(first);
          buffers[c.getResult()] = {out};
          return;
        }
      }
      // Always live and loaded with the program: no step writes it.
      buffers[c.getResult()] = {makeLinearVar(
          loc, name, tile::Category::Constant, t, name, c.getResult())};
      if (shareable)
        smallConstants[{currentChip, value}] = buffers[c.getResult()][0];
      // The tile program carries the constant's data: it is loaded with
      // the program, without the tgraph function. An elided constant has
      // none; the runtime finds it by its op id.
      auto var = buffers[c.getResult()][0].getDefiningOp<tile::VarOp>();
      if (c.getValueAttr())
        var.setValueAttr(c.getValueAttr());
      else
        var.setOpIdAttr(opId(op));
      if (returned.contains(c.getResult()))
        var.setReturned(true);
      return;
    }
  }
  if (auto iota = dyn_cast<tg::IotaOp>(op)) {
    if (RankedTensorType t = bufferableTensor(iota.getType())) {
      Value out =
          makeLinearVar(loc, name, resultCategory(iota.getResult()), t, name);
      buffers[iota.getResult()] = {out};
      if (t.getNumElements() > 0)
        emitComputeSet(
            loc, name, "iota", {}, out,
            builder.getNamedAttr("dimension", iota.getIotaDimensionAttr()));
      return;
    }
  }
  if (isElementwiseFamily(op) && lowerElementwise(op, name))
    return;
  if (lowerAlias(op, name))
    return;
  std::string detail;
  if (lowerCopyOp(op, name, detail))
    return;
  if (lowerReduce(op, name, detail))
    return;
  if (detail.empty() && lowerDot(op, name, detail))
    return;
  if (detail.empty() && lowerGather(op, name, detail))
    return;
  if (detail.empty() && lowerScatter(op, name, detail))
    return;
  if (detail.empty() && lowerSort(op, name, detail))
    return;
  if (detail.empty() && lowerConvolution(op, name, detail))
    return;
  if (detail.empty() && lowerReduceWindow(op, name, detail))
    return;
  if (detail.empty() && lowerControlFlow(op, name, detail))
    return;
  if (detail.empty() && lowerCollective(op, name, detail))
    return;
  if (detail.empty() && lowerBatchNorm(op, name, detail))
    return;
  lowerOnHost(op, name, "not-lowered", detail);
}

void Lowerer::markResults(ValueRange values, StringRef name, Operation *op) {
  // A value's leaves are numbered across its results in order, as HLO numbers
  // the outputs of a tuple-shaped instruction. Buffers made for the op but
  // named after another (a get_tuple_element reuses its tuple's) keep theirs.
  int64_t leaf = 0;
  for (Value v : values)
    for (Value b : buffers.lookup(v)) {
      int64_t index = leaf++;
      if (!b)
        continue;
      auto var = b.getDefiningOp<tile::VarOp>();
      if (var.getHlo() == name && !var.getResultLeaf()) {
        var.setResultLeaf(index);
        if (op)
          var.setResultOfAttr(opId(op));
      }
    }
}

/// Lowers a block's ops in order at the builder's insertion point. Nested
/// computations (loop bodies, branches, inlined callees) come through here
/// too, with their block arguments already bound in `buffers`; `prefix`
/// ("call.3/") keeps inlined instruction names traceable and distinct.
void Lowerer::lowerBlock(Block &block, StringRef prefix) {
  int64_t counter = 0;
  for (Operation &op : block.without_terminator()) {
    std::string name = tgraph::getInstructionName(&op).str();
    if (name.empty())
      name = (op.getName().stripDialect() + "." + Twine(counter)).str();
    ++counter;
    std::string qualified = (prefix + name).str();
    if (&block != entryBlock || placement.chips == 1 || placement.spread()) {
      lowerOp(&op, qualified);
    } else {
      setChip(placement.chipOf(&op));
      auto restore = localizeOperands(&op, qualified);
      lowerOp(&op, qualified);
      for (auto &[value, bufs] : restore)
        buffers[value] = bufs;
      setChip(0);
    }
    markResults(op.getResults(), qualified, &op);
  }
}

//===----------------------------------------------------------------------===//
// Chips
//===----------------------------------------------------------------------===//

SmallVector<std::pair<Value, SmallVector<Value>>>
Lowerer::localizeOperands(Operation *op, StringRef name) {
  SmallVector<std::pair<Value, SmallVector<Value>>> restore;
  // Ops that only rename buffers (tuples, reshapes) stay with their operand
  // (the placement put them there): nothing to copy.
  if (isa<tg::TupleOp, tg::GetTupleElementOp, tg::AfterAllOp>(op))
    return restore;
  DenseSet<Value> seen;
  for (Value v : op->getOperands()) {
    auto it = buffers.find(v);
    if (it == buffers.end() || !seen.insert(v).second)
      continue;
    if (llvm::all_of(it->second,
                     [&](Value b) { return !b || chipOf(b) == currentChip; }))
      continue;
    restore.push_back({v, it->second});
    auto [copy, fresh] = chipCopies.try_emplace({v, currentChip});
    if (fresh) {
      for (Value b : it->second) {
        if (!b || chipOf(b) == currentChip) {
          copy->second.push_back(b);
          continue;
        }
        // The same layout on this chip's tiles: an exchange whose copies
        // cross the link(s) between the two chips. Between a mixed
        // placement's group and a single chip the tiles differ in number,
        // so the copy is laid out linearly over this chip's (or group's).
        auto var = b.getDefiningOp<tile::VarOp>();
        auto type = cast<tile::BufferType>(b.getType());
        std::string copyName =
            (var.getName() + ".chip" + Twine(currentChip)).str();
        std::string from = "copy of '" + var.getName().str() + "' from chip " +
                           std::to_string(chipOf(b)) + " for '" + name.str() +
                           "'";
        PlannedMapping plan;
        if (placement.tilesOn(chipOf(b), target.tilesPerChip) == numTiles) {
          plan.runs.assign(runsOf(b).begin(), runsOf(b).end());
          plan.why = from + ", in its layout";
        } else {
          plan = planBalancedLinear(
              type.getNumElements(),
              mappingGrain(target, hloDtypeName(type.getElementType())));
          plan.why = from + ", laid out over " + std::to_string(numTiles) +
                     " tiles: " + plan.why;
        }
        Value local = makeVar(op->getLoc(), copyName, tile::Category::Temporary,
                              plan, type.getShape(), type.getElementType(),
                              var.getHlo() ? *var.getHlo() : StringRef());
        emitExchange(op->getLoc(), copyName, b, local,
                     planIdentityCopies(runsOf(b), runsOf(local)));
        copy->second.push_back(local);
      }
    }
    buffers[v] = copy->second;
  }
  return restore;
}

/// Adds `offset` to the tiles of mapping runs ([first, last] x n from s).
static SmallVector<int64_t> shiftRuns(ArrayRef<int64_t> runs, int64_t offset) {
  SmallVector<int64_t> out(runs);
  for (size_t i = 0; i + 3 < out.size(); i += 4) {
    out[i] += offset;
    out[i + 1] += offset;
  }
  return out;
}

void Lowerer::placeTilesOnChips(tile::ProgramOp program) {
  int64_t perChip = target.tilesPerChip;
  MLIRContext *ctx = program.getContext();
  program.walk([&](Operation *op) {
    if (auto var = dyn_cast<tile::VarOp>(op)) {
      if (int64_t c = chipOf(var.getResult()))
        var.setMappingAttr(tile::MappingAttr::get(
            ctx, shiftRuns(var.getMapping().getRuns(), c * perChip)));
    } else if (auto cs = dyn_cast<tile::ComputeSetOp>(op)) {
      Value any = !cs.getOuts().empty()  ? cs.getOuts()[0]
                  : !cs.getIns().empty() ? cs.getIns()[0]
                                         : Value();
      if (int64_t c = any ? chipOf(any) : 0) {
        cs.setFirstTile(cs.getFirstTile() + c * perChip);
        cs.setEndTile(cs.getEndTile() + c * perChip);
      }
    } else if (auto ex = dyn_cast<tile::ExchangeOp>(op)) {
      int64_t src = chipOf(ex.getSource()), dst = chipOf(ex.getDest());
      if (ex.isView() || (src == 0 && dst == 0))
        return;
      SmallVector<int64_t> copies(ex.getCopyRuns());
      for (size_t i = 0; i + 7 < copies.size(); i += 8) {
        copies[i] += src * perChip;
        copies[i + 1] += dst * perChip;
      }
      ex.setCopiesAttr(DenseI64ArrayAttr::get(ctx, copies));
    }
  });
  program.setTiles(placement.chips * perChip);
}

void Lowerer::lowerOutputs(func::ReturnOp ret) {
  Location loc = ret.getLoc();
  // First every output buffer and its copy, then one sync and the outfeeds,
  // so returning several values costs one sync, not one each.
  SmallVector<Value> outputs;
  DenseSet<Value> seen;
  for (Value v : ret.getOperands()) {
    for (Value b : buffers.lookup(v)) {
      if (!b)
        continue;
      auto var = b.getDefiningOp<tile::VarOp>();
      // Parameters, constants, aliases and values returned twice need their
      // own output buffer; a same-layout exchange copies them on each tile.
      if (var.getCategory() != tile::Category::Output || seen.contains(b) ||
          var.getAlias()) {
        // The copy stays on the chip of what it copies.
        setChip(chipOf(b));
        auto type = cast<tile::BufferType>(b.getType());
        StringAttr hlo = var.getHloAttr();
        Value out = makeVar(
            loc, (var.getName() + ".out").str(), tile::Category::Output,
            planSameAs(runsOf(b), "'" + var.getName().str() + "' (returned)"),
            type.getShape(), type.getElementType(),
            hlo ? hlo.getValue() : StringRef());
        emitExchange(loc, (var.getName() + ".out").str(), b, out,
                     planIdentityCopies(runsOf(b), runsOf(out)));
        b = out;
      }
      seen.insert(b);
      outputs.push_back(b);
    }
  }
  for (Value b : outputs)
    emitHostCopy(loc, tile::HostDirection::Outfeed, b);
}

LogicalResult Lowerer::run(func::FuncOp entry, TileLoweringStats &result) {
  stats = &result;
  // Returned values (through a tuple) become output buffers when made.
  func::ReturnOp ret;
  for (Block &block : entry.getBody())
    if (auto r = dyn_cast<func::ReturnOp>(block.getTerminator()))
      ret = r;
  if (!ret || entry.getBody().getBlocks().size() != 1)
    return entry.emitError("tgraph-to-tile: @main must be a single block "
                           "ending in func.return");
  for (Value v : ret.getOperands()) {
    returned.insert(v);
    if (auto tuple = v.getDefiningOp<tg::TupleOp>())
      for (Value in : tuple.getInputs())
        returned.insert(in);
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto program = builder.create<tile::ProgramOp>(
      entry.getLoc(),
      builder.getStringAttr(tileProgramName(entry.getSymName())),
      builder.getStringAttr(target.name), builder.getI64IntegerAttr(numTiles),
      builder.getI64IntegerAttr(1), builder.getI64IntegerAttr(1), StringAttr());
  program->setAttr("entry", FlatSymbolRefAttr::get(entry.getSymNameAttr()));
  Block *body = new Block();
  program.getBody().push_back(body);
  builder.setInsertionPointToEnd(body);
  builder.create<tile::EndOp>(entry.getLoc());
  builder.setInsertionPointToStart(body);

  for (BlockArgument arg : entry.getArguments()) {
    std::string name = "arg" + std::to_string(arg.getArgNumber());
    if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc()))
      name = nameLoc.getName().str();
    SmallVector<Type> leaves;
    flattenLeaves(arg.getType(), leaves);
    setChip(placement.argChip.empty() ? 0
                                      : placement.argChip[arg.getArgNumber()]);
    SmallVector<Value> &bufs = buffers[arg];
    for (Type leaf : leaves) {
      RankedTensorType t = bufferableTensor(leaf);
      // A tuple argument's leaves are not the tgraph value's users' operands.
      Value b = t ? makeLinearVar(arg.getLoc(), name, tile::Category::Parameter,
                                  t, name, leaves.size() == 1 ? arg : Value())
                  : Value();
      bufs.push_back(b);
      if (b)
        emitHostCopy(arg.getLoc(), tile::HostDirection::Infeed, b);
    }
    markResults(arg, name);
  }
  setChip(0);
  entryBlock = &entry.getBody().front();
  int64_t devices = tgraph::deviceCounts(module).devices();
  if (devices > 1 && devices * placement.chips <= target.chips) {
    replicas = devices;
    program.setReplicas(replicas);
  }
  // Folds run beside the lowering on the other threads --compile_threads
  // gives it.
  if (unsigned threads = llvm::parallel::strategy.compute_thread_count();
      threads > 1) {
    // A large fold's forms are tasks of LLVM's executor, which is made on
    // first use: made here, before the queue's threads exist, rather than
    // first by one of them and then used by another, which ThreadSanitizer
    // reports (the executor's once-guard is in uninstrumented LLVM code, so
    // it sees no ordering between them).
    {
      llvm::parallel::TaskGroup first;
      first.spawn([] {});
    }
    folds = std::make_unique<FoldQueue>(threads - 1, kMaxPendingFoldPieces);
  }
  lowerBlock(*entryBlock, "");
  lowerOutputs(ret);
  // Before anything reads the copies (the chip placement renumbers them).
  harvestFolds(/*all=*/true);
  folds.reset();
  harvested.clear();
  if (placement.chips > 1) {
    if (!placement.spread())
      placeTilesOnChips(program);
    program.setChips(placement.chips);
  }

  // Tiles used: any tile holding an element of any buffer.
  int64_t tiles = program.getTiles();
  SmallVector<bool> used(tiles, false);
  // Once per mapping: vars of one layout share it.
  DenseSet<Attribute> counted;
  program.walk([&](tile::VarOp var) {
    if (!counted.insert(var.getMapping()).second)
      return;
    for (auto [first, end] : tile::tilesWithElements(var.getMapping(), tiles))
      std::fill(used.begin() + first, used.begin() + end, true);
  });
  result.tilesUsed = llvm::count(used, true);
  return success();
}

std::string tessera::tileProgramName(llvm::StringRef entry) {
  return (entry + ".tile").str();
}

func::FuncOp tessera::findEntryFunction(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main");
      main && !main.isExternal())
    return main;
  llvm::SmallVector<func::FuncOp> candidates;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      candidates.push_back(fn);
  if (candidates.size() == 1)
    return candidates.front();
  InFlightDiagnostic diag = module.emitError(
      "tgraph-to-tile: no entry function: the module has no @main with a "
      "body and ");
  if (candidates.empty())
    return diag << "no public function with a body", nullptr;
  diag << candidates.size() << " public functions (";
  llvm::interleaveComma(candidates, diag, [&](func::FuncOp fn) {
    diag << "@" << fn.getSymName();
  });
  return diag << ")", nullptr;
}

LogicalResult tessera::lowerEntryToTile(ModuleOp module,
                                        const TargetDescription &target,
                                        TileLoweringStats *stats,
                                        const TileLoweringOptions &options) {
  func::FuncOp entry = findEntryFunction(module);
  if (!entry)
    return failure();
  std::string programName = tileProgramName(entry.getSymName());
  if (module.lookupSymbol(programName))
    return module.emitError("tgraph-to-tile: the module already has a "
                            "tile.program @")
           << programName;
  if (target.totalTiles() <= 0)
    return module.emitError("tgraph-to-tile: target '")
           << target.name << "' has no tiles";
  if (options.chips < 1 || options.chips > target.chips)
    return module.emitError("tgraph-to-tile: cannot place the program on ")
           << options.chips << " chips; target '" << target.name << "' has "
           << target.chips;
  ChipPlacement placement = placeOnChips(entry, options.chips, options.spread,
                                         options.chipBytes, options.mixed);
  TileLoweringStats local;
  Lowerer lowerer(module, target, placement, options.madeBuffer);
  if (failed(lowerer.run(entry, stats ? *stats : local)))
    return failure();
  return success();
}
