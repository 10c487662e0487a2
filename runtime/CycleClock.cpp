//===- CycleClock.cpp - The model device's cycle count --------------------===//

#include "tessera/Runtime/CycleClock.h"

#include "tessera/Target/ChipRoutes.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace llvm;

namespace tessera::runtime {

StepListener::~StepListener() = default;

CycleClock::CycleClock(const Program &program, ProfileLevel level)
    : program(program), lvl(level), computeRates(program.target()) {
  if (lvl != ProfileLevel::Device)
    perTile.resize(program.numTiles());
  // An exchange's cost depends on the layouts only: count every one now,
  // with the load, so the runs pay only for adding it up. (A view's walks
  // every element, like running it.)
  std::function<void(const google::protobuf::RepeatedPtrField<exe::Step> &)>
      walk = [&](const auto &steps) {
        for (const exe::Step &s : steps) {
          if (s.has_exchange())
            exchangeCost(s.exchange());
          else if (s.has_repeat())
            walk(s.repeat().body());
          else if (s.has_if_step()) {
            walk(s.if_step().then_body());
            walk(s.if_step().else_body());
          }
        }
      };
  walk(program.executable().steps());
}

CycleClock::~CycleClock() = default;

void CycleClock::beginRun() {
  now = 0;
  syncAll = 0;
  stepTotals.clear();
  std::fill(perTile.begin(), perTile.end(), TileTotals());
}

MutableArrayRef<TileWork> CycleClock::workSlots(int64_t tiles) {
  if (static_cast<int64_t>(slots.size()) < tiles)
    slots.resize(tiles);
  std::fill(slots.begin(), slots.begin() + tiles, TileWork());
  return MutableArrayRef<TileWork>(slots).take_front(tiles);
}

void CycleClock::finishStep(const exe::Step &step, int64_t cycles,
                            StepTotals delta, StepInterval interval) {
  StepTotals &t = stepTotals[&step];
  ++t.executions;
  t.cycles += cycles;
  t.flops += delta.flops;
  t.bytes += delta.bytes;
  t.hostNs += delta.hostNs;
  t.activeTiles = std::max(t.activeTiles, delta.activeTiles);
  if (listener) {
    interval.step = &step;
    interval.start = now;
    interval.cycles = cycles;
    interval.flops = delta.flops;
    interval.bytes = delta.bytes;
    listener->stepRan(interval);
  }
  now += cycles;
}

void CycleClock::computeSetRan(const exe::Step &step) {
  const exe::ComputeSet &cs = step.compute_set();
  int64_t first = cs.first_tile(), n = cs.end_tile() - first;
  int64_t slowest = 0, active = 0, flops = 0;
  for (int64_t i = 0; i < n; ++i) {
    slowest = std::max(slowest, slots[i].cycles);
    flops += slots[i].flops;
    active += slots[i].cycles > 0;
  }
  // A tile that finishes early waits for the slowest one at the next sync.
  if (!perTile.empty())
    for (int64_t i = 0; i < n; ++i) {
      TileTotals &t = perTile[first + i];
      t.compute += slots[i].cycles;
      if (slots[i].cycles > 0)
        t.sync += slowest - slots[i].cycles;
    }
  StepTotals delta;
  delta.flops = flops;
  delta.activeTiles = active;
  StepInterval interval;
  interval.computing = active;
  interval.firstTile = first;
  interval.work = ArrayRef<TileWork>(slots).take_front(n);
  finishStep(step, slowest, delta, interval);
}

const CycleClock::ExchangeCost &
CycleClock::exchangeCost(const exe::Exchange &x) {
  std::unique_ptr<ExchangeCost> &cached = exchanges[&x];
  if (cached)
    return *cached;
  cached = std::make_unique<ExchangeCost>();
  const BufferLayout &src = program.buffer(x.source());
  const BufferLayout &dst = program.buffer(x.dest());
  int64_t eb = dst.elementBytes;
  DenseMap<int64_t, int64_t> sent, received;
  // Copies between tiles of different chips go over the links. The
  // compiler's cost model counts the same bytes (ExchangeTraffic.h), so
  // the two agree on every exchange but a view too large for it to walk.
  std::map<std::pair<int64_t, int64_t>, int64_t> chipBytes;
  int64_t perChip = std::max<int64_t>(program.target().tilesPerChip, 1);
  if (!x.is_view()) {
    // Runs: [src tile, dst tile, count, length, ...], `count` copies of
    // `length` elements between tile pairs (consecutive unless strided).
    CopyRuns runs = program.copyRuns(x);
    for (int64_t i = 0, e = runs.numRuns(); i < e; ++i) {
      const int64_t *c = runs.run(i);
      RunStrides h = runs.stridesOf(i);
      for (int64_t k = 0; k < c[2]; ++k) {
        int64_t st = c[0] + k * h.srcTileStep, dt = c[1] + k * h.dstTileStep;
        sent[st] += c[3] * eb;
        received[dt] += c[3] * eb;
        int64_t from = st / perChip, to = dt / perChip;
        if (from != to)
          chipBytes[{from, to}] += c[3] * eb;
      }
    }
  } else {
    // A view reads any source element: count them by their tile.
    ArrayRef<int64_t> strides(x.view_strides().data(), x.view_strides_size());
    ArrayRef<int64_t> shape = dst.shape;
    int64_t rank = shape.size();
    SmallVector<int64_t, 8> idx(rank);
    for (const TileShare &to : dst.shares)
      for (const Interval &iv : to.intervals) {
        received[to.tile] += (iv.end - iv.begin) * eb;
        int64_t rest = iv.begin, element = x.view_offset();
        for (int64_t d = rank - 1; d >= 0; --d) {
          idx[d] = rest % shape[d];
          rest /= shape[d];
          element += idx[d] * strides[d];
        }
        // Bytes are added up per run of the source: one map update a run,
        // not one an element.
        const ElementRun *run = nullptr;
        int64_t runBytes = 0;
        // A run from another chip crosses the links, as a listed copy's.
        auto flush = [&] {
          int64_t from = src.shares[run->share].tile;
          sent[from] += runBytes;
          if (from / perChip != to.tile / perChip)
            chipBytes[{from / perChip, to.tile / perChip}] += runBytes;
        };
        for (int64_t e = iv.begin; e < iv.end; ++e) {
          if (!run || element < run->begin || element >= run->end) {
            if (run)
              flush();
            run = &src.runOf(element);
            runBytes = 0;
          }
          runBytes += eb;
          for (int64_t d = rank - 1; d >= 0; --d) {
            element += strides[d];
            if (++idx[d] < shape[d])
              break;
            element -= strides[d] * shape[d];
            idx[d] = 0;
          }
        }
        if (run)
          flush();
      }
  }
  const ExchangeSpec &fabric = program.target().exchange;
  int64_t bandwidth = std::max<int64_t>(1, fabric.bandwidthBytesPerCycle);
  DenseMap<int64_t, int64_t> busiest;
  for (auto &[tile, bytes] : sent) {
    busiest[tile] = std::max(busiest[tile], bytes);
    cached->bytes += bytes;
  }
  for (auto &[tile, bytes] : received)
    busiest[tile] = std::max(busiest[tile], bytes);
  for (auto &[tile, bytes] : busiest) {
    int64_t c = fabric.latencyCycles + vectorCycles(bytes, bandwidth);
    cached->tileCycles.push_back({tile, c});
    cached->cycles = std::max(cached->cycles, c);
  }
  if (!chipBytes.empty())
    cached->cycles =
        std::max(cached->cycles,
                 ChipRoutes(program.target()).interChipCycles(chipBytes));
  llvm::sort(cached->tileCycles);
  return *cached;
}

void CycleClock::exchangeRan(const exe::Step &step) {
  const ExchangeCost &cost = exchangeCost(step.exchange());
  if (!perTile.empty())
    for (auto [tile, c] : cost.tileCycles) {
      perTile[tile].exchange += c;
      perTile[tile].sync += cost.cycles - c;
    }
  StepTotals delta;
  delta.bytes = cost.bytes;
  delta.activeTiles = cost.tileCycles.size();
  StepInterval interval;
  interval.exchanging = delta.activeTiles;
  interval.exchangeTiles = cost.tileCycles;
  finishStep(step, cost.cycles, delta, interval);
}

void CycleClock::collectiveRan(const exe::Step &step, int64_t waitCycles) {
  // The wait is a barrier: every tile syncs through it.
  waitCycles = std::max<int64_t>(0, waitCycles);
  syncAll += waitCycles;
  int64_t c = waitCycles + step.estimate().cycles();
  StepTotals delta;
  delta.bytes = step.estimate().bytes();
  delta.activeTiles = program.numTiles();
  StepInterval interval;
  interval.exchanging = program.numTiles();
  finishStep(step, c, delta, interval);
}

void CycleClock::syncRan(const exe::Step &step) {
  int64_t c = program.target().syncCycles;
  syncAll += c;
  StepTotals delta;
  delta.activeTiles = program.numTiles();
  StepInterval interval;
  interval.syncing = program.numTiles();
  finishStep(step, c, delta, interval);
}

void CycleClock::hostCopyRan(const exe::Step &step, int64_t bytes) {
  const TargetDescription &t = program.target();
  double bytesPerCycle =
      static_cast<double>(t.hostLink.bandwidthBytesPerSecond) /
      std::max<int64_t>(1, t.clockHz);
  int64_t c = t.hostLink.latencyCycles +
              static_cast<int64_t>(
                  std::ceil(bytes / std::max(bytesPerCycle, 1e-9)));
  StepTotals delta;
  delta.bytes = bytes;
  finishStep(step, c, delta, StepInterval());
}

void CycleClock::hostComputeRan(const exe::Step &step, int64_t wallNs) {
  int64_t c = static_cast<int64_t>(std::ceil(
      static_cast<double>(wallNs) * program.target().clockHz / 1e9));
  StepTotals delta;
  delta.hostNs = wallNs;
  finishStep(step, c, delta, StepInterval());
}

std::vector<TileTotals> CycleClock::tiles() const {
  std::vector<TileTotals> out = perTile;
  for (TileTotals &t : out)
    t.sync += syncAll;
  return out;
}

} // namespace tessera::runtime
