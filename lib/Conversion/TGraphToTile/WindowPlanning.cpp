//===- WindowPlanning.cpp - halo windows and block copies -----------------===//

#include "tessera/Conversion/TGraphToTile/WindowPlanning.h"

#include "tessera/Conversion/TGraphToTile/MappingPlanner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>

using namespace tessera;

static int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

std::pair<int64_t, int64_t>
tessera::windowInputRange(const WindowDim &dim, int64_t out0, int64_t out1) {
  if (out1 <= out0 || dim.inputSize <= 0)
    return {0, 0};
  int64_t base = std::max<int64_t>(dim.baseDilation, 1);
  // Positions in the dilated input (padding removed) the block reads.
  int64_t first = out0 * dim.stride - dim.padLow;
  int64_t last = (out1 - 1) * dim.stride +
                 (dim.window - 1) * dim.windowDilation - dim.padLow;
  int64_t lo = std::max<int64_t>(ceilDiv(first, base), 0);
  int64_t hi = std::min<int64_t>(floorDiv(last, base) + 1, dim.inputSize);
  return lo < hi ? std::make_pair(lo, hi) : std::make_pair(lo, lo);
}

int64_t tessera::boxSpanCount(llvm::ArrayRef<int64_t> shape,
                              llvm::ArrayRef<int64_t> lo,
                              llvm::ArrayRef<int64_t> hi) {
  int64_t rank = shape.size();
  for (int64_t d = 0; d < rank; ++d)
    if (hi[d] <= lo[d])
      return 0;
  if (rank == 0)
    return 1;
  // The span covers the innermost full dimensions and one partial one.
  int64_t j = rank - 1;
  while (j > 0 && lo[j] == 0 && hi[j] == shape[j])
    --j;
  int64_t count = 1;
  for (int64_t d = 0; d < j; ++d)
    count *= hi[d] - lo[d];
  return count;
}

void tessera::forEachBoxSpan(llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int64_t> lo,
                             llvm::ArrayRef<int64_t> hi,
                             llvm::function_ref<void(int64_t, int64_t)> fn) {
  int64_t rank = shape.size();
  if (boxSpanCount(shape, lo, hi) == 0)
    return;
  if (rank == 0)
    return fn(0, 1);
  llvm::SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  int64_t j = rank - 1;
  while (j > 0 && lo[j] == 0 && hi[j] == shape[j])
    --j;
  int64_t length = (hi[j] - lo[j]) * strides[j];
  // Odometer over the outer dimensions [0, j).
  llvm::SmallVector<int64_t> idx(lo.begin(), lo.begin() + j);
  while (true) {
    int64_t offset = lo[j] * strides[j];
    for (int64_t d = 0; d < j; ++d)
      offset += idx[d] * strides[d];
    fn(offset, length);
    int64_t d = j - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < hi[d])
        break;
      idx[d] = lo[d];
    }
    if (d < 0)
      return;
  }
}

llvm::SmallVector<std::array<int64_t, 3>>
tessera::tileIntervals(std::vector<std::array<int64_t, 3>> &spans) {
  std::sort(spans.begin(), spans.end());
  llvm::SmallVector<std::array<int64_t, 3>> intervals;
  for (auto [begin, end, tile] : spans) {
    if (!intervals.empty() && intervals.back()[0] == tile &&
        intervals.back()[2] == begin)
      intervals.back()[2] = end;
    else
      intervals.push_back({tile, begin, end});
  }
  return intervals;
}

bool tessera::appendSpanPieces(const TileLookup &source, int64_t dstTile,
                               int64_t srcStart, int64_t dstStart,
                               int64_t length, std::vector<CopyPiece> &pieces) {
  int64_t s = srcStart, end = srcStart + length;
  while (s < end) {
    // One search for the tile and its interval's end.
    int64_t tile, begin, stop;
    if (!source.locate(s, tile, begin, stop))
      return false;
    stop = std::min(stop, end);
    pieces.push_back({tile, dstTile, stop - s, s, dstStart + (s - srcStart)});
    s = stop;
  }
  return true;
}

