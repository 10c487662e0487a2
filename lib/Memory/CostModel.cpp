//===- CostModel.cpp - cycles, FLOPs and bytes per step -------------------===//

#include "tessera/Memory/CostModel.h"

#include "tessera/Memory/ExchangeTraffic.h"

#include "tessera/Target/ChipRoutes.h"

#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cmath>
#include <map>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

namespace {

class CostBuilder {
public:
  CostBuilder(const ProgramLiveness &live, const TargetDescription &target)
      : live(live), target(target), routes(target) {
    for (auto [b, buffer] : llvm::enumerate(live.buffers))
      indexOf[buffer.var.getResult()] = b;
  }

  ProgramCost build();

private:
  StepCost computeSet(tile::ComputeSetOp cs);
  StepCost exchange(tile::ExchangeOp ex);
  /// exchange's cost but its op, computed.
  StepCost exchangeCost(tile::ExchangeOp ex, int64_t elementBytes);
  StepCost collective(tile::CollectiveOp c);
  /// Cycles of steps [begin, end] at one nesting level, loops expanded.
  int64_t rangeCycles(int64_t begin, int64_t end, int64_t &unknown);

  const BufferLiveness &buffer(Value v) {
    uint32_t b = indexOf.lookup(v);
    while (live.buffers[b].aliasOf >= 0)
      b = live.buffers[b].aliasOf;
    return live.buffers[b];
  }
  /// Bytes of `v` on tiles [first, end).
  int64_t bytesOn(Value v, int64_t first, int64_t end) {
    int64_t sum = 0;
    forEachRunIn(buffer(v), first, end,
                 [&](const TileShares::Run &run, int64_t tiles) {
                   sum += tiles * run.bytes;
                 });
    return sum;
  }
  /// Calls `fn(run, tiles)` on each run of `b`'s shares that has tiles in
  /// [first, end), with how many: by runs, not tiles, since a step's
  /// buffers span up to every tile of the chip and the steps are many.
  /// The runs are in tile order: those before [first, end) are skipped by
  /// a binary search, and the walk ends at the first one past it (a buffer
  /// read by many compute sets, each on a few of its tiles, had all its
  /// runs walked for each: 156 samples of a 100k-op compile, 3 at 10k).
  template <typename Fn>
  static void forEachRunIn(const BufferLiveness &b, int64_t first, int64_t end,
                           Fn fn) {
    const std::vector<TileShares::Run> &runs = b.tiles.runs();
    for (size_t r = b.tiles.firstRunReaching(first);
         r < runs.size() && runs[r].firstTile < end; ++r) {
      int64_t lo = std::max<int64_t>(runs[r].firstTile, first);
      int64_t hi = std::min<int64_t>(runs[r].endTile(), end);
      if (lo < hi)
        fn(runs[r], hi - lo);
    }
  }
  /// The HLO instruction a step implements: the `hlo` of what it writes,
  /// else its name.
  StringRef opOf(Operation *op, Value written, StringRef name) {
    if (written)
      if (std::optional<StringRef> hlo = buffer(written).var.getHlo())
        return *hlo;
    return name;
  }

  const ProgramLiveness &live;
  const TargetDescription &target;
  ChipRoutes routes;
  llvm::DenseMap<Value, uint32_t> indexOf;
  /// Exchanges priced so far (their cost but the op), by what the traffic
  /// depends on: the copies or the view (attributes), both mappings and the
  /// dest type (uniqued: their addresses name them), and the element size.
  /// A model repeats an op's exchanges on the same layouts many times.
  using ExchangeKey = std::pair<std::array<const void *, 7>, int64_t>;
  std::map<ExchangeKey, StepCost> exchanges;
  static constexpr size_t kMaxRememberedExchanges = 4096;
  ProgramCost result;
};

} // namespace

