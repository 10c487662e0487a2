//===- MemoryReport.cpp - memory report objects ---------------------------===//
//
// Builds the report of docs/memory.md from a MemoryAnalysis. Every figure of
// the text summary is in this object, so the JSON, the CBOR and the text
// agree by construction.
//
//===----------------------------------------------------------------------===//

#include "tessera/Memory/MemoryReport.h"
#include "tessera/Memory/MemoryOptions.h"
#include "tessera/Memory/PaddingReport.h"
#include "tessera/Memory/PodReport.h"
#include "tessera/Memory/ReportForms.h"

#include "tessera/Analysis/OpIdentity.h"
#include "tessera/Support/JsonBuild.h"
#include "tessera/Support/Parallel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Parallel.h"

#include <array>
#include <map>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;
using tessera::json_build::array;
using tessera::json_build::object;
using tessera::json_build::pairs;
using tessera::json_build::put;

/// Buffers listed per tile out of memory (the largest live at its peak).
static constexpr size_t kMaxBlamed = 16;

/// Reports of fewer (tile, buffer) shares than this are built on the
/// calling thread: on mnist (96k shares) the tasks gained nothing and,
/// with tessera-compile's one malloc arena, lost ~7 ms of a 45 ms compile
/// to the arena's lock. Every corpus model is below it (mobilenetv2 has
/// 1.02 M); a 10k-op graph has 7.3 M.
static constexpr int64_t kParallelShares = int64_t(1) << 20;

namespace {

using Fields = forms::Fields<json>;

/// An object of `fields`, in their order, with room for `more` keys (see
/// forms::objectWithRoom). The keys of one entry are distinct, so they are
/// appended without ordered_json's search for each.
json toObject(Fields &&fields, size_t more = 0) {
  json j = forms::objectWithRoom<json>(fields.size() + more);
  auto &object = j.get_ref<json::object_t &>();
  for (auto &[key, value] : fields)
    object.emplace_back(key, std::move(value));
  return j;
}

/// A per-tile list's entries (each starting with "tile"): as they are, or
/// with `tileRuns` as compactTileRuns() leaves them.
std::vector<Fields> tileRunsOf(std::vector<Fields> &&perTile, bool tileRuns) {
  if (!tileRuns)
    return std::move(perTile);
  auto sameButTile = [](const Fields &x, const Fields &y) {
    return x.size() == y.size() &&
           std::equal(x.begin() + 1, x.end(), y.begin() + 1,
                      [](const auto &a, const auto &b) {
                        return a.second == b.second &&
                               llvm::StringRef(a.first) == b.first;
                      });
  };
  std::vector<Fields> runs;
  for (size_t i = 0; i < perTile.size();) {
    size_t j = i + 1;
    int64_t first = perTile[i].front().second.get<int64_t>();
    while (j < perTile.size() &&
           perTile[j].front().second.get<int64_t>() == first + int64_t(j - i) &&
           sameButTile(perTile[i], perTile[j]))
      ++j;
    Fields run = {{"first_tile", first},
                  {"last_tile", first + int64_t(j - i) - 1}};
    for (auto it = perTile[i].begin() + 1; it != perTile[i].end(); ++it)
      run.push_back(std::move(*it));
    runs.push_back(std::move(run));
    i = j;
  }
  return runs;
}

/// A list of entries in the report's form: objects, or a table.
json listOf(std::vector<Fields> &&entries, ReportForm form) {
  if (form == ReportForm::Compact) {
    forms::TableBuilder<json> table;
    table.reserve(entries.size());
    for (Fields &e : entries)
      table.add(std::move(e));
    return table.finish();
  }
  json list = json::array();
  for (Fields &e : entries)
    list.push_back(toObject(std::move(e)));
  return list;
}

class ReportBuilder {
public:
  ReportBuilder(const MemoryAnalysis &a, bool tileRuns, ReportForm form)
      : a(a), live(a.liveness), target(a.target), tileRuns(tileRuns),
        form(form) {
    indexOpNames();
    if (form == ReportForm::Compact)
      indexNames();
  }

  json build();

