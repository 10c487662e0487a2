//===- Liveness.cpp - per-tile live ranges of a tile program --------------===//

#include "tessera/Memory/Liveness.h"

#include "tessera/Analysis/Compat.h"
#include "tessera/Memory/Allocator.h"
#include "tessera/Memory/Padding.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <set>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

StringRef tessera::memory::categoryLabel(tile::Category category) {
  switch (category) {
  case tile::Category::Parameter:
    return "Parameter";
  case tile::Category::Output:
    return "Output";
  case tile::Category::Constant:
    return "Constant";
  case tile::Category::Temporary:
    return "Temporary";
  case tile::Category::Partials:
    return "Thread-local";
  }
  return "Temporary";
}

namespace {

/// First/last references of one buffer while walking the schedule.
struct Refs {
  int64_t firstDef = INT64_MAX, firstUse = INT64_MAX, lastRef = -1;
  void def(int64_t p) {
    firstDef = std::min(firstDef, p);
    lastRef = std::max(lastRef, p);
  }
  void use(int64_t p) {
    firstUse = std::min(firstUse, p);
    lastRef = std::max(lastRef, p);
  }
};

class LivenessBuilder {
public:
  LivenessBuilder(tile::ProgramOp program, const TargetDescription &target)
      : program(program), target(target) {}

  ProgramLiveness build();

private:
  void collectBuffers();
  void collectRefs();
  void computeRanges();
  void computeOverheads();
  void computeChipCurves();

  /// The buffer a value is (through aliases: the storage it uses).
  int32_t bufferOf(Value v) {
    auto it = indexOf.find(v);
    return it == indexOf.end() ? -1 : it->second;
  }
  int32_t storageOf(int32_t b) {
    while (b >= 0 && result.buffers[b].aliasOf >= 0)
      b = result.buffers[b].aliasOf;
    return b;
  }

  tile::ProgramOp program;
  const TargetDescription &target;
  ProgramLiveness result;
  llvm::DenseMap<Value, int32_t> indexOf;
  std::vector<Refs> refs;
};

} // namespace

void LivenessBuilder::collectBuffers() {
  llvm::StringMap<int32_t> byName;
  int64_t numTiles = result.numTiles;
  program.walk([&](tile::VarOp var) {
    int32_t index = result.buffers.size();
    BufferLiveness buffer;
    buffer.var = var;
    tile::BufferType type = var.getType();
    buffer.dtype = hloDtypeName(type.getElementType());
    buffer.elementBytes = elementBytes(buffer.dtype);
    if (auto alias = var->getAttrOfType<StringAttr>("alias_of")) {
      auto it = byName.find(alias.getValue());
      if (it != byName.end())
        buffer.aliasOf = it->second;
    }
    if (buffer.aliasOf < 0) {
      // Intervals per tile, then padded per tile.
      std::map<int64_t, llvm::SmallVector<std::pair<int64_t, int64_t>>> mine;
      var.getMapping().forEachInterval([&](int64_t t, int64_t b, int64_t e) {
        if (t < numTiles)
          mine[t].push_back({b, e});
      });
      for (auto &[t, intervals] : mine) {
        TileBytes share;
        share.tile = t;
        for (auto [b, e] : intervals)
          share.elements += e - b;
        share.bytes = share.elements * buffer.elementBytes;
        share.paddedBytes =
            alignTo(paddedElementsOnTile(type.getShape(), target.layoutTile,
                                         intervals) *
                        buffer.elementBytes,
                    target.alignmentBytes);
        buffer.bytes += share.bytes;
        buffer.paddedBytes += share.paddedBytes;
        buffer.tiles.push_back(share);
      }
    }
    byName.try_emplace(var.getName(), index);
    indexOf[var.getResult()] = index;
    result.buffers.push_back(std::move(buffer));
  });
  refs.assign(result.buffers.size(), Refs());
}

void LivenessBuilder::collectRefs() {
  for (const Step &step : result.schedule.steps) {
    int64_t p = step.point;
    auto use = [&](Value v) {
      int32_t b = bufferOf(v);
      for (; b >= 0; b = result.buffers[b].aliasOf)
        refs[b].use(p);
    };
    auto def = [&](Value v) {
      int32_t b = bufferOf(v);
      if (b >= 0)
        result.buffers[storageOf(b)].writers.push_back(p);
      for (; b >= 0; b = result.buffers[b].aliasOf)
        refs[b].def(p);
    };
    Operation *op = step.op;
    if (auto cs = dyn_cast<tile::ComputeSetOp>(op)) {
      llvm::for_each(cs.getIns(), use);
      llvm::for_each(cs.getOuts(), def);
    } else if (auto ex = dyn_cast<tile::ExchangeOp>(op)) {
      use(ex.getSource());
      def(ex.getDest());
    } else if (auto copy = dyn_cast<tile::HostCopyOp>(op)) {
      int32_t b = storageOf(bufferOf(copy.getBuffer()));
      if (b >= 0)
        result.buffers[b].hostExchanged = true;
      if (copy.getDirection() == tile::HostDirection::Infeed)
        def(copy.getBuffer());
      else
        use(copy.getBuffer());
    } else if (auto host = dyn_cast<tile::HostComputeOp>(op)) {
      llvm::for_each(host.getIns(), use);
      llvm::for_each(host.getOuts(), def);
    } else if (auto repeat = dyn_cast<tile::RepeatOp>(op)) {
      use(repeat.getCondition());
    } else if (auto ifOp = dyn_cast<tile::IfOp>(op)) {
      use(ifOp.getPredicate());
    }
  }
}