StepCost CostBuilder::computeSet(tile::ComputeSetOp cs) {
  StepCost cost;
  int64_t first = cs.getFirstTile(), end = cs.getEndTile();
  int64_t tiles = end - first, perTile = cs.getVerticesPerTile();
  Value written = cs.getOuts().empty() ? Value() : cs.getOuts().front();
  cost.op = opOf(cs, written, cs.getName());
  for (Value v : cs.getIns())
    cost.bytesMoved += bytesOn(v, first, end);
  for (Value v : cs.getOuts())
    cost.bytesMoved += bytesOn(v, first, end);
  auto flopsAttr = cs->getAttrOfType<IntegerAttr>("flops");
  StringRef kind = cs.getKind();
  Value work = kind.starts_with("reduce") && !cs.getIns().empty()
                   ? cs.getIns().front()
               : written             ? written
               : cs.getIns().empty() ? Value()
                                     : cs.getIns().front();
  std::string dtype = work ? buffer(work).dtype : "f32";

  auto block = cs->getAttrOfType<DenseI64ArrayAttr>("block");
  bool matrix = block && block.size() == 4 &&
                llvm::is_contained(target.matrixUnit.dtypes, dtype) &&
                target.matrixUnit.macsPerCycle() > 0;
  if (matrix) {
    // block = [batch, m, n, k] of one vertex.
    ArrayRef<int64_t> b = block.asArrayRef();
    cost.unit = "matrix";
    cost.fit = std::make_shared<const MatmulFit>(
        matmulFit(b[0], b[1], b[2], b[3], target.matrixUnit));
    int64_t vertices = tiles * perTile;
    cost.cycles =
        perTile * cost.fit->paddedMacs() / target.matrixUnit.macsPerCycle();
    cost.flops =
        flopsAttr ? flopsAttr.getInt() : 2 * cost.fit->usefulMacs() * vertices;
    cost.paddedFlops = 2 * cost.fit->paddedMacs() * vertices;
    // A ragged grid's last row and column of blocks are smaller (`edge`):
    // each kind of block counts on its own, so padded FLOPs stay exact.
    auto edge = cs->getAttrOfType<DenseI64ArrayAttr>("edge");
    auto grid = cs->getAttrOfType<DenseI64ArrayAttr>("grid");
    if (edge && edge.size() == 2 && grid && grid.size() == 4 &&
        grid[0] * grid[1] * grid[2] * grid[3] == tiles) {
      int64_t padded = 0;
      for (bool lastM : {false, true})
        for (bool lastN : {false, true}) {
          int64_t count = grid[0] * grid[1] * (lastM ? 1 : grid[2] - 1) *
                          (lastN ? 1 : grid[3] - 1);
          padded +=
              count * matmulFit(b[0], lastM ? edge[0] : b[1],
                                lastN ? edge[1] : b[2], b[3], target.matrixUnit)
                          .paddedMacs();
        }
      cost.paddedFlops = 2 * padded * perTile;
    }
    return cost;
  }
  // The vector unit: each tile's elements of the work buffer, in vectors.
  cost.unit = "vector";
  int64_t width = std::max<int64_t>(1, target.vectorWidthFor(dtype));
  bool counts = kind.starts_with("elementwise") || kind.starts_with("reduce");
  int64_t elements = 0, padded = 0;
  if (work)
    forEachRunIn(buffer(work), first, end,
                 [&](const TileShares::Run &run, int64_t tiles) {
                   int64_t vectors = ceilDiv(run.elements, width);
                   cost.cycles = std::max(cost.cycles, vectors);
                   elements += tiles * run.elements;
                   padded += tiles * vectors * width;
                 });
  if (flopsAttr) {
    // A vertex that states its FLOPs (a convolution partial): the vector
    // unit does them at its width.
    cost.flops = flopsAttr.getInt();
    int64_t perTileFlops = ceilDiv(cost.flops, std::max<int64_t>(1, tiles));
    cost.cycles = ceilDiv(perTileFlops, width);
    cost.paddedFlops = cost.cycles * width * tiles;
  } else if (counts) {
    cost.flops = elements;
    cost.paddedFlops = padded;
  }
  return cost;
}