  /// A tile at its peak, by category: computed once, read by the tile's
  /// JSON and by the summary's totals.
  struct TileBreakdown {
    int64_t variables = 0, constants = 0, hostBuffers = 0, alwaysLive = 0;
  };

private:
  void indexOpNames();
  void indexNames();
  Fields buffer(uint32_t b);
  Fields bufferBrief(uint32_t b);
  /// A buffer listed again (at the peak): in the compact form its index
  /// into `buffers` when its name tells it apart, else its brief.
  json bufferAgain(uint32_t b);
  /// A buffer live on a tile at the tile's peak.
  struct LiveShare {
    uint32_t buffer;
    TileBytes share; // by value: shares are held as runs
    int64_t offset;
    size_t position; ///< in the tile's list
  };
  /// Tile `t`'s breakdown; with `liveHere`, also the buffers live at its
  /// peak (tileAtPeak's list: one walk of the tile's buffers for both).
  TileBreakdown breakdown(int64_t t,
                          std::vector<LiveShare> *liveHere = nullptr) const;
  Fields tile(int64_t t, const TileBreakdown &b);
  /// Every figure of tile `t`'s entry but the tile: two tiles with the
  /// same figures have entries that are the same but for the tile.
  std::array<int64_t, 18> tileFigures(int64_t t, const TileBreakdown &b) const;
  json summary(llvm::ArrayRef<TileBreakdown> tiles,
               const PaddingReport &padding);
  json viewer();
  /// Point `p`'s step, kind and depth (the heap's labels).
  Fields stepFields(int64_t p) const;
  /// Tile `t` at its peak: totals, and its live buffers (the `maxListed`
  /// largest) with offsets and the steps that wrote them.
  Fields tileAtPeak(int64_t t, size_t maxListed) {
    std::vector<LiveShare> liveHere;
    breakdown(t, &liveHere);
    return tileAtPeak(t, livePeak(maxListed, std::move(liveHere)));
  }
  /// What tileAtPeak lists of a tile: its live buffers' count and bytes,
  /// and the `maxListed` largest as JSON. Tiles with the same buffers and
  /// shares as the tile before (sameSharesAsPrevious) share it.
  struct LivePeak {
    size_t count = 0;
    int64_t bytes = 0;
    json listed;
  };
  LivePeak livePeak(size_t maxListed, std::vector<LiveShare> liveHere);
  Fields tileAtPeak(int64_t t, const LivePeak &peak);

public:
  json tileDetail(int64_t t);

private:
  json padding(const PaddingReport &padding);
  json pod();
  /// The `tiles` and `memory_options` sections.
  json tileList(llvm::ArrayRef<TileBreakdown> breakdowns);
  json memoryOptions();
  json graph();
  std::string stepAt(int64_t point) const {
    if (point < live.schedule.numPoints())
      return stepName(live.schedule.steps[point]);
    return "(program start)";
  }
  std::vector<std::string> writers(uint32_t b) const {
    std::vector<std::string> names;
    for (int64_t p : live.buffers[b].writers)
      names.push_back(stepName(live.schedule.steps[p]));
    return names;
  }

  const MemoryAnalysis &a;
  const ProgramLiveness &live;
  const TargetDescription &target;
  bool tileRuns;
  ReportForm form;
  llvm::StringMap<std::string> opNameOf; ///< HLO instruction → op_name
  /// Buffers whose name no other buffer has: the compact form lists them
  /// again by index (compactMemoryReport's rule).
  std::vector<bool> uniqueName;
};

} // namespace

void ReportBuilder::indexOpNames() {
  Operation *anchor = nullptr;
  if (!live.buffers.empty())
    anchor = live.buffers.front().var->getParentOfType<ModuleOp>();
  else if (!live.schedule.steps.empty())
    anchor = live.schedule.steps.front().op->getParentOfType<ModuleOp>();
  if (!anchor)
    return;
  anchor->walk([&](func::FuncOp func) {
    func.walk([&](Operation *op) {
      if (op == func)
        return;
      OpIdentity id = identifyOp(op);
      if (!id.instruction.empty() && !id.opName.empty())
        opNameOf.try_emplace(id.instruction, id.opName);
    });
  });
}

void ReportBuilder::indexNames() {
  llvm::StringMap<int> count;
  for (const BufferLiveness &b : live.buffers)
    ++count[b.var.getName()];
  uniqueName.reserve(live.buffers.size());
  for (const BufferLiveness &b : live.buffers)
    uniqueName.push_back(count.lookup(b.var.getName()) == 1);
}

Fields ReportBuilder::bufferBrief(uint32_t b) {
  const BufferLiveness &buf = live.buffers[b];
  tile::VarOp var = buf.var;
  std::string hlo = var.getHlo().value_or("").str();
  json opName = hlo.empty() ? "" : opNameOf.lookup(hlo);
  // Room for buffer()'s six more.
  Fields f;
  f.reserve(17);
  f.emplace_back("name", var.getName().str());
  f.emplace_back("hlo", std::move(hlo));
  f.emplace_back("op_name", std::move(opName));
  f.emplace_back("shape", var.getType().getShape().vec());
  f.emplace_back("dtype", buf.dtype);
  f.emplace_back("category", categoryLabel(var.getCategory()).str());
  f.emplace_back("size", buf.paddedBytes);
  f.emplace_back("unpadded_size", buf.bytes);
  f.emplace_back("expansion", roundedRatio(buf.paddedBytes, buf.bytes));
  f.emplace_back("extra", buf.paddedBytes - buf.bytes);
  f.emplace_back("live_range", buf.isLive() ? array<json>(buf.first, buf.last)
                                            : json(nullptr));
  return f;
}

