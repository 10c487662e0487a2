//===- TileOps.cpp - tile op verifiers ------------------------------------===//
//
// The invariants every tile program keeps: each buffer's elements are mapped
// exactly once, vertices only touch data on their own tile, and exchanges
// read data where it is mapped and write it where it belongs.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/Tile/IR/MappingTiles.h"
#include "tessera/Dialect/Tile/IR/Tile.h"
#include "tessera/Support/Parallel.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

using namespace mlir;
using namespace tessera::tile;

static ProgramOp enclosingProgram(Operation *op) {
  return op->getParentOfType<ProgramOp>();
}

LogicalResult ProgramOp::verify() {
  if (getTiles() <= 0)
    return emitOpError("needs a positive tile count, got ") << getTiles();
  if (getChips() < 1 || getReplicas() < 1)
    return emitOpError("needs at least one chip and one replica");
  if (getTiles() % getChips() != 0)
    return emitOpError("spans ") << getChips() << " chips, which do not split "
                                 << getTiles() << " tiles evenly";
  return success();
}

LogicalResult VarOp::verify() {
  ProgramOp program = enclosingProgram(*this);
  if (!program)
    return emitOpError("must be inside a tile.program");
  std::string problem =
      getMapping().checkCovers(getType().getNumElements(), program.getTiles());
  if (!problem.empty())
    return emitOpError("mapping of '")
           << getName() << "' is invalid: " << problem;
  if (Value alias = getAlias()) {
    auto of = alias.getDefiningOp<VarOp>();
    auto type = cast<BufferType>(alias.getType());
    if (!of)
      return emitOpError("'") << getName() << "' aliases a value that is not "
                                             "a tile.var";
    if (type.getNumElements() != getType().getNumElements() ||
        type.getElementType() != getType().getElementType())
      return emitOpError("'")
             << getName() << "' aliases '" << of.getName()
             << "', whose elements are not its own: " << type << " vs "
             << getType();
  }
  if (getResultOf() && !getResultLeaf())
    return emitOpError("'") << getName()
                            << "' has result_of without result_leaf";
  if ((getValue() || getOpId()) && getCategory() != Category::Constant)
    return emitOpError("'") << getName()
                            << "' carries constant data but is not a constant";
  if (getValue() && getOpId())
    return emitOpError("'") << getName()
                            << "' has both a value and an elided op_id";
  return success();
}

/// The mapping of a buffer value: buffers are defined by tile.var.
static MappingAttr mappingOf(Value buffer) {
  if (auto var = buffer.getDefiningOp<VarOp>())
    return var.getMapping();
  return {};
}

LogicalResult ComputeSetOp::verify() {
  ProgramOp program = enclosingProgram(*this);
  if (!program)
    return emitOpError("must be inside a tile.program");
  int64_t first = getFirstTile(), end = getEndTile();
  if (first < 0 || end <= first || end > int64_t(program.getTiles()))
    return emitOpError("tile range [")
           << first << ", " << end - 1 << "] is empty or outside the program's "
           << program.getTiles() << " tiles";
  if (getVerticesPerTile() < 1)
    return emitOpError("needs at least one vertex per tile");
  for (auto [index, buffer] : llvm::enumerate(getOperands())) {
    MappingAttr mapping = mappingOf(buffer);
    if (!mapping)
      return emitOpError("operand #") << index << " is not a tile.var";
    // The first tile of the range outside the operand's tile ranges: a
    // walk over its runs, not over the tiles.
    int64_t t = first;
    for (auto [b, e] : tilesWithElements(mapping, program.getTiles())) {
      if (b > t || t >= end)
        break;
      t = std::max(t, e);
    }
    if (t < end)
      return emitOpError("vertex on tile ")
             << t << " would touch operand #" << index << " ('"
             << buffer.getDefiningOp<VarOp>().getName()
             << "'), which has no elements on that tile";
  }
  return success();
}