void LivenessBuilder::computeRanges() {
  int64_t lastPoint = result.numPoints() - 1;
  const std::vector<Step> &steps = result.schedule.steps;
  for (auto [b, buffer] : llvm::enumerate(result.buffers)) {
    tile::Category category = buffer.var.getCategory();
    const Refs &r = refs[b];
    if (category == tile::Category::Constant ||
        category == tile::Category::Parameter) {
      // Loaded with the program / kept resident: live everywhere.
      buffer.alwaysLive = true;
      buffer.first = 0;
      buffer.last = lastPoint;
      continue;
    }
    if (r.lastRef < 0)
      continue; // never referenced: takes no memory
    // Read before any write: its value must be there from the start. An
    // alias is written through its storage.
    int64_t firstDef = r.firstDef;
    if (buffer.aliasOf >= 0)
      firstDef = std::min(firstDef, refs[storageOf(b)].firstDef);
    buffer.first =
        firstDef <= r.firstUse ? std::min(r.firstDef, r.firstUse) : 0;
    buffer.last = category == tile::Category::Output ? lastPoint : r.lastRef;
    // Loops, innermost first (they come later in pre-order): a buffer
    // reaching into or out of a loop body is live for the whole loop, and
    // so is one read in the body before it is written (loop-carried).
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      if (it->kind != StepKind::Repeat)
        continue;
      int64_t lo = it->point, hi = it->endPoint;
      bool overlaps = buffer.first <= hi && lo <= buffer.last;
      bool inside = lo <= buffer.first && buffer.last <= hi;
      bool carried = inside && r.firstUse < r.firstDef && r.firstUse > lo;
      if ((overlaps && !inside) || carried) {
        buffer.first = std::min(buffer.first, lo);
        buffer.last = std::max(buffer.last, hi);
      }
    }
  }
  // A buffer's storage is live while any of its aliases is.
  for (size_t b = 0; b < result.buffers.size(); ++b) {
    BufferLiveness &alias = result.buffers[b];
    if (alias.aliasOf < 0 || !alias.isLive())
      continue;
    BufferLiveness &root = result.buffers[storageOf(b)];
    if (!root.isLive()) {
      root.first = alias.first;
      root.last = alias.last;
    } else {
      root.first = std::min(root.first, alias.first);
      root.last = std::max(root.last, alias.last);
    }
  }
  result.buffersOnTile.assign(result.numTiles, {});
  for (auto [b, buffer] : llvm::enumerate(result.buffers))
    if (buffer.aliasOf < 0 && buffer.isLive())
      for (const TileBytes &share : buffer.tiles)
        result.buffersOnTile[share.tile].push_back(b);
}

void LivenessBuilder::computeOverheads() {
  const ProgramOverheads &o = target.overheads;
  result.overheads.assign(result.numTiles, TileOverheads());
  std::vector<std::set<std::string>> kinds(result.numTiles);
  std::vector<int64_t> lastExchange(result.numTiles, -1);
  for (const Step &step : result.schedule.steps) {
    if (auto cs = dyn_cast<tile::ComputeSetOp>(step.op)) {
      for (int64_t t = cs.getFirstTile();
           t < std::min<int64_t>(cs.getEndTile(), result.numTiles); ++t) {
        kinds[t].insert(cs.getKind().str());
        result.overheads[t].vertexState +=
            cs.getVerticesPerTile() * o.vertexStateBytes;
      }
    } else if (auto ex = dyn_cast<tile::ExchangeOp>(step.op)) {
      auto join = [&](int64_t t) {
        if (t < 0 || t >= result.numTiles || lastExchange[t] == step.point)
          return;
        lastExchange[t] = step.point;
        result.overheads[t].exchangeCode +=
            o.exchangeCodeBytes + o.exchangeStateBytes;
      };
      for (size_t i = 0, e = ex.getNumRuns(); i < e; ++i) {
        tile::ExchangeOp::Run run = ex.getRun(i);
        for (int64_t k = 0; k < run.count; ++k) {
          join(run.srcTile + k);
          join(run.dstTile + k);
        }
      }
    }
  }
  for (int64_t t = 0; t < result.numTiles; ++t) {
    TileOverheads &tile = result.overheads[t];
    tile.vertexCode = kinds[t].size() * o.vertexCodeBytes;
    tile.controlCode = target.reservedBytesPerTile.code;
    tile.stack = target.reservedBytesPerTile.stack;
  }
}

