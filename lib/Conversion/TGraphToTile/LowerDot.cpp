//===- LowerDot.cpp - dot_general as a blocked matmul ---------------------===//
//
// dot_general: operand blocks exchanged to a grid of tiles sized to the
// matrix unit, matmul-partial vertices, a K-split reduction.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Analysis/Compat.h"

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

/// Smallest divisor of `x` above `p`, or 0 when `p >= x`.
static int64_t nextDivisor(int64_t x, int64_t p) {
  for (int64_t d = p + 1; d <= x; ++d)
    if (x % d == 0)
      return d;
  return 0;
}

/// Largest divisor of `x` that is at most `limit` (at least 1).
static int64_t largestDivisorAtMost(int64_t x, int64_t limit) {
  for (int64_t d = std::min(x, limit); d > 1; --d)
    if (x % d == 0)
      return d;
  return 1;
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
  int64_t B = product(ls, lb), M = product(ls, lf), K = product(ls, lc),
          N = product(rs, rf);
  if (B * M * N != outType.getNumElements() || product(rs, rc) != K ||
      product(rs, rb) != B)
    return false;
  if (B == 0 || M == 0 || N == 0 || K == 0) {
    detail = "empty contraction";
    return false;
  }
  // The grid (pk x pb x pm x pn): batches first, then M and N grown
  // alternately (the larger block first) through their divisors while the
  // blocks stay at least the matrix unit, then K with the tiles left. Exact
  // divisors make every block the same size, so each operand's blocks are a
  // strided view of it and move as one view exchange.
  const MatrixUnit &mu = target.matrixUnit;
  int64_t um = std::max<int64_t>(mu.m, 1), un = std::max<int64_t>(mu.n, 1),
          uk = std::max<int64_t>(mu.k, 1);
  Group gb{SmallVector<int64_t>(lb)}, gm{lf}, gk{SmallVector<int64_t>(lc)},
      grb{SmallVector<int64_t>(rb)}, grn{rf}, grk{SmallVector<int64_t>(rc)};
  bool splitB = gb.splittable() && grb.splittable();
  bool splitK = gk.splittable() && grk.splittable();
  int64_t pb = splitB ? largestDivisorAtMost(B, numTiles) : 1;
  int64_t rem = numTiles / pb;
  int64_t pm = 1, pn = 1, pk = 1;
  while (true) {
    int64_t nm = gm.splittable() ? nextDivisor(M, pm) : 0;
    int64_t nn = grn.splittable() ? nextDivisor(N, pn) : 0;
    bool growM = nm && M / nm >= std::min(um, M) && nm * pn <= rem;
    bool growN = nn && N / nn >= std::min(un, N) && pm * nn <= rem;
    if (!growM && !growN)
      break;
    if (growM && (!growN || M / pm >= N / pn))
      pm = nm;
    else
      pn = nn;
  }
  if (splitK && 2 * pm * pn <= rem)
    pk = largestDivisorAtMost(
        K, std::min(rem / (pm * pn), std::max<int64_t>(K / uk, 1)));
  int64_t bb = B / pb, bm = M / pm, bn = N / pn, bk = K / pk;
  int64_t owners = pb * pm * pn, gridTiles = pk * owners;
  auto tileOf = [&](int64_t kk, int64_t ib, int64_t i, int64_t j) {
    return ((kk * pb + ib) * pm + i) * pn + j;
  };
  SmallVector<int64_t> lst = stridesOf(ls), rst = stridesOf(rs);
  // Operand blocks: [pk, pb, pm, pn] grid dims, then the block; lhs blocks
  // repeat along n (stride 0), rhs blocks along m.
  BlockView lhsView, rhsView;
  lhsView.add(pk, bk * strideOf(gk, lst));
  lhsView.add(pb, bb * strideOf(gb, lst));
  lhsView.add(pm, bm * strideOf(gm, lst));
  lhsView.add(pn, 0);
  lhsView.addBlock(gb, bb, ls, lst);
  lhsView.addBlock(gm, bm, ls, lst);
  lhsView.addBlock(gk, bk, ls, lst);
  rhsView.add(pk, bk * strideOf(grk, rst));
  rhsView.add(pb, bb * strideOf(grb, rst));
  rhsView.add(pm, 0);
  rhsView.add(pn, bn * strideOf(grn, rst));
  rhsView.addBlock(grb, bb, rs, rst);
  rhsView.addBlock(grk, bk, rs, rst);
  rhsView.addBlock(grn, bn, rs, rst);
  int64_t lhsBlock = bb * bm * bk, rhsBlock = bb * bk * bn,
          outBlock = bb * bm * bn;
  auto perTile = [&](int64_t tiles, int64_t block) {
    return SmallVector<int64_t>{0, tiles, block, 0};
  };
  // The result: element (b, m, n) on the slice-0 tile of its block.
  SmallVector<std::array<int64_t, 3>> outIv;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t j = 0; j < pn; ++j) {
        int64_t begin = (b * M + m) * N + j * bn;
        int64_t t = tileOf(0, b / bb, m / bm, j);
        if (!outIv.empty() && outIv.back()[0] == t && outIv.back()[2] == begin)
          outIv.back()[2] = begin + bn;
        else
          outIv.push_back({t, begin, begin + bn});
      }
  std::string grid = std::to_string(pk) + "x" + std::to_string(pb) + "x" +
                     std::to_string(pm) + "x" + std::to_string(pn);
  PlannedMapping lhsPlan{perTile(gridTiles, lhsBlock),
                         "matmul lhs blocks, one per tile of the " + grid +
                             " (k x batch x m x n) grid"};
  PlannedMapping rhsPlan{perTile(gridTiles, rhsBlock),
                         "matmul rhs blocks, one per tile of the " + grid +
                             " grid"};
  PlannedMapping outPlan{compressIntervals(outIv),
                         "matmul result in " + std::to_string(bm) + "x" +
                             std::to_string(bn) + " blocks on the " + grid +
                             " grid (matrix unit " + std::to_string(um) + "x" +
                             std::to_string(un) + "x" + std::to_string(uk) +
                             ")"};
  Location loc = op->getLoc();
  auto lt = cast<tile::BufferType>(lhs.getType());
  auto rt = cast<tile::BufferType>(rhs.getType());
  Type elt = outType.getElementType();
  Value lhsBlocks =
      makeVar(loc, (name + ".lhs").str(), tile::Category::Temporary, lhsPlan,
              lhsView.shape, lt.getElementType(), name);
  Value rhsBlocks =
      makeVar(loc, (name + ".rhs").str(), tile::Category::Temporary, rhsPlan,
              rhsView.shape, rt.getElementType(), name);
  Value out = makeVar(loc, name, resultCategory(dot.getResult()), outPlan,
                      outType.getShape(), elt, name);
  buffers[dot.getResult()] = {out};
  emitViewExchange(loc, (name + ".lhs").str(), lhs, lhsBlocks, 0,
                   lhsView.strides);
  emitViewExchange(loc, (name + ".rhs").str(), rhs, rhsBlocks, 0,
                   rhsView.strides);
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("grid",
                           builder.getDenseI64ArrayAttr({pk, pb, pm, pn})),
      builder.getNamedAttr("block",
                           builder.getDenseI64ArrayAttr({bb, bm, bn, bk})),
      builder.getNamedAttr("flops",
                           builder.getI64IntegerAttr(2 * B * M * N * K))};
  if (pk == 1) {
    emitComputeSet(loc, name, "matmul-partial",
                   ValueRange{lhsBlocks, rhsBlocks}, out, attrs);
    return true;
  }
  // K split: each owner gathers the pk partial blocks of its result block
  // ([owner, slice, element] is a transposed view of [slice, owner, element])
  // and sums them.
  Value partials =
      makeVar(loc, (name + ".partials").str(), tile::Category::Partials,
              {perTile(gridTiles, outBlock),
               "matmul partial products, one block per tile"},
              {pk, owners, outBlock}, partialsType(elt), name);
  Value gathered =
      makeVar(loc, (name + ".gathered").str(), tile::Category::Partials,
              {perTile(owners, pk * outBlock),
               "the " + std::to_string(pk) +
                   " K-slice partials of each block on its owning tile"},
              {owners, pk, outBlock}, partialsType(elt), name);
  emitComputeSet(loc, (name + ".partial").str(), "matmul-partial",
                 ValueRange{lhsBlocks, rhsBlocks}, partials, attrs);
  emitViewExchange(loc, (name + ".gather").str(), partials, gathered, 0,
                   {outBlock, owners * outBlock, 1});
  emitComputeSet(loc, name, "reduce.add", gathered, out,
                 builder.getNamedAttr("partials_per_output",
                                      builder.getI64IntegerAttr(pk)));
  return true;
}
