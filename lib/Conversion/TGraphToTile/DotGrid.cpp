//===- DotGrid.cpp - a dot's blocks on a tile grid ------------------------===//
//
// See DotGrid.h. Three grid families are weighed (docs/tile-dialect.md):
// exact divisors (every block the same, each operand's blocks one strided
// view), ragged (M and N in unit multiples, the last block smaller), and,
// when the fastest overflows the tile's budget, every ragged grid with K
// split over the tiles left, for the one that fits.
//
//===----------------------------------------------------------------------===//

#include "tessera/Conversion/TGraphToTile/DotGrid.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace llvm;
using namespace tessera;

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

int64_t DotGrid::cost(const DotCosts &c) const {
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

std::string DotGrid::describe() const {
  return std::to_string(pk) + "x" + std::to_string(pb) + "x" +
         std::to_string(pm) + "x" + std::to_string(pn);
}

int64_t DotGrid::bytesPerTile(int64_t elementBytes, int64_t resultBytes) const {
  int64_t block = bb * bm * bn;
  int64_t partial = std::max<int64_t>(elementBytes, 4);
  int64_t operands = bb * bk * (bm + bn) * elementBytes;
  if (pk == 1)
    return operands + block * resultBytes;
  return std::max(operands + block * partial,
                  pk * block * partial + block * resultBytes);
}

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

DotGrid tessera::chooseDotGrid(const DotShape &s, const DotCosts &costs,
                               int64_t numTiles, int64_t budget,
                               int64_t resultBytes, std::string &fitted,
                               int64_t *fastestBytes) {
  // A ragged grid only where it makes the slowest tile faster: exact
  // divisors keep every block the same and the layouts simplest.
  DotGrid g = divisorGrid(s, costs.unit, numTiles);
  if (std::optional<DotGrid> r = raggedGrid(s, costs, numTiles))
    if (r->cost(costs) < g.cost(costs))
      g = *r;
  // The fastest grid may hold more on a tile than the tile has room for
  // beside the program's other tensors (a long contraction: each block
  // row holds all of K): then the grid that fits, at some speed.
  fitted.clear();
  int64_t before = g.bytesPerTile(costs.elementBytes, resultBytes);
  if (fastestBytes)
    *fastestBytes = before;
  if (before > budget)
    if (std::optional<DotGrid> f =
            fittingGrid(s, costs, numTiles, budget, resultBytes)) {
      int64_t after = f->bytesPerTile(costs.elementBytes, resultBytes);
      if (after < before) {
        fitted = "; chosen for tile memory: " + std::to_string(after) +
                 " bytes on the fullest tile, against " +
                 std::to_string(before) + " on the fastest grid " +
                 g.describe() + " (budget " + std::to_string(budget) + ")";
        g = *f;
      }
    }
  return g;
}

/// More passes than this cost more steps (four or more each) than they
/// are likely to save: a contraction that needs them stays over.
static constexpr int64_t kMaxDotPasses = 256;

/// The bytes a pass holds on its fullest tile: its operand blocks and
/// partials at their larger phase, the sum it adds to among them (a pass
/// without a K split accumulates its product into the sum in place; one
/// with a K split reduces its product beside the sum, then adds it).
static int64_t passBytes(const DotGrid &g, int64_t elementBytes,
                         int64_t partialBytes) {
  int64_t bytes = g.bytesPerTile(elementBytes, partialBytes);
  return g.pk == 1 ? bytes : bytes + g.bb * g.bm * g.bn * partialBytes;
}

std::optional<DotPasses>
tessera::chooseDotPasses(const DotShape &s, const DotCosts &costs,
                         int64_t numTiles, int64_t budget, int64_t partialBytes,
                         int64_t onePassBytes) {
  if (!s.splitK)
    return std::nullopt;
  std::optional<DotPasses> best;
  for (int64_t passes = 2; passes <= std::min(s.K, kMaxDotPasses); ++passes) {
    if (s.K % passes != 0)
      continue;
    DotShape ps = s;
    ps.K = s.K / passes;
    DotPasses p;
    p.passes = passes;
    p.grid = chooseDotGrid(ps, costs, numTiles, budget, partialBytes, p.fitted);
    p.bytes = passBytes(p.grid, costs.elementBytes, partialBytes);
    if (!best || p.bytes < best->bytes)
      best = p;
    if (p.bytes <= budget)
      break;
  }
  if (!best || best->bytes >= onePassBytes)
    return std::nullopt;
  return best;
}