int64_t ExchangeOp::getElementsMoved() {
  if (isView())
    return getDest().getType().getNumElements();
  int64_t n = 0;
  for (size_t i = 0, e = getNumRuns(); i < e; ++i) {
    Run r = getRun(i);
    n += r.count * r.elements;
  }
  return n;
}

namespace {
/// A mapping's intervals grouped by tile and sorted by first element, so
/// that checking the many copies of one exchange costs a search among one
/// tile's few intervals rather than a walk over all runs
/// (MappingAttr::holds).
class TileIntervals {
public:
  TileIntervals(MappingAttr mapping, int64_t numTiles) {
    // Bucketed by tile (a counting sort: tiles are few and known), each
    // tile's intervals in the order the runs list them, then sorted where
    // that order is not the element order. A plain sort of every interval
    // was a fifth of this verifier's time on convolution windows.
    firstOfTile.assign(numTiles + 1, 0);
    ArrayRef<int64_t> runs = mapping.getRuns();
    auto forEach = [&](auto fn) {
      for (size_t r = 0; r + 3 < runs.size(); r += 4)
        for (int64_t t = std::max<int64_t>(runs[r], 0),
                     e = std::min(runs[r + 1], numTiles);
             t < e; ++t)
          fn(t, runs[r + 3] + (t - runs[r]) * runs[r + 2], runs[r + 2]);
    };
    forEach([&](int64_t t, int64_t, int64_t) { ++firstOfTile[t + 1]; });
    for (int64_t t = 0; t < numTiles; ++t)
      firstOfTile[t + 1] += firstOfTile[t];
    intervals.resize(firstOfTile[numTiles]);
    llvm::SmallVector<size_t> next(firstOfTile.begin(), firstOfTile.end() - 1);
    forEach([&](int64_t t, int64_t begin, int64_t perTile) {
      intervals[next[t]++] = {begin, begin + perTile};
    });
    for (int64_t t = 0; t < numTiles; ++t) {
      auto first = intervals.begin() + firstOfTile[t],
           last = intervals.begin() + firstOfTile[t + 1];
      if (last - first > 1 && !std::is_sorted(first, last))
        std::sort(first, last);
    }
  }
  /// Whether `tile` holds every element of [begin, end) (adjacent intervals
  /// of one tile join).
  bool holds(int64_t tile, int64_t begin, int64_t end) const {
    if (begin >= end)
      return true;
    if (tile < 0 || tile + 1 >= static_cast<int64_t>(firstOfTile.size()))
      return false;
    auto first = intervals.begin() + firstOfTile[tile],
         last = intervals.begin() + firstOfTile[tile + 1];
    // Most tiles hold one interval of a buffer.
    if (last - first == 1)
      return (*first)[0] <= begin && end <= (*first)[1];
    // The last interval of `tile` starting at or before `begin`.
    auto it = std::upper_bound(
        first, last, begin,
        [](int64_t b, const std::array<int64_t, 2> &iv) { return b < iv[0]; });
    if (it == first)
      return false;
    --it;
    int64_t covered = begin;
    for (; it != last && (*it)[0] <= covered; ++it) {
      covered = std::max(covered, (*it)[1]);
      if (covered >= end)
        return true;
    }
    return false;
  }

  /// The table of `mapping`, shared with the last few exchanges that
  /// asked for the same runs: every exchange reading or writing a buffer
  /// checks against its mapping (a convolution's window buffer is the
  /// destination of one exchange and both sides of another), and a table
  /// costs a pass over every tile. Keyed by the runs' contents, not the
  /// attribute, whose storage a later context may reuse; per thread, as
  /// the verifier may run on several.
  static std::shared_ptr<const TileIntervals> of(MappingAttr mapping,
                                                 int64_t numTiles) {
    struct Entry {
      std::vector<int64_t> runs;
      int64_t numTiles = -1;
      std::shared_ptr<const TileIntervals> table;
    };
    static thread_local std::array<Entry, 4> cache;
    static thread_local size_t victim = 0;
    ArrayRef<int64_t> runs = mapping.getRuns();
    for (Entry &e : cache)
      if (e.table && e.numTiles == numTiles &&
          ArrayRef<int64_t>(e.runs) == runs)
        return e.table;
    Entry &e = cache[victim];
    victim = (victim + 1) % cache.size();
    e.runs.assign(runs.begin(), runs.end());
    e.numTiles = numTiles;
    e.table = std::make_shared<const TileIntervals>(mapping, numTiles);
    return e.table;
  }

private:
  /// (begin, end) of each tile's intervals, tile by tile.
  llvm::SmallVector<std::array<int64_t, 2>> intervals;
  /// Index of each tile's first interval; tile t's are [first[t], first[t+1]).
  llvm::SmallVector<size_t> firstOfTile;
};
} // namespace