Fields ReportBuilder::buffer(uint32_t b) {
  const BufferLiveness &buf = live.buffers[b];
  Fields f = bufferBrief(b);
  f.emplace_back("tile_category",
                 tile::stringifyCategory(buf.var.getCategory()).str());
  f.emplace_back("always_live", buf.alwaysLive);
  f.emplace_back("host_exchanged", buf.hostExchanged);
  f.emplace_back("alias_of",
                 buf.aliasOf >= 0
                     ? json(live.buffers[buf.aliasOf].var.getName().str())
                     : json(nullptr));
  f.emplace_back("tiles", buf.tiles.size());
  f.emplace_back("written_by", writers(b));
  return f;
}

json ReportBuilder::bufferAgain(uint32_t b) {
  if (form == ReportForm::Compact && uniqueName[b])
    return b;
  return toObject(bufferBrief(b));
}

ReportBuilder::TileBreakdown
ReportBuilder::breakdown(int64_t t, std::vector<LiveShare> *liveHere) const {
  const TileAllocation &alloc = a.tiles[t];
  int64_t point = alloc.allocation.peakPoint;
  TileBreakdown b;
  b.alwaysLive = live.overheads[t].total();
  for (size_t i = 0, e = live.buffersOnTile[t].size(); i < e; ++i) {
    const TileBytes &share = live.shareOn(t, i);
    if (!share.liveAt(point))
      continue;
    if (liveHere)
      liveHere->push_back({live.buffersOnTile[t][i], share,
                           alloc.allocation.offsets()[i], liveHere->size()});
    const BufferLiveness &buf = live.buffers[live.buffersOnTile[t][i]];
    int64_t bytes = share.paddedBytes;
    if (buf.var.getCategory() == tile::Category::Constant)
      b.constants += bytes;
    else if (buf.hostExchanged)
      b.hostBuffers += bytes;
    else
      b.variables += bytes;
    if (buf.alwaysLive)
      b.alwaysLive += bytes;
  }
  return b;
}

/// A tile's (or the sum over tiles') bytes by category, at the peak: its
/// buffers', then its program overheads'.
static json byCategory(const ReportBuilder::TileBreakdown &b,
                       const TileOverheads &o) {
  return object<json>("variables", b.variables, "constants", b.constants,
                      "host_exchange_buffers", b.hostBuffers, "vertex_code",
                      o.vertexCode, "vertex_state", o.vertexState,
                      "exchange_code", o.exchangeCode, "control_code",
                      o.controlCode, "stack", o.stack);
}

Fields ReportBuilder::tile(int64_t t, const TileBreakdown &b) {
  const TileAllocation &alloc = a.tiles[t];
  const TileOverheads &o = live.overheads[t];
  return pairs<json>(
      "tile", t, "including_gaps", alloc.includingGaps(), "excluding_gaps",
      alloc.excludingGaps(), "gaps", alloc.gaps(), "allocated_peak",
      alloc.allocation.peak, "lower_bound", alloc.allocation.lowerBound,
      "peak_point", alloc.allocation.peakPoint, "always_live", b.alwaysLive,
      "not_always_live", alloc.excludingGaps() - b.alwaysLive, "by_category",
      byCategory(b, o), "buffers", live.buffersOnTile[t].size(),
      "out_of_memory", alloc.outOfMemory(), "over_by", alloc.overBy());
}

std::array<int64_t, 18>
ReportBuilder::tileFigures(int64_t t, const TileBreakdown &b) const {
  const TileAllocation &alloc = a.tiles[t];
  const TileOverheads &o = live.overheads[t];
  return {alloc.includingGaps(),
          alloc.excludingGaps(),
          alloc.gaps(),
          alloc.allocation.peak,
          alloc.allocation.lowerBound,
          alloc.allocation.peakPoint,
          b.alwaysLive,
          b.variables,
          b.constants,
          b.hostBuffers,
          o.vertexCode,
          o.vertexState,
          o.exchangeCode,
          o.controlCode,
          o.stack,
          static_cast<int64_t>(live.buffersOnTile[t].size()),
          alloc.outOfMemory(),
          alloc.overBy()};
}

