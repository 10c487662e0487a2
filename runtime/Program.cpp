//===- Program.cpp - A loaded, validated executable -----------------------===//

#include "tessera/Runtime/Program.h"

#include "tessera/Runtime/Vertex.h"
#include "tessera/Target/TargetJson.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace tessera::runtime {

/// Control flow nests at most this deep (a deeper file is rejected rather
/// than recursed into).
static constexpr int kMaxNesting = 64;

int64_t TileShare::localOf(int64_t e) const {
  auto it = llvm::upper_bound(
      intervals, e, [](int64_t v, const Interval &iv) { return v < iv.begin; });
  if (it == intervals.begin())
    return -1;
  --it;
  return e < it->end ? it->local + (e - it->begin) : -1;
}

RunStrides CopyRuns::stridesOf(int64_t run) const {
  if (strided.empty())
    return {copies[8 * run + 3], 0, 0, 1, 1};
  const int64_t *s = strided.data() + 5 * run;
  return {s[0], s[1], s[2], s[3], s[4]};
}

CopyRuns Program::copyRuns(const exe::Exchange &x) const {
  const google::protobuf::RepeatedField<int64_t> *copies = &x.copies(),
                                                 *strided = &x.strided();
  if (int32_t list = x.copy_list_plus_one()) {
    copies = &exe.copy_lists(list - 1).copies();
    strided = &exe.copy_lists(list - 1).strided();
  }
  return {ArrayRef<int64_t>(copies->data(), copies->size()),
          ArrayRef<int64_t>(strided->data(), strided->size())};
}

const exe::Ints *Program::intsOf(const exe::Param &p) const {
  if (p.has_ints_value())
    return &p.ints_value();
  if (p.has_shared_ints())
    return &exe.shared_ints(p.shared_ints());
  return nullptr;
}

const TileShare *BufferLayout::shareOn(int64_t tile) const {
  // Most buffers are spread over consecutive tiles, one share a tile: then
  // the share's index is the tile's distance from the first. Called per
  // operand per tile per step, so skipping the search matters.
  if (shares.empty())
    return nullptr;
  int64_t guess = tile - shares.front().tile;
  if (guess >= 0 && guess < static_cast<int64_t>(shares.size()) &&
      shares[guess].tile == tile)
    return &shares[guess];
  auto it = llvm::lower_bound(
      shares, tile, [](const TileShare &s, int64_t t) { return s.tile < t; });
  return it != shares.end() && it->tile == tile ? &*it : nullptr;
}

const ElementRun &BufferLayout::runOf(int64_t e) const {
  if (runLength)
    return runs[e / runLength];
  auto it = llvm::upper_bound(
      runs, e, [](int64_t v, const ElementRun &r) { return v < r.begin; });
  return *std::prev(it);
}

std::string BufferLayout::describe() const {
  std::string s = "'" + name + "' (" + dtypeName(dtype).str() + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "])";
}

Program::~Program() = default;

std::string Program::where(const exe::Step &step) {
  std::string s = "step '" + step.name() + "'";
  if (!step.location().empty())
    s += " (" + step.location() + ")";
  return s;
}

Error Program::fail(const Twine &what) const {
  return createStringError(sourceName + ": " + what);
}

static std::optional<DType> parseDtype(StringRef name) {
  return parseDType(name);
}

