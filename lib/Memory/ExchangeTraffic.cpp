//===- ExchangeTraffic.cpp - bytes each tile and chip pair moves ----------===//

#include "tessera/Memory/ExchangeTraffic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

namespace {

/// A dimension of a box as the view reads it: `len` indices, `stride`
/// source elements apart.
struct Dim {
  int64_t len, stride;
};

/// Source elements [begin, end) held by `owner` (a tile, or a chip).
struct Owned {
  int64_t begin, end, owner;
};

/// The dims of a box reduced to what decides which elements it reads and
/// how often (the order they are read in does not matter): a broadcast dim
/// (stride 0) reads the same elements len times, a negative stride the
/// same elements as its reverse, and dims sorted by stride merge where
/// one steps over exactly the other's range. Returns the multiplier;
/// `base` moves to the lowest element read.
int64_t reduceDims(SmallVectorImpl<Dim> &dims, int64_t &base) {
  int64_t times = 1;
  SmallVector<Dim, 8> kept;
  for (Dim d : dims) {
    if (d.len == 1)
      continue;
    if (d.stride == 0) {
      times *= d.len;
      continue;
    }
    if (d.stride < 0) {
      base += (d.len - 1) * d.stride;
      d.stride = -d.stride;
    }
    kept.push_back(d);
  }
  llvm::stable_sort(
      kept, [](const Dim &a, const Dim &b) { return a.stride > b.stride; });
  dims.clear();
  for (Dim d : kept) {
    if (!dims.empty() && dims.back().stride == d.stride * d.len)
      dims.back() = {dims.back().len * d.len, d.stride};
    else
      dims.push_back(d);
  }
  return times;
}

/// Elements of {base + i * stride : 0 <= i < len} in [begin, end).
int64_t countInRange(int64_t base, int64_t stride, int64_t len, int64_t begin,
                     int64_t end) {
  // The first i with base + i * stride >= x, for stride > 0.
  auto firstAtOrAfter = [&](int64_t x) {
    int64_t gap = x - base;
    int64_t i = gap <= 0 ? 0 : (gap + stride - 1) / stride;
    return std::min(i, len);
  };
  return std::max<int64_t>(0, firstAtOrAfter(end) - firstAtOrAfter(begin));
}

/// Walks a view's dest intervals and counts the elements each reads from
/// each source owner, by boxes.
class ViewWalker {
public:
  /// Called for every piece read; must outlive the walker.
  using AddFn = llvm::function_ref<void(int64_t owner, int64_t dstTile,
                                        int64_t elements)>;

