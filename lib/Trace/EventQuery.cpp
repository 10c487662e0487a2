//===- EventQuery.cpp - Listing events and extracting their reports -------===//

#include "tessera/Trace/EventQuery.h"
#include "tessera/Trace/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tessera {

namespace {
struct KindName {
  ExtractKind kind;
  StringLiteral name;
};
constexpr KindName kKindNames[] = {
    {ExtractKind::CompileReport, "compile-report"},
    {ExtractKind::TensorMap, "tensor-map"},
    {ExtractKind::InstructionInfo, "instruction-info"},
    {ExtractKind::CompatReport, "compat-report"},
    {ExtractKind::MemoryReport, "memory-report"},
    {ExtractKind::ExecuteReport, "execute-report"},
    {ExtractKind::Program, "program"},
};
constexpr ExtractKind kAllKinds[] = {
    ExtractKind::CompileReport,   ExtractKind::TensorMap,
    ExtractKind::InstructionInfo, ExtractKind::CompatReport,
    ExtractKind::MemoryReport,    ExtractKind::ExecuteReport,
    ExtractKind::Program};

StringRef formatName(ReportFormat format) {
  switch (format) {
  case REPORT_FORMAT_JSON:
    return "json";
  case REPORT_FORMAT_CBOR:
    return "cbor";
  case REPORT_FORMAT_TEXT:
    return "text";
  default:
    return "unspecified";
  }
}

/// "report=123B(json)", "report=dropped(300000000B)" or
/// "report=path(4096B)"; empty when the report is absent.
std::string describeReport(StringRef key, const Report &report) {
  if (report.dropped())
    return formatv("{0}=dropped({1}B)", key, report.size()).str();
  if (report.content_case() == Report::kPath)
    return formatv("{0}=file({1}B,{2})", key, report.size(),
                   formatName(report.format()))
        .str();
  return formatv("{0}={1}B({2})", key, report.data().size(),
                 formatName(report.format()))
      .str();
}
} // namespace

StringRef extractKindName(ExtractKind kind) {
  for (const KindName &entry : kKindNames)
    if (entry.kind == kind)
      return entry.name;
  return "unknown";
}

std::optional<ExtractKind> parseExtractKind(StringRef name) {
  for (const KindName &entry : kKindNames)
    if (entry.name == name)
      return entry.kind;
  return std::nullopt;
}

ArrayRef<ExtractKind> allExtractKinds() { return kAllKinds; }

std::string eventTypeName(const TraceEvent &event) {
  // Files written by a newer build may hold types this build does not know;
  // name them by number rather than printing an empty string.
  if (!TraceEvent::Type_IsValid(event.type()) ||
      event.type() == TraceEvent::TYPE_UNSPECIFIED)
    return formatv("UNKNOWN({0})", static_cast<int>(event.type())).str();
  return TraceEvent::Type_Name(event.type());
}

std::string describePayload(const TraceEvent &event) {
  std::vector<std::string> words;
  // Device 0 is the only one of a program of one replica: said only when
  // another exists.
  if (event.ordinal() != 0)
    words.push_back(formatv("ordinal={0}", event.ordinal()));
  switch (event.payload_case()) {
  case TraceEvent::kCompileBegin:
    words.push_back("target=" + event.compile_begin().target());
    words.push_back(
        formatv("module_id={0}", event.compile_begin().module_id()));
    break;
  case TraceEvent::kCompileEnd: {
    const CompileEnd &end = event.compile_end();
    words.push_back(formatv("duration_ns={0}", end.duration_ns()));
    if (end.cached())
      words.push_back("cached");
    if (end.has_compilation_report())
      words.push_back(describeReport("report", end.compilation_report()));
    if (end.has_tensor_map())
      words.push_back(describeReport("tensor_map", end.tensor_map()));
    if (end.has_instruction_info())
      words.push_back(
          describeReport("instruction_info", end.instruction_info()));
    if (end.has_compatibility_report())
      words.push_back(describeReport("compat", end.compatibility_report()));
    if (end.has_memory_report())
      words.push_back(describeReport("memory", end.memory_report()));
    words.push_back(formatv("passes={0}", end.pass_timeline_size()));
    if (!end.serialized_program().empty())
      words.push_back(formatv("program={0}B", end.serialized_program().size()));
    break;
  }
  case TraceEvent::kTransfer:
    words.push_back(formatv("tensors={0}", event.transfer().tensors_size()));
    words.push_back(formatv("total_size={0}B", event.transfer().total_size()));
    break;
  case TraceEvent::kLoadEngine:
    words.push_back(
        formatv("program_size={0}B", event.load_engine().program_size()));
    words.push_back(
        formatv("duration_ns={0}", event.load_engine().duration_ns()));
    break;
  case TraceEvent::kExecute:
    words.push_back(formatv("run={0}", event.execute().run_index()));
    words.push_back(formatv("duration_ns={0}", event.execute().duration_ns()));
    if (event.execute().has_execution_report())
      words.push_back(
          describeReport("report", event.execute().execution_report()));
    break;
  case TraceEvent::PAYLOAD_NOT_SET:
    words.push_back("no-payload");
    break;
  }
  return join(words, " ");
}

