//===- ExecutionReport.cpp - What a profiled run cost ---------------------===//

#include "tessera/Runtime/ExecutionReport.h"

#include "tessera/Support/TextReport.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using json = nlohmann::ordered_json;

namespace tessera::runtime {

StringRef profileLevelName(ProfileLevel level) {
  switch (level) {
  case ProfileLevel::Device:
    return "device";
  case ProfileLevel::Chip:
    return "chip";
  case ProfileLevel::Tile:
    return "tile";
  }
  return "device";
}

StringRef stepKindName(const exe::Step &step) {
  switch (step.kind_case()) {
  case exe::Step::kComputeSet:
    return "compute_set";
  case exe::Step::kExchange:
    return "exchange";
  case exe::Step::kSync:
    return "sync";
  case exe::Step::kHostCopy:
    return "host_copy";
  case exe::Step::kHostCompute:
    return "host_compute";
  case exe::Step::kRepeat:
    return "repeat";
  case exe::Step::kIfStep:
    return "if";
  case exe::Step::kCollective:
    return "collective";
  case exe::Step::KIND_NOT_SET:
    break;
  }
  return "none";
}

int32_t graphOpOf(const exe::Executable &e, const exe::Step &step) {
  int32_t k = step.op_plus_one() - 1;
  if (k < 0 || k >= e.ops_size() || step.has_host_copy() || step.has_sync())
    return -1;
  return k;
}

namespace {

/// Walks the program once in order, with what the compiler knew of how
/// often each step runs.
struct StaticWalk {
  struct Visit {
    const exe::Step *step;
    int64_t multiplicity; ///< known trip counts multiplied
    bool unknownTrips;    ///< inside a loop whose trip count is data's
    bool conditional;     ///< inside a branch
  };
  std::vector<Visit> visits;