json ReportBuilder::summary(ArrayRef<TileBreakdown> tiles,
                            const PaddingReport &padding) {
  json s = forms::objectWithRoom<json>(20);
  AllocationSummary alloc = summarizeAllocation(a);
  int64_t including = alloc.totalIncludingGaps,
          excluding = alloc.totalExcludingGaps;
  int64_t alwaysLive = 0, notAlwaysLive = 0;
  TileBreakdown total;
  for (auto [t, b] : llvm::enumerate(tiles)) {
    alwaysLive += b.alwaysLive;
    notAlwaysLive += a.tiles[t].excludingGaps() - b.alwaysLive;
    total.variables += b.variables;
    total.constants += b.constants;
    total.hostBuffers += b.hostBuffers;
  }
  TileOverheads overheads;
  for (const TileOverheads &o : live.overheads) {
    overheads.vertexCode += o.vertexCode;
    overheads.vertexState += o.vertexState;
    overheads.exchangeCode += o.exchangeCode;
    overheads.controlCode += o.controlCode;
    overheads.stack += o.stack;
  }

  put(s, "total_including_gaps", including);
  put(s, "total_excluding_gaps", excluding);
  put(s, "gaps", including - excluding);
  put(s, "always_live", alwaysLive);
  put(s, "not_always_live", notAlwaysLive);
  put(s, "by_category", byCategory(total, overheads));

  // Static totals over all buffers (each counted once, wherever live).
  std::map<std::string, int64_t> byDtype;
  std::map<std::string, std::pair<int64_t, int64_t>> byBufferCategory;
  for (uint32_t i : padding.buffers) {
    const BufferLiveness &b = live.buffers[i];
    byDtype[b.dtype] += b.paddedBytes;
    auto &c = byBufferCategory[categoryLabel(b.var.getCategory()).str()];
    c.first += b.paddedBytes;
    c.second += b.bytes;
  }
  json dtypes = json::object(), categories = json::object();
  for (auto &[dtype, bytes] : byDtype)
    put(dtypes, dtype.c_str(), bytes);
  for (auto &[cat, bytes] : byBufferCategory)
    put(categories, cat.c_str(),
        object<json>("size", bytes.first, "unpadded_size", bytes.second));
  put(s, "buffers_by_dtype", std::move(dtypes));
  put(s, "buffers_by_category", std::move(categories));
  put(s, "padding", paddingTotalsJson(padding.total));

  // Vertex data by vertex kind: instances, their state, and code once per
  // tile that runs the kind.
  struct KindData {
    int64_t vertices = 0;
    std::vector<bool> tiles;
  };
  std::map<std::string, KindData> kinds;
  for (const Step &step : live.schedule.steps)
    if (auto cs = dyn_cast<tile::ComputeSetOp>(step.op)) {
      KindData &k = kinds[cs.getKind().str()];
      k.tiles.resize(live.numTiles, false);
      // The attributes once per compute set: read per tile, they were most
      // of the summary's time at 10k ops.
      int64_t first = cs.getFirstTile(),
              end = std::min<int64_t>(cs.getEndTile(), live.numTiles);
      if (first >= end)
        continue;
      k.vertices += (end - first) * cs.getVerticesPerTile();
      std::fill(k.tiles.begin() + first, k.tiles.begin() + end, true);
    }
  json vertexData = json::array();
  for (auto &[kind, k] : kinds) {
    int64_t tilesRunning = llvm::count(k.tiles, true);
    vertexData.push_back(object<json>(
        "kind", kind, "vertices", k.vertices, "state_bytes",
        k.vertices * target.overheads.vertexStateBytes, "code_bytes",
        tilesRunning * target.overheads.vertexCodeBytes));
  }
  put(s, "vertex_data", std::move(vertexData));

  put(s, "max_tile_including_gaps",
      object<json>("tile", alloc.maxTile, "bytes", alloc.maxTileBytes));
  put(s, "max_tile_excluding_gaps",
      object<json>("tile", alloc.maxExcludingGapsTile, "bytes",
                   alloc.maxExcludingGapsBytes));
  put(s, "tiles_used", alloc.usedTiles);
  put(s, "mean_used_tile_bytes", alloc.meanUsedTileBytes());
  put(s, "tiles_out_of_memory", alloc.tilesOutOfMemory);
  put(s, "worst_peak_to_lower_bound",
      object<json>("tile", alloc.worstTile, "ratio",
                   roundedRatio(alloc.worstRatio * 10000, 10000, 10000.0)));

  // Histogram of bytes per tile (including gaps) in power-of-two KiB
  // buckets, about 16 up to the larger of the SRAM and the fullest tile.
  int64_t top = std::max(alloc.maxTileBytes, target.sramBytesPerTile);
  int64_t bucketKb = 1;
  while (bucketKb * 1024 * 16 < top)
    bucketKb *= 2;
  int64_t bucket = bucketKb * 1024;
  std::vector<int64_t> counts(top / bucket + 1, 0);
  for (const TileAllocation &t : a.tiles)
    ++counts[t.includingGaps() / bucket];
  json buckets = json::array();
  for (size_t i = 0; i < counts.size(); ++i)
    buckets.push_back(object<json>("from_kb", int64_t(i) * bucketKb, "to_kb",
                                   int64_t(i + 1) * bucketKb, "tiles",
                                   counts[i]));
  put(s, "histogram",
      object<json>("bucket_kb", bucketKb, "buckets", std::move(buckets)));
  put(s, "liveness_check",
      object<json>("points_checked", live.check.pointsChecked, "mismatches",
                   live.check.mismatches, "first_mismatch",
                   live.check.firstMismatch));
  return s;
}

Fields ReportBuilder::stepFields(int64_t p) const {
  bool inSchedule = p < live.schedule.numPoints();
  return pairs<json>("step", stepAt(p), "kind",
                     inSchedule ? stepKindName(live.schedule.steps[p].kind)
                                : "",
                     "depth", inSchedule ? live.schedule.steps[p].depth : 0);
}

