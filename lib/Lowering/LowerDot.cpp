//===- LowerDot.cpp - dot_general as a blocked matmul ---------------------===//
//
// dot_general: operand blocks exchanged to a grid of tiles sized to the
// matrix unit, matmul-partial vertices, a K-split reduction.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Lowering/ElementCopies.h"

#include <array>
#include <optional>

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

/// Buffer offset of the element whose coordinates along `dims` (taken
/// row-major, in that order) form the flat index `v`.
static int64_t composeIndex(int64_t v, ArrayRef<int64_t> dims,
                            ArrayRef<int64_t> shape,
                            ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    int64_t size = std::max<int64_t>(shape[dims[i]], 1);
    offset += (v % size) * strides[dims[i]];
    v /= size;
  }
  return offset;
}

/// dot_general as a blocked matmul over a grid of tiles. With the operands
/// viewed as [B, M, K] x [B, K, N], the grid is pk x pb x pm x pn blocks
/// (K slices outermost, so the tiles owning the result, slice 0, are the
/// contiguous range [0, pb·pm·pn)). Block sizes are multiples of the matrix
/// unit where the sizes allow. Each block's tile receives its lhs block
/// (bb x bm x bk) and rhs block (bb x bk x bn) by exchange and runs one
/// "matmul-partial" vertex; when K is split, the partial products are
/// exchanged to the owning tile and summed by a "reduce.add" compute set.
/// Operand blocks are replicated across the grid (lhs pn times, rhs pm
/// times); over kMaxDotElements copied elements the op stays on the host.
bool Lowerer::lowerDot(Operation *op, StringRef name, std::string &detail) {
  auto dot = dyn_cast<tg::DotGeneralOp>(op);
  if (!dot)
    return false;
  RankedTensorType outType = bufferableTensor(dot.getType());
  auto lhsIt = buffers.find(dot.getLhs()), rhsIt = buffers.find(dot.getRhs());
  if (!outType || lhsIt == buffers.end() || rhsIt == buffers.end() ||
      lhsIt->second.size() != 1 || rhsIt->second.size() != 1 ||
      !lhsIt->second[0] || !rhsIt->second[0])
    return false;
  Value lhs = lhsIt->second[0], rhs = rhsIt->second[0];
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
  // The grid: batches first, then M and N halved alternately (the larger
  // block first) down to the matrix unit, then K with what is left.
  const MatrixUnit &mu = target.matrixUnit;
  int64_t um = std::max<int64_t>(mu.m, 1), un = std::max<int64_t>(mu.n, 1),
          uk = std::max<int64_t>(mu.k, 1);
  int64_t pb = std::min(B, numTiles), rem = numTiles / pb;
  int64_t pm = 1, pn = 1, pk = 1;
  int64_t maxPm = (M + um - 1) / um, maxPn = (N + un - 1) / un;
  while (true) {
    bool splitM = pm < maxPm && 2 * pm * pn <= rem;
    bool splitN = pn < maxPn && 2 * pm * pn <= rem;
    if (!splitM && !splitN)
      break;
    if (splitM && (!splitN || M / pm >= N / pn))
      pm = std::min(2 * pm, maxPm);
    else
      pn = std::min(2 * pn, maxPn);
  }
  int64_t maxPk = (K + uk - 1) / uk;
  if (2 * pm * pn <= rem)
    pk = std::min(rem / (pm * pn), maxPk);
  int64_t bb = (B + pb - 1) / pb, bm = (M + pm - 1) / pm,
          bn = (N + pn - 1) / pn, bk = (K + pk - 1) / pk;
  pb = (B + bb - 1) / bb, pm = (M + bm - 1) / bm, pn = (N + bn - 1) / bn,
  pk = (K + bk - 1) / bk;
  constexpr int64_t kMaxDotElements = int64_t(1) << 22;
  if (B * M * K * pn > kMaxDotElements || B * K * N * pm > kMaxDotElements ||
      B * M * N * pk > kMaxDotElements) {
    detail = "blocked operands would copy more than " +
             std::to_string(kMaxDotElements) + " elements";
    return false;
  }
  auto tileOf = [&](int64_t kk, int64_t ib, int64_t i, int64_t j) {
    return ((kk * pb + ib) * pm + i) * pn + j;
  };
  SmallVector<int64_t> lst = stridesOf(ls), rst = stridesOf(rs);
  // Operand blocks, tile-major; srcOf[e] is the operand element block
  // element e copies.
  std::vector<int64_t> lhsSrc, rhsSrc, partialTile;
  SmallVector<std::array<int64_t, 3>> lhsIv, rhsIv, partIv;
  for (int64_t kk = 0; kk < pk; ++kk)
    for (int64_t ib = 0; ib < pb; ++ib)
      for (int64_t i = 0; i < pm; ++i)
        for (int64_t j = 0; j < pn; ++j) {
          int64_t t = tileOf(kk, ib, i, j);
          int64_t b0 = ib * bb, b1 = std::min(B, b0 + bb);
          int64_t m0 = i * bm, m1 = std::min(M, m0 + bm);
          int64_t n0 = j * bn, n1 = std::min(N, n0 + bn);
          int64_t k0 = kk * bk, k1 = std::min(K, k0 + bk);
          int64_t start = lhsSrc.size();
          for (int64_t b = b0; b < b1; ++b)
            for (int64_t m = m0; m < m1; ++m)
              for (int64_t k = k0; k < k1; ++k)
                lhsSrc.push_back(composeIndex(b, lb, ls, lst) +
                                 composeIndex(m, lf, ls, lst) +
                                 composeIndex(k, lc, ls, lst));
          lhsIv.push_back({t, start, int64_t(lhsSrc.size())});
          start = rhsSrc.size();
          for (int64_t b = b0; b < b1; ++b)
            for (int64_t k = k0; k < k1; ++k)
              for (int64_t n = n0; n < n1; ++n)
                rhsSrc.push_back(composeIndex(b, rb, rs, rst) +
                                 composeIndex(k, rc, rs, rst) +
                                 composeIndex(n, rf, rs, rst));
          rhsIv.push_back({t, start, int64_t(rhsSrc.size())});
          int64_t pstart = partialTile.size();
          partialTile.resize(pstart + (b1 - b0) * (m1 - m0) * (n1 - n0), t);
          partIv.push_back({t, pstart, int64_t(partialTile.size())});
        }
  // The result: element (b, m, n) on the slice-0 tile of its block.
  SmallVector<std::array<int64_t, 3>> outIv;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t j = 0; j < pn; ++j) {
        int64_t begin = (b * M + m) * N + j * bn;
        int64_t end = (b * M + m) * N + std::min(N, (j + 1) * bn);
        int64_t t = tileOf(0, b / bb, m / bm, j);
        if (!outIv.empty() && outIv.back()[0] == t && outIv.back()[2] == begin)
          outIv.back()[2] = end;
        else
          outIv.push_back({t, begin, end});
      }
  std::string grid = std::to_string(pk) + "x" + std::to_string(pb) + "x" +
                     std::to_string(pm) + "x" + std::to_string(pn);
  PlannedMapping lhsPlan{compressIntervals(lhsIv),
                         "matmul lhs blocks, one per tile of the " + grid +
                             " (k x batch x m x n) grid"};
  PlannedMapping rhsPlan{compressIntervals(rhsIv),
                         "matmul rhs blocks, one per tile of the " + grid +
                             " grid"};
  PlannedMapping outPlan{compressIntervals(outIv),
                         "matmul result in " + std::to_string(bm) + "x" +
                             std::to_string(bn) + " blocks on the " + grid +
                             " grid (matrix unit " + std::to_string(um) + "x" +
                             std::to_string(un) + "x" + std::to_string(uk) +
                             ")"};
  auto lhsCopies = planElementCopies(
      {runsOf(lhs)}, lhsPlan.runs, lhsSrc.size(),
      [&](int64_t e) {
        return ElementSource{0, lhsSrc[e]};
      },
      kMaxCopyRuns);
  auto rhsCopies = planElementCopies(
      {runsOf(rhs)}, rhsPlan.runs, rhsSrc.size(),
      [&](int64_t e) {
        return ElementSource{0, rhsSrc[e]};
      },
      kMaxCopyRuns);
  // K split: slot (slice kk, block element) of the partials goes to the
  // owner's gathered buffer, owner-major, then slice.
  PlannedMapping partPlan{compressIntervals(partIv),
                          "matmul partial products, one block per tile"};
  std::vector<int64_t> gatherSrc;
  SmallVector<std::array<int64_t, 3>> gatherIv;
  std::optional<SmallVector<SmallVector<int64_t>>> gatherCopies;
  if (pk > 1) {
    int64_t perSlice = partialTile.size() / pk;
    int64_t owners = pb * pm * pn;
    // Partials of slice kk, block o start at kk * perSlice + offset(o); the
    // block sizes repeat per slice, so offsets of slice 0 serve all.
    for (int64_t o = 0; o < owners; ++o) {
      int64_t begin = partIv[o][1], size = partIv[o][2] - partIv[o][1];
      int64_t start = gatherSrc.size();
      for (int64_t kk = 0; kk < pk; ++kk)
        for (int64_t e = 0; e < size; ++e)
          gatherSrc.push_back(kk * perSlice + begin + e);
      gatherIv.push_back({o, start, int64_t(gatherSrc.size())});
    }
    gatherCopies = planElementCopies(
        {partPlan.runs}, compressIntervals(gatherIv), gatherSrc.size(),
        [&](int64_t e) {
          return ElementSource{0, gatherSrc[e]};
        },
        kMaxCopyRuns);
  }
  if (!lhsCopies || !rhsCopies || (pk > 1 && !gatherCopies)) {
    detail = "needs more than " + std::to_string(kMaxCopyRuns) +
             " exchange copy runs for its blocks";
    return false;
  }
  Location loc = op->getLoc();
  auto lt = cast<tile::BufferType>(lhs.getType());
  auto rt = cast<tile::BufferType>(rhs.getType());
  Type elt = outType.getElementType();
  Value lhsBlocks =
      makeVar(loc, (name + ".lhs").str(), tile::Category::Temporary, lhsPlan,
              {int64_t(lhsSrc.size())}, lt.getElementType(), name);
  Value rhsBlocks =
      makeVar(loc, (name + ".rhs").str(), tile::Category::Temporary, rhsPlan,
              {int64_t(rhsSrc.size())}, rt.getElementType(), name);
  Value out = makeVar(loc, name, resultCategory(dot.getResult()), outPlan,
                      outType.getShape(), elt, name);
  buffers[dot.getResult()] = {out};
  emitExchange(loc, (name + ".lhs").str(), lhs, lhsBlocks, (*lhsCopies)[0]);
  emitExchange(loc, (name + ".rhs").str(), rhs, rhsBlocks, (*rhsCopies)[0]);
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
  Value partials =
      makeVar(loc, (name + ".partials").str(), tile::Category::Partials,
              partPlan, {int64_t(partialTile.size())}, elt, name);
  Value gathered = makeVar(
      loc, (name + ".gathered").str(), tile::Category::Partials,
      {compressIntervals(gatherIv), "the " + std::to_string(pk) +
                                        " K-slice partials of each block on "
                                        "its owning tile"},
      {int64_t(gatherSrc.size())}, elt, name);
  emitComputeSet(loc, (name + ".partial").str(), "matmul-partial",
                 ValueRange{lhsBlocks, rhsBlocks}, partials, attrs);
  emitExchange(loc, (name + ".gather").str(), partials, gathered,
               (*gatherCopies)[0]);
  emitComputeSet(loc, name, "reduce.add", gathered, out,
                 builder.getNamedAttr("partials_per_output",
                                      builder.getI64IntegerAttr(pk)));
  return true;
}
