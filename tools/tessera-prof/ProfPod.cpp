//===- ProfPod.cpp - tessera-prof pod -------------------------------------===//
//
// The pod view of the last compile for a multi-chip target: the memory
// report's `pod` section (lib/Memory/PodReport.cpp) as tables -- per chip
// its memory and step cycles by kind, per link the bytes each way, per
// collective its bytes and time -- or as JSON. When the event file holds
// profiled runs of the module, the view adds what they measured: per
// device (a replica's) its step cycles, each chip's tile cycles by kind,
// and each collective's cycles, beside the compiler's estimate.
//
//===----------------------------------------------------------------------===//

#include "ProfCommands.h"
#include "RunSummary.h"

#include "tessera/Support/JsonFields.h"
#include "tessera/Support/TextReport.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace llvm;
using json = nlohmann::json;
using namespace tessera::json_fields;

namespace tessera::prof {

namespace {

/// The measured side: each device's last profiled run of `module`.
json measuredJson(const ModuleRuns &m) {
  json devices = json::array();
  for (int64_t d = 0; d < m.devices; ++d) {
    const runtime::ExecutionReport *report = m.deviceReport(d);
    if (!report)
      continue;
    const runtime::ExecutionReport &r = *report;
    json chips = json::array();
    for (const auto &[c, b] : llvm::enumerate(r.chipCycles))
      chips.push_back(json{{"chip", c},
                           {"compute", b.compute},
                           {"exchange", b.exchange},
                           {"sync", b.sync},
                           {"idle", b.idle}});
    json collectives = json::array();
    for (const runtime::ExecutionReport::Step &s : r.steps)
      if (s.kind == "collective")
        collectives.push_back(json{{"step", s.name},
                                   {"cycles", s.cycles},
                                   {"predicted_cycles", s.predictedCycles}});
    devices.push_back(json{{"device", d},
                           {"run", r.run},
                           {"profile", runtime::profileLevelName(r.level)},
                           {"cycles", r.cycles},
                           {"host_cycles", r.hostCycles},
                           {"chips", std::move(chips)},
                           {"collectives", std::move(collectives)}});
  }
  return devices;
}

void printMeasured(const json &devices) {
  if (devices.empty()) {
    outs() << "\n  measured: no profiled run of this module in the event "
              "file (tessera-run --profiling --profile_execution=chip)\n";
    return;
  }
  outs() << "\n  measured (each device's last profiled run; tile cycles "
            "summed over the chip's tiles)\n";
  outs() << "  device  run    step cycles  host cycles  chip        compute"
            "       exchange           sync           idle\n";
  for (const json &d : devices) {
    const json &perChip = d["chips"];
    std::string head;
    raw_string_ostream(head) << format(
        "  %-7lld %-4lld %13s %12s", (long long)intAt(d, "device"),
        (long long)intAt(d, "run") + 1, groupDigits(intAt(d, "cycles")).c_str(),
        groupDigits(intAt(d, "host_cycles")).c_str());
    if (perChip.empty()) {
      outs() << head << "  (profile " << stringAt(d, "profile")
             << ": chip or tile gives the chips)\n";
      continue;
    }
    for (const json &c : perChip) {
      outs() << (intAt(c, "chip") == 0 ? head : std::string(head.size(), ' '))
             << format("  %-4lld %14s %14s %14s %14s\n",
                       (long long)intAt(c, "chip"),
                       groupDigits(intAt(c, "compute")).c_str(),
                       groupDigits(intAt(c, "exchange")).c_str(),
                       groupDigits(intAt(c, "sync")).c_str(),
                       groupDigits(intAt(c, "idle")).c_str());
    }
  }
  bool any = false;
  for (const json &d : devices)
    any |= !d["collectives"].empty();
  if (!any)
    return;
  outs() << "\n  collectives measured (cycles per device; the compiler's "
            "estimate)\n";
  for (const json &c : devices.front()["collectives"]) {
    std::string step = stringAt(c, "step");
    outs() << format("  %-20s predicted %12s  measured", step.c_str(),
                     groupDigits(intAt(c, "predicted_cycles")).c_str());
    for (const json &d : devices)
      for (const json &dc : d["collectives"])
        if (stringAt(dc, "step") == step)
          outs() << " " << groupDigits(intAt(dc, "cycles"));
    outs() << "\n";
  }
}

} // namespace

int runPodCommand(StringRef eventsPath, ArrayRef<std::string> args) {
  std::string moduleName;
  bool asJson = false;
  for (StringRef a : args) {
    if (a == "--json")
      asJson = true;
    else if (a.consume_front("--module="))
      moduleName = a.str();
    else
      return fail("pod: unknown option '" + a + "'");
  }
  std::string module;
  Expected<json> report = lastMemoryReport(eventsPath, moduleName, module);
  if (!report)
    return fail(toString(report.takeError()));
  auto it = report->find("pod");
  if (it == report->end() || !it->is_object())
    return fail("the memory report of '" + module +
                "' has no pod section: it was compiled for a target of one "
                "chip");
  json pod = *it;
  // The memory report is read already: the runs are what is wanted.
  Expected<std::vector<ModuleRuns>> runs =
      readModuleRuns(eventsPath, module, /*withMemory=*/false);
  if (!runs)
    return fail(toString(runs.takeError()));
  pod["measured"] = runs->empty() ? json::array() : measuredJson(runs->front());
  if (asJson) {
    outs() << pod.dump(2) << "\n";
    return 0;
  }
  int64_t chips = intAt(pod, "chips"), replicas = intAt(pod, "replicas");
  outs() << "== " << module << ": pod view on " << stringAt(pod, "target")
         << " (" << intAt(pod, "system_chips") << " chips)\n";
  reportLine(outs(), 2, "Chips per replica", std::to_string(chips));
  reportLine(outs(), 2, "Replicas", std::to_string(replicas));
  reportLine(outs(), 2, "Placement", stringAt(pod, "placement"));
  outs() << "\n  per chip (a replica's; cycles: each step once, on every "
            "chip it involves)\n";
  outs() << "  chip  tiles used           bytes   fullest tile (bytes)   OOM"
            "    compute   exchange inter-chip collective       sync"
            "       host\n";
  for (const json &c : pod["per_chip"]) {
    const json &cy = c["cycles"];
    std::string fullest = std::to_string(intAt(c, "max_tile")) + " (" +
                          groupDigits(intAt(c, "max_tile_bytes")) + ")";
    outs() << format(
        "  %-5lld %10lld %15s %22s %5lld %10s %10s %10s %10s %10s %10s\n",
        (long long)intAt(c, "chip"), (long long)intAt(c, "tiles_used"),
        groupDigits(intAt(c, "bytes")).c_str(), fullest.c_str(),
        (long long)intAt(c, "tiles_out_of_memory"),
        groupDigits(intAt(cy, "compute")).c_str(),
        groupDigits(intAt(cy, "exchange")).c_str(),
        groupDigits(intAt(cy, "inter_chip")).c_str(),
        groupDigits(intAt(cy, "collective")).c_str(),
        groupDigits(intAt(cy, "sync")).c_str(),
        groupDigits(intAt(cy, "host")).c_str());
  }
  outs() << "\n  links (bytes one run sends each way)\n";
  outs() << "  link  between           forward        backward  busy cycles\n";
  int64_t idle = 0;
  for (const json &l : pod["links"]) {
    int64_t fwd = intAt(l, "bytes_forward"), bwd = intAt(l, "bytes_backward");
    if (fwd == 0 && bwd == 0) {
      ++idle;
      continue;
    }
    std::string between = std::to_string(l["between"][0].get<int64_t>()) + "-" +
                          std::to_string(l["between"][1].get<int64_t>());
    outs() << format("  %-5lld %-9s %15s %15s %12s\n",
                     (long long)intAt(l, "link"), between.c_str(),
                     groupDigits(fwd).c_str(), groupDigits(bwd).c_str(),
                     groupDigits(intAt(l, "busy_cycles")).c_str());
  }
  if (idle)
    outs() << "  (" << idle << " links carry nothing)\n";
  const json &collectives = pod["collectives"];
  if (!collectives.empty()) {
    outs() << "\n  collectives (ring over the replicas' chips)\n";
    outs() << "  step                 kind                group   bytes sent"
              "       cycles\n";
    for (const json &c : collectives)
      outs() << format("  %-20s %-18s %6lld %12s %12s\n",
                       stringAt(c, "step").c_str(), stringAt(c, "kind").c_str(),
                       (long long)intAt(c, "group_size"),
                       groupDigits(intAt(c, "bytes")).c_str(),
                       groupDigits(intAt(c, "cycles")).c_str());
  }
  printMeasured(pod["measured"]);
  return 0;
}

} // namespace tessera::prof
