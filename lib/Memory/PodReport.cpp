//===- PodReport.cpp - a multi-chip program, chip by chip -----------------===//

#include "tessera/Memory/PodReport.h"

#include "tessera/Memory/CostModel.h"

#include "tessera/Target/ChipRoutes.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

static std::string kindOfUnit(StringRef unit) {
  if (unit == "matrix" || unit == "vector")
    return "compute";
  if (unit == "inter-chip")
    return "inter_chip";
  return unit.str();
}

PodReport tessera::memory::buildPodReport(const MemoryAnalysis &a) {
  const TargetDescription &target = a.target;
  const ProgramLiveness &live = a.liveness;
  PodReport r;
  r.target = target.name;
  r.systemChips = target.chips;
  r.tilesPerChip = std::max<int64_t>(target.tilesPerChip, 1);
  int64_t T = r.tilesPerChip;
  tile::ProgramOp program;
  if (!live.schedule.steps.empty())
    program =
        live.schedule.steps.front().op->getParentOfType<tile::ProgramOp>();
  if (program) {
    r.chips = program.getChips();
    r.replicas = program.getReplicas();
    if (program.getPlacement())
      r.placement = program.getPlacement()->str();
  } else {
    r.chips = std::max<int64_t>(1, live.numTiles / T);
  }

  // Memory per chip.
  r.perChip.resize(r.chips);
  for (auto [c, chip] : llvm::enumerate(r.perChip)) {
    chip.chip = c;
    chip.maxTile = c * T;
  }
  for (int64_t t = 0; t < int64_t(a.tiles.size()); ++t) {
    int64_t c = std::min<int64_t>(t / T, r.chips - 1);
    PodChip &chip = r.perChip[c];
    const TileAllocation &tile = a.tiles[t];
    int64_t bytes = tile.includingGaps();
    if (!live.buffersOnTile[t].empty())
      ++chip.tilesUsed;
    chip.bytes += bytes;
    if (bytes > chip.maxTileBytes) {
      chip.maxTileBytes = bytes;
      chip.maxTile = t;
    }
    chip.tilesOutOfMemory += tile.outOfMemory();
    size_t bucket = bytes / (64 * 1024);
    if (chip.histogram.size() <= bucket)
      chip.histogram.resize(bucket + 1, 0);
    ++chip.histogram[bucket];
  }

  // Steps per chip, and what the links carry.
  ChipRoutes routes(target);
  ChipRoutes::LinkBytes linkBytes;
  auto carry = [&](int64_t from, int64_t to, int64_t bytes) {
    if (from != to && from < target.chips && to < target.chips)
      routes.addRouteBytes(from, to, bytes, linkBytes);
  };
  llvm::DenseMap<Value, const BufferLiveness *> bufferOf;
  for (const BufferLiveness &b : live.buffers)
    bufferOf[b.var.getResult()] = &b;
  auto chipsOfBuffer = [&](Value v, std::set<int64_t> &chips) {
    if (const BufferLiveness *b = bufferOf.lookup(v))
      for (const TileBytes &tb : b->tiles)
        chips.insert(std::min<int64_t>(tb.tile / T, r.chips - 1));
  };
  for (auto [point, step] : llvm::enumerate(live.schedule.steps)) {
    const StepCost &cost = a.cost.steps[point];
    if (cost.unit == "control" || cost.unit.empty())
      continue;
    std::set<int64_t> chips;
    Operation *op = step.op;
    if (auto cs = dyn_cast<tile::ComputeSetOp>(op)) {
      for (int64_t c = int64_t(cs.getFirstTile()) / T,
                   last = (int64_t(cs.getEndTile()) - 1) / T;
           c <= last; ++c)
        chips.insert(std::min<int64_t>(c, r.chips - 1));
    } else if (auto ex = dyn_cast<tile::ExchangeOp>(op)) {
      for (size_t i = 0, e = ex.getNumRuns(); i < e; ++i) {
        tile::ExchangeOp::Run run = ex.getRun(i);
        for (int64_t k = 0; k < run.count; ++k) {
          chips.insert(std::min<int64_t>(run.srcTileOf(k) / T, r.chips - 1));
          chips.insert(std::min<int64_t>(run.dstTileOf(k) / T, r.chips - 1));
        }
      }
      if (ex.isView()) {
        chipsOfBuffer(ex.getSource(), chips);
        chipsOfBuffer(ex.getDest(), chips);
      }
      // The cost model's traffic, views included (ExchangeTraffic.h).
      for (const StepCost::ChipPairBytes &p : cost.chipBytes)
        carry(p.from, p.to, p.bytes);
    } else if (auto copy = dyn_cast<tile::HostCopyOp>(op)) {
      chipsOfBuffer(copy.getBuffer(), chips);
    } else {
      // Syncs, host ops and collectives hold every chip.
      for (int64_t c = 0; c < r.chips; ++c)
        chips.insert(c);
    }
    for (int64_t c : chips)
      r.perChip[c].cycles[kindOfUnit(cost.unit)] += cost.cycles;

    auto coll = dyn_cast<tile::CollectiveOp>(op);
    if (!coll)
      continue;
    PodCollective pc;
    pc.step = coll.getName().str();
    pc.kind = tile::stringifyCollectiveKind(coll.getKind()).str();
    pc.groupSize = coll.getGroupSize();
    pc.bytes = cost.interChipBytes;
    pc.cycles = cost.cycles;
    r.collectives.push_back(pc);
    // The ring: each member sends its rounds' blocks to the next member's
    // first chip; a permute, each pair's source whole.
    CollectiveRoutes routed = collectiveRoutes(coll, r.chips);
    if (coll.getKind() == tile::CollectiveKind::Permute) {
      const BufferLiveness *source = bufferOf.lookup(coll.getSource());
      int64_t bytes = source ? source->bytes : 0;
      for (auto [from, to] : routed.pairs)
        carry(from, to, bytes);
      continue;
    }
    for (const std::vector<int64_t> &ring : routed.rings)
      for (size_t i = 0; ring.size() > 1 && i < ring.size(); ++i)
        carry(ring[i], ring[(i + 1) % ring.size()], cost.interChipBytes);
  }
  for (auto [i, link] : llvm::enumerate(target.chipLinks)) {
    PodLink l;
    l.link = i;
    l.chipA = link.chipA;
    l.chipB = link.chipB;
    l.bytesAToB = linkBytes[{int64_t(i), link.chipA}];
    l.bytesBToA = linkBytes[{int64_t(i), link.chipB}];
    l.busyCycles = static_cast<int64_t>(std::ceil(
        std::max(l.bytesAToB, l.bytesBToA) / routes.linkBytesPerCycle(i)));
    r.links.push_back(l);
  }
  return r;
}
