//===- RunSummary.h - What an event file says about a model's runs -*- C++ -*-===//
//
// The model behind `tessera-prof overview` and `op-profile`: per module,
// the compile, the load, the transfers and every run the event file
// records, with the last execution report read back into its struct
// (runtime::ExecutionReport). Computed once, formatted as text or JSON by
// each command; docs/profiling.md describes every figure.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_PROF_RUNSUMMARY_H
#define TESSERA_TOOLS_PROF_RUNSUMMARY_H

#include "tessera/Memory/ReportForms.h"
#include "tessera/Runtime/ExecutionReport.h"
#include "tessera/Trace/EventQuery.h"

#include "tessera_events.pb.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tessera::prof {

struct ModuleRuns {
  std::string module, target;
  int64_t compileNs = 0, compiles = 0, passes = 0;
  int64_t loadNs = 0, loads = 0;
  int64_t bytesToDevice = 0, bytesToHost = 0;
  /// tessera-run's wall time of each run (EXECUTE duration_ns) of device
  /// 0: a program of several replicas runs each on every replica's device,
  /// and replica 0 speaks for the run.
  std::vector<int64_t> runHostNs;
  /// The last run of device 0 with an execution report; its `runs` hold
  /// every run of that process up to it.
  std::optional<runtime::ExecutionReport> report;
  int64_t reports = 0;
  /// Devices the runs used (the largest EXECUTE ordinal + 1), and the last
  /// execution report of each device after 0 (index d; device 0's is
  /// `report`): the pod view's measured figures.
  int64_t devices = 1;
  std::vector<std::optional<runtime::ExecutionReport>> deviceReports;
  /// Device d's last report, or null.
  const runtime::ExecutionReport *deviceReport(int64_t d) const {
    if (d == 0)
      return report ? &*report : nullptr;
    return d < static_cast<int64_t>(deviceReports.size()) && deviceReports[d]
               ? &*deviceReports[d]
               : nullptr;
  }
  /// From the last compile's memory report: the most loaded tile and the
  /// mean used tile (bytes including gaps), tiles out of memory.
  struct Memory {
    int64_t maxTile = 0, maxBytes = 0, meanBytes = 0, outOfMemory = 0;
  };
  std::optional<Memory> memory;
  /// Why a report could not be read (a text report, a dropped one).
  std::vector<std::string> notes;
};

/// A report's bytes as JSON, whether written as JSON or CBOR; a discarded
/// value when they are not valid. Never aborts (exceptions are off).
template <typename Json>
Json parseReportBytes(llvm::StringRef bytes, ReportFormat format) {
  return format == REPORT_FORMAT_CBOR
             ? Json::from_cbor(bytes.bytes_begin(), bytes.bytes_end(),
                               /*strict=*/true, /*allow_exceptions=*/false)
             : Json::parse(bytes.begin(), bytes.end(), nullptr,
                           /*allow_exceptions=*/false);
}

/// The report of `kind` that `event` carries, as a JSON object (reports
/// stored by path are read from beside the event file, `baseDir`); an
/// error says why not: a text report, one that cannot be read, or not a
/// valid report.
template <typename Json>
llvm::Expected<Json> decodeReport(const TraceEvent &event, ExtractKind kind,
                                  llvm::StringRef baseDir) {
  const Report *report = findReport(event, kind);
  if (report && report->format() == REPORT_FORMAT_TEXT)
    return llvm::createStringError(
        extractKindName(kind) + " is text (report_format=text); compile "
                                "with report_format=json or cbor");
  llvm::Expected<std::string> bytes = extractBytes(event, kind, baseDir);
  if (!bytes)
    return bytes.takeError();
  Json j = parseReportBytes<Json>(*bytes, report->format());
  if (j.is_discarded() || !j.is_object())
    return llvm::createStringError(extractKindName(kind) + " of '" +
                                   event.module_name() +
                                   "' is not a valid report");
  // Every view reads the memory report's complete form.
  if (kind == ExtractKind::MemoryReport)
    return memory::expandMemoryReport(j);
  return j;
}

/// The execution report of an EXECUTE event, parsed (following a path
/// relative to `baseDir`); an error says why not (dropped, text, invalid).
llvm::Expected<runtime::ExecutionReport>
readExecutionReport(const TraceEvent &event, llvm::StringRef baseDir);

/// Reads `eventsPath` (reports stored by path are read from beside it).
/// Modules in order of first appearance; `module` keeps only that one.
/// `withMemory` false skips decoding the memory reports (ModuleRuns::memory
/// stays empty) for a caller that has read the one it needs.
llvm::Expected<std::vector<ModuleRuns>>
readModuleRuns(llvm::StringRef eventsPath, llvm::StringRef module,
               bool withMemory = true);

/// mean, population standard deviation, min, max.
struct Spread {
  double mean = 0, std = 0, min = 0, max = 0;
  int64_t count = 0;
};
Spread spreadOf(llvm::ArrayRef<double> values);

/// Run-wide figures derived from the report.
struct RunFigures {
  double stepSeconds = 0;     ///< the last reported run's device time
  double inputBound = 0;      ///< host-wait cycles / cycles
  std::optional<double> idle; ///< mean tile idle share (chip, tile levels)
  double utilization = 0;     ///< FLOPs / (cycles x the best unit's peak)
  /// exchange / (compute + exchange) cycles (chip, tile levels)
  std::optional<double> exchangeShare;
};
RunFigures runFigures(const runtime::ExecutionReport &report);

/// The overview (`tessera-prof overview --json`, one module): the job,
/// run and step time, idle, utilization, the `top` ops, recommendations.
nlohmann::ordered_json overviewJson(const ModuleRuns &m, int64_t top);

/// The op profile (`op-profile --json`, one module): categories by cycles,
/// each with its `top` ops and their padding fit.
nlohmann::ordered_json opProfileJson(const ModuleRuns &m, int64_t top);

} // namespace tessera::prof

#endif // TESSERA_TOOLS_PROF_RUNSUMMARY_H
