//===- LowerDot.cpp - dot_general as a blocked matmul ---------------------===//
//
// dot_general: operand blocks exchanged to a grid of tiles sized to the
// matrix unit, matmul-partial vertices, a K-split reduction. A grid of
// exact divisors moves each operand's blocks as one strided view; when the
// divisors would leave much of the chip idle, a ragged grid (M and N blocks
// of one size, the last smaller) fills it instead.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Conversion/TGraphToTile/DotGrid.h"

#include <array>

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
namespace tg = tessera::tgraph;

/// Dimensions of `rank` not in `a` or `b`, ascending (dot_general's free
/// dimensions).
static SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> a,
                                     ArrayRef<int64_t> b) {
  SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d))
      free.push_back(d);
  return free;
}

namespace {
/// One dimension group of an operand (its batch, free or contracting
/// dimensions). Blocks split a group only when it is a single dimension;
/// a group of several is taken whole by every block.
struct Group {
  SmallVector<int64_t> dims;
  bool splittable() const { return dims.size() <= 1; }
};

/// A view of an operand as blocks: leading grid dims, then block dims.
struct BlockView {
  SmallVector<int64_t> shape, strides;
  void add(int64_t size, int64_t stride) {
    shape.push_back(size);
    strides.push_back(size == 1 ? 0 : stride);
  }
  /// The block dims of group `g` with block size `block` (the group's own
  /// dims when it is not split).
  void addBlock(const Group &g, int64_t block, ArrayRef<int64_t> opShape,
                ArrayRef<int64_t> opStrides) {
    if (g.dims.empty())
      return;
    if (g.dims.size() == 1)
      return add(block, opStrides[g.dims[0]]);
    for (int64_t d : g.dims)
      add(opShape[d], opStrides[d]);
  }
};

} // namespace

static int64_t strideOf(const Group &g, ArrayRef<int64_t> strides) {
  return g.dims.size() == 1 ? strides[g.dims[0]] : 0;
}

/// One block of `block` elements on each of tiles [0, tiles).
static SmallVector<int64_t> perTile(int64_t tiles, int64_t block) {
  return {0, tiles, block, 0};
}

namespace {
/// The buffers around the matrix vertices: the operand blocks as views of
/// the operands, and the mapping of every buffer the grid lays out.
struct DotLayout {
  BlockView lhs, rhs;
  SmallVector<int64_t> lhsRuns, rhsRuns, outRuns;
  /// K split: the partials ([pk, ...] slice-major), the slices gathered on
  /// each owner, and either a view or listed copies gathering them.
  SmallVector<int64_t> partialsShape, partialsRuns, gatheredShape, gatheredRuns,
      gatherStrides, gatherCopies;
};
} // namespace

/// The result, element (b, m, n) on the slice-0 tile of its block.
static SmallVector<int64_t> resultRuns(const DotGrid &g, const DotShape &s) {
  SmallVector<std::array<int64_t, 3>> iv;
  for (int64_t b = 0; b < s.B; ++b)
    for (int64_t m = 0; m < s.M; ++m)
      for (int64_t j = 0; j < g.pn; ++j) {
        int64_t begin = (b * s.M + m) * s.N + j * g.bn;
        int64_t end = begin + g.cols(j);
        int64_t t = g.tileOf(0, b / g.bb, m / g.bm, j);
        if (!iv.empty() && iv.back()[0] == t && iv.back()[2] == begin)
          iv.back()[2] = end;
        else
          iv.push_back({t, begin, end});
      }
  return compressIntervals(iv);
}

