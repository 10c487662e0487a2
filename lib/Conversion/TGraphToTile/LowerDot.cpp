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

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t padTo(int64_t x, int64_t unit) {
  return ceilDiv(x, unit) * unit;
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

/// The contraction as [B, M, K] x [B, K, N], and which sizes may be split.
struct DotShape {
  int64_t B, M, N, K;
  bool splitB, splitM, splitN, splitK;
};

/// What a grid's cost counts with: the matrix unit, the exchange's bytes
/// per cycle and the operands' element size.
struct DotCosts {
  const MatrixUnit &unit;
  int64_t bandwidth, elementBytes;
};

/// A pk x pb x pm x pn grid of [bb, bm, bn, bk] blocks, except that the
/// last block along M has `em` rows and the last along N `en` columns (a
/// ragged grid; em == bm and en == bn when the grid is of exact divisors).
/// K slices are outermost, so the tiles owning the result are the
/// contiguous range [0, pb·pm·pn).
struct DotGrid {
  int64_t pk = 1, pb = 1, pm = 1, pn = 1;
  int64_t bb = 1, bm = 1, bn = 1, bk = 1, em = 1, en = 1;
  bool ragged() const { return em != bm || en != bn; }
  int64_t owners() const { return pb * pm * pn; }
  int64_t tiles() const { return pk * owners(); }
  int64_t rows(int64_t i) const { return i + 1 < pm ? bm : em; }
  int64_t cols(int64_t j) const { return j + 1 < pn ? bn : en; }
  int64_t tileOf(int64_t kk, int64_t ib, int64_t i, int64_t j) const {
    return ((kk * pb + ib) * pm + i) * pn + j;
  }
  /// The slowest tile's cycles, roughly: its (largest) block's MACs padded
  /// to the matrix unit, plus receiving its operand blocks and, with a K
  /// split, the partials of its result block (at least 4 bytes each: 16-bit
  /// contractions keep f32 partials). Counting the exchange keeps blocks
  /// square-ish (a thin block computes as fast but receives more) and K
  /// splits where they save more than they gather.
  int64_t cost(const DotCosts &c) const {
    const MatrixUnit &u = c.unit;
    int64_t macs = bb * padTo(bm, std::max<int64_t>(u.m, 1)) *
                   padTo(bn, std::max<int64_t>(u.n, 1)) *
                   padTo(bk, std::max<int64_t>(u.k, 1));
    int64_t bytes = bb * bk * (bm + bn) * c.elementBytes;
    if (pk > 1)
      bytes += pk * bb * bm * bn * std::max<int64_t>(c.elementBytes, 4);
    return macs / std::max<int64_t>(u.macsPerCycle(), 1) +
           ceilDiv(bytes, c.bandwidth);
  }
  std::string describe() const {
    return std::to_string(pk) + "x" + std::to_string(pb) + "x" +
           std::to_string(pm) + "x" + std::to_string(pn);
  }
  /// The bytes the dot holds on its fullest tile (a result block's owner)
  /// at the larger of its two phases: the operand blocks with the
  /// partials they make, then (K split) the gathered partials with the
  /// result block.
  int64_t bytesPerTile(int64_t elementBytes, int64_t resultBytes) const {
    int64_t block = bb * bm * bn;
    int64_t partial = std::max<int64_t>(elementBytes, 4);
    int64_t operands = bb * bk * (bm + bn) * elementBytes;
    if (pk == 1)
      return operands + block * resultBytes;
    return std::max(operands + block * partial,
                    pk * block * partial + block * resultBytes);
  }
};
} // namespace

/// K takes the tiles a grid leaves: as many slices as fit (an exact
/// divisor, blocks at least the unit's k), when at least two would.
static void splitK(DotGrid &g, const DotShape &s, int64_t uk, int64_t rem) {
  g.pk = 1;
  if (s.splitK && 2 * g.pm * g.pn <= rem)
    g.pk = largestDivisorAtMost(
        s.K, std::min(rem / (g.pm * g.pn), std::max<int64_t>(s.K / uk, 1)));
  g.bk = s.K / g.pk;
}

/// Exact divisors: batches first, then M and N grown alternately (the
/// larger block first) through their divisors while the blocks stay at
/// least the matrix unit, then K with the tiles left. Every block has the
/// same size, so each operand's blocks are a strided view of it.
static DotGrid divisorGrid(const DotShape &s, const MatrixUnit &u,
                           int64_t numTiles) {
  int64_t um = std::max<int64_t>(u.m, 1), un = std::max<int64_t>(u.n, 1);
  DotGrid g;
  g.pb = s.splitB ? largestDivisorAtMost(s.B, numTiles) : 1;
  int64_t rem = numTiles / g.pb;
  while (true) {
    int64_t nm = s.splitM ? nextDivisor(s.M, g.pm) : 0;
    int64_t nn = s.splitN ? nextDivisor(s.N, g.pn) : 0;
    bool growM = nm && s.M / nm >= std::min(um, s.M) && nm * g.pn <= rem;
    bool growN = nn && s.N / nn >= std::min(un, s.N) && g.pm * nn <= rem;
    if (!growM && !growN)
      break;
    if (growM && (!growN || s.M / g.pm >= s.N / g.pn))
      g.pm = nm;
    else
      g.pn = nn;
  }
  splitK(g, s, std::max<int64_t>(u.k, 1), rem);
  g.bb = s.B / g.pb, g.bm = g.em = s.M / g.pm, g.bn = g.en = s.N / g.pn;
  return g;
}