Error Program::loadBuffers() {
  int64_t numTiles = exe.num_tiles();
  int n = exe.buffers_size();
  bufferLayouts.resize(n);
  arenaSize.assign(numTiles, 0);
  for (int i = 0; i < n; ++i) {
    const exe::Buffer &b = exe.buffers(i);
    BufferLayout &layout = bufferLayouts[i];
    layout.name = b.name();
    layout.hlo = b.hlo();
    layout.resultOp = b.result_op_plus_one() - 1;
    layout.resultLeaf = b.result_leaf();
    layout.category = b.category();
    std::string what = "buffer " + std::to_string(i) + " '" + b.name() + "'";
    std::optional<DType> dtype = parseDtype(b.dtype());
    if (!dtype)
      return fail(what + ": unknown element type '" + b.dtype() + "'");
    layout.dtype = *dtype;
    layout.elementBytes = dtypeBytes(*dtype);
    layout.shape.assign(b.shape().begin(), b.shape().end());
    std::optional<int64_t> count = checkedNumElements(layout.shape);
    if (!count || *count > (int64_t(1) << 40))
      return fail(what + ": shape is negative or too large");
    layout.numElements = *count;
    layout.storage = i;
    if (b.alias_of_plus_one() != 0) {
      int32_t target = b.alias_of_plus_one() - 1;
      // Aliases point backwards, so following them always ends.
      if (target < 0 || target >= i)
        return fail(what + ": alias_of " + Twine(target) +
                    " is not an earlier buffer");
      layout.storage = bufferLayouts[target].storage;
    }

    // The mapping: runs of four, within the tiles, covering every element
    // exactly once.
    if (b.mapping_size() % 4 != 0)
      return fail(what + ": mapping has " + Twine(b.mapping_size()) +
                  " integers, not runs of four");
    std::vector<std::pair<int64_t, Interval>> pieces; // (tile, interval)
    for (int r = 0; r < b.mapping_size(); r += 4) {
      int64_t first = b.mapping(r), end = b.mapping(r + 1),
              per = b.mapping(r + 2), start = b.mapping(r + 3);
      if (first < 0 || end <= first || end > numTiles || per <= 0 ||
          start < 0 || per > layout.numElements ||
          (end - first) > layout.numElements / per + 1)
        return fail(what + ": mapping run " + Twine(r / 4) + " [" +
                    Twine(first) + ", " + Twine(end - 1) + "] x " + Twine(per) +
                    " from " + Twine(start) + " is out of range");
      for (int64_t t = first; t < end; ++t) {
        int64_t begin = start + (t - first) * per;
        pieces.push_back({t, {begin, begin + per, 0}});
      }
    }
    // Coverage: sorted by element, the intervals must tile [0, n).
    std::vector<size_t> order(pieces.size());
    for (size_t k = 0; k < order.size(); ++k)
      order[k] = k;
    llvm::sort(order, [&](size_t x, size_t y) {
      return pieces[x].second.begin < pieces[y].second.begin;
    });
    int64_t covered = 0;
    for (size_t k : order) {
      const Interval &iv = pieces[k].second;
      if (iv.begin != covered)
        return fail(what + ": mapping " +
                    (iv.begin < covered ? "maps element " + Twine(iv.begin) +
                                              " twice"
                                        : "leaves elements [" + Twine(covered) +
                                              ", " + Twine(iv.begin) +
                                              ") unmapped"));
      covered = iv.end;
    }
    if (covered != layout.numElements)
      return fail(what + ": mapping covers " + Twine(covered) + " of " +
                  Twine(layout.numElements) + " elements");

    // Shares: per tile, intervals ascending, stored contiguously.
    llvm::sort(pieces, [](const auto &x, const auto &y) {
      return std::tie(x.first, x.second.begin) <
             std::tie(y.first, y.second.begin);
    });
    for (auto &[tile, iv] : pieces) {
      if (layout.shares.empty() || layout.shares.back().tile != tile)
        layout.shares.push_back({tile, 0, 0, {}});
      TileShare &share = layout.shares.back();
      iv.local = share.elements;
      share.elements += iv.end - iv.begin;
      share.intervals.push_back(iv);
    }
    for (size_t s = 0; s < layout.shares.size(); ++s)
      for (const Interval &iv : layout.shares[s].intervals)
        layout.runs.push_back(
            {iv.begin, iv.end, static_cast<int32_t>(s), iv.local});
    llvm::sort(layout.runs, [](const ElementRun &x, const ElementRun &y) {
      return x.begin < y.begin;
    });
    // A block distribution (runs of L elements from 0, the last shorter)
    // finds an element's run by a division: views walk sources element by
    // element, so a search per element dominates their time.
    if (!layout.runs.empty()) {
      int64_t length = layout.runs.front().end - layout.runs.front().begin;
      bool uniform = length > 0;
      for (size_t r = 0; uniform && r < layout.runs.size(); ++r) {
        const ElementRun &run = layout.runs[r];
        int64_t n = run.end - run.begin;
        uniform = run.begin == static_cast<int64_t>(r) * length &&
                  (n == length || (r + 1 == layout.runs.size() && n < length));
      }
      layout.runLength = uniform ? length : 0;
    }

    if (layout.storage != i) {
      // An alias reads its storage's bytes element for element: the two
      // must lay their elements out identically.
      const BufferLayout &storage = bufferLayouts[layout.storage];
      bool same = storage.numElements == layout.numElements &&
                  storage.elementBytes == layout.elementBytes &&
                  storage.shares.size() == layout.shares.size();
      for (size_t s = 0; same && s < layout.shares.size(); ++s) {
        const TileShare &x = storage.shares[s], &y = layout.shares[s];
        same = x.tile == y.tile && x.intervals.size() == y.intervals.size();
        for (size_t k = 0; same && k < x.intervals.size(); ++k)
          same = x.intervals[k].begin == y.intervals[k].begin &&
                 x.intervals[k].end == y.intervals[k].end;
      }
      if (!same)
        return fail(what + ": aliases " + storage.describe() +
                    " but its elements are laid out differently");
      if (b.placement_runs_size() != 0)
        return fail(what + ": an alias has no placements of its own");
      layout.shares = storage.shares;
      continue;
    }

    // Placements: runs of (first tile, tiles, offset), one placement per
    // share, in tile order, inside the arena. Runs are checked as they are
    // read, so a run claiming a billion tiles is not expanded first.
    if (b.placement_runs_size() % 3 != 0)
      return fail(what + ": " + Twine(b.placement_runs_size()) +
                  " placement integers, not runs of three");
    size_t s = 0;
    for (int r = 0; r < b.placement_runs_size(); r += 3) {
      int64_t first = b.placement_runs(r), count = b.placement_runs(r + 1),
              offset = b.placement_runs(r + 2);
      if (count < 1 || count > int64_t(layout.shares.size() - s))
        return fail(what + ": placement run " + Twine(r / 3) + " covers " +
                    Twine(count) + " tiles, but " +
                    Twine(layout.shares.size() - s) +
                    " tiles holding elements remain");
      for (int64_t k = 0; k < count; ++k, ++s) {
        TileShare &share = layout.shares[s];
        int64_t tile = first + k;
        if (tile != share.tile)
          return fail(what + ": placement " + Twine(s) + " is for tile " +
                      Twine(tile) + ", expected tile " + Twine(share.tile));
        if (offset < 0 || offset % layout.elementBytes != 0 ||
            offset > (int64_t(1) << 40))
          return fail(what + ": offset " + Twine(offset) + " on tile " +
                      Twine(tile) + " is negative, misaligned or too large");
        share.offset = offset;
        // Private storage: after everything already on the tile, so no
        // other buffer ever overwrites it.
        if (privateStorage)
          share.offset = llvm::alignTo(arenaSize[share.tile], 8);
        arenaSize[share.tile] =
            std::max(arenaSize[share.tile],
                     share.offset + share.elements * layout.elementBytes);
      }
    }
    if (s != layout.shares.size())
      return fail(what + ": placements for " + Twine(s) + " of the " +
                  Twine(layout.shares.size()) + " tiles holding elements");
    // An elided constant has no data: the runner fills it (seeded) before
    // the first run.
    if (b.category() == exe::CATEGORY_CONSTANT && !b.elided() &&
        static_cast<int64_t>(b.constant_data().size()) !=
            layout.numElements * layout.elementBytes)
      return fail(what + ": constant data has " +
                  Twine(b.constant_data().size()) + " bytes, expected " +
                  Twine(layout.numElements * layout.elementBytes));
  }
  return Error::success();
}