  ViewWalker(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t offset,
             std::vector<Owned> owners, int64_t maxSteps, AddFn add)
      : shape(shape), strides(strides), offset(offset),
        owners(std::move(owners)), maxSteps(maxSteps), add(add) {
    inner.assign(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
      inner[d] = inner[d + 1] * shape[d + 1];
  }

  /// Counts every dest element `dest` maps; false once the walk has taken
  /// more than maxSteps steps.
  bool walkMapping(tile::MappingAttr dest) {
    bool complete = true;
    dest.forEachInterval([&](int64_t tile, int64_t begin, int64_t end) {
      if (complete && begin < end)
        complete = walkInterval(tile, begin, end);
    });
    return complete;
  }

private:
  /// Counts dest elements [begin, end) held by `dstTile`.
  bool walkInterval(int64_t dstTile, int64_t begin, int64_t end);
  bool walkBox(int64_t dstTile, SmallVector<Dim, 8> dims, int64_t base);
  /// The owner of source element x (the verifier keeps a view's reads
  /// inside the source, and the mapping covers it). A row's pieces go up
  /// through the owners in order, so the one after the last found is
  /// tried before a search: the search per piece was most of the walk of
  /// bert_small_train's transposes.
  const Owned &ownerOf(int64_t x) {
    if (last + 1 < owners.size() && owners[last + 1].begin <= x &&
        x < owners[last + 1].end)
      return owners[++last];
    last =
        std::prev(llvm::upper_bound(
            owners, x, [](int64_t v, const Owned &o) { return v < o.begin; })) -
        owners.begin();
    return owners[last];
  }

  ArrayRef<int64_t> shape, strides;
  int64_t offset;
  std::vector<Owned> owners; ///< by begin, disjoint
  size_t last = 0;           ///< the owner ownerOf found last
  int64_t maxSteps, steps = 0;
  AddFn add;
  SmallVector<int64_t, 8> inner; ///< elements per index of each dim
};

} // namespace

bool ViewWalker::walkInterval(int64_t dstTile, int64_t begin, int64_t end) {
  int64_t rank = shape.size();
  if (rank == 0)
    return walkBox(dstTile, {}, offset);
  // Cut [begin, end) into boxes: at b, the coarsest dim d whose index
  // blocks b starts on takes as many whole blocks as fit; the dims before
  // it are fixed, the ones after it whole. At most 2 * rank - 1 boxes.
  SmallVector<int64_t, 8> idx(rank);
  for (int64_t b = begin; b < end;) {
    for (int64_t d = rank - 1, rest = b; d >= 0; --d) {
      idx[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (b % inner[d] != 0)
        continue;
      int64_t count = std::min(shape[d] - idx[d], (end - b) / inner[d]);
      if (count == 0)
        continue;
      int64_t base = offset;
      for (int64_t j = 0; j <= d; ++j)
        base += idx[j] * strides[j];
      SmallVector<Dim, 8> dims{{count, strides[d]}};
      for (int64_t j = d + 1; j < rank; ++j)
        dims.push_back({shape[j], strides[j]});
      if (!walkBox(dstTile, std::move(dims), base))
        return false;
      b += count * inner[d];
      break;
    }
  }
  return true;
}

bool ViewWalker::walkBox(int64_t dstTile, SmallVector<Dim, 8> dims,
                         int64_t base) {
  int64_t times = reduceDims(dims, base);
  Dim last = dims.empty() ? Dim{1, 1} : dims.back();
  if (!dims.empty())
    dims.pop_back();
  // An odometer over the outer dims; the innermost is stepped an owner's
  // interval at a time.
  SmallVector<int64_t, 8> at(dims.size(), 0);
  for (;;) {
    int64_t x = base;
    for (auto [i, d] : llvm::enumerate(dims))
      x += at[i] * d.stride;
    for (int64_t left = last.len; left > 0;) {
      if (++steps > maxSteps)
        return false;
      const Owned &o = ownerOf(x);
      int64_t m = std::min(left, (o.end - x + last.stride - 1) / last.stride);
      add(o.owner, dstTile, m * times);
      x += m * last.stride;
      left -= m;
    }
    int64_t i = static_cast<int64_t>(dims.size()) - 1;
    for (; i >= 0; --i) {
      if (++at[i] < dims[i].len)
        break;
      at[i] = 0;
    }
    if (i < 0)
      return true;
  }
}

/// The source's intervals by element, owned by their tile, or by their
/// chip with neighbours on one chip joined.
static std::vector<Owned> ownersOf(tile::MappingAttr mapping,
                                   int64_t tilesPerChip) {
  // Runs cover disjoint element ranges, each in element order: taken by
  // first element, their intervals come out sorted without sorting them.
  std::vector<size_t> order(mapping.getNumRuns());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](size_t a, size_t b) {
    return mapping.getRun(a).firstElement < mapping.getRun(b).firstElement;
  });
  // At most an interval per tile of each run: reserved, since growing by
  // doubling copied the list and faulted in fresh pages for each copy
  // (two thirds of this function's time on bert_small_train's views).
  size_t most = 0;
  for (size_t i : order) {
    tile::MappingAttr::Run r = mapping.getRun(i);
    if (r.perTile > 0 && r.numTiles() > 0)
      most += r.numTiles();
  }
  std::vector<Owned> joined;
  joined.reserve(most);
  for (size_t i : order) {
    tile::MappingAttr::Run r = mapping.getRun(i);
    for (int64_t k = 0; r.perTile > 0 && k < r.numTiles(); ++k) {
      int64_t begin = r.firstElement + k * r.perTile;
      int64_t owner = (r.firstTile + k) / tilesPerChip;
      if (!joined.empty() && joined.back().owner == owner &&
          joined.back().end == begin)
        joined.back().end = begin + r.perTile;
      else
        joined.push_back({begin, begin + r.perTile, owner});
    }
  }
  return joined;
}

