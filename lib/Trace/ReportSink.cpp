//===- ReportSink.cpp - Analysis results to events and report files -------===//

#include "tessera/Trace/ReportSink.h"

#include "tessera/Support/Parallel.h"
#include "tessera/Trace/AtomicFile.h"
#include "tessera/Trace/DumpNames.h"
#include "tessera/Trace/JsonWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <chrono>

using namespace llvm;
using json = nlohmann::ordered_json;

namespace tessera {

EventOutput::~EventOutput() = default;

StringRef reportKindDescription(ReportKind kind) {
  switch (kind) {
  case ReportKind::Compilation:
    return "compilation report";
  case ReportKind::TensorMap:
    return "tensor map";
  case ReportKind::InstructionInfo:
    return "instruction info";
  case ReportKind::Compatibility:
    return "compatibility report";
  case ReportKind::Memory:
    return "memory report";
  case ReportKind::Execution:
    return "execution report";
  }
  return "report";
}

ReportSinkOptions ReportSinkOptions::fromFlags(const TesseraFlags &flags) {
  ReportSinkOptions options;
  options.profiling = flags.profiling;
  options.enableEvents = flags.enableEvents;
  if (flags.reportFormat == "cbor")
    options.format = REPORT_FORMAT_CBOR;
  else if (flags.reportFormat == "text")
    options.format = REPORT_FORMAT_TEXT;
  else
    options.format = REPORT_FORMAT_JSON;
  options.maxReportSize = flags.maxReportSize;
  options.reportDirectory = flags.reportDirectory;
  options.serializedGraph = flags.serializedGraph;
  return options;
}

int64_t allocateModuleId() {
  static std::atomic<int64_t> next{1};
  return next++;
}

int64_t unixTimeNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// The compilation and memory reports follow report_format; the other
/// reports are JSON documents with their own schemas (tensor map, compat)
/// and stay JSON, which is also what the report directory's fixed names
/// promise.
static ReportFormat effectiveFormat(ReportKind kind, ReportFormat format) {
  return kind == ReportKind::Compilation || kind == ReportKind::Memory ||
                 kind == ReportKind::Execution
             ? format
             : REPORT_FORMAT_JSON;
}

/// Reports whose size grows with the model's ops, tensors and tiles.
static bool growsWithModel(ReportKind kind) {
  return kind == ReportKind::TensorMap || kind == ReportKind::InstructionInfo ||
         kind == ReportKind::Compatibility || kind == ReportKind::Memory;
}

std::string encodeReport(const NamedReport &report, ReportFormat format) {
  switch (effectiveFormat(report.kind, format)) {
  case REPORT_FORMAT_CBOR: {
    std::vector<uint8_t> bytes = json::to_cbor(report.json);
    return std::string(bytes.begin(), bytes.end());
  }
  case REPORT_FORMAT_TEXT:
    if (report.renderText) {
      std::string text;
      raw_string_ostream os(text);
      report.renderText(report.json, os);
      return text;
    }
    [[fallthrough]];
  default:
    // Names in reports come from user input: dumpJson replaces invalid
    // UTF-8 rather than throw (which aborts without exceptions). The
    // reports that grow with the model are not indented: indentation was
    // half their bytes, and readers parse them. The compilation and
    // execution reports are summaries people read as they are.
    return dumpJson(report.json, growsWithModel(report.kind) ? -1 : 2) + "\n";
  }
}

/// Whether `container`'s values, and theirs, are at least `left`; stops
/// counting there. A container's values are counted by its size and only
/// the containers among them visited: visiting every number and string
/// was half a small model's report encoding, for a yes or no. An array
/// whose first value is not a container is taken to hold none (a report's
/// arrays are columns of numbers or lists of entries): walking its numbers
/// to find none was 4% of bert's reports. The answer only decides whether
/// the encoding uses threads, never its bytes.
static bool hasValuesIn(const json &container, size_t &left) {
  size_t n = container.size();
  if (n >= left) {
    left = 0;
    return true;
  }
  left -= n;
  if (container.is_array() && n > 0 && !container.front().is_structured())
    return false;
  for (const json &v : container)
    if (v.is_structured() && !v.empty() && hasValuesIn(v, left))
      return true;
  return false;
}

/// Whether `value` has at least `left` values (objects and arrays count
/// theirs); stops counting there.
static bool hasValues(const json &value, size_t &left) {
  if (left <= 1) {
    left = 0;
    return true;
  }
  --left;
  return value.is_structured() && hasValuesIn(value, left);
}

std::vector<std::string> encodeReports(ArrayRef<NamedReport> reports,
                                       ReportFormat format) {
  // Reports of fewer values than this in all are encoded on this thread:
  // tasks cost a small compile more than they save (a 10k-op graph's
  // memory report has ~1 M values, mnist's reports all together ~24k).
  size_t left = size_t(1) << 17;
  bool parallel = false;
  for (const NamedReport &report : reports)
    if ((parallel = hasValues(report.json, left)))
      break;
  // A part is a member of an unindented JSON object (its key and value,
  // "k":v) or a whole report; a report's parts joined are its dump.
  struct Part {
    size_t report;
    const json *value = nullptr; ///< null: the whole report
    std::string key, bytes;
  };
  std::vector<Part> parts;
  std::vector<bool> split(reports.size(), false);
  for (auto [i, report] : llvm::enumerate(reports)) {
    split[i] = effectiveFormat(report.kind, format) == REPORT_FORMAT_JSON &&
               growsWithModel(report.kind) && report.json.is_object() &&
               !report.json.empty();
    if (!split[i]) {
      parts.push_back({i});
      continue;
    }
    for (auto it = report.json.begin(); it != report.json.end(); ++it)
      parts.push_back({i, &it.value(), it.key()});
  }
  auto encode = [&](size_t p) {
    Part &part = parts[p];
    if (!part.value) {
      part.bytes = encodeReport(reports[part.report], format);
      return;
    }
    appendJson(json(part.key), -1, part.bytes);
    part.bytes += ':';
    appendJson(*part.value, -1, part.bytes);
  };
  parallelForIf(parallel, parts.size(), encode);
  std::vector<std::string> out(reports.size());
  for (Part &part : parts) {
    std::string &bytes = out[part.report];
    if (!split[part.report]) {
      bytes = std::move(part.bytes);
      continue;
    }
    bytes += bytes.empty() ? "{" : ",";
    bytes += part.bytes;
  }
  for (size_t i = 0; i < reports.size(); ++i)
    if (split[i])
      out[i] += "}\n";
  return out;
}

std::string reportFileName(ReportKind kind, ReportFormat format) {
  switch (kind) {
  case ReportKind::Compilation:
    switch (format) {
    case REPORT_FORMAT_CBOR:
      return "graph.cbor";
    case REPORT_FORMAT_TEXT:
      return "graph.txt";
    default:
      return "graph.json";
    }
  case ReportKind::TensorMap:
    return "tensor_map.json";
  case ReportKind::InstructionInfo:
    return "framework.json";
  case ReportKind::Compatibility:
    return "compat.json";
  case ReportKind::Memory:
    switch (format) {
    case REPORT_FORMAT_CBOR:
      return "memory.cbor";
    case REPORT_FORMAT_TEXT:
      return "memory.txt";
    default:
      return "memory.json";
    }
  case ReportKind::Execution:
    switch (format) {
    case REPORT_FORMAT_CBOR:
      return "execution.cbor";
    case REPORT_FORMAT_TEXT:
      return "execution.txt";
    default:
      return "execution.json";
    }
  }
  return "report.json";
}

ReportSink::ReportSink(ReportSinkOptions options, EventOutput *events,
                       std::string eventFolder, std::string toolName,
                       raw_ostream &warnings)
    : opts(std::move(options)), events(events),
      eventFolder(std::move(eventFolder)), toolName(std::move(toolName)),
      warnings(warnings) {}

/// Relative to the event file's folder when below it, so a run folder can be
/// moved as a whole; absolute otherwise (docs/events.md allows both).
std::string ReportSink::pathForEvent(StringRef file) const {
  SmallString<256> absFile(file), absBase(eventFolder);
  sys::fs::make_absolute(absFile);
  sys::fs::make_absolute(absBase);
  sys::path::remove_dots(absFile, /*remove_dot_dot=*/true);
  sys::path::remove_dots(absBase, /*remove_dot_dot=*/true);
  StringRef rest = absFile;
  if (rest.consume_front(absBase) && sys::path::is_separator(rest.front()))
    return rest.drop_front().str();
  return absFile.str().str();
}

Error ReportSink::fillReport(const CompileBeginInfo &info,
                             const NamedReport &report, Report &out,
                             StringRef fileName) {
  ReportFormat format = effectiveFormat(report.kind, opts.format);
  return placeReport(info, report.kind, format, encodeReport(report, format),
                     out, fileName);
}

Error ReportSink::placeReport(const CompileBeginInfo &info, ReportKind kind,
                              ReportFormat format, std::string bytes,
                              Report &out, StringRef fileName) {
  out.set_format(format);
  out.set_size(static_cast<int64_t>(bytes.size()));
  if (static_cast<int64_t>(bytes.size()) > opts.maxReportSize) {
    out.set_dropped(true);
    warnings << formatv("{0}: warning: the {1} of module '{2}' is {3} bytes, "
                        "more than --max_report_size={4}; it is dropped\n",
                        toolName, reportKindDescription(kind), info.moduleName,
                        bytes.size(), opts.maxReportSize);
    return Error::success();
  }
  if (opts.reportDirectory.empty()) {
    out.set_data(std::move(bytes));
    return Error::success();
  }
  // One folder per module, named like the dumps: a hostile module name stays
  // a single component inside the report directory.
  SmallString<256> folder(opts.reportDirectory);
  sys::path::append(folder, sanitizeFileComponent(info.moduleName));
  if (!sys::fs::exists(folder)) {
    // Remember every folder this creates (outermost first), so a failed
    // compile can take them all back.
    std::vector<std::string> missing;
    for (StringRef dir = folder; !dir.empty() && !sys::fs::exists(dir);
         dir = sys::path::parent_path(dir))
      missing.insert(missing.begin(), dir.str());
    if (std::error_code ec = sys::fs::create_directories(folder))
      return createStringError(ec, "cannot create folder '%s': %s",
                               folder.c_str(), ec.message().c_str());
    createdDirs.insert(createdDirs.end(), missing.begin(), missing.end());
  }
  SmallString<256> file(folder);
  sys::path::append(file, fileName.empty()
                              ? StringRef(reportFileName(kind, format))
                              : fileName);
  if (Error err = writeFileAtomically(file, bytes))
    return err;
  written.push_back(file.str().str());
  out.set_path(pathForEvent(file));
  return Error::success();
}

Error ReportSink::compileBegin(const CompileBeginInfo &info) {
  if (!opts.writesEvents() || !events)
    return Error::success();
  TraceEvent event;
  event.set_timestamp_ns(unixTimeNs());
  event.set_type(TraceEvent::COMPILE_BEGIN);
  event.set_module_name(info.moduleName);
  event.mutable_compile_begin()->set_target(info.target);
  event.mutable_compile_begin()->set_module_id(info.moduleId);
  return events->write(event);
}

static Report *reportField(CompileEnd &end, ReportKind kind) {
  switch (kind) {
  case ReportKind::Compilation:
    return end.mutable_compilation_report();
  case ReportKind::TensorMap:
    return end.mutable_tensor_map();
  case ReportKind::InstructionInfo:
    return end.mutable_instruction_info();
  case ReportKind::Compatibility:
    return end.mutable_compatibility_report();
  case ReportKind::Memory:
    return end.mutable_memory_report();
  case ReportKind::Execution:
    break;
  }
  return nullptr;
}

Error ReportSink::compileEnd(const CompileBeginInfo &info,
                             const CompileEndInfo &end) {
  TraceEvent event;
  event.set_type(TraceEvent::COMPILE_END);
  event.set_module_name(info.moduleName);
  CompileEnd &payload = *event.mutable_compile_end();
  payload.set_duration_ns(end.durationNs);
  payload.set_module_id(info.moduleId);
  payload.set_cached(end.cached);
  // Events-only mode: the events, but no report is even built into bytes.
  // Encoding is most of a large report's cost and reads only its report:
  // the reports are encoded side by side (encodeReports), then placed in
  // order.
  if (opts.writesReports()) {
    std::vector<std::string> bytes = encodeReports(end.reports, opts.format);
    for (auto [report, encoded] : llvm::zip_equal(end.reports, bytes))
      if (Error err = placeReport(
              info, report.kind, effectiveFormat(report.kind, opts.format),
              std::move(encoded), *reportField(payload, report.kind)))
        return err;
  }
  for (const PassTiming &pass : end.passes) {
    PassRecord *record = payload.add_pass_timeline();
    record->set_name(pass.name);
    record->set_start_ns(pass.startNs);
    record->set_duration_ns(pass.durationNs);
    record->set_ops_before(pass.opsBefore);
    record->set_ops_after(pass.opsAfter);
    record->set_depth(pass.depth);
    record->set_lane(pass.lane);
  }
  if (opts.serializedGraph)
    payload.set_serialized_program(end.serializedProgram);
  if (!opts.writesEvents() || !events)
    return Error::success();
  event.set_timestamp_ns(unixTimeNs());
  return events->write(event);
}

std::vector<PassTiming> passTimeline(const CompileEnd &end) {
  std::vector<PassTiming> passes;
  passes.reserve(end.pass_timeline_size());
  for (const PassRecord &r : end.pass_timeline())
    passes.push_back({r.name(), r.start_ns(), r.duration_ns(), r.ops_before(),
                      r.ops_after(), r.depth(), false, r.lane()});
  return passes;
}

void ReportSink::removeWrittenFiles() {
  for (const std::string &file : written)
    sys::fs::remove(file);
  written.clear();
  // Innermost first; remove() of a non-empty folder fails and keeps it.
  for (auto it = createdDirs.rbegin(); it != createdDirs.rend(); ++it)
    sys::fs::remove(*it);
  createdDirs.clear();
}

} // namespace tessera
