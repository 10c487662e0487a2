//===- LowerReduceWindow.cpp - pooling as blocked window reductions -------===//
//
// reduce_window (max / average / min / product pooling): the output cut into
// blocks on a grid of tiles; each tile receives the input window of its
// block, halo included, and runs one reduce-window vertex with the
// replicated init value.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Dialect/TGraph/IR/HloTypes.h"
#include "tessera/Analysis/OpCost.h"
#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <vector>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// A grid over every output dimension: counts and block sizes; tiles are
/// numbered row-major over the grid.
struct WindowGrid {
  SmallVector<int64_t> count, block;
  int64_t tiles() const {
    int64_t n = 1;
    for (int64_t c : count)
      n *= c;
    return n;
  }
};

/// The input box a block of outputs [lo, hi) reads; a block reading only
/// padding gets one element, so its vertex has its operand on its tile.
Box inputBox(ArrayRef<WindowDim> dims, const Box &out) {
  Box box;
  for (auto [d, w] : llvm::enumerate(dims)) {
    auto [lo, hi] = windowInputRange(w, out.lo[d], out.hi[d]);
    if (lo >= hi) {
      lo = std::clamp<int64_t>(lo, 0, w.inputSize - 1);
      hi = lo + 1;
    }
    box.lo.push_back(lo);
    box.hi.push_back(hi);
  }
  return box;
}

Box blockBox(const WindowGrid &g, ArrayRef<int64_t> shape,
             ArrayRef<int64_t> index) {
  Box box;
  for (size_t d = 0; d < shape.size(); ++d) {
    box.lo.push_back(index[d] * g.block[d]);
    box.hi.push_back(std::min(shape[d], (index[d] + 1) * g.block[d]));
  }
  return box;
}

} // namespace

/// Grids in order of estimated cycles (vector passes over a full block's
/// windows plus the exchange of its input window), within the copy budgets,
/// the tile memory and 4 result intervals per tile of the chip. Every output
/// dimension may be split.
static SmallVector<WindowGrid>
rankWindowGrids(ArrayRef<int64_t> outShape, ArrayRef<int64_t> inShape,
                ArrayRef<WindowDim> dims, const TargetDescription &target,
                int64_t numTiles, int64_t width, int64_t bytes) {
  int64_t bandwidth =
      std::max<int64_t>(target.exchange.bandwidthBytesPerCycle, 1);
  int64_t memory = target.sramBytesPerTile - target.reservedBytesPerTile.code -
                   target.reservedBytesPerTile.stack;
  int64_t windowSize = 1;
  for (const WindowDim &w : dims)
    windowSize *= w.window;
  size_t rank = outShape.size();
  SmallVector<SmallVector<int64_t>> options(rank);
  for (size_t d = 0; d < rank; ++d) {
    for (int64_t p = 1; p < outShape[d]; p *= 2)
      options[d].push_back(p);
    options[d].push_back(std::max<int64_t>(outShape[d], 1));
  }
  struct Ranked {
    int64_t cycles;
    WindowGrid grid;
  };
  SmallVector<Ranked> ranked;
  std::set<std::vector<int64_t>> seen; // block sizes already ranked
  SmallVector<size_t> pick(rank, 0);
  while (true) {
    WindowGrid g;
    for (size_t d = 0; d < rank; ++d) {
      g.block.push_back(ceilDiv(outShape[d], options[d][pick[d]]));
      g.count.push_back(ceilDiv(outShape[d], g.block.back()));
    }
    bool fresh =
        seen.insert(std::vector<int64_t>(g.block.begin(), g.block.end()))
            .second;
    if (fresh && g.tiles() <= numTiles) {
      // The second block along each split dimension stands for all.
      SmallVector<int64_t> index;
      for (size_t d = 0; d < rank; ++d)
        index.push_back(std::min<int64_t>(1, g.count[d] - 1));
      Box out = blockBox(g, outShape, index);
      Box in = inputBox(dims, out);
      int64_t inElems = in.numElements(), outElems = out.numElements();
      int64_t pieces = boxSpanCount(inShape, in.lo, in.hi);
      // As for convolution: at most 4 result intervals per tile of the chip.
      bool fits =
          g.tiles() * inElems <= kMaxWindowCopyElements &&
          g.tiles() * pieces <= kMaxWindowPieces &&
          g.tiles() * boxSpanCount(outShape, out.lo, out.hi) <= 4 * numTiles &&
          (memory <= 0 || (inElems + outElems + 1) * bytes <= memory);
      if (fits)
        ranked.push_back({ceilDiv(outElems * windowSize, width) +
                              inElems * bytes / bandwidth +
                              pieces * kCyclesPerPiece,
                          g});
    }
    size_t d = 0;
    for (; d < rank; ++d) {
      if (++pick[d] < options[d].size())
        break;
      pick[d] = 0;
    }
    if (d == rank)
      break;
  }
  llvm::stable_sort(ranked, [](const Ranked &a, const Ranked &b) {
    return std::make_pair(a.cycles, a.grid.tiles()) <
           std::make_pair(b.cycles, b.grid.tiles());
  });
  SmallVector<WindowGrid> grids;
  for (const Ranked &r : ranked)
    grids.push_back(r.grid);
  return grids;
}