/// Per tile, the bytes of copy runs that each cover consecutive tiles
/// (step 1) or one tile `count` times (step 0), summed as differences over
/// the span of tiles they touch and written to `out` in tile order, for the
/// tiles some copy touches: a hash-map update per copy was most of the cost
/// model's time on convolution exchanges of thousands of runs.
class TileSums {
public:
  TileSums(int64_t lo, int64_t hi)
      : lo(lo), bytes(hi - lo + 2, 0), touched(hi - lo + 2, 0) {}
  void add(int64_t tile, int64_t step, int64_t count, int64_t each) {
    int64_t end = step ? tile + count : tile + 1;
    int64_t total = step ? each : count * each;
    bytes[tile - lo] += total, bytes[end - lo] -= total;
    ++touched[tile - lo], --touched[end - lo];
  }
  void writeTo(llvm::DenseMap<int64_t, int64_t> &out) const {
    int64_t sum = 0, cover = 0;
    for (size_t t = 0; t + 1 < bytes.size(); ++t) {
      sum += bytes[t], cover += touched[t];
      if (cover > 0)
        out[lo + static_cast<int64_t>(t)] = sum;
    }
  }

private:
  int64_t lo;
  std::vector<int64_t> bytes;
  std::vector<int32_t> touched;
};

/// The traffic of an exchange's listed copy runs. The attributes are read
/// once, not per run.
static void listedTraffic(tile::ExchangeOp exchange, int64_t elementBytes,
                          int64_t perChip, ExchangeTraffic &traffic) {
  ArrayRef<int64_t> copies = exchange.getCopyRuns();
  std::optional<ArrayRef<int64_t>> strided = exchange.getStrided();
  constexpr size_t R = tile::ExchangeOp::kRunSize;
  constexpr size_t S = tile::ExchangeOp::kStridedSize;
  size_t runs = copies.size() / R;
  auto steps = [&](size_t i) -> std::pair<int64_t, int64_t> {
    if (!strided)
      return {1, 1};
    return {(*strided)[S * i + 3], (*strided)[S * i + 4]};
  };
  // The span of tiles the copies touch, and whether every run steps its
  // tiles by 0 or 1 (the verifier's rule).
  int64_t lo = INT64_MAX, hi = INT64_MIN, listed = 0;
  bool regular = true;
  for (size_t i = 0; i < runs; ++i) {
    int64_t src = copies[R * i], dst = copies[R * i + 1];
    int64_t count = copies[R * i + 2];
    auto [srcStep, dstStep] = steps(i);
    traffic.bytesMoved += count * copies[R * i + 3] * elementBytes;
    if (count <= 0)
      continue;
    listed += count;
    regular &= (srcStep == 0 || srcStep == 1) && (dstStep == 0 || dstStep == 1);
    lo = std::min({lo, src, dst});
    hi = std::max(
        {hi, src + (count - 1) * srcStep, dst + (count - 1) * dstStep});
  }
  if (listed == 0)
    return;
  bool dense = regular && hi - lo < 16 * listed + 4096;
  std::optional<TileSums> sent, received;
  if (dense)
    sent.emplace(lo, hi), received.emplace(lo, hi);
  for (size_t i = 0; i < runs; ++i) {
    int64_t src = copies[R * i], dst = copies[R * i + 1];
    int64_t count = copies[R * i + 2];
    int64_t bytes = copies[R * i + 3] * elementBytes;
    if (count <= 0)
      continue;
    auto [srcStep, dstStep] = steps(i);
    if (dense) {
      sent->add(src, srcStep, count, bytes);
      received->add(dst, dstStep, count, bytes);
    }
    // Chip to chip only when the run's tiles are not all on one chip.
    int64_t srcLast = src + (count - 1) * srcStep;
    int64_t dstLast = dst + (count - 1) * dstStep;
    int64_t chip = src / perChip;
    bool oneChip = srcLast / perChip == chip && dst / perChip == chip &&
                   dstLast / perChip == chip;
    if (dense && oneChip)
      continue;
    for (int64_t k = 0; k < count; ++k) {
      int64_t from = src + k * srcStep, to = dst + k * dstStep;
      if (!dense) {
        traffic.sent[from] += bytes;
        traffic.received[to] += bytes;
      }
      if (from / perChip != to / perChip)
        traffic.chipBytes[{from / perChip, to / perChip}] += bytes;
    }
  }
  if (dense) {
    sent->writeTo(traffic.sent);
    received->writeTo(traffic.received);
  }
}