/// A curve's change points (the compact form's heaps).
static json changePoints(llvm::ArrayRef<int64_t> padded,
                         llvm::ArrayRef<int64_t> unpadded) {
  return forms::changePoints<llvm::ArrayRef<int64_t>, json>(padded, unpadded);
}

json ReportBuilder::viewer() {
  json v = forms::objectWithRoom<json>(10);
  int64_t points = live.numPoints();
  int64_t peak = 0;
  for (int64_t p = 1; p < points; ++p)
    if (live.chipLivePadded[p] > live.chipLivePadded[peak])
      peak = p;
  put(v, "peak_point", peak);
  put(v, "peak_step", stepAt(peak));
  put(v, "peak_bytes", live.chipLivePadded[peak]);
  put(v, "peak_unpadded_bytes", live.chipLiveBytes[peak]);
  // The chip's heap: an entry per point (complete), or the points where it
  // changes and each point's step as a table (compact, `heap_steps` below).
  forms::TableBuilder<json> heapSteps;
  if (form == ReportForm::Compact) {
    put(v, "heap",
        changePoints(llvm::ArrayRef(live.chipLivePadded).take_front(points),
                     llvm::ArrayRef(live.chipLiveBytes).take_front(points)));
    heapSteps.reserve(points);
    for (int64_t p = 0; p < points; ++p)
      heapSteps.add(stepFields(p));
  } else {
    json heap = json::array();
    for (int64_t p = 0; p < points; ++p) {
      Fields f = stepFields(p);
      f.insert(f.begin(), {"point", p});
      f.emplace_back("padded", live.chipLivePadded[p]);
      f.emplace_back("unpadded", live.chipLiveBytes[p]);
      heap.push_back(toObject(std::move(f)));
    }
    put(v, "heap", std::move(heap));
  }

  // Per-tile heaps of the five fullest tiles (all tiles would be tiles ×
  // points numbers; every tile's peak is in `tiles`).
  std::vector<int64_t> order(live.numTiles);
  for (int64_t t = 0; t < live.numTiles; ++t)
    order[t] = t;
  // The five fullest, ties in tile order (what a stable sort gives).
  size_t shown = std::min<size_t>(5, order.size());
  std::partial_sort(order.begin(), order.begin() + shown, order.end(),
                    [&](int64_t x, int64_t y) {
                      int64_t bx = a.tiles[x].includingGaps(),
                              by = a.tiles[y].includingGaps();
                      return bx != by ? bx > by : x < y;
                    });
  json tileHeaps = json::array();
  for (size_t i = 0; i < shown; ++i) {
    int64_t t = order[i];
    std::vector<int64_t> padded = live.tileCurve(t, true),
                         unpadded = live.tileCurve(t, false);
    if (form == ReportForm::Compact)
      tileHeaps.push_back(
          object<json>("tile", t, "changes", changePoints(padded, unpadded)));
    else
      tileHeaps.push_back(object<json>("tile", t, "padded", std::move(padded),
                                       "unpadded", std::move(unpadded)));
  }
  put(v, "tile_heaps", std::move(tileHeaps));

  // A buffer's tiles of one run share its live range: asked per run, not
  // per tile (per tile, this was two fifths of a 20k-op transformer's
  // memory report: its buffers not live at the peak each walked every one
  // of their tiles).
  std::vector<uint32_t> atPeak;
  for (uint32_t b = 0; b < live.buffers.size(); ++b)
    if (live.buffers[b].aliasOf < 0 &&
        llvm::any_of(live.buffers[b].tiles.runs(),
                     [&](const TileShares::Run &run) {
                       return run.tiles > 0 && run.liveAt(peak);
                     }))
      atPeak.push_back(b);
  json byOrder = json::array(), bySize = json::array();
  for (uint32_t b : atPeak)
    byOrder.push_back(bufferAgain(b));
  std::stable_sort(atPeak.begin(), atPeak.end(), [&](uint32_t x, uint32_t y) {
    return live.buffers[x].paddedBytes > live.buffers[y].paddedBytes;
  });
  for (uint32_t b : atPeak)
    bySize.push_back(bufferAgain(b));
  put(v, "buffers_at_peak_by_program_order", std::move(byOrder));
  put(v, "buffers_at_peak_by_size", std::move(bySize));
  if (form == ReportForm::Compact) {
    put(v, "points", points);
    put(v, "heap_steps", heapSteps.finish());
  }
  return v;
}