const Report *findReport(const TraceEvent &event, ExtractKind kind) {
  if (kind == ExtractKind::ExecuteReport)
    return event.has_execute() && event.execute().has_execution_report()
               ? &event.execute().execution_report()
               : nullptr;
  if (!event.has_compile_end())
    return nullptr;
  const CompileEnd &end = event.compile_end();
  switch (kind) {
  case ExtractKind::CompileReport:
    return end.has_compilation_report() ? &end.compilation_report() : nullptr;
  case ExtractKind::TensorMap:
    return end.has_tensor_map() ? &end.tensor_map() : nullptr;
  case ExtractKind::InstructionInfo:
    return end.has_instruction_info() ? &end.instruction_info() : nullptr;
  case ExtractKind::CompatReport:
    return end.has_compatibility_report() ? &end.compatibility_report()
                                          : nullptr;
  case ExtractKind::MemoryReport:
    return end.has_memory_report() ? &end.memory_report() : nullptr;
  default:
    return nullptr;
  }
}

bool hasExtractable(const TraceEvent &event, ExtractKind kind) {
  if (kind == ExtractKind::Program)
    return event.has_compile_end() &&
           !event.compile_end().serialized_program().empty();
  return findReport(event, kind) != nullptr;
}

Expected<std::string> extractBytes(const TraceEvent &event, ExtractKind kind,
                                   StringRef baseDir) {
  if (!hasExtractable(event, kind))
    return createStringError(
        errc::invalid_argument, "the %s event of module '%s' carries no %s",
        eventTypeName(event).c_str(), event.module_name().c_str(),
        extractKindName(kind).str().c_str());
  if (kind == ExtractKind::Program)
    return event.compile_end().serialized_program();
  const Report &report = *findReport(event, kind);
  if (report.dropped())
    return createStringError(
        errc::file_too_large,
        "the %s of module '%s' was dropped: its %lld bytes exceeded "
        "max_report_size",
        extractKindName(kind).str().c_str(), event.module_name().c_str(),
        static_cast<long long>(report.size()));
  Expected<std::optional<std::string>> path = reportFilePath(report, baseDir);
  if (!path)
    return path.takeError();
  if (!*path)
    return report.data();
  // "cannot read the tensor-map of module 'm' from 'path': ..."
  std::string what = extractKindName(kind).str() + " of module '" +
                     event.module_name() + "' from";
  Expected<std::unique_ptr<MemoryBuffer>> buffer =
      readInputFile(**path, kMaxReportBytes, what);
  if (!buffer)
    return buffer.takeError();
  return (*buffer)->getBuffer().str();
}

static std::vector<std::string> &trustedRoots() {
  static std::vector<std::string> roots;
  return roots;
}

void trustReportRoot(StringRef dir) { trustedRoots().push_back(dir.str()); }

/// `path` with symbolic links resolved when it exists (so a link cannot
/// lead out of a folder), else made absolute without "." and "..".
static std::string canonical(StringRef path) {
  SmallString<256> real;
  if (!sys::fs::real_path(path, real))
    return std::string(real);
  SmallString<256> abs(path);
  sys::fs::make_absolute(abs);
  sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return std::string(abs);
}

static bool isInside(StringRef path, StringRef dir) {
  std::string root = canonical(dir.empty() ? "." : dir);
  if (!path.starts_with(root) || path.size() <= root.size())
    return false;
  // "/a/b" is inside "/a" (and anything below "/" is inside it), "/ab" not.
  return sys::path::is_separator(root.back()) ||
         sys::path::is_separator(path[root.size()]);
}

Expected<std::optional<std::string>> reportFilePath(const Report &report,
                                                    StringRef baseDir) {
  if (report.content_case() != Report::kPath)
    return std::nullopt;
  SmallString<256> path(report.path());
  if (sys::path::is_relative(path) && !baseDir.empty()) {
    path = baseDir;
    sys::path::append(path, report.path());
  }
  // Event files are data, not instructions: a path in one is followed only
  // into the event file's folder or a folder the user trusts, never to
  // /etc/passwd or ../../ anything.
  std::string resolved = canonical(path);
  if (isInside(resolved, baseDir) ||
      llvm::any_of(trustedRoots(),
                   [&](const std::string &r) { return isInside(resolved, r); }))
    return std::optional<std::string>(path.str().str());
  // The path is the event file's, not the user's: shown up to a point.
  constexpr size_t kShown = 256;
  std::string shown = report.path().size() > kShown
                          ? report.path().substr(0, kShown) + "..."
                          : report.path();
  return createStringError(
      errc::permission_denied,
      "the event file names the report '%s', outside its folder '%s': "
      "reports are read only from there (--report-root=DIR trusts another "
      "folder)",
      shown.c_str(),
      (baseDir.empty() ? StringRef(".") : baseDir).str().c_str());
}

Expected<std::vector<Extracted>>
extractAll(ArrayRef<TraceEvent> events, ExtractKind kind, StringRef baseDir) {
  std::vector<Extracted> items;
  for (auto [index, event] : enumerate(events)) {
    if (!hasExtractable(event, kind))
      continue;
    Expected<std::string> bytes = extractBytes(event, kind, baseDir);
    if (!bytes)
      return bytes.takeError();
    items.push_back({index, event.module_name(), std::move(*bytes)});
  }
  return items;
}

} // namespace tessera