/// The chunk shape of a piece: (chunk, src stride, dst stride), with a
/// contiguous piece as one chunk of its length.
static std::tuple<int64_t, int64_t, int64_t> chunkShape(const CopyPiece &p) {
  if (p.chunk == 0 || p.chunk == p.length)
    return {p.length, 0, 0};
  return {p.chunk, p.srcChunkStride, p.dstChunkStride};
}

/// Joins the pieces between one tile pair that have one length and follow
/// each other at constant element strides into strided pieces.
static std::vector<CopyPiece> chunkPieces(const std::vector<CopyPiece> &input) {
  auto less = [](const CopyPiece &a, const CopyPiece &b) {
    return std::make_tuple(a.srcTile, a.dstTile, a.length, a.srcElement,
                           a.dstElement) <
           std::make_tuple(b.srcTile, b.dstTile, b.length, b.srcElement,
                           b.dstElement);
  };
  // The input in that order, bucketed by source tile first (a counting
  // sort: tiles are few), then each tile's pieces sorted; the order is the
  // plain sort's, as pieces with equal keys are equal (none is chunked
  // yet). Scattered straight from the input into an array that is not
  // zeroed first: a copy of the input and a zeroed array, both rewritten
  // at once, were 19 MB for ssd_mobilenet_v1's largest fold.
  int64_t minTile = INT64_MAX, maxTile = INT64_MIN;
  for (const CopyPiece &p : input) {
    minTile = std::min(minTile, p.srcTile);
    maxTile = std::max(maxTile, p.srcTile);
  }
  size_t n = input.size();
  std::unique_ptr<CopyPiece[]> sorted(new CopyPiece[n]);
  if (n > 64 && maxTile - minTile < 4 * static_cast<int64_t>(n) + 4096) {
    std::vector<uint32_t> start(maxTile - minTile + 2, 0);
    for (const CopyPiece &p : input)
      ++start[p.srcTile - minTile + 1];
    for (size_t t = 1; t < start.size(); ++t)
      start[t] += start[t - 1];
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (const CopyPiece &p : input)
      sorted[next[p.srcTile - minTile]++] = p;
    for (size_t t = 0; t + 1 < start.size(); ++t) {
      CopyPiece *begin = sorted.get() + start[t],
                *end = sorted.get() + start[t + 1];
      if (end - begin > 1 && !std::is_sorted(begin, end, less))
        std::sort(begin, end, less);
    }
  } else {
    std::copy(input.begin(), input.end(), sorted.get());
    std::sort(sorted.get(), sorted.get() + n, less);
  }
  // Joined in place (never more pieces are written than were read) and
  // copied out once at their count: a vector grown by doubling copied them
  // again and touched fresh pages each time (ssd_mobilenet_v1's compile
  // faults in 5% fewer pages without it).
  CopyPiece *pieces = sorted.get();
  size_t joined = 0;
  for (size_t i = 0; i < n; ++i) {
    const CopyPiece &p = pieces[i];
    if (joined > 0) {
      CopyPiece &last = pieces[joined - 1];
      int64_t chunk = last.chunk ? last.chunk : last.length;
      int64_t count = last.length / chunk;
      if (last.srcTile == p.srcTile && last.dstTile == p.dstTile &&
          chunk == p.length) {
        int64_t ds = p.srcElement - last.srcElement,
                dd = p.dstElement - last.dstElement;
        if (count == 1 && ds >= 0 && dd >= 0) {
          last.chunk = chunk;
          last.srcChunkStride = ds;
          last.dstChunkStride = dd;
          last.length += p.length;
          continue;
        }
        if (count > 1 && ds == count * last.srcChunkStride &&
            dd == count * last.dstChunkStride) {
          last.length += p.length;
          continue;
        }
      }
    }
    pieces[joined++] = p;
  }
  return std::vector<CopyPiece>(pieces, pieces + joined);
}