void LivenessBuilder::computeChipCurves() {
  int64_t points = result.numPoints();
  std::vector<int64_t> padded(points + 1, 0), plain(points + 1, 0);
  for (const BufferLiveness &b : result.buffers) {
    if (b.aliasOf >= 0 || !b.isLive())
      continue;
    padded[b.first] += b.paddedBytes;
    padded[b.last + 1] -= b.paddedBytes;
    plain[b.first] += b.bytes;
    plain[b.last + 1] -= b.bytes;
  }
  result.chipLivePadded.assign(points, 0);
  result.chipLiveBytes.assign(points, 0);
  int64_t runPadded = 0, runPlain = 0;
  for (int64_t p = 0; p < points; ++p) {
    runPadded += padded[p];
    runPlain += plain[p];
    result.chipLivePadded[p] = runPadded;
    result.chipLiveBytes[p] = runPlain;
  }

  // The self-check: the sweep against a direct sum of the live buffers, at
  // every point when that is cheap (else at every k-th point), and on each
  // tile at that tile's peak.
  LivenessCheck &check = result.check;
  auto mismatch = [&](const std::string &what) {
    if (check.mismatches++ == 0)
      check.firstMismatch = what;
  };
  int64_t stride = std::max<int64_t>(
      1, (points * static_cast<int64_t>(result.buffers.size())) / 50000000);
  for (int64_t p = 0; p < points; p += stride) {
    int64_t sumPadded = 0, sumPlain = 0;
    for (const BufferLiveness &b : result.buffers)
      if (b.aliasOf < 0 && b.liveAt(p))
        sumPadded += b.paddedBytes, sumPlain += b.bytes;
    ++check.pointsChecked;
    if (sumPadded != result.chipLivePadded[p] ||
        sumPlain != result.chipLiveBytes[p])
      mismatch("chip at point " + std::to_string(p));
  }
  for (int64_t t = 0; t < result.numTiles; ++t) {
    if (result.buffersOnTile[t].empty())
      continue;
    std::vector<int64_t> curve = result.tileCurve(t, /*padded=*/true);
    int64_t peakPoint =
        std::max_element(curve.begin(), curve.end()) - curve.begin();
    int64_t sum = 0;
    for (uint32_t b : result.liveOn(t, peakPoint))
      sum += result.share(b, t)->paddedBytes;
    ++check.pointsChecked;
    if (sum != curve[peakPoint])
      mismatch("tile " + std::to_string(t) + " at point " +
               std::to_string(peakPoint));
  }
}

ProgramLiveness LivenessBuilder::build() {
  result.numTiles = program.getTiles();
  result.schedule = buildSchedule(program);
  collectBuffers();
  collectRefs();
  computeRanges();
  computeOverheads();
  computeChipCurves();
  return std::move(result);
}

ProgramLiveness
tessera::memory::computeLiveness(tile::ProgramOp program,
                                 const TargetDescription &target) {
  return LivenessBuilder(program, target).build();
}

std::vector<int64_t> ProgramLiveness::tileCurve(int64_t tile,
                                                bool padded) const {
  int64_t points = numPoints();
  std::vector<int64_t> curve(points + 1, 0);
  for (uint32_t b : buffersOnTile[tile]) {
    const BufferLiveness &buffer = buffers[b];
    const TileBytes *s = share(b, tile);
    int64_t bytes = padded ? s->paddedBytes : s->bytes;
    curve[buffer.first] += bytes;
    curve[buffer.last + 1] -= bytes;
  }
  curve.pop_back();
  for (int64_t p = 1; p < points; ++p)
    curve[p] += curve[p - 1];
  return curve;
}

std::vector<uint32_t> ProgramLiveness::liveOn(int64_t tile,
                                              int64_t point) const {
  std::vector<uint32_t> live;
  for (uint32_t b : buffersOnTile[tile])
    if (buffers[b].liveAt(point))
      live.push_back(b);
  return live;
}

const TileBytes *ProgramLiveness::share(uint32_t b, int64_t tile) const {
  const std::vector<TileBytes> &tiles = buffers[b].tiles;
  auto it = llvm::partition_point(
      tiles, [&](const TileBytes &s) { return s.tile < tile; });
  return it != tiles.end() && it->tile == tile ? &*it : nullptr;
}