/// reduce_window with one input and a known reducer (as for reduce): each
/// output block's tile receives the input window of its block (the rows its
/// outputs read, halo included, padding left out) and runs one
/// "reduce-window.OP" vertex starting from the replicated init value, which
/// also stands for the padding.
bool Lowerer::lowerReduceWindow(Operation *op, StringRef name,
                                std::string &detail) {
  auto rw = dyn_cast<tg::ReduceWindowOp>(op);
  if (!rw)
    return false;
  std::optional<ReductionOperands> operands = reductionOperands(
      rw.getInputs(), rw.getInitValues(), rw.getBody(), rw.getType());
  if (!operands)
    return false;
  auto [kind, outType, input, init] = *operands;
  auto inType = cast<tile::BufferType>(input.getType());
  ArrayRef<int64_t> inShape = inType.getShape(), outShape = outType.getShape();
  if (outType.getNumElements() == 0 || inType.getNumElements() == 0) {
    detail = "empty reduce_window";
    return false;
  }
  if (outType.getNumElements() > kMaxCopyElements) {
    detail = "more than " + std::to_string(kMaxCopyElements) +
             " output elements for exact block planning";
    return false;
  }
  auto at = [](std::optional<ArrayRef<int64_t>> attr, size_t i, int64_t dflt) {
    return attr ? (*attr)[i] : dflt;
  };
  SmallVector<WindowDim> dims;
  for (size_t d = 0; d < inShape.size(); ++d) {
    WindowDim w;
    w.inputSize = inShape[d];
    w.window = rw.getWindowDimensions()[d];
    w.stride = at(rw.getWindowStrides(), d, 1);
    w.padLow = at(rw.getPadding(), 2 * d, 0);
    w.padHigh = at(rw.getPadding(), 2 * d + 1, 0);
    w.baseDilation = at(rw.getBaseDilations(), d, 1);
    w.windowDilation = at(rw.getWindowDilations(), d, 1);
    dims.push_back(w);
  }
  Type elt = outType.getElementType();
  std::string dtype = hloDtypeName(elt);
  auto widthIt = target.vectorWidth.find(dtype);
  int64_t width = widthIt == target.vectorWidth.end()
                      ? 1
                      : std::max<int64_t>(widthIt->second, 1);
  SmallVector<WindowGrid> grids =
      rankWindowGrids(outShape, inShape, dims, target, numTiles, width,
                      elementBytes(inType.getElementType()));
  // The best few grids by estimate; a later one may fold into fewer runs.
  std::optional<BlockCopyPlan> copies;
  WindowGrid g;
  std::vector<std::array<int64_t, 3>> outSpans; // begin, end, tile
  // The vertex's `input_boxes`: each tile's input box, lo then hi.
  SmallVector<int64_t> inputBoxes;
  for (size_t i = 0; i < grids.size() && i < 3 && !copies; ++i) {
    g = grids[i];
    outSpans.clear();
    inputBoxes.clear();
    SmallVector<TileBlock> blocks;
    SmallVector<int64_t> index;
    for (int64_t t = 0; t < g.tiles(); ++t) {
      unravel(t, g.count, index);
      Box out = blockBox(g, outShape, index);
      blocks.push_back({t, {inputBox(dims, out)}});
      inputBoxes.append(blocks.back().boxes[0].lo.begin(),
                        blocks.back().boxes[0].lo.end());
      inputBoxes.append(blocks.back().boxes[0].hi.begin(),
                        blocks.back().boxes[0].hi.end());
      forEachBoxSpan(outShape, out.lo, out.hi, [&](int64_t off, int64_t len) {
        outSpans.push_back({off, off + len, t});
      });
    }
    copies = planBlockCopies(inShape, runsOf(input), blocks, kMaxWindowPieces,
                             kMaxCopyRuns);
  }
  if (!copies) {
    detail = grids.empty()
                 ? "no blocking fits the tile memory and the copy budget of " +
                       std::to_string(kMaxWindowCopyElements) + " elements"
                 : "needs more than " + std::to_string(kMaxCopyRuns) +
                       " exchange copy runs for its windows";
    return false;
  }
  SmallVector<std::array<int64_t, 3>> outIntervals = tileIntervals(outSpans);
  auto join = [](ArrayRef<int64_t> v) {
    std::string s;
    for (int64_t x : v)
      s += (s.empty() ? "" : "x") + std::to_string(x);
    return s;
  };
  std::string grid = join(g.count);
  Location loc = op->getLoc();
  PlannedMapping inPlan{compressIntervals(copies->intervals),
                        "reduce_window input windows (halo included), one "
                        "per tile of the " +
                            grid + " grid"};
  PlannedMapping outPlan{compressIntervals(outIntervals),
                         "reduce_window result in " + join(g.block) +
                             " blocks on the " + grid + " grid"};
  Value inBlocks =
      makeVar(loc, (name + ".in").str(), tile::Category::Temporary, inPlan,
              {copies->numElements}, inType.getElementType(), name);
  Value out = makeVar(loc, name, resultCategory(rw.getResult()), outPlan,
                      outShape, elt, name);
  buffers[rw.getResult()] = {out};
  emitExchange(loc, (name + ".in").str(), input, inBlocks, copies->copies,
               copies->copyStrides);
  // Blocks with the same window (e.g. several in padding) share one fetch.
  emitExchange(loc, (name + ".in.replicate").str(), inBlocks, inBlocks,
               copies->replicaCopies);
  Value initRep = replicateScalar(loc, name, init, out);
  // Input elements each block shares with its successor, per dimension.
  SmallVector<int64_t> halo, windowDims, strides, padding, baseDil, winDil;
  for (auto [d, w] : llvm::enumerate(dims)) {
    int64_t h = 0;
    if (g.count[d] > 1) {
      int64_t b = g.block[d];
      int64_t firstEnd = windowInputRange(w, 0, b).second;
      int64_t secondBegin =
          windowInputRange(w, b, std::min(outShape[d], 2 * b)).first;
      h = std::max<int64_t>(0, firstEnd - secondBegin);
    }
    halo.push_back(h);
    windowDims.push_back(w.window);
    strides.push_back(w.stride);
    padding.append({w.padLow, w.padHigh});
    baseDil.push_back(w.baseDilation);
    winDil.push_back(w.windowDilation);
  }
  int64_t windowSize = 1;
  for (int64_t w : windowDims)
    windowSize *= w;
  emitComputeSet(
      loc, name, "reduce-window." + kind, ValueRange{inBlocks, initRep}, out,
      {builder.getNamedAttr("grid", builder.getDenseI64ArrayAttr(g.count)),
       builder.getNamedAttr("block", builder.getDenseI64ArrayAttr(g.block)),
       builder.getNamedAttr("flops", builder.getI64IntegerAttr(
                                         outType.getNumElements() *
                                         std::max<int64_t>(windowSize - 1, 0))),
       builder.getNamedAttr("window_dimensions",
                            builder.getDenseI64ArrayAttr(windowDims)),
       builder.getNamedAttr("window_strides",
                            builder.getDenseI64ArrayAttr(strides)),
       builder.getNamedAttr("padding", builder.getDenseI64ArrayAttr(padding)),
       builder.getNamedAttr("base_dilations",
                            builder.getDenseI64ArrayAttr(baseDil)),
       builder.getNamedAttr("window_dilations",
                            builder.getDenseI64ArrayAttr(winDil)),
       builder.getNamedAttr("halo", builder.getDenseI64ArrayAttr(halo)),
       builder.getNamedAttr("input_boxes",
                            builder.getDenseI64ArrayAttr(inputBoxes)),
       builder.getNamedAttr("input_shape",
                            builder.getDenseI64ArrayAttr(inShape)),
       builder.getNamedAttr("scalar_operands",
                            builder.getDenseI64ArrayAttr({1}))});
  return true;
}