namespace {
/// The tile steps of the runs a fold builds: copy k of a run goes from
/// source tile s + k * src to destination tile d + k * dst.
struct TileSteps {
  int64_t src, dst;
  /// Pieces on one line of tiles (which a run may join) share this.
  int64_t line(const CopyPiece &p) const {
    return src && dst ? p.dstTile - p.srcTile : src ? p.dstTile : p.srcTile;
  }
  /// The piece's place along its line.
  int64_t along(const CopyPiece &p) const {
    return src ? p.srcTile : p.dstTile;
  }
  /// The source and destination tiles of the piece at `along` on `line`.
  std::pair<int64_t, int64_t> tiles(int64_t line, int64_t along) const {
    if (src && dst)
      return {along, line + along};
    return src ? std::make_pair(along, line) : std::make_pair(line, along);
  }
};
} // namespace

/// Keys' fields are taken as int32_t when below this in magnitude: a
/// difference of two then fits too.
static constexpr int64_t kNarrowKeyLimit = int64_t(1) << 30;

/// foldPieces with keys of `Int` (see there): int32_t when every field of
/// every key fits, which halves the 72-byte entries sorted and read (ssd's
/// lowering, which its folds decide, took 0.92 times as long); nullopt,
/// before anything is written, when one does not (int32_t only).
template <typename Int>
static std::optional<llvm::SmallVector<int64_t>>
foldPiecesAs(const std::vector<CopyPiece> &pieces, TileSteps steps,
             llvm::SmallVectorImpl<int64_t> &strided,
             std::vector<CopyPiece> *reordered) {
  // Group by (line, length and chunk shape, place along the line); pieces
  // of one group in element order, so the i-th piece at place a pairs with
  // the i-th at a + 1.
  // The keys are computed once and sorted with the pieces' indices:
  // computing two tuples per comparison made this sort a tenth of a
  // convolution-heavy compile. The line (the key's first field) is a tile
  // number or a difference of two, so the keys are first bucketed by line
  // (a counting sort) and only each line's keys are compared. Pieces with
  // equal keys are equal, so the order is the same whatever the sort.
  size_t n = pieces.size();
  using Key = std::array<Int, 8>;
  // Left uninitialized on construction: every entry is written before it
  // is read, and zeroing the two arrays of 72-byte entries showed up.
  struct Keyed {
    Key first;
    uint32_t second;
    Keyed() {}
    Keyed(const Key &key, uint32_t index) : first(key), second(index) {}
  };
  std::vector<Keyed> keyed(n);
  Int minLine = std::numeric_limits<Int>::max(),
      maxLine = std::numeric_limits<Int>::min();
  // Any field out of [-kNarrowKeyLimit, kNarrowKeyLimit]: checked as the
  // keys are made (a pass of its own over the pieces was an eighth of
  // the fold).
  bool wide = false;
  for (size_t i = 0; i < n; ++i) {
    const CopyPiece &p = pieces[i];
    auto [chunk, srcChunkStride, dstChunkStride] = chunkShape(p);
    int64_t fields[] = {steps.line(p),  p.length,       chunk,
                        srcChunkStride, dstChunkStride, steps.along(p),
                        p.srcElement,   p.dstElement};
    if constexpr (sizeof(Int) < sizeof(int64_t))
      for (int64_t f : fields)
        wide |= static_cast<uint64_t>(f) + kNarrowKeyLimit >
                static_cast<uint64_t>(2 * kNarrowKeyLimit);
    Key &key = keyed[i].first;
    for (size_t f = 0; f < key.size(); ++f)
      key[f] = static_cast<Int>(fields[f]);
    keyed[i].second = static_cast<uint32_t>(i);
    minLine = std::min(minLine, key[0]);
    maxLine = std::max(maxLine, key[0]);
  }
  if (wide)
    return std::nullopt;
  // Lexicographic, one comparison per equal field (std::array's operator<
  // makes two).
  auto byKey = [](const auto &a, const auto &b) {
    for (size_t f = 0; f < std::tuple_size<Key>::value; ++f)
      if (a.first[f] != b.first[f])
        return a.first[f] < b.first[f];
    return false;
  };
  if (n > 64 &&
      int64_t(maxLine) - minLine < 4 * static_cast<int64_t>(n) + 4096) {
    std::vector<uint32_t> start(int64_t(maxLine) - minLine + 2, 0);
    for (const auto &k : keyed)
      ++start[int64_t(k.first[0]) - minLine + 1];
    for (size_t l = 1; l < start.size(); ++l)
      start[l] += start[l - 1];
    std::vector<Keyed> bucketed(n);
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (const auto &k : keyed)
      bucketed[next[int64_t(k.first[0]) - minLine]++] = k;
    keyed = std::move(bucketed);
    // A line's pieces often come in key order already (a regular window
    // lists them by tile, then element).
    for (size_t l = 0; l + 1 < start.size(); ++l)
      if (start[l + 1] - start[l] > 1 &&
          !std::is_sorted(keyed.begin() + start[l],
                          keyed.begin() + start[l + 1], byKey))
        std::sort(keyed.begin() + start[l], keyed.begin() + start[l + 1],
                  byKey);
  } else {
    llvm::sort(keyed, byKey);
  }
  // From here on the sorted keys say everything the pairing needs: pieces
  // that may share a run have the same line, length and chunk shape (the
  // keys' first five fields), and key[5] is the place along the line, key[6]
  // and key[7] the elements. Reading the keys, not the pieces, spares
  // recomputing those per comparison.
  auto alike = [&](size_t a, size_t b) {
    const Key &x = keyed[a].first, &y = keyed[b].first;
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3] &&
           x[4] == y[4];
  };
  auto along = [&](size_t i) { return int64_t(keyed[i].first[5]); };
  // For each piece: the first piece of its group and of the next place's
  // group (n when there is none).
  std::vector<size_t> groupBegin(n), nextGroup(n, n);
  for (size_t i = 0; i < n; ++i)
    groupBegin[i] = i > 0 && alike(i - 1, i) && along(i - 1) == along(i)
                        ? groupBegin[i - 1]
                        : i;
  for (size_t i = 0; i < n;) {
    size_t end = i;
    while (end < n && groupBegin[end] == i)
      ++end;
    // The next group is the one right after when it is alike at the next
    // place.
    if (end < n && alike(end, i) && along(end) == along(i) + 1)
      for (size_t k = i; k < end; ++k)
        nextGroup[k] = end;
    i = end;
  }
  std::vector<uint8_t> used(n, 0);
  // At most a run per piece; growing the arrays run by run cost more than
  // the pairing.
  llvm::SmallVector<int64_t> runs;
  runs.reserve(8 * n);
  strided.reserve(strided.size() + 5 * n);
  for (size_t i = 0; i < n; ++i) {
    if (used[i])
      continue;
    used[i] = 1;
    // The run is written from the key alone: reading the piece (in the
    // input's order, not the keys') missed the caches, a sixth of this
    // function on ssd_mobilenet_v1's largest folds.
    const Key &key = keyed[i].first;
    int64_t count = 1, srcStride = 0, dstStride = 0;
    size_t cur = i;
    while (nextGroup[cur] < n) {
      size_t next = nextGroup[cur] + (cur - groupBegin[cur]);
      if (next >= n || groupBegin[next] != nextGroup[cur] || used[next])
        break;
      int64_t ds = int64_t(keyed[next].first[6]) - keyed[cur].first[6];
      int64_t dd = int64_t(keyed[next].first[7]) - keyed[cur].first[7];
      if (ds < 0 || dd < 0 ||
          (count > 1 && (ds != srcStride || dd != dstStride)))
        break;
      srcStride = ds;
      dstStride = dd;
      used[next] = 1;
      ++count;
      cur = next;
    }
    // Written in place: appending initializer lists built each run on the
    // stack and copied it out, a store-forwarding stall per run that
    // sampling put at a quarter of this function.
    size_t r = runs.size(), h = strided.size();
    runs.resize_for_overwrite(r + 8);
    strided.resize_for_overwrite(h + 5);
    int64_t *run = runs.data() + r, *shape = strided.data() + h;
    std::tie(run[0], run[1]) = steps.tiles(key[0], key[5]);
    run[2] = count;
    run[3] = key[1];
    run[4] = key[6];
    run[5] = srcStride;
    run[6] = key[7];
    run[7] = dstStride;
    shape[0] = key[2];
    shape[1] = key[3];
    shape[2] = key[4];
    shape[3] = count > 1 ? steps.src : 1;
    shape[4] = count > 1 ? steps.dst : 1;
  }
  // Callers see the pieces in key order, as they did when the pairing read
  // them in place.
  if (reordered) {
    std::vector<CopyPiece> sorted;
    sorted.reserve(n);
    for (const auto &k : keyed)
      sorted.push_back(pieces[k.second]);
    *reordered = std::move(sorted);
  }
  return runs;
}