/// Checks a buffer index of a step.
static bool validIndex(int32_t index, size_t n) {
  return index >= 0 && static_cast<size_t>(index) < n;
}

Error Program::checkStep(const exe::Step &step) {
  size_t n = bufferLayouts.size();
  std::string where = Program::where(step);
  auto oneElementPred = [&](int32_t b, StringRef role) -> Error {
    if (!validIndex(b, n))
      return fail(where + ": " + role + " buffer " + Twine(b) +
                  " does not exist");
    const BufferLayout &layout = bufferLayouts[b];
    if (layout.numElements != 1 || layout.dtype != DType::Pred)
      return fail(where + ": " + role + " " + layout.describe() +
                  " is not one pred element");
    return Error::success();
  };
  switch (step.kind_case()) {
  case exe::Step::kComputeSet: {
    const exe::ComputeSet &cs = step.compute_set();
    if (cs.first_tile() < 0 || cs.end_tile() <= cs.first_tile() ||
        cs.end_tile() > numTiles())
      return fail(where + ": tiles [" + Twine(cs.first_tile()) + ", " +
                  Twine(cs.end_tile() - 1) + "] are outside the program's " +
                  Twine(numTiles()) + " tiles");
    for (int32_t b : cs.ins())
      if (!validIndex(b, n))
        return fail(where + ": input buffer " + Twine(b) + " does not exist");
    for (int32_t b : cs.outs())
      if (!validIndex(b, n))
        return fail(where + ": output buffer " + Twine(b) +
                    " does not exist");
    for (const auto &[name, param] : cs.params())
      if (param.has_shared_ints() &&
          !validIndex(param.shared_ints(), exe.shared_ints_size()))
        return fail(where + ": parameter '" + name +
                    "' names shared integer list " +
                    Twine(param.shared_ints()) + " of " +
                    Twine(exe.shared_ints_size()));
    VertexSpec spec{cs, *this, sourceName + ": " + where};
    Expected<std::unique_ptr<Vertex>> vertex = createVertex(spec);
    if (!vertex)
      return vertex.takeError();
    auto prepared = std::make_unique<PreparedComputeSet>();
    prepared->proto = &cs;
    prepared->vertex = std::move(*vertex);
    computeSets[&cs] = std::move(prepared);
    return Error::success();
  }
  case exe::Step::kExchange: {
    const exe::Exchange &x = step.exchange();
    if (!validIndex(x.source(), n) || !validIndex(x.dest(), n))
      return fail(where + ": exchange buffers do not exist");
    const BufferLayout &src = bufferLayouts[x.source()];
    const BufferLayout &dst = bufferLayouts[x.dest()];
    if (src.dtype != dst.dtype)
      return fail(where + ": exchange from " + src.describe() + " to " +
                  dst.describe() + " changes the element type");
    if (x.is_view()) {
      if (x.copies_size() != 0 || x.strided_size() != 0 ||
          x.copy_list_plus_one() != 0 ||
          x.view_strides_size() != static_cast<int>(dst.shape.size()))
        return fail(where + ": view has " + Twine(x.view_strides_size()) +
                    " strides for a rank-" + Twine(dst.shape.size()) +
                    " destination");
      // The view stays inside the source: its extreme elements are in range.
      if (dst.numElements == 0)
        return Error::success();
      int64_t lo = x.view_offset(), hi = x.view_offset();
      for (size_t d = 0; d < dst.shape.size(); ++d) {
        int64_t s = x.view_strides(static_cast<int>(d));
        int64_t span = s * (dst.shape[d] - 1);
        if (dst.shape[d] > 0 && std::abs(s) > (int64_t(1) << 40))
          return fail(where + ": view stride " + Twine(s) + " is too large");
        (span < 0 ? lo : hi) += span;
      }
      if (lo < 0 || hi >= src.numElements)
        return fail(where + ": view reads elements [" + Twine(lo) + ", " +
                    Twine(hi) + "] of " + src.describe());
      return Error::success();
    }
    if (int32_t list = x.copy_list_plus_one()) {
      if (list < 0 || list > exe.copy_lists_size())
        return fail(where + ": exchange names copy list " + Twine(list - 1) +
                    " of " + Twine(exe.copy_lists_size()));
      if (x.copies_size() != 0 || x.strided_size() != 0)
        return fail(where + ": exchange lists copies and names copy list " +
                    Twine(list - 1));
    }
    CopyRuns runs = copyRuns(x);
    if (runs.copies.size() % 8 != 0)
      return fail(where + ": copies are not runs of eight");
    if (!runs.strided.empty() &&
        runs.strided.size() != size_t(runs.numRuns()) * 5)
      return fail(where + ": strided is not five integers per copy run");
    for (int64_t r = 0; r < int64_t(runs.copies.size()); r += 8) {
      const int64_t *c = runs.run(r / 8);
      int64_t st = c[0], dt = c[1], count = c[2], elems = c[3], se = c[4],
              ss = c[5], de = c[6], ds = c[7];
      RunStrides h = runs.stridesOf(r / 8);
      // Steps of at most 1 keep the last tile's check below overflow-free.
      if (count <= 0 || elems <= 0 || st < 0 || dt < 0 || count > numTiles() ||
          h.srcTileStep < 0 || h.srcTileStep > 1 || h.dstTileStep < 0 ||
          h.dstTileStep > 1 || st + (count - 1) * h.srcTileStep >= numTiles() ||
          dt + (count - 1) * h.dstTileStep >= numTiles())
        return fail(where + ": copy run " + Twine(r / 8) +
                    " has bad tiles, tile steps or counts");
      if (h.chunk <= 0 || elems % h.chunk != 0 || h.srcStride < 0 ||
          h.dstStride < 0)
        return fail(where + ": copy run " + Twine(r / 8) + " has chunks of " +
                    Twine(h.chunk) + " that do not divide its " + Twine(elems) +
                    " elements, or negative chunk strides");
      int64_t chunks = elems / h.chunk;
      for (int64_t k = 0; k < count; ++k) {
        const TileShare *from = src.shareOn(st + k * h.srcTileStep);
        const TileShare *to = dst.shareOn(dt + k * h.dstTileStep);
        // Each chunk of a copy must be one contiguous range held by its tile
        // (ascending local storage makes adjacent intervals contiguous).
        // "reads ... from tile" / "writes ... on tile": the one check, for
        // either end of the copy.
        auto check = [&](const TileShare *share, int64_t b, StringRef access,
                         const BufferLayout &buffer, int64_t tile) -> Error {
          if (share) {
            int64_t l0 = share->localOf(b),
                    l1 = share->localOf(b + h.chunk - 1);
            if (l0 >= 0 && l1 == l0 + h.chunk - 1)
              return Error::success();
          }
          return fail(where + ": copy run " + Twine(r / 8) + " " + access +
                      " elements [" + Twine(b) + ", " + Twine(b + h.chunk) +
                      ") of " + buffer.describe() +
                      (access == "reads" ? " from tile " : " on tile ") +
                      Twine(tile) + ", which does not hold them");
        };
        for (int64_t j = 0; j < chunks; ++j) {
          if (Error e = check(from, se + k * ss + j * h.srcStride, "reads", src,
                              st + k * h.srcTileStep))
            return e;
          if (Error e = check(to, de + k * ds + j * h.dstStride, "writes", dst,
                              dt + k * h.dstTileStep))
            return e;
        }
      }
    }
    return Error::success();
  }
  case exe::Step::kCollective: {
    const exe::Collective &c = step.collective();
    if (!validIndex(c.source(), n) || !validIndex(c.dest(), n))
      return fail(where + ": collective buffers do not exist");
    const BufferLayout &src = bufferLayouts[c.source()];
    const BufferLayout &dst = bufferLayouts[c.dest()];
    if (src.dtype != dst.dtype)
      return fail(where + ": collective from " + src.describe() + " to " +
                  dst.describe() + " changes the element type");
    static constexpr const char *kKinds[] = {
        "all_reduce", "all_gather", "reduce_scatter", "collective_permute",
        "all_to_all"};
    if (!llvm::is_contained(kKinds, c.kind()))
      return fail(where + ": unknown collective kind '" + c.kind() + "'");
    int64_t size = c.group_size();
    if (size < 1 || c.groups_size() != replicas())
      return fail(where + ": groups of " + Twine(size) + " over " +
                  Twine(c.groups_size()) + " devices; the program has " +
                  Twine(replicas()) + " replicas");
    std::vector<bool> seen(replicas(), false);
    for (int64_t d : c.groups()) {
      if (d < 0 || d >= replicas() || seen[d])
        return fail(where + ": device " + Twine(d) +
                    " is not a replica or is in two groups");
      seen[d] = true;
    }
    for (int64_t d : c.pairs())
      if (d < 0 || d >= replicas())
        return fail(where + ": a pair names device " + Twine(d));
    int64_t rank = static_cast<int64_t>(src.shape.size());
    if ((c.kind() == "all_gather" || c.kind() == "reduce_scatter" ||
         c.kind() == "all_to_all") &&
        (c.dimension() < 0 || c.dimension() >= std::max<int64_t>(rank, 1) ||
         c.groups_size() % size != 0))
      return fail(where + ": dimension " + Twine(c.dimension()) +
                  " is outside " + src.describe());
    int64_t expected = c.kind() == "all_gather"       ? src.numElements * size
                       : c.kind() == "reduce_scatter" ? src.numElements / size
                                                      : src.numElements;
    if (dst.numElements != expected)
      return fail(where + ": the collective writes " + dst.describe() +
                  " from " + src.describe());
    return Error::success();
  }
  case exe::Step::kSync:
    return Error::success();
  case exe::Step::kHostCopy:
    if (!validIndex(step.host_copy().buffer(), n))
      return fail(where + ": host copy of a buffer that does not exist");
    return Error::success();
  case exe::Step::kHostCompute:
    for (int32_t b : step.host_compute().ins())
      if (!validIndex(b, n))
        return fail(where + ": host op input buffer does not exist");
    for (int32_t b : step.host_compute().outs())
      if (!validIndex(b, n))
        return fail(where + ": host op output buffer does not exist");
    return Error::success();
  case exe::Step::kRepeat:
    return oneElementPred(step.repeat().condition(), "condition");
  case exe::Step::kIfStep:
    return oneElementPred(step.if_step().predicate(), "predicate");
  case exe::Step::KIND_NOT_SET:
    return fail(where + ": a step of no kind (written by a newer compiler?)");
  }
  return Error::success();
}