ReportBuilder::LivePeak
ReportBuilder::livePeak(size_t maxListed, std::vector<LiveShare> liveHere) {
  LivePeak peak;
  for (const LiveShare &l : liveHere)
    peak.bytes += l.share.paddedBytes;
  peak.count = liveHere.size();
  // The `maxListed` largest, ties in tile order (a stable sort's order):
  // sorting every live buffer of each tile out of memory to list 16 was
  // most of a 30k-op report's time.
  size_t listed = std::min(maxListed, liveHere.size());
  std::partial_sort(liveHere.begin(), liveHere.begin() + listed, liveHere.end(),
                    [](const LiveShare &x, const LiveShare &y) {
                      if (x.share.paddedBytes != y.share.paddedBytes)
                        return x.share.paddedBytes > y.share.paddedBytes;
                      return x.position < y.position;
                    });
  liveHere.resize(listed);
  peak.listed = json::array();
  for (const LiveShare &l : liveHere) {
    // The compact form's row [buffer, bytes_on_tile, first, last, offset]
    // stands for the entry below (the rest is the buffer's).
    if (form == ReportForm::Compact && uniqueName[l.buffer]) {
      peak.listed.push_back(array<json>(l.buffer, l.share.paddedBytes,
                                        l.share.first, l.share.last, l.offset));
      continue;
    }
    Fields f = bufferBrief(l.buffer);
    f.emplace_back("bytes_on_tile", l.share.paddedBytes);
    f.emplace_back("live_range_on_tile",
                   array<json>(l.share.first, l.share.last));
    f.emplace_back("offset", l.offset);
    f.emplace_back("written_by", writers(l.buffer));
    peak.listed.push_back(toObject(std::move(f)));
  }
  return peak;
}

Fields ReportBuilder::tileAtPeak(int64_t t, const LivePeak &peak) {
  const TileAllocation &alloc = a.tiles[t];
  int64_t point = alloc.allocation.peakPoint;
  // Tiles of one run share `peak`: each takes a copy of its list, once.
  return pairs<json>("tile", t, "over_by", alloc.overBy(), "including_gaps",
                     alloc.includingGaps(), "capacity", alloc.capacity,
                     "peak_point", point, "peak_step", stepAt(point),
                     "live_buffers", peak.count, "live_bytes", peak.bytes,
                     "live_at_peak", peak.listed);
}

json ReportBuilder::tileDetail(int64_t t) {
  const char *fromPeak[] = {"capacity", "peak_step", "live_buffers",
                            "live_bytes", "live_at_peak"};
  json d = toObject(tile(t, breakdown(t)), std::size(fromPeak) + 2);
  json peak = toObject(tileAtPeak(t, SIZE_MAX));
  for (const char *key : fromPeak)
    d[key] = std::move(peak[key]);
  d["heap_padded"] = live.tileCurve(t, /*padded=*/true);
  d["heap_unpadded"] = live.tileCurve(t, /*padded=*/false);
  return d;
}

json ReportBuilder::padding(const PaddingReport &padding) {
  json p = forms::objectWithRoom<json>(2);
  json worst = json::array();
  for (uint32_t b : padding.mostPadded)
    worst.push_back(toObject(bufferBrief(b)));
  p["most_padded_buffers"] = std::move(worst);
  json matmuls = json::array();
  for (const MatmulPadding &m : padding.matmuls)
    matmuls.push_back(matmulPaddingJson(m));
  p["matmuls"] = std::move(matmuls);
  return p;
}

json ReportBuilder::graph() {
  int64_t vertices = 0, edges = 0, computeSets = 0, exchanges = 0, syncs = 0,
          hostCopies = 0, hostComputes = 0, variables = 0;
  for (const Step &step : live.schedule.steps) {
    if (auto cs = dyn_cast<tile::ComputeSetOp>(step.op)) {
      ++computeSets;
      int64_t n =
          (cs.getEndTile() - cs.getFirstTile()) * cs.getVerticesPerTile();
      vertices += n;
      edges += n * (cs.getIns().size() + cs.getOuts().size());
    } else if (isa<tile::ExchangeOp, tile::CollectiveOp>(step.op)) {
      ++exchanges;
    } else if (isa<tile::SyncOp>(step.op)) {
      ++syncs;
    } else if (isa<tile::HostCopyOp>(step.op)) {
      ++hostCopies;
    } else if (isa<tile::HostComputeOp>(step.op)) {
      ++hostComputes;
    }
  }
  variables = live.buffers.size();
  return object<json>("vertices", vertices, "edges", edges, "variables",
                      variables, "compute_sets", computeSets, "exchanges",
                      exchanges, "syncs", syncs, "host_copies", hostCopies,
                      "host_computes", hostComputes, "program_points",
                      live.schedule.numPoints());
}