/// foldCopyPieces along `steps` over pieces that may be strided: runs, and
/// each run's five `strided` integers in `strided`. With `reordered`, also
/// the pieces in key order there (it may be `pieces` itself).
static llvm::SmallVector<int64_t>
foldPieces(const std::vector<CopyPiece> &pieces, TileSteps steps,
           llvm::SmallVectorImpl<int64_t> &strided,
           std::vector<CopyPiece> *reordered) {
  // A key's fields are tiles, differences of two, element offsets and
  // lengths within one buffer: below 2^30 but for buffers of a billion
  // elements, whose pieces take int64_t keys.
  if (std::optional<llvm::SmallVector<int64_t>> runs =
          foldPiecesAs<int32_t>(pieces, steps, strided, reordered))
    return std::move(*runs);
  return *foldPiecesAs<int64_t>(pieces, steps, strided, reordered);
}

/// The lines of `pieces` along `steps`: a lower bound on the runs a fold
/// along them makes (the pieces of a run share a line).
static size_t distinctLines(const std::vector<CopyPiece> &pieces,
                            TileSteps steps) {
  if (pieces.empty())
    return 0;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const CopyPiece &p : pieces) {
    lo = std::min(lo, steps.line(p));
    hi = std::max(hi, steps.line(p));
  }
  // Lines are tile numbers or differences of two: a bitmap over their
  // range, unless it is far wider than the pieces are many.
  if (hi - lo >= 4 * static_cast<int64_t>(pieces.size()) + 4096)
    return 1;
  std::vector<uint8_t> seen(hi - lo + 1, 0);
  size_t lines = 0;
  for (const CopyPiece &p : pieces) {
    uint8_t &s = seen[steps.line(p) - lo];
    lines += !s;
    s = 1;
  }
  return lines;
}