/// A view reads source elements offset + sum idx[d] * strides[d] over the
/// dest's index box; the extremes of that affine form must be in range.
static LogicalResult verifyView(ExchangeOp op) {
  if (op.getCopies() || op.getStrided())
    return op.emitOpError("has both copies and a view");
  if (!op.getViewOffset())
    return op.emitOpError("view needs an offset");
  ArrayRef<int64_t> strides = *op.getViewStrides();
  auto dstType = cast<BufferType>(op.getDest().getType());
  ArrayRef<int64_t> shape = dstType.getShape();
  if (strides.size() != shape.size())
    return op.emitOpError("view has ")
           << strides.size() << " strides for a rank-" << shape.size()
           << " dest";
  if (dstType.getNumElements() == 0)
    return success();
  int64_t lo = *op.getViewOffset(), hi = lo;
  for (auto [size, stride] : llvm::zip(shape, strides))
    (stride < 0 ? lo : hi) += (size - 1) * stride;
  int64_t n = cast<BufferType>(op.getSource().getType()).getNumElements();
  if (lo < 0 || hi >= n)
    return op.emitOpError("view reads source elements [")
           << lo << ", " << hi << "], outside the source's " << n
           << " elements";
  return success();
}

/// Run i of `copies` (eight integers a run) with its five `strided`
/// integers when there are any: getRun, from arrays read once rather than
/// through the op's property lookups per run.
static ExchangeOp::Run runAt(ArrayRef<int64_t> copies,
                             ArrayRef<int64_t> strided, size_t i) {
  const int64_t *c = &copies[ExchangeOp::kRunSize * i];
  ExchangeOp::Run r{c[0], c[1], c[2], c[3], c[4], c[5], c[6],
                    c[7], c[3], 0,    0,    1,    1};
  if (!strided.empty()) {
    const int64_t *h = &strided[ExchangeOp::kStridedSize * i];
    r.chunk = h[0];
    r.srcChunkStride = h[1];
    r.dstChunkStride = h[2];
    r.srcTileStep = h[3];
    r.dstTileStep = h[4];
  }
  return r;
}

LogicalResult ExchangeOp::verify() {
  if (getViewOffset() && !isView())
    return emitOpError("has a view offset but no view strides");
  if (isView())
    return verifyView(*this);
  if (!getCopies())
    return emitOpError("needs copies or a view");
  if (getCopyRuns().size() % kRunSize != 0)
    return emitOpError("copies come in runs of eight (src tile, dst tile, "
                       "count, elements, src element, src stride, dst "
                       "element, dst stride), got ")
           << getCopyRuns().size() << " integers";
  if (isStrided() && getStrided()->size() != getNumRuns() * kStridedSize)
    return emitOpError("strided comes in fives (chunk, src chunk stride, dst "
                       "chunk stride, src tile step, dst tile step), one per "
                       "copy run: expected ")
           << getNumRuns() * kStridedSize << " integers, got "
           << getStrided()->size();
  if (!mappingOf(getSource()) || !mappingOf(getDest()))
    return emitOpError("source and dest must be tile.var buffers");
  if (!enclosingProgram(*this))
    return emitOpError("must be inside a tile.program");
  // Each run's fields (findBadRun) and whether the tiles hold what the
  // copies read and write (findUnheldCopy) are checked by the program's
  // region verifier, once per distinct exchange.
  return success();
}