json ReportBuilder::build() {
  // The sections read the analysis and nothing else. Each is built as a
  // task and put in the report in one fixed order, so the bytes do not
  // depend on the threads (tasks run inline when this already runs in a
  // task, with --compile_threads=1, or for a small report). The per-tile
  // and per-buffer loops (the tiles' breakdowns, the tiles out of memory
  // at their peaks, the buffers' entries) are spread over the executor
  // from this thread, not run inside a task: a task's own tasks would run
  // in that task's thread.
  bool parallel = live.numShares() >= kParallelShares;
  json viewerJson, outOfMemoryJson, buffersJson, costJson, optionsJson, podJson;
  json summaryJson, tilesJson, paddingJson;
  // Declared before the group: its tasks read them until it has waited.
  std::vector<TileBreakdown> breakdowns(live.numTiles);
  std::vector<Fields> atPeak, bufferEntries(live.buffers.size());
  {
    std::optional<llvm::parallel::TaskGroup> group;
    if (parallel)
      group.emplace();
    auto spawn = [&](std::function<void()> fn) {
      if (group)
        group->spawn(std::move(fn));
      else
        fn();
    };
    spawn([&] { viewerJson = viewer(); });
    spawn([&] {
      costJson = costReportJson(a, computeCostReport(a), form);
      optionsJson = memoryOptions();
      if (target.chips > 1)
        podJson = pod();
    });
    // A tile out of memory lists its largest live buffers (only those: a
    // chip-wide overflow would otherwise list every buffer of every tile),
    // found in the walk that sums its breakdown. A tile with the same
    // buffers and shares as the tile before has its allocation too, so
    // its breakdown but for its own overheads and its live buffers: each
    // run of such tiles is walked once, at its first tile (most tiles of a
    // large graph repeat the one before, and walking every tile's buffers
    // was a tenth of a 20k-op compile).
    std::vector<int64_t> heads, headOf = live.stretchStarts();
    for (int64_t t = 0; t < live.numTiles; ++t)
      if (headOf[t] == t)
        heads.push_back(t);
    std::vector<bool> runOutOfMemory(live.numTiles, false);
    for (int64_t t = 0; t < live.numTiles; ++t)
      if (a.tiles[t].outOfMemory())
        runOutOfMemory[headOf[t]] = true;
    std::vector<LivePeak> peakOf(live.numTiles);
    parallelForIf(parallel, heads.size(), [&](size_t h) {
      int64_t t = heads[h];
      if (!runOutOfMemory[t]) {
        breakdowns[t] = breakdown(t);
        return;
      }
      std::vector<LiveShare> liveHere;
      breakdowns[t] = breakdown(t, &liveHere);
      peakOf[t] = livePeak(kMaxBlamed, std::move(liveHere));
    });
    for (int64_t t = 0; t < live.numTiles; ++t) {
      int64_t head = headOf[t];
      if (head == t)
        continue;
      breakdowns[t] = breakdowns[head];
      breakdowns[t].alwaysLive +=
          live.overheads[t].total() - live.overheads[head].total();
    }
    std::vector<Fields> atPeakOf(live.numTiles);
    parallelForIf(parallel, live.numTiles, [&](size_t t) {
      if (a.tiles[t].outOfMemory())
        atPeakOf[t] = tileAtPeak(t, peakOf[headOf[t]]);
    });
    spawn([&] {
      PaddingReport paddingReport = computePaddingReport(a);
      summaryJson = summary(breakdowns, paddingReport);
      paddingJson = padding(paddingReport);
    });
    for (int64_t t = 0; t < live.numTiles; ++t)
      if (a.tiles[t].outOfMemory())
        atPeak.push_back(std::move(atPeakOf[t]));
    spawn([&] {
      outOfMemoryJson = listOf(tileRunsOf(std::move(atPeak), tileRuns), form);
    });
    parallelForIf(parallel, live.buffers.size(),
                  [&](size_t b) { bufferEntries[b] = buffer(b); });
    spawn([&] { buffersJson = listOf(std::move(bufferEntries), form); });
    tilesJson = tileList(breakdowns);
  }

  json r = forms::objectWithRoom<json>(16);
  put(r, "program", a.program);
  put(r, "entry", a.entry);
  put(r, "target",
      object<json>("name", target.name, "chips", target.chips, "tiles",
                   live.numTiles, "bytes_per_tile", target.sramBytesPerTile,
                   "clock_hz", target.clockHz, "layout_tile",
                   array<json>(target.layoutTile.rows, target.layoutTile.cols),
                   "alignment_bytes", target.alignmentBytes));
  put(r, "graph", graph());
  put(r, "summary", std::move(summaryJson));
  put(r, "memory_viewer", std::move(viewerJson));
  put(r, "tile_format", tileRuns ? "runs" : "tiles");
  put(r, "format", form == ReportForm::Compact ? "compact" : "complete");
  put(r, "tiles", std::move(tilesJson));
  put(r, "out_of_memory", std::move(outOfMemoryJson));
  put(r, "buffers", std::move(buffersJson));
  put(r, "padding", std::move(paddingJson));
  put(r, "cost", std::move(costJson));
  if (!optionsJson.empty())
    put(r, "memory_options", std::move(optionsJson));
  if (target.chips > 1)
    put(r, "pod", std::move(podJson));
  return r;
}