/// Pieces from which foldCopyPieces folds its forms on several threads:
/// below this, handing a fold to another thread costs more than it saves.
static constexpr size_t kParallelFoldPieces = 4096;

llvm::SmallVector<int64_t>
tessera::foldCopyPieces(std::vector<CopyPiece> &pieces,
                        llvm::SmallVectorImpl<int64_t> *strided) {
  llvm::SmallVector<int64_t> plainStrides;
  if (!strided)
    return foldPieces(pieces, {1, 1}, plainStrides, &pieces);
  strided->clear();
  // The forms are folded independently, from the same pieces, and the
  // fewest runs kept in a fixed order of preference (the plain form first:
  // ties keep it, as every consumer reads it most simply), so folding them
  // on several threads gives the same result.
  std::vector<CopyPiece> chunked = chunkPieces(pieces);
  struct Form {
    const std::vector<CopyPiece> *pieces;
    TileSteps steps;
    llvm::SmallVector<int64_t> runs, strides;
    /// At least this many runs: a run stays on one line.
    size_t lowerBound = 0;
    bool folded = false;
  };
  llvm::SmallVector<Form, 4> forms = {{&pieces, {1, 1}, {}, {}}};
  for (TileSteps steps : {TileSteps{1, 1}, TileSteps{1, 0}, TileSteps{0, 1}})
    if (!(steps.src && steps.dst && chunked.size() == pieces.size()))
      forms.push_back({&chunked, steps, {}, {}});
  for (Form &form : forms)
    form.lowerBound = distinctLines(*form.pieces, form.steps);
  auto fold = [&](size_t i) {
    Form &form = forms[i];
    // Only the plain form's order is the callers'.
    form.runs = foldPieces(*form.pieces, form.steps, form.strides,
                           i == 0 ? &pieces : nullptr);
    form.folded = true;
  };
  // Folds `which`, on several threads when the pieces are many.
  auto foldAll = [&](llvm::ArrayRef<size_t> which) {
    if (pieces.size() >= kParallelFoldPieces && which.size() > 1) {
      // This thread folds the last meanwhile; the group waits on exit.
      llvm::parallel::TaskGroup group;
      for (size_t i : which.drop_back())
        group.spawn([&fold, i] { fold(i); });
      fold(which.back());
    } else {
      for (size_t i : which)
        fold(i);
    }
  };
  // The folded form with the fewest runs; ties keep the earlier form.
  auto best = [&] {
    size_t b = forms.size();
    for (size_t i = 0; i < forms.size(); ++i)
      if (forms[i].folded &&
          (b == forms.size() || forms[i].runs.size() < forms[b].runs.size()))
        b = i;
    return b;
  };
  // The two forms with the fewest lines first (one per core): their runs
  // often reach their lines (each source tile's pieces in one run, say),
  // and a form with more lines than the better one has runs cannot beat
  // it, so it is not folded. Of ssd_mobilenet_v1's largest fold (147k
  // pieces in four forms), the plain and the chunked diagonal forms are
  // left out. The rounds are the same on any number of threads, so the
  // forms folded (and whether the plain one reorders `pieces`) are too.
  llvm::SmallVector<size_t, 4> byLines;
  for (size_t i = 0; i < forms.size(); ++i)
    byLines.push_back(i);
  llvm::stable_sort(byLines, [&](size_t a, size_t b) {
    return forms[a].lowerBound < forms[b].lowerBound;
  });
  size_t first = std::min<size_t>(2, byLines.size());
  foldAll(llvm::ArrayRef(byLines).take_front(first));
  size_t leader = best();
  size_t leaderRuns = forms[leader].runs.size() / 8;
  llvm::SmallVector<size_t, 2> rest;
  for (size_t i : llvm::ArrayRef(byLines).drop_front(first))
    if (forms[i].lowerBound < leaderRuns ||
        (forms[i].lowerBound == leaderRuns && i < leader))
      rest.push_back(i);
  foldAll(rest);
  size_t winner = best();
  if (winner > 0)
    strided->assign(forms[winner].strides.begin(),
                    forms[winner].strides.end());
  return std::move(forms[winner].runs);
}

