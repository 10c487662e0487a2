//===- LowerReduce.cpp - reduce as partials + cross-tile reduce -----------===//
//
// reduce: per-tile partials, an exchange to the owning tiles, a final
// reduce with the init value.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Conversion/TGraphToTile/ElementCopies.h"
#include "tessera/Conversion/TGraphToTile/ReducePartials.h"
#include "tessera/Dialect/TGraph/IR/HloTypes.h"

#include <array>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

std::string tessera::lowering::reducerKind(Region &body) {
  if (!body.hasOneBlock())
    return "";
  Block &block = body.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2)
    return "";
  Operation &op = block.front();
  if (!isa<tg::AddOp, tg::MulOp, tg::MaxOp, tg::MinOp, tg::AndOp, tg::OrOp>(op))
    return "";
  auto ret = dyn_cast<tg::ReturnOp>(block.getTerminator());
  if (!ret || ret.getNumOperands() != 1 || ret.getOperand(0) != op.getResult(0))
    return "";
  DenseSet<Value> args(block.args_begin(), block.args_end());
  if (!args.contains(op.getOperand(0)) || !args.contains(op.getOperand(1)))
    return "";
  return op.getName().stripDialect().str();
}

/// reduce with one input and a known reducer, in two steps:
///  1. every tile holding input elements reduces them into per-tile partials
///     (`partials` buffer, tile-major: tile t's slots are one per output
///     element it contributes to, in output order);
///  2. an exchange brings each output's partials to the tile owning that
///     output (`gathered`, owner-major, then output, then source tile), and
///     a second compute set reduces them with the init value.
/// Per-tile work is proportional to the tile's elements; the exchange moves
/// one element per (tile, output) pair, never the input itself.
std::optional<ReductionOperands> Lowerer::reductionOperands(ValueRange inputs,
                                                            ValueRange inits,
                                                            Region &body,
                                                            Type resultType) {
  if (inputs.size() != 1 || inits.size() != 1)
    return std::nullopt;
  ReductionOperands r;
  r.kind = reducerKind(body);
  r.outType = bufferableTensor(resultType);
  r.input = singleBuffer(buffers, inputs[0]);
  r.init = singleBuffer(buffers, inits[0]);
  if (r.kind.empty() || !r.outType || !r.input || !r.init ||
      elementsOf(r.init) != 1)
    return std::nullopt;
  return r;
}