StepCost CostBuilder::exchange(tile::ExchangeOp ex) {
  int64_t elementBytes = buffer(ex.getSource()).elementBytes;
  auto mapping = [](Value v) {
    auto var = v.getDefiningOp<tile::VarOp>();
    return var ? var.getMapping().getAsOpaquePointer() : v.getAsOpaquePointer();
  };
  ExchangeKey key = {{ex.getCopiesAttr().getAsOpaquePointer(),
                      ex.getStridedAttr().getAsOpaquePointer(),
                      ex.getViewStridesAttr().getAsOpaquePointer(),
                      ex.getViewOffsetAttr().getAsOpaquePointer(),
                      mapping(ex.getSource()), mapping(ex.getDest()),
                      ex.getDest().getType().getAsOpaquePointer()},
                     elementBytes};
  // Bounded: most exchanges are one-offs, which need not stay; a repeated
  // layer's come back soon after.
  auto it = exchanges.find(key);
  if (it == exchanges.end()) {
    if (exchanges.size() >= kMaxRememberedExchanges)
      exchanges.clear();
    it = exchanges.try_emplace(key, exchangeCost(ex, elementBytes)).first;
  }
  StepCost cost = it->second;
  cost.op = opOf(ex, ex.getDest(), ex.getName());
  return cost;
}

StepCost CostBuilder::exchangeCost(tile::ExchangeOp ex, int64_t elementBytes) {
  StepCost cost;
  cost.unit = "exchange";
  ExchangeTraffic traffic =
      exchangeTraffic(ex, elementBytes, target.tilesPerChip);
  cost.bytesMoved = traffic.bytesMoved;
  // A view too large to walk is priced by what each tile receives (exact;
  // the senders are unknown), a lower bound; the execution report names
  // view exchanges when they are where the estimate is off.
  int64_t busiest = 0;
  for (auto &[t, bytes] : traffic.sent)
    busiest = std::max(busiest, bytes);
  for (auto &[t, bytes] : traffic.received)
    busiest = std::max(busiest, bytes);
  cost.cycles =
      target.exchange.latencyCycles +
      ceilDiv(busiest,
              std::max<int64_t>(1, target.exchange.bandwidthBytesPerCycle));
  if (traffic.chipBytes.empty())
    return cost;
  // Every chip pair's bytes go along its route; the busiest link direction
  // and the longest route's latency bound the step.
  cost.unit = "inter-chip";
  for (auto &[pair, bytes] : traffic.chipBytes) {
    cost.interChipBytes += bytes;
    cost.chipBytes.push_back({pair.first, pair.second, bytes});
  }
  cost.cycles =
      std::max(cost.cycles, routes.interChipCycles(traffic.chipBytes));
  return cost;
}

StepCost CostBuilder::collective(tile::CollectiveOp c) {
  StepCost cost;
  cost.unit = "collective";
  cost.op = opOf(c, c.getDest(), c.getName());
  auto program = c->getParentOfType<tile::ProgramOp>();
  int64_t chipsPerReplica = program ? program.getChips() : 1;
  int64_t source = buffer(c.getSource()).bytes;
  int64_t dest = buffer(c.getDest()).bytes;
  int64_t n = c.getGroupSize();
  CollectiveRoutes routed = collectiveRoutes(c, chipsPerReplica);
  if (c.getKind() == tile::CollectiveKind::Permute) {
    for (auto [from, to] : routed.pairs) {
      cost.cycles = std::max(cost.cycles, routes.copyCycles(from, to, source));
      if (from != to)
        cost.interChipBytes += source;
    }
    cost.bytesMoved = cost.interChipBytes;
    return cost;
  }
  int64_t rounds =
      c.getKind() == tile::CollectiveKind::AllReduce ? 2 * (n - 1) : n - 1;
  // The block each member passes on in a round: 1/n of the buffer for the
  // reductions, the whole source for a gather.
  int64_t block = c.getKind() == tile::CollectiveKind::AllGather ? source
                  : c.getKind() == tile::CollectiveKind::ReduceScatter
                      ? dest
                      : (source + n - 1) / std::max<int64_t>(n, 1);
  for (const std::vector<int64_t> &ring : routed.rings)
    cost.cycles = std::max(cost.cycles, routes.ringCycles(ring, rounds, block));
  // What one replica sends over its links.
  cost.interChipBytes = rounds * block;
  cost.bytesMoved = cost.interChipBytes;
  return cost;
}

