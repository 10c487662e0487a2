//===- ProfOverview.cpp - tessera-prof overview and op-profile ------------===//
//
// Both commands read the event file into ModuleRuns once and print it as a
// table (default) or JSON (--json). The recommendation thresholds are the
// constants below, documented in docs/profiling.md.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "RunSummary.h"

#include "tessera/Support/TextReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace llvm;
using json = nlohmann::ordered_json;
using tessera::runtime::ExecutionReport;

namespace tessera::prof {

namespace {

// Recommendation thresholds (docs/profiling.md).
constexpr double kInputBound = 0.20;     ///< host-wait share of the run
constexpr double kExchangeBound = 0.50;  ///< exchange / (compute + exchange)
constexpr double kPaddedUtilization = 0.25;
constexpr double kSignificantShare = 0.05; ///< of the run's cycles
constexpr double kImbalance = 1.25; ///< most loaded tile / mean used tile

/// formatv, as a string (reportLine and the JSON take strings).
template <typename... Ts> std::string fmt(const char *format, Ts &&...values) {
  return formatv(format, std::forward<Ts>(values)...).str();
}

struct Options {
  std::string module;
  bool json = false;
  int64_t top = 10;
};

std::optional<Options> parseOptions(ArrayRef<std::string> args,
                                    int64_t defaultTop, StringRef command) {
  Options o;
  o.top = defaultTop;
  for (StringRef a : args) {
    if (a == "--json")
      o.json = true;
    else if (a.consume_front("--module="))
      o.module = a.str();
    else if (a.consume_front("--top=")) {
      if (a.getAsInteger(10, o.top) || o.top < 1) {
        fail("--top needs an integer >= 1, got '" + a + "'");
        return std::nullopt;
      }
    } else {
      fail(command + ": unknown option '" + a + "'");
      return std::nullopt;
    }
  }
  return o;
}

std::string percent(double fraction) {
  return fmt("{0:f1}%", 100 * fraction);
}

std::string duration(double seconds) {
  if (seconds >= 1)
    return fmt("{0:f2} s", seconds);
  if (seconds >= 1e-3)
    return fmt("{0:f3} ms", seconds * 1e3);
  return fmt("{0:f3} us", seconds * 1e6);
}

std::string flopRate(double perSecond) {
  const char *units[] = {"FLOP/s", "kFLOP/s", "MFLOP/s", "GFLOP/s",
                         "TFLOP/s"};
  int u = 0;
  while (perSecond >= 1000 && u < 4) {
    perSecond /= 1000;
    ++u;
  }
  return fmt("{0:f1} {1}", perSecond, units[u]);
}

double shareOf(const ExecutionReport &r, int64_t cycles) {
  return r.cycles > 0 ? static_cast<double>(cycles) / r.cycles : 0;
}

/// What to look at first, by the thresholds above.
std::vector<std::string> recommendations(const ModuleRuns &m,
                                         const ExecutionReport &r,
                                         const RunFigures &f) {
  std::vector<std::string> out;
  if (m.memory && m.memory->outOfMemory > 0)
    out.push_back(fmt("out of memory: {0} tiles exceed their memory (the run "
                      "held the overflow on the host); see tessera-prof "
                      "tiles and memory",
                      m.memory->outOfMemory));
  if (m.memory && m.memory->meanBytes > 0 &&
      m.memory->maxBytes >= kImbalance * m.memory->meanBytes)
    out.push_back(fmt("memory imbalance: tile {0} holds {1} B, {2:f2}x the "
                      "mean used tile; see tessera-prof memory --tile={0}",
                      m.memory->maxTile, groupDigits(m.memory->maxBytes),
                      double(m.memory->maxBytes) / m.memory->meanBytes));
  if (f.inputBound >= kInputBound)
    out.push_back(fmt("input-bound: the device waits on host transfers "
                          "and host ops {0} of the run; keep data on the "
                          "device across runs, or move host ops to tiles",
                          percent(f.inputBound)));
  std::vector<std::string> hostOps;
  int64_t hostCycles = 0;
  for (const ExecutionReport::Op &op : r.ops)
    if (op.unit == "host" && op.cycles > 0) {
      hostCycles += op.cycles;
      if (hostOps.size() < 3)
        hostOps.push_back(op.hlo);
    }
  if (!hostOps.empty())
    out.push_back(fmt("ops left on the host: {0} ({1} of the run); see "
                          "the compatibility report for why",
                          join(hostOps, ", "),
                          percent(shareOf(r, hostCycles))));
  for (const ExecutionReport::Op &op : r.ops)
    if (StringRef(op.fit).contains("padded") &&
        op.utilization < kPaddedUtilization &&
        shareOf(r, op.cycles) >= kSignificantShare)
      out.push_back(fmt("padding-dominated: {0} ({1} of the run) uses "
                            "{2} of the matrix unit ({3}); pad or reshape "
                            "its operands to the unit's shape",
                            op.hlo, percent(shareOf(r, op.cycles)),
                            percent(op.utilization), op.fit));
  if (f.exchangeShare && *f.exchangeShare >= kExchangeBound)
    out.push_back(fmt("exchange-bound: tiles spend {0} of their busy "
                          "cycles exchanging; look at the ops with the most "
                          "bytes moved (op-profile) and their tile mapping",
                          percent(*f.exchangeShare)));
  return out;
}

/// Several devices ran the program: whose figures follow, and how far the
/// replicas' step times spread.
std::string replicaLine(const ModuleRuns &m) {
  std::string line =
      fmt("{0} devices ran each run (EXECUTE ordinals 0-{1}); run and "
          "step figures are device 0's",
          m.devices, m.devices - 1);
  int64_t lo = INT64_MAX, hi = 0, reported = 0;
  for (int64_t d = 0; d < m.devices; ++d)
    if (const ExecutionReport *r = m.deviceReport(d)) {
      lo = std::min(lo, r->cycles);
      hi = std::max(hi, r->cycles);
      ++reported;
    }
  if (reported > 1 && lo == hi)
    line += fmt("; each of {0} replicas' last profiled step: {1} cycles",
                reported, groupDigits(hi));
  else if (reported > 1)
    line += fmt("; the {0} replicas' last profiled steps: {1} to {2} cycles",
                reported, groupDigits(lo), groupDigits(hi));
  return line;
}

void printOverview(const ModuleRuns &m, const Options &o, raw_ostream &os) {
  os << "== " << m.module << (m.target.empty() ? "" : " on " + m.target)
     << "\n";
  for (const std::string &note : m.notes)
    os << "  note: " << note << "\n";
  std::vector<double> host;
  for (int64_t ns : m.runHostNs)
    host.push_back(ns / 1e9);
  Spread h = spreadOf(host);
  reportLine(os, 2, "Job",
             fmt("compile {0} ({1}x, {2} steps), load {3} ({4}x), "
                     "execute {5} ({6} runs)",
                     duration(m.compileNs / 1e9), m.compiles, m.passes,
                     duration(m.loadNs / 1e9), m.loads,
                     duration(h.mean * h.count), h.count));
  reportLine(os, 2, "Transfers",
             fmt("{0} B to the device, {1} B to the host",
                     groupDigits(m.bytesToDevice),
                     groupDigits(m.bytesToHost)));
  if (m.devices > 1)
    reportLine(os, 2, "Replicas", replicaLine(m));
  if (h.count)
    reportLine(os, 2, "Run time (host)",
               fmt("mean {0}, std {1}, min {2}, max {3}",
                       duration(h.mean), duration(h.std), duration(h.min),
                       duration(h.max)));
  if (!m.report) {
    os << "  (no execution report: run with --profiling "
          "--profile_execution=device|chip|tile)\n";
    return;
  }
  const ExecutionReport &r = *m.report;
  RunFigures f = runFigures(r);
  reportLine(os, 2, "Environment",
             fmt("{0}: {1} chip(s), {2} tiles, {3:f2} GHz; profile {4}",
                     r.target, r.chips, r.tiles, r.clockHz / 1e9,
                     runtime::profileLevelName(r.level)));
  std::vector<double> steps;
  for (const runtime::RunTime &rt : r.runs)
    steps.push_back(static_cast<double>(rt.cycles) /
                    std::max<int64_t>(1, r.clockHz));
  Spread s = spreadOf(steps);
  reportLine(os, 2, "Step time (device)",
             fmt("mean {0}, std {1}, min {2}, max {3} ({4} runs)",
                     duration(s.mean), duration(s.std), duration(s.min),
                     duration(s.max), s.count));
  reportLine(os, 2, "Input-bound", percent(f.inputBound) +
                                       " of the run waiting on the host");
  reportLine(os, 2, "Device idle",
             f.idle ? percent(*f.idle) + " of tile cycles"
                    : "(needs profile_execution=chip or tile)");
  reportLine(os, 2, "FLOPS utilization",
             fmt("{0} of the peak ({1} FLOP/cycle)",
                     percent(f.utilization),
                     groupDigits(static_cast<int64_t>(
                         std::max(r.vectorPeak, r.matrixPeak)))));
  os << fmt("  {0,-32} {1,-16} {2,12} {3,7} {4,16} {5,7}\n", "top ops",
                "category", "cycles", "share", "FLOP rate", "util");
  for (size_t i = 0; i < r.ops.size() && i < size_t(o.top); ++i) {
    const ExecutionReport::Op &op = r.ops[i];
    os << fmt("  {0,-32} {1,-16} {2,12} {3,7} {4,16} {5,7}\n", op.hlo,
                  op.category, groupDigits(op.cycles),
                  percent(shareOf(r, op.cycles)),
                  flopRate(op.flopsPerSecond), percent(op.utilization));
  }
  std::vector<std::string> recs = recommendations(m, r, f);
  os << "  Recommendations:" << (recs.empty() ? " none" : "") << "\n";
  for (const std::string &rec : recs)
    os << "    - " << rec << "\n";
}

/// Category totals, in the order of their cycles.
struct Category {
  std::string name;
  int64_t cycles = 0, flops = 0, ops = 0;
  double busy = 0; ///< sum of cycles x peak that the ops' FLOPs were out of
  std::vector<const ExecutionReport::Op *> members;
};

std::vector<Category> categories(const ExecutionReport &r) {
  std::vector<Category> out;
  StringMap<size_t> index;
  for (const ExecutionReport::Op &op : r.ops) {
    auto [it, added] = index.try_emplace(op.category, out.size());
    if (added)
      out.push_back({op.category});
    Category &c = out[it->second];
    c.cycles += op.cycles;
    c.flops += op.flops;
    ++c.ops;
    if (op.utilization > 0)
      c.busy += op.flops / op.utilization;
    c.members.push_back(&op);
  }
  llvm::stable_sort(out, [](const Category &a, const Category &b) {
    return a.cycles > b.cycles;
  });
  return out;
}

/// Cycles no op owns: transfers (host copies) and the syncs and control
/// between steps, so that the rows add up to the run.
std::pair<int64_t, int64_t> programCycles(const ExecutionReport &r) {
  int64_t ops = 0, hostOps = 0;
  for (const ExecutionReport::Op &op : r.ops) {
    ops += op.cycles;
    if (op.unit == "host")
      hostOps += op.cycles;
  }
  int64_t transfers = std::max<int64_t>(0, r.hostCycles - hostOps);
  return {transfers, std::max<int64_t>(0, r.cycles - ops - transfers)};
}

double categoryUtilization(const Category &c) {
  return c.busy > 0 ? c.flops / c.busy : 0;
}

} // namespace

json overviewJson(const ModuleRuns &m, int64_t top) {
  std::vector<double> host;
  for (int64_t ns : m.runHostNs)
    host.push_back(ns / 1e9);
  Spread h = spreadOf(host);
  auto spread = [](const Spread &s) {
    return json{{"count", s.count}, {"mean", s.mean}, {"std", s.std},
                {"min", s.min},     {"max", s.max}};
  };
  json out{{"module", m.module},
           {"target", m.target},
           {"job",
            {{"compile_seconds", m.compileNs / 1e9},
             {"compiles", m.compiles},
             {"passes", m.passes},
             {"load_seconds", m.loadNs / 1e9},
             {"loads", m.loads},
             {"execute_seconds", h.mean * h.count},
             {"bytes_to_device", m.bytesToDevice},
             {"bytes_to_host", m.bytesToHost}}},
           {"run_seconds_host", spread(h)},
           {"devices", m.devices},
           {"notes", m.notes}};
  if (m.devices > 1) {
    json cycles = json::array();
    for (int64_t d = 0; d < m.devices; ++d) {
      const ExecutionReport *r = m.deviceReport(d);
      cycles.push_back(r ? json(r->cycles) : json(nullptr));
    }
    out["device_cycles"] = std::move(cycles);
  }
  if (!m.report)
    return out;
  const ExecutionReport &r = *m.report;
  RunFigures f = runFigures(r);
  std::vector<double> steps;
  for (const runtime::RunTime &rt : r.runs)
    steps.push_back(static_cast<double>(rt.cycles) /
                    std::max<int64_t>(1, r.clockHz));
  out["environment"] = {{"target", r.target},
                        {"chips", r.chips},
                        {"tiles", r.tiles},
                        {"clock_hz", r.clockHz},
                        {"profile", runtime::profileLevelName(r.level)}};
  out["step_seconds_device"] = spread(spreadOf(steps));
  out["input_bound"] = f.inputBound;
  out["device_idle"] = f.idle ? json(*f.idle) : json(nullptr);
  out["flops_utilization"] = f.utilization;
  out["exchange_share"] =
      f.exchangeShare ? json(*f.exchangeShare) : json(nullptr);
  json ops = json::array();
  for (size_t i = 0; i < r.ops.size() && i < size_t(top); ++i) {
    const ExecutionReport::Op &op = r.ops[i];
    ops.push_back({{"hlo", op.hlo},
                   {"category", op.category},
                   {"cycles", op.cycles},
                   {"share", shareOf(r, op.cycles)},
                   {"flops_per_second", op.flopsPerSecond},
                   {"utilization", op.utilization}});
  }
  out["top_ops"] = std::move(ops);
  out["recommendations"] = recommendations(m, r, f);
  return out;
}

json opProfileJson(const ModuleRuns &m, int64_t top) {
  if (!m.report)
    return json{{"module", m.module}, {"categories", json::array()}};
  const ExecutionReport &r = *m.report;
  std::vector<Category> cats = categories(r);
  json jc = json::array();
  for (const Category &c : cats) {
    json members = json::array();
    for (size_t i = 0; i < c.members.size() && i < size_t(top); ++i) {
      const ExecutionReport::Op &op = *c.members[i];
      members.push_back({{"hlo", op.hlo},
                         {"op_name", op.opName},
                         {"cycles", op.cycles},
                         {"share", shareOf(r, op.cycles)},
                         {"utilization", op.utilization},
                         {"padding_fit", op.fit},
                         {"source", op.source}});
    }
    jc.push_back({{"category", c.name},
                  {"ops", c.ops},
                  {"cycles", c.cycles},
                  {"share", shareOf(r, c.cycles)},
                  {"flops", c.flops},
                  {"utilization", categoryUtilization(c)},
                  {"top_ops", std::move(members)}});
  }
  auto [transfers, other] = programCycles(r);
  return json{
      {"module", m.module},           {"run", r.run + 1},
      {"cycles", r.cycles},           {"categories", std::move(jc)},
      {"transfer_cycles", transfers}, {"sync_and_control_cycles", other}};
}

int runOverviewCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args, 10, "overview");
  if (!o)
    return 1;
  Expected<std::vector<ModuleRuns>> modules =
      readModuleRuns(eventsPath, o->module);
  if (!modules)
    return fail(toString(modules.takeError()));
  if (o->json) {
    json out = json::array();
    for (const ModuleRuns &m : *modules)
      out.push_back(overviewJson(m, o->top));
    outs() << out.dump(2) << "\n";
    return 0;
  }
  for (const ModuleRuns &m : *modules)
    printOverview(m, *o, outs());
  return 0;
}

int runOpProfileCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::optional<Options> o = parseOptions(args, 3, "op-profile");
  if (!o)
    return 1;
  Expected<std::vector<ModuleRuns>> modules =
      readModuleRuns(eventsPath, o->module);
  if (!modules)
    return fail(toString(modules.takeError()));
  json all = json::array();
  for (const ModuleRuns &m : *modules) {
    if (!m.report) {
      if (!o->json)
        outs() << "== " << m.module
               << ": no execution report (run with --profiling "
                  "--profile_execution=device|chip|tile)\n";
      continue;
    }
    if (o->json) {
      all.push_back(opProfileJson(m, o->top));
      continue;
    }
    const ExecutionReport &r = *m.report;
    std::vector<Category> cats = categories(r);
    outs() << "== " << m.module << ", run " << r.run + 1 << ": "
           << groupDigits(r.cycles) << " cycles\n";
    outs() << fmt("  {0,-34} {1,5} {2,12} {3,7} {4,7}  {5}\n",
                      "category / op", "ops", "cycles", "share", "util",
                      "padding fit");
    for (const Category &c : cats) {
      outs() << fmt("  {0,-34} {1,5} {2,12} {3,7} {4,7}\n", c.name,
                        c.ops, groupDigits(c.cycles),
                        percent(shareOf(r, c.cycles)),
                        percent(categoryUtilization(c)));
      for (size_t i = 0; i < c.members.size() && i < size_t(o->top); ++i) {
        const ExecutionReport::Op &op = *c.members[i];
        outs() << fmt("    {0,-32} {1,5} {2,12} {3,7} {4,7}", op.hlo, "",
                      groupDigits(op.cycles), percent(shareOf(r, op.cycles)),
                      percent(op.utilization));
        if (!op.fit.empty())
          outs() << "  " << op.fit;
        outs() << "\n";
      }
    }
    auto [transfers, other] = programCycles(r);
    outs() << fmt("  {0,-34} {1,5} {2,12} {3,7}\n", "(transfers)", "",
                  groupDigits(transfers), percent(shareOf(r, transfers)));
    outs() << fmt("  {0,-34} {1,5} {2,12} {3,7}\n", "(syncs and control)", "",
                  groupDigits(other), percent(shareOf(r, other)));
  }
  if (o->json)
    outs() << all.dump(2) << "\n";
  return 0;
}

} // namespace tessera::prof
