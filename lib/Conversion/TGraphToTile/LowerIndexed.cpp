//===- LowerIndexed.cpp - shared steps of ops indexed at run time ---------===//
//
// gather, scatter, dynamic_slice, dynamic_update_slice and sort keep the
// dimensions they index at run time whole on each tile and split the others
// (IndexedLayout.h). This file chooses that split for all the buffers of one
// op, re-lays the ones that are elsewhere and replicates the indices; the
// per-family files build the buffers and the vertex.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Conversion/TGraphToTile/ElementCopies.h"
#include "tessera/Conversion/TGraphToTile/IndexedLayout.h"
#include "tessera/Target/TargetSchema.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;

int64_t tessera::lowering::bytesOfElement(Type elementType) {
  return dtypeBytes(hloDtypeName(elementType)).value_or(4);
}

static std::string dimList(ArrayRef<int64_t> dims) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(dims))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

namespace {
enum class Fit { Ok, Memory, Runs };
} // namespace

/// Chooses the position -> tile assignment for all of `bufs`: in place on
/// the layout of bufs[0].source when it already keeps every position on one
/// tile, else consecutive positions in equal chunks on tiles 0, 1, ...
/// (one position per tile when there are enough tiles, chunks doubled while
/// a mapping would be too fragmented or the exchanges need more than
/// kMaxCopyRuns copy runs). Every choice must fit the op's buffers and a copy
/// of `replicated` in each tile's memory; when none does, `detail` says why.
std::optional<PositionedPlan>
Lowerer::planPositioned(const WholeDimSplit &split, ArrayRef<int64_t> wholeDims,
                        ArrayRef<PositionedBuffer> bufs, Value replicated,
                        std::string &detail) {
  int64_t positions = split.numPositions();
  int64_t total = 0;
  for (const PositionedBuffer &b : bufs)
    total += ShapedType::getNumElements(b.shape);
  if (positions == 0 || total == 0) {
    detail = "empty operand or result";
    return std::nullopt;
  }
  if (total > kMaxCopyElements) {
    detail = "more than " + std::to_string(kMaxCopyElements) +
             " elements for exact layout planning";
    return std::nullopt;
  }
  int64_t usable = target.usableBytesPerTile();
  int64_t replicatedBytes = 0;
  if (replicated)
    replicatedBytes =
        elementsOf(replicated) *
        bytesOfElement(
            cast<tile::BufferType>(replicated.getType()).getElementType());
  // Splitting an inner dimension gives an interval per outer row and tile;
  // past this many a mapping is too fragmented for its vertices and
  // exchanges (the follow policy's bound, with a floor for few-tile chips).
  int64_t maxIntervals = std::max<int64_t>(4 * numTiles, 1024);
  int64_t worstBytes = 0, worstTile = 0, runsNeeded = 0;
  auto evaluate = [&](ArrayRef<int64_t> tileOfPosition,
                      PositionedPlan &plan) -> Fit {
    plan = PositionedPlan();
    // Mappings first, stopping at the fragmentation budget, so a rejected
    // split costs O(budget), not O(elements · log).
    SmallVector<int64_t> bytes(numTiles, 0);
    for (const PositionedBuffer &b : bufs) {
      std::optional<SmallVector<int64_t>> runs = runsForPositions(
          b.shape, b.positionStrides, tileOfPosition, maxIntervals);
      if (!runs)
        return Fit::Runs;
      for (size_t r = 0; r + 3 < runs->size(); r += 4)
        for (int64_t t = (*runs)[r]; t < (*runs)[r + 1]; ++t)
          bytes[t] += (*runs)[r + 2] * b.elementBytes;
      plan.runs.push_back(std::move(*runs));
    }
    SmallVector<bool> used(numTiles, false);
    for (int64_t t : tileOfPosition)
      used[t] = true;
    for (int64_t t = 0; t < numTiles; ++t)
      if (used[t]) {
        plan.tiles.push_back(t);
        bytes[t] += replicatedBytes;
      }
    worstTile = llvm::max_element(bytes) - bytes.begin();
    worstBytes = bytes[worstTile];
    if (worstBytes > usable)
      return Fit::Memory;
    int64_t copyRuns = 0;
    for (auto [b, runs] : llvm::zip(bufs, plan.runs)) {
      SmallVector<int64_t> copies;
      if (b.source && runsOf(b.source) != ArrayRef<int64_t>(runs))
        copies = planIdentityCopies(runsOf(b.source), runs);
      copyRuns += copies.size() / 8;
      plan.copies.push_back(std::move(copies));
    }
    if (replicated) {
      plan.replicateCopies = planReplicateCopies(
          runsOf(replicated), elementsOf(replicated), plan.tiles);
      copyRuns += plan.replicateCopies.size() / 8;
    }
    runsNeeded = copyRuns;
    return copyRuns > kMaxCopyRuns ? Fit::Runs : Fit::Ok;
  };
  std::string whole = "dims " + dimList(wholeDims) + " whole on each tile";
  PositionedPlan plan;
  if (bufs[0].source) {
    auto var = bufs[0].source.getDefiningOp<tile::VarOp>();
    if (auto inPlace = positionTiles(runsOf(bufs[0].source), split))
      if (evaluate(*inPlace, plan) == Fit::Ok) {
        plan.why = whole + ": in place on the layout of '" +
                   var.getName().str() + "', which already has them (" +
                   std::to_string(plan.tiles.size()) + " tiles)";
        return plan;
      }
  }
  int64_t firstChunk = (positions + std::min(numTiles, positions) - 1) /
                       std::min(numTiles, positions);
  for (int64_t chunk = firstChunk;; chunk *= 2) {
    chunk = std::min(chunk, positions);
    SmallVector<int64_t> tileOfPosition(positions);
    for (int64_t p = 0; p < positions; ++p)
      tileOfPosition[p] = p / chunk;
    Fit fit = evaluate(tileOfPosition, plan);
    if (fit == Fit::Ok) {
      plan.why = whole + ", the other " + std::to_string(positions) +
                 " positions split " + std::to_string(chunk) +
                 " per tile over " + std::to_string(plan.tiles.size()) +
                 (plan.tiles.size() == 1 ? " tile" : " tiles");
      if (chunk != firstChunk)
        plan.why += " (chunk raised from " + std::to_string(firstChunk) +
                    " so no mapping needs more than " +
                    std::to_string(maxIntervals) +
                    " intervals nor an exchange more than " +
                    std::to_string(kMaxCopyRuns) + " copy runs)";
      if (positions == 1)
        plan.why = whole + ": nothing else to split, all on one tile";
      return plan;
    }
    if (fit == Fit::Memory) {
      detail = whole + " needs " + std::to_string(worstBytes) +
               " bytes on tile " + std::to_string(worstTile) + " (usable " +
               std::to_string(usable) + ")";
      if (chunk != firstChunk)
        detail += " with chunks of " + std::to_string(chunk) +
                  " positions, the smallest that keep mappings within " +
                  std::to_string(maxIntervals) +
                  " intervals and exchanges within " +
                  std::to_string(kMaxCopyRuns) + " copy runs";
      return std::nullopt;
    }
    if (chunk == positions) {
      detail = whole + " needs " + std::to_string(runsNeeded) +
               " exchange copy runs even on one tile (budget " +
               std::to_string(kMaxCopyRuns) + ")";
      return std::nullopt;
    }
  }
}