/// Blocks of one size on every tile: [pk, pb, pm, pn] grid dims, then the
/// block; lhs blocks repeat along n (stride 0), rhs blocks along m. The
/// K-split partials are [pk, owners, block], gathered by a transposing
/// view.
static DotLayout uniformLayout(const DotGrid &g, const Group *lg,
                               ArrayRef<int64_t> ls, ArrayRef<int64_t> lst,
                               const Group *rg, ArrayRef<int64_t> rs,
                               ArrayRef<int64_t> rst) {
  const Group &gb = lg[0], &gm = lg[1], &gk = lg[2];
  const Group &grb = rg[0], &grn = rg[1], &grk = rg[2];
  DotLayout l;
  l.lhs.add(g.pk, g.bk * strideOf(gk, lst));
  l.lhs.add(g.pb, g.bb * strideOf(gb, lst));
  l.lhs.add(g.pm, g.bm * strideOf(gm, lst));
  l.lhs.add(g.pn, 0);
  l.lhs.addBlock(gb, g.bb, ls, lst);
  l.lhs.addBlock(gm, g.bm, ls, lst);
  l.lhs.addBlock(gk, g.bk, ls, lst);
  l.rhs.add(g.pk, g.bk * strideOf(grk, rst));
  l.rhs.add(g.pb, g.bb * strideOf(grb, rst));
  l.rhs.add(g.pm, 0);
  l.rhs.add(g.pn, g.bn * strideOf(grn, rst));
  l.rhs.addBlock(grb, g.bb, rs, rst);
  l.rhs.addBlock(grk, g.bk, rs, rst);
  l.rhs.addBlock(grn, g.bn, rs, rst);
  l.lhsRuns = perTile(g.tiles(), g.bb * g.bm * g.bk);
  l.rhsRuns = perTile(g.tiles(), g.bb * g.bk * g.bn);
  int64_t outBlock = g.bb * g.bm * g.bn, owners = g.owners();
  l.partialsShape = {g.pk, owners, outBlock};
  l.partialsRuns = perTile(g.tiles(), outBlock);
  l.gatheredShape = {owners, g.pk, outBlock};
  l.gatheredRuns = perTile(owners, g.pk * outBlock);
  // [owner, slice, element] is a transposed view of [slice, owner, element].
  l.gatherStrides = {outBlock, owners * outBlock, 1};
  return l;
}

/// A ragged grid (one batch per block): blocks cannot be a rectangular
/// grid of equal blocks, so each operand's blocks buffer keeps the ragged
/// dimension whole and the tiles hold its ranges. lhs: [pk, pb, pn, M, bk]
/// (stride 0 along pn), each tile rows [i·bm, i·bm + rows(i)); rhs: [pk,
/// pb, pm, N, bk], each tile columns of N, so its block is [bn, bk] (the
/// vertex's `rhs_transposed`). Still one view exchange per operand. The
/// K-split partials are the owners' blocks one after another per slice,
/// gathered by listed copies (a run per slice and row of equal blocks).
static DotLayout raggedLayout(const DotGrid &g, const DotShape &s,
                              const Group *lg, ArrayRef<int64_t> ls,
                              ArrayRef<int64_t> lst, const Group *rg,
                              ArrayRef<int64_t> rs, ArrayRef<int64_t> rst) {
  const Group &gb = lg[0], &gm = lg[1], &gk = lg[2];
  const Group &grb = rg[0], &grn = rg[1], &grk = rg[2];
  DotLayout l;
  l.lhs.add(g.pk, g.bk * strideOf(gk, lst));
  l.lhs.add(g.pb, strideOf(gb, lst));
  l.lhs.add(g.pn, 0);
  l.lhs.addBlock(gm, s.M, ls, lst);
  l.lhs.addBlock(gk, g.bk, ls, lst);
  l.rhs.add(g.pk, g.bk * strideOf(grk, rst));
  l.rhs.add(g.pb, strideOf(grb, rst));
  l.rhs.add(g.pm, 0);
  l.rhs.addBlock(grn, s.N, rs, rst);
  l.rhs.addBlock(grk, g.bk, rs, rst);
  SmallVector<std::array<int64_t, 3>> lhsIv, rhsIv;
  for (int64_t kk = 0; kk < g.pk; ++kk)
    for (int64_t ib = 0; ib < g.pb; ++ib) {
      for (int64_t j = 0; j < g.pn; ++j)
        for (int64_t i = 0; i < g.pm; ++i) {
          int64_t begin =
              (((kk * g.pb + ib) * g.pn + j) * s.M + i * g.bm) * g.bk;
          lhsIv.push_back(
              {g.tileOf(kk, ib, i, j), begin, begin + g.rows(i) * g.bk});
        }
      for (int64_t i = 0; i < g.pm; ++i)
        for (int64_t j = 0; j < g.pn; ++j) {
          int64_t begin =
              (((kk * g.pb + ib) * g.pm + i) * s.N + j * g.bn) * g.bk;
          rhsIv.push_back(
              {g.tileOf(kk, ib, i, j), begin, begin + g.cols(j) * g.bk});
        }
    }
  l.lhsRuns = compressIntervals(lhsIv);
  l.rhsRuns = compressIntervals(rhsIv);
  int64_t total = s.B * s.M * s.N, owners = g.owners();
  l.partialsShape = {g.pk, total};
  l.gatheredShape = {g.pk * total};
  SmallVector<std::array<int64_t, 3>> partialIv, gatheredIv;
  for (int64_t kk = 0; kk < g.pk; ++kk) {
    int64_t offset = 0;
    for (int64_t o = 0; o < owners; ++o) {
      int64_t size = g.rows(o / g.pn % g.pm) * g.cols(o % g.pn);
      int64_t src = kk * total + offset, dst = g.pk * offset + kk * size;
      partialIv.push_back({kk * owners + o, src, src + size});
      if (kk == 0)
        gatheredIv.push_back({o, g.pk * offset, g.pk * (offset + size)});
      // (src tile, dst tile, count, elements, src element, src stride,
      // dst element, dst stride): equal blocks on consecutive owners
      // extend the last run.
      SmallVector<int64_t> &c = l.gatherCopies;
      size_t n = c.size();
      if (n && c[n - 5] == size && c[n - 8] + c[n - 6] == kk * owners + o &&
          c[n - 7] + c[n - 6] == o && c[n - 4] + c[n - 6] * size == src &&
          c[n - 2] + c[n - 6] * g.pk * size == dst) {
        ++c[n - 6];
      } else {
        c.append({kk * owners + o, o, 1, size, src, size, dst, g.pk * size});
      }
      offset += size;
    }
  }
  l.partialsRuns = compressIntervals(partialIv);
  l.gatheredRuns = compressIntervals(gatheredIv);
  return l;
}