/// The ragged grid with the fastest slowest tile, batches split whole (one
/// batch per block, so each block's rows are contiguous in the blocks
/// buffers): for each count of M blocks, the smallest unit multiple that
/// makes that many, and N blocks as small as the tiles left allow.
/// Blocks that are unit multiples fit the matrix unit exactly but for the
/// last one. Ties go to fewer tiles (less operand replication).
/// The tiles each batch's blocks get on a ragged grid (one batch per
/// block), or none when the batches cannot be split that way.
static std::optional<int64_t> raggedTilesPerBatch(const DotShape &s,
                                                  int64_t numTiles) {
  if (!(s.B == 1 || (s.splitB && s.B <= numTiles)))
    return std::nullopt;
  return numTiles / s.B;
}

static std::optional<DotGrid> raggedGrid(const DotShape &s, const DotCosts &c,
                                         int64_t numTiles) {
  std::optional<int64_t> perBatch = raggedTilesPerBatch(s, numTiles);
  if (!perBatch)
    return std::nullopt;
  const MatrixUnit &u = c.unit;
  int64_t um = std::max<int64_t>(u.m, 1), un = std::max<int64_t>(u.n, 1);
  int64_t rem = *perBatch;
  std::optional<DotGrid> best;
  int64_t lastPm = 0;
  for (int64_t want = 1; want <= (s.splitM ? std::min(s.M, rem) : 1); ++want) {
    DotGrid g;
    g.pb = s.B;
    g.bm = std::min(s.M, padTo(ceilDiv(s.M, want), um));
    g.pm = ceilDiv(s.M, g.bm);
    if (g.pm == lastPm)
      continue;
    lastPm = g.pm;
    g.em = s.M - (g.pm - 1) * g.bm;
    int64_t maxPn = s.splitN ? std::min(s.N, rem / g.pm) : 1;
    g.bn = std::min(s.N, padTo(ceilDiv(s.N, maxPn), un));
    g.pn = ceilDiv(s.N, g.bn);
    g.en = s.N - (g.pn - 1) * g.bn;
    splitK(g, s, std::max<int64_t>(u.k, 1), rem);
    if (!best || g.cost(c) < best->cost(c) ||
        (g.cost(c) == best->cost(c) && g.tiles() < best->tiles()))
      best = g;
  }
  return best;
}