/// The first run of `op`'s copies with a field out of range (ExchangeOp::
/// verify has checked their counts), as the error to report; nullopt when
/// there is none. It depends on the copies alone, which exchanges of
/// repeated layers share (uniqued attributes), so the program's region
/// verifier checks each distinct list once: op by op, the same lists were
/// checked again for every exchange, a fifth of verifying a lowered
/// convolution graph. Emits nothing: it runs on several threads at once.
static std::optional<std::string> findBadRun(ExchangeOp op) {
  ArrayRef<int64_t> copies = op.getCopyRuns(),
                    strided =
                        op.isStrided() ? *op.getStrided() : ArrayRef<int64_t>();
  for (size_t i = 0, e = op.getNumRuns(); i < e; ++i) {
    ExchangeOp::Run r = runAt(copies, strided, i);
    auto run = [&] { return "copy run " + std::to_string(i); };
    if (r.count <= 0 || r.elements <= 0 || r.srcTile < 0 || r.dstTile < 0 ||
        r.srcElement < 0 || r.dstElement < 0)
      return run() + " is empty or negative";
    if (r.chunk <= 0 || r.elements % r.chunk != 0 || r.srcChunkStride < 0 ||
        r.dstChunkStride < 0)
      return run() + " has chunks of " + std::to_string(r.chunk) +
             " that do not divide its " + std::to_string(r.elements) +
             " elements, or a negative chunk stride";
    if (r.srcTileStep < 0 || r.srcTileStep > 1 || r.dstTileStep < 0 ||
        r.dstTileStep > 1)
      return run() + " has tile steps " + std::to_string(r.srcTileStep) + ", " +
             std::to_string(r.dstTileStep) + "; each must be 0 or 1";
  }
  return std::nullopt;
}

/// The first copy of `op` (whose runs findBadRun accepted) that
/// reads elements its source tile does not hold or writes where its
/// destination tile holds none, as the error to report; nullopt when every
/// copy is held. Emits nothing: it runs on several threads at once.
static std::optional<std::string> findUnheldCopy(ExchangeOp op,
                                                 int64_t numTiles) {
  std::shared_ptr<const TileIntervals> srcTable = TileIntervals::of(
                                           mappingOf(op.getSource()), numTiles),
                                       dstTable = TileIntervals::of(
                                           mappingOf(op.getDest()), numTiles);
  const TileIntervals &src = *srcTable, &dst = *dstTable;
  // The arrays once, not through getRun's property lookups per run.
  ArrayRef<int64_t> copies = op.getCopyRuns(),
                    strided =
                        op.isStrided() ? *op.getStrided() : ArrayRef<int64_t>();
  for (size_t i = 0, e = op.getNumRuns(); i < e; ++i) {
    ExchangeOp::Run r = runAt(copies, strided, i);
    // Chunk j of tile pair k; a span covering all chunks that the tile
    // holds whole settles them at once. The message is built only when a
    // check fails, so the passing path stays small enough to inline.
    int64_t last = r.numChunks() - 1;
    auto holdsChunks = [&](const TileIntervals &side, int64_t tile,
                           int64_t begin, int64_t stride) {
      if (side.holds(tile, begin, begin + last * stride + r.chunk))
        return true;
      for (int64_t j = 0; j <= last; ++j)
        if (!side.holds(tile, begin + j * stride, begin + j * stride + r.chunk))
          return false;
      return true;
    };
    auto fail = [&](const TileIntervals &side, int64_t tile, int64_t begin,
                    int64_t stride, StringRef what, StringRef whose) {
      int64_t b = begin;
      for (int64_t j = 0; j <= last; ++j, b += stride)
        if (!side.holds(tile, b, b + r.chunk))
          break;
      return "copy run " + std::to_string(i) + " " + what.str() +
             " elements [" + std::to_string(b) + ", " +
             std::to_string(b + r.chunk) + ") " + whose.str() +
             std::to_string(tile) + ", which does not hold them";
    };
    // A side whose tile does not move holds every copy when it holds the
    // span from the first copy's first element to the last copy's last.
    // (Any overflow of that span, in a malformed run, leaves the check to
    // the copies one by one.)
    auto holdsAllCopies = [&](const TileIntervals &side, int64_t tile,
                              int64_t tileStep, int64_t begin, int64_t stride,
                              int64_t chunkStride) {
      int64_t copies, chunks, end;
      return (tileStep == 0 || r.count == 1) && stride >= 0 &&
             !llvm::MulOverflow(r.count - 1, stride, copies) &&
             !llvm::MulOverflow(last, chunkStride, chunks) &&
             !llvm::AddOverflow(begin, copies, end) &&
             !llvm::AddOverflow(end, chunks, end) &&
             !llvm::AddOverflow(end, r.chunk, end) &&
             side.holds(tile, begin, end);
    };
    bool srcDone = holdsAllCopies(src, r.srcTile, r.srcTileStep, r.srcElement,
                                  r.srcStride, r.srcChunkStride);
    bool dstDone = holdsAllCopies(dst, r.dstTile, r.dstTileStep, r.dstElement,
                                  r.dstStride, r.dstChunkStride);
    if (srcDone && dstDone)
      continue;
    for (int64_t k = 0; k < r.count; ++k) {
      int64_t srcTile = r.srcTileOf(k),
              srcBegin = r.srcElement + k * r.srcStride;
      if (!srcDone && !holdsChunks(src, srcTile, srcBegin, r.srcChunkStride))
        return fail(src, srcTile, srcBegin, r.srcChunkStride, "reads",
                    "of the source from tile ");
      int64_t dstTile = r.dstTileOf(k),
              dstBegin = r.dstElement + k * r.dstStride;
      if (!dstDone && !holdsChunks(dst, dstTile, dstBegin, r.dstChunkStride))
        return fail(dst, dstTile, dstBegin, r.dstChunkStride, "writes",
                    "of the dest on tile ");
    }
  }
  return std::nullopt;
}