  void walk(const google::protobuf::RepeatedPtrField<exe::Step> &steps,
            int64_t mult, bool unknown, bool cond) {
    for (const exe::Step &s : steps) {
      visits.push_back({&s, mult, unknown, cond});
      if (s.has_repeat()) {
        int64_t trips = s.repeat().trip_count();
        walk(s.repeat().body(), trips >= 0 ? mult * trips : mult,
             unknown || trips < 0, cond);
      } else if (s.has_if_step()) {
        walk(s.if_step().then_body(), mult, unknown, true);
        walk(s.if_step().else_body(), mult, unknown, true);
      }
    }
  }
};

/// Peak FLOPs per cycle of the whole chip on `unit`.
double peakPerCycle(const TargetDescription &t, StringRef unit,
                    int64_t tiles) {
  if (unit == "matrix")
    return 2.0 * t.matrixUnit.macsPerCycle() * tiles;
  return static_cast<double>(std::max<int64_t>(1, t.vectorWidthFor("f32"))) *
         tiles;
}

} // namespace

ExecutionReport buildExecutionReport(const Program &program,
                                     const CycleClock &clock,
                                     std::vector<RunTime> runs) {
  const exe::Executable &e = program.executable();
  const TargetDescription &t = program.target();
  ExecutionReport r;
  r.module = e.module_name();
  r.target = t.name;
  r.level = clock.level();
  // The chips one device of the program spans: a replica's, not the
  // pod's (the others run the other replicas).
  r.chips = program.chips();
  r.tilesPerChip = t.tilesPerChip;
  r.tiles = program.numTiles();
  r.clockHz = t.clockHz;
  r.vectorPeak = peakPerCycle(t, "vector", r.tiles);
  r.matrixPeak = peakPerCycle(t, "matrix", r.tiles);
  r.cycles = clock.cycles();
  r.seconds = static_cast<double>(r.cycles) / std::max<int64_t>(1, t.clockHz);
  r.run = runs.empty() ? 0 : runs.back().run;
  r.runs = std::move(runs);

  StaticWalk walk;
  walk.walk(e.steps(), 1, false, false);
  std::vector<ExecutionReport::Op> ops(e.ops_size());
  std::vector<bool> unknownTrips(ops.size()), conditional(ops.size()),
      host(ops.size()), matrix(ops.size());
  // Per op: how far its steps' counts are from their estimates, by cause.
  std::vector<int64_t> viewOff(ops.size()), workOff(ops.size());
  for (auto [i, g] : llvm::enumerate(e.ops())) {
    ExecutionReport::Op &op = ops[i];
    op.hlo = g.hlo();
    op.opName = g.op_name();
    op.opType = g.op_type();
    op.kind = g.kind();
    op.category = g.category();
    op.source = g.source();
  }
  const auto &totals = clock.steps();
  for (const StaticWalk::Visit &v : walk.visits) {
    const exe::Step &s = *v.step;
    auto it = totals.find(&s);
    StepTotals measured = it == totals.end() ? StepTotals() : it->second;
    r.flops += measured.flops;
    if (s.has_host_copy() || s.has_host_compute())
      r.hostCycles += measured.cycles;
    if (r.level != ProfileLevel::Device && !s.has_repeat() &&
        !s.has_if_step()) {
      ExecutionReport::Step step;
      step.name = s.name();
      step.kind = stepKindName(s).str();
      step.location = s.location();
      if (s.op_plus_one() > 0 && s.op_plus_one() <= e.ops_size())
        step.op = e.ops(s.op_plus_one() - 1).hlo();
      step.executions = measured.executions;
      step.cycles = measured.cycles;
      step.activeTiles = measured.activeTiles;
      step.predictedCycles = s.estimate().cycles();
      r.steps.push_back(std::move(step));
    }
    // Transfers and syncs show in the totals and the steps only.
    int32_t k = graphOpOf(e, s);
    if (k < 0)
      continue;
    ExecutionReport::Op &op = ops[k];
    op.steps += measured.executions;
    op.cycles += measured.cycles;
    op.flops += measured.flops;
    op.bytes += measured.bytes;
    op.predictedCycles += v.multiplicity * s.estimate().cycles();
    int64_t off = std::abs(measured.cycles -
                           measured.executions * s.estimate().cycles());
    (s.has_exchange() && s.exchange().is_view() ? viewOff : workOff)[k] += off;
    unknownTrips[k] = unknownTrips[k] || v.unknownTrips;
    conditional[k] = conditional[k] || v.conditional;
    host[k] = host[k] || s.has_host_compute();
    if (s.estimate().unit() == "matrix")
      matrix[k] = true;
    if (!s.estimate().fit().empty() && op.fit.empty())
      op.fit = s.estimate().fit();
    if (op.unit.empty() && s.has_compute_set())
      op.unit = s.estimate().unit();
  }
  for (auto [k, op] : llvm::enumerate(ops)) {
    if (op.steps == 0 && op.predictedCycles == 0)
      continue;
    if (matrix[k])
      op.unit = "matrix";
    else if (op.unit.empty())
      op.unit = host[k] ? "host" : op.flops ? "vector" : "exchange";
    double seconds =
        static_cast<double>(op.cycles) / std::max<int64_t>(1, t.clockHz);
    op.flopsPerSecond = seconds > 0 ? op.flops / seconds : 0;
    double peak = peakPerCycle(t, op.unit, r.tiles);
    op.utilization =
        op.cycles > 0 && peak > 0 ? op.flops / (op.cycles * peak) : 0;
    if (op.predictedCycles > 0)
      op.error = static_cast<double>(op.cycles - op.predictedCycles) /
                 op.predictedCycles;
    else if (op.cycles > 0)
      op.error = 1;
    if (std::abs(op.error) > 0.10) {
      if (host[k])
        op.why = "runs on the host: the estimate has no host time, the run "
                 "measured the host's wall time";
      else if (unknownTrips[k])
        op.why = "data-dependent trip count: the estimate counts one trip";
      else if (conditional[k])
        op.why = "in a conditional: the estimate counts every branch, the "
                 "run took one";
      else if (viewOff[k] > workOff[k])
        op.why = "view exchanges: the estimate prices a view too large to "
                 "walk by the bytes each tile receives only, the device the "
                 "bytes each tile sent and received";
      else
        op.why = "the vertices' work differs from the estimate's (uneven "
                 "blocks, vector widths, sort comparisons)";
    }
    r.ops.push_back(std::move(op));
  }
  llvm::stable_sort(r.ops, [](const auto &a, const auto &b) {
    return a.cycles > b.cycles;
  });

  if (r.level != ProfileLevel::Device) {
    std::vector<TileTotals> tiles = clock.tiles();
    r.chipCycles.resize(std::max<int64_t>(1, r.chips));
    for (auto [i, tt] : llvm::enumerate(tiles)) {
      ExecutionReport::Breakdown b{tt.compute, tt.exchange, tt.sync,
                                   r.cycles - tt.compute - tt.exchange -
                                       tt.sync};
      size_t chip = std::min<size_t>(
          r.chipCycles.size() - 1,
          i / static_cast<size_t>(std::max<int64_t>(1, r.tilesPerChip)));
      ExecutionReport::Breakdown &c = r.chipCycles[chip];
      c.compute += b.compute, c.exchange += b.exchange, c.sync += b.sync,
          c.idle += b.idle;
      if (r.level == ProfileLevel::Tile)
        r.tileCycles.push_back(b);
    }
  }
  return r;
}

static std::string seconds(double s) {
  std::string out;
  raw_string_ostream os(out);
  if (s >= 1)
    os << format("%.3f s", s);
  else if (s >= 1e-3)
    os << format("%.3f ms", s * 1e3);
  else
    os << format("%.3f us", s * 1e6);
  return out;
}

void renderText(const ExecutionReport &r, raw_ostream &os) {
  os << "Execution of " << r.module << " on " << r.target << " (run "
     << r.run + 1;
  if (r.replicas > 1)
    os << ", replica " << r.replica << " of " << r.replicas;
  os << ", profile " << profileLevelName(r.level) << "):\n";
  reportLine(os, 2, "Total cycles", groupDigits(r.cycles));
  reportLine(os, 2, "Time",
             seconds(r.seconds) + " at " +
                 formatv("{0:f2}", r.clockHz / 1e9).str() + " GHz");
  reportLine(os, 2, "Waiting on the host",
             groupDigits(r.hostCycles) + " cycles" +
                 percentOf(r.hostCycles, r.cycles));
  if (r.runs.size() > 1) {
    int64_t lo = r.runs.front().cycles, hi = lo;
    double sum = 0;
    for (const RunTime &rt : r.runs) {
      lo = std::min(lo, rt.cycles), hi = std::max(hi, rt.cycles);
      sum += rt.cycles;
    }
    double clock = static_cast<double>(std::max<int64_t>(1, r.clockHz));
    reportLine(os, 2, "Step time over runs",
               formatv("mean {0}, min {1}, max {2} ({3} runs)",
                       seconds(sum / r.runs.size() / clock),
                       seconds(lo / clock), seconds(hi / clock), r.runs.size())
                   .str());
  }
  if (!r.chipCycles.empty()) {
    os << "  By chip (tile-cycles: compute / exchange / sync / idle):\n";
    for (auto [c, b] : llvm::enumerate(r.chipCycles)) {
      double all = std::max<double>(1, b.compute + b.exchange + b.sync + b.idle);
      os << formatv("    chip {0}: {1:f1}% / {2:f1}% / {3:f1}% / {4:f1}%\n", c,
                    100 * b.compute / all, 100 * b.exchange / all,
                    100 * b.sync / all, 100 * b.idle / all);
    }
  }
  os << "  Top ops by cycles:\n";
  os << formatv("    {0,-28} {1,-16} {2,14} {3,7} {4,11} {5,12} {6}\n", "op",
                "category", "cycles", "share", "FLOPS util", "predicted",
                "note");
  size_t shown = 0;
  for (const ExecutionReport::Op &op : r.ops) {
    if (shown++ == 10)
      break;
    std::string name = op.hlo.size() > 28 ? op.hlo.substr(0, 27) + "~" : op.hlo;
    os << formatv("    {0,-28} {1,-16} {2,14} {3,6:f1}% {4,10:f1}% {5,12} {6}\n",
                  name, op.category, groupDigits(op.cycles),
                  r.cycles ? 100.0 * op.cycles / r.cycles : 0.0,
                  100 * op.utilization, groupDigits(op.predictedCycles),
                  op.why.empty() ? std::string()
                                 : formatv("{0}{1:f0}%: {2}",
                                           op.error > 0 ? "+" : "",
                                           100 * op.error, op.why)
                                       .str());
  }
}

} // namespace tessera::runtime