int64_t Box::numElements() const {
  int64_t n = 1;
  for (auto [l, h] : llvm::zip(lo, hi))
    n *= std::max<int64_t>(h - l, 0);
  return n;
}

void tessera::mergeAdjacentBoxes(llvm::SmallVectorImpl<Box> &boxes) {
  llvm::SmallVector<Box> merged;
  for (Box &box : boxes) {
    if (!merged.empty()) {
      Box &last = merged.back();
      int64_t differing = -1, count = 0;
      for (size_t d = 0; d < box.lo.size(); ++d)
        if (last.lo[d] != box.lo[d] || last.hi[d] != box.hi[d]) {
          differing = d;
          ++count;
        }
      if (count == 0)
        continue;
      if (count == 1 && last.hi[differing] == box.lo[differing]) {
        last.hi[differing] = box.hi[differing];
        continue;
      }
    }
    merged.push_back(box);
  }
  boxes.assign(merged.begin(), merged.end());
}

std::optional<BlockCopyPieces> tessera::gatherBlockCopies(
    llvm::ArrayRef<int64_t> sourceShape, llvm::ArrayRef<int64_t> sourceRuns,
    llvm::ArrayRef<TileBlock> blocks, int64_t maxPieces) {
  TileLookup source(sourceRuns);
  BlockCopyPieces gathered;
  BlockCopyPlan &plan = gathered.plan;
  std::vector<CopyPiece> &pieces = gathered.pieces,
                         &replicas = gathered.replicas;
  // The first block with each content is filled from the source; the others
  // copy it. The contents (each box's lo and hi) are laid out in one array
  // that never reallocates, and looked up by hash: a vector and a tree
  // node per block cost more than planning the block.
  size_t contentSize = 0;
  for (const TileBlock &block : blocks)
    for (const Box &box : block.boxes)
      contentSize += box.lo.size() + box.hi.size();
  std::vector<int64_t> contents;
  contents.reserve(contentSize);
  llvm::DenseMap<llvm::ArrayRef<int64_t>, size_t> firstWith;
  firstWith.reserve(blocks.size());
  // Each block's first block with its content (itself when it is the
  // first), found before any piece is made so that the pieces' array is
  // allocated once, for the primaries' spans (a piece per span unless a
  // span crosses a source interval): grown by doubling, it was copied and
  // faulted in up to twice over (147k pieces of 64 bytes for a weight of
  // ssd_mobilenet_v1).
  std::vector<size_t> firstOf(blocks.size());
  int64_t spans = 0;
  for (auto [i, block] : llvm::enumerate(blocks)) {
    size_t contentBegin = contents.size();
    for (const Box &box : block.boxes) {
      contents.insert(contents.end(), box.lo.begin(), box.lo.end());
      contents.insert(contents.end(), box.hi.begin(), box.hi.end());
    }
    auto [it, fresh] = firstWith.try_emplace(
        llvm::ArrayRef<int64_t>(contents).slice(contentBegin), i);
    firstOf[i] = it->second;
    if (fresh)
      for (const Box &box : block.boxes)
        spans += boxSpanCount(sourceShape, box.lo, box.hi);
  }
  pieces.reserve(std::min(spans, maxPieces + 1));
  std::vector<int64_t> base(blocks.size());
  bool ok = true;
  for (auto [i, block] : llvm::enumerate(blocks)) {
    int64_t begin = plan.numElements;
    base[i] = begin;
    if (firstOf[i] == i) {
      ++plan.numPrimaries;
      for (const Box &box : block.boxes)
        forEachBoxSpan(
            sourceShape, box.lo, box.hi, [&](int64_t offset, int64_t length) {
              ok = ok && static_cast<int64_t>(pieces.size()) <= maxPieces &&
                   appendSpanPieces(source, block.tile, offset,
                                    plan.numElements, length, pieces);
              plan.numElements += length;
            });
      if (!ok)
        return std::nullopt;
    } else {
      size_t first = firstOf[i];
      int64_t size = 0;
      for (const Box &box : block.boxes)
        size += box.numElements();
      if (size > 0)
        replicas.push_back(
            {blocks[first].tile, block.tile, size, base[first], begin});
      plan.numElements += size;
    }
    if (plan.numElements > begin)
      plan.intervals.push_back({block.tile, begin, plan.numElements});
  }
  return gathered;
}

std::optional<BlockCopyPlan> tessera::foldBlockCopies(BlockCopyPieces gathered,
                                                      int64_t maxRuns) {
  BlockCopyPlan &plan = gathered.plan;
  plan.copies = foldCopyPieces(gathered.pieces, &plan.copyStrides);
  plan.replicaCopies = foldCopyPieces(gathered.replicas);
  if (static_cast<int64_t>((plan.copies.size() + plan.replicaCopies.size()) /
                           8) > maxRuns)
    return std::nullopt;
  return std::move(plan);
}

std::optional<BlockCopyPlan> tessera::planBlockCopies(
    llvm::ArrayRef<int64_t> sourceShape, llvm::ArrayRef<int64_t> sourceRuns,
    llvm::ArrayRef<TileBlock> blocks, int64_t maxPieces, int64_t maxRuns) {
  std::optional<BlockCopyPieces> gathered =
      gatherBlockCopies(sourceShape, sourceRuns, blocks, maxPieces);
  if (!gathered)
    return std::nullopt;
  return foldBlockCopies(std::move(*gathered), maxRuns);
}