ExchangeTraffic tessera::memory::exchangeTraffic(tile::ExchangeOp exchange,
                                                 int64_t elementBytes,
                                                 int64_t tilesPerChip,
                                                 int64_t maxSteps) {
  ExchangeTraffic traffic;
  int64_t perChip = std::max<int64_t>(tilesPerChip, 1);
  if (!exchange.isView()) {
    listedTraffic(exchange, elementBytes, perChip, traffic);
    return traffic;
  }
  // A view writes every dest element once, from wherever its source
  // element is (the same tile included, as the device counts it).
  auto srcVar = exchange.getSource().getDefiningOp<tile::VarOp>();
  auto dstVar = exchange.getDest().getDefiningOp<tile::VarOp>();
  if (!srcVar || !dstVar) {
    traffic.complete = false;
    return traffic;
  }
  auto type = cast<tile::BufferType>(exchange.getDest().getType());
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<int64_t> strides = *exchange.getViewStrides();
  int64_t offset = *exchange.getViewOffset();
  tile::MappingAttr source = srcVar.getMapping();
  // Run by run of the dest's mapping, not interval by interval: a view's
  // dest spans up to every tile, and a callback and a set insertion per
  // tile were a fifth of bert_small_train's cost model. The tiles are
  // taken in the same order, so `received` is the same table.
  std::set<int64_t> destChips;
  tile::MappingAttr dest = dstVar.getMapping();
  for (size_t i = 0, e = dest.getNumRuns(); i < e; ++i) {
    tile::MappingAttr::Run run = dest.getRun(i);
    int64_t bytes = run.perTile * elementBytes;
    for (int64_t tile = run.firstTile; tile < run.endTile; ++tile)
      traffic.received[tile] += bytes;
    if (run.numTiles() <= 0)
      continue;
    traffic.bytesMoved += run.numTiles() * bytes;
    if (run.perTile > 0)
      for (int64_t chip = run.firstTile / perChip,
                   last = (run.endTile - 1) / perChip;
           chip <= last; ++chip)
        destChips.insert(chip);
  }
  if (traffic.bytesMoved == 0)
    return traffic;

  // What each source tile sends. A view whose dims reduce to one
  // arithmetic progression (a transpose or reshape reads every element
  // once, a broadcast each the same number of times) is counted per
  // source interval in closed form; any other is walked by boxes.
  SmallVector<Dim, 8> whole;
  for (auto [len, stride] : llvm::zip(shape, strides))
    whole.push_back({len, stride});
  int64_t base = offset;
  int64_t times = reduceDims(whole, base);
  bool complete = true;
  if (whole.size() <= 1) {
    Dim d = whole.empty() ? Dim{1, 1} : whole.front();
    source.forEachInterval([&](int64_t tile, int64_t begin, int64_t end) {
      if (int64_t n = countInRange(base, d.stride, d.len, begin, end))
        traffic.sent[tile] += n * times * elementBytes;
    });
  } else {
    auto addSent = [&](int64_t tile, int64_t, int64_t elements) {
      traffic.sent[tile] += elements * elementBytes;
    };
    ViewWalker walker(shape, strides, offset, ownersOf(source, 1), maxSteps,
                      addSent);
    complete = walker.walkMapping(dstVar.getMapping());
  }

  // What goes from chip to chip: walked by boxes against the source's
  // chips, whose intervals are long, unless both sides are on one chip.
  std::set<int64_t> chips = destChips;
  for (size_t i = 0, e = source.getNumRuns(); i < e; ++i) {
    tile::MappingAttr::Run r = source.getRun(i);
    for (int64_t c = r.firstTile / perChip;
         r.perTile > 0 && c <= (r.endTile - 1) / perChip; ++c)
      chips.insert(c);
  }
  if (complete && chips.size() > 1) {
    auto addChip = [&](int64_t chip, int64_t dstTile, int64_t elements) {
      if (chip != dstTile / perChip)
        traffic.chipBytes[{chip, dstTile / perChip}] += elements * elementBytes;
    };
    ViewWalker walker(shape, strides, offset, ownersOf(source, perChip),
                      maxSteps, addChip);
    complete = walker.walkMapping(dstVar.getMapping());
  }
  if (!complete) {
    traffic.sent.clear();
    traffic.chipBytes.clear();
    traffic.complete = false;
  }
  return traffic;
}