/// Exchanges whose copies findUnheldCopy checks on several threads: below
/// this, handing them out costs more than it saves.
static constexpr size_t kParallelExchanges = 64;

LogicalResult ProgramOp::verifyRegions() {
  // The copies of every exchange are checked against the tiles' intervals
  // here rather than op by op: the checks only read the IR, and they were
  // the larger part of verifying a lowered program, on one thread. The
  // first exchange in program order with an unheld copy is reported, as
  // the op-by-op check did.
  // An exchange's answer depends only on its copies and the two mappings
  // (uniqued: their addresses name them), which a model's repeated ops
  // share, so each distinct one is checked once.
  using Key =
      std::tuple<const void *, const void *, const void *, const void *>;
  std::vector<ExchangeOp> exchanges, distinct;
  std::vector<uint32_t> checkOf;
  DenseMap<Key, uint32_t> firstWith;
  getBody().walk([&](ExchangeOp ex) {
    if (ex.isView())
      return;
    Key key = {ex.getCopiesAttr().getAsOpaquePointer(),
               ex.getStridedAttr().getAsOpaquePointer(),
               mappingOf(ex.getSource()).getAsOpaquePointer(),
               mappingOf(ex.getDest()).getAsOpaquePointer()};
    auto [it, fresh] = firstWith.try_emplace(key, distinct.size());
    if (fresh)
      distinct.push_back(ex);
    exchanges.push_back(ex);
    checkOf.push_back(it->second);
  });
  std::vector<std::optional<std::string>> problems(distinct.size());
  int64_t numTiles = getTiles();
  auto check = [&](size_t i) {
    problems[i] = findBadRun(distinct[i]);
    if (!problems[i])
      problems[i] = findUnheldCopy(distinct[i], numTiles);
  };
  parallelForIf(distinct.size() >= kParallelExchanges, distinct.size(), check);
  for (auto [ex, c] : llvm::zip(exchanges, checkOf))
    if (problems[c])
      return ex.emitOpError(*problems[c]);
  return success();
}