/// The buffer `bufs[index]` of a plan as a vertex reads it: `source` itself
/// when already in place, else a temporary on the planned runs filled by an
/// exchange.
Value Lowerer::placePositioned(Location loc, StringRef name, Value source,
                               const PositionedPlan &plan, size_t index) {
  if (plan.copies[index].empty())
    return source;
  auto type = cast<tile::BufferType>(source.getType());
  auto var = source.getDefiningOp<tile::VarOp>();
  Value laid =
      makeVar(loc, name, tile::Category::Temporary,
              {plan.runs[index],
               "re-laid from '" + var.getName().str() + "': " + plan.why},
              type.getShape(), type.getElementType(), "");
  emitExchange(loc, name, source, laid, plan.copies[index]);
  return laid;
}

/// One whole copy of `indices` on each tile of the plan (tile plan.tiles[i]
/// holds copy i), so every vertex can read any index.
Value Lowerer::replicateIndices(Location loc, StringRef name, Value indices,
                                const PositionedPlan &plan) {
  int64_t n = elementsOf(indices);
  SmallVector<std::array<int64_t, 3>> intervals;
  for (auto [i, t] : llvm::enumerate(plan.tiles))
    intervals.push_back({t, int64_t(i) * n, int64_t(i + 1) * n});
  auto type = cast<tile::BufferType>(indices.getType());
  std::string varName = (name + ".indices").str();
  Value rep = makeVar(
      loc, varName, tile::Category::Temporary,
      {compressIntervals(intervals),
       "indices replicated: one whole copy (" + std::to_string(n) +
           (n == 1 ? " element" : " elements") + ") per tile of the split"},
      {n * int64_t(plan.tiles.size())}, type.getElementType(), "");
  emitExchange(loc, varName, indices, rep, plan.replicateCopies);
  return rep;
}