json ReportBuilder::tileList(ArrayRef<TileBreakdown> breakdowns) {
  // Most tiles of a linear mapping have the same figures: a run's entry is
  // built once, from its first tile (compactTileRuns' runs, without an
  // entry per tile).
  std::vector<Fields> tiles;
  for (int64_t t = 0; t < live.numTiles;) {
    int64_t end = t + 1;
    if (tileRuns) {
      std::array<int64_t, 18> figures = tileFigures(t, breakdowns[t]);
      while (end < live.numTiles &&
             tileFigures(end, breakdowns[end]) == figures)
        ++end;
    }
    tiles.push_back(tile(t, breakdowns[t]));
    if (tileRuns) {
      Fields &f = tiles.back();
      f.front() = {"first_tile", t};
      f.insert(f.begin() + 1, {"last_tile", end - 1});
    }
    t = end;
  }
  return listOf(std::move(tiles), form);
}

json ReportBuilder::memoryOptions() {
  json options = json::object();
  std::vector<DotWithinBudget> dots = collectDotsWithinBudget(a);
  if (!dots.empty()) {
    json list = json::array();
    for (const DotWithinBudget &d : dots)
      list.push_back({{"op", d.op},
                      {"fastest_grid_bytes", d.fastestBytes},
                      {"bytes", d.bytes},
                      {"passes", d.passes}});
    options["matmul_budget"] = {{"budget_bytes", dots.front().budget},
                                {"dots", std::move(list)}};
  }
  if (std::optional<RecomputeSaving> saving = computeRecomputeSaving(a))
    options["recompute"] = {{"distance", saving->distance},
                            {"values", saving->values},
                            {"copies", saving->copies},
                            {"tile", saving->tile},
                            {"point", saving->point},
                            {"saved_bytes_at_peak", saving->savedBytes}};
  return options;
}

json ReportBuilder::pod() {
  PodReport p = buildPodReport(a);
  json chips = json::array();
  for (const PodChip &c : p.perChip) {
    json cycles = json::object();
    for (const char *kind :
         {"compute", "exchange", "inter_chip", "collective", "sync", "host"}) {
      auto it = c.cycles.find(kind);
      cycles[kind] = it == c.cycles.end() ? 0 : it->second;
    }
    chips.push_back({{"chip", c.chip},
                     {"tiles_used", c.tilesUsed},
                     {"bytes", c.bytes},
                     {"max_tile", c.maxTile},
                     {"max_tile_bytes", c.maxTileBytes},
                     {"tiles_out_of_memory", c.tilesOutOfMemory},
                     {"histogram_bucket_kb", 64},
                     {"histogram", c.histogram},
                     {"cycles", cycles}});
  }
  json links = json::array();
  for (const PodLink &l : p.links)
    links.push_back({{"link", l.link},
                     {"between", {l.chipA, l.chipB}},
                     {"bytes_forward", l.bytesAToB},
                     {"bytes_backward", l.bytesBToA},
                     {"busy_cycles", l.busyCycles}});
  json collectives = json::array();
  for (const PodCollective &c : p.collectives)
    collectives.push_back({{"step", c.step},
                           {"kind", c.kind},
                           {"group_size", c.groupSize},
                           {"bytes", c.bytes},
                           {"cycles", c.cycles}});
  return {{"target", p.target},
          {"system_chips", p.systemChips},
          {"chips", p.chips},
          {"replicas", p.replicas},
          {"tiles_per_chip", p.tilesPerChip},
          {"placement", p.placement},
          {"per_chip", chips},
          {"links", links},
          {"collectives", collectives}};
}

json tessera::memory::buildMemoryReport(const MemoryAnalysis &analysis,
                                        bool tileRuns, ReportForm form) {
  return ReportBuilder(analysis, tileRuns, form).build();
}

json tessera::memory::compactTileRuns(const json &list) {
  // Most tiles of a linear mapping hold the same buffers with the same
  // figures: one entry for each run of them keeps every figure.
  json out = json::array();
  json body;
  int64_t first = -1, last = -1;
  auto flush = [&] {
    if (first < 0)
      return;
    json run = json::object();
    run["first_tile"] = first;
    run["last_tile"] = last;
    for (auto it = body.begin(); it != body.end(); ++it)
      run[it.key()] = std::move(it.value());
    out.push_back(std::move(run));
  };
  for (const json &entry : list) {
    auto tile = entry.find("tile");
    if (tile == entry.end() || !tile->is_number_integer())
      continue;
    int64_t t = tile->get<int64_t>();
    json rest = entry;
    rest.erase("tile");
    if (first >= 0 && t == last + 1 && rest == body) {
      last = t;
      continue;
    }
    flush();
    first = last = t;
    body = std::move(rest);
  }
  flush();
  return out;
}

json tessera::memory::buildTileDetail(const MemoryAnalysis &analysis,
                                      int64_t tile) {
  return ReportBuilder(analysis, /*tileRuns=*/false, ReportForm::Complete)
      .tileDetail(tile);
}

std::vector<uint8_t> tessera::memory::toCbor(const json &report) {
  return json::to_cbor(report);
}