/// The buffer a repeat / if reads to decide: one i1 element of a tile.var.
/// (Vars are declared outside the op; regions are not isolated, so steps
/// inside name any var of the program.)
static LogicalResult verifyControlBuffer(Operation *op, Value buffer,
                                         StringRef what) {
  auto type = cast<BufferType>(buffer.getType());
  if (!buffer.getDefiningOp<VarOp>())
    return op->emitOpError("") << what << " must be a tile.var";
  if (type.getNumElements() != 1 || !type.getElementType().isSignlessInteger(1))
    return op->emitOpError("")
           << what << " must be one i1 element, got " << type;
  return success();
}

LogicalResult CollectiveOp::verify() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  int64_t replicas = program ? program.getReplicas() : 1;
  int64_t size = getGroupSize();
  ArrayRef<int64_t> groups = getGroups();
  if (size < 1 || groups.size() % size != 0)
    return emitOpError("groups of ")
           << size << " cannot hold " << groups.size() << " devices";
  // Every replica in exactly one group (a permute's pairs say who moves).
  SmallVector<bool> seen(replicas, false);
  for (int64_t d : groups) {
    if (d < 0 || d >= replicas)
      return emitOpError("device ")
             << d << " is not one of the program's " << replicas << " replicas";
    if (seen[d])
      return emitOpError("device ") << d << " is in two groups";
    seen[d] = true;
  }
  if (int64_t(groups.size()) != replicas)
    return emitOpError("groups hold ")
           << groups.size() << " devices; the program has " << replicas;
  auto src = cast<BufferType>(getSource().getType());
  auto dst = cast<BufferType>(getDest().getType());
  bool reduces = getKind() == CollectiveKind::AllReduce ||
                 getKind() == CollectiveKind::ReduceScatter;
  if (reduces != bool(getReducer()))
    return emitOpError(reduces ? "needs a reducer" : "takes no reducer");
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and dest element types differ");
  int64_t ratio = 1;
  if (getKind() == CollectiveKind::AllGather)
    ratio = size;
  if (getKind() == CollectiveKind::ReduceScatter) {
    if (src.getNumElements() != dst.getNumElements() * size)
      return emitOpError("dest holds ")
             << dst.getNumElements() << " elements; a block of "
             << src.getNumElements() << " over " << size << " is "
             << src.getNumElements() / size;
  } else if (dst.getNumElements() != src.getNumElements() * ratio) {
    return emitOpError("dest holds ")
           << dst.getNumElements() << " elements, expected "
           << src.getNumElements() * ratio;
  }
  if (getKind() == CollectiveKind::Permute) {
    ArrayRef<int64_t> pairs = getPairs() ? *getPairs() : ArrayRef<int64_t>();
    if (pairs.size() % 2)
      return emitOpError("pairs must be (source, target) pairs");
    for (int64_t d : pairs)
      if (d < 0 || d >= replicas)
        return emitOpError("pair names device ")
               << d << " of " << replicas << " replicas";
  }
  return success();
}

LogicalResult RepeatOp::verify() {
  int64_t tripCount = static_cast<int64_t>(getTripCount());
  if (tripCount < -1)
    return emitOpError("trip_count must be -1 (unknown) or at least 0, got ")
           << tripCount;
  return verifyControlBuffer(*this, getCondition(), "condition");
}

LogicalResult IfOp::verify() {
  return verifyControlBuffer(*this, getPredicate(), "predicate");
}

void HostCopyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // An infeed writes the buffer on the tiles, an outfeed reads it.
  if (getDirection() == HostDirection::Infeed)
    effects.emplace_back(MemoryEffects::Write::get(), &getBufferMutable(),
                         SideEffects::DefaultResource::get());
  else
    effects.emplace_back(MemoryEffects::Read::get(), &getBufferMutable(),
                         SideEffects::DefaultResource::get());
}
