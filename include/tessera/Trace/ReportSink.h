//===- ReportSink.h - Analysis results to events and files ------*- C++ -*-===//
//
// DESIGN's rule: passes compute results, the report sink alone turns them
// into events and files. A compile hands the sink named JSON reports (each
// says which COMPILE_END field and which report-directory file it belongs
// to), the pass timeline and optionally the serialized program; the sink
// applies the options (profiling / enable_events, report_format,
// max_report_size, report_directory, serialized_graph) and writes
// COMPILE_BEGIN / COMPILE_END events plus report files. New reports (memory,
// tensor map, execution) plug in as another ReportKind, not new code paths.
//
// MLIR-free on purpose: the runtime and tessera-prof link lib/Trace too.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TRACE_REPORTSINK_H
#define TESSERA_TRACE_REPORTSINK_H

#include "tessera/Trace/Flags.h"
#include "tessera_events.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera {

/// Which COMPILE_END field (and report-directory file) a report goes to.
enum class ReportKind {
  Compilation,     ///< compilation_report, graph.{json,cbor,txt}
  TensorMap,       ///< tensor_map, tensor_map.json
  InstructionInfo, ///< instruction_info, framework.json
  Compatibility,   ///< compatibility_report, compat.json
  Memory,          ///< memory_report, memory.{json,cbor,txt}
  Execution,       ///< EXECUTE's execution_report, execution.N.{json,...}
};

/// "compilation report", "tensor map", ... for messages.
llvm::StringRef reportKindDescription(ReportKind kind);

/// One analysis result handed to the sink.
struct NamedReport {
  ReportKind kind;
  nlohmann::ordered_json json;
  /// The readable form used with report_format=text. Only the compilation
  /// report follows report_format; when unset, text means indented JSON.
  std::function<void(const nlohmann::ordered_json &, llvm::raw_ostream &)>
      renderText;
};

/// The sink's options, taken from the (merged) flags.
struct ReportSinkOptions {
  bool profiling = false;
  bool enableEvents = false;
  ReportFormat format = REPORT_FORMAT_JSON;
  int64_t maxReportSize = 268435456;
  std::string reportDirectory;
  bool serializedGraph = false;

  static ReportSinkOptions fromFlags(const TesseraFlags &flags);
  /// Whether COMPILE_BEGIN/END events are written at all.
  bool writesEvents() const { return profiling || enableEvents; }
  /// Whether reports are produced (events-only mode leaves them empty).
  bool writesReports() const { return profiling; }
};

/// One pass execution as recorded by the compile instrumentation. Times are
/// relative to the module's compile start.
struct PassTiming {
  std::string name;
  int64_t startNs = 0;
  int64_t durationNs = 0;
  int64_t opsBefore = 0;
  int64_t opsAfter = 0;
  /// 0 for passes on the module, 1 for passes nested in those, ...
  unsigned depth = 0;
  bool failed = false;
  /// 0 for the compile's own thread; 1 for a phase run on a thread of its
  /// own alongside it (the reports, built while the executable is
  /// written). Depths nest within a lane.
  unsigned lane = 0;
};

/// The pass timeline a COMPILE_END event holds, as the compile recorded
/// it (a record does not say whether its pass failed: false).
std::vector<PassTiming> passTimeline(const CompileEnd &end);

struct CompileBeginInfo {
  std::string moduleName;
  std::string target;
  int64_t moduleId = 0;
};

struct CompileEndInfo {
  int64_t durationNs = 0;
  std::vector<NamedReport> reports;
  std::vector<PassTiming> passes;
  /// Put in the event only with serialized_graph.
  std::string serializedProgram;
  /// The executable came from the executable cache: no pipeline ran, so
  /// there are no reports or passes (CompileEnd.cached).
  bool cached = false;
};

/// Where events go: an event file, or a vector in tests.
class EventOutput {
public:
  virtual ~EventOutput();
  virtual llvm::Error write(const TraceEvent &event) = 0;
};

/// A process-unique, increasing module id (1, 2, ...): the XXXX of dump
/// names and CompileBegin.module_id.
int64_t allocateModuleId();

/// Nanoseconds since the Unix epoch (event timestamps).
int64_t unixTimeNs();

/// The bytes of `report` in `format` (JSON: 2-space indented, but without
/// indentation for the reports that grow with the model; CBOR: nlohmann's
/// to_cbor of the same object; text: renderText, or JSON when the report
/// has no text form). Invalid UTF-8 is replaced, never aborts.
std::string encodeReport(const NamedReport &report, ReportFormat format);

/// encodeReport() of each of `reports`, the same bytes, encoded side by
/// side on LLVM's executor: the members of an unindented JSON object are
/// encoded apart and joined, so one large report is not one long task.
std::vector<std::string> encodeReports(llvm::ArrayRef<NamedReport> reports,
                                       ReportFormat format);

/// The report-directory file name of `kind` ("graph.cbor", ...).
std::string reportFileName(ReportKind kind, ReportFormat format);

class ReportSink {
public:
  /// `events` may be null when the options write no events. `eventFolder`
  /// is the folder of the event file: report paths in events are relative
  /// to it when the report lies below it, absolute otherwise. Warnings
  /// (dropped reports) go to `warnings`, prefixed with `toolName`.
  ReportSink(ReportSinkOptions options, EventOutput *events,
             std::string eventFolder, std::string toolName,
             llvm::raw_ostream &warnings);

  const ReportSinkOptions &options() const { return opts; }

  /// Writes COMPILE_BEGIN (when events are on).
  llvm::Error compileBegin(const CompileBeginInfo &info);

  /// Encodes the reports, writes them to the report directory when one is
  /// set (atomically, one sub-folder per module) and writes COMPILE_END.
  llvm::Error compileEnd(const CompileBeginInfo &info,
                         const CompileEndInfo &end);

  /// Report files written so far; removeWrittenFiles deletes them (and the
  /// module folders the sink created) when the compile fails afterwards.
  llvm::ArrayRef<std::string> writtenFiles() const { return written; }
  void removeWrittenFiles();

  /// Encodes `report` into `out` by the options: inline, dropped when too
  /// large, or written to the module's report folder as `fileName` (by
  /// default reportFileName's). Execution reports use it per run.
  llvm::Error fillReport(const CompileBeginInfo &info,
                         const NamedReport &report, Report &out,
                         llvm::StringRef fileName = "");

private:
  std::string pathForEvent(llvm::StringRef file) const;
  /// fillReport() with the report already encoded in `format`.
  llvm::Error placeReport(const CompileBeginInfo &info, ReportKind kind,
                          ReportFormat format, std::string bytes, Report &out,
                          llvm::StringRef fileName = "");

  ReportSinkOptions opts;
  EventOutput *events;
  std::string eventFolder;
  std::string toolName;
  llvm::raw_ostream &warnings;
  std::vector<std::string> written;
  std::vector<std::string> createdDirs;
};

} // namespace tessera

#endif // TESSERA_TRACE_REPORTSINK_H
