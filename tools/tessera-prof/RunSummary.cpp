//===- RunSummary.cpp - What an event file says about a model's runs ------===//

#include "RunSummary.h"

#include "tessera/Trace/EventFile.h"
#include "tessera/Trace/EventQuery.h"

#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;

namespace tessera::prof {

Expected<runtime::ExecutionReport>
readExecutionReport(const TraceEvent &event, StringRef baseDir) {
  const Report &report = event.execute().execution_report();
  if (report.dropped())
    return createStringError("run " + Twine(event.execute().run_index() + 1) +
                             ": the report was dropped (" +
                             Twine(report.size()) +
                             " bytes > max_report_size)");
  if (report.format() == REPORT_FORMAT_TEXT)
    return createStringError(
        "run " + Twine(event.execute().run_index() + 1) +
        ": a text report (report_format=text) cannot be read back; "
        "profile with report_format=json or cbor");
  Expected<std::string> bytes =
      extractBytes(event, ExtractKind::ExecuteReport, baseDir);
  if (!bytes)
    return bytes.takeError();
  nlohmann::json json =
      parseReportBytes<nlohmann::json>(*bytes, report.format());
  if (json.is_discarded())
    return createStringError("run " + Twine(event.execute().run_index() + 1) +
                             ": the execution report is not valid " +
                             (report.format() == REPORT_FORMAT_CBOR ? "CBOR"
                                                                    : "JSON"));
  return runtime::fromJson(json);
}

/// The memory report's tile balance, when it is there and readable.
static std::optional<ModuleRuns::Memory> memoryOf(const TraceEvent &e,
                                                  StringRef baseDir) {
  if (!findReport(e, ExtractKind::MemoryReport))
    return std::nullopt;
  Expected<nlohmann::json> decoded =
      decodeReport<nlohmann::json>(e, ExtractKind::MemoryReport, baseDir);
  if (!decoded) {
    consumeError(decoded.takeError());
    return std::nullopt;
  }
  nlohmann::json &j = *decoded;
  if (!j["summary"].is_object())
    return std::nullopt;
  const nlohmann::json &s = j["summary"];
  const nlohmann::json &max = s["max_tile_including_gaps"];
  ModuleRuns::Memory m;
  m.maxTile = max.value("tile", int64_t(0));
  m.maxBytes = max.value("bytes", int64_t(0));
  m.meanBytes = s.value("mean_used_tile_bytes", int64_t(0));
  m.outOfMemory = s.value("tiles_out_of_memory", int64_t(0));
  return m;
}

Expected<std::vector<ModuleRuns>>
readModuleRuns(StringRef eventsPath, StringRef module, bool withMemory) {
  std::string baseDir = sys::path::parent_path(eventsPath).str();
  std::vector<ModuleRuns> out;
  auto find = [&](const std::string &name) -> ModuleRuns & {
    for (ModuleRuns &m : out)
      if (m.module == name)
        return m;
    out.push_back({});
    out.back().module = name;
    return out.back();
  };
  // Streamed: each module keeps its figures and its last report only.
  Expected<EventFileScan> scan = scanEventFile(eventsPath, [&](TraceEvent &e,
                                                               uint64_t) {
    if (!module.empty() && e.module_name() != module)
      return Error::success();
    ModuleRuns &m = find(e.module_name());
    switch (e.type()) {
    case TraceEvent::COMPILE_BEGIN:
      m.target = e.compile_begin().target();
      break;
    case TraceEvent::COMPILE_END:
      ++m.compiles;
      m.compileNs += e.compile_end().duration_ns();
      m.passes += e.compile_end().pass_timeline_size();
      if (withMemory)
        if (std::optional<ModuleRuns::Memory> mem = memoryOf(e, baseDir))
          m.memory = mem;
      break;
    case TraceEvent::LOAD_ENGINE:
      ++m.loads;
      m.loadNs += e.load_engine().duration_ns();
      break;
    case TraceEvent::HOST_TO_DEVICE_TRANSFER:
      m.bytesToDevice += e.transfer().total_size();
      break;
    case TraceEvent::DEVICE_TO_HOST_TRANSFER:
      m.bytesToHost += e.transfer().total_size();
      break;
    case TraceEvent::EXECUTE: {
      // Ordinals are replicas: bounded by the program, not the file.
      int64_t device = std::clamp<int64_t>(e.ordinal(), 0, 1 << 16);
      m.devices = std::max(m.devices, device + 1);
      if (device == 0)
        m.runHostNs.push_back(e.execute().duration_ns());
      if (!e.execute().has_execution_report())
        break;
      Expected<runtime::ExecutionReport> r = readExecutionReport(e, baseDir);
      if (!r) {
        m.notes.push_back(toString(r.takeError()));
        break;
      }
      if (device != 0) {
        if (size_t(device) >= m.deviceReports.size())
          m.deviceReports.resize(device + 1);
        m.deviceReports[device] = std::move(*r);
        break;
      }
      ++m.reports;
      m.report = std::move(*r);
      if (m.target.empty())
        m.target = m.report->target;
      break;
    }
    default:
      break;
    }
    return Error::success();
  });
  if (!scan)
    return scan.takeError();
  if (scan->damage)
    for (ModuleRuns &m : out)
      m.notes.push_back("the event file is damaged: " +
                        scan->damage->describe() +
                        "; what came before is shown");
  if (!module.empty() && out.empty())
    return createStringError("no events of module '" + module + "' in " +
                             eventsPath);
  return out;
}

Spread spreadOf(ArrayRef<double> values) {
  Spread s;
  s.count = values.size();
  if (values.empty())
    return s;
  s.min = s.max = values.front();
  for (double v : values) {
    s.mean += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean /= values.size();
  for (double v : values)
    s.std += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(s.std / values.size());
  return s;
}

RunFigures runFigures(const runtime::ExecutionReport &r) {
  RunFigures f;
  f.stepSeconds =
      static_cast<double>(r.cycles) / std::max<int64_t>(1, r.clockHz);
  if (r.cycles > 0)
    f.inputBound = static_cast<double>(r.hostCycles) / r.cycles;
  double peak = std::max(r.vectorPeak, r.matrixPeak);
  if (r.cycles > 0 && peak > 0)
    f.utilization = r.flops / (r.cycles * peak);
  int64_t compute = 0, exchange = 0, idle = 0, all = 0;
  for (const runtime::ExecutionReport::Breakdown &b : r.chipCycles) {
    compute += b.compute;
    exchange += b.exchange;
    idle += b.idle;
    all += b.compute + b.exchange + b.sync + b.idle;
  }
  if (all > 0)
    f.idle = static_cast<double>(idle) / all;
  if (compute + exchange > 0)
    f.exchangeShare = static_cast<double>(exchange) / (compute + exchange);
  return f;
}

} // namespace tessera::prof
