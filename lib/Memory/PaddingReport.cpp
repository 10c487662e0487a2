//===- PaddingReport.cpp - the padding and cost report model --------------===//

#include "tessera/Memory/PaddingReport.h"
#include "tessera/Support/JsonBuild.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace tessera;
using namespace tessera::memory;
using json = nlohmann::ordered_json;
using tessera::json_build::object;
using tessera::json_build::pairs;
using tessera::json_build::put;

double tessera::memory::roundedRatio(int64_t a, int64_t b, double digits) {
  if (b == 0)
    return 1.0;
  return std::round(digits * static_cast<double>(a) / b) / digits;
}

static std::string stepAt(const ProgramLiveness &live, int64_t point) {
  if (point < live.schedule.numPoints())
    return stepName(live.schedule.steps[point]);
  return "(program start)";
}

PaddingReport tessera::memory::computePaddingReport(const MemoryAnalysis &a) {
  const ProgramLiveness &live = a.liveness;
  PaddingReport r;
  std::vector<uint32_t> padded;
  for (uint32_t b = 0; b < live.buffers.size(); ++b) {
    const BufferLiveness &buf = live.buffers[b];
    if (buf.aliasOf >= 0)
      continue;
    r.buffers.push_back(b);
    r.total.unpaddedBytes += buf.bytes;
    r.total.paddedBytes += buf.paddedBytes;
    if (buf.paddedBytes > buf.bytes)
      padded.push_back(b);
  }
  auto extra = [&](uint32_t b) {
    return live.buffers[b].paddedBytes - live.buffers[b].bytes;
  };
  std::stable_sort(padded.begin(), padded.end(),
                   [&](uint32_t x, uint32_t y) { return extra(x) > extra(y); });
  padded.resize(std::min<size_t>(10, padded.size()));
  r.mostPadded = std::move(padded);

  for (auto [point, c] : llvm::enumerate(a.cost.steps)) {
    if (!c.fit)
      continue;
    MatmulPadding m;
    m.point = point;
    m.step = stepAt(live, point);
    m.op = c.op.str();
    m.fit = *c.fit;
    m.utilization =
        roundedRatio(m.fit.usefulMacs(), m.fit.paddedMacs(), 10000.0);
    if (auto edge =
            live.schedule.steps[point].op->getAttrOfType<DenseI64ArrayAttr>(
                "edge");
        edge && edge.size() == 2) {
      m.edge = {edge[0], edge[1]};
      m.stepUsefulMacs = c.flops / 2;
      m.stepPaddedMacs = c.paddedFlops / 2;
      m.utilization = roundedRatio(c.flops, c.paddedFlops, 10000.0);
    }
    r.matmuls.push_back(std::move(m));
  }
  return r;
}