Error Program::loadSteps(
    const google::protobuf::RepeatedPtrField<exe::Step> &steps, int depth) {
  if (depth > kMaxNesting)
    return fail("control flow nested more than " + Twine(kMaxNesting) +
                " deep");
  for (const exe::Step &step : steps) {
    if (Error err = checkStep(step))
      return err;
    if (step.has_repeat())
      if (Error err = loadSteps(step.repeat().body(), depth + 1))
        return err;
    if (step.has_if_step()) {
      if (Error err = loadSteps(step.if_step().then_body(), depth + 1))
        return err;
      if (Error err = loadSteps(step.if_step().else_body(), depth + 1))
        return err;
    }
  }
  return Error::success();
}

Expected<std::unique_ptr<Program>> Program::load(exe::Executable executable,
                                                 StringRef source,
                                                 const LoadOptions &options) {
  std::unique_ptr<Program> program(new Program());
  program->exe = std::move(executable);
  program->sourceName = source.str();
  const exe::Executable &e = program->exe;
  Expected<TargetDescription> target =
      parseTarget(e.target_json(), source.str() + " (embedded target)");
  if (!target)
    return target.takeError();
  program->targetDesc = std::move(*target);
  if (e.num_tiles() <= 0 || e.num_tiles() > program->targetDesc.totalTiles())
    return program->fail("the program has " + Twine(e.num_tiles()) +
                         " tiles; its target '" + program->targetDesc.name +
                         "' has " + Twine(program->targetDesc.totalTiles()));
  program->privateStorage = options.privateStorage;
  if (Error err = program->loadBuffers())
    return std::move(err);
  if (Error err = program->loadSteps(e.steps(), 0))
    return std::move(err);
  for (const exe::Binding &b : e.parameters())
    if (b.buffer_plus_one() < 0 ||
        b.buffer_plus_one() > static_cast<int>(program->bufferLayouts.size()))
      return program->fail("parameter '" + b.name() +
                           "' names a buffer that does not exist");
  for (const exe::Binding &b : e.outputs())
    if (b.buffer_plus_one() < 0 ||
        b.buffer_plus_one() > static_cast<int>(program->bufferLayouts.size()))
      return program->fail("output '" + b.name() +
                           "' names a buffer that does not exist");

  // Out of memory, worded as the compile's memory report words it.
  for (const exe::TileMemory &t : e.over_capacity())
    program->oomLines.push_back(
        "tile " + std::to_string(t.tile()) + ": over by " +
        std::to_string(t.over_by()) + " bytes at point " +
        std::to_string(t.peak_point()) +
        (t.peak_step().empty() ? "" : " (" + t.peak_step() + ")"));
  if (!program->oomLines.empty() && !options.allowOutOfMemory) {
    std::string msg = std::to_string(program->oomLines.size()) +
                      " tile(s) out of memory";
    for (size_t i = 0; i < std::min<size_t>(program->oomLines.size(), 10); ++i)
      msg += "\n    " + program->oomLines[i];
    if (program->oomLines.size() > 10)
      msg += "\n    ... and " + std::to_string(program->oomLines.size() - 10) +
             " more";
    msg += "\n  (TESSERA_FLAGS=--allow_out_of_memory runs it anyway, the "
           "overflow held on the host)";
    return program->fail(msg);
  }
  return std::move(program);
}

} // namespace tessera::runtime