int64_t CostBuilder::rangeCycles(int64_t begin, int64_t end, int64_t &unknown) {
  const std::vector<Step> &steps = live.schedule.steps;
  int64_t total = 0;
  for (int64_t p = begin; p <= end;) {
    const Step &step = steps[p];
    if (auto repeat = dyn_cast<tile::RepeatOp>(step.op)) {
      int64_t trips = repeat.getTripCount();
      if (trips < 0)
        ++unknown, trips = 1;
      total += trips * rangeCycles(p + 1, step.endPoint, unknown);
    } else if (auto ifOp = dyn_cast<tile::IfOp>(step.op)) {
      // Then steps come first; the else body starts at its first step.
      int64_t split = step.endPoint + 1;
      for (int64_t q = p + 1; q <= step.endPoint; ++q)
        if (steps[q].parent == p &&
            steps[q].op->getParentRegion() == &ifOp.getElseBody()) {
          split = q;
          break;
        }
      total += std::max(rangeCycles(p + 1, split - 1, unknown),
                        rangeCycles(split, step.endPoint, unknown));
    } else {
      total += result.steps[p].cycles;
    }
    p = step.endPoint + 1;
  }
  return total;
}

ProgramCost CostBuilder::build() {
  // Exact size: doubling held up to twice the steps' costs at the peak.
  result.steps.reserve(live.schedule.steps.size());
  for (const Step &step : live.schedule.steps) {
    StepCost cost;
    if (auto cs = dyn_cast<tile::ComputeSetOp>(step.op)) {
      cost = computeSet(cs);
    } else if (auto ex = dyn_cast<tile::ExchangeOp>(step.op)) {
      cost = exchange(ex);
    } else if (auto coll = dyn_cast<tile::CollectiveOp>(step.op)) {
      cost = collective(coll);
    } else if (isa<tile::SyncOp>(step.op)) {
      cost.unit = "sync";
      cost.op = "sync";
      cost.cycles = target.syncCycles;
    } else if (auto copy = dyn_cast<tile::HostCopyOp>(step.op)) {
      cost.unit = "host";
      cost.op =
          opOf(copy, copy.getBuffer(), buffer(copy.getBuffer()).var.getName());
      cost.bytesMoved = buffer(copy.getBuffer()).bytes;
      double bytesPerCycle =
          static_cast<double>(target.hostLink.bandwidthBytesPerSecond) /
          std::max<int64_t>(1, target.clockHz);
      cost.cycles = target.hostLink.latencyCycles +
                    static_cast<int64_t>(std::ceil(
                        cost.bytesMoved / std::max(bytesPerCycle, 1e-9)));
    } else if (auto host = dyn_cast<tile::HostComputeOp>(step.op)) {
      // Time on the host is not the chip's; the copies around it are.
      cost.unit = "host";
      cost.op = host.getName();
      for (Value v : host.getIns())
        cost.bytesMoved += buffer(v).bytes;
      for (Value v : host.getOuts())
        cost.bytesMoved += buffer(v).bytes;
    } else {
      cost.unit = "control";
      cost.op = namedStepName(step);
    }
    result.steps.push_back(std::move(cost));
  }
  if (!live.schedule.steps.empty())
    result.totalCycles =
        rangeCycles(0, live.schedule.numPoints() - 1, result.unknownTripCounts);
  result.seconds = static_cast<double>(result.totalCycles) /
                   std::max<int64_t>(1, target.clockHz);
  return std::move(result);
}

ProgramCost tessera::memory::estimateCost(const ProgramLiveness &liveness,
                                          const TargetDescription &target) {
  return CostBuilder(liveness, target).build();
}

CollectiveRoutes tessera::memory::collectiveRoutes(tile::CollectiveOp c,
                                                   int64_t chipsPerReplica) {
  CollectiveRoutes r;
  if (c.getKind() == tile::CollectiveKind::Permute) {
    ArrayRef<int64_t> pairs =
        c.getPairs() ? *c.getPairs() : ArrayRef<int64_t>();
    for (size_t i = 0; i + 1 < pairs.size(); i += 2)
      r.pairs.push_back(
          {pairs[i] * chipsPerReplica, pairs[i + 1] * chipsPerReplica});
    return r;
  }
  int64_t n = c.getGroupSize();
  ArrayRef<int64_t> groups = c.getGroups();
  for (size_t g = 0; n > 0 && g + n <= groups.size(); g += n) {
    std::vector<int64_t> &ring = r.rings.emplace_back();
    for (int64_t d : groups.slice(g, n))
      ring.push_back(d * chipsPerReplica);
  }
  return r;
}