CostReport tessera::memory::computeCostReport(const MemoryAnalysis &a) {
  const ProgramCost &cost = a.cost;
  CostReport r;
  r.totalCycles = cost.totalCycles;
  r.seconds = cost.seconds;
  r.unknownTripCounts = cost.unknownTripCounts;
  // Op → its entry of r.ops; the names are the steps' own (StepCost::op).
  llvm::DenseMap<llvm::StringRef, size_t> index;
  for (auto [point, s] : llvm::enumerate(cost.steps)) {
    StepKind kind = a.liveness.schedule.steps[point].kind;
    if (kind == StepKind::Sync || kind == StepKind::Repeat ||
        kind == StepKind::If)
      continue;
    auto [it, inserted] = index.try_emplace(s.op, r.ops.size());
    if (inserted)
      r.ops.push_back({s.op.str()});
    OpCostTotals &t = r.ops[it->second];
    ++t.steps;
    t.cycles += s.cycles;
    t.flops += s.flops;
    t.paddedFlops += s.paddedFlops;
    t.bytesMoved += s.bytesMoved;
  }
  return r;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

/// An op's entry of `ops`, as fields for an object or a table's row.
static forms::Fields<json> opCostFields(const OpCostTotals &t) {
  return pairs<json>("op", t.op, "steps", t.steps, "cycles", t.cycles, "flops",
                     t.flops, "padded_flops", t.paddedFlops, "bytes_moved",
                     t.bytesMoved);
}

json tessera::memory::opCostsJson(const CostReport &cost) {
  json list = json::array();
  for (const OpCostTotals &t : cost.ops) {
    json entry = json::object();
    for (auto &[key, value] : opCostFields(t))
      put(entry, key, std::move(value));
    list.push_back(std::move(entry));
  }
  return list;
}

json tessera::memory::costReportJson(const MemoryAnalysis &a,
                                     const CostReport &cost, ReportForm form) {
  json c = forms::objectWithRoom<json>(5);
  put(c, "total_cycles", cost.totalCycles);
  put(c, "seconds", cost.seconds);
  put(c, "unknown_trip_counts", cost.unknownTripCounts);
  if (form == ReportForm::Compact) {
    forms::TableBuilder<json> ops;
    ops.reserve(cost.ops.size());
    for (const OpCostTotals &t : cost.ops)
      ops.add(opCostFields(t));
    put(c, "ops", ops.finish());
    return c;
  }
  put(c, "ops", opCostsJson(cost));
  json steps = json::array();
  steps.get_ref<json::array_t &>().reserve(a.cost.steps.size());
  for (auto [point, s] : llvm::enumerate(a.cost.steps)) {
    const Step &step = a.liveness.schedule.steps[point];
    // The figures a step's entry shares with an op's, in the same order.
    steps.push_back(object<json>(
        "point", point, "kind", stepKindName(step.kind), "step", stepName(step),
        "op", s.op.str(), "unit", s.unit.str(), "cycles", s.cycles, "flops",
        s.flops, "padded_flops", s.paddedFlops, "bytes_moved", s.bytesMoved,
        "inter_chip_bytes", s.interChipBytes));
  }
  put(c, "steps", std::move(steps));
  return c;
}

json tessera::memory::matmulPaddingJson(const MatmulPadding &m) {
  const MatmulFit &f = m.fit;
  json entry = {
      {"point", m.point},
      {"step", m.step},
      {"op", m.op},
      {"block",
       {{"batch", f.batch}, {"m", f.m.size}, {"n", f.n.size}, {"k", f.k.size}}},
      {"fit",
       {{"m", f.m.describe()}, {"n", f.n.describe()}, {"k", f.k.describe()}}},
      {"useful_macs", f.usefulMacs()},
      {"padded_macs", f.paddedMacs()},
      {"utilization", m.utilization}};
  // A ragged grid: the block above is the full one; the last row and
  // column of the grid hold `edge` blocks, and the utilization is over
  // every vertex of the step.
  if (m.edge) {
    entry["edge"] = {{"m", m.edge->first}, {"n", m.edge->second}};
    entry["step_useful_macs"] = m.stepUsefulMacs;
    entry["step_padded_macs"] = m.stepPaddedMacs;
  }
  return entry;
}

json tessera::memory::paddingTotalsJson(const PaddingTotals &t) {
  return object<json>("unpadded_bytes", t.unpaddedBytes, "padded_bytes",
                      t.paddedBytes, "extra_bytes", t.extraBytes(), "expansion",
                      t.expansion());
}

json tessera::memory::paddingReportJson(const MemoryAnalysis &a,
                                        const PaddingReport &padding,
                                        const CostReport &cost) {
  json buffers = json::array();
  for (uint32_t b : padding.buffers) {
    const BufferLiveness &buf = a.liveness.buffers[b];
    buffers.push_back({{"name", buf.var.getName().str()},
                       {"shape", buf.var.getType().getShape().vec()},
                       {"dtype", buf.dtype},
                       {"unpadded_size", buf.bytes},
                       {"size", buf.paddedBytes},
                       {"expansion", roundedRatio(buf.paddedBytes, buf.bytes)},
                       {"extra", buf.paddedBytes - buf.bytes}});
  }
  json matmuls = json::array();
  for (const MatmulPadding &m : padding.matmuls)
    matmuls.push_back(matmulPaddingJson(m));
  return {{"program", a.program},
          {"target", a.target.name},
          {"layout_tile", {a.target.layoutTile.rows, a.target.layoutTile.cols}},
          {"total", paddingTotalsJson(padding.total)},
          {"buffers", std::move(buffers)},
          {"matmuls", std::move(matmuls)},
          {"ops", opCostsJson(cost)}};
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

void tessera::memory::writePaddingText(const MemoryAnalysis &a,
                                       const PaddingReport &padding,
                                       const CostReport &cost,
                                       llvm::raw_ostream &os) {
  const PaddingTotals &total = padding.total;
  os << "padding of @" << a.program << " on " << a.target.name
     << " (layout tile [" << a.target.layoutTile.rows << ", "
     << a.target.layoutTile.cols << "]): " << total.unpaddedBytes << " -> "
     << total.paddedBytes << " bytes, expansion "
     << llvm::format("%.2f", total.expansion()) << "x\n";
  for (uint32_t b : padding.buffers) {
    const BufferLiveness &buf = a.liveness.buffers[b];
    os << "  buffer " << buf.var.getName() << " [";
    llvm::interleave(buf.var.getType().getShape(), os, ", ");
    os << "] " << buf.dtype << ": " << buf.bytes << " -> " << buf.paddedBytes
       << " bytes, expansion "
       << llvm::format("%.2f", roundedRatio(buf.paddedBytes, buf.bytes))
       << "x, extra " << buf.paddedBytes - buf.bytes << "\n";
  }
  for (const MatmulPadding &m : padding.matmuls) {
    const MatmulFit &f = m.fit;
    os << "  matmul " << m.step << " block [" << f.batch << ", " << f.m.size
       << ", " << f.n.size << ", " << f.k.size << "]";
    // A ragged grid: the fit is the full block's, the MACs every
    // vertex's (edge blocks included).
    if (m.edge)
      os << " (last m " << m.edge->first << ", last n " << m.edge->second
         << ")";
    os << ": m " << f.m.describe() << ", n " << f.n.describe() << ", k "
       << f.k.describe() << "; " << (m.edge ? m.stepUsefulMacs : f.usefulMacs())
       << "/" << (m.edge ? m.stepPaddedMacs : f.paddedMacs()) << " MACs useful"
       << (m.edge ? " over every vertex" : "") << " ("
       << llvm::format("%.1f", 100 * m.utilization) << "%)\n";
  }
  for (const OpCostTotals &o : cost.ops)
    os << "  op " << o.op << ": flops " << o.flops << ", padded flops "
       << o.paddedFlops << ", bytes moved " << o.bytesMoved << ", cycles "
       << o.cycles << "\n";
}

json tessera::memory::paddingReportJson(const MemoryAnalysis &a) {
  return paddingReportJson(a, computePaddingReport(a), computeCostReport(a));
}

void tessera::memory::writePaddingText(const MemoryAnalysis &a,
                                       llvm::raw_ostream &os) {
  writePaddingText(a, computePaddingReport(a), computeCostReport(a), os);
}