bool Lowerer::lowerReduce(Operation *op, StringRef name, std::string &detail) {
  auto reduce = dyn_cast<tg::ReduceOp>(op);
  if (!reduce)
    return false;
  std::optional<ReductionOperands> operands =
      reductionOperands(reduce.getInputs(), reduce.getInitValues(),
                        reduce.getBody(), reduce.getType());
  if (!operands)
    return false;
  auto [kind, outType, input, init] = *operands;
  auto inType = cast<tile::BufferType>(input.getType());
  ArrayRef<int64_t> inShape = inType.getShape();
  int64_t nIn = inType.getNumElements(), nOut = outType.getNumElements();
  if (nIn > kMaxCopyElements) {
    detail = "more than " + std::to_string(kMaxCopyElements) +
             " input elements for exact partial planning";
    return false;
  }
  // Output element of each input element: drop the reduced dimensions.
  SmallVector<bool> reduced(inShape.size(), false);
  for (int64_t d : reduce.getDimensions())
    if (d >= 0 && d < int64_t(inShape.size()))
      reduced[d] = true;
  // (tile, output) pairs, each tile's in the order of its elements; one
  // slot each.
  std::optional<TileOutputs> outputsOfTile = partialOutputsPerTile(
      runsOf(input), inShape, reduced, stridesOf(outType.getShape()), numTiles);
  if (!outputsOfTile)
    return false;
  // Partials: tile-major.
  SmallVector<std::array<int64_t, 3>> pIntervals;
  int64_t nPartials = 0;
  for (size_t k = 0; k < outputsOfTile->numListed(); ++k) {
    int64_t c = outputsOfTile->ofListed(k).size();
    pIntervals.push_back({outputsOfTile->tiles[k], nPartials, nPartials + c});
    nPartials += c;
  }
  PlannedMapping outPlan = planBalancedLinear(
      nOut, mappingGrain(target, hloDtypeName(outType.getElementType())));
  // Gathered: owner-major, then output, then source tile. Every output
  // needs an owner.
  for (int64_t o : outputsOfTile->outputs)
    if (o >= nOut)
      return false;
  std::vector<int64_t> ownerOf(nOut);
  TileLookup outLookup(outPlan.runs);
  for (int64_t o = 0; o < nOut; ++o) {
    ownerOf[o] = outLookup.tileOf(o);
    if (ownerOf[o] < 0 && nIn > 0)
      return false;
  }
  std::vector<GatheredSlot> slots = orderGatheredSlots(*outputsOfTile, ownerOf);
  SmallVector<std::array<int64_t, 3>> gIntervals;
  for (auto [g, slot] : llvm::enumerate(slots)) {
    if (!gIntervals.empty() && gIntervals.back()[0] == slot.owner)
      gIntervals.back()[2] = g + 1;
    else
      gIntervals.push_back({slot.owner, int64_t(g), int64_t(g) + 1});
  }
  // Every output needs a partial (else its tile would have none to reduce):
  // true unless a reduced dimension is empty, which is left to the host.
  if (nIn == 0 || nOut == 0) {
    detail = "empty reduction";
    return false;
  }
  std::vector<ElementSource> sourceOfG(slots.size());
  for (auto [g, slot] : llvm::enumerate(slots))
    sourceOfG[g] = {0, slot.partial};
  PlannedMapping pPlan{compressIntervals(pIntervals),
                       "partials: one slot per (tile, output) on the tile "
                       "holding the input elements"};
  PlannedMapping gPlan{compressIntervals(gIntervals),
                       "partials gathered on the tile owning each output"};
  auto copies = planElementCopies(
      {pPlan.runs}, gPlan.runs, nPartials,
      [&](int64_t g) { return sourceOfG[g]; }, kMaxCopyRuns);
  if (!copies) {
    detail = "needs more than " + std::to_string(kMaxCopyRuns) +
             " exchange copy runs for its partials";
    return false;
  }
  Location loc = op->getLoc();
  Type elt = outType.getElementType();
  Value partials =
      makeVar(loc, (name + ".partials").str(), tile::Category::Partials, pPlan,
              {nPartials}, elt, name);
  Value gathered =
      makeVar(loc, (name + ".gathered").str(), tile::Category::Partials, gPlan,
              {nPartials}, elt, name);
  Value out = makeVar(loc, name, resultCategory(reduce.getResult()), outPlan,
                      outType.getShape(), elt, name);
  buffers[reduce.getResult()] = {out};
  auto dims = builder.getNamedAttr("dimensions", reduce.getDimensionsAttr());
  emitComputeSet(loc, (name + ".partial").str(), "reduce-partial." + kind,
                 input, partials, dims);
  emitExchange(loc, (name + ".gather").str(), partials, gathered, (*copies)[0]);
  // The final vertex's state: how many gathered slots each output has
  // (the tiles its inputs were on), run-length encoded as (count, outputs)
  // pairs in output order -- which is the gathered order, since outputs are
  // laid out linearly over ascending owners.
  SmallVector<int64_t> countRuns;
  for (size_t g = 0; g < slots.size();) {
    size_t next = g;
    while (next < slots.size() && slots[next].output == slots[g].output)
      ++next;
    int64_t count = next - g;
    if (!countRuns.empty() && countRuns[countRuns.size() - 2] == count)
      ++countRuns.back();
    else
      countRuns.append({count, 1});
    g = next;
  }
  Value initRep = replicateScalar(loc, name, init, out);
  emitComputeSet(
      loc, name, "reduce." + kind, ValueRange{gathered, initRep}, out,
      {dims,
       builder.getNamedAttr("scalar_operands",
                            builder.getDenseI64ArrayAttr({1})),
       builder.getNamedAttr("partials_per_output_runs",
                            builder.getDenseI64ArrayAttr(countRuns))});
  return true;
}