/// When the fastest grid's blocks overflow a tile's budget: the ragged
/// grid (any count of M and N blocks, K split over the tiles left) whose
/// fullest tile holds the fewest bytes among the fastest that fit, or the
/// fewest bytes of all when none fits. Fewer owners hold bigger result
/// blocks but leave more tiles to split K, and so smaller operand blocks.
static std::optional<DotGrid> fittingGrid(const DotShape &s, const DotCosts &c,
                                          int64_t numTiles, int64_t budget,
                                          int64_t resultBytes) {
  std::optional<int64_t> rem = raggedTilesPerBatch(s, numTiles);
  if (!rem)
    return std::nullopt;
  const MatrixUnit &u = c.unit;
  // The distinct block sizes along one side: unit multiples, largest
  // first, each making one more block than the last.
  auto blockSizes = [&](int64_t extent, int64_t unit, bool split) {
    SmallVector<int64_t> sizes;
    int64_t last = 0;
    for (int64_t want = 1; want <= (split ? std::min(extent, *rem) : 1);
         ++want) {
      int64_t b = std::min(extent, padTo(ceilDiv(extent, want), unit));
      if (ceilDiv(extent, b) != last)
        sizes.push_back(b);
      last = ceilDiv(extent, b);
    }
    return sizes;
  };
  std::optional<DotGrid> best;
  auto better = [&](const DotGrid &g) {
    if (!best)
      return true;
    int64_t gb = g.bytesPerTile(c.elementBytes, resultBytes),
            bb = best->bytesPerTile(c.elementBytes, resultBytes);
    bool gFits = gb <= budget, bFits = bb <= budget;
    if (gFits != bFits)
      return gFits;
    if (!gFits)
      return gb < bb;
    return std::make_pair(g.cost(c), gb) < std::make_pair(best->cost(c), bb);
  };
  for (int64_t bm : blockSizes(s.M, std::max<int64_t>(u.m, 1), s.splitM))
    for (int64_t bn : blockSizes(s.N, std::max<int64_t>(u.n, 1), s.splitN)) {
      DotGrid g;
      g.pb = s.B;
      g.bm = bm, g.pm = ceilDiv(s.M, bm), g.em = s.M - (g.pm - 1) * bm;
      g.bn = bn, g.pn = ceilDiv(s.N, bn), g.en = s.N - (g.pn - 1) * bn;
      if (g.pm * g.pn > *rem)
        continue;
      splitK(g, s, std::max<int64_t>(u.k, 1), *rem);
      if (better(g))
        best = g;
    }
  return best;
}

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
  // A ragged grid only where it makes the slowest tile faster: exact
  // divisors keep every block the same and the layouts simplest.
  DotCosts costs{
      mu, std::max<int64_t>(target.exchange.bandwidthBytesPerCycle, 1),
      bytesOfElement(cast<tile::BufferType>(lhs.getType()).getElementType())};
  DotGrid g = divisorGrid(s, mu, numTiles);
  if (std::optional<DotGrid> r = raggedGrid(s, costs, numTiles))
    if (r->cost(costs) < g.cost(costs))
      g = *r;
  // The fastest grid may hold more on a tile than the tile has room for
  // beside the program's other tensors (a long contraction: each block
  // row holds all of K): then the grid that fits, at some speed.
  int64_t resultBytes = bytesOfElement(elt);
  int64_t budget = target.usableBytesPerTile() / 2;
  std::string fitted;
  if (g.bytesPerTile(costs.elementBytes, resultBytes) > budget)
    if (std::optional<DotGrid> f =
            fittingGrid(s, costs, numTiles, budget, resultBytes)) {
      int64_t before = g.bytesPerTile(costs.elementBytes, resultBytes);
      int64_t after = f->bytesPerTile(costs.elementBytes, resultBytes);
      if (after < before) {
        fitted = "; chosen for tile memory: " + std::to_string(after) +
                 " bytes on the fullest tile, against " +
                 std::to_string(before) + " on the fastest grid " +
                 g.describe() + " (budget " + std::to_string(budget) + ")";
        g = *f;
      }
    }
  SmallVector<int64_t> lst = stridesOf(ls), rst = stridesOf(rs);
  DotLayout layout = g.ragged() ? raggedLayout(g, s, lg, ls, lst, rg, rs, rst)
                                : uniformLayout(g, lg, ls, lst, rg, rs, rst);
  layout.outRuns = resultRuns(g, s);
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
  Value lhsBlocks =
      makeVar(loc, (name + ".lhs").str(), tile::Category::Temporary, lhsPlan,
              layout.lhs.shape, lt.getElementType(), name);
  Value rhsBlocks =
      makeVar(loc, (name + ".rhs").str(), tile::Category::Temporary, rhsPlan,
              layout.rhs.shape, rt.getElementType(), name);
  Value out = makeVar(loc, name, resultCategory(dot.getResult()), outPlan,
                      outType.getShape(), elt, name);
  buffers[dot.getResult()] = {out};
  emitViewExchange(loc, (name + ".lhs").str(), lhs, lhsBlocks, 0,
                   layout.lhs.strides);
  emitViewExchange(loc, (name + ".rhs").str(), rhs, rhsBlocks, 0,
                   layout.rhs.strides);
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr(
          "grid", builder.getDenseI64ArrayAttr({g.pk, g.pb, g.pm, g.pn})),
      builder.getNamedAttr(
          "block", builder.getDenseI64ArrayAttr({g.bb, g.bm, g.bn, g.bk})),
      builder.getNamedAttr(
          "flops", builder.getI64IntegerAttr(2 * s.B * s.M * s.N * s.K))};
  if (g.ragged()) {
    // Each vertex tells its block from its operands' element counts: the
    // full block or, on the last row or column of the grid, the edge.
    attrs.push_back(builder.getNamedAttr(
        "edge", builder.getDenseI64ArrayAttr({g.em, g.en})));
    attrs.push_back(
        builder.getNamedAttr("rhs_transposed", builder.getUnitAttr()));
  }
  if (g.pk == 1) {
    emitComputeSet(loc, name, "matmul-partial",
                   ValueRange{lhsBlocks, rhsBlocks}, out, attrs);
    return true;
  }
  // K split: each owner gathers the pk partial blocks of its result block
  // and sums them.
  Value partials = makeVar(
      loc, (name + ".partials").str(), tile::Category::Partials,
      {layout.partialsRuns, "matmul partial products, one block per tile"},
      layout.partialsShape, partialsType(elt), name);
  Value gathered =
      makeVar(loc, (name + ".gathered").str(), tile::Category::Partials,
              {layout.gatheredRuns,
               "the " + std::to_string(g.pk) +
                   " K-slice partials of each block on its owning tile"},
              layout.gatheredShape, partialsType(elt), name);
  emitComputeSet(loc, (name + ".partial").str(), "matmul-partial",
                 ValueRange{lhsBlocks, rhsBlocks}, partials, attrs);
  if (layout.gatherCopies.empty())
    emitViewExchange(loc, (name + ".gather").str(), partials, gathered, 0,
                     layout.gatherStrides);
  else
    emitExchange(loc, (name + ".gather").str(), partials, gathered,
                 layout.gatherCopies);
  emitComputeSet(loc, name, "reduce.add", gathered, out,
                 builder.getNamedAttr("partials_per_output",
                                      builder.getI64IntegerAttr(g.pk)));
  return true;
}