bool Lowerer::lowerDot(Operation *op, StringRef name, std::string &detail) {
  auto dot = dyn_cast<tg::DotGeneralOp>(op);
  if (!dot)
    return false;
  RankedTensorType outType = bufferableTensor(dot.getType());
  Value lhs = singleBuffer(buffers, dot.getLhs()),
        rhs = singleBuffer(buffers, dot.getRhs());
  if (!outType || !lhs || !rhs)
    return false;
  ArrayRef<int64_t> ls = cast<tile::BufferType>(lhs.getType()).getShape();
  ArrayRef<int64_t> rs = cast<tile::BufferType>(rhs.getType()).getShape();
  ArrayRef<int64_t> lb = dot.getLhsBatchingDimensions(),
                    lc = dot.getLhsContractingDimensions(),
                    rb = dot.getRhsBatchingDimensions(),
                    rc = dot.getRhsContractingDimensions();
  SmallVector<int64_t> lf = freeDims(ls.size(), lb, lc),
                       rf = freeDims(rs.size(), rb, rc);
  auto product = [](ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= shape[d];
    return n;
  };
  DotShape s;
  s.B = product(ls, lb), s.M = product(ls, lf), s.K = product(ls, lc),
  s.N = product(rs, rf);
  if (s.B * s.M * s.N != outType.getNumElements() || product(rs, rc) != s.K ||
      product(rs, rb) != s.B)
    return false;
  if (s.B == 0 || s.M == 0 || s.N == 0 || s.K == 0) {
    detail = "empty contraction";
    return false;
  }
  Group lg[3] = {{SmallVector<int64_t>(lb)}, {lf}, {SmallVector<int64_t>(lc)}};
  Group rg[3] = {{SmallVector<int64_t>(rb)}, {rf}, {SmallVector<int64_t>(rc)}};
  s.splitB = lg[0].splittable() && rg[0].splittable();
  s.splitK = lg[2].splittable() && rg[2].splittable();
  s.splitM = lg[1].splittable();
  s.splitN = rg[1].splittable();
  const MatrixUnit &mu = target.matrixUnit;
  Type elt = outType.getElementType();
  DotCosts costs{
      mu, std::max<int64_t>(target.exchange.bandwidthBytesPerCycle, 1),
      bytesOfElement(cast<tile::BufferType>(lhs.getType()).getElementType())};
  int64_t resultBytes = bytesOfElement(elt);
  int64_t budget = target.usableBytesPerTile() / 2;
  std::string fitted;
  int64_t fastest = 0;
  DotGrid g =
      chooseDotGrid(s, costs, numTiles, budget, resultBytes, fitted, &fastest);
  // No grid of one pass within the budget (each tile holds a block row
  // and column over K / pk): K in passes over time, which reuse the
  // tiles' memory for each pass's blocks.
  Type pt = partialsType(elt);
  int64_t passes = 1;
  int64_t onePass = g.bytesPerTile(costs.elementBytes, resultBytes);
  int64_t chosen = onePass;
  if (onePass > budget && lc.size() == 1)
    if (std::optional<DotPasses> p = chooseDotPasses(
            s, costs, numTiles, budget, bytesOfElement(pt), onePass)) {
      passes = p->passes;
      g = p->grid;
      chosen = p->bytes;
      fitted = "; K in " + std::to_string(passes) + " passes of " +
               std::to_string(s.K / passes) +
               " on the same tiles: " + std::to_string(p->bytes) +
               " bytes on the fullest tile with the running sum, against " +
               std::to_string(onePass) + " in one pass (budget " +
               std::to_string(budget) + ")";
      if (!p->fitted.empty())
        fitted += "; each pass's grid" + p->fitted.substr(1);
    }
  // Each pass is a dot over its slice of K.
  DotShape ps = s;
  ps.K = s.K / passes;
  SmallVector<int64_t> lst = stridesOf(ls), rst = stridesOf(rs);
  DotLayout layout = g.ragged() ? raggedLayout(g, ps, lg, ls, lst, rg, rs, rst)
                                : uniformLayout(g, lg, ls, lst, rg, rs, rst);
  layout.outRuns = resultRuns(g, ps);
  std::string grid = g.describe();
  std::string ragged =
      (g.ragged() ? " (ragged: the last m block " + std::to_string(g.em) +
                        ", the last n block " + std::to_string(g.en) + ")"
                  : "") +
      fitted;
  int64_t um = std::max<int64_t>(mu.m, 1), un = std::max<int64_t>(mu.n, 1),
          uk = std::max<int64_t>(mu.k, 1);
  PlannedMapping lhsPlan{layout.lhsRuns,
                         "matmul lhs blocks, one per tile of the " + grid +
                             " (k x batch x m x n) grid" + ragged};
  PlannedMapping rhsPlan{layout.rhsRuns, "matmul rhs blocks, one per tile of "
                                         "the " +
                                             grid + " grid" + ragged};
  PlannedMapping outPlan{layout.outRuns,
                         "matmul result in " + std::to_string(g.bm) + "x" +
                             std::to_string(g.bn) + " blocks on the " + grid +
                             " grid (matrix unit " + std::to_string(um) + "x" +
                             std::to_string(un) + "x" + std::to_string(uk) +
                             ")" + ragged};
  Location loc = op->getLoc();
  auto lt = cast<tile::BufferType>(lhs.getType());
  auto rt = cast<tile::BufferType>(rhs.getType());
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr(
          "grid", builder.getDenseI64ArrayAttr({g.pk, g.pb, g.pm, g.pn})),
      builder.getNamedAttr(
          "block", builder.getDenseI64ArrayAttr({g.bb, g.bm, g.bn, g.bk})),
      builder.getNamedAttr(
          "flops", builder.getI64IntegerAttr(2 * s.B * s.M * s.N * ps.K))};
  // What keeping within the budget saved, for the memory report's
  // memory_options (docs/memory.md): the fastest grid's fullest tile, the
  // chosen layout's, the budget and the passes.
  if (chosen < fastest)
    attrs.push_back(builder.getNamedAttr(
        "memory_fit",
        builder.getDenseI64ArrayAttr({fastest, chosen, budget, passes})));
  if (g.ragged()) {
    // Each vertex tells its block from its operands' element counts: the
    // full block or, on the last row or column of the grid, the edge.
    attrs.push_back(builder.getNamedAttr(
        "edge", builder.getDenseI64ArrayAttr({g.em, g.en})));
    attrs.push_back(
        builder.getNamedAttr("rhs_transposed", builder.getUnitAttr()));
  }
  // Pass t's slice of K starts this many elements into each operand.
  int64_t lhsStep = passes > 1 ? ps.K * lst[lc[0]] : 0;
  int64_t rhsStep = passes > 1 ? ps.K * rst[rc[0]] : 0;
  // The result (made after the first pass's blocks, as buffers are listed
  // in the order a single pass uses them) and the sum of the passes so far.
  Value out, sum;
  for (int64_t t = 0; t < passes; ++t) {
    std::string pass =
        passes == 1 ? name.str() : (name + ".pass" + Twine(t)).str();
    Value lhsBlocks =
        makeVar(loc, pass + ".lhs", tile::Category::Temporary, lhsPlan,
                layout.lhs.shape, lt.getElementType(), name);
    Value rhsBlocks =
        makeVar(loc, pass + ".rhs", tile::Category::Temporary, rhsPlan,
                layout.rhs.shape, rt.getElementType(), name);
    if (t == 0) {
      out = makeVar(loc, name, resultCategory(dot.getResult()), outPlan,
                    outType.getShape(), elt, name);
      buffers[dot.getResult()] = {out};
      // Passes sum into the result in place, or into an f32 sum when the
      // result is 16-bit (rounded once, at the end).
      sum = passes == 1 || pt == elt
                ? out
                : makeVar(loc, (name + ".sum").str(), tile::Category::Partials,
                          {layout.outRuns, "the running sum of the " +
                                               std::to_string(passes) +
                                               " passes over K"},
                          outType.getShape(), pt, name);
    }
    emitViewExchange(loc, pass + ".lhs", lhs, lhsBlocks, t * lhsStep,
                     layout.lhs.strides);
    emitViewExchange(loc, pass + ".rhs", rhs, rhsBlocks, t * rhsStep,
                     layout.rhs.strides);
    if (g.pk == 1) {
      // Later passes add their product to the sum as they make it.
      if (t == 0) {
        emitComputeSet(loc, pass, "matmul-partial",
                       ValueRange{lhsBlocks, rhsBlocks}, sum, attrs);
      } else {
        SmallVector<NamedAttribute> acc(attrs);
        acc.push_back(
            builder.getNamedAttr("accumulate", builder.getUnitAttr()));
        emitComputeSet(loc, pass, "matmul-partial",
                       ValueRange{lhsBlocks, rhsBlocks, sum}, sum, acc);
      }
      continue;
    }
    // K split: each owner gathers the pk partial blocks of its result block
    // and sums them (after the first pass, into the pass's own product,
    // then added to the sum).
    Value result =
        t == 0 ? sum
               : makeVar(loc, pass, tile::Category::Partials,
                         {layout.outRuns, "pass " + std::to_string(t) + " of " +
                                              std::to_string(passes) +
                                              ": its slice of K's product, in "
                                              "the result's blocks"},
                         outType.getShape(), pt, name);
    Value partials = makeVar(
        loc, pass + ".partials", tile::Category::Partials,
        {layout.partialsRuns, "matmul partial products, one block per tile"},
        layout.partialsShape, pt, name);
    Value gathered =
        makeVar(loc, pass + ".gathered", tile::Category::Partials,
                {layout.gatheredRuns,
                 "the " + std::to_string(g.pk) +
                     " K-slice partials of each block on its owning tile"},
                layout.gatheredShape, pt, name);
    emitComputeSet(loc, pass + ".partial", "matmul-partial",
                   ValueRange{lhsBlocks, rhsBlocks}, partials, attrs);
    if (layout.gatherCopies.empty())
      emitViewExchange(loc, pass + ".gather", partials, gathered, 0,
                       layout.gatherStrides);
    else
      emitExchange(loc, pass + ".gather", partials, gathered,
                   layout.gatherCopies);
    emitComputeSet(loc, pass, "reduce.add", gathered, result,
                   builder.getNamedAttr("partials_per_output",
                                        builder.getI64IntegerAttr(g.pk)));
    if (t > 0)
      emitComputeSet(loc, pass + ".sum", "elementwise.add",
                     ValueRange{sum, result}, sum);
  }
  // A 16-bit result: the f32 sum rounded once.
  if (sum != out)
    emitComputeSet(loc, name, "elementwise.convert", sum, out);
  return true;
}
